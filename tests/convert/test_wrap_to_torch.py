"""``to_torch`` of any portable model: a model traced from Flax or Keras, or an
``ivy_like.nn`` model, comes back as a torch module owning its weights (statistics as
buffers), computing the same function, with torch's autograd seeing every op."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
jax = pytest.importorskip("jax")
fnn = pytest.importorskip("flax.linen")

import ivy_like  # noqa: E402
from ivy_like.convert import from_flax, to_torch  # noqa: E402

RNG = np.random.default_rng(7)


class Net(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        x = fnn.Dense(4)(x)
        x = fnn.BatchNorm(use_running_average=True)(x)
        return fnn.Dense(2)(fnn.relu(x))


def _flax_case():
    x = RNG.standard_normal((3, 5)).astype(np.float32)
    net = Net()
    variables = net.init(jax.random.key(0), x)
    stats = jax.tree_util.tree_map(
        lambda a: a + RNG.uniform(0.1, 0.5, a.shape).astype(np.float32),
        variables["batch_stats"],
    )
    variables = {"params": variables["params"], "batch_stats": stats}
    return net, variables, x


def test_a_model_traced_from_flax_computes_the_same_in_torch_and_trains_there():
    net, variables, x = _flax_case()
    model = from_flax(net, variables, x, backend="numpy")
    module = to_torch(model)
    assert dict(module.named_buffers()).keys() == {
        "batch_stats.BatchNorm_0.mean",
        "batch_stats.BatchNorm_0.var",
    }
    assert len(list(module.parameters())) == 6
    out = module(torch.from_numpy(x))
    np.testing.assert_allclose(out.detach().numpy(), net.apply(variables, x), atol=1e-5)

    out.square().sum().backward()  # gradients as jax gives them for the Flax model
    expected = jax.grad(lambda p: (net.apply({**variables, "params": p}, x) ** 2).sum())(
        variables["params"]
    )
    got = module.get_parameter("params.Dense_0.kernel").grad
    np.testing.assert_allclose(got.numpy(), expected["Dense_0"]["kernel"], rtol=1e-4, atol=1e-5)

    with torch.no_grad():  # the module owns copies: the ivy_like model is untouched
        module.get_parameter("params.Dense_0.kernel").add_(1.0)
    np.testing.assert_allclose(
        np.asarray(model.params["params"]["Dense_0"]["kernel"]),
        variables["params"]["Dense_0"]["kernel"],
    )


def test_an_ivy_like_model_and_a_keras_functional_model():
    x = RNG.standard_normal((2, 5)).astype(np.float32)
    mlp = ivy_like.nn.MLP([5, 4, 2], seed=0, backend="numpy")
    np.testing.assert_allclose(
        to_torch(mlp)(torch.from_numpy(x)).detach().numpy(), np.asarray(mlp(x)), atol=1e-6
    )
    keras = pytest.importorskip("keras")
    from ivy_like.convert import from_keras

    inp = keras.Input((5,))
    h = keras.layers.Dense(3, activation="relu")(inp)
    km = keras.Model(inp, keras.layers.Add()([keras.layers.Dense(3)(h), h]))
    module = to_torch(from_keras(km, backend="numpy"))
    np.testing.assert_allclose(
        module(torch.from_numpy(x)).detach().numpy(), np.asarray(km(x)), atol=1e-5
    )


def test_an_object_that_is_not_a_model_is_a_type_error():
    with pytest.raises(TypeError, match="to_torch: model must be an ivy_like model"):
        to_torch(object())


def test_torch_export_takes_the_module():
    """``torch.export`` (non-strict: it runs ``forward``'s Python) records ivy_like's torch ops
    as one ATen graph, with a dynamic batch where the model takes any batch (an
    ``ivy_like.nn`` model); the exported program computes what the module computes."""
    net, variables, x = _flax_case()
    module = to_torch(from_flax(net, variables, x, backend="numpy"))
    xt = torch.from_numpy(x)
    program = torch.export.export(module, (xt,), strict=False)
    torch.testing.assert_close(program.module()(xt), module(xt))

    mlp = to_torch(ivy_like.nn.MLP([5, 4, 2], seed=0, backend="numpy"))
    batch = torch.export.Dim("batch")
    program = torch.export.export(mlp, (xt,), dynamic_shapes=({0: batch},), strict=False)
    other = torch.from_numpy(RNG.standard_normal((7, 5)).astype(np.float32))
    torch.testing.assert_close(program.module()(other), mlp(other))

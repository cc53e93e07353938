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


# -- torch.compile(fullgraph=True) of every to_torch module ---------------------------------------
def _compile_case(source):
    """(module from to_torch, its inputs) for each kind of source."""
    if source == "from_flax":
        net, variables, x = _flax_case()
        return to_torch(from_flax(net, variables, x, backend="numpy")), (torch.from_numpy(x),)
    if source == "from_keras":
        keras = pytest.importorskip("keras")
        from ivy_like.convert import from_keras

        inp = keras.Input((5,))
        h = keras.layers.Dense(3, activation="relu")(inp)
        km = keras.Model(inp, keras.layers.Add()([keras.layers.Dense(3)(h), h]))
        x = RNG.standard_normal((2, 5)).astype(np.float32)
        return to_torch(from_keras(km, backend="numpy")), (torch.from_numpy(x),)
    if source == "from_torch":  # a GraphModel: back as the captured graph
        from ivy_like.convert import from_torch

        x = torch.from_numpy(RNG.standard_normal((2, 3, 6, 6)).astype(np.float32))
        return to_torch(from_torch(_cnn(), x, backend="numpy")), (x,)
    if source == "nn_transformer":  # an ivy_like.nn model that is not a Sequential
        block = ivy_like.nn.TransformerBlock(8, 2, causal=True, seed=0, backend="numpy")
        x = RNG.standard_normal((2, 5, 8)).astype(np.float32)
        return to_torch(block), (torch.from_numpy(x),)
    mlp = ivy_like.nn.MLP([5, 4, 2], seed=0, backend="numpy")  # a Sequential: torch.nn layers
    return to_torch(mlp), (torch.from_numpy(RNG.standard_normal((3, 5)).astype(np.float32)),)


def _grads(module, inputs):
    params = [p for p in module.parameters() if p.requires_grad]
    loss = sum(o.square().sum() for o in _outputs(module(*inputs)))
    return torch.autograd.grad(loss, params)


def _outputs(out):
    if isinstance(out, dict):
        return [v for k, v in sorted(out.items())]
    return list(out) if isinstance(out, (tuple, list)) else [out]


@pytest.mark.parametrize(
    "source", ["from_flax", "from_keras", "from_torch", "nn_transformer", "nn_mlp"]
)
def test_torch_compile_fullgraph_takes_the_module(source):
    """No graph break (``torch._dynamo.explain`` counts none) and ``fullgraph=True`` compiles:
    the outputs and the gradients w.r.t. ``module.parameters()`` are eager's."""
    module, inputs = _compile_case(source)
    torch._dynamo.reset()
    explained = torch._dynamo.explain(module)(*inputs)
    assert explained.graph_break_count == 0, [b.reason for b in explained.break_reasons]
    assert explained.graph_count == 1
    compiled = torch.compile(module, fullgraph=True)
    for got, want in zip(_outputs(compiled(*inputs)), _outputs(module(*inputs)), strict=True):
        torch.testing.assert_close(got, want, atol=1e-5, rtol=1e-5)
    eager = _grads(module, inputs)
    assert eager and all(g.abs().sum() > 0 for g in eager)  # every parameter is used
    for got, want in zip(_grads(compiled, inputs), eager, strict=True):
        torch.testing.assert_close(got, want, atol=1e-5, rtol=1e-4)
    torch._dynamo.reset()


# -- exact round trips: to_torch(from_torch(m)).state_dict() is m.state_dict() ----------------------
def _cnn():
    class CNN(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = torch.nn.Conv2d(3, 4, 3)
            self.bn = torch.nn.BatchNorm2d(4)
            self.fc = torch.nn.Linear(4, 2)

        def forward(self, x):
            return self.fc(torch.relu(self.bn(self.conv(x))).mean((2, 3)))

    torch.manual_seed(0)
    net = CNN()
    _train_statistics(net.bn)
    return net.eval()


def _train_statistics(bn):
    with torch.no_grad():  # running statistics and a step count that are not the defaults
        bn.running_mean.uniform_(-1.0, 1.0)
        bn.running_var.uniform_(0.5, 1.5)
        bn.num_batches_tracked.fill_(7)


def _sequential():
    torch.manual_seed(1)
    net = torch.nn.Sequential(
        torch.nn.Conv2d(3, 4, 3),
        torch.nn.BatchNorm2d(4),
        torch.nn.ReLU(),
        torch.nn.Flatten(),
        torch.nn.Linear(4 * 4 * 4, 5, bias=False),
        torch.nn.LayerNorm(5),
    )
    _train_statistics(net[1])
    return net.eval()


def _transformers(kind):
    transformers = pytest.importorskip("transformers")
    torch.manual_seed(2)
    if kind == "gpt2":
        config = transformers.GPT2Config(
            n_layer=2, n_head=2, n_embd=16, vocab_size=50, n_positions=16, use_cache=False
        )
        return transformers.GPT2LMHeadModel(config).eval()
    config = transformers.BertConfig(
        num_hidden_layers=1, num_attention_heads=2, hidden_size=16, intermediate_size=32,
        vocab_size=50, max_position_embeddings=16,
    )  # fmt: skip
    return transformers.BertModel(config).eval()


def _assert_same_state(back, net):
    want, got = net.state_dict(), back.state_dict()
    assert list(got) == list(want)
    for key, value in want.items():
        assert got[key].dtype == value.dtype and got[key].shape == value.shape, key
        assert torch.equal(got[key], value), key


@pytest.mark.parametrize("route", ["graph", "layers"])
@pytest.mark.parametrize("backend_name", ["numpy", "torch"])
def test_a_sequential_comes_back_bit_for_bit(route, backend_name):
    """Both routes: with example inputs (a GraphModel) and without (an ivy_like.nn.Sequential,
    BatchNorm's step count kept beside it)."""
    from ivy_like.convert import from_torch

    net = _sequential()
    x = torch.from_numpy(RNG.standard_normal((2, 3, 6, 6)).astype(np.float32))
    model = (
        from_torch(net, x, backend=backend_name)
        if route == "graph"
        else from_torch(net, backend=backend_name)
    )
    back = to_torch(model)
    _assert_same_state(back, net)
    torch.testing.assert_close(back(x), net(x), atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("source", ["cnn", "gpt2", "bert"])
def test_a_captured_model_comes_back_bit_for_bit(source):
    from ivy_like.convert import from_torch

    if source == "cnn":
        net = _cnn()
        x = torch.from_numpy(RNG.standard_normal((2, 3, 8, 8)).astype(np.float32))
    else:
        net = _transformers(source)
        x = torch.randint(0, 50, (1, 6), generator=torch.Generator().manual_seed(3))
    back = to_torch(from_torch(net, x, backend="numpy"))
    _assert_same_state(back, net)
    with torch.no_grad():
        got, want = back(x), net(x)
    if source != "cnn":  # the model's own output class, the first field its logits or states
        assert type(got) is type(want)
        got, want = got[0], want[0]
    torch.testing.assert_close(got, want, atol=1e-5, rtol=1e-5)

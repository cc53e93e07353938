"""to_keras and to_flax of graph models: a model captured from PyTorch (or a Keras
functional model) sent to Keras and Flax as a native module that owns its weights, computes
the original's function and differentiates like the original."""

import jax
import jax.numpy as jnp
import keras
import numpy as np
import pytest
import tensorflow as tf
import torch

from ivy_like.convert import from_keras, from_torch, to_flax, to_keras
from ivy_like.testing import assert_close

TOL = {"rtol": 1e-4, "atol": 1e-4}


class SkipNet(torch.nn.Module):
    """Conv -> BatchNorm -> ReLU with a skip connection around a second conv, pooled, then a
    Linear head."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(4)
        self.conv2 = torch.nn.Conv2d(4, 4, 3, padding=1)
        self.head = torch.nn.Linear(4, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.bn(self.conv1(x)))
        h = h + self.conv2(h)
        return self.head(h.mean(dim=(2, 3)))


def _skip_net() -> SkipNet:
    torch.manual_seed(0)
    net = SkipNet().eval()
    with torch.no_grad():  # non-trivial running statistics, so inference mode is tested
        net.bn.running_mean.uniform_(-0.5, 0.5)
        net.bn.running_var.uniform_(0.5, 1.5)
        net.bn.weight.uniform_(0.5, 1.5)
        net.bn.bias.uniform_(-0.5, 0.5)
    return net


def _mlp() -> torch.nn.Module:
    torch.manual_seed(1)
    return torch.nn.Sequential(
        torch.nn.Linear(6, 8), torch.nn.GELU(), torch.nn.LayerNorm(8), torch.nn.Linear(8, 3)
    ).eval()


NETS = {"skip_net": (_skip_net, (2, 3, 8, 8)), "mlp": (_mlp, (4, 6))}


def _case(name: str) -> tuple[torch.nn.Module, np.ndarray, object]:
    make, shape = NETS[name]
    net = make()
    x = np.random.default_rng(2).standard_normal(shape).astype(np.float32)
    return net, x, from_torch(net, torch.from_numpy(x), backend="numpy")


def _torch_grads(net: torch.nn.Module, x: np.ndarray) -> dict[str, np.ndarray]:
    """The gradient of sum(out ** 2) w.r.t. each parameter, by torch's autograd, keyed by the
    key chain (state_dict name with "/")."""
    net.zero_grad()
    (net(torch.from_numpy(x)) ** 2).sum().backward()
    return {n.replace(".", "/"): p.grad.numpy() for n, p in net.named_parameters()}


@pytest.mark.parametrize("name", sorted(NETS))
def test_torch_graph_to_keras(name):
    net, x, model = _case(name)
    km = to_keras(model)
    assert isinstance(km, keras.Model)
    with torch.no_grad():
        want = net(torch.from_numpy(x)).numpy()
    assert_close(np.asarray(km(x)), want, **TOL)
    # Parameters are trainable, buffers (BatchNorm's running statistics) are not.
    trainable = {v.name.replace(".", "/") for v in km.trainable_weights}
    assert trainable == {n.replace(".", "/") for n, _ in net.named_parameters()}
    assert {v.name for v in km.non_trainable_weights} == {
        n for n, _ in net.named_buffers() if "num_batches" not in n
    }
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(km(tf.constant(x)) ** 2)
    grads = tape.gradient(loss, km.trainable_variables)
    want_grads = _torch_grads(net, x)
    assert all(g is not None for g in grads)
    for v, g in zip(km.trainable_variables, grads):
        assert_close(g.numpy(), want_grads[v.name.replace(".", "/")], **TOL)


@pytest.mark.parametrize("name", sorted(NETS))
def test_torch_graph_to_flax(name):
    net, x, model = _case(name)
    module, variables = to_flax(model)
    with torch.no_grad():
        want = net(torch.from_numpy(x)).numpy()
    assert_close(np.asarray(jax.jit(module.apply)(variables, jnp.asarray(x))), want, **TOL)
    assert_close(np.asarray(module.apply(variables, x)), want, **TOL)  # NumPy input too
    if name == "skip_net":
        assert set(variables["batch_stats"]["bn"]) == {"running_mean", "running_var"}
    # init builds the same variables from the model's weights
    init = module.init(jax.random.key(0), jnp.asarray(x))
    assert jax.tree.structure(init) == jax.tree.structure(variables)

    def loss(params):
        out = module.apply({**variables, "params": params}, jnp.asarray(x))
        return jnp.sum(out**2)

    grads = jax.jit(jax.grad(loss))(variables["params"])
    flat = {
        "/".join(str(k.key) for k in path): g
        for path, g in jax.tree_util.tree_flatten_with_path(grads)[0]
    }
    want_grads = _torch_grads(net, x)
    assert set(flat) == set(want_grads)
    for kc, g in flat.items():
        assert_close(np.asarray(g), want_grads[kc], **TOL)


def _keras_functional() -> keras.Model:
    keras.utils.set_random_seed(3)
    inp = keras.Input((5,))
    h = keras.layers.Dense(5, activation="relu", name="body")(inp)
    out = keras.layers.Dense(2, name="out")(keras.layers.Add()([inp, h]))
    return keras.Model(inp, out)


def test_keras_graph_to_keras_and_flax():
    km = _keras_functional()
    x = np.random.default_rng(4).standard_normal((3, 5)).astype(np.float32)
    want = np.asarray(km(x))
    model = from_keras(km, backend="numpy")
    back = to_keras(model)
    assert_close(np.asarray(back(x)), want, **TOL)
    # a functional model comes back as one, of built-in layers, with the same weights
    assert isinstance(back, keras.Model) and back.get_layer("body") is not None
    assert [v.path for v in back.trainable_weights] == [
        "body/kernel",
        "body/bias",
        "out/kernel",
        "out/bias",
    ]
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(back(x) ** 2)
    grads = tape.gradient(loss, back.trainable_variables)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(km(x) ** 2)
    want_grads = tape.gradient(loss, km.trainable_variables)
    for g, w in zip(grads, want_grads):
        assert_close(g.numpy(), w.numpy(), **TOL)
    module, variables = to_flax(model)
    assert_close(np.asarray(jax.jit(module.apply)(variables, x)), want, **TOL)


def test_given_params_are_used():
    net, x, model = _case("mlp")
    params = model.params.cont_map(lambda v, kc: v * 0)
    out = np.asarray(to_keras(model, params)(x))
    module, variables = to_flax(model, params)
    assert_close(out, np.zeros_like(out))
    assert_close(np.asarray(module.apply(variables, x)), np.zeros_like(out))


@pytest.mark.parametrize("convert", [to_keras, to_flax])
def test_not_a_model_is_a_type_error(convert):
    with pytest.raises(TypeError, match=rf"{convert.__name__}: model must be .* got dict"):
        convert({"weight": np.ones(3)})

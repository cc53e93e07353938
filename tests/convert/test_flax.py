"""Flax (linen and nnx) -> ivy_like, and ivy_like weights back into Flax."""

import flax.linen as fnn
import jax
import numpy as np
import pytest
from flax import nnx

import ivy_like
from ivy_like.convert import (
    UnsupportedLayerError,
    from_flax,
    from_flax_params,
    to_backend,
    to_flax_params,
)

X = np.random.default_rng(0).standard_normal((4, 3)).astype("float32")


def linen_model():
    net = fnn.Sequential([fnn.Dense(8), fnn.relu, fnn.LayerNorm(), fnn.Dense(8), fnn.gelu,
                          fnn.Dense(2), fnn.log_softmax])
    return net, net.init(jax.random.key(0), X)


def test_linen_sequential_on_every_backend(backend):
    net, variables = linen_model()
    model = from_flax(variables, net, backend=backend.name)
    got = ivy_like.to_numpy(model(to_backend(X, backend.name)))
    np.testing.assert_allclose(got, np.asarray(net.apply(variables, X)), rtol=1e-5, atol=1e-5)


def test_nnx_sequential_on_every_backend(backend):
    rngs = nnx.Rngs(0)
    net = nnx.Sequential(nnx.Linear(3, 8, rngs=rngs), nnx.silu, nnx.Linear(8, 2, rngs=rngs),
                         nnx.tanh)
    model = from_flax(net, backend=backend.name)  # an nnx module carries its own params
    got = ivy_like.to_numpy(model(to_backend(X, backend.name)))
    np.testing.assert_allclose(got, np.asarray(net(X)), rtol=1e-5, atol=1e-5)


def test_compact_mlp_without_module():
    class MLP(fnn.Module):
        @fnn.compact
        def __call__(self, x):
            x = fnn.relu(fnn.Dense(8)(x))
            x = fnn.relu(fnn.Dense(8)(x))
            return fnn.Dense(2)(x)

    variables = MLP().init(jax.random.key(1), X)
    assert sorted(variables["params"]) == ["Dense_0", "Dense_1", "Dense_2"]
    model = from_flax(variables, backend="numpy")  # read as an MLP with relu between
    assert [type(layer).__name__ for layer in model.layers] == [
        "Linear", "ReLU", "Linear", "ReLU", "Linear"]
    np.testing.assert_allclose(
        model(X), np.asarray(MLP().apply(variables, X)), rtol=1e-5, atol=1e-5
    )
    assert from_flax_params(variables, model).cont_identical(model.params)


def test_params_back_into_flax():
    net, variables = linen_model()
    model = from_flax(variables, net, backend="torch")
    out = to_flax_params(model)
    np.testing.assert_allclose(
        np.asarray(net.apply(out, X)), np.asarray(net.apply(variables, X)), rtol=0, atol=0
    )
    assert from_flax_params(out, model).cont_identical(model.params)
    nnx_style = to_flax_params(model, style="nnx")
    assert sorted(nnx_style["layers"]) == [0, 2, 3, 5]


def test_flax_errors_name_the_layer_or_key():
    net = fnn.Sequential([fnn.Dense(4), fnn.elu])
    variables = net.init(jax.random.key(0), X)
    with pytest.raises(UnsupportedLayerError, match="layer 1 "):
        from_flax(variables, net)
    bad = {"Dense_0": {"kernel": np.zeros((3, 4), "float32")}, "weird": {}}
    with pytest.raises(ValueError, match="'weird'"):
        from_flax(bad)
    model = from_flax({"Dense_0": {"kernel": np.zeros((3, 4), "float32"),
                                   "bias": np.zeros(4, "float32")}}, backend="numpy")
    wrong = {"Dense_0": {"kernel": np.zeros((5, 4), "float32"), "bias": np.zeros(4, "float32")}}
    with pytest.raises(ValueError, match=r"'0/weight' has shape \(4, 5\), expected \(4, 3\)"):
        from_flax_params(wrong, model)
    with pytest.raises(ValueError, match="missing weights.*0/bias"):
        from_flax_params({"Dense_0": {"kernel": np.zeros((3, 4), "float32")}}, model)
    with pytest.raises(ValueError, match="activation"):
        from_flax(variables, activation="elu")

"""Models: ``params`` structure, pure ``apply``, ``m(x)``, seeds, gradients, ``jax.jit``, and
the ready-made MLP / SmallCNN / TransformerBlock against hand-written PyTorch equivalents."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from _nn_ref import f32, rand, t64

import ivy_like
from ivy_like import nn
from ivy_like.testing import assert_backends_agree, assert_close

AUTODIFF = [n for n in ivy_like.available_backends() if ivy_like.get_backend(n).has_autodiff]
NO_AUTODIFF = "numpy has no autodiff: ivy_like.grad raises NoAutodiffError"
TOL = {"rtol": 1e-4, "atol": 1e-5}


def to_numpy(c):
    return ivy_like.Container(c).cont_to_numpy()


def torch_params(params):
    """The model's parameters as float64 torch leaves requiring grad, same key chains."""
    flat = ivy_like.Container(params).cont_to_numpy().cont_flatten_key_chains()
    return {kc: t64(v).requires_grad_(True) for kc, v in flat.items()}


# -- torch references of the ready-made models (written independently of ivy_like) --------------
def torch_mlp(p, x, n_linear):
    for i in range(n_linear):
        x = F.linear(x, p[f"{2 * i}/weight"], p[f"{2 * i}/bias"])
        if i < n_linear - 1:
            x = F.relu(x)
    return x


def torch_cnn(p, x):
    x = F.max_pool2d(F.relu(F.conv2d(x, p["0/weight"], p["0/bias"], padding=1)), 2)
    x = F.max_pool2d(F.relu(F.conv2d(x, p["3/weight"], p["3/bias"], padding=1)), 2)
    return F.linear(x.flatten(1), p["7/weight"], p["7/bias"])


def torch_block(p, x, heads, causal):
    b, n, d = x.shape

    def lin(name, h):
        return F.linear(h, p[f"{name}/weight"], p[f"{name}/bias"])

    def split(h):
        return h.reshape(b, n, heads, d // heads).transpose(1, 2)

    h = F.layer_norm(x, (d,), p["ln1/weight"], p["ln1/bias"])
    q, k, v = (split(lin(f"attn/{c}", h)) for c in "qkv")
    att = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    x = x + lin("attn/o", att.transpose(1, 2).reshape(b, n, d))
    h = F.layer_norm(x, (d,), p["ln2/weight"], p["ln2/bias"])
    return x + lin("ff2", F.gelu(lin("ff1", h)))


MODELS = {
    "mlp": (
        lambda **kw: nn.MLP([6, 16, 8, 3], **kw),
        lambda: rand(5, 6),
        lambda p, x: torch_mlp(p, x, 3),
    ),
    "cnn": (
        lambda **kw: nn.SmallCNN(in_channels=2, num_classes=4, image_size=8, **kw),
        lambda: rand(3, 2, 8, 8),
        torch_cnn,
    ),
    "transformer": (
        lambda **kw: nn.TransformerBlock(d_model=8, num_heads=2, d_ff=12, **kw),
        lambda: rand(2, 5, 8),
        lambda p, x: torch_block(p, x, 2, False),
    ),
    "causal_transformer": (
        lambda **kw: nn.TransformerBlock(d_model=8, num_heads=4, causal=True, **kw),
        lambda: rand(2, 6, 8),
        lambda p, x: torch_block(p, x, 4, True),
    ),
}


# -- structure -----------------------------------------------------------------------------------
def test_mlp_params_structure(backend):
    m = nn.MLP([6, 16, 3], seed=0)
    assert isinstance(m.params, ivy_like.Container)
    assert m.params.cont_all_key_chains() == ["0/weight", "0/bias", "2/weight", "2/bias"]
    shapes = m.params.cont_flatten_key_chains().cont_shapes
    assert dict(shapes) == {
        "0/weight": (16, 6),
        "0/bias": (16,),
        "2/weight": (3, 16),
        "2/bias": (3,),
    }
    for leaf in m.params.cont_flatten_key_chains().values():
        assert ivy_like.backend_of(leaf) is backend  # native arrays of the active backend
        assert ivy_like.to_numpy(leaf).dtype == np.float32


def test_cnn_and_transformer_params_structure(backend):
    cnn = nn.SmallCNN(in_channels=1, num_classes=10, image_size=8, channels=(4, 6))
    assert cnn.params.cont_all_key_chains() == [
        "0/weight",
        "0/bias",
        "3/weight",
        "3/bias",
        "7/weight",
        "7/bias",
    ]
    assert cnn.params["0"]["weight"].shape == (4, 1, 3, 3)  # OIHW, PyTorch's layout
    assert cnn.params["7"]["weight"].shape == (10, 6 * 2 * 2)
    block = nn.TransformerBlock(d_model=8, num_heads=2)
    assert sorted(block.params.cont_all_key_chains()) == sorted(
        [f"attn/{c}/{p}" for c in "qkvo" for p in ("weight", "bias")]
        + [f"{n}/{p}" for n in ("ln1", "ln2", "ff1", "ff2") for p in ("weight", "bias")]
    )
    assert block.params["ff1"]["weight"].shape == (32, 8)  # d_ff defaults to 4 * d_model
    np.testing.assert_array_equal(ivy_like.to_numpy(block.params["ln1"]["weight"]), np.ones(8))
    np.testing.assert_array_equal(ivy_like.to_numpy(block.params["ln1"]["bias"]), np.zeros(8))


def test_initialisation_follows_pytorch_bounds():
    m = nn.MLP([50, 20, 3], seed=0, backend="numpy")
    for name, fan_in in (("0", 50), ("2", 20)):
        for leaf in ("weight", "bias"):
            v = m.params[name][leaf]
            bound = 1 / np.sqrt(fan_in)
            assert np.all(np.abs(v) <= bound)
            assert np.abs(v).max() > 0.8 * bound  # actually spread over the range
    cnn = nn.SmallCNN(in_channels=3, num_classes=2, image_size=4, channels=(5, 7), backend="numpy")
    w = cnn.params["3"]["weight"]  # fan_in = 5 * 3 * 3
    assert np.all(np.abs(w) <= 1 / np.sqrt(45)) and np.abs(w).max() > 0.8 / np.sqrt(45)


# -- seeds ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(MODELS))
def test_same_seed_same_params_on_every_backend(name):
    make = MODELS[name][0]
    ref = to_numpy(make(seed=3, backend="numpy").params)
    for b in ivy_like.available_backends():
        got = to_numpy(make(seed=3, backend=b).params)
        assert_close(got, ref, rtol=0, atol=0, label=f"{b}: ")  # bit for bit
    other = to_numpy(make(seed=4, backend="numpy").params)
    assert not np.array_equal(
        other.cont_flatten_key_chains()["attn/q/weight" if "transformer" in name else "0/weight"],
        ref.cont_flatten_key_chains()["attn/q/weight" if "transformer" in name else "0/weight"],
    )


def test_layers_of_a_model_get_different_seeds():
    m = nn.MLP([4, 4, 4], seed=0, backend="numpy")
    assert not np.array_equal(m.params["0"]["weight"], m.params["2"]["weight"])
    block = nn.TransformerBlock(8, 2, seed=0, backend="numpy")
    assert not np.array_equal(
        block.params["attn"]["q"]["weight"], block.params["attn"]["k"]["weight"]
    )


# -- apply, __call__ and purity ------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(MODELS))
def test_forward_matches_torch_reference(backend, name):
    make, data, ref = MODELS[name]
    m = make(seed=1)
    x = data()
    expected = f32(ref(torch_params(m.params), t64(x)))
    got = m(backend.asarray(x))
    assert isinstance(got, tuple(backend.array_types))
    assert_close(got, expected, **TOL)
    # m(x) is m.apply(m.params, x)
    assert_close(m.apply(m.params, backend.asarray(x)), got, rtol=0, atol=0)
    # Arrays in, Array out
    out = m(ivy_like.array(x))
    assert isinstance(out, ivy_like.Array)
    assert_close(out, expected, **TOL)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_apply_is_pure(backend, name):
    make, data, _ = MODELS[name]
    m = make(seed=2)
    x = backend.asarray(data())
    before_params, before_x = to_numpy(m.params), ivy_like.to_numpy(x).copy()
    other = make(seed=5).params
    y1 = m.apply(m.params, x)
    y_other = m.apply(other, x)  # other parameters: other output, m itself not consulted
    y2 = m.apply(m.params, x)
    assert_close(y1, y2, rtol=0, atol=0)
    assert not np.allclose(ivy_like.to_numpy(y1), ivy_like.to_numpy(y_other))
    assert_close(to_numpy(m.params), before_params, rtol=0, atol=0)
    np.testing.assert_array_equal(ivy_like.to_numpy(x), before_x)


def test_call_moves_params_to_the_backend_of_x():
    m = nn.MLP([3, 4, 2], seed=0, backend="numpy")
    x = rand(2, 3)
    expected = np.asarray(m(x))
    for name in ivy_like.available_backends():
        b = ivy_like.get_backend(name)
        got = m(b.asarray(x))
        assert ivy_like.backend_of(got) is b
        assert_close(got, expected, **TOL)
        assert m.params_on(b) is m.params_on(b)  # converted once, cached
    # numpy params are never replaced by a call on another backend
    assert isinstance(m.params["0"]["weight"], np.ndarray)


@pytest.mark.parametrize("name", ["cnn", "transformer"])
def test_models_agree_across_backends(name):
    make, data, _ = MODELS[name]
    params = to_numpy(make(seed=7, backend="numpy").params)

    def run(p, x):
        return make(seed=7, params=p).apply(p, x)

    assert_backends_agree(run, params, data(), **TOL)


# -- gradients and jit ---------------------------------------------------------------------------
@pytest.mark.ivy_like_xfail("numpy", reason=NO_AUTODIFF)
@pytest.mark.parametrize("name", sorted(MODELS))
def test_grad_of_apply_matches_torch(backend, name):
    make, data, ref = MODELS[name]
    m = make(seed=4)
    x = data()
    tp = torch_params(m.params)
    out = ref(tp, t64(x))
    cot = np.random.default_rng(2).standard_normal(tuple(out.shape)).astype(np.float32)
    (out * t64(cot)).sum().backward()
    cot_b, x_b = backend.asarray(cot), backend.asarray(x)

    def loss(params):
        return ivy_like.sum(m.apply(params, x_b) * cot_b)

    grads = ivy_like.grad(loss)(m.params)
    assert isinstance(grads, ivy_like.Container)
    flat = grads.cont_flatten_key_chains()
    assert sorted(flat) == sorted(tp)
    for kc, g in flat.items():
        assert_close(g, f32(tp[kc].grad), rtol=2e-4, atol=2e-5, label=f"{kc}: ")


def test_jax_jit_and_grad_of_apply():
    jax = pytest.importorskip("jax")
    m = nn.TransformerBlock(8, 2, causal=True, seed=0, backend="jax")
    x = jax.numpy.asarray(rand(2, 4, 8))
    eager = m.apply(m.params, x)
    jitted = jax.jit(m.apply)(m.params, x)
    assert_close(jitted, eager, **TOL)

    def loss(params, x):
        return ivy_like.nn.mse_loss(m.apply(params, x), x)

    g_jit = jax.jit(jax.grad(loss))(m.params, x)
    g_ivy = ivy_like.grad(loss)(m.params, x)
    assert isinstance(g_jit, ivy_like.Container)
    assert_close(g_jit, g_ivy, rtol=1e-4, atol=1e-6)
    # jit traces the pure function: calling it with other parameters gives other results
    other = nn.TransformerBlock(8, 2, causal=True, seed=1, backend="jax").params
    assert not np.allclose(np.asarray(jax.jit(m.apply)(other, x)), np.asarray(jitted))


def test_torch_func_and_tf_function_on_apply():
    torch_b = ivy_like.get_backend("torch")
    m = nn.MLP([4, 5, 2], seed=0, backend=torch_b)
    x = torch.from_numpy(rand(3, 4))
    g = torch.func.grad(lambda p: m.apply(p, x).sum())(m.params)
    ref = ivy_like.grad(lambda p: ivy_like.sum(m.apply(p, x)))(m.params)
    assert_close(g, ref, **TOL)
    tf = pytest.importorskip("tensorflow")
    mt = nn.MLP([4, 5, 2], seed=0, backend="tensorflow")
    xt = tf.constant(rand(3, 4))
    assert_close(tf.function(mt.apply)(mt.params, xt), mt(xt), **TOL)


# -- dropout inside a Sequential -----------------------------------------------------------------
def test_sequential_dropout_uses_the_key(backend):
    m = nn.Sequential([nn.Linear(4, 64), nn.Dropout(0.5), nn.Linear(64, 2)], seed=0)
    x = backend.asarray(rand(3, 4))
    plain = m(x)
    assert_close(m.apply(m.params, x), plain, rtol=0, atol=0)  # no key: inference
    a, b = m(x, key=1), m(x, key=1)
    assert_close(a, b, rtol=0, atol=0)
    assert not np.allclose(ivy_like.to_numpy(a), ivy_like.to_numpy(plain))
    assert not np.allclose(ivy_like.to_numpy(m(x, key=2)), ivy_like.to_numpy(a))


def test_sequential_dropout_same_on_every_backend():
    params = to_numpy(
        nn.Sequential([nn.Linear(4, 8), nn.Dropout(0.3)], seed=0, backend="numpy").params
    )
    layers = [nn.Linear(4, 8), nn.Dropout(0.3)]

    def run(p, x):
        return nn.Sequential(layers, params=p).apply(p, x, key=5)

    assert_backends_agree(run, params, rand(6, 4), **TOL)


# -- bad arguments -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "call, exc, message",
    [
        (lambda: nn.MLP([4]), ValueError, r"MLP: sizes needs at least an input and an output"),
        (lambda: nn.MLP([4, 2], activation="elu"), ValueError, r"MLP: activation must be one of"),
        (lambda: nn.MLP([4, 0]), ValueError, r"Linear: out_features must be a positive int"),
        (
            lambda: nn.TransformerBlock(10, 3),
            ValueError,
            r"TransformerBlock: d_model \(10\) must be divisible by num_heads \(3\)",
        ),
        (
            lambda: nn.Sequential([nn.ReLU(), "relu"]),
            TypeError,
            r"Sequential: layers\[1\] is a str, not an ivy_like.nn layer",
        ),
        (
            lambda: nn.SmallCNN(image_size=10),
            ValueError,
            r"SmallCNN: image_size must be a multiple of 4",
        ),
        (lambda: nn.Conv2d(4, 6, 3, groups=4), ValueError, r"Conv2d: in_channels and out_chan"),
        (lambda: nn.Dropout(1.5), ValueError, r"Dropout: p must be a probability"),
        (
            lambda: nn.TransformerBlock(8, 2, backend="numpy")(np.ones((2, 8), np.float32)),
            ValueError,
            r"TransformerBlock: x must be \(batch, length, 8\), got \(2, 8\)",
        ),
        (
            lambda: nn.MLP([3, 2], backend="numpy")(np.ones((2, 4), np.float32)),
            ValueError,
            r"linear: the last axis of x",
        ),
        (lambda: nn.MLP([3, 2], seed=-1), ValueError, r"seed must be in \[0, 2\*\*63\)"),
    ],
)
def test_bad_model_arguments(call, exc, message):
    with pytest.raises(exc, match=message):
        call()

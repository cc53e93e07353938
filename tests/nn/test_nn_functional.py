"""Every ``ivy_like.nn`` op on every backend against PyTorch (float64) as the reference."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from _nn_ref import conv_ref, f32, rand, t64

import ivy_like
from ivy_like.testing import assert_backends_agree, assert_close

# float32 sums of a few dozen products, different kernels: a few ulp of the largest terms.
CONV_TOL = {"rtol": 1e-4, "atol": 1e-5}


def on(backend, *arrays):
    return [None if a is None else backend.asarray(a) for a in arrays]


# -- linear and embedding ----------------------------------------------------------------------
@pytest.mark.parametrize("x_shape", [(5,), (3, 5), (2, 3, 5)])
@pytest.mark.parametrize("with_bias", [True, False])
def test_linear(backend, x_shape, with_bias):
    x, w, b = rand(*x_shape), rand(4, 5, seed=1), rand(4, seed=2) if with_bias else None
    expected = f32(F.linear(t64(x), t64(w), None if b is None else t64(b)))
    got = ivy_like.nn.linear(*on(backend, x, w, b))
    assert isinstance(got, tuple(backend.array_types))
    assert_close(got, expected, **CONV_TOL)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_embedding(backend, dtype):
    if backend.name in ("jax", "mlx") and dtype is np.int64:
        dtype = np.int32  # no int64 by default there: the backend's own int
    weight = rand(7, 3)
    indices = np.array([[0, 6, 2], [2, 2, 5]], dtype=dtype)
    expected = f32(F.embedding(t64(indices), t64(weight)))
    got = ivy_like.nn.embedding(*on(backend, indices, weight))
    assert_close(got, expected)
    # 0-d and 1-d indices
    assert_close(ivy_like.nn.embedding(*on(backend, np.array(3, dtype), weight)), weight[3])
    assert_close(
        ivy_like.nn.embedding(*on(backend, np.array([1, 1], dtype), weight)), weight[[1, 1]]
    )


# -- convolutions ------------------------------------------------------------------------------
CONV2D_CASES = [
    dict(stride=1, padding=0, dilation=1, groups=1),
    dict(stride=2, padding=1, dilation=1, groups=1),
    dict(stride=(2, 1), padding=(0, 2), dilation=1, groups=1),
    dict(stride=1, padding="same", dilation=1, groups=1),
    dict(stride=2, padding="same", dilation=1, groups=1),
    dict(stride=1, padding="SAME", dilation=(2, 1), groups=2),
    dict(stride=(1, 2), padding="valid", dilation=2, groups=1),
    dict(stride=2, padding="VALID", dilation=1, groups=2),
    dict(stride=2, padding=((1, 0), (0, 2)), dilation=(1, 2), groups=1),
    dict(stride=1, padding=1, dilation=1, groups=4),  # depthwise
    dict(stride=3, padding=[(2, 1), (1, 1)], dilation=2, groups=2),  # strides with dilation
]


@pytest.mark.parametrize("kw", CONV2D_CASES, ids=lambda kw: "-".join(map(str, kw.values())))
@pytest.mark.parametrize("kernel", [(3, 3), (2, 3)])
def test_conv2d_nchw_and_nhwc(backend, kw, kernel):
    groups = kw["groups"]
    x = rand(2, 4, 9, 8)
    w = rand(8, 4 // groups, *kernel, seed=1)
    b = rand(8, seed=2)
    expected = conv_ref(2, x, w, b, kw["stride"], kw["padding"], kw["dilation"], groups)
    got = ivy_like.nn.conv2d(*on(backend, x, w, b), **kw)
    assert_close(got, expected, **CONV_TOL, label="NCHW: ")
    # The same convolution channels-last: NHWC inputs, HWIO weights (Keras' layout).
    got = ivy_like.nn.conv2d(
        *on(backend, x.transpose(0, 2, 3, 1), w.transpose(2, 3, 1, 0), b),
        **kw,
        data_format="NHWC",
    )
    assert_close(got, expected.transpose(0, 2, 3, 1), **CONV_TOL, label="NHWC: ")


def test_conv2d_without_bias_and_same_matches_torch_same(backend):
    # stride 1: PyTorch's own padding="same" is an independent second reference.
    x, w = rand(1, 3, 6, 7), rand(5, 3, 4, 3, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns that even kernels need a padded copy
        expected = f32(F.conv2d(t64(x), t64(w), padding="same"))
    got = ivy_like.nn.conv2d(*on(backend, x, w), padding="same")
    assert_close(got, expected, **CONV_TOL)


CONV1D_CASES = [
    dict(stride=1, padding=0, dilation=1, groups=1),
    dict(stride=2, padding=2, dilation=1, groups=1),
    dict(stride=1, padding="same", dilation=2, groups=2),
    dict(stride=3, padding="same", dilation=1, groups=1),
    dict(stride=2, padding="valid", dilation=3, groups=1),
    dict(stride=1, padding=[(0, 3)], dilation=1, groups=6),
]


@pytest.mark.parametrize("kw", CONV1D_CASES, ids=lambda kw: "-".join(map(str, kw.values())))
def test_conv1d_ncw_and_nwc(backend, kw):
    groups = kw["groups"]
    x = rand(2, 6, 11)
    w = rand(6, 6 // groups, 3, seed=1)
    b = rand(6, seed=2)
    expected = conv_ref(1, x, w, b, kw["stride"], kw["padding"], kw["dilation"], groups)
    got = ivy_like.nn.conv1d(*on(backend, x, w, b), **kw)
    assert_close(got, expected, **CONV_TOL, label="NCW: ")
    got = ivy_like.nn.conv1d(
        *on(backend, x.transpose(0, 2, 1), w.transpose(2, 1, 0), b), **kw, data_format="NWC"
    )
    assert_close(got, expected.transpose(0, 2, 1), **CONV_TOL, label="NWC: ")


# -- pooling -----------------------------------------------------------------------------------
POOL_CASES = [
    dict(kernel_size=2, stride=None, padding=0),
    dict(kernel_size=3, stride=1, padding=1),
    dict(kernel_size=(3, 2), stride=(2, 1), padding=(1, 0)),
    dict(kernel_size=3, stride=2, padding=0),
    dict(kernel_size=(2, 4), stride=None, padding=(1, 2)),
]


@pytest.mark.parametrize("kw", POOL_CASES, ids=lambda kw: "-".join(map(str, kw.values())))
@pytest.mark.parametrize("kind", ["max", "avg"])
def test_pool2d(backend, kw, kind):
    # Negative inputs: max-pool padding must act as -inf, not 0.
    x = rand(2, 3, 7, 8) - 3.0
    ref_fn = F.max_pool2d if kind == "max" else F.avg_pool2d
    expected = f32(ref_fn(t64(x), kw["kernel_size"], kw["stride"], kw["padding"]))
    fn = getattr(ivy_like.nn, f"{kind}_pool2d")
    got = fn(*on(backend, x), **kw)
    assert_close(got, expected, label="NCHW: ")
    got = fn(*on(backend, x.transpose(0, 2, 3, 1)), **kw, data_format="NHWC")
    assert_close(got, expected.transpose(0, 2, 3, 1), label="NHWC: ")


@pytest.mark.parametrize("dtype", [np.int32, np.int16, np.uint8, np.bool_])
def test_max_pool2d_of_integers_and_booleans(backend, dtype):
    # -inf has no integer or boolean value: the padding is the dtype's minimum (False), which
    # never wins a max; a cast -inf (0, True) would win over negative values (False).
    values = np.arange(40).reshape(2, 1, 4, 5) * 7 % 23
    x = {np.uint8: values, np.bool_: values % 3 == 0}.get(dtype, values - 30).astype(dtype)
    for kw in (dict(kernel_size=3, stride=2, padding=1), dict(kernel_size=2)):
        expected = F.max_pool2d(t64(x.astype(np.float64)), **kw).numpy().astype(dtype)
        assert_close(ivy_like.nn.max_pool2d(*on(backend, x), **kw), expected, label=f"{kw}: ")


# -- normalization -----------------------------------------------------------------------------
@pytest.mark.parametrize("normalized_shape", [6, (6,), (4, 6)])
@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm(backend, normalized_shape, affine):
    x = rand(3, 4, 6) * 3 + 1
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else normalized_shape
    w = rand(*shape, seed=1) if affine else None
    b = rand(*shape, seed=2) if affine else None
    expected = f32(
        F.layer_norm(
            t64(x), shape, None if w is None else t64(w), None if b is None else t64(b), eps=1e-3
        )
    )
    got = ivy_like.nn.layer_norm(
        x=on(backend, x)[0],
        normalized_shape=normalized_shape,
        weight=on(backend, w)[0],
        bias=on(backend, b)[0],
        eps=1e-3,
    )
    assert_close(got, expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("layout", ["NCHW", "NHWC", "NC"])
def test_batch_norm_inference(backend, layout):
    x = rand(2, 3, 4, 5) if layout != "NC" else rand(4, 3)
    mean, var = rand(3, seed=1), np.abs(rand(3, seed=2)) + 0.5
    w, b = rand(3, seed=3), rand(3, seed=4)
    expected = f32(
        F.batch_norm(t64(x), t64(mean), t64(var), t64(w), t64(b), training=False, eps=1e-4)
    )
    if layout == "NHWC":
        got = ivy_like.nn.batch_norm(
            *on(backend, x.transpose(0, 2, 3, 1), mean, var, w, b), eps=1e-4, axis=-1
        )
        expected = expected.transpose(0, 2, 3, 1)
    else:
        got = ivy_like.nn.batch_norm(*on(backend, x, mean, var, w, b), eps=1e-4)
    assert_close(got, expected, rtol=1e-4, atol=1e-5)
    # without the affine part
    plain = f32(F.batch_norm(t64(x), t64(mean), t64(var), training=False))
    if layout != "NHWC":
        assert_close(
            ivy_like.nn.batch_norm(*on(backend, x, mean, var)), plain, rtol=1e-4, atol=1e-5
        )


# -- dropout -----------------------------------------------------------------------------------
def test_dropout_without_key_is_the_identity(backend):
    x = rand(4, 5)
    (xb,) = on(backend, x)
    assert ivy_like.nn.dropout(xb, 0.5) is xb
    assert ivy_like.nn.dropout(xb, 0.0, key=3) is xb


def test_dropout_mask_values_and_rate(backend):
    x = rand(200, 50) + 10.0  # no zeros in x
    got = ivy_like.to_numpy(ivy_like.nn.dropout(*on(backend, x), 0.3, key=7))
    dropped = got == 0
    assert 0.27 < dropped.mean() < 0.33
    np.testing.assert_allclose(got[~dropped], x[~dropped] / 0.7, rtol=1e-6)
    # the mask is the portable Bernoulli draw of the key (keep with probability 1 - p)
    keep = ivy_like.random.bernoulli(0.7, x.shape, seed=7, backend="numpy").to_numpy()
    np.testing.assert_array_equal(~dropped, keep)
    # another key, another mask
    other = ivy_like.to_numpy(ivy_like.nn.dropout(*on(backend, x), 0.3, key=8))
    assert not np.array_equal(other == 0, dropped)


def test_dropout_same_key_same_mask_on_every_backend():
    x = rand(6, 7)
    assert_backends_agree(lambda a: ivy_like.nn.dropout(a, 0.5, key=11), x)


# -- activations -------------------------------------------------------------------------------
X_ACT = np.concatenate([rand(40) * 4, np.array([0.0, -100.0, 100.0, 30.0, -30.0], np.float32)])

ACTIVATIONS = {
    "relu": (lambda x: ivy_like.nn.relu(x), F.relu),
    "gelu": (lambda x: ivy_like.nn.gelu(x), F.gelu),
    "gelu_tanh": (
        lambda x: ivy_like.nn.gelu(x, approximate="tanh"),
        lambda t: F.gelu(t, approximate="tanh"),
    ),
    "silu": (lambda x: ivy_like.nn.silu(x), F.silu),
    "sigmoid": (lambda x: ivy_like.nn.sigmoid(x), torch.sigmoid),
}


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activations(backend, name):
    ours, ref = ACTIVATIONS[name]
    expected = f32(ref(t64(X_ACT)))
    got = ours(*on(backend, X_ACT))
    assert_close(got, expected, rtol=1e-5, atol=1e-6)
    # 2-d inputs keep their shape
    got2 = ours(*on(backend, X_ACT.reshape(5, 9)))
    assert_close(got2, expected.reshape(5, 9), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("axis", [-1, 0, 1])
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_and_log_softmax(backend, name, axis):
    x = rand(3, 4, 5) * 5
    x[0, 0, 0] = 200.0  # large values: computed stably, no inf/nan
    ref = F.softmax if name == "softmax" else F.log_softmax
    expected = f32(ref(t64(x), dim=axis))
    got = getattr(ivy_like.nn, name)(*on(backend, x), axis=axis)
    assert_close(got, expected, rtol=1e-5, atol=1e-6)


# -- attention ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "mask_kind", ["none", "causal", "bool", "float", "bool_broadcast", "scale", "causal_rect"]
)
def test_scaled_dot_product_attention(backend, mask_kind):
    lq = 4
    lk = 6 if mask_kind in ("bool", "float", "causal_rect") else 4
    q, k, v = rand(2, 3, lq, 8), rand(2, 3, lk, 8, seed=1), rand(2, 3, lk, 5, seed=2)
    mask, kwargs, ref_kwargs = None, {}, {}
    if mask_kind in ("causal", "causal_rect"):
        kwargs["is_causal"] = ref_kwargs["is_causal"] = True
    elif mask_kind == "bool":
        mask = np.random.default_rng(0).random((2, 3, lq, lk)) < 0.7
        mask[..., 0] = True  # every query may attend somewhere
    elif mask_kind == "bool_broadcast":
        mask = np.tril(np.ones((lq, lk), bool))
    elif mask_kind == "float":
        mask = rand(lq, lk, seed=3)
    elif mask_kind == "scale":
        kwargs["scale"] = ref_kwargs["scale"] = 0.3
    expected = f32(
        F.scaled_dot_product_attention(
            t64(q), t64(k), t64(v), attn_mask=None if mask is None else t64(mask), **ref_kwargs
        )
    )
    got = ivy_like.nn.scaled_dot_product_attention(*on(backend, q, k, v, mask), **kwargs)
    assert_close(got, expected, rtol=1e-4, atol=1e-5)


def test_attention_without_heads(backend):
    # (L, d) inputs: the last two axes are the ones attended over.
    q, k, v = rand(3, 4), rand(5, 4, seed=1), rand(5, 2, seed=2)
    expected = f32(F.scaled_dot_product_attention(t64(q)[None], t64(k)[None], t64(v)[None])[0])
    assert_close(
        ivy_like.nn.scaled_dot_product_attention(*on(backend, q, k, v)),
        expected,
        rtol=1e-4,
        atol=1e-5,
    )


# -- losses ------------------------------------------------------------------------------------
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("labels_kind", ["int32", "default_int", "probs", "seq_int"])
def test_cross_entropy(backend, reduction, labels_kind):
    rng = np.random.default_rng(5)
    if labels_kind == "seq_int":
        logits = rand(2, 3, 5) * 3  # (N, L, C): classes last
        labels = rng.integers(0, 5, (2, 3)).astype(np.int32)
        expected = F.cross_entropy(t64(logits).permute(0, 2, 1), t64(labels), reduction=reduction)
    else:
        logits = rand(6, 5) * 3
        if labels_kind == "probs":
            labels = rng.random((6, 5)).astype(np.float32)
            labels /= labels.sum(-1, keepdims=True)
        else:
            labels = rng.integers(0, 5, 6).astype(np.int32)
        expected = F.cross_entropy(t64(logits), t64(labels), reduction=reduction)
    (lb,) = on(backend, logits)
    if labels_kind == "default_int":
        lab = ivy_like.to_native(ivy_like.array(labels.tolist()))
    else:
        (lab,) = on(backend, labels)
    got = ivy_like.nn.cross_entropy(lb, lab, reduction=reduction)
    assert_close(got, f32(expected), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss(backend, reduction):
    a, b = rand(4, 3), rand(4, 3, seed=1)
    expected = f32(F.mse_loss(t64(a), t64(b), reduction=reduction))
    assert_close(ivy_like.nn.mse_loss(*on(backend, a, b), reduction=reduction), expected)


# -- the Array method and Container variants -----------------------------------------------------
def test_array_methods(backend):
    x = rand(2, 3, 6, 6)
    w = rand(4, 3, 3, 3, seed=1)
    xa, wa = ivy_like.array(x), ivy_like.array(w)
    assert xa.backend == backend
    got = xa.conv2d(wa, padding=1)
    assert isinstance(got, ivy_like.Array)
    assert_close(got, conv_ref(2, x, w, None, 1, 1, 1, 1), **CONV_TOL)
    assert_close(xa.relu(), np.maximum(x, 0))
    assert_close(xa.softmax(axis=1), f32(F.softmax(t64(x), dim=1)), rtol=1e-5, atol=1e-6)
    assert_close(xa.max_pool2d(2), f32(F.max_pool2d(t64(x), 2)))
    # ivy_like.Array in, ivy_like.Array out for the function too
    assert isinstance(
        ivy_like.nn.linear(ivy_like.array(rand(2, 3)), ivy_like.array(rand(4, 3))), ivy_like.Array
    )


def test_container_variants(backend):
    a, b = rand(2, 5), rand(3, 5, seed=1)
    c = ivy_like.Container(a=backend.asarray(a), inner=ivy_like.Container(b=backend.asarray(b)))
    out = c.softmax()
    assert isinstance(out, ivy_like.Container)
    assert_close(out["a"], f32(F.softmax(t64(a), dim=-1)), rtol=1e-5, atol=1e-6)
    assert_close(out["inner"]["b"], f32(F.softmax(t64(b), dim=-1)), rtol=1e-5, atol=1e-6)
    # the function on a Container, with a shared weight
    w = rand(4, 5, seed=2)
    out = ivy_like.nn.linear(c, backend.asarray(w))
    assert_close(out["inner"]["b"], f32(F.linear(t64(b), t64(w))), **CONV_TOL)
    # key_chains restricts the map
    out = c.relu(key_chains=["inner/b"])
    assert_close(out["inner"]["b"], np.maximum(b, 0))
    assert_close(out["a"], a)


# -- dtypes: float64 stays float64 (checked at float64 precision), float16 stays float16 ---------
F64_CASES = {
    "conv2d": (
        lambda a, b: ivy_like.nn.conv2d(a, b, padding="same", stride=2),
        # 6 -> 3 outputs: one padding row/column, at the end (TF's rule)
        lambda a, b: F.conv2d(F.pad(a, [0, 1, 0, 1]), b, stride=2),
        [(1, 2, 6, 6), (3, 2, 3, 3)],
    ),
    "conv1d": (
        lambda a, b: ivy_like.nn.conv1d(a, b, dilation=2),
        lambda a, b: F.conv1d(a, b, dilation=2),
        [(2, 2, 9), (3, 2, 3)],
    ),
    "layer_norm": (
        lambda a, b: ivy_like.nn.layer_norm(a, 5, b),
        lambda a, b: F.layer_norm(a, (5,), b),
        [(3, 5), (5,)],
    ),
    "gelu": (lambda a: ivy_like.nn.gelu(a), F.gelu, [(7,)]),
    "sigmoid": (lambda a: ivy_like.nn.sigmoid(a), torch.sigmoid, [(7,)]),
    "log_softmax": (lambda a: ivy_like.nn.log_softmax(a), lambda a: F.log_softmax(a, -1), [(3, 4)]),
    "attention": (
        lambda q, k: ivy_like.nn.scaled_dot_product_attention(q, k, k, is_causal=True),
        lambda q, k: F.scaled_dot_product_attention(q, k, k, is_causal=True),
        [(2, 3, 4), (2, 3, 4)],
    ),
    "avg_pool2d": (
        lambda a: ivy_like.nn.avg_pool2d(a, 3, 1, 1),
        lambda a: F.avg_pool2d(a, 3, 1, 1),
        [(1, 2, 4, 4)],
    ),
}


NO_F64 = "jax without jax_enable_x64 has no float64"
# MLX runs float64 on the CPU, but its convolutions refuse it and exp/erf/softmax compute at
# float32 precision (errors ~1e-8): exactness in float64 is not available there.
MLX_F32 = {"attention", "conv1d", "conv2d", "gelu", "log_softmax", "sigmoid"}


def check_float64(backend, name):
    ours, ref, shapes = F64_CASES[name]
    inputs = [
        np.random.default_rng(i).standard_normal(s).astype(np.float64) for i, s in enumerate(shapes)
    ]
    expected = ref(*[torch.from_numpy(a) for a in inputs]).numpy()
    got = ours(*on(backend, *inputs))
    assert_close(got, expected, rtol=1e-10, atol=1e-12)  # float64 tolerances


@pytest.mark.ivy_like_xfail("jax", reason=NO_F64)
@pytest.mark.parametrize("name", sorted(set(F64_CASES) - MLX_F32))
def test_float64_is_kept_and_exact(backend, name):
    check_float64(backend, name)


@pytest.mark.ivy_like_xfail("jax", reason=NO_F64)
@pytest.mark.ivy_like_xfail("mlx", reason="MLX: no float64 convolutions; float32-precision exp/erf")
@pytest.mark.parametrize("name", sorted(MLX_F32))
def test_float64_is_kept_and_exact_outside_mlx(backend, name):
    check_float64(backend, name)


@pytest.mark.parametrize("name", sorted(F64_CASES))
def test_float16_is_kept(backend, name):
    ours, ref, shapes = F64_CASES[name]
    inputs = [
        np.random.default_rng(i).standard_normal(s).astype(np.float16) for i, s in enumerate(shapes)
    ]
    expected = ref(*[torch.from_numpy(a.astype(np.float64)) for a in inputs]).numpy()
    got = ours(*on(backend, *inputs))
    assert_close(got, expected.astype(np.float16), rtol=1e-2, atol=2e-2)

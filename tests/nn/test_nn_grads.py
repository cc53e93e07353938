"""Gradients through ``ivy_like.nn`` ops with ``ivy_like.grad`` on every autodiff backend,
against PyTorch's float64 autograd of the same computation (``torch.nn.functional``)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from _nn_ref import rand, t64

import ivy_like
from ivy_like.testing import assert_close

nn = ivy_like.nn
GRAD_TOL = {"rtol": 2e-4, "atol": 2e-5}


def nchw_to_nhwc(x):
    return ivy_like.permute_dims(x, (0, 2, 3, 1))


def nhwc_conv2d(x, w, b):
    y = nn.conv2d(
        nchw_to_nhwc(x),
        ivy_like.permute_dims(w, (2, 3, 1, 0)),
        b,
        stride=2,
        padding="same",
        data_format="NHWC",
    )
    return ivy_like.permute_dims(y, (0, 3, 1, 2))


def torch_same_strided(x, w, b):
    # 9x8 input, 3x3 kernel, stride 2, 'same': 5x4 outputs, pads (1, 1) and (0, 1)
    return F.conv2d(F.pad(x, [0, 1, 1, 1]), w, b, stride=2)


RUN_MEAN, RUN_VAR = rand(3, seed=5), np.abs(rand(3, seed=6)) + 0.5
INDICES = np.array([[0, 3], [3, 4]], np.int32)
MASK = np.random.default_rng(3).random((3, 5)) < 0.6
MASK[:, 0] = True
LABELS = np.array([0, 4, 2, 2], np.int32)
CONSTANTS = {
    "running_mean": RUN_MEAN,
    "running_var": RUN_VAR,
    "indices": INDICES,
    "mask": MASK,
    "labels": LABELS,
}
# The constants (not differentiated) on the backend under test: filled by the test.
C: dict = {}

# name: (ivy_like function of the float inputs, torch reference, float inputs)
CASES = {
    "linear": (
        lambda x, w, b: nn.linear(x, w, b),
        F.linear,
        [rand(3, 5), rand(4, 5, seed=1), rand(4, seed=2)],
    ),
    "conv1d": (
        lambda x, w, b: nn.conv1d(x, w, b, stride=2, padding=1, dilation=2, groups=2),
        lambda x, w, b: F.conv1d(x, w, b, 2, 1, 2, 2),
        [rand(2, 4, 10), rand(6, 2, 3, seed=1), rand(6, seed=2)],
    ),
    "conv2d_nchw": (
        lambda x, w, b: nn.conv2d(x, w, b, stride=(1, 2), padding=1, dilation=(2, 1)),
        lambda x, w, b: F.conv2d(x, w, b, (1, 2), 1, (2, 1)),
        [rand(2, 3, 7, 8), rand(4, 3, 3, 3, seed=1), rand(4, seed=2)],
    ),
    "conv2d_nhwc_same_strided": (
        nhwc_conv2d,
        torch_same_strided,
        [rand(2, 3, 9, 8), rand(4, 3, 3, 3, seed=1), rand(4, seed=2)],
    ),
    "conv2d_groups": (
        lambda x, w: nn.conv2d(x, w, groups=3, padding="valid"),
        lambda x, w: F.conv2d(x, w, groups=3),
        [rand(1, 6, 5, 5), rand(6, 2, 2, 2, seed=1)],
    ),
    "max_pool2d": (
        lambda x: nn.max_pool2d(x, 3, 2, 1),
        lambda x: F.max_pool2d(x, 3, 2, 1),
        [rand(2, 2, 7, 6) - 2.0],
    ),
    "max_pool2d_nhwc": (
        lambda x: ivy_like.permute_dims(
            nn.max_pool2d(nchw_to_nhwc(x), 2, data_format="NHWC"), (0, 3, 1, 2)
        ),
        lambda x: F.max_pool2d(x, 2),
        [rand(1, 3, 6, 4)],
    ),
    "avg_pool2d": (
        lambda x: nn.avg_pool2d(x, (3, 2), (1, 2), (1, 0)),
        lambda x: F.avg_pool2d(x, (3, 2), (1, 2), (1, 0)),
        [rand(2, 2, 5, 6)],
    ),
    "layer_norm": (
        lambda x, w, b: nn.layer_norm(x, 6, w, b),
        lambda x, w, b: F.layer_norm(x, (6,), w, b),
        [rand(4, 6) * 2 + 1, rand(6, seed=1), rand(6, seed=2)],
    ),
    "batch_norm": (
        lambda x, w, b: nn.batch_norm(x, C["running_mean"], C["running_var"], w, b),
        lambda x, w, b: F.batch_norm(x, t64(RUN_MEAN), t64(RUN_VAR), w, b, training=False),
        [rand(2, 3, 4), rand(3, seed=1), rand(3, seed=2)],
    ),
    "embedding": (
        lambda w: nn.embedding(C["indices"], w),
        lambda w: F.embedding(t64(INDICES), w),
        [rand(5, 3)],
    ),
    "relu": (lambda x: nn.relu(x), F.relu, [rand(20)]),
    "gelu": (lambda x: nn.gelu(x), F.gelu, [rand(20)]),
    "gelu_tanh": (
        lambda x: nn.gelu(x, "tanh"),
        lambda x: F.gelu(x, approximate="tanh"),
        [rand(20)],
    ),
    "silu": (lambda x: nn.silu(x), F.silu, [rand(20) * 3]),
    "sigmoid": (lambda x: nn.sigmoid(x), torch.sigmoid, [rand(20) * 3]),
    "softmax": (lambda x: nn.softmax(x, axis=0), lambda x: F.softmax(x, 0), [rand(4, 5)]),
    "log_softmax": (lambda x: nn.log_softmax(x), lambda x: F.log_softmax(x, -1), [rand(4, 5)]),
    "attention_causal": (
        lambda q, k, v: nn.scaled_dot_product_attention(q, k, v, is_causal=True),
        lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
        [rand(2, 4, 8), rand(2, 4, 8, seed=1), rand(2, 4, 3, seed=2)],
    ),
    "attention_mask": (
        lambda q, k, v: nn.scaled_dot_product_attention(q, k, v, C["mask"]),
        lambda q, k, v: F.scaled_dot_product_attention(q, k, v, t64(MASK)),
        [rand(3, 8), rand(5, 8, seed=1), rand(5, 2, seed=2)],
    ),
    "cross_entropy": (
        lambda z: nn.cross_entropy(z, C["labels"]),
        lambda z: F.cross_entropy(z, t64(LABELS)),
        [rand(4, 5)],
    ),
    "cross_entropy_probs": (
        lambda z, p: nn.cross_entropy(z, p, reduction="sum"),
        lambda z, p: F.cross_entropy(z, p, reduction="sum"),
        [rand(4, 5), np.full((4, 5), 0.2, np.float32)],
    ),
    "mse_loss": (
        lambda a, b: nn.mse_loss(a, b, reduction="none"),
        lambda a, b: F.mse_loss(a, b, reduction="none"),
        [rand(3, 4), rand(3, 4, seed=1)],
    ),
}


AUTODIFF = [n for n in ivy_like.available_backends() if ivy_like.get_backend(n).has_autodiff]


NO_AUTODIFF = "numpy has no autodiff: ivy_like.grad raises NoAutodiffError"


@pytest.mark.ivy_like_xfail("numpy", reason=NO_AUTODIFF)
@pytest.mark.parametrize("name", sorted(CASES))
def test_gradients_match_torch_autograd(backend, name):
    ours, ref, inputs = CASES[name]
    for key, value in CONSTANTS.items():
        C[key] = backend.asarray(value)
    # reference: d/dinputs sum(ref(inputs) * cotangent), in float64
    leaves = [t64(a).requires_grad_(True) for a in inputs]
    out = ref(*leaves)
    cot = np.random.default_rng(9).standard_normal(tuple(out.shape)).astype(np.float32)
    expected = torch.autograd.grad((out * t64(cot)).sum(), leaves)
    cot_b = backend.asarray(cot)

    def loss(*args):
        return ivy_like.sum(ours(*args) * cot_b)

    value = loss(*[backend.asarray(a) for a in inputs])
    assert_close(value, np.float32((out * t64(cot)).sum().item()), rtol=1e-4, atol=1e-4)
    grads = ivy_like.grad(loss, argnums=tuple(range(len(inputs))))(
        *[backend.asarray(a) for a in inputs]
    )
    if len(inputs) == 1:
        grads = (grads,)  # MLX's rule, which ivy_like.grad follows: one index, one gradient
    assert len(grads) == len(inputs)
    for i, (got, want) in enumerate(zip(grads, expected)):
        assert_close(got, want.numpy().astype(np.float32), **GRAD_TOL, label=f"d/d input {i}: ")


def test_numpy_has_no_autodiff():
    with ivy_like.use_backend("numpy"):
        with pytest.raises(ivy_like.NoAutodiffError, match="numpy"):
            ivy_like.grad(lambda x: ivy_like.sum(nn.relu(x)))(np.ones(3, np.float32))


@pytest.mark.ivy_like_xfail("numpy", reason=NO_AUTODIFF)
@pytest.mark.parametrize("name", ["relu", "silu", "gelu"])
def test_gradient_at_zero(backend, name):
    # relu's derivative at 0 is 0 everywhere (jnp.maximum would give 0.5); silu's and gelu's 0.5
    fn = getattr(nn, name)
    x = backend.asarray(np.array([0.0, -0.0], np.float32))
    got = ivy_like.grad(lambda a: ivy_like.sum(fn(a)))(x)
    assert_close(got, np.array([0.0, 0.0] if name == "relu" else [0.5, 0.5], np.float32))


def test_gradients_agree_across_backends():
    # One model-shaped computation through several ops, every autodiff backend, same numbers.
    x, w = rand(2, 3, 6, 6), rand(4, 3, 3, 3, seed=1)
    wl = rand(5, 4 * 3 * 3, seed=2)
    labels = np.array([1, 4], np.int32)
    results = {}
    for name in AUTODIFF:
        b = ivy_like.get_backend(name)

        def loss(w, wl, b=b):
            h = nn.relu(nn.conv2d(b.asarray(x), w, padding=1))
            h = nn.max_pool2d(h, 2)
            h = ivy_like.reshape(h, (2, -1))
            return nn.cross_entropy(nn.linear(h, wl), b.asarray(labels))

        with ivy_like.use_backend(b):
            results[name] = ivy_like.value_and_grad(loss, argnums=(0, 1))(
                b.asarray(w), b.asarray(wl)
            )
    ref = AUTODIFF[0]
    for name in AUTODIFF[1:]:
        assert_close(results[name], results[ref], rtol=1e-4, atol=1e-5, label=f"{name}: ")

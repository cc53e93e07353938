"""The losses (``binary_cross_entropy``, ``binary_cross_entropy_with_logits``, ``nll_loss``,
``huber_loss``, ``smooth_l1_loss``, ``kl_div``, ``cosine_similarity``) on every backend against
``torch.nn.functional`` in float64: values, every reduction, gradients through
``ivy_like.grad`` against ``torch.autograd``, the typed errors and compiled calls. torch's
native kernels against the composites they replace: ``tests/ops/test_kernels_match_composites.py``."""

from __future__ import annotations

import numpy as np
import pytest
from _nn_ref import f32, rand, t64

try:
    import torch
    import torch.nn.functional as F
except ModuleNotFoundError:  # the MXNet environment: the tests against numpy still run
    torch = F = None

import ivy_like
from ivy_like.testing import assert_close

nn = ivy_like.nn
TOL = {"rtol": 1e-5, "atol": 1e-6}  # float32 against float64: a few ulp of the largest terms
GRAD_TOL = {"rtol": 2e-4, "atol": 2e-5}  # as tests/nn/test_nn_grads.py
NO_AUTODIFF = "numpy has no autodiff: ivy_like.grad raises NoAutodiffError"
needs_torch = pytest.mark.skipif(torch is None, reason="torch, the reference, is not installed")
R3 = ("mean", "sum", "none")

_rng = np.random.default_rng(24)
P = _rng.uniform(0.05, 0.95, (4, 3)).astype(np.float32)  # probabilities
Y = _rng.uniform(0.0, 1.0, (4, 3)).astype(np.float32)  # soft targets in [0, 1]
Z = rand(4, 3, scale=3.0)  # logits
W = _rng.uniform(0.5, 2.0, (3,)).astype(np.float32)  # broadcasts over the rows
LOGP = np.log(_rng.dirichlet(np.ones(5), size=4)).astype(np.float32)  # (N, C)
Q = _rng.dirichlet(np.ones(5), size=4).astype(np.float32)
LABELS = np.array([0, 4, 2, 1], np.int32)
LOGP3 = np.log(_rng.dirichlet(np.ones(5), size=(2, 3))).astype(np.float32).transpose(0, 2, 1)
LABELS3 = np.array([[0, 2, 4], [2, 3, 2]], np.int32)  # (N, d1) for input (N, C, d1)
CLASS_W = _rng.uniform(0.5, 2.0, (5,)).astype(np.float32)


def _reduce(t, reduction):
    return {"mean": t.mean, "sum": t.sum}.get(reduction, lambda: t)()


def _weighted_nll(x, target, w, ignore_index, reduction):
    """torch's weighted nll_loss written out: -w[t] x[t], divided by the sum of w[t] for
    "mean", ignored targets counting nothing."""
    counted = target != ignore_index
    weights = w[torch.where(counted, target, 0)] * counted
    losses = F.nll_loss(x, target, ignore_index=ignore_index, reduction="none") * weights
    return losses.sum() / weights.sum() if reduction == "mean" else _reduce(losses, reduction)


def on(backend, *arrays):
    return [backend.asarray(a) for a in arrays]


# name: (ours(backend, reduction, *arrays), torch(reduction, *tensors), arrays, reductions,
#        how many of the arrays (from the first) are differentiated in the gradient test)
CASES = {
    "binary_cross_entropy": (
        lambda b, r, p, y, w: nn.binary_cross_entropy(p, y, w, reduction=r),
        lambda r, p, y, w: F.binary_cross_entropy(p, y, w, reduction=r),
        [P, Y, W],
        R3,
        2,  # torch has no gradient for weight= (the *_weights cases below check it)
    ),
    "binary_cross_entropy_weights": (  # torch's definition of weight, differentiable
        lambda b, r, p, y, w: nn.binary_cross_entropy(p, y, w, reduction=r),
        lambda r, p, y, w: _reduce(F.binary_cross_entropy(p, y, reduction="none") * w, r),
        [P, Y, W],
        R3,
        3,
    ),
    "binary_cross_entropy_with_logits": (
        lambda b, r, z, y, w, pw: nn.binary_cross_entropy_with_logits(
            z, y, w, reduction=r, pos_weight=pw
        ),
        lambda r, z, y, w, pw: F.binary_cross_entropy_with_logits(
            z, y, w, reduction=r, pos_weight=pw
        ),
        [Z, Y, W, 2.0 * W],
        R3,
        2,
    ),
    "binary_cross_entropy_with_logits_weights": (  # torch's documented formula
        lambda b, r, z, y, w, pw: nn.binary_cross_entropy_with_logits(
            z, y, w, reduction=r, pos_weight=pw
        ),
        lambda r, z, y, w, pw: _reduce(w * ((1 - y) * z + (1 + (pw - 1) * y) * F.softplus(-z)), r),
        [Z, Y, W, 2.0 * W],
        R3,
        4,
    ),
    "binary_cross_entropy_with_logits_plain": (
        lambda b, r, z, y: nn.binary_cross_entropy_with_logits(z, y, reduction=r),
        lambda r, z, y: F.binary_cross_entropy_with_logits(z, y, reduction=r),
        [np.concatenate([Z, np.zeros((1, 3), np.float32)]), np.concatenate([Y, Y[:1]])],
        R3,
        2,
    ),
    "nll_loss": (
        lambda b, r, x: nn.nll_loss(x, b.asarray(LABELS), reduction=r),
        lambda r, x: F.nll_loss(x, t64(LABELS), reduction=r),
        [LOGP],
        R3,
        1,
    ),
    "nll_loss_weighted_ignored_3d": (
        lambda b, r, x, w: nn.nll_loss(x, b.asarray(LABELS3), w, ignore_index=2, reduction=r),
        lambda r, x, w: F.nll_loss(x, t64(LABELS3), w, ignore_index=2, reduction=r),
        [LOGP3, CLASS_W],
        R3,
        1,  # torch has no gradient for weight=
    ),
    "nll_loss_weights": (  # torch's definition of weight, differentiable
        lambda b, r, x, w: nn.nll_loss(x, b.asarray(LABELS3), w, ignore_index=2, reduction=r),
        lambda r, x, w: _weighted_nll(x, t64(LABELS3), w, 2, r),
        [LOGP3, CLASS_W],
        R3,
        2,
    ),
    "huber_loss": (
        lambda b, r, x, y, w: nn.huber_loss(x, y, r, 0.7, w),
        lambda r, x, y, w: _reduce(F.huber_loss(x, y, reduction="none", delta=0.7) * w, r),
        [Z, 2.0 * Y, W],
        R3,
        3,
    ),
    "smooth_l1_loss": (
        lambda b, r, x, y: nn.smooth_l1_loss(x, y, reduction=r, beta=0.5),
        lambda r, x, y: F.smooth_l1_loss(x, y, reduction=r, beta=0.5),
        [Z, 2.0 * Y],
        R3,
        2,
    ),
    "smooth_l1_loss_beta0": (
        lambda b, r, x, y: nn.smooth_l1_loss(x, y, reduction=r, beta=0.0),
        lambda r, x, y: F.smooth_l1_loss(x, y, reduction=r, beta=0.0),
        [Z, 2.0 * Y],
        R3,
        2,
    ),
    "kl_div": (
        lambda b, r, x, q: nn.kl_div(x, q, reduction=r),
        lambda r, x, q: F.kl_div(x, q, reduction=r),
        [LOGP, Q],
        (*R3, "batchmean"),
        2,
    ),
    "kl_div_log_target": (
        lambda b, r, x, q: nn.kl_div(x, q, reduction=r, log_target=True),
        lambda r, x, q: F.kl_div(x, q, reduction=r, log_target=True),
        [LOGP, np.log(Q)],
        (*R3, "batchmean"),
        2,
    ),
    "cosine_similarity": (  # broadcasting (3,) against (4, 3), along the last axis
        lambda b, r, x1, x2: nn.cosine_similarity(x1, x2, dim=1),
        lambda r, x1, x2: F.cosine_similarity(x1, x2, dim=1),
        [Z[0], Z],
        ("none",),
        2,
    ),
    "cosine_similarity_eps": (  # a norm below eps: clamped (value and gradient as torch)
        lambda b, r, x1, x2: nn.cosine_similarity(x1, x2, dim=0, eps=0.5),
        lambda r, x1, x2: F.cosine_similarity(x1, x2, dim=0, eps=0.5),
        [0.1 * Z, Z],
        ("none",),
        2,
    ),
}
PAIRS = [(name, r) for name, case in sorted(CASES.items()) for r in case[3]]


def _warnings_off():
    # F.kl_div warns on every reduction="mean" (its future change); the reference only.
    import warnings

    return warnings.catch_warnings(action="ignore", category=UserWarning)


@needs_torch
@pytest.mark.parametrize("name, reduction", PAIRS)
def test_values_match_torch(backend, name, reduction):
    ours, ref, arrays, _, _ = CASES[name]
    with _warnings_off():
        expected = f32(ref(reduction, *map(t64, arrays)))
    got = ours(backend, reduction, *on(backend, *arrays))
    assert isinstance(got, tuple(backend.array_types))
    assert_close(got, expected, **TOL)


@needs_torch
@pytest.mark.ivy_like_xfail("numpy", reason=NO_AUTODIFF)
@pytest.mark.parametrize("name, reduction", PAIRS)
def test_gradients_match_torch_autograd(backend, name, reduction):
    ours, ref, arrays, _, n_grad = CASES[name]
    leaves = [t64(a).requires_grad_(i < n_grad) for i, a in enumerate(arrays)]
    with _warnings_off():
        out = ref(reduction, *leaves)
    cot = np.random.default_rng(9).standard_normal(tuple(out.shape)).astype(np.float32)
    expected = torch.autograd.grad((out * t64(cot)).sum(), leaves[:n_grad])
    cot_b, fixed = backend.asarray(cot), on(backend, *arrays[n_grad:])

    def loss(*args):
        return ivy_like.sum(ours(backend, reduction, *args, *fixed) * cot_b)

    grads = ivy_like.grad(loss, argnums=tuple(range(n_grad)))(*on(backend, *arrays[:n_grad]))
    if n_grad == 1:
        grads = (grads,)  # one index, one gradient (MLX's rule, which ivy_like.grad follows)
    for i, (got, want) in enumerate(zip(grads, expected)):
        assert_close(got, want.numpy().astype(np.float32), **GRAD_TOL, label=f"d/d arg {i}: ")


def _central_differences(ours, reduction, arrays, n_grad, cot, h=1e-6):
    """d/d arrays[:n_grad] of sum(ours(...) * cot), by central differences in float64 on
    the numpy backend: a reference for the gradients that needs no torch."""
    numpy = ivy_like.get_backend("numpy")
    x64 = [a.astype(np.float64) if a.dtype.kind == "f" else a for a in arrays]

    def f(args):
        with ivy_like.use_backend(numpy):  # NumPy arrays follow the active backend
            return float(np.sum(ivy_like.to_numpy(ours(numpy, reduction, *args)) * cot))

    grads = []
    for i in range(n_grad):
        g = np.zeros(x64[i].shape)
        for j in np.ndindex(*g.shape):
            up, down = list(x64), list(x64)
            up[i], down[i] = x64[i].copy(), x64[i].copy()
            up[i][j] += h
            down[i][j] -= h
            g[j] = (f(up) - f(down)) / (2 * h)
        grads.append(g.astype(np.float32))
    return grads


# cosine_similarity_eps is left out: by design its gradient is not the derivative (torch's
# gradient ignores the eps clamp, and so does ours).
@pytest.mark.ivy_like_xfail("numpy", reason=NO_AUTODIFF)
@pytest.mark.parametrize("name, reduction", [p for p in PAIRS if p[0] != "cosine_similarity_eps"])
def test_gradients_agree_with_central_differences(backend, name, reduction):
    # The torch-free gradient check (it is what runs on MXNet).
    ours, _, arrays, _, n_grad = CASES[name]
    numpy = ivy_like.get_backend("numpy")
    with ivy_like.use_backend(numpy):
        shape = np.shape(ivy_like.to_numpy(ours(numpy, reduction, *arrays)))
    cot = np.random.default_rng(9).standard_normal(shape).astype(np.float32)
    expected = _central_differences(ours, reduction, arrays, n_grad, cot)
    cot_b, fixed = backend.asarray(cot), on(backend, *arrays[n_grad:])

    def loss(*args):
        return ivy_like.sum(ivy_like.multiply(ours(backend, reduction, *args, *fixed), cot_b))

    grads = ivy_like.grad(loss, argnums=tuple(range(n_grad)))(*on(backend, *arrays[:n_grad]))
    if n_grad == 1:
        grads = (grads,)
    for i, (got, want) in enumerate(zip(grads, expected)):
        assert_close(got, want, **GRAD_TOL, label=f"d/d arg {i}: ")


@pytest.mark.parametrize("name, reduction", PAIRS)
def test_values_agree_with_numpy(backend, name, reduction):
    # The same numbers as the numpy backend (itself checked against torch above): the test
    # that runs where torch is not installed (the MXNet environment).
    ours, _, arrays, _, _ = CASES[name]
    numpy = ivy_like.get_backend("numpy")
    with ivy_like.use_backend(numpy):  # NumPy arrays follow the active backend
        expected = ivy_like.to_numpy(ours(numpy, reduction, *arrays))
    assert isinstance(expected, np.ndarray)
    assert_close(ours(backend, reduction, *on(backend, *arrays)), expected, **TOL)


# -- semantics worth their own test -------------------------------------------------------------
def test_nll_loss_ignore_index(backend):
    x = backend.asarray(LOGP)
    labels = np.array([0, -100, 2, -100], np.int32)
    got = nn.nll_loss(x, backend.asarray(labels), reduction="none")
    assert_close(got, np.array([-LOGP[0, 0], 0.0, -LOGP[2, 2], 0.0], np.float32), **TOL)
    mean = nn.nll_loss(x, backend.asarray(labels))  # the mean over the two counted
    assert_close(mean, np.float32(-(LOGP[0, 0] + LOGP[2, 2]) / 2), **TOL)
    # every target ignored: 0 / 0, NaN as in torch
    all_ignored = nn.nll_loss(x, backend.asarray(np.full(4, -100, np.int32)))
    assert np.isnan(ivy_like.to_numpy(all_ignored))
    # a 1-D input is one example, with a 0-d target
    one = nn.nll_loss(backend.asarray(LOGP[1]), backend.asarray(np.array(3, np.int32)))
    assert_close(one, -LOGP[1, 3], **TOL)


def test_binary_cross_entropy_clamps_log_at_minus_100(backend):
    # torch clamps each log at -100, so a probability of exactly 0 or 1 costs 100, not inf
    p = backend.asarray(np.array([0.0, 1.0, 0.0, 1.0], np.float32))
    y = backend.asarray(np.array([1.0, 0.0, 0.0, 1.0], np.float32))
    assert_close(nn.binary_cross_entropy(p, y), np.float32(50.0))
    assert_close(nn.binary_cross_entropy(p, y, reduction="sum"), np.float32(200.0))


@pytest.mark.ivy_like_xfail("numpy", reason=NO_AUTODIFF)
def test_binary_cross_entropy_gradient_is_finite_at_0_and_1(backend):
    # sigmoid saturates to exactly 1.0 in float32 (x > 17): the gradient must stay finite
    p = backend.asarray(np.array([0.0, 1.0, 0.5], np.float32))
    y = backend.asarray(np.array([0.0, 1.0, 1.0], np.float32))
    g = ivy_like.to_numpy(ivy_like.grad(lambda a: nn.binary_cross_entropy(a, y))(p))
    assert np.all(np.isfinite(g)), g
    assert_close(g[2], np.float32(-2.0 / 3.0), **TOL)  # -(1 / 0.5) / 3 elements


@pytest.mark.ivy_like_xfail("numpy", reason=NO_AUTODIFF)
def test_logits_gradient_at_zero_is_sigmoid_minus_target(backend):
    # d/dz = sigmoid(z) - y: at z = 0 that is 0.5 - y on every backend. (Written with
    # logaddexp, TensorFlow gave 0 - y there: its gradient of logaddexp(0, 0) is 0.)
    z = backend.asarray(np.zeros(3, np.float32))
    y = backend.asarray(np.array([0.0, 1.0, 0.25], np.float32))
    g = ivy_like.grad(lambda a: nn.binary_cross_entropy_with_logits(a, y, reduction="sum"))(z)
    assert_close(g, np.array([0.5, -0.5, 0.25], np.float32), **TOL)


def test_binary_cross_entropy_with_logits_does_not_overflow(backend):
    z = np.array([100.0, -100.0, 50.0, -50.0], np.float32)
    y = np.array([0.0, 1.0, 1.0, 0.0], np.float32)
    tail = np.log1p(np.exp(-50.0))  # 1.9e-22: log(1 + exp(-|z|)) for the right guesses
    expected = np.array([100.0, 100.0, tail, tail], np.float32)
    got = nn.binary_cross_entropy_with_logits(*on(backend, z, y), reduction="none")
    assert_close(got, expected, **TOL)


def test_kl_div_zero_target_and_0d(backend):
    x = backend.asarray(np.log(np.array([0.5, 0.5], np.float32)))
    q = backend.asarray(np.array([0.0, 1.0], np.float32))
    # a target of 0 contributes 0 (0 * log 0 is taken as 0, as torch's xlogy)
    assert_close(nn.kl_div(x, q, reduction="none"), np.array([0.0, np.log(2.0)], np.float32))
    # 0-d: "batchmean" is the sum (torch divides by the size of axis 0 only when there is one)
    x0, q0 = np.float32(-1.0), np.float32(0.5)
    expected = np.float32(0.5 * (np.log(0.5) + 1.0))
    assert_close(nn.kl_div(*on(backend, x0, q0), reduction="batchmean"), expected, **TOL)


def test_cosine_similarity_of_a_zero_vector_is_zero(backend):
    x1 = backend.asarray(np.zeros((2, 3), np.float32))
    x2 = backend.asarray(rand(2, 3))
    assert_close(nn.cosine_similarity(x1, x2), np.zeros(2, np.float32))


def test_array_method_and_container_variants(backend):
    p, y = on(backend, P, Y)
    want = nn.binary_cross_entropy(p, y, reduction="sum")
    assert_close(ivy_like.array(p).binary_cross_entropy(y, reduction="sum"), want)
    c = ivy_like.Container(a=p, b={"c": p})
    out = nn.binary_cross_entropy(c, y, reduction="sum")
    assert isinstance(out, ivy_like.Container)
    assert_close(out["b"]["c"], want)


# -- errors: typed, naming the argument, the same on every backend -----------------------------
def ones(*shape):
    return np.ones(shape, np.float32)


def half(*shape):
    return np.full(shape, 0.5, np.float32)


ERRORS = {
    "bce_reduction": (
        lambda c: nn.binary_cross_entropy(c(half(2)), c(half(2)), reduction="avg"),
        ValueError,
        r"^binary_cross_entropy: reduction must be 'mean', 'sum' or 'none', got 'avg'$",
    ),
    "bce_shape": (
        lambda c: nn.binary_cross_entropy(c(half(2, 3)), c(half(3))),
        ValueError,
        r"^binary_cross_entropy: input and target must have the same shape, got \(2, 3\) and "
        r"\(3,\)",
    ),
    "bce_weight": (
        lambda c: nn.binary_cross_entropy(c(half(2, 3)), c(half(2, 3)), c(ones(2))),
        ValueError,
        r"^binary_cross_entropy: weight of shape \(2,\) does not broadcast to the shape of "
        r"input \(2, 3\)$",
    ),
    "bce_input_above_1": (
        lambda c: nn.binary_cross_entropy(c(np.array([[0.5, 1.5]], np.float32)), c(half(1, 2))),
        ValueError,
        r"^binary_cross_entropy: input\[0, 1\] is 1.5, not a probability in \[0, 1\]$",
    ),
    "bce_input_nan": (
        lambda c: nn.binary_cross_entropy(c(np.array([0.5, np.nan], np.float32)), c(half(2))),
        ValueError,
        r"^binary_cross_entropy: input\[1\] is nan, not a probability in \[0, 1\]$",
    ),
    "bce_target_negative": (
        lambda c: nn.binary_cross_entropy(c(half(3)), c(np.array([0.0, -0.25, 1], np.float32))),
        ValueError,
        r"^binary_cross_entropy: target\[1\] is -0.25, not a probability in \[0, 1\]$",
    ),
    "bce_logits_pos_weight": (
        lambda c: nn.binary_cross_entropy_with_logits(
            c(ones(2, 3)), c(half(2, 3)), pos_weight=c(ones(4))
        ),
        ValueError,
        r"^binary_cross_entropy_with_logits: pos_weight of shape \(4,\) does not broadcast",
    ),
    "bce_logits_shape": (
        lambda c: nn.binary_cross_entropy_with_logits(c(ones(2)), c(half(3))),
        ValueError,
        r"^binary_cross_entropy_with_logits: input and target must have the same shape",
    ),
    "nll_label_too_large": (
        lambda c: nn.nll_loss(c(ones(3, 4)), c(np.array([0, 1, 4], np.int32))),
        ValueError,
        r"^nll_loss: target\[2\] is 4, not a class index of input with 4 classes \(0 to 3\)$",
    ),
    "nll_label_negative_3d": (
        lambda c: nn.nll_loss(c(ones(2, 4, 2)), c(np.array([[0, 1], [-1, 2]], np.int32))),
        ValueError,
        r"^nll_loss: target\[1, 0\] is -1, not a class index of input with 4 classes",
    ),
    "nll_ignore_index_other": (  # -100 is allowed only as the ignore_index
        lambda c: nn.nll_loss(c(ones(2, 4)), c(np.array([-100, 1], np.int32)), ignore_index=1),
        ValueError,
        r"^nll_loss: target\[0\] is -100, not a class index",
    ),
    "nll_float_target": (
        lambda c: nn.nll_loss(c(ones(2, 4)), c(ones(2))),
        TypeError,
        r"^nll_loss: target holds class indices and must have an integer dtype$",
    ),
    "nll_target_shape": (
        lambda c: nn.nll_loss(c(ones(2, 4, 3)), c(np.zeros((2, 4), np.int32))),
        ValueError,
        r"^nll_loss: target of shape \(2, 4\) does not fit input of shape \(2, 4, 3\) "
        r"\(expected \(2, 3\)",
    ),
    "nll_weight": (
        lambda c: nn.nll_loss(c(ones(2, 4)), c(np.zeros(2, np.int32)), c(ones(3))),
        ValueError,
        r"^nll_loss: weight must have shape \(4,\) \(one per class\), got \(3,\)$",
    ),
    "nll_reduction": (
        lambda c: nn.nll_loss(c(ones(2, 4)), c(np.zeros(2, np.int32)), reduction="batchmean"),
        ValueError,
        r"^nll_loss: reduction must be 'mean', 'sum' or 'none', got 'batchmean'$",
    ),
    "huber_delta": (
        lambda c: nn.huber_loss(c(ones(2)), c(ones(2)), delta=0.0),
        ValueError,
        r"^huber_loss: delta must be a positive number, got 0.0$",
    ),
    "huber_weight": (
        lambda c: nn.huber_loss(c(ones(2, 3)), c(ones(2, 3)), weight=c(ones(3, 1))),
        ValueError,
        r"^huber_loss: weight of shape \(3, 1\) does not broadcast",
    ),
    "smooth_l1_beta": (
        lambda c: nn.smooth_l1_loss(c(ones(2)), c(ones(2)), beta=-1.0),
        ValueError,
        r"^smooth_l1_loss: beta must be a non-negative number, got -1.0$",
    ),
    "smooth_l1_shape": (
        lambda c: nn.smooth_l1_loss(c(ones(2, 1)), c(ones(2))),
        ValueError,
        r"^smooth_l1_loss: input and target must have the same shape",
    ),
    "kl_div_reduction": (
        lambda c: nn.kl_div(c(ones(2)), c(half(2)), reduction="avg"),
        ValueError,
        r"^kl_div: reduction must be 'mean', 'sum', 'none' or 'batchmean', got 'avg'$",
    ),
    "cosine_dim": (
        lambda c: nn.cosine_similarity(c(ones(2, 3)), c(ones(2, 3)), dim=2),
        ValueError,
        r"^cosine_similarity: dim 2 is out of range for inputs with 2 dimensions$",
    ),
    "cosine_shapes": (
        lambda c: nn.cosine_similarity(c(ones(2, 3)), c(ones(4))),
        ValueError,
        r"^cosine_similarity: x1 of shape \(2, 3\) and x2 of shape \(4,\) do not broadcast$",
    ),
    "cosine_eps": (
        lambda c: nn.cosine_similarity(c(ones(3)), c(ones(3)), dim=0, eps=-1e-8),
        ValueError,
        r"^cosine_similarity: eps must be a non-negative number, got -1e-08$",
    ),
}


@pytest.mark.parametrize("case", sorted(ERRORS))
@pytest.mark.parametrize("wrap", ["native", "Array"])
def test_bad_input_raises_the_same_error_everywhere(backend, case, wrap):
    call, exc, message = ERRORS[case]
    convert = (
        backend.asarray if wrap == "native" else (lambda a: ivy_like.array(backend.asarray(a)))
    )
    with pytest.raises(exc, match=message):
        call(convert)


# -- compiled: the value checks must not break tracing ------------------------------------------
COMPILERS = [n for n in ("jax", "torch", "tensorflow", "mlx") if n in ivy_like.available_backends()]


@pytest.mark.parametrize("name", COMPILERS)
def test_compiled_losses_match_eager(name):
    b = ivy_like.get_backend(name)

    def losses(p, y, x, labels):
        return (
            nn.binary_cross_entropy(p, y),
            nn.nll_loss(x, labels),
            nn.binary_cross_entropy_with_logits(x, ivy_like.exp(x)),
            nn.cosine_similarity(p, y),
        )

    args = on(b, P, Y, LOGP, LABELS)
    with ivy_like.use_backend(b):
        eager = losses(*args)
        compiled = ivy_like.compile(losses)(*args)
    assert_close(list(compiled), list(eager), **TOL)

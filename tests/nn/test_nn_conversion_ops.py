"""The nn ops that converted models use: ``conv_transpose2d``, ``group_norm``,
``gru_cell``, ``adaptive_max_pool2d`` and ``interpolate``, on every backend, values and
gradients against PyTorch's own functions in float64.

Where torch is not installed (the MXNet environment), the reference is the numpy backend's
composite in float64 (checked against PyTorch where torch is installed), its gradients by
central differences."""

from __future__ import annotations

import numpy as np
import pytest
from _nn_ref import f32, rand, t64

import ivy_like
from ivy_like.testing import assert_close

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # the MXNet environment: see the module's docstring
    torch = F = None

nn = ivy_like.nn
TOL = {"rtol": 1e-4, "atol": 1e-5}
GRAD_TOL = {"rtol": 2e-4, "atol": 2e-5}


def _torch_reference(ref, inputs, n_diff, cot):
    """``ref``'s float64 value and gradients of ``sum(out * cot)`` w.r.t. the inputs ``diff``."""
    leaves = [
        None if a is None else t64(a).requires_grad_(i < n_diff) for i, a in enumerate(inputs)
    ]
    want = ref(*leaves)
    if cot is None:
        return f32(want), None
    diff = [i for i in range(n_diff) if inputs[i] is not None]
    grads = torch.autograd.grad((want * t64(cot)).sum(), [leaves[i] for i in diff])
    return f32(want), [f32(g) for g in grads]


def _numpy_reference(ours, inputs, n_diff, cot):
    """The numpy backend's composite in float64, gradients by central differences."""
    x64 = [None if a is None else a.astype(np.float64) for a in inputs]
    with ivy_like.use_backend("numpy"):

        def value(args):
            return np.asarray(ivy_like.to_numpy(ours(*args)))

        want = value(x64)
        if cot is None:
            return want.astype(np.float32), None
        grads, eps = [], 1e-6
        for i in (i for i in range(n_diff) if x64[i] is not None):
            g = np.zeros_like(x64[i])
            for j in np.ndindex(g.shape):
                plus, minus = list(x64), list(x64)
                plus[i], minus[i] = x64[i].copy(), x64[i].copy()
                plus[i][j] += eps
                minus[i][j] -= eps
                g[j] = np.sum((value(plus) - value(minus)) * cot) / (2 * eps)
            grads.append(g.astype(np.float32))
    return want.astype(np.float32), grads


def check_against_torch(backend, ours, ref, inputs, n_diff=None):
    """``ours`` on the backend against ``ref`` (torch, float64): the values, and (on autodiff
    backends) the gradients of ``sum(out * cot)`` with respect to the first ``n_diff`` inputs
    (all by default; None inputs are passed through)."""
    n_diff = len(inputs) if n_diff is None else n_diff
    args = [None if a is None else backend.asarray(a) for a in inputs]
    got = ours(*args)
    cot = None
    if backend.has_autodiff:
        cot = np.random.default_rng(9).standard_normal(tuple(got.shape)).astype(np.float32)
    if torch is not None:
        want, expected = _torch_reference(ref, inputs, n_diff, cot)
    else:
        want, expected = _numpy_reference(ours, inputs, n_diff, cot)
    assert tuple(got.shape) == want.shape
    assert_close(got, want, **TOL)
    if cot is None:
        return
    diff = [i for i in range(n_diff) if inputs[i] is not None]
    cot_b = backend.asarray(cot)

    def loss(*xs):
        full = list(args)
        for i, x in zip(diff, xs):
            full[i] = x
        return ivy_like.sum(ours(*full) * cot_b)

    grads = ivy_like.grad(loss, argnums=tuple(range(len(diff))))(*[args[i] for i in diff])
    if len(diff) == 1:
        grads = (grads,)  # one index, one gradient (MLX's rule, which ivy_like.grad follows)
    for i, g, e in zip(diff, grads, expected):
        assert_close(g, e, **GRAD_TOL, label=f"d/d input {i}: ")


# -- conv_transpose2d --------------------------------------------------------------------------
# (x shape, weight shape, with bias, keywords)
CONV_T_CASES = [
    ((2, 4, 5, 5), (4, 3, 3, 3), True, {}),
    ((1, 2, 4, 5), (2, 3, 3, 3), False, {"stride": 2, "padding": 1, "output_padding": 1}),
    (
        (1, 4, 3, 4),
        (4, 2, 3, 2),
        True,
        {"stride": (2, 3), "padding": (1, 0), "output_padding": (1, 2), "groups": 2},
    ),
    (
        (2, 4, 4, 3),
        (4, 1, 2, 3),
        True,
        {"stride": 2, "dilation": 2, "output_padding": 1, "groups": 4, "padding": (0, 1)},
    ),
    # padding beyond dilation * (k - 1): the composite crops
    ((1, 2, 5, 5), (2, 2, 2, 2), False, {"stride": 3, "padding": 2}),
]


@pytest.mark.parametrize("case", range(len(CONV_T_CASES)))
def test_conv_transpose2d(backend, case):
    xs, ws, with_bias, kw = CONV_T_CASES[case]
    b = rand(ws[1] * kw.get("groups", 1), seed=2) if with_bias else None
    check_against_torch(
        backend,
        lambda x, w, b: nn.conv_transpose2d(x, w, b, **kw),
        lambda x, w, b: F.conv_transpose2d(x, w, b, **kw),
        [rand(*xs), rand(*ws, seed=1), b],
    )


# -- group_norm --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "shape, groups, affine",
    [((2, 6, 3, 4), 3, True), ((3, 4, 5), 2, False), ((2, 4, 2, 2), 1, True), ((2, 4, 3), 4, True)],
)
def test_group_norm(backend, shape, groups, affine):
    c = shape[1]
    w, b = (rand(c, seed=1), rand(c, seed=2)) if affine else (None, None)
    check_against_torch(
        backend,
        lambda x, w, b: nn.group_norm(x, groups, w, b, eps=1e-4),
        lambda x, w, b: F.group_norm(x, groups, w, b, eps=1e-4),
        [rand(*shape), w, b],
    )


# -- gru_cell ----------------------------------------------------------------------------------
@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("with_bias", [True, False])
def test_gru_cell(backend, batched, with_bias):
    n_in, hidden = 3, 4
    lead = (2,) if batched else ()
    bias = [rand(3 * hidden, seed=4), rand(3 * hidden, seed=5)] if with_bias else [None, None]
    inputs = [
        rand(*lead, n_in),
        rand(*lead, hidden, seed=1),
        rand(3 * hidden, n_in, seed=2),
        rand(3 * hidden, hidden, seed=3),
        *bias,
    ]
    check_against_torch(backend, nn.gru_cell, gru_ref, inputs)


def gru_ref(x, h, w_ih, w_hh, b_ih, b_hh):
    if x.dim() == 1:  # torch.gru_cell takes a batch only
        return torch.gru_cell(x[None], h[None], w_ih, w_hh, b_ih, b_hh)[0]
    return torch.gru_cell(x, h, w_ih, w_hh, b_ih, b_hh)


# -- adaptive_max_pool2d -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "shape, size",
    [((2, 3, 7, 5), (3, 2)), ((3, 6, 6), 4), ((1, 2, 8, 6), (4, None)), ((1, 1, 5, 9), 1)],
)
def test_adaptive_max_pool2d(backend, shape, size):
    check_against_torch(
        backend,
        lambda x: nn.adaptive_max_pool2d(x, size),
        lambda x: F.adaptive_max_pool2d(x, size),
        [rand(*shape)],
    )


# -- interpolate -------------------------------------------------------------------------------
INTERP_CASES = [
    {"size": (7, 5), "mode": "nearest"},
    {"scale_factor": 2, "mode": "nearest"},
    {"scale_factor": (1.5, 0.7), "mode": "nearest"},
    {"size": (7, 9), "mode": "nearest-exact"},
    {"scale_factor": 1.5, "mode": "nearest-exact"},
    {"size": (7, 9), "mode": "bilinear", "align_corners": False},
    {"size": (7, 9), "mode": "bilinear", "align_corners": True},
    {"size": 3, "mode": "bilinear", "align_corners": True},
    {"size": (2, 3), "mode": "bilinear"},
    {"scale_factor": (1.7, 0.6), "mode": "bilinear", "align_corners": False},
    {"scale_factor": 2, "mode": "bilinear", "align_corners": True},
]


@pytest.mark.parametrize("kw", INTERP_CASES, ids=lambda kw: "-".join(map(str, kw.values())))
def test_interpolate(backend, kw):
    check_against_torch(
        backend,
        lambda x: nn.interpolate(x, **kw),
        lambda x: F.interpolate(x, **kw),
        [rand(2, 3, 4, 6)],
    )


# -- argument errors: the same typed errors, naming the argument, on every backend ------------
def _conv_t(**kw):
    """A conv_transpose2d call on a (1, 4, 3, 3) input and a (4, 2, 3, 3) weight, ``kw``
    replacing any of them or adding keywords."""

    def call():
        args = {"x": rand(1, 4, 3, 3), "weight": rand(4, 2, 3, 3, seed=1), **kw}
        if args.get("bias") is not None:
            args["bias"] = ivy_like.asarray(args["bias"])
        x, w = ivy_like.asarray(args.pop("x")), ivy_like.asarray(args.pop("weight"))
        return nn.conv_transpose2d(x, w, **args)

    return call


ERRORS = [
    (lambda: nn.group_norm(ivy_like.ones((2, 6, 3)), 4), ValueError, "num_groups"),
    (lambda: nn.group_norm(ivy_like.ones((2, 6, 3)), 0), TypeError, "num_groups"),
    (lambda: nn.group_norm(ivy_like.ones((2, 6, 3)), 2.0), TypeError, "num_groups"),
    (lambda: nn.group_norm(ivy_like.ones((2, 6)), 3, ivy_like.ones(5)), ValueError, "weight"),
    (lambda: nn.group_norm(ivy_like.ones((2, 6)), 3, None, ivy_like.ones(5)), ValueError, "bias"),
    (lambda: nn.group_norm(ivy_like.ones(6), 3), ValueError, "x must be at least 2-D"),
    (_conv_t(stride=2, output_padding=2), ValueError, "output_padding"),
    (_conv_t(output_padding=1), ValueError, "output_padding"),
    (_conv_t(weight=rand(3, 2, 3, 3)), ValueError, "weight"),
    (_conv_t(weight=rand(4, 2, 3)), ValueError, "weight"),
    (_conv_t(groups=3), ValueError, "groups"),
    (_conv_t(groups=0), TypeError, "groups"),
    (_conv_t(stride=0), ValueError, "stride"),
    (_conv_t(padding=-1), ValueError, "padding"),
    (_conv_t(dilation=(1, 2, 3)), ValueError, "dilation"),
    (_conv_t(bias=rand(3)), ValueError, "bias"),
    (_conv_t(x=rand(4, 3, 3)), ValueError, "x must be 4-D"),
    (_conv_t(padding=3), ValueError, "output would have size"),
    (
        lambda: nn.gru_cell(*(ivy_like.ones(s) for s in [(2, 3), (2, 4), (12, 3), (9, 4)])),
        ValueError,
        "w_ih",
    ),
    (
        lambda: nn.gru_cell(*(ivy_like.ones(s) for s in [(2, 3), (2, 4), (10, 3), (10, 4)])),
        ValueError,
        "3\\*hidden",
    ),
    (
        lambda: nn.gru_cell(*(ivy_like.ones(s) for s in [(2, 5), (2, 4), (12, 3), (12, 4)])),
        ValueError,
        "do not agree",
    ),
    (
        lambda: nn.gru_cell(*(ivy_like.ones(s) for s in [(2, 3), (3, 4), (12, 3), (12, 4)])),
        ValueError,
        "h must have shape",
    ),
    (lambda: nn.adaptive_max_pool2d(ivy_like.ones((2, 3)), 1), ValueError, "x must be 3-D"),
    (lambda: nn.adaptive_max_pool2d(ivy_like.ones((1, 2, 3)), 0), ValueError, "output_size"),
    (lambda: nn.adaptive_max_pool2d(ivy_like.ones((1, 2, 3)), "a"), TypeError, "output_size"),
    (lambda: nn.interpolate(ivy_like.ones((1, 2, 3))), ValueError, "x must be 4-D"),
    (lambda: nn.interpolate(ivy_like.ones((1, 1, 2, 3))), ValueError, "exactly one of size"),
    (
        lambda: nn.interpolate(ivy_like.ones((1, 1, 2, 3)), 4, 2.0),
        ValueError,
        "exactly one of size",
    ),
    (lambda: nn.interpolate(ivy_like.ones((1, 1, 2, 3)), 4, mode="cubic"), ValueError, "mode"),
    (
        lambda: nn.interpolate(ivy_like.ones((1, 1, 2, 3)), 4, align_corners=True),
        ValueError,
        "align_corners",
    ),
    (lambda: nn.interpolate(ivy_like.ones((1, 1, 2, 3)), (4, 0)), ValueError, "size"),
    (lambda: nn.interpolate(ivy_like.ones((1, 1, 2, 3)), 2.5), ValueError, "size"),
    (
        lambda: nn.interpolate(ivy_like.ones((1, 1, 2, 3)), scale_factor=0.1),
        ValueError,
        "scale_factor",
    ),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_argument_errors(backend, case):
    call, error, match = ERRORS[case]
    with pytest.raises(error, match=match):
        call()


# -- the Array and Container variants ----------------------------------------------------------
def test_array_and_container_methods(backend):
    # the variants give what the functions (checked against torch above) give
    x, w = rand(2, 4, 3, 3), rand(4, 2, 3, 3, seed=1)
    xa, wa = ivy_like.array(x), ivy_like.array(w)
    assert xa.backend == backend
    calls = [
        (xa.group_norm(2), nn.group_norm(xa, 2)),
        (xa.conv_transpose2d(wa, stride=2), nn.conv_transpose2d(xa, wa, stride=2)),
        (xa.adaptive_max_pool2d(2), nn.adaptive_max_pool2d(xa, 2)),
        (xa.interpolate(scale_factor=2), nn.interpolate(xa, scale_factor=2)),
    ]
    h, wi, wh = (ivy_like.array(a) for a in (rand(2, 4, seed=3), rand(12, 4), rand(12, 4, seed=5)))
    calls.append((h.gru_cell(h, wi, wh), nn.gru_cell(h, h, wi, wh)))
    for got, want in calls:
        assert isinstance(got, ivy_like.Array)
        assert_close(got, ivy_like.to_numpy(want))
    assert tuple(calls[1][0].shape) == (2, 2, 7, 7)

    y = rand(1, 2, 5, 4, seed=6)
    c = ivy_like.Container(a=backend.asarray(x), inner=ivy_like.Container(b=backend.asarray(y)))
    out = c.adaptive_max_pool2d(2)
    assert isinstance(out, ivy_like.Container)
    assert_close(out["a"], ivy_like.to_numpy(nn.adaptive_max_pool2d(xa, 2)))
    assert_close(out["inner"]["b"], ivy_like.to_numpy(nn.adaptive_max_pool2d(ivy_like.array(y), 2)))
    out = c.interpolate(size=(4, 5), mode="bilinear")
    want = nn.interpolate(ivy_like.array(y), (4, 5), mode="bilinear")
    assert_close(out["inner"]["b"], ivy_like.to_numpy(want))
    out = nn.group_norm(c, 2)
    assert_close(out["a"], ivy_like.to_numpy(nn.group_norm(xa, 2)))
    assert_close(out["inner"]["b"], ivy_like.to_numpy(nn.group_norm(ivy_like.array(y), 2)))


def test_nearest_interpolate_keeps_integers(backend):
    # torch resizes floats only: its kernel steps aside to the composite for integers
    x = np.arange(6, dtype=np.int32).reshape(1, 1, 2, 3)
    got = nn.interpolate(backend.asarray(x), scale_factor=2)
    assert ivy_like.to_numpy(got).dtype.kind == "i"
    assert_close(got, x.repeat(2, axis=2).repeat(2, axis=3))

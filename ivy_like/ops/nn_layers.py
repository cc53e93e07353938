"""``ivy_like.nn`` ops the converted models need beyond ``nn.py`` (issue 22): adaptive
pooling, the hard activations, the LSTM and GRU cells, group normalization, the transposed
convolution and resizing (``interpolate``).

Published in ``ivy_like.nn`` like the ops of ``nn.py`` (backend functions ``nn_<op>``, in each
backend's ``nn_layers.py``). Every op has a composite written with ivy_like ops, so it runs and
differentiates on every backend; torch runs its own kernels (``F.adaptive_avg_pool2d``,
``torch.lstm``...), which compute the same function. Gradients follow PyTorch's: the hard
activations have gradient 0 at their corners, as ``torch.nn.functional``'s do.

Layouts follow PyTorch: ``adaptive_avg_pool2d`` pools the last two axes (NCHW or CHW);
``lstm`` takes ``(T, N, input)`` (``batch_first``: ``(N, T, input)``) and the weights in the
order of ``torch.nn.LSTM._flat_weights`` (per layer and direction ``w_ih, w_hh[, b_ih, b_hh]``,
gates in the order input, forget, cell, output).
"""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.registry import op

_nn: dict[str, Any] = {"namespaces": ("nn",)}  # Any: spread into @op's keywords


def _shape(x: Any) -> tuple[int, ...]:
    return tuple(int(s) for s in x.shape)


# -- adaptive pooling ----------------------------------------------------------------------------
def adaptive_output_size(who: str, shape: Sequence[int], output_size: Any) -> tuple[int, int]:
    """The ``(out_h, out_w)`` of an adaptive pooling of ``shape`` (its last two axes pooled);
    ``None`` in ``output_size`` keeps that axis's size. Shared by every backend.

    Examples
    --------
    >>> from ivy_like.ops.nn_layers import adaptive_output_size
    >>> adaptive_output_size("adaptive_avg_pool2d", (1, 3, 7, 5), (2, None))
    (2, 5)
    """
    if len(shape) not in (3, 4):
        raise ValueError(f"{who}: x must be 3-D (C, H, W) or 4-D (N, C, H, W), got shape {shape}")
    if isinstance(output_size, int) and not isinstance(output_size, bool):
        sizes: tuple[Any, ...] = (output_size, output_size)
    elif isinstance(output_size, Sequence) and len(output_size) == 2:
        sizes = tuple(output_size)
    else:
        raise TypeError(
            f"{who}: output_size must be an int or a pair of ints (or None), got {output_size!r}"
        )
    out = []
    for given, size in zip(sizes, shape[-2:]):
        if given is None:
            out.append(int(size))
        elif isinstance(given, int) and not isinstance(given, bool) and given > 0:
            out.append(given)
        else:
            raise ValueError(f"{who}: output_size must hold positive ints, got {output_size!r}")
    return out[0], out[1]


def _adaptive_mean(x: Any, axis: int, out: int) -> Any:
    """Mean over PyTorch's adaptive windows ``[floor(i*n/out), ceil((i+1)*n/out))`` of one axis."""
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    shape = _shape(x)
    n = shape[axis]
    if n % out == 0:  # equal windows: one reshape and one mean
        split = (*shape[:axis], out, n // out, *shape[axis + 1 :])
        return il.mean(il.reshape(x, split), axis=axis + 1)
    index: list[Any] = [slice(None)] * len(shape)
    parts = []
    for i in range(out):
        index[axis] = slice((i * n) // out, -((-(i + 1) * n) // out))
        parts.append(il.mean(x[tuple(index)], axis=axis, keepdims=True))
    return il.concat(parts, axis=axis)


@op(arrays=("x",), **_nn)
def adaptive_avg_pool2d(x: Any, output_size: Any):
    """Average over the windows that split the last two axes into ``output_size`` cells
    (PyTorch's windows: cell ``i`` of ``n`` positions covers ``floor(i*n/out)`` to
    ``ceil((i+1)*n/out)``; they overlap when ``out`` does not divide ``n``).

    ``x`` is ``(N, C, H, W)`` or ``(C, H, W)``; ``output_size`` an int or an ``(h, w)`` pair,
    ``None`` keeping that axis.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.reshape(ivy_like.arange(16.), (1, 1, 4, 4))
    >>> ivy_like.nn.adaptive_avg_pool2d(x, 2)
    ivy_like.array([[[[ 2.5,  4.5],
                      [10.5, 12.5]]]])
    >>> ivy_like.nn.adaptive_avg_pool2d(x, 1)
    ivy_like.array([[[[7.5]]]])
    """
    oh, ow = adaptive_output_size("adaptive_avg_pool2d", _shape(x), output_size)
    return _adaptive_mean(_adaptive_mean(x, len(_shape(x)) - 2, oh), len(_shape(x)) - 1, ow)


# -- hard activations ----------------------------------------------------------------------------
def check_bounds(who: str, min_val: Any, max_val: Any) -> tuple[float, float]:
    """``(min_val, max_val)`` as floats, ``min_val <= max_val`` (shared by every backend)."""
    lo, hi = float(min_val), float(max_val)
    if lo > hi:
        raise ValueError(f"{who}: min_val ({lo}) must not exceed max_val ({hi})")
    return lo, hi


def _clamp(x: Any, lo: float, hi: float) -> Any:
    """``x`` clamped to ``[lo, hi]`` with PyTorch's gradient: 1 strictly inside, 0 at and beyond
    the bounds; NaN stays NaN (every comparison with it is false)."""
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    y = il.where(x <= lo, il.full_like(x, lo), x)
    return il.where(x >= hi, il.full_like(x, hi), y)


@op(arrays=("x",), **_nn)
def hardtanh(x: Any, min_val: float = -1.0, max_val: float = 1.0):
    """``x`` clamped to ``[min_val, max_val]``; the gradient is 0 at the bounds (PyTorch's).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.hardtanh(ivy_like.array([-3., 0.5, 2.]))
    ivy_like.array([-1. ,  0.5,  1. ])
    """
    lo, hi = check_bounds("hardtanh", min_val, max_val)
    return _clamp(x, lo, hi)


@op(arrays=("x",), **_nn)
def relu6(x: Any):
    """``min(max(x, 0), 6)`` (MobileNet's activation); the gradient is 0 at 0 and 6.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.relu6(ivy_like.array([-1., 3., 7.]))
    ivy_like.array([0., 3., 6.])
    """
    return _clamp(x, 0.0, 6.0)


@op(arrays=("x",), **_nn)
def hardsigmoid(x: Any):
    """``relu6(x + 3) / 6``, a piecewise-linear sigmoid.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.hardsigmoid(ivy_like.array([-4., 0., 1.5, 4.]))
    ivy_like.array([0.  , 0.5 , 0.75, 1.  ])
    """
    return _clamp(x + 3.0, 0.0, 6.0) / 6.0


@op(arrays=("x",), **_nn)
def hardswish(x: Any):
    """``x * relu6(x + 3) / 6`` (MobileNetV3's activation).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.hardswish(ivy_like.array([-4., 0., 1.5, 4.]))
    ivy_like.array([-0.   ,  0.   ,  1.125,  4.   ])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    # Three pieces rather than x * hardsigmoid(x), so the gradient is PyTorch's at the corners
    # too: 0 at -3, x/3 + 1/2 strictly between, 1 from 3 on.
    # x * 0 on the left, so the sign of zero is that of x, as torch's and jax's kernels give.
    middle = x * (x + 3.0) / 6.0
    return il.where(x <= -3.0, x * 0.0, il.where(x < 3.0, middle, x))


# -- LSTM ----------------------------------------------------------------------------------------
def check_lstm_cell(x: Any, h: Any, c: Any, w_ih: Any, w_hh: Any) -> int:
    """Shape checks of :func:`lstm_cell` (shapes as tuples); returns the hidden size."""
    who = "lstm_cell"
    if len(w_ih) != 2 or len(w_hh) != 2 or w_ih[0] % 4 or w_hh[0] != w_ih[0]:
        raise ValueError(
            f"{who}: w_ih must be (4*hidden, input) and w_hh (4*hidden, hidden), got {w_ih} "
            f"and {w_hh}"
        )
    hidden = w_ih[0] // 4
    if w_hh[1] != hidden or x[-1:] != w_ih[1:]:
        raise ValueError(
            f"{who}: x {x}, w_ih {w_ih} and w_hh {w_hh} do not agree (w_ih is "
            f"(4*hidden, input), w_hh (4*hidden, hidden))"
        )
    if h != x[:-1] + (hidden,) or c != h:
        raise ValueError(
            f"{who}: h and c must have shape {x[:-1] + (hidden,)} (x's batch, hidden), got {h} "
            f"and {c}"
        )
    return hidden


def _gates(il: Any, gates: Any, c: Any) -> tuple[Any, Any]:
    """The LSTM update from the pre-activations ``(..., 4*hidden)``: ``(h', c')``."""
    n = _shape(gates)[-1] // 4
    i, f, g, o = (gates[..., k * n : (k + 1) * n] for k in range(4))
    c_new = il.nn.sigmoid(f) * c + il.nn.sigmoid(i) * il.tanh(g)
    return il.nn.sigmoid(o) * il.tanh(c_new), c_new


@op(arrays=("x", "h", "c", "w_ih", "w_hh", "b_ih", "b_hh"), n_outputs=2, **_nn)
def lstm_cell(x: Any, h: Any, c: Any, w_ih: Any, w_hh: Any, b_ih: Any = None, b_hh: Any = None):
    """One LSTM step, ``torch.nn.LSTMCell``'s: returns ``(h', c')``.

    ``gates = x @ w_ih.T + b_ih + h @ w_hh.T + b_hh`` split into input, forget, cell and output
    gates ``i, f, g, o``; ``c' = sigmoid(f) * c + sigmoid(i) * tanh(g)``,
    ``h' = sigmoid(o) * tanh(c')``. ``x`` is ``(N, input)`` (or ``(input,)``), ``h`` and ``c``
    ``(N, hidden)``, ``w_ih`` ``(4*hidden, input)``, ``w_hh`` ``(4*hidden, hidden)``.

    Examples
    --------
    >>> import ivy_like
    >>> z = ivy_like.zeros((1, 1))
    >>> h, c = ivy_like.nn.lstm_cell(ivy_like.ones((1, 1)), z, z, ivy_like.ones((4, 1)), ivy_like.zeros((4, 1)))
    >>> round(float(h[0, 0]), 4), round(float(c[0, 0]), 4)
    (0.3696, 0.5568)
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    check_lstm_cell(_shape(x), _shape(h), _shape(c), _shape(w_ih), _shape(w_hh))
    gates = il.nn.linear(x, w_ih, b_ih) + il.nn.linear(h, w_hh, b_hh)
    return _gates(il, gates, c)


def lstm_weights_per_layer(
    who: str, n_weights: int, num_layers: int, bias: bool, bidirectional: bool
) -> int:
    """The number of weights per layer and direction (2 or 4), checked against the total."""
    per = 4 if bias else 2
    directions = 2 if bidirectional else 1
    if not isinstance(num_layers, int) or num_layers < 1:
        raise ValueError(f"{who}: num_layers must be a positive int, got {num_layers!r}")
    if n_weights != per * directions * num_layers:
        raise ValueError(
            f"{who}: expected {per * directions * num_layers} weights ({per} per layer and "
            f"direction: w_ih, w_hh{', b_ih, b_hh' if bias else ''}), got {n_weights}"
        )
    return per


def _lstm_direction(
    il: Any, xs: Any, h: Any, c: Any, w: Sequence[Any], reverse: bool
) -> tuple[Any, Any, Any]:
    """One direction of one layer over ``xs`` ``(T, N, input)``: ``(outputs, h, c)``."""
    w_ih, w_hh = w[0], w[1]
    b = (w[2] + w[3]) if len(w) == 4 else None
    # The input projection of every step in one matmul; only h @ w_hh.T stays in the loop.
    projected = il.nn.linear(xs, w_ih, b)
    steps = range(_shape(xs)[0])
    outputs = []
    for t in reversed(steps) if reverse else steps:
        h, c = _gates(il, projected[t] + il.nn.linear(h, w_hh), c)
        outputs.append(h)
    if reverse:
        outputs.reverse()
    return il.stack(outputs, axis=0), h, c


@op(arrays=("x", "h0", "c0"), sequences=("weights",), n_outputs=3, **_nn)
def lstm(
    x: Any,
    weights: Any,
    h0: Any = None,
    c0: Any = None,
    num_layers: int = 1,
    bias: bool = True,
    batch_first: bool = False,
    bidirectional: bool = False,
):
    """A multi-layer LSTM (``torch.nn.LSTM`` at inference): ``(output, h_n, c_n)``.

    ``x`` is ``(T, N, input)``, or ``(N, T, input)`` with ``batch_first``. ``weights`` are
    the flat weights in ``torch.nn.LSTM``'s order: for each layer, for each direction,
    ``w_ih, w_hh`` and, with ``bias``, ``b_ih, b_hh``. ``h0`` and ``c0`` are the initial
    states, ``(layers * directions, N, hidden)`` (None: zeros). ``output`` holds the last layer's ``h`` at every step (both
    directions concatenated); ``h_n``/``c_n`` the final states of every layer and direction.

    Examples
    --------
    >>> import ivy_like
    >>> w = [ivy_like.ones((4, 1)), ivy_like.zeros((4, 1))]
    >>> out, h, c = ivy_like.nn.lstm(ivy_like.ones((2, 1, 1)), w, bias=False)
    >>> out.shape, round(float(h[0, 0, 0]), 4)
    ((2, 1, 1), 0.5453)
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    per = lstm_weights_per_layer("lstm", len(weights), num_layers, bias, bidirectional)
    directions = 2 if bidirectional else 1
    if len(_shape(x)) != 3:
        raise ValueError(f"lstm: x must be 3-D (time, batch, input), got shape {_shape(x)}")
    if batch_first:
        x = il.permute_dims(x, (1, 0, 2))
    hidden = _shape(weights[1])[1]
    states = (num_layers * directions, _shape(x)[1], hidden)
    # creation gives an Array; the composite works on the native arrays it was given
    if h0 is None:
        h0 = il.to_native(il.zeros(states, dtype=x.dtype))
    if c0 is None:
        c0 = il.to_native(il.zeros(states, dtype=x.dtype))
    for name, s in (("h0", h0), ("c0", c0)):
        if _shape(s) != states:
            raise ValueError(f"lstm: {name} must have shape {states}, got {_shape(s)}")
    hs, cs = [], []
    for layer in range(num_layers):
        outs = []
        for d in range(directions):
            k = layer * directions + d
            w = weights[k * per : (k + 1) * per]
            out, h, c = _lstm_direction(il, x, h0[k], c0[k], w, reverse=d == 1)
            outs.append(out)
            hs.append(h)
            cs.append(c)
        x = outs[0] if directions == 1 else il.concat(outs, axis=-1)
    output = il.permute_dims(x, (1, 0, 2)) if batch_first else x
    return output, il.stack(hs, axis=0), il.stack(cs, axis=0)


# -- GRU -----------------------------------------------------------------------------------------
def check_gru_cell(x: Any, h: Any, w_ih: Any, w_hh: Any) -> int:
    """Shape checks of :func:`gru_cell` (shapes as tuples); returns the hidden size."""
    who = "gru_cell"
    if len(w_ih) != 2 or len(w_hh) != 2 or w_ih[0] % 3 or w_hh[0] != w_ih[0]:
        raise ValueError(
            f"{who}: w_ih must be (3*hidden, input) and w_hh (3*hidden, hidden), got {w_ih} "
            f"and {w_hh}"
        )
    hidden = w_ih[0] // 3
    if w_hh[1] != hidden or x[-1:] != w_ih[1:] or len(x) not in (1, 2):
        raise ValueError(
            f"{who}: x {x}, w_ih {w_ih} and w_hh {w_hh} do not agree (x is (N, input) or "
            f"(input,), w_ih (3*hidden, input), w_hh (3*hidden, hidden))"
        )
    if h != x[:-1] + (hidden,):
        raise ValueError(
            f"{who}: h must have shape {x[:-1] + (hidden,)} (x's batch, hidden), got {h}"
        )
    return hidden


@op(arrays=("x", "h", "w_ih", "w_hh", "b_ih", "b_hh"), **_nn)
def gru_cell(x: Any, h: Any, w_ih: Any, w_hh: Any, b_ih: Any = None, b_hh: Any = None):
    """One GRU step, ``torch.nn.GRUCell``'s: returns ``h'``.

    ``x @ w_ih.T + b_ih`` and ``h @ w_hh.T + b_hh`` are split into the reset, update and new
    gates ``r, z, n`` (that order): ``r = sigmoid(x_r + h_r)``, ``z = sigmoid(x_z + h_z)``,
    ``n = tanh(x_n + r * h_n)``, ``h' = (1 - z) * n + z * h``. ``x`` is ``(N, input)`` (or
    ``(input,)``), ``h`` ``(N, hidden)``, ``w_ih`` ``(3*hidden, input)``, ``w_hh``
    ``(3*hidden, hidden)``.

    Examples
    --------
    >>> import ivy_like
    >>> z = ivy_like.zeros((1, 1))
    >>> h = ivy_like.nn.gru_cell(ivy_like.ones((1, 1)), z, ivy_like.zeros((3, 1)), ivy_like.zeros((3, 1)))
    >>> h
    ivy_like.array([[0.]])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    n = check_gru_cell(_shape(x), _shape(h), _shape(w_ih), _shape(w_hh))
    gi = il.nn.linear(x, w_ih, b_ih)
    gh = il.nn.linear(h, w_hh, b_hh)
    r = il.nn.sigmoid(gi[..., :n] + gh[..., :n])
    z = il.nn.sigmoid(gi[..., n : 2 * n] + gh[..., n : 2 * n])
    new = il.tanh(gi[..., 2 * n :] + r * gh[..., 2 * n :])
    return new + z * (h - new)


# -- group norm ----------------------------------------------------------------------------------
def check_group_norm(x: Any, num_groups: Any, weight: Any, bias: Any) -> None:
    """Checks of :func:`group_norm` (shapes as tuples, ``None`` for a missing weight/bias)."""
    who = "group_norm"
    if len(x) < 2:
        raise ValueError(f"{who}: x must be at least 2-D (N, C, ...), got shape {x}")
    if not isinstance(num_groups, int) or isinstance(num_groups, bool) or num_groups < 1:
        raise TypeError(f"{who}: num_groups must be a positive int, got {num_groups!r}")
    if x[1] % num_groups:
        raise ValueError(
            f"{who}: num_groups ({num_groups}) must divide the {x[1]} channels (axis 1)"
        )
    for name, s in (("weight", weight), ("bias", bias)):
        if s is not None and s != (x[1],):
            raise ValueError(f"{who}: {name} must have shape ({x[1]},), got {s}")


@op(arrays=("x", "weight", "bias"), **_nn)
def group_norm(x: Any, num_groups: int, weight: Any = None, bias: Any = None, eps: float = 1e-5):
    """Group normalization (``torch.nn.functional.group_norm``): the channels (axis 1) of
    each sample are split into ``num_groups`` groups, each normalized by its own mean and
    biased variance, then scaled by ``weight`` and shifted by ``bias`` (per channel).

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.reshape(ivy_like.array([1., 3., 0., 4.]), (1, 2, 2))
    >>> ivy_like.nn.group_norm(x, 2, eps=0.0)
    ivy_like.array([[[-1.,  1.],
                     [-1.,  1.]]])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    shape = _shape(x)
    check_group_norm(
        shape,
        num_groups,
        None if weight is None else _shape(weight),
        None if bias is None else _shape(bias),
    )
    grouped = il.reshape(x, (shape[0], num_groups, -1))
    centered = grouped - il.mean(grouped, axis=-1, keepdims=True)
    var = il.mean(centered * centered, axis=-1, keepdims=True)
    y = il.reshape(centered / il.sqrt(var + eps), shape)
    channel = (1, -1) + (1,) * (len(shape) - 2)
    if weight is not None:
        y = y * il.reshape(weight, channel)
    return y if bias is None else y + il.reshape(bias, channel)


# -- adaptive max pooling ------------------------------------------------------------------------
def _adaptive_max(x: Any, axis: int, out: int) -> Any:
    """Max over PyTorch's adaptive windows ``[floor(i*n/out), ceil((i+1)*n/out))``."""
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    shape = _shape(x)
    n = shape[axis]
    if n % out == 0:  # equal windows: one reshape and one max
        split = (*shape[:axis], out, n // out, *shape[axis + 1 :])
        return il.max(il.reshape(x, split), axis=axis + 1)
    index: list[Any] = [slice(None)] * len(shape)
    parts = []
    for i in range(out):
        index[axis] = slice((i * n) // out, -((-(i + 1) * n) // out))
        parts.append(il.max(x[tuple(index)], axis=axis, keepdims=True))
    return il.concat(parts, axis=axis)


@op(arrays=("x",), **_nn)
def adaptive_max_pool2d(x: Any, output_size: Any):
    """Maximum over the windows of :func:`adaptive_avg_pool2d` (PyTorch's windows), values
    only (no indices).

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.reshape(ivy_like.arange(16.), (1, 1, 4, 4))
    >>> ivy_like.nn.adaptive_max_pool2d(x, 2)
    ivy_like.array([[[[ 5.,  7.],
                      [13., 15.]]]])
    """
    oh, ow = adaptive_output_size("adaptive_max_pool2d", _shape(x), output_size)
    n = len(_shape(x))
    return _adaptive_max(_adaptive_max(x, n - 2, oh), n - 1, ow)


# -- transposed convolution ----------------------------------------------------------------------
def _pair_of(who: str, name: str, v: Any, least: int) -> tuple[int, int]:
    """``v`` (an int or a pair of ints, each at least ``least``) as a pair."""
    pair = tuple(v) if isinstance(v, (list, tuple)) else (v, v)
    if len(pair) != 2 or not all(
        isinstance(i, int) and not isinstance(i, bool) and i >= least for i in pair
    ):
        raise ValueError(f"{who}: {name} must be an int or a pair of ints >= {least}, got {v!r}")
    return pair[0], pair[1]


def check_conv_transpose2d(
    x: Any,
    weight: Any,
    bias: Any,
    stride: Any,
    padding: Any,
    output_padding: Any,
    groups: Any,
    dilation: Any,
) -> tuple[tuple[int, int], ...]:
    """Checks of :func:`conv_transpose2d` (shapes as tuples); returns ``stride, padding,
    output_padding, dilation`` as pairs."""
    who = "conv_transpose2d"
    if len(x) != 4:
        raise ValueError(f"{who}: x must be 4-D (N, C, H, W), got shape {x}")
    if not isinstance(groups, int) or isinstance(groups, bool) or groups < 1:
        raise TypeError(f"{who}: groups must be a positive int, got {groups!r}")
    if len(weight) != 4 or weight[0] != x[1] or x[1] % groups:
        raise ValueError(
            f"{who}: weight must be (in, out/groups, kH, kW) with in = x's {x[1]} channels, "
            f"divisible by groups ({groups}); got weight {weight}"
        )
    if bias is not None and bias != (weight[1] * groups,):
        raise ValueError(f"{who}: bias must have shape ({weight[1] * groups},), got {bias}")
    s = _pair_of(who, "stride", stride, 1)
    p = _pair_of(who, "padding", padding, 0)
    op_ = _pair_of(who, "output_padding", output_padding, 0)
    d = _pair_of(who, "dilation", dilation, 1)
    for a in (0, 1):
        if op_[a] >= max(s[a], d[a]):
            raise ValueError(
                f"{who}: output_padding {output_padding!r} must be smaller than stride "
                f"{stride!r} or dilation {dilation!r}"
            )
        size = (x[2 + a] - 1) * s[a] - 2 * p[a] + d[a] * (weight[2 + a] - 1) + op_[a] + 1
        if size < 1:
            raise ValueError(f"{who}: the output would have size {size} on axis {2 + a}")
    return s, p, op_, d


@op(arrays=("x", "weight", "bias"), **_nn)
def conv_transpose2d(
    x: Any,
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
):
    """The transposed 2-d convolution (``torch.nn.functional.conv_transpose2d``): the gradient
    of ``conv2d`` with respect to its input. ``x`` is NCHW, ``weight``
    ``(in, out/groups, kH, kW)`` (PyTorch's layout); ``stride``, ``padding``,
    ``output_padding`` (extra rows/columns at the end, smaller than stride or dilation) and
    ``dilation`` are ints or pairs. Output size: ``(H - 1) * stride - 2 * padding +
    dilation * (kH - 1) + output_padding + 1``.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.reshape(ivy_like.array([1., 2.]), (1, 1, 1, 2))
    >>> ivy_like.nn.conv_transpose2d(x, ivy_like.ones((1, 1, 1, 2)), stride=2)
    ivy_like.array([[[[1., 1., 2., 2.]]]])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    shape, kernel = _shape(x), _shape(weight)
    s, p, op_, d = check_conv_transpose2d(
        shape,
        kernel,
        None if bias is None else _shape(bias),
        stride,
        padding,
        output_padding,
        groups,
        dilation,
    )
    # The convolution it is the gradient of: x with stride - 1 zeros between its elements,
    # padded by dilation * (k - 1) - padding (plus output_padding at the end; a negative
    # width crops), convolved at stride 1 by the flipped kernel, in/out swapped per group.
    for a in (0, 1):
        axis, n = 2 + a, shape[2 + a]
        if s[a] > 1:  # (.., n, ..) -> (.., n, s, ..) -> (.., n * s, ..), cut after the last
            widths = [(0, 0)] * 5
            widths[axis + 1] = (0, s[a] - 1)
            spread = il.pad(il.expand_dims(x, axis=axis + 1), tuple(widths))
            now = _shape(x)
            x = il.reshape(spread, (*now[:axis], n * s[a], *now[axis + 1 :]))
            index: list[Any] = [slice(None)] * 4
            index[axis] = slice(0, (n - 1) * s[a] + 1)
            x = x[tuple(index)]
        lo = d[a] * (kernel[2 + a] - 1) - p[a]
        hi = lo + op_[a]
        if lo < 0 or hi < 0:
            index = [slice(None)] * 4
            index[axis] = slice(max(-lo, 0), _shape(x)[axis] - max(-hi, 0))
            x = x[tuple(index)]
        if lo > 0 or hi > 0:
            widths = [(0, 0)] * 4
            widths[axis] = (max(lo, 0), max(hi, 0))
            x = il.pad(x, tuple(widths))
    c_in, c_out_g = kernel[0], kernel[1]
    w = il.reshape(weight, (groups, c_in // groups, c_out_g, *kernel[2:]))
    w = il.permute_dims(w, (0, 2, 1, 3, 4))
    w = il.flip(il.reshape(w, (groups * c_out_g, c_in // groups, *kernel[2:])), axis=(2, 3))
    return il.nn.conv2d(x, w, bias, stride=1, padding=0, dilation=d, groups=groups)


# -- resizing ------------------------------------------------------------------------------------
_INTERPOLATE_MODES = ("nearest", "nearest-exact", "bilinear")


def interpolate_plan(
    shape: Sequence[int], size: Any, scale_factor: Any, mode: Any, align_corners: Any
) -> tuple[list[tuple[int, int, float | None]], bool]:
    """Checks of :func:`interpolate`; returns ``(input size, output size, scale or None)`` of
    H and W (a given scale factor sets the output size, floored, and maps back, as PyTorch's
    kernels do) and ``align_corners`` as a bool. Shared by every backend."""
    who = "interpolate"
    if len(shape) != 4:
        raise ValueError(f"{who}: x must be 4-D (N, C, H, W), got shape {tuple(shape)}")
    if mode not in _INTERPOLATE_MODES:
        raise ValueError(f"{who}: mode must be one of {_INTERPOLATE_MODES}, got {mode!r}")
    if align_corners is not None and mode != "bilinear":
        raise ValueError(f"{who}: align_corners is for mode='bilinear' only, got mode {mode!r}")
    if (size is None) == (scale_factor is None):
        raise ValueError(f"{who}: give exactly one of size and scale_factor")
    given = size if size is not None else scale_factor
    pair = tuple(given) if isinstance(given, (list, tuple)) else (given, given)
    plan: list[tuple[int, int, float | None]] = []
    for n_in, v in zip(shape[2:], pair if len(pair) == 2 else ()):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0:
            break
        if size is not None:
            if not isinstance(v, int):
                break
            plan.append((int(n_in), v, None))
        else:
            plan.append((int(n_in), int(math.floor(n_in * float(v))), float(v)))
    if len(plan) != 2:
        name = "size" if size is not None else "scale_factor"
        kind = "int" if size is not None else "number"
        raise ValueError(
            f"{who}: {name} must be a positive {kind} or a pair of them, got {given!r}"
        )
    if any(n_out < 1 for _, n_out, _ in plan):
        raise ValueError(f"{who}: scale_factor {scale_factor!r} gives an empty output for {shape}")
    return plan, bool(align_corners)


def _float32_scale(n_in: int, n_out: int, scale: float | None) -> np.floating:
    """PyTorch's input positions per output position, in float32: ``1/scale`` when a scale
    factor was given (ATen takes only a positive one), ``n_in/n_out`` otherwise."""
    if scale is not None and scale > 0:
        return np.float32(1.0 / scale)
    return np.float32(n_in) / np.float32(n_out)


@functools.lru_cache(maxsize=256)
def linear_resize_matrix(n_in: int, n_out: int, align_corners: bool, scale: Any) -> np.ndarray:
    """The ``(n_out, n_in)`` float32 matrix of 1-D linear interpolation with PyTorch's source
    positions and weights: resizing is one product per axis, differentiable everywhere."""
    dst = np.arange(n_out, dtype=np.float32)
    if align_corners:
        src = dst * np.float32((n_in - 1) / (n_out - 1) if n_out > 1 else 0)
    else:
        src = np.maximum((dst + np.float32(0.5)) * _float32_scale(n_in, n_out, scale) - 0.5, 0)
    i0 = np.minimum(src.astype(np.int64), n_in - 1)
    i1 = np.minimum(i0 + 1, n_in - 1)
    hi = np.clip(src - i0, 0, 1).astype(np.float32)
    w = np.zeros((n_out, n_in), dtype=np.float32)
    rows = np.arange(n_out)
    np.add.at(w, (rows, i0), 1 - hi)
    np.add.at(w, (rows, i1), hi)
    return w


@functools.lru_cache(maxsize=256)
def nearest_resize_indices(n_in: int, n_out: int, scale: Any, exact: bool) -> np.ndarray:
    """The source index of each output position (PyTorch's ``nearest``/``nearest-exact``)."""
    dst = np.arange(n_out, dtype=np.float32)
    s = _float32_scale(n_in, n_out, scale)
    src = np.floor((dst + np.float32(0.5)) * s) if exact else np.floor(dst * s)
    return np.minimum(src.astype(np.int64), n_in - 1).astype(np.int32)


@op(arrays=("x",), **_nn)
def interpolate(
    x: Any,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: Any = None,
):
    """Resize the last two axes of an NCHW ``x`` (``torch.nn.functional.interpolate``'s
    numbers) to ``size`` (an int or an ``(h, w)`` pair) or by ``scale_factor`` (a number or
    a pair; the output size is floored and the scale maps positions back). ``mode`` is
    ``"nearest"``, ``"nearest-exact"`` or ``"bilinear"`` (``align_corners`` True or False).

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.reshape(ivy_like.array([0., 2.]), (1, 1, 1, 2))
    >>> ivy_like.nn.interpolate(x, scale_factor=2)
    ivy_like.array([[[[0., 0., 2., 2.],
                      [0., 0., 2., 2.]]]])
    >>> ivy_like.nn.interpolate(x, size=(1, 3), mode="bilinear", align_corners=True)
    ivy_like.array([[[[0., 1., 2.]]]])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    plan, corners = interpolate_plan(_shape(x), size, scale_factor, mode, align_corners)
    (h_in, h_out, sh), (w_in, w_out, sw) = plan
    # creation gives an Array; the composite works on the native arrays it was given
    if mode == "bilinear":
        wh = il.to_native(il.asarray(linear_resize_matrix(h_in, h_out, corners, sh), dtype=x.dtype))
        ww = linear_resize_matrix(w_in, w_out, corners, sw).T
        return il.matmul(il.matmul(wh, x), il.to_native(il.asarray(ww, dtype=x.dtype)))
    exact = mode == "nearest-exact"
    rows = il.to_native(il.asarray(nearest_resize_indices(h_in, h_out, sh, exact)))
    cols = il.to_native(il.asarray(nearest_resize_indices(w_in, w_out, sw, exact)))
    return il.take(il.take(x, rows, axis=2), cols, axis=3)

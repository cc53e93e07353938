"""``ivy_like.nn`` ops the converted models need beyond ``nn.py`` (issue 22): adaptive
pooling, the hard activations and the LSTM.

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

import sys
from collections.abc import Sequence
from typing import Any

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

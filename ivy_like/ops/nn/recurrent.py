"""The recurrent layers of the nn family: ``lstm_cell``, ``lstm`` (multi-layer, optionally
bidirectional) and ``gru_cell``, with ``torch.nn.LSTM``'s and ``GRUCell``'s layouts.

``lstm`` takes ``(T, N, input)`` (``batch_first``: ``(N, T, input)``) and the weights in the
order of ``torch.nn.LSTM._flat_weights`` (per layer and direction ``w_ih, w_hh[, b_ih, b_hh]``,
gates in the order input, forget, cell, output).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from ...core.registry import op
from ._helpers import NN, dims, int_shape


def _check_lstm_cell(
    x: Any, h: Any, c: Any, w_ih: Any, w_hh: Any, b_ih: Any = None, b_hh: Any = None
) -> None:
    who = "lstm_cell"
    x, h, c, w_ih, w_hh = dims(x), dims(h), dims(c), dims(w_ih), dims(w_hh)
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


def _gates(il: Any, gates: Any, c: Any) -> tuple[Any, Any]:
    """The LSTM update from the pre-activations ``(..., 4*hidden)``: ``(h', c')``."""
    n = int_shape(gates)[-1] // 4
    i, f, g, o = (gates[..., k * n : (k + 1) * n] for k in range(4))
    c_new = il.nn.sigmoid(f) * c + il.nn.sigmoid(i) * il.tanh(g)
    return il.nn.sigmoid(o) * il.tanh(c_new), c_new


@op(
    arrays=("x", "h", "c", "w_ih", "w_hh", "b_ih", "b_hh"),
    n_outputs=2,
    check=_check_lstm_cell,
    **NN,
)
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
    gates = il.nn.linear(x, w_ih, b_ih) + il.nn.linear(h, w_hh, b_hh)
    return _gates(il, gates, c)


def _check_lstm(
    x: Any,
    weights: Any,
    h0: Any,
    c0: Any,
    num_layers: Any,
    bias: Any,
    batch_first: Any,
    bidirectional: Any,
) -> None:
    """The number of weights (2 or 4 per layer and direction), ``x`` 3-D, ``h0`` and ``c0``
    of the states' shape."""
    who, n_weights = "lstm", len(weights)
    per = 4 if bias else 2
    directions = 2 if bidirectional else 1
    if not isinstance(num_layers, int) or num_layers < 1:
        raise ValueError(f"{who}: num_layers must be a positive int, got {num_layers!r}")
    if n_weights != per * directions * num_layers:
        raise ValueError(
            f"{who}: expected {per * directions * num_layers} weights ({per} per layer and "
            f"direction: w_ih, w_hh{', b_ih, b_hh' if bias else ''}), got {n_weights}"
        )
    shape = dims(x)
    if len(shape) != 3:
        raise ValueError(f"{who}: x must be 3-D (time, batch, input), got shape {shape}")
    states = (num_layers * directions, shape[0 if batch_first else 1], dims(weights[1])[1])
    for name, s in (("h0", h0), ("c0", c0)):
        if s is not None and dims(s) != states:
            raise ValueError(f"{who}: {name} must have shape {states}, got {dims(s)}")


def _lstm_direction(
    il: Any, xs: Any, h: Any, c: Any, w: Sequence[Any], reverse: bool
) -> tuple[Any, Any, Any]:
    """One direction of one layer over ``xs`` ``(T, N, input)``: ``(outputs, h, c)``."""
    w_ih, w_hh = w[0], w[1]
    b = (w[2] + w[3]) if len(w) == 4 else None
    # The input projection of every step in one matmul; only h @ w_hh.T stays in the loop.
    projected = il.nn.linear(xs, w_ih, b)
    steps = range(int_shape(xs)[0])
    outputs = []
    for t in reversed(steps) if reverse else steps:
        h, c = _gates(il, projected[t] + il.nn.linear(h, w_hh), c)
        outputs.append(h)
    if reverse:
        outputs.reverse()
    return il.stack(outputs, axis=0), h, c


@op(arrays=("x", "h0", "c0"), sequences=("weights",), n_outputs=3, check=_check_lstm, **NN)
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
    per = 4 if bias else 2
    directions = 2 if bidirectional else 1
    if batch_first:
        x = il.permute_dims(x, (1, 0, 2))
    hidden = int_shape(weights[1])[1]
    states = (num_layers * directions, int_shape(x)[1], hidden)
    # creation gives an Array; the composite works on the native arrays it was given
    if h0 is None:
        h0 = il.to_native(il.zeros(states, dtype=x.dtype))
    if c0 is None:
        c0 = il.to_native(il.zeros(states, dtype=x.dtype))
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


def _check_gru_cell(
    x: Any, h: Any, w_ih: Any, w_hh: Any, b_ih: Any = None, b_hh: Any = None
) -> None:
    who = "gru_cell"
    x, h, w_ih, w_hh = dims(x), dims(h), dims(w_ih), dims(w_hh)
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


@op(arrays=("x", "h", "w_ih", "w_hh", "b_ih", "b_hh"), check=_check_gru_cell, **NN)
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
    n = int_shape(w_ih)[0] // 3
    gi = il.nn.linear(x, w_ih, b_ih)
    gh = il.nn.linear(h, w_hh, b_hh)
    r = il.nn.sigmoid(gi[..., :n] + gh[..., :n])
    z = il.nn.sigmoid(gi[..., n : 2 * n] + gh[..., n : 2 * n])
    new = il.tanh(gi[..., 2 * n :] + r * gh[..., 2 * n :])
    return new + z * (h - new)

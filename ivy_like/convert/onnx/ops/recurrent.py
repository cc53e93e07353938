"""ONNX's one-layer recurrent operators: ``RNN``, ``GRU`` and ``LSTM``.

Each runs forward, reverse or in both directions over a sequence whose length is a static
shape, so the time loop is a Python loop unrolled into the traced program (it differentiates
and compiles on every backend). The input projection of every step is one matmul before the
loop; only the recurrent matmul stays inside. ``sequence_lens`` is handled by masking: a
batch entry's state stops changing after its length and its outputs there are zeros, which
also makes the reverse direction start at each entry's own last step.

The attribute rule (:func:`_rule`) reads the activations with their alpha/beta (consumed in
order by the activations that take them, as onnxruntime does), ``clip``, ``layout``,
``direction`` and how many outputs the node asks for.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import ivy_like as il

from .._table import Node, Refused, onnx_op

# name (lower case) -> (default alpha, default beta); None: the function takes no such value.
_ACTIVATIONS: dict[str, tuple[float | None, float | None]] = {
    "sigmoid": (None, None),
    "tanh": (None, None),
    "relu": (None, None),
    "hardsigmoid": (0.2, 0.5),
    "affine": (1.0, 0.0),
    "leakyrelu": (0.01, None),
    "thresholdedrelu": (1.0, None),
    "scaledtanh": (1.0, 1.0),
    "elu": (1.0, None),
    "softsign": (None, None),
    "softplus": (None, None),
}

# The activations each operator takes per direction, with ONNX's defaults.
_DEFAULTS = {"RNN": ("Tanh",), "GRU": ("Sigmoid", "Tanh"), "LSTM": ("Sigmoid", "Tanh", "Tanh")}

Act = tuple[str, float, float]


def _activate(x: Any, act: Act) -> Any:
    """Apply one of the RNN activation functions, keeping ``x``'s dtype."""
    name, alpha, beta = act
    if name == "sigmoid":
        return il.nn.sigmoid(x)
    if name == "tanh":
        return il.tanh(x)
    if name == "relu":
        return il.nn.relu(x)
    if name == "hardsigmoid":
        return il.clip(x * alpha + beta, 0.0, 1.0)
    if name == "affine":
        return x * alpha + beta
    if name == "leakyrelu":
        return il.where(x >= 0, x, x * alpha)
    if name == "thresholdedrelu":
        return il.where(x > alpha, x, il.zeros_like(x))
    if name == "scaledtanh":
        return il.tanh(x * beta) * alpha
    if name == "elu":
        return il.where(x >= 0, x, il.expm1(x) * alpha)
    if name == "softsign":
        return x / (il.abs(x) + 1.0)
    # softplus, written as logaddexp(x, 0) so a large x does not overflow
    return il.logaddexp(x, il.zeros_like(x))


def _rule(node: Node) -> dict[str, Any]:
    """The keyword arguments shared by RNN, GRU and LSTM (plus their own flags)."""
    op = node.op_type
    direction = node.attr("direction", "forward")
    if direction not in ("forward", "reverse", "bidirectional"):
        raise Refused(f"{op}: unknown direction {direction!r}")
    dirs = 2 if direction == "bidirectional" else 1
    per = len(_DEFAULTS[op])
    names = list(node.attr("activations", None) or _DEFAULTS[op] * dirs)
    if len(names) == per and dirs == 2:
        names = names * 2  # one set given for both directions
    if len(names) != per * dirs:
        raise Refused(
            f"{op}: expected {per * dirs} activations for direction {direction!r}, got {names}"
        )
    alphas = list(node.attr("activation_alpha", None) or [])
    betas = list(node.attr("activation_beta", None) or [])
    acts: list[Act] = []
    for name in names:
        key = str(name).lower()
        if key not in _ACTIVATIONS:
            raise Refused(f"{op}: activation {name!r} is not supported")
        alpha, beta = _ACTIVATIONS[key]
        # Each activation that takes an alpha (beta) consumes the next listed one.
        if alpha is not None and alphas:
            alpha = float(alphas.pop(0))
        if beta is not None and betas:
            beta = float(betas.pop(0))
        acts.append((key, alpha or 0.0, beta or 0.0))
    clip = node.attr("clip", None)
    layout = int(node.attr("layout", 0))
    if layout not in (0, 1):
        raise Refused(f"{op}: layout must be 0 or 1, got {layout}")
    kw: dict[str, Any] = {
        "direction": direction,
        "acts": tuple(acts),
        "clip": None if clip is None else float(clip),
        "layout": layout,
        "n_outputs": max(len(node.outs), 1),
    }
    if op == "GRU":
        kw["linear_before_reset"] = int(node.attr("linear_before_reset", 0))
    if op == "LSTM":
        kw["input_forget"] = int(node.attr("input_forget", 0))
    return kw


def _arr(x: Any) -> Any:
    """A known NumPy input (a constant weight) as an array of the active backend."""
    return il.asarray(x) if isinstance(x, np.ndarray) else x


def _prepare(X: Any, states: list[Any], layout: int) -> tuple[Any, list[Any]]:
    """X as (T, N, input) and the initial states as (directions, N, hidden)."""
    X = _arr(X)
    states = [_arr(s) for s in states]
    if layout == 1:
        X = il.permute_dims(X, (1, 0, 2))
        states = [None if s is None else il.permute_dims(s, (1, 0, 2)) for s in states]
    return X, states


def _step_mask(sequence_lens: Any, steps: int, batch: int) -> Any:
    """(T, N, 1) bools: whether step t is inside batch entry n's sequence (None: all are)."""
    if sequence_lens is None:
        return None
    if isinstance(sequence_lens, np.ndarray) and bool(np.all(sequence_lens == steps)):
        return None
    lens = il.astype(il.reshape(_arr(sequence_lens), (1, batch, 1)), il.int32)
    return il.less(il.reshape(il.arange(steps, dtype=il.int32), (steps, 1, 1)), lens)


def _clip(x: Any, clip: float | None) -> Any:
    return x if clip is None else il.clip(x, -clip, clip)


def _run(
    steps: int, reverse: bool, mask: Any, states: tuple[Any, ...], cell: Any
) -> tuple[list[Any], tuple[Any, ...]]:
    """Loop ``cell(t, states) -> states`` over time; the outputs are each step's first state.

    Past an entry's length (``mask``) its states keep their values and its outputs are 0.
    """
    outputs: list[Any] = [None] * steps
    for t in reversed(range(steps)) if reverse else range(steps):
        new = cell(t, states)
        if mask is None:
            states = new
            outputs[t] = new[0]
        else:
            states = tuple(il.where(mask[t], n, s) for n, s in zip(new, states))
            outputs[t] = il.where(mask[t], new[0], il.zeros_like(new[0]))
    return outputs, states


def _finish(per_dir: list[tuple[list[Any], tuple[Any, ...]]], layout: int, n_outputs: int) -> Any:
    """Stack the directions into ``Y`` (T, dirs, N, H) and the final states (dirs, N, H)."""
    Y = il.stack([il.stack(outs, axis=0) for outs, _ in per_dir], axis=1)
    finals = [il.stack([st[k] for _, st in per_dir], axis=0) for k in range(len(per_dir[0][1]))]
    if layout == 1:
        Y = il.permute_dims(Y, (2, 0, 1, 3))
        finals = [il.permute_dims(f, (1, 0, 2)) for f in finals]
    results = (Y, *finals)
    return results[0] if n_outputs == 1 else results[:n_outputs]


def _directions(direction: str) -> list[bool]:
    """Per direction, whether it runs in reverse."""
    return {"forward": [False], "reverse": [True], "bidirectional": [False, True]}[direction]


def _zeros_state(X: Any, dirs: int, hidden: int) -> Any:
    return il.zeros((dirs, int(X.shape[1]), hidden), dtype=X.dtype)


@onnx_op("RNN", since=7, attrs=_rule)
def rnn(
    X: Any,
    W: Any,
    R: Any,
    B: Any = None,
    sequence_lens: Any = None,
    initial_h: Any = None,
    *,
    direction: str,
    acts: tuple[Act, ...],
    clip: float | None,
    layout: int,
    n_outputs: int,
) -> Any:
    """ONNX RNN: ``H_t = f(X_t W^T + H_{t-1} R^T + Wb + Rb)``; returns ``(Y, Y_h)``."""
    X, (h0,) = _prepare(X, [initial_h], layout)
    W, R, B = _arr(W), _arr(R), _arr(B)
    steps, hidden = int(X.shape[0]), int(R.shape[-1])
    reverses = _directions(direction)
    h0 = _zeros_state(X, len(reverses), hidden) if h0 is None else h0
    mask = _step_mask(sequence_lens, steps, int(X.shape[1]))
    per_dir = []
    for d, reverse in enumerate(reverses):
        xw = il.matmul(X, il.matrix_transpose(W[d]))
        if B is not None:
            xw = xw + (B[d, :hidden] + B[d, hidden:])
        r_t, act = il.matrix_transpose(R[d]), acts[d]

        def cell(t: int, s: tuple[Any, ...], xw: Any = xw, r_t: Any = r_t, act: Act = act):
            return (_activate(_clip(xw[t] + il.matmul(s[0], r_t), clip), act),)

        per_dir.append(_run(steps, reverse, mask, (h0[d],), cell))
    return _finish(per_dir, layout, n_outputs)


@onnx_op("GRU", since=7, attrs=_rule)
def gru(
    X: Any,
    W: Any,
    R: Any,
    B: Any = None,
    sequence_lens: Any = None,
    initial_h: Any = None,
    *,
    direction: str,
    acts: tuple[Act, ...],
    clip: float | None,
    layout: int,
    n_outputs: int,
    linear_before_reset: int = 0,
) -> Any:
    """ONNX GRU (gates z, r, h); ``linear_before_reset`` applies ``R_h`` (and its bias)
    before multiplying by the reset gate. Returns ``(Y, Y_h)``."""
    X, (h0,) = _prepare(X, [initial_h], layout)
    W, R, B = _arr(W), _arr(R), _arr(B)
    steps, hidden = int(X.shape[0]), int(R.shape[-1])
    reverses = _directions(direction)
    h0 = _zeros_state(X, len(reverses), hidden) if h0 is None else h0
    mask = _step_mask(sequence_lens, steps, int(X.shape[1]))
    per_dir = []
    for d, reverse in enumerate(reverses):
        f, g = acts[2 * d], acts[2 * d + 1]
        xw = il.matmul(X, il.matrix_transpose(W[d]))
        r_zr = il.matrix_transpose(R[d, : 2 * hidden])
        r_h = il.matrix_transpose(R[d, 2 * hidden :])
        if B is None:
            rb_zr = rb_h = None
        else:
            xw = xw + B[d, : 3 * hidden]
            rb_zr, rb_h = B[d, 3 * hidden : 5 * hidden], B[d, 5 * hidden :]

        def cell(
            t: int,
            s: tuple[Any, ...],
            xw: Any = xw,
            r_zr: Any = r_zr,
            r_h: Any = r_h,
            rb_zr: Any = rb_zr,
            rb_h: Any = rb_h,
            f: Act = f,
            g: Act = g,
        ):
            h = s[0]
            hr = il.matmul(h, r_zr)
            hr = hr if rb_zr is None else hr + rb_zr
            z = _activate(_clip(xw[t][..., :hidden] + hr[..., :hidden], clip), f)
            r = _activate(_clip(xw[t][..., hidden : 2 * hidden] + hr[..., hidden:], clip), f)
            if linear_before_reset:
                rec = il.matmul(h, r_h)
                rec = r * (rec if rb_h is None else rec + rb_h)
            else:
                rec = il.matmul(r * h, r_h)
                rec = rec if rb_h is None else rec + rb_h
            hh = _activate(_clip(xw[t][..., 2 * hidden :] + rec, clip), g)
            return ((1.0 - z) * hh + z * h,)

        per_dir.append(_run(steps, reverse, mask, (h0[d],), cell))
    return _finish(per_dir, layout, n_outputs)


@onnx_op("LSTM", since=7, attrs=_rule)
def lstm(
    X: Any,
    W: Any,
    R: Any,
    B: Any = None,
    sequence_lens: Any = None,
    initial_h: Any = None,
    initial_c: Any = None,
    P: Any = None,
    *,
    direction: str,
    acts: tuple[Act, ...],
    clip: float | None,
    layout: int,
    n_outputs: int,
    input_forget: int = 0,
) -> Any:
    """ONNX LSTM (gates i, o, f, c; peepholes P for i, o, f); ``input_forget`` couples the
    forget gate to ``1 - i``. Returns ``(Y, Y_h, Y_c)``."""
    X, (h0, c0) = _prepare(X, [initial_h, initial_c], layout)
    W, R, B, P = _arr(W), _arr(R), _arr(B), _arr(P)
    steps, hidden = int(X.shape[0]), int(R.shape[-1])
    reverses = _directions(direction)
    h0 = _zeros_state(X, len(reverses), hidden) if h0 is None else h0
    c0 = _zeros_state(X, len(reverses), hidden) if c0 is None else c0
    mask = _step_mask(sequence_lens, steps, int(X.shape[1]))
    n = hidden
    per_dir = []
    for d, reverse in enumerate(reverses):
        f, g, h_act = acts[3 * d], acts[3 * d + 1], acts[3 * d + 2]
        xw = il.matmul(X, il.matrix_transpose(W[d]))
        if B is not None:
            xw = xw + (B[d, : 4 * n] + B[d, 4 * n :])
        r_t = il.matrix_transpose(R[d])
        p = None if P is None else (P[d, :n], P[d, n : 2 * n], P[d, 2 * n :])

        def cell(
            t: int,
            s: tuple[Any, ...],
            xw: Any = xw,
            r_t: Any = r_t,
            p: Any = p,
            f: Act = f,
            g: Act = g,
            h_act: Act = h_act,
        ):
            h, c = s
            gates = xw[t] + il.matmul(h, r_t)
            gi, go = gates[..., :n], gates[..., n : 2 * n]
            gf, gc = gates[..., 2 * n : 3 * n], gates[..., 3 * n :]
            if p is not None:
                gi, gf = gi + p[0] * c, gf + p[2] * c
            i = _activate(_clip(gi, clip), f)
            fg = 1.0 - i if input_forget else _activate(_clip(gf, clip), f)
            c_new = fg * c + i * _activate(_clip(gc, clip), g)
            if p is not None:
                go = go + p[1] * c_new
            o = _activate(_clip(go, clip), f)
            return o * _activate(c_new, h_act), c_new

        per_dir.append(_run(steps, reverse, mask, (h0[d], c0[d]), cell))
    return _finish(per_dir, layout, n_outputs)

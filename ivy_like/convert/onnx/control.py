"""ONNX's control flow (``If``, ``Loop``, ``Scan``) in the generated function.

Each sub-graph becomes a nested function of the generated code (its nodes written like the
main graph's, reading the enclosing values as closures), and the node one call of a helper
below:

* ``If``: a condition known at conversion keeps only its branch; a condition known on the
  host, or a value when the model runs eagerly, picks the branch in Python (so the branches
  may give different shapes, as ONNX allows); under a tracing transform (``compile``) it is
  ``ivy_like.cond``, which needs both branches to agree in shapes and dtypes.
* ``Loop``: a Python loop. With a trip count known when it runs (a constant or shape
  arithmetic) and a condition the body passes through unchanged (a ``for`` loop), it is
  unrolled and works under every transform; a condition computed by the body is read each
  iteration, which works when the model runs eagerly (a clear ``TypeError`` under tracing).
* ``Scan``: a Python loop over the scanned axis, whose length is a shape: it works under
  every transform and differentiates on every backend with autodiff.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import ivy_like as il

from ._host import narrow
from ._table import Refused


def _concrete(x: Any, op: str, what: str) -> Any:
    """``x`` as a NumPy value, or a ``TypeError`` saying it depends on traced data."""
    if isinstance(x, np.ndarray):
        return x
    try:
        return np.asarray(il.to_numpy(x))
    except Exception as e:  # noqa: BLE001 - every framework names its tracer errors differently
        raise TypeError(
            f"{op}: {what} depends on the model's data, so it has no value while the model is "
            "traced (compiled, vmapped, or differentiated by a tracing backend); run it eagerly"
        ) from e


def run_if(pred: Any, then_fn: Any, else_fn: Any) -> Any:
    """``If`` at run time: the branch chosen in Python when the condition has a value,
    ``ivy_like.cond`` when it is traced."""
    try:
        value = pred if isinstance(pred, np.ndarray) else np.asarray(il.to_numpy(pred))
    except Exception:  # noqa: BLE001 - a tracer: both branches are staged
        return il.cond(pred, then_fn, else_fn)
    return then_fn() if bool(value.reshape(())) else else_fn()


def run_loop(
    trip: Any, cond: Any, body: Any, n_carried: int, fixed: bool, *carried: Any
) -> tuple[Any, ...]:
    """``Loop``: the body ``(i, cond, *carried) -> (cond, *carried, *scan_outputs)`` run while
    the condition holds and ``i`` is below the trip count; the scan outputs stacked."""
    count = None if trip is None else int(_concrete(trip, "Loop", "its trip count M").reshape(()))
    keep = True if cond is None else bool(_concrete(cond, "Loop", "its condition").reshape(()))
    if count is None and fixed and cond is not None:
        raise TypeError("Loop: a loop with no trip count and a constant true condition never ends")
    state = list(carried)
    stacks: list[list[Any]] | None = None
    i = 0
    cond_value = np.array(keep)
    while keep and (count is None or i < count):
        out = body(narrow(np.array(i, np.int64)), cond_value, *state)
        state = list(out[1 : 1 + n_carried])
        scans = out[1 + n_carried :]
        if stacks is None:
            stacks = [[] for _ in scans]
        for s, y in zip(stacks, scans):
            s.append(y)
        if not fixed:
            cond_value = out[0]
            keep = bool(_concrete(out[0], "Loop", "the condition its body computes").reshape(()))
        i += 1
    if stacks is None:
        n_scans = _scan_count(body, n_carried)
        if n_scans:
            raise ValueError("Loop: no iteration ran, so its scan outputs have no shape")
        return tuple(state)
    return (*state, *(il.stack(s, axis=0) for s in stacks))


def _scan_count(body: Any, n_carried: int) -> int:
    return getattr(body, "n_outputs", 1 + n_carried) - 1 - n_carried


def run_scan(
    body: Any,
    n_state: int,
    in_axes: tuple[int, ...],
    in_reverse: tuple[bool, ...],
    out_axes: tuple[int, ...],
    out_reverse: tuple[bool, ...],
    *inputs: Any,
) -> tuple[Any, ...]:
    """``Scan`` (opset 9+): the body ``(*state, *slices) -> (*state, *outputs)`` over the
    scanned axis of each scan input; the outputs stacked along their axes."""
    state = list(inputs[:n_state])
    xs = inputs[n_state:]
    if not xs:
        raise ValueError("Scan: it has no scan input")
    axes = [a % len(x.shape) for a, x in zip(in_axes, xs)]
    length = int(xs[0].shape[axes[0]])
    for x, a in zip(xs, axes):
        if int(x.shape[a]) != length:
            raise ValueError(f"Scan: the scan inputs have lengths {length} and {x.shape[a]}")
    stacks: list[list[Any]] = []
    for t in range(length):
        slices = []
        for x, a, rev in zip(xs, axes, in_reverse):
            index = (slice(None),) * a + (length - 1 - t if rev else t,)
            slices.append(x[index])
        out = body(*state, *slices)
        state = list(out[:n_state])
        ys = out[n_state:]
        if not stacks:
            stacks = [[] for _ in ys]
        for s, y in zip(stacks, ys):
            s.append(y)
    results = []
    for k, s in enumerate(stacks):
        if k < len(out_reverse) and out_reverse[k]:
            s = s[::-1]
        axis = out_axes[k] if k < len(out_axes) else 0
        axis = axis % (len(s[0].shape) + 1)
        results.append(il.stack(s, axis=axis))
    return (*state, *results)


def scan_attributes(attrs: dict[str, Any], n_inputs: int) -> dict[str, Any]:
    """Scan's attributes as :func:`run_scan`'s arguments."""
    m = attrs.get("num_scan_inputs")
    if m is None:
        raise Refused("num_scan_inputs is required")
    n_state = n_inputs - m
    body = attrs["body"]
    n_out = len(body.output) - n_state
    in_axes = tuple(attrs.get("scan_input_axes", [0] * m))
    in_dirs = tuple(bool(d) for d in attrs.get("scan_input_directions", [0] * m))
    out_axes = tuple(attrs.get("scan_output_axes", [0] * n_out))
    out_dirs = tuple(bool(d) for d in attrs.get("scan_output_directions", [0] * n_out))
    return {
        "n_state": n_state,
        "in_axes": in_axes,
        "in_reverse": in_dirs,
        "out_axes": out_axes,
        "out_reverse": out_dirs,
    }

"""ONNX's control flow (``If``, ``Loop``, ``Scan``) in the generated function.

Each sub-graph becomes a nested function of the generated code (its nodes written like the
main graph's, reading the enclosing values as closures), and the node one call of a helper
below:

* ``If``: a condition known at conversion keeps only its branch; a condition known on the
  host, or a value when the model runs eagerly, picks the branch in Python (so the branches
  may give different shapes, as ONNX allows); under a tracing transform (``compile``) it is
  ``ivy_like.cond``, which needs both branches to agree in shapes and dtypes.
* ``Loop``: a ``for`` loop (the body passes its condition through) whose trip count is known
  when it runs is ``ivy_like.scan`` over the iteration numbers (its scan outputs are the
  ys): it compiles and differentiates on every backend. A loop without scan outputs is
  ``ivy_like.while_loop`` on its counter, condition and carried values, so its trip count
  and condition may depend on the data under ``compile`` (``lax.while_loop``,
  ``tf.while_loop``). The rest (scan outputs of a loop that stops on a computed condition,
  a carried value whose shape changes, both of which ONNX allows) is a Python loop: eager
  only, a clear ``TypeError`` when a traced value decides it.
* ``Scan``: ``ivy_like.scan`` over each scan input's axis (moved to the front, reversed
  where its direction says): it compiles and differentiates on every backend with autodiff.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import ivy_like as il

from ...transforms.control_flow import StructureMismatch
from ._host import narrow, to_device
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


def _device(x: Any) -> Any:
    """A value a loop carries: an array of the active backend (host values are NumPy)."""
    return to_device(x) if isinstance(x, np.ndarray) else x


def _devices(values: Any) -> tuple[Any, ...]:
    return tuple(_device(v) for v in values)


def run_loop(
    trip: Any, cond: Any, body: Any, n_carried: int, n_scans: int, fixed: bool, *carried: Any
) -> tuple[Any, ...]:
    """``Loop``: the body ``(i, cond, *carried) -> (cond, *carried, *scan_outputs)`` run while
    the condition holds and ``i`` is below the trip count; the scan outputs stacked.

    A ``for`` loop (``fixed``: the body passes its condition through) with a trip count known
    when it runs is ``ivy_like.scan`` (its scan outputs are the ys); a loop without scan
    outputs is ``ivy_like.while_loop`` (its trip count and condition may be traced). What
    neither can express (scan outputs of a loop that stops on a computed condition, a carried
    value whose shape changes) runs as a Python loop, eagerly."""
    if trip is None and cond is not None and fixed:
        raise TypeError("Loop: a loop with no trip count and a constant true condition never ends")
    count = _known_count(trip)
    try:
        if fixed and count is not None:
            return _loop_as_scan(count, cond, body, n_carried, n_scans, carried)
        if n_scans == 0:
            return _loop_as_while(trip, count, cond, body, fixed, carried)
    except StructureMismatch:
        pass  # a carried value whose shape changes: ONNX allows it, while_loop and scan do not
    return _python_loop(trip, cond, body, n_carried, n_scans, fixed, carried)


def _known_count(trip: Any) -> int | None:
    """The trip count as a number when it has a value (None when absent or traced)."""
    if trip is None:
        return None
    try:
        return int(_concrete(trip, "Loop", "its trip count M").reshape(()))
    except TypeError:
        return None


def _loop_as_scan(
    count: int, cond: Any, body: Any, n_carried: int, n_scans: int, carried: tuple[Any, ...]
) -> tuple[Any, ...]:
    if cond is not None and not bool(_concrete(cond, "Loop", "its condition").reshape(())):
        count = 0  # a false condition: no iteration
    if count <= 0:
        if n_scans:
            raise ValueError("Loop: no iteration ran, so its scan outputs have no shape")
        return tuple(carried)
    true = _device(narrow(np.array(True)))

    def step(state: tuple[Any, ...], i: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        out = body(i, true, *state)
        return _devices(out[1 : 1 + n_carried]), _devices(out[1 + n_carried :])

    steps = il.arange(count, dtype=il.as_dtype(narrow(np.array(0, np.int64)).dtype.name))
    state, ys = il.scan(step, _devices(carried), steps)
    return (*state, *ys)


def _loop_as_while(
    trip: Any, count: int | None, cond: Any, body: Any, fixed: bool, carried: tuple[Any, ...]
) -> tuple[Any, ...]:
    i0 = _device(narrow(np.array(0, np.int64)))
    if trip is None or (count is not None and count >= np.iinfo(i0.dtype.name).max):
        limit = None  # no trip count, or one no counter reaches (INT64_MAX: "no limit")
    else:
        limit = il.astype(_device(trip).reshape(()), i0.dtype)
    keep0 = _device(narrow(np.array(True))) if cond is None else _device(cond).reshape(())

    def going(carry: tuple[Any, ...]) -> Any:
        i, keep = carry[0], carry[1]
        return keep if limit is None else il.logical_and(keep, i < limit)

    def step(carry: tuple[Any, ...]) -> tuple[Any, ...]:
        i, keep, *state = carry
        out = body(i, keep, *state)
        keep = keep if fixed else il.astype(_device(out[0]).reshape(()), il.bool)
        return (i + 1, keep, *_devices(out[1:]))

    out = il.while_loop(going, step, (i0, il.astype(keep0, il.bool), *_devices(carried)))
    return tuple(out[2:])


def _python_loop(
    trip: Any,
    cond: Any,
    body: Any,
    n_carried: int,
    n_scans: int,
    fixed: bool,
    carried: tuple[Any, ...],
) -> tuple[Any, ...]:
    count = None if trip is None else int(_concrete(trip, "Loop", "its trip count M").reshape(()))
    keep = True if cond is None else bool(_concrete(cond, "Loop", "its condition").reshape(()))
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
        if n_scans:
            raise ValueError("Loop: no iteration ran, so its scan outputs have no shape")
        return tuple(state)
    return (*state, *(il.stack(s, axis=0) for s in stacks))


def run_scan(
    body: Any,
    n_state: int,
    in_axes: tuple[int, ...],
    in_reverse: tuple[bool, ...],
    out_axes: tuple[int, ...],
    out_reverse: tuple[bool, ...],
    *inputs: Any,
) -> tuple[Any, ...]:
    """``Scan`` (opset 9+) as ``ivy_like.scan``: the body ``(*state, *slices) -> (*state,
    *outputs)`` over the scanned axis of each scan input (moved to the front, reversed where
    its direction says); the outputs stacked along their axes."""
    state = _devices(inputs[:n_state])
    xs = _devices(inputs[n_state:])
    if not xs:
        raise ValueError("Scan: it has no scan input")
    axes = [a % len(x.shape) for a, x in zip(in_axes, xs)]
    length = int(xs[0].shape[axes[0]])
    for x, a in zip(xs, axes):
        if int(x.shape[a]) != length:
            raise ValueError(f"Scan: the scan inputs have lengths {length} and {x.shape[a]}")
    if length == 0:
        raise ValueError("Scan: its scan inputs are empty, so its outputs have no shape")
    leading = tuple(
        il.moveaxis(il.flip(x, axis=a) if rev else x, a, 0)
        for x, a, rev in zip(xs, axes, in_reverse)
    )

    def step(carry: tuple[Any, ...], x: tuple[Any, ...]) -> tuple[tuple[Any, ...], Any]:
        out = body(*carry, *x)
        return _devices(out[:n_state]), _devices(out[n_state:])

    state, ys = il.scan(step, state, leading)
    results = []
    for k, y in enumerate(ys):
        if k < len(out_reverse) and out_reverse[k]:
            y = il.flip(y, axis=0)
        axis = out_axes[k] if k < len(out_axes) else 0
        results.append(il.moveaxis(y, 0, axis % len(y.shape)))
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

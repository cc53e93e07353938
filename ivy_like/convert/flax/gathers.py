"""jax primitives -> ivy_like: gathers and dynamic slices, reading (``gather``,
``dynamic_slice``) and writing (``dynamic_update_slice``) at positions known at run time,
registered in the table of :mod:`._table` by its ``@primitive`` decorator.

A window's start is clamped, as XLA makes a window fit its operand, against sizes that may be
those of a dynamic dimension: they are written as expressions over the inputs' sizes (a
framework's trace, exporting, gives them as its own symbolic sizes: :func:`.symbolic.operand`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import ivy_like as il

from .._casts import cast
from . import symbolic
from ._table import Eqn, Refused, is_symbolic, primitive, same, size


def _starts(e: Eqn, first: int) -> None:
    """The start operands (from ``first`` on) must be known at conversion or computed from the
    inputs' sizes only (``x[-1]`` along a dynamic dimension)."""
    sized = e.sized or tuple(k is not None for k in e.known)
    if not all(sized[first:]):
        raise Refused("start indices computed at run time (data-dependent)")


def _clamped(start: Any, last: Any) -> Any:
    """A window's start clamped into ``[0, last]``, as XLA makes a window fit its operand."""
    return il.minimum(il.maximum(start, 0), symbolic.operand(last, start.dtype))


def _dynamic_slice(e: Eqn) -> dict[str, Any]:
    """Static slices where the start and the sizes are known; the other axes (a start or a
    size computed at run time) are taken at positions ``start + arange(extent)`` with the
    start clamped to ``n - extent``, both sizes written over the inputs' sizes."""
    _starts(e, 1)
    index, moving = [], []
    for axis, (extent, n, s) in enumerate(
        zip(e.params["slice_sizes"], e.ins[0].shape, e.known[1:])
    ):
        if same([extent], [n]):  # the whole axis: XLA clamps any start to 0
            index.append(slice(None))
        elif s is not None and not is_symbolic(n) and not is_symbolic(extent):
            start = min(max(int(np.asarray(s)), 0), int(n) - int(extent))
            index.append(slice(start, start + int(extent)))
        else:
            index.append(slice(None))
            moving.append((axis, size(extent), size(n) - size(extent)))
    whole = all(i == slice(None) for i in index)
    return {"index": None if whole else tuple(index), "moving": tuple(moving)}


@primitive(
    "dynamic_slice",
    static=_dynamic_slice,
    arity=lambda e: len(e.ins) if _dynamic_slice(e)["moving"] else 1,  # starts used at run time
)
def dynamic_slice(x: Any, *starts: Any, index: Any, moving: Any) -> Any:
    if index is not None:
        x = x[index]
    for axis, extent, last in moving:
        steps = il.arange(extent)
        at = il.add(steps, cast(_clamped(starts[axis], last), steps.dtype))
        x = il.take(x, at, axis=axis)
    return x


def _update_slice(e: Eqn) -> dict[str, Any]:
    """Each axis the update does not cover whole: its size, the update's, and the last start
    that fits (sizes written over the inputs' sizes)."""
    _starts(e, 2)
    axes = tuple(
        (axis, size(n), size(m), size(n) - size(m))
        for axis, (n, m) in enumerate(zip(e.ins[0].shape, e.ins[1].shape))
        if not same([n], [m])  # the update covers the axis: its start clamps to 0
    )
    return {"axes": axes, "rank": len(e.ins[0].shape)}


@primitive("dynamic_update_slice", static=_update_slice)
def dynamic_update_slice(x: Any, update: Any, *starts: Any, axes: Any, rank: int) -> Any:
    """``x`` with ``update`` written from the (clamped) starts: along each axis the update is
    taken at ``position - start`` (spread over ``x``'s positions) and kept inside the window,
    so any start and any size computed at run time give XLA's result, and gradients reach
    both operands."""
    keep = None
    for axis, n, extent, last in axes:
        along = il.arange(n)
        offset = il.subtract(along, cast(_clamped(starts[axis], last), along.dtype))
        inside = il.logical_and(
            il.greater_equal(offset, 0), il.less(offset, symbolic.operand(extent, offset.dtype))
        )
        update = il.take(update, il.where(inside, offset, 0), axis=axis)
        line = il.reshape(inside, tuple(-1 if a == axis else 1 for a in range(rank)))
        keep = line if keep is None else il.logical_and(keep, line)
    return update if keep is None else il.where(keep, update, x)


def _fill(e: Eqn) -> Any:
    """What a ``FILL_OR_DROP`` gather gives where its window does not fit (None for the other
    modes, which clamp the start)."""
    mode = str(e.params.get("mode", "")).rsplit(".", 1)[-1].upper()
    if "FILL" not in mode:
        return None
    fill = e.params.get("fill_value")
    if fill is not None:
        return fill
    dt = np.dtype(e.ins[0].dtype)
    if np.issubdtype(dt, np.inexact):
        return math.nan
    if dt == np.bool_:
        return True
    info = np.iinfo(dt)
    return int(info.min if np.issubdtype(dt, np.signedinteger) else info.max)


def _window(e: Eqn, sizes: tuple[Any, ...]) -> dict[str, Any]:
    """One window (indices of shape ``(k,)``: its start along the ``start_index_map`` axes), a
    dynamic slice (jax writes ``x[:1, :2]`` so when a size is symbolic) with the
    ``collapsed_slice_dims`` squeezed out."""
    dn, shape = e.params["dimension_numbers"], tuple(e.ins[0].shape)
    mapped = tuple(int(d) for d in dn.start_index_map)
    collapsed = tuple(int(d) for d in dn.collapsed_slice_dims)
    if tuple(dn.offset_dims) != tuple(range(len(shape) - len(collapsed))):
        raise Refused(f"{dn}; a window's axes in the operand's order only")
    fill = _fill(e)
    starts, index = [], []
    for d, (s, n) in enumerate(zip(sizes, shape)):
        whole = same([s], [n])
        index.append(slice(None) if whole or d in mapped else slice(0, s))  # unmapped: start 0
        if d in mapped and (fill is not None or not whole):  # a whole axis clamps to start 0
            starts.append((d, mapped.index(d), s, size(n) - s))
    plain = all(i == slice(None) for i in index)
    return {
        "starts": tuple(starts),
        "index": None if plain else tuple(index),
        "squeeze": collapsed,
        "fill": fill,
    }


def _gather(e: Eqn) -> dict[str, Any]:
    """A ``take`` along one axis (an embedding lookup, ``x[idx]``, ``jnp.take``), a
    ``take_along_axis``, or one window (:func:`_window`); other gathers are refused."""
    dn, p = e.params["dimension_numbers"], e.params
    shape, idx_shape = tuple(e.ins[0].shape), tuple(e.ins[1].shape)
    batching = tuple(dn.operand_batching_dims) + tuple(dn.start_indices_batching_dims)
    sizes = tuple(size(s) for s in p["slice_sizes"])
    if len(idx_shape) == 1 and not batching and not is_symbolic(idx_shape[0]):
        return {"form": "window", **_window(e, sizes)}
    if (
        len(dn.start_index_map) != 1
        or tuple(dn.collapsed_slice_dims) != tuple(dn.start_index_map)
        or not idx_shape
        or idx_shape[-1] != 1
    ):
        raise Refused(f"{dn}; only a take along one axis, a take_along_axis or one window")
    axis = int(dn.start_index_map[0])
    others = tuple(d for d in range(len(shape)) if d != axis)
    along = (
        not dn.offset_dims
        and tuple(dn.operand_batching_dims) == tuple(dn.start_indices_batching_dims) == others
        and len(idx_shape) == len(shape) + 1
    )
    if batching and not along:
        raise Refused(f"{dn}; only a take along one axis, a take_along_axis or one window")
    if along:
        if any(s != 1 for s in sizes):
            raise Refused(f"slice_sizes={sizes} in a take_along_axis")
    elif any(s != (1 if d == axis else size(n)) for d, (s, n) in enumerate(zip(sizes, shape))):
        raise Refused(f"slice_sizes={sizes}: only whole slices along the other axes")
    batch = idx_shape[:-1]
    perm = None  # take gives x.shape[:axis] + batch + x.shape[axis + 1:]; gather may permute
    if not along:
        taken = [("o", d) for d in range(axis)] + [("b", j) for j in range(len(batch))]
        taken += [("o", d) for d in others if d > axis]
        offsets, batches = iter(others), iter(range(len(batch)))
        rank = len(batch) + len(shape) - 1
        wanted = [
            ("o", next(offsets)) if q in dn.offset_dims else ("b", next(batches))
            for q in range(rank)
        ]
        perm = tuple(taken.index(w) for w in wanted)
        perm = None if perm == tuple(range(rank)) else perm
    mask_shape = batch if along else (1,) * axis + batch + (1,) * (len(shape) - axis - 1)
    return {
        "form": "take",
        "along": along,
        "axis": axis,
        "size": size(shape[axis]),
        "perm": perm,
        "fill": _fill(e),
        "mask_shape": tuple(size(d) for d in mask_shape),
    }


def _take(
    x: Any,
    indices: Any,
    *,
    along: bool,
    axis: int,
    size: Any,
    perm: Any,
    fill: Any,
    mask_shape: Any,
) -> Any:
    idx = indices[..., 0]
    take = il.take_along_axis if along else il.take
    out = take(x, _clamped(idx, size - 1), axis=axis)
    if fill is not None:  # mode FILL_OR_DROP: out-of-range indices give the fill value
        valid = il.logical_and(
            il.greater_equal(idx, 0), il.less(idx, symbolic.operand(size, idx.dtype))
        )
        out = il.where(symbolic.reshape(valid, mask_shape), out, fill)
    return out if perm is None else il.permute_dims(out, perm)


def _one_window(x: Any, indices: Any, *, starts: Any, index: Any, squeeze: Any, fill: Any) -> Any:
    if index is not None:
        x = x[index]
    valid = None
    for axis, column, extent, last in starts:
        start = indices[column]
        if fill is not None:  # FILL_OR_DROP: a window that does not fit is filled whole
            inside = il.logical_and(
                il.greater_equal(start, 0),
                il.less_equal(start, symbolic.operand(last, start.dtype)),
            )
            valid = inside if valid is None else il.logical_and(valid, inside)
        steps = il.arange(extent)
        x = il.take(x, il.add(steps, cast(_clamped(start, last), steps.dtype)), axis=axis)
    if squeeze:
        x = il.squeeze(x, squeeze)
    return x if valid is None else il.where(valid, x, fill)


@primitive("gather", static=_gather)
def gather(x: Any, indices: Any, *, form: str, **how: Any) -> Any:
    return _take(x, indices, **how) if form == "take" else _one_window(x, indices, **how)

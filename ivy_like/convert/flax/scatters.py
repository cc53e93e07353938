"""jax primitives -> ivy_like: the scatters (``x.at[i].set/add/multiply/min/max``), registered in
the table of :mod:`._table` by its ``@primitive`` decorator.

Any dimension numbers (vmapped ones included) become one position per update element in the
flattened operand; out-of-bounds windows are dropped (``FILL_OR_DROP``, and
``PROMISE_IN_BOUNDS``, which XLA treats the same) or clamped (``CLIP``), as XLA does.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import ivy_like as il

from .._casts import cast
from . import symbolic
from ._table import Eqn, Refused, is_symbolic, primitive, same, size


def _integer(e: Eqn) -> bool:
    return bool(np.issubdtype(np.dtype(e.ins[0].dtype), np.integer))


# A scatter-mul whose indices may repeat multiplies the updates that share a position through an
# (M, M) comparison of the M update elements: refused beyond this many entries.
_PAIRWISE_LIMIT = 1 << 22


def _scatter_mode(e: Eqn) -> bool:
    """Whether out-of-bounds windows are clamped (CLIP) rather than dropped (FILL_OR_DROP; also
    PROMISE_IN_BOUNDS, for which XLA drops them as well)."""
    mode = str(e.params.get("mode", "")).rsplit(".", 1)[-1].upper()
    if mode not in ("CLIP", "FILL_OR_DROP", "PROMISE_IN_BOUNDS"):
        raise Refused(f"mode {mode}; CLIP, FILL_OR_DROP or PROMISE_IN_BOUNDS only")
    return mode == "CLIP"


def _scatter_axes(e: Eqn) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[int]]:
    """The dimension numbers as pairs (updates axis, operand axis): the window axes, the
    batching axes (an updates axis that is an indices batch axis); and the updates axes that
    are the indices' batch axes, in order (all but the last, the index vector)."""
    dn = e.params["dimension_numbers"]
    rank, idx_shape = len(e.ins[0].shape), tuple(size(d) for d in e.ins[1].shape)
    upd_shape = tuple(size(d) for d in e.ins[2].shape)
    window_upd = tuple(int(d) for d in dn.update_window_dims)
    inserted = tuple(int(d) for d in dn.inserted_window_dims)
    op_batch = tuple(int(d) for d in getattr(dn, "operand_batching_dims", ()))
    idx_batch = tuple(int(d) for d in getattr(dn, "scatter_indices_batching_dims", ()))
    scatter_upd = [d for d in range(len(upd_shape)) if d not in window_upd]
    window_op = [d for d in range(rank) if d not in inserted and d not in op_batch]
    if (
        not idx_shape
        or not same(idx_shape[-1:], [len(dn.scatter_dims_to_operand_dims)])
        or len(window_op) != len(window_upd)
        or not same([upd_shape[d] for d in scatter_upd], idx_shape[:-1])
        or len(op_batch) != len(idx_batch)
    ):
        raise Refused(
            f"{dn} with indices of shape {idx_shape} and updates of shape {upd_shape}: the "
            "index vector must be the indices' last axis"
        )
    batching = [(scatter_upd[i], o) for i, o in zip(idx_batch, op_batch)]
    return list(zip(window_upd, window_op)), batching, scatter_upd


def _scatter(e: Eqn, how: str) -> dict[str, Any]:
    """Each update element's position in the flattened operand, from the dimension numbers.

    The indices' last axis holds a start per ``scatter_dims_to_operand_dims`` entry, their
    other axes are the updates' axes that are not ``update_window_dims``. An update element
    ``u`` goes to operand index ``start + window offset``: the window axes of ``u`` count along
    the operand's axes that are neither ``inserted_window_dims`` nor ``operand_batching_dims``,
    and a batching axis takes ``u``'s coordinate on the matching indices axis. Flattened, that
    is ``base(indices) + offset``: ``base`` sums start * stride, ``offset`` the window and
    batching coordinates times their strides (``steps``), both at run time. Sizes of dynamic
    dimensions (strides, extents, the last start that fits) are written as expressions over
    the inputs' sizes.
    """
    shape = tuple(size(d) for d in e.ins[0].shape)
    upd_shape = tuple(size(d) for d in e.ins[2].shape)
    dtype = np.dtype(e.ins[0].dtype)
    if how != "set" and dtype.kind not in "iuf":
        raise Refused(f"combining {dtype.name} values; integers and floats only")
    window, batching, scatter_upd = _scatter_axes(e)
    to_operand = tuple(int(d) for d in e.params["dimension_numbers"].scatter_dims_to_operand_dims)
    clip = _scatter_mode(e)
    strides = [math.prod(shape[d + 1 :]) for d in range(len(shape))]
    sizes: list[Any] = [1] * len(shape)  # the window's extent along each operand axis
    for q, d in window:
        sizes[d] = upd_shape[q]
    rank = len(upd_shape)
    steps = tuple(
        (q, strides[d], upd_shape[q])
        for q, d in window + batching
        if not same([upd_shape[q]], [1]) and not same([strides[d]], [0])
    )
    unique = bool(e.params.get("unique_indices", False))
    if how == "mul" and not unique:
        count = math.prod(upd_shape)
        if is_symbolic(count):
            raise Refused(
                "updates whose indices may repeat, as many as a dynamic dimension (multiplying "
                "them pairwise needs their count squared)"
            )
        if count * count > _PAIRWISE_LIMIT:
            raise Refused(
                f"{count} updates whose indices may repeat (multiplying them pairwise needs "
                f"{count}^2 > {_PAIRWISE_LIMIT} entries)"
            )
    # the positions' shape before any broadcast: the indices' axes, then the steps' axes
    covered = {*scatter_upd, *(q for q, _, _ in steps)}
    return {
        "columns": tuple((strides[d], shape[d] - sizes[d]) for d in to_operand),
        "clip": clip,
        "base_shape": tuple(upd_shape[a] if a in scatter_upd else 1 for a in range(rank)),
        "steps": steps,
        "rank": rank,
        "shape": upd_shape if covered != set(range(rank)) else None,
        "operand": shape,
        "size": math.prod(shape),
        "empty": any(not is_symbolic(d) and d == 0 for d in upd_shape),
        **({"pairwise": not unique} if how == "mul" else {}),
    }


def _index_dtype(total: Any) -> Any:
    """The positions' dtype: int32 when twice the operand's size fits (as a concrete size says at
    each call), else int64; a size a framework's trace keeps symbolic takes the backend's
    default integer (jax's 32-bit mode: int32, the width of jax's own indices)."""
    if isinstance(total, int):
        return il.int32 if 2 * total < 2**31 - 1 else il.int64
    return il.arange(1).dtype


def _times(x: Any, k: Any) -> Any:
    return x if isinstance(k, int) and k == 1 else il.multiply(x, symbolic.operand(k, x.dtype))


def _positions(
    indices: Any,
    *,
    columns: Any,
    clip: bool,
    base_shape: Any,
    steps: Any,
    rank: int,
    shape: Any,
    size: Any,
    itype: Any,
) -> Any:
    """Where each update element goes in the flattened operand (as :func:`_scatter` says), in
    the updates' order, flattened. A window whose start is out of bounds (it does not fit
    whole) goes to ``size`` or beyond, where every scatter below drops it, as XLA drops the
    whole window; CLIP clamps the start instead."""
    idx = cast(indices, itype)
    base, valid = None, None
    for i, (stride, last) in enumerate(columns):
        start = idx[..., i]
        last = symbolic.operand(last, itype)
        if clip:
            start = il.minimum(il.maximum(start, 0), last)
        else:
            inside = il.logical_and(il.greater_equal(start, 0), il.less_equal(start, last))
            valid = inside if valid is None else il.logical_and(valid, inside)
        term = _times(start, stride)
        base = term if base is None else il.add(base, term)
    pos = None
    if base is not None:
        if valid is not None:
            base = il.where(valid, base, symbolic.operand(size, itype))
        pos = symbolic.reshape(base, base_shape)
    for q, stride, extent in steps:
        along = _times(il.arange(extent, dtype=itype), stride)
        along = il.reshape(along, tuple(-1 if a == q else 1 for a in range(rank)))
        pos = along if pos is None else il.add(pos, along)
    if pos is None:  # no index columns and a one-element window: position 0
        pos = il.zeros((1,) * rank, dtype=itype)
    if shape is not None:
        pos = symbolic.broadcast_to(pos, shape)
    return il.reshape(pos, (-1,))


def _place(x: Any, indices: Any, geometry: dict[str, Any]) -> tuple[Any, Any, Any]:
    """The flattened operand, the update elements' positions in it and their dtype."""
    itype = _index_dtype(geometry["size"])
    keys = ("columns", "clip", "base_shape", "steps", "rank", "shape", "size")
    pos = _positions(indices, itype=itype, **{k: geometry[k] for k in keys})
    return _flat(x), pos, itype


def _winners(pos: Any, size: Any, itype: Any) -> tuple[Any, Any]:
    """For each operand position, which update element writes it (the last of those that go
    there) and whether any does: a segment maximum of the elements' numbers, where an empty
    segment is the dtype's lowest value (clipped to 0) and dropped positions (``>= size``)
    are left out."""
    numbers = cast(il.arange(pos.shape[0]), itype)
    winner = il.segment_max(numbers, pos, size)
    return il.maximum(winner, 0), il.greater_equal(winner, 0)


def _flat(x: Any) -> Any:
    return il.reshape(x, (-1,))


@primitive("scatter", static=lambda e: _scatter(e, "set"))
def scatter(x: Any, indices: Any, updates: Any, **geometry: Any) -> Any:
    """``x.at[...].set(updates)``: each written position takes the value of its winning update
    element (a gather, so gradients reach exactly that element and the positions of ``x`` that
    are kept). Exact for unique indices; with repeated ones one of the values (jax leaves
    which one unspecified)."""
    if geometry["empty"]:
        return x
    flat, pos, itype = _place(x, indices, geometry)
    winner, hit = _winners(pos, geometry["size"], itype)
    out = il.where(hit, il.take(_flat(updates), winner, axis=0), flat)
    return symbolic.reshape(out, geometry["operand"])


@primitive("scatter-add", static=lambda e: _scatter(e, "add"))
def scatter_add(x: Any, indices: Any, updates: Any, **geometry: Any) -> Any:
    """``x.at[...].add(updates)``: ivy_like's ``scatter_add`` on the flattened operand adds
    repeated positions up and drops those out of range, as XLA does."""
    if geometry["empty"]:
        return x
    flat, pos, _ = _place(x, indices, geometry)
    return symbolic.reshape(il.scatter_add(flat, pos, _flat(updates)), geometry["operand"])


@primitive("scatter-mul", static=lambda e: _scatter(e, "mul"))
def scatter_mul(x: Any, indices: Any, updates: Any, *, pairwise: bool, **geometry: Any) -> Any:
    """``x.at[...].multiply(updates)``: each written position is multiplied by the product of
    the update elements that go there. With indices jax knows are unique that is one element;
    otherwise each element's product over the elements at its position (an (M, M) comparison:
    factors of 1 elsewhere, so the product is exact), taken from the winning element."""
    if geometry["empty"]:
        return x
    flat, pos, itype = _place(x, indices, geometry)
    factors = _flat(updates)
    if pairwise:
        same_place = il.equal(il.expand_dims(pos, axis=1), il.expand_dims(pos, axis=0))
        factors = il.prod(il.where(same_place, il.expand_dims(factors, axis=0), 1), axis=1)
    winner, hit = _winners(pos, geometry["size"], itype)
    out = il.where(hit, il.multiply(flat, il.take(factors, winner, axis=0)), flat)
    return symbolic.reshape(out, geometry["operand"])


@primitive("scatter-max", static=lambda e: _scatter(e, "max"))
def scatter_max(x: Any, indices: Any, updates: Any, **geometry: Any) -> Any:
    """``x.at[...].max(updates)``: the maximum of ``x`` and the segment maximum of the updates
    at each position; an empty segment is the dtype's lowest value, which leaves ``x``."""
    if geometry["empty"]:
        return x
    flat, pos, _ = _place(x, indices, geometry)
    top = il.segment_max(_flat(updates), pos, geometry["size"])
    return symbolic.reshape(il.maximum(flat, top), geometry["operand"])


@primitive("scatter-min", static=lambda e: {**_scatter(e, "min"), "integer": _integer(e)})
def scatter_min(x: Any, indices: Any, updates: Any, *, integer: bool, **geometry: Any) -> Any:
    """``x.at[...].min(updates)``: a segment maximum through an order-reversing map (negation
    for floats; bitwise inversion, ``-v - 1``, for integers, which cannot overflow), mapped
    back. An empty segment becomes the dtype's highest value, which leaves ``x``."""
    if geometry["empty"]:
        return x
    flat, pos, _ = _place(x, indices, geometry)
    flip = il.bitwise_invert if integer else il.negative
    low = flip(il.segment_max(flip(_flat(updates)), pos, geometry["size"]))
    return symbolic.reshape(il.minimum(flat, low), geometry["operand"])

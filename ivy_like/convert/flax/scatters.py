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
from ._table import Eqn, Refused, primitive


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
    rank, idx_shape = len(e.ins[0].shape), tuple(int(d) for d in e.ins[1].shape)
    upd_shape = tuple(int(d) for d in e.ins[2].shape)
    window_upd = tuple(int(d) for d in dn.update_window_dims)
    inserted = tuple(int(d) for d in dn.inserted_window_dims)
    op_batch = tuple(int(d) for d in getattr(dn, "operand_batching_dims", ()))
    idx_batch = tuple(int(d) for d in getattr(dn, "scatter_indices_batching_dims", ()))
    scatter_upd = [d for d in range(len(upd_shape)) if d not in window_upd]
    window_op = [d for d in range(rank) if d not in inserted and d not in op_batch]
    if (
        not idx_shape
        or idx_shape[-1] != len(dn.scatter_dims_to_operand_dims)
        or len(window_op) != len(window_upd)
        or tuple(upd_shape[d] for d in scatter_upd) != idx_shape[:-1]
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
    is ``base(indices) + offset``: ``base`` sums start * stride (run time), ``offset`` (static)
    the window and batching coordinates times their strides.
    """
    shape = tuple(int(d) for d in e.ins[0].shape)
    upd_shape = tuple(int(d) for d in e.ins[2].shape)
    dtype = np.dtype(e.ins[0].dtype)
    if how != "set" and dtype.kind not in "iuf":
        raise Refused(f"combining {dtype.name} values; integers and floats only")
    window, batching, scatter_upd = _scatter_axes(e)
    to_operand = tuple(int(d) for d in e.params["dimension_numbers"].scatter_dims_to_operand_dims)
    clip = _scatter_mode(e)
    strides = [math.prod(shape[d + 1 :]) for d in range(len(shape))]
    sizes = [1] * len(shape)  # the window's extent along each operand axis
    for q, d in window:
        sizes[d] = upd_shape[q]
    size, count, rank = math.prod(shape), math.prod(upd_shape), len(upd_shape)
    itype = "int32" if 2 * size < 2**31 - 1 else "int64"
    offset = np.zeros((1,) * rank, dtype=itype)
    for q, d in window + batching:
        steps = np.arange(upd_shape[q], dtype=itype) * strides[d]
        offset = offset + steps.reshape([-1 if a == q else 1 for a in range(rank)])
    unique = bool(e.params.get("unique_indices", False))
    if how == "mul" and not unique and count * count > _PAIRWISE_LIMIT:
        raise Refused(
            f"{count} updates whose indices may repeat (multiplying them pairwise needs "
            f"{count}^2 > {_PAIRWISE_LIMIT} entries)"
        )
    return {
        "columns": tuple((strides[d], shape[d] - sizes[d]) for d in to_operand),
        "clip": clip,
        "base_shape": tuple(upd_shape[a] if a in scatter_upd else 1 for a in range(rank)),
        "offset": offset if to_operand == () or offset.any() else None,
        "shape": upd_shape,
        "size": size,
        "itype": il.as_dtype(itype),
        **({"pairwise": not unique} if how == "mul" else {}),
    }


def _positions(
    indices: Any,
    *,
    columns: Any,
    clip: bool,
    base_shape: Any,
    offset: Any,
    shape: Any,
    size: int,
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
        if clip:
            start = il.clip(start, 0, last)
        else:
            inside = il.logical_and(il.greater_equal(start, 0), il.less_equal(start, last))
            valid = inside if valid is None else il.logical_and(valid, inside)
        term = start if stride == 1 else il.multiply(start, stride)
        base = term if base is None else il.add(base, term)
    if base is None:  # no index columns: every window starts at 0
        pos = il.asarray(offset)
    else:
        if valid is not None:
            base = il.where(valid, base, size)
        pos = il.reshape(base, base_shape)
        if offset is not None:
            pos = il.add(pos, offset)
    if tuple(pos.shape) != tuple(shape):
        pos = il.broadcast_to(pos, shape)
    return il.reshape(pos, (-1,))


def _winners(pos: Any, size: int, itype: Any) -> tuple[Any, Any]:
    """For each operand position, which update element writes it (the last of those that go
    there, clipped into range) and whether any does: a segment maximum of the elements'
    numbers, where an empty segment is the dtype's lowest value and dropped positions
    (``>= size``) are left out."""
    count = int(pos.shape[0])
    numbers = cast(il.arange(count), itype)
    winner = il.segment_max(numbers, pos, size)
    return il.clip(winner, 0, count - 1), il.greater_equal(winner, 0)


def _flat(x: Any) -> Any:
    return il.reshape(x, (-1,))


@primitive("scatter", static=lambda e: _scatter(e, "set"))
def scatter(x: Any, indices: Any, updates: Any, **geometry: Any) -> Any:
    """``x.at[...].set(updates)``: each written position takes the value of its winning update
    element (a gather, so gradients reach exactly that element and the positions of ``x`` that
    are kept). Exact for unique indices; with repeated ones one of the values (jax leaves
    which one unspecified)."""
    if math.prod(geometry["shape"]) == 0:
        return x
    pos = _positions(indices, **geometry)
    winner, hit = _winners(pos, geometry["size"], geometry["itype"])
    out = il.where(hit, il.take(_flat(updates), winner, axis=0), _flat(x))
    return il.reshape(out, tuple(x.shape))


@primitive("scatter-add", static=lambda e: _scatter(e, "add"))
def scatter_add(x: Any, indices: Any, updates: Any, **geometry: Any) -> Any:
    """``x.at[...].add(updates)``: ivy_like's ``scatter_add`` on the flattened operand adds
    repeated positions up and drops those out of range, as XLA does."""
    if math.prod(geometry["shape"]) == 0:
        return x
    pos = _positions(indices, **geometry)
    return il.reshape(il.scatter_add(_flat(x), pos, _flat(updates)), tuple(x.shape))


@primitive("scatter-mul", static=lambda e: _scatter(e, "mul"))
def scatter_mul(x: Any, indices: Any, updates: Any, *, pairwise: bool, **geometry: Any) -> Any:
    """``x.at[...].multiply(updates)``: each written position is multiplied by the product of
    the update elements that go there. With indices jax knows are unique that is one element;
    otherwise each element's product over the elements at its position (an (M, M) comparison:
    factors of 1 elsewhere, so the product is exact), taken from the winning element."""
    if math.prod(geometry["shape"]) == 0:
        return x
    pos = _positions(indices, **geometry)
    factors = _flat(updates)
    if pairwise:
        same = il.equal(il.expand_dims(pos, axis=1), il.expand_dims(pos, axis=0))
        factors = il.prod(il.where(same, il.expand_dims(factors, axis=0), 1), axis=1)
    winner, hit = _winners(pos, geometry["size"], geometry["itype"])
    flat = _flat(x)
    out = il.where(hit, il.multiply(flat, il.take(factors, winner, axis=0)), flat)
    return il.reshape(out, tuple(x.shape))


@primitive("scatter-max", static=lambda e: _scatter(e, "max"))
def scatter_max(x: Any, indices: Any, updates: Any, **geometry: Any) -> Any:
    """``x.at[...].max(updates)``: the maximum of ``x`` and the segment maximum of the updates
    at each position; an empty segment is the dtype's lowest value, which leaves ``x``."""
    if math.prod(geometry["shape"]) == 0:
        return x
    pos = _positions(indices, **geometry)
    top = il.segment_max(_flat(updates), pos, geometry["size"])
    return il.reshape(il.maximum(_flat(x), top), tuple(x.shape))


@primitive("scatter-min", static=lambda e: {**_scatter(e, "min"), "integer": _integer(e)})
def scatter_min(x: Any, indices: Any, updates: Any, *, integer: bool, **geometry: Any) -> Any:
    """``x.at[...].min(updates)``: a segment maximum through an order-reversing map (negation
    for floats; bitwise inversion, ``-v - 1``, for integers, which cannot overflow), mapped
    back. An empty segment becomes the dtype's highest value, which leaves ``x``."""
    if math.prod(geometry["shape"]) == 0:
        return x
    pos = _positions(indices, **geometry)
    flip = il.bitwise_invert if integer else il.negative
    low = flip(il.segment_max(flip(_flat(updates)), pos, geometry["size"]))
    return il.reshape(il.minimum(_flat(x), low), tuple(x.shape))

"""ONNX operators that gather and scatter by index, and OneHot, Compress, ReverseSequence and
TensorScatter.

Gathers are ivy_like's ``take`` and ``take_along_axis``. Scatters are written without in-place
writes so they differentiate and compile everywhere: each update element gets its position in
the flattened data, then a segment reduction over those positions (``scatter_add``,
``segment_max``) or, for plain writes, a gather of the last update written to each position.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import ivy_like as il

from .._table import Node, Refused, index_dtype, ints, scalar
from .shapes import arr, axis_of, dims, handler, indices, known, take_range

# ---------------------------------------------------------------------------------------------
# Gathers


@handler("Gather")
def gather(data: Any, index: Any, *, axis: int = 0) -> Any:
    """Entries of ``data`` at ``index`` along ``axis`` (negative indices count from the end)."""
    return il.take(arr(data), indices(index), axis=axis_of(axis, len(data.shape), "Gather"))


@handler("GatherElements", since=11)
def gather_elements(data: Any, index: Any, *, axis: int = 0) -> Any:
    """``out[i][j][k] = data[index[i][j][k]][j][k]`` (for ``axis`` 0); ``index`` may be smaller
    than ``data`` off ``axis``, so ``data`` is cut to its shape there first."""
    axis = axis_of(axis, len(data.shape), "GatherElements")
    x = arr(data)
    for a, (have, want) in enumerate(zip(dims(data), dims(index), strict=True)):
        if a != axis and want < have:
            x = take_range(x, a, 0, want)
    return il.take_along_axis(x, indices(index), axis=axis)


def _normalized(index: Any, sizes: Any) -> Any:
    """Negative indices plus the size they count from (``sizes`` broadcasts over ``index``)."""
    return il.where(il.less(index, 0), il.add(index, sizes), index)


def _flat_offsets(index: Any, shape: tuple[int, ...]) -> Any:
    """The flat offset in an array of ``shape`` of each index tuple on ``index``'s last axis
    (negative entries counting from the end), as an index-dtype array."""
    q = int(index.shape[-1])
    strides = [math.prod(shape[j + 1 : q]) for j in range(q)]
    total = None
    for j in range(q):
        col = _normalized(index[..., j], shape[j])
        term = col if strides[j] == 1 else il.multiply(col, strides[j])
        total = term if total is None else il.add(total, term)
    if total is None:  # an empty index tuple: the whole (sub-)array
        return il.zeros(tuple(index.shape[:-1]), dtype=index.dtype)
    return total


@handler("GatherND", since=11)
def gather_nd(data: Any, index: Any, *, batch_dims: int = 0) -> Any:
    """Slices of ``data`` at the index tuples on ``index``'s last axis, after ``batch_dims``
    leading dimensions the two share. Computed as one ``take`` from ``data`` flattened over the
    batch and the indexed dimensions."""
    shape = dims(data)
    index = indices(index)
    ishape = dims(index)
    b, q = batch_dims, ishape[-1]
    batch, indexed, rest = shape[:b], shape[b : b + q], shape[b + q :]
    flat = _flat_offsets(index, indexed)  # batch + middle dims of index
    if b:
        count = math.prod(indexed)
        start = np.arange(math.prod(batch)).reshape(batch + (1,) * (len(ishape) - 1 - b))
        flat = il.add(flat, arr((start * count).astype(np.int32)))
    rows = il.reshape(arr(data), (math.prod(batch) * math.prod(indexed),) + rest)
    out = il.take(rows, il.reshape(flat, (-1,)), axis=0)
    return il.reshape(out, ishape[:-1] + rest)


# ---------------------------------------------------------------------------------------------
# Scatters


def _winners(pos: Any, size: int) -> tuple[Any, Any]:
    """For each flat data position, the number of the last update element written there
    (clipped into range) and whether any is: a segment maximum of the elements' numbers
    (computed in NumPy when the positions are known)."""
    count = int(pos.shape[0])
    if isinstance(pos, np.ndarray):
        inside = (pos >= 0) & (pos < size)
        last = np.full(size, -1, dtype=np.int64)
        np.maximum.at(last, pos[inside], np.arange(count)[inside])
        return arr(np.clip(last, 0, None).astype(np.int32)), arr(last >= 0)
    numbers = il.arange(count, dtype=pos.dtype)
    last = il.segment_max(numbers, pos, size)
    return il.clip(last, 0, max(count - 1, 0)), il.greater_equal(last, 0)


def _products(flat: Any, pos: Any, upd: Any, size: int) -> Any:
    """``flat`` multiplied at each position by every update element sent there. With
    positions known the elements are grouped in NumPy (a gather and a product per group);
    otherwise each element's group product comes from an (M, M) comparison of positions."""
    if isinstance(pos, np.ndarray):
        # table[g, r]: the r-th element of group g (the elements sent to one position), or
        # len(pos), which reads an appended 1.
        order = np.argsort(pos, kind="stable")
        places, group, counts = np.unique(pos[order], return_inverse=True, return_counts=True)
        starts = np.cumsum(counts) - counts
        table = np.full((len(places), int(counts.max(initial=1))), len(pos), dtype=np.int32)
        table[group, np.arange(len(pos)) - starts[group]] = order
        ones = il.ones((1,), dtype=upd.dtype)
        product = il.prod(il.take(il.concat([upd, ones]), arr(table), axis=0), axis=1)
        product = il.astype(il.concat([product, ones]), upd.dtype)
        row = np.full(size, len(places), dtype=np.int32)  # positions nothing is sent to: 1
        keep = (places >= 0) & (places < size)
        row[places[keep]] = np.arange(len(places))[keep]
        return il.multiply(flat, il.take(product, arr(row), axis=0))
    same = il.equal(il.expand_dims(pos, axis=1), il.expand_dims(pos, axis=0))
    one = il.ones((), dtype=upd.dtype)
    factors = il.prod(il.where(same, il.expand_dims(upd, axis=0), one), axis=1)
    factors = il.astype(factors, upd.dtype)
    winner, hit = _winners(pos, size)
    return il.where(hit, il.multiply(flat, il.take(factors, winner, axis=0)), flat)


def _scatter(data: Any, pos: Any, updates: Any, reduction: str) -> Any:
    """``data`` with the update elements (flattened, in order) combined at the flat positions
    ``pos`` by ``reduction`` (none: the last one written wins, as ONNX's loop does)."""
    shape = dims(data)
    size = math.prod(shape)
    flat = il.reshape(arr(data), (-1,))
    upd = il.reshape(arr(updates), (-1,))
    if int(upd.shape[0]) == 0:
        return il.reshape(flat, shape)
    run_pos = arr(pos)
    if reduction == "none":
        winner, hit = _winners(pos, size)
        out = il.where(hit, il.take(upd, winner, axis=0), flat)
    elif reduction == "add":
        out = il.scatter_add(flat, run_pos, upd)
    elif reduction == "mul":
        out = _products(flat, pos if isinstance(pos, np.ndarray) else run_pos, upd, size)
    elif reduction == "max":
        out = il.maximum(flat, il.segment_max(upd, run_pos, size))
    elif reduction == "min":
        # A segment maximum through an order-reversing map (negation; ~v for integers, which
        # cannot overflow), mapped back: an empty segment becomes the highest value.
        flip = il.negative if il.isdtype(upd.dtype, "real floating") else il.bitwise_invert
        out = il.minimum(flat, flip(il.segment_max(flip(upd), run_pos, size)))
    else:
        raise ValueError(f"scatter: unknown reduction {reduction!r}")
    return il.reshape(out, shape)


def _positions(compute: Any, *inputs: Any) -> Any:
    """Run ``compute`` on NumPy when the indices are known (so the positions are a NumPy
    array the scatters can group at conversion), else on the active backend."""
    if known(*inputs):
        with il.use_backend("numpy"):
            return np.asarray(il.to_numpy(compute(*inputs)))
    return compute(*(indices(x) for x in inputs))


def _element_positions(index: Any, shape: tuple[int, ...], axis: int) -> Any:
    """Flat positions in ``shape`` of ScatterElements' update elements: ``index`` along
    ``axis``, the element's own coordinates elsewhere."""
    ishape = dims(index)
    strides = [math.prod(shape[d + 1 :]) for d in range(len(shape))]
    grid = np.indices(ishape, sparse=True)
    base = sum(grid[d] * strides[d] for d in range(len(shape)) if d != axis)
    along = _normalized(index, shape[axis])
    along = along if strides[axis] == 1 else il.multiply(along, strides[axis])
    base = np.broadcast_to(np.asarray(base), ishape).astype(np.int32)
    return il.reshape(il.add(along, arr(base)), (-1,))


@handler("ScatterElements", "Scatter", since=9)
def scatter_elements(
    data: Any, index: Any, updates: Any, *, axis: int = 0, reduction: str = "none"
) -> Any:
    """``data`` with ``updates[i][j][k]`` combined into ``data[index[i][j][k]][j][k]`` (for
    ``axis`` 0) by ``reduction`` (none, add, mul, max, min). Scatter, deprecated, is the same
    without a reduction."""
    shape = dims(data)
    axis = axis_of(axis, len(shape), "ScatterElements")
    pos = _positions(lambda i: _element_positions(i, shape, axis), index)
    return _scatter(data, pos, updates, reduction)


def _nd_positions(index: Any, shape: tuple[int, ...]) -> Any:
    q = int(index.shape[-1])
    inner = math.prod(shape[q:])
    rows = _flat_offsets(index, shape)
    if inner != 1:
        rows = il.add(
            il.multiply(il.expand_dims(rows, axis=-1), inner), il.arange(inner, dtype=rows.dtype)
        )
    return il.reshape(rows, (-1,))


@handler("ScatterND", since=11)
def scatter_nd(data: Any, index: Any, updates: Any, *, reduction: str = "none") -> Any:
    """``data`` with each slice ``updates[i]`` combined into ``data[index[i]]`` by
    ``reduction`` (none, add, mul, max, min)."""
    shape = dims(data)
    pos = _positions(lambda i: _nd_positions(i, shape), index)
    return _scatter(data, pos, updates, reduction)


# ---------------------------------------------------------------------------------------------
# Others


@handler("OneHot", since=9)
def one_hot(index: Any, depth: Any, values: Any, *, axis: int = -1) -> Any:
    """``values[1]`` where the position along the new ``axis`` equals the index (a negative
    index counts from ``depth``), ``values[0]`` elsewhere (out-of-range indices too)."""
    count = int(scalar(depth, "OneHot", "depth"))
    index = indices(index)
    rank = len(index.shape) + 1
    axis = axis_of(axis, rank, "OneHot")
    index = _normalized(index, count)
    classes = il.reshape(
        il.arange(count, dtype=index.dtype), tuple(count if d == axis else 1 for d in range(rank))
    )
    hot = il.equal(il.expand_dims(index, axis=axis), classes)
    values = arr(values)
    return il.where(hot, values[1], values[0])


@handler("Compress", since=9)
def compress(x: Any, condition: Any, *, axis: Any = None) -> Any:
    """The slices of ``x`` along ``axis`` (of ``x`` flattened when None) where ``condition``
    is true. The result's size depends on ``condition``, so it must be known."""
    keep = np.flatnonzero(np.asarray(ints(condition, "Compress", "the condition input")))
    x = arr(x)
    if axis is None:
        x, axis = il.reshape(x, (-1,)), 0
    axis = axis_of(axis, len(x.shape), "Compress")
    if keep.size and keep[-1] >= x.shape[axis]:
        raise ValueError(f"Compress: condition selects index {keep[-1]} of {x.shape[axis]}")
    return il.take(x, arr(keep.astype(np.int32)), axis=axis)


@handler("ReverseSequence", since=10)
def reverse_sequence(x: Any, sequence_lens: Any, *, batch_axis: int = 1, time_axis: int = 0) -> Any:
    """Reverse, for each batch entry ``b``, its first ``sequence_lens[b]`` steps along
    ``time_axis`` (the rest stay): one ``take_along_axis`` whatever the lengths."""
    shape = dims(x)
    steps = il.expand_dims(il.arange(shape[time_axis], dtype=index_dtype()), axis=0)
    lens = il.expand_dims(il.astype(indices(sequence_lens), index_dtype()), axis=1)
    source = il.where(il.less(steps, lens), il.subtract(il.subtract(lens, 1), steps), steps)
    if time_axis < batch_axis:  # source is (batch, time)
        source = il.permute_dims(source, (1, 0))
    source = il.reshape(source, tuple(source.shape) + (1,) * (len(shape) - 2))
    return il.take_along_axis(arr(x), source, axis=time_axis)


def _tensor_scatter_rule(node: Node) -> dict[str, Any]:
    mode, axis = node.attr("mode", "linear"), node.attr("axis", -2)
    if mode not in ("linear", "circular"):
        raise Refused(f"TensorScatter mode {mode!r}")
    shape = node.ins[0].shape if node.ins and node.ins[0] is not None else None
    if axis == 0 or (shape is not None and axis == -len(shape)):
        raise Refused("TensorScatter along the batch axis")
    return {"mode": mode, "axis": axis}


@handler("TensorScatter", since=24, attrs=_tensor_scatter_rule)
def tensor_scatter(
    past: Any, update: Any, write_indices: Any = None, *, mode: str = "linear", axis: int = -2
) -> Any:
    """The cache ``past`` with ``update`` written along ``axis`` from each batch entry's
    ``write_indices`` (0 by default; modulo the cache length when ``mode`` is circular).
    Each cache position reads the update step that lands on it, if any."""
    shape = dims(past)
    axis = axis_of(axis, len(shape), "TensorScatter")
    if axis == 0 or mode not in ("linear", "circular"):
        raise ValueError(f"TensorScatter: mode {mode!r} along axis {axis} is not supported")
    length, steps = shape[axis], int(update.shape[axis])
    slots = il.arange(length, dtype=index_dtype())
    if write_indices is None:
        step = il.broadcast_to(il.expand_dims(slots, axis=0), (shape[0], length))
    else:
        start = il.astype(indices(write_indices), index_dtype())
        step = il.subtract(il.expand_dims(slots, axis=0), il.expand_dims(start, axis=1))
    if mode == "circular":
        step = il.remainder(step, length)
    hit = il.logical_and(il.greater_equal(step, 0), il.less(step, steps))
    step = il.clip(step, 0, max(steps - 1, 0))
    # (batch, length) laid out along 0 and ``axis``, 1 elsewhere.
    layout = tuple(shape[0] if d == 0 else length if d == axis else 1 for d in range(len(shape)))
    written = il.take_along_axis(arr(update), il.reshape(step, layout), axis=axis)
    return il.where(il.reshape(hit, layout), written, arr(past))

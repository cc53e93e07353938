"""ATen ops -> ivy_like: indexing, gathers and scatters
(``embedding``, ``index``, ``index_put``...).

Registered in the table of :mod:`.registry` by the ``@aten`` decorator.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch

import ivy_like as il

from .registry import (
    CHECKS,
    TensorMeta,
    _axis,
    _native,
    _ndim,
    _shape_of,
    aten,
    dim_sizes,
    reshape_to,
    size_operand,
    take_rows,
    torch_natives,
)


# -- indexing ------------------------------------------------------------------------------------
@aten("embedding.default")
def embedding(
    weight: Any,
    indices: Any,
    padding_idx: int = -1,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Any:
    natives = torch_natives(weight, indices)
    if natives is not None:  # on torch, the captured op (dense gradients, as below)
        return torch.ops.aten.embedding.default(*natives, padding_idx)
    # ivy_like.nn.embedding's steps, with the indices' sizes read as the trace gives them (a
    # dynamic size stays one when ivy_like.export traces the graph)
    sizes = dim_sizes(indices)
    rows = il.take(weight, il.reshape(indices, (-1,)), axis=0)
    rows = reshape_to(rows, (*sizes, weight.shape[1]))
    if padding_idx < 0:
        return rows
    # torch gives the padding row no gradient (its value still comes out)
    pad_rows = il.expand_dims(il.equal(indices, padding_idx), axis=-1)
    return il.where(pad_rows, il.stop_gradient(rows), rows)


def _check_embedding(weight: Any, indices: Any, padding_idx: int = -1, *rest: Any) -> str | None:
    return "scale_grad_by_freq=True" if rest and rest[0] else None


CHECKS["aten.embedding.default"] = _check_embedding


@aten("index_select.default")
def index_select(x: Any, dim: int, index: Any) -> Any:
    return il.take(x, index, axis=_axis(dim, _ndim(x)))


@aten("gather.default")
def gather(x: Any, dim: int, index: Any, *, sparse_grad: bool = False) -> Any:
    n = _ndim(x)
    d = _axis(dim, n)
    # torch.gather lets index be smaller than x on the other axes: x is cut to it first
    cut = tuple(slice(None) if a == d else slice(0, index.shape[a]) for a in range(n))
    return il.take_along_axis(x[cut], index, axis=d)


def _check_index(x: Any, indices: Any) -> str | None:
    used = [i for i, t in enumerate(indices) if t is not None]
    if not used:
        return None
    if any(isinstance(t, TensorMeta) and t.dtype == "bool" for t in indices if t is not None):
        return "a boolean mask index (its output shape depends on the data)"
    if used != list(range(used[0], used[-1] + 1)):
        return "index tensors separated by full slices (x[i, :, j])"
    return None


def _broadcast(arrays: list[Any]) -> list[Any]:
    """The index arrays broadcast together; where a size is unknown (a TensorFlow graph's
    ``None``, which TensorFlow's broadcast_to cannot take) by adding a zero of their common
    shape, exact for integers."""
    if len(arrays) == 1:
        return arrays
    if all(None not in tuple(a.shape) for a in arrays):
        return list(il.broadcast_arrays(*arrays))
    zero = il.multiply(arrays[0], 0)
    for a in arrays[1:]:
        zero = il.add(zero, il.multiply(a, 0))
    return [il.add(a, zero) for a in arrays]


def _indexed_rows(x: Any, indices: Any) -> tuple[Any, Any, tuple[int, ...], tuple[int, ...]]:
    """``x`` with its indexed axes (consecutive) moved first and flattened into rows, the row
    of every index (the index arrays broadcast), their shape and the shape of the rest."""
    used = [i for i, t in enumerate(indices) if t is not None]
    first, k = used[0], len(used)
    dims = dim_sizes(x)[first : first + k]
    arrays = _broadcast([indices[i] for i in used])
    flat = None
    for arr, size in zip(arrays, dims):
        size = size_operand(size, arr)
        arr = il.where(il.less(arr, 0), il.add(arr, size), arr)  # negative indices count back
        flat = arr if flat is None else il.add(il.multiply(flat, size), arr)
    picked = tuple(_shape_of(dim_sizes(arrays[0])))
    rows, rest = _rows(x, first, k)
    return rows, il.reshape(flat, (-1,)), picked, rest


def _rows(x: Any, first: int, k: int) -> tuple[Any, tuple[int, ...]]:
    """``x`` with its ``k`` axes from ``first`` moved first and flattened into rows, and the
    shape of the other axes."""
    shape = dim_sizes(x)
    rest = shape[:first] + shape[first + k :]
    if first:
        order = (
            tuple(range(first, first + k))
            + tuple(range(first))
            + tuple(range(first + k, len(shape)))
        )
        x = il.permute_dims(x, order)
    return reshape_to(x, (-1, *rest)), rest


def _block_back(first: int, p: int, ndim: int) -> tuple[int, ...]:
    """The axes order putting an indexed block of ``p`` axes, first in an array of ``ndim``,
    back where the indexed axes were (torch's rule for consecutive index arrays)."""
    return tuple(range(p, p + first)) + tuple(range(p)) + tuple(range(p + first, ndim))


@aten("index.Tensor", check=_check_index)
def index(x: Any, indices: Any) -> Any:
    """``x[i0, i1, ...]`` with integer index arrays on consecutive axes (None: a full slice):
    one ``take`` on the flattened indexed axes, so it runs on every backend (on torch, the
    captured op itself)."""
    natives = torch_natives(x, *indices)
    if natives is not None:
        return torch.ops.aten.index.Tensor(natives[0], natives[1:])
    rows, flat, picked, rest = _indexed_rows(x, indices)
    out = reshape_to(take_rows(rows, flat), (*picked, *rest))
    first = next(i for i, t in enumerate(indices) if t is not None)
    return out if first == 0 else il.permute_dims(out, _block_back(first, len(picked), _ndim(out)))


def index_rows(x: Any, flat: Any, first: int, k: int, picked: tuple[int, ...]) -> Any:
    """:func:`index` with index arrays known at capture: ``flat`` is their row numbers in the
    ``k`` indexed axes from ``first`` flattened (broadcast, non-negative, one axis), ``picked``
    their broadcast shape; the converter works them out once instead of on every call."""
    rows, rest = _rows(x, first, k)
    out = reshape_to(take_rows(rows, flat), (*picked, *rest))
    return out if first == 0 else il.permute_dims(out, _block_back(first, len(picked), _ndim(out)))


def _check_index_put(x: Any, indices: Any, values: Any, accumulate: bool = False) -> str | None:
    masks = [t for t in indices if isinstance(t, TensorMeta) and t.dtype == "bool"]
    if masks:
        shape = values.shape if isinstance(values, TensorMeta) else ()
        known = [d for d in shape if d is not None]  # None: a dynamic size, unknown
        numel = math.prod(known) if len(known) == len(shape) else None
        if len(indices) != 1 or accumulate or numel != 1:
            return "a boolean mask index beside others, or with several values (data-dependent)"
        return None
    return _check_index(x, indices)


@aten("index_put.default", check=_check_index_put, promote=(0, 2))
def index_put(x: Any, indices: Any, values: Any, accumulate: bool = False) -> Any:
    """A functionalized ``x[i0, i1, ...] = values`` (``+=`` with ``accumulate``): the values
    scattered into the rows of :func:`_indexed_rows`, then put back in ``x``'s layout.
    Repeated indices add up with ``accumulate``; without it torch leaves them undefined."""
    if indices[0] is not None and "bool" in str(indices[0].dtype):  # x[mask] = v, one value
        mask = il.reshape(indices[0], (*indices[0].shape, *(1,) * (_ndim(x) - _ndim(indices[0]))))
        filled = il.astype(il.broadcast_to(il.reshape(values, ()), tuple(x.shape)), x.dtype)
        return il.where(mask, filled, x)
    rows, flat, picked, rest = _indexed_rows(x, indices)
    first = next(i for i, t in enumerate(indices) if t is not None)
    block = (*picked, *rest)
    if first:  # values come in x[indices]'s layout: move the indexed block first
        shape = tuple(x.shape)
        k = len([t for t in indices if t is not None])
        target = (*shape[:first], *picked, *shape[first + k :])
        values = il.broadcast_to(values, target)
        p, n = len(picked), len(target)
        values = il.permute_dims(
            values,
            tuple(range(first, first + p)) + tuple(range(first)) + tuple(range(first + p, n)),
        )
    values = il.reshape(il.broadcast_to(il.astype(values, x.dtype), block), (-1, *rest))
    added = il.scatter_add(il.zeros_like(rows), flat, values)
    if accumulate:
        rows = il.add(rows, added)
    else:
        hit = il.scatter_add(
            _native(il.zeros(rows.shape[:1], dtype=il.int32)),
            flat,
            il.ones_like(flat, dtype=il.int32),
        )
        hit = il.reshape(il.greater(hit, 0), (-1, *(1,) * len(rest)))
        rows = il.where(hit, added, rows)
    shape = tuple(x.shape)
    k = len([t for t in indices if t is not None])
    moved_shape = (*shape[first : first + k], *shape[:first], *shape[first + k :])
    out = il.reshape(rows, moved_shape)
    return out if first == 0 else il.permute_dims(out, _block_back(first, k, len(shape)))


def _scatter_rows(x: Any, dim: int, index: Any, src: Any, assign: bool) -> Any:
    """torch's ``scatter``/``scatter_add``: ``out[..., index[p], ...] = src[p]`` (``+=``) for
    every position ``p`` of ``index``, as one ``scatter_add`` into ``x`` flattened."""
    shape = tuple(int(s) for s in x.shape)
    d = _axis(dim, len(shape))
    ishape = tuple(int(s) for s in index.shape)
    strides = [int(np.prod(shape[a + 1 :])) for a in range(len(shape))]
    coords = np.indices(ishape)
    base = sum(coords[a] * strides[a] for a in range(len(shape)) if a != d).astype(np.int32)
    i = il.where(il.less(index, 0), il.add(index, shape[d]), index)
    flat = il.reshape(il.add(_native(il.asarray(base)), il.multiply(i, strides[d])), (-1,))
    if isinstance(src, (int, float, bool)):
        src = il.full_like(x, src)
    cut = tuple(slice(0, n) for n in ishape)  # src may be larger than index: its corner
    values = il.reshape(il.astype(src[cut], x.dtype), (-1,))
    rows = il.reshape(x, (-1,))
    added = il.scatter_add(il.zeros_like(rows), flat, values)
    if assign:
        hit = il.scatter_add(
            _native(il.zeros(rows.shape, dtype=il.int32)), flat, il.ones_like(flat, dtype=il.int32)
        )
        rows = il.where(il.greater(hit, 0), added, rows)
    else:
        rows = il.add(rows, added)
    return il.reshape(rows, shape)


@aten("scatter.src", "scatter.value")
def scatter(x: Any, dim: int, index: Any, src: Any) -> Any:
    return _scatter_rows(x, dim, index, src, assign=True)


@aten("scatter_add.default")
def scatter_add(x: Any, dim: int, index: Any, src: Any) -> Any:
    return _scatter_rows(x, dim, index, src, assign=False)


# -- embedding bags ------------------------------------------------------------------------------
_BAG_MODES = ("sum", "mean", "max")


def _check_embedding_bag(
    weight: Any,
    indices: Any,
    offsets: Any,
    scale_grad_by_freq: bool = False,
    mode: int = 0,
    sparse: bool = False,
    per_sample_weights: Any = None,
    *rest: Any,
) -> str | None:
    if scale_grad_by_freq:
        return "scale_grad_by_freq=True"
    if sparse:
        return "sparse=True (sparse gradients)"
    if mode not in (0, 1, 2):
        return f"mode={mode}; 'sum', 'mean' and 'max' only"
    if per_sample_weights is not None and mode != 0:
        return f"per_sample_weights with mode='{_BAG_MODES[mode]}'; with mode='sum' only"
    if len(indices.shape) != 1 or len(offsets.shape) != 1:
        return "indices or offsets that are not 1-D"
    return None


def _reduce_bags(
    weight: Any,
    indices: Any,
    offsets: Any,
    mode: int,
    per_sample_weights: Any,
    include_last_offset: bool,
    padding_idx: int | None,
) -> Any:
    """Each bag's rows of ``weight`` (scaled by ``per_sample_weights``) reduced by ``mode``
    (0 sum, 1 mean, 2 max) with segment ops over the bag of each index. Indices equal to
    ``padding_idx`` get the id of no bag, which the segment ops drop: torch leaves them out
    of the sum, the mean's count and the max, and gives their row no gradient. An empty bag
    is zeros, as in torch. With ``include_last_offset`` the last offset is not a bag's start:
    torch documents it as ``len(indices)``, and the last bag runs to the end of ``indices``
    (torch's kernels disagree on a smaller one: the sum without ``padding_idx`` stops there,
    the other reductions run to the end, as here)."""
    num_bags = int(offsets.shape[0]) - (1 if include_last_offset else 0)
    offsets = il.astype(offsets, il.int32)
    positions = _native(il.arange(int(indices.shape[0]), dtype=il.int32))
    # each position's bag: the last start (offset) at or before it; torch starts the first at 0
    bags = il.subtract(il.searchsorted(offsets[:num_bags], positions, side="right"), 1)
    nowhere = il.full_like(bags, num_bags)
    if padding_idx is not None:
        bags = il.where(il.equal(indices, padding_idx), nowhere, bags)
    rows = il.take(weight, indices, axis=0)
    if mode == 2:
        return _bag_max(rows, bags, num_bags, positions)
    if per_sample_weights is not None:
        rows = il.multiply(rows, il.expand_dims(il.astype(per_sample_weights, rows.dtype), axis=-1))
    sums = il.segment_sum(rows, bags, num_bags)
    if mode == 0:
        return sums
    count = il.segment_sum(il.ones_like(rows[:, :1]), bags, num_bags)
    return il.divide(sums, il.maximum(count, 1.0))


def _bag_max(rows: Any, bags: Any, num_bags: int, positions: Any) -> Any:
    """Each bag's maxima (per column) as a sum of the one row entry picked for each: the
    first position holding the bag's maximum, as torch's kernel picks it (its
    ``max_indices``), so the gradient goes there alone, on every backend (``segment_max``'s
    own gradient treats ties differently from backend to backend). An empty bag picks
    nothing: zeros, as in torch."""
    top = il.segment_max(rows, bags, num_bags)  # -inf for an empty bag, never picked
    own = il.minimum(bags, num_bags - 1)  # the row of top to compare with (in_bag says if any)
    in_bag = il.expand_dims(il.less(bags, num_bags), axis=-1)
    at_top = il.logical_and(in_bag, il.equal(rows, il.take(top, own, axis=0)))
    back = il.negative(il.expand_dims(positions, axis=-1))  # the first position: the max of -p
    first = il.segment_max(il.where(at_top, back, -int(rows.shape[0])), bags, num_bags)
    picked = il.logical_and(at_top, il.equal(back, il.take(first, own, axis=0)))
    return il.segment_sum(il.where(picked, rows, 0.0), bags, num_bags)


@aten(
    "embedding_bag.padding_idx",
    "embedding_bag.default",
    check=_check_embedding_bag,
    outputs=(0,),
)
def embedding_bag(
    weight: Any,
    indices: Any,
    offsets: Any,
    scale_grad_by_freq: bool = False,
    mode: int = 0,
    sparse: bool = False,
    per_sample_weights: Any = None,
    include_last_offset: bool = False,
    padding_idx: int | None = None,
) -> tuple[Any, None, None, None]:
    """ATen's ``embedding_bag`` (``nn.EmbeddingBag``; a 2-D input comes as 1-D indices with
    offsets every row): only the bags' values (entry 0) are computed, see :func:`_reduce_bags`.
    A negative ``padding_idx`` counts from the end, None is no padding."""
    if padding_idx is not None and padding_idx < 0:
        padding_idx += int(weight.shape[0])
    bags = _reduce_bags(
        weight, indices, offsets, mode, per_sample_weights, include_last_offset, padding_idx
    )
    return bags, None, None, None


@aten(
    "_embedding_bag.default",
    "_embedding_bag_forward_only.default",
    check=_check_embedding_bag,
    outputs=(0,),
)
def embedding_bag_internal(
    weight: Any,
    indices: Any,
    offsets: Any,
    scale_grad_by_freq: bool = False,
    mode: int = 0,
    sparse: bool = False,
    per_sample_weights: Any = None,
    include_last_offset: bool = False,
    padding_idx: int = -1,
) -> tuple[Any, None, None, None]:
    """ATen's ``_embedding_bag`` (what ``embedding_bag`` decomposes into): as
    :func:`embedding_bag`, with ``padding_idx`` already wrapped and -1 for no padding."""
    return embedding_bag(
        weight,
        indices,
        offsets,
        scale_grad_by_freq,
        mode,
        sparse,
        per_sample_weights,
        include_last_offset,
        None if padding_idx < 0 else padding_idx,
    )

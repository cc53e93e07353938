"""mxnet backend: ops beyond the standard (``einsum``, ``one_hot``, ``logsumexp``, ``top_k``,
``scatter_add``, ``segment_sum``, ``segment_max``), with the meaning decided in
``ivy_like.ops.math``.

How, on MXNet 1.9.1:

* ``einsum`` is ``mx.np.einsum`` on zero-copy ``as_np_ndarray()`` views (autograd follows
  them), after promoting mixed dtypes (MXNet does not);
* ``one_hot`` compares with ``arange`` (``nd.one_hot`` reads indices through float32: 2**40
  became class 0);
* ``logsumexp`` takes the largest value out first and keeps it out of the gradient;
* ``top_k`` is this backend's stable descending ``argsort`` cut at ``k``;
* ``scatter_add`` and ``segment_sum`` are ``_backward_gather_nd``, the backward of
  ``gather_nd``: the one MXNet operator that adds repeated indices up (and has a gradient);
  indices out of range go to an extra row that is cut off;
* ``segment_max`` has no scatter in MXNet: each segment's rows are selected by comparing the
  ids with ``arange`` and reduced with ``max`` (memory: rows x segments x row size).

Float or bool indices, a non-int ``num_classes``/``num_segments`` and ``k`` past the end of the
axis are refused by the checks each op declares in ``ivy_like.ops.math``, before these kernels
run (MXNet reads indices as floats and slices leniently).
"""

from __future__ import annotations

import math
from typing import Any

import mxnet as mx
import numpy as np

from . import DEFAULT_FLOAT, DEFAULT_INT, NDArray, numpy_shapes
from . import sorting as _sorting
from ._helpers import _axes, _broadcast_to, _cast, _no_bool, _operands

nd = mx.nd
_SMALL_INTS = (np.dtype("int8"), np.dtype("uint8"))  # _backward_gather_nd refuses them


@numpy_shapes
def einsum(subscripts: Any, *operands: Any) -> Any:
    arrays, _ = _operands("einsum", *operands)
    views = [a.as_np_ndarray() for a in arrays]
    return mx.np.einsum(subscripts, *views).as_nd_ndarray()


@numpy_shapes
def one_hot(indices: Any, num_classes: Any, dtype: Any = None) -> Any:
    dtype = DEFAULT_FLOAT if dtype is None else np.dtype(dtype)
    shape = (*indices.shape, num_classes)
    if indices.size == 0 or num_classes == 0:
        return nd.zeros(shape, ctx=indices.context, dtype=dtype)
    classes = nd.arange(num_classes, ctx=indices.context, dtype=DEFAULT_INT)
    hits = nd.broadcast_equal(
        indices.astype(DEFAULT_INT).reshape((*indices.shape, 1)),
        classes.reshape((1,) * indices.ndim + (num_classes,)),
    )
    return hits.astype(dtype)


@numpy_shapes
def logsumexp(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    axes = _axes(x, axis, "logsumexp")
    kept = tuple(1 if i in axes else n for i, n in enumerate(x.shape))
    want = kept if keepdims else tuple(n for i, n in enumerate(x.shape) if i not in axes)
    if not axes:
        return nd.identity(x)  # the log of one exp
    if x.size == 0:  # MXNet reduces no empty array: the log of an empty sum is -inf
        return nd.full(want, -np.inf, ctx=x.context, dtype=x.dtype)
    top = nd.max(x, axis=axes, keepdims=True).reshape(kept)
    # -inf and inf stay in x (exp gives 0 and inf); (top - top) is 0 only where top is finite.
    top = nd.stop_gradient(nd.where((top - top) == 0, top, nd.zeros_like(top)))
    total = nd.sum(nd.exp(nd.broadcast_sub(x, top)), axis=axes, keepdims=True).reshape(kept)
    return (nd.log(total) + top).reshape(want)


@numpy_shapes
def top_k(x: Any, k: Any) -> tuple[Any, Any]:
    shape, n = (*x.shape[:-1], k), x.shape[-1]
    if k == 0 or x.size == 0:
        empty = nd.zeros(shape, ctx=x.context, dtype=DEFAULT_INT)
        return nd.zeros(shape, ctx=x.context, dtype=x.dtype), empty
    # The stable descending argsort keeps ties in index order and puts NaN first.
    order = _sorting.argsort(x, axis=-1, descending=True)
    order = nd.slice_axis(order, axis=-1, begin=0, end=k)
    rows = math.prod(x.shape[:-1])
    start = nd.arange(rows, ctx=x.context, dtype=DEFAULT_INT).reshape((rows, 1)) * n
    flat = nd.broadcast_add(order.reshape((rows, k)), start).reshape((-1,))
    values = nd.take(_no_bool(x).reshape((-1,)), flat).reshape(shape)
    return values.astype(x.dtype) if x.dtype == np.bool_ else values, order


def _rows(indices: Any, size: int, wrap: bool) -> Any:
    """Flat int64 row indices; negative ones count from the end when ``wrap``; the ones out of
    range point at row ``size``, an extra row the caller cuts off."""
    rows = indices.reshape((-1,)).astype(DEFAULT_INT)
    if wrap:
        rows = nd.where(rows < 0, rows + size, rows)
    keep = (rows >= 0) * (rows < size)
    return nd.where(keep, rows, nd.full(rows.shape, size, ctx=rows.context, dtype=DEFAULT_INT))


def _added(values: Any, rows: Any, count: int) -> Any:
    """Rows ``0 .. count - 1`` of zeros with ``values[i]`` added at row ``rows[i]``; repeated rows
    add up."""
    rest = tuple(values.shape[1:])
    if rows.size == 0 or values.size == 0:
        return nd.zeros((count, *rest), ctx=values.context, dtype=values.dtype)
    dtype = np.dtype(values.dtype)
    wide = values.astype(np.int32) if dtype in _SMALL_INTS else values
    out = nd._internal._backward_gather_nd(wide, rows.reshape((1, -1)), shape=(count, *rest))
    return out.astype(dtype) if wide is not values else out


@numpy_shapes
def scatter_add(x: Any, indices: Any, updates: Any) -> Any:
    if type(indices) is int:
        indices = nd.array(np.asarray(indices), ctx=x.context, dtype=DEFAULT_INT)
    n, rest = x.shape[0], tuple(x.shape[1:])
    dtype = np.dtype(x.dtype)
    if isinstance(updates, NDArray):
        updates = _cast(updates, dtype)
    else:
        updates = nd.array(np.asarray(updates, dtype=dtype), ctx=x.context, dtype=dtype)
    updates = _broadcast_to(updates, (*indices.shape, *rest)).reshape((-1, *rest))
    if n == 0:
        return nd.identity(x)
    added = _added(updates, _rows(indices, n, wrap=True), n + 1)
    return x + nd.slice_axis(added, axis=0, begin=0, end=n)


def _segment_rows(segment_ids: Any, num_segments: Any) -> Any:
    return _rows(segment_ids, num_segments, wrap=False)


@numpy_shapes
def segment_sum(data: Any, segment_ids: Any, num_segments: Any) -> Any:
    rows = _segment_rows(segment_ids, num_segments)
    if num_segments == 0:
        return nd.zeros((0, *data.shape[1:]), ctx=data.context, dtype=data.dtype)
    added = _added(data, rows, num_segments + 1)
    return nd.slice_axis(added, axis=0, begin=0, end=num_segments)


@numpy_shapes
def segment_max(data: Any, segment_ids: Any, num_segments: Any) -> Any:
    rows = _segment_rows(segment_ids, num_segments)
    dtype = np.dtype(data.dtype)
    lowest = -np.inf if dtype.kind == "f" else np.iinfo(dtype).min
    rest = tuple(data.shape[1:])
    m, size = data.shape[0], math.prod(rest)
    if m == 0 or num_segments == 0 or size == 0:
        return nd.full((num_segments, *rest), lowest, ctx=data.context, dtype=dtype)
    # (row, segment, element): the row's value where the row is in the segment, else lowest.
    segments = nd.arange(num_segments, ctx=data.context, dtype=DEFAULT_INT)
    member = nd.broadcast_equal(rows.reshape((m, 1)), segments.reshape((1, num_segments)))
    full = (m, num_segments, size)
    member = nd.broadcast_to(member.reshape((m, num_segments, 1)), shape=full)
    values = nd.broadcast_to(data.reshape((m, 1, size)), shape=full)
    filled = nd.where(member, values, nd.full(full, lowest, ctx=data.context, dtype=dtype))
    return nd.max(filled, axis=0).reshape((num_segments, *rest))  # max propagates NaN

"""mxnet backend: statistical, searching, sorting, set and utility functions (array API).

``mx.nd`` reductions (``cumsum``, ``prod``, ``mean``, ``sum``, ``argmax``/``argmin``) and
``mx.np.nonzero``, with the rules of ``ivy_like.ops`` applied where MXNet differs:

* ``argmax``/``argmin`` return float indices in MXNet and ignore NaN: they are cast to int64 and
  the first NaN wins (NumPy's rule, ours).
* integers and bools accumulate in int64 in ``cumulative_sum`` and ``prod`` (as in ``sum``),
  unsigned ones too: MXNet has no uint64 (documented in ``ivy_like.ops``, as for torch).
* ``var``/``std`` are NaN when ``N - correction <= 0``.

* MXNet's ``sort``/``argsort`` are not stable and misplace NaN (measured on 1.9.1: NaNs land
  among the numbers), and ``mx.np.unique`` merges NaNs and runs in NumPy on the host. Here
  ``argsort``/``sort`` are stable with NaN last, from three of MXNet's sorts on keys where
  stability and NaN do not matter (see ``_stable_argsort_rows``); the set functions build on
  that order (each NaN distinct), and ``searchsorted`` is a binary search in MXNet operators.
"""

from __future__ import annotations

import builtins
from typing import Any

import mxnet as mx
import numpy as np

from ivy_like.ops.set_functions import UniqueAllResult, UniqueCountsResult, UniqueInverseResult
from ivy_like.ops.statistical import _check_correction, _count, _cumulative_axis

from . import (
    _BOOL,
    DEFAULT_INT,
    _axes,
    _cast,
    _in_float32,
    _no_bool,
    _operands,
    _reduce,
    _supported,
    _truth,
    mean,
    numpy_shapes,
)
from . import sum as _sum

nd = mx.nd

__all__ = [
    "UNSUPPORTED_STATISTICAL",
    "all",
    "any",
    "argmax",
    "argmin",
    "argsort",
    "cumulative_sum",
    "nonzero",
    "prod",
    "searchsorted",
    "sort",
    "std",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
    "var",
]

UNSUPPORTED_STATISTICAL: dict[str, str] = {}


def _accumulator(x: Any, dtype: Any, who: str) -> Any:
    if dtype is None and (x.dtype == np.bool_ or np.dtype(x.dtype).kind in "iu"):
        dtype = DEFAULT_INT  # as NumPy does for signed integers (MXNet has no uint64)
    return x if dtype is None else _cast(_no_bool(x), _supported(np.dtype(dtype), who))


@numpy_shapes
@_in_float32(dtype_arg=True)
def cumulative_sum(
    x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> Any:
    """``mx.nd.cumsum`` along one axis.

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> B.to_numpy(B.cumulative_sum(mx.nd.array([1, 2, 3], dtype="int32"), include_initial=True))
    array([0, 1, 3, 6])
    """
    axis = _cumulative_axis(x.ndim, axis)
    x = _accumulator(x, dtype, "cumulative_sum")
    out = nd.cumsum(x, axis=axis) if x.size else nd.identity(x)
    if include_initial:
        shape = list(out.shape)
        shape[axis] = 1
        first = nd.zeros(tuple(shape), ctx=x.context, dtype=out.dtype)
        out = nd.concat(first, out, dim=axis) if out.size else first if out.ndim else out
        if x.shape[axis] == 0:
            out = first
    return out


@numpy_shapes
@_in_float32(dtype_arg=True)
def prod(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    x = _accumulator(x, dtype, "prod")
    axes = _axes(x, axis, "prod")
    if x.size == 0:  # the empty product is 1 (MXNet cannot reduce zero-size arrays)
        shape = tuple(
            1 if i in axes else n for i, n in enumerate(x.shape) if keepdims or i not in axes
        )
        return nd.ones(shape, ctx=x.context, dtype=x.dtype)
    return _reduce(nd.prod, x, axis, keepdims, "prod")


def _var(name: str, x: Any, axis: Any, correction: Any, keepdims: bool) -> Any:
    if np.dtype(x.dtype).kind != "f":
        raise TypeError(f"{name}: expected a real floating-point array, got {np.dtype(x.dtype)}")
    c = _check_correction(correction, name)
    n = _count(tuple(x.shape), axis, name)
    axes = _axes(x, axis, name)
    shape = tuple(1 if i in axes else s for i, s in enumerate(x.shape) if keepdims or i not in axes)
    if n - c <= 0:  # the standard's NaN
        return nd.full(shape, np.nan, ctx=x.context, dtype=x.dtype)
    centred = nd.broadcast_sub(
        x,
        mean(x, axis=axis, keepdims=True).reshape(
            tuple(1 if i in axes else s for i, s in enumerate(x.shape))
        ),
    )
    total = _sum(nd.square(centred), axis=axis, keepdims=keepdims)
    return total / (n - c)


@numpy_shapes  # outermost: the float32 round trip runs with NumPy shapes (0-d results)
@_in_float32
def var(x: Any, /, *, axis: Any = None, correction: Any = 0.0, keepdims: bool = False) -> Any:
    return _var("var", x, axis, correction, keepdims)


@numpy_shapes  # outermost: the float32 round trip runs with NumPy shapes (0-d results)
@_in_float32
def std(x: Any, /, *, axis: Any = None, correction: Any = 0.0, keepdims: bool = False) -> Any:
    return nd.sqrt(_var("std", x, axis, correction, keepdims))


def _arg(mx_op: Any, name: str) -> Any:
    @numpy_shapes
    def op(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
        flat = axis is None
        shape = tuple(x.shape)
        if flat:
            x, ax = x.reshape((-1,)), 0
        else:
            (ax,) = _axes(x, axis, name)
        if x.shape[ax] == 0:
            raise ValueError(f"{name}: attempt to get {name} of an empty sequence")
        xx = _no_bool(x)
        out = mx_op(xx, axis=ax).astype(DEFAULT_INT)
        if np.dtype(x.dtype).kind == "f":  # the first NaN wins (MXNet skips NaN)
            nan = nd.contrib.isnan(xx)
            has_nan = nd.max(nan, axis=ax)
            out = nd.where(has_nan, nd.argmax(nan, axis=ax).astype(DEFAULT_INT), out)
        if keepdims:
            want = (1,) * len(shape) if flat else shape[:ax] + (1,) + shape[ax + 1 :]
        else:
            want = () if flat else shape[:ax] + shape[ax + 1 :]
        return out if tuple(out.shape) == want else out.reshape(want)  # MXNet gives (1,) for ()

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``mx.nd.{name}`` as int64 indices; ties and NaN: the first one."
    return op


argmax = _arg(nd.argmax, "argmax")
argmin = _arg(nd.argmin, "argmin")


@numpy_shapes
def nonzero(x: Any, /) -> tuple[Any, ...]:
    """``mx.np.nonzero`` (MXNet's operator), one int64 index array per dimension.

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> [B.to_numpy(i) for i in B.nonzero(mx.nd.array([[0, 1], [2, 0]]))]
    [array([0, 1]), array([1, 0])]
    """
    if x.ndim == 0:
        raise ValueError("nonzero: x must have at least one dimension, got a 0-d array")
    if x.size == 0:
        return tuple(nd.zeros((0,), ctx=x.context, dtype=DEFAULT_INT) for _ in range(x.ndim))
    # NaN is non-zero: compare with 0 rather than reading the values as truth.
    mask = nd.broadcast_not_equal(_no_bool(x), nd.zeros_like(_no_bool(x)))
    return tuple(i.as_nd_ndarray().astype(DEFAULT_INT) for i in mx.np.nonzero(mask.as_np_ndarray()))


def _logical_reduce(x: Any, axis: Any, keepdims: bool, name: str) -> Any:
    axes = _axes(x, axis, name)
    shape = tuple(1 if i in axes else n for i, n in enumerate(x.shape) if keepdims or i not in axes)
    if x.size == 0 or not axes:
        if not axes:
            return nd.broadcast_not_equal(_no_bool(x), nd.zeros_like(_no_bool(x))).astype(_BOOL)
        return nd.full(shape, int(name == "all"), ctx=x.context, dtype=_BOOL)
    truth = _truth(nd.broadcast_not_equal(_no_bool(x), nd.zeros_like(_no_bool(x))))
    hits = _reduce(nd.sum, truth.astype(DEFAULT_INT), axis, keepdims, name)
    if name == "any":
        return nd.broadcast_greater(hits, nd.zeros_like(hits)).astype(_BOOL)
    size = builtins.max(1, _count(tuple(x.shape), axis, name))
    return nd.broadcast_equal(hits, nd.full(hits.shape, size, dtype=hits.dtype)).astype(_BOOL)


@numpy_shapes
def all(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return _logical_reduce(x, axis, keepdims, "all")


@numpy_shapes
def any(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return _logical_reduce(x, axis, keepdims, "any")


# -- sorting --------------------------------------------------------------------------------------
# MXNet's argsort is not stable and misplaces NaN. A stable order with NaN last comes from
# three of its sorts, each on keys where neither matters: an unstable argsort of the values
# (NaN read as +inf) gives each element its rank among distinct values; the inverse of that
# permutation (an argsort of distinct integers) brings the ranks back to the elements; then
# the distinct keys (NaN flag, rank, position) are sorted. Every index is int64 (MXNet's
# default, float32, is exact only to 2**24), and the float64 keys are exact below 2**53.
_INF = float("inf")


def _gather_rows(values: Any, indices: Any) -> Any:
    """``values[r, indices[r, j]]`` for a ``(rows, n)`` pair (differentiable: ``nd.take``)."""
    rows, n = indices.shape
    offsets = nd.arange(rows, ctx=indices.context, dtype=DEFAULT_INT).reshape((rows, 1)) * n
    flat = nd.broadcast_add(indices, offsets).reshape((-1,))
    return nd.take(values.reshape((-1,)), flat).reshape((rows, n))


def _stable_argsort_rows(x: Any) -> Any:
    """Ascending stable argsort of each row of a ``(rows, n)`` array, NaN last (int64)."""
    rows, n = x.shape
    if n == 1:  # (MXNet cannot slice the empty neighbour differences below)
        return nd.zeros((rows, 1), ctx=x.context, dtype=DEFAULT_INT)
    kind = np.dtype(x.dtype).kind
    if kind == "b" or x.dtype == np.float16:  # argsort takes neither: exact in float32
        x = x.astype(np.float32)
    nan = None
    if kind == "f":
        nan = nd.broadcast_not_equal(x, x)
        x = nd.where(nan, nd.full(x.shape, _INF, ctx=x.context, dtype=x.dtype), x)
    order = nd.argsort(x, axis=1, dtype=DEFAULT_INT)  # ties (and NaN, now +inf) in any order
    ranked = _gather_rows(x, order)
    steps = nd.broadcast_not_equal(
        nd.slice_axis(ranked, axis=1, begin=1, end=n),
        nd.slice_axis(ranked, axis=1, begin=0, end=n - 1),
    ).astype(np.float64)
    first = nd.zeros((rows, 1), ctx=x.context, dtype=np.float64)
    rank_in_order = nd.cumsum(nd.concat(first, steps, dim=1), axis=1)
    rank = _gather_rows(rank_in_order, nd.argsort(order, axis=1, dtype=DEFAULT_INT))
    if nan is not None:
        rank = rank + nan.astype(np.float64) * n  # after every number; NaNs keep their order
    position = nd.arange(n, ctx=x.context, dtype=np.float64).reshape((1, n))
    keys = nd.broadcast_add(rank * n, position)  # distinct: any sort is a stable one
    return nd.argsort(keys, axis=1, dtype=DEFAULT_INT)


def _stable_argsort(x: Any, axis: int) -> Any:
    """Ascending stable argsort along ``axis`` (non-negative), NaN last."""
    n = x.shape[axis]
    if x.size == 0 or n == 1:
        return nd.zeros(tuple(x.shape), ctx=x.context, dtype=DEFAULT_INT)
    x = _no_bool(x)  # swapaxes takes no bool
    moved = nd.swapaxes(x, axis, x.ndim - 1) if axis != x.ndim - 1 else x
    order = _stable_argsort_rows(moved.reshape((-1, n))).reshape(tuple(moved.shape))
    return nd.swapaxes(order, axis, x.ndim - 1) if axis != x.ndim - 1 else order


@numpy_shapes
def argsort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    if x.ndim == 0:
        _axes(x, axis, "argsort")
        return nd.zeros((), ctx=x.context, dtype=DEFAULT_INT)
    (axis,) = _axes(x, axis, "argsort")
    if not descending:
        return _stable_argsort(x, axis)
    # Descending and stable: the ascending order of the reversed array, reversed and mapped
    # back, keeps equal elements in their original order and puts NaN first.
    n = x.shape[axis]
    if x.size == 0:
        return _stable_argsort(x, axis)
    flipped = _stable_argsort(nd.flip(_no_bool(x), axis=axis), axis)
    return (n - 1) - nd.flip(flipped, axis=axis)


@numpy_shapes
def sort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    if x.ndim == 0:
        _axes(x, axis, "sort")
        return nd.identity(x)
    (axis,) = _axes(x, axis, "sort")
    if x.size == 0 or x.shape[axis] == 1:
        return nd.identity(x)
    order = _stable_argsort(x, axis)  # ascending; descending is its reverse (NaN first)
    if descending:
        order = nd.flip(order, axis=axis)
    last = x.ndim - 1
    data = _no_bool(x)
    moved = nd.swapaxes(data, axis, last) if axis != last else data
    moved_order = nd.swapaxes(order, axis, last) if axis != last else order
    n = x.shape[axis]
    values = _gather_rows(moved.reshape((-1, n)), moved_order.reshape((-1, n)))
    out = values.reshape(tuple(moved.shape))
    out = nd.swapaxes(out, axis, last) if axis != last else out
    return out.astype(_BOOL) if x.dtype == np.bool_ else out


@numpy_shapes
def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    """A binary search in MXNet operators over every value at once, NaN sorting last.

    ``log2(len(x1)) + 1`` steps of a gather and a comparison; NaN values of ``x2`` go to the
    first NaN of ``x1`` (``left``) or its end (``right``), as in NumPy.
    """
    if x1.ndim != 1:
        raise ValueError(f"searchsorted: x1 must be one-dimensional, got {x1.ndim}-d")
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    if sorter is not None:
        bounds = sorter.asnumpy()
        n = x1.shape[0]
        if bounds.size and (bounds.min() < -n or bounds.max() >= n):
            bad = bounds.max() if bounds.max() >= n else bounds.min()
            raise IndexError(f"searchsorted: sorter index {bad} is out of bounds for size {n}")
        x1 = nd.take(x1, _cast(sorter, DEFAULT_INT), mode="wrap")  # in range: wrap = NumPy's
    (x1, x2), _ = _operands("searchsorted", x1, x2)
    shape = tuple(x2.shape)
    n = x1.shape[0]
    if n == 0 or x2.size == 0:
        return nd.zeros(shape, ctx=x2.context, dtype=DEFAULT_INT)
    x1, values = _no_bool(x1), _no_bool(x2).reshape((-1,))
    numbers = n
    nan_values = None
    if np.dtype(x1.dtype).kind == "f":
        x1_nan = nd.broadcast_not_equal(x1, x1)
        numbers = n - int(nd.sum(x1_nan).asscalar())  # sorted: the NaNs are the tail
        x1 = nd.slice_axis(x1, axis=0, begin=0, end=numbers) if numbers else x1
        nan_values = nd.broadcast_not_equal(values, values)
    found = _binary_search(x1, values, side) if numbers else nd.zeros(values.shape, dtype="float64")
    if nan_values is not None:
        nan_at = float(numbers if side == "left" else n)
        found = nd.where(nan_values, nd.full(values.shape, nan_at, dtype="float64"), found)
    return found.astype(DEFAULT_INT).reshape(shape)


def _binary_search(x1: Any, values: Any, side: str) -> Any:
    """Positions (float64, exact) of ``values`` in the sorted NaN-free ``x1``."""
    n = x1.shape[0]
    goes_right = nd.broadcast_lesser if side == "left" else nd.broadcast_lesser_equal
    lo = nd.zeros(values.shape, ctx=values.context, dtype="float64")
    hi = nd.full(values.shape, float(n), ctx=values.context, dtype="float64")
    for _ in range(n.bit_length()):
        mid = nd.floor((lo + hi) / 2)
        probe = nd.take(x1, nd.minimum(mid, float(n - 1)))  # mid == n once lo == hi == n
        right = goes_right(probe, values).astype("float64")
        active = nd.broadcast_lesser(lo, hi).astype("float64")
        lo = nd.where(right * active, mid + 1, lo)
        hi = nd.where((1 - right) * active, mid, hi)
    return lo


# -- set functions --------------------------------------------------------------------------------
def _unique(x: Any) -> tuple[Any, Any, Any, Any]:
    """``(values, first indices, inverse, counts)`` from the stable sort: each NaN is its own
    value (the array API's rule; NaN != NaN), 0.0 and -0.0 are one (the first one met)."""
    flat = x.reshape((-1,))
    n = flat.shape[0]
    if n == 0:
        empty = nd.zeros((0,), ctx=x.context, dtype=DEFAULT_INT)
        return nd.identity(flat), empty, nd.zeros(tuple(x.shape), dtype=DEFAULT_INT), empty
    order = _stable_argsort_rows(flat.reshape((1, n))).reshape((n,))
    ordered = nd.take(_no_bool(flat), order)
    starts = nd.ones((1,), ctx=x.context, dtype=np.float64)
    if n > 1:
        steps = nd.broadcast_not_equal(
            nd.slice_axis(ordered, axis=0, begin=1, end=n),
            nd.slice_axis(ordered, axis=0, begin=0, end=n - 1),
        )
        starts = nd.concat(starts, steps.astype(np.float64), dim=0)
    (first,) = mx.np.nonzero(starts.as_np_ndarray())  # the output size is read here
    first = first.as_nd_ndarray().astype(DEFAULT_INT)
    values = nd.take(ordered, first)
    if x.dtype == np.bool_:
        values = values.astype(_BOOL)
    group = nd.cumsum(starts, axis=0) - 1
    inverse = nd.take(group, nd.argsort(order, dtype=DEFAULT_INT)).astype(DEFAULT_INT)
    ends = nd.concat(first, nd.full((1,), n, ctx=x.context, dtype=DEFAULT_INT), dim=0)
    counts = nd.slice_axis(ends, axis=0, begin=1, end=None) - first
    return values, nd.take(order, first), inverse.reshape(tuple(x.shape)), counts


@numpy_shapes
def unique_all(x: Any, /) -> UniqueAllResult:
    return UniqueAllResult(*_unique(x))


@numpy_shapes
def unique_counts(x: Any, /) -> UniqueCountsResult:
    values, _, _, counts = _unique(x)
    return UniqueCountsResult(values, counts)


@numpy_shapes
def unique_inverse(x: Any, /) -> UniqueInverseResult:
    values, _, inverse, _ = _unique(x)
    return UniqueInverseResult(values, inverse)


@numpy_shapes
def unique_values(x: Any, /) -> Any:
    return _unique(x)[0]

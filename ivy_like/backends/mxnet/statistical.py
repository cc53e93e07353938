"""mxnet backend: statistical, searching, sorting, set and utility functions (array API).

``mx.nd`` reductions (``cumsum``, ``prod``, ``mean``, ``sum``, ``argmax``/``argmin``) and
``mx.np.nonzero``, with the rules of ``ivy_like.ops`` applied where MXNet differs:

* ``argmax``/``argmin`` return float indices in MXNet and ignore NaN: they are cast to int64 and
  the first NaN wins (NumPy's rule, ours).
* integers and bools accumulate in int64 in ``cumulative_sum`` and ``prod`` (as in ``sum``),
  unsigned ones too: MXNet has no uint64 (documented in ``ivy_like.ops``, as for torch).
* ``var``/``std`` are NaN when ``N - correction <= 0``.

Unsupported (``UNSUPPORTED_STATISTICAL``): sorting, searching in sorted arrays and the set
functions. MXNet's ``sort``/``argsort`` are not stable and misplace NaN (measured on 1.9.1:
NaNs land among the numbers), and ``mx.np.unique`` merges NaNs and runs in NumPy on the host.
"""

from __future__ import annotations

import builtins
from typing import Any

import mxnet as mx
import numpy as np

from ivy_like.ops.statistical import _check_correction, _count, _cumulative_axis

from . import (
    _BOOL,
    DEFAULT_INT,
    _axes,
    _cast,
    _in_float32,
    _no_bool,
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
    "cumulative_sum",
    "nonzero",
    "prod",
    "std",
    "var",
]

_SORT = (
    "MXNet's sort/argsort are not stable and misplace NaN (they land among the numbers on "
    "MXNet 1.9.1); the array API needs a stable sort with NaN last"
)
_UNIQUE = (
    "mx.np.unique merges NaNs (the array API keeps each NaN) and is computed by NumPy on the "
    "host, not by an MXNet operator"
)
UNSUPPORTED_STATISTICAL = {
    "argsort": _SORT,
    "sort": _SORT,
    "searchsorted": "needs a sorted order with NaN last, which MXNet's sort does not give; "
    "MXNet's searchsorted is NumPy on the host",
    "unique_all": _UNIQUE,
    "unique_counts": _UNIQUE,
    "unique_inverse": _UNIQUE,
    "unique_values": _UNIQUE,
}


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

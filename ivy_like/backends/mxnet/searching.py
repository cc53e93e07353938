"""mxnet backend: array API searching functions.

``mx.nd.argmax``/``argmin`` return float indices and ignore NaN: they are cast to int64 and the
first NaN wins (NumPy's rule, ours). ``nonzero`` is ``mx.np.nonzero`` (NaN counts as non-zero),
and ``searchsorted`` is a binary search in MXNet operators (NaN sorting last). ``where`` is an
elementwise function (``elementwise.py``).
"""

from __future__ import annotations

from typing import Any

import mxnet as mx
import numpy as np

from .._common import searching as _searching
from . import DEFAULT_INT, numpy_shapes
from ._helpers import _axes, _cast, _no_bool, _operands

nd = mx.nd


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
    >>> from ivy_like.backends.mxnet import searching
    >>> [B.to_numpy(i) for i in searching.nonzero(mx.nd.array([[0, 1], [2, 0]]))]
    [array([0, 1]), array([1, 0])]
    """
    if x.ndim == 0:
        raise ValueError("nonzero: x must have at least one dimension, got a 0-d array")
    if x.size == 0:
        return tuple(nd.zeros((0,), ctx=x.context, dtype=DEFAULT_INT) for _ in range(x.ndim))
    # NaN is non-zero: compare with 0 rather than reading the values as truth.
    mask = nd.broadcast_not_equal(_no_bool(x), nd.zeros_like(_no_bool(x)))
    return tuple(i.as_nd_ndarray().astype(DEFAULT_INT) for i in mx.np.nonzero(mask.as_np_ndarray()))


@numpy_shapes
def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    """A binary search in MXNet operators over every value at once, NaN sorting last.

    ``log2(len(x1)) + 1`` steps of a gather and a comparison; NaN values of ``x2`` go to the
    first NaN of ``x1`` (``left``) or its end (``right``), as in NumPy.
    """
    _searching.check_searchsorted(x1.ndim, side)
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

"""mxnet backend: array API utility functions: ``all``, ``any`` and ``diff``.

``all``/``any``: a count of the non-zero elements (NaN is non-zero) with ``mx.nd.sum`` in int64,
compared with 0 or with the reduced size; zero-size reductions give the identity (``True`` for
``all``). ``diff`` slices with ``nd.slice_axis`` (this backend's ``getitem``, which the
declaration's composite uses, cannot slice a zero-size axis after the first) and builds an
empty result directly.
"""

from __future__ import annotations

import builtins
import operator
from typing import Any

import mxnet as mx
import numpy as np

from ivy_like.core.axes import normalize_axis

from .._common.statistical import reduction_count
from . import _BOOL, DEFAULT_INT, numpy_shapes
from ._helpers import _axes, _no_bool, _reduce, _truth
from .elementwise import subtract
from .manipulation import concat

nd = mx.nd


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
    size = builtins.max(1, reduction_count(tuple(x.shape), axis, name))
    return nd.broadcast_equal(hits, nd.full(hits.shape, size, dtype=hits.dtype)).astype(_BOOL)


@numpy_shapes
def all(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return _logical_reduce(x, axis, keepdims, "all")


@numpy_shapes
def any(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return _logical_reduce(x, axis, keepdims, "any")


@numpy_shapes
def diff(x: Any, /, *, axis: int = -1, n: int = 1, prepend: Any = None, append: Any = None) -> Any:
    """The declaration's ``diff`` with ``nd.slice_axis``.

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> from ivy_like.backends.mxnet import utility
    >>> B.to_numpy(utility.diff(mx.nd.array([1., 4., 9.]), prepend=mx.nd.array([0.])))
    array([1., 3., 5.], dtype=float32)
    """
    shape = tuple(x.shape)
    axis = normalize_axis(axis, len(shape), "diff")  # diff's check ran first
    n = operator.index(n)
    parts = [a for a in (prepend, x, append) if a is not None]
    final = list(shape)
    final[axis] = builtins.max(builtins.sum(a.shape[axis] for a in parts) - n, 0)
    if 0 in final:  # nothing to compute
        dtype = np.result_type(*(np.dtype(a.dtype) for a in parts))  # concat's promotion
        return nd.zeros(tuple(final), ctx=x.context, dtype=dtype)
    parts = [a for a in parts if a.shape[axis]]  # (zero-size parts join nothing)
    x = concat(parts, axis=axis) if len(parts) > 1 else parts[0]
    for _ in range(n):
        m = x.shape[axis]
        x = subtract(
            nd.slice_axis(x, axis=axis, begin=1, end=m),
            nd.slice_axis(x, axis=axis, begin=0, end=m - 1),
        )
    return x


def _shape(a: Any) -> tuple[int, ...]:
    return tuple(a.shape)

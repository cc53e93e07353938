"""mxnet backend: array API indexing functions: ``take``, ``take_along_axis``.

``mx.nd.take`` only clips or wraps out-of-range indices: ``take`` checks the bounds itself
(``IndexError``, as every backend) and then wraps negative indices; so does
``take_along_axis`` before its integer-array ``getitem`` (MXNet's gather reports an index out
of range only asynchronously, later). Boolean masks and the rest of ``x[key]`` are the
``getitem``/``setitem`` hooks of ``__init__.py``.
"""

from __future__ import annotations

from typing import Any

import mxnet as mx
import numpy as np

from ...ops.indexing import along_axis, along_axis_key
from .._common.indexing import check_bounds, take_axis
from . import NDArray, getitem, numpy_shapes, to_numpy
from ._helpers import _gather, _supported
from .creation import arange, asarray
from .manipulation import reshape

nd = mx.nd


@numpy_shapes
def take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
    """``mx.nd.take``; out-of-range indices raise ``IndexError`` (MXNet would clip or wrap).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> from ivy_like.backends.mxnet import indexing
    >>> B.to_numpy(indexing.take(mx.nd.array([1., 2., 3.]), mx.nd.array([2, -1], dtype="int64")))
    array([3., 3.], dtype=float32)
    """
    kind = np.dtype(indices.dtype).kind if hasattr(indices, "dtype") else None
    axis = take_axis(x.ndim, indices, axis, kind)
    if axis is None:
        x, axis = x.reshape((-1,)), 0
    if not isinstance(indices, NDArray):
        indices = asarray(indices)
    n = x.shape[axis]
    if indices.size:
        host = to_numpy(indices)
        lo, hi = int(host.min()), int(host.max())
        if lo < -n or hi >= n:
            raise IndexError(f"take: index {hi if hi >= n else lo} is out of bounds for size {n}")
    _supported(np.dtype(indices.dtype), "take")
    return _gather(x, indices.astype("int64"), axis)


@numpy_shapes
def take_along_axis(x: Any, indices: Any, /, *, axis: int = -1) -> Any:
    """The declaration's integer-array ``getitem``, after NumPy's bounds check on the host.

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> from ivy_like.backends.mxnet import indexing
    >>> x = mx.nd.array([[1., 2.], [3., 4.]])
    >>> B.to_numpy(indexing.take_along_axis(x, mx.nd.array([[1], [-1]], dtype="int64")))
    array([[2.],
           [4.]], dtype=float32)
    """
    kind = np.dtype(indices.dtype).kind if isinstance(indices, NDArray) else None
    shape = tuple(x.shape)
    axis = along_axis(shape, tuple(indices.shape) if kind else (), axis, kind)
    if indices.size:
        host = to_numpy(indices)
        check_bounds(int(host.min()), int(host.max()), shape[axis], axis)
    ishape = tuple(indices.shape)
    out = tuple(i if d == axis or a == 1 else a for d, (a, i) in enumerate(zip(shape, ishape)))
    if 0 in out:  # an empty result: built here (MXNet's gather cannot index with empty keys)
        return nd.zeros(out, ctx=x.context, dtype=x.dtype)
    return getitem(x, along_axis_key(shape, indices, axis, arange, reshape))

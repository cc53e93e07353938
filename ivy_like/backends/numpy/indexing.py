"""numpy backend: array API indexing functions.

``take`` calls ``np.take`` directly when the indices need no checks, else applies the shared
rules of ``ivy_like.ops.indexing`` first so every backend raises the same errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._common.indexing import check_bounds, take_axis


def take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
    if (
        type(indices) is np.ndarray
        and indices.dtype in _DIRECT_INDEX_DTYPES
        and (axis is None or type(axis) is int)
    ):
        # np.take already has the semantics (negatives from the end, IndexError out of range,
        # axis=None flattens); any error is re-raised below by the checked path's own call.
        try:
            if type(x) is np.ndarray:  # the method: np.take is a Python wrapper around it
                return x.take(indices, axis)
            return np.take(x, indices, axis=axis)
        except (IndexError, TypeError, ValueError):
            pass
    kind = indices.dtype.kind if isinstance(indices, (np.ndarray, np.generic)) else None
    axis = take_axis(np.ndim(x), indices, axis, kind)
    if kind == "u" and indices.dtype.itemsize == 8:
        # NumPy 1 refuses uint64 indices (no 'safe' cast to intp). Any index that fits the
        # axis fits intp, so only values beyond intp need their own IndexError.
        indices = np.asarray(indices)
        if indices.size and indices.max() > _INTP_MAX:
            size = np.size(x) if axis is None else np.shape(x)[axis]
            check_bounds(0, int(indices.max()), size, 0 if axis is None else axis)
        indices = indices.astype(np.intp)
    return np.take(x, indices, axis=axis)


_INTP_MAX = np.iinfo(np.intp).max
# Index dtypes np.take reads as they are. Not uint64: NumPy 2 casts it to intp, so 2**64 - 1
# becomes -1 (the last element, no error), and NumPy 1 refuses it.
_DIRECT_INDEX_DTYPES = frozenset(
    np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32)
)

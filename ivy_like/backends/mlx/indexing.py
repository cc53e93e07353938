"""mlx backend: array API indexing, ``take``.

``take`` checks the bounds of its indices as NumPy does (MLX would read out of range memory
silently), through this backend's bounds-checked ``getitem`` for anything but a 1-D integer
index array.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx

from .._common.indexing import take_axis
from . import _INTEGER, getitem
from ._helpers import _out_of_bounds


def take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
    if axis is None and type(indices) is mx.array and indices.size <= 16:
        # The common call, a short index vector into a vector, read once as a list: its
        # values give the bounds, and their type the kind (ints only for a 1-D integer index),
        # without the dtype and ndim reads that cost ~0.1 us each on an MLX array.
        try:
            values = indices.tolist()
        except ValueError:  # inside mx.compile / mx.vmap: the general path below
            values = None
        if type(values) is list and values and type(values[0]) is int:
            shape = x.shape
            if len(shape) == 1:
                size = shape[0]
                lo, hi = min(values), max(values)
                if hi >= size or lo < -size:
                    bad = hi if hi >= size else lo
                    raise IndexError(f"index {bad} is out of bounds for axis 0 with size {size}")
                if lo < 0 and size > 127 and size > _SIGNED_MAX.get(indices.dtype, size):
                    indices = indices.astype(mx.int64)  # see _take_checked
                return mx.take(x, indices, axis=0)
    kind = None
    if isinstance(indices, mx.array):
        kind = "i" if indices.dtype in _INTEGER else "f"
    axis = take_axis(x.ndim, indices, axis, kind)
    if axis is None:
        x, axis = (x if x.ndim == 1 else mx.reshape(x, (-1,))), 0
    if kind != "i" or indices.ndim != 1:
        return getitem(x, (slice(None),) * axis + (indices,))
    return _take_checked(x, indices, axis)


def _take_checked(x: Any, indices: Any, axis: int) -> Any:
    """``mx.take`` of a 1-D integer index array along ``axis``, after NumPy's bounds check.

    MLX wraps negative indices and would read out-of-range ones as garbage; this is cheaper
    than the general getitem.
    """
    size = x.shape[axis]
    bad = _out_of_bounds(indices, size) if indices.size else None  # None inside mx.compile
    if bad is not None:
        raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {size}")
    if size > 127 and size > _SIGNED_MAX.get(indices.dtype, size):
        indices = indices.astype(mx.int64)  # negatives wrap in the index dtype: widen first
    return mx.take(x, indices, axis=axis)


_SIGNED_MAX = {mx.int8: 2**7 - 1, mx.int16: 2**15 - 1, mx.int32: 2**31 - 1}

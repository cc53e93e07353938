"""mlx backend: array API creation, manipulation and indexing functions (issue 5).

Aliases of ``mlx.core`` after the shared rules of ``ivy_like.ops``. Gaps filled here:

* ``empty``/``empty_like`` give zeros (MLX has no uninitialised allocation);
* ``from_dlpack`` always copies (MLX cannot import CPU memory without a copy):
  ``copy=False`` raises ``BufferError``;
* ``repeat`` with an array of repeats (``mx.repeat`` takes an int): the repeats are
  evaluated and the source index of every output element is built with MLX's scatter-add
  and cumsum, then gathered with ``mx.take``;
* ``take`` goes through this backend's bounds-checked ``getitem`` (MLX would read out of
  range memory silently).
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx
import numpy as np

from ...ops.creation import _check_matrix, _check_meshgrid
from ...ops.indexing import _take_axis
from ...ops.manipulation import (
    _axes,
    _axis,
    _check_repeats_array,
    _moveaxis_perm,
    _repeat_count,
    _roll_args,
    _squeeze_axes,
    _tile_shapes,
)
from . import _INTEGER, DEFAULT_FLOAT, _out_of_bounds, _stream, asarray, getitem

__all__ = [
    "broadcast_arrays",
    "broadcast_to",
    "empty",
    "empty_like",
    "expand_dims",
    "flip",
    "from_dlpack",
    "full_like",
    "meshgrid",
    "moveaxis",
    "repeat",
    "roll",
    "squeeze",
    "take",
    "tile",
    "tril",
    "triu",
    "unstack",
]


# -- creation -------------------------------------------------------------------------------------
def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return mx.zeros(shape, dtype=dtype or DEFAULT_FLOAT, stream=_stream(device))


def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return mx.zeros(x.shape, dtype=dtype or x.dtype, stream=_stream(device))


def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    # mx.full(shape, 2.5, dtype=int32) keeps float32 (the value's kind wins): convert first.
    value = mx.array(fill_value, dtype=dtype or x.dtype)
    return mx.full(x.shape, value, stream=_stream(device))


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
    """Import a CPU DLPack object as a new ``mx.array`` (always a copy, keeping the dtype).

    ``copy=False`` raises ``BufferError`` (MLX cannot import CPU memory without a copy) unless
    ``x`` is already an ``mx.array``. Also the core's import helper (``from_dlpack(obj)``).

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.backends import mlx as B
    >>> B.from_dlpack(np.arange(3))
    array([0, 1, 2], dtype=int64)
    """
    _stream(device)  # validated; MLX arrays have no placement (unified memory)
    if isinstance(x, mx.array):
        return mx.array(x) if copy else x
    if copy is False:
        raise BufferError("from_dlpack: copy=False, but MLX must copy the data it imports")
    # Through NumPy (CPU objects, one copy): mx.from_dlpack would turn float64 into float32.
    return asarray(np.from_dlpack(x))


def meshgrid(*arrays: Any, indexing: str = "xy") -> tuple[Any, ...]:
    _check_meshgrid(arrays, indexing)
    return tuple(mx.meshgrid(*arrays, indexing=indexing))


def tril(x: Any, /, *, k: int = 0) -> Any:
    _check_matrix(x, "tril")
    return mx.tril(x, k)


def triu(x: Any, /, *, k: int = 0) -> Any:
    _check_matrix(x, "triu")
    return mx.triu(x, k)


# -- manipulation ---------------------------------------------------------------------------------
def broadcast_arrays(*arrays: Any) -> tuple[Any, ...]:
    return tuple(mx.broadcast_arrays(*arrays))


def broadcast_to(x: Any, /, shape: Any) -> Any:
    return mx.broadcast_to(x, shape)


def expand_dims(x: Any, /, *, axis: int = 0) -> Any:
    return mx.expand_dims(x, _axis(axis, x.ndim + 1, "expand_dims"))


def flip(x: Any, /, *, axis: Any = None) -> Any:
    axes = _axes(axis, x.ndim, "flip")
    return mx.flip(x, axis=axes) if axes else x


def moveaxis(x: Any, source: Any, destination: Any, /) -> Any:
    return mx.transpose(x, _moveaxis_perm(x.ndim, source, destination))


def repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
    if axis is None:
        x, axis = mx.reshape(x, (-1,)), 0
    else:
        axis = _axis(axis, x.ndim, "repeat")
    if not isinstance(repeats, mx.array):
        return mx.repeat(x, _repeat_count(repeats), axis=axis)
    size = x.shape[axis]
    kind = "i" if repeats.dtype in _INTEGER else "f"
    _check_repeats_array(tuple(repeats.shape), size, axis, kind)
    if repeats.size == 1:
        return mx.repeat(x, _repeat_count(repeats.item()), axis=axis)
    if repeats.size == 0:  # an empty axis stays empty
        return x
    if mx.any(repeats < 0).item():
        raise ValueError("repeat: repeats must be non-negative")
    # Output element j comes from the source index i with ends[i-1] <= j < ends[i]: mark +1 at
    # every end and take the running sum (a zero repeat marks the same place twice).
    ends = mx.cumsum(repeats.astype(mx.int64))
    total = ends[-1].item()
    marks = mx.zeros(total + 1, dtype=mx.int32).at[ends[:-1]].add(1)
    index = mx.cumsum(marks)[:total]
    return mx.take(x, index, axis=axis)


def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Any:
    shift, axis = _roll_args(shift, axis, x.ndim)
    return mx.roll(x, shift, axis)


def squeeze(x: Any, /, axis: Any) -> Any:
    axes = _squeeze_axes(x.shape, axis)
    return mx.squeeze(x, axes) if axes else x


def tile(x: Any, repetitions: Any, /) -> Any:
    _, reps = _tile_shapes(x.shape, repetitions)
    return mx.tile(x, reps)


def unstack(x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    axis = _axis(axis, x.ndim, "unstack")
    return tuple(mx.unstack(x, axis=axis)) if x.shape[axis] else ()


# -- indexing -------------------------------------------------------------------------------------
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
    axis = _take_axis(x.ndim, indices, axis, kind)
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

"""numpy backend: array API creation, manipulation and indexing functions (issue 5).

Mostly aliases; the shared rules of ``ivy_like.ops`` (axis checks, squeeze of a non-1 axis,
repeats) are applied first so every backend raises the same errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...ops.creation import _check_matrix, _check_meshgrid
from ...ops.indexing import _check_bounds, _take_axis
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
from . import DEFAULT_FLOAT

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
    return np.empty(shape, dtype=dtype or DEFAULT_FLOAT)


def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return np.empty_like(x, dtype=dtype)


def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return np.full_like(x, fill_value, dtype=dtype)


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
    """``np.from_dlpack`` with the standard's ``copy`` (also the core's import helper).

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.backends import numpy as B
    >>> B.from_dlpack(np.arange(2.0), copy=True)
    array([0., 1.])
    """
    if device not in (None, "cpu"):
        raise ValueError(
            f"from_dlpack: the numpy backend has only the 'cpu' device, got {device!r}"
        )
    if np.__version__ < "2":  # NumPy 1.x: no copy argument; from_dlpack always shares
        # ...and marks every import read-only, and cannot export a read-only array: NumPy
        # arrays (also inside an Array of this backend) are shared directly, as writable as
        # their source.
        if getattr(getattr(x, "backend", None), "name", None) == "numpy":
            x = x.data
        shared = x.view() if isinstance(x, np.ndarray) else np.from_dlpack(x)
        return shared.copy() if copy else shared
    if copy is None:
        return np.from_dlpack(x)
    return np.from_dlpack(x, copy=copy)


def meshgrid(*arrays: Any, indexing: str = "xy") -> tuple[Any, ...]:
    _check_meshgrid(arrays, indexing)
    return tuple(np.meshgrid(*arrays, indexing=indexing))


def tril(x: Any, /, *, k: int = 0) -> Any:
    _check_matrix(x, "tril")
    return np.tril(x, k=k)


def triu(x: Any, /, *, k: int = 0) -> Any:
    _check_matrix(x, "triu")
    return np.triu(x, k=k)


# -- manipulation ---------------------------------------------------------------------------------
def broadcast_arrays(*arrays: Any) -> tuple[Any, ...]:
    return tuple(np.broadcast_arrays(*arrays))


def broadcast_to(x: Any, /, shape: Any) -> Any:
    return np.broadcast_to(x, shape)


def expand_dims(x: Any, /, *, axis: int = 0) -> Any:
    return np.expand_dims(x, _axis(axis, np.ndim(x) + 1, "expand_dims"))


def flip(x: Any, /, *, axis: Any = None) -> Any:
    return np.flip(x, axis=_axes(axis, np.ndim(x), "flip"))


def moveaxis(x: Any, source: Any, destination: Any, /) -> Any:
    return np.transpose(x, _moveaxis_perm(np.ndim(x), source, destination))


def repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
    x = np.asarray(x)
    if axis is not None:
        axis = _axis(axis, x.ndim, "repeat")
    if isinstance(repeats, (np.ndarray, np.generic)):
        size = x.size if axis is None else x.shape[axis]
        _check_repeats_array(repeats.shape, size, axis, repeats.dtype.kind)
        if (repeats < 0).any():
            raise ValueError("repeat: repeats must be non-negative")
    else:
        repeats = _repeat_count(repeats)
    return np.repeat(x, repeats, axis=axis)


def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Any:
    shift, axis = _roll_args(shift, axis, np.ndim(x))
    return np.roll(x, shift, axis=axis)


def squeeze(x: Any, /, axis: Any) -> Any:
    return np.squeeze(x, axis=_squeeze_axes(np.shape(x), axis))


def tile(x: Any, repetitions: Any, /) -> Any:
    _, reps = _tile_shapes(np.shape(x), repetitions)
    return np.tile(x, reps)


def unstack(x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    axis = _axis(axis, np.ndim(x), "unstack")
    return tuple(np.moveaxis(np.asarray(x), axis, 0))


# -- indexing -------------------------------------------------------------------------------------
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
    axis = _take_axis(np.ndim(x), indices, axis, kind)
    if kind == "u" and indices.dtype.itemsize == 8:
        # NumPy 1 refuses uint64 indices (no 'safe' cast to intp). Any index that fits the
        # axis fits intp, so only values beyond intp need their own IndexError.
        indices = np.asarray(indices)
        if indices.size and indices.max() > _INTP_MAX:
            size = np.size(x) if axis is None else np.shape(x)[axis]
            _check_bounds(0, int(indices.max()), size, 0 if axis is None else axis)
        indices = indices.astype(np.intp)
    return np.take(x, indices, axis=axis)


_INTP_MAX = np.iinfo(np.intp).max
# Index dtypes np.take reads as they are. Not uint64: NumPy 2 casts it to intp, so 2**64 - 1
# becomes -1 (the last element, no error), and NumPy 1 refuses it.
_DIRECT_INDEX_DTYPES = frozenset(
    np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32)
)

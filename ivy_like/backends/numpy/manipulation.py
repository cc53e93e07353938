"""numpy backend: array API manipulation functions.

Mostly aliases; the shared rules of ``ivy_like.ops.manipulation`` (axis checks, squeeze of a
non-1 axis, repeats) are applied first so every backend raises the same errors, and ``copy=``
of ``reshape``/``astype`` follows the standard.
"""

from __future__ import annotations

from typing import Any

import numpy as np

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


def reshape(x: Any, /, shape: Any, *, copy: Any = None) -> Any:
    if copy:
        return np.array(np.reshape(x, shape), copy=True)
    out = np.reshape(x, shape)
    if copy is False and not np.shares_memory(out, x):
        raise ValueError("reshape: copy=False but the reshape needs a copy")
    return out


def permute_dims(x: Any, /, axes: Any) -> Any:
    return np.transpose(x, axes)


def concat(arrays: Any, /, *, axis: int | None = 0) -> Any:
    return np.concatenate(arrays, axis)  # positional: NumPy parses it faster


def stack(arrays: Any, /, *, axis: int = 0) -> Any:
    return np.stack(arrays, axis=axis)


def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    return np.asarray(x).astype(dtype, copy=copy)


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

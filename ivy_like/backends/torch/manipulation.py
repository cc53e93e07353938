"""torch backend: array API creation, manipulation and indexing functions (issue 5).

Aliases of torch after the shared rules of ``ivy_like.ops``; torch's own ``RuntimeError`` for
shapes that do not broadcast becomes NumPy's ``ValueError``. ``take`` uses this backend's
``getitem`` (which widens uint8 index tensors, read by torch as masks, to int64).
"""

from __future__ import annotations

from typing import Any

import torch

from ... import _dtypes as D
from ...ops.creation import _check_matrix, _check_meshgrid, _meshgrid_shapes
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
from . import DEFAULT_FLOAT, _shape, _sizes, getitem

_is_compiling = torch.compiler.is_compiling
_index_select = torch.index_select
_Tensor = torch.Tensor

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
    return torch.empty(*_sizes(shape), dtype=dtype or DEFAULT_FLOAT, device=device)


def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return torch.empty_like(x, dtype=dtype, device=device)


def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return torch.full_like(x, fill_value, dtype=dtype, device=device)


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
    """``torch.from_dlpack`` with the standard's ``device`` and ``copy`` (also the core's
    import helper).

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.backends import torch as B
    >>> B.from_dlpack(np.arange(2.0), copy=True)
    tensor([0., 1.], dtype=torch.float64)
    """
    return torch.from_dlpack(x, device=device, copy=copy)


def meshgrid(*arrays: Any, indexing: str = "xy") -> tuple[Any, ...]:
    _check_meshgrid(arrays, indexing)
    if len({a.dtype for a in arrays}) == 1:
        return tuple(torch.meshgrid(*arrays, indexing=indexing))
    # torch.meshgrid needs one dtype; NumPy keeps each input's.
    shape, views = _meshgrid_shapes([a.shape[0] for a in arrays], indexing)
    return tuple(a.reshape(v).expand(shape) for a, v in zip(arrays, views))


def tril(x: Any, /, *, k: int = 0) -> Any:
    _check_matrix(x, "tril")
    return torch.tril(x, diagonal=k)


def triu(x: Any, /, *, k: int = 0) -> Any:
    _check_matrix(x, "triu")
    return torch.triu(x, diagonal=k)


# -- manipulation ---------------------------------------------------------------------------------
def broadcast_arrays(*arrays: Any) -> tuple[Any, ...]:
    try:
        return tuple(torch.broadcast_tensors(*arrays))
    except RuntimeError as err:
        raise ValueError(f"broadcast_arrays: shapes do not broadcast ({err})") from None


def broadcast_to(x: Any, /, shape: Any) -> Any:
    try:
        return torch.broadcast_to(x, _shape(shape))
    except RuntimeError as err:
        raise ValueError(f"broadcast_to: cannot broadcast to {shape} ({err})") from None


def expand_dims(x: Any, /, *, axis: int = 0) -> Any:
    return torch.unsqueeze(x, _axis(axis, x.ndim + 1, "expand_dims"))


def flip(x: Any, /, *, axis: Any = None) -> Any:
    return torch.flip(x, _axes(axis, x.ndim, "flip"))


def moveaxis(x: Any, source: Any, destination: Any, /) -> Any:
    return torch.permute(x, _moveaxis_perm(x.ndim, source, destination))


def repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
    if axis is not None:
        axis = _axis(axis, x.ndim, "repeat")
    if isinstance(repeats, torch.Tensor):
        size = x.numel() if axis is None else x.shape[axis]
        _check_repeats_array(tuple(repeats.shape), size, axis, D.as_dtype(repeats.dtype).kind)
        if bool((repeats < 0).any()):
            raise ValueError("repeat: repeats must be non-negative")
        if repeats.numel() == 1:  # torch wants one count per element or a 0-d tensor
            repeats = repeats.reshape(())
        repeats = repeats.to(torch.int64)
    else:
        repeats = _repeat_count(repeats)
    return torch.repeat_interleave(x, repeats, dim=axis)


def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Any:
    shift, axis = _roll_args(shift, axis, x.ndim)
    if axis is None:
        return torch.roll(x, shift)
    return torch.roll(x, shift, axis)


def squeeze(x: Any, /, axis: Any) -> Any:
    axes = _squeeze_axes(tuple(x.shape), axis)
    # torch.squeeze(x, ()) would squeeze every axis of size 1.
    return torch.squeeze(x, axes) if axes else x.view(x.shape)


def tile(x: Any, repetitions: Any, /) -> Any:
    _, reps = _tile_shapes(tuple(x.shape), repetitions)
    return torch.tile(x, reps)


def unstack(x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    return torch.unbind(x, _axis(axis, x.ndim, "unstack"))


# -- indexing -------------------------------------------------------------------------------------


def take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
    # The common calls cost one index_select: it checks the bounds and the index dtype itself
    # (int32 or int64) and raises for negative or out-of-range indices, other dtypes and bad
    # axes, which the path below then handles with NumPy's meaning (negatives count from the
    # end) and message. Module-level names and one branch per axis form: ~0.3 µs less.
    if axis is None:
        if type(indices) is _Tensor and indices.ndim == 1 and x.ndim == 1 and not _is_compiling():
            try:
                return _index_select(x, 0, indices)
            except (IndexError, RuntimeError):
                pass
    elif type(axis) is int and type(indices) is _Tensor and indices.ndim == 1:
        if not _is_compiling():
            try:
                return _index_select(x, axis, indices)
            except (IndexError, RuntimeError):
                pass
    kind = None
    if isinstance(indices, torch.Tensor):
        kind = D.as_dtype(indices.dtype).kind
    axis = _take_axis(x.ndim, indices, axis, kind)
    if axis is None:
        x, axis = (x if x.ndim == 1 else torch.reshape(x, (-1,))), 0
    return getitem(x, (slice(None),) * axis + (indices,))

"""torch backend: array API manipulation functions.

Aliases of torch after the shared rules of ``ivy_like.ops.manipulation``; torch's own
``RuntimeError`` for shapes that do not broadcast becomes NumPy's ``ValueError``,
``reshape(copy=False)`` raises when a copy is needed, ``squeeze`` of no axis keeps every axis.
"""

from __future__ import annotations

import operator
from typing import Any

import torch

from ...core.axes import normalize_axes, normalize_axis
from ...ops.manipulation import pad_pairs
from .._common import manipulation as _manipulation
from .._common.manipulation import pad_sources, squeeze_axes
from ._helpers import _shape


def reshape(x: Any, /, shape: Any, *, copy: Any = None) -> Any:
    shape = _shape(shape)
    if copy:
        return torch.reshape(x, shape).clone()
    if copy is False:
        try:
            return x.view(shape)
        except RuntimeError:
            raise ValueError("reshape: copy=False but the reshape needs a copy") from None
    return torch.reshape(x, shape)


permute_dims = torch.permute


def concat(arrays: Any, /, *, axis: int | None = 0) -> Any:
    if axis == 0:
        return torch.cat(arrays)  # torch's default dim: giving it costs the parser ~0.12 µs
    if axis is None:
        return torch.cat([torch.reshape(a, (-1,)) for a in arrays])
    return torch.cat(arrays, axis)  # positional: cheaper for torch's parser than dim=


def stack(arrays: Any, /, *, axis: int = 0) -> Any:
    return torch.stack(arrays, dim=axis)


def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    return x.to(device=device, dtype=dtype, copy=copy)


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


expand_dims = _manipulation.expand_dims_by(torch.unsqueeze)


def flip(x: Any, /, *, axis: Any = None) -> Any:
    return torch.flip(x, normalize_axes(axis, x.ndim, "flip"))


moveaxis = _manipulation.moveaxis_by(torch.permute)


def repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
    if axis is not None:
        axis = normalize_axis(axis, x.ndim, "repeat")
    if isinstance(repeats, torch.Tensor):  # its shape and dtype: repeat's check
        if bool((repeats < 0).any()):
            raise ValueError("repeat: repeats must be non-negative")
        if repeats.numel() == 1:  # torch wants one count per element or a 0-d tensor
            repeats = repeats.reshape(())
        repeats = repeats.to(torch.int64)
    else:
        repeats = operator.index(repeats)
    return torch.repeat_interleave(x, repeats, dim=axis)


roll = _manipulation.roll_by(torch.roll)


def squeeze(x: Any, /, axis: Any) -> Any:
    axes = squeeze_axes(tuple(x.shape), axis)
    # torch.squeeze(x, ()) would squeeze every axis of size 1.
    return torch.squeeze(x, axes) if axes else x.view(x.shape)


tile = _manipulation.tile_by(torch.tile)


def unstack(x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    return torch.unbind(x, normalize_axis(axis, x.ndim, "unstack"))


def pad(x: Any, pad_width: Any, mode: str = "constant", constant_values: Any = 0) -> Any:
    pairs = pad_pairs(pad_width, x.ndim)
    if mode == "constant":
        if not any(map(any, pairs)):
            return x.clone()
        # F.pad takes the pairs last axis first; the value is cast to x's dtype as in NumPy.
        widths = [n for pair in reversed(pairs) for n in pair]
        value = torch.tensor(constant_values).to(x.dtype).item()
        return torch.nn.functional.pad(x, widths, value=value)
    # NumPy's reflect and edge (pad's check refused any other mode) as gathers: F.pad's reflect needs pads smaller than the axis and
    # works on the last 1-3 axes of batched inputs only.
    out = x
    for axis, sources in pad_sources(tuple(x.shape), pairs, mode):
        out = torch.index_select(out, axis, torch.tensor(sources, device=x.device))
    return out if out is not x else x.clone()

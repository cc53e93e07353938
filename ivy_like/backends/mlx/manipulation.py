"""mlx backend: array API manipulation functions.

Aliases of ``mlx.core`` after the shared rules of ``ivy_like.ops``. Gaps filled here:

* ``repeat`` with an array of repeats (``mx.repeat`` takes an int): the repeats are
  evaluated and the source index of every output element is built with MLX's scatter-add
  and cumsum, then gathered with ``mx.take``;
* ``reshape``'s ``copy=`` has no effect (MLX arrays are immutable values here: a copy and a
  view cannot be told apart).
"""

from __future__ import annotations

import operator
from typing import Any

import mlx.core as mx

from ...core.axes import normalize_axes, normalize_axis
from ...ops.manipulation import pad_pairs
from .._common import manipulation as _manipulation
from .._common.manipulation import pad_sources, squeeze_axes
from ._helpers import _stream

reshape = _manipulation.reshape_for(mx)
permute_dims = _manipulation.permute_dims_for(mx)
concat = mx.concatenate  # axis=None flattens first, as in NumPy
stack = mx.stack


def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    _stream(device)
    if not copy and x.dtype == dtype:
        return x
    return x.astype(dtype)


broadcast_arrays = _manipulation.broadcast_arrays_for(mx)
broadcast_to = _manipulation.broadcast_to_for(mx)
expand_dims = _manipulation.expand_dims_by(mx.expand_dims)


def flip(x: Any, /, *, axis: Any = None) -> Any:
    axes = normalize_axes(axis, x.ndim, "flip")
    return mx.flip(x, axis=axes) if axes else x


moveaxis = _manipulation.moveaxis_by(mx.transpose)


def repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
    if axis is None:
        x, axis = mx.reshape(x, (-1,)), 0
    else:
        axis = normalize_axis(axis, x.ndim, "repeat")
    if not isinstance(repeats, mx.array):
        return mx.repeat(x, operator.index(repeats), axis=axis)
    # An array of repeats: its shape and dtype are repeat's check's, its values read here.
    if repeats.size == 1:
        count = repeats.item()
        if count < 0:
            raise ValueError(f"repeat: repeats must be non-negative, got {count}")
        return mx.repeat(x, count, axis=axis)
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


roll = _manipulation.roll_by(mx.roll)


def squeeze(x: Any, /, axis: Any) -> Any:
    axes = squeeze_axes(x.shape, axis)
    return mx.squeeze(x, axes) if axes else x


tile = _manipulation.tile_by(mx.tile)


def unstack(x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    axis = normalize_axis(axis, x.ndim, "unstack")
    return tuple(mx.unstack(x, axis=axis)) if x.shape[axis] else ()


def pad(x: Any, pad_width: Any, mode: str = "constant", constant_values: Any = 0) -> Any:
    pairs = pad_pairs(pad_width, x.ndim)
    if mode == "constant":
        return mx.pad(x, pairs, constant_values=constant_values) if pairs else x
    # NumPy's reflect and edge (pad's check refused any other mode) as gathers: mx.pad has no
    # reflect mode.
    for axis, sources in pad_sources(x.shape, pairs, mode):
        x = mx.take(x, mx.array(sources), axis=axis)
    return x

"""jax backend: the array API manipulation functions.

Aliases of ``jax.numpy`` after the shared rules of ``ivy_like.ops`` (axis checks, squeeze of a
non-1 axis, repeats). ``astype`` moves to ``device=`` when given.
"""

from __future__ import annotations

import inspect
from typing import Any

import jax
import jax.numpy as jnp

from ...core import dtypes as D
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
from . import _device

# Immutable arrays: a copy and a view cannot be told apart, so ``copy`` changes nothing.
if "copy" in inspect.signature(jnp.reshape).parameters:
    # Newer JAX takes (and likewise ignores) copy=: the alias saves a Python frame, which
    # beside JAX's dispatch measured ~0.3 µs a call.
    reshape = jnp.reshape
else:

    def reshape(x: Any, /, shape: Any, *, copy: Any = None) -> Any:
        return jnp.reshape(x, shape)


permute_dims = jnp.transpose
concat = jnp.concatenate  # axis=None flattens first, as in NumPy
stack = jnp.stack


def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    out = jnp.astype(x, dtype, copy=copy)
    return out if device is None else jax.device_put(out, _device(device))


def broadcast_arrays(*arrays: Any) -> tuple[Any, ...]:
    return tuple(jnp.broadcast_arrays(*arrays))


def broadcast_to(x: Any, /, shape: Any) -> Any:
    return jnp.broadcast_to(x, shape)


def expand_dims(x: Any, /, *, axis: int = 0) -> Any:
    return jnp.expand_dims(x, _axis(axis, jnp.ndim(x) + 1, "expand_dims"))


def flip(x: Any, /, *, axis: Any = None) -> Any:
    return jnp.flip(x, axis=_axes(axis, jnp.ndim(x), "flip"))


def moveaxis(x: Any, source: Any, destination: Any, /) -> Any:
    return jnp.transpose(x, _moveaxis_perm(jnp.ndim(x), source, destination))


def repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
    if axis is not None:
        axis = _axis(axis, jnp.ndim(x), "repeat")
    if isinstance(repeats, (jax.Array, jax.core.Tracer)):
        size = jnp.size(x) if axis is None else jnp.shape(x)[axis]
        _check_repeats_array(tuple(repeats.shape), size, axis, D.as_dtype(repeats.dtype).kind)
        # Values known outside a trace are checked (JAX reads a negative count as 0).
        if not isinstance(repeats, jax.core.Tracer) and bool((repeats < 0).any()):
            raise ValueError("repeat: repeats must be non-negative")
    else:
        repeats = _repeat_count(repeats)
    return jnp.repeat(x, repeats, axis=axis)


def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Any:
    shift, axis = _roll_args(shift, axis, jnp.ndim(x))
    return jnp.roll(x, shift, axis=axis)


def squeeze(x: Any, /, axis: Any) -> Any:
    return jnp.squeeze(x, axis=_squeeze_axes(jnp.shape(x), axis))


def tile(x: Any, repetitions: Any, /) -> Any:
    _, reps = _tile_shapes(jnp.shape(x), repetitions)
    return jnp.tile(x, reps)


def unstack(x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    return tuple(jnp.unstack(x, axis=_axis(axis, jnp.ndim(x), "unstack")))

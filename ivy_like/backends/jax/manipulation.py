"""jax backend: array API creation, manipulation and indexing functions (issue 5).

Aliases of ``jax.numpy`` after the shared rules of ``ivy_like.ops`` (axis checks, squeeze of a
non-1 axis, repeats). ``take`` bounds-checks its indices as this backend's ``getitem`` does
(JAX itself would clamp or fill out-of-range indices silently), then calls ``jnp.take``.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ... import _dtypes as D
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
from . import (
    _BOUNDS_ATTR,
    DEFAULT_FLOAT,
    DEFAULT_INT,
    _ArrayImpl,
    _check_representable,
    _device,
    _index_max,
    _index_range,
    _key,
)


def _new_bounds(k: Any) -> tuple[int, int] | None:
    """``(min, max)`` of a concrete (``_ArrayImpl``) non-empty integer index array, read once
    and kept on the array; None for other indices. A few values are read here in one step
    (``_index_range``'s general path measured 0.5 µs more on a new 2-element index)."""
    if k.dtype.kind not in "iu":
        return None
    size = k.size
    if 0 < size <= 16:
        values = np.asarray(k).ravel().tolist()
        bounds = min(values), max(values)
        setattr(k, _BOUNDS_ATTR, bounds)
        return bounds
    return _index_range(k) if size else None


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
    return jnp.empty(shape, dtype=dtype or DEFAULT_FLOAT, device=_device(device))


def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return jnp.empty_like(x, dtype=dtype, device=_device(device))


def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return jnp.full_like(x, fill_value, dtype=dtype, device=_device(device))


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
    """``jnp.from_dlpack``; without 64-bit mode a 64-bit input raises ``TypeError``.

    ``copy=False`` raises ``BufferError`` where JAX cannot share the memory (unaligned data).

    Also the core's import helper (``from_dlpack(obj)``).

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.backends import jax as B
    >>> B.from_dlpack(np.ones(2, dtype=np.float32))
    Array([1., 1.], dtype=float32)
    """
    _check_representable(x, "from_dlpack")
    try:
        result = jnp.from_dlpack(x, device=_device(device), copy=copy)
    except (jax.errors.JaxRuntimeError, ValueError) as err:
        if copy is False:  # e.g. an unaligned buffer JAX cannot view (it says ValueError)
            raise BufferError(f"from_dlpack: copy=False, but JAX must copy ({err})") from None
        raise
    if copy:
        # jax 0.10 still shares a 64-byte aligned CPU buffer when asked to copy.
        result = result.copy()
    return result


def meshgrid(*arrays: Any, indexing: str = "xy") -> tuple[Any, ...]:
    _check_meshgrid(arrays, indexing)
    return tuple(jnp.meshgrid(*arrays, indexing=indexing))


def tril(x: Any, /, *, k: int = 0) -> Any:
    _check_matrix(x, "tril")
    return jnp.tril(x, k=k)


def triu(x: Any, /, *, k: int = 0) -> Any:
    _check_matrix(x, "triu")
    return jnp.triu(x, k=k)


# -- manipulation ---------------------------------------------------------------------------------
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


# -- indexing -------------------------------------------------------------------------------------
# jnp.take's own Python layer (argument checks before its gather) costs more than a jitted
# call of the same function: 5.28 against 4.55 us for a 3-vector here. The same gather, so
# the same values; JAX compiles per shape and dtype either way.
_take_vector = jax.jit(jnp.take)


def take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
    if type(indices) is _ArrayImpl and axis is None and type(x) is _ArrayImpl:
        # The common call, shortened: concrete integer indices into a vector whose bounds are
        # known (kept on the array once read). Each JAX attribute is read at most once (each
        # is a Python property): beside JAX's own dispatch every Python step here measured two
        # to three times its cost in isolation.
        bounds = getattr(indices, _BOUNDS_ATTR, None) or _new_bounds(indices)
        shape = x.shape
        if bounds and len(shape) == 1:
            size = shape[0]
            # In range, and (small axes aside: int8 reaches 127) no wrap in the index dtype.
            if -size <= bounds[0] and bounds[1] < size:
                if size <= 127 or size <= _index_max(indices.dtype):
                    return _take_vector(x, indices)
    dt = getattr(indices, "dtype", None)
    axis = _take_axis(x.ndim, indices, axis, None if dt is None else np.dtype(dt).kind)
    if axis is None:  # flatten (a no-op for 1-D x, skipped: a reshape costs ~15 µs)
        x, axis = (x if x.ndim == 1 else jnp.reshape(x, (-1,))), 0
    if dt is None:  # a Python int: getitem's checks
        indices = _key(x, (slice(None),) * axis + (indices,))[axis]
        return jnp.take(x, indices, axis=axis)
    size = x.shape[axis]
    if not isinstance(indices, jax.core.Tracer) and indices.size:
        # Concrete indices are bounds-checked (JAX would fill or clamp); traced ones cannot be.
        _check_bounds(*_index_range(indices), size, axis)
    if size > _index_max(dt):
        # JAX wraps negative indices with ``size`` in the index dtype, which would overflow.
        indices = indices.astype(DEFAULT_INT)
    # jnp.take: one cached gather, where x[..., indices] dispatches several primitives. For
    # 1-D x the axis is left out: jnp.take's cache answers that call form fastest.
    if x.ndim == 1:
        return jnp.take(x, indices)
    return jnp.take(x, indices, axis=axis)

"""jax backend: the array API manipulation functions.

Aliases of ``jax.numpy`` after the shared rules of ``ivy_like.ops`` (axis checks, squeeze of a
non-1 axis, repeats); those that are the same code in numpy are written once in
``_common/manipulation.py``. ``astype`` moves to ``device=`` when given.
"""

from __future__ import annotations

import inspect
from typing import Any

import jax
import jax.numpy as jnp

from ...core.axes import normalize_axis
from ...ops.manipulation import pad_pairs
from .._common import manipulation as _manipulation
from . import _device

# Immutable arrays: a copy and a view cannot be told apart, so ``copy`` changes nothing.
if "copy" in inspect.signature(jnp.reshape).parameters:
    # Newer JAX takes (and likewise ignores) copy=: the alias saves a Python frame, which
    # beside JAX's dispatch measured ~0.3 µs a call.
    reshape = jnp.reshape
else:
    reshape = _manipulation.reshape_for(jnp)


permute_dims = jnp.transpose
concat = jnp.concatenate  # axis=None flattens first, as in NumPy
stack = jnp.stack


def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    out = jnp.astype(x, dtype, copy=copy)
    return out if device is None else jax.device_put(out, _device(device))


broadcast_arrays = _manipulation.broadcast_arrays_for(jnp)
broadcast_to = _manipulation.broadcast_to_for(jnp)
expand_dims = _manipulation.expand_dims_for(jnp)
flip = _manipulation.flip_for(jnp)
moveaxis = _manipulation.moveaxis_for(jnp)


# Counts known outside a trace are checked; a traced array's values cannot be read.
repeat = _manipulation.repeat_for(
    jnp, (jax.Array, jax.core.Tracer), lambda r: not isinstance(r, jax.core.Tracer)
)
roll = _manipulation.roll_for(jnp)
squeeze = _manipulation.squeeze_for(jnp)
tile = _manipulation.tile_for(jnp)


def unstack(x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    return tuple(jnp.unstack(x, axis=normalize_axis(axis, jnp.ndim(x), "unstack")))


def pad(x: Any, pad_width: Any, mode: str = "constant", constant_values: Any = 0) -> Any:
    # NumPy's forms of pad_width made pairs first: jnp.pad refuses ((b,), (a,)), and the empty
    # pairs of a 0-d x (which is returned as it is).
    pairs = pad_pairs(pad_width, jnp.ndim(x))
    if mode == "constant":
        return jnp.pad(x, pairs, constant_values=constant_values) if pairs else x
    return jnp.pad(x, pairs, mode=mode) if pairs else x  # reflect or edge (pad's check)

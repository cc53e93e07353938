"""numpy backend: array API manipulation functions.

Mostly aliases; the shared rules of ``ivy_like.ops.manipulation`` (axis checks, squeeze of a
non-1 axis, repeats) are applied first so every backend raises the same errors, and ``copy=``
of ``reshape``/``astype`` follows the standard. The kernels that are the same code in jax are
written once in ``_common/manipulation.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.axes import normalize_axis
from .._common import manipulation as _manipulation


def reshape(x: Any, /, shape: Any, *, copy: Any = None) -> Any:
    if copy:
        return np.array(np.reshape(x, shape), copy=True)
    out = np.reshape(x, shape)
    if copy is False and not np.shares_memory(out, x):
        raise ValueError("reshape: copy=False but the reshape needs a copy")
    return out


permute_dims = _manipulation.permute_dims_for(np)


def concat(arrays: Any, /, *, axis: int | None = 0) -> Any:
    return np.concatenate(arrays, axis)  # positional: NumPy parses it faster


def stack(arrays: Any, /, *, axis: int = 0) -> Any:
    return np.stack(arrays, axis=axis)


def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    return np.asarray(x).astype(dtype, copy=copy)


broadcast_arrays = _manipulation.broadcast_arrays_for(np)
broadcast_to = _manipulation.broadcast_to_for(np)
expand_dims = _manipulation.expand_dims_for(np)
flip = _manipulation.flip_for(np)
moveaxis = _manipulation.moveaxis_for(np)


repeat = _manipulation.repeat_for(np, (np.ndarray, np.generic))
roll = _manipulation.roll_for(np)
squeeze = _manipulation.squeeze_for(np)
tile = _manipulation.tile_for(np)


def unstack(x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    axis = normalize_axis(axis, np.ndim(x), "unstack")
    return tuple(np.moveaxis(np.asarray(x), axis, 0))


def pad(x: Any, pad_width: Any, mode: str = "constant", constant_values: Any = 0) -> Any:
    if mode == "constant":
        return np.pad(x, pad_width, constant_values=constant_values)
    # "reflect" or "edge": pad's check refused the other modes of np.pad.
    return np.pad(x, pad_width, mode="reflect" if mode == "reflect" else "edge")

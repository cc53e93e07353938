"""jax backend: the array API searching functions (``where`` is in ``elementwise.py``).

``jax.numpy`` already follows NumPy for NaN in ``argmax``/``argmin``/``searchsorted``;
wrappers add the checks of the standard (``nonzero`` of a 0-d array, a 1-D ``searchsorted``
and its ``side``) and return ``searchsorted``'s indices in the default integer.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from . import DEFAULT_INT


def argmax(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    return jnp.argmax(x, axis=axis, keepdims=keepdims)


def argmin(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    return jnp.argmin(x, axis=axis, keepdims=keepdims)


def nonzero(x: Any, /) -> tuple[Any, ...]:
    if x.ndim == 0:
        raise ValueError("nonzero: x must have at least one dimension, got a 0-d array")
    return jnp.nonzero(x)


def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    if jnp.ndim(x1) != 1:
        raise ValueError(f"searchsorted: x1 must be one-dimensional, got {jnp.ndim(x1)}-d")
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    return jnp.searchsorted(x1, x2, side=side, sorter=sorter).astype(DEFAULT_INT)

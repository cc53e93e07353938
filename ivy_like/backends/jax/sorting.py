"""jax backend: the array API sorting functions ``argsort`` and ``sort``.

``jax.numpy`` already follows NumPy for NaN and stable descending sorts; both always sort
stably.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp


def argsort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    # jax's descending stable sort keeps equal elements in order and puts NaN first (checked).
    return jnp.argsort(x, axis=axis, descending=descending, stable=True)


def sort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    return jnp.sort(x, axis=axis, descending=descending, stable=True)

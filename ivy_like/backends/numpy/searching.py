"""numpy backend: array API searching functions.

NumPy's own functions (NaN first and ties first in ``argmax``/``argmin``, ivy_like's rule),
with the standard's checks on ``nonzero`` (no 0-d input) and ``searchsorted`` (1-D ``x1``,
``side``). ``where`` is an elementwise op (``elementwise.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np


def argmax(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    return np.argmax(x, axis=axis, keepdims=keepdims)  # NaN first, ties first: our rule


def argmin(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    return np.argmin(x, axis=axis, keepdims=keepdims)


def nonzero(x: Any, /) -> tuple[Any, ...]:
    x = np.asarray(x)
    if x.ndim == 0:
        raise ValueError("nonzero: x must have at least one dimension, got a 0-d array")
    return np.nonzero(x)


def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    if np.ndim(x1) != 1:
        raise ValueError(f"searchsorted: x1 must be one-dimensional, got {np.ndim(x1)}-d")
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    return np.searchsorted(x1, x2, side=side, sorter=sorter)

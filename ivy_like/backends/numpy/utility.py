"""numpy backend: array API utility functions (``all``, ``any``), NumPy's own."""

from __future__ import annotations

from typing import Any

import numpy as np


def all(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return np.all(x, axis=axis, keepdims=keepdims)


def any(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return np.any(x, axis=axis, keepdims=keepdims)

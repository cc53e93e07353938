"""numpy backend: array API sorting functions.

Always NumPy's stable sort; descending sorts stay stable (equal elements keep their original
order), the rule of ``ivy_like.ops.sorting``.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def argsort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    x = np.asarray(x)
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    # Descending and stable: sort the reversed array stably, reverse back and map the
    # positions; equal elements keep their original order and NaN (last ascending) comes first.
    n = x.shape[axis]
    return n - 1 - np.flip(np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)


def sort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    out = np.sort(x, axis=axis, kind="stable")
    return np.flip(out, axis) if descending else out

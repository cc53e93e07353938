"""numpy backend: array API utility functions (``all``, ``any``, ``diff``), NumPy's own.

``diff`` applies the declaration's checks first, and joins ``prepend``/``append`` for ``n=0``
as the standard says (``np.diff`` returns ``x`` alone there).
"""

from __future__ import annotations

import builtins
import operator
from typing import Any

import numpy as np

from ivy_like.core.axes import normalize_axis


def all(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return np.all(x, axis=axis, keepdims=keepdims)


def any(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return np.any(x, axis=axis, keepdims=keepdims)


def diff(x: Any, /, *, axis: int = -1, n: int = 1, prepend: Any = None, append: Any = None) -> Any:
    x = np.asarray(x)
    axis = normalize_axis(axis, x.ndim, "diff")  # diff's check ran first
    ends = {k: v for k, v in (("prepend", prepend), ("append", append)) if v is not None}
    n = operator.index(n)
    if n == 0:
        parts = [a for a in (prepend, x, append) if a is not None]
        return np.concatenate(parts, axis=axis) if len(parts) > 1 else x
    # np.diff takes one step a value of n: past the axis length each step is empty.
    length = x.shape[axis] + builtins.sum(np.shape(a)[axis] for a in ends.values())
    return np.diff(x, n=builtins.min(n, builtins.max(length, 1)), axis=axis, **ends)

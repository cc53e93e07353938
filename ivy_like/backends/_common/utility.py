"""Utility kernels written once for several backends (see ``_common/__init__.py``).

``diff_for`` builds ``diff`` from a backend's own ``concat`` and ``subtract`` (so ``prepend`` and
``append`` promote as ``concat`` does there) and a ``step`` that takes the two shifted slices
along an axis. The checks are the declaration's (``ops/utility.py``), run first.
"""

from __future__ import annotations

import builtins
import operator
from collections.abc import Callable
from typing import Any

from ivy_like.core.axes import normalize_axis

Kernel = Callable[..., Any]


def diff_for(concat: Kernel, subtract: Kernel, shifted: Kernel, shape_of: Kernel) -> Kernel:
    """``diff`` for a backend: ``shifted(x, axis)`` returns ``(x[1:], x[:-1])`` along
    ``axis``, ``shape_of`` an array's shape as a tuple (diff's declared check read the dtype
    and the arguments before)."""

    def diff(
        x: Any, /, *, axis: int = -1, n: int = 1, prepend: Any = None, append: Any = None
    ) -> Any:
        shape = shape_of(x)
        axis = normalize_axis(axis, len(shape), "diff")  # diff's check ran first
        parts = [a for a in (prepend, x, append) if a is not None]
        if len(parts) > 1:
            x = concat(parts, axis=axis)
        # After as many steps as the axis has values it is empty, and stays so: stop there.
        for _ in range(builtins.min(operator.index(n), shape_of(x)[axis])):
            x = subtract(*shifted(x, axis))
        return x

    return diff

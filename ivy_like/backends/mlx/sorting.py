"""mlx backend: array API sorting functions.

MLX's CPU sort is a stable sort with NaN last (``std::stable_sort`` with an index
tie-break); it has no descending sort: the descending ones are built here from the reversed
axis (stable, NaN first), and ``argsort``'s uint32 indices are cast to ``DEFAULT_INT``.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx

from . import DEFAULT_INT


def _flip(x: Any, axis: int) -> Any:
    key = [slice(None)] * x.ndim
    key[axis] = slice(None, None, -1)
    return x[tuple(key)]


def argsort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    if not descending:
        return mx.argsort(x, axis=axis).astype(DEFAULT_INT)
    # Stable descending: sort the reversed axis stably, reverse back, map the positions;
    # equal elements keep their order and NaN (last ascending) comes first.
    n = x.shape[axis]
    idx = _flip(mx.argsort(_flip(x, axis), axis=axis), axis).astype(DEFAULT_INT)
    return n - 1 - idx


def sort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    out = mx.sort(x, axis=axis)
    return _flip(out, axis) if descending else out

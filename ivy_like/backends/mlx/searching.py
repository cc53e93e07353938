"""mlx backend: array API searching functions.

MLX's ``argmax`` picks the first NaN and its ``searchsorted`` follows NumPy (NaN last), so
these are aliases plus a cast of the uint32 indices MLX returns to ``DEFAULT_INT`` (int32);
``nonzero`` (MLX has none) is a stable sort of "is zero", which evaluates ``x`` for the
output size.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx

from . import DEFAULT_INT


def argmax(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    return mx.argmax(x, axis=axis, keepdims=keepdims).astype(DEFAULT_INT)


def argmin(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    return mx.argmin(x, axis=axis, keepdims=keepdims).astype(DEFAULT_INT)


def nonzero(x: Any, /) -> tuple[Any, ...]:
    if x.ndim == 0:
        raise ValueError("nonzero: x must have at least one dimension, got a 0-d array")
    flat = (x if x.dtype == mx.bool_ else x != 0).reshape(-1)
    count = int(mx.sum(flat).item())  # the output size: evaluates x
    # A stable sort of "is zero" puts the non-zero positions first, in increasing order.
    pos = mx.argsort(mx.logical_not(flat))[:count].astype(DEFAULT_INT)
    out = []
    for size in reversed(x.shape):  # unravel the flat positions, last axis first
        out.append(pos % size)
        pos = pos // size
    return tuple(reversed(out))


def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    if x1.ndim != 1:
        raise ValueError(f"searchsorted: x1 must be one-dimensional, got {x1.ndim}-d")
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    if sorter is not None:
        x1 = mx.take(x1, sorter)
    if not isinstance(x2, mx.array):
        x2 = mx.array(x2)
    return mx.searchsorted(x1, x2, side=side).astype(DEFAULT_INT)  # NaN last, as NumPy

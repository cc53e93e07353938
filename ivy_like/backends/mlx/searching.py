"""mlx backend: array API searching functions.

MLX's ``argmax`` picks the first NaN and its ``searchsorted`` follows NumPy (NaN last), so
these are aliases plus a cast of the uint32 indices MLX returns to ``DEFAULT_INT`` (int32);
``nonzero`` (MLX has none) is a stable sort of "is zero", which evaluates ``x`` for the
output size.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx

from .._common import searching as _searching
from . import DEFAULT_INT

argmax = _searching.argmax_for(mx, DEFAULT_INT)
argmin = _searching.argmin_for(mx, DEFAULT_INT)


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
    _searching.check_searchsorted(x1.ndim, side)
    if sorter is not None:
        x1 = mx.take(x1, sorter)
    if not isinstance(x2, mx.array):
        x2 = mx.array(x2)
    return mx.searchsorted(x1, x2, side=side).astype(DEFAULT_INT)  # NaN last, as NumPy

"""mlx backend: array API utility functions, ``all`` and ``any`` on ``mx.all``/``mx.any``
with the axes checked by the shared rule of ``ivy_like.ops.statistical``. Zero-size input is
reduced without MLX, as in ``statistical.py`` (``_of_nothing``: MLX reads stray memory there).
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx

from ._helpers import _reduce_axes
from .statistical import _of_nothing


def all(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    if x.size:
        return mx.all(x, axis=_reduce_axes(x, axis, "all"), keepdims=keepdims)
    return _of_nothing(x, axis, keepdims, True, mx.bool_, "all")


def any(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    if x.size:
        return mx.any(x, axis=_reduce_axes(x, axis, "any"), keepdims=keepdims)
    return _of_nothing(x, axis, keepdims, False, mx.bool_, "any")

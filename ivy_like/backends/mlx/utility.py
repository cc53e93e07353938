"""mlx backend: array API utility functions, ``all`` and ``any`` on ``mx.all``/``mx.any``
with the axes checked by the shared rule of ``ivy_like.ops.statistical``.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx

from ._helpers import _reduce_axes


def all(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return mx.all(x, axis=_reduce_axes(x, axis, "all"), keepdims=keepdims)


def any(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return mx.any(x, axis=_reduce_axes(x, axis, "any"), keepdims=keepdims)

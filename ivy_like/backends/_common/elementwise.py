"""Elementwise kernels shared by several backends: factories that return the kernel itself.

``clip_for`` is ``clip`` on every backend: the rules of ``ivy_like.ops.elementwise._clip`` over
the backend's own ``maximum``/``minimum``/``astype`` kernels. ``copysign_for`` composes
``copysign`` from the sign bit where the framework has none (mlx, tensorflow).
"""

from __future__ import annotations

from typing import Any, Callable

from ...ops.elementwise import _clip


def clip_for(
    maximum: Callable[[Any, Any], Any],
    minimum: Callable[[Any, Any], Any],
    astype: Callable[..., Any],
) -> Callable[..., Any]:
    """``clip`` from the backend's ``maximum``, ``minimum`` and ``astype`` kernels."""

    def clip(x: Any, /, min: Any = None, max: Any = None) -> Any:  # noqa: A002
        return _clip(x, min, max, maximum, minimum, astype)

    return clip


def copysign_for(
    xp: Any, pair: Callable[[Any, Any], tuple[Any, Any]], signbit: Callable[[Any], Any]
) -> Callable[[Any, Any], Any]:
    """``copysign`` for a namespace with ``abs`` and ``where`` (mlx.core, tensorflow):
    ``pair(x1, x2)`` gives both operands in their promoted dtype, ``signbit`` is the backend's
    kernel (the sign bit itself, so -0.0 and negative NaNs count as negative)."""

    def copysign(x1: Any, x2: Any, /) -> Any:
        a, b = pair(x1, x2)
        magnitude = xp.abs(a)
        return xp.where(signbit(b), -magnitude, magnitude)

    return copysign

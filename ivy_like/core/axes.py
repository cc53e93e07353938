"""Axis and repeat checks shared by the declarations, the backends and the decided errors.

They raise the errors ivy_like decides (``AxisError`` for an axis out of range, ``ValueError``
for a repeated axis) and import no framework but NumPy, for its ``AxisError`` type.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def axis_error_type() -> type[Exception]:
    """NumPy's ``AxisError`` (both a ValueError and an IndexError)."""
    # numpy >= 1.25 moved it to numpy.exceptions; 2.x removed the old name.
    return np.exceptions.AxisError if hasattr(np, "exceptions") else np.AxisError  # type: ignore[attr-defined]


def normalize_axis(axis: Any, ndim: int, name: str) -> int:
    """``axis`` as an index in ``range(ndim)``; ``AxisError`` when out of range."""
    if type(axis) is int and -ndim <= axis < ndim:  # the common case, first and cheap
        return axis % ndim
    if isinstance(axis, bool) or not hasattr(axis, "__index__"):
        raise TypeError(f"{name}: axis must be an int, got {type(axis).__name__}")
    axis = axis.__index__()
    if not -ndim <= axis < ndim:
        raise axis_error_type()(f"{name}: axis {axis} is out of bounds for an array of {ndim} dims")
    return axis % ndim


def normalize_axes(axis: Any, ndim: int, name: str) -> tuple[int, ...]:
    """``axis`` (None: every axis, an int or a sequence of ints) as distinct indices."""
    if axis is None:
        return tuple(range(ndim))
    items = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out = tuple(normalize_axis(a, ndim, name) for a in items)
    if len(set(out)) != len(out):
        raise ValueError(f"{name}: repeated axis in {axis!r}")
    return out


def expand_axes(axis: Any, ndim: int) -> tuple[int, ...]:
    """Where ``expand_dims`` of an ``ndim``-dimensional array inserts its new axes: ``axis`` (an
    int, or since 2025.12 a tuple of positions in the result, which has ``ndim + len(axis)``
    axes) as distinct positions in ascending order, so inserting one at a time is right.
    ``AxisError`` for a position out of range, ``ValueError`` for a repeated one."""
    if isinstance(axis, (tuple, list)):
        return tuple(sorted(normalize_axes(axis, ndim + len(axis), "expand_dims")))
    return (normalize_axis(axis, ndim + 1, "expand_dims"),)


def check_repeats_array(shape: tuple[int, ...], size: int, axis: Any, kind: str) -> None:
    """Checks of an array of repeats that need only its shape and dtype kind."""
    if kind not in "iu":
        raise TypeError("repeat: repeats must be an int or an integer array")
    if len(shape) > 1:
        raise ValueError(f"repeat: repeats must be 0-d or 1-d, got shape {shape}")
    n = shape[0] if shape else 1
    if n not in (1, size):
        raise ValueError(
            f"repeat: {n} repeats for {size} elements along axis {axis} (need 1 or {size})"
        )

"""Indexing rules the backends share: the axis and index kind of ``take``, NumPy's bounds and
slice-step errors, and the test for a key of in-range ints and slices that a framework reads
as NumPy does (plain Python, no framework)."""

from __future__ import annotations

from typing import Any

from ...core.axes import normalize_axis


def host_bounds(values: Any) -> tuple[int, int]:
    """``(min, max)`` of a non-empty NumPy copy of an integer index array.

    A few values go through a list and the builtins, which beats two NumPy reductions.
    """
    if values.size <= 16:
        flat = values.ravel().tolist()
        return min(flat), max(flat)
    return int(values.min()), int(values.max())


def check_step(k: slice) -> None:
    """NumPy's ``ValueError`` for a slice with a step of zero."""
    step = k.step
    if step is not None and hasattr(step, "__index__") and step.__index__() == 0:
        raise ValueError("slice step cannot be zero")


def in_range_basic(shape: tuple[int, ...], key: Any) -> bool:
    """True for a key of Python ints and slices (with int or None bounds and a non-zero step),
    every int within its axis: NumPy's basic indexing, which JAX and MLX read as NumPy does.
    Backends index with such a key directly; anything else (lists, arrays, None, ``...``, an
    int out of range) goes through their checks."""
    if type(key) is slice:
        return key.step is None or (type(key.step) is int and key.step != 0)
    items = key if type(key) is tuple else (key,) if type(key) is int else None
    if items is None or len(items) > len(shape):
        return False
    for size, k in zip(shape, items):
        if type(k) is int:
            if not -size <= k < size:
                return False
        elif type(k) is slice:
            if not (k.step is None or (type(k.step) is int and k.step != 0)):
                return False
        else:
            return False
    return True


def check_bounds(lo: int, hi: int, size: int, axis: int) -> None:
    """NumPy's ``IndexError`` when an index in ``[lo, hi]`` is outside ``[-size, size)``."""
    if hi >= size or lo < -size:
        bad = hi if hi >= size else lo
        raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {size}")


def take_axis(ndim: int, indices: Any, axis: int | None, kind: str | None) -> int | None:
    """The checked axis of ``take`` (None: flatten ``x`` first).

    ``kind`` is the dtype kind letter of ``indices`` (None for a Python value). Backends then
    select along ``axis`` with NumPy's bounds checks: their ``getitem`` of
    ``x[(slice(None),) * axis + (indices,)]``, or their own gather after the same checks.
    """
    if kind is None:
        if isinstance(indices, bool) or not hasattr(indices, "__index__"):
            raise TypeError(f"take: indices must be an integer array, got {indices!r}")
    elif kind not in "iu":
        raise TypeError("take: indices must be an integer array")
    if axis is None:
        return None
    if type(axis) is int and -ndim <= axis < ndim:
        return axis % ndim
    return normalize_axis(axis, ndim, "take")  # errors and index-like axes

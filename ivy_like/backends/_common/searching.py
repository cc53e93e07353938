"""Searching kernels written once for several backends (see ``_common/__init__.py``).

``xp`` is a NumPy-like namespace (``numpy``, ``jax.numpy``, ``mlx.core``) whose ``argmax``,
``argmin`` and ``searchsorted`` already follow NumPy for NaN (the first NaN wins; NaN sorts
last) and ties (the first one). ``index_dtype``, when given, is the dtype the indices are cast
to (the backend's default integer where the namespace returns another one). The standard's
checks of ``searchsorted`` are ``check_searchsorted``, which every backend calls first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Kernel = Callable[..., Any]


def check_searchsorted(ndim: Any, side: str) -> None:
    """The standard's checks of ``searchsorted``: a 1-D ``x1`` (``ndim`` is its rank) and
    ``side`` ``'left'`` or ``'right'``."""
    if ndim != 1:
        raise ValueError(f"searchsorted: x1 must be one-dimensional, got {ndim}-d")
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")


def argmax_for(xp: Any, index_dtype: Any = None) -> Kernel:
    """argmax as ``xp.argmax`` (NaN first, ties first: ivy_like's rule)."""

    def argmax(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
        out = xp.argmax(x, axis=axis, keepdims=keepdims)
        return out if index_dtype is None else out.astype(index_dtype)

    return argmax


def argmin_for(xp: Any, index_dtype: Any = None) -> Kernel:
    """argmin as ``xp.argmin`` (as ``argmax_for``)."""

    def argmin(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
        out = xp.argmin(x, axis=axis, keepdims=keepdims)
        return out if index_dtype is None else out.astype(index_dtype)

    return argmin


def searchsorted_for(xp: Any, index_dtype: Any = None) -> Kernel:
    """searchsorted as ``xp.searchsorted`` with ``sorter=`` (numpy, jax.numpy), after the
    standard's checks."""

    def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
        check_searchsorted(xp.ndim(x1), side)
        out = xp.searchsorted(x1, x2, side=side, sorter=sorter)
        return out if index_dtype is None else out.astype(index_dtype)

    return searchsorted

"""Set-function kernels written once for several backends (see ``_common/__init__.py``).

A backend computes everything in one private ``unique(x) -> (values, first indices, inverse in
x's shape, counts)``, sorted with NaNs distinct as NumPy; each factory returns the kernel that
picks its part of that tuple and wraps it in the named tuple of ``ivy_like.ops.set_functions``.
``isin_for`` wraps a framework's own ``isin``, which it calls for two arrays of one dtype only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...ops.set_functions import UniqueAllResult, UniqueCountsResult, UniqueInverseResult
from .nn import composites_of

Kernel = Callable[..., Any]
Unique = Callable[[Any], tuple[Any, Any, Any, Any]]


def isin_for(
    native: Kernel, backend_name: str, takes: Callable[[Any, Any], bool] | None = None
) -> Kernel:
    """isin: ``native(x1, x2, invert=...)`` for two arrays of one dtype that ``takes(x1, x2)``
    admits (all when None); the rest (a Python scalar, two dtypes, whose exact comparison the
    frameworks' promotion would round, or what the framework's isin lacks) goes to the
    composite."""
    composite = composites_of(backend_name)

    def isin(x1: Any, x2: Any, /, *, invert: bool) -> Any:
        d1, d2 = getattr(x1, "dtype", None), getattr(x2, "dtype", None)
        # (``is not None`` first: NumPy's dtypes equal None, read as float64)
        if d1 is not None and d2 is not None and d1 == d2 and (takes is None or takes(x1, x2)):
            return native(x1, x2, invert=invert)
        return composite("isin")(x1, x2, invert=invert)

    return isin


def unique_all_for(unique: Unique) -> Kernel:
    """unique_all: the whole tuple of ``unique``."""

    def unique_all(x: Any, /) -> UniqueAllResult:
        return UniqueAllResult(*unique(x))

    return unique_all


def unique_counts_for(unique: Unique) -> Kernel:
    """unique_counts: the values and counts of ``unique``."""

    def unique_counts(x: Any, /) -> UniqueCountsResult:
        values, _, _, counts = unique(x)
        return UniqueCountsResult(values, counts)

    return unique_counts


def unique_inverse_for(unique: Unique) -> Kernel:
    """unique_inverse: the values and inverse indices of ``unique``."""

    def unique_inverse(x: Any, /) -> UniqueInverseResult:
        values, _, inverse, _ = unique(x)
        return UniqueInverseResult(values, inverse)

    return unique_inverse


def unique_values_for(unique: Unique) -> Kernel:
    """unique_values: the values of ``unique`` (for backends without a cheaper own call)."""

    def unique_values(x: Any, /) -> Any:
        return unique(x)[0]

    return unique_values

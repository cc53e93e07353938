"""jax backend: the array API set functions (``unique_*``, ``isin``).

``jax.numpy`` already keeps NaNs distinct in ``unique_*``, as NumPy does; wrappers return the
result named tuples. ``isin`` is ``jnp.isin`` for two arrays of one dtype, the composite
otherwise.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from ivy_like.ops.set_functions import (
    ISIN_PAIRWISE_MAX,
    UniqueAllResult,
    UniqueCountsResult,
    UniqueInverseResult,
)

from .._common import set_functions as _set_functions


def unique_all(x: Any, /) -> UniqueAllResult:
    r = jnp.unique_all(x)  # sorted, NaNs distinct, first indices, inverse in x's shape
    return UniqueAllResult(r.values, r.indices, r.inverse_indices, r.counts)


def unique_counts(x: Any, /) -> UniqueCountsResult:
    r = jnp.unique_counts(x)
    return UniqueCountsResult(r.values, r.counts)


def unique_inverse(x: Any, /) -> UniqueInverseResult:
    r = jnp.unique_inverse(x)
    return UniqueInverseResult(r.values, r.inverse_indices)


unique_values = jnp.unique_values


def _isin(x1: Any, x2: Any, /, *, invert: bool) -> Any:
    # jnp.isin's default compares every pair at once (memory of x1.size * x2.size); above the
    # composite's bound it binary-searches the sorted x2 instead.
    pairwise = x1.size * x2.size <= ISIN_PAIRWISE_MAX
    method = "compare_all" if pairwise else "binary_search"
    return jnp.isin(x1, x2, invert=invert, method=method)


def _searchable(x1: Any, x2: Any) -> bool:
    """Whether jnp.isin takes the pair: few pairs, or integers or real floats to search (many
    complex values, which do not sort, go to the composite's slices, bools to its any/all)."""
    if x1.size * x2.size <= ISIN_PAIRWISE_MAX:
        return True
    return jnp.issubdtype(x1.dtype, jnp.integer) or jnp.issubdtype(x1.dtype, jnp.floating)


isin = _set_functions.isin_for(_isin, "jax", _searchable)

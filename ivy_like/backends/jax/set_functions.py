"""jax backend: the array API set functions (``unique_*``).

``jax.numpy`` already keeps NaNs distinct in ``unique_*``, as NumPy does; wrappers return the
result named tuples.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from ivy_like.ops.set_functions import UniqueAllResult, UniqueCountsResult, UniqueInverseResult


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

"""numpy backend: array API set functions.

All four are one ``np.unique`` call (NaNs kept distinct, ``equal_nan=False``), the inverse
indices in the input's shape, the results as the named tuples of ``ivy_like.ops.set_functions``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ivy_like.ops.set_functions import UniqueAllResult, UniqueCountsResult, UniqueInverseResult


def _unique(x: Any) -> tuple[Any, Any, Any, Any]:
    x = np.asarray(x)
    values, indices, inverse, counts = np.unique(
        x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False
    )
    return values, indices, inverse.reshape(x.shape), counts


def unique_all(x: Any, /) -> UniqueAllResult:
    return UniqueAllResult(*_unique(x))


def unique_counts(x: Any, /) -> UniqueCountsResult:
    values, _, _, counts = _unique(x)
    return UniqueCountsResult(values, counts)


def unique_inverse(x: Any, /) -> UniqueInverseResult:
    values, _, inverse, _ = _unique(x)
    return UniqueInverseResult(values, inverse)


def unique_values(x: Any, /) -> Any:
    return np.unique(np.asarray(x), equal_nan=False)

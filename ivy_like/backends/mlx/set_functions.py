"""mlx backend: array API set functions, on ``mx.unique``.

MLX's ``unique`` follows NumPy (NaNs distinct) but needs the number of unique values as
``size``: it is counted first, which evaluates ``x``. Its indices are cast to
``DEFAULT_INT`` (int32). MLX has no ``isin``: the composite's (``ivy_like/ops/set_functions.py``)
runs.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx

from .._common import set_functions as _set_functions
from . import DEFAULT_INT


def _unique(x: Any) -> tuple[Any, Any, Any, Any]:
    flat = x.reshape(-1)
    ordered = mx.sort(flat)
    # mx.unique needs the number of unique values (NaN != NaN: each NaN counts).
    size = int(mx.sum(ordered[1:] != ordered[:-1]).item()) + 1 if flat.size else 0
    values, indices, inverse, counts = mx.unique(
        x, size=size, return_index=True, return_inverse=True, return_counts=True
    )
    return (
        values,
        indices.astype(DEFAULT_INT),
        inverse.astype(DEFAULT_INT).reshape(x.shape),
        counts.astype(DEFAULT_INT),
    )


unique_all = _set_functions.unique_all_for(_unique)
unique_counts = _set_functions.unique_counts_for(_unique)
unique_inverse = _set_functions.unique_inverse_for(_unique)
unique_values = _set_functions.unique_values_for(_unique)

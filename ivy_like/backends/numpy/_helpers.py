"""numpy backend: private helpers shared by several family files.

``_in_float32`` computes half precision in float32 (the rule of ``ivy_like.backends._common.half``) and
``_wide_accumulator`` picks a float64 accumulator for long float32 reductions along leading
axes; both are used by ``statistical.py`` and ``linalg.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._common.half import half_in_float32
from .._common.statistical import ACCURATE_SUM_FROM, leading_reduction_size

_WIDER = {np.dtype("float32"): np.dtype("float64"), np.dtype("complex64"): np.dtype("complex128")}


def _wide_accumulator(x: np.ndarray, axis: Any) -> Any:
    """float64 (complex128) to accumulate a float32 (complex64) reduction of many values that
    leaves the last axis out, else None.

    NumPy sums along the last axis pairwise (1e-7 relative for a million float32 values), but
    reduces other axes one row at a time, a running total per output (4e-5 off for 4000 rows
    of 0.1): those sums accumulate in float64 and are rounded once.
    """
    if x.size < ACCURATE_SUM_FROM:  # first: the common small call pays one attribute read
        return None
    wide = _WIDER.get(x.dtype)
    if wide is None or leading_reduction_size(x.shape, axis) < ACCURATE_SUM_FROM:
        return None
    return wide


# Half precision computed in float32 (ivy_like.backends._common.half): mean, var, std and cumulative_sum
# in statistical.py, the decompositions in linalg.py.
_in_float32 = half_in_float32({"float16": np.dtype("float16")}, np.dtype("float32"))

"""numpy backend: array API searching functions.

NumPy's own functions (NaN first and ties first in ``argmax``/``argmin``, ivy_like's rule),
with the standard's checks on ``nonzero`` (no 0-d input) and ``searchsorted`` (1-D ``x1``,
``side``). ``where`` is an elementwise op (``elementwise.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._common import searching as _searching
from . import DEFAULT_INT

argmax = _searching.argmax_for(np)  # NaN first, ties first: our rule
argmin = _searching.argmin_for(np)


def count_nonzero(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    # A whole-array count is a Python int: the 0-d array of the default integer.
    return np.asarray(np.count_nonzero(x, axis=axis, keepdims=keepdims), dtype=DEFAULT_INT)


def nonzero(x: Any, /) -> tuple[Any, ...]:
    x = np.asarray(x)
    if x.ndim == 0:
        raise ValueError("nonzero: x must have at least one dimension, got a 0-d array")
    return np.nonzero(x)


searchsorted = _searching.searchsorted_for(np)

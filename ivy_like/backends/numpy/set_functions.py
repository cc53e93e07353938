"""numpy backend: array API set functions.

The four ``unique_*`` are one ``np.unique`` call (NaNs kept distinct, ``equal_nan=False``), the
inverse indices in the input's shape, the results as the named tuples of
``ivy_like.ops.set_functions``. ``isin`` is ``np.isin`` for two arrays of one dtype, the
composite otherwise.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._common import set_functions as _set_functions


def _unique(x: Any) -> tuple[Any, Any, Any, Any]:
    x = np.asarray(x)
    values, indices, inverse, counts = np.unique(
        x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False
    )
    return values, indices, inverse.reshape(x.shape), counts


unique_all = _set_functions.unique_all_for(_unique)
unique_counts = _set_functions.unique_counts_for(_unique)
unique_inverse = _set_functions.unique_inverse_for(_unique)


def unique_values(x: Any, /) -> Any:
    return np.unique(np.asarray(x), equal_nan=False)


# np.isin's memory is the inputs' (it loops over a small x2, or uses a table or a sort).
isin = _set_functions.isin_for(np.isin, "numpy")

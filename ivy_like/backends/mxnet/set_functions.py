"""mxnet backend: array API set functions.

``mx.np.unique`` merges NaNs and runs in NumPy on the host. Here the unique values come from
the stable NaN-last order of ``_stable_argsort_rows`` (``_helpers.py``): each NaN is its own
value (the array API's rule; NaN != NaN), 0.0 and -0.0 are one (the first one met).
``isin`` is the composite's (``ivy_like/ops/set_functions.py``): ``mx.np.isin`` is NumPy's,
run on the host.
"""

from __future__ import annotations

from typing import Any

import mxnet as mx
import numpy as np

from .._common import set_functions as _set_functions
from . import _BOOL, DEFAULT_INT, numpy_shapes
from ._helpers import _no_bool, _stable_argsort_rows

nd = mx.nd


def _unique(x: Any) -> tuple[Any, Any, Any, Any]:
    """``(values, first indices, inverse, counts)`` from the stable sort: each NaN is its own
    value (the array API's rule; NaN != NaN), 0.0 and -0.0 are one (the first one met)."""
    flat = x.reshape((-1,))
    n = flat.shape[0]
    if n == 0:
        empty = nd.zeros((0,), ctx=x.context, dtype=DEFAULT_INT)
        return nd.identity(flat), empty, nd.zeros(tuple(x.shape), dtype=DEFAULT_INT), empty
    order = _stable_argsort_rows(flat.reshape((1, n))).reshape((n,))
    ordered = nd.take(_no_bool(flat), order)
    starts = nd.ones((1,), ctx=x.context, dtype=np.float64)
    if n > 1:
        steps = nd.broadcast_not_equal(
            nd.slice_axis(ordered, axis=0, begin=1, end=n),
            nd.slice_axis(ordered, axis=0, begin=0, end=n - 1),
        )
        starts = nd.concat(starts, steps.astype(np.float64), dim=0)
    (first,) = mx.np.nonzero(starts.as_np_ndarray())  # the output size is read here
    first = first.as_nd_ndarray().astype(DEFAULT_INT)
    values = nd.take(ordered, first)
    if x.dtype == np.bool_:
        values = values.astype(_BOOL)
    group = nd.cumsum(starts, axis=0) - 1
    inverse = nd.take(group, nd.argsort(order, dtype=DEFAULT_INT)).astype(DEFAULT_INT)
    ends = nd.concat(first, nd.full((1,), n, ctx=x.context, dtype=DEFAULT_INT), dim=0)
    counts = nd.slice_axis(ends, axis=0, begin=1, end=None) - first
    return values, nd.take(order, first), inverse.reshape(tuple(x.shape)), counts


unique_all = numpy_shapes(_set_functions.unique_all_for(_unique))
unique_counts = numpy_shapes(_set_functions.unique_counts_for(_unique))
unique_inverse = numpy_shapes(_set_functions.unique_inverse_for(_unique))
unique_values = numpy_shapes(_set_functions.unique_values_for(_unique))

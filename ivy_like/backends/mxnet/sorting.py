"""mxnet backend: array API sorting functions.

MXNet's ``sort``/``argsort`` are not stable and misplace NaN (measured on 1.9.1: NaNs land
among the numbers). Here ``argsort``/``sort`` are stable with NaN last (first when
descending), from three of MXNet's sorts on keys where stability and NaN do not matter
(``_stable_argsort_rows`` in ``_helpers.py``, shared with the set functions).
"""

from __future__ import annotations

from typing import Any

import mxnet as mx
import numpy as np

from . import _BOOL, DEFAULT_INT, numpy_shapes
from ._helpers import _axes, _gather_rows, _no_bool, _stable_argsort_rows

nd = mx.nd


def _stable_argsort(x: Any, axis: int) -> Any:
    """Ascending stable argsort along ``axis`` (non-negative), NaN last."""
    n = x.shape[axis]
    if x.size == 0 or n == 1:
        return nd.zeros(tuple(x.shape), ctx=x.context, dtype=DEFAULT_INT)
    x = _no_bool(x)  # swapaxes takes no bool
    moved = nd.swapaxes(x, axis, x.ndim - 1) if axis != x.ndim - 1 else x
    order = _stable_argsort_rows(moved.reshape((-1, n))).reshape(tuple(moved.shape))
    return nd.swapaxes(order, axis, x.ndim - 1) if axis != x.ndim - 1 else order


@numpy_shapes
def argsort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    if x.ndim == 0:
        _axes(x, axis, "argsort")
        return nd.zeros((), ctx=x.context, dtype=DEFAULT_INT)
    (axis,) = _axes(x, axis, "argsort")
    if not descending:
        return _stable_argsort(x, axis)
    # Descending and stable: the ascending order of the reversed array, reversed and mapped
    # back, keeps equal elements in their original order and puts NaN first.
    n = x.shape[axis]
    if x.size == 0:
        return _stable_argsort(x, axis)
    flipped = _stable_argsort(nd.flip(_no_bool(x), axis=axis), axis)
    return (n - 1) - nd.flip(flipped, axis=axis)


@numpy_shapes
def sort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    if x.ndim == 0:
        _axes(x, axis, "sort")
        return nd.identity(x)
    (axis,) = _axes(x, axis, "sort")
    if x.size == 0 or x.shape[axis] == 1:
        return nd.identity(x)
    order = _stable_argsort(x, axis)  # ascending; descending is its reverse (NaN first)
    if descending:
        order = nd.flip(order, axis=axis)
    last = x.ndim - 1
    data = _no_bool(x)
    moved = nd.swapaxes(data, axis, last) if axis != last else data
    moved_order = nd.swapaxes(order, axis, last) if axis != last else order
    n = x.shape[axis]
    values = _gather_rows(moved.reshape((-1, n)), moved_order.reshape((-1, n)))
    out = values.reshape(tuple(moved.shape))
    out = nd.swapaxes(out, axis, last) if axis != last else out
    return out.astype(_BOOL) if x.dtype == np.bool_ else out

"""tensorflow backend: array API sorting functions.

TensorFlow's ``sort``/``argsort`` scramble NaN and refuse bool: here NaN sorts last (first when
descending), stably, and bool is sorted as int8.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from .._common.statistical import reduction_axes
from ._helpers import _argsort_last


def _sorted_last(name: str, x: Any, axis: int, descending: bool) -> tuple[Any, Any, Any]:
    """(indices, x) with the sorted axis moved last, and the permutation undoing the move."""
    ndim = x.shape.rank
    if ndim == 0:
        raise ValueError(f"{name}: x must have at least one dimension, got a 0-d array")
    a = reduction_axes(ndim, axis, name)[0]
    undo = None
    if a != ndim - 1:
        perm = [*(i for i in range(ndim) if i != a), a]
        x, undo = tf.transpose(x, perm), np.argsort(perm)
    if descending:
        # Stable descending: sort the reversed axis stably, reverse back, map the positions;
        # equal elements keep their order and NaN (last ascending) comes first.
        idx = x.shape[-1] - 1 - tf.reverse(_argsort_last(tf.reverse(x, [-1])), [-1])
    else:
        idx = _argsort_last(x)
    return idx, x, undo


def argsort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    idx, _, undo = _sorted_last("argsort", x, axis, descending)
    return idx if undo is None else tf.transpose(idx, undo)


def sort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    idx, xt, undo = _sorted_last("sort", x, axis, descending)
    out = tf.gather(xt, idx, batch_dims=xt.shape.rank - 1)
    return out if undo is None else tf.transpose(out, undo)

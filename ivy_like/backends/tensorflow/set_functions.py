"""tensorflow backend: array API set functions.

TensorFlow has no ``unique`` with counts in sorted order: all four functions come from one
stable sort (``_unique``), with NaNs distinct, as in NumPy. TensorFlow has no ``isin``: its
kernel is the composite's (``ivy_like/ops/set_functions.py``), sorted search on the graph.
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from .._common import set_functions as _set_functions
from .._common.nn import composites_of
from ._helpers import _argsort_last


def _unique(x: Any) -> tuple[Any, Any, Any, Any]:
    """Sorted unique values, first indices, inverse (x's shape) and counts; NaNs distinct.

    From one stable sort: a group starts wherever a value differs from its predecessor
    (NaN != NaN: each NaN is its own group); a group's first element in the stable order is
    its first occurrence.
    """
    flat = tf.reshape(x, [-1])
    n = flat.shape[0]
    perm = _argsort_last(flat)
    ordered = tf.gather(flat, perm)
    starts = tf.concat([tf.ones([min(n, 1)], tf.bool), tf.not_equal(ordered[1:], ordered[:-1])], 0)
    group = tf.cumsum(tf.cast(starts, tf.int64)) - 1
    inverse = tf.gather(group, tf.math.invert_permutation(perm))
    first = tf.where(starts)[:, 0]
    ends = tf.concat([first[1:], tf.constant([n], tf.int64)], 0)[: tf.shape(first)[0]]
    counts = ends - first
    return (
        tf.gather(ordered, first),
        tf.gather(perm, first),
        tf.reshape(inverse, tf.shape(x)),
        counts,
    )


unique_all = _set_functions.unique_all_for(_unique)
unique_counts = _set_functions.unique_counts_for(_unique)
unique_inverse = _set_functions.unique_inverse_for(_unique)
unique_values = _set_functions.unique_values_for(_unique)


def isin(x1: Any, x2: Any, /, *, invert: bool) -> Any:
    return _composite("isin")(x1, x2, invert=invert)


_composite = composites_of("tensorflow")

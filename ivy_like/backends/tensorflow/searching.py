"""tensorflow backend: array API searching functions.

``argmax``/``argmin`` ignore NaN in TensorFlow and take no ``axis=None``; ``searchsorted``
wants 1-D values and breaks on NaN; there is no ``nonzero``. Each is fixed here with tf ops.
``where`` is elementwise (``elementwise.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from .._common import searching as _searching
from .._common.statistical import reduction_axes
from . import DEFAULT_INT
from ._helpers import _truth


def count_nonzero(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    # tf.math.count_nonzero compares with zero (NaN and either complex part count); axis=()
    # reduces nothing, as the standard says.
    axes = None if axis is None else reduction_axes(x.shape.rank, axis, "count_nonzero")
    return tf.math.count_nonzero(x, axis=axes, keepdims=keepdims, dtype=DEFAULT_INT)


def _arg_reduce(name: str, fn: Any, x: Any, axis: Any, keepdims: bool) -> Any:
    ndim = x.shape.rank
    flat = axis is None
    if flat:
        x, a = tf.reshape(x, [-1]), 0
    else:
        a = reduction_axes(ndim, axis, name)[0]
    if x.shape[a] == 0:
        raise ValueError(f"{name}: zero-size reduction, which has no result")
    if x.dtype == tf.bool:
        x = tf.cast(x, tf.int8)
    out = fn(x, axis=a, output_type=tf.int64)  # ties: the first occurrence
    if x.dtype.is_floating:
        # tf ignores NaN; NumPy's rule: the first NaN wins (argmax of the NaN mask finds it).
        nan = tf.math.is_nan(x)
        first_nan = tf.argmax(tf.cast(nan, tf.int8), axis=a, output_type=tf.int64)
        out = tf.where(tf.reduce_any(nan, axis=a), first_nan, out)
    if keepdims:
        out = tf.reshape(out, [1] * ndim) if flat else tf.expand_dims(out, a)
    return out


def argmax(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    return _arg_reduce("argmax", tf.argmax, x, axis, keepdims)


def argmin(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    return _arg_reduce("argmin", tf.argmin, x, axis, keepdims)


def nonzero(x: Any, /) -> tuple[Any, ...]:
    ndim = x.shape.rank
    if ndim == 0:
        raise ValueError("nonzero: x must have at least one dimension, got a 0-d array")
    where = tf.where(_truth(x))  # (count, ndim) int64, row-major order
    return tuple(where[:, i] for i in range(ndim))


def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    _searching.check_searchsorted(x1.shape.rank, side)
    if sorter is not None:
        x1 = tf.gather(x1, sorter)
    if isinstance(x2, (bool, int, float)):  # a weak Python scalar: NumPy's promotion
        x2 = tf.constant(np.asarray(x2, dtype=np.result_type(x1.dtype.as_numpy_dtype, x2)))
    common = tf.as_dtype(np.promote_types(x1.dtype.as_numpy_dtype, x2.dtype.as_numpy_dtype))
    x1, x2 = tf.cast(x1, common), tf.cast(x2, common)
    values = tf.reshape(x2, [-1])  # tf searches 1-D values only
    if common.is_floating:
        # tf's binary search compares with NaN. NaN sorts last (NumPy): search among the
        # numbers (NaN of x1 as inf), never past them; NaN values go to the first NaN of x1
        # (left) or to the end (right).
        x1_nan = tf.math.is_nan(x1)
        numbers = tf.reduce_sum(tf.cast(~x1_nan, tf.int64))
        out = tf.searchsorted(
            tf.where(x1_nan, tf.constant(np.inf, common), x1),
            values,
            side=side,
            out_type=tf.int64,
        )
        out = tf.minimum(out, numbers)
        nan_at = numbers if side == "left" else tf.constant(x1.shape[0], tf.int64)
        out = tf.where(tf.math.is_nan(values), nan_at, out)
    else:
        out = tf.searchsorted(x1, values, side=side, out_type=tf.int64)
    return tf.reshape(out, tf.shape(x2))

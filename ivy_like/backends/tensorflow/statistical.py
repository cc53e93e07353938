"""tensorflow backend: statistical, searching, sorting, set and utility functions (array API).

TensorFlow differs from the NumPy reference in many places here, each fixed with tf ops:
``argmax``/``argmin`` ignore NaN and take no ``axis=None``; ``sort``/``argsort`` scramble NaN
and refuse bool; ``searchsorted`` wants 1-D values and breaks on NaN; there is no
``unique`` with counts in sorted order, no ``nonzero``, no ``correction`` for variance, and
integers accumulate in their own width (NumPy widens to int64/uint64).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from ivy_like.ops.set_functions import UniqueAllResult, UniqueCountsResult, UniqueInverseResult
from ivy_like.ops.statistical import _axes, _check_correction, _count, _cumulative_axis

from . import _in_float32, _wide_accumulator

__all__ = [
    "all",
    "any",
    "argmax",
    "argmin",
    "argsort",
    "cumulative_sum",
    "nonzero",
    "prod",
    "searchsorted",
    "sort",
    "std",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
    "var",
]

# NumPy's accumulation rule (sum, prod, cumsum): small integers and bool in 64 bits.
_ACCUMULATOR = {
    tf.bool: tf.int64,
    tf.int8: tf.int64,
    tf.int16: tf.int64,
    tf.int32: tf.int64,
    tf.uint8: tf.uint64,
    tf.uint16: tf.uint64,
    tf.uint32: tf.uint64,
}


def _reduce_axes(x: Any, axis: Any, name: str) -> Any:
    return None if axis is None else list(_axes(x.shape.rank, axis, name))


# -- statistical ----------------------------------------------------------------------------------
@_in_float32(dtype_arg=True)
def cumulative_sum(
    x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> Any:
    axis = _cumulative_axis(x.shape.rank, axis)
    dtype = dtype or _ACCUMULATOR.get(x.dtype)
    if dtype is not None:
        x = tf.cast(x, dtype)
    out = tf.cumsum(x, axis=axis)
    if include_initial:
        pad = [[0, 0]] * x.shape.rank
        pad[axis] = [1, 0]
        out = tf.pad(out, pad)
    return out


@_in_float32(dtype_arg=True)
def prod(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    dtype = dtype or _ACCUMULATOR.get(x.dtype)
    if dtype is not None:
        x = tf.cast(x, dtype)
    return tf.reduce_prod(x, axis=_reduce_axes(x, axis, "prod"), keepdims=keepdims)


def _var(name: str, x: Any, axis: Any, correction: Any, keepdims: bool) -> Any:
    if not x.dtype.is_floating:
        raise TypeError(f"{name}: expected a real floating-point array, got {x.dtype.name}")
    c = _check_correction(correction, name)
    axes = _reduce_axes(x, axis, name)
    n = _count(tuple(x.shape), axis, name)
    if n - c <= 0:
        return tf.reduce_sum(x, axis=axes, keepdims=keepdims) * float("nan")
    # Two passes, as tf.math.reduce_variance, with the divisor N - correction; leading axes
    # of float32 in float64 (TensorFlow's running totals there: see _wide_accumulator).
    wide = None if axes is None else _wide_accumulator(x, axes)
    data = x if wide is None else tf.cast(x, wide)
    centred = data - tf.reduce_mean(data, axis=axes, keepdims=True)
    out = tf.reduce_sum(tf.square(centred), axis=axes, keepdims=keepdims) / (n - c)
    return out if wide is None else tf.cast(out, x.dtype)


@_in_float32
def var(x: Any, /, *, axis: Any = None, correction: Any = 0.0, keepdims: bool = False) -> Any:
    return _var("var", x, axis, correction, keepdims)


@_in_float32
def std(x: Any, /, *, axis: Any = None, correction: Any = 0.0, keepdims: bool = False) -> Any:
    return tf.sqrt(_var("std", x, axis, correction, keepdims))


# -- searching ------------------------------------------------------------------------------------
def _arg_reduce(name: str, fn: Any, x: Any, axis: Any, keepdims: bool) -> Any:
    ndim = x.shape.rank
    flat = axis is None
    if flat:
        x, a = tf.reshape(x, [-1]), 0
    else:
        a = _axes(ndim, axis, name)[0]
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


def _truth(x: Any) -> Any:
    return x if x.dtype == tf.bool else tf.not_equal(x, tf.zeros([], x.dtype))


def nonzero(x: Any, /) -> tuple[Any, ...]:
    ndim = x.shape.rank
    if ndim == 0:
        raise ValueError("nonzero: x must have at least one dimension, got a 0-d array")
    where = tf.where(_truth(x))  # (count, ndim) int64, row-major order
    return tuple(where[:, i] for i in range(ndim))


def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    if x1.shape.rank != 1:
        raise ValueError(f"searchsorted: x1 must be one-dimensional, got {x1.shape.rank}-d")
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
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


# -- sorting --------------------------------------------------------------------------------------
def _argsort_last(x: Any) -> Any:
    """Stable ascending argsort along the last axis with NaN last (int64)."""
    batch = x.shape.rank - 1
    if x.dtype == tf.bool:
        x = tf.cast(x, tf.int8)
    if not x.dtype.is_floating:
        return tf.cast(tf.argsort(x, axis=-1, stable=True), tf.int64)
    # tf scrambles NaN: sort with NaN as inf, then stably move the NaNs behind the infs.
    nan = tf.math.is_nan(x)
    idx = tf.argsort(tf.where(nan, tf.constant(np.inf, x.dtype), x), axis=-1, stable=True)
    nan_key = tf.cast(tf.gather(nan, idx, batch_dims=batch), tf.int8)
    idx = tf.gather(idx, tf.argsort(nan_key, axis=-1, stable=True), batch_dims=batch)
    return tf.cast(idx, tf.int64)


def _sorted_last(name: str, x: Any, axis: int, descending: bool) -> tuple[Any, Any, Any]:
    """(indices, x) with the sorted axis moved last, and the permutation undoing the move."""
    ndim = x.shape.rank
    if ndim == 0:
        raise ValueError(f"{name}: x must have at least one dimension, got a 0-d array")
    a = _axes(ndim, axis, name)[0]
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


# -- set functions --------------------------------------------------------------------------------
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


def unique_all(x: Any, /) -> UniqueAllResult:
    return UniqueAllResult(*_unique(x))


def unique_counts(x: Any, /) -> UniqueCountsResult:
    values, _, _, counts = _unique(x)
    return UniqueCountsResult(values, counts)


def unique_inverse(x: Any, /) -> UniqueInverseResult:
    values, _, inverse, _ = _unique(x)
    return UniqueInverseResult(values, inverse)


def unique_values(x: Any, /) -> Any:
    return _unique(x)[0]


# -- utility --------------------------------------------------------------------------------------
def all(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return tf.reduce_all(_truth(x), axis=_reduce_axes(x, axis, "all"), keepdims=keepdims)


def any(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return tf.reduce_any(_truth(x), axis=_reduce_axes(x, axis, "any"), keepdims=keepdims)

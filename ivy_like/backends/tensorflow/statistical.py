"""tensorflow backend: array API statistical functions.

NumPy sums small integers and booleans in int64/uint64 (TensorFlow in their own width), half
precision in float32; large float32 reductions over leading axes accumulate in float64
(``_wide_accumulator``); ``max``/``min`` of booleans are ``any``/``all`` and raise over an
empty axis; ``mean`` of integers is a ``TypeError``; there is no ``correction`` for variance in
TensorFlow.
"""

from __future__ import annotations

import builtins
from typing import Any, Callable

import tensorflow as tf

from .._common import statistical as _statistical
from .._common.helpers import named
from .._common.statistical import reduction_count
from . import _eager
from ._eager import RAW, RAW_FAILS, EagerTensor
from ._helpers import _in_float32, _reduce_axes, _wide_accumulator

# NumPy's accumulation rule (sum, prod, cumsum): small integers and booleans in the 64-bit
# integer of the same signedness.
_ACCUMULATOR = {
    tf.bool: tf.int64,
    tf.int8: tf.int64,
    tf.int16: tf.int64,
    tf.int32: tf.int64,
    tf.uint8: tf.uint64,
    tf.uint16: tf.uint64,
    tf.uint32: tf.uint64,
}
_F32 = tf.float32
_HALF = (tf.float16, tf.bfloat16)
_SUM_DTYPES = {**_ACCUMULATOR, **dict.fromkeys(_HALF, _F32)}


def _raw_reduce(raw: Callable[..., Any], x: Any, axis: Any, keepdims: Any) -> Any:
    """Eager reduction of an eager tensor over all axes or one int axis with the raw op and a
    cached axis tensor (see ``_eager``); None: take the tf path."""
    if type(x) is EagerTensor and type(keepdims) is bool and _eager.executing_eagerly():
        if axis is None:
            axes = _eager.all_axes(x.ndim)
        elif type(axis) is int:
            axes = _eager.int64(axis)
        else:
            return None
        try:
            return raw(input=x, axis=axes, keep_dims=keepdims)
        except RAW_FAILS:
            pass  # e.g. an axis out of range: the tf path raises its own error
    return None


def sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    half = None  # half precision is summed in float32 and cast back, as on the other backends
    if dtype is None:
        dtype = _SUM_DTYPES.get(x.dtype)
        if dtype is _F32:  # (TensorFlow sums along an axis in float16 itself)
            half = x.dtype
    elif dtype in _HALF:
        half, dtype = dtype, _F32
    if dtype is not None:
        x = tf.cast(x, dtype)
    if axis is not None and half is None:
        wide = _wide_accumulator(x, axis)
        if wide is not None:
            return tf.cast(tf.reduce_sum(tf.cast(x, wide), axis=axis, keepdims=keepdims), x.dtype)
    out = _raw_reduce(RAW.Sum, x, axis, keepdims)
    if out is None:
        out = tf.reduce_sum(x, axis=axis, keepdims=keepdims)
    return out if half is None else tf.cast(out, half)


@_in_float32
def mean(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f"mean: expected a floating-point array, got {x.dtype.name}")
    if axis is not None:
        wide = _wide_accumulator(x, axis)
        if wide is not None:
            return tf.cast(tf.reduce_mean(tf.cast(x, wide), axis=axis, keepdims=keepdims), x.dtype)
    out = _raw_reduce(RAW.Mean, x, axis, keepdims)
    if out is not None:
        return out
    return tf.reduce_mean(x, axis=axis, keepdims=keepdims)


def _check_not_empty(name: str, x: Any, axis: Any) -> None:
    # tf returns -inf/+inf (the identity) over an empty axis; NumPy has no identity to give.
    dims = tuple(x.shape)
    if 0 not in dims:
        return
    axes = (
        range(len(dims)) if axis is None else (axis if isinstance(axis, (tuple, list)) else (axis,))
    )
    if builtins.any(dims[a] == 0 for a in axes):
        raise ValueError(f"{name}: zero-size reduction, which has no identity")


def _extremum(
    name: str, reduce: Callable[..., Any], raw: Callable[..., Any], of_bools: Callable[..., Any]
) -> Callable[..., Any]:
    """``max``/``min``: ``reduce`` (its ``raw`` op for eager tensors), ``of_bools`` for bool."""

    def op(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        _check_not_empty(name, x, axis)
        if x.dtype == tf.bool:
            return of_bools(x, axis=axis, keepdims=keepdims)
        out = _raw_reduce(raw, x, axis, keepdims)
        if out is not None:
            return out
        return reduce(x, axis=axis, keepdims=keepdims)

    return named(op, name)


# reduce_max/min propagate NaN on TF 2.21 CPU (checked by the tests).
max = _extremum("max", tf.reduce_max, RAW.Max, tf.reduce_any)  # noqa: A001
min = _extremum("min", tf.reduce_min, RAW.Min, tf.reduce_all)  # noqa: A001


cumulative_sum = _statistical.cumulative_sum_for(tf, tf.cast, _ACCUMULATOR, _in_float32)
cumulative_prod = _statistical.cumulative_prod_for(
    tf.math.cumprod, tf.pad, tf.cast, _ACCUMULATOR, _in_float32
)
prod = _statistical.prod_for(tf.reduce_prod, tf.cast, _ACCUMULATOR, _reduce_axes, _in_float32)


def _var(name: str, x: Any, axis: Any, correction: Any, keepdims: bool) -> Any:
    if not x.dtype.is_floating:
        raise TypeError(f"{name}: expected a real floating-point array, got {x.dtype.name}")
    c = float(correction)  # checked by the op (ops/statistical.py)
    axes = _reduce_axes(x, axis, name)
    n = reduction_count(tuple(x.shape), axis, name)
    if n - c <= 0:
        return tf.reduce_sum(x, axis=axes, keepdims=keepdims) * float("nan")
    # Two passes, as tf.math.reduce_variance, with the divisor N - correction; leading axes
    # of float32 in float64 (TensorFlow's running totals there: see _wide_accumulator).
    wide = None if axes is None else _wide_accumulator(x, axes)
    data = x if wide is None else tf.cast(x, wide)
    centred = data - tf.reduce_mean(data, axis=axes, keepdims=True)
    out = tf.reduce_sum(tf.square(centred), axis=axes, keepdims=keepdims) / (n - c)
    return out if wide is None else tf.cast(out, x.dtype)


var = _statistical.var_for(_var, _in_float32)
std = _statistical.std_for(_var, tf.sqrt, _in_float32)

"""Private helpers shared by several files of the TensorFlow backend (its ``__init__`` and its
family files): NumPy's promotion of mixed dtypes (``_promote``, ``_promoting``), conversion of
Python values (``_const``), device scopes (``_on``), the float64 accumulator of large float32
reductions (``_wide_accumulator``), half precision computed in float32 (``_in_float32``), and
small pieces used by several op families (``_kind``, ``_shape``, ``_truth``, ``_reduce_axes``,
``_argsort_last``).
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable

import numpy as np
import tensorflow as tf

from .._common.half import half_in_float32
from .._common.statistical import ACCURATE_SUM_FROM, leading_reduction_size, reduction_axes
from ._eager import RAW_FAILS, EagerTensor

_SCALARS = (bool, int, float, complex)
_EagerTensor = EagerTensor
# What TensorFlow raises for operands of different dtypes (or a scalar it cannot convert).
_MISMATCH = (TypeError, ValueError, tf.errors.InvalidArgumentError)


def _is_variable(x: Any) -> bool:
    # isinstance against tf.Variable goes through a metaclass (~0.5 us); rule out the common
    # eager tensor first.
    return type(x) is not _EagerTensor and isinstance(x, tf.Variable)


def _const(value: Any, dtype: Any) -> Any:
    """``value`` (a tensor, NumPy array, list or Python scalar) as a tensor of ``dtype``.

    Python values go through NumPy: ``tf.cast(1e300, tf.float64)`` would pass through float32
    and overflow, and ``tf.constant(7.5, tf.int32)`` refuses to truncate where NumPy does not.
    """
    if isinstance(value, (tf.Tensor, tf.Variable)):
        return tf.cast(value, dtype)
    return tf.constant(np.asarray(value, dtype=dtype.as_numpy_dtype))


_HALF_PAIR = (np.dtype(tf.float16.as_numpy_dtype), np.dtype(tf.bfloat16.as_numpy_dtype))


def _promote(*args: Any) -> list[Any] | None:
    """The arguments cast to one dtype by NumPy's rules; None when nothing needs a cast.

    Python scalars are weak (NEP 50): ``int8 tensor + 1`` stays int8, ``int64 + 2.5`` is
    float64. bfloat16 promotes through ml_dtypes' NumPy rules; with float16 it gives float32.
    """
    arrays = [a for a in args if not isinstance(a, _SCALARS)]
    scalars = [a for a in args if isinstance(a, _SCALARS)]
    dtypes = {a.dtype for a in arrays}
    if len(dtypes) <= 1 and not scalars:
        return None  # one dtype already: the failure was not about dtypes
    # A scalar is converted even when the dtype stays: tf.add(2, float_tensor) reads 2 as int32.
    numpy_dtypes = [np.dtype(d.as_numpy_dtype) for d in dtypes]
    try:
        target = np.result_type(*numpy_dtypes, *scalars)
    except TypeError:  # ml_dtypes has no rule for float16 with bfloat16: ivy_like's is float32
        rest = [d for d in numpy_dtypes if d not in _HALF_PAIR]
        target = np.result_type(np.float32, *rest, *scalars)
    return [_const(a, tf.as_dtype(target)) for a in args]


def _signed_zero(v: Any) -> bool:
    """A Python float or complex zero: TF's eager scalar cache must not convert it.

    TensorFlow caches the tensors it makes from Python scalars in op calls, keyed by value:
    ``0.0 == -0.0``, so after ``tf.maximum(x, -0.0)`` a later ``tf.maximum(x, 0.0)`` gets
    ``-0.0`` (and the other way round). Such scalars are converted through NumPy instead.
    """
    return (type(v) is float or type(v) is complex) and v == 0


def _promoting(fn: Callable[..., Any], raw: Callable[..., Any] | None = None) -> Callable[..., Any]:
    """``fn`` of two arrays, promoting mixed dtypes when TensorFlow rejects them.

    ``raw`` is the raw op that ``fn`` runs; two eager tensors go to it directly (a third of
    the time, see ``_eager``), and to ``fn`` if it fails.
    """

    def op(x1: Any, x2: Any, /) -> Any:
        if raw is not None and type(x1) is EagerTensor and type(x2) is EagerTensor:
            try:
                return raw(x=x1, y=x2)
            except RAW_FAILS:
                pass
        if _signed_zero(x2) or _signed_zero(x1):
            args = _promote(x1, x2)
            if args is not None:
                return fn(*args)
        try:
            return fn(x1, x2)
        except _MISMATCH:
            args = _promote(x1, x2)
            if args is None:
                raise  # the framework's own error stands
            return fn(*args)

    op.__name__ = op.__qualname__ = getattr(fn, "__name__", "op")
    return op


def _on(device: Any) -> Any:
    return contextlib.nullcontext() if device is None else tf.device(device)


def _shape(shape: Any) -> Any:
    return (shape,) if isinstance(shape, int) else shape


def _kind(x: Any) -> str | None:
    dt = getattr(x, "dtype", None)
    if dt is None:
        return None
    return "b" if dt == tf.bool else "u" if dt.is_unsigned else "i" if dt.is_integer else "f"


def _reduce_axes(x: Any, axis: Any, name: str) -> Any:
    return None if axis is None else list(reduction_axes(x.shape.rank, axis, name))


def _truth(x: Any) -> Any:
    return x if x.dtype == tf.bool else tf.not_equal(x, tf.zeros([], x.dtype))


def _argsort_last(x: Any) -> Any:
    """Stable ascending argsort along the last axis with NaN last (int64); complex numbers by
    real part, then imaginary part, as NumPy orders them (TensorFlow sorts no complex)."""
    batch = x.shape.rank - 1
    if x.dtype.is_complex:
        by_imag = _argsort_last(tf.math.imag(x))
        real = tf.gather(tf.math.real(x), by_imag, batch_dims=batch)
        return tf.gather(by_imag, _argsort_last(real), batch_dims=batch)
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


_WIDER = {tf.float32: tf.float64, tf.complex64: tf.complex128}


def _wide_accumulator(x: Any, axis: Any) -> Any:
    """float64 (complex128) to accumulate a float32 (complex64) reduction of many values that
    leaves the last axis out, else None.

    TensorFlow's CPU kernels reduce such axes in one running total per output (4e-5 off for
    4000 rows of 0.1; along the last axis 1e-6 for a million values): those sums accumulate in
    float64 and are rounded once.
    """
    if type(x) is EagerTensor:
        if x._num_elements() < ACCURATE_SUM_FROM:  # first: the common small call pays 0.1 µs
            return None
        dims = x._shape_tuple()
    else:
        shape = x.shape
        dims = tuple(shape) if shape.rank is not None else ()
        if None in dims:
            return None  # unknown sizes (tf.function): as TensorFlow does
    wide = _WIDER.get(x.dtype)
    if wide is None or leading_reduction_size(dims, axis) < ACCURATE_SUM_FROM:
        return None
    return wide


# Half precision computed in float32 (ivy_like.backends._common.half): mean, var, std, prod and
# cumulative_sum in statistical.py, the decompositions in linalg.py.
_in_float32 = half_in_float32({"float16": tf.float16, "bfloat16": tf.bfloat16}, tf.float32, tf.cast)

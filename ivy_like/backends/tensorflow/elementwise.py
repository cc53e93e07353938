"""tensorflow backend: array API elementwise functions.

Mixed dtypes are promoted by NumPy's rules (Python scalars weak) when TensorFlow rejects them
(``_promoting``); eager tensors go to the raw op first (see ``_eager``). TensorFlow lacks
several of these functions or kernels for some dtypes; they are composed here from its own ops,
following the rules of ``ivy_like.ops.elementwise``:

* bool ``&``, ``|``, ``^``, ``~`` are the logical ops (``tf.bitwise`` is integer-only);
* shifts by the bit width or more give 0 (-1 for negative ``>>``), not TF's
  implementation-defined values;
* integer ``floor_divide``/``remainder`` by zero give 0 (TF raises);
* ``pow`` of unsigned integers (no TF kernel) and of integers to negative powers;
* ``negative``/``abs`` of unsigned integers, which have no TF kernel;
* ``ceil``/``floor``/``trunc``/``round``/``isfinite``/``isinf``/``isnan``/``sign`` for
  integer (and complex, where the standard asks) inputs; ``trunc``, ``signbit``,
  ``copysign``, ``hypot``, ``logaddexp``, ``log2``, ``log10`` composed.
"""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any, Callable

import tensorflow as tf

from .._common import elementwise as _elementwise
from .._common.elementwise import expm1_parts, has_nan_bits, int_pow, nextafter_bits
from .._common.helpers import named
from ._eager import RAW, RAW_FAILS, EagerTensor
from ._helpers import _MISMATCH, _promote, _promoting, _signed_zero
from .manipulation import astype as _astype

add = _promoting(tf.add, RAW.AddV2)
subtract = _promoting(tf.subtract, RAW.Sub)
multiply = _promoting(tf.multiply, RAW.Mul)
_divide = _promoting(tf.divide)  # true division: int32/int64 give float64, int8/int16 float32


def divide(x1: Any, x2: Any, /) -> Any:
    # For floating tensors tf.divide runs RealDiv (for integers it divides in floats: RealDiv
    # of integers would truncate, so they keep the tf path).
    if type(x1) is EagerTensor and type(x2) is EagerTensor and x1.dtype.is_floating:
        try:
            return RAW.RealDiv(x=x1, y=x2)
        except RAW_FAILS:
            pass
    return _divide(x1, x2)


# tf.maximum/minimum and reduce_max/min propagate NaN on TF 2.21 CPU (checked by the tests).
maximum = _promoting(tf.maximum, RAW.Maximum)
minimum = _promoting(tf.minimum, RAW.Minimum)
equal = _promoting(tf.equal, RAW.Equal)
not_equal = _promoting(tf.not_equal, RAW.NotEqual)
less = _promoting(tf.less, RAW.Less)
less_equal = _promoting(tf.less_equal, RAW.LessEqual)
greater = _promoting(tf.greater, RAW.Greater)
greater_equal = _promoting(tf.greater_equal, RAW.GreaterEqual)
logical_and = tf.logical_and
logical_or = tf.logical_or
logical_not = tf.logical_not


def negative(x: Any, /) -> Any:
    try:
        return tf.negative(x)
    except tf.errors.InvalidArgumentError:
        if not x.dtype.is_unsigned:
            raise
        return tf.zeros_like(x) - x  # no unsigned kernel: wrap around like NumPy


def positive(x: Any, /) -> Any:
    return tf.identity(x)


def abs(x: Any, /) -> Any:  # noqa: A001
    try:
        return tf.abs(x)
    except tf.errors.InvalidArgumentError:
        if not x.dtype.is_unsigned:
            raise
        return tf.identity(x)  # no unsigned kernel; unsigned values are their own abs


def _unary(fn: Callable[..., Any], raw: Callable[..., Any]) -> Callable[..., Any]:
    """``fn``, with eager tensors sent to the raw op it runs (14 µs against 23 µs for
    ``tf.exp`` on the CI machine); anything else, or a raw op that raises, takes ``fn``."""

    def op(x: Any, /) -> Any:
        if type(x) is EagerTensor:
            try:
                return raw(x=x)
            except RAW_FAILS:
                pass
        return fn(x)

    return named(op, fn.__name__)


exp = _unary(tf.exp, RAW.Exp)
log = _unary(tf.math.log, RAW.Log)
sqrt = _unary(tf.sqrt, RAW.Sqrt)
square = _unary(tf.square, RAW.Square)
sin = _unary(tf.sin, RAW.Sin)
cos = _unary(tf.cos, RAW.Cos)
tanh = _unary(tf.tanh, RAW.Tanh)


def where(condition: Any, x1: Any, x2: Any, /) -> Any:
    if type(condition) is EagerTensor and type(x1) is EagerTensor and type(x2) is EagerTensor:
        try:
            return RAW.SelectV2(condition=condition, t=x1, e=x2)  # what tf.where runs
        except RAW_FAILS:
            pass
    if _signed_zero(x2) or _signed_zero(x1):
        args = _promote(x1, x2)
        if args is not None:
            return tf.where(condition, *args)
    try:
        return tf.where(condition, x1, x2)
    except _MISMATCH:
        args = _promote(x1, x2)
        if args is None:
            raise
        return tf.where(condition, *args)


def _pair(x1: Any, x2: Any) -> tuple[Any, Any]:
    """Both operands as tensors of their promoted dtype (Python scalars weak)."""
    args = _promote(x1, x2)
    return (x1, x2) if args is None else (args[0], args[1])


def _is_exact(dtype: Any) -> bool:
    return dtype.is_integer or dtype == tf.bool


# -- division -------------------------------------------------------------------------------------
def _zero_divisor_gives_zero(fn: Callable[..., Any], raw: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` (// or %): integer division by zero gives 0 instead of an error.

    Integer divisors equal to 0 are replaced by 1 and those results by 0 before TF sees
    them, so this also holds inside ``tf.function`` (where an error would come late).
    """
    promoted = _promoting(fn, raw)

    def op(x1: Any, x2: Any, /) -> Any:
        first = x1 if isinstance(x1, (tf.Tensor, tf.Variable)) else x2
        if not first.dtype.is_integer:
            return promoted(x1, x2)  # floats: IEEE results, no masking needed
        a, b = _pair(x1, x2)
        if not a.dtype.is_integer:
            return fn(a, b)  # a float scalar made it floating-point
        zero = tf.equal(b, 0)
        out = fn(a, tf.where(zero, tf.ones_like(b), b))
        return tf.where(zero, tf.zeros_like(out), out)

    return named(op, fn.__name__)


# Rounds towards -inf.
floor_divide = _zero_divisor_gives_zero(tf.math.floordiv, RAW.FloorDiv)
# The sign of the divisor, like Python.
remainder = _zero_divisor_gives_zero(tf.math.floormod, RAW.FloorMod)


# -- bitwise --------------------------------------------------------------------------------------
def _bitwise(int_fn: Callable[..., Any], bool_fn: Callable[..., Any], name: str) -> Any:
    def op(x1: Any, x2: Any, /) -> Any:
        a, b = _pair(x1, x2)
        return (bool_fn if a.dtype == tf.bool else int_fn)(a, b)

    return named(op, name)


bitwise_and = _bitwise(tf.bitwise.bitwise_and, tf.logical_and, "bitwise_and")
bitwise_or = _bitwise(tf.bitwise.bitwise_or, tf.logical_or, "bitwise_or")
bitwise_xor = _bitwise(tf.bitwise.bitwise_xor, tf.math.logical_xor, "bitwise_xor")


def bitwise_invert(x: Any, /) -> Any:
    return tf.logical_not(x) if x.dtype == tf.bool else tf.bitwise.invert(x)


# A negative count (left unspecified by the standard) shifts every bit out, as on NumPy, JAX
# and torch: TensorFlow returned x1 unchanged.
def bitwise_left_shift(x1: Any, x2: Any, /) -> Any:
    a, b = _pair(x1, x2)
    bits = a.dtype.size * 8
    out = tf.bitwise.left_shift(a, tf.clip_by_value(b, 0, bits - 1))
    return tf.where((b >= bits) | (b < 0), tf.zeros_like(out), out)  # every bit shifted out


def bitwise_right_shift(x1: Any, x2: Any, /) -> Any:
    a, b = _pair(x1, x2)
    bits = a.dtype.size * 8
    # A signed shift by bits-1 already gives 0 or -1; unsigned values must become 0.
    count = tf.minimum(b, bits - 1)
    count = tf.where(count < 0, tf.ones_like(count) * (bits - 1), count)
    out = tf.bitwise.right_shift(a, count)
    return tf.where(b >= bits, tf.zeros_like(out), out) if a.dtype.is_unsigned else out


# -- rounding -------------------------------------------------------------------------------------
def _float_only(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` for floating-point tensors; integers are already whole and returned as is."""

    def op(x: Any, /) -> Any:
        return tf.identity(x) if _is_exact(x.dtype) else fn(x)

    return named(op, getattr(fn, "__name__", "op"))


ceil = _float_only(tf.math.ceil)
floor = _float_only(tf.math.floor)
trunc = _float_only(lambda x: tf.where(x < 0, tf.math.ceil(x), tf.math.floor(x)))


def round(x: Any, /) -> Any:  # noqa: A001
    # tf.round rounds halves to even; it has no complex kernel.
    if x.dtype.is_complex:
        return tf.complex(tf.round(tf.math.real(x)), tf.round(tf.math.imag(x)))
    return tf.identity(x) if _is_exact(x.dtype) else tf.round(x)


# -- classification -------------------------------------------------------------------------------
def _classify(fn: Callable[..., Any], exact: bool, combine: Callable[..., Any]) -> Any:
    """``fn`` for real floats; constant ``exact`` for integers; parts combined for complex."""

    def op(x: Any, /) -> Any:
        if _is_exact(x.dtype):
            return tf.fill(tf.shape(x), exact)
        if x.dtype.is_complex:
            return combine(fn(tf.math.real(x)), fn(tf.math.imag(x)))
        return fn(x)

    return named(op, fn.__name__)


isfinite = _classify(tf.math.is_finite, True, tf.logical_and)
isinf = _classify(tf.math.is_inf, False, tf.logical_or)
isnan = _classify(tf.math.is_nan, False, tf.logical_or)

_SAME_WIDTH_INT = {
    tf.float16: tf.int16,
    tf.bfloat16: tf.int16,
    tf.float32: tf.int32,
    tf.float64: tf.int64,
}


def signbit(x: Any, /) -> Any:
    # The sign bit is the top bit: seen as a signed integer of the same width, it is < 0.
    # That also covers -0.0 and NaNs with the sign bit set.
    if x.dtype.is_unsigned or x.dtype == tf.bool:
        return tf.fill(tf.shape(x), False)
    if x.dtype.is_integer:
        return tf.less(x, 0)
    return tf.less(tf.bitcast(x, _SAME_WIDTH_INT[x.dtype]), 0)


def sign(x: Any, /) -> Any:
    if x.dtype.is_unsigned:
        return tf.cast(tf.greater(x, 0), x.dtype)  # tf.sign has no unsigned kernel
    return tf.sign(x)  # NaN for NaN; x / |x| for complex


# -- composed binary functions ---------------------------------------------------------------------
copysign = _elementwise.copysign_for(tf, _pair, signbit)


def hypot(x1: Any, x2: Any, /) -> Any:
    a, b = _pair(x1, x2)
    a, b = tf.abs(a), tf.abs(b)
    big, small = tf.maximum(a, b), tf.minimum(a, b)  # NaN propagates through both
    # Scaled by the larger value so the squares cannot overflow; 0/0 gives 0.
    ratio = tf.math.divide_no_nan(small, big)
    out = big * tf.sqrt(1 + ratio * ratio)
    either_inf = tf.logical_or(tf.math.is_inf(a), tf.math.is_inf(b))
    return tf.where(either_inf, tf.constant(math.inf, out.dtype), out)  # inf even beside NaN


def logaddexp(x1: Any, x2: Any, /) -> Any:
    a, b = _pair(x1, x2)
    big = tf.maximum(a, b)  # NaN propagates
    out = big + tf.math.log1p(tf.exp(-tf.abs(a - b)))
    # Equal inputs (also both +inf or both -inf, where a - b is NaN): a + log(2).
    return tf.where(tf.equal(a, b), a + math.log(2.0), out)


def _log_base(base: float) -> Callable[..., Any]:
    scale = 1.0 / math.log(base)

    def op(x: Any, /) -> Any:
        return tf.math.log(x) * tf.cast(scale, x.dtype)

    return op


log2 = _log_base(2.0)
log10 = _log_base(10.0)

acos = tf.math.acos
acosh = tf.math.acosh
asin = tf.math.asin
asinh = tf.math.asinh
atan = tf.math.atan
atan2 = _promoting(tf.math.atan2)
atanh = tf.math.atanh
conj = tf.math.conj
cosh = tf.math.cosh


def expm1(x: Any, /) -> Any:
    if not x.dtype.is_complex:
        return tf.math.expm1(x)
    return tf.complex(*expm1_parts(_TF_NUMPY_LIKE, tf.math.real(x), tf.math.imag(x)))


def _where(condition: Any, x: Any, y: Any) -> Any:
    return tf.where(condition, tf.cast(x, y.dtype) if isinstance(x, float) else x, y)


# The NumPy-like functions expm1_parts calls, in TensorFlow.
_TF_NUMPY_LIKE = SimpleNamespace(
    sin=tf.sin,
    cos=tf.cos,
    exp=tf.exp,
    expm1=tf.math.expm1,
    isfinite=tf.math.is_finite,
    where=_where,
)
imag = tf.math.imag
log1p = tf.math.log1p
logical_xor = tf.math.logical_xor
real = tf.math.real
sinh = tf.math.sinh
tan = tf.math.tan


clip = _elementwise.clip_for(maximum, minimum, _astype)


_INT_VIEW = {tf.float16: (tf.int16, 16), tf.float32: (tf.int32, 32), tf.float64: (tf.int64, 64)}


def _nextafter(a: Any, b: Any) -> Any:
    """On the integer views: TensorFlow's CPU kernels flush subnormals to zero (its
    ``nextafter`` stepped from a subnormal to 0), and its kernel has no float16."""
    if not hasattr(a, "dtype"):
        a = tf.constant(a, dtype=b.dtype)  # a Python scalar beside a tensor: its dtype
    if not hasattr(b, "dtype"):
        b = tf.constant(b, dtype=a.dtype)
    view = _INT_VIEW.get(a.dtype)
    if view is None or a.dtype != b.dtype:
        return tf.math.nextafter(a, b)  # its own error (mixed dtypes: _promoting promotes)
    if a.shape != b.shape:  # the gradient below is that of same-shaped arguments
        shape = tf.broadcast_dynamic_shape(tf.shape(a), tf.shape(b))
        a, b = tf.broadcast_to(a, shape), tf.broadcast_to(b, shape)
    if tf.executing_eagerly():
        return _nextafter_views(a, b)
    return _nextafter_call(a, b)


@tf.custom_gradient
def _nextafter_views(a: Any, b: Any) -> Any:
    # A ForwardAccumulator takes the tangents of the ops inside when some carry one (a + b
    # below), instead of the rule: the value is computed from constants.
    a, b = tf.stop_gradient(a), tf.stop_gradient(b)
    itype, width = _INT_VIEW[a.dtype]
    ia, ib = tf.bitcast(a, itype), tf.bitcast(b, itype)
    bits = nextafter_bits(ia, ib, width, tf.where, tf.bitwise.bitwise_and)
    nan = has_nan_bits(ia, ib, width, tf.bitwise.bitwise_and)

    def grad(upstream: Any) -> tuple[Any, Any]:
        # The result is x1 moved by one ulp: its derivative is 1 in x1 and 0 in x2, as
        # torch's and as finite differences give (through the bit casts TF would give 0).
        return tf.identity(upstream), tf.zeros_like(upstream)  # an op, for forward mode

    return tf.where(nan, a + b, tf.bitcast(bits, a.dtype)), grad


# While tracing, a ForwardAccumulator takes the tangents of the ops inside a custom gradient
# (the bit casts: 0) and ignores its rule, but through a function call it transposes the
# call's gradient: inside a graph the step is one.
_nextafter_call = tf.function(_nextafter_views, autograph=False)


nextafter = _promoting(_nextafter)


_pow = _promoting(tf.pow, RAW.Pow)


def pow(x1: Any, x2: Any, /) -> Any:  # noqa: A001
    # tf.pow has no unsigned kernels: computed in int64 and wrapped back, which keeps the
    # result modulo 2**bits exactly (NumPy's wrapping result).
    # Integers to negative integer powers, which TensorFlow refuses (in eager code; inside
    # tf.function its error comes when the graph runs): ivy_like's rule (ops.elementwise.pow).
    try:
        return _pow(x1, x2)
    except tf.errors.InvalidArgumentError as err:
        a, b = _pair(x1, x2)
        if "negative integer powers" in str(err):
            return int_pow(a, b, pow, tf.where, tf.maximum, lambda v, like: tf.cast(v, like.dtype))
        if not a.dtype.is_unsigned:
            raise
        return tf.cast(tf.pow(tf.cast(a, tf.int64), tf.cast(b, tf.int64)), a.dtype)

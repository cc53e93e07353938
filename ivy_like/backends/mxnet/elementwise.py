"""mxnet backend: array API elementwise functions.

``mx.nd`` operators where legacy MXNet has them; ``arctan2``, ``hypot`` and the bitwise
operators come from MXNet's NumPy-compatible operators (``mx.np``), run
on zero-copy ``as_np_ndarray()`` views of the same buffers (recorded by autograd like any other
operator). Operands are promoted first (``_operands``, NumPy's table, weak Python scalars);
comparisons and logical functions compute in the operands' dtype and cast the 0/1 result to
bool. Wrappers where MXNet differs from the rules of ``ivy_like.ops.elementwise``:

* integer ``divide`` computes in float32 (MXNet would truncate); ``floor_divide`` and
  ``remainder`` of integers follow Python's sign rules from MXNet's exact truncating division,
  with divisors 0 and -1 kept away from its CPU kernels (SIGFPE); float ``remainder`` by 0 is
  NaN (MXNet gives 0); integer 0 to a negative ``pow`` is 0 (MXNet gives INT_MIN).
* ``sign`` of NaN is NaN (MXNet gives 0); ``copysign`` and ``signbit`` read the sign of -0.0
  from ``1 / x`` (MXNet's ``copysign`` treats -0.0 as positive). MXNet has no bit-level view of
  float arrays, so the sign bit of a NaN is not seen (a NaN counts as positive).
* shifts are multiplications and floor divisions by powers of two computed in int64 (MXNet has
  no shift operators); shifts by the bit width or more give 0 (or -1).
* ``round`` goes half to even from ``mx.nd.round`` (half away from zero), keeping -0.0.
* rounding functions return integer inputs as they are; classification of integers is constant.
* MXNet has no complex dtypes: ``real`` and ``conj`` are copies, ``imag`` zeros.
* ``nextafter``: MXNet has no such operator and no bit-level view of floats; the neighbour is
  computed in float64 arithmetic from the binade of ``x1`` (exact: every step is a power of
  two, and the result is representable in the input dtype).
"""

from __future__ import annotations

import builtins
from typing import Any, Callable

import mxnet as mx
import numpy as np

from .._common import elementwise as _elementwise
from .._common.helpers import named
from . import _BOOL, DEFAULT_FLOAT, DEFAULT_INT, NDArray, numpy_shapes
from ._helpers import _broadcast, _no_bool, _operands, _truth
from .creation import asarray
from .manipulation import astype

nd = mx.nd


def _kernel(op: Callable[..., Any], name: str, doc: str) -> Callable[..., Any]:
    """``op`` named ``name``, documented by ``doc``, run with NumPy's shapes (``numpy_shapes``)."""
    return numpy_shapes(named(op, name, doc))


def _binary(mx_op: Callable[..., Any], name: str) -> Callable[..., Any]:
    def op(x1: Any, x2: Any, /) -> Any:
        (a, b), dt = _operands(name, x1, x2)
        if dt == _BOOL:
            return mx_op(_no_bool(a), _no_bool(b)).astype(_BOOL)
        return mx_op(a, b)

    return _kernel(
        op, name, f"``mx.nd.{mx_op.__name__}`` on promoted operands (NumPy broadcasting)."
    )


def _comparison(mx_op: Callable[..., Any], name: str) -> Callable[..., Any]:
    def op(x1: Any, x2: Any, /) -> Any:
        (a, b), _ = _operands(name, x1, x2)
        return mx_op(_no_bool(a), _no_bool(b)).astype(_BOOL)  # MXNet returns 0/1 numbers

    return _kernel(op, name, f"``mx.nd.{mx_op.__name__}`` as a bool array.")


def _float_unary(mx_op: Callable[..., Any], name: str) -> Callable[..., Any]:
    def op(x: Any, /) -> Any:
        if x.dtype == np.bool_ or np.dtype(x.dtype).kind in "iu":
            x = x.astype(DEFAULT_FLOAT)  # MXNet would keep the integer dtype and truncate
        return mx_op(x)

    return _kernel(op, name, f"``mx.nd.{mx_op.__name__}``; integer and bool inputs become float32.")


def _same_unary(mx_op: Callable[..., Any], name: str, bools: bool = True) -> Callable[..., Any]:
    def op(x: Any, /) -> Any:
        if not bools and x.dtype == _BOOL:
            # MXNet has no boolean kernel: it would fail only when the result is read. The
            # generated function turns this into ivy_like's error (ivy_like.core.decided_errors).
            raise TypeError(f"{name}: MXNet has no {name} of booleans")
        return mx_op(x)

    return _kernel(op, name, f"``mx.nd.{mx_op.__name__}``.")


add = _binary(nd.broadcast_add, "add")
subtract = _binary(nd.broadcast_sub, "subtract")
multiply = _binary(nd.broadcast_mul, "multiply")
_power = _binary(nd.broadcast_power, "pow")


@numpy_shapes
def pow(x1: Any, x2: Any, /) -> Any:  # noqa: A001
    """``broadcast_power``, with 0 for integer 0 to a negative power (MXNet gives INT_MIN).

    MXNet already truncates the other integer results toward zero, ivy_like's rule
    (``ops.elementwise.pow``).
    """
    out = _power(x1, x2)
    if np.dtype(out.dtype).kind not in "iu":
        return out
    (a, b), _ = _operands("pow", x1, x2)
    zero_base = nd.broadcast_mul(
        nd.broadcast_equal(a, nd.zeros_like(a)), nd.broadcast_lesser(b, nd.zeros_like(b))
    )
    return nd.where(nd.broadcast_to(zero_base, out.shape), nd.zeros_like(out), out)


maximum = _binary(nd.broadcast_maximum, "maximum")  # NaN-propagating, like NumPy
minimum = _binary(nd.broadcast_minimum, "minimum")
equal = _comparison(nd.broadcast_equal, "equal")
not_equal = _comparison(nd.broadcast_not_equal, "not_equal")
less = _comparison(nd.broadcast_lesser, "less")
less_equal = _comparison(nd.broadcast_lesser_equal, "less_equal")
greater = _comparison(nd.broadcast_greater, "greater")
greater_equal = _comparison(nd.broadcast_greater_equal, "greater_equal")
exp = _float_unary(nd.exp, "exp")
log = _float_unary(nd.log, "log")
sqrt = _float_unary(nd.sqrt, "sqrt")
sin = _float_unary(nd.sin, "sin")
cos = _float_unary(nd.cos, "cos")
tanh = _float_unary(nd.tanh, "tanh")
negative = _same_unary(nd.negative, "negative", bools=False)
abs = _same_unary(nd.abs, "abs", bools=False)  # noqa: A001
square = _same_unary(nd.square, "square", bools=False)
positive = _same_unary(nd.identity, "positive")  # a copy, as NumPy makes


@numpy_shapes
def divide(x1: Any, x2: Any, /) -> Any:
    """True division; integer operands divide in float32 (MXNet would truncate).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> from ivy_like.backends.mxnet import elementwise
    >>> B.to_numpy(elementwise.divide(mx.nd.array([3], dtype="int32"), 2))
    array([1.5], dtype=float32)
    """
    (a, b), dt = _operands("divide", x1, x2)
    if dt.kind != "f":
        a, b = a.astype(DEFAULT_FLOAT), b.astype(DEFAULT_FLOAT)
    return nd.broadcast_div(a, b)


@numpy_shapes
def floor_divide(x1: Any, x2: Any, /) -> Any:
    """Floor division with Python's sign rules (MXNet's integer division truncates).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> from ivy_like.backends.mxnet import elementwise
    >>> B.to_numpy(elementwise.floor_divide(mx.nd.array([-3, 3], dtype="int64"), 2))
    array([-2,  1])
    """
    (a, b), dt = _operands("floor_divide", x1, x2)
    if dt.kind == "f":
        return nd.floor(nd.broadcast_div(a, b))
    return _int_divmod(a, b, dt)[0]


@numpy_shapes
def remainder(x1: Any, x2: Any, /) -> Any:
    """``mx.nd.broadcast_mod`` for floats (Python's sign rule, like NumPy); integers are
    computed from the truncating division (MXNet's integer ``mod`` goes through float64 and
    is wrong beyond 2**53); integer ``x % 0`` is 0.

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> from ivy_like.backends.mxnet import elementwise
    >>> B.to_numpy(elementwise.remainder(mx.nd.array([-3, 3], dtype="int64"), mx.nd.array([2, 0], dtype="int64")))
    array([1, 0])
    """
    (a, b), dt = _operands("remainder", x1, x2)
    if dt.kind == "f":  # x % 0.0 is NaN (MXNet gives 0)
        a, b = _broadcast([a, b])
        nan = nd.full(b.shape, np.nan, ctx=b.context, dtype=dt)
        return nd.where(nd.broadcast_equal(b, nd.zeros_like(b)), nan, nd.broadcast_mod(a, b))
    return _int_divmod(a, b, dt)[1]


def _int_divmod(a: Any, b: Any, dt: np.dtype) -> tuple[Any, Any]:
    """Python's ``divmod`` for integer arrays from MXNet's exact truncating division."""
    a, b, zero, minus_one = _safe_divisor(a, b)
    q = nd.broadcast_div(a, b)  # truncates toward zero
    r = nd.broadcast_sub(a, nd.broadcast_mul(q, b))
    if dt.kind == "i" or dt == _BOOL:
        zeros = nd.zeros_like(r)
        # r and b of opposite signs: floor is one below the truncation, r moves by b.
        fix = nd.broadcast_not_equal(nd.broadcast_lesser(r, zeros), nd.broadcast_lesser(b, zeros))
        fix = fix * nd.broadcast_not_equal(r, zeros)
        q = nd.where(fix, q - 1, q)
        r = nd.where(fix, r + b, r)
    q = nd.where(minus_one, nd.negative(a), q)  # x // -1 is -x (INT_MIN wraps, as in NumPy)
    q = nd.where(zero, nd.zeros_like(q), q)
    r = nd.where(zero + minus_one, nd.zeros_like(r), r)
    return q.astype(dt), r.astype(dt)


def _safe_divisor(a: Any, b: Any) -> tuple[Any, Any, Any, Any]:
    """Integer operands broadcast, with divisors 0 and -1 replaced by 1 (MXNet's CPU kernels
    die with SIGFPE on ``x / 0`` and on ``INT_MIN / -1``), and masks of where they were."""
    a, b = _broadcast([_no_bool(a), _no_bool(b)])
    zero = nd.broadcast_equal(b, nd.zeros_like(b))
    minus_one = nd.broadcast_equal(b, -nd.ones_like(b)) if b.dtype != np.uint8 else zero * 0
    return a, nd.where(zero + minus_one, nd.ones_like(b), b), zero, minus_one


@numpy_shapes
def logical_and(x1: Any, x2: Any, /) -> Any:
    (a, b), _ = _operands("logical_and", x1, x2)
    return nd.broadcast_logical_and(_truth(a), _truth(b)).astype(_BOOL)


@numpy_shapes
def logical_or(x1: Any, x2: Any, /) -> Any:
    (a, b), _ = _operands("logical_or", x1, x2)
    return nd.broadcast_logical_or(_truth(a), _truth(b)).astype(_BOOL)


@numpy_shapes
def logical_not(x: Any, /) -> Any:
    return nd.logical_not(_truth(x)).astype(_BOOL)


@numpy_shapes
def where(condition: Any, x1: Any, x2: Any, /) -> Any:
    """``mx.nd.where`` with NumPy broadcasting and promotion (MXNet needs equal shapes).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> from ivy_like.backends.mxnet import elementwise
    >>> x = mx.nd.array([1., -2.])
    >>> B.to_numpy(elementwise.where(elementwise.greater(x, 0), x, 0.0))
    array([1., 0.], dtype=float32)
    """
    (a, b), dt = _operands("where", x1, x2)
    cond = condition if isinstance(condition, NDArray) else asarray(condition)
    cond, a, b = _broadcast([cond, _no_bool(a), _no_bool(b)])
    out = nd.where(_truth(cond).astype(a.dtype), a, b)
    return out.astype(_BOOL) if dt == _BOOL else out


def _npx(x: Any) -> Any:
    return x.as_np_ndarray()  # the same buffer, seen by MXNet's NumPy-compatible operators


def _is_int(x: Any) -> bool:
    return x.dtype == np.bool_ or np.dtype(x.dtype).kind in "iu"


acos = _float_unary(nd.arccos, "acos")
acosh = _float_unary(nd.arccosh, "acosh")
asin = _float_unary(nd.arcsin, "asin")
asinh = _float_unary(nd.arcsinh, "asinh")
atan = _float_unary(nd.arctan, "atan")
atanh = _float_unary(nd.arctanh, "atanh")
cosh = _float_unary(nd.cosh, "cosh")
sinh = _float_unary(nd.sinh, "sinh")
tan = _float_unary(nd.tan, "tan")
expm1 = _float_unary(nd.expm1, "expm1")
log1p = _float_unary(nd.log1p, "log1p")
log2 = _float_unary(nd.log2, "log2")
log10 = _float_unary(nd.log10, "log10")


def _rounding(mx_op: Callable[..., Any], name: str) -> Callable[..., Any]:
    def op(x: Any, /) -> Any:
        if _is_int(x):
            return nd.identity(x)  # integers are already whole: a copy, same dtype
        return mx_op(x)

    return _kernel(
        op, name, f"``{name}`` of floats through MXNet; integers are returned as they are."
    )


ceil = _rounding(nd.ceil, "ceil")
floor = _rounding(nd.floor, "floor")
trunc = _rounding(nd.trunc, "trunc")


def _half_to_even(x: Any) -> Any:
    r = nd.round(x)  # halfway cases away from zero
    halfway = nd.abs(x - nd.trunc(x)) == 0.5
    odd = nd.broadcast_mod(r, nd.full(r.shape, 2, dtype=r.dtype)) != 0
    r = nd.where(halfway * odd, r - nd.sign(x), r)
    return nd.where(r == 0, x * 0, r)  # x * 0 keeps the sign of zero (-0.4 -> -0.0)


round = _rounding(_half_to_even, "round")  # noqa: A001


def _classify(mx_op: Callable[..., Any], name: str, on_ints: bool) -> Callable[..., Any]:
    def op(x: Any, /) -> Any:
        if _is_int(x):
            return nd.full(x.shape, int(on_ints), ctx=x.context, dtype=_BOOL)
        return mx_op(x).astype(_BOOL)  # MXNet returns 0/1 in x's dtype

    return _kernel(op, name, f"``mx.nd.contrib.{name}`` as a bool array (constant for integers).")


isnan = _classify(nd.contrib.isnan, "isnan", False)
isinf = _classify(nd.contrib.isinf, "isinf", False)
isfinite = _classify(nd.contrib.isfinite, "isfinite", True)


@numpy_shapes
def sign(x: Any, /) -> Any:
    """``mx.nd.sign``, NaN staying NaN.

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> from ivy_like.backends.mxnet import elementwise
    >>> B.to_numpy(elementwise.sign(mx.nd.array([-2.0, 0.0, float("nan")])))
    array([-1.,  0., nan], dtype=float32)
    """
    if x.dtype == np.bool_:
        return nd.identity(x)
    out = nd.sign(x)
    return out if _is_int(x) else nd.where(nd.contrib.isnan(x), x, out)


def _negative_sign(x: Any) -> Any:
    """1 where x's sign is negative (-0.0 included), else 0, in x's dtype."""
    zero = nd.zeros_like(x)
    negative = nd.broadcast_lesser(x, zero)
    neg_zero = nd.broadcast_equal(x, zero) * nd.broadcast_lesser(nd.reciprocal(x), zero)
    return negative + neg_zero


@numpy_shapes
def signbit(x: Any, /) -> Any:
    if _is_int(x):
        return nd.broadcast_lesser(_no_bool(x), nd.zeros_like(_no_bool(x))).astype(_BOOL)
    return _negative_sign(x).astype(_BOOL)


@numpy_shapes
def copysign(x1: Any, x2: Any, /) -> Any:
    (a, b), dt = _operands("copysign", x1, x2)
    if dt.kind != "f":
        a, b = a.astype(DEFAULT_FLOAT), b.astype(DEFAULT_FLOAT)
    a, b = _broadcast([a, b])
    magnitude = nd.abs(a)
    return nd.where(_negative_sign(b), nd.negative(magnitude), magnitude)


# (significand bits, smallest normal exponent) of each float dtype MXNet has
_FLOAT_FORMAT = {np.dtype("float16"): (11, -14), np.dtype("float32"): (24, -126)}
_FLOAT_FORMAT[np.dtype("float64")] = (53, -1022)


@numpy_shapes
def nextafter(x1: Any, x2: Any, /) -> Any:
    """The next float after ``x1`` towards ``x2`` in their dtype (NumPy's ``nextafter``).

    In float64, for float16/32/64 alike: ``|x1|`` lies in the binade ``[2**e, 2**(e + 1))``
    (``e`` from ``log2``, corrected by exact comparisons with powers of two), whose spacing is
    ``2**(max(e, emin) - p + 1)``; a step towards zero from ``2**e`` is half that. Every
    quantity is a power of two or a float of the input dtype, so the sum is exact.
    """
    (a, b), dt = _operands("nextafter", x1, x2)
    if dt.kind != "f":
        a, b, dt = a.astype(DEFAULT_FLOAT), b.astype(DEFAULT_FLOAT), np.dtype(DEFAULT_FLOAT)
    a, b = _broadcast([a, b])
    p, emin = _FLOAT_FORMAT[dt]
    x, y = a.astype(np.float64), b.astype(np.float64)
    size = nd.abs(x)
    zero = nd.zeros_like(x)
    finite = nd.broadcast_equal(size - size, zero)  # inf - inf and NaN are NaN
    finite_nonzero = nd.broadcast_greater(size, zero) * finite
    safe = nd.where(finite_nonzero, size, nd.ones_like(size))  # log2 of 1: no -inf or NaN
    two = nd.full(size.shape, 2.0, dtype=np.float64)
    e = nd.floor(nd.log2(safe))
    e = e - nd.broadcast_greater(nd.power(two, e), safe)  # log2 rounded up across 2**k
    e = e + nd.broadcast_lesser_equal(nd.power(two, e + 1), safe)  # ... or down
    spacing = nd.power(two, nd.maximum(e, emin) - (p - 1))
    at_power = nd.broadcast_equal(nd.power(two, e), safe) * (e > emin)
    direction = nd.sign(y - x)
    away = nd.broadcast_equal(direction, nd.sign(x))  # moving away from zero
    step = nd.where(away + (1 - at_power), spacing, spacing / 2)
    out = x + direction * step
    # To zero from the smallest subnormal: a zero of x's sign (IEEE's sum would be +0).
    out = nd.where(nd.broadcast_equal(out, zero), x * 0, out)
    # From zero: the smallest subnormal, with y's sign (MXNet cannot take 2**-1074 as a scalar).
    tiny = nd.power(two, nd.full(x.shape, emin - p + 1, dtype=np.float64))
    out = nd.where(nd.broadcast_equal(x, zero), direction * tiny, out)
    # From an infinity: the largest finite float (from NumPy: MXNet reads scalars from text,
    # which rounds float64's largest value).
    largest = nd.array(np.full(x.shape, np.finfo(dt).max), ctx=x.context, dtype=np.float64)
    infinite = nd.broadcast_equal(x, x) * (1 - finite)
    out = nd.where(infinite, nd.sign(x) * largest, out)
    out = nd.where(nd.broadcast_equal(x, y), y, out)  # equal (0.0 and -0.0 too): y
    nan = nd.broadcast_not_equal(x, x) + nd.broadcast_not_equal(y, y)
    out = nd.where(nan, x + y, out)
    return out.astype(dt)


def _np_binary_float(mx_op: Callable[..., Any], name: str) -> Callable[..., Any]:
    def op(x1: Any, x2: Any, /) -> Any:
        (a, b), dt = _operands(name, x1, x2)
        if dt.kind != "f":
            a, b = a.astype(DEFAULT_FLOAT), b.astype(DEFAULT_FLOAT)
        return mx_op(_npx(a), _npx(b)).as_nd_ndarray()

    return _kernel(op, name, f"``mx.np.{mx_op.__name__}`` on promoted float operands.")


atan2 = _np_binary_float(mx.np.arctan2, "atan2")
hypot = _np_binary_float(mx.np.hypot, "hypot")


@numpy_shapes
def logaddexp(x1: Any, x2: Any, /) -> Any:
    """``max + log1p(exp(-|x1 - x2|))`` with ``mx.nd`` ops (equal infinities give that one).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> from ivy_like.backends.mxnet import elementwise
    >>> B.to_numpy(elementwise.logaddexp(mx.nd.array([0.0, float("-inf")]), mx.nd.array([0.0, float("-inf")])))
    array([0.6931472,      -inf], dtype=float32)
    """
    (a, b), dt = _operands("logaddexp", x1, x2)
    if dt.kind != "f":
        a, b = a.astype(DEFAULT_FLOAT), b.astype(DEFAULT_FLOAT)
    a, b = _broadcast([a, b])
    big = nd.broadcast_maximum(a, b)  # NaN-propagating
    out = big + nd.log1p(nd.exp(nd.negative(nd.abs(a - b))))
    return nd.where(nd.broadcast_equal(a, b) * nd.contrib.isinf(a), a, out)


@numpy_shapes
def logical_xor(x1: Any, x2: Any, /) -> Any:
    (a, b), _ = _operands("logical_xor", x1, x2)
    return nd.broadcast_logical_xor(_truth(a), _truth(b)).astype(_BOOL)


def _bitwise(mx_op: Callable[..., Any], name: str) -> Callable[..., Any]:
    def op(x1: Any, x2: Any, /) -> Any:
        (a, b), dt = _operands(name, x1, x2)
        if dt.kind not in "biu":
            raise TypeError(f"{name}: expected integer or bool arrays, got {dt}")
        out = mx_op(_npx(_no_bool(a)), _npx(_no_bool(b))).as_nd_ndarray()  # bools as uint8
        return out.astype(_BOOL) if dt == _BOOL else out

    return _kernel(op, name, f"``mx.np.{mx_op.__name__}`` on promoted integer or bool operands.")


bitwise_and = _bitwise(mx.np.bitwise_and, "bitwise_and")
bitwise_or = _bitwise(mx.np.bitwise_or, "bitwise_or")
bitwise_xor = _bitwise(mx.np.bitwise_xor, "bitwise_xor")


@numpy_shapes
def bitwise_invert(x: Any, /) -> Any:
    if not _is_int(x):
        raise TypeError(f"bitwise_invert: expected an integer or bool array, got {x.dtype}")
    if x.dtype == np.bool_:
        return nd.logical_not(_truth(x)).astype(_BOOL)
    return mx.np.invert(_npx(x)).as_nd_ndarray()


def _shift_operands(name: str, x1: Any, x2: Any) -> tuple[Any, Any, np.dtype, int]:
    """x1 in int64, the counts clipped to [0, bits] in int64, the result dtype, its width.

    A negative count (left unspecified by the standard) shifts every bit out, as on NumPy,
    JAX and torch: it becomes ``bits``.
    """
    (a, b), dt = _operands(name, x1, x2)
    if dt.kind not in "iu":
        raise TypeError(f"{name}: expected integer arrays, got {dt}")
    a, b = _broadcast([a, b])
    bits = dt.itemsize * 8
    b = b.astype(DEFAULT_INT)
    b = nd.where(
        nd.broadcast_lesser(b, nd.zeros_like(b)), nd.full(b.shape, bits, dtype=DEFAULT_INT), b
    )
    return a.astype(DEFAULT_INT), nd.clip(b, 0, bits), dt, bits


def _pow2(count: Any) -> Any:
    """2**count in int64 for 0 <= count <= 62 (powers of two are exact in float64 too)."""
    return nd.broadcast_power(nd.full(count.shape, 2, dtype=DEFAULT_INT), count)


def _at_least(count: Any, n: int) -> Any:
    return nd.broadcast_greater_equal(count, nd.full(count.shape, n, dtype=DEFAULT_INT))


@numpy_shapes
def bitwise_left_shift(x1: Any, x2: Any, /) -> Any:
    """``x1 * 2**x2`` in int64, wrapped back to the dtype (MXNet has no shift operator).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> from ivy_like.backends.mxnet import elementwise
    >>> x = mx.nd.array([1, -3], dtype="int32")
    >>> B.to_numpy(elementwise.bitwise_left_shift(x, mx.nd.array([4, 40], dtype="int32")))
    array([16,  0], dtype=int32)
    """
    a, count, dt, bits = _shift_operands("bitwise_left_shift", x1, x2)
    first = nd.minimum(count, nd.full(count.shape, 62, dtype=DEFAULT_INT))
    out = a * _pow2(first) * _pow2(count - first)  # int64 multiplication wraps
    return nd.where(_at_least(count, bits), nd.zeros_like(out), out).astype(dt)


@numpy_shapes
def bitwise_right_shift(x1: Any, x2: Any, /) -> Any:
    """Arithmetic shift as floor division by ``2**x2`` (MXNet has no shift operator).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> from ivy_like.backends.mxnet import elementwise
    >>> B.to_numpy(elementwise.bitwise_right_shift(mx.nd.array([-10, 12], dtype="int32"), 1))
    array([-5,  6], dtype=int32)
    """
    a, count, dt, bits = _shift_operands("bitwise_right_shift", x1, x2)
    out = floor_divide(a, _pow2(nd.minimum(count, nd.full(count.shape, 62, dtype=DEFAULT_INT))))
    # Shifts by the width - 1 or more leave the sign: 0 or -1 (0 for unsigned types).
    sign = nd.negative(nd.broadcast_lesser(a, nd.zeros_like(a)))
    limit = bits if dt.kind == "u" else builtins.min(bits - 1, 63)
    out = nd.where(_at_least(count, limit), sign, out)
    return out.astype(dt)


@numpy_shapes
def real(x: Any, /) -> Any:
    return nd.identity(x)  # MXNet has no complex dtypes: real arrays are their own real part


@numpy_shapes
def conj(x: Any, /) -> Any:
    return nd.identity(x)


@numpy_shapes
def imag(x: Any, /) -> Any:
    return nd.zeros_like(x)


clip = _elementwise.clip_for(maximum, minimum, astype)

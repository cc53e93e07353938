"""mlx backend: the array API elementwise functions.

Aliases of ``mlx.core``, with wrappers where MLX differs from the rules of
``ivy_like.ops.elementwise``:

* integer ``floor_divide``/``remainder``: ``x % 0`` gives ``x`` in MLX and ``INT_MIN // -1``
  or ``INT_MIN % -1`` kill the process with SIGFPE; here divisors 0 and -1 are never passed to
  MLX's kernel (``x // -1`` is ``-x``, wrapping);
* shifts by the bit width or more (MLX wraps the count for 32/64-bit integers);
* ``sign`` of NaN (MLX gives 0);
* ``complex64`` with ``float64`` promotes to ``complex128``, which MLX lacks: ``add``,
  ``subtract``, ``multiply``, ``divide``, ``pow``, ``where``, ``equal`` and ``not_equal`` raise
  ``TypeError`` instead of MLX's silent ``complex64``;
* ``copysign``, ``hypot``, ``nextafter``, ``signbit`` (missing) and complex ``expm1``
  (no kernel), composed from MLX ops.
"""

from __future__ import annotations

from typing import Any, Callable

import mlx.core as mx

from .._common import elementwise as _elementwise
from .._common.elementwise import (
    NUMPY_LIKE,
    NUMPY_SPELLING,
    SAME_NAME_UNARY,
    expm1_parts,
    int_pow,
    nextafter_bits,
)
from .._common.helpers import named
from . import DTYPES
from .manipulation import astype

_INTEGER = frozenset(v for k, v in DTYPES.items() if k.kind in "iu")
_SIGNED = frozenset(v for k, v in DTYPES.items() if k.kind == "i")
_SAME_WIDTH_INT = {mx.float16: mx.int16, mx.bfloat16: mx.int16, mx.float32: mx.int32}
if mx.float64 in DTYPES.values():
    _SAME_WIDTH_INT[mx.float64] = mx.int64


def _pair(x1: Any, x2: Any) -> tuple[Any, Any]:
    """Both operands as arrays of MLX's promoted dtype (Python scalars weak)."""
    a1, a2 = isinstance(x1, mx.array), isinstance(x2, mx.array)
    if a1 and a2:
        dt = x1.dtype if x1.dtype == x2.dtype else mx.result_type(x1, x2)
    else:
        arr, scalar = (x1, x2) if a1 else (x2, x1)
        dt = (mx.zeros((), dtype=arr.dtype) + scalar).dtype  # MLX's own weak-scalar rule
    return _as(x1, dt), _as(x2, dt)


def _as(value: Any, dtype: Any) -> Any:
    if isinstance(value, mx.array):
        return value if value.dtype == dtype else value.astype(dtype)
    return mx.array(value, dtype=dtype)


def _integers(x1: Any, x2: Any) -> bool:
    """True when both operands are integer arrays or Python ints (an integer result)."""
    for v in (x1, x2):
        if isinstance(v, mx.array):
            if v.dtype not in _INTEGER:
                return False
        elif type(v) is not int:
            return False
    return True


# mlx.core follows NumPy here (checked): Python's sign rules for // and %, NaN-propagating
# maximum/minimum, weak Python scalars.
maximum = mx.maximum
minimum = mx.minimum
globals().update(
    _elementwise.aliases(
        mx, "less less_equal greater greater_equal logical_and logical_or " + SAME_NAME_UNARY
    )
)


# -- promotion beyond MLX's dtypes ----------------------------------------------------------------
_C64 = mx.complex64
_HAS_F64 = mx.float64 in DTYPES.values()


def _no_complex128(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn``, raising where the standard's result would be complex128 (MLX has none).

    MLX computes complex64 with float64 in complex64; such results come out complex64, so the
    operands are inspected only then.
    """
    if not _HAS_F64:
        return fn  # no float64 either: every promotion stays within MLX's dtypes

    def check(out: Any, x1: Any, x2: Any) -> Any:
        if out.dtype == _C64:
            # Only arrays have a dtype to compare: MLX's dtype == None raises TypeError, and a
            # Python scalar beside a complex64 array never makes complex128 (it stays weak).
            if any(isinstance(v, mx.array) and v.dtype == mx.float64 for v in (x1, x2)):
                raise TypeError(
                    f"{name}: complex64 with float64 promotes to complex128, which the mlx "
                    "backend does not support; convert one operand first"
                )
        return out

    if name == "where":

        def op(condition: Any, x1: Any, x2: Any, /) -> Any:
            return check(fn(condition, x1, x2), x1, x2)

    else:  # binary: the check inlined, this is the hot path of every arithmetic operator

        def op(x1: Any, x2: Any, /) -> Any:  # type: ignore[misc]
            out = fn(x1, x2)
            if out.dtype == _C64:
                return check(out, x1, x2)
            return out

    return named(op, name)


def _power(x1: Any, x2: Any, /) -> Any:
    # One dtype read and one set lookup on the common (float) call.
    out = mx.power(x1, x2)
    dtype = out.dtype
    if dtype not in _POW_SPECIAL:
        return out
    if dtype == _C64:
        return _pow_complex(x1, x2)  # the complex128 check of _no_complex128
    if not (type(x2) is int and x2 >= 0):
        # MLX gives 0 for every integer base to a negative power (1 ** -1 too): ivy_like's rule
        # (ops.elementwise.pow), in the graph (no values read).
        a = x1 if isinstance(x1, mx.array) else mx.array(x1, dtype=out.dtype)
        b = x2 if isinstance(x2, mx.array) else mx.array(x2, dtype=out.dtype)
        a, b = a.astype(out.dtype), b.astype(out.dtype)
        return int_pow(a, b, mx.power, mx.where, mx.maximum, lambda v, like: v.astype(like.dtype))
    return out


add = _no_complex128(mx.add, "add")
subtract = _no_complex128(mx.subtract, "subtract")
multiply = _no_complex128(mx.multiply, "multiply")
divide = _no_complex128(mx.divide, "divide")
_pow_complex = _no_complex128(mx.power, "pow")
_POW_SPECIAL = _SIGNED | {_C64}
pow = _power  # noqa: A001  (its own checks, above)
where = _no_complex128(mx.where, "where")


def _no_complex128_comparison(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """Like :func:`_no_complex128` for bool results: the operands are always inspected."""
    if not _HAS_F64:
        return fn

    def op(x1: Any, x2: Any, /) -> Any:
        dtypes = {getattr(x1, "dtype", None), getattr(x2, "dtype", None)}
        if _C64 in dtypes and mx.float64 in dtypes:
            raise TypeError(
                f"{name}: complex64 with float64 promotes to complex128, which the mlx "
                "backend does not support; convert one operand first"
            )
        return fn(x1, x2)

    return named(op, name)


equal = _no_complex128_comparison(mx.equal, "equal")
not_equal = _no_complex128_comparison(mx.not_equal, "not_equal")


# -- division -------------------------------------------------------------------------------------
def floor_divide(x1: Any, x2: Any, /) -> Any:
    """``mx.floor_divide``; integer ``x // 0`` is 0 and ``x // -1`` is ``-x`` (wrapping).

    Examples
    --------
    >>> import mlx.core as mx
    >>> from ivy_like.backends.mlx import elementwise as B
    >>> B.floor_divide(mx.array([7, -7, 5]), mx.array([2, 0, -1]))
    array([3, 0, -5], dtype=int32)
    """
    if not _integers(x1, x2):
        return mx.floor_divide(x1, x2)
    a, b = _pair(x1, x2)
    zero = b == 0
    if a.dtype not in _SIGNED:
        return mx.where(zero, 0, mx.floor_divide(a, mx.where(zero, 1, b)))
    minus_one = b == -1
    out = mx.floor_divide(a, mx.where(zero | minus_one, 1, b))
    return mx.where(zero, 0, mx.where(minus_one, -a, out))


def remainder(x1: Any, x2: Any, /) -> Any:
    """``mx.remainder``; integer ``x % 0`` and ``x % -1`` are 0.

    Examples
    --------
    >>> import mlx.core as mx
    >>> from ivy_like.backends.mlx import elementwise as B
    >>> B.remainder(mx.array([7, -7, 5]), mx.array([3, 0, -1]))
    array([1, 0, 0], dtype=int32)
    """
    if not _integers(x1, x2):
        return mx.remainder(x1, x2)
    a, b = _pair(x1, x2)
    bad = b == 0
    if a.dtype in _SIGNED:
        bad = bad | (b == -1)
    return mx.where(bad, 0, mx.remainder(a, mx.where(bad, 1, b)))


# -- shifts ---------------------------------------------------------------------------------------
# A negative count (left unspecified by the standard) shifts every bit out, as on NumPy, JAX
# and torch: MLX's left shift of signed integers gave garbage (1 << -1 was INT_MIN).
def bitwise_left_shift(x1: Any, x2: Any, /) -> Any:
    a, b = _pair(x1, x2)
    bits = a.dtype.size * 8
    out = mx.left_shift(a, mx.clip(b, 0, bits - 1))
    return mx.where((b >= bits) | (b < 0), 0, out)  # every bit shifted out


def bitwise_right_shift(x1: Any, x2: Any, /) -> Any:
    a, b = _pair(x1, x2)
    bits = a.dtype.size * 8
    # A signed shift by bits-1 already gives 0 or -1; unsigned values must become 0.
    count = mx.minimum(b, bits - 1)
    out = mx.right_shift(a, mx.where(count < 0, bits - 1, count))
    return out if a.dtype in _SIGNED else mx.where(b >= bits, 0, out)


# -- sign bits ------------------------------------------------------------------------------------
def signbit(x: Any, /) -> Any:
    # The top bit, read as the sign of a signed integer of the same width (-0.0 and NaNs
    # with the sign bit set included).
    itype = _SAME_WIDTH_INT.get(x.dtype)
    if itype is not None:
        return mx.view(x, itype) < 0
    if x.dtype in _SIGNED:
        return x < 0
    return mx.zeros(x.shape, dtype=mx.bool_)  # unsigned and bool


copysign = _elementwise.copysign_for(mx, _pair, signbit)


def sign(x: Any, /) -> Any:
    out = mx.sign(x)  # x / |x| for complex
    if x.dtype in _SAME_WIDTH_INT:
        out = mx.where(mx.isnan(x), x, out)  # mx.sign(nan) is 0
    return out


def nextafter(x1: Any, x2: Any, /) -> Any:
    a, b = _pair(x1, x2)
    itype = _SAME_WIDTH_INT.get(a.dtype)
    if itype is None:
        raise TypeError(f"nextafter: expected real floating-point arrays, got {a.dtype}")
    if a.shape != b.shape:  # the derivative rules below are those of same-shaped arguments
        a, b = mx.broadcast_arrays(a, b)
    return _nextafter_views(a, b)


@mx.custom_function
def _nextafter_views(a: Any, b: Any) -> Any:
    # mx.jvp asks the views inside for their jvp even with a rule (MLX 0.32): they see
    # constants. The integer-view step is shared with jax and tensorflow (ops.elementwise).
    a, b = mx.stop_gradient(a), mx.stop_gradient(b)
    itype = _SAME_WIDTH_INT[a.dtype]
    width = a.dtype.size * 8
    bits = nextafter_bits(mx.view(a, itype), mx.view(b, itype), width, mx.where, mx.bitwise_and)
    return mx.where(mx.isnan(a) | mx.isnan(b), a + b, mx.view(bits, a.dtype))  # NaN in, out


# The result is x1 moved by one ulp: its derivative is 1 in x1 and 0 in x2, as torch's and
# as finite differences give (MLX cannot differentiate the bit views).
@_nextafter_views.vjp
def _nextafter_vjp(primals: Any, cotangent: Any, output: Any) -> tuple[Any, Any]:
    return cotangent, mx.zeros_like(cotangent)


@_nextafter_views.jvp
def _nextafter_jvp(primals: Any, tangents: Any) -> Any:
    return tangents[0]


def hypot(x1: Any, x2: Any, /) -> Any:
    a, b = _pair(x1, x2)
    a, b = mx.abs(a), mx.abs(b)
    big, small = mx.maximum(a, b), mx.minimum(a, b)  # NaN propagates through both
    # Scaled by the larger value so the squares cannot overflow; 0/0 gives 0.
    ratio = mx.where(big == 0, 0, small / mx.where(big == 0, 1, big))
    out = big * mx.sqrt(1 + ratio * ratio)
    return mx.where(mx.isinf(a) | mx.isinf(b), float("inf"), out)  # inf even beside NaN


def expm1(x: Any, /) -> Any:
    if not mx.issubdtype(x.dtype, mx.complexfloating):
        return mx.expm1(x)
    re, im = expm1_parts(mx, mx.real(x), mx.imag(x))
    # The parts side by side, seen as complex: re + 1j * im would make a NaN imaginary part
    # spill into the real one (mlx.core has no complex constructor).
    return mx.stack([re, im], axis=-1).view(x.dtype).squeeze(-1)


# mlx.core spells bitwise_invert as the standard does (not NumPy's invert).
globals().update(
    _elementwise.aliases(
        mx,
        NUMPY_LIKE + " bitwise_and bitwise_invert bitwise_or bitwise_xor",
        {**NUMPY_SPELLING, "bitwise_invert": "bitwise_invert"},
    )
)


clip = _elementwise.clip_for(maximum, minimum, astype)

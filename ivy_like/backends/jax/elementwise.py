"""jax backend: the array API elementwise functions.

Mostly aliases of ``jax.numpy``. Changed from plain aliases:

* integer ``floor_divide``/``remainder`` by zero give 0 (``jnp.floor_divide`` gives -1 or -2);
* without 64-bit mode, integer promotions that the standard sends to int64 (int8/16/32 with
  uint32) raise ``TypeError``: JAX would compute them in int32 and wrap silently.
"""

from __future__ import annotations

from typing import Any, Callable

import jax
import jax.numpy as jnp

from .._common import elementwise as _elementwise
from .._common.elementwise import (
    NUMPY_LIKE,
    NUMPY_SPELLING,
    SAME_NAME_UNARY,
    expm1_parts,
    has_nan_bits,
    int_pow,
    nextafter_bits,
)
from .._common.helpers import named
from . import _X64_HINT, DTYPES, X64
from .manipulation import astype

_INTEGER = frozenset(v for k, v in DTYPES.items() if k.kind in "iu")
_FLOATING = frozenset(v for k, v in DTYPES.items() if k.kind == "f")
_UINT32 = jnp.dtype("uint32")
# Pairs whose standard result is int64: JAX's 32-bit mode would give int32.
_NEEDS_X64 = frozenset(
    pair
    for d in ("int8", "int16", "int32")
    for pair in ((jnp.dtype(d), _UINT32), (_UINT32, jnp.dtype(d)))
)


def _check_pair(name: str, x1: Any, x2: Any) -> None:
    d1, d2 = getattr(x1, "dtype", None), getattr(x2, "dtype", None)
    if (d1, d2) in _NEEDS_X64:
        raise TypeError(
            f"{name}: {d1} with {d2} promotes to int64, which the jax backend cannot represent "
            f"without 64-bit mode; {_X64_HINT}"
        )


_INT32 = jnp.dtype("int32")


def _checked(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn`` of two arrays, refusing the int64 promotions 32-bit JAX would truncate.

    Those promotions come out as int32, so the operands are inspected only then: the common
    call pays one dtype read.
    """
    if X64:
        return fn  # every standard promotion is representable

    def op(x1: Any, x2: Any, /) -> Any:
        out = fn(x1, x2)
        if out.dtype is _INT32:
            _check_pair(name, x1, x2)
        return out

    return named(op, name)


def _checked_comparison(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """Like :func:`_checked` for bool results: the operands are always inspected."""
    if X64:
        return fn

    def op(x1: Any, x2: Any, /) -> Any:
        _check_pair(name, x1, x2)
        return fn(x1, x2)

    return named(op, name)


def _traced_power(x1: Any, x2: Any) -> Any:
    # Integers to negative integer powers, ivy_like's rule (ops.elementwise.pow): jnp.power
    # raises for a negative Python exponent and returns garbage for negative array entries
    # (3 ** -1 gave 2111105451). Traced by _power below, so the dtype tests run once per
    # signature; for int32 results also the 32-bit promotion check of _checked.
    out = jnp.power(x1, x2)
    dtype = out.dtype
    if dtype.kind == "i":
        if dtype == _INT32 and not X64:
            _check_pair("pow", x1, x2)
        return _signed_int_pow(x1, x2)
    return out


# One jitted call: 4.7 us against 8.4 for jnp.power on a float32 3-vector here (jnp.power's
# own argument handling is skipped), and the rule above costs nothing at run time. JAX
# compiles per shape and dtype either way.
_power = jax.jit(_traced_power)


def _signed_int_pow(x1: Any, x2: Any) -> Any:
    dtype = jnp.result_type(x1, x2)
    a, b = jnp.asarray(x1, dtype=dtype), jnp.asarray(x2, dtype=dtype)
    return int_pow(a, b, jnp.power, jnp.where, jnp.maximum, lambda v, like: v.astype(like.dtype))


add = _checked(jnp.add, "add")
subtract = _checked(jnp.subtract, "subtract")
multiply = _checked(jnp.multiply, "multiply")
pow = _power  # noqa: A001  (its own checks, above)
maximum = _checked(jnp.maximum, "maximum")
minimum = _checked(jnp.minimum, "minimum")
equal = _checked_comparison(jnp.equal, "equal")
not_equal = _checked_comparison(jnp.not_equal, "not_equal")
less = _checked_comparison(jnp.less, "less")
less_equal = _checked_comparison(jnp.less_equal, "less_equal")
greater = _checked_comparison(jnp.greater, "greater")
greater_equal = _checked_comparison(jnp.greater_equal, "greater_equal")
bitwise_and = _checked(jnp.bitwise_and, "bitwise_and")
bitwise_or = _checked(jnp.bitwise_or, "bitwise_or")
bitwise_xor = _checked(jnp.bitwise_xor, "bitwise_xor")
# Shifts by >= the bit width already give 0 (or -1 for negative >>), our rule.
bitwise_left_shift = _checked(jnp.left_shift, "bitwise_left_shift")
bitwise_right_shift = _checked(jnp.right_shift, "bitwise_right_shift")


def where(condition: Any, x1: Any, x2: Any, /) -> Any:
    out = jnp.where(condition, x1, x2)
    if not X64 and out.dtype is _INT32:
        _check_pair("where", x1, x2)
    return out


def _zero_divisor_gives_zero(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn`` (``jnp.floor_divide``/``jnp.remainder``) where integer division by zero gives 0,
    NumPy's result (``jnp`` gives -1 or -2); the 32-bit promotion check of :func:`_checked`.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from ivy_like.backends.jax import elementwise as B
    >>> B.floor_divide(jnp.array([7, -7]), jnp.array([2, 0]))
    Array([3, 0], dtype=int32)
    >>> B.remainder(jnp.array([7, -7]), jnp.array([3, 0]))
    Array([1, 0], dtype=int32)
    """

    def op(x1: Any, x2: Any, /) -> Any:
        out = fn(x1, x2)
        if not X64 and out.dtype is _INT32:
            _check_pair(name, x1, x2)
        return jnp.where(jnp.equal(x2, 0), 0, out) if out.dtype in _INTEGER else out

    doc = f"``jnp.{name}``; integer division by zero gives 0 (NumPy's result)."
    return named(op, name, doc)


_floor_divide = _zero_divisor_gives_zero(jnp.floor_divide, "floor_divide")


def floor_divide(x1: Any, x2: Any, /) -> Any:
    """Integers: ``jnp.floor_divide`` (``x // 0`` is 0). Floats: the floor of the rounded
    quotient, as the standard words it and every backend computes it (the standard's infinite
    cases: ``inf // 2`` is inf, ``1 // -inf`` and ``-0. // 3`` are -0)."""
    if _float(x1) or _float(x2):
        return jnp.floor(jnp.divide(x1, x2))
    return _floor_divide(x1, x2)


def _float(x: Any) -> bool:
    return type(x) is float or getattr(x, "dtype", None) in _FLOATING


remainder = _zero_divisor_gives_zero(jnp.remainder, "remainder")


# jax.numpy already follows NumPy here: Python's sign rules for // and %, NaN-propagating
# maximum/minimum, weak Python scalars (float32 array + 2.0 stays float32).
divide = jnp.divide
globals().update(
    _elementwise.aliases(
        jnp,
        f"logical_and logical_or {SAME_NAME_UNARY} {NUMPY_LIKE} bitwise_invert copysign hypot"
        " signbit",
        NUMPY_SPELLING,
    )
)
sign = jnp.sign  # x / |x| for complex


def expm1(x: Any, /) -> Any:
    if not jnp.iscomplexobj(x):
        return jnp.expm1(x)
    return jax.lax.complex(*expm1_parts(jnp, jnp.real(x), jnp.imag(x)))


clip = _elementwise.clip_for(maximum, minimum, astype)


_INT_VIEW = {jnp.dtype(f"float{w}"): (jnp.dtype(f"int{w}"), w) for w in (16, 32, 64)}


def nextafter(x1: Any, x2: Any, /) -> Any:
    """On the integer views: XLA's CPU float comparisons flush subnormals to zero, so
    ``jnp.nextafter`` stepped from a subnormal to 0 (checked on JAX 0.10)."""
    dtype = jnp.result_type(x1, x2)
    if dtype not in _INT_VIEW:
        return jnp.nextafter(x1, x2)  # integers (promoted there), bfloat16
    a, b = jnp.broadcast_arrays(jnp.asarray(x1, dtype), jnp.asarray(x2, dtype))
    return _nextafter_views(a, b)


@jax.custom_jvp
def _nextafter_views(a: Any, b: Any) -> Any:
    itype, width = _INT_VIEW[a.dtype]
    ia = jax.lax.bitcast_convert_type(a, itype)
    ib = jax.lax.bitcast_convert_type(b, itype)
    out = jax.lax.bitcast_convert_type(
        nextafter_bits(ia, ib, width, jnp.where, jnp.bitwise_and), a.dtype
    )
    return jnp.where(has_nan_bits(ia, ib, width, jnp.bitwise_and), a + b, out)


@_nextafter_views.defjvp
def _nextafter_jvp(primals: tuple[Any, Any], tangents: tuple[Any, Any]) -> tuple[Any, Any]:
    # The result is x1 moved by one ulp: its derivative is 1 in x1 and 0 in x2, as torch's
    # and as finite differences give. Through the bit views JAX would find 0 everywhere.
    return _nextafter_views(*primals), tangents[0]

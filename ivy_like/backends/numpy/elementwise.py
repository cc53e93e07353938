"""numpy backend: array API elementwise functions.

NumPy is the reference: these are aliases, except ``pow`` (integers to negative integer powers)
and ``clip`` (the shared rules of ``ivy_like.ops.elementwise``), ``nextafter`` on float16, and
on NumPy 1.x weak Python scalars (NEP 50) and integer-keeping rounding.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .._common import elementwise as _elementwise
from .._common.elementwise import (
    NUMPY_LIKE,
    NUMPY_SPELLING,
    SAME_NAME_UNARY,
    expm1_parts,
    int_pow,
)
from .._common.helpers import named
from . import DEFAULT_INT
from .manipulation import astype

globals().update(_elementwise.aliases(np, "add subtract multiply divide remainder where"))


def floor_divide(x1: Any, x2: Any, /) -> Any:
    # Floats: the floor of the rounded quotient, as the standard words it; it gives the
    # standard's infinite cases (inf // 2 is inf, 1 // -inf is -0: np.floor_divide gives NaN
    # and -1), agrees with TensorFlow, MLX and MXNet, and is ~10x faster than np.floor_divide's
    # exact division (1 // 0.1 is 10 here, 9 in Python).
    if _float(x1) or _float(x2):
        return np.floor(np.divide(x1, x2))
    return np.floor_divide(x1, x2)


def _float(x: Any) -> bool:
    return x.dtype.kind == "f" if type(x) is np.ndarray else type(x) is float


def pow(x1: Any, x2: Any, /) -> Any:  # noqa: A001
    try:
        return _np_power(x1, x2)
    except ValueError as err:
        # NumPy refuses integers to negative integer powers: ivy_like's rule (ops.elementwise).
        if "negative integer powers" not in str(err):
            raise
        x1, x2 = _int_operands(x1, x2)
        return int_pow(x1, x2, np.power, np.where, np.maximum, lambda a, like: a.astype(like.dtype))


def _int_operands(x1: Any, x2: Any) -> tuple[Any, Any]:
    """Integer operands as arrays, a Python int taking the other's dtype (the standard's rule)."""
    if isinstance(x1, int):
        x1 = np.asarray(x1, dtype=np.asarray(x2).dtype)
    if isinstance(x2, int):
        x2 = np.asarray(x2, dtype=x1.dtype)
    x1, x2 = np.broadcast_arrays(x1, x2)
    return x1, x2


_np_power = np.power
maximum = np.maximum
minimum = np.minimum
_COMPARISONS = "equal not_equal less less_equal greater greater_equal"
globals().update(
    _elementwise.aliases(np, f"{_COMPARISONS} logical_and logical_or {SAME_NAME_UNARY}")
)


if np.__version__ < "2":
    # NumPy 1.x casts by value: a 0-d float32 array plus a Python float gives float64. Python
    # scalars beside an array are made weak here (NEP 50, NumPy 2's rule): they take the
    # array's dtype unless their kind is wider.
    _PY_KIND = {bool: "b", int: "i", float: "f", complex: "c"}
    _KIND_ORDER = "biufc"

    def _weak_pair(x1: Any, x2: Any) -> tuple[Any, Any]:
        k1, k2 = _PY_KIND.get(type(x1)), _PY_KIND.get(type(x2))
        kind = k1 or k2
        if kind is None:
            # Two arrays: NumPy 1.x casts a 0-d one by its value too (int32 200 with an int8
            # array gave int16); the standard promotes by dtypes alone.
            d1, d2 = getattr(x1, "dtype", None), getattr(x2, "dtype", None)
            if d1 is None or d2 is None:  # not an array (None...): NumPy's own error
                return x1, x2
            if d1 != d2 and (np.ndim(x1) == 0) != (np.ndim(x2) == 0):
                dtype = np.promote_types(d1, d2)
                return np.asarray(x1, dtype), np.asarray(x2, dtype)
            return x1, x2
        if k1 and k2:  # two Python scalars: nothing to make weak
            return x1, x2
        arr, value = (np.asarray(x2), x1) if k1 else (np.asarray(x1), x2)
        dt = arr.dtype
        if _KIND_ORDER.index(kind) > _KIND_ORDER.index(dt.kind.replace("u", "i")):
            dt = {"i": DEFAULT_INT, "f": np.dtype("float64"), "c": np.dtype("complex128")}[kind]
            if kind == "c" and arr.dtype == np.float32:
                dt = np.dtype("complex64")
        scalar = (
            np.asarray(value).astype(dt) if kind != "i" or dt.kind != "u" or value >= 0 else value
        )
        return (scalar, arr) if k1 else (arr, scalar)

    def _weak(fn: Any) -> Any:
        def op(x1: Any, x2: Any, /) -> Any:
            return fn(*_weak_pair(x1, x2))

        return named(op, fn.__name__)

    _WEAK = f"add subtract multiply divide remainder {_COMPARISONS}"
    globals().update({name: _weak(getattr(np, name)) for name in _WEAK.split()})
    floor_divide = _weak(floor_divide)
    pow = _weak(pow)  # noqa: A001
    maximum, minimum = _weak(np.maximum), _weak(np.minimum)


# Shifts by >= the bit width give 0 (or -1): our rule. ceil keeps integers' dtype (NumPy 2).
globals().update(
    _elementwise.aliases(
        np,
        NUMPY_LIKE + " bitwise_and bitwise_invert bitwise_left_shift bitwise_or bitwise_right_shift"
        " bitwise_xor copysign hypot signbit",
        NUMPY_SPELLING,
    )
)
sign: Callable[[Any], Any] = np.sign  # x / |x| for complex (NumPy 2)


def expm1(x: Any, /) -> Any:
    if x.dtype.kind != "c":
        return np.expm1(x)
    out = np.empty(x.shape, x.dtype)
    with np.errstate(invalid="ignore", over="ignore"):  # the special cases' NaN and inf
        out.real, out.imag = expm1_parts(np, x.real, x.imag)
    return out


if np.__version__ < "2":  # NumPy 1.x: rounding made floats of integers; sign(z) was z/|z|.real

    def _keep_integers(fn: Any) -> Any:
        def op(x: Any, /) -> Any:
            x = np.asarray(x)
            return x.copy() if x.dtype.kind in "biu" else fn(x)

        return named(op, fn.__name__)

    ceil = _keep_integers(np.ceil)
    floor = _keep_integers(np.floor)
    trunc = _keep_integers(np.trunc)

    def _sign(x: Any, /) -> Any:
        x = np.asarray(x)
        if x.dtype.kind != "c":
            return np.sign(x)
        mag = np.abs(x)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(mag == 0, 0, x / np.where(mag == 0, 1, mag)).astype(x.dtype)

    sign = named(_sign, "sign")
    # The other binary functions, by dtypes alone too (see _weak_pair).
    _BINARY = "bitwise_and bitwise_or bitwise_xor copysign hypot logical_and logical_or"
    globals().update({name: _weak(globals()[name]) for name in _BINARY.split()})


clip = _elementwise.clip_for(maximum, minimum, astype)


_HALF = np.dtype("float16")


def nextafter(x1: Any, x2: Any, /) -> Any:
    out = np.nextafter(x1, x2)
    if out.dtype == _HALF:  # NumPy's own float16 loop gives x1 for 0.0 and -0.0, C gives x2
        out = np.where(np.equal(x1, x2), x2, out).astype(_HALF, copy=False)
    return out

"""Array API data type functions: ``can_cast``, ``finfo``, ``iinfo``, ``isdtype``, ``result_type``.

They work on unified dtypes (and on arrays, through their dtype) and return Python objects, so
they are plain functions, not registry ops. Type promotion is implemented once here, over
unified dtypes, with no framework import:

* within a kind, the standard's table (the wider type wins; ``intN`` with ``uintM`` gives the
  smallest signed type holding both, ``int64`` with ``uint64`` gives ``float64``);
* across kinds (the standard leaves these to implementations) NumPy 2's rules: ``bool`` with
  anything gives the other type; an integer with a floating type gives the smallest floating
  type of at least that width that holds the integer exactly (``int8``/``uint8`` ->
  ``float16``, 16-bit -> ``float32``, 32- and 64-bit -> ``float64``), complex likewise;
* ``bfloat16`` (not in the standard) promotes like ml_dtypes: with ``float16`` it gives
  ``float32``.

``can_cast(a, b)`` is ``result_type(a, b) == b``, which is NumPy's "safe" casting.
"""

from __future__ import annotations

import builtins
from typing import Any, NamedTuple

from .core import backend as _backend
from .core import dtypes as D
from .core.dtypes import Dtype
from .core.registry import OPS

__all__ = ["can_cast", "finfo", "iinfo", "isdtype", "result_type"]

_INT = {(k, b): d for d in D.all_dtypes if d.kind in "iu" for k, b in [(d.kind, d.bits)]}
_FLOAT = {16: D.float16, 32: D.float32, 64: D.float64}
_COMPLEX = {32: D.complex64, 64: D.complex128}  # by the width of one component


def _is_array(value: Any) -> builtins.bool:
    # Arrays carry a dtype; dtypes do not (NumPy scalar *types* do, hence the class check).
    return getattr(value, "dtype", None) is not None and not isinstance(value, type)


def _dtype_of(value: Any, name: str) -> Dtype:
    """The unified dtype of a dtype (unified, string, native) or of an array of any kind."""
    if isinstance(value, Dtype):
        return value
    if isinstance(value, (builtins.bool, int, float, complex)):
        raise TypeError(f"{name}: expected an array or a dtype, got the Python scalar {value!r}")
    if _is_array(value):
        dtype = value.dtype
        if isinstance(dtype, Dtype):  # ivy_like.Array
            return dtype
        try:
            return D.as_dtype(dtype)  # native arrays of every backend, NumPy arrays
        except TypeError:
            pass
    try:
        return D.as_dtype(value)
    except TypeError:
        raise TypeError(
            f"{name}: expected an array or a dtype, got {value!r} of type {type(value).__name__}"
        ) from None


def _float_for_int(d: Dtype) -> int:
    """Bits of the smallest float that holds every value of the integer dtype ``d`` exactly."""
    return {8: 16, 16: 32}.get(d.bits, 64)


def _promote(a: Dtype, b: Dtype) -> Dtype:
    if a == b:
        return a
    if a.kind == "b":
        return b
    if b.kind == "b":
        return a
    if a.kind in "iu" and b.kind in "iu":
        if a.kind == b.kind:
            return a if a.bits >= b.bits else b
        signed, unsigned = (a, b) if a.kind == "i" else (b, a)
        if signed.bits > unsigned.bits:
            return signed
        if unsigned.bits == 64:
            return D.float64  # no integer type holds both int64 and uint64
        return _INT[("i", 2 * unsigned.bits)]
    # At least one floating-point (real or complex) operand.
    complex_ = a.kind == "c" or b.kind == "c"
    if D.bfloat16 in (a, b):
        other = b if a == D.bfloat16 else a
        if other.kind in "iu" and other.bits == 8:
            return D.bfloat16
        if other == D.float16:
            return D.float32
    widths = []
    for d in (a, b):
        if d.kind in "iu":
            widths.append(_float_for_int(d))
        elif d.kind == "c":
            widths.append(d.bits // 2)
        else:
            widths.append(32 if d == D.bfloat16 else d.bits)
    width = builtins.max(widths)
    return _COMPLEX[builtins.max(width, 32)] if complex_ else _FLOAT[width]


def result_type(*arrays_and_dtypes: Any) -> Dtype:
    """The dtype that results from applying type promotion to the arguments.

    Arguments are arrays (``ivy_like.Array``, native or NumPy), dtypes (unified, strings or
    native) and, as in the 2024.12 standard, Python scalars, with at least one array or dtype.
    See the module docstring for the rules (the standard's table, NumPy 2's across kinds).
    A scalar is weak, as in the elementwise functions: it takes the dtype of the others when
    its kind fits in it (an ``int`` outside an integer dtype's range is an ``OverflowError``);
    across kinds, what ``ivy_like.add`` gives on the backend of the first array argument, or
    of the active backend (``int8`` with ``1.0`` is float64 on numpy, float32 on torch).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.result_type(ivy_like.int8, ivy_like.uint8)
    ivy_like.int16
    >>> ivy_like.result_type(ivy_like.array([1, 2], dtype="float32"), "float64")
    ivy_like.float64
    >>> ivy_like.result_type(ivy_like.float32, 2, 1j)
    ivy_like.complex64
    """
    typed = [v for v in arrays_and_dtypes if type(v) not in _SCALAR_TYPES]
    if not typed:
        raise ValueError("result_type: at least one array or dtype is required")
    out = _dtype_of(typed[0], "result_type")
    for value in typed[1:]:
        out = _promote(out, _dtype_of(value, "result_type"))
    for value in arrays_and_dtypes:
        if type(value) in _SCALAR_TYPES:
            out = _with_scalar(out, value, typed)
    return out


_SCALAR_TYPES = (builtins.bool, int, float, complex)


def _backend_for(typed: list[Any]) -> Any:
    """The backend of the first array among ``typed``, else the active one."""
    for value in typed:
        if _is_array(value):
            kind = _backend.kind_of(type(getattr(value, "_data", value)))
            if isinstance(kind, _backend.Backend):
                return kind
    return _backend.current_backend()


def _with_scalar(d: Dtype, value: Any, typed: list[Any]) -> Dtype:
    if type(value) is builtins.bool:
        return d
    if type(value) is int and d.kind in "iu":
        info = iinfo(d)
        if not info.min <= value <= info.max:
            raise OverflowError(f"result_type: Python int {value} is out of bounds for {d}")
        return d
    if (type(value) is int and d.kind in "fc") or (type(value) is float and d.kind in "fc"):
        return d
    if type(value) is complex and d.kind == "c":
        return d
    # Across kinds the standard leaves the result to the implementation: ask the backend's
    # own add (the generated ivy_like.add), so that result_type says what the elementwise
    # functions do there.
    add, zeros = OPS["add"].function, OPS["zeros"].function
    with _backend.use_backend(_backend_for(typed)):
        return add(zeros((), dtype=d), value).dtype  # type: ignore[misc,no-any-return]


def can_cast(from_: Any, to: Any, /) -> builtins.bool:
    """True when ``from_`` (a dtype or an array) promotes to ``to`` (NumPy's "safe" casting).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.can_cast(ivy_like.int8, ivy_like.int32), ivy_like.can_cast("float64", "float32")
    (True, False)
    """
    if _is_array(to):
        raise TypeError("can_cast: to must be a dtype, not an array")
    src = _dtype_of(from_, "can_cast")
    dst = _dtype_of(to, "can_cast")
    return _promote(src, dst) == dst


class finfo_object(NamedTuple):  # noqa: N801 - the standard's name
    """Machine limits of a floating-point dtype (the standard's ``finfo_object``)."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: Dtype


class iinfo_object(NamedTuple):  # noqa: N801 - the standard's name
    """Machine limits of an integer dtype (the standard's ``iinfo_object``)."""

    bits: int
    max: int
    min: int
    dtype: Dtype


def _finfo(dtype: Dtype, mantissa: int, max_exp: int) -> finfo_object:
    """IEEE-style limits from the stored mantissa bits and the largest exponent."""
    largest = (2.0 - 2.0**-mantissa) * 2.0**max_exp
    return finfo_object(
        bits=dtype.bits,
        eps=2.0**-mantissa,
        max=largest,
        min=-largest,
        smallest_normal=2.0 ** (1 - max_exp),
        dtype=dtype,
    )


_FINFO = {
    D.float16: _finfo(D.float16, 10, 15),
    D.bfloat16: _finfo(D.bfloat16, 7, 127),
    D.float32: _finfo(D.float32, 23, 127),
    D.float64: _finfo(D.float64, 52, 1023),
}


def finfo(type: Any, /) -> finfo_object:  # noqa: A002 - the standard's parameter name
    """Machine limits (bits, eps, max, min, smallest_normal, dtype) of a floating-point dtype.

    ``type`` is a dtype or an array. For a complex dtype the limits (and ``dtype``) are those of
    its real component, as the standard says.

    Examples
    --------
    >>> import ivy_like
    >>> info = ivy_like.finfo(ivy_like.float32)
    >>> info.bits, info.eps, info.dtype
    (32, 1.1920928955078125e-07, ivy_like.float32)
    >>> ivy_like.finfo(ivy_like.complex128).dtype
    ivy_like.float64
    """
    dtype = _dtype_of(type, "finfo")
    if dtype.kind == "c":
        dtype = _FLOAT[dtype.bits // 2]
    if dtype.kind != "f":
        raise TypeError(f"finfo: expected a floating-point dtype, got {dtype.name}")
    return _FINFO[dtype]


def iinfo(type: Any, /) -> iinfo_object:  # noqa: A002 - the standard's parameter name
    """Machine limits (bits, max, min, dtype) of an integer dtype; ``type`` is a dtype or array.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.iinfo(ivy_like.int8)
    iinfo_object(bits=8, max=127, min=-128, dtype=ivy_like.int8)
    """
    dtype = _dtype_of(type, "iinfo")
    if dtype.kind == "i":
        return iinfo_object(dtype.bits, 2 ** (dtype.bits - 1) - 1, -(2 ** (dtype.bits - 1)), dtype)
    if dtype.kind == "u":
        return iinfo_object(dtype.bits, 2**dtype.bits - 1, 0, dtype)
    raise TypeError(f"iinfo: expected an integer dtype, got {dtype.name}")


_KINDS = {
    "bool": "b",
    "signed integer": "i",
    "unsigned integer": "u",
    "integral": "iu",
    "real floating": "f",
    "complex floating": "c",
    "numeric": "iufc",
}


def isdtype(dtype: Any, kind: Any) -> builtins.bool:
    """True when ``dtype`` is of ``kind``: a dtype, a kind name or a tuple of them.

    Kind names: ``"bool"``, ``"signed integer"``, ``"unsigned integer"``, ``"integral"``,
    ``"real floating"``, ``"complex floating"``, ``"numeric"``. ``dtype`` must be a dtype
    (unified, a string or native), not an array.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.isdtype(ivy_like.float32, ("integral", "real floating"))
    True
    >>> ivy_like.isdtype(ivy_like.int8, ivy_like.int16)
    False
    """
    if _is_array(dtype):
        raise TypeError("isdtype: dtype must be a dtype, not an array")
    d = _dtype_of(dtype, "isdtype")
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if isinstance(k, str) and k in _KINDS:
            if d.kind in _KINDS[k]:
                return True
        elif isinstance(k, str) or isinstance(k, tuple):
            raise ValueError(f"isdtype: unknown kind {k!r}; expected one of {sorted(_KINDS)}")
        elif d == _dtype_of(k, "isdtype"):
            return True
    return False

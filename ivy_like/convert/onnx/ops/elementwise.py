"""The elementwise ONNX operators: arithmetic (``Add`` ... ``Pow``, ``Mod``), the variadic
``Max``/``Min``/``Sum``/``Mean``, comparisons and logic, bitwise operators and ``BitShift``,
unary math (``Abs`` ... ``Erf``, ``Round``, ``IsInf``), ``Clip``, ``Where``, ``Identity``,
``Cast`` and ``CastLike``. The activations (``Relu``, ``Gelu``, ``Dropout`` ...) are in
:mod:`.activations`.

ONNX inputs of a binary operator share one dtype (``Pow`` and ``BitShift`` aside) and the result
keeps it, so no handler promotes; integer ``Div`` truncates toward zero as C does.
"""

from __future__ import annotations

from functools import reduce
from typing import Any

import ivy_like as il

from ..._special import erf as _erf  # ivy_like has no erf op: a fit made of ivy_like ops
from .._table import ONNX_DTYPES, Node, Refused, has_dtype, index_dtype, onnx_op

_NAMES = {
    8: "string",
    17: "float8e4m3fn",
    18: "float8e4m3fnuz",
    19: "float8e5m2",
    20: "float8e5m2fnuz",
    21: "uint4",
    22: "int4",
    23: "float4e2m1",
    24: "float8e8m0",
    25: "uint2",
    26: "int2",
    27: "float6e2m3",
    28: "float6e3m2",
}
# Without 64-bit types (JAX without x64) a 64-bit result is the 32-bit one, as JAX gives itself.
_NARROW = {"float64": "float32", "uint64": "uint32", "complex128": "complex64"}


def _is_int(x: Any) -> bool:
    return il.isdtype(x.dtype, "integral")


def _is_signed(x: Any) -> bool:
    return il.isdtype(x.dtype, "signed integer")


def backend_dtype(name: str) -> Any:
    """The ivy_like dtype for the ONNX dtype ``name`` on the active backend: itself, or its
    32-bit form where the backend has no 64-bit one (JAX without x64)."""
    if has_dtype(name):
        return il.as_dtype(name)
    if name == "int64":
        return index_dtype()
    if name in _NARROW and has_dtype(_NARROW[name]):
        return il.as_dtype(_NARROW[name])
    raise TypeError(f"the {il.current_backend().name} backend has no {name} dtype")


def _refuse_dtype(node: Node, i: int, what: str) -> None:
    """Refuse a node whose input ``i`` has a dtype ivy_like lacks (strings, float8 ...)."""
    v = node.ins[i] if i < len(node.ins) else None
    if v is None or v.dtype is None:
        return
    if v.dtype.kind in "OUS":
        raise Refused(f"{node.op_type}: {what} is a string tensor, which ivy_like has no dtype for")
    if v.dtype.name not in ONNX_DTYPES.values():
        raise Refused(f"{node.op_type}: {what} has dtype {v.dtype.name}, which ivy_like lacks")


def _no_strings(*inputs: int) -> Any:
    """A rule passing the attributes on, refusing string (and other foreign) inputs."""

    def rule(node: Node) -> dict[str, Any]:
        for i in inputs:
            _refuse_dtype(node, i, f"input {i}")
        return dict(node.attrs)

    return rule


# -- arithmetic -----------------------------------------------------------------------------------


@onnx_op("Add", since=7)
def add(a: Any, b: Any) -> Any:
    return il.add(a, b)


@onnx_op("Sub", since=7)
def sub(a: Any, b: Any) -> Any:
    return il.subtract(a, b)


@onnx_op("Mul", since=7)
def mul(a: Any, b: Any) -> Any:
    return il.multiply(a, b)


@onnx_op("Div", since=7)
def div(a: Any, b: Any) -> Any:
    """True division for floats; integers truncate toward zero (C), not floor (Python)."""
    if not _is_int(a):
        return il.divide(a, b)
    q = il.floor_divide(a, b)
    if not _is_signed(a):
        return q
    # the floored quotient is one below the truncated one when the division is inexact and
    # the signs differ; integer ops throughout, exact for every int64
    r = il.remainder(a, b)
    late = il.logical_and(il.not_equal(r, 0), il.not_equal(il.less(a, 0), il.less(b, 0)))
    return il.add(q, il.astype(late, q.dtype))


@onnx_op("Mod", since=10)
def mod(a: Any, b: Any, fmod: int = 0) -> Any:
    """``fmod=0``: the sign of the divisor (Python's ``%``); ``fmod=1``: that of the dividend
    (C's ``fmod``)."""
    if not fmod:
        return il.remainder(a, b)
    if _is_int(a):
        # the floored remainder differs from C's by one divisor when their signs differ
        r = il.remainder(a, b)
        off = il.logical_and(il.not_equal(r, 0), il.not_equal(il.less(r, 0), il.less(a, 0)))
        return il.where(off, il.subtract(r, b), r)
    # of non-negative operands both remainders agree, so no rounding comes from a correction
    r = il.remainder(il.abs(a), il.abs(b))
    return il.where(il.less(a, 0), il.negative(r), r)


@onnx_op("Pow", since=7)
def pow_(x: Any, y: Any) -> Any:
    """``x ** y`` in ``x``'s dtype; from opset 12 ``y`` may have another dtype."""
    if x.dtype == y.dtype:
        return il.pow(x, y)
    if _is_int(x) and not _is_int(y):
        # an integer base with a float exponent: computed in the exponent's dtype, then cut
        return il.astype(il.pow(il.astype(x, y.dtype), y), x.dtype)
    if not _is_int(x) and not _is_int(y):
        wide = il.result_type(x, y)
        return il.astype(il.pow(il.astype(x, wide), il.astype(y, wide)), x.dtype)
    return il.pow(x, il.astype(y, x.dtype))


def _fold(op: Any, xs: tuple[Any, ...]) -> Any:
    if not xs:
        raise TypeError("a variadic ONNX operator needs at least one input")
    return reduce(op, xs)


@onnx_op("Max", since=6)
def max_(*xs: Any) -> Any:
    return _fold(il.maximum, xs)


@onnx_op("Min", since=6)
def min_(*xs: Any) -> Any:
    return _fold(il.minimum, xs)


@onnx_op("Sum", since=6)
def sum_(*xs: Any) -> Any:
    return _fold(il.add, xs)


@onnx_op("Mean", since=6)
def mean(*xs: Any) -> Any:
    total = _fold(il.add, xs)
    return total if len(xs) == 1 else il.divide(total, len(xs))


# -- comparisons and logic ------------------------------------------------------------------------


@onnx_op("Equal", since=7, attrs=_no_strings(0, 1))
def equal(a: Any, b: Any) -> Any:
    return il.equal(a, b)


@onnx_op("Greater", since=7)
def greater(a: Any, b: Any) -> Any:
    return il.greater(a, b)


@onnx_op("GreaterOrEqual", since=12)
def greater_or_equal(a: Any, b: Any) -> Any:
    return il.greater_equal(a, b)


@onnx_op("Less", since=7)
def less(a: Any, b: Any) -> Any:
    return il.less(a, b)


@onnx_op("LessOrEqual", since=12)
def less_or_equal(a: Any, b: Any) -> Any:
    return il.less_equal(a, b)


@onnx_op("And", since=7)
def and_(a: Any, b: Any) -> Any:
    return il.logical_and(a, b)


@onnx_op("Or", since=7)
def or_(a: Any, b: Any) -> Any:
    return il.logical_or(a, b)


@onnx_op("Xor", since=7)
def xor(a: Any, b: Any) -> Any:
    return il.logical_xor(a, b)


@onnx_op("Not", since=1)
def not_(x: Any) -> Any:
    return il.logical_not(x)


@onnx_op("Where", since=9, attrs=_no_strings(1, 2))
def where(condition: Any, x: Any, y: Any) -> Any:
    return il.where(condition, x, y)


# -- bitwise --------------------------------------------------------------------------------------


@onnx_op("BitwiseAnd", since=18)
def bitwise_and(a: Any, b: Any) -> Any:
    return il.bitwise_and(a, b)


@onnx_op("BitwiseOr", since=18)
def bitwise_or(a: Any, b: Any) -> Any:
    return il.bitwise_or(a, b)


@onnx_op("BitwiseXor", since=18)
def bitwise_xor(a: Any, b: Any) -> Any:
    return il.bitwise_xor(a, b)


@onnx_op("BitwiseNot", since=18)
def bitwise_not(x: Any) -> Any:
    return il.bitwise_invert(x)


def _bitshift_rule(node: Node) -> dict[str, Any]:
    direction = node.attr("direction")
    if direction not in ("LEFT", "RIGHT"):
        raise Refused(f"BitShift: direction must be 'LEFT' or 'RIGHT', got {direction!r}")
    return {"direction": direction}


@onnx_op("BitShift", since=11, attrs=_bitshift_rule)
def bit_shift(x: Any, y: Any, direction: str = "LEFT") -> Any:
    """Opset 28's rule, which earlier opsets leave open: a count below 0 or from the bit width
    on shifts every bit out (0, or -1 for a negative number shifted right)."""
    bits = il.iinfo(x.dtype).bits
    valid = il.logical_and(il.greater_equal(y, 0), il.less(y, bits))
    count = il.where(valid, y, il.zeros_like(y))  # backends differ on counts out of range
    if direction == "LEFT":
        shifted = il.bitwise_left_shift(x, count)
        return il.where(valid, shifted, il.zeros_like(shifted))
    shifted = il.bitwise_right_shift(x, count)
    fill = il.zeros_like(shifted)
    if _is_signed(x):
        fill = il.where(il.less(x, 0), il.full_like(shifted, -1), fill)
    return il.where(valid, shifted, fill)


# -- unary math -----------------------------------------------------------------------------------


def _unary(name: str, since: int, fn: Any) -> None:
    def handler(x: Any) -> Any:
        return fn(x)

    handler.__name__ = handler.__qualname__ = name.lower()
    handler.__doc__ = f"ONNX ``{name}``."
    onnx_op(name, since=since)(handler)


for _name, _since, _fn in (
    ("Abs", 6, il.abs),
    ("Neg", 6, il.negative),
    ("Sign", 9, il.sign),
    ("Ceil", 6, il.ceil),
    ("Floor", 6, il.floor),
    ("Round", 11, il.round),  # half to even, as ONNX
    ("Exp", 6, il.exp),
    ("Log", 6, il.log),
    ("Sqrt", 6, il.sqrt),
    ("Reciprocal", 6, il.reciprocal),
    ("Sin", 7, il.sin),
    ("Cos", 7, il.cos),
    ("Tan", 7, il.tan),
    ("Asin", 7, il.asin),
    ("Acos", 7, il.acos),
    ("Atan", 7, il.atan),
    ("Sinh", 9, il.sinh),
    ("Cosh", 9, il.cosh),
    ("Asinh", 9, il.asinh),
    ("Acosh", 9, il.acosh),
    ("Atanh", 9, il.atanh),
    ("Tanh", 6, il.tanh),
    ("IsNaN", 9, il.isnan),
):
    _unary(_name, _since, _fn)


@onnx_op("Erf", since=9)
def erf(x: Any) -> Any:
    if _is_int(x):  # Erf accepts integers: computed in floats, truncated back as ONNX does
        wide = backend_dtype("float64")
        return il.astype(_erf(il.astype(x, wide)), x.dtype)
    return _erf(x)


@onnx_op("IsInf", since=10)
def is_inf(x: Any, detect_negative: int = 1, detect_positive: int = 1) -> Any:
    inf = il.isinf(x)
    if detect_negative and detect_positive:
        return inf
    if detect_negative:
        return il.logical_and(inf, il.less(x, 0))
    if detect_positive:
        return il.logical_and(inf, il.greater(x, 0))
    return il.zeros_like(x, dtype=il.bool)


def _clip_rule(node: Node) -> dict[str, Any]:
    # before opset 11 the bounds are attributes; from 11 they are (optional) inputs
    if node.opset < 11:
        return {"min": node.attr("min"), "max": node.attr("max")}
    return {}


@onnx_op("Clip", since=6, attrs=_clip_rule)
def clip(x: Any, min: Any = None, max: Any = None) -> Any:  # noqa: A002 - ONNX's names
    """``min(max(x, lo), hi)``: where ``lo > hi`` every value is ``hi``, as ONNX says."""
    if min is not None:
        x = il.maximum(x, _like(min, x))
    if max is not None:
        x = il.minimum(x, _like(max, x))
    return x


def _like(bound: Any, x: Any) -> Any:
    """An attribute bound (a Python float) as ``x``'s dtype; a tensor bound already is."""
    if isinstance(bound, float) and _is_int(x):
        return int(bound)
    return bound


@onnx_op("Identity", since=1)
def identity(x: Any) -> Any:
    return x


# -- casts ----------------------------------------------------------------------------------------


def _cast_rule(node: Node) -> dict[str, Any]:
    to = node.attr("to")
    if to not in ONNX_DTYPES:
        name = _NAMES.get(to, f"element type {to}")
        raise Refused(f"Cast: ivy_like has no {name} dtype to cast to")
    _refuse_dtype(node, 0, "its input")
    # saturate only concerns float8 targets, and round_mode float8e8m0: both refused above
    return {"to": ONNX_DTYPES[to]}


@onnx_op("Cast", since=6, attrs=_cast_rule)
def cast(x: Any, to: str = "float32") -> Any:
    """``x`` as the dtype ``to`` (floats to integers truncate toward zero, as C casts)."""
    return il.astype(x, backend_dtype(to))


def _castlike_rule(node: Node) -> dict[str, Any]:
    _refuse_dtype(node, 0, "its input")
    _refuse_dtype(node, 1, "target_type")
    return {}


@onnx_op("CastLike", since=15, attrs=_castlike_rule)
def cast_like(x: Any, target_type: Any) -> Any:
    return il.astype(x, target_type.dtype)

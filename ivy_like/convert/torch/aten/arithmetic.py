"""ATen ops -> ivy_like: elementwise arithmetic, comparisons, logic and selection
(``add``, ``where``...).

Registered in the table of :mod:`.registry` by the ``@aten`` decorator.
"""

from __future__ import annotations

from typing import Any

import ivy_like as il

from .registry import _ALL, ATEN, Handler, _is_float, aten

# -- elementwise arithmetic --------------------------------------------------------------------


@aten("add.Tensor", "add.Scalar", promote=_ALL)
def add(x: Any, y: Any, alpha: Any = 1) -> Any:
    return il.add(x, y if alpha == 1 else il.multiply(y, alpha))


@aten("sub.Tensor", "sub.Scalar", promote=_ALL)
def sub(x: Any, y: Any, alpha: Any = 1) -> Any:
    return il.subtract(x, y if alpha == 1 else il.multiply(y, alpha))


@aten("rsub.Tensor", "rsub.Scalar", promote=_ALL)
def rsub(x: Any, y: Any, alpha: Any = 1) -> Any:
    return il.subtract(y, x if alpha == 1 else il.multiply(x, alpha))


@aten("mul.Tensor", "mul.Scalar", promote=_ALL)
def mul(x: Any, y: Any) -> Any:
    return il.multiply(x, y)


@aten("div.Tensor", "div.Scalar", promote=_ALL)
def div(x: Any, y: Any) -> Any:
    return il.divide(x, y)


def _check_rounding(x: Any, y: Any, rounding_mode: Any = None) -> str | None:
    if rounding_mode not in (None, "trunc", "floor"):
        return f"rounding_mode={rounding_mode!r}"
    return None


@aten("div.Tensor_mode", "div.Scalar_mode", promote=_ALL, check=_check_rounding)
def div_mode(x: Any, y: Any, rounding_mode: Any = None) -> Any:
    if rounding_mode is None:
        return il.divide(x, y)
    if rounding_mode == "floor":
        return il.floor_divide(x, y)
    q = il.trunc(il.divide(x, y))
    return q if _is_float(x) else il.astype(q, x.dtype)


@aten("floor_divide.default", "floor_divide.Scalar", promote=_ALL)
def floor_divide(x: Any, y: Any) -> Any:
    return il.floor_divide(x, y)


@aten("remainder.Tensor", "remainder.Scalar", promote=_ALL)
def remainder(x: Any, y: Any) -> Any:
    return il.remainder(x, y)  # Python's sign rule, as torch.remainder


@aten("fmod.Tensor", "fmod.Scalar", promote=_ALL)
def fmod(x: Any, y: Any) -> Any:
    """C's fmod (the sign of ``x``) from the floored remainder, exact for ints and floats."""
    r = il.remainder(x, y)
    wrong_sign = il.logical_and(il.not_equal(r, 0), il.not_equal(il.less(r, 0), il.less(x, 0)))
    return il.where(wrong_sign, il.subtract(r, y), r)


@aten("hypot.default", promote=_ALL)
def hypot(x: Any, y: Any) -> Any:
    return il.sqrt(il.add(il.multiply(x, x), il.multiply(y, y)))


@aten("exp2.default")
def exp2(x: Any) -> Any:
    return il.pow(il.full_like(x, 2.0), x)


@aten("neg.default")
def neg(x: Any) -> Any:
    return il.negative(x)


@aten("pow.Tensor_Scalar", "pow.Tensor_Tensor", promote=_ALL)
def pow_(x: Any, y: Any) -> Any:
    if isinstance(y, (int, float)) and y == 2:
        return il.multiply(x, x)  # the common square, as exact as torch's and cheaper
    return il.pow(x, y)


@aten("pow.Scalar", promote=_ALL)
def pow_scalar(x: Any, y: Any) -> Any:
    return il.pow(il.full_like(y, x), y) if isinstance(x, (int, float)) else il.pow(x, y)


@aten("rsqrt.default")
def rsqrt(x: Any) -> Any:
    return il.reciprocal(il.sqrt(x))


def _unary(name: str, fn: Handler) -> None:
    ATEN[f"aten.{name}.default"] = fn


# The tables are annotated: mypy would otherwise join the value types, the stubs' overloads
# of every function, which takes it many minutes.
_UNARY: dict[str, Handler] = {
    "abs": il.abs,
    "exp": il.exp,
    "expm1": il.expm1,
    "log": il.log,
    "log1p": il.log1p,
    "log2": il.log2,
    "log10": il.log10,
    "sqrt": il.sqrt,
    "sin": il.sin,
    "cos": il.cos,
    "tan": il.tan,
    "tanh": il.tanh,
    "asin": il.asin,
    "acos": il.acos,
    "atan": il.atan,
    "sinh": il.sinh,
    "cosh": il.cosh,
    "reciprocal": il.reciprocal,
    "floor": il.floor,
    "ceil": il.ceil,
    "trunc": il.trunc,
    "sign": il.sign,
    "square": il.square,
    "isnan": il.isnan,
    "isinf": il.isinf,
    "isfinite": il.isfinite,
    "logical_not": il.logical_not,
    "bitwise_not": il.bitwise_invert,
}
for _name, _fn in _UNARY.items():
    _unary(_name, _fn)


@aten("round.default")
def round_(x: Any) -> Any:
    return il.round(x)  # half to even, as torch.round


@aten("atan2.default", promote=_ALL)
def atan2(x: Any, y: Any) -> Any:
    return il.atan2(x, y)


@aten("maximum.default", promote=_ALL)
def maximum(x: Any, y: Any) -> Any:
    return il.maximum(x, y)


@aten("minimum.default", promote=_ALL)
def minimum(x: Any, y: Any) -> Any:
    return il.minimum(x, y)


def _clamp(x: Any, lo: Any, hi: Any) -> Any:
    # where rather than clip: torch's gradient is 1 on the closed interval [lo, hi], 0 outside
    # (clip's gradient at the bounds differs between frameworks).
    if lo is not None:
        x = il.where(il.less(x, lo), il.zeros_like(x) + lo, x)
    if hi is not None:
        x = il.where(il.greater(x, hi), il.zeros_like(x) + hi, x)
    return x


@aten("clamp.default", "clamp.Tensor", promote=(0, 1, 2))
def clamp(x: Any, min: Any = None, max: Any = None) -> Any:  # noqa: A002 - ATen's names
    return _clamp(x, min, max)


@aten("clamp_min.default", "clamp_min.Tensor", promote=_ALL)
def clamp_min(x: Any, min: Any) -> Any:  # noqa: A002
    return _clamp(x, min, None)


@aten("clamp_max.default", "clamp_max.Tensor", promote=_ALL)
def clamp_max(x: Any, max: Any) -> Any:  # noqa: A002
    return _clamp(x, None, max)


# -- comparisons, logic, selection -----------------------------------------------------------
_BINARY: dict[tuple[str, ...], Handler] = {
    ("eq.Tensor", "eq.Scalar"): il.equal,
    ("ne.Tensor", "ne.Scalar"): il.not_equal,
    ("lt.Tensor", "lt.Scalar"): il.less,
    ("le.Tensor", "le.Scalar"): il.less_equal,
    ("gt.Tensor", "gt.Scalar"): il.greater,
    ("ge.Tensor", "ge.Scalar"): il.greater_equal,
    ("logical_and.default",): il.logical_and,
    ("logical_or.default",): il.logical_or,
    ("logical_xor.default",): il.logical_xor,
    ("bitwise_and.Tensor", "bitwise_and.Scalar", "__and__.Tensor", "__and__.Scalar"): (
        il.bitwise_and
    ),
    ("bitwise_or.Tensor", "bitwise_or.Scalar", "__or__.Tensor", "__or__.Scalar"): il.bitwise_or,
    ("bitwise_xor.Tensor", "bitwise_xor.Scalar", "__xor__.Tensor", "__xor__.Scalar"): (
        il.bitwise_xor
    ),
}
for _names, _fn in _BINARY.items():
    aten(*_names, promote=_ALL)(_fn)


@aten("where.self", promote=(1, 2))
def where(condition: Any, x: Any, y: Any) -> Any:
    return il.where(condition, x, y)


@aten("where.ScalarOther", "where.ScalarSelf", "where.Scalar", promote=(1, 2))
def where_scalar(condition: Any, x: Any, y: Any) -> Any:
    return il.where(condition, x, y)


@aten("masked_fill.Scalar", "masked_fill.Tensor", promote=(0, 2))
def masked_fill(x: Any, mask: Any, value: Any) -> Any:
    return il.where(mask, il.zeros_like(x) + value, x)

"""The table of jax primitives :func:`from_flax` maps a jaxpr with, and the primitives' handlers.

:data:`PRIMITIVES` maps a primitive's name (``"dot_general"``) to an ivy_like function, and
:data:`STATIC` to the rule that turns the equation's parameters into that function's keyword
arguments (or refuses the use), both registered by the :func:`primitive` decorator. Calls
whose body is inlined (:data:`INLINE`) and primitives that pass their operands through
(:data:`IDENTITY`) have no handler. No framework is imported: the table and the list of
supported primitives in ``docs/convert.md`` come without jax.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import ivy_like as il

from .. import _special
from .._casts import cast

Handler = Callable[..., Any]

PRIMITIVES: dict[str, Handler] = {}
STATIC: dict[str, Callable[[Eqn], dict[str, Any]]] = {}
ARITY: dict[str, int] = {}  # how many leading operands go to the handler (the rest are static)
SCALARS: set[str] = set()  # elementwise: a scalar constant operand is written as a Python number
# Calls whose body is inlined; primitives that pass their operands through.
INLINE = frozenset(
    {
        "pjit",
        "jit",
        "closed_call",
        "core_call",
        "custom_jvp_call",
        "custom_vjp_call",
        "custom_vjp_call_jaxpr",
        "remat",
        "remat2",
        "checkpoint",
    }
)
IDENTITY = frozenset({"copy", "copy_p", "sharding_constraint", "optimization_barrier"})
# Why some well-known primitives have no entry: said in the error.
REASONS = {
    "while": "a lax.while_loop / fori_loop: control flow is not converted",
    "cond": "a lax.cond / switch: data-dependent control flow is not converted",
    "scan": "a lax.scan (nn.scan, an RNN over time): control flow is not converted",
    "random_bits": "random numbers (dropout in training mode? trace with deterministic=True)",
    "random_wrap": "random numbers (dropout in training mode? trace with deterministic=True)",
    "threefry2x32": "random numbers (dropout in training mode? trace with deterministic=True)",
}


class Refused(Exception):
    """Raised by a :data:`STATIC` rule: this use of the primitive is not supported (why)."""


@dataclass(frozen=True)
class Eqn:
    """What a :data:`STATIC` rule sees of an equation: its parameters, the shapes and dtypes of
    its operands and results, and the value of each operand known at conversion (else None)."""

    params: dict[str, Any]
    ins: list[Any]  # avals: .shape, .dtype
    outs: list[Any]
    known: list[np.ndarray | None]


def primitive(
    *names: str,
    static: Callable[[Eqn], dict[str, Any]] | None = None,
    arity: int | None = None,
    scalars: bool = False,
) -> Callable[[Handler], Handler]:
    """Register the decorated function for the jax primitives ``names``.

    ``static`` turns the equation's parameters into the handler's keyword arguments (or
    raises :class:`Refused`); ``arity``: only that many leading operands are passed;
    ``scalars``: the op is elementwise and takes Python numbers for scalar constants.
    """

    def register(fn: Handler) -> Handler:
        for name in names:
            PRIMITIVES[name] = fn
            if static is not None:
                STATIC[name] = static
            if arity is not None:
                ARITY[name] = arity
            if scalars:
                SCALARS.add(name)
        return fn

    return register


def supported_primitives() -> list[str]:
    """The jax primitives :func:`ivy_like.convert.from_flax` maps or inlines, sorted.

    Examples
    --------
    >>> from ivy_like.convert.flax.primitives import supported_primitives
    >>> "conv_general_dilated" in supported_primitives()
    True
    """
    return sorted(set(PRIMITIVES) | INLINE | IDENTITY)


def supported_primitives_markdown() -> str:
    """The list of supported jax primitives in ``docs/convert.md`` (generated here, checked by
    the tests)."""
    return ", ".join(f"`{name}`" for name in supported_primitives()) + "\n"


# -- elementwise ---------------------------------------------------------------------------------
def _dtype_name(aval: Any) -> str:
    return np.dtype(aval.dtype).name


def _is_bool(e: Eqn) -> dict[str, Any]:
    return {"logical": _dtype_name(e.ins[0]) == "bool"}


def _is_int(e: Eqn) -> dict[str, Any]:
    return {"integer": np.issubdtype(np.dtype(e.ins[0].dtype), np.integer)}


_BINARY: dict[str, Handler] = {  # annotated: see torch/aten/arithmetic.py
    "add": il.add,
    "sub": il.subtract,
    "mul": il.multiply,
    "max": il.maximum,
    "min": il.minimum,
    "pow": il.pow,
    "atan2": il.atan2,
    "eq": il.equal,
    "ne": il.not_equal,
    "lt": il.less,
    "le": il.less_equal,
    "gt": il.greater,
    "ge": il.greater_equal,
}
for _name, _fn in _BINARY.items():
    primitive(_name, scalars=True)(_fn)


@primitive("div", static=_is_int, scalars=True)
def div(x: Any, y: Any, *, integer: bool) -> Any:
    if not integer:
        return il.divide(x, y)
    q = il.floor_divide(x, y)  # XLA rounds integer quotients toward zero
    inexact = il.logical_and(
        il.not_equal(il.remainder(x, y), 0), il.not_equal(il.less(x, 0), il.less(y, 0))
    )
    return il.where(inexact, il.add(q, 1), q)


@primitive("rem", static=_is_int, scalars=True)
def rem(x: Any, y: Any, *, integer: bool) -> Any:
    """C's remainder: the sign of ``x`` (ivy_like's ``remainder`` takes the sign of ``y``)."""
    if not integer:
        return il.subtract(x, il.multiply(il.trunc(il.divide(x, y)), y))
    r = il.remainder(x, y)
    wrong = il.logical_and(il.not_equal(r, 0), il.not_equal(il.less(r, 0), il.less(x, 0)))
    return il.where(wrong, il.subtract(r, y), r)


@primitive("and", static=_is_bool, scalars=True)
def and_(x: Any, y: Any, *, logical: bool) -> Any:
    return il.logical_and(x, y) if logical else il.bitwise_and(x, y)


@primitive("or", static=_is_bool, scalars=True)
def or_(x: Any, y: Any, *, logical: bool) -> Any:
    return il.logical_or(x, y) if logical else il.bitwise_or(x, y)


@primitive("xor", static=_is_bool, scalars=True)
def xor(x: Any, y: Any, *, logical: bool) -> Any:
    return il.logical_xor(x, y) if logical else il.bitwise_xor(x, y)


@primitive("not", static=_is_bool)
def not_(x: Any, *, logical: bool) -> Any:
    return il.logical_not(x) if logical else il.bitwise_invert(x)


_UNARY: dict[str, Handler] = {  # annotated: see torch/aten/arithmetic.py
    "neg": il.negative,
    "exp": il.exp,
    "log": il.log,
    "log1p": il.log1p,
    "expm1": il.expm1,
    "tanh": il.tanh,
    "logistic": il.nn.sigmoid,
    "sin": il.sin,
    "cos": il.cos,
    "tan": il.tan,
    "asin": il.asin,
    "acos": il.acos,
    "atan": il.atan,
    "sinh": il.sinh,
    "cosh": il.cosh,
    "asinh": il.asinh,
    "acosh": il.acosh,
    "atanh": il.atanh,
    "sqrt": il.sqrt,
    "abs": il.abs,
    "sign": il.sign,
    "floor": il.floor,
    "ceil": il.ceil,
    "is_finite": il.isfinite,
    "square": il.square,
    "stop_gradient": il.stop_gradient,
}
for _name, _fn in _UNARY.items():
    primitive(_name)(_fn)


@primitive("rsqrt")
def rsqrt(x: Any) -> Any:
    return il.reciprocal(il.sqrt(x))


@primitive("exp2")
def exp2(x: Any) -> Any:
    return il.exp(il.multiply(x, math.log(2.0)))


@primitive("cbrt")
def cbrt(x: Any) -> Any:
    return il.multiply(il.sign(x), il.pow(il.abs(x), 1.0 / 3.0))


@primitive("integer_pow", static=lambda e: {"y": int(e.params["y"])})
def integer_pow(x: Any, *, y: int) -> Any:
    return il.square(x) if y == 2 else il.pow(x, y)


def _rounding(e: Eqn) -> dict[str, Any]:
    return {"to_even": int(e.params.get("rounding_method", 0)) == 1}


@primitive("round", static=_rounding)
def round_(x: Any, *, to_even: bool) -> Any:
    if to_even:
        return il.round(x)
    return il.multiply(il.sign(x), il.floor(il.add(il.abs(x), 0.5)))  # halves away from zero


@primitive("erfc")
def erfc(x: Any) -> Any:
    return _special.erfc(x)


@primitive("erf")
def erf(x: Any) -> Any:
    return _special.erf(x)


@primitive("select_n")
def select_n(which: Any, *cases: Any) -> Any:
    if len(cases) == 2 and "bool" in str(which.dtype):
        return il.where(which, cases[1], cases[0])
    out = cases[0]
    for i, case in enumerate(cases[1:], 1):
        out = il.where(il.equal(which, i), case, out)
    return out


@primitive("clamp", scalars=True)
def clamp(lo: Any, x: Any, hi: Any) -> Any:
    return il.minimum(il.maximum(x, lo), hi)


@primitive("convert_element_type", static=lambda e: {"dtype": il.as_dtype(_dtype_name(e.outs[0]))})
def convert_element_type(x: Any, *, dtype: Any) -> Any:
    return cast(x, dtype)


def _reduce_precision(e: Eqn) -> dict[str, Any]:
    finfo = np.finfo(np.dtype(e.ins[0].dtype))
    if (e.params["exponent_bits"], e.params["mantissa_bits"]) != (finfo.nexp, finfo.nmant):
        raise Refused("rounding to a narrower float format")
    return {}


@primitive("reduce_precision", static=_reduce_precision)
def reduce_precision(x: Any) -> Any:
    return x


# -- shapes ----------------------------------------------------------------------------------------
def _broadcast(e: Eqn) -> dict[str, Any]:
    shape = tuple(int(s) for s in e.outs[0].shape)
    expanded = [1] * len(shape)
    for i, d in enumerate(e.params["broadcast_dimensions"]):
        expanded[d] = int(e.ins[0].shape[i])
    same = tuple(expanded) == tuple(e.ins[0].shape)
    return {"expanded": None if same else tuple(expanded), "shape": shape}


@primitive("broadcast_in_dim", static=_broadcast, arity=1)
def broadcast_in_dim(x: Any, *, expanded: tuple[int, ...] | None, shape: tuple[int, ...]) -> Any:
    if expanded is not None:
        x = il.reshape(x, expanded)
    return x if tuple(x.shape) == shape else il.broadcast_to(x, shape)


def _reshape(e: Eqn) -> dict[str, Any]:
    if e.params.get("dimensions") is not None:
        raise Refused("a reshape with dimensions= (a transposition first)")
    return {"shape": tuple(int(s) for s in e.params["new_sizes"])}


@primitive("reshape", static=_reshape, arity=1)
def reshape(x: Any, *, shape: tuple[int, ...]) -> Any:
    return il.reshape(x, shape)


@primitive("transpose", static=lambda e: {"axes": tuple(e.params["permutation"])})
def transpose(x: Any, *, axes: tuple[int, ...]) -> Any:
    return il.permute_dims(x, axes)


@primitive("rev", static=lambda e: {"axis": tuple(int(d) for d in e.params["dimensions"])})
def rev(x: Any, *, axis: tuple[int, ...]) -> Any:
    """Reversed along ``axis`` (``lax.rev``: ``conv_transpose(transpose_kernel=True)`` flips its
    kernel)."""
    return il.flip(x, axis=axis) if axis else x


@primitive("squeeze", static=lambda e: {"axis": tuple(e.params["dimensions"])})
def squeeze(x: Any, *, axis: tuple[int, ...]) -> Any:
    return il.squeeze(x, axis) if axis else x


@primitive("concatenate", static=lambda e: {"axis": int(e.params["dimension"])})
def concatenate(*xs: Any, axis: int) -> Any:
    return il.concat(list(xs), axis=axis)


def _slice(e: Eqn) -> dict[str, Any]:
    steps = e.params.get("strides") or (None,) * len(e.params["start_indices"])
    index = tuple(
        slice(int(a), int(b), None if s in (None, 1) else int(s))
        for a, b, s in zip(e.params["start_indices"], e.params["limit_indices"], steps)
    )
    return {"index": index}


@primitive("slice", static=_slice)
def slice_(x: Any, *, index: tuple[slice, ...]) -> Any:
    return x[index]


def _dynamic_slice(e: Eqn) -> dict[str, Any]:
    starts = e.known[1:]
    if any(s is None for s in starts):
        raise Refused("start indices computed at run time (data-dependent)")
    index = []
    for size, n, s in zip(e.params["slice_sizes"], e.ins[0].shape, starts):
        start = min(max(int(np.asarray(s)), 0), int(n) - int(size))  # XLA clamps the start
        index.append(slice(start, start + int(size)))
    return {"index": tuple(index)}


@primitive("dynamic_slice", static=_dynamic_slice, arity=1)
def dynamic_slice(x: Any, *, index: tuple[slice, ...]) -> Any:
    return x[index]


def _split(e: Eqn) -> dict[str, Any]:
    axis, bounds = int(e.params["axis"]), np.cumsum([0, *e.params["sizes"]])
    return {"axis": axis, "bounds": tuple(int(b) for b in bounds)}


@primitive("split", static=_split)
def split(x: Any, *, axis: int, bounds: tuple[int, ...]) -> tuple[Any, ...]:
    lead = (slice(None),) * axis
    return tuple(x[(*lead, slice(a, b))] for a, b in zip(bounds[:-1], bounds[1:]))


def _pad(e: Eqn) -> dict[str, Any]:
    value = e.known[1]
    if value is None:
        raise Refused("a padding value computed at run time")
    config = e.params["padding_config"]
    if any(interior for _, _, interior in config):
        raise Refused("interior padding")
    widths = tuple((max(int(lo), 0), max(int(hi), 0)) for lo, hi, _ in config)
    crop = tuple(
        slice(max(-int(lo), 0), int(n) + max(int(lo), 0) + max(int(hi), 0) - max(-int(hi), 0))
        for (lo, hi, _), n in zip(config, e.ins[0].shape)
    )
    needs_crop = any(int(lo) < 0 or int(hi) < 0 for lo, hi, _ in config)
    return {
        "widths": widths,
        "value": np.asarray(value).item(),
        "crop": crop if needs_crop else None,
    }


@primitive("pad", static=_pad, arity=1)
def pad(x: Any, *, widths: Any, value: Any, crop: tuple[slice, ...] | None) -> Any:
    if any(lo or hi for lo, hi in widths):
        x = il.pad(x, widths, constant_values=value)
    return x if crop is None else x[crop]


# -- reductions ------------------------------------------------------------------------------------
def _axes(e: Eqn) -> dict[str, Any]:
    return {"axis": tuple(int(a) for a in e.params["axes"])}


_REDUCTIONS: dict[str, Handler] = {  # annotated: see torch/aten/arithmetic.py
    "reduce_sum": il.sum,
    "reduce_max": il.max,
    "reduce_min": il.min,
    "reduce_prod": il.prod,
    "reduce_and": il.all,
    "reduce_or": il.any,
}
for _name, _fn in _REDUCTIONS.items():
    primitive(_name, static=_axes)(
        lambda x, *, axis, _fn=_fn: _fn(x, axis=axis) if axis else x  # noqa: B023 - bound
    )


def _arg(e: Eqn) -> dict[str, Any]:
    return {"axis": int(e.params["axes"][0]), "dtype": il.as_dtype(_dtype_name(e.outs[0]))}


@primitive("argmax", static=_arg)
def argmax(x: Any, *, axis: int, dtype: Any) -> Any:
    return cast(il.argmax(x, axis=axis), dtype)


@primitive("argmin", static=_arg)
def argmin(x: Any, *, axis: int, dtype: Any) -> Any:
    return cast(il.argmin(x, axis=axis), dtype)


def _cumulative(e: Eqn) -> dict[str, Any]:
    return {"axis": int(e.params["axis"]), "reverse": bool(e.params.get("reverse", False))}


@primitive("cumsum", static=_cumulative)
def cumsum(x: Any, *, axis: int, reverse: bool) -> Any:
    if reverse:
        return il.flip(il.cumulative_sum(il.flip(x, axis=axis), axis=axis), axis=axis)
    return il.cumulative_sum(x, axis=axis)


@primitive("cumprod", static=_cumulative)
def cumprod(x: Any, *, axis: int, reverse: bool) -> Any:
    if reverse:
        return il.flip(il.cumulative_prod(il.flip(x, axis=axis), axis=axis), axis=axis)
    return il.cumulative_prod(x, axis=axis)


def _sort(e: Eqn) -> dict[str, Any]:
    """One operand, or ``argsort``'s pair: the operand and the positions along the axis."""
    axis = int(e.params["dimension"])
    if len(e.ins) == 1:
        return {"axis": axis, "positions": None}
    shape = tuple(int(d) for d in e.ins[0].shape)
    positions = e.known[1]
    if len(e.ins) == 2 and int(e.params["num_keys"]) == 1 and positions is not None:
        along = np.arange(shape[axis]).reshape([-1 if d == axis else 1 for d in range(len(shape))])
        if np.array_equal(positions, np.broadcast_to(along, shape)):
            return {"axis": axis, "positions": il.as_dtype(_dtype_name(e.ins[1]))}
    raise Refused("sorting several operands together; one operand, or argsort's pair")


@primitive("sort", static=_sort, arity=1)
def sort(x: Any, *, axis: int, positions: Any) -> tuple[Any, ...]:
    """A result per operand: the sorted values (and their positions, for an argsort)."""
    if positions is None:
        return (il.sort(x, axis=axis),)
    return il.sort(x, axis=axis), cast(il.argsort(x, axis=axis, stable=True), positions)


# -- linear algebra, convolution, pooling, gathers ---------------------------------------------
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _dot_general(e: Eqn) -> dict[str, Any]:
    (lc, rc), (lb, rb) = e.params["dimension_numbers"]
    lc, rc, lb, rb = (tuple(int(d) for d in v) for v in (lc, rc, lb, rb))
    nl, nr = len(e.ins[0].shape), len(e.ins[1].shape)
    dtype = None
    if _dtype_name(e.outs[0]) != _dtype_name(e.ins[0]):
        dtype = il.as_dtype(_dtype_name(e.outs[0]))  # preferred_element_type
    nb = len(lb)
    lead = tuple(range(nb))
    if (
        lb == rb == lead
        and lc == (nl - 1,)
        and ((nb == 0 and rc == (0,) and nr == 2) or (nl == nr == nb + 2 and rc == (nb,)))
    ):
        return {"equation": None, "dtype": dtype}  # a plain matrix product
    if nl + nr > len(_LETTERS):
        raise Refused(f"operands of rank {nl} and {nr}")
    left = list(_LETTERS[:nl])
    right = list(_LETTERS[nl : nl + nr])
    for a, b in zip(lc + lb, rc + rb):
        right[b] = left[a]
    out = [left[d] for d in lb]
    out += [left[d] for d in range(nl) if d not in lc and d not in lb]
    out += [right[d] for d in range(nr) if d not in rc and d not in rb]
    return {"equation": f"{''.join(left)},{''.join(right)}->{''.join(out)}", "dtype": dtype}


@primitive("dot_general", static=_dot_general)
def dot_general(x: Any, y: Any, *, equation: str | None, dtype: Any) -> Any:
    out = il.matmul(x, y) if equation is None else il.einsum(equation, x, y)
    return out if dtype is None else cast(out, dtype)


def _inverse(perm: Sequence[int]) -> tuple[int, ...]:
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return tuple(inv)


def _conv(e: Eqn) -> dict[str, Any]:
    p = e.params
    n = len(p["window_strides"])
    if n not in (1, 2):
        raise Refused(f"a {n}-D convolution; 1-D and 2-D only")
    if p["batch_group_count"] != 1:
        raise Refused("batch_group_count > 1")
    dn = p["dimension_numbers"]
    lhs, rhs, out = (tuple(int(d) for d in spec) for spec in dn)
    last = {1: ((0, 2, 1), (2, 1, 0)), 2: ((0, 3, 1, 2), (3, 2, 0, 1))}[n]
    channels_last = lhs == out == last[0] and rhs == last[1]
    ident = tuple(range(n + 2))
    pads = tuple(p["padding"])
    cut = any(int(lo) < 0 or int(hi) < 0 for lo, hi in pads)
    spread = tuple(int(d) for d in p["lhs_dilation"])  # a transposed convolution's stride
    return {
        "channels_last": channels_last,
        "lhs": None if channels_last or lhs == ident else lhs,
        "rhs": None if channels_last or rhs == ident else rhs,
        "out": None if channels_last or out == ident else _inverse(out),
        "stride": tuple(int(s) for s in p["window_strides"]),
        "padding": tuple((max(int(lo), 0), max(int(hi), 0)) for lo, hi in pads),
        "crop": tuple((max(-int(lo), 0), max(-int(hi), 0)) for lo, hi in pads) if cut else None,
        "spread": spread if any(d != 1 for d in spread) else None,
        "dilation": tuple(int(d) for d in p["rhs_dilation"]),
        "groups": int(p["feature_group_count"]),
    }


def _spread(x: Any, factors: Sequence[int], first: int) -> Any:
    """``x`` with ``d - 1`` zeros between neighbours along each spatial axis (an lhs dilation
    ``d``): each element gets ``d - 1`` zeros after it on a new axis (a pad), the two axes are
    merged (a reshape keeps the order: element ``i`` lands at ``i * d``), and the zeros after
    the last element are cut off, leaving ``(n - 1) * d + 1`` positions."""
    for k, d in enumerate(factors):
        axis = first + k
        n = int(x.shape[axis])
        if d == 1 or n == 0:
            continue
        widths = [(0, 0)] * (len(x.shape) + 1)
        widths[axis + 1] = (0, d - 1)
        x = il.pad(il.expand_dims(x, axis=axis + 1), widths, constant_values=0)
        shape = tuple(int(s) for s in x.shape)
        x = il.reshape(x, shape[:axis] + (n * d,) + shape[axis + 2 :])
        x = x[(slice(None),) * axis + (slice(0, (n - 1) * d + 1),)]
    return x


def _crop(x: Any, crop: Sequence[tuple[int, int]], first: int) -> Any:
    """Negative padding: that many positions removed from each end of each spatial axis."""
    index = [slice(None)] * len(x.shape)
    for k, (lo, hi) in enumerate(crop):
        index[first + k] = slice(lo, int(x.shape[first + k]) - hi)
    return x[tuple(index)]


@primitive("conv_general_dilated", static=_conv)
def conv_general_dilated(
    x: Any,
    w: Any,
    *,
    channels_last: bool,
    lhs: Any,
    rhs: Any,
    out: Any,
    stride: Any,
    padding: Any,
    crop: Any,
    spread: Any,
    dilation: Any,
    groups: int,
) -> Any:
    """NHWC/HWIO (Flax's layouts) natively; other dimension numbers through NCHW/OIHW.

    An lhs dilation (``ConvTranspose``, ``lax.conv_transpose``) spreads the input out with
    zeros first, and negative padding crops it: both are what XLA does to the input before an
    ordinary convolution, so the result is exact."""
    if lhs is not None:
        x = il.permute_dims(x, lhs)
    first = 1 if channels_last else 2  # the first spatial axis
    if spread is not None:
        x = _spread(x, spread, first)
    if crop is not None:
        x = _crop(x, crop, first)
    if rhs is not None:
        w = il.permute_dims(w, rhs)
    if len(stride) == 1:
        y = il.nn.conv1d(
            x,
            w,
            stride=stride[0],
            padding=padding,
            dilation=dilation[0],
            groups=groups,
            data_format="NWC" if channels_last else "NCW",
        )
    else:
        y = il.nn.conv2d(
            x,
            w,
            stride=stride,
            padding=padding,
            dilation=dilation,
            groups=groups,
            data_format="NHWC" if channels_last else "NCHW",
        )
    return y if out is None else il.permute_dims(y, out)


def _window(e: Eqn) -> dict[str, Any]:
    p = e.params
    if any(d != 1 for d in (*p["base_dilation"], *p["window_dilation"])):
        raise Refused("dilated windows")
    window = tuple(int(k) for k in p["window_dimensions"])
    strides = tuple(int(s) for s in p["window_strides"])
    pads = tuple((int(lo), int(hi)) for lo, hi in p["padding"])
    pool = None  # the data format of a 2-D pooling the nn ops do natively
    if len(window) == 4 and window[0] == strides[0] == 1 and pads[0] == (0, 0):
        if window[3] == strides[3] == 1 and pads[3] == (0, 0):
            pool = "NHWC"
        elif window[1] == strides[1] == 1 and pads[1] == (0, 0):
            pool = "NCHW"
    return {"window": window, "strides": strides, "pads": pads, "pool": pool}


def _fill(e: Eqn, how: str) -> Any:
    """The padding value of a window reduction: what the reduction ignores."""
    dtype = np.dtype(e.ins[0].dtype)
    if how == "sum":
        return 0
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return int(info.min if how == "max" else info.max)
    if dtype == np.bool_:
        raise Refused("a window reduction of booleans")
    return -math.inf if how == "max" else math.inf


def _reduce_window(
    x: Any, window: Any, strides: Any, pads: Any, pool: str | None, fill: Any, how: str
) -> Any:
    if any(lo or hi for lo, hi in pads):
        x = il.pad(x, pads, constant_values=fill)
    if pool is not None and how in ("max", "sum"):
        axes = (1, 2) if pool == "NHWC" else (2, 3)
        k, s = tuple(window[a] for a in axes), tuple(strides[a] for a in axes)
        if how == "max":
            return il.nn.max_pool2d(x, k, s, 0, data_format=pool)
        return il.multiply(il.nn.avg_pool2d(x, k, s, 0, data_format=pool), float(k[0] * k[1]))
    # any rank: every window offset as a strided slice, reduced over a new first axis
    shape = tuple(int(d) for d in x.shape)
    outs = [(n - k) // s + 1 for n, k, s in zip(shape, window, strides)]
    parts = []
    for offset in np.ndindex(*window):
        index = tuple(
            slice(o, o + s * (m - 1) + 1, s if s > 1 else None)
            for o, s, m in zip(offset, strides, outs)
        )
        parts.append(x[index])
    stacked = il.stack(parts)
    reducers: dict[str, Handler] = {"max": il.max, "min": il.min, "sum": il.sum}
    return reducers[how](stacked, axis=0)


@primitive("reduce_window_max", static=lambda e: {**_window(e), "fill": _fill(e, "max")})
def reduce_window_max(x: Any, **geometry: Any) -> Any:
    return _reduce_window(x, how="max", **geometry)


@primitive("reduce_window_min", static=lambda e: {**_window(e), "fill": _fill(e, "min")})
def reduce_window_min(x: Any, **geometry: Any) -> Any:
    return _reduce_window(x, how="min", **geometry)


@primitive("reduce_window_sum", static=lambda e: {**_window(e), "fill": 0})
def reduce_window_sum(x: Any, **geometry: Any) -> Any:
    return _reduce_window(x, how="sum", **geometry)


def _gather(e: Eqn) -> dict[str, Any]:
    """A ``take`` along one axis (an embedding lookup, ``x[idx]``, ``jnp.take``) or a
    ``take_along_axis``; other gathers are refused."""
    dn, p = e.params["dimension_numbers"], e.params
    shape, idx_shape = tuple(e.ins[0].shape), tuple(e.ins[1].shape)
    batching = tuple(dn.operand_batching_dims) + tuple(dn.start_indices_batching_dims)
    sizes = tuple(int(s) for s in p["slice_sizes"])
    if (
        len(dn.start_index_map) != 1
        or tuple(dn.collapsed_slice_dims) != tuple(dn.start_index_map)
        or not idx_shape
        or idx_shape[-1] != 1
    ):
        raise Refused(f"{dn}; only a take along one axis or a take_along_axis")
    axis = int(dn.start_index_map[0])
    others = tuple(d for d in range(len(shape)) if d != axis)
    along = (
        not dn.offset_dims
        and tuple(dn.operand_batching_dims) == tuple(dn.start_indices_batching_dims) == others
        and len(idx_shape) == len(shape) + 1
    )
    if batching and not along:
        raise Refused(f"{dn}; only a take along one axis or a take_along_axis")
    if along:
        if any(s != 1 for s in sizes):
            raise Refused(f"slice_sizes={sizes} in a take_along_axis")
    elif any(s != (1 if d == axis else int(n)) for d, (s, n) in enumerate(zip(sizes, shape))):
        raise Refused(f"slice_sizes={sizes}: only whole slices along the other axes")
    batch = idx_shape[:-1]
    perm = None  # take gives x.shape[:axis] + batch + x.shape[axis + 1:]; gather may permute
    if not along:
        taken = [("o", d) for d in range(axis)] + [("b", j) for j in range(len(batch))]
        taken += [("o", d) for d in others if d > axis]
        offsets, batches = iter(others), iter(range(len(batch)))
        rank = len(batch) + len(shape) - 1
        wanted = [
            ("o", next(offsets)) if q in dn.offset_dims else ("b", next(batches))
            for q in range(rank)
        ]
        perm = tuple(taken.index(w) for w in wanted)
        perm = None if perm == tuple(range(rank)) else perm
    mode = str(p.get("mode", "")).rsplit(".", 1)[-1].upper()
    fill = None
    if "FILL" in mode:
        fill = p.get("fill_value")
        if fill is None:
            dt = np.dtype(e.ins[0].dtype)
            if np.issubdtype(dt, np.inexact):
                fill = math.nan
            elif dt == np.bool_:
                fill = True
            else:
                info = np.iinfo(dt)
                fill = int(info.min if np.issubdtype(dt, np.signedinteger) else info.max)
    mask_shape = batch if along else (1,) * axis + batch + (1,) * (len(shape) - axis - 1)
    return {
        "along": along,
        "axis": axis,
        "size": int(shape[axis]),
        "perm": perm,
        "fill": fill,
        "mask_shape": mask_shape,
    }


@primitive("gather", static=_gather)
def gather(
    x: Any,
    indices: Any,
    *,
    along: bool,
    axis: int,
    size: int,
    perm: Any,
    fill: Any,
    mask_shape: Any,
) -> Any:
    idx = indices[..., 0]
    take = il.take_along_axis if along else il.take
    out = take(x, il.clip(idx, 0, size - 1), axis=axis)
    if fill is not None:  # mode FILL_OR_DROP: out-of-range indices give the fill value
        valid = il.logical_and(il.greater_equal(idx, 0), il.less(idx, size))
        out = il.where(il.reshape(valid, mask_shape), out, fill)
    return out if perm is None else il.permute_dims(out, perm)


# -- scatters --------------------------------------------------------------------------------------
# A scatter-mul whose indices may repeat multiplies the updates that share a position through an
# (M, M) comparison of the M update elements: refused beyond this many entries.
_PAIRWISE_LIMIT = 1 << 22


def _scatter_mode(e: Eqn) -> bool:
    """Whether out-of-bounds windows are clamped (CLIP) rather than dropped (FILL_OR_DROP; also
    PROMISE_IN_BOUNDS, for which XLA drops them as well)."""
    mode = str(e.params.get("mode", "")).rsplit(".", 1)[-1].upper()
    if mode not in ("CLIP", "FILL_OR_DROP", "PROMISE_IN_BOUNDS"):
        raise Refused(f"mode {mode}; CLIP, FILL_OR_DROP or PROMISE_IN_BOUNDS only")
    return mode == "CLIP"


def _scatter_axes(e: Eqn) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[int]]:
    """The dimension numbers as pairs (updates axis, operand axis): the window axes, the
    batching axes (an updates axis that is an indices batch axis); and the updates axes that
    are the indices' batch axes, in order (all but the last, the index vector)."""
    dn = e.params["dimension_numbers"]
    rank, idx_shape = len(e.ins[0].shape), tuple(int(d) for d in e.ins[1].shape)
    upd_shape = tuple(int(d) for d in e.ins[2].shape)
    window_upd = tuple(int(d) for d in dn.update_window_dims)
    inserted = tuple(int(d) for d in dn.inserted_window_dims)
    op_batch = tuple(int(d) for d in getattr(dn, "operand_batching_dims", ()))
    idx_batch = tuple(int(d) for d in getattr(dn, "scatter_indices_batching_dims", ()))
    scatter_upd = [d for d in range(len(upd_shape)) if d not in window_upd]
    window_op = [d for d in range(rank) if d not in inserted and d not in op_batch]
    if (
        not idx_shape
        or idx_shape[-1] != len(dn.scatter_dims_to_operand_dims)
        or len(window_op) != len(window_upd)
        or tuple(upd_shape[d] for d in scatter_upd) != idx_shape[:-1]
        or len(op_batch) != len(idx_batch)
    ):
        raise Refused(
            f"{dn} with indices of shape {idx_shape} and updates of shape {upd_shape}: the "
            "index vector must be the indices' last axis"
        )
    batching = [(scatter_upd[i], o) for i, o in zip(idx_batch, op_batch)]
    return list(zip(window_upd, window_op)), batching, scatter_upd


def _scatter(e: Eqn, how: str) -> dict[str, Any]:
    """Each update element's position in the flattened operand, from the dimension numbers.

    The indices' last axis holds a start per ``scatter_dims_to_operand_dims`` entry, their
    other axes are the updates' axes that are not ``update_window_dims``. An update element
    ``u`` goes to operand index ``start + window offset``: the window axes of ``u`` count along
    the operand's axes that are neither ``inserted_window_dims`` nor ``operand_batching_dims``,
    and a batching axis takes ``u``'s coordinate on the matching indices axis. Flattened, that
    is ``base(indices) + offset``: ``base`` sums start * stride (run time), ``offset`` (static)
    the window and batching coordinates times their strides.
    """
    shape = tuple(int(d) for d in e.ins[0].shape)
    upd_shape = tuple(int(d) for d in e.ins[2].shape)
    dtype = np.dtype(e.ins[0].dtype)
    if how != "set" and dtype.kind not in "iuf":
        raise Refused(f"combining {dtype.name} values; integers and floats only")
    window, batching, scatter_upd = _scatter_axes(e)
    to_operand = tuple(int(d) for d in e.params["dimension_numbers"].scatter_dims_to_operand_dims)
    clip = _scatter_mode(e)
    strides = [math.prod(shape[d + 1 :]) for d in range(len(shape))]
    sizes = [1] * len(shape)  # the window's extent along each operand axis
    for q, d in window:
        sizes[d] = upd_shape[q]
    size, count, rank = math.prod(shape), math.prod(upd_shape), len(upd_shape)
    itype = "int32" if 2 * size < 2**31 - 1 else "int64"
    offset = np.zeros((1,) * rank, dtype=itype)
    for q, d in window + batching:
        steps = np.arange(upd_shape[q], dtype=itype) * strides[d]
        offset = offset + steps.reshape([-1 if a == q else 1 for a in range(rank)])
    unique = bool(e.params.get("unique_indices", False))
    if how == "mul" and not unique and count * count > _PAIRWISE_LIMIT:
        raise Refused(
            f"{count} updates whose indices may repeat (multiplying them pairwise needs "
            f"{count}^2 > {_PAIRWISE_LIMIT} entries)"
        )
    return {
        "columns": tuple((strides[d], shape[d] - sizes[d]) for d in to_operand),
        "clip": clip,
        "base_shape": tuple(upd_shape[a] if a in scatter_upd else 1 for a in range(rank)),
        "offset": offset if to_operand == () or offset.any() else None,
        "shape": upd_shape,
        "size": size,
        "itype": il.as_dtype(itype),
        **({"pairwise": not unique} if how == "mul" else {}),
    }


def _positions(
    indices: Any,
    *,
    columns: Any,
    clip: bool,
    base_shape: Any,
    offset: Any,
    shape: Any,
    size: int,
    itype: Any,
) -> Any:
    """Where each update element goes in the flattened operand (as :func:`_scatter` says), in
    the updates' order, flattened. A window whose start is out of bounds (it does not fit
    whole) goes to ``size`` or beyond, where every scatter below drops it, as XLA drops the
    whole window; CLIP clamps the start instead."""
    idx = cast(indices, itype)
    base, valid = None, None
    for i, (stride, last) in enumerate(columns):
        start = idx[..., i]
        if clip:
            start = il.clip(start, 0, last)
        else:
            inside = il.logical_and(il.greater_equal(start, 0), il.less_equal(start, last))
            valid = inside if valid is None else il.logical_and(valid, inside)
        term = start if stride == 1 else il.multiply(start, stride)
        base = term if base is None else il.add(base, term)
    if base is None:  # no index columns: every window starts at 0
        pos = il.asarray(offset)
    else:
        if valid is not None:
            base = il.where(valid, base, size)
        pos = il.reshape(base, base_shape)
        if offset is not None:
            pos = il.add(pos, offset)
    if tuple(pos.shape) != tuple(shape):
        pos = il.broadcast_to(pos, shape)
    return il.reshape(pos, (-1,))


def _winners(pos: Any, size: int, itype: Any) -> tuple[Any, Any]:
    """For each operand position, which update element writes it (the last of those that go
    there, clipped into range) and whether any does: a segment maximum of the elements'
    numbers, where an empty segment is the dtype's lowest value and dropped positions
    (``>= size``) are left out."""
    count = int(pos.shape[0])
    numbers = cast(il.arange(count), itype)
    winner = il.segment_max(numbers, pos, size)
    return il.clip(winner, 0, count - 1), il.greater_equal(winner, 0)


def _flat(x: Any) -> Any:
    return il.reshape(x, (-1,))


@primitive("scatter", static=lambda e: _scatter(e, "set"))
def scatter(x: Any, indices: Any, updates: Any, **geometry: Any) -> Any:
    """``x.at[...].set(updates)``: each written position takes the value of its winning update
    element (a gather, so gradients reach exactly that element and the positions of ``x`` that
    are kept). Exact for unique indices; with repeated ones one of the values (jax leaves
    which one unspecified)."""
    if math.prod(geometry["shape"]) == 0:
        return x
    pos = _positions(indices, **geometry)
    winner, hit = _winners(pos, geometry["size"], geometry["itype"])
    out = il.where(hit, il.take(_flat(updates), winner, axis=0), _flat(x))
    return il.reshape(out, tuple(x.shape))


@primitive("scatter-add", static=lambda e: _scatter(e, "add"))
def scatter_add(x: Any, indices: Any, updates: Any, **geometry: Any) -> Any:
    """``x.at[...].add(updates)``: ivy_like's ``scatter_add`` on the flattened operand adds
    repeated positions up and drops those out of range, as XLA does."""
    if math.prod(geometry["shape"]) == 0:
        return x
    pos = _positions(indices, **geometry)
    return il.reshape(il.scatter_add(_flat(x), pos, _flat(updates)), tuple(x.shape))


@primitive("scatter-mul", static=lambda e: _scatter(e, "mul"))
def scatter_mul(x: Any, indices: Any, updates: Any, *, pairwise: bool, **geometry: Any) -> Any:
    """``x.at[...].multiply(updates)``: each written position is multiplied by the product of
    the update elements that go there. With indices jax knows are unique that is one element;
    otherwise each element's product over the elements at its position (an (M, M) comparison:
    factors of 1 elsewhere, so the product is exact), taken from the winning element."""
    if math.prod(geometry["shape"]) == 0:
        return x
    pos = _positions(indices, **geometry)
    factors = _flat(updates)
    if pairwise:
        same = il.equal(il.expand_dims(pos, axis=1), il.expand_dims(pos, axis=0))
        factors = il.prod(il.where(same, il.expand_dims(factors, axis=0), 1), axis=1)
    winner, hit = _winners(pos, geometry["size"], geometry["itype"])
    flat = _flat(x)
    out = il.where(hit, il.multiply(flat, il.take(factors, winner, axis=0)), flat)
    return il.reshape(out, tuple(x.shape))


@primitive("scatter-max", static=lambda e: _scatter(e, "max"))
def scatter_max(x: Any, indices: Any, updates: Any, **geometry: Any) -> Any:
    """``x.at[...].max(updates)``: the maximum of ``x`` and the segment maximum of the updates
    at each position; an empty segment is the dtype's lowest value, which leaves ``x``."""
    if math.prod(geometry["shape"]) == 0:
        return x
    pos = _positions(indices, **geometry)
    top = il.segment_max(_flat(updates), pos, geometry["size"])
    return il.reshape(il.maximum(_flat(x), top), tuple(x.shape))


@primitive("scatter-min", static=lambda e: {**_scatter(e, "min"), **_is_int(e)})
def scatter_min(x: Any, indices: Any, updates: Any, *, integer: bool, **geometry: Any) -> Any:
    """``x.at[...].min(updates)``: a segment maximum through an order-reversing map (negation
    for floats; bitwise inversion, ``-v - 1``, for integers, which cannot overflow), mapped
    back. An empty segment becomes the dtype's highest value, which leaves ``x``."""
    if math.prod(geometry["shape"]) == 0:
        return x
    pos = _positions(indices, **geometry)
    flip = il.bitwise_invert if integer else il.negative
    low = flip(il.segment_max(flip(_flat(updates)), pos, geometry["size"]))
    return il.reshape(il.minimum(_flat(x), low), tuple(x.shape))

"""Flax modules traced to a jaxpr and run by ivy_like: :func:`trace` and :class:`JaxprModel`.

:func:`trace` records what a Flax module computes with ``jax.make_jaxpr`` (linen:
``module.apply(variables, *args)``; nnx: ``nnx.merge(graphdef, state)(*args)`` on a copy in
eval mode), inlines the calls (``jit``, ``custom_jvp_call``, ``custom_vjp_call``, ``remat``,
``closed_call``), folds what depends only on constants (``iota``, arithmetic on literals) with
jax itself, and writes one Python function for the rest: a line per equation, calling the
primitive's ivy_like function from :data:`PRIMITIVES`, with the primitive and the user code it
came from in a comment. The source goes into ``linecache``, so tracebacks show the equation.

The weights stay in Flax's layouts (Dense kernels ``(in, out)``, Conv kernels HWIO): the
jaxpr reads them as they are. Only this module's :func:`trace` imports jax and Flax; the
table and the list of supported primitives in ``docs/convert.md`` come without them.
"""

from __future__ import annotations

import linecache
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import ivy_like as il

from ..container import Container
from ..core.backend import activate, current_backend, deactivate, get_backend
from ..nn.models import Model
from ._aten import UnsupportedOpError, cast
from ._common import move
from ._graph import CapturedWeights

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
_FOLD_LIMIT = 1 << 16  # elements: larger constant results are computed at run time


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
    >>> from ivy_like.convert._jaxpr import supported_primitives
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


_BINARY: dict[str, Handler] = {  # annotated: see _aten._UNARY
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


_UNARY: dict[str, Handler] = {  # annotated: see _aten._UNARY
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


# erfc(|x|) = t * exp(-x^2 + P(t)), t = 1 / (1 + |x|/2): Chebyshev fit with relative error
# below 1.2e-7 everywhere (Numerical Recipes' erfc); ivy_like has no erf op.
_ERFC = (
    -1.26551223,
    1.00002368,
    0.37409196,
    0.09678418,
    -0.18628806,
    0.27886807,
    -1.13520398,
    1.48851587,
    -0.82215223,
    0.17087277,
)


def _erfc_abs(x: Any, negative: Any) -> Any:
    # |x| as a where rather than abs, whose gradient at 0 is 0: erf'(0) is 2/sqrt(pi)
    z = il.where(negative, il.negative(x), x)
    t = il.reciprocal(il.add(il.multiply(z, 0.5), 1.0))
    poly = _ERFC[-1]
    for c in reversed(_ERFC[:-1]):
        poly = il.add(il.multiply(t, poly), c)
    return il.multiply(t, il.exp(il.subtract(poly, il.square(z))))


@primitive("erfc")
def erfc(x: Any) -> Any:
    negative = il.less(x, 0)
    e = _erfc_abs(x, negative)
    return il.where(negative, il.subtract(2.0, e), e)


@primitive("erf")
def erf(x: Any) -> Any:
    negative = il.less(x, 0)
    e = _erfc_abs(x, negative)
    return il.where(negative, il.subtract(e, 1.0), il.subtract(1.0, e))


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


_REDUCTIONS: dict[str, Handler] = {  # annotated: see _aten._UNARY
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
    if any(d != 1 for d in p["lhs_dilation"]):
        raise Refused("lhs_dilation (a transposed convolution)")
    if p["batch_group_count"] != 1:
        raise Refused("batch_group_count > 1")
    dn = p["dimension_numbers"]
    lhs, rhs, out = (tuple(int(d) for d in spec) for spec in dn)
    last = {1: ((0, 2, 1), (2, 1, 0)), 2: ((0, 3, 1, 2), (3, 2, 0, 1))}[n]
    channels_last = lhs == out == last[0] and rhs == last[1]
    ident = tuple(range(n + 2))
    return {
        "channels_last": channels_last,
        "lhs": None if channels_last or lhs == ident else lhs,
        "rhs": None if channels_last or rhs == ident else rhs,
        "out": None if channels_last or out == ident else _inverse(out),
        "stride": tuple(int(s) for s in p["window_strides"]),
        "padding": tuple((int(lo), int(hi)) for lo, hi in p["padding"]),
        "dilation": tuple(int(d) for d in p["rhs_dilation"]),
        "groups": int(p["feature_group_count"]),
    }


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
    dilation: Any,
    groups: int,
) -> Any:
    """NHWC/HWIO (Flax's layouts) natively; other dimension numbers through NCHW/OIHW."""
    if lhs is not None:
        x = il.permute_dims(x, lhs)
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


# -- the model -----------------------------------------------------------------------------------
class JaxprModel(CapturedWeights, Model):
    """A Flax module traced to a jaxpr: ``params`` plus the pure function ``apply``.

    ``params`` is a Container of the variables the jaxpr reads, keyed by their Flax paths
    joined with ``/`` and in Flax's own layouts: linen ``"params/Dense_0/kernel"``,
    ``"batch_stats/BatchNorm_0/mean"``; nnx ``"linear1/kernel"`` (the state's paths).
    ``apply(params, *args)`` takes arrays of the traced shapes (and the same static
    arguments) and is pure, so ``ivy_like.grad``, ``ivy_like.compile`` and the other
    transforms work on it; ``model(*args)`` runs it on the backend of its inputs (the
    parameters move there once). Outputs keep the Flax module's structure.

    ``model.code`` is the generated function (one line per equation) and
    ``model.primitives`` the jax primitives it maps. Build one with
    :func:`ivy_like.convert.from_flax` and example inputs.

    Examples
    --------
    >>> import numpy as np
    >>> from flax import nnx
    >>> from ivy_like.convert import from_flax
    >>> layer = nnx.Linear(3, 2, rngs=nnx.Rngs(0))
    >>> x = np.ones((4, 3), np.float32)
    >>> model = from_flax(layer, x, backend="numpy")
    >>> model.params.cont_all_key_chains(), model.primitives
    (['bias', 'kernel'], ['add', 'dot_general', 'reshape'])
    >>> bool(np.allclose(model(x), layer(x), atol=1e-6))
    True
    """

    def __init__(
        self,
        function: Any,
        code: str,
        params: Container,
        param_keys: list[str],
        constants: list[tuple[Any, Any]],
        inputs: list[tuple[str, Any]],
        out_tree: Any,
        primitives: list[str],
        name: str,
        linen_module: Any = None,
        buffers: frozenset[str] = frozenset(),
    ) -> None:
        self._function = function
        # key chains of the variables that are not trained (BatchNorm statistics): to_keras
        # and to_flax make them non-trainable weights
        self.buffers = buffers
        self.code = code
        self.params = params
        self._moved: tuple[Any, Any, Any] | None = None
        self._param_parts = [tuple(kc.split("/")) for kc in param_keys]
        self._constants = constants  # (NumPy array, ivy_like dtype) pairs, exact
        self._constants_on: dict[str, list[Any]] = {}
        self._inputs = inputs  # ("array", shape) or ("static", value), per positional argument
        self._out_tree = out_tree  # jax's PyTreeDef of the outputs
        self.primitives = primitives
        self.name = name
        self.linen_module = linen_module  # the traced linen module (None for nnx)

    def _config(self) -> dict[str, Any]:
        return {"name": self.name, "primitives": self.primitives}

    def flax_variables(self, params: Any = None) -> dict[str, Any]:
        """``params`` (default ``model.params``) as Flax variables: nested dicts of jax arrays
        keyed by the Flax paths (for a linen module, ``{"params": ..., "batch_stats": ...}``)."""
        from ._wrap import flat_params

        jax_backend = get_backend("jax")
        out: dict[str, Any] = {}
        for kc, leaf in flat_params(self, params, "flax_variables").items():
            *path, last = kc.split("/")
            d = out
            for k in path:
                d = d.setdefault(k, {})
            d[last] = move(leaf, jax_backend, kc)
        return out

    __eq__ = object.__eq__

    # Layer sets __hash__ = None (it compares by config); a captured model hashes by identity
    __hash__ = object.__hash__  # type: ignore[assignment]

    def __repr__(self) -> str:
        n = len(self._param_parts)
        return f"JaxprModel({self.name!r}, {n} parameter arrays, {len(self.primitives)} primitives)"

    def _arrays(self, args: tuple[Any, ...]) -> list[Any]:
        if len(args) != len(self._inputs):
            raise TypeError(
                f"{self.name}: the model was traced with {len(self._inputs)} arguments, got "
                f"{len(args)}"
            )
        arrays = []
        for i, ((kind, want), got) in enumerate(zip(self._inputs, args)):
            if kind == "static":
                if not (got is want or got == want):
                    raise TypeError(
                        f"{self.name}: argument {i} was {want!r} when the model was traced, got "
                        f"{got!r}; trace it again for another value"
                    )
                continue
            shape = getattr(got, "shape", None)
            if shape is None or tuple(shape) != want:
                raise ValueError(
                    f"{self.name}: argument {i} has shape "
                    f"{None if shape is None else tuple(shape)}; the model was traced for shape "
                    f"{want} (trace it again with an example of the new shape)"
                )
            arrays.append(got)
        return arrays

    def _backend(self, arrays: list[Any], params: Any) -> Any:
        for x in arrays:
            if isinstance(x, np.ndarray):
                return current_backend()  # NumPy follows the active backend, as every op
            return il.backend_of(x)
        for leaf in Container(params).cont_flatten_key_chains().values():
            return il.backend_of(leaf)
        return current_backend()

    def apply(self, params: Any, *args: Any) -> Any:  # type: ignore[override]
        """The model's function of ``params`` (a Container or nested dict keyed like
        ``model.params``) and the inputs, on the backend of the inputs."""
        arrays = self._arrays(args)
        return self._run(params, arrays, self._backend(arrays, params))

    def __call__(self, *args: Any) -> Any:  # type: ignore[override]
        arrays = self._arrays(args)
        backend = self._backend(arrays, self.params)
        return self._run(self.params_on(backend), arrays, backend)

    def _run(self, params: Any, arrays: list[Any], backend: Any) -> Any:
        tokens = activate(backend)  # creation ops make arrays of this backend
        try:
            leaves = []
            for parts in self._param_parts:
                v = params
                for k in parts:
                    v = v[k]
                leaves.append(v)
            out = self._function(leaves, self.constants_on(backend), arrays)
        finally:
            if tokens is not None:
                deactivate(tokens)
        return self._out_tree.unflatten(out)


# -- tracing and code generation -------------------------------------------------------------------
class _Param:
    """A variable of the module: loaded from ``__P`` when an equation first reads it."""

    def __init__(self, key: str) -> None:
        self.key = key


class _Writer:
    """The generated function's lines, its globals, and where each jaxpr variable lives: a
    local name (str), a variable of the module (:class:`_Param`) or a value known at
    conversion (a NumPy array)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lines: list[str] = []
        self.reads: list[set[str]] = []  # the local names each line reads
        self.targets: list[tuple[str, ...]] = []  # and those it assigns
        self.globals: dict[str, Any] = {"__builtins__": __builtins__}
        self.refs: dict[Any, str] = {}
        self.params: list[str] = []  # key chains in the order of first use
        self.param_names: dict[str, str] = {}
        self.constants: list[tuple[Any, Any]] = []
        self.const_ids: dict[int, str] = {}
        self.keep: list[Any] = []  # the arrays whose ids key const_ids stay alive
        self.used: set[str] = set()
        self.count = 0

    def fresh(self) -> str:
        self.count += 1
        return f"v{self.count}"

    def ref(self, obj: Any, hint: str) -> str:
        key = hint if isinstance(obj, float) else (hint, id(obj))  # a float's id is reused
        hit = self.refs.get(key)
        if hit is None:
            hit = hint
            while hit in self.globals:
                hit += "_"
            self.globals[hit] = obj
            self.refs[key] = hit
        return hit

    def literal(self, v: Any) -> str:
        if v is None or isinstance(v, (bool, int, str)):
            return repr(v)
        if isinstance(v, float):
            if math.isfinite(v):
                return repr(v)
            return self.ref(v, "__nan" if v != v else "__inf" if v > 0 else "__minus_inf")
        if isinstance(v, slice):
            return f"slice({self.literal(v.start)}, {self.literal(v.stop)}, {self.literal(v.step)})"
        if isinstance(v, list):
            return "[" + ", ".join(self.literal(x) for x in v) + "]"
        if isinstance(v, tuple):
            return "(" + "".join(self.literal(x) + ", " for x in v) + ")"
        if isinstance(v, il.Dtype):
            return self.ref(v, v.name)
        return self.ref(v, f"__k{len(self.globals)}")

    def value(self, v: Any, scalar: bool, reads: set[str]) -> str:
        """The expression for an operand: a local, a parameter, a constant or a number."""
        if isinstance(v, str):
            reads.add(v)
            return v
        if isinstance(v, _Param):
            name = self.param_names.get(v.key)
            if name is None:
                name = f"p{len(self.params)}"
                self.params.append(v.key)
                self.param_names[v.key] = name
            reads.add(name)
            return name
        arr = np.asarray(v)
        if scalar and arr.ndim == 0 and arr.dtype.kind in "biuf":
            return self.literal(arr.item())
        hit = self.const_ids.get(id(v))
        if hit is None:
            hit = f"__C[{len(self.constants)}]"
            self.constants.append((arr, il.as_dtype(arr.dtype.name)))
            self.const_ids[id(v)] = hit
            self.keep.append(v)
        return hit

    def emit(self, line: str, reads: set[str], targets: Sequence[str] = ()) -> None:
        self.lines.append(line)
        self.reads.append(reads)
        self.targets.append(tuple(targets))

    def prune(self) -> None:
        """Drop the lines whose results nothing reads (jaxprs keep dead equations)."""
        live: set[str] = set()
        keep = []
        for i in reversed(range(len(self.lines))):
            targets = self.targets[i]
            if not targets or live.intersection(targets):
                keep.append(i)
                live |= self.reads[i]
        keep.reverse()
        self.lines = [self.lines[i] for i in keep]
        self.reads = [self.reads[i] for i in keep]
        self.targets = [self.targets[i] for i in keep]


def _source(eqn: Any) -> str:
    """Where the equation comes from in the user's code (file:line (function)), if jax says."""
    try:
        from jax._src import source_info_util

        where = str(source_info_util.summarize(eqn.source_info))
    except Exception:  # noqa: BLE001 - jax's private helper may move: the location is optional
        return ""
    return where.rpartition("site-packages/")[2]


def _sub_jaxpr(eqn: Any) -> tuple[Any, list[Any]]:
    for key in ("jaxpr", "call_jaxpr", "fun_jaxpr"):
        sub = eqn.params.get(key)
        if sub is not None:
            if hasattr(sub, "consts"):  # a ClosedJaxpr
                return sub.jaxpr, list(sub.consts)
            return sub, []
    raise UnsupportedOpError(f"from_flax: {eqn.primitive.name} has no jaxpr to inline")


def _unsupported(name: str, where: str, eqn: Any, why: str = "") -> UnsupportedOpError:
    reason = why or REASONS.get(name, "")
    first = str(eqn).splitlines()[0] if str(eqn) else name
    source = _source(eqn)
    return UnsupportedOpError(
        f"from_flax: jax primitive {name} ({where}: `{first.strip()}`"
        f"{f', at {source}' if source else ''}) is "
        f"not supported{f' ({reason})' if reason else ''}; supported: "
        f"{', '.join(supported_primitives())}"
    )


def _fold(eqn: Any, known: list[np.ndarray]) -> list[np.ndarray] | None:
    """The equation's results computed by jax now, when they are small (None otherwise)."""
    import jax.numpy as jnp

    if eqn.effects:
        return None
    sizes = [math.prod(getattr(v.aval, "shape", ())) for v in eqn.outvars]
    if sum(sizes) > _FOLD_LIMIT and eqn.primitive.name in PRIMITIVES:
        return None
    try:
        out = eqn.primitive.bind(*[jnp.asarray(k) for k in known], **eqn.params)
    except Exception:  # noqa: BLE001 - a primitive jax cannot evaluate eagerly is run later
        return None
    outs = out if eqn.primitive.multiple_results else [out]
    return [np.asarray(o) for o in outs]


def _walk(jaxpr: Any, env: dict[Any, Any], w: _Writer, where: str, used: set[str]) -> None:
    """Write the lines of ``jaxpr``'s equations; ``env`` maps its variables to values."""
    from jax.extend.core import Literal

    def get(v: Any) -> Any:
        if isinstance(v, Literal):
            return np.asarray(v.val, dtype=v.aval.dtype)
        return env[v]

    for k, eqn in enumerate(jaxpr.eqns):
        name = eqn.primitive.name
        here = f"{where}equation {k}"
        ins = [get(v) for v in eqn.invars]
        if name in INLINE:
            sub, consts = _sub_jaxpr(eqn)
            inner = dict(zip(sub.constvars, [np.asarray(c) for c in consts]))
            inner.update(zip(sub.invars, ins))
            _walk(sub, inner, w, f"{here} ({name} {eqn.params.get('name', '')}) > ", used)
            for outer, v in zip(eqn.outvars, sub.outvars):
                env[outer] = inner[v] if not isinstance(v, Literal) else get(v)
            continue
        if name in IDENTITY:
            env.update(zip(eqn.outvars, ins))
            continue
        if all(isinstance(x, np.ndarray) for x in ins):
            folded = _fold(eqn, ins)
            if folded is not None:
                env.update(zip(eqn.outvars, folded))
                continue
        fn = PRIMITIVES.get(name)
        if fn is None:
            raise _unsupported(name, here, eqn)
        known = [x if isinstance(x, np.ndarray) else None for x in ins]
        info = Eqn(
            dict(eqn.params), [v.aval for v in eqn.invars], [v.aval for v in eqn.outvars], known
        )
        try:
            kwargs = STATIC[name](info) if name in STATIC else {}
        except Refused as why:
            raise _unsupported(name, here, eqn, str(why)) from None
        used.add(name)
        reads: set[str] = set()
        scalar = name in SCALARS and any(not isinstance(x, np.ndarray) for x in ins)
        args = [w.value(x, scalar, reads) for x in ins[: ARITY.get(name, len(ins))]]
        args += [f"{key}={w.literal(v)}" for key, v in kwargs.items()]
        outs = []
        for v in eqn.outvars:
            local = w.fresh()
            env[v] = local
            outs.append(local)
        target = outs[0] if not eqn.primitive.multiple_results else ", ".join(outs) + ","
        handler = w.ref(fn, f"jax_{name}")
        source = _source(eqn)
        comment = f"# {name}, {source}" if source else f"# {name}"
        w.emit(f"    {target} = {handler}({', '.join(args)})  {comment}", reads, outs)


def _deaths(w: _Writer) -> list[str]:
    """The lines with ``del`` after each local's last read (but the ``return``), so
    activations are freed as early as possible."""
    last: dict[str, int] = {}
    for i, reads in enumerate(w.reads[:-1]):
        for r in reads:
            last[r] = i
    for r in w.reads[-1]:
        last.pop(r, None)
    dead: dict[int, list[str]] = {}
    for r, i in last.items():
        dead.setdefault(i, []).append(r)
    out = []
    for i, line in enumerate(w.lines):
        out.append(line)
        if i in dead:
            out.append(f"    del {', '.join(sorted(dead[i]))}")
    return out


def _key(path: Any) -> str:
    """A pytree path (``DictKey``, ``GetAttrKey``, ``SequenceKey`` entries) as a key chain;
    nnx's trailing ``.value`` of a variable is left out."""
    parts = []
    for entry in path:
        for attr in ("key", "idx", "name"):
            if hasattr(entry, attr):
                parts.append(str(getattr(entry, attr)))
                break
    if len(parts) > 1 and parts[-1] == "value" and type(path[-1]).__name__ == "GetAttrKey":
        parts.pop()
    return "/".join(parts)


def _is_array(x: Any) -> bool:
    return hasattr(x, "shape") and hasattr(x, "dtype") and not isinstance(x, (bool, int, float))


def trace(module: Any, variables: Any, args: tuple[Any, ...], backend: Any) -> JaxprModel:
    """Trace a linen module applied to ``variables`` (or an nnx module, ``variables=None``)
    on the example ``args`` and build its :class:`JaxprModel`."""
    import jax
    from flax import nnx

    name = type(module).__name__
    if isinstance(module, nnx.Module):
        graphdef, state = nnx.split(module)
        tree = state

        def call(tree: Any, *full: Any) -> Any:
            m = nnx.merge(graphdef, tree)
            m.eval()  # a copy in inference mode: dropout off, BatchNorm's running averages
            return m(*full)
    else:
        tree = variables

        def call(tree: Any, *full: Any) -> Any:
            return module.apply(tree, *full)

    flat, treedef = jax.tree_util.tree_flatten_with_path(tree)
    keys = [_key(path) for path, _ in flat]
    if isinstance(module, nnx.Module):  # nnx.Param variables are trained, the others not
        params_only = jax.tree_util.tree_flatten_with_path(nnx.state(module, nnx.Param))[0]
        trainable = {_key(path) for path, _ in params_only}
    else:  # linen: the "params" collection is trained, batch_stats and the others not
        trainable = {kc for kc in keys if kc.split("/", 1)[0] == "params"}
    leaves = [leaf for _, leaf in flat]
    traced = [i for i, a in enumerate(args) if _is_array(a)]

    def fn(leaves: list[Any], *arrays: Any) -> Any:
        full = list(args)
        for i, a in zip(traced, arrays):
            full[i] = a
        return call(jax.tree_util.tree_unflatten(treedef, leaves), *full)

    closed, shapes = jax.make_jaxpr(fn, return_shape=True)(leaves, *[args[i] for i in traced])
    jaxpr = closed.jaxpr
    w = _Writer(name)
    env: dict[Any, Any] = dict(zip(jaxpr.constvars, [np.asarray(c) for c in closed.consts]))
    n_leaves = len(leaves)
    env.update((v, _Param(keys[i])) for i, v in enumerate(jaxpr.invars[:n_leaves]))
    for j, v in enumerate(jaxpr.invars[n_leaves:]):
        env[v] = f"x{j}"
    used: set[str] = set()
    _walk(jaxpr, env, w, "", used)

    from jax.extend.core import Literal

    reads: set[str] = set()
    results = []
    for v in jaxpr.outvars:
        value = np.asarray(v.val, dtype=v.aval.dtype) if isinstance(v, Literal) else env[v]
        results.append(w.value(value, False, reads))
    w.emit(f"    return [{', '.join(results)}]", reads)
    w.prune()
    loads = [f"    x{j} = __U[{j}]" for j in range(len(traced))]
    read = set().union(*w.reads)
    param_keys = [kc for kc in w.params if w.param_names[kc] in read]  # dead code's are not
    loads += [f"    {w.param_names[kc]} = __P[{i}]" for i, kc in enumerate(param_keys)]
    body = loads + _deaths(w)
    code = "def jaxpr(__P, __C, __U):\n" + "\n".join(body) + "\n"
    filename = f"<ivy_like jaxpr: {name} at {id(w):x}>"
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    namespace = dict(w.globals)
    exec(compile(code, filename, "exec"), namespace)  # noqa: S102 - our own generated source

    inputs = [
        ("array", tuple(int(d) for d in a.shape)) if i in traced else ("static", a)
        for i, a in enumerate(args)
    ]
    target = current_backend() if backend is None else get_backend(backend)
    by_key = dict(zip(keys, leaves))
    weights = {kc: move(np.asarray(by_key[kc]), target, kc) for kc in sorted(param_keys)}
    params = Container.cont_unflatten(weights) if weights else Container()
    out_tree = jax.tree_util.tree_structure(shapes)
    return JaxprModel(
        namespace["jaxpr"],
        code,
        params,
        param_keys,
        w.constants,
        inputs,
        out_tree,
        sorted(used),
        name,
        None if variables is None else module,
        frozenset(kc for kc in param_keys if kc not in trainable),
    )

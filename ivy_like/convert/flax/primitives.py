"""The handlers of the jax primitives :func:`from_flax` maps a jaxpr with, registered in the
table of :mod:`._table` (re-exported here) by its :func:`primitive` decorator; the gathers
and dynamic slices are in :mod:`.gathers`, the scatters in :mod:`.scatters`. No framework is imported: the table and the list of supported
primitives in ``docs/convert.md`` come without jax.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

import ivy_like as il

from .. import _special
from .._casts import cast
from . import gathers, scatters, symbolic  # noqa: F401 - imported for their registrations
from ._table import (
    Eqn,
    Handler,
    Refused,
    is_symbolic,
    primitive,
    same,
    size,
    supported_primitives,
    supported_primitives_markdown,
)

# The listings are published here: importing this module registers every handler first.
__all__ = ["supported_primitives", "supported_primitives_markdown"]


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
    shape = tuple(size(s) for s in e.outs[0].shape)
    expanded: list[Any] = [1] * len(shape)
    for i, d in enumerate(e.params["broadcast_dimensions"]):
        expanded[d] = size(e.ins[0].shape[i])
    kept = same(expanded, e.ins[0].shape)
    return {
        "expanded": None if kept else tuple(expanded),
        "shape": None if same(expanded, shape) else shape,
    }


@primitive("broadcast_in_dim", static=_broadcast, arity=1)
def broadcast_in_dim(x: Any, *, expanded: tuple[Any, ...] | None, shape: Any) -> Any:
    """``shape`` (None: the expanded shape is the result's) may hold sizes computed at run
    time from the inputs' (a dynamic dimension)."""
    if expanded is not None:
        x = symbolic.reshape(x, expanded)
    return x if shape is None else symbolic.broadcast_to(x, shape)


def _dim_as_value(e: Eqn) -> dict[str, Any]:
    return {"value": size(e.params["dim"]), "dtype": il.as_dtype(_dtype_name(e.outs[0]))}


@primitive("dim_as_value", static=_dim_as_value)
def dim_as_value(*, value: Any, dtype: Any) -> Any:
    """A size used as a number (``x.shape[0]`` in arithmetic, the count of a mean): computed
    from the inputs' sizes at run time."""
    return cast(symbolic.scalar(value), dtype)


def _iota(e: Eqn) -> dict[str, Any]:
    if e.params.get("sharding") is not None:
        raise Refused("a sharded iota")
    shape = tuple(size(s) for s in e.params["shape"])
    return {
        "shape": shape,
        "axis": int(e.params["dimension"]),
        "dtype": il.as_dtype(np.dtype(e.params["dtype"]).name),
    }


@primitive("iota", static=_iota)
def iota(*, shape: tuple[Any, ...], axis: int, dtype: Any) -> Any:
    """Positions along ``axis``, broadcast to ``shape`` (only an iota whose shape depends on a
    dynamic dimension, or a large one, is not folded to a constant at conversion)."""
    along = il.arange(shape[axis], dtype=dtype)
    line = tuple(-1 if a == axis else 1 for a in range(len(shape)))
    return symbolic.broadcast_to(il.reshape(along, line), shape)


def _reshape(e: Eqn) -> dict[str, Any]:
    if e.params.get("dimensions") is not None:
        raise Refused("a reshape with dimensions= (a transposition first)")
    return {"shape": tuple(size(s) for s in e.params["new_sizes"])}


@primitive("reshape", static=_reshape, arity=1)
def reshape(x: Any, *, shape: tuple[Any, ...]) -> Any:
    return symbolic.reshape(x, shape)


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
        # a limit that is the whole axis is written None: no size to compute at run time
        slice(size(a), None if same([b], [n]) else size(b), None if s in (None, 1) else int(s))
        for a, b, s, n in zip(
            e.params["start_indices"], e.params["limit_indices"], steps, e.ins[0].shape
        )
    )
    return {"index": index}


@primitive("slice", static=_slice)
def slice_(x: Any, *, index: tuple[slice, ...]) -> Any:
    return x[index]


def _split(e: Eqn) -> dict[str, Any]:
    bounds: list[Any] = [0]
    for s in e.params["sizes"]:
        bounds.append(bounds[-1] + size(s))
    return {"axis": int(e.params["axis"]), "bounds": tuple(bounds)}


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
        slice(max(-int(lo), 0), size(n) + max(int(lo), 0) + max(int(hi), 0) - max(-int(hi), 0))
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
    """One operand; ``argsort``'s pair (the operand and the positions along the axis, known at
    conversion or an iota computed at run time): a sort and an argsort; other operands sorted
    by the first (one key): gathered at its stable argsort."""
    axis = int(e.params["dimension"])
    if len(e.ins) == 1:
        return {"axis": axis, "positions": None, "carried": False}
    if int(e.params["num_keys"]) != 1:
        raise Refused("sorting by several keys together; one key (num_keys=1) only")
    if len(e.ins) == 2 and _counts_along(e, axis):
        return {"axis": axis, "positions": il.as_dtype(_dtype_name(e.ins[1])), "carried": False}
    return {"axis": axis, "positions": None, "carried": True}


def _counts_along(e: Eqn, axis: int) -> bool:
    """Whether the second operand is the positions along ``axis`` (argsort's iota)."""
    if e.iotas and e.iotas[1] == axis and same(e.ins[1].shape, e.ins[0].shape):
        return True
    positions, shape = e.known[1], e.ins[0].shape
    if positions is None or any(is_symbolic(d) for d in shape):
        return False
    shape = tuple(int(d) for d in shape)
    along = np.arange(shape[axis]).reshape([-1 if d == axis else 1 for d in range(len(shape))])
    return bool(np.array_equal(positions, np.broadcast_to(along, shape)))


@primitive("sort", static=_sort, arity=lambda e: len(e.ins) if _sort(e)["carried"] else 1)
def sort(x: Any, *others: Any, axis: int, positions: Any, carried: bool) -> tuple[Any, ...]:
    """A result per operand: the sorted values (and their positions, for an argsort; or the
    other operands in the order of the first)."""
    if carried:
        order = il.argsort(x, axis=axis, stable=True)
        return tuple(il.take_along_axis(y, order, axis=axis) for y in (x, *others))
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

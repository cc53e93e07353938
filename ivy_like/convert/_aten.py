"""ATen ops -> ivy_like ops: the table :func:`from_torch` maps a captured graph with.

One small function per ATen op (or per group of overloads with one meaning), registered under
the op's full name (``"aten.add.Tensor"``). Each takes the node's arguments as ATen gives them
(arrays in place of the graph's tensors, Python numbers and lists as they are, an
``ivy_like`` dtype in place of a ``torch.dtype``) and computes the node's value with ivy_like
ops, so a converted graph runs, differentiates and compiles on every backend. This module
imports no framework: the table, and the list of supported ops in ``docs/convert.md``, come
without torch.

Next to the table:

* :data:`CHECKS`: a test run once, when the graph is converted, on the node's arguments (a
  :class:`TensorMeta` for each tensor): it returns why a use of an op is not supported
  (``ceil_mode=True``, dropout in training mode...), never letting such a node compute
  something else.
* :data:`PROMOTE`: elementwise ops whose tensor arguments must share a dtype first (PyTorch
  promotes ``int64 * float32`` to ``float32``; the array API leaves mixed kinds undefined).
  The converter inserts the casts, from the dtypes recorded in the graph.
* :data:`CREATION`: ops that make an array; the converter passes the dtype the graph recorded.
* :data:`OUTPUTS`: ops returning a tuple of which only some entries are computed (the others
  are ``None``: ``max_pool2d_with_indices`` gives no indices); using another entry is an
  :class:`UnsupportedOpError` at conversion.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import ivy_like as il
from ivy_like.ops.nn.resize import linear_resize_matrix, nearest_resize_indices

Handler = Callable[..., Any]

ATEN: dict[str, Handler] = {}
CHECKS: dict[str, Callable[..., str | None]] = {}
PROMOTE: dict[str, tuple[int, ...]] = {}
CREATION: set[str] = set()
OUTPUTS: dict[str, tuple[int, ...]] = {}
# Why some well-known ops have no entry: said in the error instead of a bare "not supported".
REASONS = {
    "aten.item.default": "it reads a tensor's value into Python (data-dependent control flow)",
    "aten._local_scalar_dense.default": "it reads a tensor's value into Python (data-dependent)",
    "aten.nonzero.default": "its output shape depends on the data",
    "aten.masked_select.default": "its output shape depends on the data",
    "aten.unique.default": "its output shape depends on the data",
    "aten.sym_size.int": "the graph was captured with dynamic shapes; capture with static ones",
}


class UnsupportedOpError(TypeError):
    """A node of a captured graph that the converter cannot translate.

    A subclass of ``TypeError``. The message names the ATen op, the graph node, the module it
    came from (its path in the model and its class), the reason when a setting rather than the
    op is unsupported, and the supported ops. Models whose ``forward`` branches on tensor
    values (data-dependent control flow) raise it too, saying so.

    Examples
    --------
    >>> import torch
    >>> from ivy_like.convert import UnsupportedOpError, from_torch
    >>> class Net(torch.nn.Module):
    ...     def forward(self, x):
    ...         return torch.special.bessel_j0(x)
    >>> try:
    ...     from_torch(Net(), torch.ones(2), backend="numpy")
    ... except UnsupportedOpError as err:
    ...     print(str(err).split(", in ")[0])
    from_torch: ATen op aten.special_bessel_j0.default (node 'special_bessel_j0'
    """


@dataclass(frozen=True)
class TensorMeta:
    """What a check sees of a tensor argument: its shape and dtype name (``"float32"``)."""

    shape: tuple[int, ...]
    dtype: str


def aten(
    *names: str,
    check: Callable[..., str | None] | None = None,
    promote: tuple[int, ...] | None = None,
    creation: bool = False,
    outputs: tuple[int, ...] | None = None,
) -> Callable[[Handler], Handler]:
    """Register the decorated function for the ATen ops ``names`` (``"add.Tensor"``).

    ``promote``: positions of the arguments cast to a common dtype (lists included);
    ``creation``: the op makes an array and gets the graph's ``dtype=``; ``outputs``: the
    entries of a tuple result that are computed; ``check``: see :data:`CHECKS`.
    """

    def register(fn: Handler) -> Handler:
        for name in names:
            key = f"aten.{name}"
            ATEN[key] = fn
            if check is not None:
                CHECKS[key] = check
            if promote is not None:
                PROMOTE[key] = promote
            if creation:
                CREATION.add(key)
            if outputs is not None:
                OUTPUTS[key] = outputs
        return fn

    return register


def supported_ops() -> list[str]:
    """The ATen ops :func:`ivy_like.convert.from_torch` maps, sorted.

    Examples
    --------
    >>> from ivy_like.convert._aten import supported_ops
    >>> "aten.scaled_dot_product_attention.default" in supported_ops()
    True
    """
    return sorted(ATEN)


def supported_ops_markdown() -> str:
    """The markdown table of the supported ATen ops in ``docs/convert.md`` (generated here,
    checked by the tests): one row per op with its overloads."""
    overloads: dict[str, list[str]] = {}
    for key in sorted(ATEN):
        name, _, overload = key.removeprefix("aten.").rpartition(".")
        overloads.setdefault(name, []).append(overload)
    rows = ["| ATen op | overloads |", "|---|---|"]
    for name in sorted(overloads, key=lambda n: n.strip("_")):
        rows.append(f"| `{name}` | {', '.join(f'`{o}`' for o in overloads[name])} |")
    return "\n".join(rows) + "\n"


# -- helpers -------------------------------------------------------------------------------------
_FALLBACK = {"int64": "int32", "uint64": "uint32"}
_dtype_on: dict[tuple[str, str], Any] = {}


def _dt(dtype: Any) -> Any:
    """``dtype`` on the active backend; int64 becomes int32 where the backend has no int64
    (JAX without x64 makes that choice for every integer array itself). A float dtype the
    backend lacks stays a ``TypeError``: never a silent cast of the values."""
    if dtype is None:
        return None
    backend = il.current_backend()
    key = (backend.name, dtype.name)
    hit = _dtype_on.get(key)
    if hit is None:
        try:
            backend.native_dtype(dtype)
            hit = dtype
        except TypeError:
            if dtype.name not in _FALLBACK:
                raise
            hit = il.as_dtype(_FALLBACK[dtype.name])
        _dtype_on[key] = hit
    return hit


def cast(x: Any, dtype: Any) -> Any:
    """``x`` as ``dtype`` (the converter's inserted promotion casts)."""
    return il.astype(x, _dt(dtype), copy=False)


def _native(x: Any) -> Any:
    return il.to_native(x)  # creation functions give an Array; the graph carries natives


def _ndim(x: Any) -> int:
    return len(x.shape)


def _axis(d: int, ndim: int) -> int:
    return d + ndim if d < 0 else d


def _is_float(x: Any) -> bool:
    return "float" in str(x.dtype)


def _shape_of(size: Any) -> tuple[int, ...]:
    return tuple(int(s) for s in size)


def _dims(dim: Any, ndim: int) -> tuple[int, ...] | None:
    """ATen's ``dim`` argument: None or ``[]`` is every axis (as in ``sum(x, [])``)."""
    if dim is None:
        return None
    if isinstance(dim, int):
        return (dim,)
    return tuple(dim) if len(dim) else None


# -- elementwise arithmetic --------------------------------------------------------------------
_ALL = (0, 1)


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


# -- activations ---------------------------------------------------------------------------------
@aten("relu.default")
def relu(x: Any) -> Any:
    return il.nn.relu(x)


@aten("gelu.default")
def gelu(x: Any, approximate: str = "none") -> Any:
    return il.nn.gelu(x, approximate=approximate)


@aten("silu.default")
def silu(x: Any) -> Any:
    return il.nn.silu(x)


@aten("sigmoid.default")
def sigmoid(x: Any) -> Any:
    return il.nn.sigmoid(x)


@aten("hardtanh.default")
def hardtanh(x: Any, min_val: float = -1.0, max_val: float = 1.0) -> Any:
    if min_val == 0.0 and max_val == 6.0:
        return il.nn.relu6(x)
    return il.nn.hardtanh(x, min_val, max_val)


@aten("relu6.default")
def relu6(x: Any) -> Any:
    return il.nn.relu6(x)


@aten("hardswish.default")
def hardswish(x: Any) -> Any:
    return il.nn.hardswish(x)


@aten("hardsigmoid.default")
def hardsigmoid(x: Any) -> Any:
    return il.nn.hardsigmoid(x)


@aten("leaky_relu.default")
def leaky_relu(x: Any, negative_slope: float = 0.01) -> Any:
    return il.where(il.greater(x, 0), x, il.multiply(x, negative_slope))


@aten("elu.default")
def elu(x: Any, alpha: float = 1.0, scale: float = 1.0, input_scale: float = 1.0) -> Any:
    neg = il.multiply(il.expm1(il.multiply(x, input_scale)), alpha * scale)
    return il.where(il.greater(x, 0), il.multiply(x, scale), neg)


@aten("softplus.default")
def softplus(x: Any, beta: float = 1.0, threshold: float = 20.0) -> Any:
    bx = il.multiply(x, beta)
    # torch switches to the identity above the threshold; the exp there is never used
    soft = il.divide(il.log1p(il.exp(il.minimum(bx, threshold))), beta)
    return il.where(il.greater(bx, threshold), x, soft)


@aten("softmax.int", "_softmax.default")
def softmax(x: Any, dim: int, dtype_or_half: Any = None) -> Any:
    if dtype_or_half is not None and not isinstance(dtype_or_half, bool):
        x = cast(x, dtype_or_half)
    return il.nn.softmax(x, axis=dim)


@aten("log_softmax.int", "_log_softmax.default")
def log_softmax(x: Any, dim: int, dtype_or_half: Any = None) -> Any:
    if dtype_or_half is not None and not isinstance(dtype_or_half, bool):
        x = cast(x, dtype_or_half)
    return il.nn.log_softmax(x, axis=dim)


# -- reductions ----------------------------------------------------------------------------------
def _reduce(fn: Handler, x: Any, dim: Any, keepdim: bool) -> Any:
    return fn(x, axis=_dims(dim, _ndim(x)), keepdims=keepdim)


@aten("sum.default", "sum.dim_IntList", promote=(0,))
def sum_(x: Any, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Any:
    return _reduce(il.sum, x, dim, keepdim)


@aten("mean.default", "mean.dim", promote=(0,))
def mean(x: Any, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Any:
    return _reduce(il.mean, x, dim, keepdim)


@aten("prod.default", promote=(0,))
def prod(x: Any, dtype: Any = None) -> Any:
    return il.prod(x)


@aten("prod.dim_int", promote=(0,))
def prod_dim(x: Any, dim: int, keepdim: bool = False, dtype: Any = None) -> Any:
    return il.prod(x, axis=dim, keepdims=keepdim)


@aten("amax.default")
def amax(x: Any, dim: Any = (), keepdim: bool = False) -> Any:
    return _reduce(il.max, x, dim, keepdim)


@aten("amin.default")
def amin(x: Any, dim: Any = (), keepdim: bool = False) -> Any:
    return _reduce(il.min, x, dim, keepdim)


def _index_dtype(i: Any) -> Any:
    """Indices as int64, torch's index dtype (MLX's argmax gives int32)."""
    return cast(i, il.int64)


@aten("max.default")
def max_(x: Any) -> Any:
    return il.max(x)


@aten("min.default")
def min_(x: Any) -> Any:
    return il.min(x)


@aten("max.dim")
def max_dim(x: Any, dim: int, keepdim: bool = False) -> Any:
    return il.max(x, axis=dim, keepdims=keepdim), _index_dtype(
        il.argmax(x, axis=dim, keepdims=keepdim)
    )


@aten("min.dim")
def min_dim(x: Any, dim: int, keepdim: bool = False) -> Any:
    return il.min(x, axis=dim, keepdims=keepdim), _index_dtype(
        il.argmin(x, axis=dim, keepdims=keepdim)
    )


@aten("argmax.default")
def argmax(x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    return _index_dtype(il.argmax(x, axis=dim, keepdims=keepdim))


@aten("argmin.default")
def argmin(x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    return _index_dtype(il.argmin(x, axis=dim, keepdims=keepdim))


@aten("linalg_vector_norm.default")
def linalg_vector_norm(
    x: Any,
    ord: Any = 2,  # noqa: A002 - ATen's name
    dim: Any = None,
    keepdim: bool = False,
    *,
    dtype: Any = None,
) -> Any:
    if dtype is not None:
        x = cast(x, dtype)
    return il.linalg.vector_norm(x, axis=_dims(dim, _ndim(x)), keepdims=keepdim, ord=ord)


@aten("var.correction")
def var(x: Any, dim: Any = None, *, correction: Any = None, keepdim: bool = False) -> Any:
    c = 1 if correction is None else correction  # torch's default is the unbiased estimate
    return il.var(x, axis=_dims(dim, _ndim(x)), correction=c, keepdims=keepdim)


@aten("std.correction")
def std(x: Any, dim: Any = None, *, correction: Any = None, keepdim: bool = False) -> Any:
    c = 1 if correction is None else correction
    return il.std(x, axis=_dims(dim, _ndim(x)), correction=c, keepdims=keepdim)


@aten("any.default", "any.dim", "any.dims")
def any_(x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    return _reduce(il.any, x, dim, keepdim)


@aten("all.default", "all.dim", "all.dims")
def all_(x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    return _reduce(il.all, x, dim, keepdim)


@aten("cumprod.default", promote=(0,))
def cumprod(x: Any, dim: int, dtype: Any = None) -> Any:
    return il.cumulative_prod(x, axis=_axis(dim, _ndim(x)))


@aten("var_mean.correction")
def var_mean(
    x: Any, dim: Any = None, *, correction: Any = None, keepdim: bool = False
) -> tuple[Any, Any]:
    return var(x, dim, correction=correction, keepdim=keepdim), _reduce(il.mean, x, dim, keepdim)


@aten("cumsum.default", promote=(0,))
def cumsum(x: Any, dim: int, dtype: Any = None) -> Any:
    return il.cumulative_sum(x, axis=_axis(dim, _ndim(x)))


@aten("diff.default")
def diff(x: Any, n: int = 1, dim: int = -1, prepend: Any = None, append: Any = None) -> Any:
    return il.diff(x, axis=dim, n=n, prepend=prepend, append=append)


@aten("tril.default")
def tril(x: Any, diagonal: int = 0) -> Any:
    return il.tril(x, k=diagonal)


@aten("triu.default")
def triu(x: Any, diagonal: int = 0) -> Any:
    return il.triu(x, k=diagonal)


# -- matrix products -----------------------------------------------------------------------------
@aten("linear.default")
def linear(x: Any, weight: Any, bias: Any = None) -> Any:
    return il.nn.linear(x, weight, bias)


@aten("matmul.default", "mm.default", "bmm.default", promote=_ALL)
def matmul(x: Any, y: Any) -> Any:
    return il.matmul(x, y)


def _scaled_sum(bias: Any, product: Any, beta: Any, alpha: Any) -> Any:
    if alpha != 1:
        product = il.multiply(product, alpha)
    if beta == 0:  # torch ignores bias then, NaN included
        return product
    return il.add(product, bias if beta == 1 else il.multiply(bias, beta))


@aten("addmm.default", "baddbmm.default", promote=(0, 1, 2))
def addmm(bias: Any, x: Any, y: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    return _scaled_sum(bias, il.matmul(x, y), beta, alpha)


def addmm_as_linear(x: Any, weight: Any, bias: Any) -> Any:
    """``x @ weight + bias`` (``weight`` is ``(in, out)``, ``bias`` ``(out,)``) as ivy_like's
    ``linear``, one fused kernel where the backend has one (torch: its ``addmm``, where
    :func:`addmm` makes a product and a sum). The converter calls it for ``addmm`` nodes of
    one float dtype, with ``x`` before the flattening view the node's input came through."""
    return il.nn.linear(x, il.matrix_transpose(weight), bias)


@aten("_trilinear.default", promote=(0, 1, 2))
def trilinear(
    i1: Any,
    i2: Any,
    i3: Any,
    expand1: Any,
    expand2: Any,
    expand3: Any,
    sumdim: Any,
    unroll_dim: int = 1,
) -> Any:
    """What ``torch.nn.Bilinear`` runs: the three inputs with unit axes inserted at
    ``expand*`` (in increasing order), multiplied, summed over ``sumdim``."""

    def grow(t: Any, dims: Any) -> Any:
        for d in sorted(int(i) for i in dims):
            t = il.expand_dims(t, axis=d)
        return t

    product = il.multiply(il.multiply(grow(i1, expand1), grow(i2, expand2)), grow(i3, expand3))
    return il.sum(product, axis=tuple(int(d) for d in sumdim)) if len(sumdim) else product


@aten("_cdist_forward.default")
def cdist(x1: Any, x2: Any, p: float, compute_mode: Any = None) -> Any:
    # the p-norm of every difference; ivy_like's vector_norm gives torch's zero gradient at 0
    diff = il.subtract(il.expand_dims(x1, axis=-2), il.expand_dims(x2, axis=-3))
    return il.linalg.vector_norm(diff, axis=-1, ord=p)


@aten("einsum.default")
def einsum(equation: str, operands: Any, path: Any = None) -> Any:
    return il.einsum(equation, *operands)


# -- shapes --------------------------------------------------------------------------------------
@aten("view.default", "_unsafe_view.default", "reshape.default", "view_copy.default")
def reshape(x: Any, shape: Any) -> Any:
    return il.reshape(x, _shape_of(shape))


@aten("reshape_as.default", "view_as.default")
def reshape_as(x: Any, other: Any) -> Any:
    return il.reshape(x, tuple(other.shape))


@aten("permute.default")
def permute(x: Any, dims: Any) -> Any:
    return il.permute_dims(x, tuple(_axis(d, _ndim(x)) for d in dims))


@aten("transpose.int")
def transpose(x: Any, dim0: int, dim1: int) -> Any:
    n = _ndim(x)
    axes = list(range(n))
    a, b = _axis(dim0, n), _axis(dim1, n)
    axes[a], axes[b] = axes[b], axes[a]
    return il.permute_dims(x, tuple(axes))


@aten("t.default")
def t(x: Any) -> Any:
    return x if _ndim(x) < 2 else il.permute_dims(x, (1, 0))


@aten("unsqueeze.default")
def unsqueeze(x: Any, dim: int) -> Any:
    return il.expand_dims(x, axis=dim)


@aten("squeeze.default", "squeeze.dim", "squeeze.dims")
def squeeze(x: Any, dim: Any = None) -> Any:
    n = _ndim(x)
    dims = range(n) if dim is None else [dim] if isinstance(dim, int) else dim
    # torch leaves axes whose size is not 1 alone; the array API's squeeze would raise
    axes = tuple(a for a in (_axis(d, n) for d in dims) if x.shape[a] == 1)
    return il.squeeze(x, axis=axes) if axes else x


@aten("flatten.using_ints")
def flatten(x: Any, start_dim: int = 0, end_dim: int = -1) -> Any:
    n = _ndim(x)
    if n == 0:
        return il.reshape(x, (1,))
    s, e = _axis(start_dim, n), _axis(end_dim, n)
    shape = tuple(x.shape)
    return il.reshape(x, (*shape[:s], -1, *shape[e + 1 :]))


@aten("unflatten.int")
def unflatten(x: Any, dim: int, sizes: Any) -> Any:
    shape = tuple(x.shape)
    d = _axis(dim, len(shape))
    return il.reshape(x, (*shape[:d], *_shape_of(sizes), *shape[d + 1 :]))


@aten("expand.default")
def expand(x: Any, size: Any, *, implicit: bool = False) -> Any:
    shape = tuple(x.shape)
    lead = len(size) - len(shape)
    target = tuple((shape[i - lead] if s == -1 else int(s)) for i, s in enumerate(size))
    return il.broadcast_to(x, target)


@aten("repeat.default")
def repeat(x: Any, repeats: Any) -> Any:
    return il.tile(x, tuple(int(r) for r in repeats))


@aten("cat.default", promote=(0,))
def cat(tensors: Any, dim: int = 0) -> Any:
    # torch.cat skips 1-D empty tensors (a legacy rule); the array API has none
    kept = [t for t in tensors if not (_ndim(t) == 1 and t.shape[0] == 0)]
    return il.concat(kept, axis=dim)


@aten("stack.default", promote=(0,))
def stack(tensors: Any, dim: int = 0) -> Any:
    return il.stack(list(tensors), axis=dim)


def _slice_along(x: Any, dim: int, s: slice) -> Any:
    index = (slice(None),) * _axis(dim, _ndim(x)) + (s,)
    return x[index]


@aten("slice.Tensor")
def slice_(x: Any, dim: int = 0, start: Any = None, end: Any = None, step: int = 1) -> Any:
    size = x.shape[_axis(dim, _ndim(x))]
    # ATen writes "to the end" as 2**63 - 1, which some frameworks cannot take as an index
    if end is not None and end > size:
        end = size
    if start is not None and start > size:
        start = size
    return _slice_along(x, dim, slice(start, end, step))


@aten("select.int")
def select(x: Any, dim: int, index: int) -> Any:
    index_tuple = (slice(None),) * _axis(dim, _ndim(x)) + (index,)
    return x[index_tuple]


def _scatter_along(x: Any, src: Any, dim: int, picked: range) -> Any:
    """``x`` with the positions ``picked`` along ``dim`` replaced by ``src`` (a functionalized
    ``x[..., a:b:c] = src``): the runs of ``x`` and of ``src`` concatenated in order (three
    pieces for a step of 1), which differentiates on every backend."""
    d = _axis(dim, _ndim(x))
    size = int(x.shape[d])
    if not picked:
        return x
    if list(picked) == list(range(size)):
        return src
    source = [("x", i) for i in range(size)]
    for k, i in enumerate(picked):
        source[i] = ("src", k)
    pieces, run_start = [], 0
    for i in range(1, size + 1):  # close a run where the source or the contiguity changes
        if i < size and source[i][0] == source[i - 1][0] and source[i][1] == source[i - 1][1] + 1:
            continue
        kind, first = source[run_start]
        whole = x if kind == "x" else src
        pieces.append(_slice_along(whole, d, slice(first, first + i - run_start)))
        run_start = i
    return pieces[0] if len(pieces) == 1 else il.concat(pieces, axis=d)


@aten("slice_scatter.default", promote=_ALL)
def slice_scatter(
    x: Any, src: Any, dim: int = 0, start: Any = None, end: Any = None, step: int = 1
) -> Any:
    size = int(x.shape[_axis(dim, _ndim(x))])
    return _scatter_along(x, src, dim, range(size)[slice(start, end, step)])


@aten("select_scatter.default", promote=_ALL)
def select_scatter(x: Any, src: Any, dim: int, index: int) -> Any:
    d = _axis(dim, _ndim(x))
    size = int(x.shape[d])
    i = index + size if index < 0 else index
    return _scatter_along(x, il.expand_dims(src, axis=d), d, range(i, i + 1))


@aten("narrow.default")
def narrow(x: Any, dim: int, start: int, length: int) -> Any:
    if start < 0:
        start += x.shape[_axis(dim, _ndim(x))]
    return _slice_along(x, dim, slice(start, start + length))


def _split_at(x: Any, sizes: Sequence[int], dim: int) -> list[Any]:
    out, start = [], 0
    for s in sizes:
        out.append(_slice_along(x, dim, slice(start, start + s)))
        start += s
    return out


@aten("split.Tensor")
def split(x: Any, split_size: int, dim: int = 0) -> Any:
    n = x.shape[_axis(dim, _ndim(x))]
    sizes = [min(split_size, n - s) for s in range(0, n, split_size)] or [0]
    return _split_at(x, sizes, dim)


@aten("split_with_sizes.default")
def split_with_sizes(x: Any, split_sizes: Any, dim: int = 0) -> Any:
    return _split_at(x, [int(s) for s in split_sizes], dim)


@aten("chunk.default")
def chunk(x: Any, chunks: int, dim: int = 0) -> Any:
    n = x.shape[_axis(dim, _ndim(x))]
    return split(x, -(-n // chunks) if n else 1, dim)


@aten("unbind.int")
def unbind(x: Any, dim: int = 0) -> Any:
    return list(il.unstack(x, axis=dim))


@aten("diagonal.default")
def diagonal(x: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Any:
    """The diagonal of the ``(dim1, dim2)`` planes, on a new last axis (torch's layout): one
    ``take`` from the two axes flattened, at positions fixed by the shape."""
    n = _ndim(x)
    a, b = _axis(dim1, n), _axis(dim2, n)
    rest = [i for i in range(n) if i not in (a, b)]
    moved = il.permute_dims(x, (*rest, a, b))
    rows, cols = int(x.shape[a]), int(x.shape[b])
    length = max(0, min(rows - max(-offset, 0), cols - max(offset, 0)))
    i = np.arange(length)
    positions = (i + max(-offset, 0)) * cols + i + max(offset, 0)
    flat = il.reshape(moved, (*[int(x.shape[r]) for r in rest], rows * cols))
    return il.take(flat, _native(il.asarray(positions.astype(np.int32))), axis=len(rest))


@aten("unfold.default")
def unfold(x: Any, dimension: int, size: int, step: int) -> Any:
    """``x.unfold``: the windows of ``size`` every ``step`` along ``dimension``, which then
    counts the windows, each window on a new last axis."""
    d = _axis(dimension, _ndim(x))
    count = (int(x.shape[d]) - size) // step + 1
    windows = il.stack(
        [_slice_along(x, d, slice(i * step, i * step + size)) for i in range(count)], axis=d
    )
    n = _ndim(windows)
    return il.permute_dims(windows, (*range(d + 1), *range(d + 2, n), d + 1))


@aten("flip.default")
def flip(x: Any, dims: Any) -> Any:
    return il.flip(x, axis=tuple(dims))


@aten("roll.default")
def roll(x: Any, shifts: Any, dims: Any = ()) -> Any:
    if not len(dims):
        return il.reshape(il.roll(il.reshape(x, (-1,)), tuple(shifts)), tuple(x.shape))
    return il.roll(x, tuple(shifts), axis=tuple(dims))


_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": ""}


def _check_pad(x: Any, pad: Any, mode: str = "constant", value: Any = None) -> str | None:
    if mode not in _PAD_MODES:
        return f"mode={mode!r}; only {', '.join(map(repr, _PAD_MODES))} padding"
    if len(pad) % 2 or len(pad) // 2 > len(x.shape):
        return f"pad={list(pad)} does not match the input's {len(x.shape)} axes"
    if mode == "circular":
        n = len(x.shape)
        for i, w in enumerate(pad):
            if not 0 <= int(w) <= x.shape[n - 1 - i // 2]:
                return f"circular pad={list(pad)}: widths from 0 to the axis size only"
    return None


def _wrap(x: Any, widths: Sequence[tuple[int, int]]) -> Any:
    """Circular padding: each axis extended by its own other end."""
    for axis, (lo, hi) in enumerate(widths):
        if lo or hi:
            n = int(x.shape[axis])
            parts = [_slice_along(x, axis, slice(n - lo, n))] if lo else []
            parts.append(x)
            if hi:
                parts.append(_slice_along(x, axis, slice(0, hi)))
            x = il.concat(parts, axis=axis)
    return x


def _pad(x: Any, pad: Sequence[int], mode: str, value: Any) -> Any:
    """torch's pad list (last axis first, ``(lo, hi)`` pairs, negative widths crop) as
    ``ivy_like.pad`` (NumPy's ``pad_width``, one pair per axis)."""
    n = _ndim(x)
    widths = [(0, 0)] * n
    for i in range(len(pad) // 2):
        axis = n - 1 - i
        lo, hi = int(pad[2 * i]), int(pad[2 * i + 1])
        if lo < 0 or hi < 0:
            x = _slice_along(x, axis, slice(max(-lo, 0), x.shape[axis] - max(-hi, 0)))
        widths[axis] = (max(lo, 0), max(hi, 0))
    if not any(lo or hi for lo, hi in widths):
        return x
    if mode == "constant":
        return il.pad(x, tuple(widths), constant_values=value)
    if mode == "circular":
        return _wrap(x, widths)
    return il.pad(x, tuple(widths), mode=_PAD_MODES[mode])


@aten("constant_pad_nd.default", check=_check_pad)
def constant_pad_nd(x: Any, pad: Any, value: Any = 0) -> Any:
    return _pad(x, pad, "constant", value)


@aten("pad.default", check=_check_pad)
def pad(x: Any, pad: Any, mode: str = "constant", value: Any = None) -> Any:
    return _pad(x, pad, mode, 0 if value is None else value)


@aten("reflection_pad1d.default", "reflection_pad2d.default", check=_check_pad)
def reflection_pad(x: Any, padding: Any) -> Any:
    return _pad(x, padding, "reflect", 0)


@aten("replication_pad1d.default", "replication_pad2d.default", check=_check_pad)
def replication_pad(x: Any, padding: Any) -> Any:
    return _pad(x, padding, "replicate", 0)


# -- indexing ------------------------------------------------------------------------------------
@aten("embedding.default")
def embedding(
    weight: Any,
    indices: Any,
    padding_idx: int = -1,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Any:
    rows = il.nn.embedding(indices, weight)
    if padding_idx < 0:
        return rows
    # torch gives the padding row no gradient (its value still comes out)
    pad_rows = il.expand_dims(il.equal(indices, padding_idx), axis=-1)
    return il.where(pad_rows, il.stop_gradient(rows), rows)


def _check_embedding(weight: Any, indices: Any, padding_idx: int = -1, *rest: Any) -> str | None:
    return "scale_grad_by_freq=True" if rest and rest[0] else None


CHECKS["aten.embedding.default"] = _check_embedding


@aten("index_select.default")
def index_select(x: Any, dim: int, index: Any) -> Any:
    return il.take(x, index, axis=_axis(dim, _ndim(x)))


@aten("gather.default")
def gather(x: Any, dim: int, index: Any, *, sparse_grad: bool = False) -> Any:
    n = _ndim(x)
    d = _axis(dim, n)
    # torch.gather lets index be smaller than x on the other axes: x is cut to it first
    cut = tuple(slice(None) if a == d else slice(0, index.shape[a]) for a in range(n))
    return il.take_along_axis(x[cut], index, axis=d)


def _check_index(x: Any, indices: Any) -> str | None:
    used = [i for i, t in enumerate(indices) if t is not None]
    if not used:
        return None
    if any(isinstance(t, TensorMeta) and t.dtype == "bool" for t in indices if t is not None):
        return "a boolean mask index (its output shape depends on the data)"
    if used != list(range(used[0], used[-1] + 1)):
        return "index tensors separated by full slices (x[i, :, j])"
    return None


def _indexed_rows(x: Any, indices: Any) -> tuple[Any, Any, tuple[int, ...], tuple[int, ...]]:
    """``x`` with its indexed axes (consecutive) moved first and flattened into rows, the row
    of every index (the index arrays broadcast), their shape and the shape of the rest."""
    used = [i for i, t in enumerate(indices) if t is not None]
    first, k = used[0], len(used)
    dims = tuple(x.shape)[first : first + k]
    arrays = il.broadcast_arrays(*[indices[i] for i in used]) if k > 1 else [indices[first]]
    flat = None
    for arr, size in zip(arrays, dims):
        arr = il.where(il.less(arr, 0), il.add(arr, size), arr)  # negative indices count back
        flat = arr if flat is None else il.add(il.multiply(flat, size), arr)
    picked = tuple(int(s) for s in arrays[0].shape)
    rows, rest = _rows(x, first, k)
    return rows, il.reshape(flat, (-1,)), picked, rest


def _rows(x: Any, first: int, k: int) -> tuple[Any, tuple[int, ...]]:
    """``x`` with its ``k`` axes from ``first`` moved first and flattened into rows, and the
    shape of the other axes."""
    shape = tuple(x.shape)
    rest = shape[:first] + shape[first + k :]
    if first:
        order = (
            tuple(range(first, first + k))
            + tuple(range(first))
            + tuple(range(first + k, len(shape)))
        )
        x = il.permute_dims(x, order)
    return il.reshape(x, (-1, *rest)), rest


def _block_back(first: int, p: int, ndim: int) -> tuple[int, ...]:
    """The axes order putting an indexed block of ``p`` axes, first in an array of ``ndim``,
    back where the indexed axes were (torch's rule for consecutive index arrays)."""
    return tuple(range(p, p + first)) + tuple(range(p)) + tuple(range(p + first, ndim))


@aten("index.Tensor", check=_check_index)
def index(x: Any, indices: Any) -> Any:
    """``x[i0, i1, ...]`` with integer index arrays on consecutive axes (None: a full slice):
    one ``take`` on the flattened indexed axes, so it runs on every backend."""
    rows, flat, picked, rest = _indexed_rows(x, indices)
    out = il.reshape(il.take(rows, flat, axis=0), (*picked, *rest))
    first = next(i for i, t in enumerate(indices) if t is not None)
    return out if first == 0 else il.permute_dims(out, _block_back(first, len(picked), _ndim(out)))


def index_rows(x: Any, flat: Any, first: int, k: int, picked: tuple[int, ...]) -> Any:
    """:func:`index` with index arrays known at capture: ``flat`` is their row numbers in the
    ``k`` indexed axes from ``first`` flattened (broadcast, non-negative, one axis), ``picked``
    their broadcast shape; the converter works them out once instead of on every call."""
    rows, rest = _rows(x, first, k)
    out = il.reshape(il.take(rows, flat, axis=0), (*picked, *rest))
    return out if first == 0 else il.permute_dims(out, _block_back(first, len(picked), _ndim(out)))


def _check_index_put(x: Any, indices: Any, values: Any, accumulate: bool = False) -> str | None:
    masks = [t for t in indices if isinstance(t, TensorMeta) and t.dtype == "bool"]
    if masks:
        numel = math.prod(values.shape) if isinstance(values, TensorMeta) else 1
        if len(indices) != 1 or accumulate or numel != 1:
            return "a boolean mask index beside others, or with several values (data-dependent)"
        return None
    return _check_index(x, indices)


@aten("index_put.default", check=_check_index_put, promote=(0, 2))
def index_put(x: Any, indices: Any, values: Any, accumulate: bool = False) -> Any:
    """A functionalized ``x[i0, i1, ...] = values`` (``+=`` with ``accumulate``): the values
    scattered into the rows of :func:`_indexed_rows`, then put back in ``x``'s layout.
    Repeated indices add up with ``accumulate``; without it torch leaves them undefined."""
    if indices[0] is not None and "bool" in str(indices[0].dtype):  # x[mask] = v, one value
        mask = il.reshape(indices[0], (*indices[0].shape, *(1,) * (_ndim(x) - _ndim(indices[0]))))
        filled = il.astype(il.broadcast_to(il.reshape(values, ()), tuple(x.shape)), x.dtype)
        return il.where(mask, filled, x)
    rows, flat, picked, rest = _indexed_rows(x, indices)
    first = next(i for i, t in enumerate(indices) if t is not None)
    block = (*picked, *rest)
    if first:  # values come in x[indices]'s layout: move the indexed block first
        shape = tuple(x.shape)
        k = len([t for t in indices if t is not None])
        target = (*shape[:first], *picked, *shape[first + k :])
        values = il.broadcast_to(values, target)
        p, n = len(picked), len(target)
        values = il.permute_dims(
            values,
            tuple(range(first, first + p)) + tuple(range(first)) + tuple(range(first + p, n)),
        )
    values = il.reshape(il.broadcast_to(il.astype(values, x.dtype), block), (-1, *rest))
    added = il.scatter_add(il.zeros_like(rows), flat, values)
    if accumulate:
        rows = il.add(rows, added)
    else:
        hit = il.scatter_add(
            _native(il.zeros(rows.shape[:1], dtype=il.int32)),
            flat,
            il.ones_like(flat, dtype=il.int32),
        )
        hit = il.reshape(il.greater(hit, 0), (-1, *(1,) * len(rest)))
        rows = il.where(hit, added, rows)
    shape = tuple(x.shape)
    k = len([t for t in indices if t is not None])
    moved_shape = (*shape[first : first + k], *shape[:first], *shape[first + k :])
    out = il.reshape(rows, moved_shape)
    return out if first == 0 else il.permute_dims(out, _block_back(first, k, len(shape)))


def _scatter_rows(x: Any, dim: int, index: Any, src: Any, assign: bool) -> Any:
    """torch's ``scatter``/``scatter_add``: ``out[..., index[p], ...] = src[p]`` (``+=``) for
    every position ``p`` of ``index``, as one ``scatter_add`` into ``x`` flattened."""
    shape = tuple(int(s) for s in x.shape)
    d = _axis(dim, len(shape))
    ishape = tuple(int(s) for s in index.shape)
    strides = [int(np.prod(shape[a + 1 :])) for a in range(len(shape))]
    coords = np.indices(ishape)
    base = sum(coords[a] * strides[a] for a in range(len(shape)) if a != d).astype(np.int32)
    i = il.where(il.less(index, 0), il.add(index, shape[d]), index)
    flat = il.reshape(il.add(_native(il.asarray(base)), il.multiply(i, strides[d])), (-1,))
    if isinstance(src, (int, float, bool)):
        src = il.full_like(x, src)
    cut = tuple(slice(0, n) for n in ishape)  # src may be larger than index: its corner
    values = il.reshape(il.astype(src[cut], x.dtype), (-1,))
    rows = il.reshape(x, (-1,))
    added = il.scatter_add(il.zeros_like(rows), flat, values)
    if assign:
        hit = il.scatter_add(
            _native(il.zeros(rows.shape, dtype=il.int32)), flat, il.ones_like(flat, dtype=il.int32)
        )
        rows = il.where(il.greater(hit, 0), added, rows)
    else:
        rows = il.add(rows, added)
    return il.reshape(rows, shape)


@aten("scatter.src", "scatter.value")
def scatter(x: Any, dim: int, index: Any, src: Any) -> Any:
    return _scatter_rows(x, dim, index, src, assign=True)


@aten("scatter_add.default")
def scatter_add(x: Any, dim: int, index: Any, src: Any) -> Any:
    return _scatter_rows(x, dim, index, src, assign=False)


# -- sorting -------------------------------------------------------------------------------------
@aten("sort.default", "sort.stable")
def sort(
    x: Any, dim: int = -1, descending: bool = False, *, stable: Any = None, **more: Any
) -> tuple[Any, Any]:
    if "dim" in more:  # sort.stable's keyword-only order
        dim = more["dim"]
    if "descending" in more:
        descending = more["descending"]
    # the order is no function of x to differentiate (MLX refuses to try)
    order = il.stop_gradient(il.argsort(x, axis=dim, descending=descending, stable=True))
    return il.take_along_axis(x, order, axis=dim), _index_dtype(order)


@aten("topk.default")
def topk(x: Any, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:  # noqa: A002
    order = il.stop_gradient(il.argsort(x, axis=dim, descending=largest, stable=True))
    order = _slice_along(order, dim, slice(0, k))
    return il.take_along_axis(x, order, axis=dim), _index_dtype(order)


# -- copies, casts, no-ops ---------------------------------------------------------------------
@aten(
    "clone.default",
    "contiguous.default",
    "alias.default",
    "lift_fresh_copy.default",
    "lift_fresh.default",
)
def identity(x: Any, *args: Any, **kwargs: Any) -> Any:
    return x


@aten("detach.default")
def detach(x: Any) -> Any:
    return il.stop_gradient(x)


def _to(x: Any, dtype: Any) -> Any:
    return x if dtype is None else cast(x, dtype)


@aten("_to_copy.default", "to.dtype_layout")
def to_copy(x: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return _to(x, dtype)


@aten("to.dtype")
def to_dtype(x: Any, dtype: Any, *ignored: Any, **more: Any) -> Any:
    return _to(x, dtype)


@aten("to.device")
def to_device(x: Any, device: Any, dtype: Any, *ignored: Any, **more: Any) -> Any:
    return _to(x, dtype)


@aten("type_as.default")
def type_as(x: Any, other: Any) -> Any:
    return il.astype(x, other.dtype, copy=False)


@aten("copy.default")
def copy(x: Any, src: Any, non_blocking: bool = False) -> Any:
    """What an in-place ``x.copy_(src)`` leaves in ``x`` once functionalized: ``src``
    broadcast to ``x``'s shape, in ``x``'s dtype."""
    return il.astype(il.broadcast_to(src, tuple(x.shape)), x.dtype, copy=False)


@aten(
    "_assert_tensor_metadata.default",
    "_assert_scalar.default",
    "_assert_async.default",
    "_assert_async.msg",
)
def no_op(*args: Any, **kwargs: Any) -> None:
    """Checks torch makes on shapes and dtypes fixed at capture: nothing to compute."""
    return None


# -- creation ------------------------------------------------------------------------------------
@aten("arange.default", "arange.start", "arange.start_step", creation=True)
def arange(*args: Any, dtype: Any = None, **ignored: Any) -> Any:
    if dtype is not None and "int" in dtype.name:
        # torch takes whole floats as integer bounds and steps (arange(0, 16, 1.0, int64))
        args = tuple(int(a) if isinstance(a, float) and a.is_integer() else a for a in args)
    return _native(il.arange(*args, dtype=_dt(dtype)))


@aten("zeros.default", "empty.memory_format", creation=True)
def zeros(size: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    # empty's contents are unspecified: zeros are one valid choice, and deterministic
    return _native(il.zeros(_shape_of(size), dtype=_dt(dtype)))


@aten("ones.default", creation=True)
def ones(size: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return _native(il.ones(_shape_of(size), dtype=_dt(dtype)))


@aten("full.default", creation=True)
def full(size: Any, fill_value: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return _native(il.full(_shape_of(size), fill_value, dtype=_dt(dtype)))


@aten("scalar_tensor.default", creation=True)
def scalar_tensor(s: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return _native(il.full((), s, dtype=_dt(dtype)))


@aten("zeros_like.default", "empty_like.default", creation=True)
def zeros_like(x: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return il.zeros_like(x, dtype=_dt(dtype))


@aten("ones_like.default", creation=True)
def ones_like(x: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return il.ones_like(x, dtype=_dt(dtype))


@aten("full_like.default", creation=True)
def full_like(x: Any, fill_value: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return il.full_like(x, fill_value, dtype=_dt(dtype))


@aten("new_zeros.default", "new_empty.default", creation=True)
def new_zeros(x: Any, size: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return _native(il.zeros(_shape_of(size), dtype=_dt(dtype)))


@aten("new_ones.default", creation=True)
def new_ones(x: Any, size: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return _native(il.ones(_shape_of(size), dtype=_dt(dtype)))


@aten("new_full.default", creation=True)
def new_full(x: Any, size: Any, fill_value: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return _native(il.full(_shape_of(size), fill_value, dtype=_dt(dtype)))


@aten("fill.Scalar", creation=True)
def fill(x: Any, value: Any, *, dtype: Any = None) -> Any:
    return il.full_like(x, value, dtype=_dt(dtype))


# -- normalization -------------------------------------------------------------------------------
@aten("layer_norm.default")
def layer_norm(
    x: Any,
    normalized_shape: Any,
    weight: Any = None,
    bias: Any = None,
    eps: float = 1e-5,
    cudnn_enable: bool = True,
) -> Any:
    return il.nn.layer_norm(x, _shape_of(normalized_shape), weight, bias, eps)


@aten("native_layer_norm.default")
def native_layer_norm(
    x: Any, normalized_shape: Any, weight: Any, bias: Any, eps: float
) -> tuple[Any, Any, Any]:
    axes = tuple(range(-len(normalized_shape), 0))
    mu = il.mean(x, axis=axes, keepdims=True)
    centered = il.subtract(x, mu)
    rstd = il.reciprocal(
        il.sqrt(il.add(il.mean(il.square(centered), axis=axes, keepdims=True), eps))
    )
    y = il.multiply(centered, rstd)
    if weight is not None:
        y = il.multiply(y, weight)
    if bias is not None:
        y = il.add(y, bias)
    return y, mu, rstd


def _batch_stats_norm(x: Any, weight: Any, bias: Any, eps: float) -> Any:
    """Batch norm with the batch's own statistics (biased variance), as torch normalizes."""
    n = _ndim(x)
    axes = (0, *range(2, n))
    shape = (1, -1) + (1,) * (n - 2)
    mu = il.mean(x, axis=axes, keepdims=True)
    centered = il.subtract(x, mu)
    var = il.mean(il.square(centered), axis=axes, keepdims=True)
    y = il.divide(centered, il.sqrt(il.add(var, eps)))
    if weight is not None:
        y = il.multiply(y, il.reshape(weight, shape))
    return y if bias is None else il.add(y, il.reshape(bias, shape))


@aten("batch_norm.default")
def batch_norm(
    x: Any,
    weight: Any,
    bias: Any,
    running_mean: Any,
    running_var: Any,
    training: bool,
    momentum: float,
    eps: float,
    cudnn_enabled: bool = True,
) -> Any:
    if training or running_mean is None:
        return _batch_stats_norm(x, weight, bias, eps)
    return il.nn.batch_norm(x, running_mean, running_var, weight, bias, eps=eps)


@aten("_native_batch_norm_legit_no_training.default", outputs=(0,))
def native_batch_norm_eval(
    x: Any, weight: Any, bias: Any, running_mean: Any, running_var: Any, momentum: float, eps: float
) -> tuple[Any, None, None]:
    return il.nn.batch_norm(x, running_mean, running_var, weight, bias, eps=eps), None, None


@aten("_native_batch_norm_legit.no_stats", outputs=(0,))
def native_batch_norm_batch_stats(
    x: Any, weight: Any, bias: Any, training: bool, momentum: float, eps: float
) -> tuple[Any, None, None]:
    return _batch_stats_norm(x, weight, bias, eps), None, None


@aten("group_norm.default")
def group_norm(
    x: Any,
    num_groups: int,
    weight: Any = None,
    bias: Any = None,
    eps: float = 1e-5,
    cudnn_enabled: bool = True,
) -> Any:
    return il.nn.group_norm(x, num_groups, weight, bias, eps)


# -- convolution and pooling -------------------------------------------------------------------
def _single(v: Any) -> Any:
    return v[0] if isinstance(v, (list, tuple)) and len(v) == 1 else v


def _pair(v: Any) -> Any:
    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple)):
        return v[0] if len(v) == 1 else tuple(int(i) for i in v)
    return int(v)


@aten("conv2d.default", "conv2d.padding")
def conv2d(
    x: Any,
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Any:
    return il.nn.conv2d(
        x,
        weight,
        bias,
        stride=_pair(stride),
        padding=_pair(padding),
        dilation=_pair(dilation),
        groups=groups,
    )


@aten("conv1d.default", "conv1d.padding")
def conv1d(
    x: Any,
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Any:
    return il.nn.conv1d(
        x,
        weight,
        bias,
        stride=_single(stride),
        padding=_single(padding),
        dilation=_single(dilation),
        groups=groups,
    )


def _check_convolution(
    x: Any,
    weight: Any,
    bias: Any,
    stride: Any,
    padding: Any,
    dilation: Any,
    transposed: bool,
    output_padding: Any,
    groups: int,
) -> str | None:
    if len(x.shape) - 2 not in (1, 2):
        return f"{len(x.shape) - 2}-d convolution; 1-d and 2-d only"
    return None


def _per_axis(v: Any, n: int) -> tuple[int, ...]:
    if isinstance(v, (list, tuple)):
        return tuple(int(i) for i in v) * (n if len(v) == 1 else 1)
    return (int(v),) * n


def _conv_transpose(
    x: Any,
    weight: Any,
    bias: Any,
    stride: Any,
    padding: Any,
    output_padding: Any,
    groups: int,
    dilation: Any,
) -> Any:
    """``ivy_like.nn.conv_transpose2d``; a 1-d one as a 2-d one over a unit height axis."""
    n = _ndim(x) - 2
    stride, padding = _per_axis(stride, n), _per_axis(padding, n)
    output_padding, dilation = _per_axis(output_padding, n), _per_axis(dilation, n)
    if n == 2:
        return il.nn.conv_transpose2d(
            x, weight, bias, stride, padding, output_padding, int(groups), dilation
        )
    out = il.nn.conv_transpose2d(
        il.expand_dims(x, axis=2),
        il.expand_dims(weight, axis=2),
        bias,
        (1, stride[0]),
        (0, padding[0]),
        (0, output_padding[0]),
        int(groups),
        (1, dilation[0]),
    )
    return il.squeeze(out, axis=2)


def _check_conv_transpose(x: Any, weight: Any, *rest: Any) -> str | None:
    if len(x.shape) - 2 not in (1, 2):
        return f"a {len(x.shape)}-D input; batched 1-d and 2-d transposed convolutions only"
    return None


@aten("conv_transpose1d.default", "conv_transpose2d.input", check=_check_conv_transpose)
def conv_transpose(
    x: Any,
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
) -> Any:
    return _conv_transpose(x, weight, bias, stride, padding, output_padding, groups, dilation)


@aten("convolution.default", check=_check_convolution)
def convolution(
    x: Any,
    weight: Any,
    bias: Any,
    stride: Any,
    padding: Any,
    dilation: Any,
    transposed: bool,
    output_padding: Any,
    groups: int,
) -> Any:
    if transposed:
        return _conv_transpose(x, weight, bias, stride, padding, output_padding, groups, dilation)
    if _ndim(x) == 3:
        return conv1d(x, weight, bias, stride, padding, dilation, groups)
    return conv2d(x, weight, bias, stride, padding, dilation, groups)


def _pool_geometry(size: int, k: int, s: int, p: int, ceil_mode: bool) -> tuple[int, int]:
    """(output size, padding to add at the end) of a pooling axis, as ATen sizes it: with
    ``ceil_mode`` a last partial window counts if it starts inside the input or its left
    padding."""
    span = size + 2 * p - k
    out = (-(-span // s) if ceil_mode else span // s) + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out, max(0, (out - 1) * s + k - (size + 2 * p))


def _pool_args(x: Any, kernel_size: Any, stride: Any, padding: Any) -> tuple[Any, Any, Any]:
    k = _per_axis(kernel_size, 2)
    return k, (_per_axis(stride, 2) if len(stride) else k), _per_axis(padding, 2)


def _check_max_pool(
    x: Any,
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
) -> str | None:
    if _pair(dilation) not in (1, (1, 1)):
        return f"dilation={list(dilation) if isinstance(dilation, (list, tuple)) else dilation}"
    if len(x.shape) != 4:
        return "a 3-D (unbatched) input; 4-D NCHW only"
    return None


@aten("max_pool2d.default", check=_check_max_pool)
def max_pool2d(
    x: Any,
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
) -> Any:
    k, s, p = _pool_args(x, kernel_size, stride, padding)
    extra = [_pool_geometry(int(x.shape[2 + a]), k[a], s[a], p[a], ceil_mode)[1] for a in (0, 1)]
    if not any(extra):
        return il.nn.max_pool2d(x, k, s, p)
    # ceil_mode's last partial windows: padding of minus infinity, which a max never picks
    widths = ((0, 0), (0, 0), (p[0], p[0] + extra[0]), (p[1], p[1] + extra[1]))
    return il.nn.max_pool2d(il.pad(x, widths, constant_values=-math.inf), k, s, 0)


@aten("max_pool2d_with_indices.default", check=_check_max_pool, outputs=(0,))
def max_pool2d_with_indices(*args: Any) -> tuple[Any, None]:
    return max_pool2d(*args), None


def _check_avg_pool(
    x: Any,
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: Any = None,
) -> str | None:
    if len(x.shape) != 4:
        return "a 3-D (unbatched) input; 4-D NCHW only"
    return None


def _window_counts(size: int, k: int, s: int, p: int, out: int, with_pad: bool) -> np.ndarray:
    """How many positions of each window along an axis the mean divides by: the input and
    its padding (count_include_pad), or the input only; never ceil_mode's overhang."""
    lo, hi = (-p, size + p) if with_pad else (0, size)
    starts = np.arange(out) * s - p
    return (np.minimum(starts + k, hi) - np.maximum(starts, lo)).astype(np.float32)


@aten("avg_pool2d.default", check=_check_avg_pool)
def avg_pool2d(
    x: Any,
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: Any = None,
) -> Any:
    k, s, p = _pool_args(x, kernel_size, stride, padding)
    sizes = (int(x.shape[2]), int(x.shape[3]))
    geometry = [_pool_geometry(sizes[a], k[a], s[a], p[a], ceil_mode) for a in (0, 1)]
    if not any(e for _, e in geometry) and count_include_pad and divisor_override is None:
        return il.nn.avg_pool2d(x, k, s, p)
    # window sums (the mean over k*k zero-padded positions, times k*k), then torch's divisor
    widths = ((0, 0), (0, 0), *((p[a], p[a] + geometry[a][1]) for a in (0, 1)))
    sums = il.multiply(il.nn.avg_pool2d(il.pad(x, widths), k, s, 0), float(k[0] * k[1]))
    if divisor_override:
        return il.divide(sums, float(divisor_override))
    rows, cols = (
        _window_counts(sizes[a], k[a], s[a], p[a], geometry[a][0], count_include_pad)
        for a in (0, 1)
    )
    divisor = _native(il.astype(il.asarray(np.outer(rows, cols)), x.dtype))
    return il.divide(sums, divisor)


@aten("adaptive_avg_pool2d.default", "_adaptive_avg_pool2d.default")
def adaptive_avg_pool2d(x: Any, output_size: Any) -> Any:
    return il.nn.adaptive_avg_pool2d(x, _pair(output_size))


def _check_adaptive_max(x: Any, output_size: Any) -> str | None:
    if len(x.shape) not in (3, 4):
        return f"a {len(x.shape)}-D input; 3-D or 4-D only"
    return None


@aten("adaptive_max_pool2d.default", check=_check_adaptive_max, outputs=(0,))
def adaptive_max_pool2d(x: Any, output_size: Any) -> tuple[Any, None]:
    return il.nn.adaptive_max_pool2d(x, _pair(output_size)), None


# -- resizing (F.interpolate) ------------------------------------------------------------------
def _check_upsample(x: Any, output_size: Any, *rest: Any) -> str | None:
    if len(x.shape) != 4:
        return f"a {len(x.shape)}-D input; 4-D NCHW only"
    return None


def _resize_plan(x: Any, output_size: Any, scales: Sequence[Any]) -> list[tuple[int, int, Any]]:
    """(input size, output size, scale factor or None) for H and W, as ATen computes them:
    a given scale factor sets the output size (floored) and is the one used to map back."""
    sizes = tuple(int(s) for s in x.shape[2:])
    plan = []
    for i, n_in in enumerate(sizes):
        scale = scales[i] if scales is not None and i < len(scales) else None
        if output_size is not None and len(output_size):
            n_out = int(output_size[i])
        elif scale is not None:
            n_out = int(math.floor(n_in * float(scale)))
        else:
            raise UnsupportedOpError("interpolation with neither an output size nor a scale")
        plan.append((n_in, n_out, scale))
    return plan


def _interpolate(x: Any, output_size: Any, scales: Any, mode: str, align_corners: Any) -> Any:
    """``ivy_like.nn.interpolate`` when ATen gives an output size or scale factors (None when
    it gives both: the size then sets the output and the scales map back, which the op's
    arguments cannot say)."""
    has_size = output_size is not None and len(output_size) > 0
    given = [s for s in (scales or ()) if s is not None]
    if has_size and not given:
        size = tuple(int(s) for s in output_size)
        return il.nn.interpolate(x, size=size, mode=mode, align_corners=align_corners)
    if not has_size and len(given) == 2 and all(s > 0 for s in given):
        factors = tuple(float(s) for s in given)
        return il.nn.interpolate(x, scale_factor=factors, mode=mode, align_corners=align_corners)
    return None


def _bilinear(x: Any, output_size: Any, align_corners: bool, scales: Any) -> Any:
    public = _interpolate(x, output_size, scales, "bilinear", bool(align_corners))
    if public is not None:
        return public
    (h_in, h_out, sh), (w_in, w_out, sw) = _resize_plan(x, output_size, scales)
    wh = _native(
        il.astype(il.asarray(linear_resize_matrix(h_in, h_out, align_corners, sh)), x.dtype)
    )
    ww = _native(
        il.astype(il.asarray(linear_resize_matrix(w_in, w_out, align_corners, sw).T), x.dtype)
    )
    return il.matmul(il.matmul(wh, x), ww)  # (Ho, H) @ x @ (W, Wo)


def _nearest(x: Any, output_size: Any, scales: Any, exact: bool) -> Any:
    public = _interpolate(x, output_size, scales, "nearest-exact" if exact else "nearest", None)
    if public is not None:
        return public
    (h_in, h_out, sh), (w_in, w_out, sw) = _resize_plan(x, output_size, scales)
    rows = _native(il.asarray(nearest_resize_indices(h_in, h_out, sh, exact)))
    cols = _native(il.asarray(nearest_resize_indices(w_in, w_out, sw, exact)))
    return il.take(il.take(x, rows, axis=2), cols, axis=3)


@aten("upsample_bilinear2d.vec", check=_check_upsample)
def upsample_bilinear2d(x: Any, output_size: Any, align_corners: bool, scale_factors: Any) -> Any:
    return _bilinear(x, output_size, align_corners, scale_factors)


@aten("upsample_bilinear2d.default", check=_check_upsample)
def upsample_bilinear2d_sizes(
    x: Any, output_size: Any, align_corners: bool, scales_h: Any = None, scales_w: Any = None
) -> Any:
    return _bilinear(x, output_size, align_corners, (scales_h, scales_w))


@aten("upsample_nearest2d.vec", check=_check_upsample)
def upsample_nearest2d(x: Any, output_size: Any, scale_factors: Any) -> Any:
    return _nearest(x, output_size, scale_factors, exact=False)


@aten("upsample_nearest2d.default", check=_check_upsample)
def upsample_nearest2d_sizes(
    x: Any, output_size: Any, scales_h: Any = None, scales_w: Any = None
) -> Any:
    return _nearest(x, output_size, (scales_h, scales_w), exact=False)


@aten("_upsample_nearest_exact2d.vec", check=_check_upsample)
def upsample_nearest_exact2d(x: Any, output_size: Any, scale_factors: Any) -> Any:
    return _nearest(x, output_size, scale_factors, exact=True)


# -- attention, dropout, recurrent layers ------------------------------------------------------
def _check_attention(
    q: Any,
    k: Any,
    v: Any,
    attn_mask: Any = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    *,
    scale: Any = None,
    enable_gqa: bool = False,
) -> str | None:
    if dropout_p:
        return f"dropout_p={dropout_p} (attention dropout in training mode)"
    return None


def _shared_heads(q: Any, k: Any, v: Any, enable_gqa: bool) -> tuple[Any, Any]:
    """``k`` and ``v`` with their heads repeated to ``q``'s (grouped-query attention)."""
    if enable_gqa and q.shape[-3] != k.shape[-3]:
        groups = q.shape[-3] // k.shape[-3]
        k = il.repeat(k, groups, axis=_ndim(k) - 3)
        v = il.repeat(v, groups, axis=_ndim(v) - 3)
    return k, v


def attention_rows_attend(
    q: Any,
    k: Any,
    v: Any,
    attn_mask: Any = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    *,
    scale: Any = None,
    enable_gqa: bool = False,
) -> Any:
    """:func:`scaled_dot_product_attention` for a boolean mask that the converter saw, at
    capture, let every query attend to some key (a constant mask, as GPT-2's causal one): no
    row to guard, so the mask goes to ivy_like's attention as it is."""
    k, v = _shared_heads(q, k, v, enable_gqa)
    return il.nn.scaled_dot_product_attention(q, k, v, attn_mask, is_causal, scale)


@aten("scaled_dot_product_attention.default", check=_check_attention)
def scaled_dot_product_attention(
    q: Any,
    k: Any,
    v: Any,
    attn_mask: Any = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    *,
    scale: Any = None,
    enable_gqa: bool = False,
) -> Any:
    k, v = _shared_heads(q, k, v, enable_gqa)
    if attn_mask is None or "bool" not in str(attn_mask.dtype):
        return il.nn.scaled_dot_product_attention(q, k, v, attn_mask, is_causal, scale)
    # A query that may attend to no key gives zeros in torch (its safe softmax), not NaN: such
    # rows attend everywhere here (finite values and gradients) and are zeroed after.
    scores = (*q.shape[:-1], k.shape[-2])
    mask = il.broadcast_to(attn_mask, tuple(int(s) for s in scores))
    if is_causal:
        causal = _native(il.tril(il.ones((scores[-2], scores[-1]), dtype=il.bool)))
        mask, is_causal = il.logical_and(mask, causal), False
    some = il.any(mask, axis=-1, keepdims=True)
    out = il.nn.scaled_dot_product_attention(
        q, k, v, il.logical_or(mask, il.logical_not(some)), False, scale
    )
    return il.where(some, out, il.zeros_like(out))


def _check_dropout(x: Any, p: float, train: Any) -> str | None:
    if train and p:
        return "dropout in training mode; capture the module in eval mode"
    return None


@aten(
    "dropout.default",
    "feature_dropout.default",
    "alpha_dropout.default",
    "feature_alpha_dropout.default",
    check=_check_dropout,
)
def dropout(x: Any, p: float, train: Any) -> Any:
    return x


@aten("native_dropout.default", check=_check_dropout)
def native_dropout(x: Any, p: float, train: Any) -> tuple[Any, Any]:
    return x, il.ones_like(x, dtype=il.bool)


def _check_lstm(
    x: Any,
    hx: Any,
    params: Any,
    has_biases: bool,
    num_layers: int,
    dropout: float,
    train: bool,
    bidirectional: bool,
    batch_first: bool,
) -> str | None:
    if train and dropout and num_layers > 1:
        return "dropout between layers in training mode; capture the module in eval mode"
    per = (4 if has_biases else 2) * (2 if bidirectional else 1) * num_layers
    if len(params) != per:
        return "proj_size (projected LSTM) is not implemented yet"
    return None


@aten("lstm.input", check=_check_lstm)
def lstm(
    x: Any,
    hx: Any,
    params: Any,
    has_biases: bool,
    num_layers: int,
    dropout: float,
    train: bool,
    bidirectional: bool,
    batch_first: bool,
) -> Any:
    return il.nn.lstm(
        x,
        list(params),
        hx[0],
        hx[1],
        num_layers=num_layers,
        bias=has_biases,
        batch_first=batch_first,
        bidirectional=bidirectional,
    )

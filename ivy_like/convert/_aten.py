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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import ivy_like as il

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


for _name, _fn in {
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
}.items():
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
for _names, _fn in {
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
}.items():
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


@aten("einsum.default")
def einsum(equation: str, operands: Any, path: Any = None) -> Any:
    return il.einsum(equation, *operands)


# -- shapes --------------------------------------------------------------------------------------
@aten("view.default", "_unsafe_view.default", "reshape.default", "view_copy.default")
def reshape(x: Any, shape: Any) -> Any:
    return il.reshape(x, _shape_of(shape))


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


@aten("flip.default")
def flip(x: Any, dims: Any) -> Any:
    return il.flip(x, axis=tuple(dims))


@aten("roll.default")
def roll(x: Any, shifts: Any, dims: Any = ()) -> Any:
    if not len(dims):
        return il.reshape(il.roll(il.reshape(x, (-1,)), tuple(shifts)), tuple(x.shape))
    return il.roll(x, tuple(shifts), axis=tuple(dims))


_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge"}


def _check_pad(x: Any, pad: Any, mode: str = "constant", value: Any = None) -> str | None:
    if mode not in _PAD_MODES:
        return f"mode={mode!r}; only {', '.join(map(repr, _PAD_MODES))} padding"
    if len(pad) % 2 or len(pad) // 2 > len(x.shape):
        return f"pad={list(pad)} does not match the input's {len(x.shape)} axes"
    return None


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


@aten("index.Tensor", check=_check_index)
def index(x: Any, indices: Any) -> Any:
    """``x[i0, i1, ...]`` with integer index arrays on consecutive axes (None: a full slice):
    one ``take`` on the flattened indexed axes, so it runs on every backend."""
    shape = tuple(x.shape)
    n = len(shape)
    used = [i for i, t in enumerate(indices) if t is not None]
    first, k = used[0], len(used)
    dims = shape[first : first + k]
    arrays = il.broadcast_arrays(*[indices[i] for i in used]) if k > 1 else [indices[first]]
    flat = None
    for arr, size in zip(arrays, dims):
        arr = il.where(il.less(arr, 0), il.add(arr, size), arr)  # negative indices count back
        flat = arr if flat is None else il.add(il.multiply(flat, size), arr)
    picked = tuple(int(s) for s in arrays[0].shape)
    rest = shape[:first] + shape[first + k :]
    order = tuple(range(first, first + k)) + tuple(range(first)) + tuple(range(first + k, n))
    moved = il.reshape(il.permute_dims(x, order), (-1, *rest))
    taken = il.take(moved, il.reshape(flat, (-1,)), axis=0)
    out = il.reshape(taken, (*picked, *rest))
    if first == 0:
        return out
    # torch puts the indexed block where the indexed axes were (they are consecutive)
    p = len(picked)
    back = tuple(range(p, p + first)) + tuple(range(p)) + tuple(range(p + first, _ndim(out)))
    return il.permute_dims(out, back)


# -- copies, casts, no-ops ---------------------------------------------------------------------
@aten(
    "clone.default",
    "contiguous.default",
    "alias.default",
    "lift_fresh_copy.default",
    "lift_fresh.default",
    "view_as.default",
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


@aten("_assert_tensor_metadata.default", "_assert_scalar.default")
def no_op(*args: Any, **kwargs: Any) -> None:
    """Checks torch makes on shapes and dtypes fixed at capture: nothing to compute."""
    return None


# -- creation ------------------------------------------------------------------------------------
@aten("arange.default", "arange.start", "arange.start_step", creation=True)
def arange(*args: Any, dtype: Any = None, **ignored: Any) -> Any:
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
    shape = tuple(x.shape)
    grouped = il.reshape(x, (shape[0], num_groups, -1))
    mu = il.mean(grouped, axis=-1, keepdims=True)
    centered = il.subtract(grouped, mu)
    var = il.mean(il.square(centered), axis=-1, keepdims=True)
    y = il.reshape(il.divide(centered, il.sqrt(il.add(var, eps))), shape)
    channel = (1, -1) + (1,) * (len(shape) - 2)
    if weight is not None:
        y = il.multiply(y, il.reshape(weight, channel))
    return y if bias is None else il.add(y, il.reshape(bias, channel))


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
    if transposed:
        return "transposed convolution (ConvTranspose) is not implemented yet"
    if len(x.shape) - 2 not in (1, 2):
        return f"{len(x.shape) - 2}-d convolution; 1-d and 2-d only"
    return None


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
    if _ndim(x) == 3:
        return conv1d(x, weight, bias, stride, padding, dilation, groups)
    return conv2d(x, weight, bias, stride, padding, dilation, groups)


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
    if ceil_mode:
        return "ceil_mode=True"
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
    s = _pair(stride) if len(stride) else None
    return il.nn.max_pool2d(x, _pair(kernel_size), s, _pair(padding))


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
    if ceil_mode:
        return "ceil_mode=True"
    if divisor_override is not None:
        return "divisor_override"
    if not count_include_pad and _pair(padding) not in (0, (0, 0)):
        return "count_include_pad=False with padding"
    if len(x.shape) != 4:
        return "a 3-D (unbatched) input; 4-D NCHW only"
    return None


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
    s = _pair(stride) if len(stride) else None
    return il.nn.avg_pool2d(x, _pair(kernel_size), s, _pair(padding))


@aten("adaptive_avg_pool2d.default", "_adaptive_avg_pool2d.default")
def adaptive_avg_pool2d(x: Any, output_size: Any) -> Any:
    return il.nn.adaptive_avg_pool2d(x, _pair(output_size))


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
    if enable_gqa and q.shape[-3] != k.shape[-3]:
        groups = q.shape[-3] // k.shape[-3]
        k = il.repeat(k, groups, axis=_ndim(k) - 3)
        v = il.repeat(v, groups, axis=_ndim(v) - 3)
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

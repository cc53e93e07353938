"""ATen ops -> ivy_like: reductions, cumulative ops and sorting
(``sum``, ``var_mean``, ``topk``...).

Registered in the table of :mod:`.registry` by the ``@aten`` decorator.
"""

from __future__ import annotations

from typing import Any

import ivy_like as il

from ..._casts import cast
from .registry import Handler, _axis, _dims, _ndim, aten, is_symbolic
from .shapes import _slice_along


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


@aten("logsumexp.default")
def logsumexp(x: Any, dim: Any, keepdim: bool = False) -> Any:
    # One stable op instead of the nine nodes torch.export decomposes it into without this
    # entry (amax, a guard for infinite maxima, sub, exp, sum, log, add).
    return _reduce(il.logsumexp, x, dim, keepdim)


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
    d = _axis(dim, _ndim(x))
    if x.shape[d] is not None and not is_symbolic(x.shape[d]):
        return il.diff(x, axis=dim, n=n, prepend=prepend, append=append)
    # A dynamic size (ivy_like.diff reads it as an int): the differences written out, with
    # the slices to the end left open
    parts = [p for p in (prepend, x, append) if p is not None]
    y = il.concat(parts, axis=d) if len(parts) > 1 else x
    for _ in range(n):
        y = il.subtract(_slice_along(y, d, slice(1, None)), _slice_along(y, d, slice(None, -1)))
    return y


@aten("tril.default")
def tril(x: Any, diagonal: int = 0) -> Any:
    return il.tril(x, k=diagonal)


@aten("triu.default")
def triu(x: Any, diagonal: int = 0) -> Any:
    return il.triu(x, k=diagonal)


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

"""torch backend: statistical, searching, sorting, set and utility functions (array API).

Where torch differs from the NumPy reference: ``prod`` over several axes (torch takes one
``dim``), ``dim=()`` meaning every axis, ``searchsorted`` with NaN (torch's binary search
compares with NaN), ``unique`` first-occurrence indices (torch has no ``return_index``),
``nonzero`` of a 0-d tensor, and the NaN variance for ``N - correction <= 0``.
Unsigned inputs accumulate in int64 (``cumulative_sum``/``prod``): torch has no usable uint64.
"""

from __future__ import annotations

from typing import Any

import torch

from ivy_like.ops.set_functions import UniqueAllResult, UniqueCountsResult, UniqueInverseResult
from ivy_like.ops.statistical import _axes, _check_correction, _count, _cumulative_axis

from . import _in_float32

__all__ = [
    "all",
    "any",
    "argmax",
    "argmin",
    "argsort",
    "cumulative_sum",
    "nonzero",
    "prod",
    "searchsorted",
    "sort",
    "std",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
    "var",
]


def _empty_error(name: str, x: Any, err: Exception) -> Exception:
    # NumPy raises ValueError for an arg-reduction over nothing; torch IndexError/RuntimeError.
    return (
        ValueError(f"{name}: zero-size reduction, which has no result") if x.numel() == 0 else err
    )


# -- statistical ----------------------------------------------------------------------------------
@_in_float32(dtype_arg=True)
def cumulative_sum(
    x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> Any:
    axis = _cumulative_axis(x.ndim, axis)
    if dtype is None and not (x.is_floating_point() or x.is_complex()):
        dtype = torch.int64  # bool and integers: torch.cumsum's own rule, int64
    out = torch.cumsum(x, dim=axis, dtype=dtype)
    if include_initial:
        shape = list(out.shape)
        shape[axis] = 1
        out = torch.cat([out.new_zeros(shape), out], dim=axis)
    return out


@_in_float32(dtype_arg=True)
def prod(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    if axis is None:
        out = torch.prod(x, dtype=dtype)  # bool and integers: int64, as NumPy on 64-bit
        return out.reshape((1,) * x.ndim) if keepdims else out
    axes = _axes(x.ndim, axis, "prod")
    if not axes:  # no axis reduced: each element is its own product (in the result dtype)
        return torch.prod(x[None], dim=0, dtype=dtype)
    out = x
    for a in reversed(axes):  # torch.prod takes one dim: reduce them one at a time
        out = torch.prod(out, dim=a, keepdim=True, dtype=dtype)
        dtype = None
    return out if keepdims else out.squeeze(axes)


def _var(name: str, x: Any, axis: Any, correction: Any, keepdims: bool) -> Any:
    if not x.is_floating_point():
        raise TypeError(f"{name}: expected a real floating-point array, got {x.dtype}")
    c = _check_correction(correction, name)
    if _count(tuple(x.shape), axis, name) - c <= 0:
        axes = _axes(x.ndim, axis, name)
        if not axes:  # torch reads dim=() as every axis
            return x * float("nan")
        return torch.sum(x, dim=axes, keepdim=keepdims) * float("nan")
    if axis == () or axis == []:  # torch reads dim=() as every axis
        return torch.var(x[None], dim=0, correction=c)
    return torch.var(x, dim=axis, correction=c, keepdim=keepdims)


@_in_float32
def var(x: Any, /, *, axis: Any = None, correction: Any = 0.0, keepdims: bool = False) -> Any:
    return _var("var", x, axis, correction, keepdims)


@_in_float32
def std(x: Any, /, *, axis: Any = None, correction: Any = 0.0, keepdims: bool = False) -> Any:
    return torch.sqrt(_var("std", x, axis, correction, keepdims))


# -- searching ------------------------------------------------------------------------------------
def argmax(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    if x.dtype == torch.bool:
        x = x.to(torch.uint8)  # torch refuses bool here
    try:
        return torch.argmax(x, dim=axis, keepdim=keepdims)  # NaN first, ties first (checked)
    except (IndexError, RuntimeError) as err:
        raise _empty_error("argmax", x, err) from None


def argmin(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    if x.dtype == torch.bool:
        x = x.to(torch.uint8)
    try:
        return torch.argmin(x, dim=axis, keepdim=keepdims)
    except (IndexError, RuntimeError) as err:
        raise _empty_error("argmin", x, err) from None


def nonzero(x: Any, /) -> tuple[Any, ...]:
    if x.ndim == 0:  # torch treats a 0-d tensor as 1-d here
        raise ValueError("nonzero: x must have at least one dimension, got a 0-d array")
    return torch.nonzero(x, as_tuple=True)


def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    if x1.ndim != 1:
        raise ValueError(f"searchsorted: x1 must be one-dimensional, got {x1.ndim}-d")
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    if sorter is not None:
        x1 = x1[sorter]
    if not isinstance(x2, torch.Tensor):
        x2 = torch.as_tensor(x2, dtype=torch.result_type(x1, x2), device=x1.device)
    common = torch.promote_types(x1.dtype, x2.dtype)
    x1, x2 = x1.to(common), x2.to(common)
    if not common.is_floating_point:
        return torch.searchsorted(x1, x2, side=side)
    # torch's binary search compares with NaN, which breaks it. NaN sorts last (NumPy): search
    # among the numbers (NaNs of x1 replaced by inf), never past them, and send NaN values to
    # the first NaN of x1 (left) or the end (right).
    x1_nan = torch.isnan(x1)
    numbers = (~x1_nan).sum()
    out = torch.searchsorted(torch.where(x1_nan, torch.inf, x1), x2, side=side)
    out = torch.minimum(out, numbers)
    nan_at = numbers if side == "left" else torch.tensor(x1.shape[0], device=x1.device)
    return torch.where(torch.isnan(x2), nan_at, out)


# -- sorting --------------------------------------------------------------------------------------
def argsort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    # torch's stable descending sort keeps equal elements in order and puts NaN first (checked).
    return torch.argsort(x, dim=axis, descending=descending, stable=True)


def sort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    return torch.sort(x, dim=axis, descending=descending, stable=True).values


# -- set functions --------------------------------------------------------------------------------
def _unique(x: Any) -> tuple[Any, Any, Any, Any]:
    """Sorted unique values, first indices, inverse (x's shape) and counts; NaNs distinct.

    From one stable sort: a new group starts wherever a value differs from its predecessor
    (NaN != NaN, so each NaN is its own group); the first element of a group in the stable
    order is its first occurrence.
    """
    flat = x.reshape(-1)
    perm = torch.argsort(flat, stable=True)
    ordered = flat[perm]
    starts = torch.ones_like(ordered, dtype=torch.bool)
    starts[1:] = ordered[1:] != ordered[:-1]
    group = torch.cumsum(starts, 0) - 1
    inverse = torch.empty_like(group)
    inverse[perm] = group
    first = torch.nonzero(starts).reshape(-1)
    counts = torch.diff(first, append=torch.tensor([flat.numel()], device=x.device))
    return ordered[first], perm[first], inverse.reshape(x.shape), counts


def unique_all(x: Any, /) -> UniqueAllResult:
    return UniqueAllResult(*_unique(x))


def unique_counts(x: Any, /) -> UniqueCountsResult:
    values, _, _, counts = _unique(x)
    return UniqueCountsResult(values, counts)


def unique_inverse(x: Any, /) -> UniqueInverseResult:
    values, _, inverse, _ = _unique(x)
    return UniqueInverseResult(values, inverse)


def unique_values(x: Any, /) -> Any:
    return torch.unique(x, sorted=True)  # NaNs distinct (checked), like NumPy's equal_nan=False


# -- utility --------------------------------------------------------------------------------------
def _logical(fn: Any, x: Any, axis: Any, keepdims: bool) -> Any:
    if axis is None:
        out = fn(x)
        return out.reshape((1,) * x.ndim) if keepdims else out
    axes = _axes(x.ndim, axis, fn.__name__)
    if not axes:
        return x != 0  # nothing reduced: each element's truth value
    return fn(x, dim=axes, keepdim=keepdims)


def all(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return _logical(torch.all, x, axis, keepdims)


def any(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return _logical(torch.any, x, axis, keepdims)

"""torch backend: array API statistical functions.

Where torch differs from the NumPy reference: ``dim=()`` meaning every axis (NumPy: no axis),
``mean`` of integers (refused, as the standard says), ``max``/``min`` over nothing (NumPy's
``ValueError``), ``prod`` over several axes (torch takes one ``dim``), and the NaN variance for
``N - correction <= 0``. Unsigned inputs accumulate in int64 (``cumulative_sum``/``prod``):
torch has no usable uint64.
"""

from __future__ import annotations

from typing import Any

import torch

from .._common import statistical as _statistical
from .._common.statistical import cumulative_axis, reduction_axes, reduction_count
from ._helpers import _dtype_name, _in_float32


# torch reads dim=() as "every axis"; NumPy as "no axis". Reducing over a new axis of length 1
# gives NumPy's result with torch's own result dtype.
def _no_axes(axis: Any) -> bool:
    return axis == () or axis == []


def sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    if axis is None and dtype is None and not keepdims:
        return torch.sum(x)  # keyword arguments cost torch's parser ~0.4 µs
    if _no_axes(axis):
        return torch.sum(x[None], dim=0, dtype=dtype)
    return torch.sum(x, dim=axis, keepdim=keepdims, dtype=dtype)


@_in_float32
def mean(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    if not (x.is_floating_point() or x.is_complex()):
        raise TypeError(f"mean: expected a floating-point array, got {_dtype_name(x)}")
    if _no_axes(axis):
        return torch.mean(x[None], dim=0)
    return torch.mean(x, dim=axis, keepdim=keepdims)


def _empty_reduction(name: str, x: Any, err: Exception) -> Exception:
    # NumPy raises ValueError for a reduction with no identity over nothing; torch raises
    # IndexError or RuntimeError depending on the call.
    if x.numel() == 0:
        return ValueError(f"{name}: zero-size reduction, which has no identity")
    return err


def max(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    if _no_axes(axis):
        return torch.amax(x[None], dim=0)
    try:
        return torch.amax(x, dim=axis, keepdim=keepdims)  # propagates NaN
    except (IndexError, RuntimeError) as err:
        raise _empty_reduction("max", x, err) from None


def min(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    if _no_axes(axis):
        return torch.amin(x[None], dim=0)
    try:
        return torch.amin(x, dim=axis, keepdim=keepdims)
    except (IndexError, RuntimeError) as err:
        raise _empty_reduction("min", x, err) from None


@_in_float32(dtype_arg=True)
def cumulative_sum(
    x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> Any:
    axis = cumulative_axis(x.ndim, axis)
    if dtype is None and not (x.is_floating_point() or x.is_complex()):
        dtype = torch.int64  # bool and integers: torch.cumsum's own rule, int64
    out = torch.cumsum(x, dim=axis, dtype=dtype)
    return _with_initial(out, axis, 0) if include_initial else out


@_in_float32(dtype_arg=True)
def cumulative_prod(
    x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> Any:
    axis = cumulative_axis(x.ndim, axis, "cumulative_prod")
    if dtype is None and not (x.is_floating_point() or x.is_complex()):
        dtype = torch.int64  # bool and integers: int64, as in cumulative_sum and prod
    out = torch.cumprod(x, dim=axis, dtype=dtype)
    return _with_initial(out, axis, 1) if include_initial else out


def _with_initial(out: Any, axis: int, identity: int) -> Any:
    """``out`` after the scan's ``identity`` along ``axis`` (``include_initial=True``)."""
    shape = list(out.shape)
    shape[axis] = 1
    return torch.cat([out.new_full(shape, identity), out], dim=axis)


@_in_float32(dtype_arg=True)
def prod(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    if axis is None:
        out = torch.prod(x, dtype=dtype)  # bool and integers: int64, as NumPy on 64-bit
        return out.reshape((1,) * x.ndim) if keepdims else out
    axes = reduction_axes(x.ndim, axis, "prod")
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
    c = float(correction)  # checked by the op (ops/statistical.py)
    if reduction_count(tuple(x.shape), axis, name) - c <= 0:
        axes = reduction_axes(x.ndim, axis, name)
        if not axes:  # torch reads dim=() as every axis
            return x * float("nan")
        return torch.sum(x, dim=axes, keepdim=keepdims) * float("nan")
    if axis == () or axis == []:  # torch reads dim=() as every axis
        return torch.var(x[None], dim=0, correction=c)
    return torch.var(x, dim=axis, correction=c, keepdim=keepdims)


var = _statistical.var_for(_var, _in_float32)
std = _statistical.std_for(_var, torch.sqrt, _in_float32)

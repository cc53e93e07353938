"""numpy backend: array API statistical functions.

The reference semantics: NumPy's own functions, with the rules of ``ivy_like.ops`` applied
where NumPy differs (floating-point ``mean``, NaN variance when ``N - correction <= 0``), long
float32 reductions along leading axes accumulated in float64, and half precision computed in
float32.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._common import statistical as _statistical
from .._common.statistical import cumulative_axis, reduction_count
from ._helpers import _in_float32, _wide_accumulator


def sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    if type(x) is np.ndarray:  # the method skips np.sum's dispatch layer (~1 µs)
        if axis is not None and dtype is None:
            wide = _wide_accumulator(x, axis)
            if wide is not None:
                return x.sum(axis=axis, dtype=wide, keepdims=keepdims).astype(x.dtype)
        return x.sum(axis=axis, dtype=dtype, keepdims=keepdims)
    return np.sum(x, axis=axis, dtype=dtype, keepdims=keepdims)


@_in_float32
def mean(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    if np.asarray(x).dtype.kind not in "fc":
        # The same rule on every backend: mean is for floating-point inputs.
        raise TypeError(f"mean: expected a floating-point array, got {np.asarray(x).dtype}")
    if axis is not None and type(x) is np.ndarray:
        wide = _wide_accumulator(x, axis)
        if wide is not None:
            return np.mean(x, axis=axis, dtype=wide, keepdims=keepdims).astype(x.dtype)
    return np.mean(x, axis=axis, keepdims=keepdims)


def max(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return np.max(x, axis=axis, keepdims=keepdims)


def min(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return np.min(x, axis=axis, keepdims=keepdims)


@_in_float32(dtype_arg=True)
def cumulative_sum(
    x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> Any:
    x = np.asarray(x)
    axis = cumulative_axis(x.ndim, axis)
    out = np.cumsum(x, axis=axis, dtype=dtype)  # small ints accumulate in int64, as in sum
    return _with_initial(out, axis, 0) if include_initial else out


@_in_float32(dtype_arg=True)
def cumulative_prod(
    x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> Any:
    x = np.asarray(x)
    axis = cumulative_axis(x.ndim, axis, "cumulative_prod")
    out = np.cumprod(x, axis=axis, dtype=dtype)  # small ints multiply in int64, as in prod
    return _with_initial(out, axis, 1) if include_initial else out


def _with_initial(out: np.ndarray, axis: int, identity: int) -> np.ndarray:
    """``out`` after the scan's ``identity`` along ``axis`` (``include_initial=True``)."""
    shape = list(out.shape)
    shape[axis] = 1
    return np.concatenate([np.full(shape, identity, dtype=out.dtype), out], axis=axis)


@_in_float32(dtype_arg=True)
def prod(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    return np.prod(x, axis=axis, dtype=dtype, keepdims=keepdims)


def _var(name: str, x: Any, axis: Any, correction: Any, keepdims: bool) -> Any:
    x = np.asarray(x)
    if x.dtype.kind != "f":
        raise TypeError(f"{name}: expected a real floating-point array, got {x.dtype}")
    c = float(correction)  # checked by the op (ops/statistical.py)
    if reduction_count(x.shape, axis, name) - c <= 0:
        # The standard's NaN (NumPy divides by max(N - c, 0) and gives inf); no warning.
        # A NaN of x's dtype: NumPy 1 makes float64 of float32 scalar * Python float.
        return np.sum(x, axis=axis, keepdims=keepdims) * x.dtype.type(np.nan)
    wide = None if axis is None else _wide_accumulator(x, axis)
    if wide is not None:  # a leading axis: NumPy's running totals, in float64 (see sum)
        return np.var(x, axis=axis, ddof=c, keepdims=keepdims, dtype=wide).astype(x.dtype)
    return np.var(x, axis=axis, ddof=c, keepdims=keepdims)


var = _statistical.var_for(_var, _in_float32)
std = _statistical.std_for(_var, np.sqrt, _in_float32)

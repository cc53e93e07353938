"""numpy backend: statistical, searching, sorting, set and utility functions (array API).

The reference semantics: NumPy's own functions, with the rules of ``ivy_like.ops`` applied
where NumPy differs (NaN variance when ``N - correction <= 0``, stable descending sorts).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ivy_like.ops.set_functions import UniqueAllResult, UniqueCountsResult, UniqueInverseResult
from ivy_like.ops.statistical import _check_correction, _count, _cumulative_axis

from . import _in_float32, _wide_accumulator

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


# -- statistical ----------------------------------------------------------------------------------
@_in_float32(dtype_arg=True)
def cumulative_sum(
    x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> Any:
    x = np.asarray(x)
    axis = _cumulative_axis(x.ndim, axis)
    out = np.cumsum(x, axis=axis, dtype=dtype)  # small ints accumulate in int64, as in sum
    if include_initial:
        shape = list(out.shape)
        shape[axis] = 1
        out = np.concatenate([np.zeros(shape, dtype=out.dtype), out], axis=axis)
    return out


@_in_float32(dtype_arg=True)
def prod(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    return np.prod(x, axis=axis, dtype=dtype, keepdims=keepdims)


def _var(name: str, x: Any, axis: Any, correction: Any, keepdims: bool) -> Any:
    x = np.asarray(x)
    if x.dtype.kind != "f":
        raise TypeError(f"{name}: expected a real floating-point array, got {x.dtype}")
    c = _check_correction(correction, name)
    if _count(x.shape, axis, name) - c <= 0:
        # The standard's NaN (NumPy divides by max(N - c, 0) and gives inf); no warning.
        # A NaN of x's dtype: NumPy 1 makes float64 of float32 scalar * Python float.
        return np.sum(x, axis=axis, keepdims=keepdims) * x.dtype.type(np.nan)
    wide = None if axis is None else _wide_accumulator(x, axis)
    if wide is not None:  # a leading axis: NumPy's running totals, in float64 (see sum)
        return np.var(x, axis=axis, ddof=c, keepdims=keepdims, dtype=wide).astype(x.dtype)
    return np.var(x, axis=axis, ddof=c, keepdims=keepdims)


@_in_float32
def var(x: Any, /, *, axis: Any = None, correction: Any = 0.0, keepdims: bool = False) -> Any:
    return _var("var", x, axis, correction, keepdims)


@_in_float32
def std(x: Any, /, *, axis: Any = None, correction: Any = 0.0, keepdims: bool = False) -> Any:
    return np.sqrt(_var("std", x, axis, correction, keepdims))


# -- searching ------------------------------------------------------------------------------------
def argmax(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    return np.argmax(x, axis=axis, keepdims=keepdims)  # NaN first, ties first: our rule


def argmin(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    return np.argmin(x, axis=axis, keepdims=keepdims)


def nonzero(x: Any, /) -> tuple[Any, ...]:
    x = np.asarray(x)
    if x.ndim == 0:
        raise ValueError("nonzero: x must have at least one dimension, got a 0-d array")
    return np.nonzero(x)


def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    if np.ndim(x1) != 1:
        raise ValueError(f"searchsorted: x1 must be one-dimensional, got {np.ndim(x1)}-d")
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    return np.searchsorted(x1, x2, side=side, sorter=sorter)


# -- sorting --------------------------------------------------------------------------------------
def argsort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    x = np.asarray(x)
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    # Descending and stable: sort the reversed array stably, reverse back and map the
    # positions; equal elements keep their original order and NaN (last ascending) comes first.
    n = x.shape[axis]
    return n - 1 - np.flip(np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)


def sort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    out = np.sort(x, axis=axis, kind="stable")
    return np.flip(out, axis) if descending else out


# -- set functions --------------------------------------------------------------------------------
def _unique(x: Any) -> tuple[Any, Any, Any, Any]:
    x = np.asarray(x)
    values, indices, inverse, counts = np.unique(
        x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False
    )
    return values, indices, inverse.reshape(x.shape), counts


def unique_all(x: Any, /) -> UniqueAllResult:
    return UniqueAllResult(*_unique(x))


def unique_counts(x: Any, /) -> UniqueCountsResult:
    values, _, _, counts = _unique(x)
    return UniqueCountsResult(values, counts)


def unique_inverse(x: Any, /) -> UniqueInverseResult:
    values, _, inverse, _ = _unique(x)
    return UniqueInverseResult(values, inverse)


def unique_values(x: Any, /) -> Any:
    return np.unique(np.asarray(x), equal_nan=False)


# -- utility --------------------------------------------------------------------------------------
def all(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return np.all(x, axis=axis, keepdims=keepdims)


def any(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return np.any(x, axis=axis, keepdims=keepdims)

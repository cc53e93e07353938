"""mlx backend: statistical, searching, sorting, set and utility functions (array API).

MLX's CPU sort is a stable sort with NaN last (``std::stable_sort`` with an index
tie-break), its ``argmax`` picks the first NaN and its ``searchsorted`` and ``unique`` follow
NumPy (NaNs distinct), so most functions are aliases plus a cast of the uint32 indices MLX
returns to ``DEFAULT_INT`` (int32). Fixed here: descending sorts (MLX has none), integer
accumulation width, variance ``correction`` (MLX takes an integer ``ddof``), ``nonzero``
(MLX has none) and ``unique``'s required ``size`` (counted first, which evaluates ``x``).
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx

from ivy_like.ops.set_functions import UniqueAllResult, UniqueCountsResult, UniqueInverseResult
from ivy_like.ops.statistical import _axes, _check_correction, _count, _cumulative_axis

from . import _INEXACT, DEFAULT_INT, _float_sum, _in_float32

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

# NumPy's accumulation rule with MLX's default integer (int32): narrower ints widen to it.
_ACCUMULATOR = {
    mx.bool_: mx.int32,
    mx.int8: mx.int32,
    mx.int16: mx.int32,
    mx.uint8: mx.uint32,
    mx.uint16: mx.uint32,
}
_REAL_FLOATS = frozenset(d for d in _INEXACT if d != mx.complex64)


def _reduce_axes(x: Any, axis: Any, name: str) -> Any:
    return None if axis is None else list(_axes(x.ndim, axis, name))


def _flip(x: Any, axis: int) -> Any:
    key = [slice(None)] * x.ndim
    key[axis] = slice(None, None, -1)
    return x[tuple(key)]


# -- statistical ----------------------------------------------------------------------------------
@_in_float32(dtype_arg=True)
def cumulative_sum(
    x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> Any:
    axis = _cumulative_axis(x.ndim, axis)
    dtype = dtype or _ACCUMULATOR.get(x.dtype)
    if dtype is not None:
        x = x.astype(dtype)
    out = mx.cumsum(x, axis=axis)
    if include_initial:
        pad = [(0, 0)] * x.ndim
        pad[axis] = (1, 0)
        out = mx.pad(out, pad)
    return out


@_in_float32(dtype_arg=True)
def prod(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    dtype = dtype or _ACCUMULATOR.get(x.dtype)
    if dtype is not None:
        x = x.astype(dtype)
    return mx.prod(x, axis=_reduce_axes(x, axis, "prod"), keepdims=keepdims)


def _var(name: str, x: Any, axis: Any, correction: Any, keepdims: bool) -> Any:
    if x.dtype not in _REAL_FLOATS:
        raise TypeError(f"{name}: expected a real floating-point array, got {x.dtype}")
    c = _check_correction(correction, name)
    axes = _reduce_axes(x, axis, name)
    n = _count(tuple(x.shape), axis, name)
    if n - c <= 0:
        return mx.sum(x, axis=axes, keepdims=keepdims) * float("nan")
    # Two passes with the divisor N - correction (mx.var takes only an integer ddof).
    # The sums in blocks when large (see _float_sum): MLX's running float32 total drifts.
    centred = x - _float_sum(x, axes, True) / n
    return _float_sum(mx.square(centred), axes, keepdims) / (n - c)


@_in_float32
def var(x: Any, /, *, axis: Any = None, correction: Any = 0.0, keepdims: bool = False) -> Any:
    return _var("var", x, axis, correction, keepdims)


@_in_float32
def std(x: Any, /, *, axis: Any = None, correction: Any = 0.0, keepdims: bool = False) -> Any:
    return mx.sqrt(_var("std", x, axis, correction, keepdims))


# -- searching ------------------------------------------------------------------------------------
def argmax(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    return mx.argmax(x, axis=axis, keepdims=keepdims).astype(DEFAULT_INT)


def argmin(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    return mx.argmin(x, axis=axis, keepdims=keepdims).astype(DEFAULT_INT)


def nonzero(x: Any, /) -> tuple[Any, ...]:
    if x.ndim == 0:
        raise ValueError("nonzero: x must have at least one dimension, got a 0-d array")
    flat = (x if x.dtype == mx.bool_ else x != 0).reshape(-1)
    count = int(mx.sum(flat).item())  # the output size: evaluates x
    # A stable sort of "is zero" puts the non-zero positions first, in increasing order.
    pos = mx.argsort(mx.logical_not(flat))[:count].astype(DEFAULT_INT)
    out = []
    for size in reversed(x.shape):  # unravel the flat positions, last axis first
        out.append(pos % size)
        pos = pos // size
    return tuple(reversed(out))


def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    if x1.ndim != 1:
        raise ValueError(f"searchsorted: x1 must be one-dimensional, got {x1.ndim}-d")
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    if sorter is not None:
        x1 = mx.take(x1, sorter)
    if not isinstance(x2, mx.array):
        x2 = mx.array(x2)
    return mx.searchsorted(x1, x2, side=side).astype(DEFAULT_INT)  # NaN last, as NumPy


# -- sorting --------------------------------------------------------------------------------------
def argsort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    if not descending:
        return mx.argsort(x, axis=axis).astype(DEFAULT_INT)
    # Stable descending: sort the reversed axis stably, reverse back, map the positions;
    # equal elements keep their order and NaN (last ascending) comes first.
    n = x.shape[axis]
    idx = _flip(mx.argsort(_flip(x, axis), axis=axis), axis).astype(DEFAULT_INT)
    return n - 1 - idx


def sort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    out = mx.sort(x, axis=axis)
    return _flip(out, axis) if descending else out


# -- set functions --------------------------------------------------------------------------------
def _unique(x: Any) -> tuple[Any, Any, Any, Any]:
    flat = x.reshape(-1)
    ordered = mx.sort(flat)
    # mx.unique needs the number of unique values (NaN != NaN: each NaN counts).
    size = int(mx.sum(ordered[1:] != ordered[:-1]).item()) + 1 if flat.size else 0
    values, indices, inverse, counts = mx.unique(
        x, size=size, return_index=True, return_inverse=True, return_counts=True
    )
    return (
        values,
        indices.astype(DEFAULT_INT),
        inverse.astype(DEFAULT_INT).reshape(x.shape),
        counts.astype(DEFAULT_INT),
    )


def unique_all(x: Any, /) -> UniqueAllResult:
    return UniqueAllResult(*_unique(x))


def unique_counts(x: Any, /) -> UniqueCountsResult:
    values, _, _, counts = _unique(x)
    return UniqueCountsResult(values, counts)


def unique_inverse(x: Any, /) -> UniqueInverseResult:
    values, _, inverse, _ = _unique(x)
    return UniqueInverseResult(values, inverse)


def unique_values(x: Any, /) -> Any:
    return _unique(x)[0]


# -- utility --------------------------------------------------------------------------------------
def all(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return mx.all(x, axis=_reduce_axes(x, axis, "all"), keepdims=keepdims)


def any(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return mx.any(x, axis=_reduce_axes(x, axis, "any"), keepdims=keepdims)

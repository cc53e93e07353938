"""jax backend: statistical, searching, sorting, set and utility functions (array API).

``jax.numpy`` already follows NumPy for NaN in argmax/sort/searchsorted, stable descending
sorts and NaN-distinct ``unique_*``; wrappers fix the accumulation dtype of integer
``cumulative_sum``/``prod`` (jax keeps int8 where NumPy widens), the NaN variance for
``N - correction <= 0`` and the result named tuples.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from ivy_like.ops.set_functions import UniqueAllResult, UniqueCountsResult, UniqueInverseResult
from ivy_like.ops.statistical import _check_correction, _count, _cumulative_axis

from . import DEFAULT_INT, _in_float32

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

_UINT_OF_DEFAULT = jnp.dtype(f"uint{DEFAULT_INT.itemsize * 8}")


def _accumulator(dt: Any) -> Any:
    """bool and integers narrower than the default integer accumulate in it (NumPy's rule)."""
    dt = jnp.dtype(dt)
    if dt == jnp.bool_ or (dt.kind == "i" and dt.itemsize < DEFAULT_INT.itemsize):
        return DEFAULT_INT
    if dt.kind == "u" and dt.itemsize < DEFAULT_INT.itemsize:
        return _UINT_OF_DEFAULT
    return dt


# -- statistical ----------------------------------------------------------------------------------
@_in_float32(dtype_arg=True)
def cumulative_sum(
    x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> Any:
    axis = _cumulative_axis(x.ndim, axis)
    out = jnp.cumsum(x, axis=axis, dtype=dtype or _accumulator(x.dtype))
    if include_initial:
        pad = [(0, 0)] * out.ndim
        pad[axis] = (1, 0)
        out = jnp.pad(out, pad)
    return out


@_in_float32(dtype_arg=True)
def prod(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    return jnp.prod(x, axis=axis, dtype=dtype or _accumulator(x.dtype), keepdims=keepdims)


def _var(name: str, x: Any, axis: Any, correction: Any, keepdims: bool) -> Any:
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"{name}: expected a real floating-point array, got {x.dtype}")
    c = _check_correction(correction, name)
    if _count(tuple(x.shape), axis, name) - c <= 0:
        return jnp.sum(x, axis=axis, keepdims=keepdims) * jnp.nan
    return jnp.var(x, axis=axis, ddof=c, keepdims=keepdims)


@_in_float32
def var(x: Any, /, *, axis: Any = None, correction: Any = 0.0, keepdims: bool = False) -> Any:
    return _var("var", x, axis, correction, keepdims)


@_in_float32
def std(x: Any, /, *, axis: Any = None, correction: Any = 0.0, keepdims: bool = False) -> Any:
    return jnp.sqrt(_var("std", x, axis, correction, keepdims))


# -- searching ------------------------------------------------------------------------------------
def argmax(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    return jnp.argmax(x, axis=axis, keepdims=keepdims)


def argmin(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    return jnp.argmin(x, axis=axis, keepdims=keepdims)


def nonzero(x: Any, /) -> tuple[Any, ...]:
    if x.ndim == 0:
        raise ValueError("nonzero: x must have at least one dimension, got a 0-d array")
    return jnp.nonzero(x)


def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    if jnp.ndim(x1) != 1:
        raise ValueError(f"searchsorted: x1 must be one-dimensional, got {jnp.ndim(x1)}-d")
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    return jnp.searchsorted(x1, x2, side=side, sorter=sorter).astype(DEFAULT_INT)


# -- sorting --------------------------------------------------------------------------------------
def argsort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    # jax's descending stable sort keeps equal elements in order and puts NaN first (checked).
    return jnp.argsort(x, axis=axis, descending=descending, stable=True)


def sort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    return jnp.sort(x, axis=axis, descending=descending, stable=True)


# -- set functions --------------------------------------------------------------------------------
def unique_all(x: Any, /) -> UniqueAllResult:
    r = jnp.unique_all(x)  # sorted, NaNs distinct, first indices, inverse in x's shape
    return UniqueAllResult(r.values, r.indices, r.inverse_indices, r.counts)


def unique_counts(x: Any, /) -> UniqueCountsResult:
    r = jnp.unique_counts(x)
    return UniqueCountsResult(r.values, r.counts)


def unique_inverse(x: Any, /) -> UniqueInverseResult:
    r = jnp.unique_inverse(x)
    return UniqueInverseResult(r.values, r.inverse_indices)


unique_values = jnp.unique_values

# -- utility --------------------------------------------------------------------------------------
all = jnp.all  # noqa: A001
any = jnp.any  # noqa: A001

"""jax backend: the array API statistical functions.

``sum``/``max``/``min`` are aliases of ``jax.numpy`` (the same keywords; NaN-propagating
``max``/``min``, like NumPy). Wrappers fix the accumulation dtype of integer
``cumulative_sum``/``prod`` (jax keeps int8 where NumPy widens), the NaN variance for
``N - correction <= 0``, and refuse a non-floating ``mean``; ``mean``, ``var``, ``std``,
``cumulative_sum`` and ``prod`` compute half precision in float32.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from ivy_like.ops.statistical import _check_correction, _count, _cumulative_axis

from . import DEFAULT_INT, DTYPES
from ._helpers import _in_float32

sum = jnp.sum  # noqa: A001  (same keywords: axis, dtype, keepdims)
max = jnp.max  # noqa: A001  (NaN-propagating, like NumPy)
min = jnp.min  # noqa: A001

_INEXACT = frozenset(v for k, v in DTYPES.items() if k.kind in "fc")


@_in_float32
def mean(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    """``jnp.mean`` for floating-point arrays; other dtypes raise ``TypeError``.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from ivy_like.backends.jax import statistical as B
    >>> B.mean(jnp.array([1., 2.]))
    Array(1.5, dtype=float32)
    """
    if x.dtype not in _INEXACT:
        raise TypeError(f"mean: expected a floating-point array, got dtype {x.dtype}")
    return jnp.mean(x, axis=axis, keepdims=keepdims)


_UINT_OF_DEFAULT = jnp.dtype(f"uint{DEFAULT_INT.itemsize * 8}")


def _accumulator(dt: Any) -> Any:
    """bool and integers narrower than the default integer accumulate in it (NumPy's rule)."""
    dt = jnp.dtype(dt)
    if dt == jnp.bool_ or (dt.kind == "i" and dt.itemsize < DEFAULT_INT.itemsize):
        return DEFAULT_INT
    if dt.kind == "u" and dt.itemsize < DEFAULT_INT.itemsize:
        return _UINT_OF_DEFAULT
    return dt


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

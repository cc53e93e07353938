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

from .._common import statistical as _statistical
from .._common.statistical import reduction_count
from . import DEFAULT_INT, DTYPES
from ._helpers import _in_float32

sum = jnp.sum  # noqa: A001  (same keywords: axis, dtype, keepdims)
max = jnp.max  # noqa: A001  (NaN-propagating, like NumPy)
min = jnp.min  # noqa: A001

_INEXACT = frozenset(v for k, v in DTYPES.items() if k.kind in "fc")

mean = _statistical.mean_for(jnp.mean, _INEXACT, _in_float32)


_UINT_OF_DEFAULT = jnp.dtype(f"uint{DEFAULT_INT.itemsize * 8}")
# NumPy's rule: bool and integers narrower than the default integer accumulate in it (unsigned
# ones in the unsigned integer of its width); jax keeps int8 in cumsum.
_ACCUMULATOR = {
    jnp.dtype(name): _UINT_OF_DEFAULT if name.startswith("u") else DEFAULT_INT
    for name in ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32")
    if name == "bool" or jnp.dtype(name).itemsize < DEFAULT_INT.itemsize
}
cumulative_sum = _statistical.cumulative_sum_for(jnp, jnp.astype, _ACCUMULATOR, _in_float32)
cumulative_prod = _statistical.cumulative_prod_for(
    jnp.cumprod, jnp.pad, jnp.astype, _ACCUMULATOR, _in_float32
)


@_in_float32(dtype_arg=True)
def prod(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    dtype = dtype or _ACCUMULATOR.get(x.dtype, x.dtype)
    return jnp.prod(x, axis=axis, dtype=dtype, keepdims=keepdims)


def _var(name: str, x: Any, axis: Any, correction: Any, keepdims: bool) -> Any:
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"{name}: expected a real floating-point array, got {x.dtype}")
    c = float(correction)  # checked by the op (ops/statistical.py)
    if reduction_count(tuple(x.shape), axis, name) - c <= 0:
        return jnp.sum(x, axis=axis, keepdims=keepdims) * jnp.nan
    return jnp.var(x, axis=axis, ddof=c, keepdims=keepdims)


var = _statistical.var_for(_var, _in_float32)
std = _statistical.std_for(_var, jnp.sqrt, _in_float32)

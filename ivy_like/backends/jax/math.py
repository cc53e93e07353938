"""jax backend: ops beyond the standard (``einsum``, ``one_hot``, ``logsumexp``, ``top_k``,
``scatter_add``, ``segment_sum``, ``segment_max``), with the meaning decided in
``ivy_like.ops.math``.

These are JAX's own functions, whose meaning ``ivy_like.ops.math`` takes: ``jnp.einsum``,
``jax.nn.one_hot``/``logsumexp``, ``jax.lax.top_k``, ``x.at[indices].add`` and
``jax.ops.segment_sum``/``segment_max``. What JAX would accept silently (float or bool
indices, a non-int ``num_classes`` or ``num_segments``, ``segment_ids`` that do not label the
rows of ``data`` one to one) is refused by the checks each op declares in ``ivy_like.ops.math``,
which run before these kernels (a dtype and a shape test, static under ``jax.jit``).
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from . import DEFAULT_FLOAT, DEFAULT_INT


def einsum(subscripts: Any, *operands: Any) -> Any:
    return jnp.einsum(subscripts, *operands)


def one_hot(indices: Any, num_classes: Any, dtype: Any = None) -> Any:
    return jax.nn.one_hot(indices, num_classes, dtype=DEFAULT_FLOAT if dtype is None else dtype)


def logsumexp(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    return jax.nn.logsumexp(x, axis=axis, keepdims=keepdims)


_INT32 = jnp.dtype("int32")


def top_k(x: Any, k: Any) -> tuple[Any, Any]:
    if not jnp.issubdtype(x.dtype, jnp.floating):
        values, indices = jax.lax.top_k(x, k)
    else:
        # lax.top_k orders floats totally: -0.0 below 0.0, and a NaN whose sign bit is set (as
        # inf - inf gives) below -inf. Here they compare as in sort: the zeros are equal (the
        # lower index first) and every NaN is the largest.
        key = jnp.where(jnp.isnan(x), jnp.nan, jnp.where(x == 0, 0, x))
        indices = jax.lax.top_k(key, k)[1]
        values = jnp.take_along_axis(x, indices, axis=-1)
    return values, indices if DEFAULT_INT == _INT32 else indices.astype(DEFAULT_INT)


def scatter_add(x: Any, indices: Any, updates: Any) -> Any:
    # JAX's default for .at[].add is the decided meaning: negative indices wrap, indices out
    # of range are dropped.
    return x.at[indices].add(jnp.asarray(updates, dtype=x.dtype))


def segment_sum(data: Any, segment_ids: Any, num_segments: Any) -> Any:
    return jax.ops.segment_sum(data, segment_ids, num_segments)


def segment_max(data: Any, segment_ids: Any, num_segments: Any) -> Any:
    return jax.ops.segment_max(data, segment_ids, num_segments)

"""jax backend: ops beyond the standard (``einsum``, ``one_hot``, ``logsumexp``, ``top_k``,
``scatter_add``, ``segment_sum``, ``segment_max``), with the meaning decided in
``ivy_like.ops.math``.

These are JAX's own functions, whose meaning ``ivy_like.ops.math`` takes: ``jnp.einsum``,
``jax.nn.one_hot``/``logsumexp``, ``jax.lax.top_k``, ``x.at[indices].add`` and
``jax.ops.segment_sum``/``segment_max``. What JAX would accept silently is checked first (a
dtype and a shape test, which stay static under ``jax.jit``): float or bool indices (JAX compares
floats in ``one_hot`` and reads a bool index as a mask), a non-int ``num_classes`` or
``num_segments``, and ``segment_ids`` that do not label the rows of ``data`` one to one (JAX
broadcasts a single row).
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from ...core.decided_errors import (
    einsum_checked,
    one_hot_error,
    scatter_add_error,
    segment_error,
)
from . import DEFAULT_FLOAT, DEFAULT_INT


def einsum(subscripts: Any, *operands: Any) -> Any:
    if type(subscripts) is str:  # JAX reads digits as labels and sums '...' away: NumPy does not
        einsum_checked(subscripts, tuple(map(jnp.shape, operands)))
    return jnp.einsum(subscripts, *operands)


def one_hot(indices: Any, num_classes: Any, dtype: Any = None) -> Any:
    if indices.dtype.kind not in "iu" or type(num_classes) is not int or num_classes < 0:
        error = one_hot_error(indices, num_classes)
        if error is not None:
            raise error
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
    if type(indices) is not int and indices.dtype.kind not in "iu":
        error = scatter_add_error(x, indices, updates)
        if error is not None:
            raise error
    # JAX's default for .at[].add is the decided meaning: negative indices wrap, indices out
    # of range are dropped.
    return x.at[indices].add(jnp.asarray(updates, dtype=x.dtype))


def _check_segments(where: str, data: Any, segment_ids: Any, num_segments: Any) -> None:
    if (
        type(num_segments) is not int
        or num_segments < 0
        or segment_ids.shape != data.shape[:1]
        or segment_ids.dtype.kind not in "iu"
    ):
        error = segment_error(where, data, segment_ids, num_segments)
        if error is not None:
            raise error


def segment_sum(data: Any, segment_ids: Any, num_segments: Any) -> Any:
    _check_segments("segment_sum", data, segment_ids, num_segments)
    return jax.ops.segment_sum(data, segment_ids, num_segments)


def segment_max(data: Any, segment_ids: Any, num_segments: Any) -> Any:
    _check_segments("segment_max", data, segment_ids, num_segments)
    return jax.ops.segment_max(data, segment_ids, num_segments)

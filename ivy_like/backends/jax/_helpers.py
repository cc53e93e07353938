"""jax backend: private helpers shared by several of its family files.

``_in_float32``, the half-precision decorator of ``ivy_like.backends._common.half`` built from JAX's dtype
objects, is applied in ``statistical.py`` and ``linalg.py``.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax._src import core as _jax_core
from jax.sharding import PartitionSpec

from .._common.half import half_in_float32

# Half precision computed in float32 (ivy_like.backends._common.half): mean, var/std/cumulative_sum/prod
# in statistical.py, the decompositions in linalg.py.
_in_float32 = half_in_float32(
    {"float16": np.dtype("float16"), "bfloat16": jnp.dtype(jnp.bfloat16)}, np.dtype("float32")
)


# JAX's error for an op whose result's sharding it cannot tell under explicit mesh axes (the
# default of jax.make_mesh); not public, and absent from older versions.
ShardingTypeError: type[Exception] | tuple[()] = getattr(_jax_core, "ShardingTypeError", ())


def _spec(v: Any) -> tuple[Any, ...]:
    """``v``'s partition spec, one entry per axis (None: not sharded)."""
    spec = tuple(getattr(jax.typeof(v).sharding, "spec", ()))
    return spec + (None,) * (jnp.ndim(v) - len(spec))


def sharded_take(x: Any, indices: Any, axis: int, error: Exception) -> Any:
    """``jnp.take(x, indices, axis=axis)`` where JAX refused to guess the result's sharding
    (explicit mesh axes; labels sharded over a batch axis, looked up in a replicated table):
    the result is sharded as the indices along their axes and as ``x`` along the others. Where
    that is not a sharding (``x`` split along ``axis``, one mesh axis used twice), JAX's error
    stands."""
    x_spec, k_spec = _spec(x), _spec(indices)
    spec = (*x_spec[:axis], *k_spec, *x_spec[axis + 1 :])
    used = [a for s in spec if s is not None for a in (s if isinstance(s, tuple) else (s,))]
    if x_spec[axis] is not None or len(used) != len(set(used)):
        raise error
    key = (slice(None),) * axis + (indices,)
    return x.at[key].get(mode="fill", out_sharding=PartitionSpec(*spec))

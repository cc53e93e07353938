"""jax backend: private helpers shared by several of its family files.

``_in_float32``, the half-precision decorator of ``ivy_like.backends._common.half`` built from JAX's dtype
objects, is applied in ``statistical.py`` and ``linalg.py``.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from .._common.half import half_in_float32

# Half precision computed in float32 (ivy_like.backends._common.half): mean, var/std/cumulative_sum/prod
# in statistical.py, the decompositions in linalg.py.
_in_float32 = half_in_float32(
    {"float16": np.dtype("float16"), "bfloat16": jnp.dtype(jnp.bfloat16)}, np.dtype("float32")
)

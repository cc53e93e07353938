"""jax backend: the array API utility functions ``all`` and ``any``.

Aliases of ``jax.numpy``, which already follows NumPy here.
"""

from __future__ import annotations

import jax.numpy as jnp

all = jnp.all  # noqa: A001
any = jnp.any  # noqa: A001

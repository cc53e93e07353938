"""jax backend: the general ops, ``stop_gradient`` and ``variable``.

``stop_gradient`` is ``jax.lax.stop_gradient``; under ``jax.grad`` every array is
differentiable, so ``variable`` returns its input (jax has no variable type).

Examples
--------
>>> import jax
>>> import jax.numpy as jnp
>>> from ivy_like.backends.jax import general as B
>>> jax.grad(lambda a: (B.stop_gradient(a) * a).sum())(jnp.array([2., 3.]))
Array([2., 3.], dtype=float32)
"""

from __future__ import annotations

import jax

from .._common import general as _general

stop_gradient = _general.stop_gradient_for(jax.lax.stop_gradient)
variable = _general.variable

"""jax backend: the general ops, ``stop_gradient`` and ``variable``.

``stop_gradient`` is ``jax.lax.stop_gradient``; under ``jax.grad`` every array is
differentiable, so ``variable`` returns its input (jax has no variable type).
"""

from __future__ import annotations

from typing import Any

import jax

_lax_stop_gradient = jax.lax.stop_gradient


def stop_gradient(x: Any, /, *, preserve_type: bool = True) -> Any:
    """``jax.lax.stop_gradient``; ``preserve_type`` has no effect (jax has no variables).

    Examples
    --------
    >>> import jax
    >>> import jax.numpy as jnp
    >>> from ivy_like.backends.jax import general as B
    >>> jax.grad(lambda a: (B.stop_gradient(a) * a).sum())(jnp.array([2., 3.]))
    Array([2., 3.], dtype=float32)
    """
    return _lax_stop_gradient(x)


def variable(x: Any, /) -> Any:
    # Under jax.grad every array is differentiable: there is no variable type.
    return x

"""JAX gradient primitives: ``jax.value_and_grad`` and ``jax.jacrev``, used as they are.

The frontend (``ivy_like/transforms/grad.py``) flattens the differentiated arguments into a list of
native leaves; these functions only see that list, so they stay a thin layer over JAX and
compose with ``jax.jit``, ``jax.vmap`` and nesting.
"""

from __future__ import annotations

from typing import Any, Callable

import jax


def _apply(leaves: list[Any], f: Callable[[list[Any]], tuple[Any, Any]]) -> tuple[Any, Any]:
    return f(leaves)


# Built once: the per-call function travels as a non-differentiated argument, so no transform
# object is created per call (and the transform holds no state).
_VALUE_AND_GRAD = jax.value_and_grad(_apply, has_aux=True)


def value_and_grad_leaves(
    f: Callable[[list[Any]], tuple[Any, Any]], leaves: list[Any]
) -> tuple[Any, Any, list[Any]]:
    """``f(leaves) -> (scalar, aux)``; return ``(scalar, aux, grads)`` with one grad a leaf."""
    (value, aux), grads = _VALUE_AND_GRAD(leaves, f)
    return value, aux, grads


def jacobian(f: Callable[[Any], Any], x: Any) -> Any:
    """The Jacobian of ``f`` at ``x``, shaped ``f(x).shape + x.shape``."""
    return jax.jacrev(f)(x)

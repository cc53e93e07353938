"""MLX gradient primitives: ``mx.value_and_grad``; the Jacobian from ``mx.vjp`` under ``mx.vmap``.

MLX transforms are functional and nest natively.
"""

from __future__ import annotations

import contextvars
from typing import Any, Callable

import mlx.core as mx

# True while ivy_like differentiates on MLX. MLX converts a foreign operand (``mx.array * x``)
# through DLPack before ``__mlx_array__``, and DLPack hands over evaluated values, cut from the
# graph; the ``dlpack`` hook refuses while this is set, so MLX takes ``__mlx_array__`` instead.
TRACING: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "ivy_like_mlx_tracing", default=False
)


def _scalar_only(xs: list[Any], f: Callable[[list[Any]], tuple[Any, Any]], box: list[Any]) -> Any:
    value, aux = f(xs)
    box.append((value, aux))
    return value


def _scalar_only_one(x: Any, f: Callable[[list[Any]], tuple[Any, Any]], box: list[Any]) -> Any:
    return _scalar_only([x], f, box)


# Built once: the per-call function and box travel as non-differentiated arguments. One leaf
# (the common case) goes in bare, saving MLX the walk over a list argument.
_VALUE_AND_GRAD = mx.value_and_grad(_scalar_only)
_VALUE_AND_GRAD_ONE = mx.value_and_grad(_scalar_only_one)


def value_and_grad_leaves(
    f: Callable[[list[Any]], tuple[Any, Any]], leaves: list[Any]
) -> tuple[Any, Any, list[Any]]:
    """``f(leaves) -> (scalar, aux)``; return ``(scalar, aux, grads)`` with one grad a leaf."""
    # The auxiliary outputs leave through a closure rather than as extra return values: MLX
    # returns a function's non-differentiated outputs cut from any enclosing transform, and
    # grad(lambda x: value_and_grad(g)(x)[0][1]) must see them connected, as on jax and torch.
    box: list[Any] = []
    # The value is taken from the box too, for the same reason.
    token = TRACING.set(True)
    try:
        if len(leaves) == 1:
            _, grad = _VALUE_AND_GRAD_ONE(leaves[0], f, box)
            grads = [grad]
        else:
            _, grads = _VALUE_AND_GRAD(list(leaves), f, box)
    finally:
        TRACING.reset(token)
    value, aux = box[-1]
    return value, aux, grads


def jacobian(f: Callable[[Any], Any], x: Any) -> Any:
    """The Jacobian of ``f`` at ``x``, shaped ``f(x).shape + x.shape``.

    MLX has no ``jacrev``: one vector-Jacobian product per output element, batched by
    ``mx.vmap`` over the rows of an identity matrix (reverse mode, like ``jax.jacrev``).
    """
    y = f(x)
    n_out = y.size

    def row(cotangent: Any) -> Any:
        _, (g,) = mx.vjp(lambda a: f(a), [x], [cotangent.reshape(y.shape)])
        return g

    token = TRACING.set(True)
    try:
        rows = mx.vmap(row)(mx.eye(n_out, dtype=y.dtype))
    finally:
        TRACING.reset(token)
    return rows.reshape(tuple(y.shape) + tuple(x.shape))

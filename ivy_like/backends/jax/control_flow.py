"""JAX control-flow primitives on flat lists of native leaves: ``jax.lax.cond``,
``lax.while_loop``, ``lax.fori_loop`` and ``lax.scan`` themselves, eager and under ``jax.jit``
(``ivy_like.compile``), ``jax.grad`` and ``jax.vmap`` alike. JAX traces both branches of a
``cond`` and each loop body once; the frontend's checks run during those traces, before JAX's
own. As in JAX, ``fori_loop`` with concrete bounds is a ``scan`` (reverse-differentiable) and
``while_loop`` is not reverse-differentiable.

The frontend (``ivy_like/transforms/control_flow.py``) flattens, checks and rebuilds; the contract of each
function is in ``ivy_like/backends/__init__.py``.
"""

from __future__ import annotations

from typing import Any, Callable

from jax import lax


def cond_leaves(
    pred: Any,
    true_f: Callable[[list[Any]], list[Any]],
    false_f: Callable[[list[Any]], list[Any]],
    operands: list[Any],
) -> list[Any]:
    return lax.cond(pred, true_f, false_f, operands)  # type: ignore[no-any-return]


def while_loop_leaves(
    cond_f: Callable[[list[Any]], Any], body_f: Callable[[list[Any]], list[Any]], init: list[Any]
) -> list[Any]:
    return lax.while_loop(cond_f, body_f, init)  # type: ignore[no-any-return]


def fori_loop_leaves(
    lower: Any, upper: Any, body_f: Callable[[Any, list[Any]], list[Any]], init: list[Any]
) -> list[Any]:
    return lax.fori_loop(lower, upper, body_f, init)  # type: ignore[no-any-return]


def scan_leaves(
    f: Callable[[list[Any], list[Any]], tuple[list[Any], list[Any]]],
    init: list[Any],
    xs: list[Any],
    length: int | None,
    reverse: bool,
) -> tuple[list[Any], list[Any]]:
    carry, ys = lax.scan(f, init, xs, length=length, reverse=reverse)
    return carry, ys

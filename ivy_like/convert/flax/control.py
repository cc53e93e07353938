"""jax's control-flow primitives (``cond``, ``while``, ``scan``) at run time in a traced model.

The generated function writes each sub-jaxpr as a nested function: its constants read from
the enclosing function (closures), its operands (branch operands, the loop's carry, the
scan's carry and slices) as arguments, returning a list of its results. The helpers below
run those functions with ivy_like's own control flow, which is each backend's native one:
``lax.cond``/``while_loop``/``scan`` on jax, ``tf.cond``/``tf.while_loop`` in a TensorFlow
graph, Python (or a select, for ``cond``) on torch and mlx. So a converted loop stops on a
condition computed from the data, under ``ivy_like.compile`` too, and ``cond`` and ``scan``
differentiate where the backend does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ivy_like as il

Branch = Callable[..., list[Any]]


def run_cond(index: Any, branches: Sequence[Branch], *operands: Any) -> list[Any]:
    """The ``cond`` primitive: ``branches[index](*operands)``.

    Two branches (``lax.cond``: ``branches[1]`` is the true one) are one ``ivy_like.cond``;
    more (``lax.switch``, whose index jax has already clamped into range) nest one
    ``ivy_like.cond`` per branch: the first branch, or the rest with the index less one."""
    if len(branches) == 1:
        return branches[0](*operands)
    if len(branches) == 2:
        return il.cond(index, branches[1], branches[0], *operands)

    def later(*ops: Any) -> list[Any]:
        return run_cond(index - 1, branches[1:], *ops)

    return il.cond(il.greater(index, 0), later, branches[0], *operands)


def run_while(cond_fn: Branch, body_fn: Branch, *init: Any) -> list[Any]:
    """The ``while`` primitive: ``carry = body_fn(*carry)`` while ``cond_fn(*carry)``."""

    def going(carry: tuple[Any, ...]) -> Any:
        return cond_fn(*carry)[0]

    def step(carry: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(body_fn(*carry))

    out: tuple[Any, ...] = il.while_loop(going, step, tuple(init))
    return list(out)


def run_scan(fn: Branch, n_carry: int, length: int, reverse: bool, *args: Any) -> list[Any]:
    """The ``scan`` primitive: ``fn(*carry, *x) -> [*carry, *y]`` over the leading axis of
    the arrays after the ``n_carry`` carried ones; the final carry, then the stacked ``y``."""
    init, xs = tuple(args[:n_carry]), tuple(args[n_carry:])

    def step(carry: tuple[Any, ...], x: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        out = fn(*carry, *x)
        return tuple(out[:n_carry]), tuple(out[n_carry:])

    carry, ys = il.scan(step, init, xs, length=length, reverse=reverse)
    return [*carry, *ys]

"""``cond``, ``while_loop``, ``fori_loop`` and ``scan`` as Python loops, for the backends that
run eagerly (numpy, torch, mlx, mxnet; tensorflow outside a graph).

Each primitive works on flat lists of native leaves; the frontend (``ivy_like/transforms/control_flow.py``)
flattens, checks the structures, shapes and dtypes, and rebuilds. What a loop here does:

* ``cond_leaves``: both branches run (true first), as JAX traces both: the one not taken under
  the backend's ``quiet`` context (torch: ``no_grad``, mxnet: the tape paused, numpy: no
  floating-point warnings), only so that the frontend can check that the outputs agree; the
  chosen branch's outputs are returned. A predicate that is being traced (``concrete`` gives
  ``None``: under ``mx.compile``, torch's ``make_fx``, a vmap) selects between the two outputs
  leaf by leaf with ``where``, as ``jax.lax.cond`` does under ``vmap``.
* ``while_loop_leaves``, ``fori_loop_leaves``: a Python loop. A traced condition or bound
  cannot drive it (nothing here can compile a loop): ``TypeError`` saying so.
* ``scan_leaves``: a Python loop over the leading axis and a stack of the per-step outputs.
  With no step (length 0) ``f`` runs once, quietly, on zeros shaped like one step, to learn
  the outputs' shapes and dtypes, as JAX learns them by tracing.

Under a compiler that traces Python (``torch.compile``, ``mx.compile``) these loops unroll.
Nothing here imports a framework: each backend passes its slicing, stacking and zeros.
"""

from __future__ import annotations

import contextlib
import operator
from collections.abc import Callable, Iterator
from typing import Any

Leaves = list[Any]


def _item(x: Any, kind: type) -> Any:
    return kind(x)


def dtype_zeros(
    zeros: Callable[..., Any],
) -> Callable[[tuple[int, ...], Any], Any]:
    """The ``zeros(shape, like)`` of a framework whose ``zeros(shape, dtype=...)`` needs no
    device: zeros of ``like``'s dtype."""

    def zeros_like_dtype(shape: tuple[int, ...], like: Any) -> Any:
        return zeros(shape, dtype=like.dtype)

    return zeros_like_dtype


class PythonLoops:
    """The four primitives, given the framework's few operations:

    ``take(x, i)`` the ``i``-th slice along axis 0 (an array, also for a 1-d ``x``; by
    default ``x[i]``);
    ``stack(xs)`` along a new axis 0; ``zeros(shape, like)`` zeros of ``like``'s dtype (and
    device); ``where(pred, a, b)`` an elementwise select, or None if nothing is ever traced;
    ``concrete(x, kind)`` the Python ``bool``/``int`` value of a 0-d array, or None while it
    is being traced; ``quiet()`` a context for work whose result is thrown away.
    """

    def __init__(
        self,
        name: str,
        *,
        take: Callable[[Any, int], Any] = operator.getitem,
        stack: Callable[[list[Any]], Any],
        zeros: Callable[[tuple[int, ...], Any], Any],
        where: Callable[[Any, Any, Any], Any] | None = None,
        concrete: Callable[[Any, type], Any] = _item,
        quiet: Callable[[], contextlib.AbstractContextManager[Any]] = contextlib.nullcontext,
    ) -> None:
        self.name = name
        self.take = take
        self.stack = stack
        self.zeros = zeros
        self.where = where
        self.concrete = concrete
        self.quiet = quiet

    def _value(self, x: Any, kind: type, who: str, what: str) -> Any:
        if type(x) is kind:
            return x
        value = self.concrete(x, kind)
        if value is None:
            raise TypeError(
                f"{who}: {what} depends on the values of arrays that are being traced (inside "
                f"a compiled or vmapped function), and the {self.name} backend runs loops in "
                f"Python, which cannot loop on a traced value; compute it outside the "
                f"compiled function, or use a loop with a fixed number of steps (fori_loop "
                f"with Python bounds, scan), which unrolls"
            )
        return value

    def cond_leaves(
        self,
        pred: Any,
        true_f: Callable[[Leaves], Leaves],
        false_f: Callable[[Leaves], Leaves],
        operands: Leaves,
    ) -> Leaves:
        chosen = pred if type(pred) is bool else self.concrete(pred, bool)
        if chosen is None:
            if self.where is None:  # a backend that never traces has no select
                raise TypeError(f"cond: the {self.name} backend cannot select on a traced pred")
            on_true, on_false = true_f(operands), false_f(operands)
            where = self.where
            return [where(pred, a, b) for a, b in zip(on_true, on_false)]
        # True first, then false, as JAX traces them; the branch not taken runs quietly.
        if chosen:
            result = true_f(operands)
            with self.quiet():
                false_f(operands)
            return result
        with self.quiet():
            true_f(operands)
        return false_f(operands)

    def while_loop_leaves(
        self,
        cond_f: Callable[[Leaves], Any],
        body_f: Callable[[Leaves], Leaves],
        init: Leaves,
    ) -> Leaves:
        carry = init
        while self._value(cond_f(carry), bool, "while_loop", "the value cond_fun returns"):
            carry = body_f(carry)
        return carry

    def fori_loop_leaves(
        self,
        lower: Any,
        upper: Any,
        body_f: Callable[[Any, Leaves], Leaves],
        init: Leaves,
    ) -> Leaves:
        lo = self._value(lower, int, "fori_loop", "lower")
        hi = self._value(upper, int, "fori_loop", "upper")
        carry = init
        for i in range(lo, hi):
            carry = body_f(i, carry)
        return carry

    def scan_leaves(
        self,
        f: Callable[[Leaves, Leaves], tuple[Leaves, Leaves]],
        init: Leaves,
        xs: Leaves,
        length: int | None,
        reverse: bool,
    ) -> tuple[Leaves, Leaves]:
        if length is None:
            length = int(tuple(xs[0].shape)[0])
        if length == 0:
            with self.quiet():
                _, ys = f(init, [self.zeros(tuple(x.shape)[1:], x) for x in xs])
            return init, [self.zeros((0, *tuple(y.shape)), y) for y in ys]
        steps: Iterator[int] = reversed(range(length)) if reverse else iter(range(length))
        carry = init
        outputs: list[Leaves] = []
        take = self.take
        for i in steps:
            carry, ys = f(carry, [take(x, i) for x in xs])
            outputs.append(ys)
        if reverse:
            outputs.reverse()
        stack = self.stack
        return carry, [stack([step[j] for step in outputs]) for j in range(len(outputs[0]))]

"""PyTorch control-flow primitives: Python loops (``backends/_common/control_flow.py``), which
autograd and ``torch.func`` differentiate step by step, and torch's own control-flow operators
while ``torch.export`` traces.

Where the predicate of a ``cond`` cannot be read, both branches are computed and selected
leaf by leaf with ``torch.where`` (as ``jax.lax.cond`` under ``vmap``): under ``torch.func.vmap``
(a batched predicate) and under ``ivy_like.compile`` (``make_fx`` traces on fake tensors).
``torch.cond`` would keep one branch there, but it does not trace cleanly in those places
(torch 2.13: under ``torch.func.grad`` it fails, so ``compile(grad(f))`` would; a branch that
returns an operand unchanged is refused as aliasing). Inside a caller's own ``torch.compile``
Dynamo reads the predicate (a graph break) and unrolls the loops. A ``while_loop`` or
``fori_loop`` whose condition or bounds are traced cannot run as a Python loop: ``TypeError``
saying so (``torch._higher_order_ops.while_loop`` traces under ``make_fx``, but
``torch._inductor.compile`` then fails on it; ``torch.compile`` of the traced graph runs it).

Under ``torch.export`` (``torch.compiler.is_exporting()``, e.g. ``ivy_like.export(...,
format="torch")``) a traced predicate, condition or bound has no value to read, so the
primitives emit torch's higher-order operators instead, which the exported program keeps:
``cond`` as ``torch.ops.higher_order.cond``, ``while_loop`` and ``fori_loop`` (traced bounds)
as ``torch.ops.higher_order.while_loop`` and ``scan`` as ``torch.ops.higher_order.scan`` (so a
scan over a dynamic dimension stays dynamic). They are called directly, not through
``torch.cond``/``torch.while_loop``, whose eager entry points trace the functions with Dynamo
(which cannot follow ivy_like's dispatch); under export the functions are traced by
``make_fx``, which runs their Python. An output that is one of the function's inputs, a view,
or another output is cloned first: the operators refuse aliasing. Everywhere else (eager,
grad, vmap, ``ivy_like.compile``) the Python loops above run unchanged.

The frontend (``ivy_like/transforms/control_flow.py``) flattens, checks and rebuilds; the contract of each
function is in ``ivy_like/backends/__init__.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from torch._C import _functorch
from torch._higher_order_ops.cond import cond_op as _cond_op
from torch._higher_order_ops.scan import scan_op as _scan_op
from torch._higher_order_ops.while_loop import while_loop_op as _while_loop_op
from torch._subclasses.fake_tensor import FakeTensor as _FakeTensor
from torch.fx.experimental import proxy_tensor as _proxy_tensor

from .._common.control_flow import Leaves
from .._common.control_flow import PythonLoops as _PythonLoops


def _traced(x: Any) -> bool:
    """Is the value of ``x`` unknown here: batched by ``torch.func.vmap`` (under any functorch
    wrappers), or a fake tensor that ``make_fx`` traces and that is not a constant?"""
    while _functorch.is_functorch_wrapped_tensor(x):
        if _functorch.is_batchedtensor(x):
            return True
        x = _functorch.get_unwrapped(x)
    return isinstance(x, _FakeTensor) and x.constant is None


def _concrete(x: Any, kind: type) -> Any:
    # Dynamo (a caller's torch.compile) reads the value itself, with a graph break.
    if not torch.compiler.is_compiling() and _traced(x):
        return None
    return kind(x)


def _zeros(shape: tuple[int, ...], like: Any) -> Any:
    return torch.zeros(shape, dtype=like.dtype, device=like.device)


_Tensor = torch.Tensor
_exporting = torch.compiler.is_exporting


def _tensors(*groups: Leaves) -> bool:
    return all(isinstance(x, _Tensor) for group in groups for x in group)


def _unaliased(outputs: Leaves, inputs: Any) -> tuple[Any, ...]:
    """``outputs`` with each one that is an input, a view or an earlier output cloned: torch's
    control-flow operators refuse outputs aliasing their inputs or each other."""
    seen = {id(x) for x in inputs}
    out = []
    for y in outputs:
        if isinstance(y, _Tensor) and (id(y) in seen or y._is_view()):
            y = y.clone()
        seen.add(id(y))
        out.append(y)
    return tuple(out)


def _closed_over(functions: list[tuple[Callable[..., Any], tuple[Any, ...]]]) -> list[Any]:
    """The tensors of the trace in progress that ``functions`` (called with their arguments)
    read without receiving them: a tensor a function closes over (a weight, a value computed
    before the loop). make_fx would trace it as a constant of the subgraph (the example's
    value, which a .pt2 cannot even hold), so each is passed to the operator as an input."""
    maker = _proxy_tensor._CURRENT_MAKE_FX_TRACER
    tracer = getattr(maker, "fx_tracer", None)
    if maker is None or tracer is None:
        return []
    found: dict[int, Any] = {}
    for f, given in functions:
        # Stand-ins, not the arguments themselves: a tensor both passed and closed over (a
        # loop started from a value its body also reads) must show as closed over.
        with _proxy_tensor.disable_proxy_modes_tracing():
            args = [torch.empty_like(x) for x in given]
        # A trial trace, thrown away; the trace around is paused as when an operator traces
        # its functions (else it would record the trial's constants).
        with _proxy_tensor.disable_proxy_modes_tracing():
            graph = maker.trace_subgraph(f, *args)
        for module in graph.modules():  # nested operators' subgraphs too
            if not isinstance(module, torch.fx.GraphModule):
                continue
            for node in module.graph.nodes:
                if node.op != "get_attr":
                    continue
                value = _attr(module, node.target)
                if isinstance(value, _Tensor) and value in tracer.tensor_tracker:
                    found[id(value)] = value
    return list(found.values())


def _apart(carry: Leaves, closed: list[Any]) -> Leaves:
    """``carry`` with a copy of each leaf that is also closed over: the loop's functions must
    read the value closed over, not the carry that changes from step to step."""
    ids = {id(x) for x in closed}
    return [x.clone() if id(x) in ids else x for x in carry]


def _attr(module: Any, target: str) -> Any:
    for part in target.split("."):
        module = getattr(module, part)
    return module


class _TorchLoops(_PythonLoops):
    """The Python loops, but torch's control-flow operators while ``torch.export`` traces
    values it cannot read. Each function given to an operator takes the carry (or operands)
    and then the tensors it closes over (see :func:`_closed_over`), which it ignores: called
    with those very tensors, make_fx traces its reads of them as reads of its inputs."""

    def cond_leaves(
        self,
        pred: Any,
        true_f: Callable[[Leaves], Leaves],
        false_f: Callable[[Leaves], Leaves],
        operands: Leaves,
    ) -> Leaves:
        if not (isinstance(pred, _Tensor) and _exporting() and _tensors(operands)):
            return super().cond_leaves(pred, true_f, false_f, operands)
        n = len(operands)

        def branch(f: Callable[[Leaves], Leaves]) -> Callable[..., tuple[Any, ...]]:
            return lambda *xs: _unaliased(f(list(xs[:n])), xs)

        args = tuple(operands)
        extra = _closed_over([(branch(true_f), args), (branch(false_f), args)])
        return list(_cond_op(pred, branch(true_f), branch(false_f), (*args, *extra)))

    def while_loop_leaves(
        self,
        cond_f: Callable[[Leaves], Any],
        body_f: Callable[[Leaves], Leaves],
        init: Leaves,
    ) -> Leaves:
        if not (_exporting() and init and _tensors(init)):
            return super().while_loop_leaves(cond_f, body_f, init)
        n = len(init)

        def condition(*args: Any) -> Any:
            done = cond_f(list(args[:n]))
            return done if isinstance(done, _Tensor) else torch.tensor(bool(done))

        def body(*args: Any) -> tuple[Any, ...]:
            return _unaliased(body_f(list(args[:n])), args)

        extra = _closed_over([(condition, tuple(init)), (body, tuple(init))])
        return list(_while_loop_op(condition, body, tuple(_apart(init, extra)), tuple(extra)))

    def fori_loop_leaves(
        self,
        lower: Any,
        upper: Any,
        body_f: Callable[[Any, Leaves], Leaves],
        init: Leaves,
    ) -> Leaves:
        traced = isinstance(lower, _Tensor) or isinstance(upper, _Tensor)
        if not (traced and _exporting() and _tensors(init)):
            return super().fori_loop_leaves(lower, upper, body_f, init)
        # The counter leads the carry (a copy: a carry may not alias an input), the upper
        # bound leads the other inputs. A Python bound beside a tensor one has its dtype.
        like = lower if isinstance(lower, _Tensor) else upper
        lo = lower if isinstance(lower, _Tensor) else torch.tensor(lower, dtype=like.dtype)
        hi = upper if isinstance(upper, _Tensor) else torch.tensor(upper, dtype=like.dtype)
        n = len(init) + 1

        def condition(i: Any, *args: Any) -> Any:
            return i < args[n - 1]

        def body(i: Any, *args: Any) -> tuple[Any, ...]:
            return (i + 1, *_unaliased(body_f(i, list(args[: n - 1])), (i, *args)))

        extra = _closed_over([(body, (lo, *init, hi))])
        carry = (lo.clone(), *_apart(init, [hi, *extra]))
        return list(_while_loop_op(condition, body, carry, (hi, *extra))[1:])

    def scan_leaves(
        self,
        f: Callable[[Leaves, Leaves], tuple[Leaves, Leaves]],
        init: Leaves,
        xs: Leaves,
        length: int | None,
        reverse: bool,
    ) -> tuple[Leaves, Leaves]:
        static_empty = type(length) is int and length == 0
        if not (_exporting() and init and xs and not static_empty and _tensors(init, xs)):
            return super().scan_leaves(f, init, xs, length, reverse)
        n, m = len(init), len(xs)

        def combine(*args: Any) -> tuple[Any, ...]:
            carry, ys = f(list(args[:n]), list(args[n : n + m]))
            return _unaliased([*carry, *ys], args)

        if reverse:
            xs = [torch.flip(x, [0]) for x in xs]
        with _proxy_tensor.disable_proxy_modes_tracing():  # one step's x, for the trial only
            step = [x[0] for x in xs]
        extra = _closed_over([(combine, (*init, *step))])
        out = _scan_op(combine, list(_apart(init, extra)), list(xs), tuple(extra))  # carry, ys
        ys = list(out[n:])
        if reverse:
            ys = [torch.flip(y, [0]) for y in ys]
        return list(out[:n]), ys


_LOOPS = _TorchLoops(
    "torch",
    stack=torch.stack,
    zeros=_zeros,
    where=torch.where,
    concrete=_concrete,
    quiet=torch.no_grad,
)
cond_leaves = _LOOPS.cond_leaves
while_loop_leaves = _LOOPS.while_loop_leaves
fori_loop_leaves = _LOOPS.fori_loop_leaves
scan_leaves = _LOOPS.scan_leaves

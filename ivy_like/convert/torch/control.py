"""torch.export's control flow (``torch.cond``, ``torch.while_loop``, ``scan``) in a captured
model.

torch.export records each as a call of a higher-order op whose functions are sub-graphs of
the exported program (``torch.fx.GraphModule``s read by ``get_attr`` nodes), every value
they use passed in as an operand (lifted parameters included). :func:`emit_higher_order`
writes each sub-graph as a nested function of the generated code, named as its ``get_attr``
node, its nodes written by the same ATen mapping as the main graph, returning the list of
its outputs; then one call of a helper below, which runs those functions with ivy_like's own
control flow: ``lax.cond``/``while_loop``/``scan`` on jax, ``tf.cond``/``tf.while_loop`` in a
TensorFlow graph, Python (a select, for ``cond``) on torch and mlx. So a converted loop stops
on a condition computed from the data, under ``ivy_like.compile`` too, and ``cond`` and
``scan`` differentiate where the backend does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ivy_like as il

from .._errors import UnsupportedOpError

Branch = Callable[..., list[Any]]
EmitCall = Callable[[Any, Any], None]  # (node, writer): the line of one ATen node

HIGHER_ORDER = frozenset({"cond", "while_loop", "scan"})


def run_cond(pred: Any, true_fn: Branch, false_fn: Branch, operands: Sequence[Any]) -> list[Any]:
    """``torch.cond``: ``true_fn(*operands)`` if ``pred`` else ``false_fn(*operands)``."""
    return il.cond(pred, true_fn, false_fn, *operands)


def run_while(
    cond_fn: Branch, body_fn: Branch, carried: Sequence[Any], additional: Sequence[Any]
) -> list[Any]:
    """``torch.while_loop``: ``carried = body_fn(*carried, *additional)`` while
    ``cond_fn(*carried, *additional)``."""

    def going(carry: tuple[Any, ...]) -> Any:
        return cond_fn(*carry, *additional)[0]

    def step(carry: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(body_fn(*carry, *additional))

    out: tuple[Any, ...] = il.while_loop(going, step, tuple(carried))
    return list(out)


def run_scan(
    combine_fn: Branch, init: Sequence[Any], xs: Sequence[Any], additional: Sequence[Any]
) -> list[Any]:
    """torch's ``scan`` as exported (its ``dim`` and ``reverse`` already moves and flips in
    the graph): ``combine_fn(*carry, *x, *additional) -> [*carry, *y]`` over the leading axis
    of ``xs``; the final carry, then the stacked ``y``."""
    n = len(init)

    def step(carry: tuple[Any, ...], x: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        out = combine_fn(*carry, *x, *additional)
        return tuple(out[:n]), tuple(out[n:])

    carry, ys = il.scan(step, tuple(init), tuple(xs))
    return [*carry, *ys]


_HELPERS: dict[str, Callable[..., list[Any]]] = {
    "cond": run_cond,
    "while_loop": run_while,
    "scan": run_scan,
}


def is_higher_order(target: Any) -> bool:
    """Whether ``target`` is one of torch's higher-order ops (control flow and the like)."""
    import torch

    return isinstance(target, torch._ops.HigherOrderOperator)


def _refused(node: Any, where: str, why: str) -> UnsupportedOpError:
    return UnsupportedOpError(
        f"from_torch: higher-order op {node.target.name()} (node {node.name!r}, in {where}) "
        f"{why}; supported higher-order ops: {', '.join(sorted(HIGHER_ORDER))}"
    )


def check_higher_order(node: Any, where: str) -> None:
    """Refuse a higher-order op node this module cannot run, before any of it is written (so
    the error names the op, not an ATen op of the graph around it)."""
    if node.target.name() not in HIGHER_ORDER:
        raise _refused(
            node, where, "is not supported (express it with torch.cond, scan or torch.while_loop)"
        )
    if node.kwargs:
        raise _refused(node, where, f"has keyword arguments {sorted(node.kwargs)}")


def _sub_graph(node: Any, owner: Any, where: str) -> Any:
    """The GraphModule a ``get_attr`` node of ``owner`` reads."""
    import torch

    value: Any = owner
    for part in str(node.target).split("."):
        value = getattr(value, part, None)
    if not isinstance(value, torch.fx.GraphModule):
        raise UnsupportedOpError(
            f"from_torch: node {node.name!r} (in {where}) reads {node.target!r}, a "
            f"{type(value).__name__}; only sub-graphs of control flow are read by get_attr"
        )
    return value


def _nested(gm: Any, name: str, w: Any, emit: EmitCall, where: str) -> list[str]:
    """The lines of ``def name(*placeholders)`` computing the sub-graph ``gm``."""
    import torch

    saved, w.lines = w.lines, []
    try:
        formals = []
        for node in gm.graph.nodes:
            w.names[node] = node.name
            if node.op == "placeholder":
                formals.append(node.name)
            elif node.op == "get_attr":
                continue  # written by the higher-order op that reads it
            elif node.op == "call_function":
                if is_higher_order(node.target):
                    emit_higher_order(node, gm, w, emit, where)
                else:
                    emit(node, w)
            elif node.op == "output":
                outs = node.args[0]
                if isinstance(outs, torch.fx.Node):  # while_loop's condition: one tensor
                    outs = [outs]
                w.lines.append(f"    return [{', '.join(w.literal(o) for o in outs)}]")
            else:
                raise UnsupportedOpError(
                    f"from_torch: node {node.name!r} of a control-flow sub-graph (in {where}) "
                    f"is a {node.op}; only calls of ATen ops are supported there"
                )
        body = w.lines
    finally:
        w.lines = saved
    indented = ["\n".join("    " + part for part in line.split("\n")) for line in body]
    return [f"    def {name}({', '.join(formals)}):", *indented]


def emit_higher_order(node: Any, owner: Any, w: Any, emit: EmitCall, where: str) -> None:
    """The lines of a ``cond``, ``while_loop`` or ``scan`` node of the graph of ``owner`` (the
    exported program's GraphModule, or a sub-graph): its sub-graphs as nested functions named
    as their ``get_attr`` nodes, then one call of the helper that runs them. ``emit`` writes
    an ATen node; ``where`` names the model in errors."""
    import torch

    check_higher_order(node, where)
    op = node.target.name()
    args = []
    for a in node.args:
        if isinstance(a, torch.fx.Node) and a.op == "get_attr":
            gm = _sub_graph(a, owner, where)
            w.names[a] = a.name
            w.lines.extend(_nested(gm, a.name, w, emit, f"{where} > {a.name}"))
            args.append(a.name)
        else:
            args.append(w.literal(a))
    helper = w.ref(_HELPERS[op], f"__{op}")
    w.names[node] = node.name
    w.lines.append(f"    {node.name} = {helper}({', '.join(args)})  # higher_order.{op}")

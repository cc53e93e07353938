"""What a dynamic capture computes from its sizes alone, once per distinct tuple of sizes.

With a dimension captured as dynamic, what the graph builds from the sizes and constants only
(GPT-2's position ids and causal mask: ``arange`` of the length, comparisons, ``index`` by
``arange``s) can no longer be folded at capture. :func:`sized_nodes` finds those nodes and
the ones among them the rest of the graph reads (the frontier); :func:`write_sized` generates
one function of the constants and the sizes computing the frontier, which the graph calls
through :class:`~ivy_like.convert._captured.SizedValues`: a small cache keyed by the sizes,
as ``jax.jit`` caches per shape. The function never sees an input, only its sizes, so a
cached value is the value any call with those sizes computes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_SYM_SIZE = "aten.sym_size.int"


def sized_nodes(
    graph: Any,
    folded: set[Any],
    symbols: list[str],
    op_name: Callable[[Any], str],
    is_size_expression: Callable[[Any], bool],
    foldable: Callable[[Any], bool],
) -> tuple[list[Any], set[Any], list[Any]]:
    """The size nodes (``sym_size`` of an input's dynamic dimension, whose symbol is in
    ``symbols``, and Python arithmetic on them), the tensor nodes computed from sizes and
    folded values alone (reading at least one size), and those of them read elsewhere."""
    sizes: list[Any] = []
    size_set: set[Any] = set()
    for node in graph.nodes:
        if node.op != "call_function" or node in folded:
            continue
        inputs = node.all_input_nodes
        if op_name(node.target) == _SYM_SIZE:
            if str(node.meta.get("val")) in symbols and node.args[0].op == "placeholder":
                sizes.append(node)
                size_set.add(node)
        elif is_size_expression(node.target) and inputs and all(n in size_set for n in inputs):
            sizes.append(node)
            size_set.add(node)
    # A value the graph returns is computed at run time (a caller may write into an output; a
    # cached one must stay intact), and so is what reads it.
    excluded: set[Any] = set()
    while True:
        sized: set[Any] = set()
        for node in graph.nodes:
            if (
                node.op != "call_function"
                or node in folded
                or node in size_set
                or node in excluded
                or not foldable(node.target)
            ):
                continue
            inputs = node.all_input_nodes
            known = size_set | sized
            if all(n in folded or n in known for n in inputs) and any(n in known for n in inputs):
                sized.add(node)
        returned = {n for n in sized if any(u.op == "output" for u in n.users)}
        if not returned:
            break
        excluded |= returned
    frontier = [n for n in graph.nodes if n in sized and any(u not in sized for u in n.users)]
    return sizes, sized, frontier


def write_sized(
    w: Any,
    sizes: list[Any],
    sized: set[Any],
    frontier: list[Any],
    symbols: list[str],
    constant_of: dict[Any, int],
    emit: Callable[[Any, Any], None],
    graph: Any,
    masks: list[Any],
) -> list[str]:
    """The lines of ``sized(__C, __Z)``: ``__Z`` holds the sizes of ``symbols`` (in order),
    ``__C`` the constants (``constant_of``: node -> its index); it returns the frontier's
    values, then for each of ``masks`` (boolean attention masks of the frontier) whether it
    lets every query attend. ``emit`` writes a node's line as the graph's own lines are
    written."""
    main_lines, w.lines = w.lines, []
    try:
        for node in sizes:  # sym_size nodes, then arithmetic on them, in graph order
            w.names[node] = node.name
            symbol = str(node.meta.get("val"))
            if node.all_input_nodes[0].op == "placeholder" and symbol in symbols:
                w.lines.append(f"    {node.name} = __Z[{symbols.index(symbol)}]")
            else:
                emit(node, w)
        read = {n for node in sized for n in node.all_input_nodes if n in constant_of}
        for node in graph.nodes:
            if node in read:
                w.lines.append(f"    {w.names[node]} = __C[{constant_of[node]}]")
        for node in graph.nodes:
            if node in sized:
                w.names[node] = node.name
                emit(node, w)
        values = [w.names[n] for n in frontier]
        values += [f"__rows_attend({w.names[m]})" for m in masks]
        w.lines.append(f"    return [{', '.join(values)}]")
        return ["def sized(__C, __Z):", *w.lines]
    finally:
        w.lines = main_lines

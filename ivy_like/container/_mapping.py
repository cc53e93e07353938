"""Mapping over Container leaves: the one walker, its callbacks, and the generated Container
methods and operators.

One walker (:func:`_walk`) serves every op, ``cont_map`` and ``cont_multi_map``: it follows
the first Container, looks up the same keys in the others (a structure mismatch names the
first differing key chain), consults the one selection built by
:func:`~ivy_like.container._keychains.compile_selection`, and calls a leaf function on the
selected leaves. The leaf functions are written beside it: :func:`map_containers`' call the
user's function, :func:`map_op`'s call the op's public *function* variant, so leaf semantics
(dtype promotion, ``out=``, errors) are exactly the function's. ``out=`` Containers are checked
leaf by leaf with the function's own check (:func:`ivy_like.core.dispatch.check_out`) before
any leaf is written.

Methods are generated per op from the registry (``ivy_like.core.codegen.on_build``) as plain
source, like the function and ``Array`` method: the common case (one Container, no
``key_chains``, ``out`` or ``map_sequences``) is a dict comprehension that calls the function
on each leaf with the op's own arguments spelled out, so no ``*args``/``**kwargs`` per leaf.
What the general path needs of an op (its leaf invoker, where its array arguments are) is
computed once, when its code is generated, and kept in ``spec.extras``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from ..core import codegen
from ..core import dispatch as _dispatch
from ..core import registry as _registry
from ..core.build import BINARY_DUNDERS, COMPARISON_DUNDERS, UNARY_DUNDERS
from ..core.registry import OpSpec
from . import _container, _leaves, _pytree
from ._container import Container, ContainerStructureError, copy_structure, make
from ._keychains import Node, Selection, compile_selection

__all__ = ["container_map", "install", "map_containers", "map_op"]

_dict_contains = dict.__contains__
_dict_getitem = dict.__getitem__
_dict_setitem = dict.__setitem__
_pending = _pytree.pending  # frameworks not yet told about Container: a dict, emptied in place
_sync = _pytree.sync


# -- the walker -----------------------------------------------------------------------------------
LeafFn = Callable[[list[Any], tuple[Container, ...], str, str], Any]


def _mismatch(what: str, labels: list[str], kc: str, detail: str) -> ContainerStructureError:
    return ContainerStructureError(
        f"{what}: the Container arguments {', '.join(labels)} differ in structure at key chain "
        f"{kc!r}: {detail}"
    )


def _walk(
    nodes: tuple[Container, ...],
    sel: Selection,
    prefix: str,
    leaf: LeafFn,
    n_out: int,
    prune: bool,
    what: str,
    labels: list[str],
) -> list[dict[str, Any]]:
    """Map ``leaf`` over the selected leaves of ``nodes[0]``; return ``n_out`` plain dicts.

    ``sel`` is never ``False`` here: unselected sub-trees are kept or pruned by the caller.
    """
    prim = nodes[0]
    others = nodes[1:]
    results: list[dict[str, Any]] = [{}] if n_out == 1 else [{} for _ in range(n_out)]
    first = results[0]
    node_sel = sel if sel.__class__ is Node else None
    s: Selection = sel
    for k, v in prim.items():
        if node_sel is not None:
            s = node_sel.children.get(k, node_sel.default)
            if s is False:
                if not prune:
                    is_node = isinstance(v, Container)
                    kept = copy_structure(v) if is_node else v
                    for r in results:
                        r[k] = kept if n_out == 1 or not is_node else copy_structure(v)
                continue
        subs = [v]
        node = type(v) is Container or isinstance(v, Container)
        if others:  # (not with one Container, as in cont_map: no loops to set up per leaf)
            for j, o in enumerate(others, 1):
                if not _dict_contains(o, k):
                    raise _mismatch(what, labels, prefix + k, f"missing in {labels[j]}")
                subs.append(_dict_getitem(o, k))
            for j in range(1, len(subs)):
                if isinstance(subs[j], Container) is not node:
                    this, that = ("a Container", "a leaf") if node else ("a leaf", "a Container")
                    raise _mismatch(
                        what, labels, prefix + k, f"{this} in {labels[0]}, {that} in {labels[j]}"
                    )
        if not node:
            value = leaf(subs, nodes, prefix, k)
            if n_out == 1:
                first[k] = value
            else:
                for r, item in zip(results, value):
                    r[k] = item
            continue
        sub = _walk(tuple(subs), s, f"{prefix}{k}/", leaf, n_out, prune, what, labels)
        if prune and not sub[0] and (v or s is not True):
            continue
        for r, d in zip(results, sub):
            r[k] = make(d)
    for o in others:
        if o.keys() == prim.keys():  # the same keys (as sets: one C call)
            continue
        for k in o:
            if _dict_contains(prim, k):
                continue
            s = sel if (sel is True or sel is False) else sel.children.get(k, sel.default)
            if s is not False:
                raise _mismatch(what, labels, prefix + k, f"missing in {labels[0]}")
    return results


def _seq_map(
    f: Callable[[list[Any]], Any],
    subs: list[Any],
    n_out: int,
    what: str,
    labels: list[str],
    kc: str,
) -> Any:
    """Apply ``f`` to the elements of list and tuple leaves (nested ones too), keeping types.

    ``subs[0]`` decides: other sequence leaves must have its length; non-sequences are
    broadcast. For several outputs the per-element tuples are regrouped into ``n_out``
    sequences (never the result split as a whole).
    """
    first = subs[0]
    if not isinstance(first, (list, tuple)):
        return f(subs)
    n = len(first)
    for j, w in enumerate(subs[1:], 1):
        if isinstance(w, (list, tuple)) and len(w) != n:
            raise _mismatch(
                what, labels, kc, f"a sequence of {n} in {labels[0]}, of {len(w)} in {labels[j]}"
            )
    kind = tuple if isinstance(first, tuple) else list
    items = [
        _seq_map(
            f,
            [w[i] if isinstance(w, (list, tuple)) else w for w in subs],
            n_out,
            what,
            labels,
            kc,
        )
        for i in range(n)
    ]
    if n_out == 1:
        return kind(items)
    return tuple(kind(item[m] for item in items) for m in range(n_out))


def _check_flags(to_apply: Any, prune_unapplied: Any, map_sequences: Any) -> None:
    for name, value in (
        ("to_apply", to_apply),
        ("prune_unapplied", prune_unapplied),
        ("map_sequences", map_sequences),
    ):
        if not isinstance(value, bool):
            raise TypeError(f"{name}: expected a bool, got {type(value).__name__}")


# -- cont_map and cont_multi_map ------------------------------------------------------------------
def map_containers(
    fn: Callable[[list[Any], str], Any],
    containers: tuple[Container, ...],
    key_chains: Any = None,
    to_apply: bool = True,
    prune_unapplied: bool = False,
    map_sequences: bool = False,
) -> Container:
    """``cont_map`` / ``cont_multi_map``: ``fn(leaves, key_chain)`` on the selected leaves."""
    if not (to_apply.__class__ is prune_unapplied.__class__ is map_sequences.__class__ is bool):
        _check_flags(to_apply, prune_unapplied, map_sequences)
    sel = compile_selection(key_chains, to_apply, containers[0])
    labels = (
        ["self"] if len(containers) == 1 else [f"containers[{i}]" for i in range(len(containers))]
    )
    what = "cont_map" if len(containers) == 1 else "cont_multi_map"
    if map_sequences:

        def leaf(subs: list[Any], nodes: Any, prefix: str, k: str) -> Any:
            kc = prefix + k
            return _seq_map(lambda items: fn(items, kc), subs, 1, what, labels, kc)

    else:

        def leaf(subs: list[Any], nodes: Any, prefix: str, k: str) -> Any:
            return fn(subs, prefix + k)

    return make(_walk(containers, sel, "", leaf, 1, prune_unapplied, what, labels)[0])


_container.map_containers = map_containers  # Container.cont_map and cont_multi_map walk with it


# -- ops over leaves ----------------------------------------------------------------------------
def map_op(
    spec: OpSpec,
    values: tuple[Any, ...],
    key_chains: Any = None,
    to_apply: bool = True,
    prune_unapplied: bool = False,
    map_sequences: bool = False,
) -> Any:
    """Apply ``spec``'s function leafwise; ``values`` holds every parameter in order.

    Also the dispatcher's entry (:data:`container_map`): ``ivy_like.op(container, ...)``.
    """
    if _pending:
        _sync()
    if not (to_apply.__class__ is prune_unapplied.__class__ is map_sequences.__class__ is bool):
        _check_flags(to_apply, prune_unapplied, map_sequences)
    facts = spec.extras.get("container")
    if facts is None:  # first Container use of this op: generate its code now
        _install(spec)
        facts = spec.extras["container"]
    invoke, array_slots, sequence_slots = facts
    # Where the Containers are: (param index, item index or -1 for the whole argument).
    slots: list[tuple[int, int]] = []
    nodes: list[Container] = []
    labels: list[str] = []
    seq_args: list[int] = []  # sequence arguments with a Container item
    for i, name in array_slots:
        if isinstance(values[i], Container):
            slots.append((i, -1))
            nodes.append(values[i])
            labels.append(name)
    for i, name in sequence_slots:
        seq = values[i]
        if isinstance(seq, Container):
            slots.append((i, -1))
            nodes.append(seq)
            labels.append(name)
        elif isinstance(seq, (list, tuple)):
            for j, item in enumerate(seq):
                if isinstance(item, Container):
                    slots.append((i, j))
                    nodes.append(item)
                    labels.append(f"{name}[{j}]")
                    if i not in seq_args:
                        seq_args.append(i)
    out = values[spec.out_index] if spec.out_index >= 0 else None
    if out is not None:
        if not isinstance(out, Container):
            raise TypeError(
                f"{spec.name}: out= must be a Container when an argument is a Container, "
                f"got {type(out).__name__}"
            )
        if spec.n_outputs != 1:
            raise TypeError(f"{spec.name}: out= is not supported for ops with several outputs")
        nodes.append(out)
        labels.append("out")
    if not nodes:
        return invoke(list(values))
    template = list(values)
    if spec.out_index >= 0:
        template[spec.out_index] = None
    # -1 (a tuple whose length depends on the data): each leaf holds its own tuple.
    n_out = spec.n_outputs if spec.n_outputs > 0 else 1
    what = spec.name
    sel = compile_selection(key_chains, to_apply, nodes[0])

    if out is None and not map_sequences and not seq_args:

        def plain_leaf(subs: list[Any], parents: Any, prefix: str, k: str) -> Any:
            vals = template.copy()
            for (i, _), value in zip(slots, subs):
                vals[i] = value
            return invoke(vals)

        results = _walk(tuple(nodes), sel, "", plain_leaf, n_out, prune_unapplied, what, labels)
        return make(results[0]) if n_out == 1 else tuple(make(r) for r in results)

    def call(leaves: list[Any]) -> Any:
        vals = template.copy()
        for i in seq_args:
            vals[i] = list(vals[i])
        for (i, j), value in zip(slots, leaves):
            if j < 0:
                vals[i] = value
            else:
                vals[i][j] = value
        return invoke(vals)

    writes: list[tuple[Container, str, str, Any, Any]] = []
    n_in = len(slots)

    def leaf(subs: list[Any], parents: tuple[Container, ...], prefix: str, k: str) -> Any:
        ins = subs[:n_in] if out is not None else subs
        if map_sequences:
            result = _seq_map(call, ins, n_out, what, labels, prefix + k)
        else:
            result = call(ins)
        if out is not None:
            writes.append((parents[-1], k, prefix + k, subs[-1], result))
        return result

    results = _walk(tuple(nodes), sel, "", leaf, n_out, prune_unapplied, what, labels)
    if out is not None:
        _write_all(what, writes)
        return out
    if n_out == 1:
        return make(results[0])
    return tuple(make(r) for r in results)


container_map = map_op  # what ``ivy_like.core.build`` gives the dispatcher for Container arguments


# -- out= -----------------------------------------------------------------------------------------
def _pairs(name: str, kc: str, target: Any, result: Any) -> list[tuple[str, Any, Any]]:
    """(key chain, out leaf, result) pairs, looking inside sequences (map_sequences)."""
    if isinstance(result, (list, tuple)) and isinstance(target, (list, tuple)):
        if len(result) != len(target):
            raise ValueError(
                f"{name}: out= at key chain {kc!r} is a sequence of {len(target)}, the result "
                f"one of {len(result)}"
            )
        pairs = []
        for i, (t, r) in enumerate(zip(target, result)):
            pairs.extend(_pairs(name, f"{kc}[{i}]", t, r))
        return pairs
    return [(kc, target, result)]


def _write_all(name: str, writes: list[tuple[Container, str, str, Any, Any]]) -> None:
    """Check every (out leaf, result) pair, then write them all: nothing is half-written."""
    for _, _, kc, target, result in writes:
        for sub_kc, t, r in _pairs(name, kc, target, result):
            info = _leaves.leaf_info(r)
            if info is None:
                raise TypeError(
                    f"{name}: the result at {sub_kc!r} is a {type(r).__name__}, not an array"
                )
            _dispatch.check_out(name, info[0], t, info[1], f"out= at key chain {sub_kc!r}")
    for parent, k, _, target, result in writes:
        _dict_setitem(parent, k, _write_leaf(target, result))


def _write_leaf(target: Any, result: Any) -> Any:
    """Write a checked ``result`` into the out leaf as the function would; return the leaf to
    keep. ``Array`` leaves, mutable native arrays and variables are written (in place where
    the backend allows); an immutable native leaf (a jax array, a ``tf.Tensor``) cannot be
    written, so the Container entry is rebound to the result instead."""
    if isinstance(result, (list, tuple)) and isinstance(target, (list, tuple)):
        kind = tuple if isinstance(target, tuple) else list
        return kind(_write_leaf(t, r) for t, r in zip(target, result))
    backend, native, _ = _leaves.leaf_info(result)  # type: ignore[misc]
    _, t_native, t_is_array = _leaves.leaf_info(target)  # type: ignore[misc]
    if t_is_array or backend.mutable_arrays or backend.is_variable(t_native):
        return _dispatch.write_checked(backend, target, t_native, t_is_array, native)
    return native


# -- generated methods --------------------------------------------------------------------------
def _param_source(p: inspect.Parameter, ns: dict[str, Any]) -> str:
    if p.default is p.empty:
        return p.name
    key = f"_d{len(ns)}"
    ns[key] = p.default
    return f"{p.name}={key}"


def _signature(params: list[inspect.Parameter], ns: dict[str, Any], has_out: bool) -> str:
    """Source of a parameter list: ``params`` then the key-chain keywords and ``out``."""
    parts, star = codegen.parameter_list(params, lambda p: _param_source(p, ns))
    if not star:
        parts.append("*")
    parts.append("key_chains=None, to_apply=True, prune_unapplied=False, map_sequences=False")
    if has_out:
        parts.append("out=None")
    return ", ".join(parts)


def _call_source(params: list[inspect.Parameter], arg: Callable[[int, str], str]) -> str:
    """Source of the argument list of a call of the function, ``arg(i, name)`` per value."""
    parts = []
    for i, p in enumerate(params):
        if p.kind is p.VAR_POSITIONAL:
            parts.append(f"*{arg(i, p.name)}")
        elif p.kind is p.KEYWORD_ONLY:
            parts.append(f"{p.name}={arg(i, p.name)}")
        else:
            parts.append(arg(i, p.name))
    return ", ".join(parts)


def _method_doc(spec: OpSpec, static: bool) -> str:
    first = codegen.decl_doc_first_line(spec)
    who = "Static Container" if static else "Container method"
    return (
        f"{who} variant of :func:`ivy_like.{spec.name}`: the op applied to every leaf.\n\n"
        f"{first}\n\n"
        "key_chains, to_apply, prune_unapplied, map_sequences: select the leaves to map (see "
        "``Container.cont_map``); out: a Container of the same structure to write into.\n"
    )


def _installable(spec: OpSpec) -> bool:
    # No op takes **kwargs; with one, the key-chain keywords could not be told apart.
    return bool(
        not spec.creation
        and (spec.arrays or spec.sequences)
        and all(p.kind is not p.VAR_KEYWORD for p in spec.params)
    )


class _Lazy:
    """Stands in for ``Container.<op>`` / ``Container.static_<op>`` until first looked up.

    Compiling the ~170 ops' Container code at import cost more than the rest of
    ``import ivy_like``; most programs use a handful of them. The first lookup generates the
    op's code (:func:`_install`), which replaces both stand-ins on the class.
    """

    __slots__ = ("spec", "attr")

    def __init__(self, spec: OpSpec, attr: str) -> None:
        self.spec, self.attr = spec, attr

    def __get__(self, obj: Any, cls: Any = None) -> Any:
        _install(self.spec)
        return getattr(obj if obj is not None else cls, self.attr)


def _install_lazy(spec: OpSpec) -> None:
    """The build hook: stand-ins on the class; the code is generated on first use."""
    if not _installable(spec):
        return
    setattr(Container, f"static_{spec.name}", _Lazy(spec, f"static_{spec.name}"))
    if spec.params[0].name in spec.arrays and spec.name not in _RESERVED:
        setattr(Container, spec.name, _Lazy(spec, spec.name))


def _install(spec: OpSpec) -> None:
    """Generate ``Container.<op>``, ``Container.static_<op>`` and the leaf invoker of ``spec``."""
    if "container" in spec.extras or not _installable(spec):
        return
    params = list(spec.params)
    has_out = spec.out_index >= 0
    core = [p for p in params if p.name != "out"]
    ns: dict[str, Any] = {
        "_fn": spec.function,
        "_spec": spec,
        "_map_op": map_op,
        "_C": Container,
        "_mk": make,
        "_pending": _pending,
        "_sync": _sync,
    }
    all_values = "(" + "".join(f"{p.name}, " for p in params) + ")"
    rest = "key_chains, to_apply, prune_unapplied, map_sequences"
    index = {p.name: i for i, p in enumerate(params)}
    sources = [
        f"def _invoke(v):\n    return _fn({_call_source(params, lambda i, n: f'v[{index[n]}]')})\n",
        f"def static_{spec.name}({_signature(core, ns, has_out)}):\n"
        f"    return _map_op(_spec, {all_values}, {rest})\n",
    ]
    first = params[0]
    method = first.name in spec.arrays and spec.name not in _RESERVED
    if method:
        self_params = [first.replace(name="self"), *core[1:]]
        values = all_values.replace(f"({first.name}, ", "(self, ", 1)
        body = [f"def {spec.name}({_signature(self_params, ns, has_out)}):"]
        fast = (
            spec.n_outputs == 1
            and not spec.sequences
            and all(p.kind is not p.VAR_POSITIONAL for p in params)
        )
        if fast:
            # One Container, every leaf selected: a comprehension calling the function.
            cond = ["key_chains is None", "map_sequences is False"]
            if has_out:
                cond.append("out is None")
            cond += [f"not isinstance({a}, _C)" for a in spec.arrays if a != first.name]
            leaf_call = _call_source(core, lambda i, n: "_v" if i == 0 else n)
            # ``type(_v) is _C`` rather than isinstance (50 ns a leaf): a Container subclass
            # node is then handed to the function, which maps over it just the same.
            body += [
                f"    if {' and '.join(cond)}:",
                "        if _pending:",  # a framework imported since: register Container with it
                "            _sync()",  # (_map_op does so on the other path)
                "        def _rec(_c, _fn=_fn, _C=_C, _mk=_mk):",
                f"            return _mk({{_k: _rec(_v) if type(_v) is _C else _fn({leaf_call})"
                " for _k, _v in _c.items()})",
                "        return _rec(self)",
            ]
        body.append(f"    return _map_op(_spec, {values}, {rest})")
        sources.append("\n".join(body) + "\n")
        second = params[1] if len(params) > 1 else None
        if (
            fast
            and second is not None
            and second.name in spec.arrays
            and all(p.default is not p.empty for p in params[2:])
        ):
            # ``other <op> c`` with a non-Container ``other``: the reflected operator.
            sources.append(
                "def _reflected(self, other):\n"
                "    if not isinstance(other, _C):\n"
                "        def _rec(_c, _fn=_fn, _C=_C, _mk=_mk):\n"
                "            return _mk({_k: _rec(_v) if type(_v) is _C else _fn(other, _v)"
                " for _k, _v in _c.items()})\n"
                "        return _rec(self)\n"
                f"    return _map_op(_spec, (other, self, {'None, ' * (len(params) - 2)}))\n"
            )
    codegen.compile_source("\n".join(sources), "_invoke", ns, f"Container.{spec.name}")
    spec.extras["container_invoke"] = invoke = ns["_invoke"]
    names = spec.param_names
    spec.extras["container"] = (
        invoke,
        tuple((i, names[i]) for i in spec.array_index),
        tuple((i, names[i]) for i in spec.sequence_index),
    )
    static = ns[f"static_{spec.name}"]
    static.__qualname__ = f"Container.static_{spec.name}"
    static.__doc__ = _method_doc(spec, static=True)
    setattr(Container, f"static_{spec.name}", staticmethod(static))
    if method:
        meth = ns[spec.name]
        meth.__qualname__ = f"Container.{spec.name}"
        meth.__doc__ = _method_doc(spec, static=False)
        setattr(Container, spec.name, meth)
        spec.extras["container_method"] = meth
        if "_reflected" in ns:
            spec.extras["container_reflected"] = ns["_reflected"]


# dict methods and our own attributes that an op must not shadow (its static_ form stays).
_RESERVED = frozenset(dir(dict)) | {k for k in vars(Container) if not k.startswith("__")}


# -- operators ----------------------------------------------------------------------------------
def _binary(spec: OpSpec, reflected: bool) -> Callable[[Container, Any], Any]:
    # The generated method and reflected function have the one-Container fast path.
    _install(spec)
    fast = spec.extras.get("container_reflected" if reflected else "container_method")
    if fast is not None:
        return fast  # type: ignore[no-any-return]
    pad = (None,) * (len(spec.params) - 2)

    if reflected:

        def op(self: Container, other: Any) -> Any:
            return map_op(spec, (other, self, *pad))

    else:

        def op(self: Container, other: Any) -> Any:
            return map_op(spec, (self, other, *pad))

    return op


def _unary(spec: OpSpec) -> Callable[[Container], Any]:
    _install(spec)
    fast = spec.extras.get("container_method")
    if fast is not None:
        return fast  # type: ignore[no-any-return]
    pad = (None,) * (len(spec.params) - 1)

    def op(self: Container) -> Any:
        return map_op(spec, (self, *pad))

    return op


def _inplace(spec: OpSpec) -> Callable[[Container, Any], Container]:
    pad = (None,) * (len(spec.params) - 2)

    def op(self: Container, other: Any) -> Container:
        # ``c += x``: the leaves of ``c`` are rebound to ``c + x``; nested Containers are kept.
        _assign(self, map_op(spec, (self, other, *pad)))
        return self

    return op


def _assign(target: Container, source: Container) -> None:
    for k, v in source.items():
        if isinstance(v, Container) and isinstance(target.get(k), Container):
            _assign(_dict_getitem(target, k), v)
        else:
            _dict_setitem(target, k, v)


def _install_operators() -> None:
    ops = _registry.OPS
    for short, name in BINARY_DUNDERS.items():
        spec = ops[name]
        setattr(Container, f"__{short}__", _binary(spec, False))
        setattr(Container, f"__r{short}__", _binary(spec, True))
        setattr(Container, f"__i{short}__", _inplace(spec))
    for dunder, name in COMPARISON_DUNDERS.items():
        setattr(Container, dunder, _binary(ops[name], False))
    # dict's own | and |= (merge) are replaced above by the leafwise bitwise_or, like Array's.
    for dunder, name in UNARY_DUNDERS.items():
        setattr(Container, dunder, _unary(ops[name]))
    Container.__hash__ = None  # type: ignore[assignment]


def install() -> None:
    """Give ``Container`` its op methods and operators; ``ivy_like`` calls this once, after
    building the functions the methods call."""
    codegen.on_build(_install_lazy)
    _install_operators()

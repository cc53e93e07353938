"""Mapping ops over Container leaves, and the generated Container methods and operators.

One walker (:func:`_walk`) serves every op, ``cont_map`` and ``cont_multi_map``: it follows
the first Container, looks up the same keys in the others (a structure mismatch names the
first differing key chain), consults the one selection built by
:func:`~ivy_like.container._keychains.compile_selection`, and calls a leaf function on the
selected leaves. An op's leaf function calls the op's public *function* variant, so leaf
semantics (dtype promotion, ``out=``, errors) are exactly the function's.

Methods are generated per op from the registry (``ivy_like.core.registry.on_build``) as plain
source, like the function and ``Array`` method: the common case (one Container, no
``key_chains``, ``out`` or ``map_sequences``) is a dict comprehension that calls the function
on each leaf with the op's own arguments spelled out, so no ``*args``/``**kwargs`` per leaf.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from ..core import codegen
from ..core import registry as _registry
from ..core.build import BINARY_DUNDERS, COMPARISON_DUNDERS, UNARY_DUNDERS
from ..core.registry import OpSpec
from . import _convert, _trees
from ._container import (
    Container,
    _check_flags,
    _seq_map,
    _walk,
    make,
    map_containers,
)
from ._keychains import compile_selection

__all__ = ["map_containers", "map_op"]

_dict_contains = dict.__contains__
_dict_getitem = dict.__getitem__
_dict_setitem = dict.__setitem__
_KEYCHAIN_KWARGS = ("key_chains", "to_apply", "prune_unapplied", "map_sequences")


# -- ops over leaves ----------------------------------------------------------------------------
def map_op(
    spec: OpSpec,
    values: tuple[Any, ...],
    key_chains: Any = None,
    to_apply: bool = True,
    prune_unapplied: bool = False,
    map_sequences: bool = False,
) -> Any:
    """Apply ``spec``'s function leafwise; ``values`` holds every parameter in order."""
    if _trees.pending:
        _trees.sync()
    _check_flags(to_apply, prune_unapplied, map_sequences)
    names = spec.param_names
    invoke = spec.extras.get("container_invoke")
    if invoke is None:  # first Container use of this op: generate its code now
        _install(spec)
        invoke = spec.extras["container_invoke"]
    # Where the Containers are: (param index, item index or -1 for the whole argument).
    slots: list[tuple[int, int]] = []
    nodes: list[Container] = []
    labels: list[str] = []
    for i in spec.array_index:
        if isinstance(values[i], Container):
            slots.append((i, -1))
            nodes.append(values[i])
            labels.append(names[i])
    for i in spec.sequence_index:
        seq = values[i]
        if isinstance(seq, Container):
            slots.append((i, -1))
            nodes.append(seq)
            labels.append(names[i])
        elif isinstance(seq, (list, tuple)):
            for j, item in enumerate(seq):
                if isinstance(item, Container):
                    slots.append((i, j))
                    nodes.append(item)
                    labels.append(f"{names[i]}[{j}]")
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
    n_in = len(slots)
    seq_args = sorted({i for i, j in slots if j >= 0})
    # -1 (a tuple whose length depends on the data): each leaf holds its own tuple.
    n_out = spec.n_outputs if spec.n_outputs > 0 else 1
    what = spec.name

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
    with_out = out is not None

    if not with_out and not map_sequences and not seq_args:
        positions = [i for i, _ in slots]

        def plain_leaf(subs: list[Any], parents: Any, prefix: str, k: str) -> Any:
            vals = template.copy()
            for i, value in zip(positions, subs):
                vals[i] = value
            return invoke(vals)

        sel = compile_selection(key_chains, to_apply, nodes[0])
        results = _walk(tuple(nodes), sel, "", plain_leaf, n_out, prune_unapplied, what, labels)
        return make(results[0]) if n_out == 1 else tuple(make(r) for r in results)

    def leaf(subs: list[Any], parents: tuple[Container, ...], prefix: str, k: str) -> Any:
        ins = subs[:n_in] if with_out else subs
        if map_sequences:
            result = _seq_map(call, ins, n_out, what, labels, prefix + k)
        else:
            result = call(ins)
        if with_out:
            writes.append((parents[-1], k, prefix + k, subs[-1], result))
        return result

    sel = compile_selection(key_chains, to_apply, nodes[0])
    results = _walk(tuple(nodes), sel, "", leaf, n_out, prune_unapplied, what, labels)
    if with_out:
        _write_all(spec, writes)
        return out
    if n_out == 1:
        return make(results[0])
    return tuple(make(r) for r in results)


def _pairs(kc: str, target: Any, result: Any) -> list[tuple[str, Any, Any]]:
    """(key chain, out leaf, result) pairs, looking inside sequences (map_sequences)."""
    if isinstance(result, (list, tuple)) and isinstance(target, (list, tuple)):
        if len(result) != len(target):
            raise ValueError(
                f"out={kc!r} is a sequence of {len(target)}, the result one of {len(result)}"
            )
        pairs = []
        for i, (t, r) in enumerate(zip(target, result)):
            pairs.extend(_pairs(f"{kc}[{i}]", t, r))
        return pairs
    return [(kc, target, result)]


def _write_all(spec: OpSpec, writes: list[tuple[Container, str, str, Any, Any]]) -> None:
    """Check every (out leaf, result) pair, then write them all: nothing is half-written."""
    for _, _, kc, target, result in writes:
        for sub_kc, t, r in _pairs(kc, target, result):
            _convert.check_out(spec.name, sub_kc, t, r)
    for parent, k, _, target, result in writes:
        _dict_setitem(parent, k, _write_leaf(spec, target, result))


def _write_leaf(spec: OpSpec, target: Any, result: Any) -> Any:
    if isinstance(result, (list, tuple)) and isinstance(target, (list, tuple)):
        kind = tuple if isinstance(target, tuple) else list
        return kind(_write_leaf(spec, t, r) for t, r in zip(target, result))
    return _convert.write_out_leaf(spec, target, result)


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
    if "container_invoke" in spec.extras or not _installable(spec):
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
        "_trees": _trees,
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
        body = [
            f"def {spec.name}({_signature(self_params, ns, has_out)}):",
            "    if _trees.pending:",  # a framework imported since: register Container with it
            "        _trees.sync()",
        ]
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
    spec.extras["container_invoke"] = ns["_invoke"]
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


def container_map(spec: OpSpec, values: tuple[Any, ...]) -> Any:
    """The dispatcher's entry: ``ivy_like.op(container, ...)`` maps over leaves."""
    return map_op(spec, values)


def install() -> None:
    """Give ``Container`` its op methods and operators; ``ivy_like`` calls this once, after
    building the functions the methods call."""
    codegen.on_build(_install_lazy)
    _install_operators()

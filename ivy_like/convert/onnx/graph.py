"""Writing an ONNX graph as one generated ivy_like function.

:func:`write` walks the graph's nodes in dependency order (a cycle is a ``ValueError``) and
gives each value one of four homes:

* a **weight**: a floating-point initializer, read from ``params`` (``__P``), so it is trained
  and differentiated like any parameter;
* a **known** value: every other initializer, every ``Constant``, and every node whose inputs
  are all known, which is computed now, on NumPy, by the node's own handler (shape arithmetic
  on a model with fixed shapes disappears from the generated code);
* a **host** value: a node computed at run time on NumPy because its inputs are known or host
  values and at least one depends on a dynamic dimension (``Shape`` of an input whose batch is
  a ``dim_param``, and the arithmetic after it): shapes stay Python numbers, never tracers;
* a **device** value: everything else, one line per node calling the operator's handler on
  the model's backend.

A known value used on the device is a constant of the model (``__C``), made once per backend;
integer and small ones stay NumPy there (a shape or an index read by ``ints``), narrowed to the
backend's 32-bit types where it has no 64-bit ones. Unsupported nodes are collected, and one
:class:`~ivy_like.convert.UnsupportedOpError` lists them all.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import ivy_like as il

from .._captured import Generated, compile_generated
from .._errors import UnsupportedOpError
from . import (
    control,
    ops,  # noqa: F401 - imported for its registrations in the table
)
from ._host import host_shape, narrow, run_on_numpy, run_on_numpy_args, to_device
from ._table import ATTRS, OPS, REASONS, SINCE, Node, Refused, Value, supported_ops

_SMALL = 16  # elements: a known floating-point value this small is passed as NumPy
_FOLD_LIMIT = 1 << 20  # elements: a larger value made from small known ones is made at run time
# Inputs that are read as numbers (scales, sizes), so a floating-point initializer there is a
# known value and not a weight.
_READ_AS_NUMBERS = {"Resize": (1, 2, 3), "Upsample": (1,)}
_NUMPY_DTYPES = {
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
}  # fmt: skip


@dataclass
class Slot:
    """Where a value lives: ``kind`` is "weight" (``ref`` its key chain), "known" (``ref`` the
    NumPy value), "host" or "device" (``ref`` the local name); ``value`` its shape and dtype."""

    kind: str
    ref: Any
    value: Value | None = None


@dataclass
class Problems:
    """The nodes that cannot be converted, each with its reason, reported together."""

    items: list[str] = field(default_factory=list)

    def add(self, node: Any, opset: int, why: str) -> None:
        name = f"node {node.name!r}, " if node.name else ""
        domain = f"{node.domain}." if node.domain not in ("", "ai.onnx") else ""
        self.items.append(f"{domain}{node.op_type} ({name}opset {opset}): {why}")


def dtype_of(elem_type: int) -> np.dtype | None:
    """The NumPy dtype of an ONNX element type, or None for one ivy_like does not hold."""
    from onnx import helper

    try:
        dt = np.dtype(helper.tensor_dtype_to_np_dtype(elem_type))
    except (KeyError, TypeError, ValueError):
        return None
    return dt if dt.name in _NUMPY_DTYPES else None


def value_of(type_proto: Any) -> Value | None:
    """A :class:`Value` from an ONNX ``TypeProto`` (None for a sequence, map or optional)."""
    if not type_proto.HasField("tensor_type"):
        return None
    tt = type_proto.tensor_type
    shape = None
    if tt.HasField("shape"):
        dims: list[int | str | None] = []
        for d in tt.shape.dim:
            if d.HasField("dim_value"):
                dims.append(int(d.dim_value))
            elif d.HasField("dim_param"):
                dims.append(d.dim_param)
            else:
                dims.append(None)
        shape = tuple(dims)
    return Value(shape, dtype_of(tt.elem_type))


def static_shape(value: Value | None) -> tuple[int, ...] | None:
    if value is None or value.shape is None or not all(isinstance(d, int) for d in value.shape):
        return None
    return value.shape  # type: ignore[return-value]


def attributes(node: Any, what: str) -> dict[str, Any]:
    """The node's attributes decoded: bytes as str, tensors as NumPy, graphs kept."""
    from onnx import AttributeProto, helper, numpy_helper

    out: dict[str, Any] = {}
    for a in node.attribute:
        if a.ref_attr_name:
            raise Refused(f"attribute {a.name!r} refers to a function's attribute")
        if a.type == AttributeProto.SPARSE_TENSOR or a.type == AttributeProto.SPARSE_TENSORS:
            raise Refused(f"attribute {a.name!r} is a sparse tensor")
        if a.type == AttributeProto.TENSOR:
            out[a.name] = np.array(numpy_helper.to_array(a.t))  # writable: torch shares memory
            continue
        v = helper.get_attribute_value(a)
        if isinstance(v, bytes):
            v = v.decode("utf-8", "replace")
        elif isinstance(v, list) and v and isinstance(v[0], bytes):
            v = [x.decode("utf-8", "replace") for x in v]
        out[a.name] = v
    return out


class Writer:
    """The generated function's lines and globals, and the home of every ONNX value."""

    def __init__(self, what: str, opset: int) -> None:
        self.what = what
        self.opset = opset
        self.lines: list[str] = []
        self.globals: dict[str, Any] = {
            "__builtins__": __builtins__,
            "__host": run_on_numpy_args,
            "__shape": host_shape,
            "__device": to_device,
            "__narrow": narrow,
        }
        self.slots: dict[str, Slot] = {}
        self.params: list[str] = []
        self.param_names: dict[str, str] = {}
        self.constants: list[tuple[np.ndarray, Any]] = []
        self.constant_host: list[bool] = []
        self.const_names: dict[int, str] = {}
        self.host_names: dict[int, str] = {}
        self.keep: list[Any] = []
        self.count = 0
        self.problems = Problems()
        self.ops_used: set[str] = set()

    def fresh(self) -> str:
        self.count += 1
        return f"v{self.count}"

    # -- expressions --------------------------------------------------------------------------
    def literal(self, v: Any) -> str:
        if v is None or isinstance(v, (bool, int, str)):
            return repr(v)
        if isinstance(v, float) and math.isfinite(v):
            return repr(v)
        if isinstance(v, (list, tuple)) and all(
            x is None
            or isinstance(x, (bool, int, str))
            or (isinstance(x, float) and math.isfinite(x))
            for x in v
        ):
            return repr(list(v) if isinstance(v, list) else tuple(v))
        name = f"__a{len(self.globals)}"
        self.globals[name] = v
        return name

    def weight(self, key: str) -> str:
        name = self.param_names.get(key)
        if name is None:
            name = f"p{len(self.params)}"
            self.params.append(key)
            self.param_names[key] = name
        return name

    def device_constant(self, arr: np.ndarray) -> str:
        hit = self.const_names.get(id(arr))
        if hit is None:
            hit = f"__C[{len(self.constants)}]"
            small = arr.dtype.kind in "biu" or arr.size <= _SMALL
            self.constants.append((arr, il.as_dtype(arr.dtype.name)))
            self.constant_host.append(small)
            self.const_names[id(arr)] = hit
            self.keep.append(arr)
        return hit

    def host_constant(self, arr: np.ndarray) -> str:
        hit = self.host_names.get(id(arr))
        if hit is None:
            hit = f"__k{len(self.host_names)}"
            self.globals[hit] = arr
            self.host_names[id(arr)] = hit
            self.keep.append(arr)
        return hit

    def expr(self, slot: Slot | None, host_line: bool) -> str:
        if slot is None:
            return "None"
        if slot.kind == "weight":
            return self.weight(slot.ref)
        if slot.kind == "known":
            return self.host_constant(slot.ref) if host_line else self.device_constant(slot.ref)
        if slot.kind == "host" and not host_line:
            return f"__narrow({slot.ref})"
        return slot.ref

    # -- nodes -------------------------------------------------------------------------------
    def node(self, node: Any, inferred: dict[str, Value]) -> None:
        op = node.op_type
        ins = [self.slots.get(n) if n else None for n in node.input]
        outs = [n for n in node.output]
        if node.domain not in ("", "ai.onnx"):
            self.problems.add(node, self.opset, f"the domain {node.domain!r} is not supported")
            self._dead(outs)
            return
        if op in ("If", "Loop", "Scan") and node.domain in ("", "ai.onnx"):
            try:
                self._control(node, ins, outs, inferred)
            except Refused as e:
                self.problems.add(node, self.opset, str(e))
                self._dead(outs)
            return
        if op == "Identity" and len(ins) == 1 and ins[0] is not None and outs[0]:
            # the same value under a new name (which lets a Loop see a condition passed through)
            self.ops_used.add(op)
            self.slots[outs[0]] = ins[0]
            return
        if op in ("Shape", "Size") and ins and ins[0] is not None:
            # computed here, on the shape: known where the shape is fixed, else on the host
            self.ops_used.add(op)
            self._shape(node, ins[0], outs, attributes(node, self.what), inferred)
            return
        handler = OPS.get(op)
        if handler is None:
            why = REASONS.get(op, "no handler")
            self.problems.add(node, self.opset, why)
            self._dead(outs)
            return
        if self.opset < SINCE[op]:
            self.problems.add(node, self.opset, f"ivy_like follows {op} from opset {SINCE[op]}")
            self._dead(outs)
            return
        try:
            attrs = attributes(node, self.what)
            meta = Node(
                op_type=op,
                name=node.name,
                opset=self.opset,
                attrs=attrs,
                ins=[None if s is None else s.value for s in ins],
                outs=[inferred.get(n) if n else None for n in outs],
                known=[s.ref if s is not None and s.kind == "known" else None for s in ins],
            )
            rule = ATTRS.get(op)
            kwargs = rule(meta) if rule is not None else attrs
        except Refused as e:
            self.problems.add(node, self.opset, str(e))
            self._dead(outs)
            return
        self.ops_used.add(op)
        kinds = {s.kind for s in ins if s is not None}
        if kinds <= {"known"} and _made_large(op, ins):
            kinds = {"device"}  # a large value from a shape: made at run time, not kept twice
        if kinds <= {"known"}:
            try:
                result = run_on_numpy(handler, [None if s is None else s.ref for s in ins], kwargs)
            except Refused as e:
                self.problems.add(node, self.opset, str(e))
                self._dead(outs)
                return
            results = result if isinstance(result, tuple) else (result,)
            if not _expands(ins, results):
                for name, r in zip(outs, results):
                    if name:
                        self.slots[name] = Slot(
                            "known", r, Value(r.shape, r.dtype) if r is not None else None
                        )
                return
            kinds = {"device"}  # made at run time rather than kept twice (NumPy, device)
        host = kinds <= {"known", "host"}
        fn = self._handler_name(op, handler)
        args = [self.expr(s, host) for s in ins]
        kw = [f"{k}={self.literal(v)}" for k, v in kwargs.items()]
        call = ", ".join(args + kw)
        targets = [n and self.fresh() for n in outs]
        lhs = ", ".join(t or "_" for t in targets)
        if len(targets) == 1:
            lhs = targets[0] or "_"
        elif len(targets) > 1:
            lhs = f"{lhs}, *_"  # a handler may give optional outputs the node leaves out
        text = f"__host({fn}, {call})" if host else f"{fn}({call})"
        self.lines.append(f"    {lhs} = {text}  # {op}{_named(node)}")
        for name, t in zip(outs, targets):
            if name:
                self.slots[name] = Slot("host" if host else "device", t, inferred.get(name))

    def _shape(
        self, node: Any, src: Slot, outs: list[str], kwargs: dict[str, Any], inferred: Any
    ) -> None:
        """``Shape`` / ``Size`` of a value computed at run time: known when its shape is."""
        shape = tuple(src.ref.shape) if src.kind == "known" else static_shape(src.value)
        start, end = kwargs.get("start", 0), kwargs.get("end", None)
        if shape is not None:
            if node.op_type == "Shape":
                val = np.array(shape[start:end], dtype=np.int64)
            else:
                val = np.array(math.prod(shape), dtype=np.int64)
            self.slots[outs[0]] = Slot("known", val, Value(val.shape, val.dtype))
            return
        t = self.fresh()
        x = self.expr(src, True)
        if node.op_type == "Shape":
            self.lines.append(f"    {t} = __shape({x}, {start!r}, {end!r})  # Shape{_named(node)}")
        else:
            self.lines.append(f"    {t} = __shape({x}).prod()  # Size{_named(node)}")
        self.slots[outs[0]] = Slot("host", t, inferred.get(outs[0]))

    # -- control flow: sub-graphs as nested functions (control.py runs them) -----------------
    def body(self, graph: Any, inferred: dict[str, Value]) -> tuple[str, list[Slot], list[str]]:
        """Write ``graph`` as a nested function of its inputs; its name, its outputs' slots
        and its parameters' local names."""
        from onnx import numpy_helper

        saved_lines, saved_slots = self.lines, dict(self.slots)
        self.lines = []
        formals = []
        for vi in graph.input:
            t = self.fresh()
            formals.append(t)
            self.slots[vi.name] = Slot("device", t, value_of(vi.type))
        for init in graph.initializer:
            arr = np.array(numpy_helper.to_array(init))
            self.slots[init.name] = Slot("known", arr, Value(arr.shape, arr.dtype))
        for n in ordered(graph, set(self.slots), self.what):
            self.node(n, inferred)
        results = [self.slots[o.name] for o in graph.output]
        ret = [f"__device({r.ref})" if r.kind == "host" else self.expr(r, False) for r in results]
        self.count += 1
        name = f"body{self.count}"
        lines = [f"    def {name}({', '.join(formals)}):"]
        lines += ["    " + line for line in self.lines]
        lines.append(f"        return ({''.join(r + ', ' for r in ret)})")
        self.lines = saved_lines + lines
        self.slots = saved_slots
        return name, results, formals

    def _control(self, node: Any, ins: list[Slot | None], outs: list[str], inferred: Any) -> None:
        attrs = attributes(node, self.what)
        self.ops_used.add(node.op_type)
        op = node.op_type
        if op == "If":
            pred = ins[0]
            if pred is not None and pred.kind == "known":  # the branch is known: inline it
                branch = attrs["then_branch" if bool(pred.ref.reshape(())) else "else_branch"]
                saved = dict(self.slots)
                for n in ordered(branch, set(self.slots), self.what):
                    self.node(n, inferred)
                results = [self.slots[o.name] for o in branch.output]
                self.slots = saved
                for name, r in zip(outs, results):
                    if name:
                        self.slots[name] = r
                return
            then_name, _, _ = self.body(attrs["then_branch"], inferred)
            else_name, _, _ = self.body(attrs["else_branch"], inferred)
            self.globals["__if"] = control.run_if
            call = f"__if({self.expr(pred, False)}, {then_name}, {else_name})"
        elif op == "Loop":
            name, results, formals = self.body(attrs["body"], inferred)
            n_carried = len(node.input) - 2
            # a for loop: the body gives back its condition unchanged
            fixed = results[0].kind == "device" and results[0].ref == formals[1]
            fixed = fixed or (
                ins[1] is None and results[0].kind == "known" and bool(results[0].ref)
            )
            self.globals["__loop"] = control.run_loop
            args = [self.expr(s, False) for s in ins]
            n_scans = len(results) - 1 - n_carried
            head = f"{args[0]}, {args[1]}, {name}, {n_carried}, {n_scans}, {fixed}"
            call = f"__loop({head}, {', '.join(args[2:])})"
        else:  # Scan
            if self.opset < 9:
                raise Refused("Scan before opset 9 (batched, with sequence_lens) is not supported")
            kw = control.scan_attributes(attrs, len(node.input))
            name, _, _ = self.body(attrs["body"], inferred)
            self.globals["__scan"] = control.run_scan
            args = [self.expr(s, False) for s in ins]
            kws = ", ".join(
                self.literal(kw[k])
                for k in ("n_state", "in_axes", "in_reverse", "out_axes", "out_reverse")
            )
            call = f"__scan({name}, {kws}, {', '.join(args)})"
        targets = [n and self.fresh() for n in outs]
        lhs = "".join((t or "_") + ", " for t in targets)
        self.lines.append(f"    {lhs}*_ = {call}  # {op}{_named(node)}")
        for name, t in zip(outs, targets):
            if name:
                self.slots[name] = Slot("device", t, inferred.get(name))

    def _handler_name(self, op: str, handler: Any) -> str:
        name = f"onnx_{op}"
        self.globals.setdefault(name, handler)
        return name

    def _dead(self, outs: list[str]) -> None:
        for name in outs:
            if name:
                self.slots[name] = Slot("device", "__unsupported__")


def _made_large(op: str, ins: list[Slot | None]) -> bool:
    """A ``ConstantOfShape`` of more than ``_FOLD_LIMIT`` elements (known before it is made)."""
    if op != "ConstantOfShape" or not ins or ins[0] is None:
        return False
    return math.prod(int(d) for d in np.asarray(ins[0].ref).reshape(-1)) > _FOLD_LIMIT


def _expands(ins: list[Slot | None], results: tuple[Any, ...]) -> bool:
    """Whether a folded node made a large value from small ones (``ConstantOfShape``,
    ``Expand`` of a scalar): such a value is cheaper to make at run time than to keep."""
    made = sum(r.size for r in results if r is not None)
    given = sum(s.ref.size for s in ins if s is not None)
    return made > _FOLD_LIMIT and made > 16 * given


def _named(node: Any) -> str:
    return f" {node.name!r}" if node.name else ""


def ordered(graph: Any, known_names: set[str], what: str) -> list[Any]:
    """The graph's nodes in dependency order; a value used before any node makes it (or a
    cycle) is a ``ValueError`` naming the file."""
    producer: dict[str, int] = {}
    for i, n in enumerate(graph.node):
        for o in n.output:
            if o:
                if o in producer or o in known_names:
                    raise ValueError(f"from_onnx: {what}: the value {o!r} is produced twice")
                producer[o] = i
    deps: list[set[int]] = []
    for n in graph.node:
        d = set()
        for name in [*n.input, *_outer_names(n)]:
            if name and name in producer:
                d.add(producer[name])
            elif name and name not in known_names and name in _inputs_of(n):
                raise ValueError(
                    f"from_onnx: {what}: node {n.name or n.op_type!r} reads {name!r}, which no "
                    "node, input or initializer gives"
                )
        deps.append(d)
    order: list[int] = []
    state = [0] * len(graph.node)  # 0 new, 1 on the path, 2 done
    for start in range(len(graph.node)):
        if state[start]:
            continue
        stack = [(start, iter(sorted(deps[start])))]
        state[start] = 1
        while stack:
            i, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                state[i] = 2
                order.append(i)
            elif state[nxt] == 1:
                raise ValueError(
                    f"from_onnx: {what}: the graph has a cycle through node "
                    f"{graph.node[nxt].name or graph.node[nxt].op_type!r}"
                )
            elif state[nxt] == 0:
                state[nxt] = 1
                stack.append((nxt, iter(sorted(deps[nxt]))))
    return [graph.node[i] for i in order]


def _inputs_of(node: Any) -> set[str]:
    return {n for n in node.input if n}


def _outer_names(node: Any) -> list[str]:
    """The names a node's sub-graphs read from the enclosing graph (If, Loop, Scan)."""
    from onnx import AttributeProto

    names: list[str] = []
    for a in node.attribute:
        graphs = [a.g] if a.type == AttributeProto.GRAPH else list(a.graphs)
        for g in graphs:
            local = {i.name for i in g.input} | {t.name for t in g.initializer}
            for n in g.node:
                local |= set(n.output)
            for n in g.node:
                names += [x for x in n.input if x and x not in local]
                names += [x for x in _outer_names(n) if x not in local]
    return names


def generate(writer: Writer, inputs: list[str], outputs: list[str], name: str) -> Generated:
    """The generated function ``name(__P, __C, __U)`` of the lines written."""
    head = [f"def {name}(__P, __C, __U):"]
    if inputs:
        head.append(f"    {', '.join(writer.slots[n].ref for n in inputs)}, = __U")
    if writer.params:
        head.append(f"    {', '.join(writer.weight(k) for k in writer.params)}, = __P")
    results = []
    for o in outputs:
        slot = writer.slots[o]
        if slot.kind == "host":
            results.append(f"__device({slot.ref})")
        else:
            results.append(writer.expr(slot, False))
    body = head + writer.lines + [f"    return ({''.join(r + ', ' for r in results)})"]
    code = "\n".join(body) + "\n"
    where = f"from_onnx {name}"
    fn = compile_generated(code, name, writer.globals, where)
    return Generated(fn, code, list(writer.params), writer.constants, where)


def unsupported_error(writer: Writer) -> UnsupportedOpError:
    items = writer.problems.items
    return UnsupportedOpError(
        f"from_onnx: {writer.what}: {len(items)} node{'s' if len(items) != 1 else ''} cannot be "
        "converted:\n  "
        + "\n  ".join(items)
        + f"\nsupported operators: {', '.join(supported_ops())}"
    )

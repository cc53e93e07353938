"""Capturing a PyTorch model: ``torch.export`` to one generated ivy_like function.

:func:`capture` exports the module (in eval mode), functionalizes it (and decomposes the ops
the table of :mod:`~ivy_like.convert.torch.aten` lacks into ones it has) when needed, checks
every node against that table, and generates one Python function for the whole graph: a line
per node, calling the node's ivy_like function, with the ATen op and the module it came from
in a comment. The source is compiled through ``core.codegen``, so a traceback through a
converted model shows the node.

The shapes are fixed at capture, which the function uses: what depends on no input and no
parameter (GPT-2's causal mask and position ids) is computed once, then kept as constants;
nodes that change nothing on those shapes (a view to the same shape, a cast to the same dtype)
give their input back, reshapes and transposes get their static arguments, ``addmm`` runs as
one ``linear`` (without the views around it), and attention with a constant mask and indexing
with constant indices skip the work that only the values of the mask or indices decide. With
dynamic dimensions, what depends on the sizes and constants alone is computed once per tuple
of sizes instead (``sized.py``). The
result is a :class:`~ivy_like.convert.torch.graph_model.GraphModel`. Control flow
(``torch.cond``, ``torch.while_loop``, ``scan``) keeps its sub-graphs as nested functions run by
``ivy_like.cond``/``while_loop``/``scan`` (``control.py``). Only :func:`capture` imports torch
(when called).
"""

from __future__ import annotations

import collections
import math
import operator
import re
import warnings
from collections.abc import Mapping
from typing import Any

import ivy_like as il

from ...container import Container
from ...container._leaves import exact_numpy
from ...core.backend import activate, current_backend, deactivate, get_backend
from .._captured import Generated, SizedValues, compile_generated, constant
from .._casts import cast
from .._errors import UnsupportedOpError
from .._weights import move
from . import aten as _aten
from .control import check_higher_order, emit_higher_order, is_higher_order
from .dims import dynamic_dims, input_sizes, named_dims, readable_error, symbol_names
from .graph_model import GraphModel, describe_tree
from .sized import sized_nodes, write_sized


# -- capture -----------------------------------------------------------------------------------
def _module_of(node: Any) -> str:
    stack = node.meta.get("nn_module_stack")
    if not stack:
        return "the top-level module"
    path, cls = list(stack.values())[-1]
    name = cls if isinstance(cls, str) else f"{cls.__module__}.{cls.__qualname__}"
    return f"module {path or '(root)'!r} ({name})"


def _op_name(target: Any) -> str:
    if target is operator.getitem:
        return "getitem"
    if is_higher_order(target):
        return f"higher_order.{target.name()}"
    return str(target) if hasattr(target, "_schema") else getattr(target, "__name__", repr(target))


def _unsupported(node: Any, why: str = "") -> UnsupportedOpError:
    op = _op_name(node.target)
    reason = f" ({why})" if why else ""
    hint = _aten.REASONS.get(op)
    if not why and _is_mutating(node.target):
        hint = "an in-place op, left because torch could not functionalize this graph"
    if hint and not why:
        reason = f" ({hint})"
    return UnsupportedOpError(
        f"from_torch: ATen op {op} (node {node.name!r}, in {_module_of(node)}) is not "
        f"supported{reason}; supported ATen ops: {', '.join(_aten.supported_ops())}"
    )


def _data_dependent(err: BaseException) -> bool:
    names = {c.__name__ for c in type(err).__mro__}
    marks = {"GuardOnDataDependentSymNode", "DataDependentOutputException"}
    text = str(err).lower()
    return bool(names & marks) or "data-dependent" in text or "data dependent" in text


def _user_frame(err: BaseException) -> str:
    """The user's line torch names after "The following call raised this error:"."""
    text = str(err)
    mark = "The following call raised this error:"
    if mark not in text:
        return ""
    lines = [ln.strip() for ln in text.split(mark, 1)[1].strip().splitlines()[:2]]
    return f" at {' : '.join(lines)}" if lines else ""


def _export(
    module: Any, args: tuple[Any, ...], kwargs: dict[str, Any], dynamic_shapes: Any = None
) -> Any:
    import torch

    modes = [(m, m.training) for m in module.modules()]
    module.eval()
    try:
        with warnings.catch_warnings():
            # torch's notice about nn.LSTM's internal weight list, which export handles
            warnings.filterwarnings("ignore", "The tensor attributes .*_flat_weights")
            return torch.export.export(module, args, kwargs, dynamic_shapes=dynamic_shapes)
    except torch._dynamo.exc.UserError as err:
        text = readable_error(str(err))
        fixed = re.findall(r"You marked (\S+) as dynamic but your code specialized it", text)
        if not fixed and "dynamic_shapes" not in text and "Constraints violated" not in text:
            raise
        what = (
            f"the model fixes the dynamic dimension(s) {', '.join(map(repr, fixed))} at the "
            f"example's size (a size read as an int, a reshape to fixed sizes, or a size of 1 "
            f"in the example, which torch specializes)"
            if fixed
            else text
        )
        raise ValueError(f"from_torch: dynamic_shapes: {what}") from None
    except Exception as err:
        if _data_dependent(err):
            raise UnsupportedOpError(
                f"from_torch: {type(module).__name__}.forward has data-dependent control flow "
                f"(a Python branch or loop on tensor values, or an output whose shape depends "
                f"on them){_user_frame(err)}; torch.export cannot capture one graph for it. "
                f"Write it with torch.cond / torch.while_loop (converted to ivy_like.cond / "
                f"while_loop), compute both branches and select with torch.where, or move "
                f"the decision out of the model."
            ) from err
        unknown = re.search(r"Found (<class '[^']+'>|\S+) in (input|output)", str(err))
        if unknown is not None:
            raise UnsupportedOpError(
                f"from_torch: {type(module).__name__}.forward takes or returns a "
                f"{unknown.group(1).strip('<>').removeprefix('class ')} ({unknown.group(2)}), "
                f"which torch.export cannot flatten into tensors; supported: tensors, None, "
                f"tuples, lists, namedtuples and dicts. (A transformers model returns its "
                f"key/value cache so: build it with use_cache=False.)"
            ) from err
        raise
    finally:
        for m, training in modes:
            m.training = training


# Python arithmetic on dynamic sizes (SymInts), which torch.export records as calls of these
# functions: written as Python expressions, on the sizes read at run time.
_SIZE_EXPRESSIONS: dict[Any, str] = {
    operator.add: "{} + {}",
    operator.sub: "{} - {}",
    operator.mul: "{} * {}",
    operator.floordiv: "{} // {}",
    operator.mod: "{} % {}",
    operator.truediv: "{} / {}",
    operator.neg: "-{}",
    operator.eq: "{} == {}",
    operator.ne: "{} != {}",
    operator.lt: "{} < {}",
    operator.le: "{} <= {}",
    operator.gt: "{} > {}",
    operator.ge: "{} >= {}",
    math.ceil: "math.ceil({})",
    math.floor: "math.floor({})",
}


def _size_expression(target: Any) -> str | None:
    """The Python expression computing a size node (``sym_size * 16``), or None."""
    import torch

    if not _SIZE_EXPRESSIONS.get(torch.sym_max):
        _SIZE_EXPRESSIONS.update(
            {
                torch.sym_max: "max({}, {})",
                torch.sym_min: "min({}, {})",
                torch.sym_float: "float({})",
                torch.sym_int: "int({})",
                torch.sym_not: "(not {})",
            }
        )
    try:
        return _SIZE_EXPRESSIONS.get(target)
    except TypeError:  # an unhashable target: not one of these
        return None


def _graphs(ep: Any) -> list[Any]:
    """The exported program's graph and the sub-graphs of its control flow."""
    import torch

    return [m.graph for m in ep.graph_module.modules() if isinstance(m, torch.fx.GraphModule)]


def _graph_ops(ep: Any) -> list[Any]:
    return [n.target for g in _graphs(ep) for n in g.nodes if n.op == "call_function"]


def _unknown(ep: Any) -> set[Any]:
    return {
        t
        for t in _graph_ops(ep)
        if t is not operator.getitem
        and not is_higher_order(t)
        and _op_name(t) not in _aten.ATEN
        and _size_expression(t) is None
    }


def _is_mutating(target: Any) -> bool:
    schema = getattr(target, "_schema", None)
    return bool(schema is not None and schema.is_mutable)


def _prepare(ep: Any) -> Any:
    """``ep`` functionalized when it mutates, with the ops the table lacks decomposed.

    torch.export keeps high-level ops (linear, conv2d, layer_norm, scaled_dot_product_attention,
    lstm) and in-place ones; the table maps the fused ops directly (faster than their
    decompositions), so only the ops it lacks are decomposed, with torch's own rules.
    """
    import torch

    unknown = _unknown(ep)
    mutating = any(_is_mutating(t) for t in _graph_ops(ep))
    if not unknown and not mutating:
        return ep
    defaults = torch.export.default_decompositions()
    if not mutating and not any(op in defaults for op in unknown):
        return ep  # nothing torch could decompose: the error names the op
    table: dict[Any, Any] = {}
    best = ep
    for _ in range(4):
        table.update({op: defaults[op] for op in unknown if op in defaults})
        try:
            best = ep.run_decompositions(table)
        except Exception:  # noqa: BLE001 - a failed decomposition leaves the ops to be named
            return best
        unknown = _unknown(best)
        if not unknown or not any(op in defaults and op not in table for op in unknown):
            return best
    return best


_TORCH_DTYPES: dict[Any, Any] = {}


def _dtype(d: Any) -> Any:
    """An ivy_like dtype for a ``torch.dtype``."""
    hit = _TORCH_DTYPES.get(d)
    if hit is None:
        hit = il.as_dtype(str(d).removeprefix("torch."))
        _TORCH_DTYPES[d] = hit
    return hit


def _meta(node: Any) -> Any:
    val = node.meta.get("val")
    return val if hasattr(val, "dtype") and hasattr(val, "shape") else None


def _static(shape: Any) -> tuple[int, ...] | None:
    """``shape`` as ints, or None when a dimension is dynamic (a SymInt: ``int()`` of it would
    give the example's size and fix it silently)."""
    import torch

    if any(isinstance(d, torch.SymInt) for d in shape):
        return None
    return tuple(int(d) for d in shape)


def _sizes(shape: Any) -> tuple[int | None, ...]:
    """``shape`` with None for each dynamic dimension (what the checks and the calls see)."""
    import torch

    return tuple(None if isinstance(d, torch.SymInt) else int(d) for d in shape)


def _same_dims(a: Any, b: Any) -> bool:
    """Whether two shapes are the same for every size of the dynamic dimensions: equal ints,
    or the same expression of the same symbols (never decided on the example's sizes)."""
    return len(a) == len(b) and all(str(x) == str(y) for x, y in zip(a, b))


class _Writer:
    """The source of the generated function, and the objects its names refer to."""

    def __init__(self, taken: set[str]) -> None:
        self.lines: list[str] = []
        self.globals: dict[str, Any] = {}
        self.names: dict[Any, str] = {}  # Node -> variable
        self._taken = taken  # the graph's node names, which globals must not shadow
        self._refs: dict[Any, str] = {}

    def ref(self, obj: Any, hint: str = "") -> str:
        """A name for ``obj`` in the function's globals (the same name for the same object):
        ``hint`` made unique (``aten_add_Tensor`` for a handler), else ``__k<n>``."""
        key = hint or id(obj)
        hit = self._refs.get(key)
        if hit is not None:
            return hit
        name = hint or f"__k{len(self.globals)}"
        while name in self._taken or name in self.globals:
            name += "_"
        self.globals[name] = obj
        self._refs[key] = name
        return name

    def literal(self, v: Any) -> str:
        import torch

        if isinstance(v, torch.fx.Node):
            return self.names[v]
        if v is None or isinstance(v, (bool, int, str)):
            return repr(v)
        if isinstance(v, float):
            return repr(v) if math.isfinite(v) else self.ref(v)
        if isinstance(v, list):
            return "[" + ", ".join(self.literal(x) for x in v) + "]"
        if isinstance(v, tuple):
            return "(" + "".join(self.literal(x) + ", " for x in v) + ")"
        if isinstance(v, torch.dtype):
            return self.ref(_dtype(v), _dtype(v).name)
        if isinstance(v, (torch.device, torch.layout, torch.memory_format)):
            return "None"  # arrays live on their backend's device
        return self.ref(v)


def _promote(node: Any, w: _Writer, args: list[Any]) -> list[Any]:
    """Cast the tensor arguments of a promoting op to the dtype torch computes in."""
    import torch

    positions = _aten.PROMOTE[_op_name(node.target)]
    out = _meta(node)
    tensors = []
    for p in positions:
        if p < len(args):
            group = args[p] if isinstance(args[p], (list, tuple)) else [args[p]]
            tensors += [a for a in group if isinstance(a, torch.fx.Node) and _meta(a) is not None]
    if out is None or not tensors:
        return args
    target = out.dtype
    if target == torch.bool and len(positions) >= 2:  # a comparison: the operands' common type
        probes = []
        for p in positions[:2]:
            a = args[p] if p < len(args) else None
            m = _meta(a) if isinstance(a, torch.fx.Node) else None
            if m is not None:
                probes.append(torch.empty((1,) * min(m.dim(), 1), dtype=m.dtype))
            elif isinstance(a, (bool, int, float)):
                probes.append(a)
        if len(probes) == 2:
            target = torch.result_type(*probes)
    casts = {}
    for a in tensors:
        if _meta(a).dtype != target and a not in casts:
            name = f"{w.names[a]}_as_{str(target).removeprefix('torch.')}"
            dtype = w.ref(_dtype(target), _dtype(target).name)
            w.lines.append(f"    {name} = __cast({w.names[a]}, {dtype})")
            casts[a] = name

    def swap(v: Any) -> Any:
        if isinstance(v, (list, tuple)):
            return type(v)(swap(x) for x in v)
        return _Cast(casts[v]) if v in casts else v

    return [swap(a) if i in positions else a for i, a in enumerate(args)]


class _Cast:
    """An argument replaced by the name of its cast."""

    def __init__(self, name: str) -> None:
        self.name = name


def _meta_args(v: Any) -> Any:
    import torch

    if isinstance(v, torch.fx.Node):
        m = _meta(v)
        if m is None:
            return v
        return _aten.TensorMeta(_sizes(m.shape), str(m.dtype).removeprefix("torch."))
    if isinstance(v, (list, tuple)):
        return type(v)(_meta_args(x) for x in v)
    if isinstance(v, torch.dtype):
        return _dtype(v)
    return v


def _attention_rows_attend(node: Any, known: Mapping[Any, Any]) -> bool:
    """Whether an attention node's boolean mask is a constant letting every query attend to
    some key (no row for the handler to guard: torch's zeros for such rows cannot arise)."""
    import torch

    names = ("q", "k", "v", "attn_mask", "dropout_p", "is_causal")
    bound = dict(zip(names, node.args)) | dict(node.kwargs)
    mask = bound.get("attn_mask")
    if bound.get("is_causal") or mask not in known or known[mask].dtype != torch.bool:
        return False
    q, k = _meta(bound["q"]), _meta(bound["k"])
    if q is None or k is None:
        return False
    # A dynamic size counts as 1: a constant mask has size 1 there (torch.export would have
    # fixed the size otherwise), and rows repeated along it attend as the one row does.
    scores = tuple(1 if d is None else d for d in _sizes((*q.shape[:-1], k.shape[-2])))
    try:
        full = torch.broadcast_to(known[mask], scores)
    except RuntimeError:
        return False
    return bool(full.any(-1).all())


_RESHAPES = frozenset(
    (
        "aten.view.default",
        "aten._unsafe_view.default",
        "aten.reshape.default",
        "aten.view_copy.default",
    )
)
# Ops giving their input back when the captured shapes and dtypes in and out agree.
_SAME_WHEN_EQUAL = _RESHAPES | {
    "aten.expand.default",
    "aten.slice.Tensor",
    "aten._to_copy.default",
    "aten.to.dtype_layout",
    "aten.to.dtype",
    "aten.to.device",
    "aten.type_as.default",
}


def _static_call(node: Any, op: str, w: _Writer) -> str | None:
    """The value of ``node`` without its handler, where the captured shapes decide it: its
    input (a reshape to the same shape, a cast to the same dtype, a full slice...), or an
    ivy_like op with arguments worked out here (a reshape to the static shape, a transpose's
    axes); None for the handler."""
    import torch

    src = node.args[0] if node.args else None
    if op not in _SAME_WHEN_EQUAL and op != "aten.transpose.int":
        return None
    m_in, m_out = (_meta(src) if isinstance(src, torch.fx.Node) else None), _meta(node)
    if m_in is None or m_out is None:
        return None
    if op in _SAME_WHEN_EQUAL and _same_dims(m_in.shape, m_out.shape) and m_in.dtype == m_out.dtype:
        return w.names[src]
    shape = _static(m_out.shape)
    if op in _RESHAPES and shape is not None:
        return f"{w.ref(il.reshape, 'il_reshape')}({w.names[src]}, {shape!r})"
    if op in _RESHAPES and len(node.args) > 1 and isinstance(node.args[1], (list, tuple)):
        # The sizes the capture knows go with a reshape beside dynamic ones (a reshape to
        # (batch, seq, -1) gives (batch, seq, 32)), for a TensorFlow graph, which cannot work
        # out a -1 beside unknown sizes. The -1 stays: torch.export would otherwise guard on
        # the strides of the batch (batch > 1).
        handler = w.ref(_aten.ATEN[op], op.replace(".", "_"))
        return f"{handler}({w.names[src]}, {w.literal(node.args[1])}, {_sizes(m_out.shape)!r})"
    ndim = len(m_out.shape)
    if op == "aten.transpose.int" and ndim:
        axes = list(range(ndim))
        a, b = (d % ndim for d in node.args[1:3])
        axes[a], axes[b] = axes[b], axes[a]
        return f"{w.ref(il.permute_dims, 'il_permute_dims')}({w.names[src]}, {tuple(axes)!r})"
    return None


def _sized_mask(node: Any, sized_frontier: list[Any]) -> Any:
    """The boolean mask of an attention node when it is computed once per size, else None."""
    if node.op != "call_function" or _op_name(node.target) != (
        "aten.scaled_dot_product_attention.default"
    ):
        return None
    names = ("q", "k", "v", "attn_mask", "dropout_p", "is_causal")
    bound = dict(zip(names, node.args)) | dict(node.kwargs)
    mask = bound.get("attn_mask")
    m = _meta(mask) if mask in sized_frontier else None
    if bound.get("is_causal") or m is None or str(m.dtype) != "torch.bool":
        return None
    return mask


def _linear_rewrites(graph: Any, folded: set[Any]) -> tuple[dict[Any, tuple[Any, ...]], set[Any]]:
    """``addmm`` nodes (``bias + x @ w``, PyTorch's ``Linear`` and transformers' ``Conv1D``) run
    as one ``linear``: the node -> its (x, w, bias) nodes, and the nodes no longer computed.

    When ``x`` comes through a view flattening ``(*lead, in)`` to 2-D and the result goes
    through one view back to ``(*lead, out)``, both views go: that last view becomes the
    ``linear`` of the unflattened input (what ``Linear`` on a 3-D input is in PyTorch).
    """
    rewrites: dict[Any, tuple[Any, ...]] = {}
    skipped: set[Any] = set()
    for node in graph.nodes:
        is_addmm = node.op == "call_function" and _op_name(node.target) == "aten.addmm.default"
        if not is_addmm or node in folded:
            continue
        if len(node.args) != 3 or any(v != 1 for v in node.kwargs.values()):
            continue  # beta or alpha scale a term
        bias, x, weight = node.args
        mb, mx, mw, mo = (_meta(a) if hasattr(a, "meta") else None for a in (bias, x, weight, node))
        if mb is None or mx is None or mw is None or mo is None:
            continue
        metas = (mb, mx, mw, mo)
        if len({m.dtype for m in metas}) != 1 or not mo.dtype.is_floating_point:
            continue
        if mx.dim() != 2 or mw.dim() != 2 or tuple(mb.shape) != (mw.shape[1],):
            continue
        src, users = x.args[0] if x.args else None, list(node.users)
        ms = _meta(src) if hasattr(src, "meta") else None
        unflat = users[0] if len(users) == 1 else None
        mu = _meta(unflat) if unflat is not None else None
        if (
            _op_name(x.target) in _RESHAPES
            and x not in folded
            and len(x.users) == 1
            and ms is not None
            and ms.dim() >= 2
            and unflat is not None
            and unflat.op == "call_function"
            and _op_name(unflat.target) in _RESHAPES
            and mu is not None
            and _same_dims(mu.shape, (*ms.shape[:-1], mw.shape[1]))
        ):
            rewrites[unflat] = (src, weight, bias)
            skipped |= {x, node}
        else:
            rewrites[node] = (x, weight, bias)
    return rewrites, skipped


def _known_index(node: Any, known: Mapping[Any, Any]) -> tuple[Any, int, int, Any] | None:
    """For an ``index`` node whose index arrays are integer constants folded at capture (on
    consecutive axes): their flattened row numbers (a torch tensor), the first indexed axis,
    how many axes are indexed and the arrays' broadcast shape; None otherwise."""
    import torch

    if _op_name(node.target) != "aten.index.Tensor" or len(node.args) != 2:
        return None
    x, indices = node.args
    mx = _meta(x) if hasattr(x, "meta") else None
    used = [i for i, t in enumerate(indices) if t is not None]
    if mx is None or not used or used != list(range(used[0], used[-1] + 1)):
        return None
    ints = (torch.int64, torch.int32, torch.int16, torch.int8)
    found = [known.get(indices[i]) for i in used]
    if any(a is None or a.dtype not in ints for a in found):
        return None
    first, k = used[0], len(used)
    sizes = _static(mx.shape[first : first + k])  # the other axes may be dynamic
    if sizes is None:
        return None
    arrays = list(torch.broadcast_tensors(*found))
    flat = torch.zeros((), dtype=torch.int64)
    for arr, size in zip(arrays, sizes):
        flat = flat * size + torch.where(arr < 0, arr + int(size), arr).to(torch.int64)
    return flat.reshape(-1), first, k, tuple(int(s) for s in arrays[0].shape)


def _emit_call(
    node: Any, w: _Writer, known: Mapping[Any, Any] | None = None, rows: str = ""
) -> None:
    """The line of ``node``; ``known`` gives the values of the nodes folded at capture;
    ``rows``, for an attention whose mask is computed once per size, names the flag saying
    whether that mask lets every query attend (then the unguarded attention runs)."""
    op = _op_name(node.target)
    expression = _size_expression(node.target)
    if expression is not None:
        value = expression.format(*(w.literal(a) for a in node.args))
        if "math." in value:
            w.globals.setdefault("math", math)
        w.lines.append(f"    {node.name} = {value}  # {op} of dynamic sizes")
        return
    if node.target is operator.getitem:
        src, i = node.args
        produced = _aten.OUTPUTS.get(_op_name(src.target))
        if produced is not None and i not in produced:
            if not node.users:
                return  # an entry the graph picks out but never reads
            raise _unsupported(src, f"its output {i} is not computed, only {list(produced)}")
        w.lines.append(f"    {node.name} = {w.names[src]}[{i}]")
        return
    fn = _aten.ATEN.get(op)
    if fn is None:
        raise _unsupported(node)
    name = op.replace(".", "_")
    if fn is _aten.scaled_dot_product_attention and known and _attention_rows_attend(node, known):
        fn, name = _aten.attention_rows_attend, "attention_rows_attend"
    check = _aten.CHECKS.get(op)
    if check is not None:
        why = check(*_meta_args(list(node.args)), **_meta_args(dict(node.kwargs)))
        if why:
            raise _unsupported(node, why)
    where = f"# {op}, {_module_of(node)}"
    if fn is _aten.no_op and not node.users:
        return  # a check of what the capture fixed (dtype, device): nothing to run
    if fn in (_aten.identity, _aten.dropout):  # a copy or an inactive dropout: the same value
        w.lines.append(f"    {node.name} = {w.literal(node.args[0])}  {where}")
        return
    static = _static_call(node, op, w)
    if static is not None:
        w.lines.append(f"    {node.name} = {static}  {where}")
        return
    args = list(node.args)
    kwargs = dict(node.kwargs)
    if op in _aten.CREATION and _meta(node) is not None:
        kwargs["dtype"] = _meta(node).dtype
    if op in _aten.PROMOTE:
        args = _promote(node, w, args)

    def lit(v: Any) -> str:
        if isinstance(v, _Cast):
            return v.name
        if isinstance(v, (list, tuple)) and any(isinstance(x, _Cast) for x in v):
            inner = ", ".join(lit(x) for x in v)
            return f"[{inner}]" if isinstance(v, list) else f"({inner},)"
        return w.literal(v)

    parts = [lit(a) for a in args] + [f"{k}={lit(v)}" for k, v in kwargs.items()]
    handler = w.ref(fn, name)
    if rows and fn is _aten.scaled_dot_product_attention:
        plain = w.ref(_aten.attention_rows_attend, "attention_rows_attend")
        handler = f"({plain} if {rows} else {handler})"
    w.lines.append(f"    {node.name} = {handler}({', '.join(parts)})  {where}")


# A value folded at capture is kept as a constant on every backend it runs on: a bigger one is
# computed at run time instead (from the smaller constants it is made of).
FOLD_LIMIT = 1 << 22  # elements


def _foldable_op(target: Any) -> bool:
    """Whether a node of ``target`` computes the same value on every call from the same
    inputs (no random numbers, no mutation) with a handler of the table."""
    import torch

    if target is operator.getitem:
        return True
    if is_higher_order(target):
        return False  # control flow is run, never folded
    tags = getattr(target, "tags", ())
    if torch.Tag.nondeterministic_seeded in tags or _is_mutating(target):
        return False
    return _op_name(target) in _aten.ATEN


def _folded(graph: Any, sources: set[Any]) -> tuple[set[Any], list[Any]]:
    """The nodes computed from the graph's constants alone (``sources``, and creation ops
    such as ``arange``), and among them those the rest of the graph reads (the frontier).

    A frontier value must be one tensor of at most :data:`FOLD_LIMIT` elements and no output
    of the graph (a caller may write into an output; a shared constant must stay intact);
    otherwise it is computed at run time, from its own inputs, which become the frontier.
    """
    excluded: set[Any] = set()
    while True:
        folded = set(sources)
        for node in graph.nodes:
            if node.op != "call_function" or node in excluded or not _foldable_op(node.target):
                continue
            if all(n in folded for n in node.all_input_nodes):
                folded.add(node)
        frontier, bad = [], set()
        for node in graph.nodes:
            if node.op != "call_function" or node not in folded:
                continue
            readers = [u for u in node.users if u not in folded]
            if not readers:
                continue
            m = _meta(node)
            if m is None or m.numel() > FOLD_LIMIT or any(u.op == "output" for u in readers):
                bad.add(node)
            else:
                frontier.append(node)
        if not bad:
            return folded, frontier
        excluded |= bad


def _fold(
    w: _Writer, lines: list[str], constants: list[tuple[Any, Any]], frontier: list[Any]
) -> list[Any]:
    """The frontier's values: the folded nodes' ``lines`` run once, by ivy_like on torch (the
    same handlers as at run time, so the same values), as torch tensors."""
    code = "def fold(__C):\n" + "\n".join(lines) + "\n"
    code += f"    return [{', '.join(w.names[n] for n in frontier)}]\n"
    fold = compile_generated(code, "fold", w.globals, f"from_torch constants at {id(w):x}")
    torch_backend = get_backend("torch")
    tokens = activate(torch_backend)
    try:
        values = fold([constant(a, d, torch_backend) for a, d in constants])
    finally:
        if tokens is not None:
            deactivate(tokens)
    return [il.to_native(v) for v in values]


def capture(
    module: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    backend: Any,
    copy: bool,
    dynamic_shapes: Any = None,
) -> GraphModel:
    """Export ``module`` with the example inputs and build its :class:`GraphModel`."""
    from torch.export.graph_signature import InputKind, OutputKind

    ep = _prepare(_export(module, args, kwargs, dynamic_shapes))
    for g in _graphs(ep):
        for node in g.nodes:
            if node.op == "call_function" and is_higher_order(node.target):
                check_higher_order(node, _module_of(node))
    sig = ep.graph_signature
    graph = ep.graph_module.graph
    target = current_backend() if backend is None else get_backend(backend)
    w = _Writer({n.name for g in _graphs(ep) for n in g.nodes})
    w.globals["__cast"] = cast

    # Tied weights are one tensor under several state_dict names: one leaf, the first name.
    canonical: dict[int, str] = {}
    aliases: dict[str, list[str]] = {}
    for name, t in ep.state_dict.items():
        first = canonical.setdefault(id(t), name)
        aliases.setdefault(first.replace(".", "/"), []).append(name)

    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    weights: dict[str, Any] = {}
    param_keys: list[str] = []
    constants: list[tuple[Any, Any]] = []
    graph_constants: list[tuple[Any, Any, Any]] = []  # (node, NumPy array, dtype)
    torch_backend = get_backend("torch")
    n_user = 0
    input_values: dict[int, Any] = {}
    input_shapes: dict[int, tuple[int | None, ...]] = {}
    dynamic: list[tuple[Any, ...]] = []
    names = symbol_names(ep)  # torch's symbols (s43) -> the user's Dim names
    for node, spec in zip(placeholders, sig.input_specs):
        w.names[node] = node.name
        used = bool(node.users)
        if spec.kind == InputKind.USER_INPUT:
            if spec.arg.__class__.__name__ != "TensorArgument":
                input_values[n_user] = getattr(spec.arg, "value", None)
            elif _meta(node) is not None:
                shape = _meta(node).shape
                dynamic += dynamic_dims(ep, names, n_user, shape, f"input {n_user}")
                input_shapes[n_user] = input_sizes(shape)
            w.lines.append(f"    {node.name} = __U[{n_user}]")
            n_user += 1
            continue
        if spec.kind in (InputKind.PARAMETER, InputKind.BUFFER) and spec.target in ep.state_dict:
            tensor = ep.state_dict[spec.target]
            kc = canonical[id(tensor)].replace(".", "/")
            if spec.kind == InputKind.BUFFER and not used:
                continue  # a buffer the graph never reads (num_batches_tracked in eval)
            if kc not in weights:
                t = tensor.detach()
                weights[kc] = t.clone() if copy else t
                param_keys.append(kc)
            if used:
                w.lines.append(f"    {node.name} = __P[{param_keys.index(kc)}]")
            continue
        if spec.kind in (InputKind.BUFFER, InputKind.CONSTANT_TENSOR):
            if used:
                value = ep.constants[spec.target]
                graph_constants.append((node, *exact_numpy(torch_backend, value.detach())))
            continue
        raise UnsupportedOpError(
            f"from_torch: graph input {node.name!r} is a {spec.kind.name.lower()} "
            f"(script objects and effect tokens are not supported)"
        )

    output = next(n for n in graph.nodes if n.op == "output")
    for spec in sig.output_specs:
        if spec.kind != OutputKind.USER_OUTPUT:
            raise UnsupportedOpError(
                f"from_torch: the model writes to {spec.target!r} in forward "
                f"({spec.kind.name.lower()}; e.g. BatchNorm statistics in training mode); "
                f"capture it in eval mode"
            )

    # What depends on no input and no parameter (GPT-2's causal mask and position ids) is
    # computed once, here, and becomes constants of the graph.
    folded, frontier = _folded(graph, {c[0] for c in graph_constants})
    known: dict[Any, Any] = {}  # frontier node -> its value (a torch tensor)
    exact: dict[Any, tuple[Any, Any]] = {}  # frontier node -> (NumPy array, dtype)
    if frontier:
        fold_lines = [f"    {c[0].name} = __C[{i}]" for i, c in enumerate(graph_constants)]
        main_lines, w.lines = w.lines, fold_lines
        for node in graph.nodes:
            if node.op == "call_function" and node in folded:
                w.names[node] = node.name
                _emit_call(node, w)
        w.lines = main_lines
        try:
            values = _fold(w, fold_lines, [c[1:] for c in graph_constants], frontier)
            exact = {n: exact_numpy(torch_backend, v) for n, v in zip(frontier, values)}
        except Exception:  # noqa: BLE001 - computed at run time then, where it fails as before
            folded, frontier = {c[0] for c in graph_constants}, []
        else:
            known = dict(zip(frontier, values))
    constant_of: dict[Any, int] = {}  # node -> its index in __C
    for node, arr, dtype in graph_constants:
        if any(u not in folded for u in node.users):
            w.lines.append(f"    {node.name} = __C[{len(constants)}]")
            constant_of[node] = len(constants)
            constants.append((arr, dtype))

    # With dynamic dimensions, what depends on the sizes and constants alone is computed once
    # per tuple of sizes (sized.py) rather than on every call.
    symbols = list(dict.fromkeys(str(d[2]) for d in dynamic))
    sizes, sized, sized_frontier = (
        sized_nodes(
            graph,
            folded,
            symbols,
            _op_name,
            lambda t: _size_expression(t) is not None,
            _foldable_op,
        )
        if symbols
        else ([], set(), [])
    )
    read_at: dict[str, tuple[Any, Any]] = {}  # symbol -> the (input, axis) the graph reads
    for node in sizes:
        if _op_name(node.target) == "aten.sym_size.int":
            read_at.setdefault(str(node.meta["val"]), tuple(node.args[:2]))
    symbols = [s for s in symbols if s in read_at]
    flags: dict[Any, str] = {}  # attention node -> its flag (__s[k]): its mask's rows attend
    if sized_frontier:
        for node in graph.nodes:
            mask = _sized_mask(node, sized_frontier)
            if mask is not None:
                flags[node] = f"__s[{len(sized_frontier) + len(flags)}]"
                w.globals.setdefault("__rows_attend", _aten.rows_attend)
        for node in graph.nodes:
            if node in known and any(u in sized for u in node.users):
                constant_of[node] = len(constants)
                constants.append(exact[node])
        lines = write_sized(
            w,
            sizes,
            sized,
            sized_frontier,
            symbols,
            constant_of,
            lambda n, w: _emit_call(n, w, known),
            graph,
            [_sized_mask(node, sized_frontier) for node in flags],
        )
        title = f"from_torch {type(module).__name__} sizes at {id(w):x}"
        function = compile_generated("\n".join(lines) + "\n", "sized", w.globals, title)
        w.globals["__sized"] = SizedValues(function)
        # each size read where the graph reads it (under torch.export two inputs' sizes of
        # one Dim are two symbols: mixing them would add guards to the artifact)
        read = w.ref(_aten.ATEN["aten.sym_size.int"], "aten_sym_size_int")
        at = "".join(f"{read}({w.literal(read_at[s][0])}, {read_at[s][1]}), " for s in symbols)
        w.lines.append(f"    __s = __sized(__C, ({at}))  # computed once per size")
    else:
        sized = set()

    rewrites, skipped = _linear_rewrites(graph, folded | sized)
    reads: dict[Any, Any] = dict(rewrites)  # what a rewritten node reads instead of its inputs
    index_plans = {}
    for node in graph.nodes:
        plan = (
            None
            if node in folded or node in skipped or node in sized
            else _known_index(node, known)
        )
        if plan is not None:
            index_plans[node] = plan
            reads[node] = (node.args[0],)
    ops: set[str] = set()
    last_use: dict[Any, Any] = {}
    for node in graph.nodes:
        if node not in folded and node not in skipped and node not in sized:
            for used in reads.get(node, node.all_input_nodes):
                last_use[used] = node
    dead: dict[Any, list[str]] = collections.defaultdict(list)
    for value, user in last_use.items():
        if user.op != "output":
            dead[user].append(value.name)
    for sub in _graphs(ep)[1:]:  # the ATen ops of control flow's sub-graphs
        ops.update(
            _op_name(n.target)
            for n in sub.nodes
            if n.op == "call_function"
            and n.target is not operator.getitem
            and _size_expression(n.target) is None
        )
    for node in graph.nodes:
        if node.op != "call_function":
            continue
        w.names[node] = node.name
        if node.target is not operator.getitem and _size_expression(node.target) is None:
            ops.add(_op_name(node.target))
        if node in known:
            if node in last_use:  # else only read through what was worked out from it
                where = f"# {_op_name(node.target)}, {_module_of(node)}, folded at capture"
                w.lines.append(f"    {node.name} = __C[{len(constants)}]  {where}")
                constants.append(exact[node])
        elif node in sized:
            if node in sized_frontier:
                where = f"# {_op_name(node.target)}, {_module_of(node)}, once per size"
                w.lines.append(f"    {node.name} = __s[{sized_frontier.index(node)}]  {where}")
        elif node in index_plans:
            rows, axis, k, picked = index_plans[node]
            where = f"# aten.index.Tensor, {_module_of(node)}, its indices folded at capture"
            handler = w.ref(_aten.index_rows, "index_rows")
            source = w.names[node.args[0]]
            w.lines.append(
                f"    {node.name} = {handler}({source}, __C[{len(constants)}], {axis}, {k}, "
                f"{picked!r})  {where}"
            )
            constants.append(exact_numpy(torch_backend, rows))
        elif node in rewrites:
            x, weight, bias = (w.names[n] for n in rewrites[node])
            where = f"# aten.addmm.default as linear, {_module_of(node)}"
            handler = w.ref(_aten.addmm_as_linear, "addmm_as_linear")
            w.lines.append(f"    {node.name} = {handler}({x}, {weight}, {bias})  {where}")
        elif is_higher_order(node.target):
            emit_higher_order(node, ep.graph_module, w, _emit_call, _module_of(node))
        elif node not in folded and node not in skipped:
            _emit_call(node, w, known, flags.get(node, ""))
        if dead.get(node):
            w.lines.append(f"    del {', '.join(sorted(dead[node]))}")
    outs = output.args[0]
    w.lines.append(f"    return {w.literal(tuple(outs))}")

    code = "def graph(__P, __C, __U):\n" + "\n".join(w.lines) + "\n"
    where = f"from_torch {type(module).__name__} at {id(w):x}"
    function = compile_generated(code, "graph", w.globals, where)

    call_spec = ep.module_call_graph[0].signature
    inputs = describe_tree(call_spec.in_spec, "inputs")
    outputs = describe_tree(call_spec.out_spec, "outputs")
    params = (
        Container.cont_unflatten({kc: move(t, target, kc) for kc, t in weights.items()})
        if weights
        else Container()
    )
    return GraphModel(
        Generated(function, code, param_keys, constants, where),
        params,
        inputs,
        input_values,
        input_shapes,
        outputs,
        {kc: aliases.get(kc, [kc.replace("/", ".")]) for kc in param_keys},
        sorted(ops),
        ep,
        *named_dims(ep, dynamic, names),
    )

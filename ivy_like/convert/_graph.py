"""Graph models: a PyTorch model captured by ``torch.export`` as a pure ivy_like function.

:func:`capture` exports the module (in eval mode), functionalizes it (and decomposes the ops
the table of :mod:`._aten` lacks into ones it has) when needed, checks every node against that
table, and generates one Python function for the whole graph: a line per node, calling the
node's ivy_like function, with the ATen op and the module it came from in a comment. That
source goes into ``linecache``, so a traceback through a converted model shows the node.

A :class:`GraphModel` holds that function, the weights as a Container keyed like the
``state_dict`` (``"layer1/0/conv1/weight"``), the graph's other constants, and how to flatten
the call's arguments and rebuild its outputs. ``apply(params, *args, **kwargs)`` is pure;
``model(*args, **kwargs)`` runs on the backend of its inputs. Only :func:`capture` and
:func:`to_torch_module` import torch; running a model does not.
"""

from __future__ import annotations

import collections
import linecache
import math
import operator
import re
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

import ivy_like as il

from ..container import Container
from ..container._convert import exact_numpy, from_exact_numpy
from ..core.backend import activate, current_backend, deactivate, get_backend
from ..nn.models import Model
from . import _aten
from ._aten import UnsupportedOpError
from ._common import move

# -- call structures: TreeSpecs turned into plain tuples at capture ------------------------------
# ("leaf",) | ("none",) | ("tuple"|"list", kids) | ("dict", keys, kids)
# | ("namedtuple", cls, kids) | ("mapping", keys, kids): a dict subclass such as transformers'
# ModelOutput, given back as a Container (item and attribute access, a tree node everywhere).


def _flatten(desc: tuple[Any, ...], value: Any, where: str, out: list[Any]) -> None:
    kind = desc[0]
    if kind == "leaf":
        out.append(value)
    elif kind == "none":
        if value is not None:
            raise TypeError(f"{where} was None when the model was captured, got {value!r}")
    elif kind in ("tuple", "list", "namedtuple"):
        kids = desc[-1]
        if not isinstance(value, (tuple, list)) or len(value) != len(kids):
            n = len(value) if isinstance(value, (tuple, list)) else type(value).__name__
            raise TypeError(f"{where}: expected {len(kids)} items as captured, got {n}")
        for i, (d, v) in enumerate(zip(kids, value)):
            _flatten(d, v, f"{where}[{i}]", out)
    else:  # dict, mapping
        keys, kids = desc[1], desc[2]
        if not isinstance(value, Mapping) or set(value) != set(keys):
            have = sorted(value) if isinstance(value, Mapping) else type(value).__name__
            raise TypeError(f"{where}: expected the keys {sorted(keys)} as captured, got {have}")
        for k, d in zip(keys, kids):
            _flatten(d, value[k], f"{where}[{k!r}]", out)


def _rebuild(desc: tuple[Any, ...], leaves: Any, pos: list[int]) -> Any:
    kind = desc[0]
    if kind == "leaf":
        pos[0] += 1
        return leaves[pos[0] - 1]
    if kind == "none":
        return None
    kids = [_rebuild(d, leaves, pos) for d in desc[-1]]
    if kind == "tuple":
        return tuple(kids)
    if kind == "list":
        return kids
    if kind == "namedtuple":
        return desc[1](*kids)
    if kind == "dict":
        return dict(zip(desc[1], kids))
    return Container(dict(zip(desc[1], kids)))


def _describe(spec: Any, where: str) -> tuple[Any, ...]:
    """A torch ``TreeSpec`` as the plain tuples above (no torch needed to use them)."""
    if spec.is_leaf():
        return ("leaf",)
    t = spec.type
    kids = [_describe(c, where) for c in spec.children()]
    if t is type(None):
        return ("none",)
    if t in (tuple, list):
        return (t.__name__, kids)
    if t in (dict, collections.OrderedDict):
        return ("dict", list(spec.context), kids)
    if isinstance(spec.context, type) and issubclass(spec.context, tuple):
        return ("namedtuple", spec.context, kids)
    if isinstance(t, type) and issubclass(t, Mapping) and isinstance(spec.context, list):
        return ("mapping", list(spec.context), kids)
    raise UnsupportedOpError(
        f"from_torch: the model's {where} hold a {getattr(t, '__name__', t)}; supported: "
        f"tensors, None, tuples, lists, namedtuples and dicts (transformers' ModelOutput)"
    )


def _constant(arr: Any, dtype: Any, backend: Any) -> Any:
    """A graph constant on ``backend``: exact, except int64 where the backend has none (JAX
    without x64), which becomes int32 as the backend's own integer arrays are."""
    try:
        return from_exact_numpy(arr, dtype, backend)
    except TypeError:
        if dtype.name != "int64":
            raise
        return from_exact_numpy(arr.astype(np.int32), il.int32, backend)


def _concrete(backend: Any, x: Any) -> bool:
    """Whether ``x`` is a value rather than a tracer of a function being compiled (JAX stages
    even a NumPy constant into the trace under ``jit``; such an array cannot outlive it)."""
    try:
        backend.to_numpy(x)
    except Exception:  # noqa: BLE001 - every framework names its tracer errors differently
        return False
    return True


# -- the model -----------------------------------------------------------------------------------
class GraphModel(Model):
    """A captured PyTorch model: ``params`` plus the pure function ``apply``.

    ``params`` is a Container of the parameters and the buffers the graph reads, keyed like
    the module's ``state_dict`` with ``/`` (``"layer1/0/conv1/weight"``); tied weights (GPT-2's
    ``lm_head.weight`` is ``transformer.wte.weight``) are one leaf, under the first name.
    ``apply(params, *args, **kwargs)`` takes the arguments the model was captured with (same
    structure, same shapes) and is pure, so ``ivy_like.grad``, ``ivy_like.compile`` and the
    other transforms work on it; ``model(*args, **kwargs)`` runs it on the backend of its
    inputs (the parameters are moved there once). Outputs keep their structure; a dict
    subclass such as transformers' ``ModelOutput`` comes back as a Container
    (``out["logits"]``, ``out.logits``).

    ``model.code`` is the generated function (one line per graph node) and ``model.aten_ops``
    the ATen ops it uses. Build one with :func:`ivy_like.convert.from_torch`.

    Examples
    --------
    >>> import numpy as np
    >>> import torch
    >>> from ivy_like.convert import from_torch
    >>> class Net(torch.nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.fc = torch.nn.Linear(3, 2)
    ...     def forward(self, x):
    ...         return torch.relu(self.fc(x)) + x[:, :2]
    >>> net = Net()
    >>> model = from_torch(net, torch.ones(2, 3), backend="numpy")
    >>> model.params.cont_all_key_chains()
    ['fc/weight', 'fc/bias']
    >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
    >>> bool(np.allclose(model(x), net(torch.from_numpy(x)).detach().numpy(), atol=1e-6))
    True
    """

    def __init__(
        self,
        function: Any,
        code: str,
        params: Container,
        param_keys: list[str],
        constants: list[tuple[Any, Any]],
        inputs: tuple[Any, ...],
        input_values: dict[int, Any],
        input_shapes: dict[int, tuple[int, ...]],
        outputs: tuple[Any, ...],
        aliases: dict[str, list[str]],
        aten_ops: list[str],
        exported: Any = None,
    ) -> None:
        self._function = function
        self.code = code
        self.params = params
        self._moved: tuple[Any, Any, Any] | None = None
        self._param_parts = [tuple(kc.split("/")) for kc in param_keys]
        self._constants = constants  # (NumPy array, ivy_like dtype) pairs, exact
        self._constants_on: dict[str, list[Any]] = {}
        self._inputs = inputs
        self._input_values = input_values  # flat position -> the non-tensor value captured
        # The graph is captured for these shapes (reshapes hold them as numbers): another
        # shape is refused rather than computed wrongly.
        self._input_shapes = list(input_shapes.items())
        self._outputs = outputs
        self.aliases = aliases  # key chain -> every state_dict name of that tensor
        self.aten_ops = aten_ops
        self._exported = exported

    def _config(self) -> dict[str, Any]:
        return {"aten_ops": self.aten_ops}

    # Two captures are the same model only if they are the same object (the graphs and
    # weights are not compared).
    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        n = len(self._param_parts)
        return f"GraphModel({n} parameter arrays, {len(self.aten_ops)} ATen ops)"

    def _flat_inputs(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
        flat: list[Any] = []
        _flatten(self._inputs, (args, kwargs), "inputs", flat)
        for i, value in self._input_values.items():
            if not (flat[i] is value or flat[i] == value):
                raise TypeError(
                    f"GraphModel: input {i} was {value!r} when the model was captured, got "
                    f"{flat[i]!r}; capture it again for another value"
                )
        for i, shape in self._input_shapes:
            got = getattr(flat[i], "shape", None)
            if got is None or tuple(got) != shape:
                raise ValueError(
                    f"GraphModel: input {i} has shape {None if got is None else tuple(got)}; "
                    f"the model was captured for shape {shape} (capture it again with an "
                    f"example of the new shape)"
                )
        return flat

    def _backend(self, flat: list[Any], params: Any) -> Any:
        for x in flat:
            if isinstance(x, np.ndarray):
                return current_backend()  # NumPy follows the active backend, as every op
            if hasattr(x, "shape") and not isinstance(x, (int, float, bool)):
                return il.backend_of(x)
        for leaf in Container(params).cont_flatten_key_chains().values():
            return il.backend_of(leaf)
        return current_backend()

    def params_on(self, backend: Any) -> Any:
        """``params`` on ``backend`` (moved once and cached while ``params`` is unchanged).

        Read from one leaf rather than by flattening the Container on every call.
        """
        b = get_backend(backend)
        params = self.params
        if not self._param_parts:
            return params
        first = params
        for k in self._param_parts[0]:
            first = first[k]
        if il.backend_of(first) is b:
            return params
        moved = self._moved
        if moved is not None and moved[0] is params and moved[1] is b:
            return moved[2]
        converted = params.cont_to_backend(b)
        self._moved = (params, b, converted)
        return converted

    def constants_on(self, backend: Any) -> list[Any]:
        """The graph's constant tensors on ``backend`` (made once per backend)."""
        b = get_backend(backend)
        hit = self._constants_on.get(b.name)
        if hit is None:
            hit = [_constant(arr, dtype, b) for arr, dtype in self._constants]
            if hit and _concrete(b, hit[0]):  # made inside a trace (jit), they belong to it
                self._constants_on[b.name] = hit
        return hit

    def apply(self, params: Any, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        """The model's function of ``params`` (a Container or nested dict keyed like
        ``model.params``) and the inputs, on the backend of the inputs."""
        flat = self._flat_inputs(args, kwargs)
        return self._run(params, flat, self._backend(flat, params))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        flat = self._flat_inputs(args, kwargs)
        backend = self._backend(flat, self.params)
        return self._run(self.params_on(backend), flat, backend)

    def _run(self, params: Any, flat: list[Any], backend: Any) -> Any:
        tokens = activate(backend)  # creation ops in the graph make arrays of this backend
        try:
            leaves = []
            for parts in self._param_parts:
                v = params
                for k in parts:
                    v = v[k]
                leaves.append(v)
            out = self._function(leaves, self.constants_on(backend), flat)
        finally:
            if tokens is not None:
                deactivate(tokens)
        return _rebuild(self._outputs, out, [0])


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


def _export(module: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    import torch

    modes = [(m, m.training) for m in module.modules()]
    module.eval()
    try:
        with warnings.catch_warnings():
            # torch's notice about nn.LSTM's internal weight list, which export handles
            warnings.filterwarnings("ignore", "The tensor attributes .*_flat_weights")
            return torch.export.export(module, args, kwargs)
    except Exception as err:
        if _data_dependent(err):
            raise UnsupportedOpError(
                f"from_torch: {type(module).__name__}.forward has data-dependent control flow "
                f"(a Python branch or loop on tensor values, or an output whose shape depends "
                f"on them){_user_frame(err)}; torch.export cannot capture one graph for it. "
                f"Compute both branches and select with torch.where, or move the decision "
                f"out of the model."
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


def _graph_ops(ep: Any) -> list[Any]:
    return [n.target for n in ep.graph_module.graph.nodes if n.op == "call_function"]


def _unknown(ep: Any) -> set[Any]:
    return {
        t for t in _graph_ops(ep) if t is not operator.getitem and _op_name(t) not in _aten.ATEN
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
        return _aten.TensorMeta(tuple(int(s) for s in m.shape), str(m.dtype).removeprefix("torch."))
    if isinstance(v, (list, tuple)):
        return type(v)(_meta_args(x) for x in v)
    if isinstance(v, torch.dtype):
        return _dtype(v)
    return v


def _emit_call(node: Any, w: _Writer) -> None:
    op = _op_name(node.target)
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
    handler = w.ref(fn, op.replace(".", "_"))
    w.lines.append(f"    {node.name} = {handler}({', '.join(parts)})  {where}")


def capture(
    module: Any, args: tuple[Any, ...], kwargs: dict[str, Any], backend: Any, copy: bool
) -> GraphModel:
    """Export ``module`` with the example inputs and build its :class:`GraphModel`."""
    from torch.export.graph_signature import InputKind, OutputKind

    ep = _prepare(_export(module, args, kwargs))
    sig = ep.graph_signature
    graph = ep.graph_module.graph
    target = current_backend() if backend is None else get_backend(backend)
    w = _Writer({n.name for n in graph.nodes})
    w.globals["__cast"] = _aten.cast

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
    n_user = 0
    input_values: dict[int, Any] = {}
    input_shapes: dict[int, tuple[int, ...]] = {}
    for node, spec in zip(placeholders, sig.input_specs):
        w.names[node] = node.name
        used = bool(node.users)
        if spec.kind == InputKind.USER_INPUT:
            if spec.arg.__class__.__name__ != "TensorArgument":
                input_values[n_user] = getattr(spec.arg, "value", None)
            elif _meta(node) is not None:
                input_shapes[n_user] = tuple(int(d) for d in _meta(node).shape)
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
                arr, dtype = exact_numpy(get_backend("torch"), value.detach())
                w.lines.append(f"    {node.name} = __C[{len(constants)}]")
                constants.append((arr, dtype))
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

    ops: set[str] = set()
    last_use: dict[Any, Any] = {}
    for node in graph.nodes:
        for used in node.all_input_nodes:
            last_use[used] = node
    dead: dict[Any, list[str]] = collections.defaultdict(list)
    for value, user in last_use.items():
        if user.op != "output":
            dead[user].append(value.name)
    for node in graph.nodes:
        if node.op != "call_function":
            continue
        w.names[node] = node.name
        _emit_call(node, w)
        if node.target is not operator.getitem:
            ops.add(_op_name(node.target))
        if dead.get(node):
            w.lines.append(f"    del {', '.join(sorted(dead[node]))}")
    outs = output.args[0]
    w.lines.append(f"    return {w.literal(tuple(outs))}")

    code = "def graph(__P, __C, __U):\n" + "\n".join(w.lines) + "\n"
    filename = f"<ivy_like graph: {type(module).__name__} at {id(w):x}>"
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    namespace = dict(w.globals)
    exec(compile(code, filename, "exec"), namespace)  # noqa: S102 - our own generated source

    call_spec = ep.module_call_graph[0].signature
    inputs = _describe(call_spec.in_spec, "inputs")
    outputs = _describe(call_spec.out_spec, "outputs")
    params = (
        Container.cont_unflatten({kc: move(t, target, kc) for kc, t in weights.items()})
        if weights
        else Container()
    )
    return GraphModel(
        namespace["graph"],
        code,
        params,
        param_keys,
        constants,
        inputs,
        input_values,
        input_shapes,
        outputs,
        {kc: aliases.get(kc, [kc.replace("/", ".")]) for kc in param_keys},
        sorted(ops),
        ep,
    )


def to_torch_module(model: GraphModel, params: Any = None) -> Any:
    """A ``torch.nn.Module`` computing ``model``: the captured graph (``ExportedProgram.module``)
    with the weights of ``params`` (default ``model.params``) as its own new parameters."""
    import torch

    from ..container._convert import leaf_info

    params = model.params if params is None else params
    module = model._exported.module()
    torch_backend = get_backend("torch")
    for parts, kc in zip(model._param_parts, ("/".join(p) for p in model._param_parts)):
        v = params
        for k in parts:
            v = v[k]
        t = leaf_info(move(v, torch_backend, kc))[1].detach().clone()  # type: ignore[index]
        new: Any = None
        for name in model.aliases[kc]:  # tied names get the same new tensor: still tied
            owner_path, _, attr = name.rpartition(".")
            owner = module.get_submodule(owner_path) if owner_path else module
            if isinstance(getattr(owner, attr), torch.nn.Parameter):
                new = new if new is not None else torch.nn.Parameter(t)
                setattr(owner, attr, new)
            else:
                owner.register_buffer(attr, t)
    return module

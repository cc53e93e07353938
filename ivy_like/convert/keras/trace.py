"""Keras 3 subclassed models -> a graph model, by tracing ``call()`` on symbolic inputs.

``call`` is run on ``keras.Input`` tensors shaped like the example inputs (batch axis None):
every layer call and every ``keras.ops`` call on a Keras tensor then records a node (its
operation, its arguments, its outputs), which is Keras's own functional graph. The nodes are
walked back from the outputs and evaluated with ivy_like ops: built-in layers with the
layer table of ``layers.py``, ``keras.ops`` operations with the table below, and any
other layer (a custom layer, a nested subclassed, functional or Sequential model) by tracing
its own ``call`` in turn. Imported only when such a conversion is asked for.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import keras
import numpy as np

import ivy_like as il

from ...container import Container
from ...core.backend import current_backend, get_backend
from .._errors import UnsupportedOpError
from .._weights import move
from .functional import SUPPORTED_FUNCTIONAL, KerasGraphModel, layer_fn, resolve


def _ops_table() -> dict[str, Callable[[Any], Callable[..., Any]]]:
    """Keras op class name -> (the op -> ``f(*args)`` with ivy_like ops)."""

    def fixed(f: Callable[..., Any]) -> Callable[[Any], Callable[..., Any]]:
        return lambda op: f

    def reduce(f: Callable[..., Any]) -> Callable[[Any], Callable[..., Any]]:
        def make(op: Any) -> Callable[..., Any]:
            if getattr(op, "initial", None) is not None:
                raise ValueError("initial=; only None")
            axis = None if op.axis is None else tuple(op.axis)
            return lambda x: f(x, axis=axis, keepdims=bool(op.keepdims))

        return make

    def axis_op(f: Callable[..., Any]) -> Callable[[Any], Callable[..., Any]]:
        return lambda op: lambda x: f(x, int(op.axis))

    def gelu(op: Any) -> Callable[..., Any]:
        return functools.partial(il.nn.gelu, approximate="tanh" if op.approximate else "none")

    def clip(op: Any) -> Callable[..., Any]:
        return lambda x: il.clip(x, op.x_min, op.x_max)

    def squeeze(op: Any) -> Callable[..., Any]:
        return lambda x: il.squeeze(x, axis=op.axis)

    def expand(op: Any) -> Callable[..., Any]:
        return lambda x: il.expand_dims(x, axis=op.axis)

    def transpose(op: Any) -> Callable[..., Any]:
        axes = None if op.axes is None else tuple(op.axes)
        return lambda x: il.permute_dims(x, axes or tuple(reversed(range(len(x.shape)))))

    def reshape(op: Any) -> Callable[..., Any]:
        shape = tuple(int(n) for n in op.newshape)
        return lambda x: il.reshape(x, shape)

    def concat(op: Any) -> Callable[..., Any]:
        return lambda xs: il.concat(list(xs), axis=int(op.axis))

    def stack(op: Any) -> Callable[..., Any]:
        return lambda xs: il.stack(list(xs), axis=int(op.axis))

    def cast(op: Any) -> Callable[..., Any]:
        if op.dtype is None:  # ConvertToTensor of a tensor: the tensor itself
            return lambda x: x
        dtype = keras.backend.standardize_dtype(op.dtype)
        return lambda x: il.astype(x, dtype)

    def attention(op: Any) -> Callable[..., Any]:
        if op.attn_logits_soft_cap is not None:
            raise ValueError("attn_logits_soft_cap; only None")
        causal = bool(op.is_causal)

        def fn(q: Any, k: Any, v: Any, bias: Any = None, mask: Any = None, scale: Any = None):
            # (batch, time, heads, head dim), as Keras's reference implementation
            s = 1.0 / float(np.sqrt(int(q.shape[-1]))) if scale is None else scale
            logits = il.einsum("btnh,bsnh->bnts", q, k) * s
            if bias is not None:
                logits = logits + bias
            if causal:
                t, n = int(logits.shape[-2]), int(logits.shape[-1])
                tril = il.asarray(np.tril(np.ones((t, n), dtype=bool)))
                mask = tril if mask is None else il.logical_and(mask, tril)
            if mask is not None:
                logits = il.where(mask, logits, il.full_like(logits, _LARGE_NEGATIVE))
            return il.einsum("bnts,bsnh->btnh", il.nn.softmax(logits, -1), v)

        return fn

    def take(op: Any) -> Callable[..., Any]:
        return lambda x, indices: il.take(x, indices, axis=op.axis)

    def tile(op: Any) -> Callable[..., Any]:
        return lambda x: il.tile(x, tuple(op.repeats))

    def broadcast(op: Any) -> Callable[..., Any]:
        return lambda x: il.broadcast_to(x, tuple(int(n) for n in op.shape))

    def swap(op: Any) -> Callable[..., Any]:
        def fn(x: Any) -> Any:
            axes = list(range(len(x.shape)))
            a, b = op.axis1 % len(axes), op.axis2 % len(axes)
            axes[a], axes[b] = axes[b], axes[a]
            return il.permute_dims(x, tuple(axes))

        return fn

    def einsum(op: Any) -> Callable[..., Any]:
        return lambda *xs: il.einsum(op.subscripts, *xs)

    return {
        # keras.src.ops.numpy
        "Add": fixed(lambda a, b: a + b),
        "Subtract": fixed(lambda a, b: a - b),
        "Multiply": fixed(lambda a, b: a * b),
        "Divide": fixed(lambda a, b: a / b),
        "TrueDivide": fixed(lambda a, b: a / b),
        "Power": fixed(lambda a, b: a**b),
        "Negative": fixed(lambda x: -x),
        "Maximum": fixed(il.maximum),
        "Minimum": fixed(il.minimum),
        "Matmul": fixed(il.matmul),
        "Einsum": einsum,
        "Equal": fixed(il.equal),
        "NotEqual": fixed(il.not_equal),
        "Greater": fixed(il.greater),
        "GreaterEqual": fixed(il.greater_equal),
        "Less": fixed(il.less),
        "LessEqual": fixed(il.less_equal),
        "LogicalAnd": fixed(il.logical_and),
        "LogicalOr": fixed(il.logical_or),
        "LogicalNot": fixed(il.logical_not),
        "Where": fixed(il.where),
        "Exp": fixed(il.exp),
        "Log": fixed(il.log),
        "Sqrt": fixed(il.sqrt),
        "Square": fixed(lambda x: x * x),
        "Abs": fixed(il.abs),
        "Absolute": fixed(il.abs),
        "Tanh": fixed(il.tanh),
        "Sin": fixed(il.sin),
        "Cos": fixed(il.cos),
        "Clip": clip,
        "Mean": reduce(il.mean),
        "Sum": reduce(il.sum),
        "Max": reduce(il.max),
        "Min": reduce(il.min),
        "Var": reduce(il.var),
        "Reshape": reshape,
        "Transpose": transpose,
        "ExpandDims": expand,
        "Squeeze": squeeze,
        "Concatenate": concat,
        "Stack": stack,
        "Swapaxes": swap,
        "Tile": tile,
        "BroadcastTo": broadcast,
        "Take": take,
        "GetItem": fixed(lambda x, key: x[key]),
        # keras.src.ops.core
        "Cast": cast,
        "ConvertToTensor": cast,
        # keras.src.ops.nn
        "Relu": fixed(il.nn.relu),
        "Relu6": fixed(il.nn.relu6),
        "Sigmoid": fixed(il.nn.sigmoid),
        "Silu": fixed(il.nn.silu),
        "Gelu": gelu,
        "Softmax": axis_op(il.nn.softmax),
        "LogSoftmax": axis_op(il.nn.log_softmax),
        "DotProductAttention": attention,
    }


# Operations whose keyword arguments (tensors or values) are translated too.
_KEYWORD_OPS = frozenset({"DotProductAttention"})
# A masked attention logit: far below any real one, so its weight is 0 (as Keras's).
_LARGE_NEGATIVE = -1e9


@functools.cache
def _ops() -> dict[str, Callable[[Any], Callable[..., Any]]]:
    return _ops_table()


def supported_ops() -> tuple[str, ...]:
    """The ``keras.ops`` operation classes a traced ``call()`` may use."""
    return tuple(_ops())


def _error(what: str, where: str, why: str = "") -> Exception:
    reason = f" ({why})" if why else ""
    return UnsupportedOpError(
        f"from_keras: {what} at {where!r} is not supported{reason}; supported keras.ops "
        f"operations: {', '.join(supported_ops())}; supported layers: "
        f"{', '.join(SUPPORTED_FUNCTIONAL)} (any other layer or model is traced through its "
        "call())"
    )


def _class(obj: Any) -> str:
    return f"{type(obj).__module__}.{type(obj).__qualname__}"


def _translated(layer: Any) -> bool:
    """A Keras layer translated as a whole (its settings checked); any other layer (a user's
    layer, a nested model, another Keras layer such as MultiHeadAttention) is traced through
    its call, so what it computes is what Keras records."""
    return type(layer).__module__.startswith("keras.") and (
        type(layer).__name__ in SUPPORTED_FUNCTIONAL
    )


class TracedKerasModel(KerasGraphModel):
    """A Keras subclassed model, traced: ``params`` keyed by the Keras variables' paths
    (relative to the model: ``"block/dense/kernel"``), ``apply(params, *inputs)`` pure."""

    _reads: tuple[str, ...] = ()  # key chains of the variables keras.ops calls read directly

    def _run(self, params: Any, values: dict[Any, Any]) -> Any:
        for kc in self._reads:
            values[("var", kc)] = params[kc]
        for fn, _where, weights, desc, outs in self._steps:
            p = {name: params[kc] for name, kc in weights}
            out = fn(p, *resolve(desc, values))
            if len(outs) == 1:
                values[outs[0]] = out
            else:
                values.update(zip(outs, out))
        return resolve(self._outputs, values)

    def __repr__(self) -> str:
        return f"TracedKerasModel({self.name!r}, {len(self._steps)} steps)"


class _Tracer:
    """Turns recorded Keras nodes into steps ``(f(p, *args), where, weights, args, outputs)``."""

    def __init__(self, model: Any, target: Any) -> None:
        self.prefix = f"{getattr(model, 'path', model.name)}/"
        self.target = target
        self.keys: dict[int, int] = {}  # id(KerasTensor) -> its key in the values
        self.alive: list[Any] = []  # the traced tensors, so that their ids stay theirs
        self.weights: dict[str, Any] = {}
        self.buffers: set[str] = set()
        self.var_keys: dict[int, str] = {}  # id(Variable) -> key chain
        self.var_reads: dict[str, None] = {}  # variables read directly by keras.ops calls
        self.steps: list[tuple[Any, str, tuple[tuple[str, str], ...], Any, tuple[int, ...]]] = []

    def key(self, t: Any) -> int:
        if id(t) not in self.keys:
            self.keys[id(t)] = len(self.keys)
            self.alive.append(t)
        return self.keys[id(t)]

    def variable(self, v: Any) -> str:
        """The key chain of a Keras variable: its path without the model's, made unique."""
        if id(v) not in self.var_keys:
            path = str(v.path)
            kc = path[len(self.prefix) :] if path.startswith(self.prefix) else path
            base, n = kc, 1
            while kc in self.weights:
                kc, n = f"{base}_{n}", n + 1
            self.var_keys[id(v)] = kc
            self.weights[kc] = move(np.asarray(v.numpy()), self.target, kc)
            if not v.trainable:
                self.buffers.add(kc)
        return self.var_keys[id(v)]

    def desc(self, v: Any, variables: list[str]) -> Any:
        """Arguments as ("ref", key) / ("list", ..) / ("dict", ..) / ("value", v); a variable
        is a ("ref", key) to the step that reads it from the params."""
        if isinstance(v, keras.KerasTensor):
            return ("ref", self.key(v))
        if isinstance(v, keras.Variable):
            kc = self.variable(v)
            variables.append(kc)
            return ("ref", ("var", kc))
        if not any(
            isinstance(x, (keras.KerasTensor, keras.Variable)) for x in keras.tree.flatten(v)
        ):
            if keras.ops.is_tensor(v):  # a constant made eagerly in call() (keras.ops.ones)
                return ("value", keras.ops.convert_to_numpy(v))
            return ("value", v)  # constants as they are (a tuple of slices stays a tuple)
        if isinstance(v, (list, tuple)) and not hasattr(v, "_fields"):
            return ("list", [self.desc(x, variables) for x in v])
        if isinstance(v, Mapping):
            return ("dict", list(v), [self.desc(x, variables) for x in v.values()])
        return ("value", v)

    def inputs_like(self, args: Any) -> Any:
        """``args`` with each Keras tensor replaced by a new input of its shape and dtype."""
        return keras.tree.map_structure(
            lambda t: (
                keras.Input(batch_shape=tuple(t.shape), dtype=t.dtype)
                if isinstance(t, keras.KerasTensor)
                else t
            ),
            args,
        )

    def trace(self, layer: Any, inputs: Any, where: str, kwargs: Any = None) -> Any:
        """Trace ``layer.call`` on the symbolic ``inputs`` (and keyword arguments) and append
        its steps; its outputs."""
        kwargs = kwargs or {}
        try:
            outputs = layer.call(*inputs, **kwargs)
        except (TypeError, ValueError, AttributeError, NotImplementedError, IndexError) as err:
            raise _trace_error(layer, where, err) from err
        leaves = keras.tree.flatten((inputs, kwargs))
        tensors = [t for t in leaves if isinstance(t, keras.KerasTensor)]
        self.walk(tensors, outputs, where)
        return outputs

    def walk(self, inputs: list[Any], outputs: Any, where: str) -> None:
        """Append the steps computing ``outputs`` from ``inputs``, each after those it reads."""
        known = {id(t) for t in inputs}
        order: list[Any] = []
        state: dict[int, int] = {}  # id(node) -> 1: being visited, 2: done
        stack = [_node_of(t) for t in keras.tree.flatten(outputs) if id(t) not in known]
        while stack:
            node = stack[-1]
            if state.get(id(node)) == 2:
                stack.pop()
                continue
            parents = [
                _node_of(t)
                for t in node.arguments.keras_tensors
                if id(t) not in known and state.get(id(_node_of(t))) != 2
            ]
            if state.get(id(node)) == 1 or not parents:
                state[id(node)] = 2
                order.append(node)
                stack.pop()
            else:
                state[id(node)] = 1
                stack.extend(parents)
        for node in order:
            self.node(node, where)

    def node(self, node: Any, where: str) -> None:
        op = node.operation
        here = f"{where}/{op.name}"
        if isinstance(op, keras.layers.InputLayer):
            raise _error(
                f"input {op.name!r}", here, "an input that is not one of call()'s arguments"
            )
        outs = tuple(self.key(t) for t in node.outputs)
        if isinstance(op, keras.layers.Layer) and not _translated(op):
            self.inline(node, here)
            return
        variables: list[str] = []
        args = self.desc(node.arguments.args, variables)
        if isinstance(op, keras.layers.Layer):
            kwargs = node.arguments.kwargs
            if kwargs.get("training") is True:  # batch statistics, random dropout
                raise _error(f"layer {_class(op)}", here, "called with training=True")
            extra = {k for k, v in kwargs.items() if v is not None and k != "training"}
            if extra:
                raise _error(f"layer {_class(op)}", here, f"called with {', '.join(sorted(extra))}")
            rank = (
                len(node.arguments.keras_tensors[0].shape) if node.arguments.keras_tensors else None
            )
            try:
                fn = layer_fn(op, rank)
            except TypeError as err:  # the layer's own message, plus where it sits
                raise type(err)(f"{err} (at {here!r})") from err
            weights = tuple((w.name, self.variable(w)) for w in op.weights)
        else:
            given = {k: v for k, v in node.arguments.kwargs.items() if v is not None}
            if given and type(op).__name__ not in _KEYWORD_OPS:
                why = f"called with {', '.join(sorted(given))}"
                raise _error(f"operation {_class(op)}", here, why)
            make = _ops().get(type(op).__name__)
            if make is None or not type(op).__module__.startswith("keras."):
                raise _error(f"operation {_class(op)}", here)
            try:
                f = make(op)
            except (ValueError, TypeError) as err:
                raise _error(f"operation {_class(op)}", here, str(err)) from err
            fn = _positional(f)
            if given:
                args = ("list", [args, self.desc(given, variables)])
                fn = _keywords(f)
            weights = ()
        self.var_reads.update(dict.fromkeys(variables))
        self.steps.append((fn, here, weights, args, outs))

    def inline(self, node: Any, here: str) -> None:
        """A custom layer or a nested model: its call traced in turn, between steps that pass
        the caller's tensors in and the results out."""
        op = node.operation
        outer = (list(node.arguments.args), dict(node.arguments.kwargs))
        inner = self.inputs_like(outer)
        for src, dst in zip(keras.tree.flatten(outer), keras.tree.flatten(inner)):
            if isinstance(src, keras.KerasTensor):
                self.steps.append(_alias(here, self.key(src), self.key(dst)))
        outputs = keras.tree.flatten(self.trace(op, inner[0], here, inner[1]))
        if len(outputs) != len(node.outputs):
            raise _error(f"layer {_class(op)}", here, "its outputs changed when traced again")
        for src, dst in zip(outputs, node.outputs):
            self.steps.append(_alias(here, self.key(src), self.key(dst)))


def _identity(p: Any, x: Any) -> Any:
    return x


def _alias(where: str, src: int, dst: int) -> Any:
    return (_identity, where, (), ("list", [("ref", src)]), (dst,))


def _positional(f: Callable[..., Any]) -> Callable[..., Any]:
    return lambda p, *xs: f(*xs)


def _keywords(f: Callable[..., Any]) -> Callable[..., Any]:
    return lambda p, args, kwargs: f(*args, **kwargs)


def _node_of(t: Any) -> Any:
    history = getattr(t, "_keras_history", None)
    if history is None:
        raise TypeError(
            f"from_keras: the traced call() returned {t!r}, which was not computed by Keras "
            "layers or keras.ops from its inputs"
        )
    return history.operation._inbound_nodes[history.node_index]


def _trace_error(layer: Any, where: str, err: Exception) -> Exception:
    name = f"{type(layer).__qualname__}.call (at {where!r})"
    if "KerasTensor" in str(err) or "symbolic" in str(err):
        return UnsupportedOpError(
            f"from_keras: {name} has data-dependent Python control flow (it uses a tensor's "
            f"value as a Python bool, number or array: {err}), so it cannot be traced on symbolic "
            "inputs; compute both branches and select with keras.ops.where instead"
        )
    return UnsupportedOpError(
        f"from_keras: tracing {name} on symbolic inputs (batch axis None) failed: "
        f"{type(err).__name__}: {err}"
    )


def _example_spec(x: Any, i: int) -> Any:
    """A ``keras.Input`` shaped like the example input ``x`` with a free batch axis."""
    shape = getattr(x, "shape", None)
    if shape is None or len(shape) == 0:
        raise TypeError(
            f"from_keras: example input {i} must be an array with a batch axis, got "
            f"{type(x).__name__}"
        )
    try:
        dtype = keras.backend.standardize_dtype(x.dtype)
    except (ValueError, TypeError, AttributeError):
        dtype = str(np.asarray(x).dtype)
    return keras.Input(batch_shape=(None, *(int(n) for n in shape[1:])), dtype=dtype)


def _numpy(x: Any) -> Any:
    return x if isinstance(x, np.ndarray) else np.asarray(il.to_numpy(x))


def trace_model(model: Any, example_args: tuple[Any, ...], backend: Any) -> TracedKerasModel:
    """``model`` (a subclassed ``keras.Model`` or layer) traced on ``example_args``."""
    if not example_args:
        raise TypeError(
            f"from_keras: {type(model).__name__} is not a Sequential or functional model but a "
            "subclassed one: pass example inputs to trace its call() with, from_keras(model, x)"
        )
    structure = keras.tree.map_structure(lambda x: x, list(example_args))
    specs = [_example_spec(x, i) for i, x in enumerate(keras.tree.flatten(structure))]
    inputs = keras.tree.pack_sequence_as(structure, specs)
    if not model.built:  # create the weights as Keras does, on the first call
        model(*keras.tree.map_structure(_numpy, structure))
    target = current_backend() if backend is None else get_backend(backend)
    tracer = _Tracer(model, target)
    outputs = tracer.trace(model, inputs, model.name)
    in_desc = tracer.desc(inputs[0] if len(inputs) == 1 else inputs, [])
    out_desc = tracer.desc(outputs, [])
    params = Container.cont_unflatten(tracer.weights) if tracer.weights else Container()
    traced = TracedKerasModel(
        model.name, tracer.steps, in_desc, out_desc, params, frozenset(tracer.buffers)
    )
    traced._reads = tuple(tracer.var_reads)
    return traced

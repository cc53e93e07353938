"""Keras 3 functional models -> :class:`KerasGraphModel`, which keeps Keras's layouts.

The graph is read from ``get_config()`` (Keras's own save format: input and output layers and
each layer call's inbound nodes), and each layer call becomes the function the layer table in
``layers.py`` gives it; ``from_keras`` (``api.py``) sends every model that is neither a
``keras.Sequential`` nor subclassed here. The traced subclassed models of ``trace.py`` are
``KerasGraphModel`` too.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from typing import Any

import numpy as np

from ...container import Container
from ...core.backend import activated, current_backend, get_backend
from .._captured import NativeGraphModel
from .._errors import UnsupportedOpError
from .._weights import move
from .layers import At, Tensor, Translation, lookup, supported, weight_keys

# The layers translated as a whole wherever they sit (a traced call reads them too) ...
SUPPORTED_FUNCTIONAL = supported(sequential=False)
# ... and those read only in a functional model (weights in sublayers: MultiHeadAttention).
FUNCTIONAL_LAYERS = supported(sequential=False, nested=True)


def _functional_error(layer: Any, why: str = "") -> Exception:
    cls = f"{type(layer).__module__}.{type(layer).__qualname__}"
    reason = f" ({why})" if why else ""
    return UnsupportedOpError(
        f"from_keras: layer {layer.name!r} ({cls}) is not supported{reason}; supported "
        f"layers: {', '.join(FUNCTIONAL_LAYERS)}"
    )


def _translate(layer: Any, rank: int | None, args: Any = (), kwargs: Any = None) -> Translation:
    fail = functools.partial(_functional_error, layer)
    read = lookup(layer, sequential=False)
    if read is None:
        raise fail()
    translation = read(layer, At(fail, lambda: rank, args=args, kwargs=kwargs or {}))
    assert translation.fn is not None  # a functional entry has its function
    return translation


def layer_fn(layer: Any, rank: int | None) -> Any:
    """``f(params, *args)``: what ``layer`` computes at inference, with ivy_like ops on Keras's
    own layouts (channels-last, HWIO kernels); ``params`` holds its weights by their names."""
    return _translate(layer, rank).fn


def _marked(v: Any) -> Any:
    """A node's serialized argument with each Keras tensor replaced by a :class:`Tensor`."""
    if isinstance(v, dict) and v.get("class_name") == "__keras_tensor__":
        return Tensor(tuple(v["config"]["shape"]))
    if isinstance(v, (list, tuple)):
        return [_marked(x) for x in v]
    if isinstance(v, dict):
        return {k: _marked(x) for k, x in v.items()}
    return v


def _by_keyword(fn: Any) -> Any:
    return lambda p, args, kwargs: fn(p, *args, **kwargs)


def _is_history(v: Any) -> bool:
    """A ``[layer name, node index, tensor index]`` entry of a functional model's config."""
    return (
        isinstance(v, (list, tuple))
        and len(v) == 3
        and isinstance(v[0], str)
        and all(isinstance(i, int) for i in v[1:])
    )


def _structure(v: Any) -> Any:
    """A config's ``input_layers``/``output_layers`` as ("ref", key) / ("list", kids) /
    ("dict", keys, kids), the key of a tensor being ``(layer name, node index, tensor index)``."""
    if _is_history(v):
        return ("ref", tuple(v))
    if isinstance(v, dict):
        return ("dict", list(v), [_structure(x) for x in v.values()])
    return ("list", [_structure(x) for x in v])


def _args(v: Any) -> Any:
    """A node's serialized arguments with each Keras tensor replaced by ("ref", key)."""
    if isinstance(v, dict) and v.get("class_name") == "__keras_tensor__":
        return ("ref", tuple(v["config"]["keras_history"]))
    if isinstance(v, (list, tuple)):
        return ("list", [_args(x) for x in v])
    if isinstance(v, dict):
        return ("dict", list(v), [_args(x) for x in v.values()])
    return ("value", v)


def _refs(desc: Any, out: list[Any]) -> list[Any]:
    if desc[0] == "ref":
        out.append(desc[1])
    elif desc[0] in ("list", "dict"):
        for d in desc[-1]:
            _refs(d, out)
    return out


def resolve(desc: Any, values: dict[Any, Any]) -> Any:
    kind = desc[0]
    if kind == "ref":
        return values[desc[1]]
    if kind == "value":
        return desc[1]
    kids = [resolve(d, values) for d in desc[-1]]
    return kids if kind == "list" else dict(zip(desc[1], kids))


class KerasGraphModel(NativeGraphModel):
    """A Keras functional model as ``params`` plus the pure function ``apply``.

    ``params`` is a Container keyed ``"<layer name>/<weight name>"`` (``"dense_1/kernel"``) in
    Keras's own layouts (Dense kernels ``(in, out)``, Conv kernels HWIO, channels-last data);
    a shared layer has one set of weights, and ``buffers`` holds the key chains of the weights
    Keras does not train (``trainable=False``). ``apply(params, inputs)`` evaluates the layers in
    topological order with ivy_like ops on the backend of the inputs, and is pure, so
    ``ivy_like.grad`` and ``ivy_like.compile`` work on it. ``inputs`` has the structure Keras
    takes (one array, a list, or a dict by input name; several inputs may also be given as
    positional arguments), and the outputs have Keras's structure. ``model(inputs)`` runs with
    ``model.params``, moved (once) to the inputs' backend. Build one with
    :func:`ivy_like.convert.from_keras`.
    """

    def __init__(
        self,
        name: str,
        # (function, where, weights, argument desc, outputs): a functional model's weights are
        # names, a traced model's (name, key chain) pairs
        steps: list[tuple[Any, str, Any, Any, tuple[Any, ...]]],
        inputs: Any,
        outputs: Any,
        params: Container,
        buffers: frozenset[str] = frozenset(),
        keras_config: dict[str, Any] | None = None,
    ) -> None:
        self.name = name
        # a functional model's own config (built-in layers only): to_keras rebuilds it
        self.keras_config = keras_config
        self._steps = steps  # (function, layer name, weight keys, argument desc, output keys)
        self._inputs = inputs
        self._outputs = outputs
        self.params = params
        # key chains of the weights Keras does not train (BatchNormalization's statistics)
        self.buffers = frozenset(buffers)
        self._moved: tuple[Any, Any, Any] | None = None
        self.layer_names = list(dict.fromkeys(s[1] for s in steps))

    def _config(self) -> dict[str, Any]:
        return {"name": self.name, "layers": self.layer_names}

    def __repr__(self) -> str:
        return f"KerasGraphModel({self.name!r}, {len(self._steps)} layer calls)"

    def _bind(self, args: tuple[Any, ...]) -> dict[Any, Any]:
        """The input tensors by key, from the call's arguments in Keras's structure."""
        kind = self._inputs[0]
        value: Any = args[0] if len(args) == 1 else list(args)
        if kind == "ref" and len(args) != 1:
            raise TypeError(f"{self.name}: the model takes one input, got {len(args)}")
        if kind == "ref" and isinstance(value, (list, tuple)) and len(value) == 1:
            value = value[0]  # Keras takes a one-input model's input in a list too
        values: dict[Any, Any] = {}

        def walk(desc: Any, v: Any, where: str) -> None:
            if desc[0] == "ref":
                values[desc[1]] = v
                return
            if desc[0] == "list":
                if not isinstance(v, (list, tuple)) or len(v) != len(desc[1]):
                    got = len(v) if isinstance(v, (list, tuple)) else type(v).__name__
                    raise TypeError(f"{where}: expected {len(desc[1])} inputs, got {got}")
                for i, (d, x) in enumerate(zip(desc[1], v)):
                    walk(d, x, f"{where}[{i}]")
                return
            if not isinstance(v, Mapping) or set(v) != set(desc[1]):
                have = sorted(v) if isinstance(v, Mapping) else type(v).__name__
                raise TypeError(f"{where}: expected the inputs {sorted(desc[1])}, got {have}")
            for k, d in zip(desc[1], desc[2]):
                walk(d, v[k], f"{where}[{k!r}]")

        walk(self._inputs, value, f"{self.name} inputs")
        return values

    def _run(self, params: Any, values: dict[Any, Any]) -> Any:
        empty: dict[str, Any] = {}
        for fn, layer, weights, desc, outs in self._steps:
            p = {w: _leaf(params[layer], w) for w in weights} if weights else empty
            out = fn(p, *resolve(desc, values))
            if len(outs) == 1:
                values[outs[0]] = out
            else:
                values.update(zip(outs, out))
        return resolve(self._outputs, values)

    def _call(self, params: Any, args: tuple[Any, ...]) -> Any:
        """Run on the inputs' backend, with ``params`` or (None) ``self.params`` moved there."""
        values = self._bind(args)
        backend = self._backend(list(values.values()), None)
        if params is None:
            params = self.params_on(backend)
        # backend active: an op that creates an array makes one of this backend
        return activated(self._run, backend)(params, values)

    def apply(self, params: Any, *args: Any) -> Any:  # type: ignore[override]
        """The model's function of ``params`` (keyed like ``model.params``) and the inputs."""
        return self._call(params, args)

    def __call__(self, *args: Any) -> Any:  # type: ignore[override]
        return self._call(None, args)


def functional(model: Any, backend: Any) -> KerasGraphModel:
    try:
        config = model.get_config()
    except Exception as err:  # noqa: BLE001 - a subclassed model's get_config fails variously
        raise TypeError(
            f"from_keras: {type(model).__name__} is not a Sequential or functional model (its "
            f"graph is not known); build it with keras.Input and keras.Model(inputs, outputs)"
        ) from err
    if not isinstance(config, dict) or "input_layers" not in config or "layers" not in config:
        raise TypeError(
            f"from_keras: {type(model).__name__} is not a Sequential or functional model; build "
            f"it with keras.Input and keras.Model(inputs, outputs)"
        )
    ops = {op.name: op for op in getattr(model, "operations", model.layers)}
    # node key (layer name, node index) -> its serialized arguments
    nodes: dict[tuple[str, int], Any] = {}
    for entry in config["layers"]:
        for i, node in enumerate(entry.get("inbound_nodes", [])):
            nodes[(entry["name"], i)] = node
    inputs = _structure(config["input_layers"])
    outputs = _structure(config["output_layers"])
    input_keys = set(_refs(inputs, []))

    # Depth-first from the outputs: each node after the nodes it reads (unused ones dropped).
    order: list[tuple[str, int]] = []
    state: dict[tuple[str, int], int] = {}  # 1: being visited, 2: done
    stack = [(k[0], k[1]) for k in _refs(outputs, []) if k not in input_keys]
    while stack:
        key = stack[-1]
        if state.get(key) == 2:
            stack.pop()
            continue
        node = nodes[key]
        deps = [
            (r[0], r[1])
            for r in _refs(_args([node["args"], node["kwargs"]]), [])
            if r not in input_keys and state.get((r[0], r[1])) != 2
        ]
        if state.get(key) == 1 or not deps:
            state[key] = 2
            order.append(key)
            stack.pop()
        else:
            state[key] = 1
            stack.extend(deps)

    target = current_backend() if backend is None else get_backend(backend)
    steps = []
    weights: dict[str, Any] = {}
    buffers: set[str] = set()
    for name, index in order:
        layer = ops[name]
        node = nodes[(name, index)]
        if node["kwargs"].get("training") is True:  # batch statistics, random dropout
            raise _functional_error(layer, "called with training=True")
        if node["kwargs"].get("mask") is not None:
            raise _functional_error(layer, "called with mask")
        # keyword arguments left at their default (None) change nothing
        kwargs = {
            k: v
            for k, v in node["kwargs"].items()
            if k not in ("training", "mask") and v is not None
        }
        rank = _rank_of(node["args"])
        translation = _translate(layer, rank, _marked(node["args"]), _marked(kwargs))
        extra = set(kwargs) - translation.keywords
        if extra:
            raise _functional_error(layer, f"called with {', '.join(sorted(extra))}")
        fn, args = translation.fn, _args(node["args"])
        tensors = {k: v for k, v in kwargs.items() if _refs(_args(v), [])}
        if tensors:  # the keyword arguments holding tensors, passed by keyword
            fn, args = _by_keyword(fn), ("list", [args, _args(tensors)])
        try:
            keyed = weight_keys(layer)
        except ValueError as err:
            raise _functional_error(layer, str(err)) from err
        names = []
        for wkey, w in keyed:
            kc = f"{name}/{wkey}"
            if kc not in weights:
                weights[kc] = move(np.asarray(w.numpy()), target, kc)
                if not w.trainable:
                    buffers.add(kc)
            names.append(wkey)
        outs = tuple((name, index, i) for i in range(translation.outputs))
        steps.append((fn, name, names, args, outs))
    params = Container.cont_unflatten(weights) if weights else Container()
    name = config.get("name", model.name)
    return KerasGraphModel(
        name, steps, inputs, outputs, params, frozenset(buffers), copy.deepcopy(config)
    )


def _leaf(tree: Any, chain: str) -> Any:
    """The leaf at the key chain ``chain`` ("query/kernel") of nested mappings."""
    for part in chain.split("/"):
        tree = tree[part]
    return tree


def _rank_of(args: Any) -> int | None:
    """The rank of the first Keras tensor in a node's serialized arguments."""
    if isinstance(args, dict) and args.get("class_name") == "__keras_tensor__":
        return len(args["config"]["shape"])
    if isinstance(args, (list, tuple)):
        for a in args:
            r = _rank_of(a)
            if r is not None:
                return r
    return None

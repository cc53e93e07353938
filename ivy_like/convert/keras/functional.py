"""Keras 3 functional models -> :class:`KerasGraphModel`, which keeps Keras's layouts.

The graph is read from ``get_config()`` (Keras's own save format: input and output layers and
each layer call's inbound nodes), and each layer call becomes ivy_like ops; ``from_keras`` in
``_keras.py`` sends every model that is not a ``keras.Sequential`` here.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import keras
import numpy as np

from ..container import Container
from ..core.backend import activate, current_backend, deactivate, get_backend
from ..nn.models import Model
from ._common import (
    move,
)
from ._keras import _gelu_tanh

# -- Keras functional models -> a graph model ------------------------------------------------------
SUPPORTED_FUNCTIONAL = (
    "InputLayer",
    "Dense",
    "Conv1D",
    "Conv2D",
    "Conv2DTranspose",
    "BatchNormalization",
    "LayerNormalization",
    "Activation",
    "ReLU",
    "Softmax",
    "Add",
    "Subtract",
    "Multiply",
    "Average",
    "Maximum",
    "Minimum",
    "Concatenate",
    "Flatten",
    "Reshape",
    "Dropout",
    "Identity",
    "MaxPooling2D",
    "AveragePooling2D",
    "GlobalAveragePooling2D",
    "GlobalMaxPooling2D",
)
_ACTIVATIONS = "linear, relu, relu6, gelu, silu, sigmoid, tanh, softmax, log_softmax"


def _functional_error(layer: Any, why: str = "") -> Exception:
    from ._aten import UnsupportedOpError

    cls = f"{type(layer).__module__}.{type(layer).__qualname__}"
    reason = f" ({why})" if why else ""
    return UnsupportedOpError(
        f"from_keras: layer {layer.name!r} ({cls}) is not supported{reason}; supported "
        f"layers: {', '.join(SUPPORTED_FUNCTIONAL)}; activations: {_ACTIVATIONS}"
    )


def _activation_fn(layer: Any, fn: Any) -> Any:
    """The ivy_like function of a Keras activation (None for linear)."""
    import ivy_like as il

    a = keras.activations
    if fn is None or fn is a.linear:
        return None
    table = {
        a.relu: il.nn.relu,
        a.relu6: il.nn.relu6,
        a.gelu: il.nn.gelu,  # Keras's default is the exact gelu, as ivy_like's
        a.silu: il.nn.silu,
        a.sigmoid: il.nn.sigmoid,
        a.tanh: il.tanh,
        a.softmax: il.nn.softmax,
        a.log_softmax: il.nn.log_softmax,
    }
    if fn is _gelu_tanh:
        return functools.partial(il.nn.gelu, approximate="tanh")
    if fn not in table:
        name = getattr(fn, "__name__", repr(fn))
        raise _functional_error(layer, f"activation {name!r}")
    return table[fn]


def _then(f: Any, act: Any) -> Any:
    return f if act is None else (lambda p, *xs: act(f(p, *xs)))


def _conv_transpose_nhwc(
    x: Any,
    kernel: Any,
    strides: Any,
    dilation: Any,
    padding: str,
    channels_last: bool,
    output_padding: Any = None,
) -> Any:
    """Keras's ``Conv2DTranspose`` as the convolution it is the gradient of: ``stride - 1``
    zeros between the input's elements, padded so that the output has Keras's size (its
    ``output_padding`` included), convolved by the kernel flipped with its in/out channels
    swapped."""
    import ivy_like as il

    if not channels_last:
        x = il.permute_dims(x, (0, 2, 3, 1))
    pads = []
    for a, (s, d) in enumerate(zip(strides, dilation)):
        axis, size, k = 1 + a, int(x.shape[1 + a]), int(kernel.shape[a])
        k_eff = (k - 1) * d + 1
        if s > 1:  # (.., L, ..) -> (.., L, s, ..) -> (.., L * s, ..), cut after the last value
            widths = [(0, 0)] * 5
            widths[axis + 1] = (0, s - 1)
            spread = il.pad(il.expand_dims(x, axis=axis + 1), tuple(widths))
            shape = tuple(int(n) for n in x.shape)
            merged = il.reshape(spread, (*shape[:axis], size * s, *shape[axis + 1 :]))
            index = (slice(None),) * axis + (slice(0, (size - 1) * s + 1),)
            x = merged[index]
        out = _deconv_length(
            size, k_eff, s, padding, None if output_padding is None else output_padding[a]
        )
        # TF's "same" rule for the forward convolution of the output back to the input
        lo = 0 if padding == "valid" else max((size - 1) * s + k_eff - out, 0) // 2
        pads.append((k_eff - 1 - lo, out + lo - (size - 1) * s - 1))
    w = il.permute_dims(il.flip(kernel, axis=(0, 1)), (0, 1, 3, 2))  # (kh, kw, out, in) -> HWIO
    y = il.nn.conv2d(
        x, w, None, stride=1, padding=tuple(pads), dilation=tuple(dilation), data_format="NHWC"
    )
    return y if channels_last else il.permute_dims(y, (0, 3, 1, 2))


def _deconv_length(size: int, k_eff: int, s: int, padding: str, output_padding: Any) -> int:
    """Keras's output length of a transposed convolution (``k_eff``: the dilated kernel)."""
    if output_padding is None:
        return size * s + max(k_eff - s, 0) if padding == "valid" else size * s
    extra = k_eff if padding == "valid" else k_eff % 2
    return (size - 1) * s + extra + int(output_padding)


def _same_pool(pool: Any, size: Any, strides: Any, channels_first: bool, average: bool) -> Any:
    """Keras's ``padding="same"`` pooling: the output has ``ceil(n / stride)`` positions, the
    input padded as TF pads (half the padding before, the rest after); a max ignores the
    padding (it is -inf) and an average leaves it out of the count."""
    import ivy_like as il

    fmt = "NCHW" if channels_first else "NHWC"
    spatial = (2, 3) if channels_first else (1, 2)

    def fn(p: Any, x: Any) -> Any:
        widths = [(0, 0)] * 4
        for axis, k, s in zip(spatial, size, strides):
            n = int(x.shape[axis])
            total = max((-(-n // s) - 1) * s + k - n, 0)
            widths[axis] = (total // 2, total - total // 2)
        if not average:
            padded = il.pad(x, tuple(widths), constant_values=-np.inf)
            return pool(padded, size, strides, 0, data_format=fmt)
        summed = pool(il.pad(x, tuple(widths)), size, strides, 0, data_format=fmt)
        ones = il.ones_like(x[:, :1] if channels_first else x[..., :1])
        counted = pool(il.pad(ones, tuple(widths)), size, strides, 0, data_format=fmt)
        return summed / counted

    return fn


def _layer_fn(layer: Any, rank: int | None) -> Any:
    """``f(params, *args)``: what ``layer`` computes at inference, with ivy_like ops on Keras's
    own layouts (channels-last, HWIO kernels); ``params`` holds its weights by their names."""
    import ivy_like as il

    L = keras.layers
    fail = functools.partial(_functional_error, layer)
    first = getattr(layer, "data_format", "channels_last") == "channels_first"
    if type(layer) is L.Dense:
        bias = layer.use_bias

        def dense(p: Any, x: Any) -> Any:
            y = il.matmul(x, p["kernel"])
            return y + p["bias"] if bias else y

        return _then(dense, _activation_fn(layer, layer.activation))
    if type(layer) in (L.Conv1D, L.Conv2D):
        two_d = type(layer) is L.Conv2D
        if layer.padding not in ("valid", "same"):
            raise fail(f"padding={layer.padding!r}; only 'valid' and 'same'")
        fmt = ("NCHW" if first else "NHWC") if two_d else ("NCW" if first else "NWC")
        conv = il.nn.conv2d if two_d else il.nn.conv1d
        bias, groups, padding = layer.use_bias, layer.groups, layer.padding
        stride, dilation = tuple(layer.strides), tuple(layer.dilation_rate)
        if not two_d:
            stride, dilation = stride[0], dilation[0]
        to_oi = (3, 2, 0, 1) if two_d else (2, 1, 0)  # Keras's kernel -> the NC.. layout

        def conv_fn(p: Any, x: Any) -> Any:
            w = il.permute_dims(p["kernel"], to_oi) if first else p["kernel"]
            b = p["bias"] if bias else None
            return conv(x, w, b, stride, padding, dilation, groups, data_format=fmt)

        return _then(conv_fn, _activation_fn(layer, layer.activation))
    if type(layer) is L.Conv2DTranspose:
        if any(d != 1 for d in layer.dilation_rate):  # which TF's CPU kernel cannot check
            raise fail("dilation_rate; only 1")
        if layer.padding not in ("valid", "same"):
            raise fail(f"padding={layer.padding!r}")
        bias, padding = layer.use_bias, layer.padding
        stride, dilation = tuple(layer.strides), tuple(layer.dilation_rate)
        extra = None if layer.output_padding is None else tuple(layer.output_padding)
        channel = 1 if first else -1

        def deconv(p: Any, x: Any) -> Any:
            y = _conv_transpose_nhwc(x, p["kernel"], stride, dilation, padding, not first, extra)
            if not bias:
                return y
            shape = [1] * 4
            shape[channel] = -1
            return y + il.reshape(p["bias"], tuple(shape))

        return _then(deconv, _activation_fn(layer, layer.activation))
    if isinstance(layer, L.BatchNormalization):
        if not isinstance(layer.axis, int):
            raise fail(f"axis={layer.axis}; only one axis")
        axis, eps, scale, center = layer.axis, float(layer.epsilon), layer.scale, layer.center
        return lambda p, x: il.nn.batch_norm(
            x,
            p["moving_mean"],
            p["moving_variance"],
            p["gamma"] if scale else None,
            p["beta"] if center else None,
            eps=eps,
            axis=axis,
        )
    if isinstance(layer, L.LayerNormalization):
        axes = layer.axis if isinstance(layer.axis, (list, tuple)) else [layer.axis]
        if rank is None or [a % rank for a in axes] != [rank - 1]:
            raise fail(f"axis={layer.axis}; only the last axis")
        if getattr(layer, "rms_scaling", False):
            raise fail("rms_scaling")
        eps, scale, center = float(layer.epsilon), layer.scale, layer.center

        def layer_norm(p: Any, x: Any) -> Any:
            w = p["gamma"] if scale else None
            b = p["beta"] if center else None
            return il.nn.layer_norm(x, int(x.shape[-1]), w, b, eps=eps)

        return layer_norm
    if type(layer) is L.Activation:
        act = _activation_fn(layer, layer.activation)
        return (lambda p, x: x) if act is None else (lambda p, x: act(x))
    if isinstance(layer, L.ReLU):
        if layer.max_value is not None or layer.negative_slope or layer.threshold:
            raise fail("max_value, negative_slope or threshold")
        return lambda p, x: il.nn.relu(x)
    if isinstance(layer, L.Softmax):
        if isinstance(layer.axis, int):
            soft_axis = layer.axis
        elif len(layer.axis) != 1:
            raise fail(f"axis={layer.axis}; only one axis")
        else:
            soft_axis = int(layer.axis[0])
        return lambda p, x: il.nn.softmax(x, soft_axis)
    merges = {
        L.Add: lambda xs: functools.reduce(lambda a, b: a + b, xs),
        L.Multiply: lambda xs: functools.reduce(lambda a, b: a * b, xs),
        L.Average: lambda xs: functools.reduce(lambda a, b: a + b, xs) / len(xs),
        L.Maximum: lambda xs: functools.reduce(il.maximum, xs),
        L.Minimum: lambda xs: functools.reduce(il.minimum, xs),
        L.Subtract: lambda xs: xs[0] - xs[1],
    }
    if type(layer) in merges:
        merge = merges[type(layer)]
        return lambda p, xs: merge(list(xs))
    if type(layer) is L.Concatenate:
        axis = int(layer.axis)
        return lambda p, xs: il.concat(list(xs), axis=axis)
    if isinstance(layer, L.Flatten):

        def flatten(p: Any, x: Any) -> Any:
            if first and len(x.shape) > 2:  # Keras moves the channels last before flattening
                x = il.permute_dims(x, (0, *range(2, len(x.shape)), 1))
            return il.reshape(x, (int(x.shape[0]), -1))

        return flatten
    if isinstance(layer, L.Reshape):
        target = tuple(int(n) for n in layer.target_shape)
        return lambda p, x: il.reshape(x, (int(x.shape[0]), *target))
    if isinstance(layer, (L.Dropout, L.Identity)):  # inference: the input itself
        return lambda p, x: x
    if type(layer) in (L.MaxPooling2D, L.AveragePooling2D):
        if layer.padding not in ("valid", "same"):
            raise fail(f"padding={layer.padding!r}; only 'valid' and 'same'")
        pool = il.nn.max_pool2d if type(layer) is L.MaxPooling2D else il.nn.avg_pool2d
        size, strides = tuple(layer.pool_size), tuple(layer.strides)
        if layer.padding == "same":
            return _same_pool(pool, size, strides, first, type(layer) is L.AveragePooling2D)
        fmt = "NCHW" if first else "NHWC"
        return lambda p, x: pool(x, size, strides, 0, data_format=fmt)
    if type(layer) in (L.GlobalAveragePooling2D, L.GlobalMaxPooling2D):
        reduce = il.mean if type(layer) is L.GlobalAveragePooling2D else il.max
        keep = bool(layer.keepdims)
        axes = (2, 3) if first else (1, 2)
        return lambda p, x: reduce(x, axis=axes, keepdims=keep)
    raise fail()


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


def _resolve(desc: Any, values: dict[Any, Any]) -> Any:
    kind = desc[0]
    if kind == "ref":
        return values[desc[1]]
    if kind == "value":
        return desc[1]
    kids = [_resolve(d, values) for d in desc[-1]]
    return kids if kind == "list" else dict(zip(desc[1], kids))


class KerasGraphModel(Model):
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
    ) -> None:
        self.name = name
        self._steps = steps  # (function, layer name, weight names, argument desc, output key)
        self._inputs = inputs
        self._outputs = outputs
        self.params = params
        # key chains of the weights Keras does not train (BatchNormalization's statistics)
        self.buffers = frozenset(buffers)
        self._moved: tuple[Any, Any, Any] | None = None
        self.layer_names = list(dict.fromkeys(s[1] for s in steps))

    def _config(self) -> dict[str, Any]:
        return {"name": self.name, "layers": self.layer_names}

    __eq__ = object.__eq__

    # Layer sets __hash__ = None (it compares by config); a captured model hashes by identity
    __hash__ = object.__hash__  # type: ignore[assignment]

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
        for fn, layer, weights, desc, out in self._steps:
            p = {w: params[layer][w] for w in weights} if weights else empty
            values[out] = fn(p, *_resolve(desc, values))
        return _resolve(self._outputs, values)

    def _call(self, params: Any, args: tuple[Any, ...]) -> Any:
        """Run on the inputs' backend, with ``params`` or (None) ``self.params`` moved there."""
        values = self._bind(args)
        backend = _backend_of(list(values.values()))
        if params is None:
            params = self.params_on(backend)
        tokens = activate(backend)  # an op that creates an array makes one of this backend
        try:
            return self._run(params, values)
        finally:
            if tokens is not None:
                deactivate(tokens)

    def apply(self, params: Any, *args: Any) -> Any:  # type: ignore[override]
        """The model's function of ``params`` (keyed like ``model.params``) and the inputs."""
        return self._call(params, args)

    def __call__(self, *args: Any) -> Any:  # type: ignore[override]
        return self._call(None, args)


def _backend_of(xs: list[Any]) -> Any:
    import ivy_like as il

    for x in xs:
        if isinstance(x, np.ndarray):
            return current_backend()  # NumPy follows the active backend, as every op
        if hasattr(x, "shape"):
            return il.backend_of(x)
    return current_backend()


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
        extra = set(node["kwargs"]) - {"training", "mask"}
        if extra or node["kwargs"].get("mask") is not None:
            why = f"called with {', '.join(sorted(extra or {'mask'}))}"
            raise _functional_error(layer, why)
        args = _args(node["args"])
        fn = _layer_fn(layer, _rank_of(node["args"]))
        names = []
        for w in layer.weights:
            kc = f"{name}/{w.name}"
            if kc not in weights:
                weights[kc] = move(np.asarray(w.numpy()), target, kc)
                if not w.trainable:
                    buffers.add(kc)
            names.append(w.name)
        steps.append((fn, name, names, args, (name, index, 0)))
    params = Container.cont_unflatten(weights) if weights else Container()
    name = config.get("name", model.name)
    return KerasGraphModel(name, steps, inputs, outputs, params, frozenset(buffers))


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

"""Keras 3 <-> ivy_like: ``keras.Sequential`` and functional models, and Keras weight lists.

Functional models become a ``KerasGraphModel`` that keeps Keras's layouts
(``_keras_graph.py``); what follows describes the ``Sequential`` path.

Keras is channels-last (NHWC inputs, HWIO kernels); ivy_like's layers are PyTorch's
(channels-first, OIHW). Kernels are transposed, and each channels-last layer is wrapped in
``Permute`` layers that :func:`~._common.simplify` merges, so the converted model takes and
returns exactly what the original does (Flatten sees the same element order). Imported only
when a Keras conversion is asked for.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import keras
import numpy as np

from ..container._convert import leaf_shape
from ._common import (
    PARAMS,
    Spec,
    build_model,
    channels_first,
    channels_last,
    from_channels_last_layout,
    load_params,
    model_layers,
    read_specs,
    simplify,
    target_backend,
    to_channels_last_layout,
    to_numpy_exact,
    unsupported,
)

SUPPORTED_KERAS = (
    "Dense",
    "Conv1D",
    "Conv2D",
    "MaxPooling2D",
    "AveragePooling2D",
    "LayerNormalization",
    "BatchNormalization",
    "Embedding",
    "Dropout",
    "Activation",
    "ReLU",
    "Softmax",
    "Flatten",
    "Permute",
    "ZeroPadding1D/2D (before a Conv)",
)
SUPPORTED = tuple(PARAMS)


# -- Keras -> ivy_like -------------------------------------------------------------------------------
def _activation(i: int, layer: Any, fn: Any) -> list[Spec]:
    a = keras.activations
    table = {
        a.linear: [],
        a.relu: [Spec("ReLU")],
        a.gelu: [Spec("GELU", {"approximate": "none"})],  # Keras's default is the exact gelu
        a.silu: [Spec("SiLU")],
        a.sigmoid: [Spec("Sigmoid")],
        a.tanh: [Spec("Tanh")],
        a.softmax: [Spec("Softmax", {"axis": -1})],
        a.log_softmax: [Spec("LogSoftmax", {"axis": -1})],
    }
    if fn is None:
        return []
    if fn is _gelu_tanh:  # what to_keras writes for GELU(approximate="tanh")
        return [Spec("GELU", {"approximate": "tanh"})]
    # to_keras writes a softmax over another axis as a partial with ``axis``.
    if isinstance(fn, functools.partial) and fn.func in (a.softmax, a.log_softmax):
        if not fn.args and set(fn.keywords) == {"axis"}:
            kind = "Softmax" if fn.func is a.softmax else "LogSoftmax"
            return [Spec(kind, {"axis": int(fn.keywords["axis"])})]
    if fn not in table:
        name = getattr(fn, "__name__", repr(fn))
        raise unsupported(
            "from_keras",
            i,
            layer,
            SUPPORTED_KERAS,
            f"activation {name!r}; supported: linear, relu, gelu, silu, sigmoid, tanh, "
            "softmax, log_softmax",
        )
    return [Spec(s.kind, dict(s.config)) for s in table[fn]]


def _rank(i: int, layer: Any) -> int:
    try:
        return len(layer.input.shape)
    except (AttributeError, ValueError, TypeError) as err:
        raise ValueError(
            f"from_keras: layer {i} ({type(layer).__name__}) has no known input shape; build "
            "the model first (start it with keras.Input, call model.build(shape) or call it "
            "once)"
        ) from err


def _channels_last_wrap(layer: Any, rank: int, specs: list[Spec]) -> list[Spec]:
    """``specs`` (channels-first layers) wrapped so they take and give Keras's layout."""
    if getattr(layer, "data_format", "channels_last") == "channels_first":
        return specs
    return [
        Spec("Permute", {"dims": channels_first(rank)}),
        *specs,
        Spec("Permute", {"dims": channels_last(rank)}),
    ]


def _same_padding(i: int, layer: Any, kernel: Any, strides: Any, dilation: Any) -> tuple[int, ...]:
    """Keras's "same" padding as the symmetric padding ivy_like's layers take, where it is."""
    pads = []
    for k, s, d in zip(kernel, strides, dilation):
        total = (k - 1) * d
        if s != 1 or total % 2:
            raise unsupported(
                "from_keras",
                i,
                layer,
                SUPPORTED_KERAS,
                "padding='same' with a stride or an even kernel pads asymmetrically",
            )
        pads.append(total // 2)
    return tuple(pads)


def _one(v: Sequence[int]) -> Any:
    """An int for equal entries (the form ivy_like's layers take), the tuple otherwise."""
    v = tuple(int(x) for x in v)
    return v[0] if len(set(v)) == 1 else v


def _keras_specs(i: int, layer: Any) -> list[Spec]:
    L = keras.layers
    fail = functools.partial(unsupported, "from_keras", i, layer, SUPPORTED_KERAS)
    weights = [np.asarray(w) for w in layer.get_weights()]
    if isinstance(layer, L.Dense):
        kernel = weights[0]
        w = {"weight": from_channels_last_layout("Linear", "weight", kernel)}
        if layer.use_bias:
            w["bias"] = weights[1]
        config = {
            "in_features": kernel.shape[0],
            "out_features": kernel.shape[1],
            "bias": bool(layer.use_bias),
        }
        return [Spec("Linear", config, w), *_activation(i, layer, layer.activation)]
    if isinstance(layer, (L.Conv1D, L.Conv2D)) and type(layer) in (L.Conv1D, L.Conv2D):
        kind = "Conv2d" if isinstance(layer, L.Conv2D) else "Conv1d"
        kernel = weights[0]
        if layer.padding == "valid":
            padding: Any = 0
        elif layer.padding == "same":
            padding = _one(
                _same_padding(i, layer, layer.kernel_size, layer.strides, layer.dilation_rate)
            )
        else:
            raise fail(f"padding={layer.padding!r}")
        w = {"weight": from_channels_last_layout(kind, "weight", kernel)}
        if layer.use_bias:
            w["bias"] = weights[1]
        config = {
            "in_channels": kernel.shape[-2] * layer.groups,
            "out_channels": kernel.shape[-1],
            "kernel_size": _one(layer.kernel_size),
            "stride": _one(layer.strides),
            "padding": padding,
            "dilation": _one(layer.dilation_rate),
            "groups": layer.groups,
            "bias": bool(layer.use_bias),
        }
        rank = 4 if kind == "Conv2d" else 3
        conv = _channels_last_wrap(layer, rank, [Spec(kind, config, w)])
        return [*conv, *_activation(i, layer, layer.activation)]
    if isinstance(layer, (L.MaxPooling2D, L.AveragePooling2D)):
        if layer.padding != "valid":
            raise fail(f"padding={layer.padding!r}; only 'valid'")
        kind = "MaxPool2d" if isinstance(layer, L.MaxPooling2D) else "AvgPool2d"
        config = {"kernel_size": _one(layer.pool_size), "stride": _one(layer.strides), "padding": 0}
        return _channels_last_wrap(layer, 4, [Spec(kind, config)])
    if isinstance(layer, L.BatchNormalization):
        rank = _rank(i, layer)
        axis = layer.axis if isinstance(layer.axis, int) else None
        if axis is None or axis % rank not in (1, rank - 1):
            raise fail(f"axis={layer.axis}; only the channel axis (1 or -1)")
        mean, var = weights[-2:]
        gamma = weights[0] if layer.scale else np.ones_like(mean)
        beta = weights[int(layer.scale)] if layer.center else np.zeros_like(mean)
        w = {"weight": gamma, "bias": beta, "running_mean": mean, "running_var": var}
        spec = Spec("BatchNorm2d", {"num_features": mean.shape[0], "eps": layer.epsilon}, w)
        if axis % rank == 1 or rank == 2:
            return [spec]
        return [
            Spec("Permute", {"dims": channels_first(rank)}),
            spec,
            Spec("Permute", {"dims": channels_last(rank)}),
        ]
    if isinstance(layer, L.LayerNormalization):
        rank = _rank(i, layer)
        axes = [a % rank for a in (layer.axis if isinstance(layer.axis, list) else [layer.axis])]
        if axes != [rank - 1] or getattr(layer, "rms_scaling", False):
            raise fail(f"axis={layer.axis}; only the last axis, without rms_scaling")
        size = int(layer.input.shape[-1])
        dtype = weights[0].dtype if weights else np.float32
        gamma = weights[0] if layer.scale else np.ones(size, dtype)
        beta = weights[int(layer.scale)] if layer.center else np.zeros(size, dtype)
        config = {"normalized_shape": size, "eps": layer.epsilon}
        return [Spec("LayerNorm", config, {"weight": gamma, "bias": beta})]
    if isinstance(layer, L.Embedding):
        table = weights[0]
        config = {"num_embeddings": table.shape[0], "embedding_dim": table.shape[1]}
        return [Spec("Embedding", config, {"weight": table})]
    if isinstance(layer, L.Dropout) and type(layer) is L.Dropout:
        return [Spec("Dropout", {"p": float(layer.rate)})]
    if type(layer) is L.Activation:
        return _activation(i, layer, layer.activation)
    if isinstance(layer, L.ReLU):
        if layer.max_value is not None or layer.negative_slope or layer.threshold:
            raise fail("max_value, negative_slope or threshold")
        return [Spec("ReLU")]
    if isinstance(layer, L.Softmax):
        axis = layer.axis if isinstance(layer.axis, int) else None
        if axis is None:
            if len(layer.axis) != 1:
                raise fail(f"axis={layer.axis}; only one axis")
            axis = layer.axis[0]
        return [Spec("Softmax", {"axis": int(axis)})]
    if isinstance(layer, L.Flatten):
        out = [Spec("Flatten", {"start_dim": 1})]
        if layer.data_format == "channels_first":
            rank = _rank(i, layer)
            if rank > 2:  # Keras moves channels last before flattening
                out.insert(0, Spec("Permute", {"dims": channels_last(rank)}))
        return out
    if isinstance(layer, L.Permute):
        return [Spec("Permute", {"dims": (0, *layer.dims)})]
    raise fail()


def from_keras(model: Any, *example_args: Any, backend: Any = None) -> Any:
    """An ivy_like model computing what the Keras model computes at inference.

    A functional model (``keras.Model(inputs, outputs)``) becomes a :class:`KerasGraphModel`:
    its graph, read from ``get_config()``, evaluated layer call by layer call with ivy_like
    ops, shared layers, several inputs and outputs (lists or dicts) included; its ``params``
    are keyed ``"<layer name>/<weight name>"`` in Keras's layouts, and a layer it cannot
    translate raises :class:`UnsupportedOpError` naming the layer (see ``docs/convert.md``).

    A subclassed model (a ``keras.Model`` or layer with its own ``call``) needs
    ``example_args``, one array per argument of ``call`` (the batch axis stays free): ``call``
    is traced on ``keras.Input`` tensors of their shapes, recording every layer call and every
    ``keras.ops`` call, and the recorded graph becomes a ``TracedKerasModel`` (a
    ``KerasGraphModel``) whose ``params`` are keyed by the Keras variables' paths inside the
    model (``"block/dense/kernel"``). Custom layers and nested models are traced through their
    own ``call``; an operation or layer it cannot translate raises :class:`UnsupportedOpError`
    naming its class and where it sits, and a ``call`` with data-dependent Python control flow
    (``if keras.ops.sum(x) > 0:``) raises one saying so. Without ``example_args`` a subclassed
    model is a ``TypeError``; Sequential and functional models ignore them.

    A ``keras.Sequential`` becomes an ``ivy_like.nn.Sequential``: its layers are Dense,
    Conv1D, Conv2D, MaxPooling2D, AveragePooling2D (padding "valid"), LayerNormalization (last
    axis), BatchNormalization (its moving statistics), Embedding, Dropout, Activation, ReLU,
    Softmax, Flatten and Permute; activations linear, relu, gelu, silu, sigmoid, tanh, softmax, log_softmax. The
    converted model takes the same (channels-last) inputs and gives the same outputs: kernels
    are transposed to ivy_like's layouts and ``Permute`` layers are inserted around the
    channels-first layers (once at the input, once before Flatten). Weights land on
    ``backend`` (the active one when None). Other layers raise
    :class:`UnsupportedLayerError` naming the layer's index and class.

    Examples
    --------
    >>> import numpy as np
    >>> import keras
    >>> from ivy_like.convert import from_keras
    >>> km = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, activation="relu")])
    >>> model = from_keras(km, backend="numpy")
    >>> x = np.ones((1, 3), dtype=np.float32)
    >>> bool(np.allclose(model(x), km(x), atol=1e-6))
    True

    A subclassed model, traced with an example input:

    >>> class Net(keras.Model):
    ...     def __init__(self):
    ...         super().__init__(name="net")
    ...         self.fc = keras.layers.Dense(2, name="fc")
    ...
    ...     def call(self, x):
    ...         return keras.ops.softmax(self.fc(x) + x[:, :2], axis=-1)
    >>> net = Net()
    >>> traced = from_keras(net, x, backend="numpy")
    >>> traced.params.cont_all_key_chains()
    ['fc/kernel', 'fc/bias']
    >>> bool(np.allclose(traced(x), net(x), atol=1e-6))
    True
    """
    if _is_subclassed(model):
        from ._keras_trace import trace_model

        return trace_model(model, example_args, backend)
    if not isinstance(model, keras.Sequential):
        from ._keras_graph import functional

        return functional(model, backend)
    specs: list[Spec] = []
    layers = list(model.layers)
    pad: Any = None  # (padding, Conv class) of a ZeroPadding layer, for the next convolution
    for i, layer in enumerate(layers):
        if pad is not None and (type(layer).__name__ != pad[1] or layer.padding != "valid"):
            raise unsupported(
                "from_keras",
                i - 1,
                layers[i - 1],
                SUPPORTED_KERAS,
                "ZeroPadding is supported only right before a Conv with padding='valid'",
            )
        if isinstance(layer, (keras.layers.ZeroPadding1D, keras.layers.ZeroPadding2D)):
            pad = _zero_padding(i, layer)
            continue
        new = _keras_specs(i, layer)
        if pad is not None:
            next(s for s in new if s.kind.startswith("Conv")).config["padding"] = pad[0]
            pad = None
        specs.extend(new)
    if pad is not None:
        raise unsupported(
            "from_keras",
            len(layers) - 1,
            layers[-1],
            SUPPORTED_KERAS,
            "ZeroPadding is supported only right before a Conv",
        )
    return build_model(simplify(specs), backend, "from_keras")


def _is_subclassed(model: Any) -> bool:
    """A model (or layer) with its own ``call``: neither Sequential nor functional."""
    from keras.src.models.functional import Functional

    return isinstance(model, keras.layers.Layer) and not isinstance(
        model, (keras.Sequential, Functional)
    )


def _zero_padding(i: int, layer: Any) -> tuple[Any, str]:
    """(ivy_like padding, the Conv class it must precede) of a symmetric ZeroPadding layer."""
    two_d = isinstance(layer, keras.layers.ZeroPadding2D)
    pairs = layer.padding if two_d else (layer.padding,)
    if any(a != b for a, b in pairs) or getattr(layer, "data_format", None) == "channels_first":
        raise unsupported(
            "from_keras", i, layer, SUPPORTED_KERAS, "asymmetric or channels_first padding"
        )
    return _one([a for a, _ in pairs]), "Conv2D" if two_d else "Conv1D"


# -- ivy_like -> Keras -------------------------------------------------------------------------------
def _gelu_tanh(x: Any) -> Any:
    return keras.activations.gelu(x, approximate=True)


def _pads(p: Any, n: int) -> tuple[int, ...]:
    return tuple(p) if isinstance(p, (tuple, list)) else (int(p),) * n


def _keras_layer(i: int, spec: Spec, layer: Any) -> tuple[list[Any], Any]:
    """The Keras layers for one ivy_like layer (channels-last for the spatial ones), and the
    input shape (without the batch axis, None when unknown) the parametrized one is built with."""
    L, c, kind = keras.layers, spec.config, spec.kind
    fail = functools.partial(unsupported, "to_keras", i, layer, SUPPORTED)
    if kind == "Linear":
        return [L.Dense(c["out_features"], use_bias=c["bias"])], (c["in_features"],)
    if kind in ("Conv1d", "Conv2d"):
        n = 2 if kind == "Conv2d" else 1
        cls = L.Conv2D if n == 2 else L.Conv1D
        pads = _pads(c["padding"], n)
        # Keras's "same" is ivy_like's symmetric padding when the stride is 1 and the padding
        # is half the dilated kernel; any other padding becomes a ZeroPadding layer before.
        same = all(
            p == (k - 1) * d // 2 and (k - 1) * d % 2 == 0 and s == 1
            for p, k, d, s in zip(
                pads, _pads(c["kernel_size"], n), _pads(c["dilation"], n), _pads(c["stride"], n)
            )
        )
        pre = []
        if any(pads) and not same:
            pre = [L.ZeroPadding2D(pads) if n == 2 else L.ZeroPadding1D(pads[0])]
        conv = cls(
            c["out_channels"],
            c["kernel_size"],
            strides=c["stride"],
            padding="same" if any(pads) and same else "valid",
            dilation_rate=c["dilation"],
            groups=c["groups"],
            use_bias=c["bias"],
        )
        return [*pre, conv], (*(None,) * n, c["in_channels"])
    if kind in ("MaxPool2d", "AvgPool2d"):
        if any(_pads(c["padding"], 2)):
            raise fail("pooling with padding has no Keras equivalent")
        cls = L.MaxPooling2D if kind == "MaxPool2d" else L.AveragePooling2D
        stride = c["kernel_size"] if c["stride"] is None else c["stride"]
        return [cls(pool_size=c["kernel_size"], strides=stride)], None
    if kind == "LayerNorm":
        shape = c["normalized_shape"]
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        if len(shape) != 1:
            raise fail("a normalized_shape of more than one axis")
        return [L.LayerNormalization(axis=-1, epsilon=c["eps"])], shape
    if kind == "BatchNorm2d":
        # Channel axis 1, as in ivy_like: no permutation, any rank.
        return [L.BatchNormalization(axis=1, epsilon=c["eps"])], (c["num_features"], None, None)
    if kind == "Embedding":
        return [L.Embedding(c["num_embeddings"], c["embedding_dim"])], (None,)
    if kind == "Dropout":
        return [L.Dropout(c["p"])], None
    if kind in ("ReLU", "SiLU", "Sigmoid", "Tanh"):
        return [L.Activation(kind.lower() if kind != "SiLU" else "silu")], None
    if kind == "GELU":
        return [L.Activation("gelu" if c["approximate"] == "none" else _gelu_tanh)], None
    if kind == "Softmax":
        return [L.Softmax(axis=c["axis"])], None
    if kind == "LogSoftmax":
        if c["axis"] == -1:
            return [L.Activation("log_softmax")], None
        fn = functools.partial(keras.activations.log_softmax, axis=c["axis"])
        return [L.Activation(fn)], None
    if kind == "Flatten":
        if c["start_dim"] != 1:
            raise fail(f"start_dim={c['start_dim']}; Keras flattens from axis 1")
        return [L.Flatten()], None
    if kind == "Permute":
        if c["dims"][0] != 0:
            raise fail("a permutation moving the batch axis")
        return [L.Permute(tuple(c["dims"][1:]))], None
    raise fail()


_CHANNELS_LAST = {"Conv1d": 3, "Conv2d": 4, "MaxPool2d": 4, "AvgPool2d": 4}


def _input_shape(spec: Spec) -> tuple[Any, ...] | None:
    c = spec.config
    if spec.kind == "Linear":
        return (c["in_features"],)
    if spec.kind == "Embedding":
        return (None,)
    return None


def to_keras(model: Any, params: Any = None, input_shape: Any = None) -> Any:
    """A Keras model with the weights of ``model`` (``params`` when given), computing what
    ``model`` computes.

    An ``ivy_like.nn.Sequential`` becomes a ``keras.Sequential`` of Keras layers (below). Any
    other portable model with ``params`` and a pure ``apply`` (a :class:`GraphModel` from
    :func:`from_torch`, a ``KerasGraphModel`` from :func:`from_keras`) becomes a
    ``keras.Model`` subclass that holds each weight as a Keras variable named after its key
    chain (``"layer1.0.conv1.weight"``; buffers non-trainable) and whose ``call`` runs
    ``model.apply`` on those variables with ivy_like on TensorFlow, so ``tf.GradientTape``
    gives the gradients with respect to its ``trainable_variables``. It takes the inputs
    ``model`` takes (``input_shape`` is not used).

    The Keras model takes the same inputs as ``model`` (channels-first where ivy_like's layers
    are): its convolutions and pools run channels-last between ``Permute`` layers, and
    kernels are transposed to Keras's layouts. ``input_shape`` (without the batch axis) adds a
    ``keras.Input``; by default it is known for models starting with Linear or Embedding.
    Layers Keras cannot express (pooling with padding, LayerNorm over several axes) raise
    :class:`UnsupportedLayerError` naming the layer.

    Examples
    --------
    >>> import numpy as np
    >>> import keras
    >>> from ivy_like.convert import from_keras, to_keras
    >>> km = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, activation="tanh")])
    >>> back = to_keras(from_keras(km, backend="numpy"))
    >>> x = np.ones((1, 3), dtype=np.float32)
    >>> bool(np.array_equal(back(x), km(x)))
    True
    """
    if getattr(model, "layers", None) is None:  # no layers to translate: wrap apply
        from ._wrap import check_portable, keras_model

        check_portable(model, "to_keras")
        return keras_model(model, params, "to_keras")
    layers = model_layers(model, "to_keras")
    specs = read_specs(model, params, "to_keras", SUPPORTED)
    # Wrap each channels-first spatial layer in permutations to and from channels-last, then
    # merge neighbouring permutations; remember which ivy_like layer each spec came from.
    wrapped: list[Spec] = []
    for i, spec in enumerate(specs):
        spec.config["_index"] = i
        rank = _CHANNELS_LAST.get(spec.kind)
        if rank is None:
            wrapped.append(spec)
        else:
            wrapped += [
                Spec("Permute", {"dims": channels_last(rank)}),
                spec,
                Spec("Permute", {"dims": channels_first(rank)}),
            ]
    built: list[tuple[Any, Any, list[np.ndarray]]] = []  # (layer, build shape, weights)
    for spec in simplify(wrapped):
        index = spec.config.pop("_index", -1)  # merged permutations come from no one layer
        klayers, shape = _keras_layer(index, spec, layers[index] if index >= 0 else None)
        weights = [
            to_channels_last_layout(
                spec.kind, name, to_numpy_exact(spec.weights[name], f"{index}/{name}")
            )
            for name in PARAMS[spec.kind]
            if name in spec.weights
        ]
        for k in klayers[:-1]:
            built.append((k, None, []))
        built.append((klayers[-1], shape, weights))
    if input_shape is None and specs:
        input_shape = _input_shape(specs[0])
    head = [] if input_shape is None else [keras.Input(tuple(input_shape))]
    if not head:
        for k, shape, weights in built:
            if weights:
                k.build((None, *shape))
    out = keras.Sequential(head + [k for k, _, _ in built])
    for k, _, weights in built:
        if weights:
            k.set_weights(weights)
    return out


# -- Keras weight lists <-> Container ----------------------------------------------------------------
def _slots(model: Any, where: str) -> list[tuple[str, str, str]]:
    """(key chain, layer kind, parameter name) of every weight, in Keras's order."""
    from ._common import layer_kind

    layers = model_layers(model, where)
    slots = []
    for i, layer in enumerate(layers):
        kind = layer_kind(layer)
        if kind is None:
            raise unsupported(where, i, layer, SUPPORTED)
        for name in PARAMS[kind]:
            kc = f"{i}/{name}"
            if kc in model.params:
                slots.append((kc, kind, name))
    return slots


def from_keras_weights(weights: Sequence[Any], model: Any, backend: Any = None) -> Any:
    """A Container of ``model``'s parameters from a Keras weight list (``get_weights()``).

    ``weights`` is in Keras's layer order and layouts (Dense kernels ``(in, out)``, Conv2D
    HWIO; BatchNormalization gamma, beta, moving mean, moving variance); each is matched to
    ``model``'s key chains, transposed to ivy_like's layout and checked: a wrong count or
    shape is a ``ValueError`` naming the key chain. The arrays land on ``backend`` (when None,
    the backend of ``model.params``).

    Examples
    --------
    >>> import numpy as np
    >>> import keras
    >>> from ivy_like.convert import from_keras, from_keras_weights
    >>> km = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    >>> model = from_keras(km, backend="numpy")
    >>> c = from_keras_weights(km.get_weights(), model)
    >>> c["0/weight"].shape
    (2, 3)
    """
    where = "from_keras_weights"
    slots = _slots(model, where)
    weights = list(weights)
    if len(weights) != len(slots):
        raise ValueError(
            f"{where}: got {len(weights)} arrays, the model has {len(slots)} weights "
            f"({', '.join(kc for kc, _, _ in slots)})"
        )
    given = {}
    for (kc, kind, name), w in zip(slots, weights):
        arr = np.asarray(to_numpy_exact(w, kc) if not isinstance(w, np.ndarray) else w)
        want = leaf_shape(model.params[kc], kc) or ()
        if arr.ndim != len(want):
            raise ValueError(
                f"{where}: the array for key chain {kc!r} has shape {arr.shape}; expected "
                f"{len(want)} axes"
            )
        given[kc] = from_channels_last_layout(kind, name, arr)
    return load_params(model.params, given, target_backend(backend, model), where)


def to_keras_weights(model: Any, params: Any = None) -> list[np.ndarray]:
    """``model``'s parameters (or ``params``) as a Keras weight list for ``to_keras(model)``:
    NumPy arrays in Keras's layer order and layouts.

    Examples
    --------
    >>> import numpy as np
    >>> import keras
    >>> from ivy_like.convert import from_keras, to_keras_weights
    >>> km = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    >>> ws = to_keras_weights(from_keras(km, backend="numpy"))
    >>> all(np.array_equal(a, b) for a, b in zip(ws, km.get_weights()))
    True
    """
    params = model.params if params is None else params
    from ._common import check_structure

    check_structure(model.params, params, "to_keras_weights")
    return [
        to_channels_last_layout(kind, name, to_numpy_exact(params[kc], kc))
        for kc, kind, name in _slots(model, "to_keras_weights")
    ]

"""Keras 3 <-> ivy_like, the entry points: models both ways and Keras weight lists.

``from_keras`` sends a ``keras.Sequential`` through the layer table in ``layers.py`` to an
``ivy_like.nn.Sequential`` (below), a functional model to ``functional.py`` and a subclassed
one to ``trace.py``; the last two give a ``KerasGraphModel``, which keeps Keras's layouts.

Keras is channels-last (NHWC inputs, HWIO kernels); ivy_like's layers are PyTorch's
(channels-first, OIHW). For a Sequential, kernels are transposed, and each channels-last layer
is wrapped in ``Permute`` layers that :func:`~ivy_like.convert._specs.simplify` merges, so the
converted model takes and returns exactly what the original does (Flatten sees the same
element order). Imported only when a Keras conversion is asked for.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import keras
import numpy as np
from keras.src.models.functional import Functional

from ...container._leaves import leaf_shape
from .._errors import unsupported
from .._specs import (
    PARAMS,
    Spec,
    build_model,
    channels_first,
    channels_last,
    from_channels_last_layout,
    layer_kind,
    model_layers,
    read_specs,
    simplify,
    to_channels_last_layout,
)
from .._weights import check_structure, load_params, target_backend, to_numpy_exact
from .._wrap import check_portable
from .functional import functional
from .layers import At, gelu_tanh, lookup, one, supported
from .native import rebuild_functional
from .portable import keras_model
from .trace import trace_model

SUPPORTED_KERAS = supported(sequential=True)
SUPPORTED = tuple(PARAMS)


# -- Keras -> ivy_like -------------------------------------------------------------------------------
def _rank(i: int, layer: Any) -> int:
    try:
        return len(layer.input.shape)
    except (AttributeError, ValueError, TypeError) as err:
        raise ValueError(
            f"from_keras: layer {i} ({type(layer).__name__}) has no known input shape; build "
            "the model first (start it with keras.Input, call model.build(shape) or call it "
            "once)"
        ) from err


def _keras_specs(i: int, layer: Any) -> list[Spec]:
    """The ``ivy_like.nn`` layers of layer ``i`` of a Sequential, from the layer table."""
    fail = functools.partial(unsupported, "from_keras", i, layer, SUPPORTED_KERAS)
    read = lookup(layer, sequential=True)
    if read is None:
        raise fail()
    specs = read(layer, At(fail, functools.partial(_rank, i, layer), sequential=True)).specs
    assert specs is not None  # a Sequential entry has its specs
    return specs()


def from_keras(model: Any, *example_args: Any, backend: Any = None) -> Any:
    """An ivy_like model computing what the Keras model computes at inference.

    A functional model (``keras.Model(inputs, outputs)``) becomes a :class:`KerasGraphModel`:
    its graph, read from ``get_config()``, evaluated layer call by layer call with ivy_like
    ops, shared layers, several inputs and outputs (lists or dicts) included; its ``params``
    are keyed ``"<layer name>/<weight name>"`` in Keras's layouts (the weights of a
    ``MultiHeadAttention``, which sit in its sublayers, by their path in it:
    ``"mha/query/kernel"``), and a layer or a setting it cannot translate raises
    :class:`UnsupportedOpError` naming the layer (see ``docs/convert.md``).

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
        return trace_model(model, example_args, backend)
    if not isinstance(model, keras.Sequential):
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
    return one([a for a, _ in pairs]), "Conv2D" if two_d else "Conv1D"


# -- ivy_like -> Keras -------------------------------------------------------------------------------
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
        return [L.Activation("gelu" if c["approximate"] == "none" else gelu_tanh)], None
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
    ``model`` computes, that ``model.save("m.keras")`` and ``keras.models.load_model``
    round-trip (bit-exact weights, the same outputs) and ``model.export(path)`` writes as a
    SavedModel serving without ivy_like.

    * An ``ivy_like.nn.Sequential`` becomes a ``keras.Sequential`` of built-in Keras layers
      (below), and a model :func:`from_keras` read from a functional Keras model the functional
      model again, rebuilt from its Keras config with ``model``'s weights: built-in layers only,
      so the saved file loads with Keras alone, where ivy_like cannot be imported.
    * Any other portable model with ``params`` and a pure ``apply`` (a :class:`GraphModel` from
      :func:`from_torch`, a ``JaxprModel`` from :func:`from_flax`, a traced subclassed Keras
      model, an ``ivy_like.nn`` model; a functional model with a layer class of its own, or
      ``params`` of another dtype than its layers hold) becomes a
      :class:`~ivy_like.convert.keras.portable.PortableKerasModel`: each weight a Keras
      variable named after its key chain (``"layer1.0.conv1.weight"``; buffers
      non-trainable), ``call`` running ``model.apply`` on them with ivy_like on TensorFlow (so
      ``tf.GradientTape`` gives the gradients with respect to ``trainable_variables``), and a
      config that holds the TensorFlow graph of that call as data, traced for the inputs of the
      model's first call (or ``input_shape``, float32, without the batch axis), with a dynamic
      batch axis where ``model`` takes one. Loading it needs ivy_like imported
      (``import ivy_like.convert.keras`` registers the class with Keras); a model whose graph
      holds a Python function (``tf.numpy_function``) cannot be described, and its ``save``
      raises a ``TypeError`` naming the op, leaving no file. It takes the inputs ``model``
      takes.

    A Sequential's Keras model takes the same inputs as ``model`` (channels-first where
    ivy_like's layers are): its convolutions and pools run channels-last between ``Permute``
    layers, and kernels are transposed to Keras's layouts. ``input_shape`` (without the batch
    axis) adds a ``keras.Input``; by default it is known for models starting with Linear or
    Embedding.
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

    Saved and loaded with Keras (a model of built-in layers: no ivy_like needed to load it):

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "m.keras")
    >>> back.save(path)
    >>> bool(np.array_equal(keras.models.load_model(path)(x), km(x)))
    True
    """
    if getattr(model, "layers", None) is None:  # no layers to translate
        check_portable(model, "to_keras")
        rebuilt = rebuild_functional(model, params, "to_keras")
        if rebuilt is not None:
            return rebuilt
        return keras_model(model, params, "to_keras", input_shape)
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
    check_structure(model.params, params, "to_keras_weights")
    return [
        to_channels_last_layout(kind, name, to_numpy_exact(params[kc], kc))
        for kc, kind, name in _slots(model, "to_keras_weights")
    ]

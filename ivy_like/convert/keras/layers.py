"""The table of Keras layers every Keras path translates through: one reader per layer class.

A reader takes a built Keras layer and where it is read (:class:`At`: how to refuse it, its
input's rank) and checks the layer's settings once, giving a :class:`Translation` with the
forms the paths need: ``fn(params, *inputs)``, what the layer computes with ivy_like ops on
Keras's own layouts (channels-last data, HWIO kernels; a functional or traced model runs
these), and ``specs()``, the ``ivy_like.nn`` layers in ivy_like's (PyTorch's) layouts that a
``keras.Sequential`` becomes. A layer that has no ``ivy_like.nn`` equivalent (a merge, a
transposed convolution) has no ``specs``; one that only a Sequential takes (``Embedding``,
``Permute``) no ``fn``. Activations have one table too (:data:`ACTIVATIONS`). Imported only
when a Keras conversion is asked for.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import keras
import numpy as np

import ivy_like as il

from .._specs import Spec, channels_first, channels_last, from_channels_last_layout

Fn = Callable[..., Any]


@dataclass(frozen=True)
class Tensor:
    """A tensor argument of a layer call, by its shape (None for an unknown size)."""

    shape: tuple[int | None, ...]


@dataclass
class At:
    """Where a layer is read: ``fail(why)`` makes the error to raise (each path names the layer
    its own way), ``rank()`` the rank of its input (None when unknown), and whether the reading
    is for a ``keras.Sequential`` (which checks what its ``ivy_like.nn`` layers can express).
    A functional model's layer call also gives its positional and keyword arguments (``args``,
    ``kwargs``; each tensor a :class:`Tensor`), for the readers that take call arguments."""

    fail: Callable[..., Exception]
    rank: Callable[[], int | None]
    sequential: bool = False
    args: Sequence[Any] = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class Translation:
    """A Keras layer in the two forms: ``fn(params by weight key, *inputs)`` on Keras's layouts
    (None: not in a functional model) and ``specs()`` (None: not in a Sequential).

    ``keywords`` are the call's keyword arguments the reading took into account (any other is
    refused by the functional path); those holding tensors are passed to ``fn`` by keyword.
    ``outputs`` is the number of tensors ``fn`` returns (a tuple when more than one)."""

    fn: Fn | None = None
    specs: Callable[[], list[Spec]] | None = None
    keywords: frozenset[str] = frozenset()
    outputs: int = 1


@dataclass(frozen=True)
class Entry:
    read: Callable[[Any, At], Translation]
    sequential: bool
    functional: bool
    subclasses: bool  # a subclass of the layer is read as the layer (it computes the same)
    # Its weights sit in sublayers (keyed by their path inside the layer, "query/kernel"). Read
    # only in a functional model: a traced call records the sublayers' own calls instead.
    nested: bool = False


LAYERS: dict[type, Entry] = {}
_NAMES: list[str] = ["InputLayer"]  # in the order of the messages; an input is no layer call


def layer(
    *names: str,
    sequential: bool = True,
    functional: bool = True,
    subclasses: bool = False,
    nested: bool = False,
) -> Callable[[Callable[[Any, At], Translation]], Callable[[Any, At], Translation]]:
    """Register the decorated reader for the ``keras.layers`` classes ``names``."""

    def register(read: Callable[[Any, At], Translation]) -> Callable[[Any, At], Translation]:
        for name in names:
            entry = Entry(read, sequential, functional, subclasses, nested)
            LAYERS[getattr(keras.layers, name)] = entry
            _NAMES.append(name)
        return read

    return register


def lookup(layer: Any, sequential: bool) -> Callable[[Any, At], Translation] | None:
    """The reader of ``layer`` for a Sequential or a functional model, None if it has none."""
    entry = LAYERS.get(type(layer))
    if entry is None:
        entry = next(
            (LAYERS[c] for c in type(layer).__mro__[1:] if c in LAYERS and LAYERS[c].subclasses),
            None,
        )
    if entry is None or not (entry.sequential if sequential else entry.functional):
        return None
    return entry.read


def supported(sequential: bool, nested: bool = False) -> tuple[str, ...]:
    """The layer class names a Sequential (or a functional model) takes, for messages; for a
    functional model, the layers with weights in sublayers only when ``nested``."""
    if sequential:
        names = [n for n in _NAMES[1:] if LAYERS[getattr(keras.layers, n)].sequential]
        return (*names, "ZeroPadding1D/2D (before a Conv)")
    entries = {n: LAYERS[getattr(keras.layers, n)] for n in _NAMES[1:]}
    return (
        "InputLayer",
        *(n for n, e in entries.items() if e.functional and (nested or not e.nested)),
    )


def weight_keys(layer: Any) -> list[tuple[str, Any]]:
    """(key, variable) of each weight of ``layer``: its path inside the layer, which is its
    name (``"kernel"``) for a layer holding its own weights and ``"query/kernel"`` for one whose
    weights sit in sublayers (where the names alone collide). A weight made outside the layer's
    scope keeps its name; two weights with one key are a ``ValueError``."""
    path = getattr(layer, "path", None)
    prefix = f"{path}/" if path else None
    keys = []
    for w in layer.weights:
        p = str(w.path)
        keys.append((p[len(prefix) :] if prefix and p.startswith(prefix) else str(w.name), w))
    names = [k for k, _ in keys]
    if len(set(names)) != len(names):
        twice = sorted({k for k in names if names.count(k) > 1})
        raise ValueError(f"layer {layer.name!r} has several weights keyed {twice}")
    return keys


# -- activations ---------------------------------------------------------------------------------
def gelu_tanh(x: Any) -> Any:
    """Keras's tanh-approximated gelu: what ``to_keras`` writes for ``GELU(approximate="tanh")``."""
    return keras.activations.gelu(x, approximate=True)


def _activations() -> dict[Any, tuple[str, Fn, list[Spec] | None]]:
    a = keras.activations
    return {  # Keras activation -> (name, ivy_like function, ivy_like.nn layers)
        a.relu: ("relu", il.nn.relu, [Spec("ReLU")]),
        a.relu6: ("relu6", il.nn.relu6, None),
        a.gelu: ("gelu", il.nn.gelu, [Spec("GELU", {"approximate": "none"})]),  # Keras: exact
        gelu_tanh: (
            "gelu_tanh",
            functools.partial(il.nn.gelu, approximate="tanh"),
            [Spec("GELU", {"approximate": "tanh"})],
        ),
        a.silu: ("silu", il.nn.silu, [Spec("SiLU")]),
        a.sigmoid: ("sigmoid", il.nn.sigmoid, [Spec("Sigmoid")]),
        a.tanh: ("tanh", il.tanh, [Spec("Tanh")]),
        a.softmax: ("softmax", il.nn.softmax, [Spec("Softmax", {"axis": -1})]),
        a.log_softmax: ("log_softmax", il.nn.log_softmax, [Spec("LogSoftmax", {"axis": -1})]),
    }


ACTIVATIONS = _activations()


def activation(fn: Any, at: At) -> tuple[Fn | None, list[Spec]]:
    """A Keras activation as (its ivy_like function, None for linear; its ``ivy_like.nn``
    layers). ``to_keras`` writes a softmax over another axis as a partial with ``axis``."""
    a = keras.activations
    if fn is None or fn is a.linear:
        return None, []
    if isinstance(fn, functools.partial) and fn.func in (a.softmax, a.log_softmax):
        if not fn.args and set(fn.keywords) == {"axis"}:
            axis = int(fn.keywords["axis"])
            soft = fn.func is a.softmax
            kind = "Softmax" if soft else "LogSoftmax"
            f = il.nn.softmax if soft else il.nn.log_softmax
            return (lambda x: f(x, axis)), [Spec(kind, {"axis": axis})]
    hit = ACTIVATIONS.get(fn)
    if hit is None or (at.sequential and hit[2] is None):
        names = [v[0] for v in ACTIVATIONS.values() if v[0] != "gelu_tanh"]
        if at.sequential:
            names = [v[0] for v in ACTIVATIONS.values() if v[2] is not None and v[0] != "gelu_tanh"]
        name = getattr(fn, "__name__", repr(fn))
        raise at.fail(f"activation {name!r}; supported: linear, {', '.join(names)}")
    return hit[1], [Spec(s.kind, dict(s.config)) for s in hit[2] or []]


def _then(f: Fn, act: Fn | None) -> Fn:
    return f if act is None else (lambda p, *xs: act(f(p, *xs)))


# -- helpers of the Sequential forms -------------------------------------------------------------
def one(v: Sequence[int]) -> Any:
    """An int for equal entries (the form ivy_like's layers take), the tuple otherwise."""
    v = tuple(int(x) for x in v)
    return v[0] if len(set(v)) == 1 else v


def _channels_first(layer: Any) -> bool:
    return getattr(layer, "data_format", "channels_last") == "channels_first"


def _wrapped(layer: Any, rank: int, specs: list[Spec]) -> list[Spec]:
    """``specs`` (channels-first layers) wrapped so they take and give Keras's layout."""
    if _channels_first(layer):
        return specs
    return [
        Spec("Permute", {"dims": channels_first(rank)}),
        *specs,
        Spec("Permute", {"dims": channels_last(rank)}),
    ]


def _weights(layer: Any) -> list[np.ndarray]:
    return [np.asarray(w) for w in layer.get_weights()]


# -- the table -----------------------------------------------------------------------------------
@layer("Dense")
def dense(layer: Any, at: At) -> Translation:
    act, act_specs = activation(layer.activation, at)
    bias = layer.use_bias

    def fn(p: Any, x: Any) -> Any:
        y = il.matmul(x, p["kernel"])
        return y + p["bias"] if bias else y

    def specs() -> list[Spec]:
        weights = _weights(layer)
        kernel = weights[0]
        w = {"weight": from_channels_last_layout("Linear", "weight", kernel)}
        if bias:
            w["bias"] = weights[1]
        config = {"in_features": kernel.shape[0], "out_features": kernel.shape[1], "bias": bias}
        return [Spec("Linear", config, w), *act_specs]

    return Translation(_then(fn, act), specs)


@layer("Conv1D", "Conv2D")
def conv(layer: Any, at: At) -> Translation:
    if layer.padding not in ("valid", "same"):
        raise at.fail(f"padding={layer.padding!r}; only 'valid' and 'same'")
    act, act_specs = activation(layer.activation, at)
    two_d = type(layer) is keras.layers.Conv2D
    first = _channels_first(layer)
    fmt = ("NCHW" if first else "NHWC") if two_d else ("NCW" if first else "NWC")
    op = il.nn.conv2d if two_d else il.nn.conv1d
    bias, groups, padding = layer.use_bias, layer.groups, layer.padding
    stride, dilation = tuple(layer.strides), tuple(layer.dilation_rate)
    to_oi = (3, 2, 0, 1) if two_d else (2, 1, 0)  # Keras's kernel -> the NC.. layout

    s, d = (stride, dilation) if two_d else (stride[0], dilation[0])

    def fn(p: Any, x: Any) -> Any:
        w = il.permute_dims(p["kernel"], to_oi) if first else p["kernel"]
        b = p["bias"] if bias else None
        return op(x, w, b, s, padding, d, groups, data_format=fmt)

    def specs() -> list[Spec]:
        kind = "Conv2d" if two_d else "Conv1d"
        pads: Any = 0
        if padding == "same":  # symmetric where ivy_like's layers can take it
            pads = []
            for k, s, d in zip(layer.kernel_size, stride, dilation):
                if s != 1 or (k - 1) * d % 2:
                    raise at.fail(
                        "padding='same' with a stride or an even kernel pads asymmetrically"
                    )
                pads.append((k - 1) * d // 2)
            pads = one(pads)
        weights = _weights(layer)
        kernel = weights[0]
        w = {"weight": from_channels_last_layout(kind, "weight", kernel)}
        if bias:
            w["bias"] = weights[1]
        config = {
            "in_channels": kernel.shape[-2] * groups,
            "out_channels": kernel.shape[-1],
            "kernel_size": one(layer.kernel_size),
            "stride": one(stride),
            "padding": pads,
            "dilation": one(dilation),
            "groups": groups,
            "bias": bool(bias),
        }
        return [*_wrapped(layer, 4 if two_d else 3, [Spec(kind, config, w)]), *act_specs]

    return Translation(_then(fn, act), specs)


@layer("Conv2DTranspose", sequential=False)
def conv_transpose(layer: Any, at: At) -> Translation:
    if any(d != 1 for d in layer.dilation_rate):  # which TF's CPU kernel cannot check
        raise at.fail("dilation_rate; only 1")
    if layer.padding not in ("valid", "same"):
        raise at.fail(f"padding={layer.padding!r}")
    act, _ = activation(layer.activation, at)
    bias, padding, first = layer.use_bias, layer.padding, _channels_first(layer)
    stride, dilation = tuple(layer.strides), tuple(layer.dilation_rate)
    extra = None if layer.output_padding is None else tuple(layer.output_padding)

    def fn(p: Any, x: Any) -> Any:
        y = conv_transpose_nhwc(x, p["kernel"], stride, dilation, padding, not first, extra)
        if not bias:
            return y
        shape = [1] * 4
        shape[1 if first else -1] = -1
        return y + il.reshape(p["bias"], tuple(shape))

    return Translation(_then(fn, act))


def conv_transpose_nhwc(
    x: Any,
    kernel: Any,
    strides: Any,
    dilation: Any,
    padding: str,
    is_channels_last: bool,
    output_padding: Any = None,
) -> Any:
    """Keras's ``Conv2DTranspose`` as the convolution it is the gradient of: ``stride - 1``
    zeros between the input's elements, padded so that the output has Keras's size (its
    ``output_padding`` included), convolved by the kernel flipped with its in/out channels
    swapped."""
    if not is_channels_last:
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
    return y if is_channels_last else il.permute_dims(y, (0, 3, 1, 2))


def _deconv_length(size: int, k_eff: int, s: int, padding: str, output_padding: Any) -> int:
    """Keras's output length of a transposed convolution (``k_eff``: the dilated kernel)."""
    if output_padding is None:
        return size * s + max(k_eff - s, 0) if padding == "valid" else size * s
    extra = k_eff if padding == "valid" else k_eff % 2
    return (size - 1) * s + extra + int(output_padding)


@layer("BatchNormalization", subclasses=True)
def batch_norm(layer: Any, at: At) -> Translation:
    if not isinstance(layer.axis, int):
        raise at.fail(f"axis={layer.axis}; only one axis")
    axis, eps, scale, center = layer.axis, float(layer.epsilon), layer.scale, layer.center

    def fn(p: Any, x: Any) -> Any:
        gamma = p["gamma"] if scale else None
        beta = p["beta"] if center else None
        mean, var = p["moving_mean"], p["moving_variance"]
        return il.nn.batch_norm(x, mean, var, gamma, beta, eps=eps, axis=axis)

    def specs() -> list[Spec]:
        rank = at.rank()
        assert rank is not None  # a Sequential's rank() raises when it is unknown
        if axis % rank not in (1, rank - 1):
            raise at.fail(f"axis={layer.axis}; only the channel axis (1 or -1)")
        weights = _weights(layer)
        mean, var = weights[-2:]
        gamma = weights[0] if scale else np.ones_like(mean)
        beta = weights[int(scale)] if center else np.zeros_like(mean)
        w = {"weight": gamma, "bias": beta, "running_mean": mean, "running_var": var}
        spec = Spec("BatchNorm2d", {"num_features": mean.shape[0], "eps": eps}, w)
        if axis % rank == 1 or rank == 2:
            return [spec]
        return [
            Spec("Permute", {"dims": channels_first(rank)}),
            spec,
            Spec("Permute", {"dims": channels_last(rank)}),
        ]

    return Translation(fn, specs)


@layer("LayerNormalization", subclasses=True)
def layer_norm(layer: Any, at: At) -> Translation:
    rank = at.rank()
    axes = layer.axis if isinstance(layer.axis, (list, tuple)) else [layer.axis]
    if rank is None or [a % rank for a in axes] != [rank - 1]:
        raise at.fail(f"axis={layer.axis}; only the last axis")
    if getattr(layer, "rms_scaling", False):
        raise at.fail("rms_scaling")
    eps, scale, center = float(layer.epsilon), layer.scale, layer.center

    def fn(p: Any, x: Any) -> Any:
        w = p["gamma"] if scale else None
        b = p["beta"] if center else None
        return il.nn.layer_norm(x, int(x.shape[-1]), w, b, eps=eps)

    def specs() -> list[Spec]:
        size = int(layer.input.shape[-1])
        weights = _weights(layer)
        dtype = weights[0].dtype if weights else np.float32
        gamma = weights[0] if scale else np.ones(size, dtype)
        beta = weights[int(scale)] if center else np.zeros(size, dtype)
        config = {"normalized_shape": size, "eps": layer.epsilon}
        return [Spec("LayerNorm", config, {"weight": gamma, "bias": beta})]

    return Translation(fn, specs)


@layer("Embedding", functional=False, subclasses=True)
def embedding(layer: Any, at: At) -> Translation:
    def specs() -> list[Spec]:
        table = _weights(layer)[0]
        config = {"num_embeddings": table.shape[0], "embedding_dim": table.shape[1]}
        return [Spec("Embedding", config, {"weight": table})]

    return Translation(None, specs)


@layer("Dropout", subclasses=True)
def dropout(layer: Any, at: At) -> Translation:
    """At inference the input itself; a Sequential keeps a Dropout layer (for training), but not
    a subclass's (spatial dropout drops whole channels)."""
    if at.sequential and type(layer) is not keras.layers.Dropout:
        raise at.fail()
    return Translation(_identity, lambda: [Spec("Dropout", {"p": float(layer.rate)})])


@layer("Identity", sequential=False, subclasses=True)
def identity(layer: Any, at: At) -> Translation:
    return Translation(_identity)


def _identity(p: Any, x: Any) -> Any:
    return x


@layer("Activation")
def activation_layer(layer: Any, at: At) -> Translation:
    act, act_specs = activation(layer.activation, at)
    fn = _identity if act is None else (lambda p, x: act(x))
    return Translation(fn, lambda: act_specs)


@layer("ReLU", subclasses=True)
def relu(layer: Any, at: At) -> Translation:
    if layer.max_value is not None or layer.negative_slope or layer.threshold:
        raise at.fail("max_value, negative_slope or threshold")
    return Translation(lambda p, x: il.nn.relu(x), lambda: [Spec("ReLU")])


@layer("Softmax", subclasses=True)
def softmax(layer: Any, at: At) -> Translation:
    axis = layer.axis
    if not isinstance(axis, int):
        if len(axis) != 1:
            raise at.fail(f"axis={layer.axis}; only one axis")
        axis = axis[0]
    axis = int(axis)
    return Translation(
        lambda p, x: il.nn.softmax(x, axis), lambda: [Spec("Softmax", {"axis": axis})]
    )


def _reduce_all(f: Fn) -> Fn:
    return lambda xs: functools.reduce(f, xs)


_MERGES: dict[str, Fn] = {
    "Add": _reduce_all(lambda a, b: a + b),
    "Multiply": _reduce_all(lambda a, b: a * b),
    "Average": lambda xs: _reduce_all(lambda a, b: a + b)(xs) / len(xs),
    "Maximum": _reduce_all(il.maximum),
    "Minimum": _reduce_all(il.minimum),
    "Subtract": lambda xs: xs[0] - xs[1],
}


@layer(*_MERGES, sequential=False)
def merge(layer: Any, at: At) -> Translation:
    f = _MERGES[type(layer).__name__]
    return Translation(lambda p, xs: f(list(xs)))


@layer("Concatenate", sequential=False)
def concatenate(layer: Any, at: At) -> Translation:
    axis = int(layer.axis)
    return Translation(lambda p, xs: il.concat(list(xs), axis=axis))


@layer("Flatten", subclasses=True)
def flatten(layer: Any, at: At) -> Translation:
    first = _channels_first(layer)

    def fn(p: Any, x: Any) -> Any:
        if first and len(x.shape) > 2:  # Keras moves the channels last before flattening
            x = il.permute_dims(x, (0, *range(2, len(x.shape)), 1))
        return il.reshape(x, (int(x.shape[0]), -1))

    def specs() -> list[Spec]:
        out = [Spec("Flatten", {"start_dim": 1})]
        rank = at.rank() if first else None
        if rank is not None and rank > 2:  # Keras moves channels last before flattening
            out.insert(0, Spec("Permute", {"dims": channels_last(rank)}))
        return out

    return Translation(fn, specs)


@layer("Reshape", sequential=False, subclasses=True)
def reshape(layer: Any, at: At) -> Translation:
    target = tuple(int(n) for n in layer.target_shape)
    return Translation(lambda p, x: il.reshape(x, (int(x.shape[0]), *target)))


@layer("Permute", functional=False, subclasses=True)
def permute(layer: Any, at: At) -> Translation:
    return Translation(None, lambda: [Spec("Permute", {"dims": (0, *layer.dims)})])


@layer("MaxPooling2D", "AveragePooling2D")
def pool(layer: Any, at: At) -> Translation:
    if layer.padding not in ("valid", "same"):
        raise at.fail(f"padding={layer.padding!r}; only 'valid' and 'same'")
    average = type(layer) is keras.layers.AveragePooling2D
    op = il.nn.avg_pool2d if average else il.nn.max_pool2d
    size, strides, first = tuple(layer.pool_size), tuple(layer.strides), _channels_first(layer)
    if layer.padding == "same":
        fn = _same_pool(op, size, strides, first, average)
    else:
        fmt = "NCHW" if first else "NHWC"
        fn = lambda p, x: op(x, size, strides, 0, data_format=fmt)  # noqa: E731

    def specs() -> list[Spec]:
        if layer.padding != "valid":
            raise at.fail(f"padding={layer.padding!r}; only 'valid'")
        kind = "AvgPool2d" if average else "MaxPool2d"
        config = {"kernel_size": one(size), "stride": one(strides), "padding": 0}
        return _wrapped(layer, 4, [Spec(kind, config)])

    return Translation(fn, specs)


def _same_pool(pool: Fn, size: Any, strides: Any, channels_first: bool, average: bool) -> Fn:
    """Keras's ``padding="same"`` pooling: the output has ``ceil(n / stride)`` positions, the
    input padded as TF pads (half the padding before, the rest after); a max ignores the
    padding (it is -inf) and an average leaves it out of the count."""
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


_GLOBAL_POOLS = (
    "GlobalAveragePooling1D",
    "GlobalMaxPooling1D",
    "GlobalAveragePooling2D",
    "GlobalMaxPooling2D",
)


@layer(*_GLOBAL_POOLS, sequential=False)
def global_pool(layer: Any, at: At) -> Translation:
    name = type(layer).__name__
    reduce = il.mean if name.startswith("GlobalAverage") else il.max
    keep = bool(layer.keepdims)
    n = 1 if name.endswith("1D") else 2
    first = 2 if _channels_first(layer) else 1
    axes = tuple(range(first, first + n))
    return Translation(lambda p, x: reduce(x, axis=axes, keepdims=keep))


@layer("Attention", sequential=False)
def attention(layer: Any, at: At) -> Translation:
    """Keras's dot-product (Luong) or concat (Bahdanau-style) attention, ``[query, value]`` or
    ``[query, value, key]``, without masks (a call with a mask is refused by its reader)."""
    concat = layer.score_mode == "concat"
    scaled = layer.use_scale

    def fn(p: Any, xs: Any) -> Any:
        q, v = xs[0], xs[1]
        k = xs[2] if len(xs) > 2 else v
        if concat:
            summed = il.expand_dims(q, axis=-2) + il.expand_dims(k, axis=-3)
            if scaled:
                summed = p["scale"] * summed
            scores = p["concat_score_weight"] * il.sum(il.tanh(summed), axis=-1)
        else:
            scores = il.matmul(q, il.matrix_transpose(k))
            if scaled:
                scores = scores * p["scale"]
        return il.matmul(il.nn.softmax(scores, -1), v)

    return Translation(fn)


# A masked attention logit: far below any real one, so its weight is 0 (Keras uses -1e9 in its
# Softmax layer; its fused attention a larger negative number, which gives the same weights).
_MASKED = -1e9
_MHA_TENSORS = ("query", "value", "key", "attention_mask")


@layer("MultiHeadAttention", sequential=False, nested=True)
def multi_head_attention(layer: Any, at: At) -> Translation:
    """Keras's MultiHeadAttention on ``(batch, sequence, features)`` inputs, attention over the
    sequence axis (the default ``attention_axes``), at inference: the query, key and value
    projections (``EinsumDense``, weights ``query/kernel`` (features, heads, key_dim) ...),
    ``softmax(q k^T / sqrt(key_dim))`` with the causal, sliding-window and ``attention_mask``
    masks, the optional sigmoid gate and the output projection. Keras computes a row whose keys
    are all masked two ways: its fused attention (no scores returned, no dropout) averages
    every value, its Softmax layer gives zeros; both are followed."""
    kw = dict(at.kwargs)
    names = ("query", "value", "key")
    if len(at.args) > len(names):
        raise at.fail(f"called with {len(at.args)} positional arguments; at most query, value, key")
    kw.update(zip(names, at.args))
    for name in _MHA_TENSORS:
        if kw.get(name) is not None and not isinstance(kw[name], Tensor):
            raise at.fail(f"{name} is not a tensor")
    if not isinstance(kw.get("query"), Tensor) or not isinstance(kw.get("value"), Tensor):
        raise at.fail("called without query and value")
    axes = tuple(layer.attention_axes)
    for name in ("query", "value", "key"):
        if kw.get(name) is not None and len(kw[name].shape) != 3:
            raise at.fail(
                f"{name} of rank {len(kw[name].shape)} with attention_axes={axes}; only "
                "(batch, sequence, features) inputs, attention over the sequence axis"
            )
    if axes != (1,):  # on (batch, sequence, features) inputs only the default is valid
        raise at.fail(f"attention_axes={axes}; only the sequence axis (the default)")
    dtype = keras.backend.standardize_dtype(layer.compute_dtype)
    if dtype not in ("float32", "float64") or dtype != layer.variable_dtype:
        raise at.fail(f"dtype policy {layer.dtype_policy.name!r}; only float32 or float64")
    flags = {}
    for name in ("use_causal_mask", "return_attention_scores"):
        value = kw.get(name, False)
        if not isinstance(value, bool):
            raise at.fail(f"{name}={value!r}; only True or False")
        flags[name] = value
    causal, scores = flags["use_causal_mask"], flags["return_attention_scores"]
    config = layer.get_config()
    window, gate, bias = config.get("sliding_window"), config.get("use_gate"), layer.use_bias
    scale = 1.0 / float(np.sqrt(float(layer.key_dim)))
    # Keras's Softmax layer (dropout, or scores asked for) zeroes a row whose keys are all
    # masked; its fused attention (otherwise) gives that row uniform weights.
    zero_masked = scores or layer.dropout > 0
    out_axes = "efgh"[: len(layer.output_dense.kernel.shape) - 2]

    def project(p: Any, x: Any, name: str) -> Any:
        y = il.einsum("btd,dnh->btnh", x, p[f"{name}/kernel"])
        return y + p[f"{name}/bias"] if bias else y

    def fn(p: Any, query: Any, value: Any, key: Any = None, attention_mask: Any = None) -> Any:
        key = value if key is None else key
        q = project(p, query, "query") * scale
        k, v = project(p, key, "key"), project(p, value, "value")
        logits = il.einsum("bsnh,btnh->bnts", k, q)
        mask = None
        t, s = int(query.shape[1]), int(value.shape[1])
        rows, cols = np.arange(t)[:, None], np.arange(s)[None, :]
        band = np.ones((t, s), dtype=bool)
        if causal:
            band &= rows >= cols
        if window is not None:
            band &= np.abs(rows - cols) < window
        if causal or window is not None:
            mask = il.asarray(band)
        if attention_mask is not None:
            # Keras casts the mask to bool: any nonzero value lets the key be attended
            m = il.not_equal(attention_mask, il.zeros_like(attention_mask))
            while len(m.shape) < 4:  # (B, T, S) -> (B, 1, T, S): one mask for every head
                m = il.expand_dims(m, axis=-3)
            mask = m if mask is None else il.logical_and(m, mask)
        if mask is not None:
            logits = il.where(mask, logits, il.full_like(logits, _MASKED))
        probs = il.nn.softmax(logits, -1)
        if mask is not None and zero_masked:
            probs = il.where(mask, probs, il.zeros_like(probs))
        y = il.einsum("bnts,bsnh->btnh", probs, v)
        if gate:
            y = y * il.nn.sigmoid(project(p, query, "gate"))
        out = il.einsum(f"btnh,nh{out_axes}->bt{out_axes}", y, p["attention_output/kernel"])
        if bias:
            out = out + p["attention_output/bias"]
        return (out, probs) if scores else out

    keywords = frozenset({*names, "attention_mask", *flags})
    return Translation(fn, keywords=keywords, outputs=2 if scores else 1)

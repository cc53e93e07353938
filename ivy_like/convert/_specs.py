"""Layer specs: what the Sequential converters of every framework build and read.

A converter turns each native layer into one or more :class:`Spec` (an ``ivy_like.nn`` layer
name, its constructor arguments, and its weights already in ivy_like's layout, which is
PyTorch's). Channels-last layers are wrapped in ``Permute`` specs; :func:`simplify` then merges
neighbouring permutations (moving them across elementwise layers), so a Keras CNN becomes one
permutation at the input and one before ``Flatten``. :func:`build_model` makes the
``ivy_like.nn.Sequential`` of a list of specs and :func:`read_specs` reads one back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import ivy_like as il

from .. import nn
from ..core.backend import current_backend, get_backend
from ..nn.layers import Layer
from ._errors import unsupported
from ._weights import check_structure, load_params

PARAMS: dict[str, tuple[str, ...]] = {
    "Linear": ("weight", "bias"),
    "Conv1d": ("weight", "bias"),
    "Conv2d": ("weight", "bias"),
    "MaxPool2d": (),
    "AvgPool2d": (),
    "LayerNorm": ("weight", "bias"),
    "BatchNorm2d": ("weight", "bias", "running_mean", "running_var"),
    "Embedding": ("weight",),
    "Dropout": (),
    "ReLU": (),
    "GELU": (),
    "SiLU": (),
    "Sigmoid": (),
    "Tanh": (),
    "Softmax": (),
    "LogSoftmax": (),
    "Flatten": (),
    "Permute": (),
}
# Constructor arguments read back from a layer (``bias`` is read from the parameters instead).
CONFIG: dict[str, tuple[str, ...]] = {
    "Linear": ("in_features", "out_features"),
    "Conv1d": (
        "in_channels",
        "out_channels",
        "kernel_size",
        "stride",
        "padding",
        "dilation",
        "groups",
    ),
    "MaxPool2d": ("kernel_size", "stride", "padding"),
    "AvgPool2d": ("kernel_size", "stride", "padding"),
    "LayerNorm": ("normalized_shape", "eps"),
    "BatchNorm2d": ("num_features", "eps"),
    "Embedding": ("num_embeddings", "embedding_dim"),
    "Dropout": ("p",),
    "GELU": ("approximate",),
    "Softmax": ("axis",),
    "LogSoftmax": ("axis",),
    "Flatten": ("start_dim",),
    "Permute": ("dims",),
}
CONFIG["Conv2d"] = CONFIG["Conv1d"]
# Layers that act on each element alone: a permutation of the axes commutes with them.
ELEMENTWISE = frozenset({"ReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Dropout"})


@dataclass
class Spec:
    """One ``ivy_like.nn`` layer to build: its class name, arguments and weights (ivy layout)."""

    kind: str
    config: dict[str, Any] = field(default_factory=dict)
    weights: dict[str, Any] = field(default_factory=dict)


class Permute(Layer):
    """A parameter-free layer reordering the axes: ``permute_dims(x, dims)``.

    ``dims`` includes the batch axis (``(0, 3, 1, 2)`` takes NHWC to NCHW). The converters
    insert it where a channels-last framework (Keras) meets ivy_like's channels-first layers.

    Examples
    --------
    >>> import ivy_like
    >>> from ivy_like.convert import Permute
    >>> layer = Permute((0, 2, 1))
    >>> layer.apply(layer.init(0), ivy_like.zeros((1, 2, 3))).shape
    (1, 3, 2)
    """

    def __init__(self, dims: Any) -> None:
        dims = tuple(int(d) for d in dims)
        if sorted(dims) != list(range(len(dims))):
            raise ValueError(f"Permute: dims must be a permutation of 0..n-1, got {dims}")
        self.dims = dims

    def apply(self, params: Any, x: Any) -> Any:
        return il.permute_dims(x, self.dims)


def flax_flatten(x: Any) -> Any:
    """``x.reshape((x.shape[0], -1))``: the flatten to put in a Flax ``Sequential``.

    Flax has no Flatten layer; :func:`from_flax` recognises this function (and
    ``to_flax_params`` counts it as a layer), so a CNN can be one ``Sequential``. It imports
    no framework.

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.convert import flax_flatten
    >>> flax_flatten(np.zeros((2, 3, 4))).shape
    (2, 12)
    """
    return x.reshape((x.shape[0], -1))


# -- channels-last layouts (Keras, Flax) <-> ivy_like's (PyTorch's) --------------------------------
def from_channels_last_layout(kind: str, name: str, w: Any) -> Any:
    """A Keras/Flax weight (Dense ``(in, out)``, Conv HWIO / ``(K, I, O)``) in ivy_like's layout
    (Linear ``(out, in)``, Conv OIHW / ``(O, I, K)``), as a C-contiguous NumPy array."""
    if name == "weight" and kind == "Linear":
        w = w.T  # (in, out) -> (out, in)
    elif name == "weight" and kind == "Conv2d":
        w = w.transpose(3, 2, 0, 1)  # HWIO -> OIHW
    elif name == "weight" and kind == "Conv1d":
        w = w.transpose(2, 1, 0)  # (K, I, O) -> (O, I, K)
    return np.array(w, order="C")  # (ascontiguousarray would make a 0-d array 1-d)


def to_channels_last_layout(kind: str, name: str, w: Any) -> Any:
    """The inverse of :func:`from_channels_last_layout`."""
    if name == "weight" and kind == "Linear":
        w = w.T
    elif name == "weight" and kind == "Conv2d":
        w = w.transpose(2, 3, 1, 0)  # OIHW -> HWIO
    elif name == "weight" and kind == "Conv1d":
        w = w.transpose(2, 1, 0)
    return np.array(w, order="C")  # (ascontiguousarray would make a 0-d array 1-d)


def channels_first(rank: int) -> tuple[int, ...]:
    """The permutation taking channels-last data of ``rank`` axes to channels-first."""
    return (0, rank - 1, *range(1, rank - 1))


def channels_last(rank: int) -> tuple[int, ...]:
    """The permutation taking channels-first data of ``rank`` axes to channels-last."""
    return (0, *range(2, rank), 1)


def simplify(specs: list[Spec]) -> list[Spec]:
    """Merge neighbouring ``Permute`` specs, moving them past elementwise layers.

    A pending permutation is carried forward and emitted just before the first layer that
    depends on the axis order (or at the end), so ``P^-1, ReLU, P`` becomes ``ReLU``.
    """
    out: list[Spec] = []
    pending: tuple[int, ...] | None = None
    for spec in specs:
        if spec.kind == "Permute":
            dims = tuple(spec.config["dims"])
            # permute(permute(x, a), b) == permute(x, [a[j] for j in b])
            pending = dims if pending is None else tuple(pending[j] for j in dims)
            continue
        if spec.kind not in ELEMENTWISE and pending is not None:
            if pending != tuple(range(len(pending))):
                out.append(Spec("Permute", {"dims": pending}))
            pending = None
        out.append(spec)
    if pending is not None and pending != tuple(range(len(pending))):
        out.append(Spec("Permute", {"dims": pending}))
    return out


# -- ivy_like models -------------------------------------------------------------------------------
def make_layer(spec: Spec) -> Any:
    if spec.kind == "Permute":
        return Permute(spec.config["dims"])
    return getattr(nn, spec.kind)(**spec.config)


def build_model(specs: list[Spec], backend: Any, where: str) -> Any:
    """An ``ivy_like.nn.Sequential`` of ``specs`` with their weights as its parameters."""
    target = current_backend() if backend is None else get_backend(backend)
    model = nn.Sequential([make_layer(s) for s in specs], backend=target)
    given = {f"{i}/{name}": value for i, s in enumerate(specs) for name, value in s.weights.items()}
    model.params = load_params(model.params, given, target, where)
    return model


def model_layers(model: Any, where: str) -> list[Any]:
    layers = getattr(model, "layers", None)
    if layers is None or not hasattr(model, "params"):
        raise TypeError(
            f"{where}: model must be an ivy_like.nn.Sequential (or a model with .layers and "
            f".params), got {type(model).__name__}"
        )
    return list(layers)


def layer_kind(layer: Any) -> str | None:
    """The converter name of an ``ivy_like.nn`` layer (or ``Permute``), else None."""
    if isinstance(layer, Permute):
        return "Permute"
    name = type(layer).__name__
    cls = getattr(nn, name, None)
    return name if name in PARAMS and isinstance(cls, type) and isinstance(layer, cls) else None


def read_specs(model: Any, params: Any, where: str, supported: Any) -> list[Spec]:
    """The specs of an ivy_like model: each layer's arguments and its weights from ``params``."""
    layers = model_layers(model, where)
    params = model.params if params is None else params
    if not isinstance(params, Mapping):
        raise TypeError(f"{where}: params must be a Container, got {type(params).__name__}")
    check_structure(model.params, params, where)
    specs = []
    for i, layer in enumerate(layers):
        kind = layer_kind(layer)
        if kind is None or kind not in supported:
            raise unsupported(where, i, layer, supported)
        config = {name: getattr(layer, name) for name in CONFIG.get(kind, ())}
        weights = dict(params.get(str(i), {}))
        if kind in ("Linear", "Conv1d", "Conv2d"):
            config["bias"] = "bias" in weights
        specs.append(Spec(kind, config, weights))
    return specs

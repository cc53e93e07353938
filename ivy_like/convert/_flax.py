"""Flax (linen and nnx) <-> ivy_like: MLP-style models and params dicts.

Flax keeps Dense kernels as ``(in, out)``; ivy_like's Linear weight is ``(out, in)``. Supported
layers: Dense / nnx.Linear, LayerNorm, Embed, Dropout and the activation functions. Imported only
when a Flax conversion is asked for.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from flax import linen, nnx

from .._backend import current_backend, get_backend
from ._common import PARAMS, Spec, build_model, layer_kind, load_params, model_layers, to_numpy_exact
from ._common import unsupported as _unsupported

SUPPORTED_FLAX = (
    "Dense / nnx.Linear",
    "LayerNorm",
    "Embed",
    "Dropout",
    "relu",
    "gelu",
    "silu",
    "sigmoid",
    "tanh",
    "softmax",
    "log_softmax",
)
# ivy_like parameter name <-> Flax parameter name, per layer kind.
_NAMES = {
    "Linear": {"weight": "kernel", "bias": "bias"},
    "LayerNorm": {"weight": "scale", "bias": "bias"},
    "Embedding": {"weight": "embedding"},
}
_ACTIVATIONS = {
    "relu": Spec("ReLU"),
    "gelu": Spec("GELU", {"approximate": "tanh"}),  # jax.nn.gelu defaults to the tanh form
    "silu": Spec("SiLU"),
    "sigmoid": Spec("Sigmoid"),
    "tanh": Spec("Tanh"),
    "softmax": Spec("Softmax", {"axis": -1}),
    "log_softmax": Spec("LogSoftmax", {"axis": -1}),
}


def _activation_spec(fn: Any) -> Spec | None:
    table = {
        jax.nn.relu: "relu",
        jax.nn.gelu: "gelu",
        jax.nn.silu: "silu",
        jax.nn.sigmoid: "sigmoid",
        jnp.tanh: "tanh",
        jax.nn.softmax: "softmax",
        jax.nn.log_softmax: "log_softmax",
    }
    try:
        name = table.get(fn)
    except TypeError:  # unhashable
        return None
    if name is None:
        return None
    spec = _ACTIVATIONS[name]
    return Spec(spec.kind, dict(spec.config))


def _numpy(x: Any, kc: str) -> np.ndarray:
    return np.asarray(to_numpy_exact(x, kc))


def _params_spec(i: int, layer: Any, p: Mapping[str, Any], kc: str) -> Spec:
    """The spec of a parametrized Flax layer from its params ``p``."""
    if isinstance(layer, (linen.Dense, nnx.Linear)) or (layer is None and "kernel" in p):
        kernel = _numpy(p["kernel"], f"{kc}/kernel")
        if kernel.ndim != 2:
            raise ValueError(f"from_flax: {kc}/kernel has shape {kernel.shape}; expected (in, out)")
        w = {"weight": np.ascontiguousarray(kernel.T)}
        if "bias" in p:
            w["bias"] = _numpy(p["bias"], f"{kc}/bias")
        config = {"in_features": kernel.shape[0], "out_features": kernel.shape[1],
                  "bias": "bias" in w}
        return Spec("Linear", config, w)
    if isinstance(layer, (linen.LayerNorm, nnx.LayerNorm)):
        if layer.reduction_axes not in (-1, (-1,)) or layer.feature_axes not in (-1, (-1,)):
            raise _unsupported("from_flax", i, layer, SUPPORTED_FLAX, "reduction over other axes")
        size = next(_numpy(v, kc).shape[-1] for v in p.values())
        scale = _numpy(p["scale"], f"{kc}/scale") if "scale" in p else np.ones(size, np.float32)
        bias = _numpy(p["bias"], f"{kc}/bias") if "bias" in p else np.zeros_like(scale)
        config = {"normalized_shape": size, "eps": layer.epsilon}
        return Spec("LayerNorm", config, {"weight": scale, "bias": bias})
    if isinstance(layer, (linen.Embed, nnx.Embed)):
        table = _numpy(p["embedding"], f"{kc}/embedding")
        config = {"num_embeddings": table.shape[0], "embedding_dim": table.shape[1]}
        return Spec("Embedding", config, {"weight": table})
    raise _unsupported("from_flax", i, layer, SUPPORTED_FLAX)


def _groups(params: Mapping[str, Any]) -> list[tuple[int, str, Mapping[str, Any]]]:
    """(index, name, params) of each layer in a Flax params dict, in layer order.

    Understands linen ``nn.Sequential`` (``layers_0``), nnx ``Sequential`` (``{"layers": {0:
    ...}}``) and compact modules (``Dense_0``, ``Dense_1``: the index counts per class).
    """
    if set(params) == {"layers"} and isinstance(params["layers"], Mapping):
        items = [(int(k), f"layers/{k}", v) for k, v in params["layers"].items()]
    else:
        items = []
        for k, v in params.items():
            m = re.fullmatch(r"(.*?)_?(\d+)", str(k))
            if m is None or not isinstance(v, Mapping):
                raise ValueError(
                    f"from_flax: cannot read the layer order from the key {k!r}; expected "
                    "names like 'Dense_0' or 'layers_0' (or pass module=)"
                )
            items.append((int(m.group(2)), str(k), v))
    return sorted(items, key=lambda t: t[0])


def _unwrap(params: Any) -> tuple[Any, Any]:
    """(params dict, nnx module or None) from what the user gave."""
    module = None
    if isinstance(params, nnx.Module):
        module = params
        params = nnx.state(params, nnx.Param)
    if isinstance(params, nnx.State):
        params = params.to_pure_dict()
    if not isinstance(params, Mapping):
        raise TypeError(f"from_flax: params must be a Flax params dict, got {type(params).__name__}")
    if "params" in params:
        other = [k for k in params if k != "params"]
        if other:
            raise ValueError(
                f"from_flax: collections {other} are not supported (only 'params'; "
                "BatchNorm statistics have no Flax converter)"
            )
        params = params["params"]
    return params, module


def from_flax(
    params: Any, module: Any = None, activation: str = "relu", backend: Any = None
) -> Any:
    """An ``ivy_like.nn.Sequential`` from Flax params (linen or nnx).

    ``params`` is a linen params dict (``{"params": {...}}`` or its inside), an nnx state or
    pure dict, or an nnx module itself. With ``module`` (a ``linen.Sequential`` or
    ``nnx.Sequential``; taken from ``params`` when that is an nnx module) the layers are read
    from it: Dense / nnx.Linear, LayerNorm, Embed, Dropout and activation functions (relu,
    gelu, silu, sigmoid, tanh, softmax, log_softmax). Without it the params are read as an MLP:
    Dense layers in key order (``Dense_0``, ``layers_0`` or nnx ``layers/0``) with
    ``activation`` between them. Dense kernels ``(in, out)`` become Linear weights
    ``(out, in)``.

    Examples
    --------
    >>> import jax, numpy as np
    >>> import flax.linen as nn
    >>> from ivy_like.convert import from_flax
    >>> net = nn.Sequential([nn.Dense(4), nn.relu, nn.Dense(2)])
    >>> variables = net.init(jax.random.key(0), np.ones((1, 3), np.float32))
    >>> model = from_flax(variables, net, backend="numpy")
    >>> x = np.ones((1, 3), dtype=np.float32)
    >>> bool(np.allclose(model(x), net.apply(variables, x), atol=1e-5))
    True
    """
    params, nnx_module = _unwrap(params)
    module = nnx_module if module is None else module
    if activation not in _ACTIVATIONS:
        raise ValueError(
            f"from_flax: activation must be one of {', '.join(_ACTIVATIONS)}, got {activation!r}"
        )
    specs: list[Spec] = []
    if module is None:
        groups = _groups(params)
        for n, (_, name, p) in enumerate(groups):
            if "kernel" not in p:
                raise ValueError(
                    f"from_flax: {name} has no 'kernel'; without module= only Dense layers "
                    "are read (pass module= for other layers)"
                )
            specs.append(_params_spec(n, None, p, name))
            if n < len(groups) - 1:
                act = _ACTIVATIONS[activation]
                specs.append(Spec(act.kind, dict(act.config)))
        return build_model(specs, backend, "from_flax")
    layers = getattr(module, "layers", None)
    if layers is None:
        raise TypeError(
            f"from_flax: module must be a linen.Sequential or nnx.Sequential, got "
            f"{type(module).__name__}"
        )
    nnx_style = set(params) == {"layers"}
    used = set()
    for i, layer in enumerate(layers):
        key = i if nnx_style else f"layers_{i}"
        group = params["layers"].get(key) if nnx_style else params.get(key)
        if group:
            used.add(key)
            specs.append(_params_spec(i, layer, group, f"layers/{i}" if nnx_style else key))
        elif isinstance(layer, (linen.Dropout, nnx.Dropout)):
            specs.append(Spec("Dropout", {"p": float(layer.rate)}))
        elif (spec := _activation_spec(layer)) is not None:
            specs.append(spec)
        else:
            raise _unsupported("from_flax", i, layer, SUPPORTED_FLAX)
    extra = set(params["layers"] if nnx_style else params) - used
    if extra:
        raise ValueError(f"from_flax: params {sorted(map(str, extra))} match no layer of module")
    return build_model(specs, backend, "from_flax")


def from_flax_params(params: Any, model: Any, backend: Any = None) -> Any:
    """A Container of ``model``'s parameters from a Flax params dict.

    Layer keys ``layers_<i>`` (linen Sequential) and nnx ``layers/<i>`` name ``model``'s layer
    ``i``; compact names ``Dense_<k>``, ``LayerNorm_<k>``, ``Embed_<k>`` the ``k``-th layer of
    that kind. Kernels are transposed; missing, extra or misshapen weights are a ``ValueError``
    naming the key chain.

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.convert import from_flax, from_flax_params
    >>> flax_params = {"Dense_0": {"kernel": np.ones((3, 2), np.float32),
    ...                            "bias": np.zeros(2, np.float32)}}
    >>> model = from_flax(flax_params, backend="numpy")
    >>> from_flax_params(flax_params, model)["0/weight"].shape
    (2, 3)
    """
    params, _ = _unwrap(params)
    layers = model_layers(model, "from_flax_params")
    kinds = [layer_kind(layer) for layer in layers]
    flax_kind = {"Dense": "Linear", "LayerNorm": "LayerNorm", "Embed": "Embedding"}
    given = {}
    for n, name, p in _groups(params):
        if name.startswith("layers"):
            i = n
        else:
            kind = flax_kind.get(name.rsplit("_", 1)[0])
            where = [j for j, k in enumerate(kinds) if k == kind]
            if kind is None or n >= len(where):
                raise ValueError(f"from_flax_params: {name!r} matches no layer of the model")
            i = where[n]
        if i >= len(kinds) or kinds[i] not in _NAMES:
            raise ValueError(f"from_flax_params: {name!r} matches no layer with weights")
        names = {v: k for k, v in _NAMES[kinds[i]].items()}
        for fname, value in p.items():
            arr = _numpy(value, f"{name}/{fname}")
            if fname == "kernel":
                arr = np.ascontiguousarray(arr.T)
            given[f"{i}/{names.get(fname, fname)}"] = arr
    target = current_backend() if backend is None else get_backend(backend)
    return load_params(model.params, given, target, "from_flax_params")


def to_flax_params(model: Any, params: Any = None, style: str = "linen") -> dict[str, Any]:
    """``model``'s parameters as a Flax params dict of jax arrays.

    ``style="linen"`` gives ``{"params": {"layers_<i>": ...}}`` for a ``linen.Sequential`` with
    the same layers; ``style="nnx"`` gives ``{"layers": {i: ...}}``, the pure dict of an
    ``nnx.Sequential`` (apply it with ``nnx.update``). Linear weights become ``kernel``
    ``(in, out)``, LayerNorm ``scale``/``bias``, Embedding ``embedding``; other layers with
    weights raise :class:`UnsupportedLayerError`.

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.convert import from_flax, to_flax_params
    >>> flax_params = {"Dense_0": {"kernel": np.ones((3, 2), np.float32),
    ...                            "bias": np.zeros(2, np.float32)}}
    >>> out = to_flax_params(from_flax(flax_params, backend="numpy"))
    >>> out["params"]["layers_0"]["kernel"].shape
    (3, 2)
    """
    if style not in ("linen", "nnx"):
        raise ValueError(f"to_flax_params: style must be 'linen' or 'nnx', got {style!r}")
    layers = model_layers(model, "to_flax_params")
    params = model.params if params is None else params
    from ._common import check_structure

    check_structure(model.params, params, "to_flax_params")
    out: dict[Any, Any] = {}
    for i, layer in enumerate(layers):
        kind = layer_kind(layer)
        if kind is None or (PARAMS.get(kind) and kind not in _NAMES):
            raise _unsupported("to_flax_params", i, layer, ("Linear", "LayerNorm", "Embedding"))
        if str(i) not in params or kind not in _NAMES:
            continue
        group = {}
        for name, value in params[str(i)].items():
            arr = np.asarray(to_numpy_exact(value, f"{i}/{name}"))
            if kind == "Linear" and name == "weight":
                arr = arr.T
            group[_NAMES[kind][name]] = jnp.asarray(np.ascontiguousarray(arr))
        out[i if style == "nnx" else f"layers_{i}"] = group
    return {"layers": out} if style == "nnx" else {"params": out}

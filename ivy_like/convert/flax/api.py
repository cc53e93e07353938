"""Flax (linen and nnx) <-> ivy_like, the entry points: models both ways and params dicts.

A linen ``Sequential`` converts layer by layer (below); any other module, given example
inputs, is traced to a jaxpr (``jaxpr_trace.py``) and becomes a ``JaxprModel``.

Flax is channels-last, like Keras: Dense kernels are ``(in, out)`` (ivy_like's Linear weight is
``(out, in)``), Conv kernels HWIO (ivy_like: OIHW) and images NHWC. Kernels are transposed and
the channels-first layers wrapped in ``Permute`` layers that
:func:`~ivy_like.convert._specs.simplify` merges, so the converted model takes and returns what
the Flax model does. BatchNorm statistics live in
linen's ``batch_stats`` collection (nnx: ``BatchStat`` variables). Imported only when a Flax
conversion is asked for.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from flax import linen, nnx

from ...core.backend import get_backend
from .._errors import unsupported as _unsupported
from .._specs import (
    Spec,
    build_model,
    channels_first,
    channels_last,
    flax_flatten,
    from_channels_last_layout,
    layer_kind,
    model_layers,
    simplify,
    to_channels_last_layout,
)
from .._weights import check_structure, load_params, move, target_backend, to_numpy_exact
from .._wrap import check_portable, flax_module
from .jaxpr_model import JaxprModel
from .jaxpr_trace import trace

SUPPORTED_FLAX = (
    "Dense / nnx.Linear",
    "Conv / nnx.Conv (1-D and 2-D)",
    "max_pool / avg_pool (as functools.partial with window_shape)",
    "BatchNorm (inference: running averages)",
    "LayerNorm",
    "Embed",
    "Dropout",
    "flax_flatten",
    "relu",
    "gelu",
    "silu",
    "sigmoid",
    "tanh",
    "softmax",
    "log_softmax",
)
# ivy_like parameter name <-> Flax variable name, per layer kind.
_NAMES = {
    "Linear": {"weight": "kernel", "bias": "bias"},
    "Conv1d": {"weight": "kernel", "bias": "bias"},
    "Conv2d": {"weight": "kernel", "bias": "bias"},
    "LayerNorm": {"weight": "scale", "bias": "bias"},
    "BatchNorm2d": {
        "weight": "scale",
        "bias": "bias",
        "running_mean": "mean",
        "running_var": "var",
    },
    "Embedding": {"weight": "embedding"},
}
_STATS = ("mean", "var")  # linen keeps these in the "batch_stats" collection
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


def _ints(v: Any, n: int) -> tuple[int, ...]:
    if v is None:
        return (1,) * n
    return (int(v),) * n if isinstance(v, int) else tuple(int(i) for i in v)


def _one(v: tuple[int, ...]) -> Any:
    """An int for equal entries (the form ivy_like's layers take), the tuple otherwise."""
    return v[0] if len(set(v)) == 1 else v


def _symmetric_padding(padding: Any, n: int, fail: Any) -> tuple[int, ...] | None:
    """Explicit padding (int, ints or (lo, hi) pairs) as one symmetric amount per axis; None
    for a string (handled by the caller)."""
    if isinstance(padding, str):
        return None
    if isinstance(padding, int):
        return (padding,) * n
    pads = []
    for p in padding:
        lo, hi = (p, p) if isinstance(p, int) else tuple(p)
        if lo != hi:
            raise fail(f"asymmetric padding {tuple(padding)}")
        pads.append(int(lo))
    if len(pads) != n:
        raise fail(f"padding {tuple(padding)} for {n} spatial axes")
    return tuple(pads)


# -- Flax layer -> specs --------------------------------------------------------------------------
def _conv_specs(i: int, layer: Any, p: Mapping[str, Any], kc: str) -> tuple[list[Spec], int]:
    fail = functools.partial(_unsupported, "from_flax", i, layer, SUPPORTED_FLAX)
    kernel = _numpy(p["kernel"], f"{kc}/kernel")
    n = kernel.ndim - 2
    if n not in (1, 2):
        raise fail(f"a {n}-D convolution; only 1-D and 2-D")
    if getattr(layer, "mask", None) is not None:
        raise fail("a kernel mask")
    if _ints(getattr(layer, "input_dilation", 1), n) != (1,) * n:
        raise fail("input_dilation (a transposed convolution)")
    ksize, strides = kernel.shape[:n], _ints(layer.strides, n)
    dilation = _ints(getattr(layer, "kernel_dilation", 1), n)
    padding = layer.padding
    pads = _symmetric_padding(padding, n, fail)
    if pads is None:
        if padding.upper() == "VALID":
            pads = (0,) * n
        elif padding.upper() == "SAME":
            total = [(k - 1) * d for k, d in zip(ksize, dilation)]
            if any(s != 1 for s in strides) or any(t % 2 for t in total):
                raise fail("padding='SAME' with a stride or an even kernel pads asymmetrically")
            pads = tuple(t // 2 for t in total)
        else:
            raise fail(f"padding={padding!r}; supported: 'SAME', 'VALID', symmetric ints")
    kind = "Conv2d" if n == 2 else "Conv1d"
    groups = int(getattr(layer, "feature_group_count", 1))
    w = {"weight": from_channels_last_layout(kind, "weight", kernel)}
    if "bias" in p:
        w["bias"] = _numpy(p["bias"], f"{kc}/bias")
    config = {
        "in_channels": kernel.shape[-2] * groups,
        "out_channels": kernel.shape[-1],
        "kernel_size": _one(tuple(ksize)),
        "stride": _one(strides),
        "padding": _one(pads),
        "dilation": _one(dilation),
        "groups": groups,
        "bias": "bias" in w,
    }
    rank = n + 2
    return _channels_last_wrap(rank, [Spec(kind, config, w)]), rank


def _channels_last_wrap(rank: int, specs: list[Spec]) -> list[Spec]:
    return [
        Spec("Permute", {"dims": channels_first(rank)}),
        *specs,
        Spec("Permute", {"dims": channels_last(rank)}),
    ]


def _pool_specs(i: int, layer: functools.partial) -> list[Spec]:
    fail = functools.partial(_unsupported, "from_flax", i, layer, SUPPORTED_FLAX)
    kw = dict(layer.keywords)
    if layer.args or "window_shape" not in kw:
        raise fail("give the pool's arguments as keywords, window_shape included")
    window = tuple(int(k) for k in kw.pop("window_shape"))
    if len(window) != 2:
        raise fail(f"window_shape {window}; only 2-D pooling")
    strides = _ints(kw.pop("strides", None), 2)  # Flax's default stride is 1, not the window
    padding = kw.pop("padding", "VALID")
    count_include_pad = kw.pop("count_include_pad", True)
    if kw:
        raise fail(f"arguments {sorted(kw)}")
    pads = _symmetric_padding(padding, 2, fail)
    if pads is None:
        if padding.upper() != "VALID":
            raise fail(f"padding={padding!r}; supported: 'VALID', symmetric ints")
        pads = (0, 0)
    kind = "MaxPool2d" if layer.func is linen.max_pool else "AvgPool2d"
    if kind == "AvgPool2d" and not count_include_pad and any(pads):
        raise fail("count_include_pad=False with padding")
    if any(2 * p > k for p, k in zip(pads, window)):
        raise fail("padding larger than half the window")
    config = {"kernel_size": _one(window), "stride": _one(strides), "padding": _one(pads)}
    return _channels_last_wrap(4, [Spec(kind, config)])


def _params_specs(
    i: int, layer: Any, p: Mapping[str, Any], kc: str, rank: int | None
) -> tuple[list[Spec], int | None]:
    """The specs of a Flax layer with variables ``p``, and the rank of its output (None when
    unknown)."""
    fail = functools.partial(_unsupported, "from_flax", i, layer, SUPPORTED_FLAX)
    if isinstance(layer, (linen.Dense, nnx.Linear)) or (layer is None and "kernel" in p):
        kernel = _numpy(p["kernel"], f"{kc}/kernel")
        if kernel.ndim != 2:
            raise ValueError(f"from_flax: {kc}/kernel has shape {kernel.shape}; expected (in, out)")
        w = {"weight": from_channels_last_layout("Linear", "weight", kernel)}
        if "bias" in p:
            w["bias"] = _numpy(p["bias"], f"{kc}/bias")
        config = {
            "in_features": kernel.shape[0],
            "out_features": kernel.shape[1],
            "bias": "bias" in w,
        }
        return [Spec("Linear", config, w)], rank
    if isinstance(layer, (linen.Conv, nnx.Conv)) and type(layer) in (linen.Conv, nnx.Conv):
        return _conv_specs(i, layer, p, kc)
    if isinstance(layer, (linen.LayerNorm, nnx.LayerNorm)):
        if layer.reduction_axes not in (-1, (-1,)) or layer.feature_axes not in (-1, (-1,)):
            raise fail("reduction over other axes than the last")
        size = next(_numpy(v, kc).shape[-1] for v in p.values())
        scale = _numpy(p["scale"], f"{kc}/scale") if "scale" in p else np.ones(size, np.float32)
        bias = _numpy(p["bias"], f"{kc}/bias") if "bias" in p else np.zeros_like(scale)
        config = {"normalized_shape": size, "eps": layer.epsilon}
        return [Spec("LayerNorm", config, {"weight": scale, "bias": bias})], rank
    if isinstance(layer, (linen.BatchNorm, nnx.BatchNorm)):
        if layer.axis not in (-1,) and (rank is None or layer.axis % rank != rank - 1):
            raise fail(f"axis={layer.axis}; only the last (channel) axis")
        missing = [name for name in _STATS if name not in p]
        if missing:
            raise ValueError(
                f"from_flax: {kc} (BatchNorm) has no running statistics {missing}; pass the "
                "whole variables dict (with 'batch_stats') or the nnx module"
            )
        mean = _numpy(p["mean"], f"{kc}/mean")
        var = _numpy(p["var"], f"{kc}/var")
        w = {
            "weight": _numpy(p["scale"], f"{kc}/scale") if "scale" in p else np.ones_like(mean),
            "bias": _numpy(p["bias"], f"{kc}/bias") if "bias" in p else np.zeros_like(mean),
            "running_mean": mean,
            "running_var": var,
        }
        spec = Spec("BatchNorm2d", {"num_features": mean.shape[0], "eps": layer.epsilon}, w)
        if rank == 2:
            return [spec], rank  # (N, C): ivy_like's channel axis 1 is the last axis
        if rank is None:
            raise ValueError(
                f"from_flax: cannot tell the rank of the input of layer {i} (BatchNorm); put "
                "a Conv, pool or flax_flatten before it, or pass input_shape="
            )
        return _channels_last_wrap(rank, [spec]), rank
    if isinstance(layer, (linen.Embed, nnx.Embed)):
        table = _numpy(p["embedding"], f"{kc}/embedding")
        config = {"num_embeddings": table.shape[0], "embedding_dim": table.shape[1]}
        return [Spec("Embedding", config, {"weight": table})], None if rank is None else rank + 1
    raise fail()


_PARAMETRIZED = (
    linen.Dense,
    nnx.Linear,
    linen.Conv,
    nnx.Conv,
    linen.LayerNorm,
    nnx.LayerNorm,
    linen.BatchNorm,
    nnx.BatchNorm,
    linen.Embed,
    nnx.Embed,
)


def _free_specs(i: int, layer: Any, rank: int | None) -> tuple[list[Spec], int | None]:
    """The specs of a Flax layer without variables, and the rank of its output."""
    if isinstance(layer, (linen.Dropout, nnx.Dropout)):
        return [Spec("Dropout", {"p": float(layer.rate)})], rank
    if layer is flax_flatten:
        return [Spec("Flatten", {"start_dim": 1})], 2
    if isinstance(layer, functools.partial) and layer.func in (linen.max_pool, linen.avg_pool):
        return _pool_specs(i, layer), 4
    spec = _activation_spec(layer)
    if spec is None:
        raise _unsupported("from_flax", i, layer, SUPPORTED_FLAX)
    return [spec], rank


# -- reading params dicts -------------------------------------------------------------------------
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


def _merge(a: Mapping[Any, Any], b: Mapping[Any, Any]) -> dict[Any, Any]:
    out = dict(a)
    for k, v in b.items():
        if k in out and isinstance(out[k], Mapping) and isinstance(v, Mapping):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _unwrap(params: Any, where: str = "from_flax") -> tuple[Any, Any]:
    """(variables by layer, nnx module or None) from what the user gave.

    linen's ``batch_stats`` are merged into each layer's group, beside its ``params``, as nnx
    keeps them.
    """
    module = None
    if isinstance(params, nnx.Module):
        module = params
        params = _merge(
            nnx.to_pure_dict(nnx.state(params, nnx.Param)),
            nnx.to_pure_dict(nnx.state(params, nnx.BatchStat)),
        )
    if isinstance(params, nnx.State):
        params = nnx.to_pure_dict(params)
    if not isinstance(params, Mapping):
        raise TypeError(f"{where}: params must be a Flax params dict, got {type(params).__name__}")
    if "params" in params:
        other = [k for k in params if k not in ("params", "batch_stats")]
        if other:
            raise ValueError(
                f"{where}: collections {other} are not supported (only 'params' and 'batch_stats')"
            )
        params = _merge(params["params"], params.get("batch_stats", {}))
    return params, module


def from_flax(
    params: Any,
    module: Any = None,
    *example_args: Any,
    activation: str = "relu",
    backend: Any = None,
    input_shape: Any = None,
    dynamic_shapes: Any = None,
) -> Any:
    """An ivy_like model computing what the Flax model computes at inference.

    **Any Flax module, by tracing.** ``from_flax(module, variables, *example_args)`` for a
    linen module, ``from_flax(module, *example_args)`` (or ``from_flax(module, None,
    *example_args)``) for an nnx module: the module is traced with ``jax.make_jaxpr`` on the
    example inputs (linen: ``module.apply(variables, *args)``; nnx: a copy of the module in
    eval mode) and every equation of the jaxpr mapped to ivy_like ops. The result is a
    :class:`~ivy_like.convert.flax.jaxpr_model.JaxprModel`: ``model.params`` holds the
    variables the jaxpr reads, keyed
    by their Flax paths (linen ``"params/Dense_0/kernel"``, ``"batch_stats/BatchNorm_0/mean"``;
    nnx ``"linear1/kernel"``) in Flax's layouts; ``model.apply(params, *args)`` is pure and
    ``model(*args)`` runs on the backend of its inputs. Arguments that are not arrays
    (``train=False`` given positionally) are fixed at their example value.

    **Dynamic dimensions.** By default (``dynamic_shapes=None``) axis 0 of every array input
    is one dimension ``"batch"`` (when the examples agree on it): the module is traced with
    ``jax.export``'s symbolic dimensions and every size that depends on it is computed from
    the inputs at run time, so the model takes any batch size. A module that cannot take it
    (a reshape to the example's batch) is traced static, and a call at another shape says
    why. ``dynamic_shapes=False`` traces every size static; otherwise give one entry per
    example argument: None (static), a string of its axes (``"b, 16"``, ``"b, t, _"``: a
    name, a size, or ``_`` for the example's size) or a mapping ``{axis: name}``; inputs
    sharing a name share that size. Each call checks the sizes (another static size, a rank,
    or a shared dimension that differs is a ``ValueError`` naming the argument and axis); a
    module that cannot take a named dimension is a ``ValueError`` naming it and the line of
    your code jax stopped at. Control flow is kept: ``lax.cond`` /
    ``switch``, ``while_loop`` and ``scan`` become ``ivy_like.cond``, ``while_loop`` and
    ``scan``, so loops and branches follow the data when the model runs. A jax primitive it
    cannot map (random numbers) raises :class:`UnsupportedOpError` naming it, the equation
    and the supported primitives.

    **Sequential models.** Otherwise (no example inputs) it returns an
    ``ivy_like.nn.Sequential``, as follows.

    ``params`` is a linen variables dict (``{"params": ..., "batch_stats": ...}`` or the
    params alone), an nnx state or pure dict, or an nnx module itself. With ``module`` (a
    ``linen.Sequential`` or ``nnx.Sequential``; taken from ``params`` when that is an nnx
    module) the layers are read from it: Dense / nnx.Linear, Conv / nnx.Conv (1-D, 2-D),
    ``functools.partial(max_pool | avg_pool, window_shape=...)``, BatchNorm (running
    averages), LayerNorm, Embed, Dropout, :func:`flax_flatten` and the activation functions
    relu, gelu, silu, sigmoid, tanh, softmax, log_softmax. Without it the params are read as
    an MLP: Dense layers in key order (``Dense_0``, ``layers_0`` or nnx ``layers/0``) with
    ``activation`` between them.

    The model takes Flax's channels-last inputs: kernels are transposed to ivy_like's layouts
    (Dense ``(in, out)`` -> ``(out, in)``, Conv HWIO -> OIHW) and ``Permute`` layers put around
    the channels-first ones. ``input_shape`` (without the batch axis) is needed only for a
    BatchNorm whose input rank the layers before it do not tell. Weights land on ``backend``
    (the active one when None). Other layers raise :class:`UnsupportedLayerError` naming the
    layer's index and class.

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

    Any module, traced (here a residual block):

    >>> class Residual(nn.Module):
    ...     @nn.compact
    ...     def __call__(self, x):
    ...         return x + nn.Dense(3)(nn.relu(nn.Dense(4)(x)))
    >>> block = Residual()
    >>> variables = block.init(jax.random.key(0), x)
    >>> traced = from_flax(block, variables, x, backend="numpy")
    >>> traced.params.cont_all_key_chains()[:2]
    ['params/Dense_0/bias', 'params/Dense_0/kernel']
    >>> bool(np.allclose(traced(x), block.apply(variables, x), atol=1e-5))
    True
    """
    if isinstance(params, linen.Module) or (
        isinstance(params, nnx.Module) and (module is not None or example_args)
    ):
        if isinstance(params, linen.Module):
            if module is None or not example_args:
                raise TypeError(
                    "from_flax: a linen module needs its variables and example inputs: "
                    "from_flax(module, variables, *example_args)"
                )
            return trace(params, module, example_args, backend, dynamic_shapes)
        args = example_args if module is None else (module, *example_args)
        return trace(params, None, args, backend, dynamic_shapes)
    if dynamic_shapes is not None:
        raise TypeError("from_flax: dynamic_shapes needs a module and example inputs to trace")
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
            if "kernel" not in p or np.ndim(p["kernel"]) != 2:
                raise ValueError(
                    f"from_flax: {name} is not a Dense layer; without module= only Dense "
                    "layers are read (pass module= for other layers)"
                )
            specs += _params_specs(n, None, p, name, None)[0]
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
    rank = None if input_shape is None else len(tuple(input_shape)) + 1
    used = set()
    for i, layer in enumerate(layers):
        key = i if nnx_style else f"layers_{i}"
        name = f"layers/{i}" if nnx_style else f"layers_{i}"
        group = params["layers"].get(key) if nnx_style else params.get(key)
        if group:
            used.add(key)
            new, rank = _params_specs(i, layer, group, name, rank)
        elif isinstance(layer, _PARAMETRIZED):
            raise ValueError(
                f"from_flax: no params for layer {i} ({type(layer).__name__}) at {name!r}"
            )
        else:
            new, rank = _free_specs(i, layer, rank)
        specs += new
    extra = set(params["layers"] if nnx_style else params) - used
    if extra:
        raise ValueError(f"from_flax: params {sorted(map(str, extra))} match no layer of module")
    return build_model(simplify(specs), backend, "from_flax")


def _flax_layers(model: Any, where: str) -> list[tuple[int, str | None]]:
    """(ivy_like layer index, kind) of each Flax layer: ``model``'s layers but its Permutes."""
    out = []
    for i, layer in enumerate(model_layers(model, where)):
        kind = layer_kind(layer)
        if kind == "Permute":
            continue
        out.append((i, kind))
    return out


def from_flax_params(params: Any, model: Any, backend: Any = None) -> Any:
    """A Container of ``model``'s parameters from a Flax variables or params dict.

    Layer keys ``layers_<i>`` (linen Sequential) and nnx ``layers/<i>`` name Flax layer ``i``,
    which is ``model``'s ``i``-th layer not counting the ``Permute`` layers the converters
    insert; compact names ``Dense_<k>``, ``Conv_<k>``, ``LayerNorm_<k>``, ``BatchNorm_<k>``,
    ``Embed_<k>`` the ``k``-th layer of that kind. Kernels are transposed to ivy_like's
    layouts; BatchNorm ``mean``/``var`` come from ``batch_stats``. Missing, extra or misshapen
    weights are a ``ValueError`` naming the key chain. Arrays land on ``backend`` (when None,
    the backend of ``model.params``).

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
    where = "from_flax_params"
    params, _ = _unwrap(params, where)
    flax_layers = _flax_layers(model, where)
    kinds = [kind for _, kind in flax_layers]
    flax_kind = {
        "Dense": ("Linear",),
        "Conv": ("Conv1d", "Conv2d"),
        "LayerNorm": ("LayerNorm",),
        "BatchNorm": ("BatchNorm2d",),
        "Embed": ("Embedding",),
    }
    given = {}
    for n, name, p in _groups(params):
        if name.startswith("layers"):
            j = n
        else:
            candidates = flax_kind.get(name.rsplit("_", 1)[0])
            matches = [f for f, k in enumerate(kinds) if candidates is not None and k in candidates]
            if n >= len(matches):
                raise ValueError(f"{where}: {name!r} matches no layer of the model")
            j = matches[n]
        if j >= len(kinds) or kinds[j] not in _NAMES:
            raise ValueError(f"{where}: {name!r} matches no layer with weights")
        i, kind = flax_layers[j]
        assert kind is not None  # kinds[j] is in _NAMES (checked above)
        names = {v: k for k, v in _NAMES[kind].items()}
        for fname, value in p.items():
            if fname not in names:
                raise ValueError(
                    f"{where}: unexpected weights at {name}/{fname} (a {kind} has "
                    f"{', '.join(names)})"
                )
            arr = _numpy(value, f"{name}/{fname}")
            given[f"{i}/{names[fname]}"] = from_channels_last_layout(kind, names[fname], arr)
    return load_params(model.params, given, target_backend(backend, model), where)


def to_flax_params(model: Any, params: Any = None, style: str = "linen") -> dict[str, Any]:
    """``model``'s parameters as Flax variables of jax arrays, in Flax's layouts.

    ``style="linen"`` gives ``{"params": {"layers_<i>": ...}}`` (plus ``"batch_stats"`` when
    there is a BatchNorm) for a ``linen.Sequential`` with the same layers; ``style="nnx"``
    gives ``{"layers": {i: ...}}``, the pure dict of an ``nnx.Sequential`` (load it with
    ``nnx.update(module, state)`` after ``nnx.replace_by_pure_dict``). Flax layer ``i`` is
    ``model``'s ``i``-th layer not counting ``Permute`` layers (what :func:`from_flax`
    inserts). Linear and Conv weights become ``kernel`` (``(in, out)``, HWIO), LayerNorm and
    BatchNorm ``scale``/``bias`` (BatchNorm also ``mean``/``var``), Embedding ``embedding``.

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
    where = "to_flax_params"
    if style not in ("linen", "nnx"):
        raise ValueError(f"{where}: style must be 'linen' or 'nnx', got {style!r}")
    layers = model_layers(model, where)
    params = model.params if params is None else params
    check_structure(model.params, params, where)
    jax_backend = get_backend("jax")
    out: dict[Any, Any] = {}
    stats: dict[Any, Any] = {}
    for j, (i, kind) in enumerate(_flax_layers(model, where)):
        if kind is None:
            supported = ("Linear", "Conv1d", "Conv2d", "LayerNorm", "BatchNorm2d", "Embedding")
            raise _unsupported(where, i, layers[i], supported)
        if str(i) not in params or kind not in _NAMES:
            continue
        key = j if style == "nnx" else f"layers_{j}"
        for name, value in params[str(i)].items():
            arr = to_channels_last_layout(kind, name, to_numpy_exact(value, f"{i}/{name}"))
            fname = _NAMES[kind][name]
            dest = stats if style == "linen" and fname in _STATS and kind == "BatchNorm2d" else out
            # jax without 64-bit mode: a float64 weight is a TypeError, never a downcast
            dest.setdefault(key, {})[fname] = move(arr, jax_backend, f"{i}/{name}")
    if style == "nnx":
        return {"layers": out}
    return {"params": out, "batch_stats": stats} if stats else {"params": out}


def to_flax(model: Any, params: Any = None) -> tuple[Any, dict[str, Any]]:
    """``(module, variables)``: a ``flax.linen.Module`` computing what ``model`` computes, and
    its variables holding ``model``'s weights (``params`` when given).

    ``model`` is any portable ivy_like model with ``params`` and a pure ``apply``: a
    :class:`GraphModel` from :func:`from_torch`, a ``KerasGraphModel`` from :func:`from_keras`
    or an ``ivy_like.nn`` model such as ``Sequential``. ``module.apply(variables, *args)`` runs
    ``model.apply`` with ivy_like on jax, so ``jax.jit`` and ``jax.grad`` work through it. The
    weights keep ``model``'s key chains and layouts, nested (``"layer1/0/conv1/weight"`` is
    ``variables["params"]["layer1"]["0"]["conv1"]["weight"]``); buffers (BatchNorm running
    statistics) go in ``variables["batch_stats"]``. The module takes the inputs ``model``
    takes (for a model from PyTorch, channels-first). A model without ``params`` and ``apply``
    is a ``TypeError``. A model traced from a linen module by :func:`from_flax` gives that
    module back, with ``params`` as its variables.

    Examples
    --------
    >>> import numpy as np
    >>> import torch
    >>> from ivy_like.convert import from_torch, to_flax
    >>> net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Tanh())
    >>> module, variables = to_flax(from_torch(net, torch.ones(1, 3), backend="numpy"))
    >>> sorted(variables["params"]["0"])
    ['bias', 'weight']
    >>> x = np.ones((1, 3), np.float32)
    >>> bool(np.allclose(module.apply(variables, x), net(torch.ones(1, 3)).detach(), atol=1e-6))
    True
    """
    check_portable(model, "to_flax")
    if isinstance(model, JaxprModel) and model.linen_module is not None:
        return model.linen_module, model.flax_variables(params)  # the traced module itself
    return flax_module(model, params, "to_flax")

"""Native Keras, Flax and PyTorch modules around a portable ivy_like model (``params`` + a pure
``apply``).

Captured models (``GraphModel`` from ``torch/graph_model.py``, ``KerasGraphModel`` from
``keras/functional.py``, ``JaxprModel`` from ``flax/jaxpr_model.py``) have no layers to
translate one by one, so :func:`to_flax` wraps them instead (as does :func:`to_keras`, with
the helpers here, in ``keras/portable.py``; and
:func:`to_torch` every model but a ``GraphModel``, which goes back as its captured graph, and
a ``Sequential``, which becomes ``torch.nn`` layers): the native module owns every parameter
as one of its own variables (named after the key chain) and its forward pass runs
``model.apply`` on those variables' values, with ivy_like on the module's framework. The
framework's autodiff then sees every op, so gradients flow.
Imported only when such a conversion is asked for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

import ivy_like as il

from ..container import Container
from ..container._leaves import leaf_dtype
from ..core.backend import get_backend
from ._weights import check_structure, move

# Leaf names of running statistics, for models that do not say which leaves are buffers.
_BUFFER_NAMES = frozenset(
    {"running_mean", "running_var", "num_batches_tracked", "moving_mean", "moving_variance"}
)


def check_portable(model: Any, where: str) -> None:
    """Raise ``TypeError`` naming the argument unless ``model`` has ``params`` and ``apply``."""
    params = getattr(model, "params", None)
    if not isinstance(params, Mapping) or not callable(getattr(model, "apply", None)):
        raise TypeError(
            f"{where}: model must be an ivy_like model with params and a pure apply (a "
            f"GraphModel, KerasGraphModel or ivy_like.nn model), got {type(model).__name__}"
        )


def flat_params(model: Any, params: Any, where: str) -> dict[str, Any]:
    """``params`` (default ``model.params``), checked against ``model.params``, by key chain."""
    params = model.params if params is None else params
    check_structure(model.params, params, where)
    return dict(Container(params).cont_flatten_key_chains())


def buffer_keys(model: Any, flat: Mapping[str, Any]) -> set[str]:
    """The key chains of ``model``'s non-trainable leaves.

    A captured model says which they are (``model.buffers``: a ``GraphModel`` from
    ``torch.export``'s signature, a ``KerasGraphModel`` from its weights' ``trainable`` flags,
    a ``JaxprModel`` from Flax's collections); other
    models by the leaf names of running statistics (ivy_like's BatchNorm). Leaves that are
    not floating point are never trainable.
    """
    known = getattr(model, "buffers", None)
    if isinstance(known, frozenset):
        out = {kc for kc in flat if kc in known}
    else:
        out = {kc for kc in flat if kc.rsplit("/", 1)[-1] in _BUFFER_NAMES}
    for kc, leaf in flat.items():
        dtype = leaf_dtype(leaf, kc)
        if dtype is None or "float" not in dtype.name:  # bfloat16 included
            out.add(kc)
    return out


def unflatten(flat: Mapping[str, Any]) -> Container:
    return Container.cont_unflatten(dict(flat)) if flat else Container()


def native(out: Any) -> Any:
    """``out`` with every ivy_like Array a native array and every Container a dict."""
    if isinstance(out, Mapping):
        return {k: native(v) for k, v in out.items()}
    if isinstance(out, (tuple, list)) and not hasattr(out, "_fields"):
        return type(out)(native(v) for v in out)
    return il.to_native(out)


def native_inputs(args: Any, backend: str) -> Any:
    """NumPy arrays in ``args`` moved to ``backend`` (a graph model runs on its inputs'
    backend, and a NumPy input would follow the active one instead)."""
    if isinstance(args, np.ndarray):
        return move(args, get_backend(backend), "input")
    if isinstance(args, Mapping):
        return {k: native_inputs(v, backend) for k, v in args.items()}
    if isinstance(args, (tuple, list)) and not hasattr(args, "_fields"):
        return type(args)(native_inputs(v, backend) for v in args)
    return args


# -- PyTorch ----------------------------------------------------------------------------------------
def torch_module(model: Any, params: Any, where: str) -> Any:
    """A ``torch.nn.Module`` holding ``model``'s weights, running ``apply`` with ivy_like on
    torch: each leaf is a parameter (a buffer where it is one) of nested submodules named
    after the key chain, so ``state_dict()`` keys are the key chains with ``.`` for ``/``."""
    import torch

    flat = flat_params(model, params, where)
    buffers = buffer_keys(model, flat)
    torch_backend = get_backend("torch")

    class PortableTorchModule(torch.nn.Module):
        """A portable ivy_like model as a torch module: ``forward`` runs ``model.apply`` on
        this module's parameters and buffers (copies: training it never changes ``model``)."""

        def __init__(self) -> None:
            super().__init__()
            self._portable = model
            self._key_chains = tuple(flat)
            for kc, leaf in flat.items():
                value = move(leaf, torch_backend, kc).detach().clone()
                *path, name = kc.split("/")
                owner: torch.nn.Module = self
                for part in path:
                    if not hasattr(owner, part):
                        owner.add_module(part, torch.nn.Module())
                    owner = getattr(owner, part)
                if kc in buffers:
                    owner.register_buffer(name, value)
                else:
                    owner.register_parameter(name, torch.nn.Parameter(value))

        def forward(self, *args: Any, **kwargs: Any) -> Any:
            # Each parameter as a view of type torch.Tensor (autograd flows through it): the
            # dispatch's type table knows torch.Tensor, and a torch.nn.Parameter met there
            # first under torch.compile would be a graph break.
            values = {}
            for kc in self._key_chains:
                if kc in buffers:
                    values[kc] = self.get_buffer(kc.replace("/", "."))
                else:
                    p = self.get_parameter(kc.replace("/", "."))
                    values[kc] = p.view_as(p)
            args, kwargs = native_inputs((args, kwargs), "torch")
            return native(self._portable.apply(unflatten(values), *args, **kwargs))

    return PortableTorchModule().eval()


# -- Flax -------------------------------------------------------------------------------------------
class _Held:
    """``model`` and its initial weights, held by identity so that the Flax module (a
    dataclass that is hashed and compared) stays hashable."""

    def __init__(self, model: Any, params: dict[str, Any], stats: dict[str, Any]) -> None:
        self.model = model
        self.params = params  # nested dicts of jax arrays: the "params" collection
        self.stats = stats  # the "batch_stats" collection (buffers)


def _nest(flat: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kc, v in flat.items():
        *path, last = kc.split("/")
        d = out
        for k in path:
            d = d.setdefault(k, {})
        d[last] = v
    return out


def _merge(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(a)
    for k, v in b.items():
        out[k] = _merge(out[k], v) if k in out and isinstance(v, Mapping) else v
    return out


def flax_module(model: Any, params: Any, where: str) -> tuple[Any, dict[str, Any]]:
    """A ``flax.linen.Module`` running ``model.apply`` on jax, and its variables."""
    from flax import linen

    flat = flat_params(model, params, where)
    buffers = buffer_keys(model, flat)
    jax_backend = get_backend("jax")
    # jax without 64-bit mode: a float64 weight is a TypeError, never a downcast
    moved = {kc: move(leaf, jax_backend, kc) for kc, leaf in flat.items()}
    trainable = _nest({kc: v for kc, v in moved.items() if kc not in buffers})
    stats = _nest({kc: v for kc, v in moved.items() if kc in buffers})

    class PortableFlaxModule(linen.Module):
        """A portable ivy_like model as a linen module: ``__call__`` runs ``model.apply`` with
        ivy_like on jax, on the ``params`` collection (trainable weights, nested by key chain)
        and ``batch_stats`` (buffers, e.g. BatchNorm running statistics)."""

        held: _Held

        @linen.compact
        def __call__(self, *args: Any, **kwargs: Any) -> Any:
            tree: dict[str, Any] = {}
            for name, sub in self.held.params.items():
                tree = _merge(tree, {name: self.param(name, lambda _key, s=sub: s)})
            for name, sub in self.held.stats.items():
                var = self.variable("batch_stats", name, lambda s=sub: s)
                tree = _merge(tree, {name: var.value})
            args, kwargs = native_inputs((args, kwargs), "jax")
            out = self.held.model.apply(Container(tree), *args, **kwargs)
            return native(out)

    variables: dict[str, Any] = {"params": trainable}
    if stats:
        variables["batch_stats"] = stats
    return PortableFlaxModule(_Held(model, trainable, stats)), variables

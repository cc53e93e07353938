"""PyTorch <-> ivy_like, the entry points: models both ways and ``state_dict`` weights.

A ``torch.nn.Sequential`` converts layer by layer through the table in ``layers.py``; any other
module, given example inputs, is captured by ``torch.export`` (``capture.py``) as a
``GraphModel``. ivy_like's layers use PyTorch's layouts and parameter names, so weights move
unchanged; only the arrays change framework (DLPack). Imported only when a torch conversion is
asked for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import torch

import ivy_like as il

from ...container import Container
from ...container._leaves import leaf_info
from ...core.backend import get_backend
from ...nn.models import Sequential
from .._specs import build_model, read_specs
from .._weights import load_params, move, target_backend
from .._wrap import check_portable, torch_module
from .capture import capture
from .graph_model import GraphModel, to_torch_module
from .layers import SUPPORTED, layer_module, layer_spec


def from_torch(
    module: Any,
    *example_args: Any,
    backend: Any = None,
    copy: bool = True,
    dynamic_shapes: Any = None,
    **example_kwargs: Any,
) -> Any:
    """A portable model computing what ``module.eval()`` computes.

    **Any module, with example inputs** (``from_torch(module, x, mask=m)``): the module is
    captured in eval mode by ``torch.export`` with those inputs and every node of its graph
    is mapped to ivy_like ops (see ``docs/convert.md`` for the ATen ops supported). The result
    is an :class:`ivy_like.convert.GraphModel`: ``model.params`` holds the parameters and
    buffers keyed by their ``state_dict`` names (``"layer1/0/conv1/weight"``),
    ``model.apply(params, *args, **kwargs)`` is pure and ``model(*args, **kwargs)`` runs on
    the backend of its inputs, for inputs of the example's structure and shapes. Example
    inputs may be tensors or arrays of any framework. An op that cannot be converted, or a
    ``forward`` that branches on tensor values, raises :class:`UnsupportedOpError`.

    ``dynamic_shapes`` is ``torch.export``'s own (``{"input_ids": {0: Dim("batch"), 1:
    Dim("seq")}}``, or a tuple matching the example arguments): those dimensions stay
    dynamic in the captured graph, so one capture runs at every size in their ranges (the
    call checks the ranges, that inputs sharing a ``Dim`` agree and that a derived one such
    as ``2 * batch`` is that size; its errors, and ``model.dynamic_dims``, use the ``Dim``
    names, not torch's symbols). A model that fixes
    such a dimension (reads it as an int, reshapes to the example's sizes) is a
    ``ValueError`` naming it. Without it (None) axis 0 of every tensor input is one
    dynamic ``Dim("batch")`` (an input whose axis 0 differs from the first input's stays
    static); a model that fixes the batch, or an example batch of 1, is captured static,
    and a call at another shape says why. ``dynamic_shapes=False``: every shape is the
    example's.

    **A** ``torch.nn.Sequential`` **without example inputs**: converted layer by layer into
    an ``ivy_like.nn.Sequential`` of Linear, Conv1d, Conv2d, MaxPool2d, AvgPool2d,
    LayerNorm, BatchNorm2d (its running statistics are used, as in eval mode), Embedding,
    Dropout (identity), ReLU, GELU, SiLU, Sigmoid, Tanh, Softmax, LogSoftmax and Flatten
    (any other layer raises :class:`UnsupportedLayerError` naming its index and class).

    Either way weights keep PyTorch's layouts and dtypes and land on ``backend`` (the active
    one when None) through DLPack; with ``copy=False`` they share memory with the module
    where DLPack allows (like ``module.state_dict()``), otherwise the model owns its own copy.

    Examples
    --------
    >>> import numpy as np
    >>> import torch
    >>> from ivy_like.convert import from_torch
    >>> net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU())
    >>> model = from_torch(net, backend="numpy")
    >>> x = np.ones((1, 3), dtype=np.float32)
    >>> bool(np.allclose(model(x), net(torch.from_numpy(x)).detach().numpy(), atol=1e-6))
    True
    """
    if not isinstance(module, torch.nn.Module):
        raise TypeError(
            f"from_torch: module must be a torch.nn.Module, got {type(module).__name__}"
        )
    if example_args or example_kwargs:
        args, kwargs = _torch_inputs(example_args), _torch_inputs(example_kwargs)
        if dynamic_shapes is None:
            return _capture_batch(module, args, kwargs, backend, copy)
        static = dynamic_shapes is False
        return capture(module, args, kwargs, backend, copy, None if static else dynamic_shapes)
    if dynamic_shapes is not None and dynamic_shapes is not False:
        raise TypeError("from_torch: dynamic_shapes needs example inputs to capture with")
    if not isinstance(module, torch.nn.Sequential):
        raise TypeError(
            f"from_torch: a {type(module).__name__} needs example inputs to be captured "
            f"(from_torch(module, *example_args, **example_kwargs)); only a "
            f"torch.nn.Sequential converts layer by layer without them"
        )
    specs = [layer_spec(i, m, copy) for i, m in enumerate(module)]
    model = build_model(specs, backend, "from_torch")
    # BatchNorm's step counters: unused at inference (so not parameters), kept for to_torch,
    # whose state_dict then equals the module's
    model.torch_counters = {
        i: m.num_batches_tracked.detach().clone()
        for i, m in enumerate(module)
        if isinstance(m, torch.nn.BatchNorm2d) and m.num_batches_tracked is not None
    }
    # norms without affine parameters run as weight 1, bias 0; to_torch gives them back
    # without (while those values are untouched), so the state_dict keeps the module's keys
    model.torch_without_affine = frozenset(i for i, m in enumerate(module) if _no_affine(m))
    return model


def _no_affine(m: torch.nn.Module) -> bool:
    if isinstance(m, torch.nn.BatchNorm2d):
        return not m.affine
    return isinstance(m, torch.nn.LayerNorm) and not m.elementwise_affine


def _capture_batch(
    module: Any, args: tuple[Any, ...], kwargs: dict[str, Any], backend: Any, copy: bool
) -> GraphModel:
    """The default capture: axis 0 of every tensor input dynamic (one ``Dim("batch")``, for
    the inputs whose axis 0 has the first one's size; the others stay static), else, when the
    model fixes the batch (or torch.export or the converter refuses it dynamic), static."""
    shapes, why = _batch_shapes(args, kwargs)
    if shapes is not None:
        try:
            return capture(module, args, kwargs, backend, copy, shapes)
        except Exception as err:  # noqa: BLE001 - the static capture raises its own errors
            lines = str(err).strip().splitlines()
            why = lines[0] if lines else type(err).__name__
            why = why.removeprefix("from_torch: ").removeprefix("dynamic_shapes: ")
    model = capture(module, args, kwargs, backend, copy, None)
    model._why_static = why
    return model


def _batch_shapes(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, str]:
    """``torch.export``'s ``dynamic_shapes`` with axis 0 of each tensor input of rank >= 1
    that has the first one's size as ``Dim("batch")``, or None and why there is none."""
    tensors = [
        t
        for t in torch.utils._pytree.tree_leaves((args, kwargs))
        if isinstance(t, torch.Tensor) and t.dim() >= 1
    ]
    if not tensors:
        return None, "the inputs have no axis 0"
    size = int(tensors[0].shape[0])
    if size < 2:
        return None, f"the example's batch is {size} (torch.export fixes sizes 0 and 1)"
    shapes = torch.export.ShapesCollection()
    batch = torch.export.Dim("batch")
    for t in tensors:
        if int(t.shape[0]) == size:
            shapes[t] = {0: batch}
    return shapes, ""


def _torch_inputs(value: Any) -> Any:
    """Example inputs with every array (of any framework) as a torch tensor."""
    if isinstance(value, torch.Tensor):
        return value
    if isinstance(value, dict):
        return {k: _torch_inputs(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value)(_torch_inputs(v) for v in value)
    info = leaf_info(value)
    if info is None:
        return value
    return leaf_info(move(value, get_backend("torch"), "example input"))[1]  # type: ignore[index]


def to_torch(model: Any, params: Any = None) -> torch.nn.Module:
    """A torch module with the weights of ``model`` loaded, computing what ``model`` computes.

    For an ``ivy_like.nn.Sequential``: a ``torch.nn.Sequential`` in eval mode. For a
    :class:`GraphModel` (from :func:`from_torch` with example inputs): the captured graph as a
    ``torch.fx.GraphModule`` whose ``state_dict`` has the original names (tied weights tied
    again); it computes the captured (eval-mode) function, for inputs of the captured shapes,
    and like every exported module it refuses ``.train()``/``.eval()``. Any other portable
    model (``params`` and a pure ``apply``: a model from :func:`from_keras` or
    :func:`from_flax`, an ``ivy_like.nn`` model): a module owning the weights as parameters
    (buffers where they are statistics), ``state_dict`` keys the key chains with ``.``, whose
    ``forward`` runs ``apply`` with ivy_like on torch, so torch's autograd sees every op.

    ``params`` defaults to ``model.params``. The module owns copies of the weights (training
    it never changes the ivy_like model), with their dtypes kept.

    Examples
    --------
    >>> import numpy as np
    >>> import torch
    >>> from ivy_like.convert import from_torch, to_torch
    >>> net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Tanh())
    >>> back = to_torch(from_torch(net, backend="numpy"))
    >>> x = torch.ones(1, 3)
    >>> bool(torch.equal(back(x), net(x)))
    True
    """
    if isinstance(model, GraphModel):
        return to_torch_module(model, params)
    if not isinstance(model, Sequential):
        check_portable(model, "to_torch")
        return torch_module(model, params, "to_torch")
    specs = read_specs(model, params, "to_torch", SUPPORTED + ("Permute",))
    counters = getattr(model, "torch_counters", {})
    modules = []
    without_affine: frozenset[int] = getattr(model, "torch_without_affine", frozenset())
    for i, spec in enumerate(specs):
        affine = i not in without_affine or not _identity_affine(spec.weights)
        m = layer_module(spec, affine)
        if not affine:
            spec.weights.pop("weight")
            spec.weights.pop("bias")
        if isinstance(m, torch.nn.BatchNorm2d) and i in counters:
            m.num_batches_tracked = counters[i].clone()
        for name, value in spec.weights.items():
            t = move(value, get_backend("torch"), name)
            t = leaf_info(t)[1].detach().clone()  # type: ignore[index]
            old = getattr(m, name)
            if isinstance(old, torch.nn.Parameter):
                setattr(m, name, torch.nn.Parameter(t))
            else:
                setattr(m, name, t)  # a buffer (BatchNorm running statistics)
        modules.append(m)
    return torch.nn.Sequential(*modules).eval()


def _identity_affine(weights: dict[str, Any]) -> bool:
    """Whether a norm's weight is all 1 and its bias all 0 (as from_torch set them for a norm
    without affine parameters; once trained away from that, to_torch keeps them)."""
    w, b = weights.get("weight"), weights.get("bias")
    if w is None or b is None:
        return False
    return bool(np.all(il.to_numpy(w) == 1)) and bool(np.all(il.to_numpy(b) == 0))


# -- state_dict <-> Container ------------------------------------------------------------------------
def from_state_dict(state_dict: Mapping[str, Any], model: Any = None, backend: Any = None) -> Any:
    """A Container from a torch ``state_dict``: key ``"0.weight"`` becomes key chain
    ``"0/weight"``; tensors move to ``backend`` by DLPack (when None: the backend of
    ``model.params`` if ``model`` is given, else the active one).

    With ``model`` (an ivy_like model) the keys and shapes are checked against
    ``model.params`` (a ``ValueError`` names the missing, extra or misshapen key chain) and
    each leaf is an ``ivy_like.Array`` or native array as in ``model.params``. BatchNorm's
    ``num_batches_tracked`` counters are dropped (inference does not use them).

    Examples
    --------
    >>> import torch
    >>> from ivy_like.convert import from_state_dict
    >>> c = from_state_dict(torch.nn.Linear(3, 2).state_dict(), backend="numpy")
    >>> c.cont_shapes
    {
        weight: (2, 3),
        bias: (2,)
    }
    """
    if not isinstance(state_dict, Mapping):
        raise TypeError(
            f"from_state_dict: state_dict must be a mapping, got {type(state_dict).__name__}"
        )
    flat = {
        k.replace(".", "/"): v.detach() if isinstance(v, torch.Tensor) else v
        for k, v in state_dict.items()
        if not k.endswith("num_batches_tracked")
    }
    target = target_backend(backend, model)
    if model is not None:
        return load_params(model.params, flat, target, "from_state_dict")
    for kc, v in flat.items():
        if leaf_info(v) is None:
            raise TypeError(f"from_state_dict: {kc!r} is a {type(v).__name__}, not a tensor")
    return Container.cont_unflatten({kc: move(v, target, kc) for kc, v in flat.items()})


def to_state_dict(params: Any) -> dict[str, torch.Tensor]:
    """A torch ``state_dict`` (``"0/weight"`` -> ``"0.weight"``) of a Container's array leaves.

    Tensors come through DLPack: from a NumPy or torch Container they share memory with it.
    Load it with ``module.load_state_dict(sd, strict=False)`` when the module also has
    BatchNorm ``num_batches_tracked`` buffers.

    Examples
    --------
    >>> import ivy_like
    >>> from ivy_like.convert import to_state_dict
    >>> sd = to_state_dict(ivy_like.Container({"0": {"weight": ivy_like.ones((2, 3))}}))
    >>> list(sd), tuple(sd["0.weight"].shape)
    (['0.weight'], (2, 3))
    """
    if not isinstance(params, Mapping):
        raise TypeError(f"to_state_dict: params must be a Container, got {type(params).__name__}")
    torch_backend = get_backend("torch")
    out = {}
    for kc, leaf in Container(params).cont_flatten_key_chains().items():
        if leaf_info(leaf) is None:
            raise TypeError(f"to_state_dict: leaf {kc!r} is a {type(leaf).__name__}, not an array")
        t = move(leaf, torch_backend, kc)
        out[kc.replace("/", ".")] = leaf_info(t)[1]  # type: ignore[index]
    return out

"""A captured PyTorch model as a portable one: :class:`GraphModel`, and the way back to torch.

:func:`~ivy_like.convert.torch.capture.capture` writes the generated function; this module
holds the model around it (the inputs' and outputs' structures as plain tuples, so running a
model needs no torch) and :func:`to_torch_module`, which gives the captured graph back to
PyTorch with new weights. Only :func:`to_torch_module` imports torch.
"""

from __future__ import annotations

import collections
from collections.abc import Mapping, Sequence
from typing import Any

from ...container import Container
from ...container._leaves import leaf_info
from ...core.backend import get_backend
from .._captured import CapturedModel, Generated
from .._errors import UnsupportedOpError
from .._weights import move

# -- call structures: TreeSpecs turned into plain tuples at capture ------------------------------
# ("leaf",) | ("none",) | ("tuple"|"list", kids) | ("dict", keys, kids)
# | ("namedtuple", cls, kids) | ("mapping", keys, kids): a dict subclass such as transformers'
# ModelOutput, given back as a Container (item and attribute access, a tree node everywhere).


def _flatten(desc: tuple[Any, ...], value: Any, where: str, out: list[Any]) -> None:
    kind = desc[0]
    if kind == "leaf":
        out.append(value)
    elif kind == "none":
        if value is not None:
            raise TypeError(f"{where} was None when the model was captured, got {value!r}")
    elif kind in ("tuple", "list", "namedtuple"):
        kids = desc[-1]
        if not isinstance(value, (tuple, list)) or len(value) != len(kids):
            n = len(value) if isinstance(value, (tuple, list)) else type(value).__name__
            raise TypeError(f"{where}: expected {len(kids)} items as captured, got {n}")
        for i, (d, v) in enumerate(zip(kids, value)):
            _flatten(d, v, f"{where}[{i}]", out)
    else:  # dict, mapping
        keys, kids = desc[1], desc[2]
        if not isinstance(value, Mapping) or set(value) != set(keys):
            have = sorted(value) if isinstance(value, Mapping) else type(value).__name__
            raise TypeError(f"{where}: expected the keys {sorted(keys)} as captured, got {have}")
        for k, d in zip(keys, kids):
            _flatten(d, value[k], f"{where}[{k!r}]", out)


def _rebuild(desc: tuple[Any, ...], leaves: Any, pos: list[int]) -> Any:
    kind = desc[0]
    if kind == "leaf":
        pos[0] += 1
        return leaves[pos[0] - 1]
    if kind == "none":
        return None
    kids = [_rebuild(d, leaves, pos) for d in desc[-1]]
    if kind == "tuple":
        return tuple(kids)
    if kind == "list":
        return kids
    if kind == "namedtuple":
        return desc[1](*kids)
    if kind == "dict":
        return dict(zip(desc[1], kids))
    return Container(dict(zip(desc[1], kids)))


def describe_tree(spec: Any, where: str) -> tuple[Any, ...]:
    """A torch ``TreeSpec`` as the plain tuples above (no torch needed to use them)."""
    if spec.is_leaf():
        return ("leaf",)
    t = spec.type
    kids = [describe_tree(c, where) for c in spec.children()]
    if t is type(None):
        return ("none",)
    if t in (tuple, list):
        return (t.__name__, kids)
    if t in (dict, collections.OrderedDict):
        return ("dict", list(spec.context), kids)
    if isinstance(spec.context, type) and issubclass(spec.context, tuple):
        return ("namedtuple", spec.context, kids)
    if isinstance(t, type) and issubclass(t, Mapping) and isinstance(spec.context, list):
        return ("mapping", list(spec.context), kids)
    raise UnsupportedOpError(
        f"from_torch: the model's {where} hold a {getattr(t, '__name__', t)}; supported: "
        f"tensors, None, tuples, lists, namedtuples and dicts (transformers' ModelOutput)"
    )


class GraphModel(CapturedModel):
    """A captured PyTorch model: ``params`` plus the pure function ``apply``.

    ``params`` is a Container of the parameters and the buffers the graph reads, keyed like
    the module's ``state_dict`` with ``/`` (``"layer1/0/conv1/weight"``); tied weights (GPT-2's
    ``lm_head.weight`` is ``transformer.wte.weight``) are one leaf, under the first name.
    ``apply(params, *args, **kwargs)`` takes the arguments the model was captured with (same
    structure, same shapes) and is pure, so ``ivy_like.grad``, ``ivy_like.compile`` and the
    other transforms work on it; ``model(*args, **kwargs)`` runs it on the backend of its
    inputs (the parameters are moved there once). Outputs keep their structure; a dict
    subclass such as transformers' ``ModelOutput`` comes back as a Container
    (``out["logits"]``, ``out.logits``).

    ``model.code`` is the generated function (one line per graph node) and ``model.aten_ops``
    the ATen ops it uses. ``model.dynamic_dims`` names the dimensions that may change from
    call to call, ``{axis: name}`` per input (numbered as the call flattens them), with the
    names of the ``Dim`` objects given to ``from_torch`` (``"batch"`` for the default batch, an
    expression such as ``"2*batch"`` for a derived one); None when every size is the
    example's. Errors about a call's sizes use the same names. Build one with
    :func:`ivy_like.convert.from_torch`.

    Examples
    --------
    >>> import numpy as np
    >>> import torch
    >>> from ivy_like.convert import from_torch
    >>> class Net(torch.nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.fc = torch.nn.Linear(3, 2)
    ...     def forward(self, x):
    ...         return torch.relu(self.fc(x)) + x[:, :2]
    >>> net = Net()
    >>> model = from_torch(net, torch.ones(2, 3), backend="numpy")
    >>> model.params.cont_all_key_chains()
    ['fc/weight', 'fc/bias']
    >>> model.dynamic_dims
    {0: {0: 'batch'}}
    >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
    >>> bool(np.allclose(model(x), net(torch.from_numpy(x)).detach().numpy(), atol=1e-6))
    True
    """

    def __init__(
        self,
        generated: Generated,
        params: Container,
        inputs: tuple[Any, ...],
        input_values: dict[int, Any],
        input_shapes: dict[int, tuple[int | None, ...]],
        outputs: tuple[Any, ...],
        aliases: dict[str, list[str]],
        aten_ops: list[str],
        exported: Any = None,
        dynamic: Sequence[tuple[int, int, str, int, int | None]] = (),
        derived: Sequence[tuple[int, int, str, str, int, int]] = (),
        roots: Mapping[str, tuple[int, int | None]] | None = None,
    ) -> None:
        self._capture(generated, params)
        self._inputs = inputs
        self._input_values = input_values  # flat position -> the non-tensor value captured
        # The graph is captured for these shapes (reshapes hold them as numbers): another
        # shape is refused rather than computed wrongly. A dimension captured as dynamic
        # (None here) may take any size in its range, the same for every input that shares
        # its Dim. Dimensions go by the user's Dim names (dims.py maps torch's symbols to
        # them at capture): (input, axis, name, min, max) each.
        self._input_shapes = list(input_shapes.items())
        self._dynamic = list(dynamic)
        # A derived dimension (2*batch + 1): (input, axis, name, root name, a, c), its size
        # a * root + c; a root no input has itself is found from them, in its range.
        self._derived = list(derived)
        self._roots = dict(roots or {})
        names: dict[int, dict[int, str]] = {}
        for i, axis, name, _, _ in self._dynamic:
            names.setdefault(i, {})[axis] = name
        # {axis: name} per flat input with dynamic dimensions; None when every size is static
        self.dynamic_dims = names or None
        self._outputs_desc = outputs
        self.aliases = aliases  # key chain -> every state_dict name of that tensor
        self.aten_ops = aten_ops
        self._exported = exported
        # Why from_torch's default (axis 0 of every input dynamic) gave way to a static
        # capture, said when a call brings another shape; "" when it was not tried.
        self._why_static = ""

    def _config(self) -> dict[str, Any]:
        return {"aten_ops": self.aten_ops}

    @property
    def buffers(self) -> frozenset[str] | None:
        """The key chains of the module's buffers (not trained), from ``torch.export``'s
        signature; None when the model was built without the exported program."""
        if self._exported is None:
            return None
        torch_buffers = set(self._exported.graph_signature.buffers)
        return frozenset(
            kc
            for kc in self.params.cont_flatten_key_chains()
            if self.aliases.get(kc, [kc])[0] in torch_buffers
        )

    def __repr__(self) -> str:
        n = len(self._param_parts)
        return f"GraphModel({n} parameter arrays, {len(self.aten_ops)} ATen ops)"

    def _flat_inputs(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
        flat: list[Any] = []
        _flatten(self._inputs, (args, kwargs), "inputs", flat)
        for i, value in self._input_values.items():
            if not (flat[i] is value or flat[i] == value):
                raise TypeError(
                    f"GraphModel: input {i} was {value!r} when the model was captured, got "
                    f"{flat[i]!r}; capture it again for another value"
                )
        for i, shape in self._input_shapes:
            got = getattr(flat[i], "shape", None)
            if got is not None and tuple(got) == shape:
                continue  # the captured shape: one comparison, as before dynamic dimensions
            if (
                got is None
                or len(got) != len(shape)
                or any(s is not None and g != s for g, s in zip(got, shape))
            ):
                named = self.dynamic_dims.get(i, {}) if self.dynamic_dims else {}
                dims = [str(named.get(axis, s)) for axis, s in enumerate(shape)]
                captured = f"({', '.join(dims)}{',' if len(dims) == 1 else ''})"
                how = (
                    "from_torch(..., dynamic_shapes=...) with the dimension that changes"
                    if self._dynamic
                    else "an example of the new shape, or from_torch(..., dynamic_shapes=...)"
                )
                if self._why_static:
                    how += f"; the batch (axis 0) could not be dynamic: {self._why_static}"
                raise ValueError(
                    f"GraphModel: input {i} has shape {None if got is None else tuple(got)}; "
                    f"the model was captured for shape {captured} (capture it again with "
                    f"{how})"
                )
        if self._dynamic:
            self._check_dynamic(flat)
        return flat

    def _check_dynamic(self, flat: list[Any]) -> None:
        """Each dynamic dimension within the range torch.export captured it for, and equal
        wherever it has the same Dim (a mask's length and the tokens')."""
        seen: dict[str, tuple[int, int, int]] = {}
        for i, axis, name, lo, hi in self._dynamic:
            n = flat[i].shape[axis]
            if not isinstance(n, int):
                continue  # a symbolic size: ivy_like.export traces for every size at once
            if n < lo or (hi is not None and n > hi):
                top = "" if hi is None else f" to {hi}"
                raise ValueError(
                    f"GraphModel: input {i} axis {axis} has size {n}; the dynamic dimension "
                    f"{name!r} was captured for sizes {lo}{top}"
                )
            first = seen.setdefault(name, (n, i, axis))
            if first[0] != n:
                raise ValueError(
                    f"GraphModel: input {i} axis {axis} has size {n} but input {first[1]} "
                    f"axis {first[2]} has size {first[0]}; both are the dynamic dimension "
                    f"{name!r} of the capture and must be equal"
                )
        if self._derived:
            self._check_derived(flat, seen)

    def _check_derived(self, flat: list[Any], seen: dict[str, tuple[int, int, int]]) -> None:
        """Each derived dimension (``2*batch + 1``) the size its root gives: the root's size
        where an input has it, else the size the first derived dimension of it implies."""
        for i, axis, name, root, a, c in self._derived:
            n = flat[i].shape[axis]
            if not isinstance(n, int):
                continue
            have = seen.get(root)
            if have is not None:
                if n != a * have[0] + c:
                    raise ValueError(
                        f"GraphModel: input {i} axis {axis} has size {n}; it is the dynamic "
                        f"dimension {name!r}, which is {a * have[0] + c} where {root!r} is "
                        f"{have[0]} (input {have[1]} axis {have[2]})"
                    )
                continue
            r, rest = divmod(n - c, a)
            lo, hi = self._roots.get(root, (0, None))
            if rest or r < lo or (hi is not None and r > hi):
                top = "" if hi is None else f" to {hi}"
                raise ValueError(
                    f"GraphModel: input {i} axis {axis} has size {n}; it is the dynamic "
                    f"dimension {name!r}, and no whole {root!r} in the captured range "
                    f"{lo}{top} gives {n}"
                )
            seen[root] = (r, i, axis)

    def _outputs(self, flat: Any) -> Any:
        return _rebuild(self._outputs_desc, flat, [0])


def to_torch_module(model: GraphModel, params: Any = None) -> Any:
    """A ``torch.nn.Module`` computing ``model``: the captured graph (``ExportedProgram.module``)
    with the weights of ``params`` (default ``model.params``) as its own new parameters."""
    import torch

    params = model.params if params is None else params
    module = model._exported.module()
    torch_backend = get_backend("torch")
    for parts, kc in zip(model._param_parts, ("/".join(p) for p in model._param_parts)):
        v = params
        for k in parts:
            v = v[k]
        t = leaf_info(move(v, torch_backend, kc))[1].detach().clone()  # type: ignore[index]
        new: Any = None
        for name in model.aliases[kc]:  # tied names get the same new tensor: still tied
            owner_path, _, attr = name.rpartition(".")
            owner = module.get_submodule(owner_path) if owner_path else module
            if isinstance(getattr(owner, attr), torch.nn.Parameter):
                new = new if new is not None else torch.nn.Parameter(t)
                setattr(owner, attr, new)
            else:
                owner.register_buffer(attr, t)
    return module

"""What every format exports: the function of native arrays, its weights, inputs and dimensions.

:class:`Plan` is built once by :func:`ivy_like.export` and handed to the format's writer. It
holds the example inputs as exact NumPy copies, the dynamic dimensions of each input (axis ->
name; one name used by several inputs is one size), the model's weights as a flat list keyed
by their key chains (a function has none), and :meth:`Plan.native`: the user's code as a
function of native arrays of one backend, whose outputs are plain tuples, dicts and native
arrays (an artifact must not need ivy_like's Container class to be loaded).
"""

from __future__ import annotations

import inspect
import keyword
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import ivy_like as il

from ...container import Container
from ...nn.models import Model

Dims = dict[int, str]  # axis -> the dimension's name


@dataclass
class Plan:
    """The export of ``call(params, *inputs)``: ``examples`` (NumPy), ``dims`` (one per input),
    ``weights`` (key chain -> NumPy, in order) and ``what`` (the source, for messages)."""

    call: Callable[..., Any]
    examples: list[np.ndarray]
    dims: list[Dims]
    weights: dict[str, np.ndarray] = field(default_factory=dict)
    what: str = "function"
    names: list[str] = field(default_factory=list)  # the inputs' names in a SavedModel

    def __post_init__(self) -> None:
        if len(self.names) != len(self.examples):
            self.names = [f"input_{i}" for i in range(len(self.examples))]

    def native(self, backend: str) -> Callable[..., Any]:
        """``f(weights, *inputs)`` of native arrays of ``backend``: ``weights`` is the flat list
        in :attr:`weights`' order; the outputs are native arrays in tuples and dicts."""
        keys = list(self.weights)
        b = il.get_backend(backend)

        def f(weights: Sequence[Any], *inputs: Any) -> Any:
            with il.use_backend(b):
                params = Container.cont_unflatten({k: il.asarray(w) for k, w in zip(keys, weights)})
                return plain(self.call(params, *(il.asarray(x) for x in inputs)))

        return f

    def symbols(self) -> dict[str, int]:
        """Each dimension's name and its size in the example."""
        found: dict[str, int] = {}
        for x, dims in zip(self.examples, self.dims):
            for axis, name in dims.items():
                found.setdefault(name, x.shape[axis])
        return found


def plain(out: Any) -> Any:
    """``out`` with Arrays made native and Containers made dicts (tuples stay tuples)."""
    if isinstance(out, il.Array):
        return il.to_native(out)
    if isinstance(out, Container):
        return {k: plain(v) for k, v in out.items()}
    if isinstance(out, Mapping):
        return {str(k): plain(v) for k, v in out.items()}
    if isinstance(out, (tuple, list)):
        return tuple(plain(v) for v in out)
    return out


def flat_outputs(out: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """The leaves of a plain output with their names (``output_0``, ``logits``, ``h/0``)."""
    if isinstance(out, Mapping):
        return [pair for k, v in out.items() for pair in flat_outputs(v, f"{prefix}{k}/")]
    if isinstance(out, tuple):
        return [pair for i, v in enumerate(out) for pair in flat_outputs(v, f"{prefix}{i}/")]
    name = prefix[:-1] if prefix else "0"
    return [(name if not name[0].isdigit() else f"output_{name}", out)]


def as_numpy(x: Any, where: str) -> np.ndarray:
    """An example input as an exact NumPy copy (an Array, a native array or NumPy)."""
    if isinstance(x, (Container, Mapping, list, tuple)) or x is None or isinstance(x, (str, bytes)):
        raise TypeError(
            f"export: {where} must be an array (of any framework), got {type(x).__name__}; "
            f"an exported function takes arrays only"
        )
    try:
        arr = np.array(il.to_numpy(x), copy=True)
    except Exception as err:
        raise TypeError(f"export: {where} is not an array: {err}") from None
    if arr.dtype == object:
        raise TypeError(f"export: {where} is not an array of numbers")
    return arr


def resolve_dims(dynamic: Any, examples: Sequence[np.ndarray]) -> list[Dims]:
    """``dynamic`` as one ``{axis: name}`` per input.

    None: axis 0 of every input that has one is ``"batch"``. False or an empty sequence: no
    dynamic dimension. Otherwise one entry per input: None (static) or a mapping from axis to
    a name (an identifier); inputs sharing a name share that size.
    """
    n = len(examples)
    if dynamic is None:
        return [({0: "batch"} if x.ndim else {}) for x in examples]
    if dynamic is False:
        return [{} for _ in examples]
    if (
        isinstance(dynamic, Mapping)
        or not isinstance(dynamic, Sequence)
        or isinstance(dynamic, str)
    ):
        raise TypeError(
            "export: dynamic must be None (axis 0 of every input dynamic), False (none), or a "
            f"sequence with one entry per input (None or {{axis: name}}), got {dynamic!r}"
        )
    if len(dynamic) == 0:
        return [{} for _ in examples]
    if len(dynamic) != n:
        raise ValueError(f"export: dynamic has {len(dynamic)} entries for {n} input(s)")
    out: list[Dims] = []
    sizes: dict[str, tuple[int, int]] = {}
    for i, (spec, x) in enumerate(zip(dynamic, examples)):
        if spec is None:
            out.append({})
            continue
        if not isinstance(spec, Mapping):
            raise TypeError(f"export: dynamic[{i}] must be None or {{axis: name}}, got {spec!r}")
        dims: Dims = {}
        for axis, name in spec.items():
            if not isinstance(axis, int) or not -x.ndim <= axis < x.ndim:
                raise ValueError(
                    f"export: dynamic[{i}] names axis {axis!r}, but input {i} has "
                    f"{x.ndim} dimension(s)"
                )
            if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
                raise ValueError(f"export: dynamic[{i}][{axis}] must be a name, got {name!r}")
            size = x.shape[axis]
            if name in sizes and sizes[name][1] != size:
                raise ValueError(
                    f"export: dimension {name!r} is {sizes[name][1]} in input {sizes[name][0]} "
                    f"but {size} in input {i} of the example"
                )
            sizes.setdefault(name, (i, size))
            dims[axis % x.ndim] = name
        out.append(dims)
    return out


def resized(plan: Plan, sizes: Mapping[str, int]) -> list[np.ndarray]:
    """The example inputs with each dynamic dimension at ``sizes[name]``: rows of the example
    repeated (or dropped), so the values stay in the range the function was shown."""
    out = []
    for x, dims in zip(plan.examples, plan.dims):
        for axis, name in dims.items():
            if x.shape[axis] == 0:
                shape = list(x.shape)
                shape[axis] = sizes[name]
                x = np.zeros(shape, x.dtype)
                continue
            index = np.arange(sizes[name]) % x.shape[axis]
            x = np.take(x, index, axis=axis)
        out.append(np.ascontiguousarray(x))
    return out


def plan_for(fn_or_model: Any, examples: list[np.ndarray], dims: list[Dims]) -> Plan:
    """The plan of a portable model (weights inside the artifact, inputs only) or a function."""
    if isinstance(fn_or_model, Model):
        model = fn_or_model
        params = model.params if model.params is not None else Container()
        weights = {
            k: as_numpy(v, f"the weight {k!r}")
            for k, v in Container(params).cont_flatten_key_chains().items()
        }
        names = _parameter_names(model.apply, len(examples), skip=1)
        return Plan(
            lambda p, *xs: model.apply(p, *xs), examples, dims, weights, type(model).__name__, names
        )
    if not callable(fn_or_model):
        raise TypeError(
            f"export: fn_or_model must be a function written with ivy_like or an ivy_like.nn "
            f"model, got {type(fn_or_model).__name__}"
        )
    fn = fn_or_model
    name = getattr(fn, "__qualname__", type(fn).__name__)
    names = _parameter_names(fn, len(examples), skip=0)
    return Plan(lambda p, *xs: fn(*xs), examples, dims, {}, name, names)


def _parameter_names(fn: Any, n: int, skip: int) -> list[str]:
    """The names of ``fn``'s first ``n`` positional parameters after ``skip`` (the inputs'
    names in a SavedModel's signature), or none when they cannot all be read."""
    try:
        parameters = list(inspect.signature(fn).parameters.values())[skip:]
    except (TypeError, ValueError):
        return []
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    names = [p.name for p in parameters[:n] if p.kind in kinds]
    return names if len(names) == n and len(set(names)) == n else []

"""One example's arguments, kept backend-neutral and handed to each backend as fresh copies.

An :class:`Example` holds the array leaves of the arguments as NumPy arrays (from NumPy,
``ivy_like.Array`` or any backend's native arrays) and the rest of the structure (tuples,
lists, dicts, Containers, Python numbers) as a template. Every call of the function under
test gets new arrays, so that a function that writes into its input cannot change what the
next check sees, and arrays given as ``ivy_like.Array`` are passed as Arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core import backend as _backend
from ..core.array import Array
from ._compare import _as_numpy


@dataclass(frozen=True)
class _Slot:
    """Where array leaf ``index`` goes in the template."""

    index: int


@dataclass(frozen=True)
class _Node:
    """A tuple, list or dict (a Container is one) of the template; ``keys`` for dicts."""

    kind: type
    keys: tuple[Any, ...] | None
    children: tuple[Any, ...]


def _is_array(x: Any) -> bool:
    kind = _backend.kind_of(type(x))
    if kind == "array" or isinstance(kind, _backend.Backend):
        return True
    # NumPy arrays and scalars are neutral; so are Python numbers, which stay constants
    return kind == _backend.NEUTRAL and not isinstance(x, (bool, int, float, complex, str))


def _template(x: Any, leaves: list[np.ndarray], wrapped: list[bool]) -> Any:
    if _is_array(x):
        leaves.append(np.array(_as_numpy(x), copy=True))
        wrapped.append(isinstance(x, Array))
        return _Slot(len(leaves) - 1)
    if isinstance(x, dict):
        keys = tuple(x)
        return _Node(type(x), keys, tuple(_template(x[k], leaves, wrapped) for k in keys))
    if isinstance(x, (list, tuple)):
        return _Node(type(x), None, tuple(_template(v, leaves, wrapped) for v in x))
    return x


def _fill(t: Any, values: Sequence[Any]) -> Any:
    if isinstance(t, _Slot):
        return values[t.index]
    if isinstance(t, _Node):
        children = [_fill(c, values) for c in t.children]
        if t.keys is not None:
            return t.kind(zip(t.keys, children))
        return t.kind(children)
    return t


def _axes(t: Any) -> Any:
    """``vmap``'s in_axes for one argument: 0 on every array, None on everything else."""
    if isinstance(t, _Slot):
        return 0
    if isinstance(t, _Node):
        children = [_axes(c) for c in t.children]
        if all(c == 0 for c in children) and children:
            return 0
        if t.keys is not None:
            return dict(zip(t.keys, children))
        return tuple(children) if t.kind is tuple else list(children)
    return None


@dataclass
class Example:
    """The arguments of one call: ``leaves`` (NumPy arrays), ``wrapped`` (each given as an
    ``ivy_like.Array``?) and the template that puts them back in place."""

    template: tuple[Any, ...]
    leaves: list[np.ndarray]
    wrapped: list[bool]

    @classmethod
    def of(cls, args: Sequence[Any]) -> Example:
        leaves: list[np.ndarray] = []
        wrapped: list[bool] = []
        template = tuple(_template(a, leaves, wrapped) for a in args)
        return cls(template, leaves, wrapped)

    def with_leaves(self, leaves: Sequence[np.ndarray]) -> Example:
        return Example(self.template, list(leaves), self.wrapped)

    def args(
        self,
        backend: _backend.Backend,
        leaves: Sequence[np.ndarray] | None = None,
        *,
        read_only: bool = False,
        given: dict[int, Any] | None = None,
    ) -> tuple[Any, ...]:
        """The arguments on ``backend``, each array a new copy (of ``leaves`` when given);
        ``given`` puts values of the backend in place of some leaves (the ones being
        differentiated); ``read_only`` makes NumPy's copies read-only, so a write raises."""
        values: list[Any] = []
        for i, leaf in enumerate(self.leaves if leaves is None else leaves):
            if given is not None and i in given:  # a native array of the backend
                values.append(Array(given[i], backend) if self.wrapped[i] else given[i])
                continue
            copy = np.array(leaf, copy=True)
            if read_only:
                copy.setflags(write=False)
            native = backend.asarray(copy)
            values.append(Array(native, backend) if self.wrapped[i] else native)
        return tuple(_fill(t, values) for t in self.template)

    def in_axes(self) -> tuple[Any, ...]:
        return tuple(_axes(t) for t in self.template)

    def leaves_of(self, args: Sequence[Any]) -> list[Any]:
        """The array leaves found at this example's slots in ``args`` (after a call: an Array
        that was rebound, a list that lost an element)."""
        found: list[Any] = [None] * len(self.leaves)

        def walk(t: Any, x: Any) -> None:
            if isinstance(t, _Slot):
                found[t.index] = x
            elif isinstance(t, _Node):
                keys = t.keys if t.keys is not None else range(len(t.children))
                for k, c in zip(keys, t.children):
                    walk(c, x[k])

        for t, a in zip(self.template, args):
            walk(t, a)
        return found

    def same_structure(self, args: Sequence[Any]) -> str | None:
        """None when ``args`` still have this example's structure, else what changed."""
        leaves: list[np.ndarray] = []
        template = tuple(_template(a, leaves, []) for a in args)
        if template != self.template:
            return "the structure of the arguments changed (an element added, removed or replaced)"
        return None

    def code(self) -> str:
        """Python source that builds these arguments as a tuple (NumPy arrays,
        ``ivy_like.asarray`` for Arrays): the failing example, reproducible."""
        values = [_array_code(v, w) for v, w in zip(self.leaves, self.wrapped)]
        items = [_code(t, values) for t in self.template]
        return "(\n" + "".join(f"    {item},\n" for item in items) + ")"


def _code(t: Any, values: list[str]) -> str:
    if isinstance(t, _Slot):
        return values[t.index]
    if isinstance(t, _Node):
        parts = [_code(c, values) for c in t.children]
        if t.keys is not None:
            body = ", ".join(f"{k!r}: {p}" for k, p in zip(t.keys, parts))
            return "{" + body + "}" if t.kind is dict else f"ivy_like.{t.kind.__name__}({{{body}}})"
        if t.kind is tuple:
            return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
        return "[" + ", ".join(parts) + "]"
    return _scalar_code(t)


def _scalar_code(v: Any) -> str:
    if isinstance(v, (bool, np.bool_)):
        return repr(bool(v))
    if isinstance(v, (int, np.integer)):
        return repr(int(v))
    if isinstance(v, (complex, np.complexfloating)):
        return f"complex({_scalar_code(v.real)}, {_scalar_code(v.imag)})"
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if np.isnan(f):
            return "np.nan"
        if np.isinf(f):
            return "np.inf" if f > 0 else "-np.inf"
        return repr(f)  # exact: a float32 is a float64, and repr round-trips a float64
    return repr(v)


def _array_code(value: np.ndarray, wrapped: bool) -> str:
    flat = ", ".join(_scalar_code(v) for v in value.reshape(-1).tolist())
    dtype = f"np.{value.dtype.name}" if value.dtype.name != "bool" else "np.bool_"
    if value.ndim == 0:
        code = f"np.array({flat}, dtype={dtype})"
    elif value.ndim == 1 and value.size:
        code = f"np.array([{flat}], dtype={dtype})"
    else:
        code = f"np.array([{flat}], dtype={dtype}).reshape({value.shape})"
    return f"ivy_like.asarray({code})" if wrapped else code


def variants(leaves: Sequence[np.ndarray], seed: int = 0) -> list[list[np.ndarray]]:
    """Two more examples shaped like ``leaves``, with other values: the values in reverse
    order, and the values with random signs scaled by up to 25% (integers rolled, booleans
    negated). A batch of copies of one example hides a function that mixes the examples of
    a batch (a reduction over the batch axis); these keep the special values (NaN, -0.0,
    the integer extremes) and mostly the domain (a positive input stays positive in the
    reversed one)."""
    rng = np.random.default_rng(seed)
    reverse, other = [], []
    for x in leaves:
        reverse.append(np.array(x.reshape(-1)[::-1].reshape(x.shape)))  # a 0-d array stays 0-d
        if x.dtype.kind in "fc":
            signs = rng.choice([-1.0, 1.0], size=x.shape)
            scale = 1.0 + 0.25 * rng.uniform(-1.0, 1.0, size=x.shape)
            with np.errstate(all="ignore"):
                other.append((x * (signs * scale)).astype(x.dtype))
        elif x.dtype.kind == "b":
            other.append(~x)
        else:
            other.append(np.roll(x.reshape(-1), 1).reshape(x.shape))
    return [reverse, other]


def describe_leaf(example: Example, index: int) -> str:
    """A leaf's place in the arguments: ``argument 0``, ``argument 1['w']``."""

    def find(t: Any, prefix: str) -> str | None:
        if isinstance(t, _Slot):
            return prefix if t.index == index else None
        if isinstance(t, _Node):
            keys = t.keys if t.keys is not None else range(len(t.children))
            for k, c in zip(keys, t.children):
                hit = find(c, f"{prefix}[{k!r}]")
                if hit is not None:
                    return hit
        return None

    for i, t in enumerate(example.template):
        hit = find(t, f"argument {i}")
        if hit is not None:
            return hit
    return f"leaf {index}"

"""What the optimizers, schedules and clipping share: the types of a learning rate, a schedule
and a clipping function, a map over trees of dicts/Containers, lists and tuples of the same
structure (``params``, ``grads`` and the state mirror each other), and scaling a tree's leaves
by a number or by a scalar array on their backend."""

from __future__ import annotations

import numbers
import operator
from collections.abc import Callable
from typing import Any, Union

import ivy_like as il
from ivy_like.core.array import Array
from ivy_like.core.dtypes import Dtype

Schedule = Callable[[Any], Any]  # step count (an int, or an int32 scalar array) -> rate
Clip = Callable[[Any], Any]  # gradients -> gradients of the same structure
LearningRate = Union[float, Schedule]


def map_trees(fn: Callable[..., Any], trees: tuple[Any, ...], kc: str = "") -> Any:
    """Map ``fn(*leaves, key_chain)`` over trees of the same structure (dicts/Containers,
    lists, tuples); a structural mismatch is a ``ValueError`` naming the key chain."""
    first = trees[0]
    if isinstance(first, dict):
        for t in trees[1:]:
            if not isinstance(t, dict) or set(t) != set(first):
                raise ValueError(
                    f"optimizer: params, grads and state differ in structure at "
                    f"{kc or '<root>'!r}: keys {sorted(first)} vs "
                    f"{sorted(t) if isinstance(t, dict) else type(t).__name__}"
                )
        out = {
            k: map_trees(fn, tuple(t[k] for t in trees), f"{kc}/{k}" if kc else str(k))
            for k in first
        }
        return type(first)(out)
    if isinstance(first, (list, tuple)):
        for t in trees[1:]:
            if not isinstance(t, (list, tuple)) or len(t) != len(first):
                raise ValueError(
                    f"optimizer: params, grads and state differ in structure at {kc or '<root>'!r}"
                )
        return type(first)(
            map_trees(fn, tuple(t[i] for t in trees), f"{kc}[{i}]") for i in range(len(first))
        )
    return fn(*trees, kc)


def parts(x: Any) -> tuple[Any, Any]:
    """(backend, native array) of an array or an ``Array``."""
    if isinstance(x, Array):
        return x.backend, x.data
    return il.backend_of(x), x


def dtype_name(p: Any) -> str:
    """The unified name of a leaf's dtype, read from its backend's own table (the shared
    cache behind ``as_dtype`` holds every framework's dtypes, which torch.compile cannot
    hash)."""
    dtype = p.dtype
    if isinstance(dtype, Dtype):
        return dtype.name
    return il.backend_of(p).unified_dtype(dtype).name  # type: ignore[no-any-return]


def check_positive(value: Any, name: str, who: str) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not value > 0:
        raise ValueError(f"{who}: {name} must be a positive number, got {value!r}")
    return float(value)


def scale_by(value: Any) -> Callable[[Any, Any], Any]:
    """``scale(x, p) = x * value`` for a number, or for a scalar array (a schedule's value, a
    clipping factor) cast to the dtype of ``p`` once per dtype: TensorFlow does not promote
    float32 with float64, and a float32 factor would make bfloat16 leaves float32."""
    if isinstance(value, numbers.Real):
        number = float(value)
        return lambda x, p: x * number
    b, native = parts(value)
    wrap = isinstance(value, Array)
    # A leaf times a 0-d array: Arrays' operator, or the backend's function on native arrays
    # (MXNet's own operators have no 0-d arrays).
    times = operator.mul if wrap else b.multiply
    by_dtype: dict[Any, Any] = {}

    def scale(x: Any, p: Any) -> Any:
        factor = by_dtype.get(p.dtype)
        if factor is None:
            factor = b.astype(native, b.native_dtype(dtype_name(p)))
            factor = by_dtype[p.dtype] = Array(factor, b) if wrap else factor
        return times(x, factor)

    return scale


def tree_leaves(tree: Any) -> list[Any]:
    """The leaves of a tree of dicts/Containers, lists and tuples, in order."""
    if isinstance(tree, dict):
        return [leaf for child in tree.values() for leaf in tree_leaves(child)]
    if isinstance(tree, (list, tuple)):
        return [leaf for child in tree for leaf in tree_leaves(child)]
    return [tree]

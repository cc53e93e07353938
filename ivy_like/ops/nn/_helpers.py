"""What the declarations of the nn family share: a native array's shape read as ints (the
composites) or as given (the checks, which also run inside a TensorFlow graph, where a size
may be None), its dtype's kind, and the rule of an int-or-tuple argument."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# Spread into @op's keywords (Any: they are of several types): every nn op is published in
# ivy_like.nn, and its backend function is named nn_<op>.
NN: dict[str, Any] = {"namespaces": ("nn",)}


def int_shape(x: Any) -> tuple[int, ...]:
    """``x``'s sizes as ints; a symbolic size of an export trace (torch's ``SymInt``, a
    ``jax.export`` dimension) and an unknown one (None, in a TensorFlow graph with a dynamic
    dimension) are kept: ``int()`` would fix it at the example's size or fail."""
    return tuple(s if s is None or type(s).__name__ in _SYMBOLIC else int(s) for s in x.shape)


_SYMBOLIC = frozenset(("SymInt", "_DimExpr"))


def dims(x: Any) -> tuple[Any, ...]:
    """``x``'s shape as the framework gives it (None entries: unknown in a traced graph)."""
    return tuple(x.shape)


def optional_dims(x: Any) -> tuple[Any, ...] | None:
    return None if x is None else tuple(x.shape)


def is_float(x: Any) -> bool:
    return "float" in str(x.dtype)


def is_int(x: Any) -> bool:
    return "int" in str(x.dtype)


def is_int_value(value: Any) -> bool:
    """A Python int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_ints(value: Any, n: int, name: str, who: str) -> tuple[int, ...]:
    """``value`` must be an int or a length-``n`` sequence of ints, each ``>= 0``; returned as
    an ``n``-tuple."""
    if is_int_value(value):
        out = (value,) * n
    elif isinstance(value, Sequence) and len(value) == n and all(map(is_int_value, value)):
        out = tuple(value)
    else:
        raise TypeError(f"{who}: {name} must be an int or a sequence of {n} ints, got {value!r}")
    if any(v < 0 for v in out):
        raise ValueError(f"{who}: {name} must be non-negative, got {value!r}")
    return out


def check_axis(who: str, ndim: int, axis: Any) -> None:
    """``axis`` must be an int in ``[-ndim, ndim)``."""
    if not is_int_value(axis):
        raise TypeError(f"{who}: axis must be an int, got {axis!r}")
    if not -ndim <= axis < max(ndim, 1):
        raise ValueError(f"{who}: axis {axis} is out of range for x with {ndim} dimensions")

"""The values the generated code computes on the host: NumPy, never the device.

Shape arithmetic (``Shape`` of an input with a dynamic dimension, and what follows from it) is
run on NumPy at run time by :func:`run_on_numpy`, so shapes stay numbers under every
transform; :func:`narrow` gives such a value (or a constant) the dtypes of the active backend
where it has no 64-bit types, and :func:`to_device` makes one an array of that backend.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

import ivy_like as il

from ...core.backend import activate, current_backend, deactivate, get_backend


def run_on_numpy(fn: Any, args: Iterable[Any], kwargs: dict[str, Any]) -> Any:
    """``fn(*args, **kwargs)`` with the numpy backend active; the results as NumPy arrays (a
    tuple when ``fn`` gives several)."""
    tokens = activate(get_backend("numpy"))
    try:
        out = fn(*args, **kwargs)
    finally:
        if tokens is not None:
            deactivate(tokens)
    if isinstance(out, (tuple, list)):
        return tuple(_numpy(o) for o in out)
    return _numpy(out)


def _numpy(x: Any) -> Any:
    if x is None or isinstance(x, np.ndarray):
        return x
    if isinstance(x, il.Array):
        return np.asarray(il.to_numpy(x))
    return np.asarray(x)


_NARROW = {
    "int64": np.int32,
    "uint64": np.uint32,
    "float64": np.float32,
    "complex128": np.complex64,
}


def narrow(x: Any, strict: bool = False) -> Any:
    """A NumPy value in the dtypes of the active backend: int64 as int32 (and the other 64-bit
    types as their 32-bit ones) where the backend has none, as its own arrays are. Integers
    that do not fit (a Slice's end of INT64_MAX, "to the end") stay as they are: a handler
    reads them as numbers; ``strict`` (a model's input) makes that an ``OverflowError``."""
    if isinstance(x, np.ndarray) and x.dtype.name in _NARROW:
        if il.as_dtype(x.dtype.name) not in current_backend().DTYPES:
            small: np.ndarray = x.astype(_NARROW[x.dtype.name])
            if x.dtype.kind in "iu" and not np.array_equal(small, x):
                if not strict:
                    return x
                raise OverflowError(
                    f"a {x.dtype.name} value does not fit in {small.dtype.name}, the widest "
                    f"the {current_backend().name} backend has"
                )
            return small
    return x


def host_shape(x: Any, start: int = 0, end: int | None = None) -> np.ndarray:
    """``Shape`` at run time: a NumPy int64 vector (Python numbers, never a tracer)."""
    return np.array(tuple(x.shape)[start:end], dtype=np.int64)


def to_device(x: Any) -> Any:
    """A host (NumPy) value returned as an output: an array of the active backend."""
    return il.asarray(narrow(x))


def run_on_numpy_args(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """The generated code's ``__host``: a node computed on NumPy at run time."""
    return run_on_numpy(fn, args, kwargs)

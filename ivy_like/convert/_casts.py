"""Dtypes of the converted graphs on the backend that runs them, and the casts they insert.

Both graph converters (PyTorch's ATen graphs, Flax's jaxprs) record ``int64`` where JAX without
x64 has only ``int32``: :func:`backend_dtype` makes that one choice for both, and :func:`cast`
is the promotion cast the converters insert.
"""

from __future__ import annotations

from typing import Any

import ivy_like as il

_FALLBACK = {"int64": "int32", "uint64": "uint32"}
_dtype_on: dict[tuple[str, str], Any] = {}


def backend_dtype(dtype: Any) -> Any:
    """``dtype`` on the active backend; int64 becomes int32 where the backend has no int64
    (JAX without x64 makes that choice for every integer array itself). A float dtype the
    backend lacks stays a ``TypeError``: never a silent cast of the values."""
    if dtype is None:
        return None
    backend = il.current_backend()
    key = (backend.name, dtype.name)
    hit = _dtype_on.get(key)
    if hit is None:
        try:
            backend.native_dtype(dtype)
            hit = dtype
        except TypeError:
            if dtype.name not in _FALLBACK:
                raise
            hit = il.as_dtype(_FALLBACK[dtype.name])
        _dtype_on[key] = hit
    return hit


def cast(x: Any, dtype: Any) -> Any:
    """``x`` as ``dtype`` (the converter's inserted promotion casts)."""
    return il.astype(x, backend_dtype(dtype), copy=False)

"""The NumPy backend: aliases of NumPy functions; no autodiff, mutable arrays.

Works with NumPy 1.23 and 2.x (the MXNet environment pins 1.23).

This module holds what the backend is (its facts and the hooks the core calls); the op kernels
live in one file per op family (``elementwise.py``, ``linalg.py``...), as in ``ivy_like/ops/``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._common import hooks as _hooks

NAME = "numpy"
VERSION = np.__version__
ARRAY_TYPES = (np.ndarray, np.generic)
HAS_AUTODIFF = False
MUTABLE_ARRAYS = True
UNSUPPORTED: dict[str, str] = {}
DTYPES = _hooks.dtype_table(
    np.dtype,
    "bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32 float64 complex64 "
    "complex128",
)
DEFAULT_FLOAT = np.dtype("float32")
DEFAULT_INT = np.dtype("int64")
_DEFAULT_COMPLEX = np.dtype("complex64")


# -- helpers for the core ------------------------------------------------------------------------
def shape(x: Any) -> tuple[int, ...]:
    return np.shape(x)


dtype = _hooks.dtype


def device(x: Any) -> str:
    return "cpu"


def native_device(device: Any) -> str:
    """NumPy has one device, ``"cpu"``; anything else is a ``ValueError``.

    Examples
    --------
    >>> from ivy_like.backends import numpy as B
    >>> B.native_device("cpu")
    'cpu'
    """
    if isinstance(device, str) and device == "cpu":
        return device
    raise ValueError(f"device: the numpy backend has only 'cpu', got {device!r}")


def to_numpy(x: Any) -> np.ndarray:
    return np.asarray(x)


dlpack = _hooks.dlpack_for(np.asarray)
dlpack_device = _hooks.dlpack_device_for(np.asarray)


def write_inplace(target: Any, value: Any) -> None:
    if not isinstance(target, np.ndarray):
        raise TypeError("out=: a NumPy scalar cannot be written in place; pass an ndarray")
    np.copyto(target, value)


def getitem(x: Any, key: Any) -> Any:
    return x[key]


def setitem(x: Any, key: Any, value: Any) -> Any:
    x[key] = value
    return x


is_variable = _hooks.is_variable

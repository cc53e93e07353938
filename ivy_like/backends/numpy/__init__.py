"""The NumPy backend: aliases of NumPy functions; no autodiff, mutable arrays.

Works with NumPy 1.23 and 2.x (the MXNet environment pins 1.23).

This module holds what the backend is (its facts and the hooks the core calls); the op kernels
live in one file per op family (``elementwise.py``, ``linalg.py``...), as in ``ivy_like/ops/``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core import dtypes as D

NAME = "numpy"
VERSION = np.__version__
ARRAY_TYPES = (np.ndarray, np.generic)
HAS_AUTODIFF = False
MUTABLE_ARRAYS = True
UNSUPPORTED: dict[str, str] = {}
DTYPES = {
    D.bool: np.dtype("bool"),
    D.int8: np.dtype("int8"),
    D.int16: np.dtype("int16"),
    D.int32: np.dtype("int32"),
    D.int64: np.dtype("int64"),
    D.uint8: np.dtype("uint8"),
    D.uint16: np.dtype("uint16"),
    D.uint32: np.dtype("uint32"),
    D.uint64: np.dtype("uint64"),
    D.float16: np.dtype("float16"),
    D.float32: np.dtype("float32"),
    D.float64: np.dtype("float64"),
    D.complex64: np.dtype("complex64"),
    D.complex128: np.dtype("complex128"),
}
DEFAULT_FLOAT = np.dtype("float32")
DEFAULT_INT = np.dtype("int64")
_DEFAULT_COMPLEX = np.dtype("complex64")


# -- helpers for the core ------------------------------------------------------------------------
def shape(x: Any) -> tuple[int, ...]:
    return np.shape(x)


def dtype(x: Any) -> Any:
    return x.dtype


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


def dlpack(x: Any, *args: Any, **kwargs: Any) -> Any:
    return np.asarray(x).__dlpack__(*args, **kwargs)


def dlpack_device(x: Any) -> tuple[int, int]:
    return np.asarray(x).__dlpack_device__()


def write_inplace(target: Any, value: Any) -> None:
    if not isinstance(target, np.ndarray):
        raise TypeError("out=: a NumPy scalar cannot be written in place; pass an ndarray")
    np.copyto(target, value)


def getitem(x: Any, key: Any) -> Any:
    return x[key]


def setitem(x: Any, key: Any, value: Any) -> Any:
    x[key] = value
    return x


def is_variable(x: Any) -> bool:
    return False

"""numpy backend: array API creation functions.

Mostly aliases; Python data and scalars take ivy_like's default dtypes (float32, int64,
complex64), and the shared rules of ``ivy_like.ops.creation`` (matrix and meshgrid checks) are
applied first so every backend raises the same errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._common import creation as _creation
from . import _DEFAULT_COMPLEX, DEFAULT_FLOAT, DEFAULT_INT

_is_python_data = _creation.is_python_data
_arange_dtype = _creation.arange_dtype_for(DEFAULT_FLOAT, DEFAULT_INT)
_scalar_default = _creation.scalar_default_for(
    np.dtype("bool"), DEFAULT_INT, DEFAULT_FLOAT, _DEFAULT_COMPLEX
)


def _default_dtype_for(arr: np.ndarray) -> Any:
    """float64/complex128 inferred from Python data become the defaults (float32/complex64)."""
    if arr.dtype == np.float64:
        return DEFAULT_FLOAT
    if arr.dtype == np.complex128:
        return _DEFAULT_COMPLEX
    return None


def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: Any = None) -> Any:
    if dtype is None and _is_python_data(obj):
        arr = np.asarray(obj)
        default = _default_dtype_for(arr)
        return arr.astype(default) if default is not None else arr
    if copy:
        return np.array(obj, dtype=dtype, copy=True)
    arr = np.asarray(obj, dtype=dtype)
    if copy is False and arr is not obj and not (isinstance(obj, np.ndarray) and arr.base is obj):
        raise ValueError("asarray: copy=False but a copy is needed")
    return arr


def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return np.zeros(shape, dtype or DEFAULT_FLOAT)  # positional: NumPy parses it faster


def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return np.ones(shape, dtype=dtype or DEFAULT_FLOAT)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    if dtype is None:
        dtype = _scalar_default(fill_value)
    return np.full(shape, fill_value, dtype=dtype)


def arange(start, /, stop=None, step=1, *, dtype=None, device=None) -> Any:
    if dtype is None:
        dtype = _arange_dtype(start, stop, step)
    if stop is None:
        return np.arange(start, dtype=dtype)
    return np.arange(start, stop, step, dtype=dtype)


def linspace(start, stop, /, num: int, *, dtype=None, device=None, endpoint: bool = True) -> Any:
    return np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype or DEFAULT_FLOAT)


def eye(
    n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None
) -> Any:
    return np.eye(n_rows, n_cols, k=k, dtype=dtype or DEFAULT_FLOAT)


def zeros_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return np.zeros_like(x, dtype=dtype)


def ones_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return np.ones_like(x, dtype=dtype)


def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return np.empty(shape, dtype=dtype or DEFAULT_FLOAT)


def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return np.empty_like(x, dtype=dtype)


def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return np.full_like(x, fill_value, dtype=dtype)


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
    """``np.from_dlpack`` with the standard's ``copy`` (also the core's import helper).

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.backends.numpy import creation
    >>> creation.from_dlpack(np.arange(2.0), copy=True)
    array([0., 1.])
    """
    if device not in (None, "cpu"):
        raise ValueError(
            f"from_dlpack: the numpy backend has only the 'cpu' device, got {device!r}"
        )
    if np.__version__ < "2":  # NumPy 1.x: no copy argument; from_dlpack always shares
        # ...and marks every import read-only, and cannot export a read-only array: NumPy
        # arrays (also inside an Array of this backend) are shared directly, as writable as
        # their source.
        if getattr(getattr(x, "backend", None), "name", None) == "numpy":
            x = x.data
        shared = x.view() if isinstance(x, np.ndarray) else np.from_dlpack(x)
        return shared.copy() if copy else shared
    if copy is None:
        return np.from_dlpack(x)
    return np.from_dlpack(x, copy=copy)


meshgrid = _creation.meshgrid_for(np)
tril = _creation.tril_for(np)
triu = _creation.triu_for(np)

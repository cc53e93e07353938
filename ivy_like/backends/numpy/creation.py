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
_NUMBERS = _creation.NUMBERS
_arange_dtype = _creation.arange_dtype_for(DEFAULT_FLOAT, DEFAULT_INT)
_scalar_default = _creation.scalar_default_for(
    np.dtype("bool"), DEFAULT_INT, DEFAULT_FLOAT, _DEFAULT_COMPLEX
)


# float64/complex128 inferred from Python data become the defaults (float32/complex64).
_PY_DEFAULTS = {np.dtype("float64"): DEFAULT_FLOAT, np.dtype("complex128"): _DEFAULT_COMPLEX}


def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: Any = None) -> Any:
    if dtype is None and _is_python_data(obj):
        try:
            arr = np.asarray(obj)
        except Exception as err:  # e.g. ragged lists: the decided error, else NumPy's
            _creation.refuse_data(obj, err)
            raise
        default = _PY_DEFAULTS.get(arr.dtype)
        if default is not None:
            return arr.astype(default)
        if arr.dtype.kind in "OUSu":  # strings, objects ([2**70]), uint64 ([2**63])
            _creation.check_numeric(obj, arr)
        return arr
    try:
        if copy:
            return np.array(obj, dtype=dtype, copy=True)
        arr = np.asarray(obj, dtype=dtype)
    except Exception as err:  # ["a"] with a float dtype...: the decided error, else NumPy's
        _creation.refuse_data(obj, err, dtype=dtype)
        raise
    if copy is False and arr is not obj and not (isinstance(obj, np.ndarray) and arr.base is obj):
        raise ValueError("asarray: copy=False but a copy is needed")
    return arr


# NumPy 1.x reads a shape of None as () (deprecated): refused here, the rule decides how.
_NO_SHAPE = "shape must be an int or a sequence of ints, got None"


def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    if shape is None:
        raise TypeError(f"zeros: {_NO_SHAPE}")
    return np.zeros(shape, dtype or DEFAULT_FLOAT)  # positional: NumPy parses it faster


def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    if shape is None:
        raise TypeError(f"ones: {_NO_SHAPE}")
    return np.ones(shape, dtype=dtype or DEFAULT_FLOAT)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    if shape is None:
        raise TypeError(f"full: {_NO_SHAPE}")
    if type(fill_value) not in _NUMBERS:  # NumPy fills with "1.5", None (NaN), b"1"...
        _creation.fill("full", fill_value, dtype)
    if dtype is None:
        dtype = _scalar_default(fill_value)
    return np.full(shape, fill_value, dtype=dtype)


def arange(start, /, stop=None, step=1, *, dtype=None, device=None) -> Any:
    if dtype is None:
        dtype = _arange_dtype(start, stop, step)
    if stop is None:  # arange(n, step=k): n is the stop (the step was dropped here before)
        start, stop = 0, start
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
    if shape is None:
        raise TypeError(f"empty: {_NO_SHAPE}")
    return np.empty(shape, dtype=dtype or DEFAULT_FLOAT)


def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return np.empty_like(x, dtype=dtype)


def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    if type(fill_value) not in _NUMBERS:  # NumPy fills with "1.5", None (NaN), b"1"...
        _creation.fill("full_like", fill_value, dtype or x.dtype)
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

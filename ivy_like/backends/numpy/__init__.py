"""The NumPy backend: aliases of NumPy functions; no autodiff, mutable arrays.

Works with NumPy 1.23 and 2.x (the MXNet environment pins 1.23).
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from ... import _dtypes as D
from ...ops._half import _half_in_float32
from ...ops.elementwise import _int_pow
from ...ops.statistical import _ACCURATE_SUM_FROM, _leading_reduction_size

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


def _is_python_data(obj: Any) -> bool:
    return not isinstance(obj, (np.ndarray, np.generic)) and not hasattr(obj, "__array__")


def _default_dtype_for(arr: np.ndarray) -> Any:
    """float64/complex128 inferred from Python data become the defaults (float32/complex64)."""
    if arr.dtype == np.float64:
        return DEFAULT_FLOAT
    if arr.dtype == np.complex128:
        return _DEFAULT_COMPLEX
    return None


# -- creation -------------------------------------------------------------------------------------
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


def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return np.zeros(shape, dtype or DEFAULT_FLOAT)  # positional: NumPy parses it faster


def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return np.ones(shape, dtype=dtype or DEFAULT_FLOAT)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    if dtype is None:
        dtype = _scalar_default(fill_value)
    return np.full(shape, fill_value, dtype=dtype)


def _scalar_default(value: Any) -> Any:
    if isinstance(value, bool):
        return np.dtype("bool")
    if isinstance(value, int):
        return DEFAULT_INT
    if isinstance(value, float):
        return DEFAULT_FLOAT
    if isinstance(value, complex):
        return _DEFAULT_COMPLEX
    return None


def arange(
    start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None, device: Any = None
) -> Any:
    if dtype is None:
        is_float = builtins.any(isinstance(v, float) for v in (start, stop, step))
        dtype = DEFAULT_FLOAT if is_float else DEFAULT_INT
    if stop is None:
        return np.arange(start, dtype=dtype)
    return np.arange(start, stop, step, dtype=dtype)


def linspace(
    start: Any,
    stop: Any,
    /,
    num: int,
    *,
    dtype: Any = None,
    device: Any = None,
    endpoint: bool = True,
) -> Any:
    return np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype or DEFAULT_FLOAT)


def eye(
    n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None
) -> Any:
    return np.eye(n_rows, n_cols, k=k, dtype=dtype or DEFAULT_FLOAT)


def zeros_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return np.zeros_like(x, dtype=dtype)


def ones_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return np.ones_like(x, dtype=dtype)


# -- elementwise ----------------------------------------------------------------------------------
add = np.add
subtract = np.subtract
multiply = np.multiply
divide = np.divide
floor_divide = np.floor_divide
remainder = np.remainder


def pow(x1: Any, x2: Any, /) -> Any:  # noqa: A001
    try:
        return _np_power(x1, x2)
    except ValueError as err:
        # NumPy refuses integers to negative integer powers: ivy_like's rule (ops.elementwise).
        if "negative integer powers" not in str(err):
            raise
        x1, x2 = _int_operands(x1, x2)
        return _int_pow(
            x1, x2, np.power, np.where, np.maximum, lambda a, like: a.astype(like.dtype)
        )


def _int_operands(x1: Any, x2: Any) -> tuple[Any, Any]:
    """Integer operands as arrays, a Python int taking the other's dtype (the standard's rule)."""
    if isinstance(x1, int):
        x1 = np.asarray(x1, dtype=np.asarray(x2).dtype)
    if isinstance(x2, int):
        x2 = np.asarray(x2, dtype=x1.dtype)
    x1, x2 = np.broadcast_arrays(x1, x2)
    return x1, x2


_np_power = np.power
maximum = np.maximum
minimum = np.minimum
equal = np.equal
not_equal = np.not_equal
less = np.less
less_equal = np.less_equal
greater = np.greater
greater_equal = np.greater_equal
logical_and = np.logical_and
logical_or = np.logical_or
logical_not = np.logical_not
negative = np.negative
positive = np.positive
abs = np.abs  # noqa: A001
exp = np.exp
log = np.log
sqrt = np.sqrt
square = np.square
sin = np.sin
cos = np.cos
tanh = np.tanh
where = np.where


if np.__version__ < "2":
    # NumPy 1.x casts by value: a 0-d float32 array plus a Python float gives float64. Python
    # scalars beside an array are made weak here (NEP 50, NumPy 2's rule): they take the
    # array's dtype unless their kind is wider.
    _PY_KIND = {bool: "b", int: "i", float: "f", complex: "c"}
    _KIND_ORDER = "biufc"

    def _weak_pair(x1: Any, x2: Any) -> tuple[Any, Any]:
        k1, k2 = _PY_KIND.get(type(x1)), _PY_KIND.get(type(x2))
        if (k1 is None) == (k2 is None):
            return x1, x2
        arr, value, kind = (np.asarray(x2), x1, k1) if k1 else (np.asarray(x1), x2, k2)
        dt = arr.dtype
        if _KIND_ORDER.index(kind) > _KIND_ORDER.index(dt.kind.replace("u", "i")):
            dt = {"i": DEFAULT_INT, "f": np.dtype("float64"), "c": np.dtype("complex128")}[kind]
            if kind == "c" and arr.dtype == np.float32:
                dt = np.dtype("complex64")
        scalar = (
            np.asarray(value).astype(dt) if kind != "i" or dt.kind != "u" or value >= 0 else value
        )
        return (scalar, arr) if k1 else (arr, scalar)

    def _weak(fn: Any) -> Any:
        def op(x1: Any, x2: Any, /) -> Any:
            return fn(*_weak_pair(x1, x2))

        op.__name__ = op.__qualname__ = fn.__name__
        return op

    add, subtract, multiply, divide = _weak(add), _weak(subtract), _weak(multiply), _weak(divide)
    floor_divide, remainder, pow = _weak(floor_divide), _weak(remainder), _weak(pow)  # noqa: A001
    maximum, minimum = _weak(maximum), _weak(minimum)
    equal, not_equal, less, less_equal = (
        _weak(equal),
        _weak(not_equal),
        _weak(less),
        _weak(less_equal),
    )
    greater, greater_equal = _weak(greater), _weak(greater_equal)


# -- reductions -----------------------------------------------------------------------------------
def sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    if type(x) is np.ndarray:  # the method skips np.sum's dispatch layer (~1 µs)
        if axis is not None and dtype is None:
            wide = _wide_accumulator(x, axis)
            if wide is not None:
                return x.sum(axis=axis, dtype=wide, keepdims=keepdims).astype(x.dtype)
        return x.sum(axis=axis, dtype=dtype, keepdims=keepdims)
    return np.sum(x, axis=axis, dtype=dtype, keepdims=keepdims)


_WIDER = {np.dtype("float32"): np.dtype("float64"), np.dtype("complex64"): np.dtype("complex128")}


def _wide_accumulator(x: np.ndarray, axis: Any) -> Any:
    """float64 (complex128) to accumulate a float32 (complex64) reduction of many values that
    leaves the last axis out, else None.

    NumPy sums along the last axis pairwise (1e-7 relative for a million float32 values), but
    reduces other axes one row at a time, a running total per output (4e-5 off for 4000 rows
    of 0.1): those sums accumulate in float64 and are rounded once.
    """
    if x.size < _ACCURATE_SUM_FROM:  # first: the common small call pays one attribute read
        return None
    wide = _WIDER.get(x.dtype)
    if wide is None or _leading_reduction_size(x.shape, axis) < _ACCURATE_SUM_FROM:
        return None
    return wide


# Half precision computed in float32 (ivy_like.ops._half): mean here, var/std/
# cumulative_sum in statistical.py, the decompositions in linalg.py.
_in_float32 = _half_in_float32({"float16": np.dtype("float16")}, np.dtype("float32"))


@_in_float32
def mean(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    if np.asarray(x).dtype.kind not in "fc":
        # The same rule on every backend: mean is for floating-point inputs.
        raise TypeError(f"mean: expected a floating-point array, got {np.asarray(x).dtype}")
    if axis is not None and type(x) is np.ndarray:
        wide = _wide_accumulator(x, axis)
        if wide is not None:
            return np.mean(x, axis=axis, dtype=wide, keepdims=keepdims).astype(x.dtype)
    return np.mean(x, axis=axis, keepdims=keepdims)


def max(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return np.max(x, axis=axis, keepdims=keepdims)


def min(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return np.min(x, axis=axis, keepdims=keepdims)


# -- linalg and manipulation ----------------------------------------------------------------------
matmul = np.matmul


def reshape(x: Any, /, shape: Any, *, copy: Any = None) -> Any:
    if copy:
        return np.array(np.reshape(x, shape), copy=True)
    out = np.reshape(x, shape)
    if copy is False and not np.shares_memory(out, x):
        raise ValueError("reshape: copy=False but the reshape needs a copy")
    return out


def permute_dims(x: Any, /, axes: Any) -> Any:
    return np.transpose(x, axes)


def concat(arrays: Any, /, *, axis: int | None = 0) -> Any:
    return np.concatenate(arrays, axis)  # positional: NumPy parses it faster


def stack(arrays: Any, /, *, axis: int = 0) -> Any:
    return np.stack(arrays, axis=axis)


def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    return np.asarray(x).astype(dtype, copy=copy)


# -- gradients ------------------------------------------------------------------------------------
def stop_gradient(x: Any, /, *, preserve_type: bool = True) -> Any:
    # NumPy has no autodiff: the value itself, no copy.
    return x


def variable(x: Any, /) -> Any:
    return x


# Array API families beyond the first set, one file each (same names in every backend).
from .elementwise import *  # noqa: E402,F403
from .fft import *  # noqa: E402,F403
from .gradients import *  # noqa: E402,F403
from .linalg import *  # noqa: E402,F403
from .manipulation import *  # noqa: E402,F403
from .nn import *  # noqa: E402,F403
from .statistical import *  # noqa: E402,F403

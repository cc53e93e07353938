"""mlx backend: array API creation functions.

``asarray`` keeps NumPy input's dtype (``mx.array`` alone would turn float64 into float32);
``full``/``full_like`` convert the fill value to the requested dtype (MLX keeps the value's
kind when it is higher); ``linspace(endpoint=False)`` is built from ``num + 1`` points (MLX
has no ``endpoint=``); ``empty``/``empty_like`` give zeros (MLX has no uninitialised
allocation); ``from_dlpack`` always copies (MLX cannot import CPU memory without a copy):
``copy=False`` raises ``BufferError``.

MLX allocates an array when it is first read, and a shape the machine cannot hold is accepted
and then crashes the process (a segfault) when read. Every kernel here that makes an array from
a size refuses one of more bytes than ``memory_limit()`` first (``_creation.too_big``: a
product and a comparison), with the decided ``MemoryError``.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx
import numpy as np

from ...core import dtypes as D
from ...core.decided_errors import memory_limit
from .._common import creation as _creation
from .._common.helpers import named
from . import ASARRAY, DEFAULT_FLOAT, DEFAULT_INT, DTYPES
from ._helpers import _stream

_DEFAULT_COMPLEX = mx.complex64
_is_python_data = _creation.is_python_data
_too_big = _creation.too_big
_LIMIT = memory_limit()  # bytes; read once, at load
_arange_dtype = _creation.arange_dtype_for(DEFAULT_FLOAT, DEFAULT_INT)
_scalar_default = _creation.scalar_default_for(
    mx.bool_, DEFAULT_INT, DEFAULT_FLOAT, _DEFAULT_COMPLEX
)


def _numpy_dtype(native: Any) -> Any:
    """The NumPy dtype of an MLX dtype (None for bfloat16, which NumPy lacks: inferred)."""
    name = D.as_dtype(native).name
    return None if name == "bfloat16" else np.dtype(name)


def _native_for(np_dtype: Any, where: str) -> Any:
    unified = D.as_dtype(np_dtype)
    native = DTYPES.get(unified)
    if native is None:
        raise TypeError(
            f"{where}: {unified.name} is not supported by the mlx backend; pass dtype= to convert"
        )
    return native


def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: Any = None) -> Any:
    """An ``mx.array`` from Python data, an ``mx.array``, or anything NumPy can read.

    Python floats become float32, ints int32 (int64 when too large), complex complex64.
    NumPy input keeps its dtype (``mx.array`` alone would turn float64 into float32); a dtype
    MLX lacks raises ``TypeError``. ``copy=False`` raises ``ValueError`` when MLX must copy
    (anything that is not already an ``mx.array`` of the requested dtype).

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.backends.mlx import creation as B
    >>> B.asarray([1., 2.]).dtype, B.asarray([1, 2]).dtype, B.asarray([2**40]).dtype
    (mlx.core.float32, mlx.core.int32, mlx.core.int64)
    >>> B.asarray(np.array([1.5])).dtype
    mlx.core.float64
    """
    _stream(device)  # validated; MLX arrays have no placement (unified memory)
    if isinstance(obj, mx.array):
        if dtype is None or obj.dtype == dtype:
            return mx.array(obj) if copy else obj
        if copy is False:
            raise ValueError("asarray: copy=False but a dtype conversion needs a copy")
        return obj.astype(dtype)
    if copy is False:
        raise ValueError(f"asarray: copy=False but MLX must copy a {type(obj).__name__}")
    if _is_python_data(obj):
        try:
            return mx.array(obj) if dtype is None else mx.array(obj, dtype=dtype)
        except (TypeError, ValueError, RuntimeError, OverflowError) as err:
            # MLX's refusal (std::bad_cast for strings, None and ints beyond int64) is decided
            # here; what holds numbers (a list of NumPy scalars) is read with NumPy below.
            _creation.refuse_data(obj, err, dtype=dtype)
        arr = np.asarray(obj, dtype=None if dtype is None else _numpy_dtype(dtype))
        if arr.dtype.kind in "OUSu":  # strings, objects ([2**70]), uint64 ([2**63])
            _creation.check_numeric(obj, arr, dtype=dtype)
        if dtype is None:
            dtype = {"f": DEFAULT_FLOAT, "c": _DEFAULT_COMPLEX}.get(arr.dtype.kind)
    else:
        arr = np.asarray(obj)
        if arr.dtype.kind in "OUS":  # a NumPy array of strings or objects
            _creation.check_numeric(obj, arr)
    if dtype is None:
        dtype = _native_for(arr.dtype, "asarray")
    return mx.array(arr, dtype=dtype)


ASARRAY.append(asarray)  # for the package's hooks that convert Python values (__init__.py)


def _filled_for(fill: Any, name: str) -> Any:
    """``zeros``/``ones`` on ``mx.zeros``/``mx.ones``."""

    def kernel(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        dtype = dtype or DEFAULT_FLOAT
        _too_big(name, shape, dtype.size, _LIMIT)
        if device is None:  # positional and no stream=: the cheapest call of nanobind's parser
            return fill(shape, dtype)
        return fill(shape, dtype=dtype, stream=_stream(device))

    return named(kernel, name)


zeros = _filled_for(mx.zeros, "zeros")
ones = _filled_for(mx.ones, "ones")


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    # MLX fills with a byte's code (b"1" as 49) and refuses 2**70 for a float dtype.
    fill_value = _creation.fill("full", fill_value, dtype)
    if dtype is None:
        dtype = _scalar_default(fill_value)
    _too_big("full", shape, 8 if dtype is None else dtype.size, _LIMIT)
    out = mx.full(shape, fill_value, dtype=dtype, stream=_stream(device))
    # mx.full keeps the value's kind when it is higher than dtype's (full((2,), 2.5,
    # dtype=int32) is float32): convert, as NumPy does (an unsafe cast of the value).
    return out if dtype is None or out.dtype == dtype else out.astype(dtype)


def arange(start, /, stop=None, step=1, *, dtype=None, device=None) -> Any:
    if dtype is None:
        dtype = _arange_dtype(start, stop, step)
    if stop is None:
        start, stop = 0, start
    return mx.arange(start, stop, step, dtype=dtype, stream=_stream(device))


def linspace(start, stop, /, num: int, *, dtype=None, device=None, endpoint: bool = True) -> Any:
    dtype = dtype or DEFAULT_FLOAT
    _too_big("linspace", num, dtype.size, _LIMIT, name="num", scalar=True)
    stream = _stream(device)
    if endpoint:
        return mx.linspace(start, stop, num, dtype=dtype, stream=stream)
    # MLX has no endpoint=: num+1 points up to stop, minus the last, is NumPy's definition.
    return mx.linspace(start, stop, num + 1, dtype=dtype, stream=stream)[:num]


def eye(
    n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None
) -> Any:
    dtype = dtype or DEFAULT_FLOAT
    return mx.eye(n_rows, n_cols, k=k, dtype=dtype, stream=_stream(device))


# The *_like kernels check too: x may be a broadcast view (mx.broadcast_to allocates nothing).
def zeros_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    dtype = dtype or x.dtype
    _too_big("zeros_like", x.shape, dtype.size, _LIMIT, name="x's shape")
    return mx.zeros(x.shape, dtype=dtype, stream=_stream(device))


def ones_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    dtype = dtype or x.dtype
    _too_big("ones_like", x.shape, dtype.size, _LIMIT, name="x's shape")
    return mx.ones(x.shape, dtype=dtype, stream=_stream(device))


def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    dtype = dtype or DEFAULT_FLOAT
    _too_big("empty", shape, dtype.size, _LIMIT)
    return mx.zeros(shape, dtype=dtype, stream=_stream(device))


def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    dtype = dtype or x.dtype
    _too_big("empty_like", x.shape, dtype.size, _LIMIT, name="x's shape")
    return mx.zeros(x.shape, dtype=dtype, stream=_stream(device))


def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    # mx.full(shape, 2.5, dtype=int32) keeps float32 (the value's kind wins): convert first.
    fill_value = _creation.fill("full_like", fill_value, dtype or x.dtype)
    value = mx.array(fill_value, dtype=dtype or x.dtype)
    _too_big("full_like", x.shape, value.dtype.size, _LIMIT, name="x's shape")
    return mx.full(x.shape, value, stream=_stream(device))


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
    """Import a CPU DLPack object as a new ``mx.array`` (always a copy, keeping the dtype).

    ``copy=False`` raises ``BufferError`` (MLX cannot import CPU memory without a copy) unless
    ``x`` is already an ``mx.array``. Also the core's import helper (``from_dlpack(obj)``).

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.backends.mlx import creation as B
    >>> B.from_dlpack(np.arange(3))
    array([0, 1, 2], dtype=int64)
    """
    _stream(device)  # validated; MLX arrays have no placement (unified memory)
    if isinstance(x, mx.array):
        return mx.array(x) if copy else x
    if copy is False:
        raise BufferError("from_dlpack: copy=False, but MLX must copy the data it imports")
    # Through NumPy (CPU objects, one copy): mx.from_dlpack would turn float64 into float32.
    return asarray(np.from_dlpack(x))


meshgrid = _creation.meshgrid_for(mx)
tril = _creation.tril_for(mx)
triu = _creation.triu_for(mx)

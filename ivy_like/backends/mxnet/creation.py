"""mxnet backend: array API creation functions.

``mx.nd`` constructors on an ``mx.Context`` (``"cpu"``, ``"gpu:N"``), with the shared rules of
``ivy_like.ops.creation`` applied first so every backend raises the same errors:

* ``asarray``: Python floats become float32 and ints int64; NumPy input keeps its dtype
  (``mx.nd.array`` alone would make float32).
* ``arange`` takes NumPy's length rule (MXNet rounds the count of float ranges differently);
  zero-size results are built directly (``eye`` with 0 columns too: MXNet reads ``M=0`` as
  square).
* ``from_dlpack`` shares the producer's memory when MXNet can read its capsule, else copies
  through NumPy.
* ``tril``/``triu``: legacy MXNet has neither; a mask from ``arange`` and ``where``.
"""

from __future__ import annotations

import builtins
from typing import Any

import mxnet as mx
import numpy as np

from .._common import creation as _creation
from . import _BOOL, ASARRAY, DEFAULT_FLOAT, DEFAULT_INT, NDArray, _context, numpy_shapes
from ._helpers import (
    _broadcast,
    _broadcast_to,
    _keep_bool,
    _no_bool,
    _scalar_dtype,
    _shape,
    _supported,
)

nd = mx.nd
_MAX_ELEMENTS = 2**31 - 1
_is_python_data = _creation.is_python_data
_arange_dtype = _creation.arange_dtype_for(DEFAULT_FLOAT, DEFAULT_INT)


@numpy_shapes
def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: Any = None) -> Any:
    """An NDArray from Python data, an NDArray, or anything NumPy reads.

    Python floats become float32 and ints int64; NumPy input keeps its dtype (``mx.nd.array``
    alone would make float32). ``copy=False`` raises ``ValueError`` when a copy is needed.

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.backends.mxnet import creation
    >>> creation.asarray([1, 2]).dtype, creation.asarray(2.5).shape
    (<class 'numpy.int64'>, ())
    """
    ctx = _context(device)
    if isinstance(obj, NDArray):
        want = np.dtype(obj.dtype) if dtype is None else _supported(np.dtype(dtype), "asarray")
        same = want == np.dtype(obj.dtype) and obj.context == ctx
        if same and not copy:
            return obj
        if copy is False:
            raise ValueError("asarray: copy=False but a dtype or device change needs a copy")
        return obj.as_in_context(ctx).astype(want, copy=True)
    if copy is False:
        raise ValueError(f"asarray: copy=False but MXNet must copy a {type(obj).__name__}")
    python = _is_python_data(obj)
    try:  # Python data with a dtype is read in it: [2**70] as float32, [300] as int8 refused
        arr = np.asarray(obj, dtype=np.dtype(dtype) if python and dtype is not None else None)
    except Exception as err:  # strings, None, ints beyond the dtype: the decided error
        _creation.refuse_data(obj, err, dtype=dtype)
        raise
    if arr.dtype.kind in ("OUSu" if python else "OUS"):  # strings, objects, [2**63]
        _creation.check_numeric(obj, arr, dtype=dtype)
    if dtype is None and python and arr.dtype == np.float64:
        arr = arr.astype(DEFAULT_FLOAT)
    want = _supported(np.dtype(dtype) if dtype is not None else arr.dtype, "asarray")
    return nd.array(arr.astype(want, copy=False), ctx=ctx, dtype=want)


ASARRAY.append(asarray)  # for the package's hooks that convert Python values (__init__.py)


def _fits(where: str, shape: Any, dtype: Any, name: str = "shape") -> None:
    """Refuse more elements than this MXNet holds (2**31 - 1: built without int64 tensor
    sizes) before it sees them: it wraps larger products around (``zeros((2**62, 4))`` had
    shape (0, 4)). The decided error where one applies (a size beyond int64, more than the
    machine's memory), else a ValueError naming MXNet's limit."""
    itemsize = np.dtype(dtype).itemsize
    if _creation.too_big(where, shape, itemsize, _MAX_ELEMENTS * itemsize, name=name):
        raise ValueError(
            f"{where}: {name} {shape!r} has more than {_MAX_ELEMENTS} elements, the most this "
            f"MXNet build holds (built without USE_INT64_TENSOR_SIZE)"
        )


@numpy_shapes
def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    _fits("zeros", shape, dtype or DEFAULT_FLOAT)
    return nd.zeros(_shape(shape), ctx=_context(device), dtype=dtype or DEFAULT_FLOAT)


@numpy_shapes
def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    _fits("ones", shape, dtype or DEFAULT_FLOAT)
    return nd.ones(_shape(shape), ctx=_context(device), dtype=dtype or DEFAULT_FLOAT)


@numpy_shapes
def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    # MXNet fills with 0 for 2**70 as a float, and would read "1.5"
    fill_value = _creation.fill("full", fill_value, dtype)
    if dtype is None:
        dtype = (
            _scalar_dtype(_BOOL, fill_value, "full")
            if isinstance(fill_value, (bool, int, float))
            else np.asarray(fill_value).dtype
        )
        dtype = _BOOL if isinstance(fill_value, bool) else dtype
    _fits("full", shape, dtype)
    return nd.full(_shape(shape), fill_value, ctx=_context(device), dtype=dtype)


@numpy_shapes
def arange(start, /, stop=None, step=1, *, dtype=None, device=None) -> Any:
    if dtype is None:
        dtype = _arange_dtype(start, stop, step)
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ValueError("arange: step must not be zero")
    # NumPy's length rule, computed here: MXNet rounds the count of float ranges differently.
    n = builtins.max(0, int(np.ceil((stop - start) / step)))
    if n > _MAX_ELEMENTS:  # before NumPy allocates it (MXNet aborted the process after)
        raise ValueError(  # arange's check refused the sizes no machine holds
            f"arange: {n} values, more than the {_MAX_ELEMENTS} elements this MXNet build holds"
        )
    if n == 0:
        return nd.zeros((0,), ctx=_context(device), dtype=dtype)
    return nd.array(np.arange(start, stop, step, dtype=dtype), ctx=_context(device), dtype=dtype)


@numpy_shapes
def linspace(start, stop, /, num: int, *, dtype=None, device=None, endpoint: bool = True) -> Any:
    dtype = dtype or DEFAULT_FLOAT
    if num == 0:
        return nd.zeros((0,), ctx=_context(device), dtype=dtype)
    return nd.linspace(start, stop, num, endpoint=endpoint, ctx=_context(device), dtype=dtype)


@numpy_shapes
def eye(
    n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None
) -> Any:
    dtype = dtype or DEFAULT_FLOAT
    n_cols = n_rows if n_cols is None else n_cols
    _fits("eye", (n_rows, n_cols), dtype, name="(n_rows, n_cols)")
    if n_rows == 0 or n_cols == 0:  # MXNet reads M=0 as "square"
        return nd.zeros((n_rows, n_cols), ctx=_context(device), dtype=dtype)
    return nd.eye(n_rows, n_cols, k=k, ctx=_context(device), dtype=dtype)


@numpy_shapes
def zeros_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    ctx = x.context if device is None else _context(device)
    return nd.zeros(x.shape, ctx=ctx, dtype=dtype or x.dtype)


@numpy_shapes
def ones_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    ctx = x.context if device is None else _context(device)
    return nd.ones(x.shape, ctx=ctx, dtype=dtype or x.dtype)


@numpy_shapes
def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    _fits("empty", shape, dtype or DEFAULT_FLOAT)
    return nd.empty(_shape(shape), ctx=_context(device), dtype=dtype or DEFAULT_FLOAT)


@numpy_shapes
def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    ctx = x.context if device is None else _context(device)
    return nd.empty(x.shape, ctx=ctx, dtype=dtype or x.dtype)


@numpy_shapes
def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    ctx = x.context if device is None else _context(device)
    dt = np.dtype(dtype or x.dtype)
    fill_value = _creation.fill("full_like", fill_value, dt)  # as in full
    if dt.kind in "iub" and isinstance(fill_value, float):
        fill_value = int(fill_value)  # as astype would convert it (2.5 -> 2)
    return nd.full(x.shape, fill_value, ctx=ctx, dtype=dt)


@numpy_shapes
def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
    """``mx.nd.from_dlpack`` of the producer's capsule (shares its memory); ``copy=True``
    copies. A producer MXNet cannot read (not on the CPU) is copied through NumPy unless
    ``copy=False``, which then raises ``BufferError``.

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.backends import mxnet as B
    >>> from ivy_like.backends.mxnet import creation
    >>> B.to_numpy(creation.from_dlpack(np.arange(2.0, dtype=np.float32), copy=True))
    array([0., 1.], dtype=float32)
    """
    if device not in (None, "cpu") and not isinstance(device, mx.Context):
        raise ValueError(f"from_dlpack: expected device 'cpu', got {device!r}")
    if isinstance(x, NDArray):
        return x.copy() if copy else x  # (a copy of an NDArray is ordered by MXNet's engine)
    try:
        out = nd.from_dlpack(x.__dlpack__())
    except Exception as err:  # noqa: BLE001 - any producer MXNet cannot import
        if copy is False:
            raise BufferError(f"from_dlpack: copy=False but MXNet cannot share it ({err})") from err
        return asarray(np.from_dlpack(x), copy=True)
    if copy:
        out = out.copy()
        out.wait_to_read()  # MXNet copies asynchronously: done before the producer changes
    return out


@numpy_shapes
def meshgrid(*arrays: Any, indexing: str = "xy") -> tuple[Any, ...]:
    n = len(arrays)
    lengths = [int(a.shape[0]) for a in arrays]
    if indexing == "xy" and n >= 2:
        lengths[0], lengths[1] = lengths[1], lengths[0]
    out = []
    for i, a in enumerate(arrays):
        where = i if indexing == "ij" or n < 2 or i > 1 else 1 - i
        shape = [1] * n
        shape[where] = a.shape[0]
        if 0 in lengths:  # nothing to broadcast (MXNet cannot broadcast zero-size arrays)
            out.append(nd.zeros(tuple(lengths), ctx=a.context, dtype=a.dtype))
            continue
        b = _no_bool(a).reshape(tuple(shape))
        out.append(_keep_bool(a, _broadcast_to(b, tuple(lengths))))
    return tuple(out)


def _triangle(x: Any, k: int, lower: bool) -> Any:
    n, m = x.shape[-2], x.shape[-1]
    if x.size == 0:
        return nd.identity(x)
    rows = nd.arange(n, dtype="int64").reshape((n, 1))
    cols = nd.arange(m, dtype="int64").reshape((1, m))
    diff = nd.broadcast_sub(cols, rows)  # column - row: 0 on the diagonal
    limit = nd.full((1, 1), k, dtype="int64")
    keep = (
        nd.broadcast_lesser_equal(diff, limit) if lower else nd.broadcast_greater_equal(diff, limit)
    )
    keep, xx = _broadcast([keep.astype(x.dtype if x.dtype != np.bool_ else "uint8"), _no_bool(x)])
    return _keep_bool(x, nd.where(keep, xx, nd.zeros_like(xx)))


@numpy_shapes
def tril(x: Any, /, *, k: int = 0) -> Any:
    return _triangle(x, k, True)


@numpy_shapes
def triu(x: Any, /, *, k: int = 0) -> Any:
    return _triangle(x, k, False)

"""tensorflow backend: array API creation functions.

TensorFlow ops after the shared rules of ``ivy_like.ops``. Differences from NumPy handled here:
Python data takes NumPy's dtype inference with the float32/complex64 defaults (``asarray``),
``zeros``/``ones`` of eager shapes run ``Fill`` directly (see ``_eager``), ``arange`` and
``linspace`` count in int64/float64 and cast (``tf.range`` has few kernels), ``eye`` has a
``k``, ``empty``/``empty_like`` give zeros (no uninitialised allocation in TensorFlow),
``from_dlpack`` copies unaligned CPU buffers, ``meshgrid`` reshapes and broadcasts each input
itself (``tf.meshgrid`` needs one dtype), and ``tril``/``triu`` keep values where ``col - row``
is within ``k`` (``tf.linalg.band_part`` cannot express every ``k``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from ...core.decided_errors import shape_error
from .._common import creation as _creation
from . import DEFAULT_FLOAT, DEFAULT_INT, _eager
from ._eager import RAW, RAW_FAILS
from ._helpers import _const, _on, _shape

_DEFAULT_COMPLEX = tf.complex64
_KDLCPU = 1  # DLPack's device type of host memory
_TF_ALIGNMENT = 64  # bytes; TensorFlow's CPU buffers must be aligned to this
_LINSPACE_MAX = 2**31 - 2  # int32, less the point endpoint=False computes and drops
_is_python_data = _creation.is_python_data
_NUMBERS = _creation.NUMBERS
_arange_dtype = _creation.arange_dtype_for(DEFAULT_FLOAT, DEFAULT_INT)
_scalar_default = _creation.scalar_default_for(
    tf.bool, DEFAULT_INT, DEFAULT_FLOAT, _DEFAULT_COMPLEX
)


def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: Any = None) -> Any:
    if isinstance(obj, (tf.Tensor, tf.Variable)):
        if dtype is not None and dtype != obj.dtype:
            if copy is False:
                raise ValueError("asarray: copy=False but changing the dtype needs a copy")
            return tf.cast(obj, dtype)
        return tf.identity(obj) if copy else obj
    if copy is False:
        # Python data always needs a copy, and TensorFlow copies NumPy arrays.
        raise ValueError("asarray: copy=False but TensorFlow needs a copy of this input")
    try:
        with _on(device):
            if _is_python_data(obj):
                # NumPy's inference (int64, float64, complex128, bool) with our float32/complex64
                # defaults: the same dtypes as the numpy backend gives.
                arr = np.asarray(obj, dtype=None if dtype is None else dtype.as_numpy_dtype)
                if arr.dtype.kind in "OUSu":  # strings (tf.string), objects, [2**63]
                    _creation.check_numeric(obj, arr, dtype=dtype)
                if dtype is None and arr.dtype == np.float64:
                    arr = arr.astype(np.float32)
                elif dtype is None and arr.dtype == np.complex128:
                    arr = arr.astype(np.complex64)
                return tf.constant(arr)
            out = tf.convert_to_tensor(obj)  # copies NumPy data: later writes do not show
            if out.dtype == tf.string:  # a NumPy array of strings, a bytes object
                _creation.refuse_data(obj, None)
                raise TypeError(f"asarray: obj holds strings ({type(obj).__name__})")
            return out if dtype is None else tf.cast(out, dtype)
    except Exception as err:  # ["a"] with a float dtype, objects...: the decided error
        if _creation.is_decided(err):
            raise
        _creation.refuse_data(obj, err, dtype=dtype)
        raise


def _filled(shape: Any, dtype: Any, value: int) -> Any:
    """Eager ``Fill`` with cached dims and value (see ``_eager``); None: take the tf path."""
    if _eager.executing_eagerly():
        dims = _eager.int64(_shape(shape))
        if dims is not None:
            try:
                return RAW.Fill(dims=dims, value=_eager.fill_value(dtype, value))
            except RAW_FAILS:
                pass  # e.g. a negative dimension: tf.zeros raises its own error
    return None


def _filled_for(name: str, value: int, tf_fill: Any) -> Any:
    """``zeros`` (``value`` 0, ``tf.zeros``) or ``ones`` (1, ``tf.ones``): the eager ``Fill``
    where it applies, else ``tf_fill`` on the device."""

    def filled(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        dtype = dtype or DEFAULT_FLOAT
        if device is None:
            out = _filled(shape, dtype, value)
            if out is not None:
                return out
        with _on(device):
            return tf_fill(_shape(shape), dtype=dtype)

    filled.__name__ = filled.__qualname__ = name
    return filled


zeros = _filled_for("zeros", 0, tf.zeros)
ones = _filled_for("ones", 1, tf.ones)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    if type(fill_value) not in _NUMBERS:  # TensorFlow fills with "1.5", None (NaN), b"1"...
        _creation.fill("full", fill_value, dtype)
    dtype = dtype or _scalar_default(fill_value)
    with _on(device):
        value = tf.convert_to_tensor(fill_value) if dtype is None else _const(fill_value, dtype)
        if value.dtype == tf.string:  # a NumPy array of strings, which fill checks element-wise
            raise TypeError(f"full: fill_value holds strings ({type(fill_value).__name__})")
        return tf.fill(_shape(shape), value)


def arange(start, /, stop=None, step=1, *, dtype=None, device=None) -> Any:
    if dtype is None:
        dtype = _arange_dtype(start, stop, step)
    if stop is None:
        start, stop = 0, start
    # tf.range has kernels for a few dtypes only, and counts in the output dtype; count in
    # int64 or float64 (NumPy's length rule) and cast.
    wide = tf.float64 if dtype.is_floating or dtype.is_complex else tf.int64
    with _on(device):
        try:
            return tf.cast(tf.range(start, stop, step, dtype=wide), dtype)
        except tf.errors.InvalidArgumentError:
            # tf.range refuses a range that runs against its step; NumPy's is empty (arange(-3))
            if step != 0 and (stop - start) * step <= 0:
                return tf.zeros((0,), dtype)
            raise


def linspace(start, stop, /, num: int, *, dtype=None, device=None, endpoint: bool = True) -> Any:
    # Computed in float64 and then cast, as NumPy does; integer dtypes round down (NumPy 2).
    dtype = dtype or DEFAULT_FLOAT
    if type(num) is int and num > _LINSPACE_MAX:
        # tf.linspace counts in int32 and wraps larger counts around without a word
        # (2**32 + 3 points gave 3).
        error = shape_error("linspace", num, dtype.size, name="num", scalar=True)
        raise error or ValueError(
            f"linspace: num={num} is more than TensorFlow's linspace can count ({_LINSPACE_MAX})"
        )
    with _on(device):
        out = tf.linspace(_const(start, tf.float64), _const(stop, tf.float64), num + (not endpoint))
        if not endpoint:
            out = out[:-1]
        if dtype.is_integer or dtype == tf.bool:
            out = tf.floor(out)
        return tf.cast(out, dtype)


def eye(
    n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None
) -> Any:
    dtype = dtype or DEFAULT_FLOAT
    n_cols = n_rows if n_cols is None else n_cols
    with _on(device):
        if k == 0:
            return tf.eye(n_rows, n_cols, dtype=dtype)
        # tf.eye has no k: ones where column == row + k.
        rows = tf.range(n_rows, dtype=tf.int64)[:, None] + k
        return tf.cast(tf.equal(rows, tf.range(n_cols, dtype=tf.int64)), dtype)


def zeros_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    with _on(device):
        return tf.zeros_like(x, dtype=dtype)


def ones_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    with _on(device):
        return tf.ones_like(x, dtype=dtype)


def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    with _on(device):
        return tf.zeros(_shape(shape), dtype=dtype or DEFAULT_FLOAT)


def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    with _on(device):
        return tf.zeros_like(x, dtype=dtype)


def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    if type(fill_value) not in _NUMBERS:  # TensorFlow fills with "1.5", None (NaN), b"1"...
        _creation.fill("full_like", fill_value, dtype or x.dtype)
    with _on(device):
        return tf.fill(tf.shape(x), _const(fill_value, dtype or x.dtype))


def _import_dlpack(obj: Any) -> Any:
    # TensorFlow takes a legacy capsule; objects implementing the protocol hand one out.
    capsule = obj.__dlpack__() if hasattr(obj, "__dlpack__") else obj
    return tf.experimental.dlpack.from_dlpack(capsule)


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
    """Import a DLPack object, sharing its memory where TensorFlow can.

    TensorFlow needs 64-byte aligned buffers: an unaligned import aborts the process on its
    first use (a CHECK failure in tensor.cc), so unaligned CPU data is copied (with
    ``copy=False``: ``BufferError``). ``copy=True`` always copies. Also the core's import
    helper (``from_dlpack(obj)``).

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.backends.tensorflow import creation
    >>> creation.from_dlpack(np.arange(2.0), copy=True).numpy()
    array([0., 1.])
    """
    with _on(device):
        if isinstance(x, (tf.Tensor, tf.Variable)):
            out = tf.convert_to_tensor(x)
            return tf.raw_ops.DeepCopy(x=out) if copy else out
        if hasattr(x, "__dlpack_device__") and x.__dlpack_device__()[0] == _KDLCPU:
            arr = np.from_dlpack(x)  # a view of the CPU buffer, to read its address
            # TensorFlow imports only dense row-major buffers ("Invalid strides array").
            if copy or arr.ctypes.data % _TF_ALIGNMENT or not arr.flags.c_contiguous:
                if copy is False:
                    raise BufferError(
                        "from_dlpack: copy=False, but TensorFlow must copy this buffer "
                        "(unaligned or not C-contiguous)"
                    )
                return tf.constant(arr)  # a copy into TensorFlow's own (aligned) memory
            return _import_dlpack(x)
        out = _import_dlpack(x)  # other devices: TensorFlow's own import
        return tf.raw_ops.DeepCopy(x=out) if copy else out


def meshgrid(*arrays: Any, indexing: str = "xy") -> tuple[Any, ...]:
    shape, views = _creation.meshgrid_shapes([a.shape[0] for a in arrays], indexing)
    return tuple(tf.broadcast_to(tf.reshape(a, v), shape) for a, v in zip(arrays, views))


def _triangle(x: Any, k: int, lower: bool) -> Any:
    rows = tf.range(tf.shape(x)[-2])[:, None]
    cols = tf.range(tf.shape(x)[-1])[None, :]
    keep = cols - rows <= k if lower else cols - rows >= k
    return tf.where(keep, x, tf.zeros_like(x))


def tril(x: Any, /, *, k: int = 0) -> Any:
    return _triangle(x, k, lower=True)


def triu(x: Any, /, *, k: int = 0) -> Any:
    return _triangle(x, k, lower=False)

"""The TensorFlow backend: aliases of tf functions; autodiff, immutable tensors.

``tf.Tensor`` is immutable: ``setitem`` returns a new tensor and ``out=`` accepts only a
``tf.Variable`` (assigned in place). Wrappers exist only where TensorFlow differs from the NumPy
reference:

* mixed dtypes: TensorFlow refuses them; here the operands are promoted by NumPy's rules
  (Python scalars are weak), and only after the native call failed, so the common call pays
  nothing but a ``try``;
* indexing with integer or boolean arrays (``tf.gather`` / ``tf.gather_nd``), ``setitem``;
* defaults: int64 for Python ints, sums of small integers in int64/uint64 (NumPy's rule);
* ``matmul`` of 1-D operands, ``eye(k=)``, ``linspace`` (endpoint, float64 then cast),
  ``max``/``min`` of booleans and over empty axes, ``mean`` of integers (a ``TypeError``).

No global TensorFlow setting is touched (no NumPy behaviour mode).
"""

from __future__ import annotations

import builtins
import contextlib
from typing import Any, Callable

import numpy as np
import tensorflow as tf

from ... import _dtypes as D
from ...ops._half import _half_in_float32
from ...ops.indexing import _check_step
from ...ops.statistical import _ACCURATE_SUM_FROM, _leading_reduction_size
from . import _eager
from ._eager import RAW, RAW_FAILS, EagerTensor

NAME = "tensorflow"
VERSION = tf.__version__
ARRAY_TYPES = (tf.Tensor, tf.Variable)
HAS_AUTODIFF = True
MUTABLE_ARRAYS = False
UNSUPPORTED: dict[str, str] = {}
DTYPES = {
    D.bool: tf.bool,
    D.int8: tf.int8,
    D.int16: tf.int16,
    D.int32: tf.int32,
    D.int64: tf.int64,
    D.uint8: tf.uint8,
    D.uint16: tf.uint16,
    D.uint32: tf.uint32,
    D.uint64: tf.uint64,
    D.float16: tf.float16,
    D.bfloat16: tf.bfloat16,
    D.float32: tf.float32,
    D.float64: tf.float64,
    D.complex64: tf.complex64,
    D.complex128: tf.complex128,
}
DEFAULT_FLOAT = tf.float32
DEFAULT_INT = tf.int64
_DEFAULT_COMPLEX = tf.complex64

_SCALARS = (bool, int, float, complex)
_EagerTensor = type(tf.constant(0))
# What TensorFlow raises for operands of different dtypes (or a scalar it cannot convert).
_MISMATCH = (TypeError, ValueError, tf.errors.InvalidArgumentError)


def _is_variable(x: Any) -> bool:
    # isinstance against tf.Variable goes through a metaclass (~0.5 us); rule out the common
    # eager tensor first.
    return type(x) is not _EagerTensor and isinstance(x, tf.Variable)


# -- helpers for the core ------------------------------------------------------------------------
def shape(x: Any) -> tuple[int, ...]:
    return tuple(x.shape)


def dtype(x: Any) -> Any:
    return x.dtype


def device(x: Any) -> str:
    # "/job:localhost/replica:0/task:0/device:CPU:0" -> "cpu"; "...GPU:1" -> "gpu:1"
    if "device:" not in x.device:
        return x.device  # not placed yet (graph mode): ""
    kind, _, index = x.device.rsplit("device:", 1)[-1].partition(":")
    kind = kind.lower()
    return kind if kind == "cpu" and index in ("", "0") else f"{kind}:{index or 0}"


def to_numpy(x: Any) -> np.ndarray:
    return x.numpy()  # tf.Tensor and tf.Variable; bfloat16 comes out as ml_dtypes.bfloat16


def dlpack(x: Any, *args: Any, **kwargs: Any) -> Any:
    return tf.convert_to_tensor(x).__dlpack__(*args, **kwargs)  # a Variable exports its value


def dlpack_device(x: Any) -> tuple[int, int]:
    return tf.convert_to_tensor(x).__dlpack_device__()


def write_inplace(target: Any, value: Any) -> None:
    if not _is_variable(target):
        raise TypeError("out=: a tf.Tensor is immutable; pass a tf.Variable or an ivy_like.Array")
    target.assign(value)


def is_variable(x: Any) -> bool:
    return _is_variable(x)


def _const(value: Any, dtype: Any) -> Any:
    """``value`` (a tensor, NumPy array, list or Python scalar) as a tensor of ``dtype``.

    Python values go through NumPy: ``tf.cast(1e300, tf.float64)`` would pass through float32
    and overflow, and ``tf.constant(7.5, tf.int32)`` refuses to truncate where NumPy does not.
    """
    if isinstance(value, (tf.Tensor, tf.Variable)):
        return tf.cast(value, dtype)
    return tf.constant(np.asarray(value, dtype=dtype.as_numpy_dtype))


_HALF_PAIR = (np.dtype(tf.float16.as_numpy_dtype), np.dtype(tf.bfloat16.as_numpy_dtype))


def _promote(*args: Any) -> list[Any] | None:
    """The arguments cast to one dtype by NumPy's rules; None when nothing needs a cast.

    Python scalars are weak (NEP 50): ``int8 tensor + 1`` stays int8, ``int64 + 2.5`` is
    float64. bfloat16 promotes through ml_dtypes' NumPy rules; with float16 it gives float32.
    """
    arrays = [a for a in args if not isinstance(a, _SCALARS)]
    scalars = [a for a in args if isinstance(a, _SCALARS)]
    dtypes = {a.dtype for a in arrays}
    if len(dtypes) <= 1 and not scalars:
        return None  # one dtype already: the failure was not about dtypes
    # A scalar is converted even when the dtype stays: tf.add(2, float_tensor) reads 2 as int32.
    numpy_dtypes = [np.dtype(d.as_numpy_dtype) for d in dtypes]
    try:
        target = np.result_type(*numpy_dtypes, *scalars)
    except TypeError:  # ml_dtypes has no rule for float16 with bfloat16: ivy_like's is float32
        rest = [d for d in numpy_dtypes if d not in _HALF_PAIR]
        target = np.result_type(np.float32, *rest, *scalars)
    return [_const(a, tf.as_dtype(target)) for a in args]


def _signed_zero(v: Any) -> bool:
    """A Python float or complex zero: TF's eager scalar cache must not convert it.

    TensorFlow caches the tensors it makes from Python scalars in op calls, keyed by value:
    ``0.0 == -0.0``, so after ``tf.maximum(x, -0.0)`` a later ``tf.maximum(x, 0.0)`` gets
    ``-0.0`` (and the other way round). Such scalars are converted through NumPy instead.
    """
    return (type(v) is float or type(v) is complex) and v == 0


def _promoting(fn: Callable[..., Any], raw: Callable[..., Any] | None = None) -> Callable[..., Any]:
    """``fn`` of two arrays, promoting mixed dtypes when TensorFlow rejects them.

    ``raw`` is the raw op that ``fn`` runs; two eager tensors go to it directly (a third of
    the time, see ``_eager``), and to ``fn`` if it fails.
    """

    def op(x1: Any, x2: Any, /) -> Any:
        if raw is not None and type(x1) is EagerTensor and type(x2) is EagerTensor:
            try:
                return raw(x=x1, y=x2)
            except RAW_FAILS:
                pass
        if _signed_zero(x2) or _signed_zero(x1):
            args = _promote(x1, x2)
            if args is not None:
                return fn(*args)
        try:
            return fn(x1, x2)
        except _MISMATCH:
            args = _promote(x1, x2)
            if args is None:
                raise  # the framework's own error stands
            return fn(*args)

    op.__name__ = op.__qualname__ = getattr(fn, "__name__", "op")
    return op


def native_device(device: Any) -> str:
    """A TensorFlow device name (``"/device:CPU:0"``) for ``"cpu"``, ``"gpu:1"``, ``"CPU:0"``, a
    full name or a ``tf.DeviceSpec``; ``ValueError`` for a device this machine does not have
    (``tf.device`` would otherwise place the op elsewhere without a word).

    Examples
    --------
    >>> from ivy_like.backends import tensorflow as B
    >>> B.native_device("cpu")
    '/device:CPU:0'
    """
    if isinstance(device, tf.DeviceSpec):
        device = device.to_string()
    if not isinstance(device, str):
        raise TypeError(
            f"device: expected a string or a tf.DeviceSpec, got {type(device).__name__}"
        )
    try:
        if "/" not in device:  # "cpu", "gpu:1", "CPU:0"
            kind, _, index = device.partition(":")
            device_name = f"/device:{kind.upper()}:{index or 0}"
        else:
            device_name = device
        spec = tf.DeviceSpec.from_string(device_name)
    except ValueError as err:
        raise ValueError(f"device: {device!r} is not a TensorFlow device name ({err})") from None
    kind = (spec.device_type or "").upper()
    name = f"/device:{kind}:{spec.device_index or 0}"
    have = _logical_devices()
    if name not in have:
        raise ValueError(f"device: no TensorFlow device {device!r} here (have: {', '.join(have)})")
    return name


def _logical_devices() -> tuple[str, ...]:
    global _DEVICES
    if _DEVICES is None:
        _DEVICES = tuple(d.name for d in tf.config.list_logical_devices())
    return _DEVICES


_DEVICES: tuple[str, ...] | None = None


def _on(device: Any) -> Any:
    return contextlib.nullcontext() if device is None else tf.device(device)


# -- indexing -------------------------------------------------------------------------------------
def _is_index_array(k: Any) -> bool:
    if isinstance(k, (list, np.ndarray)):
        return True
    if isinstance(k, (tf.Tensor, tf.Variable)):
        return k.dtype == tf.bool or k.shape.rank != 0
    return False


def getitem(x: Any, key: Any) -> Any:
    if type(x) is EagerTensor:
        try:
            out = _eager.sliced(x, key)  # ints and slices: StridedSlice directly
        except tf.errors.InvalidArgumentError as err:  # NumPy: IndexError
            raise IndexError(f"getitem: {err.message}") from None
        if out is not None:
            return out
    items = key if isinstance(key, tuple) else (key,)
    for k in items:
        if type(k) is slice:
            _check_step(k)  # tf.strided_slice: InvalidArgumentError
    # Only ints, slices, None, Ellipsis and scalar tensors reach tf's own indexing: it would
    # read a list [0, 1] as the tuple (0, 1).
    if not builtins.any(_is_index_array(k) for k in items):
        try:
            return x[key]
        except tf.errors.InvalidArgumentError as err:  # NumPy: IndexError
            raise IndexError(f"getitem: {err.message}") from None
    return _advanced_getitem(tf.convert_to_tensor(x), items)


def _advanced_getitem(x: Any, items: tuple[Any, ...]) -> Any:
    """NumPy's advanced indexing: index arrays broadcast together; their result dimensions go
    where the arrays are when they are adjacent, else first."""
    entries: list[tuple[str, Any]] = []  # ("array", int tensor) | ("slice", s) | ("new"|"...",)
    for k in items:
        if _is_index_array(k) or (isinstance(k, (int, np.integer)) and not isinstance(k, bool)):
            if isinstance(k, list) and not k:
                k = tf.constant([], tf.int64)
            k = tf.convert_to_tensor(k)
            if k.dtype == tf.bool:
                if k.shape.rank == 0:
                    raise IndexError("getitem: a 0-d boolean index is not supported")
                # A boolean mask of n dims is n integer arrays: the positions of its True values.
                hits = tf.where(k)
                entries.extend(("array", hits[:, i]) for i in range(k.shape.rank))
                continue
            if not k.dtype.is_integer:
                raise IndexError(
                    f"getitem: index arrays must be integer or boolean, got {k.dtype.name}"
                )
            entries.append(("array", tf.cast(k, tf.int64)))
        elif isinstance(k, slice):
            entries.append(("slice", k))
        elif k is None:
            entries.append(("new", None))
        elif k is Ellipsis:
            entries.append(("...", None))
        else:
            raise IndexError(f"getitem: unsupported index {k!r} of type {type(k).__name__}")
    used = builtins.sum(1 for kind, _ in entries if kind in ("array", "slice"))
    ndim = x.shape.rank
    if used > ndim:
        raise IndexError(f"getitem: too many indices: {used} for an array of {ndim} dimensions")
    if builtins.sum(1 for kind, _ in entries if kind == "...") > 1:
        raise IndexError("getitem: an index can only have a single ellipsis ('...')")
    full = ("slice", slice(None))
    expanded: list[tuple[str, Any]] = []
    for kind, value in entries:
        expanded.extend([full] * (ndim - used) if kind == "..." else [(kind, value)])
    if not builtins.any(kind == "..." for kind, _ in entries):
        expanded.extend([full] * (ndim - used))
    # New axes become real axes of length 1, indexed with a full slice.
    for axis, (kind, _) in enumerate(expanded):
        if kind == "new":
            x = tf.expand_dims(x, axis)
            expanded[axis] = full
    x = x[tuple(v if kind == "slice" else slice(None) for kind, v in expanded)]
    axes = [axis for axis, (kind, _) in enumerate(expanded) if kind == "array"]
    sizes = tf.shape(x, out_type=tf.int64)
    # Negative indices count from the end (tf.gather does not).
    index = []
    for a in axes:
        v = expanded[a][1]
        index.append(tf.where(v < 0, v + sizes[a], v))
    try:
        if len(axes) == 1:
            return tf.gather(x, index[0], axis=axes[0])  # result dims land at axes[0]
        rest = [a for a in range(len(expanded)) if a not in axes]
        common = tf.shape(index[0], out_type=tf.int64)
        for i in index[1:]:
            common = tf.broadcast_dynamic_shape(common, tf.shape(i, out_type=tf.int64))
        nd = tf.stack([tf.broadcast_to(i, common) for i in index], axis=-1)
        out = tf.gather_nd(tf.transpose(x, axes + rest), nd)  # broadcast dims first, then rest
    except tf.errors.InvalidArgumentError as err:
        raise IndexError(f"getitem: index out of bounds ({err.message})") from None
    nb = builtins.max(i.shape.rank for i in index)
    first = axes[0]
    if axes == list(range(first, first + len(axes))) and first > 0:
        # Adjacent index arrays: their dims go where they were, as in NumPy.
        rank = nb + len(rest)
        perm = [*range(nb, nb + first), *range(nb), *range(nb + first, rank)]
        out = tf.transpose(out, perm)
    return out


def setitem(x: Any, key: Any, value: Any) -> Any:
    """A new tensor with ``x[key] = value``; a ``tf.Variable`` is assigned in place instead."""
    base = tf.convert_to_tensor(x)
    # Select the flat positions the key addresses with getitem itself, so every key getitem
    # accepts works here with NumPy's meaning, then scatter the broadcast values there.
    flat_ids = tf.reshape(tf.range(tf.size(base, out_type=tf.int64)), tf.shape(base))
    positions = getitem(flat_ids, key)
    values = tf.broadcast_to(_const(value, base.dtype), tf.shape(positions))
    flat = tf.tensor_scatter_nd_update(
        tf.reshape(base, [-1]), tf.reshape(positions, [-1, 1]), tf.reshape(values, [-1])
    )
    new = tf.reshape(flat, tf.shape(base))
    if _is_variable(x):
        x.assign(new)
        return x
    return new


# -- creation -------------------------------------------------------------------------------------
def _is_python_data(obj: Any) -> bool:
    return not isinstance(obj, (np.ndarray, np.generic)) and not hasattr(obj, "__array__")


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
    with _on(device):
        if _is_python_data(obj):
            # NumPy's inference (int64, float64, complex128, bool) with our float32/complex64
            # defaults: the same dtypes as the numpy backend gives.
            arr = np.asarray(obj, dtype=None if dtype is None else dtype.as_numpy_dtype)
            if dtype is None and arr.dtype == np.float64:
                arr = arr.astype(np.float32)
            elif dtype is None and arr.dtype == np.complex128:
                arr = arr.astype(np.complex64)
            return tf.constant(arr)
        out = tf.convert_to_tensor(obj)  # copies NumPy data: later writes do not show through
        return out if dtype is None else tf.cast(out, dtype)


def _shape(shape: Any) -> Any:
    return (shape,) if isinstance(shape, int) else shape


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


def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    dtype = dtype or DEFAULT_FLOAT
    if device is None:
        out = _filled(shape, dtype, 0)
        if out is not None:
            return out
    with _on(device):
        return tf.zeros(_shape(shape), dtype=dtype)


def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    dtype = dtype or DEFAULT_FLOAT
    if device is None:
        out = _filled(shape, dtype, 1)
        if out is not None:
            return out
    with _on(device):
        return tf.ones(_shape(shape), dtype=dtype)


def _scalar_default(value: Any) -> Any:
    if isinstance(value, bool):
        return tf.bool
    if isinstance(value, int):
        return DEFAULT_INT
    if isinstance(value, float):
        return DEFAULT_FLOAT
    if isinstance(value, complex):
        return _DEFAULT_COMPLEX
    return None


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    dtype = dtype or _scalar_default(fill_value)
    with _on(device):
        value = tf.convert_to_tensor(fill_value) if dtype is None else _const(fill_value, dtype)
        return tf.fill(_shape(shape), value)


def arange(
    start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None, device: Any = None
) -> Any:
    if dtype is None:
        is_float = builtins.any(isinstance(v, float) for v in (start, stop, step))
        dtype = DEFAULT_FLOAT if is_float else DEFAULT_INT
    if stop is None:
        start, stop = 0, start
    # tf.range has kernels for a few dtypes only, and counts in the output dtype; count in
    # int64 or float64 (NumPy's length rule) and cast.
    wide = tf.float64 if dtype.is_floating or dtype.is_complex else tf.int64
    with _on(device):
        return tf.cast(tf.range(start, stop, step, dtype=wide), dtype)


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
    # Computed in float64 and then cast, as NumPy does; integer dtypes round down (NumPy 2).
    dtype = dtype or DEFAULT_FLOAT
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


# -- elementwise ----------------------------------------------------------------------------------
add = _promoting(tf.add, RAW.AddV2)
subtract = _promoting(tf.subtract, RAW.Sub)
multiply = _promoting(tf.multiply, RAW.Mul)
_divide = _promoting(tf.divide)  # true division: int32/int64 give float64, int8/int16 float32


def divide(x1: Any, x2: Any, /) -> Any:
    # For floating tensors tf.divide runs RealDiv (for integers it divides in floats: RealDiv
    # of integers would truncate, so they keep the tf path).
    if type(x1) is EagerTensor and type(x2) is EagerTensor and x1.dtype.is_floating:
        try:
            return RAW.RealDiv(x=x1, y=x2)
        except RAW_FAILS:
            pass
    return _divide(x1, x2)


floor_divide = _promoting(tf.math.floordiv)  # rounds towards -inf (see elementwise.py)
remainder = _promoting(tf.math.floormod)  # sign of the divisor, like Python (elementwise.py)
pow = _promoting(tf.pow)  # noqa: A001  (elementwise.py)


# tf.maximum/minimum and reduce_max/min propagate NaN on TF 2.21 CPU (checked by the tests).
maximum = _promoting(tf.maximum, RAW.Maximum)
minimum = _promoting(tf.minimum, RAW.Minimum)
equal = _promoting(tf.equal, RAW.Equal)
not_equal = _promoting(tf.not_equal, RAW.NotEqual)
less = _promoting(tf.less, RAW.Less)
less_equal = _promoting(tf.less_equal, RAW.LessEqual)
greater = _promoting(tf.greater, RAW.Greater)
greater_equal = _promoting(tf.greater_equal, RAW.GreaterEqual)
logical_and = tf.logical_and
logical_or = tf.logical_or
logical_not = tf.logical_not


def negative(x: Any, /) -> Any:
    try:
        return tf.negative(x)
    except tf.errors.InvalidArgumentError:
        if not x.dtype.is_unsigned:
            raise
        return tf.zeros_like(x) - x  # no unsigned kernel: wrap around like NumPy


def positive(x: Any, /) -> Any:
    return tf.identity(x)


def abs(x: Any, /) -> Any:  # noqa: A001
    try:
        return tf.abs(x)
    except tf.errors.InvalidArgumentError:
        if not x.dtype.is_unsigned:
            raise
        return tf.identity(x)  # no unsigned kernel; unsigned values are their own abs


def _unary(fn: Callable[..., Any], raw: Callable[..., Any]) -> Callable[..., Any]:
    """``fn``, with eager tensors sent to the raw op it runs (14 µs against 23 µs for
    ``tf.exp`` on the CI machine); anything else, or a raw op that raises, takes ``fn``."""

    def op(x: Any, /) -> Any:
        if type(x) is EagerTensor:
            try:
                return raw(x=x)
            except RAW_FAILS:
                pass
        return fn(x)

    op.__name__ = op.__qualname__ = fn.__name__
    return op


exp = _unary(tf.exp, RAW.Exp)
log = _unary(tf.math.log, RAW.Log)
sqrt = _unary(tf.sqrt, RAW.Sqrt)
square = _unary(tf.square, RAW.Square)
sin = _unary(tf.sin, RAW.Sin)
cos = _unary(tf.cos, RAW.Cos)
tanh = _unary(tf.tanh, RAW.Tanh)


def where(condition: Any, x1: Any, x2: Any, /) -> Any:
    if type(condition) is EagerTensor and type(x1) is EagerTensor and type(x2) is EagerTensor:
        try:
            return RAW.SelectV2(condition=condition, t=x1, e=x2)  # what tf.where runs
        except RAW_FAILS:
            pass
    if _signed_zero(x2) or _signed_zero(x1):
        args = _promote(x1, x2)
        if args is not None:
            return tf.where(condition, *args)
    try:
        return tf.where(condition, x1, x2)
    except _MISMATCH:
        args = _promote(x1, x2)
        if args is None:
            raise
        return tf.where(condition, *args)


# -- reductions -----------------------------------------------------------------------------------
# NumPy sums small integers and booleans in the 64-bit integer of the same signedness.
_SUM_DTYPES = {
    tf.bool: tf.int64,
    tf.int8: tf.int64,
    tf.int16: tf.int64,
    tf.int32: tf.int64,
    tf.uint8: tf.uint64,
    tf.uint16: tf.uint64,
    tf.uint32: tf.uint64,
}
_F32 = tf.float32
_HALF = (tf.float16, tf.bfloat16)
_SUM_DTYPES.update(dict.fromkeys(_HALF, _F32))


def _raw_reduce(raw: Callable[..., Any], x: Any, axis: Any, keepdims: Any) -> Any:
    """Eager reduction of an eager tensor over all axes or one int axis with the raw op and a
    cached axis tensor (see ``_eager``); None: take the tf path."""
    if type(x) is EagerTensor and type(keepdims) is bool and _eager.executing_eagerly():
        if axis is None:
            axes = _eager.all_axes(x.ndim)
        elif type(axis) is int:
            axes = _eager.int64(axis)
        else:
            return None
        try:
            return raw(input=x, axis=axes, keep_dims=keepdims)
        except RAW_FAILS:
            pass  # e.g. an axis out of range: the tf path raises its own error
    return None


_WIDER = {tf.float32: tf.float64, tf.complex64: tf.complex128}


def _wide_accumulator(x: Any, axis: Any) -> Any:
    """float64 (complex128) to accumulate a float32 (complex64) reduction of many values that
    leaves the last axis out, else None.

    TensorFlow's CPU kernels reduce such axes in one running total per output (4e-5 off for
    4000 rows of 0.1; along the last axis 1e-6 for a million values): those sums accumulate in
    float64 and are rounded once.
    """
    if type(x) is EagerTensor:
        if x._num_elements() < _ACCURATE_SUM_FROM:  # first: the common small call pays 0.1 µs
            return None
        dims = x._shape_tuple()
    else:
        shape = x.shape
        dims = tuple(shape) if shape.rank is not None else ()
        if None in dims:
            return None  # unknown sizes (tf.function): as TensorFlow does
    wide = _WIDER.get(x.dtype)
    if wide is None or _leading_reduction_size(dims, axis) < _ACCURATE_SUM_FROM:
        return None
    return wide


def sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    half = None  # half precision is summed in float32 and cast back, as on the other backends
    if dtype is None:
        dtype = _SUM_DTYPES.get(x.dtype)
        if dtype is _F32:  # (TensorFlow sums along an axis in float16 itself)
            half = x.dtype
    elif dtype in _HALF:
        half, dtype = dtype, _F32
    if dtype is not None:
        x = tf.cast(x, dtype)
    if axis is not None and half is None:
        wide = _wide_accumulator(x, axis)
        if wide is not None:
            return tf.cast(tf.reduce_sum(tf.cast(x, wide), axis=axis, keepdims=keepdims), x.dtype)
    out = _raw_reduce(RAW.Sum, x, axis, keepdims)
    if out is None:
        out = tf.reduce_sum(x, axis=axis, keepdims=keepdims)
    return out if half is None else tf.cast(out, half)


# Half precision computed in float32 (ivy_like.ops._half): mean here, var/std/
# cumulative_sum in statistical.py, the decompositions in linalg.py.
_in_float32 = _half_in_float32(
    {"float16": tf.float16, "bfloat16": tf.bfloat16}, tf.float32, tf.cast
)


@_in_float32
def mean(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f"mean: expected a floating-point array, got {x.dtype.name}")
    if axis is not None:
        wide = _wide_accumulator(x, axis)
        if wide is not None:
            return tf.cast(tf.reduce_mean(tf.cast(x, wide), axis=axis, keepdims=keepdims), x.dtype)
    out = _raw_reduce(RAW.Mean, x, axis, keepdims)
    if out is not None:
        return out
    return tf.reduce_mean(x, axis=axis, keepdims=keepdims)


def _check_not_empty(name: str, x: Any, axis: Any) -> None:
    # tf returns -inf/+inf (the identity) over an empty axis; NumPy has no identity to give.
    dims = tuple(x.shape)
    if 0 not in dims:
        return
    axes = (
        range(len(dims)) if axis is None else (axis if isinstance(axis, (tuple, list)) else (axis,))
    )
    if builtins.any(dims[a] == 0 for a in axes):
        raise ValueError(f"{name}: zero-size reduction, which has no identity")


def max(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    _check_not_empty("max", x, axis)
    if x.dtype == tf.bool:
        return tf.reduce_any(x, axis=axis, keepdims=keepdims)
    out = _raw_reduce(RAW.Max, x, axis, keepdims)
    if out is not None:
        return out
    return tf.reduce_max(x, axis=axis, keepdims=keepdims)


def min(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    _check_not_empty("min", x, axis)
    if x.dtype == tf.bool:
        return tf.reduce_all(x, axis=axis, keepdims=keepdims)
    out = _raw_reduce(RAW.Min, x, axis, keepdims)
    if out is not None:
        return out
    return tf.reduce_min(x, axis=axis, keepdims=keepdims)


# -- linalg and manipulation ----------------------------------------------------------------------
_matmul = _promoting(tf.linalg.matmul)


def matmul(x1: Any, x2: Any, /) -> Any:
    if type(x1) is EagerTensor and type(x2) is EagerTensor:
        # MatMul for two matrices (what tf.linalg.matmul runs; BatchMatMulV2's gradient
        # costs 30% more on a 1438x64 @ 64x64 product), BatchMatMulV2 for batches (NumPy's
        # matmul for ranks >= 2, batch dimensions broadcast). Both raise for 1-D operands
        # and mixed dtypes, handled below.
        try:
            if x1.ndim == 2 and x2.ndim == 2:
                return RAW.MatMul(a=x1, b=x2)
            return RAW.BatchMatMulV2(x=x1, y=x2)
        except RAW_FAILS:
            pass
    # tf.linalg.matmul needs two matrices (batched); NumPy's rules for 1-D operands: a vector
    # on the left is a row, on the right a column, and that axis is dropped from the result.
    r1, r2 = len(getattr(x1, "shape", ())), len(getattr(x2, "shape", ()))  # scalars: 0
    if r1 == 0 or r2 == 0:
        raise ValueError("matmul: operands must have at least one dimension, got a 0-d array")
    a, b = (x1[None, :] if r1 == 1 else x1), (x2[:, None] if r2 == 1 else x2)
    if isinstance(a, tf.Tensor) and isinstance(b, tf.Tensor) and a.dtype != b.dtype:
        # Promote first: tf.linalg.matmul would take bfloat16 with another float to its
        # deprecated sparse_matmul (float32 out, and a deprecation warning printed).
        a, b = _promote(a, b)
    out = _matmul(a, b)
    if r1 == 1:
        out = tf.squeeze(out, -2)
    if r2 == 1:
        out = tf.squeeze(out, -1)
    return out


def reshape(x: Any, /, shape: Any, *, copy: Any = None) -> Any:
    # Tensors are immutable: sharing memory or not cannot be observed, so copy has no effect.
    if type(x) is EagerTensor and _eager.executing_eagerly():
        dims = _eager.int64(_shape(shape))
        if dims is not None:
            try:
                return RAW.Reshape(tensor=x, shape=dims)
            except RAW_FAILS:
                pass  # sizes that do not match: tf.reshape raises its own error
    return tf.reshape(x, _shape(shape))


def permute_dims(x: Any, /, axes: Any) -> Any:
    if type(x) is EagerTensor and _eager.executing_eagerly():
        perm = _eager.int64(axes)  # tf.transpose converts the list each call: ~110 µs
        if perm is not None:
            try:
                return RAW.Transpose(x=x, perm=perm)
            except RAW_FAILS:
                pass
    return tf.transpose(x, perm=axes)


def concat(arrays: Any, /, *, axis: int | None = 0) -> Any:
    if (
        type(axis) is int
        and type(arrays) in (list, tuple)
        and len(arrays) > 1  # ConcatV2 takes two or more
        and _eager.executing_eagerly()
    ):
        for a in arrays:
            if type(a) is not EagerTensor:
                break
        else:
            try:
                return RAW.ConcatV2(values=arrays, axis=_eager.int64(axis))
            except RAW_FAILS:
                pass  # mixed dtypes or shapes, a bad axis: the path below
    if axis is None:
        arrays, axis = [tf.reshape(a, [-1]) for a in arrays], 0
    try:
        return tf.concat(arrays, axis)
    except _MISMATCH:
        promoted = _promote(*arrays)
        if promoted is None:
            raise
        return tf.concat(promoted, axis)


def stack(arrays: Any, /, *, axis: int = 0) -> Any:
    try:
        return tf.stack(arrays, axis)
    except _MISMATCH:
        promoted = _promote(*arrays)
        if promoted is None:
            raise
        return tf.stack(promoted, axis)


def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    if device is None and type(x) is EagerTensor:
        src = x.dtype
        if src != dtype and not src.is_complex:  # tf.cast takes the real part first
            try:
                return RAW.Cast(x=x, DstT=dtype)  # what tf.cast runs
            except RAW_FAILS:
                pass
    with _on(device):
        if dtype == x.dtype:
            return tf.identity(x) if copy or device is not None else x
        return tf.cast(x, dtype)


# -- gradients ------------------------------------------------------------------------------------
def stop_gradient(x: Any, /, *, preserve_type: bool = True) -> Any:
    if type(x) is EagerTensor:
        return RAW.StopGradient(input=x)
    if preserve_type and _is_variable(x):
        return tf.Variable(tf.stop_gradient(x), trainable=x.trainable)  # a new variable
    return tf.stop_gradient(x)


def variable(x: Any, /) -> Any:
    return tf.Variable(x)


# Array API families beyond the first set, one file each (same names in every backend).
from .elementwise import *  # noqa: E402,F403
from .fft import *  # noqa: E402,F403
from .gradients import *  # noqa: E402,F403
from .linalg import *  # noqa: E402,F403
from .manipulation import *  # noqa: E402,F403
from .nn import *  # noqa: E402,F403
from .statistical import *  # noqa: E402,F403

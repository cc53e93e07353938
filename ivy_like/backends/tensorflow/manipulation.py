"""tensorflow backend: array API creation, manipulation and indexing functions (issue 5).

TensorFlow ops after the shared rules of ``ivy_like.ops``. Differences from NumPy handled here:

* ``empty``/``empty_like`` give zeros (no uninitialised allocation in TensorFlow);
* ``meshgrid`` reshapes and broadcasts each input itself (``tf.meshgrid`` needs one dtype);
* ``tril``/``triu`` keep values where ``col - row`` is within ``k`` (``tf.linalg.band_part``
  cannot express every ``k``);
* ``tile`` pads ``x``'s shape and the repetitions to one length (``tf.tile`` needs that);
* ``roll`` over ``axis=None`` rolls the flattened tensor (``tf.roll`` needs an axis);
* shape errors (``InvalidArgumentError``) become ``ValueError``, out-of-range ``take`` indices
  ``IndexError`` (``take`` checks eager indices on the host and calls ``tf.gather``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from ...ops.creation import _check_matrix, _check_meshgrid, _meshgrid_shapes
from ...ops.indexing import _check_bounds, _host_bounds, _take_axis
from ...ops.manipulation import (
    _axes,
    _axis,
    _check_repeats_array,
    _moveaxis_perm,
    _repeat_count,
    _roll_args,
    _squeeze_axes,
    _tile_shapes,
)
from . import DEFAULT_FLOAT, _const, _eager, _on, _shape
from ._eager import RAW, RAW_FAILS, EagerTensor

__all__ = [
    "broadcast_arrays",
    "broadcast_to",
    "empty",
    "empty_like",
    "expand_dims",
    "flip",
    "from_dlpack",
    "full_like",
    "meshgrid",
    "moveaxis",
    "repeat",
    "roll",
    "squeeze",
    "take",
    "tile",
    "tril",
    "triu",
    "unstack",
]

_SHAPE_ERRORS = (ValueError, tf.errors.InvalidArgumentError)
_KDLCPU = 1  # DLPack's device type of host memory
_TF_ALIGNMENT = 64  # bytes; TensorFlow's CPU buffers must be aligned to this


def _kind(x: Any) -> str | None:
    dt = getattr(x, "dtype", None)
    if dt is None:
        return None
    return "b" if dt == tf.bool else "u" if dt.is_unsigned else "i" if dt.is_integer else "f"


# -- creation -------------------------------------------------------------------------------------
def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    with _on(device):
        return tf.zeros(_shape(shape), dtype=dtype or DEFAULT_FLOAT)


def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    with _on(device):
        return tf.zeros_like(x, dtype=dtype)


def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
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
    >>> from ivy_like.backends import tensorflow as B
    >>> B.from_dlpack(np.arange(2.0), copy=True).numpy()
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
    _check_meshgrid(arrays, indexing)
    shape, views = _meshgrid_shapes([a.shape[0] for a in arrays], indexing)
    return tuple(tf.broadcast_to(tf.reshape(a, v), shape) for a, v in zip(arrays, views))


def _triangle(x: Any, k: int, lower: bool) -> Any:
    rows = tf.range(tf.shape(x)[-2])[:, None]
    cols = tf.range(tf.shape(x)[-1])[None, :]
    keep = cols - rows <= k if lower else cols - rows >= k
    return tf.where(keep, x, tf.zeros_like(x))


def tril(x: Any, /, *, k: int = 0) -> Any:
    _check_matrix(x, "tril")
    return _triangle(x, k, lower=True)


def triu(x: Any, /, *, k: int = 0) -> Any:
    _check_matrix(x, "triu")
    return _triangle(x, k, lower=False)


# -- manipulation ---------------------------------------------------------------------------------
def broadcast_arrays(*arrays: Any) -> tuple[Any, ...]:
    shape = tf.TensorShape([])
    try:
        for a in arrays:
            shape = tf.broadcast_static_shape(shape, a.shape)
    except _SHAPE_ERRORS as err:
        raise ValueError(f"broadcast_arrays: shapes do not broadcast ({err})") from None
    return tuple(tf.broadcast_to(a, shape) for a in arrays)


def broadcast_to(x: Any, /, shape: Any) -> Any:
    try:
        return tf.broadcast_to(x, _shape(shape))
    except _SHAPE_ERRORS as err:
        raise ValueError(f"broadcast_to: cannot broadcast to {shape} ({err})") from None


def expand_dims(x: Any, /, *, axis: int = 0) -> Any:
    return tf.expand_dims(x, _axis(axis, x.shape.rank + 1, "expand_dims"))


def flip(x: Any, /, *, axis: Any = None) -> Any:
    return tf.reverse(x, axis=list(_axes(axis, x.shape.rank, "flip")))


def moveaxis(x: Any, source: Any, destination: Any, /) -> Any:
    return tf.transpose(x, _moveaxis_perm(x.shape.rank, source, destination))


def repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
    if axis is not None:
        axis = _axis(axis, x.shape.rank, "repeat")
    if isinstance(repeats, (tf.Tensor, tf.Variable)):
        size = int(tf.size(x)) if axis is None else x.shape[axis]
        _check_repeats_array(tuple(repeats.shape), size, axis, _kind(repeats) or "f")
        repeats = tf.cast(repeats, tf.int64)
        if bool(tf.reduce_any(repeats < 0)):
            raise ValueError("repeat: repeats must be non-negative")
    else:
        repeats = _repeat_count(repeats)
    if 0 in x.shape:
        # tf.repeat fails on some empty inputs (shape (0, 2) along axis 1); the result is
        # empty too, of a shape known from the repeats.
        shape = [0] if axis is None else list(x.shape)
        if axis is not None:
            per_item = tf.broadcast_to(repeats, [x.shape[axis]])
            shape[axis] = int(tf.reduce_sum(tf.cast(per_item, tf.int64)))
        return tf.zeros(shape, x.dtype)
    return tf.repeat(x, repeats, axis=axis)


def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Any:
    shift, axis = _roll_args(shift, axis, x.shape.rank)
    if axis is None:
        flat = tf.roll(tf.reshape(x, [-1]), shift, axis=0)
        return tf.reshape(flat, tf.shape(x))
    if not axis:
        return x
    return tf.roll(x, list(shift), axis=list(axis))


def squeeze(x: Any, /, axis: Any) -> Any:
    axes = _squeeze_axes(tuple(x.shape), axis)
    # tf.squeeze(x, axis=[]) would squeeze every axis of size 1.
    return tf.squeeze(x, axis=list(axes)) if axes else tf.identity(x)


def tile(x: Any, repetitions: Any, /) -> Any:
    shape, reps = _tile_shapes(tuple(x.shape), repetitions)
    return tf.tile(tf.reshape(x, shape), reps)


def unstack(x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    return tuple(tf.unstack(x, axis=_axis(axis, x.shape.rank, "unstack")))


# -- indexing -------------------------------------------------------------------------------------
def take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
    if type(x) is EagerTensor and type(indices) is EagerTensor:
        # On CPU an out-of-range or negative index makes GatherV2 raise: run it first, and
        # check (and wrap negative indices) only when it fails. Float or bool indices and bad
        # axes fail too, and get ivy_like's errors below.
        gather_axis = 0 if axis is None and x.ndim == 1 else axis
        if type(gather_axis) is int and _eager.checked_gather_ok() and _eager.executing_eagerly():
            try:
                return RAW.GatherV2(params=x, indices=indices, axis=_eager.int64(gather_axis))
            except RAW_FAILS:
                pass
    axis = _take_axis(x.shape.rank, indices, axis, _kind(indices))
    if axis is None:
        x, axis = (x if x.shape.rank == 1 else tf.reshape(x, [-1])), 0
    if not isinstance(indices, tf.Tensor):
        indices = tf.convert_to_tensor(indices)
    size = x.shape[axis]
    if hasattr(indices, "numpy") and size is not None:
        # Eager: NumPy's bounds check and negative indices on the host copy (no extra ops).
        values = indices.numpy()
        if values.size:
            lo, hi = _host_bounds(values)
            _check_bounds(lo, hi, size, axis)
            if lo < 0:
                indices = np.where(values < 0, values.astype(np.int64) + size, values)
    else:  # in a graph: negative indices count from the end (tf.gather does not)
        if indices.dtype not in (tf.int32, tf.int64):
            indices = tf.cast(indices, tf.int64)
        n = tf.shape(x, out_type=indices.dtype)[axis]
        indices = tf.where(indices < 0, indices + n, indices)
    if getattr(indices, "dtype", None) not in (tf.int32, tf.int64, np.int32, np.int64):
        indices = tf.cast(indices, tf.int64)  # tf.gather takes int32 and int64 indices only
    try:
        # axis=0 left implicit: an explicit axis costs tf.gather a protocol isinstance check.
        return tf.gather(x, indices) if axis == 0 else tf.gather(x, indices, axis=axis)
    except tf.errors.InvalidArgumentError as err:  # in a graph, this surfaces when it runs
        raise IndexError(f"take: index out of bounds ({err.message})") from None

"""The TensorFlow backend: aliases of tf functions; autodiff, immutable tensors.

This file is what the backend is: its facts (``NAME``, ``DTYPES``, defaults...) and the hooks
the core calls (``shape``, ``dtype``, ``device``, ``native_device``, ``to_numpy``, ``dlpack``,
``getitem``, ``setitem``, ``write_inplace``...). The op kernels live in one file per op family
(``elementwise.py``, ``linalg.py``...), the gradient primitives in ``gradients.py``, helpers
shared by several of those files in ``_helpers.py`` and the eager fast paths in ``_eager.py``.

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
from typing import Any

import numpy as np
import tensorflow as tf

from .._common import hooks as _hooks
from .._common.indexing import check_step
from . import _eager
from ._eager import EagerTensor
from ._helpers import _const, _is_variable

NAME = "tensorflow"
VERSION = tf.__version__
ARRAY_TYPES = (tf.Tensor, tf.Variable)
HAS_AUTODIFF = True
MUTABLE_ARRAYS = False
UNSUPPORTED: dict[str, str] = {}
DTYPES = _hooks.dtype_table(
    tf.as_dtype,
    "bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 bfloat16 float32 float64 "
    "complex64 complex128",
)
DEFAULT_FLOAT = tf.float32
DEFAULT_INT = tf.int64


# -- helpers for the core ------------------------------------------------------------------------
shape = _hooks.shape
dtype = _hooks.dtype


def device(x: Any) -> str:
    # "/job:localhost/replica:0/task:0/device:CPU:0" -> "cpu"; "...GPU:1" -> "gpu:1"
    if "device:" not in x.device:
        return x.device  # not placed yet (graph mode): ""
    kind, _, index = x.device.rsplit("device:", 1)[-1].partition(":")
    kind = kind.lower()
    return kind if kind == "cpu" and index in ("", "0") else f"{kind}:{index or 0}"


def to_numpy(x: Any) -> np.ndarray:
    # tf.Tensor and tf.Variable; bfloat16 comes out as ml_dtypes.bfloat16. A 0-d tensor gives a
    # NumPy scalar (np.float32), which __array__ must not return: make it a 0-d ndarray.
    return np.asarray(x.numpy())


def dlpack(x: Any, *args: Any, **kwargs: Any) -> Any:
    t = tf.convert_to_tensor(x)  # a Variable exports its value
    # TensorFlow refuses any dl_device, even the tensor's own; consumers (NumPy, scikit-learn)
    # name the CPU explicitly. The tensor's own device needs no move: drop it.
    dl_device = kwargs.get("dl_device")
    if dl_device is not None and tuple(dl_device) == tuple(t.__dlpack_device__()):
        kwargs = {k: v for k, v in kwargs.items() if k != "dl_device"}
    return t.__dlpack__(*args, **kwargs)


dlpack_device = _hooks.dlpack_device_for(tf.convert_to_tensor)


def write_inplace(target: Any, value: Any) -> None:
    if not _is_variable(target):
        raise TypeError("out=: a tf.Tensor is immutable; pass a tf.Variable or an ivy_like.Array")
    target.assign(value)


def is_variable(x: Any) -> bool:
    return _is_variable(x)


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
            check_step(k)  # tf.strided_slice: InvalidArgumentError
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

"""tensorflow backend: array API indexing functions.

``take`` runs ``GatherV2`` directly on eager tensors and checks (and wraps negative) indices
only when it fails; otherwise eager indices are checked on the host, out-of-range ones raise
``IndexError``, and in a graph negative indices are wrapped with tf ops (``tf.gather`` does
not). ``getitem``/``setitem`` are hooks of the core, in ``__init__``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from .._common.indexing import check_bounds, host_bounds, take_axis
from . import _eager
from ._eager import RAW, RAW_FAILS, EagerTensor
from ._helpers import _kind


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
    axis = take_axis(x.shape.rank, indices, axis, _kind(indices))
    if axis is None:
        x, axis = (x if x.shape.rank == 1 else tf.reshape(x, [-1])), 0
    if not isinstance(indices, tf.Tensor):
        indices = tf.convert_to_tensor(indices)
    size = x.shape[axis]
    if hasattr(indices, "numpy") and size is not None:
        # Eager: NumPy's bounds check and negative indices on the host copy (no extra ops).
        values = indices.numpy()
        if values.size:
            lo, hi = host_bounds(values)
            check_bounds(lo, hi, size, axis)
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

"""tensorflow backend: ops beyond the standard (``einsum``, ``one_hot``, ``logsumexp``,
``top_k``, ``scatter_add``, ``segment_sum``, ``segment_max``), with the meaning decided in
``ivy_like.ops.math``.

Differences from TensorFlow handled here:

* ``einsum``: when ``tf.einsum`` fails, the subscripts are read as NumPy does
  (``ivy_like.ops.math.einsum_labels``) and written out in full (TensorFlow needs an explicit output
  for ``...``), mixed dtypes are promoted, and a label of size 1 is broadcast (TensorFlow needs
  equal sizes);
* ``one_hot`` casts integer indices ``tf.one_hot`` does not take (int16, uint16...) to int64;
* ``top_k`` is this backend's stable descending ``argsort`` cut at ``k``: ``tf.math.top_k``
  scrambles NaN;
* ``scatter_add`` sends indices out of range to an extra row that is cut off afterwards
  (``tensor_scatter_nd_add`` refuses them on the CPU and drops them on a GPU);
* ``segment_sum``/``segment_max`` mark ids out of range as -1, which TensorFlow drops; an empty
  segment's max is -inf (TensorFlow gives the lowest finite float) and NaN propagates
  (TensorFlow's max loses a NaN followed by a number).
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from ...ops.math import einsum_labels
from . import DEFAULT_FLOAT
from . import sorting as _sorting
from ._helpers import _const, _promote

_FAILS = (tf.errors.OpError, TypeError, ValueError)


def einsum(subscripts: Any, *operands: Any) -> Any:
    try:
        return tf.einsum(subscripts, *operands)
    except _FAILS:
        pass
    shapes = [tuple(o.shape) if o.shape.rank is not None else None for o in operands]
    labels, output, sizes = einsum_labels(subscripts, shapes)  # raises for bad subscripts
    operands = tuple(_promote(*operands) or operands)
    dtype = operands[0].dtype
    if dtype in _NARROW_INTEGERS:  # TensorFlow has no einsum kernel for them: int64 wraps alike
        operands = tuple(tf.cast(o, tf.int64) for o in operands)
    full = []
    for term, operand in zip(labels, operands):
        target = [sizes[label] for label in term]
        if list(operand.shape) != target and None not in target:
            operand = tf.broadcast_to(operand, target)  # a label of size 1 broadcasts
        full.append(operand)
    out = tf.einsum(f"{','.join(labels)}->{output}", *full)
    return tf.cast(out, dtype) if out.dtype != dtype else out


_NARROW_INTEGERS = frozenset({tf.int8, tf.int16, tf.uint8, tf.uint16, tf.uint32})


_ONE_HOT_INDICES = frozenset({tf.uint8, tf.int8, tf.int32, tf.int64})


def one_hot(indices: Any, num_classes: Any, dtype: Any = None) -> Any:
    # tf.one_hot refuses float and bool indices and a depth that is no int or negative itself.
    if indices.dtype not in _ONE_HOT_INDICES and indices.dtype.is_integer:
        indices = tf.cast(indices, tf.int64)
    dtype = DEFAULT_FLOAT if dtype is None else dtype
    if dtype == tf.bool:
        return tf.one_hot(indices, num_classes, on_value=True, off_value=False, dtype=tf.bool)
    return tf.one_hot(indices, num_classes, dtype=dtype)


def logsumexp(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    return tf.reduce_logsumexp(x, axis=axis, keepdims=keepdims)  # -inf rows give -inf


def top_k(x: Any, k: Any) -> tuple[Any, Any]:
    rank = x.shape.rank
    # The stable descending argsort keeps ties in index order and puts NaN first.
    order = _sorting.argsort(x, axis=-1, descending=True)[..., :k]
    return tf.gather(x, order, batch_dims=rank - 1), order


def _rows(indices: Any, size: Any, wrap: bool, dropped: Any) -> Any:
    """Flat int64 row indices; negative ones count from the end when ``wrap``; the ones out of
    range become ``dropped``."""
    rows = tf.reshape(indices, [-1])
    if rows.dtype != tf.int64:
        rows = tf.cast(rows, tf.int64)
    if wrap:
        rows = tf.where(rows < 0, rows + size, rows)
    return tf.where((rows >= 0) & (rows < size), rows, dropped)


def scatter_add(x: Any, indices: Any, updates: Any) -> Any:
    if type(indices) is int:
        indices = tf.constant(indices, tf.int64)
    n = x.shape[0] if x.shape[0] is not None else tf.shape(x, out_type=tf.int64)[0]
    rest = tf.shape(x)[1:]
    updates = tf.broadcast_to(_const(updates, x.dtype), tf.concat([tf.shape(indices), rest], 0))
    updates = tf.reshape(updates, tf.concat([[-1], rest], 0))
    # Rows out of range go to an extra row, cut off below.
    extended = tf.concat([x, tf.zeros_like(x[:1])], 0)
    rows = _rows(indices, n, wrap=True, dropped=n)
    return tf.tensor_scatter_nd_add(extended, rows[:, None], updates)[:n]


def _segment_ids(segment_ids: Any, num_segments: Any) -> Any:
    return _rows(segment_ids, num_segments, wrap=False, dropped=-1)  # -1: TensorFlow drops it


def segment_sum(data: Any, segment_ids: Any, num_segments: Any) -> Any:
    ids = _segment_ids(segment_ids, num_segments)
    return tf.math.unsorted_segment_sum(data, ids, num_segments)


def segment_max(data: Any, segment_ids: Any, num_segments: Any) -> Any:
    ids = _segment_ids(segment_ids, num_segments)
    out = tf.math.unsorted_segment_max(data, ids, num_segments)
    if not data.dtype.is_floating:
        return out  # the integers' minimum for an empty segment, as JAX
    # Per segment: how many rows it has, whether a NaN is among them.
    per_row = [num_segments] + [1] * (data.shape.rank - 1)
    count = tf.math.unsorted_segment_sum(tf.ones_like(ids, tf.int32), ids, num_segments)
    empty = tf.reshape(count == 0, per_row)
    nan = tf.math.unsorted_segment_max(tf.cast(tf.math.is_nan(data), tf.int8), ids, num_segments)
    out = tf.where(nan > 0, tf.constant(float("nan"), data.dtype), out)
    return tf.where(empty, tf.constant(float("-inf"), data.dtype), out)

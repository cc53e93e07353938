"""numpy backend: ops beyond the standard (``einsum``, ``one_hot``, ``logsumexp``, ``top_k``,
``scatter_add``, ``segment_sum``, ``segment_max``), with the meaning decided in
``ivy_like.ops.math``.

``einsum`` is NumPy's. The scatters are ``np.add.at``/``np.maximum.at`` on the rows whose
index is in range. NumPy would read a float ``num_classes``, a ``k`` past the end of the axis,
bool indices or a 2-D ``segment_ids`` without complaint: the checks each op declares in
``ivy_like.ops.math`` refuse them before these kernels run.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import sorting as _sorting

einsum = np.einsum
_F32 = np.dtype("float32")


def one_hot(indices: Any, num_classes: Any, dtype: Any = None) -> Any:
    indices = np.asarray(indices)
    hits = np.expand_dims(indices, -1) == np.arange(num_classes)
    return hits.astype(_F32 if dtype is None else dtype)


def logsumexp(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    x = np.asarray(x)
    # The largest value is taken out first (no overflow); -inf (an empty reduction, or all
    # values -inf) and inf are left in, where exp gives 0 and inf.
    top = np.max(x, axis=axis, keepdims=True, initial=-np.inf)
    top = np.where(np.isfinite(top), top, 0).astype(x.dtype, copy=False)
    with np.errstate(divide="ignore"):  # log(0) is the -inf asked for
        out = np.log(np.sum(np.exp(x - top), axis=axis, keepdims=True)) + top
    return out if keepdims else np.squeeze(out, axis=axis)


def top_k(x: Any, k: Any) -> tuple[Any, Any]:
    x = np.asarray(x)
    # The stable descending argsort puts NaN first and keeps ties in index order.
    order = _sorting.argsort(x, axis=-1, descending=True)[..., :k]
    return np.take_along_axis(x, order, axis=-1), order


def _rows(indices: Any, size: int, wrap: bool) -> tuple[Any, Any]:
    """(the in-range indices as intp, the mask selecting them); negative ones count from the
    end when ``wrap``."""
    if wrap and indices.dtype.kind == "i":
        indices = np.where(indices < 0, indices + size, indices)
    keep = (indices >= 0) & (indices < size)
    return indices[keep].astype(np.intp, copy=False), keep


def scatter_add(x: Any, indices: Any, updates: Any) -> Any:
    x, indices = np.asarray(x), np.asarray(indices)
    updates = np.broadcast_to(np.asarray(updates), indices.shape + x.shape[1:])
    rows, keep = _rows(indices, x.shape[0], wrap=True)
    out = x.copy()
    np.add.at(out, rows, updates[keep].astype(x.dtype, copy=False))
    return out


def _segments(data: Any, segment_ids: Any, num_segments: Any) -> tuple[Any, Any, Any]:
    data, ids = np.asarray(data), np.asarray(segment_ids)
    rows, keep = _rows(ids, num_segments, wrap=False)
    return data, rows, keep


def segment_sum(data: Any, segment_ids: Any, num_segments: Any) -> Any:
    data, rows, keep = _segments(data, segment_ids, num_segments)
    out = np.zeros((num_segments, *data.shape[1:]), data.dtype)
    np.add.at(out, rows, data[keep])
    return out


def segment_max(data: Any, segment_ids: Any, num_segments: Any) -> Any:
    data, rows, keep = _segments(data, segment_ids, num_segments)
    out = np.full((num_segments, *data.shape[1:]), _lowest(data.dtype), data.dtype)
    np.maximum.at(out, rows, data[keep])  # np.maximum propagates NaN
    return out


def _lowest(dtype: Any) -> Any:
    """The max's identity: -inf for floats, the minimum for integers."""
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min

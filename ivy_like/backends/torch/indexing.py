"""torch backend: array API indexing functions.

``take`` uses this backend's ``getitem`` (which widens uint8 index tensors, read by torch as
masks, to int64) after one direct ``index_select`` for the common calls.
"""

from __future__ import annotations

from typing import Any

import torch

from ...core import dtypes as D
from .._common.indexing import take_axis
from . import getitem

_is_compiling = torch.compiler.is_compiling
_index_select = torch.index_select
_Tensor = torch.Tensor


def take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
    # The common calls cost one index_select: it checks the bounds and the index dtype itself
    # (int32 or int64) and raises for negative or out-of-range indices, other dtypes and bad
    # axes, which the path below then handles with NumPy's meaning (negatives count from the
    # end) and message. Module-level names and one branch per axis form: ~0.3 µs less.
    if axis is None:
        if type(indices) is _Tensor and indices.ndim == 1 and x.ndim == 1 and not _is_compiling():
            try:
                return _index_select(x, 0, indices)
            except (IndexError, RuntimeError):
                pass
    elif type(axis) is int and type(indices) is _Tensor and indices.ndim == 1:
        if not _is_compiling():
            try:
                return _index_select(x, axis, indices)
            except (IndexError, RuntimeError):
                pass
    kind = None
    if isinstance(indices, torch.Tensor):
        kind = D.as_dtype(indices.dtype).kind
    axis = take_axis(x.ndim, indices, axis, kind)
    if axis is None:
        x, axis = (x if x.ndim == 1 else torch.reshape(x, (-1,))), 0
    if kind in ("i", "u") and indices.ndim == 0:
        # ``x[t]`` with a 0-d tensor reads ``t`` in Python, which a traced ``t`` (a scan's
        # step under ``ivy_like.compile`` or torch.compile) has not; index_select keeps it
        # traced. It raises for an index out of range, which getitem below then reports.
        try:
            i = torch.where(indices < 0, indices + x.shape[axis], indices).reshape(1)
            return _index_select(x, axis, i).squeeze(axis)
        except (IndexError, RuntimeError):
            pass
    return getitem(x, (slice(None),) * axis + (indices,))

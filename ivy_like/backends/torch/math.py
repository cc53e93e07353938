"""torch backend: ops beyond the standard (``einsum``, ``one_hot``, ``logsumexp``, ``top_k``,
``scatter_add``, ``segment_sum``, ``segment_max``), with the meaning decided in
``ivy_like.ops.math``.

Differences from torch handled here:

* ``einsum`` promotes mixed dtypes (``torch.einsum`` refuses them), after it failed;
* ``top_k`` is a stable descending ``torch.sort`` cut at ``k``: ``torch.topk`` orders ties
  arbitrarily and NaNs among themselves too;
* ``one_hot`` compares with ``arange`` (``F.one_hot`` refuses indices out of range, and gives
  int64);
* the scatters send the indices out of range to an extra row that is cut off afterwards
  (``index_add``/``scatter_reduce`` would refuse them), so no index value is read on the host.

What torch would accept silently (float or bool indices, a non-int ``num_classes`` or
``num_segments``, ``k`` past the end of the axis) is refused by the checks each op declares in
``ivy_like.ops.math``, which run before these kernels.
"""

from __future__ import annotations

import functools
from typing import Any

import torch

from . import DEFAULT_FLOAT, DTYPES

_INTEGER = frozenset(v for k, v in DTYPES.items() if k.kind in "iu")


def einsum(subscripts: Any, *operands: Any) -> Any:
    try:
        return torch.einsum(subscripts, *operands)
    except RuntimeError:
        dtypes = {o.dtype for o in operands if isinstance(o, torch.Tensor)}
        if len(dtypes) < 2:
            raise  # not about dtypes: the decided errors read the subscripts
    common = functools.reduce(torch.promote_types, dtypes)
    return torch.einsum(subscripts, *(o.to(common) for o in operands))


def one_hot(indices: Any, num_classes: Any, dtype: Any = None) -> Any:
    hits = indices.unsqueeze(-1) == torch.arange(num_classes, device=indices.device)
    return hits.to(DEFAULT_FLOAT if dtype is None else dtype)


def logsumexp(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    if axis is None:
        axis = tuple(range(x.ndim))
    elif axis == ():  # no axis reduced (torch would reduce them all)
        return torch.logsumexp(x[None], dim=0)
    return torch.logsumexp(x, dim=axis, keepdim=keepdims)  # -inf rows give -inf


def top_k(x: Any, k: Any) -> tuple[Any, Any]:
    # torch's stable descending sort keeps ties in index order and puts NaN first.
    values, indices = torch.sort(x, dim=-1, descending=True, stable=True)
    return values[..., :k], indices[..., :k]


def _rows(indices: Any, size: int, wrap: bool) -> Any:
    """Flat int64 row indices; negative ones count from the end when ``wrap``; the ones out of
    range point at row ``size``, an extra row the caller cuts off."""
    rows = indices.reshape(-1).to(torch.int64)
    if wrap:
        rows = torch.where(rows < 0, rows + size, rows)
    return torch.where((rows >= 0) & (rows < size), rows, size)


def scatter_add(x: Any, indices: Any, updates: Any) -> Any:
    if type(indices) is int:
        indices = torch.tensor(indices, device=x.device)
    n, rest = x.shape[0], x.shape[1:]
    updates = torch.as_tensor(updates, dtype=x.dtype, device=x.device)
    updates = torch.broadcast_to(updates, indices.shape + rest).reshape(-1, *rest)
    extended = torch.cat((x, x.new_zeros((1, *rest))))  # a new tensor: x is never written
    return extended.index_add(0, _rows(indices, n, wrap=True), updates)[:n]


def _segment_rows(segment_ids: Any, num_segments: Any) -> Any:
    return _rows(segment_ids, num_segments, wrap=False)


def segment_sum(data: Any, segment_ids: Any, num_segments: Any) -> Any:
    rows = _segment_rows(segment_ids, num_segments)
    out = data.new_zeros((num_segments + 1, *data.shape[1:]))
    return out.index_add(0, rows, data)[:num_segments]


def segment_max(data: Any, segment_ids: Any, num_segments: Any) -> Any:
    rows = _segment_rows(segment_ids, num_segments)
    dtype = data.dtype
    lowest = -float("inf") if dtype.is_floating_point else torch.iinfo(dtype).min
    out = data.new_full((num_segments + 1, *data.shape[1:]), lowest)
    # scatter_reduce rather than index_reduce (which warns that it is in beta): the row index
    # spread over each row.
    index = rows.reshape(-1, *(1,) * (data.ndim - 1)).expand(data.shape)
    return out.scatter_reduce(0, index, data, "amax")[:num_segments]  # amax propagates NaN

"""mlx backend: ops beyond the standard (``einsum``, ``one_hot``, ``logsumexp``, ``top_k``,
``scatter_add``, ``segment_sum``, ``segment_max``), with the meaning decided in
``ivy_like.ops.math``.

Differences from MLX handled here:

* ``einsum`` of integer operands (``mx.einsum`` multiplies through ``matmul``, which takes
  floats only) is computed exactly by broadcasting: diagonals taken, axes laid out in one order,
  the product summed over the contracted labels;
* ``logsumexp`` of an empty reduction is -inf (``mx.logsumexp`` refuses empty arrays);
* ``top_k`` is this backend's stable descending ``argsort`` cut at ``k`` (``mx.topk`` returns
  its values unordered);
* the scatters send indices out of range to an extra row that is cut off afterwards (MLX would
  write out of bounds).

What MLX would accept silently (float or bool indices, a non-int ``num_classes`` or
``num_segments``, ``k`` past the end of the axis) is refused by the checks each op declares in
``ivy_like.ops.math``, which run before these kernels.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx

from ...ops.math import einsum_checked
from . import _INEXACT, DEFAULT_FLOAT
from . import sorting as _sorting


def einsum(subscripts: Any, *operands: Any) -> Any:
    if all(o.dtype in _INEXACT for o in operands):
        return mx.einsum(subscripts, *operands)
    # The labels einsum's check read (remembered there): MLX has no einsum for integers.
    labels, output, _ = einsum_checked(subscripts, tuple(o.shape for o in operands))
    return _einsum_exact(labels, output, operands)


def _einsum_exact(labels: tuple[str, ...], output: str, operands: Any) -> Any:
    """``einsum`` by broadcasting, for integers: memory for the broadcast product of all the
    labels' sizes."""
    order = output + "".join(sorted(set("".join(labels)) - set(output)))
    product = None
    for term, x in zip(labels, operands):
        axes = list(term)
        for label in set(axes):
            while axes.count(label) > 1:  # a repeated label takes the diagonal (moved last)
                a = axes.index(label)
                b = axes.index(label, a + 1)
                x = mx.diagonal(x, 0, a, b)
                axes = [c for i, c in enumerate(axes) if i not in (a, b)] + [label]
        perm = sorted(range(len(axes)), key=lambda i: order.index(axes[i]))
        x = mx.transpose(x, perm)
        placed = [axes[i] for i in perm]
        x = x.reshape([x.shape[placed.index(c)] if c in placed else 1 for c in order])
        product = x if product is None else product * x
    contracted = list(range(len(output), len(order)))
    return mx.sum(product, axis=contracted) if contracted else product


def one_hot(indices: Any, num_classes: Any, dtype: Any = None) -> Any:
    hits = mx.expand_dims(indices, -1) == mx.arange(num_classes)
    return hits.astype(DEFAULT_FLOAT if dtype is None else dtype)


def logsumexp(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    try:
        return mx.logsumexp(x, axis=axis, keepdims=keepdims)  # -inf rows give -inf
    except ValueError:
        if x.size:
            raise
    # MLX refuses empty arrays: a sum over no values is 0, and its log -inf.
    return mx.log(mx.sum(mx.exp(x), axis=axis, keepdims=keepdims))


def top_k(x: Any, k: Any) -> tuple[Any, Any]:
    # The stable descending argsort keeps ties in index order and puts NaN first.
    order = _sorting.argsort(x, axis=-1, descending=True)[..., :k]
    order = mx.stop_gradient(order)  # indices: MLX's gather differentiates x only
    return mx.take_along_axis(x, order, axis=-1), order


def _rows(indices: Any, size: int, wrap: bool) -> Any:
    """int64 row indices; negative ones count from the end when ``wrap``; the ones out of range
    point at row ``size``, an extra row the caller cuts off."""
    rows = indices.astype(mx.int64)
    if wrap:
        rows = mx.where(rows < 0, rows + size, rows)
    return mx.where((rows >= 0) & (rows < size), rows, size)


def scatter_add(x: Any, indices: Any, updates: Any) -> Any:
    if type(indices) is int:
        indices = mx.array(indices)
    n, rest = x.shape[0], x.shape[1:]
    if isinstance(updates, mx.array):
        updates = updates.astype(x.dtype)
    else:
        updates = mx.array(updates, dtype=x.dtype)
    updates = mx.broadcast_to(updates, (*indices.shape, *rest))
    if not updates.size:  # MLX's scatter refuses empty updates
        return x
    extended = mx.concatenate([x, mx.zeros((1, *rest), x.dtype)])
    return _add_at(extended, _rows(indices, n, wrap=True), updates)[:n]


def _segment_rows(segment_ids: Any, num_segments: Any) -> Any:
    return _rows(segment_ids, num_segments, wrap=False)


def segment_sum(data: Any, segment_ids: Any, num_segments: Any) -> Any:
    rows = _segment_rows(segment_ids, num_segments)
    out = mx.zeros((num_segments + 1, *data.shape[1:]), data.dtype)
    if not data.size:  # MLX's scatter refuses empty updates
        return out[:num_segments]
    return _add_at(out, rows, data)[:num_segments]


@mx.custom_function
def _add_at(base: Any, rows: Any, updates: Any) -> Any:
    """``base.at[rows].add(updates)``, with derivative rules: MLX has no JVP for scatters
    ('[scatter] JVP not yet implemented', MLX 0.32), and the sum is linear in both arrays.
    mx.jvp asks the scatter inside for its own JVP even with a rule: it sees constants."""
    return mx.stop_gradient(base).at[rows].add(mx.stop_gradient(updates))


@_add_at.vjp
def _add_at_vjp(primals: Any, cotangent: Any, output: Any) -> tuple[Any, Any, Any]:
    _, rows, _ = primals
    return cotangent, mx.zeros_like(rows), cotangent[rows]


@_add_at.jvp
def _add_at_jvp(primals: Any, tangents: Any) -> Any:
    base, rows, updates = primals
    d_base, _, d_updates = tangents  # None where MLX does not differentiate an argument
    if d_base is None:
        d_base = mx.zeros_like(base)
    if d_updates is None:
        return d_base
    return _add_at(d_base, rows, d_updates)  # itself: a tangent of any order


def segment_max(data: Any, segment_ids: Any, num_segments: Any) -> Any:
    rows = _segment_rows(segment_ids, num_segments)
    dtype = data.dtype
    lowest = -float("inf") if dtype in _INEXACT else mx.iinfo(dtype).min
    shape = (num_segments + 1, *data.shape[1:])  # the extra row takes the dropped ids
    out = mx.full(shape, lowest, dtype)
    if not data.size:  # MLX's scatter refuses empty updates
        return out[:num_segments]
    out = out.at[rows].maximum(data)[:num_segments]
    if dtype not in _INEXACT:
        return out
    # MLX's scatter loses a NaN among repeated indices: the segments that hold one get NaN.
    nan = mx.zeros(shape, mx.int32).at[rows].add(mx.isnan(data).astype(mx.int32))
    return mx.where(nan[:num_segments] > 0, mx.array(float("nan"), dtype), out)

"""Attention in the nn family: ``scaled_dot_product_attention`` (boolean or additive masks,
causal masking), whose checks run before any kernel.
"""

from __future__ import annotations

import math
import sys
from typing import Any

from ...core.registry import op
from ._helpers import NN, dims, int_shape, optional_dims


def _check_attention(
    query: Any, key: Any, value: Any, attn_mask: Any, is_causal: Any, scale: Any
) -> None:
    """The shapes of :func:`scaled_dot_product_attention`'s arguments must fit."""
    who = "scaled_dot_product_attention"
    q, k, v, mask = dims(query), dims(key), dims(value), optional_dims(attn_mask)
    for name, s in (("query", q), ("key", k), ("value", v)):
        if len(s) < 2:
            raise ValueError(f"{who}: {name} must have at least 2 dimensions, got shape {s}")
    if q[-1] != k[-1]:
        raise ValueError(
            f"{who}: query and key must have the same last axis (embedding size), got {q} and {k}"
        )
    if k[-2] != v[-2]:
        raise ValueError(
            f"{who}: key and value must have the same length (axis -2), got {k} and {v}"
        )
    if mask is not None:
        scores = (q[-2], k[-2])
        tail = mask[-2:] if len(mask) >= 2 else mask
        ok = all(a in (1, b) for a, b in zip(reversed(tail), reversed(scores)))
        if not ok or len(mask) > max(len(q), len(k)):
            raise ValueError(
                f"{who}: attn_mask of shape {mask} does not broadcast to the attention scores "
                f"(..., {q[-2]}, {k[-2]})"
            )


@op(arrays=("query", "key", "value", "attn_mask"), check=_check_attention, **NN)
def scaled_dot_product_attention(
    query: Any,
    key: Any,
    value: Any,
    attn_mask: Any = None,
    is_causal: bool = False,
    scale: float | None = None,
):
    """``softmax(query @ key^T * scale + mask) @ value`` over the last two axes.

    ``scale`` defaults to ``1/sqrt(d)``. ``attn_mask`` is boolean (True: may attend, as in
    PyTorch) or additive floats; ``is_causal`` masks positions after the query's own.

    Examples
    --------
    >>> import ivy_like
    >>> q = ivy_like.array([[1., 0.]])
    >>> kv = ivy_like.array([[1., 0.], [0., 1.]])
    >>> ivy_like.nn.scaled_dot_product_attention(q, kv, kv, is_causal=True)
    ivy_like.array([[1., 0.]])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    d = int(query.shape[-1])  # the head size only: the other sizes may be dynamic
    scores = il.matmul(query, il.matrix_transpose(key)) * (
        (1.0 / math.sqrt(d)) if scale is None else scale
    )
    neg = il.full_like(scores, -math.inf)
    if is_causal:
        lq, lk = int_shape(scores)[-2:]
        # creation gives an Array: made native before tril, so that tril dispatches on a
        # native type (an Array is looked up in the active table, which torch.compile cannot read)
        allowed = il.tril(il.to_native(il.ones((lq, lk)))) > 0
        scores = il.where(allowed, scores, neg)
    if attn_mask is not None:
        if "bool" in str(attn_mask.dtype):
            scores = il.where(attn_mask, scores, neg)
        else:
            scores = scores + attn_mask
    return il.matmul(il.nn.softmax(scores, axis=-1), value)

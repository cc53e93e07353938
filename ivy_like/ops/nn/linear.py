"""The dense layers of the nn family: ``linear`` (PyTorch's ``(out, in)`` weight) and
``embedding`` (rows of a table at integer indices).
"""

from __future__ import annotations

import sys
from typing import Any

from ...core.registry import op
from ._helpers import NN, dims, int_shape, is_int


def _check_linear(x: Any, weight: Any, bias: Any) -> None:
    """The shapes of :func:`linear`'s arguments (weight ``(out, in)``) must fit."""
    x_shape, w_shape = tuple(x.shape), tuple(weight.shape)
    b_shape = None if bias is None else tuple(bias.shape)
    if len(w_shape) != 2:
        raise ValueError(f"linear: weight must be 2-D (out_features, in_features), got {w_shape}")
    if len(x_shape) < 1 or x_shape[-1] != w_shape[1]:
        raise ValueError(
            f"linear: the last axis of x ({x_shape}) must have in_features={w_shape[1]} "
            f"elements (weight is {w_shape})"
        )
    if b_shape is not None and b_shape != (w_shape[0],):
        raise ValueError(f"linear: bias must have shape ({w_shape[0]},), got {b_shape}")


@op(arrays=("x", "weight", "bias"), check=_check_linear, **NN)
def linear(x: Any, weight: Any, bias: Any = None):
    """``x @ weight.T + bias``, with PyTorch's layout: ``weight`` is ``(out, in)``.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([[1., 2.]])
    >>> w = ivy_like.array([[1., 0.], [1., 1.], [0., 2.]])
    >>> ivy_like.nn.linear(x, w, ivy_like.array([0., 0., 1.]))
    ivy_like.array([[1., 3., 5.]])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    y = il.matmul(x, il.matrix_transpose(weight))
    return y if bias is None else y + bias


def _check_embedding(indices: Any, weight: Any) -> None:
    if len(weight.shape) != 2:
        raise ValueError(
            f"embedding: weight must be 2-D (num_embeddings, dim), got shape {dims(weight)}"
        )
    if not is_int(indices):
        raise TypeError(f"embedding: indices must be integers, got dtype {indices.dtype}")


@op(arrays=("indices", "weight"), check=_check_embedding, **NN)
def embedding(indices: Any, weight: Any):
    """Rows of ``weight`` (``(num_embeddings, dim)``) at integer ``indices`` of any shape.

    Examples
    --------
    >>> import ivy_like
    >>> w = ivy_like.array([[0., 0.], [1., 1.], [2., 2.]])
    >>> ivy_like.nn.embedding(ivy_like.array([[2, 0]]), w)
    ivy_like.array([[[2., 2.],
                     [0., 0.]]])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    shape = int_shape(indices)
    rows = il.take(weight, il.reshape(indices, (-1,)), axis=0)
    return il.reshape(rows, (*shape, int_shape(weight)[1]))

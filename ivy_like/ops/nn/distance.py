"""Distances in the nn family: ``cosine_similarity``, PyTorch's numbers and gradient."""

from __future__ import annotations

import sys
from typing import Any

from ...core.registry import op
from ._helpers import NN, dims, int_shape, is_int_value
from .losses import check_number


def _check_cosine(x1: Any, x2: Any, dim: Any, eps: Any) -> None:
    """``x1`` and ``x2`` broadcast, ``dim`` is an axis of the result, ``eps`` a number ``>= 0``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.cosine_similarity(ivy_like.ones((2, 3)), ivy_like.ones((2, 3)), dim=2)
    Traceback (most recent call last):
    ...
    ValueError: cosine_similarity: dim 2 is out of range for inputs with 2 dimensions
    """
    who = "cosine_similarity"
    shape1, shape2 = dims(x1), dims(x2)
    ndim = max(len(shape1), len(shape2))
    padded = [(1,) * (ndim - len(s)) + tuple(s) for s in (shape1, shape2)]
    if any(a != b and 1 not in (a, b) for a, b in zip(*padded)):
        raise ValueError(f"{who}: x1 of shape {shape1} and x2 of shape {shape2} do not broadcast")
    if not is_int_value(dim):
        raise TypeError(f"{who}: dim must be an int, got {dim!r}")
    if not -max(ndim, 1) <= dim < max(ndim, 1):
        raise ValueError(f"{who}: dim {dim} is out of range for inputs with {ndim} dimensions")
    check_number(who, "eps", eps)


@op(arrays=("x1", "x2"), check=_check_cosine, **NN)
def cosine_similarity(x1: Any, x2: Any, dim: int = 1, eps: float = 1e-8):
    """Cosine of the angle between ``x1`` and ``x2`` along ``dim`` (of their broadcast
    shape, which loses that axis): ``sum(x1 / max(|x1|, eps) * x2 / max(|x2|, eps))``, each
    norm clamped at ``eps`` on its own, as in PyTorch (whose gradient also treats the clamp
    as the identity; so does this one).

    Examples
    --------
    >>> import ivy_like
    >>> a = ivy_like.array([[1., 0.], [1., 1.]])
    >>> b = ivy_like.array([[2., 0.], [-1., 0.]])
    >>> ivy_like.nn.cosine_similarity(a, b)
    ivy_like.array([ 1.        , -0.70710677])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    if int_shape(x1) != int_shape(x2):
        x1, x2 = il.broadcast_arrays(x1, x2)

    def unit(x: Any) -> Any:
        norm = il.linalg.vector_norm(x, axis=dim, keepdims=True)
        # the forward value max(norm, eps) with the gradient of norm (torch's clamp_min_
        # under no_grad)
        clamp = il.stop_gradient(il.subtract(il.clip(norm, min=eps), norm))
        return il.divide(x, il.add(norm, clamp))

    return il.sum(il.multiply(unit(x1), unit(x2)), axis=dim)

"""ATen ops -> ivy_like: matrix products (``linear``, ``matmul``, ``addmm``, ``einsum``...).

Registered in the table of :mod:`.registry` by the ``@aten`` decorator.
"""

from __future__ import annotations

from typing import Any

import ivy_like as il

from .registry import _ALL, aten


# -- matrix products -----------------------------------------------------------------------------
@aten("linear.default")
def linear(x: Any, weight: Any, bias: Any = None) -> Any:
    return il.nn.linear(x, weight, bias)


@aten("matmul.default", "mm.default", "bmm.default", promote=_ALL)
def matmul(x: Any, y: Any) -> Any:
    return il.matmul(x, y)


def _scaled_sum(bias: Any, product: Any, beta: Any, alpha: Any) -> Any:
    if alpha != 1:
        product = il.multiply(product, alpha)
    if beta == 0:  # torch ignores bias then, NaN included
        return product
    return il.add(product, bias if beta == 1 else il.multiply(bias, beta))


@aten("addmm.default", "baddbmm.default", promote=(0, 1, 2))
def addmm(bias: Any, x: Any, y: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    return _scaled_sum(bias, il.matmul(x, y), beta, alpha)


def addmm_as_linear(x: Any, weight: Any, bias: Any) -> Any:
    """``x @ weight + bias`` (``weight`` is ``(in, out)``, ``bias`` ``(out,)``) as ivy_like's
    ``linear``, one fused kernel where the backend has one (torch: its ``addmm``, where
    :func:`addmm` makes a product and a sum). The converter calls it for ``addmm`` nodes of
    one float dtype, with ``x`` before the flattening view the node's input came through."""
    return il.nn.linear(x, il.matrix_transpose(weight), bias)


@aten("_trilinear.default", promote=(0, 1, 2))
def trilinear(
    i1: Any,
    i2: Any,
    i3: Any,
    expand1: Any,
    expand2: Any,
    expand3: Any,
    sumdim: Any,
    unroll_dim: int = 1,
) -> Any:
    """What ``torch.nn.Bilinear`` runs: the three inputs with unit axes inserted at
    ``expand*`` (in increasing order), multiplied, summed over ``sumdim``."""

    def grow(t: Any, dims: Any) -> Any:
        for d in sorted(int(i) for i in dims):
            t = il.expand_dims(t, axis=d)
        return t

    product = il.multiply(il.multiply(grow(i1, expand1), grow(i2, expand2)), grow(i3, expand3))
    return il.sum(product, axis=tuple(int(d) for d in sumdim)) if len(sumdim) else product


@aten("_cdist_forward.default")
def cdist(x1: Any, x2: Any, p: float, compute_mode: Any = None) -> Any:
    # the p-norm of every difference; ivy_like's vector_norm gives torch's zero gradient at 0
    diff = il.subtract(il.expand_dims(x1, axis=-2), il.expand_dims(x2, axis=-3))
    return il.linalg.vector_norm(diff, axis=-1, ord=p)


@aten("einsum.default")
def einsum(equation: str, operands: Any, path: Any = None) -> Any:
    return il.einsum(equation, *operands)

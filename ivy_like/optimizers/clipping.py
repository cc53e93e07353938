"""Gradient clipping: ``clip_by_global_norm(max_norm)`` and ``clip_by_value(max_delta)`` return
plain functions ``grads -> grads`` (as ``optax.clip_by_global_norm`` and ``optax.clip``); pass
one as ``clip=`` to any optimizer, which applies it to the gradients before anything else (what
``optax.chain(clip, optimizer)`` does), or call it yourself."""

from __future__ import annotations

from typing import Any

import ivy_like as il

from ._common import Clip, check_positive, dtype_name, map_trees, scale_by, tree_leaves

__all__ = ["clip_by_global_norm", "clip_by_value"]


def clip_by_global_norm(max_norm: float) -> Clip:
    """Scale all gradients by ``max_norm / norm`` when their global norm (the L2 norm of all
    leaves together) is ``max_norm`` or more (``optax.clip_by_global_norm``, torch's
    ``clip_grad_norm_`` without its ``1e-6``). The norm is summed in float32 (float64 if a leaf
    is float64) and is an array op: nothing is read to the host, so it compiles.

    Examples
    --------
    >>> import ivy_like
    >>> clip = ivy_like.optimizers.clip_by_global_norm(1.0)
    >>> clip({"a": ivy_like.array([3.0]), "b": ivy_like.array([-4.0])})   # norm 5
    {'a': ivy_like.array([0.6]), 'b': ivy_like.array([-0.8])}
    """
    max_norm = check_positive(max_norm, "max_norm", "clip_by_global_norm")

    def clip(grads: Any) -> Any:
        leaves = tree_leaves(grads)
        if not leaves:
            return grads
        names = [dtype_name(g) for g in leaves]
        wide = il.float64 if "float64" in names else il.float32
        total = None
        for g, name in zip(leaves, names):
            if name not in ("float32", "float64"):  # half precision: square in float32
                g = il.astype(g, il.float32)
            square = il.astype(il.sum(il.multiply(g, g)), wide)
            total = square if total is None else il.add(total, square)
        norm = il.sqrt(total)
        scale = scale_by(il.where(il.less(norm, max_norm), 1.0, il.divide(max_norm, norm)))
        return map_trees(lambda g, kc: scale(g, g), (grads,))

    return clip


def clip_by_value(max_delta: float) -> Clip:
    """Clip each gradient element to ``[-max_delta, max_delta]`` (``optax.clip``, torch's
    ``clip_grad_value_``).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.optimizers.clip_by_value(0.5)([ivy_like.array([-2.0, 0.1, 3.0])])
    [ivy_like.array([-0.5,  0.1,  0.5])]
    """
    max_delta = check_positive(max_delta, "max_delta", "clip_by_value")
    return lambda grads: map_trees(
        lambda g, kc: il.clip(g, min=-max_delta, max=max_delta), (grads,)
    )

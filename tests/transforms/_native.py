"""Each framework's own autodiff, for tests that must not go through ivy_like.grad."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np


def native_grads(name: str, f: Callable[..., Any], xs: Sequence[Any]) -> list[np.ndarray]:
    """Gradients of the scalar ``f(*xs)`` w.r.t. every native array in ``xs``, as NumPy."""
    if name == "jax":
        import jax

        gs = jax.grad(f, argnums=tuple(range(len(xs))))(*xs)
        return [np.asarray(g) for g in gs]
    if name == "torch":
        import torch

        leaves = [x.detach().clone().requires_grad_(True) for x in xs]
        out = f(*leaves)
        gs = torch.autograd.grad(out, leaves, allow_unused=True)
        return [
            np.zeros(tuple(x.shape), np.float32) if g is None else g.numpy()
            for g, x in zip(gs, leaves)
        ]
    if name == "tensorflow":
        import tensorflow as tf

        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            out = f(*xs)
        gs = tape.gradient(out, list(xs), unconnected_gradients=tf.UnconnectedGradients.ZERO)
        return [g.numpy() for g in gs]
    if name == "mlx":
        import mlx.core as mx

        gs = mx.grad(f, argnums=list(range(len(xs))))(*xs)
        if len(xs) == 1:  # MLX returns a bare array for a single argnum, even in a list
            gs = (gs,)
        return [np.array(g) for g in gs]
    if name == "mxnet":
        import mxnet as mx

        # Copies with their own gradient buffers (the caller's arrays are never marked);
        # NumPy shape semantics on for this thread, so scalar losses are 0-d.
        with mx.util.np_shape(True):
            with mx.autograd.pause():
                leaves = [x.copy() for x in xs]
            for leaf in leaves:
                leaf.attach_grad()  # zeros until backward writes: unconnected leaves give 0
            with mx.autograd.record():
                out = f(*leaves)
            out.backward()
            return [leaf.grad.asnumpy() for leaf in leaves]
    raise AssertionError(f"no native autodiff known for {name}")

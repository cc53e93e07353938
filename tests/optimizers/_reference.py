"""What the optimizer tests share: gradients for a step, flat key-chain views, and optax's own
trajectory from the same starting point, the reference each test compares against."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import ivy_like


def make_grads(rand: Callable[..., np.ndarray]) -> Callable[[Any, int], dict]:
    """``grads_for(params_np, step)``: gradients that depend on the current parameters (so a
    wrong update changes the next gradient) plus fixed noise per step from ``rand``: a
    quadratic bowl with noise."""

    def grads_for(params_np: Any, step: int) -> dict:
        out: dict = {}
        for i, (name, leaves) in enumerate(sorted(params_np.items())):
            out[name] = {}
            for j, (leaf, v) in enumerate(sorted(leaves.items())):
                noise = rand(*v.shape, seed=100 * step + 10 * i + j)
                out[name][leaf] = (0.5 * v + noise).astype(np.float32)
        return out

    return grads_for


def flat(tree: Any) -> dict[str, np.ndarray]:
    c = ivy_like.Container(tree).cont_to_numpy()
    return {kc: np.asarray(v) for kc, v in c.cont_flatten_key_chains().items()}


def optax_history(opt: Any, initial: dict, grads_for: Callable, steps: int) -> list[dict]:
    """The parameters after each of ``steps`` optax updates of ``opt`` from ``initial``."""
    import jax.numpy as jnp
    import optax

    params = {k: {n: jnp.asarray(v) for n, v in d.items()} for k, d in initial.items()}
    state = opt.init(params)
    history = []
    for t in range(steps):
        p_np = {k: {n: np.asarray(v) for n, v in d.items()} for k, d in params.items()}
        g = {k: {n: jnp.asarray(v) for n, v in d.items()} for k, d in grads_for(p_np, t).items()}
        updates, state = opt.update(g, state, params)
        params = optax.apply_updates(params, updates)
        history.append(flat(params))
    return history

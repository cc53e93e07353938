"""Contrastive divergence for a small restricted Boltzmann machine, on every autodiff backend.

The TensorFlow page of ``stop_gradient``: "Contrastive divergence training of Boltzmann
machines where, when differentiating the energy function, the training must not backpropagate
through the graph that generated the samples from the model." CD-k minimises
``mean F(v_data) - mean F(v_model)``, where ``F`` is the free energy and ``v_model`` comes from
``k`` steps of Gibbs sampling started at the data. ``stop_gradient(v_model)`` makes the
gradient the CD update ``<v h>_data - <v h>_model``, which this example checks against the
closed form; without it the gradient also flows through the sampler's mean-field
reconstruction ``p(v | h)`` and differs.

The Gibbs chain's random numbers, the data and the initial weights come from NumPy once, so
every backend samples exactly the same chain. Run
``python examples/rbm_contrastive_divergence.py [backend ...]``.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

import ivy_like as ivl

N_VISIBLE, N_HIDDEN, BATCH, CD_STEPS = 6, 4, 16, 1
LEARNING_RATE = 0.1
STEPS = 10


def make_problem() -> tuple[np.ndarray, dict[str, np.ndarray], np.ndarray]:
    """Binary data from two prototypes with flipped bits, small random weights, uniforms."""
    rng = np.random.default_rng(1)
    prototypes = np.array([[1, 1, 1, 0, 0, 0], [0, 0, 0, 1, 1, 1]], np.float32)
    data = prototypes[rng.integers(0, 2, BATCH)]
    flips = rng.random(data.shape) < 0.1
    data = np.where(flips, 1.0 - data, data).astype(np.float32)
    params = {
        "W": (0.1 * rng.standard_normal((N_VISIBLE, N_HIDDEN))).astype(np.float32),
        "b": np.zeros(N_VISIBLE, np.float32),  # visible bias
        "c": np.zeros(N_HIDDEN, np.float32),  # hidden bias
    }
    uniforms = rng.random((STEPS + 1, CD_STEPS, BATCH, N_HIDDEN)).astype(np.float32)
    return data, params, uniforms


def sigmoid(a: Any) -> Any:
    return 1.0 / (1.0 + ivl.exp(-a))


def free_energy(params: dict[str, Any], v: Any) -> Any:
    """``F(v) = -b.v - sum_j log(1 + exp(c_j + (v W)_j))``, one value per row of ``v``."""
    pre = ivl.matmul(v, params["W"]) + params["c"]
    return -ivl.sum(v * params["b"], axis=1) - ivl.sum(ivl.log(1.0 + ivl.exp(pre)), axis=1)


def gibbs_chain(params: dict[str, Any], v: Any, uniforms: Any) -> Any:
    """``k`` Gibbs steps: sample binary ``h ~ p(h | v)``, reconstruct ``v = p(v | h)``."""
    w_t = ivl.permute_dims(params["W"], (1, 0))
    for u in uniforms:
        p_h = sigmoid(ivl.matmul(v, params["W"]) + params["c"])
        h = ivl.astype(ivl.less(u, p_h), ivl.float32)
        v = sigmoid(ivl.matmul(h, w_t) + params["b"])  # mean-field reconstruction
    return v


def cd_loss(
    params: dict[str, Any], v_data: Any, uniforms: Any, use_stop_gradient: bool = True
) -> Any:
    v_model = gibbs_chain(params, v_data, uniforms)
    if use_stop_gradient:
        v_model = ivl.stop_gradient(v_model)
    return ivl.mean(free_energy(params, v_data)) - ivl.mean(free_energy(params, v_model))


def cd_update_numpy(
    params: dict[str, np.ndarray], v_data: np.ndarray, v_model: np.ndarray
) -> dict[str, np.ndarray]:
    """The textbook CD gradient of ``cd_loss`` (with ``stop_gradient``), in NumPy."""

    def stats(v: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        h = 1.0 / (1.0 + np.exp(-(v @ params["W"] + params["c"])))
        return v.T @ h / len(v), v.mean(0), h.mean(0)

    (vh_d, v_d, h_d), (vh_m, v_m, h_m) = stats(v_data), stats(v_model)
    return {"W": vh_m - vh_d, "b": v_m - v_d, "c": h_m - h_d}


def main(backend: str) -> dict[str, np.ndarray]:
    """Run the example on ``backend``; return every number it produces, as NumPy arrays."""
    data_np, params_np, uniforms_np = make_problem()
    with ivl.use_backend(backend):
        v_data = ivl.asarray(data_np)
        params = {k: ivl.asarray(v) for k, v in params_np.items()}
        uniforms = [[ivl.asarray(u) for u in chain] for chain in uniforms_np]
        loss_grad = ivl.grad(cd_loss)
        g_stop = loss_grad(params, v_data, uniforms[0])
        g_through = loss_grad(params, v_data, uniforms[0], use_stop_gradient=False)
        v_model = ivl.to_numpy(gibbs_chain(params, v_data, uniforms[0]))
        losses = []
        for step in range(STEPS):
            loss, g = ivl.value_and_grad(cd_loss)(params, v_data, uniforms[step + 1])
            params = {k: params[k] - LEARNING_RATE * g[k] for k in params}
            losses.append(float(ivl.to_numpy(loss)))
    out = {f"grad_stop/{k}": ivl.to_numpy(v) for k, v in g_stop.items()}
    out.update({f"grad_no_stop/{k}": ivl.to_numpy(v) for k, v in g_through.items()})
    closed_form = cd_update_numpy(params_np, data_np, v_model)
    out.update({f"cd_closed_form/{k}": v.astype(np.float32) for k, v in closed_form.items()})
    out.update({f"final/{k}": ivl.to_numpy(v) for k, v in params.items()})
    out["loss_trace"] = np.array(losses, np.float32)
    return out


def _print(results: dict[str, dict[str, np.ndarray]]) -> None:
    np.set_printoptions(precision=6, suppress=True)
    for name, out in results.items():
        print(f"== {name}")
        for key, value in out.items():
            print(f"  {key:18s} {np.array2string(value, max_line_width=200)}")
    ref_name = next(iter(results))
    ref = results[ref_name]
    for name, out in results.items():
        worst = max(
            float(np.max(np.abs(out[k] - ref[k])) / max(float(np.max(np.abs(ref[k]))), 1e-30))
            for k in ref
        )
        # The frameworks' float32 kernels differ in the last bits: the size of that noise
        # depends on the CPU, so what is printed is whether it stays below the bound.
        within = "below 1e-4" if worst < 1e-4 else f"{worst:.1e}, ABOVE 1e-4"
        print(f"max difference {name} vs {ref_name}, relative to each quantity's scale: {within}")


if __name__ == "__main__":
    names = sys.argv[1:] or [b for b in ivl.available_backends() if ivl.get_backend(b).has_autodiff]
    _print({name: main(name) for name in names})

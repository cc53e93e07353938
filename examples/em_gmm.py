"""EM for a Gaussian mixture, written once with ivy_like, run on every autodiff backend.

The TensorFlow page of ``stop_gradient``: "The EM algorithm where the M-step should not involve
backpropagation through the output of the E-step." The E-step computes the responsibilities
``r[n, k] = p(k | x_n)`` from the current parameters; the M-step improves the expected
complete-data log-likelihood ``Q(theta) = mean_n sum_k r[n, k] log p(x_n, k | theta)`` with
``r`` held fixed. ``stop_gradient(r)`` is what holds it fixed: then ``grad Q`` equals the
gradient of the log-likelihood itself (Fisher's identity), which this example checks. Without
``stop_gradient`` the gradient also flows into ``r`` and is a different vector.

The data and the initial parameters are generated once with NumPy, so every backend starts
from identical inputs. Run ``python examples/em_gmm.py [backend ...]``.
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np

import ivy_like as ivl

LEARNING_RATE = 0.5
STEPS = 10


def make_problem() -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """100 points from two 1-D Gaussians, and a deliberately poor initial guess."""
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.normal(-2.0, 0.8, 60), rng.normal(1.5, 0.5, 40)]).astype(np.float32)
    params = {
        "mu": np.array([-0.5, 0.5], np.float32),
        "log_sigma": np.zeros(2, np.float32),
        "logit": np.zeros(2, np.float32),  # mixture weights are softmax(logit)
    }
    return x, params


def log_joint(params: dict[str, Any], x: Any) -> Any:
    """``log p(x_n, k) = log pi_k + log N(x_n | mu_k, sigma_k)``, shape (N, K)."""
    z = (ivl.reshape(x, (-1, 1)) - params["mu"]) / ivl.exp(params["log_sigma"])
    log_pi = params["logit"] - ivl.log(ivl.sum(ivl.exp(params["logit"])))
    return log_pi - 0.5 * z * z - params["log_sigma"] - 0.5 * math.log(2 * math.pi)


def responsibilities(params: dict[str, Any], x: Any) -> Any:
    """The E-step: ``p(k | x_n)``, each row summing to one."""
    lj = log_joint(params, x)
    w = ivl.exp(lj - ivl.max(lj, axis=1, keepdims=True))
    return w / ivl.sum(w, axis=1, keepdims=True)


def expected_log_likelihood(params: dict[str, Any], x: Any, use_stop_gradient: bool = True) -> Any:
    """``Q``: the M-step objective, with the E-step's responsibilities held fixed."""
    r = responsibilities(params, x)
    if use_stop_gradient:
        r = ivl.stop_gradient(r)
    return ivl.mean(ivl.sum(r * log_joint(params, x), axis=1))


def log_likelihood(params: dict[str, Any], x: Any) -> Any:
    """``mean_n log sum_k p(x_n, k)`` (a stable log-sum-exp)."""
    lj = log_joint(params, x)
    m = ivl.max(lj, axis=1, keepdims=True)
    return ivl.mean(ivl.log(ivl.sum(ivl.exp(lj - m), axis=1)) + ivl.reshape(m, (-1,)))


def main(backend: str) -> dict[str, np.ndarray]:
    """Run the example on ``backend``; return every number it produces, as NumPy arrays."""
    x_np, params_np = make_problem()
    with ivl.use_backend(backend):
        x = ivl.asarray(x_np)
        params = {k: ivl.asarray(v) for k, v in params_np.items()}
        q_grad = ivl.grad(expected_log_likelihood)
        g_stop = q_grad(params, x)
        g_through = q_grad(params, x, use_stop_gradient=False)
        g_loglik = ivl.grad(log_likelihood)(params, x)
        trace = []
        for _ in range(STEPS):  # generalised EM: one gradient-ascent M-step per E-step
            g = q_grad(params, x)
            params = {k: params[k] + LEARNING_RATE * g[k] for k in params}
            trace.append(log_likelihood(params, x))
    out = {f"grad_Q_stop/{k}": ivl.to_numpy(v) for k, v in g_stop.items()}
    out.update({f"grad_Q_no_stop/{k}": ivl.to_numpy(v) for k, v in g_through.items()})
    out.update({f"grad_loglik/{k}": ivl.to_numpy(v) for k, v in g_loglik.items()})
    out.update({f"final/{k}": ivl.to_numpy(v) for k, v in params.items()})
    out["loglik_trace"] = np.array([float(ivl.to_numpy(v)) for v in trace], np.float32)
    return out


def _print(results: dict[str, dict[str, np.ndarray]]) -> None:
    np.set_printoptions(precision=6, suppress=True)
    for name, out in results.items():
        print(f"== {name}")
        for key, value in out.items():
            print(f"  {key:24s} {np.array2string(value, max_line_width=200)}")
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

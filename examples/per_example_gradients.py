"""Per-example gradients, compiled: ``compile(vmap(grad(loss)))``, written once with ivy_like.

Differentially private training and influence estimates need the gradient of the loss of each
example separately, not of their mean. ``vmap(grad(loss), in_axes=(None, 0, 0))`` maps the
gradient over the examples (the parameters are shared: ``None``), and ``compile`` traces the
whole computation once. The script checks each per-example gradient against the closed form
of a linear model with squared error, ``d/dw (w.x - y)^2 = 2 (w.x - y) x``, and that their
mean is the gradient of the mean loss. Run ``python examples/per_example_gradients.py
[backend ...]``.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

import ivy_like as ivl


def make_problem() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(8, 5)).astype(np.float32)
    y = rng.normal(size=8).astype(np.float32)
    w = rng.normal(size=5).astype(np.float32)
    return w, x, y


def loss(w: Any, x: Any, y: Any) -> Any:
    """Squared error of the linear model on one example."""
    return (ivl.sum(w * x) - y) ** 2


def run(backend: str) -> dict[str, np.ndarray]:
    w_np, x_np, y_np = make_problem()
    with ivl.use_backend(backend):
        w, x, y = ivl.asarray(w_np), ivl.asarray(x_np), ivl.asarray(y_np)
        per_example = ivl.compile(ivl.vmap(ivl.grad(loss), in_axes=(None, 0, 0)))
        grads = per_example(w, x, y)  # one gradient per example, shape (8, 5)
        mean_grad = ivl.grad(lambda w: ivl.mean(ivl.vmap(loss, in_axes=(None, 0, 0))(w, x, y)))(w)
        return {"per_example": grads.to_numpy(), "mean": mean_grad.to_numpy()}


def closed_form() -> np.ndarray:
    w, x, y = (a.astype(np.float64) for a in make_problem())
    return 2 * (x @ w - y)[:, None] * x


def _within(err: float, bound: float = 1e-5) -> str:
    # float32 rounding noise, whose size depends on the CPU: printed against its bound.
    return "below 1e-5" if err < bound else f"{err:.1e}, ABOVE 1e-5"


def main(backends: list[str]) -> None:
    expected = closed_form()
    for name in backends:
        out = run(name)
        err = np.max(np.abs(out["per_example"] - expected))
        mean_err = np.max(np.abs(out["mean"] - out["per_example"].mean(axis=0)))
        print(
            f"== {name}: per-example gradients {out['per_example'].shape}, "
            f"max error vs closed form {_within(err)}, mean vs grad of mean {_within(mean_err)}"
        )


if __name__ == "__main__":
    main(sys.argv[1:] or ["jax", "torch", "tensorflow", "mlx"])

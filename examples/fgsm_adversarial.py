"""Adversarial training with the fast gradient sign method (FGSM), on every autodiff backend.

The TensorFlow page of ``stop_gradient``: "Adversarial training, where no backprop should
happen through the adversarial example generation process." The adversarial example is
``x_adv = x + eps * direction(grad_x loss(params, x, y))``, itself built with ``ivy_like.grad``,
and the training loss is ``(loss(params, x) + loss(params, x_adv)) / 2``. ``stop_gradient``
treats ``x_adv`` as data, so differentiating the training loss is a first-order computation.

Two directions are shown. FGSM's ``sign`` has derivative zero wherever it is defined, so for
it removing ``stop_gradient`` leaves the gradient unchanged (it only saves the second-order
work); the fast gradient method's L2 direction ``g / |g|`` (Goodfellow et al.; Miyato et al.)
depends smoothly on the parameters, and there removing ``stop_gradient`` changes the gradient.
The example prints both, so the difference is visible and checked. (The model is a small MLP:
for a linear model the L2 step is the exact maximiser over the eps-ball, and by Danskin's
theorem the gradient would then not change either.)

Data and initial parameters come from NumPy once, so every backend sees identical inputs. Run
``python examples/fgsm_adversarial.py [backend ...]``.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

import ivy_like as ivl

EPSILON = 0.5
LEARNING_RATE = 0.5
STEPS = 10


def make_problem() -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """Two overlapping 2-D blobs with labels +-1, and a small tanh MLP (2 -> 4 -> 1)."""
    rng = np.random.default_rng(2)
    x = np.concatenate(
        [rng.normal([-1.0, -0.5], 0.7, (20, 2)), rng.normal([1.0, 0.5], 0.7, (20, 2))]
    ).astype(np.float32)
    y = np.concatenate([-np.ones(20), np.ones(20)]).astype(np.float32)
    params = {
        "W1": (0.5 * rng.standard_normal((2, 4))).astype(np.float32),
        "b1": np.zeros(4, np.float32),
        "w2": (0.5 * rng.standard_normal(4)).astype(np.float32),
        "b2": np.array(0.0, np.float32),
    }
    return x, y, params


def loss(params: dict[str, Any], x: Any, y: Any) -> Any:
    """Mean logistic loss ``log(1 + exp(-y * f(x)))`` of the MLP ``f``."""
    hidden = ivl.tanh(ivl.matmul(x, params["W1"]) + params["b1"])
    margin = y * (ivl.matmul(hidden, params["w2"]) + params["b2"])
    return ivl.mean(ivl.log(1.0 + ivl.exp(-margin)))


def adversarial_example(params: dict[str, Any], x: Any, y: Any, direction: str) -> Any:
    """``x + eps * direction(grad_x loss)``: FGSM (``"sign"``) or the L2 fast gradient method."""
    g = ivl.grad(loss, argnums=1)(params, x, y)
    if direction == "sign":
        step = 2.0 * ivl.astype(ivl.greater(g, 0.0), ivl.float32) - 1.0
    else:
        step = g / ivl.sqrt(ivl.sum(g * g, axis=1, keepdims=True) + 1e-12)
    return x + EPSILON * step


def adversarial_loss(
    params: dict[str, Any], x: Any, y: Any, direction: str = "sign", use_stop_gradient: bool = True
) -> Any:
    x_adv = adversarial_example(params, x, y, direction)
    if use_stop_gradient:
        x_adv = ivl.stop_gradient(x_adv)
    return 0.5 * loss(params, x, y) + 0.5 * loss(params, x_adv, y)


def main(backend: str) -> dict[str, np.ndarray]:
    """Run the example on ``backend``; return every number it produces, as NumPy arrays."""
    x_np, y_np, params_np = make_problem()
    out: dict[str, np.ndarray] = {}
    with ivl.use_backend(backend):
        x, y = ivl.asarray(x_np), ivl.asarray(y_np)
        params = {k: ivl.asarray(v) for k, v in params_np.items()}
        train_grad = ivl.grad(adversarial_loss)
        for direction in ("sign", "l2"):
            for stop in (True, False):
                g = train_grad(params, x, y, direction, use_stop_gradient=stop)
                tag = f"{direction}/{'stop' if stop else 'no_stop'}"
                out.update({f"grad_{tag}/{k}": ivl.to_numpy(v) for k, v in g.items()})
        clean, adversarial = [], []
        for _ in range(STEPS):  # FGSM adversarial training
            value, g = ivl.value_and_grad(adversarial_loss)(params, x, y)
            params = {k: params[k] - LEARNING_RATE * g[k] for k in params}
            clean.append(float(ivl.to_numpy(loss(params, x, y))))
            x_adv = adversarial_example(params, x, y, "sign")
            adversarial.append(float(ivl.to_numpy(loss(params, x_adv, y))))
    out.update({f"final/{k}": ivl.to_numpy(v) for k, v in params.items()})
    out["clean_loss_trace"] = np.array(clean, np.float32)
    out["adversarial_loss_trace"] = np.array(adversarial, np.float32)
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

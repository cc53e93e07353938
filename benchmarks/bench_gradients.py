"""Gradient overhead: ``ivy_like.value_and_grad`` against each framework's own idiom.

For ``sum(x * x)`` on a 100-element float32 array, per backend with autodiff:

* native: ``jax.value_and_grad(f)``, ``torch.func.grad_and_value(f)``, a ``tf.GradientTape``,
  ``mx.value_and_grad(f)``, each built once and called on the native array (MLX results
  evaluated with ``mx.eval`` on every call, for both columns);
* ivy_like: ``ivy_like.value_and_grad(f)`` built once, ``f`` written with ``ivy_like.sum``.

And under ``jax.jit``: the compiled ivy_like function against the compiled native one (the
layer runs at trace time only). Medians of interleaved rounds; target ratio <= 1.2.
Run ``python benchmarks/bench_gradients.py [backend ...]``.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402

import ivy_like  # noqa: E402

ROUNDS = 15
TARGET = 1.2


def _per_call(fn: Callable[[], Any], number: int, block: Callable[[Any], Any]) -> float:
    start = time.perf_counter()
    for _ in range(number):
        out = fn()
    block(out)
    return (time.perf_counter() - start) / number


def _compare(
    native: Callable[[], Any],
    ours: Callable[[], Any],
    block: Callable[[Any], Any],
    target_seconds: float = 0.05,
) -> tuple[float, float]:
    """Median seconds per call of (native, ours), rounds interleaved so drift hits both."""
    block(native())
    block(ours())  # warm up (and compile, for jit)
    one = max(_per_call(native, 3, block), 1e-7)
    number = max(1, int(target_seconds / one))
    a, b = [], []
    for _ in range(ROUNDS):
        a.append(_per_call(native, number, block))
        b.append(_per_call(ours, number, block))
    return statistics.median(a), statistics.median(b)


def _cases(name: str) -> list[tuple[str, Callable[[], Any], Callable[[], Any], Any]]:
    x_np = np.linspace(-1.0, 1.0, 100, dtype=np.float32)

    def ours_f(x: Any) -> Any:
        return ivy_like.sum(x * x)

    ours = ivy_like.value_and_grad(ours_f)
    if name == "jax":
        import jax
        import jax.numpy as jnp

        x = jnp.asarray(x_np)
        native = jax.value_and_grad(lambda x: jnp.sum(x * x))
        native_jit, ours_jit = jax.jit(native), jax.jit(ours)

        def block(out: Any) -> Any:
            return jax.block_until_ready(out)

        return [
            ("jax", lambda: native(x), lambda: ours(x), block),
            ("jax, jax.jit", lambda: native_jit(x), lambda: ours_jit(x), block),
        ]
    if name == "torch":
        import torch
        import torch.func

        x = torch.from_numpy(x_np.copy())
        native = torch.func.grad_and_value(lambda x: torch.sum(x * x))
        return [("torch", lambda: native(x), lambda: ours(x), lambda out: out)]
    if name == "tensorflow":
        import tensorflow as tf

        x = tf.constant(x_np)

        def native_tape() -> Any:
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.reduce_sum(x * x)
            return y, tape.gradient(y, x)

        return [("tensorflow", native_tape, lambda: ours(x), lambda out: out)]
    if name == "mlx":
        import mlx.core as mx

        x = mx.array(x_np)
        native = mx.value_and_grad(lambda x: mx.sum(x * x))
        # MLX is lazy: every call's results are evaluated inside the timed loop, else only the
        # graph building would be timed.
        return [("mlx", lambda: mx.eval(native(x)), lambda: mx.eval(ours(x)), lambda out: out)]
    return []


def gradients_benchmark(backends: list[str] | None = None) -> str:
    """Time every case and return the Markdown table (also what ``__main__`` prints)."""
    names = backends or [
        b for b in ivy_like.available_backends() if ivy_like.get_backend(b).has_autodiff
    ]
    rows = [
        "`value_and_grad` of `sum(x * x)`, 100 float32 elements; medians of "
        f"{ROUNDS} interleaved rounds. Target: ratio <= {TARGET}.\n",
        "| backend | native idiom (µs) | ivy_like (µs) | overhead (µs) | ratio |",
        "|---|---:|---:|---:|---:|",
    ]
    for name in names:
        for label, native, ours, block in _cases(name):
            t_native, t_ours = _compare(native, ours, block)
            rows.append(
                f"| {label} | {t_native * 1e6:.1f} | {t_ours * 1e6:.1f} | "
                f"{(t_ours - t_native) * 1e6:+.1f} | {t_ours / t_native:.2f} |"
            )
    return "\n".join(rows)


if __name__ == "__main__":
    print(gradients_benchmark(sys.argv[1:] or None))

"""Function transforms: ``ivy_like.compile`` and ``vmap(grad(...))`` against the native idiom.

Two cases per autodiff backend, each written once with ivy_like ops on a Container of
parameters and once with the framework's own ops on its own tree (a dict), the same math:

* compiled loss and gradient: an MLP 64-128-10 (ReLU: ``ivy_like.nn.relu`` against each
  framework's own, ``jax.nn.relu``, ``torch.relu``, ``tf.nn.relu``, ``mlx.nn.relu``), batch 64,
  mean squared error;
  ``ivy_like.compile(ivy_like.value_and_grad(loss))`` against ``jax.jit(jax.value_and_grad)``,
  ``torch.compile(torch.func.grad_and_value)``, ``tf.function`` of a ``GradientTape`` step and
  ``mx.compile(mx.value_and_grad)``;
* per-example gradients, eager: ``ivy_like.vmap(ivy_like.grad(loss), in_axes=(None, 0, 0))``
  over the 64 examples against ``jax.vmap(jax.grad)``, ``torch.func.vmap(torch.func.grad)``,
  ``mx.vmap(mx.grad)`` and TensorFlow's ``vectorized_map`` over a tape.

Every timed call finishes its work (``block_until_ready`` on JAX, ``mx.eval`` on MLX; torch and
TensorFlow are eager or return computed tensors). Timing: a warm-up (which compiles), then
``ROUNDS`` interleaved rounds in a shuffled order, each timing a run of calls per column (the
number of calls calibrated so a run takes about ``RUN_SECONDS``). Reported: per-call medians and
the median of the per-round ratios ivy_like / native. Torch runs on one thread.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402

import ivy_like as il  # noqa: E402

SIZES = (64, 128, 10)
BATCH = 64
ROUNDS = 15
RUN_SECONDS = 0.15


def _data() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    return {
        "w1": (rng.standard_normal(SIZES[:2]) / 8).astype(np.float32),
        "b1": np.zeros(SIZES[1], np.float32),
        "w2": (rng.standard_normal(SIZES[1:]) / 11).astype(np.float32),
        "b2": np.zeros(SIZES[2], np.float32),
        "x": rng.standard_normal((BATCH, SIZES[0])).astype(np.float32),
        "t": rng.standard_normal((BATCH, SIZES[2])).astype(np.float32),
    }


def ivy_loss(p: Any, x: Any, t: Any) -> Any:
    h = il.nn.relu(il.matmul(x, p["w1"]) + p["b1"])
    return il.mean((il.matmul(h, p["w2"]) + p["b2"] - t) ** 2)


def _native_loss(name: str) -> Callable[..., Any]:
    if name == "jax":
        import jax
        import jax.numpy as xp

        relu = jax.nn.relu
    elif name == "torch":
        import torch as xp

        relu = xp.relu
    elif name == "tensorflow":
        import tensorflow as tf

        relu = tf.nn.relu
        return lambda p, x, t: tf.reduce_mean(
            (relu(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"] - t) ** 2
        )
    else:
        import mlx.core as xp
        import mlx.nn

        relu = mlx.nn.relu
    return lambda p, x, t: xp.mean((relu(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"] - t) ** 2)


def _finisher(name: str) -> Callable[[Any], Any]:
    if name == "jax":
        import jax

        return jax.block_until_ready
    if name == "mlx":
        import mlx.core as mx

        def finish(out: Any) -> Any:
            mx.eval(out if not isinstance(out, il.Container) else list(out.values()))
            return out

        return finish
    return lambda out: out


def _compiled_pair(
    name: str, d: dict[str, np.ndarray]
) -> tuple[Callable[[], Any], Callable[[], Any]]:
    b = il.get_backend(name)
    native_p = {k: b.asarray(d[k]) for k in ("w1", "b1", "w2", "b2")}
    x, t = b.asarray(d["x"]), b.asarray(d["t"])
    loss = _native_loss(name)
    if name == "jax":
        import jax

        native = jax.jit(jax.value_and_grad(loss))
    elif name == "torch":
        import torch

        native = torch.compile(torch.func.grad_and_value(loss))
    elif name == "tensorflow":
        import tensorflow as tf

        def step(p: Any, x: Any, t: Any) -> Any:
            with tf.GradientTape() as tape:
                tape.watch(p)
                value = loss(p, x, t)
            return value, tape.gradient(value, p)

        native = tf.function(step)
    else:
        import mlx.core as mx

        native = mx.compile(mx.value_and_grad(loss))
    ivy = il.compile(il.value_and_grad(ivy_loss))
    params = il.Container(native_p)
    finish = _finisher(name)
    if name == "mlx":
        import mlx.core as mx

        def run_native() -> Any:
            value, grads = native(native_p, x, t)
            mx.eval(value, grads)

        def run_ivy() -> Any:
            value, grads = ivy(params, x, t)
            mx.eval(value, list(grads.values()))

        return run_native, run_ivy
    return (lambda: finish(native(native_p, x, t))), (lambda: finish(ivy(params, x, t)))


def _per_example_pair(
    name: str, d: dict[str, np.ndarray]
) -> tuple[Callable[[], Any], Callable[[], Any]]:
    b = il.get_backend(name)
    native_p = {k: b.asarray(d[k]) for k in ("w1", "b1", "w2", "b2")}
    x, t = b.asarray(d["x"]), b.asarray(d["t"])
    loss = _native_loss(name)
    ivy = il.vmap(il.grad(ivy_loss), in_axes=(None, 0, 0))
    params = il.Container(native_p)
    finish = _finisher(name)
    if name == "jax":
        import jax

        native = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))
        return (lambda: finish(native(native_p, x, t))), (lambda: finish(ivy(params, x, t)))
    if name == "torch":
        import torch

        native = torch.func.vmap(torch.func.grad(loss), in_dims=(None, 0, 0))
        return (lambda: native(native_p, x, t)), (lambda: ivy(params, x, t))
    if name == "tensorflow":
        import tensorflow as tf

        def one(args: Any) -> Any:
            xi, ti = args
            with tf.GradientTape() as tape:
                tape.watch(native_p)
                value = loss(native_p, xi[None], ti[None])  # TF matmul wants rank 2
            return tape.gradient(value, native_p)

        return (lambda: tf.vectorized_map(one, (x, t))), (lambda: ivy(params, x, t))
    import mlx.core as mx

    native = mx.vmap(mx.grad(loss), in_axes=(None, 0, 0))

    def run_native() -> Any:
        mx.eval(native(native_p, x, t))

    def run_ivy() -> Any:
        mx.eval(list(ivy(params, x, t).values()))

    return run_native, run_ivy


def _time(native: Callable[[], Any], ivy: Callable[[], Any]) -> tuple[float, float, float]:
    for _ in range(3):
        native(), ivy()
    counts = []
    for f in (native, ivy):
        n, start = 1, time.perf_counter()
        f()
        once = max(time.perf_counter() - start, 1e-6)
        n = max(1, int(RUN_SECONDS / once))
        counts.append(n)
    samples: dict[int, list[float]] = {0: [], 1: []}
    ratios = []
    for _ in range(ROUNDS):
        order = [0, 1]
        random.shuffle(order)
        per = {}
        for i in order:
            f, n = (native, ivy)[i], counts[i]
            start = time.perf_counter()
            for _ in range(n):
                f()
            per[i] = (time.perf_counter() - start) / n
            samples[i].append(per[i])
        ratios.append(per[1] / per[0])
    return (
        statistics.median(samples[0]) * 1e6,
        statistics.median(samples[1]) * 1e6,
        statistics.median(ratios),
    )


def transforms_benchmark(backends: list[str] | None = None) -> str:
    names = [
        n
        for n in (backends or ["jax", "torch", "tensorflow", "mlx"])
        if n in il.available_backends()
    ]
    d = _data()
    rows = [
        "MLP 64-128-10, batch 64, mean squared error; ivy_like ops on a Container of parameters "
        "against the framework's own ops on a dict, the same math. Per-call medians over "
        f"{ROUNDS} interleaved rounds; ratio: the median of the per-round ratios (see "
        "`benchmarks/bench_transforms.py`). Each row's target is in its last column.\n",
        "| backend | case | native idiom | native µs | ivy_like µs | ratio | target |",
        "|---|---|---|---:|---:|---:|:---:|",
    ]
    idioms = {
        ("jax", 0): "`jax.jit(jax.value_and_grad)`",
        ("torch", 0): "`torch.compile(torch.func.grad_and_value)`",
        ("tensorflow", 0): "`tf.function` of a tape step",
        ("mlx", 0): "`mx.compile(mx.value_and_grad)`",
        ("jax", 1): "`jax.vmap(jax.grad)`",
        ("torch", 1): "`torch.func.vmap(torch.func.grad)`",
        ("tensorflow", 1): "`tf.vectorized_map` over a tape",
        ("mlx", 1): "`mx.vmap(mx.grad)`",
    }
    for name in names:
        threads = None
        if name == "torch":
            import torch

            threads = torch.get_num_threads()
            torch.set_num_threads(1)
        try:
            for case, (label, make, target) in enumerate(
                [
                    ("compiled loss + grad", _compiled_pair, 1.05),
                    ("vmap(grad), 64 examples", _per_example_pair, 1.10),
                ]
            ):
                native, ivy = make(name, d)
                n_us, i_us, ratio = _time(native, ivy)
                ok = "yes" if ratio <= target else "no"
                rows.append(
                    f"| {name} | {label} | {idioms[(name, case)]} | {n_us:.1f} | {i_us:.1f} | "
                    f"{ratio:.2f} | ≤{target:.2f} {ok} |"
                )
        finally:
            if threads is not None:
                torch.set_num_threads(threads)
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(transforms_benchmark(sys.argv[1:] or None))

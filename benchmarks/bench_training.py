"""Whole program: one training step, ivy_like against each framework's own idiom.

The model is an MLP 64-128-128-10 with ReLU, trained on one batch of 64 float32 inputs with
integer labels (the same batch at every step, so no data loading is timed), softmax
cross-entropy and Adam (lr 1e-3). For each autodiff backend, two columns run side by side in
one process:

* native: the code the framework's own users write --
  torch: eager ``nn.Sequential``, ``opt.zero_grad(); loss.backward(); opt.step()`` with
  ``torch.optim.Adam``;
  jax: ``jax.jit`` of a step of ``jax.value_and_grad`` plus ``optax.adam``;
  tensorflow: eager ``keras.Sequential`` under a ``tf.GradientTape`` and
  ``keras.optimizers.Adam.apply_gradients``;
  mlx: eager ``mlx.nn.Sequential``, ``nn.value_and_grad`` and ``mlx.optimizers.Adam``
  (``bias_correction=True``, to do optax's and torch's arithmetic);
* ivy_like: the step exactly as ``docs/nn.md`` writes it: ``nn.MLP``,
  ``ivy_like.value_and_grad`` of ``nn.cross_entropy`` and ``optimizers.adam``, wrapped in
  ``jax.jit`` on JAX (eager if that fails, and the table says so) and eager elsewhere.

Torch runs on one thread for both columns (``torch.set_num_threads(1)``, restored afterwards);
the other frameworks use their default threading. On MLX both columns ``mx.eval`` the
parameters and the optimizer state after every step; on JAX each timed run of steps ends with
``jax.block_until_ready``. Initial weights differ between the columns; shapes and dtypes do not.

Timing: a warm-up (which also compiles), then ``ROUNDS`` interleaved rounds in a shuffled order,
each round timing a run of steps of each column (the number of steps is calibrated per column so
that a run takes about ``RUN_SECONDS``). Reported: per-step medians over the rounds, and the
median of the per-round ratios ivy_like / native.

Only ivy_like's public API is used, so this file also runs against older checkouts:
``PYTHONPATH=/path/to/checkout python benchmarks/bench_training.py [backend ...]``.
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
os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import numpy as np  # noqa: E402

import ivy_like  # noqa: E402
from ivy_like import nn, optimizers  # noqa: E402

SIZES = [64, 128, 128, 10]
BATCH = 64
LR = 1e-3
ROUNDS = 21
RUN_SECONDS = 0.2
WARMUP_STEPS = 5

# A column: ``run(n)`` performs ``n`` training steps, returns once they are finished and gives
# back the last loss (a native scalar; unevaluated on MLX).
Run = Callable[[int], Any]


def _data(
    label_dtype: Any, sizes: list[int] = SIZES, batch: int = BATCH
) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((batch, sizes[0])).astype(np.float32)
    y = rng.integers(0, sizes[-1], batch).astype(label_dtype)
    return x, y


def _numpy_init(seed: int = 0, sizes: list[int] = SIZES) -> list[tuple[np.ndarray, np.ndarray]]:
    """PyTorch-style uniform(+-1/sqrt(fan_in)) weights ``(in, out)`` and biases, float32."""
    rng = np.random.default_rng(seed)
    layers = []
    for a, b in zip(sizes, sizes[1:]):
        bound = 1.0 / np.sqrt(a)
        w = rng.uniform(-bound, bound, (a, b)).astype(np.float32)
        layers.append((w, rng.uniform(-bound, bound, b).astype(np.float32)))
    return layers


# --------------------------------------------------------------------------------- ivy_like


def _ivy_like_column(
    backend: Any, x_np: np.ndarray, y_np: np.ndarray, jit: bool, finish: Callable[[Any, Any], Any]
) -> tuple[Run, str]:
    """The training step of docs/nn.md; returns ``run(n)`` and its mode (jit or eager)."""
    model = nn.MLP(SIZES, seed=0)
    opt = optimizers.adam(LR)

    def loss_fn(params: Any, x: Any, y: Any) -> Any:
        return nn.cross_entropy(model.apply(params, x), y)

    def step(params: Any, state: Any, x: Any, y: Any) -> Any:
        loss, grads = ivy_like.value_and_grad(loss_fn)(params, x, y)
        params, state = opt.update(params, grads, state)
        return params, state, loss

    x, y = backend.asarray(x_np), backend.asarray(y_np)
    carry = [model.params, opt.init(model.params)]
    mode = "eager"
    if jit:
        import jax

        jitted = jax.jit(step)
        try:
            out = jitted(carry[0], carry[1], x, y)
            jax.block_until_ready(out)
            carry[:] = out[:2]
            step = jitted
            mode = "jax.jit"
        except Exception as err:  # noqa: BLE001 -- reported in the table instead
            mode = f"eager (jax.jit failed: {type(err).__name__})"

    def run(n: int) -> Any:
        params, state = carry
        loss = None
        for _ in range(n):
            params, state, loss = step(params, state, x, y)
            finish(params, state)
        carry[:] = [params, state]
        if jit:
            import jax

            jax.block_until_ready((params, state, loss))
        return loss

    return run, mode


# ---------------------------------------------------------------------------------- natives


def _torch_native(x_np: np.ndarray, y_np: np.ndarray) -> Run:
    import torch
    from torch import nn as tnn

    torch.manual_seed(0)
    layers: list[Any] = []
    for i, (a, b) in enumerate(zip(SIZES, SIZES[1:])):
        layers.append(tnn.Linear(a, b))
        if i < len(SIZES) - 2:
            layers.append(tnn.ReLU())
    model = tnn.Sequential(*layers)
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    loss_fn = tnn.CrossEntropyLoss()
    x, y = torch.from_numpy(x_np.copy()), torch.from_numpy(y_np.copy())

    def run(n: int) -> Any:
        loss = None
        for _ in range(n):
            opt.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
        return loss

    return run


def _jax_native(x_np: np.ndarray, y_np: np.ndarray) -> Run:
    import jax
    import jax.numpy as jnp
    import optax

    params = [{"w": jnp.asarray(w), "b": jnp.asarray(b)} for w, b in _numpy_init()]
    opt = optax.adam(LR)

    def forward(params: Any, x: Any) -> Any:
        for layer in params[:-1]:
            x = jax.nn.relu(x @ layer["w"] + layer["b"])
        return x @ params[-1]["w"] + params[-1]["b"]

    def loss_fn(params: Any, x: Any, y: Any) -> Any:
        return optax.softmax_cross_entropy_with_integer_labels(forward(params, x), y).mean()

    @jax.jit
    def step(params: Any, opt_state: Any, x: Any, y: Any) -> Any:
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    x, y = jnp.asarray(x_np), jnp.asarray(y_np)
    carry = [params, opt.init(params)]

    def run(n: int) -> Any:
        params, opt_state = carry
        loss = None
        for _ in range(n):
            params, opt_state, loss = step(params, opt_state, x, y)
        carry[:] = [params, opt_state]
        jax.block_until_ready((params, opt_state, loss))
        return loss

    return run


def _tensorflow_native(x_np: np.ndarray, y_np: np.ndarray) -> Run:
    import keras
    import tensorflow as tf

    if keras.backend.backend() != "tensorflow":
        raise RuntimeError(f"Keras runs on {keras.backend.backend()!r}, not tensorflow")
    keras.utils.set_random_seed(0)
    model = keras.Sequential(
        [keras.Input((SIZES[0],))]
        + [keras.layers.Dense(n, activation="relu") for n in SIZES[1:-1]]
        + [keras.layers.Dense(SIZES[-1])]
    )
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    opt = keras.optimizers.Adam(learning_rate=LR)
    x, y = tf.constant(x_np), tf.constant(y_np)

    def run(n: int) -> Any:
        loss = None
        for _ in range(n):
            with tf.GradientTape() as tape:
                loss = loss_fn(y, model(x, training=True))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    return run


def _mlx_native(x_np: np.ndarray, y_np: np.ndarray) -> Run:
    import mlx.core as mx
    import mlx.nn as mnn
    import mlx.optimizers as optim

    mx.random.seed(0)
    layers: list[Any] = []
    for i, (a, b) in enumerate(zip(SIZES, SIZES[1:])):
        layers.append(mnn.Linear(a, b))
        if i < len(SIZES) - 2:
            layers.append(mnn.ReLU())
    model = mnn.Sequential(*layers)
    mx.eval(model.parameters())
    opt = optim.Adam(learning_rate=LR, bias_correction=True)

    def loss_fn(model: Any, x: Any, y: Any) -> Any:
        return mnn.losses.cross_entropy(model(x), y, reduction="mean")

    loss_and_grad = mnn.value_and_grad(model, loss_fn)
    x, y = mx.array(x_np), mx.array(y_np)

    def run(n: int) -> Any:
        loss = None
        for _ in range(n):
            loss, grads = loss_and_grad(model, x, y)
            opt.update(model, grads)
            mx.eval(model.parameters(), opt.state)
        return loss

    return run


# backend -> (builder of the native column, its description, the label dtype of both columns);
# torch's cross-entropy wants int64 labels, JAX without x64 has int32 only.
_NATIVE: dict[str, tuple[Callable[[np.ndarray, np.ndarray], Run], str, Any]] = {
    "torch": (
        _torch_native,
        "eager `nn.Sequential`, `loss.backward()`, `torch.optim.Adam`",
        np.int64,
    ),
    "jax": (
        _jax_native,
        "`jax.jit` of `jax.value_and_grad` + `optax.adam` step",
        np.int32,
    ),
    "tensorflow": (
        _tensorflow_native,
        "eager `keras.Sequential` in `tf.GradientTape`, `keras.optimizers.Adam`",
        np.int32,
    ),
    "mlx": (
        _mlx_native,
        "eager `mlx.nn.Sequential`, `nn.value_and_grad`, `mlx.optimizers.Adam`",
        np.int32,
    ),
}


# ----------------------------------------------------------------------------------- timing


def _seconds(run: Run, n: int) -> float:
    start = time.perf_counter()
    run(n)
    return time.perf_counter() - start


def _compare(native: Run, ours: Run) -> tuple[float, float, float]:
    """Per-step median seconds of (native, ours) and the median per-round ratio."""
    native(WARMUP_STEPS)
    ours(WARMUP_STEPS)
    counts = []
    for run in (native, ours):
        per_step = max(_seconds(run, 3) / 3, 1e-6)
        counts.append(max(3, round(RUN_SECONDS / per_step)))
    columns = list(zip((native, ours), counts))
    times: list[list[float]] = [[], []]
    order = random.Random(0)
    for _ in range(ROUNDS):
        idx = [0, 1]
        order.shuffle(idx)
        for i in idx:
            run, n = columns[i]
            times[i].append(_seconds(run, n) / n)
    ratios = [b / a for a, b in zip(*times)]
    return statistics.median(times[0]), statistics.median(times[1]), statistics.median(ratios)


def _measure(name: str) -> str:
    if name not in _NATIVE:
        return f"| {name} | (no native idiom in this benchmark) | | | |"
    build, idiom, label_dtype = _NATIVE[name]
    try:
        backend = ivy_like.get_backend(name)
    except Exception as err:  # noqa: BLE001
        return f"| {name} | skipped: {type(err).__name__}: {err} | | | |"
    x_np, y_np = _data(label_dtype)
    threads = None
    if name == "torch":
        import torch

        threads = torch.get_num_threads()
        torch.set_num_threads(1)
    finish: Callable[[Any, Any], Any] = lambda params, state: None  # noqa: E731
    if name == "mlx":
        import mlx.core as mx

        def finish(params: Any, state: Any) -> Any:
            mx.eval(params, state)  # parameters and optimizer state, as in the native column

    try:
        with ivy_like.use_backend(name):
            try:
                native = build(x_np, y_np)
            except Exception as err:  # noqa: BLE001
                return f"| {name} | skipped: {type(err).__name__}: {err} | | | |"
            ours, mode = _ivy_like_column(backend, x_np, y_np, name == "jax", finish)
            t_native, t_ours, ratio = _compare(native, ours)
    finally:
        if threads is not None:
            import torch

            torch.set_num_threads(threads)
    label = {"torch": "torch (eager, 1 thread)", "jax": f"jax (ivy_like: {mode})"}
    label = label.get(name, f"{name} (eager)")
    return f"| {label} | {idiom} | {t_native * 1e6:,.0f} | {t_ours * 1e6:,.0f} | {ratio:.2f} |"


def training_benchmark(backends: list[str] | None = None) -> str:
    """Time one training step per backend and return the Markdown table with its preamble."""
    names = backends or [
        b
        for b in ivy_like.available_backends()
        if ivy_like.get_backend(b).has_autodiff and b in _NATIVE
    ]
    rows = [
        f"One Adam (lr {LR:g}) training step of an MLP {'-'.join(map(str, SIZES))} (ReLU) on a "
        f"batch of {BATCH} float32 inputs with integer labels and softmax cross-entropy: the "
        "framework's own idiom against the ivy_like step written as in `docs/nn.md` "
        "(`nn.MLP`, `ivy_like.value_and_grad`, `optimizers.adam`). Torch runs on 1 thread "
        "in both columns; on MLX both columns `mx.eval` the parameters and optimizer state "
        "after every step; on JAX both steps are compiled with `jax.jit`, unless the row says "
        "otherwise. Warm-up, then "
        f"{ROUNDS} interleaved rounds in a shuffled order, each timing about "
        f"{RUN_SECONDS * 1000:.0f} ms of steps per column; µs are per-step medians over the "
        "rounds and the ratio is the median of the per-round ratios ivy_like / native.\n",
        "| backend | native idiom | native µs/step | ivy_like µs/step | ratio |",
        "|---|---|---:|---:|---:|",
    ]
    for name in names:
        rows.append(_measure(name))
    return "\n".join(rows)


if __name__ == "__main__":
    print(f"ivy_like {getattr(ivy_like, '__version__', '?')} from {ivy_like.__file__}")
    print(training_benchmark(sys.argv[1:] or None))

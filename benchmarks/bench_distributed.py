"""Distributed step: the ivy_like data-parallel step against each framework's own idiom.

The model is an MLP 256-512-512-10 with ReLU, trained data-parallel on 2 shards with one global
batch of 256 float32 inputs and integer labels (the same batch at every step, so no data
loading is timed; each shard gets 128 rows), softmax cross-entropy (the mean) and Adam
(lr 1e-3). Every engine runs in its own subprocess, both columns side by side in it:

* jax and tensorflow: one process with 2 devices (``XLA_FLAGS=--xla_force_host_platform_
  device_count=2`` before JAX starts; 2 logical CPU devices from
  ``tf.config.set_logical_device_configuration`` before TensorFlow starts);
* torch and mlx: 2 processes started by ``python -m ivy_like launch -n 2`` (gloo on CPU; MLX's
  ring backend), one shard each; torch runs on 1 thread per process (2 processes, 2 cores).

The columns:

* native: the code the framework's own users write for data parallelism --
  jax: ``jax.jit`` of a ``jax.value_and_grad`` + ``optax.adam`` step, the parameters
  replicated and the batch ``device_put`` with ``NamedSharding(mesh, P("data"))`` (XLA inserts
  the all-reduces);
  torch: ``DistributedDataParallel`` of an ``nn.Sequential``, ``torch.optim.Adam``,
  ``zero_grad / backward / step``, plus an ``all_reduce`` of the loss (the global mean loss,
  which the ivy_like step returns);
  tensorflow: a Keras model and ``keras.optimizers.Adam`` made under
  ``MirroredStrategy.scope()``, a ``tf.function`` calling ``strategy.run(step_fn, ...)`` on
  the per-replica batch (``tf.nn.compute_average_loss``, ``optimizer.apply_gradients``, which
  all-reduces the gradients) and ``strategy.reduce`` of the loss;
  mlx: ``mlx.nn`` MLP, ``nn.value_and_grad``, ``mx.distributed.all_sum`` of every gradient
  (and of the loss) divided by 2, ``mlx.optimizers.Adam(bias_correction=True)``;
* ivy_like: ``nn.MLP``, ``ivy_like.value_and_grad`` of ``nn.cross_entropy``,
  ``optimizers.adam``, run by ``dist.data_parallel(step, dist.Mesh())`` with the parameters
  and optimizer state ``dist.shard``-ed ``P()`` and the batch ``P("data")``. On JAX and
  TensorFlow the engine compiles it (``jit`` of ``shard_map``; ``tf.function`` of
  ``strategy.run``); on torch and MLX it runs eagerly, as DDP and the MLX idiom do. An extra
  row on torch and MLX times the same step with ``ivy_like.compile`` around the per-shard
  step (``torch.compile``, ``mx.compile``) against the same native column.

On MLX both columns ``mx.eval`` the parameters, the optimizer state and the loss after every
step; on JAX both columns wait for the previous step's loss after dispatching a step (at most 2
steps in flight: see ``_bounded``). Each timed run of steps ends by reading the last loss as
a Python float (which waits for the step on every engine). Initial weights differ between the
columns; shapes and dtypes do not.

Communicated bytes per step are measured, per shard (the size of what each shard contributes
to the collectives of one step): ivy_like's by wrapping the mesh's collective hooks
(``mesh.hooks.all_sum`` / ``all_gather``) before the step is built and counting the bytes of
every array passed per call of the step function (on JAX and TensorFlow, and under
``ivy_like.compile``, the hooks run at trace time, once per trace of the per-shard step); JAX's
native from the compiled HLO (the result sizes of its all-reduce / all-gather / reduce-scatter
ops); DDP's with a comm hook wrapping the
default allreduce hook (bucket bytes), plus the loss; TensorFlow's by wrapping the strategy's
``_replica_ctx_all_reduce`` / ``batch_reduce_to`` / ``reduce_to`` at trace time; MLX's by
counting what the idiom passes to ``mx.distributed.all_sum``.

Timing: a warm-up (which also compiles), then ``ROUNDS`` interleaved rounds in a shuffled order
(seeded, so every process of a launch runs the same sequence: the collectives synchronize
them), each round timing a run of steps of each column (the number of steps calibrated per
column so that a run takes about ``RUN_SECONDS``; on several processes the largest count of
any process is used). Reported: per-step medians over the rounds of rank 0, and the median of
the per-round ratios ivy_like / native.

``python benchmarks/bench_distributed.py [engine ...]``; a worker is
``python benchmarks/bench_distributed.py --worker ENGINE`` (under the launcher for torch and
mlx), which prints one JSON line.
"""

from __future__ import annotations

import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import bench_training as _training  # noqa: E402 - the same data and initial weights
import numpy as np  # noqa: E402

SIZES = [256, 512, 512, 10]
BATCH = 256
SHARDS = 2
LR = 1e-3
ROUNDS = 15
RUN_SECONDS = 0.3
WARMUP_STEPS = 5
BUDGET = 1.1  # ivy_like / native, per engine
TIMEOUT = 600  # seconds, per engine
ENGINES = ["jax", "torch", "tensorflow", "mlx"]
MULTI_PROCESS = {"torch", "mlx"}

# A column: ``run(n)`` performs ``n`` training steps and returns once they are finished.
Run = Callable[[int], Any]


def _data(label_dtype: Any) -> tuple[np.ndarray, np.ndarray]:
    return _training._data(label_dtype, SIZES, BATCH)


def _numpy_init(seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    return _training._numpy_init(seed, SIZES)


def _nbytes(x: Any) -> int:
    """Bytes of a native array or of a traced one (JAX tracer, symbolic TF tensor)."""
    shape = tuple(int(d) for d in x.shape)
    dtype = x.dtype
    if hasattr(x, "element_size"):  # torch
        itemsize = int(x.element_size())
    elif hasattr(dtype, "as_numpy_dtype"):  # tensorflow
        itemsize = int(dtype.size)
    elif hasattr(dtype, "size") and not isinstance(dtype, np.dtype):  # mlx
        itemsize = int(dtype.size)
    else:
        itemsize = np.dtype(dtype).itemsize
    return int(np.prod(shape, dtype=np.int64)) * itemsize


# --------------------------------------------------------------------------------- ivy_like


class _Count:
    """Bytes passed to the collectives and calls of the per-shard step."""

    def __init__(self) -> None:
        self.bytes = 0
        self.calls = 0

    def per_call(self) -> float:
        return self.bytes / self.calls if self.calls else float("nan")


# The counter of the ivy_like column running now (the mesh's hooks are read at every call,
# so the counting wrappers stay installed and each column points them at its counter).
_COUNTING: list[Any] = [None]


def _count_collectives(hooks: Any) -> None:
    """Wrap the mesh's collective hooks, once, to add the bytes of every array they are given
    to the counter of the column that runs."""
    if getattr(hooks, "counted", False):
        return
    all_sum, all_gather = hooks.all_sum, hooks.all_gather

    def counted_sum(x: Any, *args: Any) -> Any:
        if _COUNTING[0] is not None:
            _COUNTING[0].bytes += _nbytes(x)
        return all_sum(x, *args)

    def counted_gather(x: Any, *args: Any) -> Any:
        if _COUNTING[0] is not None:
            _COUNTING[0].bytes += _nbytes(x)
        return all_gather(x, *args)

    hooks.all_sum, hooks.all_gather, hooks.counted = counted_sum, counted_gather, True


def _ivy_like_column(
    engine: str,
    mesh: Any,
    x_np: np.ndarray,
    y_np: np.ndarray,
    finish: Callable[..., Any],
    compiled: bool = False,
) -> tuple[Run, _Count]:
    import ivy_like
    from ivy_like import distributed as dist
    from ivy_like import nn, optimizers

    count = _Count()
    _count_collectives(mesh.hooks)

    model = nn.MLP(SIZES, seed=0)
    opt = optimizers.adam(LR)

    def step(params: Any, state: Any, batch: Any) -> Any:
        count.calls += 1
        x, y = batch

        def loss_fn(p: Any) -> Any:
            return nn.cross_entropy(model.apply(p, x), y)

        loss, grads = ivy_like.value_and_grad(loss_fn)(params)
        params, state = opt.update(params, grads, state)
        return params, state, loss

    # compiled: the per-shard step compiled by ivy_like.compile (torch.compile, mx.compile)
    train = dist.data_parallel(ivy_like.compile(step) if compiled else step, mesh)
    carry = [
        dist.shard(model.params, mesh, dist.P()),
        dist.shard(opt.init(model.params), mesh, dist.P()),
    ]
    batch = dist.shard((ivy_like.asarray(x_np), ivy_like.asarray(y_np)), mesh, dist.P("data"))

    def run(n: int) -> Any:
        _COUNTING[0] = count  # this column's collectives count into its own counter
        params, state = carry
        loss: Any = None
        for _ in range(n):
            params, state, loss = train(params, state, batch)
            finish(params, state, loss)
        carry[:] = [params, state]
        return float(ivy_like.to_numpy(loss))

    return run, count


# ---------------------------------------------------------------------------------- natives
# Each takes (x, y, the ivy_like mesh) and returns (run, a function giving the bytes per step
# per shard that the idiom passes to its collectives, measured).


def _jax_native(x_np: np.ndarray, y_np: np.ndarray, mesh: Any) -> tuple[Run, Callable[[], float]]:
    import jax
    import jax.numpy as jnp
    import optax
    from jax.sharding import NamedSharding, PartitionSpec

    native_mesh = jax.sharding.Mesh(np.array(jax.devices()[:SHARDS]), ("data",))
    replicated = NamedSharding(native_mesh, PartitionSpec())
    split = NamedSharding(native_mesh, PartitionSpec("data"))
    params = [{"w": jnp.asarray(w), "b": jnp.asarray(b)} for w, b in _numpy_init()]
    opt = optax.adam(LR)
    opt_state = opt.init(params)
    params, opt_state = jax.device_put((params, opt_state), replicated)
    x, y = jax.device_put((jnp.asarray(x_np), jnp.asarray(y_np)), split)

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

    carry = [params, opt_state]

    def run(n: int) -> Any:
        params, opt_state = carry
        loss: Any = None
        for _ in range(n):
            previous = loss
            params, opt_state, loss = step(params, opt_state, x, y)
            _bounded(previous)
        carry[:] = [params, opt_state]
        return float(loss)

    def measured() -> float:
        hlo = step.lower(*carry, x, y).compile().as_text()
        return float(_hlo_collective_bytes(hlo))

    return run, measured


_HLO_OP = re.compile(
    r"=\s*(?P<type>.+?)\s+(?P<op>all-reduce|all-gather|reduce-scatter|all-reduce-start|"
    r"all-gather-start)\("
)
_HLO_SHAPE = re.compile(r"\b(pred|s8|u8|s16|u16|f16|bf16|s32|u32|f32|s64|u64|f64)\[([0-9,]*)\]")
_HLO_BYTES = {"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "bf16": 2,
              "s32": 4, "u32": 4, "f32": 4, "s64": 8, "u64": 8, "f64": 8}  # fmt: skip


def _bounded(previous_loss: Any) -> None:
    """JAX: wait for the step before the one just dispatched, so at most 2 steps are in
    flight. With many steps queued, XLA:CPU's all-reduce between the 2 host devices sometimes
    never completes (one device never joins the rendezvous; the process aborts after 40 s:
    seen in about 1 run in 3 on a busy 2-core machine, always in the native column, whose
    dispatch runs furthest ahead)."""
    if previous_loss is not None:
        import jax

        jax.block_until_ready(previous_loss)


def _hlo_collective_bytes(hlo: str) -> int:
    """The result bytes of every collective of an (SPMD-partitioned: per-device) HLO module."""
    total = 0
    for line in hlo.splitlines():
        m = _HLO_OP.search(line)
        if m is None:
            continue
        for dtype, dims in _HLO_SHAPE.findall(m.group("type")):
            size = int(np.prod([int(d) for d in dims.split(",") if d], dtype=np.int64))
            total += size * _HLO_BYTES[dtype]
    return total


def _torch_native(x_np: np.ndarray, y_np: np.ndarray, mesh: Any) -> tuple[Run, Callable[[], float]]:
    import torch
    import torch.distributed as tdist
    from torch import nn as tnn
    from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
    from torch.nn.parallel import DistributedDataParallel

    rank, world = tdist.get_rank(), tdist.get_world_size()
    torch.manual_seed(0)
    layers: list[Any] = []
    for i, (a, b) in enumerate(zip(SIZES, SIZES[1:])):
        layers.append(tnn.Linear(a, b))
        if i < len(SIZES) - 2:
            layers.append(tnn.ReLU())
    model = DistributedDataParallel(tnn.Sequential(*layers))
    count = _Count()

    def counting_hook(state, bucket):  # type: ignore[no-untyped-def]  # DDP checks annotations
        buffer = bucket.buffer()
        count.bytes += buffer.numel() * buffer.element_size()
        return default_hooks.allreduce_hook(state, bucket)

    model.register_comm_hook(None, counting_hook)
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    loss_fn = tnn.CrossEntropyLoss()
    rows = BATCH // world
    x = torch.from_numpy(x_np[rank * rows : (rank + 1) * rows].copy())
    y = torch.from_numpy(y_np[rank * rows : (rank + 1) * rows].copy())

    def run(n: int) -> Any:
        total: Any = None
        for _ in range(n):
            count.calls += 1
            opt.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
            total = loss.detach().clone()
            count.bytes += total.numel() * total.element_size()
            tdist.all_reduce(total)  # the global mean loss, as the ivy_like step returns
            total /= world
        return float(total)

    def measured() -> float:
        count.bytes = count.calls = 0
        run(1)
        return count.per_call()

    return run, measured


def _tensorflow_native(
    x_np: np.ndarray, y_np: np.ndarray, mesh: Any
) -> tuple[Run, Callable[[], float]]:
    import threading

    import keras
    import tensorflow as tf

    if keras.backend.backend() != "tensorflow":
        raise RuntimeError(f"Keras runs on {keras.backend.backend()!r}, not tensorflow")
    devices = [d.name for d in tf.config.list_logical_devices("CPU")][:SHARDS]
    strategy = tf.distribute.MirroredStrategy(devices)
    n = strategy.num_replicas_in_sync
    count = _Count()
    lock = threading.Lock()
    depth = [0]  # collectives running now: a nested one (merge_call) is not counted again
    ext = strategy.extended

    def counting(method: Callable[..., Any], cross_replica: bool) -> Callable[..., Any]:
        def wrapped(reduce_op: Any, value: Any, *args: Any, **kwargs: Any) -> Any:
            with lock:
                outer = depth[0] == 0
                depth[0] += 1
            try:
                if outer:
                    count.bytes += _tf_bytes(value, cross_replica, n)
                return method(reduce_op, value, *args, **kwargs)
            finally:
                with lock:
                    depth[0] -= 1

        return wrapped

    ext._replica_ctx_all_reduce = counting(ext._replica_ctx_all_reduce, False)
    ext.batch_reduce_to = counting(ext.batch_reduce_to, True)
    ext.reduce_to = counting(ext.reduce_to, True)

    with strategy.scope():
        keras.utils.set_random_seed(0)
        model = keras.Sequential(
            [keras.Input((SIZES[0],))]
            + [keras.layers.Dense(k, activation="relu") for k in SIZES[1:-1]]
            + [keras.layers.Dense(SIZES[-1])]
        )
        opt = keras.optimizers.Adam(learning_rate=LR)
        opt.build(model.trainable_variables)
    rows = BATCH // n

    def block(array: np.ndarray) -> Any:
        return strategy.experimental_distribute_values_from_function(
            lambda ctx: tf.constant(
                array[
                    ctx.replica_id_in_sync_group * rows : (ctx.replica_id_in_sync_group + 1) * rows
                ]
            )
        )

    x, y = block(x_np), block(y_np)

    def step_fn(x: Any, y: Any) -> Any:
        count.calls += 1
        with tf.GradientTape() as tape:
            logits = model(x, training=True)
            per_example = keras.losses.sparse_categorical_crossentropy(y, logits, from_logits=True)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=BATCH)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    @tf.function
    def train(x: Any, y: Any) -> Any:
        losses = strategy.run(step_fn, args=(x, y))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)

    def run(k: int) -> Any:
        loss: Any = None
        for _ in range(k):
            loss = train(x, y)
        return float(loss)

    return run, count.per_call


def _tf_bytes(value: Any, cross_replica: bool, n: int) -> int:
    """Bytes of one replica's part of a reduction's ``value`` (a nest of tensors, PerReplica
    values, or ``(value, destination)`` pairs); a cross-replica call is once for all ``n``
    replicas, so it counts ``n`` times one replica's part (the count is divided by the number
    of per-replica step calls)."""
    import tensorflow as tf

    total = 0
    if cross_replica and isinstance(value, (list, tuple)) and value and isinstance(value[0], tuple):
        items = [v for v, _ in value]  # batch_reduce_to's (value, destination) pairs
    else:
        items = tf.nest.flatten(value, expand_composites=False)
    for item in items:
        parts = getattr(item, "values", None)
        if isinstance(parts, tuple) and parts:
            item = parts[0]  # PerReplica: one replica's component
        for leaf in tf.nest.flatten(item):
            total += _nbytes(leaf)
    return total * (n if cross_replica else 1)


def _mlx_native(x_np: np.ndarray, y_np: np.ndarray, mesh: Any) -> tuple[Run, Callable[[], float]]:
    import mlx.core as mx
    import mlx.nn as mnn
    import mlx.optimizers as optim
    from mlx.utils import tree_map

    group = mesh.native.group  # the world group of this launch (MLX's ring backend)
    rank, world = group.rank(), group.size()
    count = _Count()

    def all_sum(g: Any) -> Any:
        count.bytes += g.nbytes
        return mx.distributed.all_sum(g, group=group)

    mx.random.seed(0)
    layers: list[Any] = []
    for i, (a, b) in enumerate(zip(SIZES, SIZES[1:])):
        layers.append(mnn.Linear(a, b))
        if i < len(SIZES) - 2:
            layers.append(mnn.ReLU())
    model = mnn.Sequential(*layers)
    # the same initial weights on every process (what DDP's broadcast does)
    model.update(tree_map(lambda p: all_sum(p) / world, model.parameters()))
    mx.eval(model.parameters())
    opt = optim.Adam(learning_rate=LR, bias_correction=True)

    def loss_fn(model: Any, x: Any, y: Any) -> Any:
        return mnn.losses.cross_entropy(model(x), y, reduction="mean")

    loss_and_grad = mnn.value_and_grad(model, loss_fn)
    rows = BATCH // world
    x = mx.array(x_np[rank * rows : (rank + 1) * rows])
    y = mx.array(y_np[rank * rows : (rank + 1) * rows])

    def run(n: int) -> Any:
        loss: Any = None
        for _ in range(n):
            count.calls += 1
            loss, grads = loss_and_grad(model, x, y)
            grads = tree_map(lambda g: all_sum(g) / world, grads)
            loss = all_sum(loss) / world
            opt.update(model, grads)
            mx.eval(model.parameters(), opt.state, loss)
        return loss.item()

    def measured() -> float:
        count.bytes = count.calls = 0
        run(1)
        return count.per_call()

    return run, measured


# engine -> (builder, the idiom's description, label dtype, how the native bytes are measured)
_NATIVE: dict[str, tuple[Callable[..., Any], str, Any, str]] = {
    "jax": (
        _jax_native,
        "`jax.jit`, params replicated, batch `NamedSharding(mesh, P('data'))`, optax adam",
        np.int32,
        "compiled HLO",
    ),
    "torch": (
        _torch_native,
        "`DistributedDataParallel` (gloo), `torch.optim.Adam`, + `all_reduce` of the loss",
        np.int64,
        "DDP comm hook + loss",
    ),
    "tensorflow": (
        _tensorflow_native,
        "`tf.function` of `MirroredStrategy.run`, Keras model/Adam in `strategy.scope()`",
        np.int32,
        "strategy reductions at trace",
    ),
    "mlx": (
        _mlx_native,
        "`nn.value_and_grad`, `mx.distributed.all_sum` of grads and loss / n, Adam",
        np.int32,
        "`all_sum` arguments",
    ),
}


# ----------------------------------------------------------------------------------- timing


def _seconds(run: Run, n: int) -> float:
    start = time.perf_counter()
    run(n)
    return time.perf_counter() - start


def _compare(
    native: Run, ours: Run, agree: Callable[[list[int]], list[int]]
) -> tuple[float, float, float]:
    """Per-step median seconds of (native, ours) and the median per-round ratio. ``agree``
    makes the step counts the same on every process (the largest of any)."""
    native(WARMUP_STEPS)
    ours(WARMUP_STEPS)
    counts = []
    for run in (native, ours):
        per_step = max(_seconds(run, 3) / 3, 1e-6)
        counts.append(max(3, round(RUN_SECONDS / per_step)))
    counts = agree(counts)
    columns = list(zip((native, ours), counts))
    times: list[list[float]] = [[], []]
    order = random.Random(0)  # the same order on every process
    for _ in range(ROUNDS):
        idx = [0, 1]
        order.shuffle(idx)
        for i in idx:
            run, n = columns[i]
            times[i].append(_seconds(run, n) / n)
    ratios = [b / a for a, b in zip(*times)]
    return statistics.median(times[0]), statistics.median(times[1]), statistics.median(ratios)


def _agree_fn(engine: str, mesh: Any) -> Callable[[list[int]], list[int]]:
    if engine == "torch":
        import torch
        import torch.distributed as tdist

        def agree(counts: list[int]) -> list[int]:
            t = torch.tensor(counts, dtype=torch.int64)
            tdist.all_reduce(t, op=tdist.ReduceOp.MAX)
            return [int(v) for v in t.tolist()]

        return agree
    if engine == "mlx":
        import mlx.core as mx

        group = mesh.native.group

        def agree_mlx(counts: list[int]) -> list[int]:
            # no max in the ring backend: gather every process's counts
            everyone = mx.distributed.all_gather(mx.array([counts], dtype=mx.int32), group=group)
            return [int(v) for v in np.asarray(everyone).max(axis=0)]

        return agree_mlx
    return lambda counts: counts


def _worker(engine: str) -> None:
    """One engine's measurement; rank 0 prints it as one JSON line."""
    if engine == "tensorflow":
        import tensorflow as tf

        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration()] * SHARDS
        )
    if engine == "torch":
        import torch

        torch.set_num_threads(1)  # 2 processes on 2 cores
    import ivy_like
    from ivy_like import distributed as dist

    ivy_like.set_backend(engine)
    mesh = dist.Mesh({"data": SHARDS})
    build, idiom, label_dtype, how = _NATIVE[engine]
    x_np, y_np = _data(label_dtype)

    finish: Callable[..., Any] = lambda *state: None  # noqa: E731
    if engine == "jax":
        last: list[Any] = [None]

        def finish(params: Any, state: Any, loss: Any) -> None:
            _bounded(last[0])  # as the native column: at most 2 steps in flight
            last[0] = ivy_like.to_native(loss)

    if engine == "mlx":
        import mlx.core as mx

        def finish(params: Any, state: Any, loss: Any) -> None:
            mx.eval(params, state, loss)  # as the native column: every step evaluated

    ours, ours_count = _ivy_like_column(engine, mesh, x_np, y_np, finish)
    native, native_bytes = build(x_np, y_np, mesh)
    t_native, t_ours, ratio = _compare(native, ours, _agree_fn(engine, mesh))
    if engine in MULTI_PROCESS:  # eager: count one step of ours alone
        ours_count.bytes = ours_count.calls = 0
        ours(1)
    compiled: dict[str, Any] | None = None
    if engine in MULTI_PROCESS:
        # extra row: the per-shard step compiled by ivy_like.compile (the same on every
        # process, so a failure is the same on every process and nothing waits)
        try:
            comp, comp_count = _ivy_like_column(engine, mesh, x_np, y_np, finish, compiled=True)
            c_native, c_ours, c_ratio = _compare(native, comp, _agree_fn(engine, mesh))
            compiled = {  # the hooks run when the step is traced: bytes per trace
                "native_ms": c_native * 1e3,
                "ours_ms": c_ours * 1e3,
                "ratio": c_ratio,
                "ours_bytes": comp_count.per_call(),
            }
        except Exception as err:  # noqa: BLE001 -- reported in the table instead
            compiled = {"error": f"{type(err).__name__}: {str(err)[:200]}"}
    result = {
        "engine": engine,
        "shards": mesh.size,
        "idiom": idiom,
        "native_ms": t_native * 1e3,
        "ours_ms": t_ours * 1e3,
        "ratio": ratio,
        "native_bytes": native_bytes(),
        "ours_bytes": ours_count.per_call(),
        "native_how": how,
        "compiled": compiled,
    }
    if mesh.process_index == 0:
        print(json.dumps(result), flush=True)


def _run_engine(engine: str) -> dict[str, Any]:
    script = str(Path(__file__).resolve())
    env = dict(os.environ)
    if engine in MULTI_PROCESS:
        cmd = [sys.executable, "-m", "ivy_like", "launch", "-n", str(SHARDS),
               "--timeout", str(TIMEOUT), script, "--worker", engine]  # fmt: skip
    else:
        cmd = [sys.executable, script, "--worker", engine]
        if engine == "jax":
            flags = env.get("XLA_FLAGS", "")
            env["XLA_FLAGS"] = f"{flags} --xla_force_host_platform_device_count={SHARDS}".strip()
    try:
        done = subprocess.run(
            cmd, env=env, capture_output=True, text=True, timeout=TIMEOUT + 30, check=False
        )
    except subprocess.TimeoutExpired:
        return {"engine": engine, "error": f"timed out after {TIMEOUT + 30} s"}
    for line in reversed(done.stdout.splitlines()):
        if line.startswith("{"):
            return dict(json.loads(line))
    return {"engine": engine, "error": f"exit {done.returncode}: {_reason(done.stderr)}"}


def _reason(stderr: str) -> str:
    """The line of a failed worker's stderr that says why: the last exception or fatal log
    line (not the stack frames a native abort prints after it), else the last line."""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    for line in reversed(lines):
        if re.match(r"(\[rank\d+\]:\s*)?\w+(\.\w+)*(Error|Exception|Interrupt)\b", line) or (
            re.match(r"[FE]\d{4} ", line) or "Check failed" in line
        ):
            return line[:300]
    return lines[-1][:300] if lines else "no output"


def _bytes(v: float) -> str:
    return "?" if v != v else f"{v:,.0f}"


def distributed_benchmark(engines: list[str] | None = None) -> str:
    """Time the data-parallel step per engine (each in a subprocess) and return the Markdown
    table with its preamble."""
    names = [e for e in (engines or ENGINES) if e in _NATIVE]
    rows = [
        f"One data-parallel Adam (lr {LR:g}) step of an MLP {'-'.join(map(str, SIZES))} (ReLU) "
        f"on a global batch of {BATCH} float32 inputs with integer labels and softmax "
        f"cross-entropy, over {SHARDS} shards: the framework's own data-parallel idiom against "
        "`dist.data_parallel` of the ivy_like step (`nn.MLP`, `ivy_like.value_and_grad`, "
        "`optimizers.adam`; compiled by the engine on JAX and TensorFlow, eager on torch and "
        "MLX, as DDP and the MLX idiom are). JAX and TensorFlow run one process with 2 host / "
        "logical CPU devices; torch (gloo, 1 thread per process) and MLX (ring) run 2 "
        "processes started by `python -m ivy_like launch -n 2`. On MLX both columns `mx.eval` "
        "the parameters, optimizer state and loss after every step; on JAX the native column "
        "keeps at most 2 steps in flight and ivy_like's `spmd` starts a step once its "
        "arguments are ready (with more steps queued, XLA:CPU's all-reduce between host "
        "devices can hang on a 2-core machine). On this 2-core machine the "
        "absolute times say nothing about scaling; what matters is the ratio. Warm-up, then "
        f"{ROUNDS} interleaved rounds in a seeded shuffled order (the same on every process), "
        f"each timing about {RUN_SECONDS * 1000:.0f} ms of steps per column; ms are per-step "
        "medians over the rounds (rank 0) and the ratio is the median of the per-round ratios "
        f"ivy_like / native (budget: at most {BUDGET}). Bytes/step are what each shard "
        "contributes to the collectives of one step, measured: ivy_like's by counting the "
        "arrays passed to the mesh's collective hooks; the native ones from JAX's compiled "
        "HLO, a DDP comm hook (plus the loss `all_reduce`), TensorFlow's strategy reductions "
        "(wrapped at trace time) and the arrays passed to `mx.distributed.all_sum`. Both are "
        "the gradients plus the loss (float32). The `ivy_like.compile`d rows (torch, MLX) "
        "wrap the per-shard step in `ivy_like.compile` (`torch.compile`, `mx.compile`) inside "
        "`dist.data_parallel`; their native column is the same idiom, timed again in the same "
        "process.\n",
        "| engine | shards | native idiom | native ms/step | ivy_like ms/step | ratio "
        "| bytes/step native | bytes/step ivy_like |",
        "|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    notes: list[str] = []
    for name in names:
        r = _run_engine(name)
        if "error" in r:
            rows.append(f"| {name} | {SHARDS} | failed: {r['error']} | | | | | |")
            continue
        rows.append(
            f"| {name} | {r['shards']} | {r['idiom']} | {r['native_ms']:.2f} | "
            f"{r['ours_ms']:.2f} | {r['ratio']:.2f} | {_bytes(r['native_bytes'])} "
            f"({r['native_how']}) | {_bytes(r['ours_bytes'])} |"
        )
        if r["ours_bytes"] != r["native_bytes"]:
            notes.append(_bytes_note(name, r["ours_bytes"], r["native_bytes"]))
        if r["ratio"] > BUDGET:
            notes.append(f"{name}: the ratio {r['ratio']:.2f} is over the {BUDGET} budget.")
        c = r.get("compiled")
        if c and "error" in c:
            label = f"{name}, `ivy_like.compile`d step"
            rows.append(f"| {label} | {r['shards']} | failed: {c['error']} | | | | | |")
        elif c:
            rows.append(
                f"| {name}, `ivy_like.compile`d step | {r['shards']} | {r['idiom']} | "
                f"{c['native_ms']:.2f} | {c['ours_ms']:.2f} | {c['ratio']:.2f} | "
                f"{_bytes(r['native_bytes'])} ({r['native_how']}) | {_bytes(c['ours_bytes'])} |"
            )
            if c["ratio"] > BUDGET:
                notes.append(
                    f"{name} (compiled): the ratio {c['ratio']:.2f} is over the {BUDGET} budget."
                )
            if c["ours_bytes"] != r["native_bytes"]:
                notes.append(_bytes_note(f"{name} (compiled)", c["ours_bytes"], r["native_bytes"]))
    if notes:
        rows.append("")
        rows += [f"* {note}" for note in notes]
    return "\n".join(rows)


def _bytes_note(name: str, ours: float, native: float) -> str:
    if ours != ours or ours == 0:
        why = "the ivy_like step passed nothing to the mesh's collective hooks: its gradients "
        why += "were not averaged over the shards (the timing is then not of a data-parallel step)"
    elif ours > native:
        why = "the ivy_like step communicates more than the idiom"
    else:
        why = "the ivy_like step communicates less than the idiom"
    return f"{name}: {_bytes(ours)} bytes/step against the idiom's {_bytes(native)}: {why}."


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        _worker(sys.argv[2])
    else:
        import ivy_like

        print(f"ivy_like {getattr(ivy_like, '__version__', '?')} from {ivy_like.__file__}")
        print(distributed_benchmark(sys.argv[1:] or None))

"""``ivy_like.distributed`` on torch: gloo processes on 127.0.0.1, each a fresh interpreter
(a process group is set up once per process), started by ``python -m ivy_like launch`` or, for
a mesh of 1, alone with no launcher (a one-process group on an in-memory store).

* Training: 3 Adam steps of a small MLP, data-parallel (``dist.data_parallel`` and
  ``dist.spmd`` with ``dist.all_mean``), with parameters split along their first axis
  (gathered in the step), and under ``ivy_like.compile`` around the spmd step and inside it,
  give the parameters and loss of the single-device step on the whole batch.
* Collectives: values, and gradients with JAX's conventions (``all_sum`` passes the cotangent
  through; ``all_gather`` sums every shard's cotangent of its block), also compiled.
* A DTensor's ``Array.device`` is its placement, ``to_numpy`` gives its whole value; a c10d
  collective under ``ivy_like.compile`` is a clear error; a data-parallel step communicates
  only the all-reduce of the gradients and of the loss.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

_ROOT = Path(__file__).resolve().parents[2]

_PRELUDE = """
import os

import numpy as np
import torch
import torch.distributed
import ivy_like
from ivy_like import distributed as dist

ivy_like.set_backend("torch")
mesh = dist.Mesh()
n, rank = mesh.size, mesh.process_index
assert n == int(__import__("os").environ.get("WORLD_SIZE", "1")), n
"""

_TRAIN = """
COMPILE = __import__("sys").argv[1] == "compile"
rng = np.random.default_rng(0)
P0 = {
    "w1": rng.standard_normal((4, 8)).astype(np.float32) * 0.5,
    "b1": rng.standard_normal(8).astype(np.float32) * 0.1,
    "w2": rng.standard_normal((8, 2)).astype(np.float32) * 0.5,
    "b2": rng.standard_normal(2).astype(np.float32) * 0.1,
}
X = rng.standard_normal((8, 4)).astype(np.float32)
Y = rng.standard_normal((8, 2)).astype(np.float32)
opt = ivy_like.optimizers.adam(0.05)
STEPS = 3


def arrays(tree):
    return {k: ivy_like.asarray(v) for k, v in tree.items()}


def loss_fn(p, xb, yb):
    h = ivy_like.tanh(ivy_like.matmul(xb, p["w1"]) + p["b1"])
    return ivy_like.mean((ivy_like.matmul(h, p["w2"]) + p["b2"] - yb) ** 2)


def plain_step(p, s, batch):
    loss, g = ivy_like.value_and_grad(loss_fn)(p, *batch)
    p, s = opt.update(p, g, s)
    return p, s, loss


def host(tree):
    return {k: ivy_like.to_numpy(v) for k, v in tree.items()}


p, s = arrays(P0), opt.init(arrays(P0))
for _ in range(STEPS):  # the single-device reference, on the whole batch
    p, s, ref_loss = plain_step(p, s, (ivy_like.asarray(X), ivy_like.asarray(Y)))
REF, REF_LOSS = host(p), float(ivy_like.to_numpy(ref_loss))
# the parameters moved: a step that did nothing would not pass
assert all(np.abs(REF[k] - P0[k]).max() > 1e-3 for k in REF)


def train(name, step, params, batch):
    s = opt.init(params)
    for _ in range(STEPS):
        params, s, loss = step(params, s, batch)
    got = host(params)
    for k in REF:
        np.testing.assert_allclose(got[k], REF[k], rtol=2e-5, atol=2e-6, err_msg=f"{name}: {k}")
    np.testing.assert_allclose(float(ivy_like.to_numpy(loss)), REF_LOSS, rtol=2e-5, err_msg=name)
    print(f"rank {rank}: {name} ok", flush=True)


params = dist.shard(arrays(P0), mesh, dist.P())
batch = dist.shard((ivy_like.asarray(X), ivy_like.asarray(Y)), mesh, dist.P("data"))

dp = dist.data_parallel(plain_step, mesh)
train("data_parallel", dp, params, batch)
# whole arrays (not placed) as arguments: each process takes its block of the batch
train("data_parallel whole", dp, arrays(P0), (ivy_like.asarray(X), ivy_like.asarray(Y)))

if COMPILE:
    # a gradient function compiled and traced outside a step (on a block's shapes), then
    # called inside one: the step's mean still applies, not the trace made without it
    shared = ivy_like.compile(ivy_like.value_and_grad(loss_fn))
    shared(arrays(P0), ivy_like.asarray(X[: 8 // n]), ivy_like.asarray(Y[: 8 // n]))

    def shared_step(p, s, batch):
        loss, g = shared(p, *batch)
        p, s = opt.update(p, g, s)
        return p, s, loss

    train("data_parallel(compiled outside)", dist.data_parallel(shared_step, mesh), arrays(P0),
          (ivy_like.asarray(X), ivy_like.asarray(Y)))


def mean_step(p, s, batch):
    loss, g = ivy_like.value_and_grad(loss_fn)(p, *batch)
    p, s = opt.update(p, dist.all_mean(g, "data"), s)
    return p, s, dist.all_mean(loss, "data")


specs = (dist.P(), dist.P(), dist.P("data"))
explicit = dist.spmd(mean_step, mesh, in_specs=specs, out_specs=dist.P())
train("spmd all_mean", explicit, params, batch)


def first_axis(chain, shape):
    # every parameter's first dimension divides over the mesh; the step count is a scalar
    return dist.P("data") if shape else dist.P()


def sharded_step(p, s, batch):
    def loss_of_blocks(p):  # the mean of the shards' losses of the gathered parameters
        return loss_fn(dist.all_gather(p, "data"), *batch) / n

    loss, g = ivy_like.value_and_grad(loss_of_blocks)(p)
    p, s = opt.update(p, g, s)
    return p, s, dist.all_sum(loss, "data")


sharded = dist.spmd(
    sharded_step,
    mesh,
    in_specs=(first_axis, first_axis, dist.P("data")),
    out_specs=(first_axis, first_axis, dist.P()),
)
split = dist.shard(arrays(P0), mesh, first_axis)
assert dist.placement(split["w1"]) == dist.P("data"), dist.placement(split["w1"])
assert split["w1"].data.to_local().shape == (4 // n, 8)
train("sharded parameters", sharded, split, batch)
# one file cannot hold blocks of several processes: refused, pointing to dist.save
if n > 1:
    try:
        ivy_like.Container(split).cont_to_disk(f"refused-{rank}.safetensors")
    except TypeError as e:
        assert "ivy_like.distributed.save" in str(e), e
    else:
        raise AssertionError("cont_to_disk wrote blocks of several processes to one file")
    assert not os.path.exists(f"refused-{rank}.safetensors")

if COMPILE:
    train("compile(spmd)", ivy_like.compile(explicit), params, batch)
    inside = dist.spmd(ivy_like.compile(mean_step), mesh, in_specs=specs, out_specs=dist.P())
    train("spmd(compile)", inside, params, batch)
    train("compile(data_parallel)", ivy_like.compile(dp), params, batch)
    train("compile(sharded parameters)", ivy_like.compile(sharded), split, batch)
print(f"rank {rank}: done", flush=True)
"""

_COLLECTIVES = """
from torch.utils._python_dispatch import TorchDispatchMode

P = dist.P


def check(name, got, want):
    np.testing.assert_allclose(ivy_like.to_numpy(got), want, rtol=1e-5, atol=1e-6, err_msg=name)


x = ivy_like.arange(4.0 * n).reshape((2 * n, 2))
xn = ivy_like.to_numpy(x)
blocks = xn.reshape(n, 2, 2)


def on_shards(f, out=P()):
    return dist.spmd(f, mesh, P("data"), out)(x)


check("all_sum", on_shards(lambda v: dist.all_sum(v, "data")), blocks.sum(0))
check("all_mean", on_shards(lambda v: dist.all_mean(v, "data")), blocks.mean(0))
check("all_gather", on_shards(lambda v: dist.all_gather(v, "data")), xn)
check("all_gather dim 1", on_shards(lambda v: dist.all_gather(v, "data", dim=1)),
      np.concatenate(list(blocks), axis=1))


def grad_of(collective):
    # each shard weights its result by its own factor, rank + 1
    def per_shard(v):
        return ivy_like.grad(lambda u: ivy_like.sum(collective(u) * float(rank + 1)))(v)

    return per_shard


factors = np.repeat(np.arange(1.0, n + 1), 2)[:, None] * np.ones((1, 2))
summed = np.full((2 * n, 2), n * (n + 1) / 2)  # 1 + 2 + ... + n
# all_sum passes the cotangent through: each shard's own factor (torch's would sum them)
check("grad all_sum", on_shards(grad_of(lambda u: dist.all_sum(u, "data")), P("data")), factors)
check("grad all_mean", on_shards(grad_of(lambda u: dist.all_mean(u, "data")), P("data")),
      factors / n)
check("grad all_gather", on_shards(grad_of(lambda u: dist.all_gather(u, "data")), P("data")),
      summed)
check("grad all_gather dim 1",
      on_shards(grad_of(lambda u: dist.all_gather(u, "data", dim=1)), P("data")), summed)
gathered = ivy_like.compile(dist.spmd(grad_of(lambda u: dist.all_gather(u, "data")), mesh,
                                      P("data"), P("data")))
check("compile(spmd(grad all_gather))", gathered(x), summed)


def sum_times_self(v):
    # d/du sum(all_sum(u) * u) = u + all_sum(u), the cotangent of all_sum passed through
    return ivy_like.grad(lambda u: ivy_like.sum(dist.all_sum(u, "data") * u))(v)


compiled_inside = dist.spmd(ivy_like.compile(sum_times_self), mesh, P("data"), P("data"))
for scale in (1.0, 3.0):  # the compiled function reads its arguments: new values, new results
    check("spmd(compile(grad all_sum))", compiled_inside(x * scale),
          scale * (xn + np.tile(blocks.sum(0), (n, 1))))

# a DTensor: Array.device is its placement, to_numpy its whole value
placed = dist.shard(x, mesh, P("data"))
assert isinstance(placed.data, torch.distributed.tensor.DTensor), type(placed.data)
assert placed.device.spec == (("data",), None), placed.device
assert placed.device.mesh.mesh_dim_names == ("data",), placed.device
assert dist.placement(placed) == P("data"), dist.placement(placed)
check("to_numpy of a DTensor", placed, xn)
check("to_numpy of a native DTensor", placed.data, xn)


def c10d_step(v):
    y = v * 2.0
    torch.distributed.all_reduce(y.data)  # c10d's own, in place
    return y


try:
    ivy_like.compile(c10d_step)(ivy_like.ones(3))
except TypeError as e:
    assert "all_sum" in str(e) and "c10d" in str(e), e
else:
    raise AssertionError("a c10d all_reduce compiled")


class Collectives(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if "c10d" in func.namespace:
            self.ops.append(func.name())
        return func(*args, **(kwargs or {}))


def step(p, batch):
    def loss(q):
        return ivy_like.mean((ivy_like.matmul(batch, q["w"]) + q["b"]) ** 2)

    value, grads = ivy_like.value_and_grad(loss)(p)
    return {k: p[k] - 0.1 * grads[k] for k in p}, value


params = dist.shard({"w": ivy_like.ones((2, 3)), "b": ivy_like.zeros(3)}, mesh, P())
data = dist.shard(ivy_like.ones((2 * n, 2)), mesh, P("data"))
dp = dist.data_parallel(step, mesh)
dp(params, data)
with Collectives() as seen:
    new, value = dp(params, data)
# two gradients and the loss, all float32: one all-reduce of one buffer (as DDP's bucket),
# waited for, and nothing else (on a mesh of 1, no collective at all)
reduces = [op for op in seen.ops if op.endswith("::all_reduce")]
waits = [op for op in seen.ops if op.endswith("::wait_tensor")]
assert len(reduces) == (1 if n > 1 else 0), seen.ops
assert len(reduces) + len(waits) == len(seen.ops), seen.ops

# two mesh axes: a dimension split over both, the collectives over both
grid = dist.Mesh({"data": n, "model": 1})
both = ("data", "model")
total, whole = dist.spmd(
    lambda v: (dist.all_sum(v, both), dist.all_gather(v, both)), grid, P(both), P()
)(x)
check("all_sum over two axes", total, blocks.sum(0))
check("all_gather over two axes", whole, xn)
try:
    dist.shard(x, grid, P(("model", "data")))
except ValueError as e:
    assert "mesh's order" in str(e), e
else:
    raise AssertionError("a split against the mesh's order passed")


# forward mode and vmap inside a shard
def tangent(v):
    _, t = ivy_like.jvp(lambda u: dist.all_gather(u * u, "data"), [v], [ivy_like.ones_like(v)])
    return t[0]


check("jvp all_gather", on_shards(tangent), 2 * xn)
check("vmap all_sum", on_shards(ivy_like.vmap(lambda row: dist.all_sum(row, "data"))),
      blocks.sum(0))
rows = ivy_like.arange(6.0 * n).reshape((3, 2 * n))
per_row = ivy_like.vmap(ivy_like.grad(lambda r: ivy_like.sum(dist.all_gather(r, "data") ** 2)))
check("vmap grad all_gather", dist.spmd(per_row, mesh, P(None, "data"), P(None, "data"))(rows),
      2 * n * ivy_like.to_numpy(rows))
print(f"rank {rank}: done", flush=True)
"""


# A launcher around pytest must not make the single process a rank of its group.
_LAUNCHER_VARIABLES = ("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _LAUNCHER_VARIABLES}
    env.update(
        PYTHONPATH=str(_ROOT) + os.pathsep + env.get("PYTHONPATH", ""),
        TF_CPP_MIN_LOG_LEVEL="2",
        TF_ENABLE_ONEDNN_OPTS="0",
        OMP_NUM_THREADS="1",  # two processes on a shared machine
    )
    return env


def _run(command: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    """``command`` in its own process group, all of which is killed if it overruns."""
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"timed out after {timeout} s\n{out[-2000:]}\n{err[-4000:]}")
    return subprocess.CompletedProcess(command, proc.returncode, out, err)


def _script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "script.py"
    path.write_text(_PRELUDE + body)
    return str(path)


def _launch(tmp_path: Path, body: str, n: int, *args: str) -> None:
    script = _script(tmp_path, body)
    if n == 1:  # no launcher: the mesh of 1 sets up a group of its own
        command = [sys.executable, script, *args]
    else:
        launch = ["-m", "ivy_like", "launch", "-n", str(n), "--timeout", "90"]
        command = [sys.executable, *launch, script, *args]
    done = _run(command, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]
    for r in range(n):
        assert f"rank {r}: done" in done.stdout, done.stdout


def test_training_on_two_processes_matches_one_device(tmp_path: Path) -> None:
    _launch(tmp_path, _TRAIN, 2, "compile")


def test_collectives_on_two_processes(tmp_path: Path) -> None:
    _launch(tmp_path, _COLLECTIVES, 2)


def test_a_mesh_of_one_without_a_launcher(tmp_path: Path) -> None:
    _launch(tmp_path, _TRAIN + _COLLECTIVES, 1, "eager")


_SAVE = """
import sys

folder = sys.argv[1]
rng = np.random.default_rng(1)
STATE = {
    "w": rng.standard_normal((4, 6)).astype(np.float32),
    "b": rng.standard_normal(6).astype(np.float32),
    "step": np.int64(7),
}


def rows(chain, shape):
    return dist.P("data") if shape else dist.P()


if sys.argv[2] == "save":  # blocks split by rows over the processes: each writes its own
    placed = dist.shard({k: ivy_like.asarray(v) for k, v in STATE.items()}, mesh, rows)
    assert dist.placement(placed["w"]) == (dist.P("data") if n > 1 else dist.P())
    dist.save(folder, placed)
else:  # loaded on this mesh, split by columns (or whole): the same values, bit for bit
    cols = {"w": dist.P(None, "data")}
    back = dist.load(folder, mesh, cols)
    for k, v in STATE.items():
        got = ivy_like.to_numpy(back[k])
        assert got.dtype == np.asarray(v).dtype and np.array_equal(got, v), (k, got, v)
print(f"rank {rank}: done", flush=True)
"""


def test_a_checkpoint_moves_between_meshes(tmp_path: Path) -> None:
    folder = str(tmp_path / "ckpt")
    _launch(tmp_path, _SAVE, 2, folder, "save")
    # each process wrote its blocks; a replicated leaf was written by one process only
    files = sorted(os.listdir(folder))
    assert files == ["index.json", "process-0-of-2.npz", "process-1-of-2.npz"], files
    _launch(tmp_path, _SAVE, 1, folder, "load")
    _launch(tmp_path, _SAVE, 2, folder, "load")

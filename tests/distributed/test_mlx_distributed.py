"""``ivy_like.distributed`` on MLX: processes joined by MLX's ring backend on localhost.

Each multi-process test starts its ranks itself, as ``mlx.launch --backend ring`` does: every
rank gets ``MLX_RANK`` and ``MLX_HOSTFILE`` (a JSON file of one ``["127.0.0.1:port"]`` per
rank, free ports), and ``MLX_WORLD_SIZE``. Every rank must exit 0 and print ``ok``: a rank that
fails is a failure even if the others finish (``mlx.launch`` itself exits 0 then). Hung ranks
are killed with their process group.

The training checks compare N optimizer steps on the shards with the same steps on one device
on the whole batch (float32 rounding), with ``data_parallel``, ``spmd`` + ``all_mean``, split
parameters gathered in the step, and ``ivy_like.compile`` around the spmd step and inside it.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

mx = pytest.importorskip("mlx.core")

import ivy_like  # noqa: E402
from ivy_like import distributed as dist  # noqa: E402
from ivy_like.backends.mlx import distributed as mlx_dist  # noqa: E402

_ROOT = str(Path(__file__).resolve().parents[2])
_LAUNCH_VARS = ("MLX_RANK", "MLX_HOSTFILE", "MLX_WORLD_SIZE")


def _free_ports(n: int) -> list[int]:
    socks = []
    try:
        for _ in range(n):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def _run_ranks(script: str, n: int, tmp_path: Path, timeout: float = 60.0) -> list[str]:
    """Run ``script`` as ``n`` ring ranks (``n == 1``: no launcher variables at all); return
    each rank's stdout after checking that every rank exited 0."""
    env = {k: v for k, v in os.environ.items() if k not in _LAUNCH_VARS}
    env.update(PYTHONPATH=_ROOT, TF_CPP_MIN_LOG_LEVEL="2", TF_ENABLE_ONEDNN_OPTS="0")
    if n > 1:
        hostfile = tmp_path / "hosts.json"
        hostfile.write_text(json.dumps([[f"127.0.0.1:{p}"] for p in _free_ports(n)]))
        env.update(MLX_HOSTFILE=str(hostfile), MLX_WORLD_SIZE=str(n))
    procs: list[subprocess.Popen[bytes]] = []
    logs = []
    try:
        for rank in range(n):
            out, err = tmp_path / f"out{rank}.txt", tmp_path / f"err{rank}.txt"
            logs.append((out, err))
            rank_env = dict(env, MLX_RANK=str(rank)) if n > 1 else env
            with open(out, "wb") as o, open(err, "wb") as e:
                procs.append(
                    subprocess.Popen(
                        [sys.executable, "-c", script],
                        stdout=o,
                        stderr=e,
                        env=rank_env,
                        cwd=str(tmp_path),
                        start_new_session=True,  # its own process group, killed below
                    )
                )
        deadline = time.monotonic() + timeout
        for p in procs:
            p.wait(timeout=max(deadline - time.monotonic(), 0.1))
    except subprocess.TimeoutExpired:
        pass
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
    outputs = []
    for rank, (p, (out, err)) in enumerate(zip(procs, logs)):
        text = out.read_text()
        assert p.returncode == 0, f"rank {rank} exited {p.returncode}:\n{err.read_text()[-3000:]}"
        assert text.strip().endswith("ok"), f"rank {rank}:\n{text}\n{err.read_text()[-2000:]}"
        outputs.append(text)
    return outputs


# -- the hooks on native arrays: values and gradients of the collectives, spmd's blocks -----------
_HOOKS = """
import mlx.core as mx
import numpy as np
from ivy_like.backends.mlx import distributed as D

n, r = D.device_count(), D.process_index()
assert D.process_count() == n
mesh = D.make_mesh((n,), ("data",))
ax = ("data",)
x = mx.arange(8.0).reshape(4, 2)
# each process sees its block of the split input; the split output is gathered whole
seen = []
run = D.spmd(lambda a, b: (seen.append(a.shape), [a * 2, b])[1], mesh,
             [(ax, None), (None, None)], lambda: [(ax, None), (None, None)])
out = run(x, x)
assert seen == [(4 // n, 2)], seen
np.testing.assert_array_equal(np.array(out[0]), np.array(x) * 2)
np.testing.assert_array_equal(np.array(out[1]), np.array(x))
assert D.placement(D.place(x, mesh, (ax, None))) is None

total = sum(range(1, n + 1))
v = mx.array([1.0, 2.0]) * (r + 1)
np.testing.assert_allclose(np.array(D.all_sum(v, ax, mesh)), np.array([1.0, 2.0]) * total)
# all_sum passes the cotangent through: d/dv sum(all_sum(v) * (r + 1)) = r + 1 here
g = mx.grad(lambda v: (D.all_sum(v, ax, mesh) * (r + 1)).sum())(v)
np.testing.assert_allclose(np.array(g), [r + 1.0] * 2)
# forward mode: the tangents are summed as the values are
_, t = mx.jvp(lambda v: D.all_sum(v, ax, mesh), [v], [mx.ones_like(v) * (r + 1)])
np.testing.assert_allclose(np.array(t[0]), [total] * 2)

# all_gather along dim 1; its gradient sums every process's cotangent of this block
b = mx.full((2, 1), float(r))
gathered = D.all_gather(b, ax, 1, mesh)
np.testing.assert_array_equal(np.array(gathered), np.tile(np.arange(n, dtype=np.float32), (2, 1)))
w = mx.arange(2.0 * n).reshape(2, n) + 1
loss = lambda b: (D.all_gather(b, ax, 1, mesh) * w * (r + 1)).sum()
want = np.array(w)[:, r:r + 1] * total
np.testing.assert_allclose(np.array(mx.grad(loss)(b)), want)
np.testing.assert_allclose(np.array(mx.compile(mx.grad(loss))(b)), want)
np.testing.assert_allclose(
    np.array(mx.compile(lambda v: D.all_sum(v * 2, ax, mesh))(v)), np.array([2.0, 4.0]) * total
)
# under vmap the batch axis stays where it is and the gathered one moves past it
mapped = mx.vmap(lambda b: D.all_gather(b, ax, 0, mesh), in_axes=1)(mx.ones((2, 3)) * r)
assert mapped.shape == (3, 2 * n), mapped.shape
np.testing.assert_array_equal(np.array(mapped[0]), np.repeat(np.arange(n, dtype=np.float32), 2))
summed = mx.vmap(lambda v: D.all_sum(v, ax, mesh))(mx.ones((3, 2)) * (r + 1))
np.testing.assert_allclose(np.array(summed), np.full((3, 2), total, np.float32))
_, t = mx.jvp(lambda b: D.all_gather(b, ax, 0, mesh), [b], [mx.ones_like(b) * (r + 1)])
np.testing.assert_array_equal(np.array(t[0])[:, 0], np.repeat(np.arange(1.0, n + 1), 2))

# an axis of size 1 next to the other: collectives over it are the identity
mesh2 = D.make_mesh((n, 1), ("data", "model"))
np.testing.assert_array_equal(np.array(D.all_sum(v, ("model",), mesh2)), np.array(v))
np.testing.assert_allclose(np.array(D.all_sum(v, ("data", "model"), mesh2)), [total, 2.0 * total])
# a mesh of 1 on every process: each one computes alone
alone = D.make_mesh((1,), ("data",))
np.testing.assert_array_equal(np.array(D.all_sum(v, ax, alone)), np.array(v))
D.barrier(mesh)
print("ok")
"""


def test_hooks_one_process_without_a_launcher(tmp_path: Path) -> None:
    _run_ranks(_HOOKS, 1, tmp_path)


def test_hooks_two_ring_processes(tmp_path: Path) -> None:
    _run_ranks(_HOOKS, 2, tmp_path)


# -- training: shards vs one device on the whole batch -------------------------------------------
_TRAIN = """
import numpy as np
import ivy_like
from ivy_like import distributed as dist

rng = np.random.default_rng(0)
X = rng.standard_normal((8, 4)).astype(np.float32)
Y = np.array([0, 2, 1, 1, 0, 2, 2, 0], np.int32)
P0 = {"w1": rng.standard_normal((4, 6)).astype(np.float32) * 0.5,
      "b1": rng.standard_normal(6).astype(np.float32) * 0.1,
      "w2": rng.standard_normal((6, 3)).astype(np.float32) * 0.5}

def loss_fn(p, batch):
    x, y = batch
    h = ivy_like.tanh(x @ p["w1"] + p["b1"])
    return ivy_like.nn.cross_entropy(h @ p["w2"], y)

def params0():
    return {k: ivy_like.asarray(v) for k, v in P0.items()}

def check(name, p):
    for k in ref:
        np.testing.assert_allclose(ivy_like.to_numpy(p[k]), ref[k], rtol=1e-5, atol=1e-6,
                                   err_msg=f"{name}: {k}")
    print(name, "ok", flush=True)

with ivy_like.use_backend("mlx"):
    opt = ivy_like.optimizers.adam(0.05)
    mesh = dist.Mesh()
    n = mesh.size
    whole = (ivy_like.asarray(X), ivy_like.asarray(Y))
    p = params0()
    s = opt.init(p)
    for _ in range(3):
        loss, g = ivy_like.value_and_grad(loss_fn)(p, whole)
        p, s = opt.update(p, g, s)
    ref = {k: ivy_like.to_numpy(v) for k, v in p.items()}
    ref_loss = float(ivy_like.to_numpy(loss_fn(params0(), whole)))
    # the parameters moved: the comparison below is not of untouched values
    assert not np.allclose(ref["w1"], P0["w1"])

    def step_dp(p, s, batch):
        loss, g = ivy_like.value_and_grad(loss_fn)(p, batch)
        p, s = opt.update(p, g, s)
        return p, s, loss

    def step_spmd(p, s, batch):
        loss, g = ivy_like.value_and_grad(loss_fn)(p, batch)
        g = dist.all_mean(g, "data")
        p, s = opt.update(p, g, s)
        return p, s, dist.all_mean(loss, "data")

    specs = dict(in_specs=(dist.P(), dist.P(), dist.P("data")), out_specs=dist.P())
    steps = {
        "data_parallel": dist.data_parallel(step_dp, mesh),
        "spmd": dist.spmd(step_spmd, mesh, **specs),
        "compile(spmd)": ivy_like.compile(dist.spmd(step_spmd, mesh, **specs)),
        "spmd(compile)": dist.spmd(ivy_like.compile(step_spmd), mesh, **specs),
        "compile(data_parallel)": ivy_like.compile(dist.data_parallel(step_dp, mesh)),
    }
    for name, step in steps.items():
        p = dist.shard(params0(), mesh, dist.P())
        s = opt.init(p)
        batch = dist.shard(whole, mesh, dist.P("data"))
        losses = []
        for _ in range(3):
            p, s, loss = step(p, s, batch)
            losses.append(float(ivy_like.to_numpy(loss)))
        np.testing.assert_allclose(losses[0], ref_loss, rtol=1e-5)
        check(name, p)

    # split parameters: each shard holds the first-dimension block of every parameter and
    # of adam's moments, gathers them for the loss, and updates its own blocks
    def split_first(chain, shape):
        return dist.P("data") if shape else dist.P()  # the step count is a scalar

    def step_split(pb, s, batch):
        loss, g = ivy_like.value_and_grad(lambda pb: loss_fn(dist.all_gather(pb, "data"), batch))(pb)
        # all_gather's gradient is the sum over the shards' losses: their mean is / n
        pb, s = opt.update(pb, {k: v / n for k, v in g.items()}, s)
        return pb, s, dist.all_mean(loss, "data")

    split = dict(in_specs=(split_first, split_first, dist.P("data")),
                 out_specs=(split_first, split_first, dist.P()))
    for name, step in (("split params", dist.spmd(step_split, mesh, **split)),
                       ("compile(split params)", ivy_like.compile(dist.spmd(step_split, mesh, **split)))):
        p = dist.shard(params0(), mesh, split_first)
        s = opt.init(p)
        for _ in range(3):
            p, s, loss = step(p, s, dist.shard(whole, mesh, dist.P("data")))
        check(name, p)

    step = dist.data_parallel(step_dp, mesh, shard_params=True)
    p = params0()
    s = opt.init(p)
    for _ in range(3):
        p, s, loss = step(p, s, whole)
    check("data_parallel(shard_params=True)", p)
print("ok")
"""


def test_training_one_process_without_a_launcher(tmp_path: Path) -> None:
    _run_ranks(_TRAIN, 1, tmp_path)


def test_training_two_ring_processes(tmp_path: Path) -> None:
    for out in _run_ranks(_TRAIN, 2, tmp_path):
        assert out.count(" ok") == 8, out


# -- the collectives' conventions through the frontend, checkpoints, MLX's own helpers -----------
_FRONTEND = """
import os
import numpy as np
import mlx.core as mx
from mlx.nn.utils import average_gradients
import ivy_like
from ivy_like import distributed as dist

with ivy_like.use_backend("mlx"):
    mesh = dist.Mesh({"data": int(os.environ.get("MLX_WORLD_SIZE", "1"))})
    n, r = mesh.size, mesh.process_index
    c = ivy_like.arange(1.0, n + 1.0)  # split: shard i sees c_i = i + 1
    x = ivy_like.ones((2 * n,))
    w = ivy_like.arange(2.0 * n) + 1.0
    cs = np.repeat(np.arange(1.0, n + 1), 2)

    def conventions(x, w, c):
        total = dist.all_sum(x, "data")
        d_sum = ivy_like.grad(lambda x: ivy_like.sum(dist.all_sum(x, "data") * c))(x)
        d_mean = ivy_like.grad(lambda x: ivy_like.sum(dist.all_mean(x, "data") * c))(x)
        d_gather = ivy_like.grad(lambda x: ivy_like.sum(dist.all_gather(x, "data") * w * c))(x)
        by_dim1 = dist.all_gather(ivy_like.reshape(x, (1, -1)) * c, "data", dim=1)
        return total, d_sum, d_mean, d_gather, by_dim1

    outs = (dist.P(), dist.P("data"), dist.P("data"), dist.P("data"), dist.P())
    for name, f in (("eager", conventions), ("compiled", ivy_like.compile(conventions))):
        run = dist.spmd(f, mesh, in_specs=(dist.P("data"), dist.P(), dist.P("data")), out_specs=outs)
        total, d_sum, d_mean, d_gather, by_dim1 = (ivy_like.to_numpy(o) for o in run(x, w, c))
        np.testing.assert_allclose(total, np.full(2, n, np.float32))
        np.testing.assert_allclose(d_sum, cs)  # the cotangent passed through
        np.testing.assert_allclose(d_mean, cs / n, rtol=1e-6)
        # every shard's cotangent of this block, summed
        np.testing.assert_allclose(d_gather, (np.arange(2.0 * n) + 1) * cs.sum() / 2)
        np.testing.assert_allclose(by_dim1, cs[None])

    # a checkpoint written by every process, loaded back
    rng = np.random.default_rng(1)
    state = {"w": rng.standard_normal((4, 3)).astype(np.float32), "b": np.arange(3, dtype=np.int32)}
    placed = dist.shard({k: ivy_like.asarray(v) for k, v in state.items()}, mesh, dist.P())
    dist.save("ckpt", {"params": placed, "step": ivy_like.asarray(3)})
    back = dist.load("ckpt", mesh, dist.P())
    for k, v in state.items():
        np.testing.assert_array_equal(ivy_like.to_numpy(back["params"][k]), v)
    assert int(ivy_like.to_numpy(back["step"])) == 3
    assert sorted(os.listdir("ckpt")) == ["index.json"] + [f"process-{i}-of-{n}.npz" for i in range(n)]

    # MLX's own average_gradients takes a Container of Arrays (it reads dtype.size); its
    # one-leaf-at-a-time path (all_reduce_size=0, and mixed dtypes) works on them as they are
    g = ivy_like.Container({"a": ivy_like.ones((2, 3)) * (r + 1), "b": {"w": ivy_like.arange(4.0) * (r + 1)}})
    mean = (n + 1) / 2
    for out in (average_gradients(g, all_reduce_size=0), average_gradients(ivy_like.to_native(g))):
        np.testing.assert_allclose(np.array(out["a"]), np.full((2, 3), mean, np.float32))
        np.testing.assert_allclose(np.array(out["b"]["w"]), np.arange(4.0) * mean)
    mixed = ivy_like.Container(f=ivy_like.ones(2) * (r + 1), i=ivy_like.ones(2, dtype="int32") * (r + 1))
    np.testing.assert_allclose(np.array(average_gradients(mixed)["f"]), [mean] * 2)
print("ok")
"""


def test_frontend_one_process_without_a_launcher(tmp_path: Path) -> None:
    _run_ranks(_FRONTEND, 1, tmp_path)


def test_frontend_two_ring_processes(tmp_path: Path) -> None:
    _run_ranks(_FRONTEND, 2, tmp_path)


# -- in this process: the launcher's environment read, meshes the ring cannot make ---------------
@pytest.fixture
def fresh_world(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """The world group read again from the environment (restored after the test)."""
    monkeypatch.setattr(mlx_dist, "_WORLD", [])
    for name in _LAUNCH_VARS:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_a_hostfile_of_one_rank_is_a_world_of_one(
    fresh_world: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # MLX's ring would wait forever on a hostfile of one rank; mlx.launch -n 1 writes it empty
    for text in ('[["127.0.0.1:5000"]]', ""):
        hostfile = tmp_path / "hosts.json"
        hostfile.write_text(text)
        fresh_world.setattr(mlx_dist, "_WORLD", [])
        fresh_world.setenv("MLX_HOSTFILE", str(hostfile))
        fresh_world.setenv("MLX_RANK", "0")
        assert (mlx_dist.device_count(), mlx_dist.process_index()) == (1, 0)


def test_launcher_environment_errors(fresh_world: pytest.MonkeyPatch, tmp_path: Path) -> None:
    hostfile = tmp_path / "hosts.json"
    hostfile.write_text('[["127.0.0.1:5000"], ["127.0.0.1:5001"]]')
    fresh_world.setenv("MLX_HOSTFILE", str(hostfile))
    fresh_world.setenv("MLX_WORLD_SIZE", "3")
    with pytest.raises(ValueError, match="MLX_WORLD_SIZE"):
        mlx_dist.device_count()
    fresh_world.delenv("MLX_WORLD_SIZE")
    with pytest.raises(ValueError, match="MLX_RANK"):
        mlx_dist.device_count()
    hostfile.write_text("{not json")
    with pytest.raises(ValueError, match="MLX_HOSTFILE"):
        mlx_dist.device_count()
    hostfile.write_text('{"a": 1}')
    with pytest.raises(ValueError, match="MLX_HOSTFILE"):
        mlx_dist.device_count()
    fresh_world.setenv("MLX_HOSTFILE", str(tmp_path / "missing.json"))
    with pytest.raises(ValueError, match="MLX_HOSTFILE"):
        mlx_dist.device_count()


def test_meshes_the_ring_cannot_make(fresh_world: pytest.MonkeyPatch) -> None:
    # one process: a mesh of 2 is refused by the frontend with the launcher's command
    with ivy_like.use_backend("mlx"):
        with pytest.raises(ValueError, match="ivy_like launch"):
            dist.Mesh({"data": 2})
        mesh = dist.Mesh({"data": 1, "model": 1})
        assert mesh.native.coords == (0, 0)
    # several processes: two axes above 1, or a mesh over part of the processes
    fresh_world.setattr(mlx_dist, "_WORLD", [object()])
    fresh_world.setattr(mlx_dist, "device_count", lambda: 4)
    with pytest.raises(ValueError, match="at most one axis"):
        mlx_dist.make_mesh((2, 2), ("data", "model"))
    with pytest.raises(ValueError, match="spans all 4 processes"):
        mlx_dist.make_mesh((2,), ("data",))


def test_dtype_size_is_mlx_itemsize() -> None:
    # MLX's tree helpers (mlx.nn.average_gradients) read dtype.size of ivy_like Arrays
    with ivy_like.use_backend("mlx"):
        for name in (
            "bool",
            "int8",
            "int32",
            "uint16",
            "float16",
            "bfloat16",
            "float32",
            "complex64",
        ):
            x = ivy_like.zeros(2, dtype=name)
            assert x.dtype.size == x.data.dtype.size, name


def test_nothing_is_placed(fresh_world: pytest.MonkeyPatch) -> None:
    with ivy_like.use_backend("mlx"):
        mesh = dist.Mesh()
        x = dist.shard(ivy_like.ones((4, 2)), mesh, dist.P("data"))
        assert dist.placement(x) is None
        np.testing.assert_array_equal(ivy_like.to_numpy(x), np.ones((4, 2)))
    with pytest.raises(TypeError, match="to_numpy"):
        mlx_dist.local_blocks(x.data)
    with pytest.raises(TypeError, match="to_numpy"):
        mlx_dist.to_host(x.data)
    with pytest.raises(ValueError, match="dim"):
        mlx_dist.all_gather(mx.ones(()), ("data",), 0, mesh.native)


# -- python -m ivy_like launch: the same scripts, started by ivy_like's launcher -----------------
def _launch(script: str, n: int, tmp_path: Path, timeout: float = 60.0) -> tuple[int, str]:
    path = tmp_path / "script.py"
    path.write_text(script)
    env = {k: v for k, v in os.environ.items() if k not in _LAUNCH_VARS}
    env.update(PYTHONPATH=_ROOT, TF_CPP_MIN_LOG_LEVEL="2", TF_ENABLE_ONEDNN_OPTS="0")
    cmd = [sys.executable, "-m", "ivy_like", "launch", "-n", str(n), "--timeout", str(timeout)]
    proc = subprocess.Popen(
        [*cmd, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        cwd=str(tmp_path),
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=timeout + 15)
    except subprocess.TimeoutExpired:
        # the launcher stops its ranks (their own process groups) on an interrupt
        proc.send_signal(signal.SIGINT)
        try:
            out, _ = proc.communicate(timeout=10)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        raise
    return proc.returncode, out.decode(errors="replace")


def test_launch_two_processes(tmp_path: Path) -> None:
    code, out = _launch(_FRONTEND, 2, tmp_path)
    assert code == 0, out[-3000:]
    # the ranks share the launcher's stdout: their lines may interleave
    assert out.count("ok") == 2, out[-3000:]


def test_launch_fails_when_a_rank_fails(tmp_path: Path) -> None:
    # rank 1 fails after joining the group; rank 0 would wait in its collective forever
    script = (
        "import os, ivy_like\nfrom ivy_like import distributed as dist\n"
        "with ivy_like.use_backend('mlx'):\n"
        "    mesh = dist.Mesh()\n"
        "    if os.environ['MLX_RANK'] == '1':\n"
        "        raise SystemExit(3)\n"
        "    f = dist.spmd(lambda x: dist.all_sum(x, 'data'), mesh, dist.P('data'), dist.P())\n"
        "    print(ivy_like.to_numpy(f(ivy_like.ones(2))))\n"
    )
    code, out = _launch(script, 2, tmp_path, timeout=30)
    assert code == 3, out[-3000:]

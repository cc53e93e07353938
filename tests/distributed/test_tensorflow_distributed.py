"""``ivy_like.distributed`` on TensorFlow: ``MirroredStrategy`` over logical CPU devices, in a
fresh process each (the logical devices are fixed when TensorFlow starts).

Training steps split over 1, 2 and 4 replicas (``data_parallel``, ``spmd`` with ``all_mean``,
parameters split with ``all_gather`` inside the step, ``ivy_like.compile`` around and inside)
give the parameters of the same steps on one device over the whole batch; the collectives'
values and gradients follow the conventions (``all_sum``'s cotangent passes through,
``all_gather``'s is summed over the replicas).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

_SETUP = """
import os
import tempfile
import numpy as np
import tensorflow as tf

cpu = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(
    cpu[0], [tf.config.LogicalDeviceConfiguration()] * DEVICES
)
import ivy_like
from ivy_like import distributed as dist
from ivy_like.distributed import P

ivy_like.set_backend("tensorflow")
rng = np.random.default_rng(0)


def close(got, want, what):
    np.testing.assert_allclose(
        ivy_like.to_numpy(got), np.asarray(want), rtol=2e-5, atol=2e-6, err_msg=what
    )
"""

_TRAINING = """
def init():
    return {
        "w1": ivy_like.asarray(rng.standard_normal((4, 8)).astype(np.float32) * 0.5),
        "b1": ivy_like.asarray(rng.standard_normal((8,)).astype(np.float32) * 0.1),
        "w2": ivy_like.asarray(rng.standard_normal((8, 4)).astype(np.float32) * 0.5),
        "b2": ivy_like.asarray(rng.standard_normal((4,)).astype(np.float32) * 0.1),
    }


params0 = init()
batch = {
    "x": ivy_like.asarray(rng.standard_normal((8, 4)).astype(np.float32)),
    "y": ivy_like.asarray(rng.integers(0, 4, 8).astype(np.int64)),
}
opt = ivy_like.optimizers.adam(0.05)


def loss_fn(p, b):
    h = ivy_like.tanh(b["x"] @ p["w1"] + p["b1"])
    return ivy_like.nn.cross_entropy(h @ p["w2"] + p["b2"], b["y"])


def plain_step(p, s, b):
    loss, g = ivy_like.value_and_grad(loss_fn)(p, b)
    p, s = opt.update(p, g, s)
    return p, s, loss


def explicit_step(p, s, b):
    loss, g = ivy_like.value_and_grad(loss_fn)(p, b)
    g = dist.all_mean(g, "data")
    p, s = opt.update(p, g, s)
    return p, s, dist.all_mean(loss, "data")


def split_step(p, s, b):
    # p and the moments of s are this replica's rows; the step sees the whole parameters and
    # all_gather's gradient sums every replica's gradient of this replica's rows.
    n = mesh.shape["data"]
    assert p["w1"].shape == (4 // n, 8) and s["mu"]["w1"].shape == (4 // n, 8), p["w1"].shape
    loss, g = ivy_like.value_and_grad(lambda q: loss_fn(dist.all_gather(q, "data"), b) / n)(p)
    p, s = opt.update(p, g, s)
    return p, s, dist.all_sum(loss, "data")


def rows(chain, shape):
    return P("data") if shape else P()


def train(step, steps=3):
    p, s = params0, opt.init(params0)
    losses = []
    for _ in range(steps):
        p, s, loss = step(p, s, batch)
        losses.append(float(ivy_like.to_numpy(loss)))
    return p, losses


want, want_losses = train(plain_step)
for size in SIZES:
    mesh = dist.Mesh({"data": size})
    x = dist.shard(batch, mesh, P("data"))
    assert dist.placement(x["x"]) is None  # kept whole: the spec is applied inside spmd
    explicit = dist.spmd(explicit_step, mesh, (P(), P(), P("data")), P())
    body = ivy_like.compile(explicit_step)
    runs = {
        "data_parallel": dist.data_parallel(plain_step, mesh),
        "data_parallel shard_params": dist.data_parallel(plain_step, mesh, shard_params=True),
        "spmd all_mean": explicit,
        "compile(spmd)": ivy_like.compile(explicit),
        "spmd(compile(step))": dist.spmd(
            lambda p, s, b: body(p, s, b), mesh, (P(), P(), P("data")), P()
        ),
        "split parameters": dist.spmd(split_step, mesh, (rows, rows, P("data")), (rows, rows, P())),
    }
    for name, step in runs.items():
        got, losses = train(step)
        what = f"{name} on {size} replica(s)"
        for k in want:
            close(got[k], want[k], f"{what}: {k}")
        np.testing.assert_allclose(losses, want_losses, rtol=2e-5, err_msg=what)
        assert got["w1"].shape == want["w1"].shape, (what, got["w1"].shape)

# a checkpoint of one step, loaded back (split by rows), then two more steps: the same result
mesh = dist.Mesh({"data": 2})
step = dist.spmd(split_step, mesh, (rows, rows, P("data")), (rows, rows, P()))
p, s, _ = step(params0, opt.init(params0), batch)
with tempfile.TemporaryDirectory() as folder:
    dist.save(folder, {"params": p, "opt": s})
    state = dist.load(folder, mesh, rows)
for k in p:
    assert np.array_equal(ivy_like.to_numpy(state["params"][k]), ivy_like.to_numpy(p[k])), k
p, s = state["params"], state["opt"]
for _ in range(2):
    p, s, _ = step(p, s, batch)
for k in want:
    close(p[k], want[k], f"resumed from a checkpoint: {k}")
print("ok")
"""

_COLLECTIVES = """
for size in (1, 2, 4):
    mesh = dist.Mesh({"data": size})
    u = rng.standard_normal((2 * size, 3)).astype(np.float32)
    c = rng.standard_normal((size, 2 * size, 3)).astype(np.float32)
    k = np.arange(2 * size, dtype=np.int32)

    def shard_fn(u, c, k):
        total, g_sum = ivy_like.value_and_grad(
            lambda v: ivy_like.sum(dist.all_sum(v * v, "data") * 3.0)
        )(u)
        mean, g_mean = ivy_like.value_and_grad(lambda v: ivy_like.sum(dist.all_mean(v, "data")))(u)
        # each replica has its own cotangent of the gathered array: c's block
        gathered, g_gather = ivy_like.value_and_grad(
            lambda v: ivy_like.sum(dist.all_gather(v, "data") * c[0])
        )(u)
        cols = dist.all_gather(ivy_like.matrix_transpose(u), "data", dim=1)
        return total, g_sum, mean, g_mean, g_gather, cols, dist.all_sum(k, "data")

    run = dist.spmd(
        shard_fn,
        mesh,
        (P("data"), P("data"), P("data")),
        (P(), P("data"), P(), P("data"), P("data"), P(), P()),
    )
    total, g_sum, mean, g_mean, g_gather, cols, ksum = run(
        ivy_like.asarray(u), ivy_like.asarray(c), ivy_like.asarray(k)
    )
    what = f"{size} replica(s)"
    close(total, 3.0 * (u * u).sum(), f"all_sum value, {what}")
    close(g_sum, 6.0 * u, f"all_sum gradient passes the cotangent through, {what}")
    close(mean, u.sum() / size, f"all_mean value, {what}")
    close(g_mean, np.full_like(u, 1.0 / size), f"all_mean gradient, {what}")
    close(g_gather, c.sum(0), f"all_gather gradient sums the replicas' cotangents, {what}")
    close(cols, u.T, f"all_gather along dim 1, {what}")
    want_k = k.reshape(size, 2).sum(0)
    assert np.array_equal(ivy_like.to_numpy(ksum), want_k), (ksum, want_k)

# ivy_like.grad around an spmd function: right where no collective is on the path; through
# one, refused (which values are the same on every replica is not tracked)
mesh = dist.Mesh({"data": 2})
w, x = ivy_like.asarray(np.float32(1.5)), ivy_like.arange(4.0)
local = dist.spmd(lambda w, x: (x * w) ** 2, mesh, (P(), P("data")), P("data"))
close(ivy_like.grad(lambda w: ivy_like.sum(local(w, x)))(w), 3.0 * 14.0, "grad around spmd")
reduced = dist.spmd(
    lambda w, x: dist.all_mean(ivy_like.sum((x * w) ** 2), "data"), mesh, (P(), P("data")), P()
)
close(reduced(w, x), 1.5**2 * 14.0 / 2, "all_mean of a loss")
try:
    ivy_like.grad(reduced)(w, x)
except TypeError as e:
    assert "inside the function given to spmd" in str(e), e
else:
    raise AssertionError("a gradient through all_mean from outside spmd passed")

# collectives outside spmd, and a mesh of two data axes (MirroredStrategy has one)
try:
    dist.all_sum(ivy_like.ones(2), "data")
except RuntimeError as e:
    assert "spmd" in str(e), e
else:
    raise AssertionError("all_sum outside spmd passed")
try:
    dist.Mesh({"data": 2, "model": 2})
except ValueError as e:
    assert "one data axis" in str(e), e
else:
    raise AssertionError("a 2x2 TensorFlow mesh passed")
mesh = dist.Mesh({"data": 2, "model": 1})
both = dist.spmd(lambda v: dist.all_sum(v, ("data", "model")), mesh, P(("data", "model")), P())
close(both(ivy_like.arange(4.0)), [2.0, 4.0], "all_sum over two axes, one of size 1")
assert dist.Mesh().size == DEVICES

# the user's own strategy.run inside ivy_like.compile: a reduced result is right on every
# call; the per-replica result itself (graph tensors, "out of scope" on the next call) is a
# TypeError saying what to return
strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(DEVICES)])
reduced = ivy_like.compile(
    lambda x: strategy.reduce("SUM", strategy.run(lambda v: v * 2, args=(x,)), axis=None)
)
for _ in range(2):
    close(reduced(tf.ones(2)), [2.0 * DEVICES] * 2, "strategy.reduce in compile")
try:
    ivy_like.compile(lambda x: strategy.run(lambda v: v * 2, args=(x,)))(tf.ones(2))
except TypeError as e:
    assert "per-replica" in str(e) and "strategy.reduce" in str(e), e
else:
    raise AssertionError("a per-replica result left ivy_like.compile")
print("ok")
"""


def _script(body: str, devices: int) -> str:
    return (_SETUP + body).replace("DEVICES", str(devices))


def _run(script: str, extra_env: dict[str, str] | None = None, timeout: float = 120) -> str:
    pytest.importorskip("tensorflow")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root, TF_CPP_MIN_LOG_LEVEL="2", TF_ENABLE_ONEDNN_OPTS="0")
    env.update(extra_env or {})
    # Its own process group: a timeout kills the child and anything it started.
    child = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    try:
        out, err = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        raise
    assert child.returncode == 0, err[-4000:]
    return out.strip()


def test_training_steps_match_one_device_on_one_and_two_replicas() -> None:
    script = _script(_TRAINING, devices=2).replace("SIZES", "(1, 2)")
    assert _run(script) == "ok"


def test_collectives_values_and_gradients_on_one_two_and_four_replicas() -> None:
    script = _script(_COLLECTIVES, devices=4)
    assert _run(script) == "ok"


def test_a_launcher_with_several_processes_is_refused() -> None:
    script = _script(
        "try:\n"
        "    dist.Mesh({'data': 1})\n"
        "except ValueError as e:\n"
        "    assert 'WORLD_SIZE=2' in str(e) and 'one process' in str(e), e\n"
        "else:\n"
        "    raise AssertionError('WORLD_SIZE=2 passed')\n"
        "print('ok')\n",
        devices=1,
    )
    assert _run(script, {"WORLD_SIZE": "2", "RANK": "0"}) == "ok"

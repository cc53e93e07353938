"""ivy_like.distributed on JAX: a fresh process with 8 host devices (the device count is fixed
when jax starts) runs one training script data-parallel, through explicit spmd and with the
parameters split (FSDP-style) on meshes of 1, 2 and 8 devices, and checks it against the same
steps on one device and the whole batch; then the collectives' gradients, checkpoints moved
between meshes, and the errors that must come before any work."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("jax")

_SCRIPT = r"""
import os, tempfile
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
import jax
import numpy as np
import ivy_like
from ivy_like import distributed as dist

ivy_like.set_backend("jax")
rng = np.random.default_rng(0)
X = ivy_like.asarray(rng.standard_normal((16, 5)).astype("float32"))
Y = ivy_like.asarray(rng.integers(0, 3, 16).astype("int32"))
init = ivy_like.Container(
    {"l1": {"w": rng.standard_normal((5, 8)) * 0.3, "b": np.zeros(8)},
     "l2": {"w": rng.standard_normal((8, 3)) * 0.3, "b": np.zeros(3)}}
).cont_map(lambda x, kc: ivy_like.asarray(x.astype("float32")))
opt = ivy_like.optimizers.adam(1e-2)

def loss_fn(p, x, y):
    h = ivy_like.tanh(x @ p["l1"]["w"] + p["l1"]["b"])
    return ivy_like.nn.cross_entropy(h @ p["l2"]["w"] + p["l2"]["b"], y)

def step(params, state, batch):
    loss, grads = ivy_like.value_and_grad(loss_fn)(params, *batch)
    params, state = opt.update(params, grads, state)
    return params, state, loss

def step_spmd(params, state, batch):
    loss, grads = ivy_like.value_and_grad(loss_fn)(params, *batch)
    params, state = opt.update(params, dist.all_mean(grads, "data"), state)
    return params, state, dist.all_mean(loss, "data")

def run(fn, params, state, batch, steps=3):
    for _ in range(steps):
        params, state, loss = fn(params, state, batch)
    return params, float(ivy_like.to_numpy(loss))

def close(a, b):
    for x, y in zip(jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=2e-5, atol=2e-6)

want, want_loss = run(step, init, opt.init(init), (X, Y))
for n in (1, 2, 8):
    mesh = dist.Mesh({"data": n})
    batch = dist.shard((X, Y), mesh, dist.P("data"))
    if n > 1:
        assert dist.placement(batch[0]) == dist.P("data"), dist.placement(batch[0])
        assert isinstance(batch[0].device, jax.sharding.NamedSharding), batch[0].device
    params, state = dist.shard((init, opt.init(init)), mesh, dist.P())
    got, loss = run(dist.data_parallel(step, mesh), params, state, batch)
    close(got, want)
    # the mean over the shards of the last step's loss: the whole batch's loss
    spmd = dist.spmd(step_spmd, mesh, in_specs=(dist.P(), dist.P(), dist.P("data")),
                     out_specs=dist.P())
    got, loss2 = run(spmd, params, state, batch)
    close(got, want)
    assert abs(loss - loss2) < 1e-6, (loss, loss2)
    # compile around (the step is compiled already) and inside the per-shard step
    assert ivy_like.compile(spmd) is spmd
    inner = dist.spmd(ivy_like.compile(step_spmd), mesh, (dist.P(), dist.P(), dist.P("data")),
                      dist.P())
    close(run(inner, params, state, batch)[0], want)
    # a gradient function compiled and traced outside the step, then called inside it: the
    # step's mean still applies (its own compilation, not the trace made without it)
    shared = ivy_like.compile(ivy_like.value_and_grad(loss_fn))
    shared(init, X[: 16 // n], Y[: 16 // n])  # the shapes of a shard's block
    def shared_step(params, state, batch):
        loss, grads = shared(params, *batch)
        params, state = opt.update(params, grads, state)
        return params, state, loss
    close(run(dist.data_parallel(shared_step, mesh), params, state, batch)[0], want)
    # parameters stored split along their first axis (whole numbers of rows per device)
    split = lambda chain, shape: dist.P("data") if shape and shape[0] % n == 0 else dist.P()
    fsdp = dist.data_parallel(step, mesh, shard_params=True)
    got, _ = run(fsdp, dist.shard(init, mesh, split), opt.init(init), (X, Y))
    close(got, want)
    if n > 1:
        assert dist.placement(got["l1"]["b"]) == dist.P("data"), dist.placement(got["l1"]["b"])
    print("mesh", n, "ok")

# collectives: values and the gradient conventions, on 4 shards
mesh = dist.Mesh({"data": 4})
x = ivy_like.arange(8.0)
c = ivy_like.asarray(np.arange(8.0, dtype="float32") + 1)
total = dist.spmd(lambda v: dist.all_sum(v, "data"), mesh, dist.P("data"), dist.P())(x)
np.testing.assert_allclose(np.asarray(total._data), [12.0, 16.0])
g_sum = dist.spmd(ivy_like.grad(lambda v: ivy_like.sum(dist.all_sum(v, "data") * 3.0)),
                  mesh, dist.P("data"), dist.P("data"))(x)
np.testing.assert_allclose(np.asarray(g_sum._data), np.full(8, 3.0))  # passed through
gathered = dist.spmd(lambda v: dist.all_gather(v, "data"), mesh, dist.P("data"), dist.P())(x)
np.testing.assert_allclose(np.asarray(gathered._data), np.arange(8.0))
g_gather = dist.spmd(
    ivy_like.grad(lambda v, w: ivy_like.sum(dist.all_gather(v, "data") * w)),
    mesh, (dist.P("data"), dist.P()), dist.P("data"))(x, c)
np.testing.assert_allclose(np.asarray(g_gather._data), 4 * np.asarray(c._data))  # summed
mean = dist.spmd(lambda v: dist.all_mean({"v": v}, "data"), mesh, dist.P("data"), dist.P())(x)
np.testing.assert_allclose(np.asarray(mean["v"]._data), [3.0, 4.0])

# checkpoints: saved from 8 devices, loaded on 2 and on 1, exactly
state = {"params": init, "bf": ivy_like.asarray(np.arange(16.0), dtype=ivy_like.bfloat16),
         "step": ivy_like.asarray(3)}
mesh8 = dist.Mesh({"data": 8})
placed = dist.shard(state, mesh8, {"params/l1/w": dist.P(None, "data"), "bf": dist.P("data")})
assert dist.placement(placed["params"]["l1"]["w"]) == dist.P(None, "data")
with tempfile.TemporaryDirectory() as d:
    dist.save(d, placed)
    assert sorted(os.listdir(d)) == ["index.json", "process-0-of-1.npz"], os.listdir(d)
    for n, spec in ((2, dist.P("data")), (1, dist.P())):
        split = lambda chain, shape, n=n: spec if shape and shape[0] % n == 0 else dist.P()
        back = dist.load(d, dist.Mesh({"data": n}), split)
        assert type(back["params"]) is ivy_like.Container
        for a, b in zip(jax.tree_util.tree_leaves(back), jax.tree_util.tree_leaves(state)):
            assert a.dtype == b.dtype and np.array_equal(np.asarray(a), np.asarray(b))
        if n == 2:
            assert dist.placement(back["bf"]) == dist.P("data")
print("collectives and checkpoints ok")

# bad input: a clear ValueError before any work
def refused(fn, *words):
    try:
        fn()
    except ValueError as e:
        for w in words:
            assert w in str(e), (w, str(e))
    else:
        raise AssertionError(f"no error, wanted {words}")

mesh2 = dist.Mesh({"data": 2})
refused(lambda: dist.Mesh({"data": 9}), "needs 9 devices", "has 8")
refused(lambda: dist.shard(ivy_like.ones(3), mesh2, dist.P("data")), "size 3", "'data' of size 2")
refused(lambda: dist.shard(ivy_like.ones(4), mesh2, dist.P("model")), "'model'", "('data',)")
refused(lambda: dist.shard(ivy_like.ones(4), mesh2, dist.P("data", None)), "1 dimension", "2 entries")
dp = dist.data_parallel(step, mesh2)
refused(lambda: dp(init, opt.init(init), (X[:15], Y[:15])), "size 15", "dimension 0")
with tempfile.TemporaryDirectory() as d:
    target = os.path.join(d, "ckpt")
    try:
        dist.save(target, {"w": ivy_like.ones(2), "f": open})
    except TypeError as e:
        assert "builtin_function_or_method" in str(e) or "not an array" in str(e), e
    else:
        raise AssertionError("a function leaf was saved")
    assert not os.path.exists(target), "a refused save left a folder"
print("errors ok")
"""


def test_jax_distributed_on_8_host_devices() -> None:
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    env.pop("XLA_FLAGS", None)
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, env=env, timeout=180
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]
    assert "errors ok" in done.stdout

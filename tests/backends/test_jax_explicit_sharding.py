"""jax arrays sharded over a mesh with explicit axes (the default of ``jax.make_mesh``), in a
fresh process with 4 host devices (the device count is fixed when jax starts).

JAX refuses to guess the sharding of a gather whose indices are sharded and whose table is
not, so ``take``, and ``nn.cross_entropy``'s label check built on it, raised
``ShardingTypeError`` there, eager and under ``jax.jit``. The result is sharded as the indices.
``x[indices]`` took the same lookup and raised the same. ``Array.device`` of an array spread over the mesh said ``cpu``; it is the sharding, which
``device=`` and ``to_device`` take.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

_SCRIPT = """
import os
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P
import ivy_like

mesh = jax.make_mesh((4,), ("data",))
assert mesh.axis_types == (jax.sharding.AxisType.Explicit,)
rng = np.random.default_rng(0)
logits = rng.standard_normal((8, 5)).astype(np.float32)
labels = np.array([0, 4, 2, 1, 3, 3, 0, 2], np.int32)
table = np.arange(10.0, 15.0, dtype=np.float32)

def on_mesh(a, *spec):
    return jax.device_put(a, NamedSharding(mesh, P(*spec)))

with ivy_like.use_backend("jax"):
    want_loss = float(ivy_like.nn.cross_entropy(logits, labels))
    x, y = on_mesh(logits, "data"), on_mesh(labels, "data")
    with jax.set_mesh(mesh):
        for run in (ivy_like.nn.cross_entropy, jax.jit(ivy_like.nn.cross_entropy)):
            loss = run(x, y)
            np.testing.assert_allclose(float(loss), want_loss, rtol=1e-6)
        # a label out of range is still refused where its value can be read
        try:
            ivy_like.nn.cross_entropy(x, on_mesh(labels + 5, "data"))
        except ValueError as e:
            assert "labels" in str(e), e
        else:
            raise AssertionError("a label of 5 for 5 classes passed")
        for run in (ivy_like.take, jax.jit(ivy_like.take)):
            got = run(table, y)
            np.testing.assert_array_equal(np.asarray(got), table[labels])
            assert jax.typeof(got).sharding.spec == P("data"), jax.typeof(got).sharding
        # x[indices] is the same lookup: split as the indices
        for run in (lambda t, k: t[k], jax.jit(lambda t, k: t[k])):
            got = run(ivy_like.asarray(table), ivy_like.asarray(y))
            np.testing.assert_array_equal(got.to_numpy(), table[labels])
        # rows of a 2-d table, the indices sharded: the result is split along its first axis
        rows = rng.standard_normal((5, 3)).astype(np.float32)
        got = jax.jit(lambda r, k: ivy_like.take(r, k, axis=0))(rows, y)
        np.testing.assert_array_equal(np.asarray(got), rows[labels])
        assert jax.typeof(got).sharding.spec[0] == "data"
        # a table split along the looked-up axis has no such sharding: JAX's own error stands
        try:
            jax.jit(ivy_like.take)(on_mesh(np.arange(8.0, dtype=np.float32), "data"), y)
        except Exception as e:
            assert type(e).__name__ == "ShardingTypeError", repr(e)
        else:
            raise AssertionError("a gather from a split table passed")

    # Array.device of an array spread over the mesh is its sharding, which device= and
    # to_device take back; to_device("cpu") gathers it onto one device
    spread = NamedSharding(mesh, P("data"))
    a = ivy_like.asarray(x)
    assert a.device == x.sharding, a.device
    b = ivy_like.asarray(logits, device=a.device)
    assert b.data.sharding == spread and np.array_equal(np.asarray(b.data), logits)
    c = ivy_like.asarray(logits).to_device(spread)
    assert c.data.sharding == spread and np.array_equal(np.asarray(c.data), logits)
    z = ivy_like.zeros((8, 5), device=spread)
    assert z.data.sharding == spread
    one = a.to_device("cpu")
    assert len(one.data.devices()) == 1 and np.array_equal(np.asarray(one.data), logits)
    try:
        ivy_like.asarray(logits, device=3.5)
    except TypeError as e:
        assert "jax.sharding.Sharding" in str(e), e
    else:
        raise AssertionError("device=3.5 passed")
    # an optimizer over parameters spread over the mesh: its step count is on the mesh,
    # replicated (the parameters' own sharding would split a scalar)
    from ivy_like import optimizers
    params = {"w": ivy_like.asarray(on_mesh(rng.standard_normal((8, 3)).astype(np.float32), "data"))}
    opt = optimizers.adam(0.1)
    state = opt.init(params)
    count = [v for v in jax.tree.leaves(state) if getattr(v, "ndim", None) == 0]
    assert count and all(c.sharding.spec == P() for c in count), state
    grads = {"w": ivy_like.ones_like(params["w"])}
    new, state = jax.jit(opt.update)(params, grads, state)
    # adam's first step moves each weight by the learning rate against its gradient's sign
    np.testing.assert_allclose(np.asarray(new["w"].data), np.asarray(params["w"].data) - 0.1, rtol=1e-5)
    assert new["w"].data.sharding.spec[0] == "data"
print("ok")
"""


def test_take_and_cross_entropy_on_an_explicit_mesh_in_a_fresh_process() -> None:
    pytest.importorskip("jax")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root)
    env.pop("XLA_FLAGS", None)
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, env=env, timeout=180
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "ok"

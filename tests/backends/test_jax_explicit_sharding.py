"""jax arrays sharded over a mesh with explicit axes (the default of ``jax.make_mesh``), in a
fresh process with 4 host devices (the device count is fixed when jax starts).

JAX refuses to guess the sharding of a gather whose indices are sharded and whose table is
not, so ``take``, and ``nn.cross_entropy``'s label check built on it, raised
``ShardingTypeError`` there, eager and under ``jax.jit``. The result is sharded as the indices.
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
    want_rows = np.asarray(ivy_like.take(rng.standard_normal((5, 3)).astype(np.float32), labels, axis=0))
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

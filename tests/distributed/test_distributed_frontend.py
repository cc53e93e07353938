"""ivy_like.distributed's frontend on one device (numpy; the engines have their own files):
specs, layouts and meshes checked before any work, spmd and data_parallel on a mesh of 1,
checkpoints, and the launcher."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

import ivy_like
from ivy_like import distributed as dist
from ivy_like.distributed._launch import launch


@pytest.fixture
def mesh():
    with ivy_like.use_backend("numpy"):
        yield dist.Mesh({"data": 1})


def test_p_entries_and_repr() -> None:
    assert repr(dist.P("data", None)) == "P('data', None)"
    assert dist.P(("data", "model")).normal() == (("data", "model"),)
    with pytest.raises(TypeError, match="each entry is None"):
        dist.P(3)
    with pytest.raises(TypeError, match="each entry is None"):
        dist.P(())


def test_mesh_checks() -> None:
    with ivy_like.use_backend("numpy"):
        with pytest.raises(ValueError, match=r"needs 2 devices; numpy has 1 here"):
            dist.Mesh({"data": 2})
        with pytest.raises(ValueError, match="sizes are integers"):
            dist.Mesh({"data": 0})
        with pytest.raises(TypeError, match="axis names"):
            dist.Mesh({"": 1})
        with pytest.raises(TypeError, match="dict of axis name"):
            dist.Mesh({})
        assert dist.Mesh().shape == {"data": 1}
        assert dist.Mesh({"data": 1, "model": 1}).axis_names == ("data", "model")


def test_spec_errors_name_the_leaf(mesh) -> None:
    tree = {"a": {"w": np.ones((2, 3))}}
    with pytest.raises(ValueError, match=r"'a/w'.*names the axis 'model'"):
        dist.shard(tree, mesh, dist.P("model"))
    with pytest.raises(ValueError, match=r"'a/w' has 2 dimension\(s\) but its spec"):
        dist.shard(tree, mesh, dist.P("data", None, None))
    with pytest.raises(ValueError, match="uses the axis 'data' twice"):
        dist.shard(tree, mesh, dist.P("data", "data"))
    with pytest.raises(ValueError, match=r"matches the layout patterns '\*/w' and 'a/\*'"):
        dist.shard(tree, mesh, {"*/w": dist.P(), "a/*": dist.P()})
    with pytest.raises(TypeError, match="must be a P"):
        dist.shard(tree, mesh, ("data",))
    with pytest.raises(TypeError, match="the layout function gave"):
        dist.shard(tree, mesh, lambda chain, shape: None)


def test_spmd_on_a_mesh_of_one(mesh) -> None:
    with ivy_like.use_backend("numpy"):
        f = dist.spmd(
            lambda p, x: ({"y": x * p["s"]}, dist.all_sum(ivy_like.sum(x), "data")),
            mesh,
            in_specs=({"s": dist.P()}, dist.P("data")),
            out_specs=(dist.P("data"), dist.P()),
        )
        out, total = f({"s": ivy_like.asarray(2.0)}, ivy_like.arange(4.0))
    assert isinstance(out["y"], ivy_like.Array)
    np.testing.assert_array_equal(out["y"].to_numpy(), [0.0, 2.0, 4.0, 6.0])
    assert float(total) == 6.0
    with pytest.raises(ValueError, match="in_specs has 1 entries for 2 value"):
        dist.spmd(lambda a, b: a, mesh, in_specs=(dist.P(),), out_specs=dist.P())(1.0, 2.0)
    with pytest.raises(TypeError, match="in_specs must be a P"):
        dist.spmd(lambda a: a, mesh, in_specs="data", out_specs=dist.P())


def test_collectives_outside_spmd_are_errors() -> None:
    with pytest.raises(RuntimeError, match="all_sum: collectives run inside"):
        dist.all_sum(ivy_like.ones(2), "data")


def test_collective_axis_checked(mesh) -> None:
    f = dist.spmd(lambda x: dist.all_mean(x, "model"), mesh, dist.P(), dist.P())
    with ivy_like.use_backend("numpy"), pytest.raises(ValueError, match="'model' is not an axis"):
        f(ivy_like.ones(2))


def test_mesh_and_arrays_of_two_backends(mesh) -> None:
    torch = pytest.importorskip("torch")
    with pytest.raises(TypeError, match="torch arrays; the mesh is a numpy mesh"):
        dist.shard(torch.ones(2), mesh, dist.P())


def _tree() -> dict:
    return {
        "params": ivy_like.Container({"w": ivy_like.ones((2, 3)), "b": ivy_like.zeros(3)}),
        "pair": (np.arange(3), [ivy_like.asarray(1.5)]),
        "note": "kept",
    }


def test_checkpoint_round_trip(mesh, tmp_path) -> None:
    with ivy_like.use_backend("numpy"):
        dist.save(tmp_path / "c", _tree())
        back = dist.load(tmp_path / "c", mesh, dist.P())
    assert type(back["params"]) is ivy_like.Container
    assert isinstance(back["pair"], tuple) and isinstance(back["pair"][1], list)
    assert back["note"] == "kept"
    np.testing.assert_array_equal(back["params"]["w"].to_numpy(), np.ones((2, 3)))
    np.testing.assert_array_equal(back["pair"][0], np.arange(3))
    assert back["pair"][0].dtype == np.arange(3).dtype


def test_checkpoint_refusals_leave_nothing(mesh, tmp_path) -> None:
    with pytest.raises(TypeError, match="not an array"):
        dist.save(tmp_path / "c", {"w": np.ones(2), "f": print})
    with pytest.raises(TypeError, match="keys are strings"):
        dist.save(tmp_path / "c", {1: np.ones(2)})
    assert not (tmp_path / "c").exists()
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="is a file"):
        dist.save(tmp_path / "file", {"w": np.ones(2)})
    with pytest.raises(FileNotFoundError, match="holds no index.json"):
        dist.load(tmp_path, mesh, dist.P())
    dist.save(tmp_path / "c", {"w": np.ones(2)})
    os.unlink(tmp_path / "c" / "process-0-of-1.npz")
    with pytest.raises(FileNotFoundError, match="is missing: the checkpoint is incomplete"):
        dist.load(tmp_path / "c", mesh, dist.P())
    assert [p for p in os.listdir(tmp_path / "c") if p.startswith(".")] == []


def test_data_parallel_outside_leaves_grad_alone() -> None:
    from ivy_like.transforms.grad import GRADIENT_REDUCER, REDUCERS_LIVE

    assert GRADIENT_REDUCER.get() is None and REDUCERS_LIVE[0] == 0


_RANK_SCRIPT = r"""
import json, os, sys, time
info = {k: os.environ[k] for k in ("RANK", "WORLD_SIZE", "MASTER_PORT", "MLX_RANK")}
info["hosts"] = json.load(open(os.environ["MLX_HOSTFILE"]))
os.write(1, (json.dumps(info) + "\n").encode())  # one write: ranks share the pipe
if os.environ["RANK"] == sys.argv[1]:
    sys.exit(7)
time.sleep(float(sys.argv[2]))
"""


def test_launch_sets_the_environment_and_fails_with_a_rank(tmp_path) -> None:
    script = tmp_path / "rank.py"
    script.write_text(_RANK_SCRIPT)
    done = subprocess.run(
        [sys.executable, "-m", "ivy_like", "launch", "-n", "3", str(script), "-1", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    infos = sorted((json.loads(line) for line in done.stdout.splitlines()), key=str)
    assert sorted(i["RANK"] for i in infos) == ["0", "1", "2"]
    assert {i["WORLD_SIZE"] for i in infos} == {"3"}
    assert len({i["MASTER_PORT"] for i in infos}) == 1
    assert all(i["MLX_RANK"] == i["RANK"] for i in infos)
    assert len(infos[0]["hosts"]) == 3
    # rank 1 fails at once: the others (asleep for 30 s) are stopped, its code comes back
    start = time.monotonic()
    assert launch(3, [str(script), "1", "30"]) == 7
    assert time.monotonic() - start < 20


def test_launch_timeout(tmp_path) -> None:
    script = tmp_path / "rank.py"
    script.write_text(_RANK_SCRIPT)
    start = time.monotonic()
    assert launch(2, [str(script), "-1", "30"], timeout=1.0) == 124
    assert time.monotonic() - start < 15
    with pytest.raises(ValueError, match="-n must be a positive integer"):
        launch(0, [str(script)])

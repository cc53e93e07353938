"""First use of ivy_like from many threads at once, each time in a fresh interpreter.

Loading a backend, choosing the default one and registering Container with a framework happen
once per process; a race only shows in a process where none of that has happened yet, so every
test here starts its own interpreter. The frameworks' imports make that slow (seconds), so one
interpreter per round exercises every installed backend.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

import ivy_like

ROUNDS = 3
THREADS = 16

# Run in a fresh interpreter: argv[1] is a JSON list of backend names, argv[2] "1" to import
# the frameworks before the threads start (the race is then only ivy_like's own loading),
# argv[3] the number of threads.
FIRST_USE = textwrap.dedent(
    """
    import importlib, json, sys, threading, traceback
    names = json.loads(sys.argv[1])
    if sys.argv[2] == "1":
        for name in names:
            importlib.import_module("mlx.core" if name == "mlx" else name)
    import ivy_like

    THREADS = int(sys.argv[3])
    sys.setswitchinterval(1e-5)  # switch threads often, so the loaders interleave
    barrier = threading.Barrier(THREADS)
    errors = []
    default = [None] * THREADS  # no use_backend: the default backend, chosen on first use
    results = {name: [None] * THREADS for name in names}

    def work(i):
        try:
            barrier.wait()
            default[i] = ivy_like.ones(2) * i
            for name in names:
                barrier.wait()  # every thread asks for this backend first at the same moment
                with ivy_like.use_backend(name):
                    x = results[name][i] = ivy_like.ones(2) * i
                # Evaluated here: MLX evaluates lazily, on the stream of the thread that
                # made the array, and no other thread has that stream (MLX's own rule).
                ivy_like.to_numpy(x)
        except BaseException:
            errors.append(traceback.format_exc())
            barrier.abort()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    report = {"errors": errors, "backends": {}}
    if not errors:
        for name, arrays in [("default", default), *results.items()]:
            backend = arrays[0]._backend
            facts = report["backends"][name] = {
                "objects": len({id(a._backend) for a in arrays}),
                "name": backend.name,
                "is_loaded": backend is ivy_like.get_backend(backend.name),
                "native_resolves": ivy_like.backend_of(arrays[-1].data) is backend,
            }
            try:
                total = arrays[0]
                for a in arrays[1:]:
                    total = total + a  # arrays made in different threads, one backend
                facts["total"] = ivy_like.to_numpy(total).tolist()
            except Exception as err:
                facts["total"] = f"{type(err).__name__}: {err}"
        report["current_is_default"] = ivy_like.current_backend() is default[0]._backend
    print(json.dumps(report))
    """
)

# Run in a fresh interpreter with jax imported and its backend loaded: one thread makes
# Containers of jax arrays (each creation registers Container with any framework imported
# since) and, when argv[2] is "ops", computes with them, while another thread imports torch for
# the first time: by ``import torch`` when argv[1] is "import", through use_backend otherwise.
TREES_WHILE_TORCH_IMPORTS = textwrap.dedent(
    """
    import json, sys, threading, traceback, warnings
    warnings.simplefilter("error")  # a failed registration only warns: make it an error
    import jax, jax.numpy as jnp
    import ivy_like
    ivy_like.get_backend("jax")
    assert "torch" not in sys.modules
    how, work = sys.argv[1], sys.argv[2]

    errors, warm, done = [], threading.Event(), threading.Event()
    rounds = {"all": 0, "during": 0}  # during: rounds begun while torch was half-imported

    def use_jax():
        try:
            while not done.is_set() or rounds["all"] < 10:
                during = "torch" in sys.modules and not done.is_set()
                c = ivy_like.Container(a=jnp.ones(2), b={"c": jnp.zeros(3)})
                if work == "ops":
                    c = ivy_like.add(c, 1.0) * 2
                else:
                    ivy_like.add(c["a"], 1.0)
                rounds["all"] += 1
                rounds["during"] += during
                if rounds["all"] == 3:
                    warm.set()  # the types seen are known: nothing left to wait for
        except BaseException:
            errors.append(traceback.format_exc())
        finally:
            warm.set()

    def load_torch():
        try:
            warm.wait()
            if how == "import":
                import torch
            else:
                with ivy_like.use_backend("torch"):
                    ivy_like.ones(2)
        except BaseException:
            errors.append(traceback.format_exc())
        finally:
            done.set()

    sys.setswitchinterval(1e-4)
    threads = [threading.Thread(target=use_jax), threading.Thread(target=load_torch)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    import torch
    from torch.utils import _pytree
    c = ivy_like.Container(a=torch.ones(2), b={"c": torch.zeros(3)})
    leaves = [tuple(x.shape) for x in _pytree.tree_leaves(c)]
    jax_leaves = [x.shape for x in jax.tree_util.tree_leaves(ivy_like.Container(a=jnp.ones(2)))]
    print(json.dumps({"errors": errors, **rounds, "torch_leaves": leaves,
                      "jax_leaves": jax_leaves}))
    """
)


def _run(code: str, *args: str) -> dict:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", TF_ENABLE_ONEDNN_OPTS="0")
    env.pop("IVY_LIKE_BACKEND", None)  # the default backend is numpy
    proc = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_first_use_from_many_threads_loads_each_backend_once(round_):
    names = ivy_like.available_backends()
    # Odd rounds import the frameworks first: then only ivy_like's loading races.
    report = _run(FIRST_USE, json.dumps(names), str(round_ % 2), str(THREADS))
    assert report["errors"] == []
    assert sorted(report["backends"]) == sorted(["default", *names])
    backends = report["backends"]
    # One Backend object per framework, the one get_backend and the type cache give ...
    assert {key: facts["objects"] for key, facts in backends.items()} == dict.fromkeys(backends, 1)
    for key, facts in backends.items():
        assert facts["name"] == ("numpy" if key == "default" else key)
        assert facts["is_loaded"], key
        assert facts["native_resolves"], key
    # ... so arrays made in different threads combine.
    expected = [float(sum(range(THREADS)))] * 2
    assert {key: facts["total"] for key, facts in backends.items()} == dict.fromkeys(
        backends, expected
    )
    assert report["current_is_default"]


@pytest.mark.parametrize(
    ("how", "work"),
    [
        ("import", "create"),
        ("use_backend", "create"),
        ("import", "ops"),  # Container.make reads torch.compiler on every Container made
    ],
)
def test_jax_containers_while_another_thread_imports_torch(how, work):
    if not {"jax", "torch"} <= set(ivy_like.available_backends()):
        pytest.skip("needs the jax and torch backends")
    report = _run(TREES_WHILE_TORCH_IMPORTS, how, work)
    assert report["errors"] == []
    assert report["during"] > 0  # the jax thread did run while torch was half-imported
    # Registered with torch once its import finished, and still with jax.
    assert sorted(report["torch_leaves"]) == [[2], [3]]
    assert report["jax_leaves"] == [[2]]

"""Load exported artifacts as a server would: in a process where ``import ivy_like`` fails.

``python -I _load_artifacts.py jobs.json``: each job names a format, an artifact, the inputs'
names, an ``.npz`` of inputs and where to write the outputs (``.npz``, by output name). Only
the target framework's own loader is used; the process ends with an error if ivy_like was
imported or could have been. The block is set up by ``main`` only, so that importing this
module (pytest's doctest collection does) changes nothing.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np


class _NoIvyLike:
    """A finder that refuses ivy_like, installed or not."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "ivy_like":
            raise ImportError("ivy_like is blocked: an exported artifact must load without it")
        return None


def _leaves(out, prefix=""):
    if isinstance(out, dict):
        return [pair for k, v in out.items() for pair in _leaves(v, f"{prefix}{k}/")]
    if isinstance(out, (tuple, list)):
        return [pair for i, v in enumerate(out) for pair in _leaves(v, f"{prefix}{i}/")]
    name = prefix[:-1] if prefix else "0"
    return [(name if not name[0].isdigit() else f"output_{name}", out)]


def run_torch(path, names, inputs):
    import torch

    module = torch.export.load(path).module()
    with torch.no_grad():
        out = module(*(torch.from_numpy(x) for x in inputs))
    return {k: v.numpy() for k, v in _leaves(out)}


def run_savedmodel(path, names, inputs):
    import tensorflow as tf

    serve = tf.saved_model.load(path).signatures["serving_default"]
    out = serve(**{k: tf.constant(x) for k, x in zip(names, inputs)})
    return {k: v.numpy() for k, v in out.items()}


def run_tflite(path, names, inputs):
    import tensorflow as tf

    runner = tf.lite.Interpreter(model_path=path).get_signature_runner("serving_default")
    return {k: np.asarray(v) for k, v in runner(**dict(zip(names, inputs))).items()}


def run_jax(path, names, inputs):
    from jax import export

    with open(path, "rb") as file:
        exported = export.deserialize(bytearray(file.read()))
    return {k: np.asarray(v) for k, v in _leaves(exported.call(*inputs))}


def run_mlx(path, names, inputs):
    import mlx.core as mx

    out = mx.import_function(path)(*(mx.array(x) for x in inputs))
    return {f"output_{i}": np.array(y) for i, y in enumerate(out)}


def main():
    sys.meta_path.insert(0, _NoIvyLike())  # here, not on import: pytest imports this module
    with open(sys.argv[1]) as file:
        jobs = json.load(file)
    for job in jobs:
        with np.load(job["inputs"]) as data:
            inputs = [data[f"arg{i}"] for i in range(len(data.files))]
        out = globals()[f"run_{job['format']}"](job["path"], job["names"], inputs)
        np.savez(job["outputs"], **out)
    if any(name.split(".")[0] == "ivy_like" for name in sys.modules):
        sys.exit("ivy_like was imported")
    try:
        import ivy_like  # noqa: F401
    except ImportError:
        return
    sys.exit("ivy_like was importable")


def serve(jobs, folder):
    """Run ``jobs`` (a list of the dicts ``main`` reads) in a fresh ``python -I`` process running
    this file, where ``import ivy_like`` fails; raise AssertionError with its stderr if it fails.
    The tests call this (with ivy_like importable); the process it starts never imports it."""
    spec = Path(folder) / "jobs.json"
    spec.write_text(json.dumps(jobs))
    done = subprocess.run(
        [sys.executable, "-I", str(Path(__file__).resolve()), str(spec)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": ""},
    )
    assert done.returncode == 0, done.stderr[-3000:]


if __name__ == "__main__":
    main()

"""The real models ONNX ships for backends to test on (``onnx/backend/test/data/light``:
ResNet-50, DenseNet-121, Inception v1 and v2, AlexNet, ShuffleNet, SqueezeNet, VGG-19,
ZFNet-512, with reduced weights) match their reference outputs on every backend.

Their input is the one ONNX's runner feeds them (``Runner.generate_dummy_data`` without
randomness) and the reference is the output file ONNX ships beside each model; the outputs
must agree within 1e-4 (absolute and relative), as the issue asks.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import numpy_helper  # noqa: E402
from onnx.backend.test.runner import Runner  # noqa: E402

import ivy_like  # noqa: E402
from ivy_like.convert.onnx.backend import backend_for  # noqa: E402

LIGHT = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"
MODELS = sorted(p.stem for p in LIGHT.glob("light_*.onnx"))
BACKENDS = [
    b for b in ("numpy", "jax", "torch", "tensorflow", "mlx") if b in ivy_like.available_backends()
]


@pytest.fixture(autouse=True)
def _give_memory_back() -> object:
    """VGG-19 alone holds about 2 GB while it runs: give it back to the system after each
    model, so that a test process stays well under 4 GB."""
    yield
    import ctypes
    import gc

    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc
        pass


def test_all_nine_models_are_there() -> None:
    assert len(MODELS) == 9, MODELS


def check(name: str, engine: str) -> None:
    """Run ``name`` on ``engine`` and compare it with its reference (raises if it differs)."""
    model = onnx.load(str(LIGHT / f"{name}.onnx"))
    inits = {t.name for t in model.graph.initializer}
    feeds = [
        Runner.generate_dummy_data(vi, seed=0, name=name, random=False)
        for vi in model.graph.input
        if vi.name not in inits
    ]
    ref = numpy_helper.to_array(onnx.load_tensor(str(LIGHT / f"{name}_output_0.pb")))
    (got,) = backend_for(engine).prepare(model).run(feeds)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-4)


# Their weights are ConstantOfShape nodes made when the model runs (VGG-19: 550 MB, with the
# backend's copies about 2 GB at the peak): each runs in a process of its own, so that the test
# process does not add that to what it already holds.
HEAVY = {"light_vgg19", "light_zfnet512", "light_bvlc_alexnet"}


@pytest.mark.parametrize("engine", BACKENDS)
@pytest.mark.parametrize("name", MODELS)
def test_light_model_matches_its_reference(name: str, engine: str) -> None:
    if name not in HEAVY:
        check(name, engine)
        return
    import os
    import subprocess
    import sys

    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); "
        "from test_light_models import check; check(sys.argv[2], sys.argv[3])"
    )
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", "TF_ENABLE_ONEDNN_OPTS": "0"}
    done = subprocess.run(
        [sys.executable, "-c", code, str(Path(__file__).parent), name, engine],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.mark.skipif("torch" not in BACKENDS, reason="to_onnx exports through torch")
def test_squeezenet_sent_back_to_onnx_runs_in_onnx_runtime() -> None:
    """``to_onnx(from_onnx(m))`` of a real model: ONNX Runtime gives the reference outputs (its
    mean over the spatial axes written as ``GlobalAveragePool``, which ONNX Runtime rounds
    alike on every channel; see ``convert/export/_onnx.py``)."""
    pytest.importorskip("onnxscript")
    ort = pytest.importorskip("onnxruntime")
    from ivy_like.convert import from_onnx, to_onnx

    name = "light_squeezenet"
    source = onnx.load(str(LIGHT / f"{name}.onnx"))
    inits = {t.name for t in source.graph.initializer}
    (feed,) = [vi for vi in source.graph.input if vi.name not in inits]
    x = Runner.generate_dummy_data(feed, seed=0, name=name, random=False)
    ref = numpy_helper.to_array(onnx.load_tensor(str(LIGHT / f"{name}_output_0.pb")))
    again = to_onnx(from_onnx(source, backend="torch"), x, dynamic=False)
    assert "GlobalAveragePool" in {n.op_type for n in again.graph.node}
    session = ort.InferenceSession(again.SerializeToString(), providers=["CPUExecutionProvider"])
    (got,) = session.run(None, {again.graph.input[0].name: x})
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-4)

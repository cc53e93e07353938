"""Models from ONNX: ``ivy_like.convert.from_onnx`` on each backend against ONNX Runtime, and
against the same model converted from PyTorch.

Rows:

1. *ResNet-50 (light)*: ``onnx/backend/test/data/light/light_resnet50.onnx`` (opset 9, its
   weights made by ``ConstantOfShape`` nodes), one image of 3x224x224, on each backend eager
   (``model.apply(params, x)``) and compiled (``ivy_like.compile(model.apply)``), against the
   same file in ONNX Runtime (CPU, ``THREADS`` intra-op threads, every graph optimization).
   Target: compiled on jax within 1.5x of ONNX Runtime.
2. *ResNet-50 (transformers)*: ``ResNetForImageClassification`` of transformers' default
   ResNet-50 config (random weights, eval mode), exported by ``torch.onnx.export(dynamo=True)``
   and read by ``from_onnx``, on torch eager, against the same module captured by
   ``from_torch`` on torch eager (target ≤ 1.1), torch on one thread for both (its OpenMP
   threads wait by spinning, so on a machine with anything else running two threads make
   the ratio noise).

Every backend keeps its default threads (all cores), as ONNX Runtime does with ``THREADS``;
every timed call finishes its work (``block_until_ready`` on jax, ``mx.eval`` on mlx).
Timing is ``bench_transforms._time`` (warm-up, then paired rounds in a shuffled order): µs
are per-call medians, the ratio the median of the per-round ratios ivy_like / the other.

``python benchmarks/bench_onnx.py [--quick] [--backends numpy,jax,...]``
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
sys.path.insert(0, str(Path(__file__).parent))

import bench_programs as _programs  # noqa: E402
import bench_transforms as _transforms  # noqa: E402
import numpy as np  # noqa: E402

import ivy_like as il  # noqa: E402

THREADS = os.cpu_count() or 1
JAX_TARGET = 1.5  # compiled on jax against ONNX Runtime
TORCH_TARGET = 1.1  # from_onnx against from_torch, eager torch
Call = Callable[[], Any]


def _finish(out: Any) -> Any:
    """Wait for the backend's work (jax and mlx return before computing)."""
    leaves = out if isinstance(out, (tuple, list)) else (out,)
    for leaf in leaves:
        data = getattr(leaf, "_data", leaf)
        if hasattr(data, "block_until_ready"):
            data.block_until_ready()
        elif type(data).__module__.startswith("mlx"):
            import mlx.core as mx

            mx.eval(data)
    return out


def _light_resnet50() -> tuple[Any, np.ndarray]:
    import onnx
    from onnx.backend.test.runner import Runner

    path = Path(onnx.__file__).parent / "backend/test/data/light/light_resnet50.onnx"
    model = onnx.load(str(path))
    inits = {t.name for t in model.graph.initializer}
    (feed,) = [vi for vi in model.graph.input if vi.name not in inits]
    return model, Runner.generate_dummy_data(feed, seed=0, name="light_resnet50", random=False)


def _onnx_runtime(model: Any, x: np.ndarray) -> Call:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = THREADS
    # Its threads wait by spinning after each run, which took the cores from the call timed
    # next (jax compiled: 68 ms alone, 80 ms paired with a spinning session); its own time
    # is the same without (27 ms).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session = ort.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    feed = {session.get_inputs()[0].name: x}
    return lambda: session.run(None, feed)


def _ivy(model: Any, x: np.ndarray, backend: str, compiled: bool) -> Call:
    from ivy_like.convert import from_onnx

    converted = from_onnx(model, backend=backend)
    with il.use_backend(backend):
        params, xa = converted.params_on(backend), il.asarray(x)
        fn = il.compile(converted.apply) if compiled else converted.apply

    def run() -> Any:
        with il.use_backend(backend):
            return _finish(fn(params, xa))

    start = time.perf_counter()
    run()  # the first call compiles
    run.first = time.perf_counter() - start  # type: ignore[attr-defined]
    return run


def _hf_resnet50() -> tuple[Call, Call]:
    """(from_torch on torch, from_onnx of torch.onnx.export on torch), eager."""
    import torch
    import transformers

    from ivy_like.convert import from_onnx, from_torch

    torch.manual_seed(0)
    net = transformers.ResNetForImageClassification(transformers.ResNetConfig()).eval()
    x = torch.from_numpy(np.random.default_rng(0).standard_normal((1, 3, 224, 224), np.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        captured = from_torch(net, x)
        with torch.no_grad():
            proto = torch.onnx.export(net, (x,), dynamo=True, verbose=False).model_proto
    read = from_onnx(proto, backend="torch")
    a, b = captured.params_on("torch"), read.params_on("torch")
    return (lambda: captured.apply(a, x)), (lambda: read.apply(b, x))


def _row(
    model: str, ours: str, other: str, pair: Callable[[], tuple[Call, Call]], target: float | None
) -> str:
    try:
        native, ivy = pair()
        n_us, i_us, ratio = _transforms._time(native, ivy)
    except Exception as err:  # noqa: BLE001 -- reported in the row
        message = (str(err).splitlines() or [""])[0][:100]
        return f"| {model} | {ours} | {other} | failed: {type(err).__name__}: {message} | | | |"
    first = getattr(ivy, "first", None)
    if first is not None and first > 1:
        ours += f" (first call {first:.1f} s)"
    verdict = "" if target is None else f"≤{target:g} " + ("yes" if ratio <= target else "no")
    return f"| {model} | {ours} | {other} | {n_us:,.0f} | {i_us:,.0f} | {ratio:.2f} | {verdict} |"


def onnx_benchmark(quick: bool = False, backends: list[str] | None = None) -> str:
    try:
        import onnxruntime  # noqa: F401
    except ImportError as err:
        return f"Skipped: needs onnx and onnxruntime ({err}).\n"
    names = [b for b in backends or il.available_backends() if b in il.available_backends()]
    names = [b for b in names if b != "mxnet"]
    lines = [
        "Models read by `ivy_like.convert.from_onnx` (`benchmarks/bench_onnx.py`): µs per call "
        f"are medians over paired rounds, the ratio ivy_like / the other column; ONNX Runtime "
        f"on {THREADS} intra-op threads (not spinning between runs, so that its threads do not "
        "take the cores from the call timed next), every backend with its default threads"
        + (" -- *quick run: rough numbers*" if quick else "")
        + ".\n",
        "| model | ivy_like | against | other µs | ivy_like µs | ratio | target |",
        "|---|---|---|---:|---:|---:|:---:|",
    ]
    model, x = _light_resnet50()
    ort_run = _onnx_runtime(model, x)
    label = "ResNet-50 (light), 1x3x224x224"
    with _programs._timing(quick):
        for name in names:
            for compiled in (False, True):
                if compiled and name == "numpy":
                    continue  # numpy has no compiler
                target = JAX_TARGET if compiled and name == "jax" else None
                how = "compiled" if compiled else "eager"
                lines.append(
                    _row(
                        label,
                        f"`from_onnx` on {name}, {how}",
                        "ONNX Runtime",
                        lambda n=name, c=compiled: (ort_run, _ivy(model, x, n, c)),
                        target,
                    )
                )
        if "torch" in names:
            with _programs._one_torch_thread("torch"):  # both sides torch: one thread each
                lines.append(
                    _row(
                        "ResNet-50 (transformers), 1x3x224x224",
                        "`from_onnx` of `torch.onnx.export`, on torch, eager (1 thread)",
                        "`from_torch` of the module, on torch, eager (1 thread)",
                        _hf_resnet50,
                        TORCH_TARGET,
                    )
                )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="few short rounds (rough numbers)")
    parser.add_argument("--backends", default="", help="comma-separated backends (default: all)")
    args = parser.parse_args()
    backends = [b for b in args.backends.split(",") if b] or None
    print(onnx_benchmark(args.quick, backends))


if __name__ == "__main__":
    main()

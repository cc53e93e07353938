"""Run every benchmark and write the tables to docs/benchmarks.md.

``python benchmarks/run.py`` (all installed backends) or ``python benchmarks/run.py numpy torch``.
Timings are medians of interleaved rounds; see each module for what is measured.
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
sys.path.insert(0, str(Path(__file__).parent))

from bench_dispatch import dispatch_benchmark  # noqa: E402


def main(argv: list[str]) -> None:
    backends = argv or None
    sections = [
        "# Benchmarks\n",
        f"Measured by `python benchmarks/run.py` on {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}.\n",
        "## Dispatch overhead, one op per family (tiny inputs)\n",
        "3-element float32 vectors, 3x3 float32 matrices (linalg), a 2-element int32 index "
        "array; MLX results are evaluated (`mx.eval`) inside the timed region for every "
        "column. *One frame* is the native call behind one trivial Python function (the "
        "least any Python layer adds). Each of 101 rounds times native, one frame, function "
        "and method in a shuffled order; "
        "µs are medians over the rounds, and *added* is the median of the per-round "
        "differences from the native call. Budget: the function on native arrays adds at "
        "most 0.5 µs to the native call; the Array method at most 1.5 µs. A frame costs a "
        "few hundredths of a µs, so what the one-frame column shows beyond that is the "
        "noise of the row (on MLX, where every sample waits for an `mx.eval`, up to "
        "±0.8 µs on a busy 2-core machine; the MLX calls are therefore also timed without "
        "the evaluation, below).\n",
        dispatch_benchmark(backends),
    ]
    for module, func, title in [
        ("bench_container", "container_benchmark", "Container methods"),
        ("bench_gradients", "gradients_benchmark", "Gradients"),
        ("bench_training", "training_benchmark", "Whole program: one training step"),
        ("bench_transforms", "transforms_benchmark", "Function transforms against native"),
        # also writes docs/benchmarks_programs.png, the bar chart the section shows
        ("bench_programs", "programs_benchmark", "Whole programs against native idioms"),
        ("bench_convert", "convert_benchmark", "Converted models"),
        ("bench_export", "export_benchmark", "Shipped artifacts"),
        ("bench_onnx", "onnx_benchmark", "Models from ONNX"),
        ("bench_distributed", "distributed_benchmark", "Distributed step"),
    ]:
        try:
            mod = __import__(module)
        except ImportError:
            continue
        sections += [f"\n## {title}\n", getattr(mod, func)()]
    text = "\n".join(s for s in sections if s)
    print(text)
    out = Path(__file__).parent.parent / "docs" / "benchmarks.md"
    out.write_text(text + "\n")
    print(f"\nwritten to {out}")


if __name__ == "__main__":
    main(sys.argv[1:])

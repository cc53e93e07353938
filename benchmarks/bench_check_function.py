"""Wall time of ``ivy_like.testing.check_function`` on a 10-op function, every check, on the
backends with automatic differentiation (jax, torch, tensorflow, mlx; the target: under 10 s
on a 2-core machine).

Three figures: the first call in a fresh process (frameworks imported and backends loaded
before the clock starts, so it is the first trace of every transform, and torch's first
Inductor compilation), a second function of the same shapes in the same process (what each
further test of a suite costs), and the seconds per backend of that second call. Inductor's
on-disk cache is a new empty directory, so torch compiles both functions for real.

Run: ``python benchmarks/bench_check_function.py [--warm-cache] [backend ...]``.
``--warm-cache`` keeps Inductor's own on-disk cache (run twice: the second run is what a
developer's machine sees after its first run, where Inductor's one-time start is gone).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
# Inductor keeps compiled graphs on disk across processes: an empty cache of its own makes
# every run pay what a first run pays.
WARM = "--warm-cache" in sys.argv
if not WARM:
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench_check_function_")

import numpy as np  # noqa: E402

import ivy_like as il  # noqa: E402
from ivy_like.testing import check_function  # noqa: E402

DEFAULT = ("jax", "torch", "tensorflow", "mlx")


def first(x: Any, w: Any) -> Any:
    """Ten ops: matmul, tanh, sigmoid, multiply, add, multiply, negative, exp, sum, log1p..."""
    h = il.tanh(il.matmul(x, w))
    h = h * il.nn.sigmoid(h) + 0.5
    s = il.sum(il.exp(-h * h), axis=-1)
    return il.log1p(s) / (1.0 + il.mean(il.abs(w)))


def second(x: Any, w: Any) -> Any:
    """Another ten ops on the same shapes (new graphs for every compiler)."""
    h = il.sin(il.matmul(x, w))
    h = h * il.cos(h) - 0.5
    s = il.sum(il.log1p(h * h), axis=-1)
    return il.sqrt(s + 1.0) * (1.0 + il.mean(il.square(w)))


def main(argv: list[str]) -> None:
    names = [n for n in (argv or DEFAULT) if n in il.available_backends()]
    for name in names:
        il.get_backend(name)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4)).astype(np.float32)
    w = rng.standard_normal((4, 5)).astype(np.float32)
    for label, f in (("first call in the process", first), ("another function", second)):
        marks: list[tuple[str, str, float]] = []

        def progress(
            done: int, total: int, backend: str, check: str, marks: list[Any] = marks
        ) -> None:
            marks.append((backend, check, time.perf_counter()))

        start = time.perf_counter()
        report = check_function(f, x, w, backends=names, progress=progress)
        total = time.perf_counter() - start
        print(f"{label}: {total:.1f} s on {', '.join(names)} ({len(report.failures)} failures)")
        previous = start
        per_backend = dict.fromkeys(names, 0.0)
        slowest: list[tuple[float, str]] = []
        for b, c, t in marks:
            per_backend[b] += t - previous
            slowest.append((t - previous, f"{b} {c}"))
            previous = t
        print("  per backend: " + ", ".join(f"{b} {s:.1f} s" for b, s in per_backend.items()))
        top = sorted(slowest, reverse=True)[:6]
        print("  slowest checks: " + ", ".join(f"{what} {s:.1f} s" for s, what in top))


if __name__ == "__main__":
    main([a for a in sys.argv[1:] if a != "--warm-cache"])

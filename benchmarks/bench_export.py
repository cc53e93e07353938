"""Shipped artifacts: the converted models of ``bench_convert.py`` written by ``ivy_like.export``
in each format and served by their framework alone, against the source model in PyTorch.

Models: the ResNet and GPT-2 of ``bench_convert.py`` (small transformers configs, random
weights, eval mode), captured with ``ivy_like.convert.from_torch`` and exported as a user who
says nothing gets them: the batch axis dynamic in the capture and in the artifact (which then
serves every batch size), except in ``"mlx"``, whose shapeless export cannot carry GPT-2's
slices (``dynamic=False`` there, for both models alike).

Rows per model, each artifact loaded as a server without ivy_like loads it:

1. ``"torch"``: ``torch.export.load(path).module()`` against the original module, both eager
   under ``torch.no_grad()``; and both under ``torch.compile`` (the compiled row);
2. ``"jax"``: ``jax.export.deserialize(data).call`` under ``jax.jit``, against the original module
   eager and against ``torch.compile`` of it;
3. ``"savedmodel"``: the ``serving_default`` signature of ``tf.saved_model.load(path)``, against the
   same two;
4. ``"tflite"``: ``tf.lite.Interpreter`` (``invoke`` on a set input), against eager torch;
5. ``"mlx"``: ``mx.import_function(path)`` (evaluated), against eager torch, and against the same
   model written natively in MLX (``benchmarks/_native_mlx.py``: ``mlx.nn`` modules, the ResNet
   channels-last, GPT-2's attention by ``mx.fast.scaled_dot_product_attention``; the torch
   weights copied in, checked to agree within 1e-4) served two ways: ``mx.compile`` of its call,
   and its call written by ``mx.export_function`` and loaded by ``mx.import_function``;
6. the SavedModel against the same model written natively in Keras 3
   (``benchmarks/_native_keras.py``: ``keras.layers``, the ResNet channels-last, GPT-2's
   attention by ``MultiHeadAttention``; the torch weights copied in, checked within 1e-4) and
   exported by Keras's own ``model.export``, both served through their ``serving_default``
   signature.

The native rows ask whether ivy_like adds cost or the target framework's CPU kernels cost what
they cost: the native models take their input as their users hold it (images NHWC, token ids
int32), the artifacts the source's (NCHW, int64 token ids; int32 for JAX and MLX).

Every framework uses its default threads (2 on the machines the docs figures come from): the rows
compare frameworks, and pinning one of them to 1 thread would decide the result. Every timed call
finishes its work (``block_until_ready``, ``.numpy()``, ``mx.eval``). Timing is
``bench_transforms._time`` (warm-up, paired rounds in a shuffled order); µs are medians, the
ratio the median of the per-round ratios artifact / the other (target ≤ 1.1).

``python benchmarks/bench_export.py [--quick] [--only NAME]``
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
sys.path.insert(0, str(Path(__file__).parent))

import _native_keras  # noqa: E402
import _native_mlx  # noqa: E402
import bench_convert as _convert  # noqa: E402
import bench_programs as _programs  # noqa: E402
import bench_transforms as _transforms  # noqa: E402
import numpy as np  # noqa: E402

import ivy_like as il  # noqa: E402

TARGET = 1.1
Call = Callable[[], Any]


class _Shipped:
    """One model: the original module, its capture, and its artifacts (written once)."""

    def __init__(self, name: str, build: Callable[[], tuple[Any, np.ndarray]]) -> None:
        import torch

        from ivy_like.convert import from_torch

        self.name = name
        self.net, x = build()
        self.x = x
        self.x_torch = torch.from_numpy(x)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # torch.export's own notices
            self.model = from_torch(self.net, self.x_torch)
        self.folder = tempfile.mkdtemp(prefix="bench_export_")
        self._paths: dict[str, str] = {}
        self._compiled: dict[str, Any] = {}
        self.native: dict[str, Any] = {}  # framework -> the model written natively in it

    def example(self, fmt: str) -> np.ndarray:
        """The input in ``fmt``'s terms: token ids as int32 for JAX (no int64 without 64-bit
        mode) and MLX."""
        narrow = fmt in ("jax", "mlx") and self.x.dtype == np.int64
        return self.x.astype(np.int32) if narrow else self.x

    def path(self, fmt: str) -> str:
        """The artifact in format ``fmt``, exported on first use."""
        if fmt not in self._paths:
            suffix = {"torch": ".pt2", "mlx": ".mlxfn", "tflite": ".tflite"}.get(fmt, "")
            path = os.path.join(self.folder, f"model_{fmt}{suffix}")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                dynamic = False if fmt == "mlx" else None  # None: the batch axis dynamic
                il.export(self.model, self.example(fmt), format=fmt, path=path, dynamic=dynamic)
            self._paths[fmt] = path
        return self._paths[fmt]

    # -- the source ---------------------------------------------------------------------------
    def torch_eager(self) -> Call:
        import torch

        net, x = self.net, self.x_torch

        def run() -> Any:
            with torch.no_grad():
                return net(x)

        return run

    def torch_compiled(self, module: Any = None) -> Call:
        """``torch.compile`` of ``module`` (the original by default), compiled once: compiling
        the same module again would hit Dynamo's recompilation limit and run it eagerly."""
        import torch

        key = "source" if module is None else "artifact"
        if key not in self._compiled:
            self._compiled[key] = torch.compile(self.net if module is None else module)
        compiled, x = self._compiled[key], self.x_torch

        def run() -> Any:
            with torch.no_grad():
                return compiled(x)

        start = time.perf_counter()
        run()  # compiles on the first call
        if time.perf_counter() - start > _convert.COMPILE_LIMIT:
            raise TimeoutError("torch.compile took longer than the benchmark's limit")
        return run

    # -- the artifacts ------------------------------------------------------------------------
    def torch_module(self) -> Any:
        import torch

        return torch.export.load(self.path("torch")).module()

    def served_torch(self) -> Call:
        import torch

        served, x = self.torch_module(), self.x_torch

        def run() -> Any:
            with torch.no_grad():
                return served(x)

        return run

    def served_jax(self) -> Call:
        import jax

        with open(self.path("jax"), "rb") as f:
            exported = jax.export.deserialize(bytearray(f.read()))
        call = jax.jit(exported.call)
        x = jax.numpy.asarray(self.example("jax"))
        return lambda: jax.block_until_ready(call(x))

    def served_savedmodel(self) -> Call:
        import tensorflow as tf

        serve = tf.saved_model.load(self.path("savedmodel")).signatures["serving_default"]
        x = tf.constant(self.x)
        return lambda: [v.numpy() for v in serve(input_0=x).values()]

    def served_tflite(self) -> Call:
        import tensorflow as tf

        interpreter = tf.lite.Interpreter(model_path=self.path("tflite"))
        (inp,) = interpreter.get_input_details()
        x = self.x.astype(inp["dtype"])
        interpreter.resize_tensor_input(inp["index"], x.shape)  # a dynamic batch: set it
        interpreter.allocate_tensors()
        outputs = interpreter.get_output_details()

        def run() -> Any:
            interpreter.set_tensor(inp["index"], x)
            interpreter.invoke()
            return [interpreter.get_tensor(o["index"]) for o in outputs]

        return run

    def served_mlx(self) -> Call:
        import mlx.core as mx

        fn = mx.import_function(self.path("mlx"))
        x = mx.array(self.example("mlx"))

        def run() -> Any:
            out = fn(x)
            mx.eval(out)
            return out

        return run


# -- the same models written natively in the target frameworks ---------------------------------
def _native_input(name: str, x: np.ndarray) -> np.ndarray:
    """The input as the native models take it: images channels-last, token ids as int32."""
    if name == "ResNet":
        return np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    return x.astype(np.int32)


NATIVE_BUILDERS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "mlx": {"ResNet": _native_mlx.resnet, "GPT-2": _native_mlx.gpt2},
    "keras": {"ResNet": _native_keras.resnet, "GPT-2": _native_keras.gpt2},
}


def _native(case: _Shipped, framework: str) -> Any:
    """The case's model written natively in ``framework`` (built and checked once)."""
    if framework not in case.native:
        case.native[framework] = NATIVE_BUILDERS[framework][case.name](case.net)
    return case.native[framework]


def mlx_native_compiled(case: _Shipped) -> Call:
    """The native MLX model under ``mx.compile``."""
    return _native_mlx.compiled(_native(case, "mlx"), _native_input(case.name, case.x))


def mlx_native_exported(case: _Shipped) -> Call:
    """The native MLX model written by ``mx.export_function``, read by ``mx.import_function``."""
    x = _native_input(case.name, case.x)
    return _native_mlx.exported(_native(case, "mlx"), x, case.folder, "native")


def keras_native_served(case: _Shipped) -> Call:
    """The native Keras model exported by ``model.export`` and served by its signature."""
    x = _native_input(case.name, case.x)
    return _native_keras.served(_native(case, "keras"), x, case.folder, "keras_native")


# -- the table ----------------------------------------------------------------------------------
def _row(model: str, ours: str, other: str, pair: Callable[[], tuple[Call, Call]]) -> str:
    try:
        source, artifact = pair()
        s_us, a_us, ratio = _transforms._time(source, artifact)
    except Exception as err:  # noqa: BLE001 -- reported in the row
        return f"| {model} | {ours} | {other} | {_convert._failed(err)} | | | |"
    verdict = f"≤{TARGET:g} " + ("yes" if ratio <= TARGET else "no")
    return f"| {model} | {ours} | {other} | {s_us:,.1f} | {a_us:,.1f} | {ratio:.2f} | {verdict} |"


def export_benchmark(quick: bool = False, only: str = "") -> str:
    """Time the shipped artifacts; return the Markdown table."""
    try:
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError as err:
        return f"Skipped: needs torch and transformers ({err}).\n"
    have = set(il.available_backends())
    rounds = 5 if quick else _programs.ROUNDS
    lines = [
        "The models of *Converted models* written by `ivy_like.export` in each format and "
        "served by their framework alone (`benchmarks/bench_export.py`), against the source "
        "model in PyTorch (eager under `torch.no_grad()`, and `torch.compile`) and against the "
        "same model written natively in the target framework. Every framework uses its default "
        f"threads. µs per call are medians over {rounds} paired rounds, the ratio the median of "
        f"the per-round ratios artifact / the other column (target ≤ {TARGET:g})"
        + (" -- *quick run: few short rounds, rough numbers*" if quick else "")
        + ".\n",
        "| model | artifact | against | other µs | artifact µs | ratio | target |",
        "|---|---|---|---:|---:|---:|:---:|",
    ]
    eager, compiled = "the original module, eager torch", "`torch.compile` of the original"
    with _programs._timing(quick):
        for name, (label, build) in _convert.MODELS.items():
            if not _convert._matches(name, only):
                continue
            try:
                case = _Shipped(name, build)
            except Exception as err:  # noqa: BLE001 -- reported in the row
                lines.append(f"| {label} | capture | | {_convert._failed(err)} | | | |")
                continue
            rows: list[tuple[str, str, Callable[[], tuple[Call, Call]]]] = [
                ("`.pt2`, eager", eager, lambda c=case: (c.torch_eager(), c.served_torch())),
                (
                    "`.pt2` under `torch.compile`",
                    compiled,
                    lambda c=case: (c.torch_compiled(), c.torch_compiled(c.torch_module())),
                ),
            ]
            if "jax" in have:
                rows += [
                    ("`\"jax\"`, `jax.jit` of `call`", eager,
                     lambda c=case: (c.torch_eager(), c.served_jax())),
                    ("`\"jax\"`, `jax.jit` of `call`", compiled,
                     lambda c=case: (c.torch_compiled(), c.served_jax())),
                ]  # fmt: skip
            if "tensorflow" in have:
                rows += [
                    ("SavedModel `serving_default`", eager,
                     lambda c=case: (c.torch_eager(), c.served_savedmodel())),
                    ("SavedModel `serving_default`", compiled,
                     lambda c=case: (c.torch_compiled(), c.served_savedmodel())),
                    ("`.tflite`, `Interpreter.invoke`", eager,
                     lambda c=case: (c.torch_eager(), c.served_tflite())),
                ]  # fmt: skip
            if "mlx" in have:
                mlxfn = "`.mlxfn`, `mx.import_function`"
                rows += [
                    (mlxfn, eager, lambda c=case: (c.torch_eager(), c.served_mlx())),
                    (mlxfn, "the same model written in `mlx.nn`, under `mx.compile`",
                     lambda c=case: (mlx_native_compiled(c), c.served_mlx())),
                    (mlxfn, "the same model written in `mlx.nn`, `mx.export_function`'s `.mlxfn`",
                     lambda c=case: (mlx_native_exported(c), c.served_mlx())),
                ]  # fmt: skip
            if "tensorflow" in have:
                rows.append(
                    ("SavedModel `serving_default`",
                     "the same model written in Keras, `model.export`'s SavedModel",
                     lambda c=case: (keras_native_served(c), c.served_savedmodel()))
                )  # fmt: skip
            for ours, other, pair in rows:
                lines.append(_row(label, ours, other, pair))
                print(lines[-1], flush=True)
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    args = sys.argv[1:]
    only = args[args.index("--only") + 1] if "--only" in args else ""
    print(export_benchmark(quick="--quick" in args, only=only))

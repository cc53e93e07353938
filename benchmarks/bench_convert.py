"""Converted models: transformers models captured with ``ivy_like.convert.from_torch``
and run by ivy_like, against the original PyTorch module.

Models (float32, random weights from small configs, eval mode, no download):

* **ResNet**: ``ResNetForImageClassification`` of ``ivy_like.demos.convert`` (depths [1, 1, 1, 1],
  hidden sizes [16, 32, 64, 128], basic blocks) on 4 images of 3x64x64;
* **GPT-2**: ``GPT2LMHeadModel`` with 2 layers, 4 heads, 64-dim embeddings, a vocabulary of
  256, ``use_cache=False``, logits of a batch of 2 x 16 token ids.

Rows per model:

1. *torch, eager*: ``model.apply(params, x)`` with torch tensors against the original module
   under ``torch.no_grad()`` (target ≤ 1.1), torch on 1 thread, for the default capture
   (``from_torch(net, x)``: axis 0 a dynamic ``Dim("batch")``, sizes read at run time and what
   depends on them alone computed once per size);
2. *static*: the same call on a capture made with ``dynamic_shapes=False`` (every size the
   example's, what depends on them folded at capture) against the original module (target
   ≤ 1.1);
3. *dynamic batch, explicit*: the same call on a capture made with ``dynamic_shapes=({0:
   Dim("batch")},)`` (the default's dimension, given) against the original module (target
   ≤ 1.1);
4. *exported*: the static capture written by ``ivy_like.export(format="torch")`` and loaded with
   ``torch.export.load(path).module()`` (no ivy_like in the call) against the original module
   eager (target ≤ 1.1);
5. *from ONNX*: the module exported by ``torch.onnx.export(dynamo=True)`` and read back by
   ``ivy_like.convert.from_onnx``, on torch, against the original module (target ≤ 1.1) and
   against the same ONNX file in ONNX Runtime (1 intra-op thread; no target);
6. *jax, compiled*: ``ivy_like.compile(model.apply)`` on jax against the same ivy_like model
   run eagerly on jax;
7. the same compiled model against ``torch.compile`` of the original module (no_grad, torch on
   1 thread while JAX keeps its default threads; its compile time is reported, and a compilation that fails or takes over
   ``COMPILE_LIMIT`` seconds is reported instead of a timing).

Every timed call finishes its work (``block_until_ready`` on JAX). Timing is
``bench_transforms._time`` (warm-up, then paired rounds in a shuffled order); µs are per-call
medians, the ratio the median of the per-round ratios ivy_like / other. ``--quick`` runs few
short rounds (for development; the numbers are then rough).

``python benchmarks/bench_convert.py [--quick] [--profile] [--torch-only] [--only NAME]``
(``--profile``: cProfile of 50 ivy_like-on-torch calls of each model, the top functions by
cumulative time; ``--torch-only``: only the eager torch rows; ``--only gpt2``: only the models
whose name contains that text, case and dashes ignored).
"""

from __future__ import annotations

import cProfile
import io
import os
import pstats
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

import bench_programs as _programs  # noqa: E402
import bench_transforms as _transforms  # noqa: E402
import numpy as np  # noqa: E402

import ivy_like as il  # noqa: E402

COMPILE_LIMIT = 60.0  # seconds: a torch.compile slower than this is reported, not timed
GPT2_BATCH, GPT2_SEQ, GPT2_VOCAB = 2, 16, 256
TORCH_TARGET = 1.1

Call = Callable[[], Any]


def _resnet() -> tuple[Any, np.ndarray]:
    from ivy_like.demos.convert import BATCH, build_resnet

    x = np.random.default_rng(1).standard_normal((BATCH, 3, 64, 64)).astype(np.float32)
    return build_resnet(0), x


def _gpt2() -> tuple[Any, np.ndarray]:
    import torch
    import transformers

    torch.manual_seed(0)
    config = transformers.GPT2Config(
        n_layer=2,
        n_head=4,
        n_embd=64,
        vocab_size=GPT2_VOCAB,
        n_positions=GPT2_SEQ,
        use_cache=False,
        bos_token_id=0,  # inside the small vocabulary
        eos_token_id=0,
    )
    net = transformers.GPT2LMHeadModel(config).eval()
    ids = np.random.default_rng(2).integers(0, GPT2_VOCAB, (GPT2_BATCH, GPT2_SEQ))
    return net, ids


MODELS: dict[str, tuple[str, Callable[[], tuple[Any, np.ndarray]]]] = {
    "ResNet": ("ResNet [16, 32, 64, 128], 4x3x64x64", _resnet),
    "GPT-2": (f"GPT-2 2 layers d=64, {GPT2_BATCH}x{GPT2_SEQ} tokens", _gpt2),
}


class _Case:
    """One model: the original module, its capture, and its input on torch and jax."""

    def __init__(self, build: Callable[[], tuple[Any, np.ndarray]]) -> None:
        import torch

        from ivy_like.convert import from_torch

        self.net, x = build()
        self.x_torch = torch.from_numpy(x)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # torch.export's own notices
            self.model = from_torch(self.net, self.x_torch)
        # int64 token ids as int32 on jax (no int64 without x64)
        self.x_np = x.astype(np.int32) if x.dtype == np.int64 else x

    def native_eager(self) -> Call:
        import torch

        net, x = self.net, self.x_torch

        def run() -> Any:
            with torch.no_grad():
                return net(x)

        return run

    def ivy_on_torch(self) -> Call:
        model, x = self.model, self.x_torch
        params = model.params_on("torch")
        return lambda: model.apply(params, x)

    def ivy_on_jax(self, compiled: bool) -> Call:
        import jax

        b = il.get_backend("jax")
        model, x = self.model, b.asarray(self.x_np)
        params = model.params_on(b)
        apply = il.compile(model.apply) if compiled else model.apply
        return lambda: jax.block_until_ready(apply(params, x))

    def ivy_on_torch_static(self) -> Call:
        """``model.apply`` of a capture with every size fixed (``dynamic_shapes=False``)."""
        from ivy_like.convert import from_torch

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            model = from_torch(self.net, self.x_torch, dynamic_shapes=False)
        params, x = model.params_on("torch"), self.x_torch
        return lambda: model.apply(params, x)

    def ivy_on_torch_dynamic(self) -> Call:
        """``model.apply`` of a capture whose axis 0 is a ``torch.export.Dim``."""
        import torch

        from ivy_like.convert import from_torch

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            model = from_torch(
                self.net, self.x_torch, dynamic_shapes=({0: torch.export.Dim("batch")},)
            )
        params, x = model.params_on("torch"), self.x_torch
        return lambda: model.apply(params, x)

    def exported_torch(self) -> Call:
        """The capture written by ``ivy_like.export(format="torch")`` and loaded back with
        ``torch.export.load(...).module()``, as a server without ivy_like runs it: the static
        capture (``dynamic_shapes=False``) exported with its shapes fixed (``dynamic=False``)."""
        import torch

        from ivy_like.convert import from_torch

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            model = from_torch(self.net, self.x_torch, dynamic_shapes=False)
        path = os.path.join(tempfile.mkdtemp(), "model.pt2")
        il.export(model, self.x_torch, format="torch", path=path, dynamic=False)
        served, x = torch.export.load(path).module(), self.x_torch

        def run() -> Any:
            with torch.no_grad():
                return served(x)

        return run

    def onnx_proto(self) -> Any:
        """The module exported by PyTorch's own ONNX exporter (``dynamo=True``), made once."""
        if getattr(self, "_onnx", None) is None:
            import torch

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                program = torch.onnx.export(self.net, (self.x_torch,), dynamo=True, verbose=False)
            self._onnx = program.model_proto
        return self._onnx

    def ivy_on_torch_from_onnx(self) -> Call:
        """``from_onnx`` of that ONNX file, run by ivy_like on torch."""
        from ivy_like.convert import from_onnx

        model = from_onnx(self.onnx_proto(), backend="torch")
        params, x = model.params_on("torch"), self.x_torch
        return lambda: model.apply(params, x)

    def onnx_runtime(self) -> Call:
        """The same ONNX file in ONNX Runtime (CPU, 1 intra-op thread, as torch here)."""
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        session = ort.InferenceSession(
            self.onnx_proto().SerializeToString(), options, providers=["CPUExecutionProvider"]
        )
        feed = {session.get_inputs()[0].name: self.x_torch.numpy()}
        return lambda: session.run(None, feed)

    def torch_compiled(self) -> tuple[Call, float]:
        """``torch.compile`` of the module and the seconds its first call took (compiling);
        raises TimeoutError when that exceeds COMPILE_LIMIT."""
        import torch

        compiled, x = torch.compile(self.net), self.x_torch

        def run() -> Any:
            with torch.no_grad():
                return compiled(x)

        start = time.perf_counter()
        run()
        seconds = time.perf_counter() - start
        if seconds > COMPILE_LIMIT:
            raise TimeoutError(f"torch.compile took {seconds:.0f} s (limit {COMPILE_LIMIT:.0f} s)")
        return run, seconds


def _failed(err: BaseException) -> str:
    message = (str(err).splitlines() or [""])[0].split(". ")[0][:100]
    return f"failed: {type(err).__name__}: {message}"


def _row(
    model: str, ours: str, other: str, pair: Callable[[], tuple[Call, Call]], target: str
) -> str:
    try:
        native, ivy = pair()
        n_us, i_us, ratio = _transforms._time(native, ivy)
    except Exception as err:  # noqa: BLE001 -- reported in the row
        return f"| {model} | {ours} | {other} | {_failed(err)} | | | |"
    verdict = ""
    if target:
        verdict = f"≤{TORCH_TARGET:g} " + ("yes" if ratio <= TORCH_TARGET else "no")
    return f"| {model} | {ours} | {other} | {n_us:,.1f} | {i_us:,.1f} | {ratio:.2f} | {verdict} |"


def profile_torch(case: _Case, calls: int = 50, top: int = 25) -> str:
    """cProfile of ``calls`` ivy_like-on-torch calls: the top functions by cumulative time."""
    run = case.ivy_on_torch()
    run()
    profiler = cProfile.Profile()
    with _programs._one_torch_thread("torch"):
        profiler.enable()
        for _ in range(calls):
            run()
        profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def _matches(name: str, only: str) -> bool:
    squash = name.lower().replace("-", "")
    return only.lower().replace("-", "") in squash


def convert_benchmark(
    quick: bool = False, profile: bool = False, only: str = "", torch_only: bool = False
) -> str:
    """Time the converted models; return the Markdown table (and, with ``profile``, the
    profiles of ivy_like on torch below it). ``only`` keeps the models whose name contains it;
    ``torch_only`` skips the jax rows."""
    try:
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError as err:
        return f"Skipped: needs torch and transformers ({err}).\n"
    has_jax = "jax" in il.available_backends() and not torch_only
    rounds = 5 if quick else _transforms.ROUNDS
    lines = [
        "transformers models from small configs (random weights, eval mode) captured with "
        "`ivy_like.convert.from_torch` and run by ivy_like (`benchmarks/bench_convert.py`): "
        "ResNetForImageClassification (depths [1, 1, 1, 1], hidden sizes [16, 32, 64, 128]) on "
        "4 images of 3x64x64; GPT2LMHeadModel (2 layers, 4 heads, d=64, vocabulary "
        f"{GPT2_VOCAB}) on {GPT2_BATCH}x{GPT2_SEQ} token ids. Torch runs on 1 thread, eager "
        "under `torch.no_grad()` (also `torch.compile`); JAX uses its default threads; ivy_like "
        "on torch is `model.apply(params, x)` with torch tensors. µs per call are medians over "
        f"{rounds} paired rounds, the ratio the median "
        "of the per-round ratios ivy_like / the other column (target on torch: "
        f"≤ {TORCH_TARGET:g})"
        + (" -- *quick run: few short rounds, rough numbers*" if quick else "")
        + ".\n",
        "| model | ivy_like | against | other µs | ivy_like µs | ratio | target |",
        "|---|---|---|---:|---:|---:|:---:|",
    ]
    profiles = []
    with _programs._timing(quick):
        for name, (label, build) in MODELS.items():
            if not _matches(name, only):
                continue
            try:
                case = _Case(build)
            except Exception as err:  # noqa: BLE001 -- reported in the row
                lines.append(f"| {label} | capture | | {_failed(err)} | | | |")
                continue
            with il.use_backend("torch"), _programs._one_torch_thread("torch"):
                lines.append(
                    _row(
                        label,
                        "`model.apply` on torch, eager (default capture: batch dynamic)",
                        "the original module, eager torch",
                        lambda case=case: (case.native_eager(), case.ivy_on_torch()),
                        target="torch",
                    )
                )
                lines.append(
                    _row(
                        label,
                        "`model.apply` on torch, eager, `dynamic_shapes=False` (static)",
                        "the original module, eager torch",
                        lambda case=case: (case.native_eager(), case.ivy_on_torch_static()),
                        target="torch",
                    )
                )
                lines.append(
                    _row(
                        label,
                        "`model.apply` on torch, eager, batch `Dim` given explicitly",
                        "the original module, eager torch",
                        lambda case=case: (case.native_eager(), case.ivy_on_torch_dynamic()),
                        target="torch",
                    )
                )
                lines.append(
                    _row(
                        label,
                        "`ivy_like.export(format='torch')`, loaded by `torch.export.load`",
                        "the original module, eager torch",
                        lambda case=case: (case.native_eager(), case.exported_torch()),
                        target="torch",
                    )
                )
                lines.append(
                    _row(
                        label,
                        "`from_onnx` of `torch.onnx.export(module)`, on torch, eager",
                        "the original module, eager torch",
                        lambda case=case: (case.native_eager(), case.ivy_on_torch_from_onnx()),
                        target="torch",
                    )
                )
                lines.append(
                    _row(
                        label,
                        "`from_onnx` of `torch.onnx.export(module)`, on torch, eager",
                        "the same ONNX file in ONNX Runtime (1 thread)",
                        lambda case=case: (case.onnx_runtime(), case.ivy_on_torch_from_onnx()),
                        target="",
                    )
                )
            if profile:
                profiles.append(f"### {label}: ivy_like on torch, 50 calls\n\n```\n")
                profiles.append(profile_torch(case) + "```\n")
            if not has_jax:
                continue
            with il.use_backend("jax"):
                compiled = "`ivy_like.compile(model.apply)` on jax"
                lines.append(
                    _row(
                        label,
                        compiled,
                        "the same model eager on jax",
                        lambda case=case: (case.ivy_on_jax(False), case.ivy_on_jax(True)),
                        target="",
                    )
                )
                with _programs._one_torch_thread("torch"):
                    try:
                        native, seconds = case.torch_compiled()
                    except Exception as err:  # noqa: BLE001 -- reported in the row
                        lines.append(
                            f"| {label} | {compiled} | `torch.compile` of the module | "
                            f"{_failed(err)} | | | |"
                        )
                    else:
                        lines.append(
                            _row(
                                label,
                                compiled,
                                f"`torch.compile` of the module (compiled in {seconds:.0f} s)",
                                lambda native=native, case=case: (native, case.ivy_on_jax(True)),
                                target="",
                            )
                        )
    return "\n".join(lines + ["", *profiles]).rstrip() + "\n"


if __name__ == "__main__":
    args = sys.argv[1:]
    only = args[args.index("--only") + 1] if "--only" in args[:-1] else ""
    print(
        convert_benchmark(
            quick="--quick" in args,
            profile="--profile" in args,
            only=only,
            torch_only="--torch-only" in args,
        )
    )

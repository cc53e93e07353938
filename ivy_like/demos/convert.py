"""``python -m ivy_like demo convert``: a transformers ResNet converted from PyTorch and back.

A HuggingFace ``ResNetForImageClassification`` built from a small config with random weights
(no download) is captured with :func:`ivy_like.convert.from_torch`, run on every installed
backend and compared with the PyTorch original; then it is fine-tuned for one Adam step on JAX
(``ivy_like.value_and_grad`` of the cross-entropy, compiled with ``ivy_like.compile``) and sent
back to PyTorch with :func:`ivy_like.convert.to_torch`, whose module must compute what the
tuned model computes on JAX. A table gives the largest absolute difference of the logits for
every comparison; the exit code is 1 when one exceeds :data:`TOLERANCE` (or fails).
"""

from __future__ import annotations

import importlib
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import ivy_like
from ivy_like import convert, nn, optimizers

TOLERANCE = 1e-4  # the bar: float32 logits within 1e-4 of PyTorch's
BATCH = 4  # images of 3x64x64
LR = 1e-3  # Adam's step size for the one fine-tuning step (its default)
INSTALL_HINT = (
    "demo convert needs {missing}, not installed here: pip install 'ivy_like[torch,convert]' "
    "(the README's first command, which installs ivy_like[all], has both)"
)


@dataclass
class Row:
    """One comparison of the table: what was compared, where, and the largest difference
    (None when the run failed, with the error in ``note``)."""

    comparison: str
    backend: str
    diff: float | None
    note: str = ""

    @property
    def ok(self) -> bool:
        return self.diff is not None and self.diff <= TOLERANCE


def _missing_dependency() -> str | None:
    """The install hint naming what cannot be imported (torch, transformers), else None."""
    missing = []
    for module, package in (("torch", "PyTorch (torch)"), ("transformers", "transformers")):
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(package)
    return INSTALL_HINT.format(missing=" and ".join(missing)) if missing else None


def build_resnet(seed: int) -> Any:
    """The issue's small ResNet (random weights, eval mode) with realistic BatchNorm
    statistics: one pass in training mode over random images sets them (fresh ones, mean 0 and
    variance 1, would make every normalization an identity)."""
    import torch
    import transformers

    torch.manual_seed(seed)
    config = transformers.ResNetConfig(
        depths=[1, 1, 1, 1], hidden_sizes=[16, 32, 64, 128], embedding_size=16, layer_type="basic"
    )
    net = transformers.ResNetForImageClassification(config)
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.momentum = None  # a cumulative average: one batch sets the statistics
    with torch.no_grad():
        net.train()
        net(torch.rand(8, 3, 64, 64) * 2.0 + 0.5)
    return net.eval()


def _batch(seed: int, num_labels: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((BATCH, 3, 64, 64)).astype(np.float32)
    y = rng.integers(0, num_labels, BATCH).astype(np.int32)  # int32: JAX has no int64
    return x, y


def _max_diff(a: Any, b: np.ndarray) -> float:
    return float(np.max(np.abs(np.asarray(a, dtype=np.float64) - b)))


def _logits(out: Any) -> Any:
    return out["logits"]


def _fast(fn: Callable[..., Any], backend: Any) -> Callable[..., Any]:
    """``fn`` compiled on JAX (eager JAX compiles every op of the graph on first use, which
    takes far longer than compiling the whole), as it is elsewhere (eager is fast there)."""
    return ivy_like.compile(fn) if backend.name == "jax" else fn


def _split(model: Any, net: Any) -> tuple[list[str], list[str]]:
    """The key chains of ``model.params`` that are the module's parameters (trained), and the
    others: BatchNorm statistics, which a gradient step leaves alone as PyTorch does."""
    names = {n for n, _ in net.named_parameters(remove_duplicate=False)}
    trained = [kc for kc, aliases in model.aliases.items() if names.intersection(aliases)]
    return trained, [kc for kc in model.aliases if kc not in trained]


def _merge(a: Any, b: Any) -> Any:
    return ivy_like.Container.cont_unflatten(
        {**a.cont_flatten_key_chains(), **b.cont_flatten_key_chains()}
    )


def fine_tune(model: Any, net: Any, backend: Any, x: Any, y: Any) -> tuple[Any, float, float]:
    """One Adam step (compiled on JAX) of the cross-entropy on ``backend`` over the parameters;
    the tuned ``params`` (on ``backend``) and the loss before and after the step."""

    trained, frozen = _split(model, net)
    params = model.params_on(backend)
    weights = params.cont_at_key_chains(trained)
    buffers = params.cont_at_key_chains(frozen) if frozen else ivy_like.Container()
    opt = optimizers.adam(LR)

    def loss_fn(weights: Any, buffers: Any, x: Any, y: Any) -> Any:
        return nn.cross_entropy(_logits(model.apply(_merge(weights, buffers), x)), y)

    def step(weights: Any, state: Any, buffers: Any, x: Any, y: Any) -> Any:
        loss, grads = ivy_like.value_and_grad(loss_fn)(weights, buffers, x, y)
        weights, state = opt.update(weights, grads, state)
        return weights, state, loss

    weights, _, before = _fast(step, backend)(weights, opt.init(weights), buffers, x, y)
    after = _fast(loss_fn, backend)(weights, buffers, x, y)
    to_float = backend.to_numpy
    return _merge(weights, buffers), float(to_float(before)), float(to_float(after))


class _Progress:
    """A tqdm bar over the demo's stages (described as it goes), or nothing."""

    def __init__(self, total: int, enabled: bool) -> None:
        self._bar: Any = None
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:  # the demo extra is not installed: no bar, same output
                return
            self._bar = tqdm(total=total, unit="stage", leave=False, file=sys.stderr)

    def stage(self, text: str) -> None:
        if self._bar is not None:
            self._bar.set_description(text)

    def print(self, text: str) -> None:
        """Print a line of the report without mixing it into the bar's line."""
        if self._bar is not None:
            self._bar.clear()
        print(text)
        if self._bar is not None:
            self._bar.refresh()

    def done(self) -> None:
        if self._bar is not None:
            self._bar.update(1)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def _timed(rows: list[Row], comparison: str, backend: str, run: Callable[[], float]) -> None:
    """Append the row of one comparison; a failure becomes a row with its error."""
    start = time.perf_counter()
    try:
        diff = run()
    except Exception as err:  # noqa: BLE001 - reported in the table and the exit code
        message = (str(err).splitlines() or [""])[0][:90]
        rows.append(Row(comparison, backend, None, f"failed: {type(err).__name__}: {message}"))
        return
    rows.append(Row(comparison, backend, diff, f"{1000 * (time.perf_counter() - start):.0f} ms"))


def _table(rows: list[Row]) -> str:
    header = ["comparison", "backend", "max abs diff", f"≤ {TOLERANCE:g}", "note"]
    cells = [
        [
            r.comparison,
            r.backend,
            "-" if r.diff is None else f"{r.diff:.2e}",
            "yes" if r.ok else "NO",
        ]
        + [r.note]
        for r in rows
    ]
    widths = [max(len(c[i]) for c in [header, *cells]) for i in range(len(header))]

    def line(c: list[str]) -> str:
        return "| " + " | ".join(v.ljust(w) for v, w in zip(c, widths)) + " |"

    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(header), rule, *map(line, cells)])


def run_convert_demo(
    backends: list[str] | None = None, *, seed: int = 0, progress: bool | None = None
) -> int:
    """The demo; 0 when every converted model agreed within :data:`TOLERANCE`, else 1.

    ``backends``: where the converted model runs (default: every installed backend); it is
    fine-tuned on JAX when JAX is among them, else on the first one with autodiff.
    """
    missing = _missing_dependency()
    if missing is not None:
        print(missing, file=sys.stderr)
        return 1
    import torch

    if progress is None:
        progress = sys.stderr.isatty()
    names = backends or ivy_like.available_backends()
    trainable = [n for n in names if ivy_like.get_backend(n).has_autodiff]
    if not trainable:
        print(f"demo convert: no backend with autodiff among {', '.join(names)} to fine-tune on")
        return 1
    tune_on = "jax" if "jax" in trainable else trainable[0]
    # build, capture, one run per backend, fine-tune, back to PyTorch
    bar = _Progress(len(names) + 4, progress)
    rows: list[Row] = []
    try:
        bar.stage("build the ResNet")
        net = build_resnet(seed)
        x, y = _batch(seed, net.config.num_labels)
        with torch.no_grad():
            expected = _logits(net(torch.from_numpy(x))).numpy()
        bar.done()
        bar.stage("capture with from_torch")
        start = time.perf_counter()
        with warnings.catch_warnings():
            # torch.export's own deprecation notices (pytree internals): not the user's concern
            warnings.simplefilter("ignore", FutureWarning)
            model = convert.from_torch(net, torch.from_numpy(x))
        captured = time.perf_counter() - start
        bar.done()
        bar.print(
            f"ivy_like {ivy_like.__version__}: transformers ResNetForImageClassification "
            f"(depths [1, 1, 1, 1], hidden sizes [16, 32, 64, 128], {len(model.aliases)} "
            f"weight arrays), batch of {BATCH} 3x64x64 images; captured with from_torch in "
            f"{captured:.1f} s ({len(model.aten_ops)} distinct ATen ops)"
        )
        for name in names:
            bar.stage(f"run on {name}")
            b = ivy_like.get_backend(name)

            def run(b: Any = b) -> float:
                out = _fast(model.apply, b)(model.params_on(b), b.asarray(x))
                return _max_diff(b.to_numpy(_logits(out)), expected)

            mode = "compiled" if name == "jax" else "eager"
            _timed(rows, "original torch vs converted", f"{name} ({mode})", run)
            bar.done()
        bar.stage(f"fine-tune on {tune_on}")
        b = ivy_like.get_backend(tune_on)
        tuned, before, after = fine_tune(model, net, b, b.asarray(x), b.asarray(y))
        tuned_out = np.asarray(b.to_numpy(_logits(_fast(model.apply, b)(tuned, b.asarray(x)))))
        bar.print(
            f"one Adam step (lr {LR:g}) of the cross-entropy on {tune_on}: loss {before:.4f} -> "
            f"{after:.4f}; the logits moved by up to {_max_diff(tuned_out, expected):.2e}"
        )
        bar.done()
        bar.stage("back to PyTorch")

        def back() -> float:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)
                module = convert.to_torch(model, tuned)
            with torch.no_grad():
                return _max_diff(_logits(module(torch.from_numpy(x))).numpy(), tuned_out)

        _timed(rows, f"tuned on {tune_on} vs to_torch(model, tuned)", "torch (eager)", back)
        bar.done()
    finally:
        bar.close()
    print()
    print(_table(rows))
    bad = [r for r in rows if not r.ok]
    if bad:
        print(f"\n!! {len(bad)} comparison(s) above {TOLERANCE:g} or failed")
        return 1
    print(f"\nevery converted model agrees within {TOLERANCE:g}")
    return 0

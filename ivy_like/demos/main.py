"""The demos behind ``python -m ivy_like``.

* ``demo`` (:func:`run_main_demo`): one MLP, written once with ivy_like, is
  trained on scikit-learn's bundled digits data set (no network) on every installed backend
  with autodiff, from the same seed; a table gives accuracy and time per backend; the trained
  model is converted to PyTorch and Keras modules (``ivy_like.convert``) whose predictions are
  checked against ivy_like's; the loss curves are plotted to a PNG file.
* ``seeds`` (:func:`run_seeds`): the seed pages' ``stop_gradient``/``grad`` examples run
  through ivy_like on one backend at a time (each example returns NumPy values so the backends
  can be compared).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import redirect_stdout
from dataclasses import dataclass
from typing import Any

import numpy as np

import ivy_like
from ivy_like import convert, nn, optimizers


def _show(label: str, value: Any) -> None:
    """Print ``value`` under a line saying what it is, indented below it."""
    print(f"{'ivy page':>15}  {label}")
    print(textwrap.indent(str(value), " " * 17))


def ivy_page(backend: str) -> dict[str, Any]:
    """Ivy's stop_gradient page: function, Array method and Container variants, each printed
    under the expression that made it.

    Examples
    --------
    >>> from ivy_like.demos.main import ivy_page
    >>> for line in ivy_page("numpy")["printed"].splitlines()[:2]:
    ...     print(line.strip())
    ivy page  x = array([1., 2., 3.]); stop_gradient(x, preserve_type=True)
    ivy_like.array([1., 2., 3.])
    """
    buf = io.StringIO()
    with ivy_like.use_backend(backend), redirect_stdout(buf):
        x = ivy_like.array([1.0, 2.0, 3.0])
        y = ivy_like.stop_gradient(x, preserve_type=True)
        _show("x = array([1., 2., 3.]); stop_gradient(x, preserve_type=True)", y)
        x = ivy_like.zeros((2, 3))
        ivy_like.stop_gradient(x, preserve_type=False, out=x)
        _show("x = zeros((2, 3)); stop_gradient(x, preserve_type=False, out=x); x", x)
        _show(
            "array([1., 2., 3.]).stop_gradient(preserve_type=True)  (Array method)",
            ivy_like.array([1.0, 2.0, 3.0]).stop_gradient(preserve_type=True),
        )
        c = ivy_like.Container(a=ivy_like.array([0.0, 1.0, 2.0]), b=ivy_like.array([3.0, 4.0, 5.0]))
        _show(
            "c = Container(a=array([0., 1., 2.]), b=array([3., 4., 5.])); "
            "stop_gradient(c, preserve_type=False)",
            ivy_like.stop_gradient(c, preserve_type=False),
        )
        ivy_like.stop_gradient(c, preserve_type=True, out=c)
        _show("stop_gradient(c, preserve_type=True, out=c); c", c)
    return {"printed": buf.getvalue()}


def mxnet_page(backend: str) -> dict[str, Any]:
    """MXNet's example: loss = stop_gradient(3 * b) + a; its value and gradients.

    Examples
    --------
    >>> from ivy_like.demos.main import mxnet_page
    >>> mxnet_page("numpy")      # no autodiff on numpy: the value only
    {'loss': array([1., 5.], dtype=float32)}
    """
    with ivy_like.use_backend(backend) as b:
        a = ivy_like.array([1.0, 2.0])
        bb = ivy_like.array([0.0, 1.0])
        loss = ivy_like.stop_gradient(3 * bb) + a
        result: dict[str, Any] = {"loss": loss.to_numpy()}
        if b.has_autodiff:

            def f(a, b):
                return ivy_like.sum(ivy_like.stop_gradient(3 * b) + a)

            ga, gb = ivy_like.grad(f, argnums=(0, 1))(a, bb)
            result.update(grad_a=ivy_like.to_numpy(ga), grad_b=ivy_like.to_numpy(gb))
        return result


def tensorflow_page(backend: str) -> dict[str, Any]:
    """TensorFlow's 'pretend the value is a constant': d/dx sum(stop_gradient(x*x) * x) = x*x.

    Examples
    --------
    >>> from ivy_like.demos.main import tensorflow_page
    >>> tensorflow_page("numpy")
    {'note': 'no autodiff on this backend'}
    """
    with ivy_like.use_backend(backend) as b:
        x = ivy_like.array([1.0, 2.0, 3.0])
        if not b.has_autodiff:
            return {"note": "no autodiff on this backend"}
        g_stop = ivy_like.grad(lambda x: ivy_like.sum(ivy_like.stop_gradient(x * x) * x))(x)
        g_full = ivy_like.grad(lambda x: ivy_like.sum((x * x) * x))(x)
        return {
            "with_stop_gradient": ivy_like.to_numpy(g_stop),
            "without": ivy_like.to_numpy(g_full),
        }


# What each value of the MXNet and TensorFlow pages is (printed beside it by run_seeds).
SEED_LABELS = {
    "mxnet/loss": "loss = stop_gradient(3 * b) + a, a = [1., 2.], b = [0., 1.]",
    "mxnet/grad_a": "d sum(loss) / da",
    "mxnet/grad_b": "d sum(loss) / db  (zero: b is behind stop_gradient)",
    "tensorflow/with_stop_gradient": "d/dx sum(stop_gradient(x * x) * x), x = [1., 2., 3.]",
    "tensorflow/without": "d/dx sum(x * x * x)",
    "tensorflow/note": "gradients",
}


def run_seeds(backends: list[str] | None = None) -> int:
    """Run the seed pages' examples on ``backends`` (default: all installed); 0 if they agree.

    Examples
    --------
    >>> from ivy_like.demos.main import run_seeds
    >>> run_seeds(["numpy"])  # doctest: +ELLIPSIS
    ivy_like ...: backends numpy
    ...
    all backends agree
    0
    """
    names = backends or ivy_like.available_backends()
    print(f"ivy_like {ivy_like.__version__}: backends {', '.join(names)}\n")
    reference: dict[str, Any] = {}
    failures = 0
    for name in names:
        start = time.perf_counter()
        b = ivy_like.get_backend(name)
        print(f"== {name} {b.version} ==")
        page = ivy_page(name)
        print(page["printed"], end="")
        results = {"mxnet": mxnet_page(name), "tensorflow": tensorflow_page(name)}
        for page_name, values in results.items():
            for key, value in values.items():
                shown = np.array2string(np.asarray(value)) if not isinstance(value, str) else value
                label = SEED_LABELS.get(f"{page_name}/{key}", key)
                print(f"{page_name + ' page':>15}  {label}\n{'':>17}{shown}")
                ref = reference.setdefault(f"{page_name}/{key}", value)
                if not isinstance(value, str) and not np.allclose(value, ref, rtol=1e-6):
                    print(f"  !! differs from the first backend: {ref}")
                    failures += 1
        if reference.setdefault("ivy/printed", page["printed"]) != page["printed"]:
            print("  !! the Ivy page output differs from the first backend")
            failures += 1
        print(f"   ({time.perf_counter() - start:.2f} s)\n")
    print("all backends agree" if not failures else f"{failures} disagreements")
    return 1 if failures else 0


# -- the main demo: one MLP on the digits data set, every autodiff backend -------------
DEFAULT_PLOT = "demo_output/loss_curves.png"
SIZES = (64, 64, 10)


@dataclass
class Digits:
    """scikit-learn's 8x8 digits, scaled to [0, 1], split once by a seeded permutation.

    Examples
    --------
    >>> from ivy_like.demos.main import load_digits_split
    >>> load_digits_split().x_test.shape
    (359, 64)
    """

    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray


def load_digits_split(seed: int = 0, test_fraction: float = 0.2) -> Digits:
    """The bundled digits data set (no download), float32 features, int32 labels.

    Examples
    --------
    >>> from ivy_like.demos.main import load_digits_split
    >>> d = load_digits_split()
    >>> d.x_train.shape, d.x_test.shape, d.y_train.dtype
    ((1438, 64), (359, 64), dtype('int32'))
    """
    from sklearn.datasets import load_digits

    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int32)  # int32: JAX without x64 has no int64
    order = np.random.Generator(np.random.PCG64(seed)).permutation(len(y))
    n_test = int(len(y) * test_fraction)
    test, train = order[:n_test], order[n_test:]
    return Digits(x[train], y[train], x[test], y[test])


def batch_indices(n: int, steps: int, batch_size: int, seed: int) -> list[np.ndarray]:
    """The minibatches of every step: seeded epoch permutations, the same for every backend.

    Each epoch is a fresh permutation of ``range(n)`` cut into ``n // batch_size`` batches
    (a last, incomplete batch is dropped); epochs follow one another until ``steps`` batches.

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.demos.main import batch_indices
    >>> batches = batch_indices(6, steps=4, batch_size=2, seed=0)
    >>> [b.tolist() for b in batches]
    [[3, 2], [5, 4], [0, 1], [4, 5]]
    >>> sorted(np.concatenate(batches[:3]).tolist())   # the first epoch: every example once
    [0, 1, 2, 3, 4, 5]
    >>> all(np.array_equal(a, b) for a, b in zip(batches, batch_indices(6, 4, 2, seed=0)))
    True
    """
    if not isinstance(batch_size, int) or not 1 <= batch_size <= n:
        raise ValueError(f"batch_indices: batch_size must be in [1, n={n}], got {batch_size!r}")
    if not isinstance(steps, int) or steps < 0:
        raise ValueError(f"batch_indices: steps must be a non-negative int, got {steps!r}")
    rng = np.random.Generator(np.random.PCG64(seed))
    out: list[np.ndarray] = []
    while len(out) < steps:
        order = rng.permutation(n)
        out.extend(order[i : i + batch_size] for i in range(0, n - batch_size + 1, batch_size))
    return out[:steps]


@contextlib.contextmanager
def _torch_threads(n: int) -> Iterator[None]:
    """Run with ``n`` torch intra-op threads, then restore the previous number."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


@dataclass
class TrainResult:
    """What one backend's training run produced (all NumPy, comparable across backends).

    Examples
    --------
    >>> from ivy_like.demos.main import TrainResult
    >>> r = TrainResult("jax", "0.4", "jax.jit", [2.3, 0.1], 0.95, 1.5, None, None)
    >>> f"{r.backend}: {100 * r.accuracy:.0f}% after {len(r.losses)} steps"
    'jax: 95% after 2 steps'
    """

    backend: str
    version: str
    mode: str
    losses: list[float]
    accuracy: float
    seconds: float
    params: Any  # Container of NumPy arrays
    test_logits: np.ndarray


def train_mlp(
    backend: str,
    data: Digits,
    *,
    steps: int = 300,
    batch_size: int = 64,
    lr: float = 1e-2,
    seed: int = 0,
    progress: bool = False,
) -> TrainResult:
    """Train ``MLP(SIZES)`` with Adam on ``backend``: the same code on every backend.

    The step is ``value_and_grad`` of the cross-entropy plus ``optimizers.adam``; on JAX it is
    wrapped in ``jax.jit`` (the ivy_like layer traces away), elsewhere it runs eagerly.

    Examples
    --------
    >>> import ivy_like
    >>> from ivy_like.demos.main import load_digits_split, train_mlp
    >>> name = next(n for n in ivy_like.available_backends()
    ...             if ivy_like.get_backend(n).has_autodiff)
    >>> r = train_mlp(name, load_digits_split(), steps=20, lr=0.01)
    >>> r.losses[-1] < r.losses[0], 0.0 <= r.accuracy <= 1.0
    (True, True)
    """
    from tqdm import tqdm

    with ivy_like.use_backend(backend) as b:
        model = nn.MLP(SIZES, seed=seed)
        opt = optimizers.adam(lr)

        def loss_fn(params: Any, x: Any, y: Any) -> Any:
            return nn.cross_entropy(model.apply(params, x), y)

        grad_fn = ivy_like.value_and_grad(loss_fn)

        def step(params: Any, state: Any, x: Any, y: Any) -> Any:
            loss, grads = grad_fn(params, x, y)
            params, state = opt.update(params, grads, state)
            return params, state, loss

        mode = "eager"
        threads: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
        if b.name == "jax":
            import jax

            step = jax.jit(step)
            mode = "jax.jit"
        elif b.name == "torch":
            # 64-wide layers, batches of 64: torch's intra-op thread pool costs more than it
            # saves (5-10x slower per step on a busy 2-core machine). Restored afterwards.
            threads = _torch_threads(1)
            mode = "eager, 1 thread"
        params, state = model.params, opt.init(model.params)
        losses = []
        bar = tqdm(
            total=steps, desc=f"{backend:>10}", unit="step", leave=False, disable=not progress
        )
        with threads:
            start = time.perf_counter()
            for i, idx in enumerate(batch_indices(len(data.y_train), steps, batch_size, seed)):
                x, y = b.asarray(data.x_train[idx]), b.asarray(data.y_train[idx])
                params, state, loss = step(params, state, x, y)
                losses.append(loss)
                bar.update(1)
                if i % 50 == 0:
                    bar.set_postfix(loss=f"{float(b.to_numpy(loss)):.3f}")
            logits = b.to_numpy(model.apply(params, b.asarray(data.x_test)))
            seconds = time.perf_counter() - start
        bar.close()
        return TrainResult(
            backend=backend,
            version=b.version,
            mode=mode,
            losses=[float(b.to_numpy(v)) for v in losses],
            accuracy=float(np.mean(np.argmax(logits, axis=-1) == data.y_test)),
            seconds=seconds,
            params=ivy_like.Container(params).cont_to_numpy(),
            test_logits=np.asarray(logits),
        )


def _table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    line = "| " + " | ".join(h.ljust(w) for h, w in zip(header, widths)) + " |"
    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    body = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |" for r in rows]
    return "\n".join([line, rule, *body])


def plot_losses(results: list[TrainResult], path: str) -> str:
    """Write the loss curves (one per backend) to ``path`` as a PNG; return the path.

    Uses matplotlib's Agg canvas directly (no pyplot, no global backend switch).

    Examples
    --------
    >>> import os, tempfile
    >>> from ivy_like.demos.main import TrainResult, plot_losses
    >>> r = TrainResult("numpy", "2", "eager", [2.0, 1.0, 0.5], 0.9, 0.1, None, None)
    >>> path = plot_losses([r], os.path.join(tempfile.mkdtemp(), "curves.png"))
    >>> open(path, "rb").read(4)
    b'\x89PNG'
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 4.5))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    styles = ["-", "--", ":", "-."]
    for i, r in enumerate(results):
        ax.plot(r.losses, styles[i % len(styles)], label=f"{r.backend} ({r.mode})", linewidth=1.2)
    ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel("training loss (cross-entropy)")
    ax.set_title("ivy_like MLP on digits: the same code and seed on every backend")
    ax.legend()
    fig.tight_layout()
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    fig.savefig(path, dpi=110)
    return path


# float32 logits of size ~10-30 through different matmul kernels: how far apart they land is
# rounding noise whose size depends on the CPU, so the report says whether it stays below this.
LOGITS_ATOL = 1e-4


def _within(diff: float, bound: float = LOGITS_ATOL) -> str:
    shown = f"{bound:.0e}".replace("e-0", "e-")  # 1e-4, not 1e-04
    return f"below {shown}" if diff < bound else f"{diff:.1e}, ABOVE {shown}"


def _agreement(name: str, out: np.ndarray, ref: np.ndarray, atol: float) -> tuple[str, bool]:
    diff = float(np.max(np.abs(out - ref)))
    same = bool(np.array_equal(np.argmax(out, -1), np.argmax(ref, -1)))
    ok = same and diff < atol
    return f"  {name:<34} max |diff| {_within(diff, atol)}, same predicted classes: {same}", ok


def convert_and_check(result: TrainResult, data: Digits) -> tuple[list[str], bool]:
    """Convert the trained model to native PyTorch and Keras models (and PyTorch back to an
    ivy_like model on JAX) and compare their test-set logits with ivy_like's on NumPy.

    Returns the report's lines and whether every converted model agreed.

    Examples
    --------
    >>> import ivy_like
    >>> from ivy_like.demos.main import convert_and_check, load_digits_split, train_mlp
    >>> name = next(n for n in ivy_like.available_backends()
    ...             if ivy_like.get_backend(n).has_autodiff)
    >>> data = load_digits_split()
    >>> lines, ok = convert_and_check(train_mlp(name, data, steps=2), data)
    >>> ok, lines[0].strip().startswith("weights trained on")
    (True, True)
    """
    missing = [f for f in ("to_torch", "to_keras") if not hasattr(convert, f)]
    if missing:
        return [f"  skipped: ivy_like.convert has no {', '.join(missing)}"], True

    model = nn.MLP(SIZES, params=result.params, backend="numpy")
    ref = np.asarray(model(data.x_test))
    lines = [f"  weights trained on {result.backend}; reference: ivy_like on numpy"]
    ok_all = True
    installed = set(ivy_like.available_backends())
    atol = LOGITS_ATOL
    if "torch" in installed:
        import torch

        module = convert.to_torch(model)
        with torch.no_grad():
            out = module(torch.from_numpy(data.x_test)).numpy()
        line, ok = _agreement("to_torch -> torch.nn.Sequential", out, ref, atol)
        lines.append(line)
        ok_all &= ok
        if "jax" in installed and hasattr(convert, "from_torch"):
            back = convert.from_torch(module, backend="jax")
            out = np.asarray(
                ivy_like.to_numpy(back(ivy_like.get_backend("jax").asarray(data.x_test)))
            )
            line, ok = _agreement("from_torch(that) -> ivy_like on jax", out, ref, atol)
            lines.append(line)
            ok_all &= ok
    if "tensorflow" in installed:
        keras_model = convert.to_keras(model)
        out = np.asarray(keras_model(data.x_test))
        line, ok = _agreement("to_keras -> keras.Sequential", out, ref, atol)
        lines.append(line)
        ok_all &= ok
    return lines, ok_all


def run_main_demo(
    backends: list[str] | None = None,
    *,
    steps: int = 300,
    plot: str = DEFAULT_PLOT,
    seed: int = 0,
    progress: bool | None = None,
) -> int:
    """The main demo; returns 0 when training worked and every check agreed, else 1.

    Trains on each of ``backends`` that has autodiff (default: every installed backend),
    prints one line per backend, the table, the conversion report, and writes ``plot``.

    Examples
    --------
    >>> import contextlib, io, os, tempfile
    >>> import ivy_like
    >>> from ivy_like.demos.main import run_main_demo
    >>> name = next(n for n in ivy_like.available_backends()
    ...             if ivy_like.get_backend(n).has_autodiff)
    >>> plot = os.path.join(tempfile.mkdtemp(), "curves.png")
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = run_main_demo([name], steps=10, plot=plot, progress=False)
    >>> code, os.path.exists(plot), "| backend" in out.getvalue()
    (0, True, True)
    """
    if progress is None:
        progress = sys.stdout.isatty()
    names = backends or ivy_like.available_backends()
    trainable = [n for n in names if ivy_like.get_backend(n).has_autodiff]
    skipped = [n for n in names if n not in trainable]
    data = load_digits_split(seed)
    print(
        f"ivy_like {ivy_like.__version__}: MLP {list(SIZES)} on scikit-learn digits "
        f"({len(data.y_train)} train / {len(data.y_test)} test), Adam, {steps} steps, seed {seed}"
    )
    if skipped:
        print(f"not trained (no autodiff): {', '.join(skipped)}")
    results: list[TrainResult] = []
    for name in trainable:
        r = train_mlp(name, data, steps=steps, seed=seed, progress=progress)
        results.append(r)
        print(
            f"{name:>10}: loss {r.losses[0]:.4f} -> {r.losses[-1]:.4f}, test accuracy "
            f"{100 * r.accuracy:.1f}%, {r.seconds:.2f} s ({r.mode})"
        )
    if not results:
        if backends:
            print(
                f"no backend with autodiff among those chosen ({', '.join(names)}): the demo "
                "trains by gradients, so there is nothing to train"
            )
        else:
            print("no installed backend has autodiff: nothing to train")
        return 1
    ref = results[0]
    rows = []
    failures = 0
    for r in results:
        diff = float(np.max(np.abs(r.test_logits - ref.test_logits)))
        rows.append(
            [
                r.backend,
                r.version,
                r.mode,
                f"{r.losses[-1]:.4f}",
                f"{100 * r.accuracy:.1f}%",
                f"{r.seconds:.2f}",
                f"{1000 * r.seconds / steps:.1f}",
                _within(diff),
            ]
        )
        if not r.losses[-1] < r.losses[0]:
            print(f"!! {r.backend}: the loss did not decrease")
            failures += 1
    print()
    header = [
        "backend",
        "version",
        "mode",
        "final loss",
        "test acc",
        "time (s)",
        "ms/step",
        f"logits vs {ref.backend}",
    ]
    print(_table(rows, header))
    print("\nconversion of the trained model to native frameworks:")
    lines, ok = convert_and_check(ref, data)
    print("\n".join(lines))
    if not ok:
        print("!! converted models disagree")
        failures += 1
    path = plot_losses(results, plot)
    print(f"\nloss curves written to {path}")
    return 1 if failures else 0

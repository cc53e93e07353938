"""``ivy_like.export`` keeps each target's native control flow: a model converted with a
value-dependent loop (the halving loop and the Newton iterations of
``test_flax/test_flax_control_flow.py`` and ``test_torch/test_torch_control_flow.py``, the
Newton loop holding a ``cond``) and a function with a ``while_loop`` and a ``cond``, exported
to JAX, SavedModel and torch, then served by a process where ``import ivy_like`` fails
(``_load_artifacts.py``), give the source's outputs for inputs that take other numbers of
iterations and other branches than the example did."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from _load_artifacts import serve as serve_artifacts

import ivy_like
from ivy_like.convert import ExportError

HERE = Path(__file__).parent
FORMATS = {
    "jax": ("jax", "m.jaxexport"),
    "savedmodel": ("tensorflow", "m_savedmodel"),
    "torch": ("torch", "m.pt2"),
}


def _have(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def _models(relative: str):
    """The model classes of another test file (loaded by path: tests are not a package)."""
    path = HERE / relative
    name = f"_models_{path.stem}"
    if name not in sys.modules:  # registered: torch.compile finds a function's module by name
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def _flat(out):
    return [np.asarray(v) for v in (out if isinstance(out, (list, tuple)) else [out])]


def _run(fn, x):
    """The outputs of ``fn`` run eagerly with ivy_like, as NumPy arrays."""
    return [ivy_like.to_numpy(v) for v in _flat_arrays(fn(ivy_like.asarray(x)))]


def _flat_arrays(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


# -- the sources: (model, example, inputs to serve, the source's outputs for each, counts) ------
def _from_flax(name):
    from ivy_like.convert import from_flax

    src = _models("test_flax/test_flax_control_flow.py")
    module = {"halving": src.Halving, "newton": src.NewtonSqrt}[name]()
    inputs = {"halving": src.HALVING_INPUTS, "newton": src.NEWTON_INPUTS}[name]
    model = from_flax(module, inputs[0], backend="numpy")
    wants = [_flat(module(x)) for x in inputs]
    return model, inputs, wants


def _from_torch(name):
    import torch

    from ivy_like.convert import from_torch

    src = _models("test_torch/test_torch_control_flow.py")
    make, inputs = src.CASES["while" if name == "halving" else "while_with_cond"]
    module = make().eval()
    model = from_torch(module, inputs[0], backend="numpy")
    with torch.no_grad():
        wants = [_flat([o.numpy() for o in module(x)]) for x in inputs]
    return model, [x.numpy() for x in inputs], wants


def _halve_then_branch(x):
    """Halves until every element is at most 1 in size, then a branch on the sign of the
    sum: the trip count and the branch depend on x."""
    v = ivy_like.while_loop(lambda v: ivy_like.max(ivy_like.abs(v)) > 1.0, lambda v: v * 0.5, x)
    return ivy_like.cond(ivy_like.sum(v) > 0, lambda a: a + 10.0, lambda a: a * 3.0, v)


X = np.array([[3.0, -7.0], [0.5, 1.0]], np.float32)


def _function():
    inputs = [X * s for s in (0.1, 1.0, 8.0, -8.0)]  # 0, 3, 6 and 6 halvings; both branches
    wants = [_run(_halve_then_branch, x) for x in inputs]
    return _halve_then_branch, inputs, wants


def _count_then_scan(x):
    """A ``fori_loop`` whose trip count is read from x (how many entries exceed 1 in size),
    then a ``scan`` over the rows of its result."""
    n = ivy_like.sum(ivy_like.astype(ivy_like.abs(x) > 1.0, ivy_like.int32))
    v = ivy_like.fori_loop(0, n, lambda i, v: v * 0.5 + ivy_like.astype(i, v.dtype), x)
    return ivy_like.scan(lambda c, r: (c + r, c * r), ivy_like.zeros_like(v[0]), v)


def _fori_and_scan():
    inputs = [X * s for s in (0.1, 1.0, 8.0)]  # 0, 2 and 4 steps
    wants = [_run(_count_then_scan, x) for x in inputs]
    return _count_then_scan, inputs, wants


SOURCES = {
    "function": ((), _function),
    "fori_and_scan": ((), _fori_and_scan),
    "flax_halving": (("jax", "flax"), lambda: _from_flax("halving")),
    "flax_newton": (("jax", "flax"), lambda: _from_flax("newton")),
    "torch_halving": (("torch",), lambda: _from_torch("halving")),
    "torch_newton": (("torch",), lambda: _from_torch("newton")),
}
# what a SavedModel's signature calls the input: the function's parameter, else input_<i>
INPUT_NAMES = {"function": ["x"], "fori_and_scan": ["x"]}


def _halvings(x):
    n = 0
    while np.abs(x).max() > 1.0:
        x, n = x * 0.5, n + 1
    return n


def test_the_inputs_take_different_paths():
    """The served inputs differ in what the control flow does, so the tests below can fail."""
    assert [_halvings(X * s) for s in (0.1, 1.0, 8.0)] == [0, 3, 6]
    assert len({bool(np.sum(X * s) > 0) for s in (8.0, -8.0)}) == 2
    assert [int(np.sum(np.abs(X * s) > 1.0)) for s in (0.1, 1.0, 8.0)] == [0, 2, 4]
    for name, (needs, build) in SOURCES.items():
        if needs and all(_have(m) for m in needs):
            _, _, wants = build()
            counts = {int(w[0 if "halving" in name else 1]) for w in wants}
            assert len(counts) == len(wants), name


@pytest.fixture(scope="module", params=list(FORMATS))
def served(request, tmp_path_factory):
    """Each source exported in one format (its shapes static) and served, every input, by
    one process without ivy_like: the outputs per input (or the export's error), by source."""
    fmt = request.param
    framework, filename = FORMATS[fmt]
    if not _have(framework):
        pytest.skip(f"{framework} is not installed")
    folder = tmp_path_factory.mktemp(f"export_cf_{fmt}")
    jobs, results = [], {}
    for name, (needs, build) in SOURCES.items():
        if not all(_have(m) for m in needs):
            results[name] = ("skip", f"needs {', '.join(needs)}")
            continue
        model, inputs, wants = build()
        path = folder / f"{name}_{filename}"
        try:
            ivy_like.export(model, inputs[0], format=fmt, path=path, dynamic=False)
        except Exception as err:  # reported by the test of this source, not the fixture
            results[name] = ("error", err)
            continue
        outputs = []
        for i, x in enumerate(inputs):
            given, got = folder / f"{name}_{i}_in.npz", folder / f"{name}_{i}_out.npz"
            np.savez(given, arg0=x)
            jobs.append({"format": fmt, "path": str(path), "inputs": str(given),
                         "names": INPUT_NAMES.get(name, ["input_0"]), "outputs": str(got)})  # fmt: skip
            outputs.append(got)
        results[name] = ("served", outputs, wants)
    serve_artifacts(jobs, folder)
    return fmt, results


@pytest.mark.parametrize("source", list(SOURCES))
def test_an_exported_loop_serves_every_iteration_count_without_ivy_like(served, source):
    fmt, results = served
    result = results[source]
    if result[0] == "skip":
        pytest.skip(result[1])
    assert result[0] == "served", f"export to {fmt} failed: {result[1]!r}"
    _, outputs, wants = result
    for path, want in zip(outputs, wants):
        with np.load(path) as data:
            got = [data[k] for k in sorted(data.files)]  # output_0, output_1: the source's order
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5, err_msg=f"{fmt} {path.name}")


@pytest.mark.parametrize("fmt", ["torch", "savedmodel"])
def test_a_scan_over_a_dynamic_dimension_stays_dynamic(fmt, tmp_path):
    """torch's scan operator (a ``tf.while_loop`` in a SavedModel) takes the number of rows
    from the input: one artifact serves 2 and 6 rows. (``jax.export`` refuses a scan over a
    symbolic dimension: that is jax's own limit.)"""
    if not _have(FORMATS[fmt][0]):
        pytest.skip(f"{FORMATS[fmt][0]} is not installed")
    path = tmp_path / FORMATS[fmt][1]
    ivy_like.export(_count_then_scan, X, format=fmt, path=path, dynamic=[{0: "rows"}])
    inputs = [X, np.concatenate([X * 3.0, X * 0.2, X])]
    jobs = []
    for i, x in enumerate(inputs):
        np.savez(tmp_path / f"{i}_in.npz", arg0=x)
        jobs.append({"format": fmt, "path": str(path), "names": ["x"],
                     "inputs": str(tmp_path / f"{i}_in.npz"),
                     "outputs": str(tmp_path / f"{i}_out.npz")})  # fmt: skip
    serve_artifacts(jobs, tmp_path)
    for i, x in enumerate(inputs):
        with np.load(tmp_path / f"{i}_out.npz") as data:
            got = [data[k] for k in sorted(data.files)]
        want = _run(_count_then_scan, x)
        assert [g.shape for g in got] == [w.shape for w in want]
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


def test_mlx_refuses_the_loop_by_name(tmp_path):
    """MLX's export has no loop on values: a clear error naming the loop, nothing written."""
    if not _have("mlx"):
        pytest.skip("mlx is not installed")
    with pytest.raises(ExportError, match=r"ivy_like\.while_loop\(") as info:
        ivy_like.export(_halve_then_branch, X, format="mlx", path=tmp_path / "m.mlxfn")
    assert "format='mlx'" in str(info.value) and list(tmp_path.iterdir()) == []


def test_outside_export_torch_loops_stay_python_loops():
    """Only torch.export emits the operators: eager torch still runs the loop in Python (a
    Python bool per step) and ivy_like.compile still refuses a traced trip count."""
    torch = pytest.importorskip("torch")
    x = torch.from_numpy(X * 8.0)
    out = ivy_like.to_numpy(_halve_then_branch(x))
    np.testing.assert_allclose(out, X * 8.0 * 0.5**6 * 3.0)  # 6 halvings, a negative sum
    with pytest.raises(TypeError, match="torch backend runs loops in Python"):
        ivy_like.compile(_halve_then_branch)(x)

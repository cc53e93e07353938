"""The command line as a new user meets it: ``python -m ivy_like
backends`` reads versions from package metadata and imports no framework unless asked to
check; ``demo --backends`` with a wrong choice is a one-line usage error; ``seeds`` labels
every value it prints; ``get_backend()`` is the active backend; Container mismatches raise a
public exception class."""

from __future__ import annotations

import os
import subprocess
import sys
import traceback
from importlib import metadata

import pytest

import ivy_like
from ivy_like.__main__ import installed_backends, main
from ivy_like.container import ContainerStructureError
from ivy_like.demos.main import run_seeds

FRAMEWORKS = ("jax", "torch", "tensorflow", "mlx", "mxnet")
ENV = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", "TF_ENABLE_ONEDNN_OPTS": "0"}


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=ENV
    )


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ivy_like", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=ENV,
    )


# -- backends ------------------------------------------------------------------------------------
def test_backends_imports_no_framework_and_reads_versions_from_metadata():
    code = (
        "import sys\n"
        "from ivy_like.__main__ import main\n"
        "code = main(['backends'])\n"
        f"print('imported:', sorted(m for m in {FRAMEWORKS!r} if m in sys.modules))\n"
        "sys.exit(code)\n"
    )
    result = _python(code)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1] == "imported: []"
    rows = {line.split()[0]: line.split()[1:] for line in lines[1:-1]}
    assert set(rows) == set(ivy_like.registered_backends())
    assert rows["numpy"] == [metadata.version("numpy")]
    for name, version in installed_backends().items():
        if version is None:
            assert rows[name][:2] == ["not", "installed;"], rows[name]
        else:
            assert rows[name] == [version]


def test_backends_check_loads_each_installed_backend(capsys):
    assert main(["backends", "--check"]) == 0
    lines = capsys.readouterr().out.splitlines()
    installed = {n for n, v in installed_backends().items() if v is not None}
    for name in installed:
        (row,) = [line for line in lines if line.split()[0] == name]
        autodiff = ivy_like.get_backend(name).has_autodiff
        assert row.endswith("loads, autodiff" if autodiff else "loads, no autodiff"), row


# -- demo --backends -----------------------------------------------------------------------------
def _usage_error(result: subprocess.CompletedProcess[str]) -> str:
    """The argparse error line of a run that must end in a usage error (exit code 2)."""
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert lines[0].startswith("usage: python -m ivy_like demo")
    return lines[-1]


def test_demo_with_an_unknown_backend_is_a_usage_error():
    line = _usage_error(_cli("demo", "--backends", "nosuch"))
    assert line.startswith("python -m ivy_like demo: error: argument --backends: ")
    assert "unknown backend 'nosuch'" in line
    assert "numpy" in line  # the registered names are listed


def test_demo_with_a_backend_that_is_not_installed_is_a_usage_error():
    missing = [n for n, v in installed_backends().items() if v is None]
    if not missing:
        pytest.skip("every registered backend is installed here")
    line = _usage_error(_cli("demo", "--backends", missing[0]))
    assert f"the {missing[0]!r} backend is not installed here" in line
    assert "to use it: pip install" in line


def test_demo_on_backends_without_autodiff_names_the_installed_ones():
    line = _usage_error(_cli("demo", "--backends", "numpy"))
    assert "needs a backend with autodiff, which numpy lacks" in line
    others = [n for n, v in installed_backends().items() if v is not None and n != "numpy"]
    assert line.endswith(f"other installed backends: {', '.join(others) or 'none'}")
    assert "no backend with autodiff is installed" not in line


# -- seeds ---------------------------------------------------------------------------------------
def test_seeds_labels_every_value(backend, capsys):
    assert run_seeds([backend.name]) == 0
    out = capsys.readouterr().out.splitlines()
    start = out.index(f"== {backend.name} {backend.version} ==") + 1
    body = out[start : start + next(i for i, s in enumerate(out[start:]) if s.startswith("   ("))]
    labels = [s.split("page  ", 1)[1] for s in body if not s.startswith(" " * 17)]
    # Every line is a label ("<page> page  <what it is>") or a value indented under one.
    assert all(s.lstrip().split()[1] == "page" for s in body if not s.startswith(" " * 17))
    assert body[0].strip().startswith("ivy page")
    assert "x = array([1., 2., 3.]); stop_gradient(x, preserve_type=True)" in labels
    assert "loss = stop_gradient(3 * b) + a, a = [1., 2.], b = [0., 1.]" in labels
    if backend.has_autodiff:
        i = body.index("     mxnet page  d sum(loss) / da")
        assert body[i + 1].strip() == "[1. 1.]"
        i = body.index("tensorflow page  d/dx sum(stop_gradient(x * x) * x), x = [1., 2., 3.]")
        assert body[i + 1].strip() == "[1. 4. 9.]"


# -- the active backend --------------------------------------------------------------------------
def test_get_backend_without_a_name_is_the_active_backend(backend):
    assert ivy_like.get_backend() is ivy_like.current_backend() is backend
    with ivy_like.use_backend("numpy"):
        assert ivy_like.get_backend() is ivy_like.get_backend("numpy")
    assert ivy_like.get_backend() is backend
    assert ivy_like.get_backend(backend.name) is backend


def test_get_backend_without_a_name_is_the_default_backend():
    result = _python(
        "import os\n"
        "os.environ.pop('IVY_LIKE_BACKEND', None)\n"
        "import ivy_like\n"
        "print(ivy_like.get_backend().name, ivy_like.get_backend() is ivy_like.current_backend())"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["numpy", "True"]


# -- public exception classes ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "second",
    [
        {"a": [1.0]},  # "b" missing
        {"a": [1.0], "b": {"c": [2.0]}},  # a leaf in one, a Container in the other
        {"a": [1.0], "b": [2.0], "extra": [3.0]},  # a key the first lacks
    ],
    ids=["missing", "leaf-vs-container", "extra"],
)
def test_container_structure_mismatch_raises_the_public_class(backend, second):
    first = ivy_like.Container(a=ivy_like.array([1.0]), b=ivy_like.array([2.0]))
    other = ivy_like.Container(second).cont_map(lambda v, kc: ivy_like.array(v))
    with pytest.raises(ContainerStructureError, match="differ in structure at key chain") as info:
        ivy_like.add(first, other)
    err = info.value
    assert type(err) is ivy_like.ContainerStructureError
    assert isinstance(err, ValueError)  # `except ValueError` keeps working
    shown = traceback.format_exception_only(type(err), err)[-1]
    assert shown.startswith("ivy_like.container.ContainerStructureError: add: ")
    assert "._" not in shown  # no private module or class named


def test_sequence_leaves_of_different_lengths_raise_the_public_class(backend):
    a = ivy_like.Container(x=[ivy_like.array([1.0]), ivy_like.array([2.0])])
    b = ivy_like.Container(x=[ivy_like.array([1.0])])
    with pytest.raises(ContainerStructureError, match="a sequence of 2 in") as info:
        ivy_like.Container.cont_multi_map(lambda vs, kc: vs[0], [a, b], map_sequences=True)
    assert type(info.value) is ivy_like.ContainerStructureError

"""Root conftest: collection skips modules whose framework is not installed.

Backend modules and the test and converter modules that import an optional framework at module
level cannot even be imported without it (e.g. the MXNet environment has no torch, jax, flax,
keras or tensorflow). Their top-level imports are read with ``ast`` so that no framework is ever
imported here; ``find_spec`` only looks the name up.

A test (or doctest) that imports an optional dependency only when it runs, and fails with
``ModuleNotFoundError`` for one that is not installed here, is reported as skipped with that
reason. Only the optional extras of pyproject.toml count: a missing core dependency still fails.
A docstring example that raises ``NotImplementedError`` where it shows none was run on a backend
that lacks what it needs (``NoAutodiffError``: the default numpy backend has no automatic
differentiation) and is reported as skipped with the error's message; tests/project/test_docs.py
runs the same examples on every other backend.
"""

import ast
import ctypes
import doctest
import gc
import os
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

_FRAMEWORKS = ("jax", "flax", "optax", "torch", "tensorflow", "keras", "mlx", "mxnet")
# The optional extras of pyproject.toml (import names), beyond the frameworks.
_EXTRAS = ("optree", "tree", "safetensors", "sklearn", "matplotlib", "tqdm")

collect_ignore_glob = (
    [
        f"ivy_like/backends/{name}/*"
        for name in ("jax", "torch", "tensorflow", "mlx", "mxnet")
        if find_spec(name) is None
    ]
    + [
        # each framework's converters import it, or a module of theirs that does, at the top
        f"ivy_like/convert/{name}/**"
        for name in ("torch", "keras", "flax")
        if find_spec(name) is None
    ]
    + (
        # the ONNX converter's examples build models with onnx (absent beside MXNet)
        ["ivy_like/convert/onnx/**", "ivy_like/devtools/onnx_conformance.py"]
        if find_spec("onnx") is None
        else []
    )
)

_MISSING = frozenset(name for name in _FRAMEWORKS if find_spec(name) is None)
_MISSING_EXTRAS = _MISSING | frozenset(name for name in _EXTRAS if find_spec(name) is None)


def _missing_frameworks(path: Path) -> set[str]:
    """Optional frameworks imported at module level by ``path`` that are not installed."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return set()
    roots = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots & _MISSING


def pytest_ignore_collect(collection_path, config):
    if _MISSING and collection_path.suffix == ".py" and _missing_frameworks(collection_path):
        return True
    return None


def _missing_module(err: BaseException):
    """The missing optional module that ``err`` (maybe a doctest's wrapper) reports, or None."""
    if isinstance(err, doctest.UnexpectedException):
        err = err.exc_info[1]
    if isinstance(err, ModuleNotFoundError) and err.name:
        root = err.name.split(".")[0]
        if root in _MISSING_EXTRAS:
            return root
    return None


def _lacking_capability(item, err):
    """What a docstring example's unexpected ``NotImplementedError`` says, or None."""
    if not isinstance(item, pytest.DoctestItem) or not isinstance(err, doctest.UnexpectedException):
        return None
    exc = err.exc_info[1]
    return str(exc).split(";")[0] if isinstance(exc, NotImplementedError) else None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if call.when != "call" or call.excinfo is None or not report.failed:
        return
    missing = _missing_module(call.excinfo.value)
    lacking = _lacking_capability(item, call.excinfo.value)
    if missing is not None or lacking is not None:
        path, lineno, _ = item.location
        reason = (
            f"needs {missing}, not installed" if missing else f"the backend lacks it: {lacking}"
        )
        report.outcome = "skipped"
        report.longrepr = (path, (lineno or 0) + 1, f"Skipped: {reason}")


# JAX compiles every op for each new shape and dtype and keeps each executable for the life of
# the process (MLX keeps freed buffers for reuse, Dynamo its compiled frames): over the suite's
# hypothesis examples and captured models that grew one test process by 4.8 GB. The caches are
# emptied, and the freed memory handed back to the system, whenever the process has grown by
# _GROWTH since the last time: a few times a run. Not after every test or module, whose
# programs the next ones reuse (clearing after each test made the suite 25% slower, after each
# module 40%); and memory is handed back, or a process that reached a size would keep it.
_GROWTH = 2**30
_AFTER_LAST_CLEAR = [0]
try:
    _PAGE = os.sysconf("SC_PAGE_SIZE")
except (AttributeError, ValueError, OSError):
    _PAGE = 0


def _resident_bytes() -> int:
    """This process's resident memory, or 0 where /proc cannot tell."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


def _free_framework_caches() -> None:
    jax = sys.modules.get("jax")
    if jax is not None:
        jax.clear_caches()
    mlx = sys.modules.get("mlx.core")
    if mlx is not None:
        mlx.clear_cache()
    dynamo = sys.modules.get("torch._dynamo")
    if dynamo is not None:
        dynamo.reset()
    gc.collect()
    try:  # glibc keeps freed memory mapped; Linux only
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def pytest_runtest_teardown(item, nextitem):
    resident = _resident_bytes()
    if not _AFTER_LAST_CLEAR[0]:
        _AFTER_LAST_CLEAR[0] = resident  # the first test: the frameworks it imported stay
    if resident - _AFTER_LAST_CLEAR[0] >= _GROWTH:
        _free_framework_caches()
        _AFTER_LAST_CLEAR[0] = _resident_bytes()

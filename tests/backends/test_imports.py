"""What the backends and the op declarations may import, read from their source.

A backend kernel is written against the op's declaration and the engine: it imports public
names of ``ivy_like.ops`` (result types, shared rules such as ``pad_pairs``), the engine
(``ivy_like.core``) and other backend modules, and nothing private of ``ops/`` (the argument
rules an op needs are declared with it, ``@op(check=...)``, and run before any kernel). Nothing
above the backends (transforms, container, the features, the top-level package) is imported,
and no module of ivy_like is imported inside a function, where an import circle would hide.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import ivy_like
from ivy_like.core import decided_errors
from ivy_like.core.registry import OPS

PACKAGE = Path(ivy_like.__file__).parent
BACKENDS = PACKAGE / "backends"
OPS_DIR = PACKAGE / "ops"
_BELOW_BACKENDS = ("ivy_like.core", "ivy_like.ops", "ivy_like.backends")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[ast.stmt, str, list[str], bool]]:
    """(node, absolute module, imported names, inside a function) of every import in ``path``."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    return _imports_of(path.read_text(encoding="utf-8"), package)


def _imports_of(source: str, package: str) -> list[tuple[ast.stmt, str, list[str], bool]]:
    tree = ast.parse(source)
    found: list[tuple[ast.stmt, str, list[str], bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[: len(base) - (child.level - 1)]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                names = [a.name for a in child.names]
                if child.module is None or target in ("ivy_like", package):
                    # ``from . import x`` / ``from ivy_like import x``: x may be a module
                    for name in names:
                        found.append((child, f"{target}.{name}", [], in_function))
                else:
                    found.append((child, target, names, in_function))
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    found.append((child, alias.name, [], in_function))
            visit(child, nested)

    visit(tree, False)
    return found


def _files(root: Path) -> list[Path]:
    return sorted(root.rglob("*.py"))


def _is_ivy_like(module: str) -> bool:
    return module == "ivy_like" or module.startswith("ivy_like.")


def test_the_files_are_found() -> None:
    # The walk reads real modules (a wrong root would make every test below pass vacuously).
    backend_files = _files(BACKENDS)
    assert len(backend_files) > 100
    assert any(
        imp[1] == "ivy_like.ops.linalg" for imp in _imports(BACKENDS / "numpy" / "linalg.py")
    )


def test_backends_import_nothing_private_from_ops() -> None:
    bad = []
    for path in _files(BACKENDS):
        for node, module, names, _ in _imports(path):
            if module != "ivy_like.ops" and not module.startswith("ivy_like.ops."):
                continue
            private_module = any(p.startswith("_") for p in module.split("."))
            private = [n for n in names if n.startswith("_")]
            if private_module or private:
                where = f"{path.relative_to(PACKAGE)}:{node.lineno}"
                bad.append(f"{where} {module} {', '.join(private)}".rstrip())
    assert not bad, "private names of ops/ imported by backends:\n" + "\n".join(bad)


def test_backends_import_nothing_above_them() -> None:
    bad = [
        f"{path.relative_to(PACKAGE)}:{node.lineno} {module}"
        for path in _files(BACKENDS)
        for node, module, _, _ in _imports(path)
        if _is_ivy_like(module) and not module.startswith(_BELOW_BACKENDS)
    ]
    assert not bad, "backends import modules above them:\n" + "\n".join(bad)


@pytest.mark.parametrize("root", [BACKENDS, OPS_DIR], ids=["backends", "ops"])
def test_no_function_local_import_of_ivy_like(root: Path) -> None:
    # Only optional frameworks are imported inside functions.
    bad = [
        f"{path.relative_to(PACKAGE)}:{node.lineno} {module}"
        for path in _files(root)
        for node, module, _, local in _imports(path)
        if local and _is_ivy_like(module)
    ]
    assert not bad, "ivy_like modules imported inside functions:\n" + "\n".join(bad)


def test_the_walk_sees_function_local_and_private_imports() -> None:
    # The reader itself: a private name, a private module and a local import are all seen.
    source = (
        "from ...ops.linalg import _hidden\n"
        "from ...ops._half import x\n"
        "def f():\n"
        "    from ...transforms import grad\n"
    )
    found = _imports_of(source, "ivy_like.backends.numpy")
    assert [(m, n, local) for _, m, n, local in found] == [
        ("ivy_like.ops.linalg", ["_hidden"], False),
        ("ivy_like.ops._half", ["x"], False),
        ("ivy_like.transforms", ["grad"], True),
    ]


# The ops whose argument rules kernels called themselves before: each declares them now.
CHECKED = [
    "einsum",
    "one_hot",
    "top_k",
    "scatter_add",
    "segment_sum",
    "segment_max",
    "pad",
    "repeat",
    "arange",
    "eye",
    "meshgrid",
    "tril",
    "triu",
    "std",
    "var",
    "diff",
    "matrix_transpose",
    "linalg.cholesky",
    "linalg.det",
    "linalg.diagonal",
    "linalg.eigh",
    "linalg.eigvalsh",
    "linalg.inv",
    "linalg.matrix_norm",
    "linalg.matrix_power",
    "linalg.matrix_rank",
    "linalg.pinv",
    "linalg.qr",
    "linalg.slogdet",
    "linalg.solve",
    "linalg.svd",
    "linalg.svdvals",
    "linalg.trace",
    "linalg.vector_norm",
    "fft.fft",
    "fft.ifft",
    "fft.rfft",
    "fft.irfft",
    "fft.fftn",
    "fft.ifftn",
    "fft.rfftn",
    "fft.irfftn",
    "fft.hfft",
    "fft.ihfft",
    "fft.fftfreq",
    "fft.rfftfreq",
]


@pytest.mark.parametrize("key", CHECKED)
def test_op_declares_its_check(key: str) -> None:
    spec = OPS[key]
    assert spec.check is not None, f"{key} declares no check"
    # Declared beside the op, in its ops/ module, not in the engine.
    assert spec.check.__module__ == spec.declaration.__module__


def test_cheap_ops_declare_no_check() -> None:
    # Ops without argument rules pay nothing: no check in their backend attribute.
    for key in ("add", "matmul", "take", "reshape", "sum", "zeros"):
        assert OPS[key].check is None, key


def test_decided_errors_holds_only_the_generic_rules() -> None:
    per_op = [
        "einsum_labels",
        "einsum_checked",
        "pad_pairs",
        "pad_error",
        "one_hot_error",
        "scatter_add_error",
        "segment_error",
        "top_k_error",
        "arange_error",
        "eye_sizes",
        "repeat_counts",
    ]
    assert [name for name in per_op if hasattr(decided_errors, name)] == []
    source = Path(decided_errors.__file__).read_text(encoding="utf-8")
    assert len(source.splitlines()) < 1000

"""The public surface of ivy_like.convert: documented with examples, and cheap to import."""

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import ivy_like.convert as convert


@pytest.mark.parametrize("name", convert.__all__)
def test_every_public_name_has_a_runnable_example(name):
    obj = getattr(convert, name)
    doc = inspect.getdoc(obj) or ""
    assert "Examples" in doc and ">>> " in doc, f"{name} has no example"
    assert name in dir(convert)


def test_importing_convert_imports_no_framework():
    code = (
        "import sys, ivy_like.convert as c; c.flax_flatten; c.to_backend; c.Permute;"
        "print(sorted({m.split('.')[0] for m in sys.modules} &"
        " {'torch', 'jax', 'tensorflow', 'keras', 'flax', 'mlx'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_unknown_names_are_attribute_errors():
    with pytest.raises(AttributeError, match="no attribute 'from_mxnet'"):
        convert.from_mxnet  # noqa: B018


# -- the package's layout ----------------------------------------------------------------------
PACKAGE = Path(convert.__file__).parent
# What a function may import when called: the optional frameworks a converter drives.
OPTIONAL = {
    "torch", "keras", "tensorflow", "jax", "flax", "mlx", "transformers", "numpy",
    "onnx", "onnxruntime", "onnxscript",
}  # fmt: skip


def _module(path: Path) -> str:
    parts = ("ivy_like", "convert", *path.relative_to(PACKAGE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _targets(path: Path, node: ast.AST) -> list[str]:
    """The modules an import statement names, relative ones resolved from ``path``."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    assert isinstance(node, ast.ImportFrom)
    if not node.level:
        return [node.module or ""]
    package = _module(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = ".".join(package[: len(package) - node.level + 1] + [node.module or ""]).rstrip(".")
    return [f"{base}.{a.name}" for a in node.names] + [base]


def _imports(path: Path) -> tuple[set[str], set[str]]:
    """(modules imported at import time, modules imported inside functions) by ``path``."""
    at_import: set[str] = set()
    in_functions: set[str] = set()

    def visit(node: ast.AST, inside: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                (in_functions if inside else at_import).update(_targets(path, child))
            visit(child, inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

    visit(ast.parse(path.read_text()), False)
    return at_import, in_functions


def test_functions_import_only_optional_frameworks():
    local = {
        f"{path.relative_to(PACKAGE)}: {name}"
        for path in PACKAGE.rglob("*.py")
        for name in _imports(path)[1]
        if name.split(".")[0] not in OPTIONAL
    }
    assert not local, "imports inside functions (move them to the module's top)"


def test_no_import_circle_between_converter_modules():
    files = {_module(p): p for p in PACKAGE.rglob("*.py")}
    graph = {
        name: {m for m in _imports(path)[0] if m in files and m != name}
        for name, path in files.items()
    }
    # a package's __init__ importing its own modules is the package, not a circle
    graph = {
        name: {
            m
            for m in deps
            if not (name == m.rpartition(".")[0] and files[name].name == "__init__.py")
        }
        for name, deps in graph.items()
    }
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        assert name not in path, f"import circle: {' -> '.join([*path, name])}"
        if name in done:
            return
        for dep in sorted(graph[name]):
            visit(dep, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_no_module_is_a_thousand_lines():
    long = {
        str(p.relative_to(PACKAGE)): n
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text().splitlines())) >= 1000
    }
    assert not long

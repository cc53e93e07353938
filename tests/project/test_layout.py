"""The layout is the architecture: no import circles, backends that mirror ``ops/``, each op's
kernel in its family's file and nowhere else, generated code visible in tracebacks."""

from __future__ import annotations

import ast
import inspect
import traceback
from pathlib import Path

import pytest

import ivy_like
from ivy_like.core.backend import _HOOK_FILES
from ivy_like.core.registry import OPS

PACKAGE = Path(ivy_like.__file__).parent
BACKENDS = ["numpy", "jax", "torch", "tensorflow", "mlx", "mxnet"]
FAMILIES = sorted({spec.family for spec in OPS.values()})


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The ivy_like modules ``path`` imports when it is imported (module level, and in class
    bodies; imports inside functions run later and cannot close a circle at import)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text())
    nodes = [n for n in tree.body if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    while nodes:
        node = nodes.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
            continue  # annotations only
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("ivy_like"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("ivy_like"):
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in modules else target)
        else:
            nodes.extend(ast.iter_child_nodes(node))
    found.discard(name)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle_in_the_package():
    files = sorted(PACKAGE.rglob("*.py"))
    modules = {_module_name(p) for p in files}
    graph = {_module_name(p): _imports(p, modules) for p in files}
    assert _cycles(graph) == []


def test_the_core_imports_no_declaration_backend_or_feature():
    files = sorted((PACKAGE / "core").rglob("*.py"))
    modules = {_module_name(p) for p in PACKAGE.rglob("*.py")}
    for path in files:
        outside = {m for m in _imports(path, modules) if not m.startswith("ivy_like.core")}
        assert not outside, f"{path.name} imports {outside}"


@pytest.mark.parametrize("framework", BACKENDS)
def test_backends_mirror_ops(framework):
    folder = PACKAGE / "backends" / framework
    public = {p.stem for p in folder.glob("*.py") if not p.stem.startswith("_")}
    hooks = set(_HOOK_FILES)  # gradients.py, transforms.py, control_flow.py...
    assert public == {*FAMILIES, *hooks}, (
        f"backends/{framework}/ must hold one file per ops/ family and the hook files "
        f"{sorted(hooks)}; extra: {sorted(public - {*FAMILIES, *hooks})}, "
        f"missing: {sorted({*FAMILIES, *hooks} - public)}"
    )


def _defined_names(path: Path) -> set[str]:
    """Names bound at the top level of ``path`` by ``def``, ``class`` or assignment."""
    names: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Name):
                        names.add(leaf.id)
    return names


@pytest.mark.parametrize("framework", BACKENDS)
def test_each_kernel_is_in_its_familys_file_only(framework):
    """An op defined in ``__init__`` or in another family's file would be ignored by the
    loader (or, before, silently win over another definition): each is defined once, where
    the op's family says."""
    family_of = {spec.backend_name: spec.family for spec in OPS.values()}
    misplaced = []
    for path in sorted((PACKAGE / "backends" / framework).glob("*.py")):
        for name in _defined_names(path) & family_of.keys():
            if path.stem != family_of[name]:
                misplaced.append(f"{path.name}: {name} (belongs in {family_of[name]}.py)")
    assert not misplaced


def test_no_backend_keeps_an_all_list():
    lists = [
        str(p.relative_to(PACKAGE))
        for p in (PACKAGE / "backends").rglob("*.py")
        if "__all__" in _defined_names(p)
    ]
    assert not lists, "the loader reads each family file's functions; no __all__ to keep"


def test_generated_source_is_in_tracebacks_and_getsource():
    source = inspect.getsource(ivy_like.stop_gradient)
    assert source.startswith("def stop_gradient(")
    assert inspect.getsource(ivy_like.Array.__add__).startswith("def __add__(")
    x = ivy_like.array([1.0, 2.0])
    try:
        ivy_like.add(x, ivy_like.array([1.0, 2.0, 3.0]))
    except ValueError:
        text = traceback.format_exc()
    assert 'File "<ivy_like generated: ivy_like.add>"' in text
    # The generated line itself is printed under its frame.
    assert "_translate(_spec, (x1, x2, out, ), _e)" in text

"""The layout is the architecture: no import circles and no import pointing up a layer (imports
inside functions included), only optional frameworks imported inside functions, few modules
loose at the package's top, none of a thousand lines, every package saying what it holds;
backends that mirror ``ops/``, each op's kernel in its family's file and nowhere else, generated
code visible in tracebacks."""

from __future__ import annotations

import ast
import inspect
import os
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

import ivy_like
from ivy_like.core.backend import _HOOK_FILES
from ivy_like.core.registry import OPS

PACKAGE = Path(ivy_like.__file__).parent
BACKENDS = ["numpy", "jax", "torch", "tensorflow", "mlx", "mxnet"]
FAMILIES = sorted({spec.family for spec in OPS.values()})

# What a function may import when it runs rather than when its module is imported: the optional
# frameworks and the optional dependencies of pyproject's extras, imported only by the code that
# needs them so that ``import ivy_like`` imports no framework but NumPy.
OPTIONAL = {
    "torch", "tensorflow", "jax", "jaxlib", "mlx", "mxnet", "flax", "keras", "transformers",
    "optax", "optree", "tree", "safetensors", "ml_dtypes", "onnx", "onnxruntime",
    "sklearn", "matplotlib", "tqdm", "mkdocs", "pygments",
}  # fmt: skip
# Standard-library modules a function imports lazily, each for a reason.
LAZY_STDLIB = {
    # importlib.metadata costs milliseconds to import; only plugin discovery reads it.
    ("ivy_like.core.backend", "importlib.metadata"),
    # resource exists on Unix only, and the memory limit is read once.
    ("ivy_like.core.decided_errors", "resource"),
}
# The command line imports the module of the command it runs (the demos, the developer tooling)
# when it runs it: ``python -m ivy_like backends`` or ``--help`` loads neither. Nothing imports
# ``__main__``, so these lazy imports close no circle.
LAZY_COMMANDS = ("ivy_like.demos", "ivy_like.devtools")

# The layers, bottom to top: a module imports only from its own layer or the layers below. The
# bare package ``ivy_like`` (``import ivy_like as il``: the ops the core builds from ``ops/``
# and ``backends/``, and the names the package exports) is a layer of its own, the one the
# features write their code with; the package's ``__init__`` module, which imports the
# features, is above them.
NAMESPACE = "ivy_like"
INIT = "ivy_like.__init__"
LAYERS = [
    ("core", ["ivy_like.core"]),
    ("ops", ["ivy_like.ops"]),
    ("backends", ["ivy_like.backends"]),
    ("transforms and container", ["ivy_like.transforms", "ivy_like.container"]),
    ("the ops namespace", [NAMESPACE]),
    (
        "features",
        [
            "ivy_like.nn",
            "ivy_like.optimizers",
            "ivy_like.random",
            "ivy_like.convert",
            "ivy_like.testing",
            "ivy_like._entry",
            "ivy_like._data_type_functions",
            "ivy_like._info",
            "ivy_like._api_versions",
            "ivy_like.fft",
            "ivy_like.linalg",
        ],
    ),  # fmt: skip
    ("the package", [INIT]),
    ("demos, developer tooling, command line", LAZY_COMMANDS + ("ivy_like.__main__",)),
]
# Modules loose at the package's top, ``__init__`` and ``__main__`` not counted: the standard's
# namespaces (``linalg``, ``fft``) among them; everything else lives in a package named for it.
MAX_LOOSE = 8
MAX_LINES = 1000
# A file that is nothing but a table of handlers may be longer (none today).
TABLES: set[str] = set()


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _node_name(path: Path) -> str:
    """The module's name in the import graph: the package's ``__init__`` is apart from the bare
    namespace features import."""
    name = _module_name(path)
    return INIT if name == NAMESPACE else name


class Import:
    """One import statement's target in ivy_like (or the framework it names), where it is."""

    def __init__(self, target: str, line: int, in_function: bool) -> None:
        self.target, self.line, self.in_function = target, line, in_function


def _all_imports(path: Path, modules: set[str], name: str | None = None) -> list[Import]:
    """Every import statement of ``path``: at module level, in class bodies and inside
    functions and methods (those run later, but they are arrows all the same), except under
    ``if TYPE_CHECKING:`` (annotations only). Targets in ivy_like are resolved to the module
    imported (``from ivy_like.core import backend`` is ``ivy_like.core.backend``); others are
    kept as written. ``name``: the module's name (default: read from its path)."""
    name = _module_name(path) if name is None else name
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
            for child in node.orelse:
                visit(child, in_function)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(alias.name, node.lineno, in_function))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("ivy_like"):
                found.append(Import(target, node.lineno, in_function))
                return
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.append(Import(sub if sub in modules else target, node.lineno, in_function))
        inner = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(ast.parse(path.read_text()), False)
    return found


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The ivy_like modules ``path`` imports, wherever in it."""
    found = {i.target for i in _all_imports(path, modules) if _in_package(i.target)}
    found.discard(_module_name(path))
    return found


def _in_package(target: str) -> bool:
    return target == NAMESPACE or target.startswith(NAMESPACE + ".")


def _graph() -> dict[str, set[str]]:
    files = sorted(PACKAGE.rglob("*.py"))
    modules = {_module_name(p) for p in files}
    return {_node_name(p): _imports(p, modules) for p in files}


def _layer(module: str) -> int:
    best, level = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, level = len(prefix), i
    assert level >= 0, f"{module} is in no layer of tests/project/test_layout.py's LAYERS"
    return level


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


def test_the_reader_sees_imports_inside_functions(tmp_path):
    """The graph below counts an import wherever it is: in a function, a method, a nested
    function, a class body; not under ``if TYPE_CHECKING:``."""
    source = tmp_path / "probe.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "import ivy_like.core.dtypes\n"
        "if TYPE_CHECKING:\n"
        "    from ivy_like.nn import Linear\n"
        "class C:\n"
        "    from ivy_like.core import registry\n"
        "    def method(self):\n"
        "        def inner():\n"
        "            from ivy_like.transforms import grad\n"
        "            import torch\n"
    )
    modules = {"ivy_like.core.dtypes", "ivy_like.core.registry", "ivy_like.transforms.grad"}
    found = [(i.target, i.in_function) for i in _all_imports(source, modules, "ivy_like.probe")]
    assert ("ivy_like.nn", False) not in found and ("ivy_like.nn.Linear", False) not in found
    assert ("ivy_like.core.dtypes", False) in found
    assert ("ivy_like.core.registry", False) in found
    assert ("ivy_like.transforms.grad", True) in found
    assert ("torch", True) in found


def test_functions_import_only_optional_frameworks():
    """An import inside a function hides an arrow from a reader of the module's top: only the
    optional frameworks are imported there (plus the listed standard-library modules, and the
    command line's commands)."""
    files = sorted(PACKAGE.rglob("*.py"))
    modules = {_module_name(p) for p in files}
    wrong = []
    for path in files:
        name = _module_name(path)
        for i in _all_imports(path, modules):
            if not i.in_function:
                continue
            root = i.target.split(".")[0]
            if root in OPTIONAL or (name, i.target) in LAZY_STDLIB:
                continue
            if name == "ivy_like.__main__" and i.target.startswith(LAZY_COMMANDS):
                continue
            wrong.append(f"{path.relative_to(PACKAGE.parent)}:{i.line} imports {i.target}")
    assert not wrong, "imports inside functions:\n" + "\n".join(wrong)


def test_no_import_circle_in_the_package():
    assert _cycles(_graph()) == []


def test_no_import_points_up_a_layer():
    wrong = []
    for module, targets in sorted(_graph().items()):
        level = _layer(module)
        for target in sorted(targets):
            if _layer(target) > level:
                wrong.append(
                    f"{module} ({LAYERS[level][0]}) imports {target} ({LAYERS[_layer(target)][0]})"
                )
    assert not wrong, "imports pointing up:\n" + "\n".join(wrong)


def test_the_core_imports_no_declaration_backend_or_feature():
    files = sorted((PACKAGE / "core").rglob("*.py"))
    modules = {_module_name(p) for p in PACKAGE.rglob("*.py")}
    for path in files:
        outside = {m for m in _imports(path, modules) if not m.startswith("ivy_like.core")}
        assert not outside, f"{path.name} imports {outside}"


def test_few_modules_loose_at_the_top():
    loose = sorted(
        p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py")
    )
    assert {"fft.py", "linalg.py"} <= set(loose)  # the standard's namespaces
    assert len(loose) <= MAX_LOOSE, loose


def test_no_hand_written_module_reaches_a_thousand_lines():
    long = {
        str(p.relative_to(PACKAGE.parent)): n
        for p in sorted(PACKAGE.rglob("*.py"))
        if (n := len(p.read_text().splitlines())) >= MAX_LINES
    }
    assert not {k: v for k, v in long.items() if k not in TABLES}, long


def test_every_package_says_what_it_holds():
    silent = [
        str(p.relative_to(PACKAGE.parent))
        for p in sorted(PACKAGE.rglob("__init__.py"))
        if not ast.get_docstring(ast.parse(p.read_text()))
    ]
    assert not silent


def test_importing_ivy_like_loads_no_demo_and_no_developer_tooling():
    """The demos and the generators of stubs, docs and support tables are above the package:
    ``import ivy_like`` and the command line's ``backends`` never load them."""
    probe = (
        "import sys, runpy, contextlib, io\n"
        "import ivy_like\n"
        "after_import = sorted(m for m in sys.modules if m.startswith(TOOLS))\n"
        "sys.argv = ['ivy_like', 'backends']\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    runpy.run_module('ivy_like', run_name='__main__')\n"
        "print(after_import, sorted(m for m in sys.modules if m.startswith(TOOLS)))\n"
    )
    tools = "TOOLS = ('ivy_like.demos', 'ivy_like.devtools')\n"
    out = subprocess.run(
        [sys.executable, "-c", tools + probe],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(PACKAGE.parent)},
    )
    assert out.stdout.split() == ["[]", "[]"], out.stderr


def test_no_framework_in_the_optimizers():
    """The optimizers are written once; a backend's fast path is its own hook
    (``fused_adam_update`` in ``backends/torch/``)."""
    modules = {_module_name(p) for p in PACKAGE.rglob("*.py")}
    for path in sorted((PACKAGE / "optimizers").rglob("*.py")):
        roots = {i.target.split(".")[0] for i in _all_imports(path, modules)}
        assert not roots & (OPTIONAL - {"optree", "tree"}), path.name


@pytest.mark.parametrize("framework", BACKENDS)
def test_backends_mirror_ops(framework):
    folder = PACKAGE / "backends" / framework
    public = {p.stem for p in folder.glob("*.py") if not p.stem.startswith("_")}
    hooks = set(_HOOK_FILES)  # gradients.py, transforms.py, control_flow.py...
    # A feature's own file, read by that feature (ivy_like.distributed), not by the loader: a
    # backend with one device and one process (numpy, MXNet) uses the shared one in _common/.
    features = {"distributed"}
    assert {*FAMILIES, *hooks} <= public <= {*FAMILIES, *hooks, *features}, (
        f"backends/{framework}/ must hold one file per ops/ family and the hook files "
        f"{sorted(hooks)}, and may hold {sorted(features)}; "
        f"extra: {sorted(public - {*FAMILIES, *hooks, *features})}, "
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

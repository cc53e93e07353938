"""The public names of ivy_like that are not ops, found by walking what the package exports.

:func:`public_entries` reads the namespace's functions and classes, the ``__all__`` of the
public subpackages (:data:`PUBLIC_MODULES`) and the own methods of the classes in
:data:`METHODS_DOCUMENTED`, skipping the registered ops, and gives each an :class:`Entry`: its
page (an :class:`Area` of :data:`AREAS`, chosen by where the name is published), its signature
(:mod:`inspect`) and its docstring. A name a package loads on first use with its framework
(``ivy_like.convert.from_torch``, listed in the package's ``_LAZY`` table) is read from its
source with :mod:`ast` and never imported, so the documentation build, which installs NumPy
alone, documents it too. :func:`resolve` and :func:`exists` look a dotted name up the way
Python's attribute access does, without loading such a name. ``api_docs.py`` turns the entries
into the API reference's pages.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import inspect
import re
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ivy_like
from ivy_like.core.registry import OPS

_ROOT = Path(ivy_like.__file__).resolve().parent.parent  # the directory holding the package


# -- looking names up ---------------------------------------------------------------------------
class LazyName:
    """A name a package exports (its ``__all__``) but loads on first use, with its framework
    (``ivy_like.convert.from_torch`` imports torch): it exists, and the docs build, which
    installs numpy alone, must not load it to know that."""

    def __init__(self, dotted: str) -> None:
        self.dotted = dotted


_NOTHING = object()


def resolve(dotted: str) -> object | None:
    """The object ``dotted`` (``ivy_like.nn.Linear``, ``ivy_like.random``) names, a
    :class:`LazyName` for a package's exported name not loaded yet, else None (also for a name
    whose value is None, ``ivy_like.newaxis``: :func:`exists` tells them apart)."""
    found = _lookup(dotted)
    return None if found is _NOTHING else found


def exists(dotted: str) -> bool:
    """Whether ``dotted`` names something (a value, a module, a name loaded on first use)."""
    return _lookup(dotted) is not _NOTHING


def _lookup(dotted: str) -> Any:
    """What ``dotted`` names as Python's attribute access would find it (a package's attribute
    before a submodule of the same name: ``ivy_like.transforms.grad`` is the function), a
    :class:`LazyName`, or ``_NOTHING``."""
    parts = dotted.split(".")
    try:
        obj: Any = importlib.import_module(parts[0])
    except ImportError:
        return _NOTHING
    for j, attr in enumerate(parts[1:], 2):
        if isinstance(obj, types.ModuleType) and attr not in vars(obj):
            if attr in getattr(obj, "__all__", ()):
                return LazyName(".".join(parts[:j]))
            try:
                obj = importlib.import_module(".".join(parts[:j]))
                continue
            except ImportError:
                # A submodule whose own imports are missing here (ivy_like.testing.strategies
                # needs hypothesis, which the docs build does not install) still exists.
                if importlib.util.find_spec(".".join(parts[:j])) is not None:
                    return LazyName(".".join(parts[:j]))
        if not hasattr(obj, attr):
            return _NOTHING
        obj = getattr(obj, attr)
    return obj


# -- the public names that are not ops ----------------------------------------------------------
@dataclass(frozen=True)
class Area:
    """A page of public names: which names it holds (those published by ``modules``, and of
    the namespace's own names those exported by ``exported_by`` or defined under
    ``defined_in``), its title, the paragraph that opens it and the guides it points to (those
    of them in the docs directory)."""

    title: str
    intro: str
    guides: tuple[str, ...] = ()
    modules: tuple[str, ...] = ()
    exported_by: tuple[str, ...] = ()
    defined_in: tuple[str, ...] = ()


# The areas, in the order of the navigation; a name of the namespace that no area claims goes to
# "arrays". Which names a page holds is read from where they are published, never listed here.
AREAS: dict[str, Area] = {
    "transforms": Area(
        "Transforms",
        "Function transforms written once: gradients (`ivy_like.grad`, "
        "`ivy_like.value_and_grad`), vector-Jacobian and Jacobian-vector products, Jacobians "
        "and Hessians, `ivy_like.vmap`, `ivy_like.compile`, `ivy_like.checkpoint`, custom "
        "derivatives (`ivy_like.custom_function`) and control flow (`ivy_like.cond`, "
        "`ivy_like.while_loop`, `ivy_like.scan`).",
        guides=("gradients.md", "transforms.md"),
        exported_by=("ivy_like.transforms",),
    ),
    "container": Area(
        "Container",
        "The nested `ivy_like.Container` of arrays and its own methods (every op is a "
        "`Container` method too: those are on the op pages).",
        guides=("containers.md",),
        defined_in=("ivy_like.container",),
    ),
    "nn-layers": Area(
        "nn: layers and models",
        "The layers and models of `ivy_like.nn` (its functional ops are on the "
        "[nn ops page](nn.md)).",
        guides=("nn.md",),
        modules=("ivy_like.nn",),
    ),
    "optimizers": Area(
        "Optimizers and schedules",
        "`ivy_like.optimizers`: optimizers as pairs of pure functions on Containers, "
        "learning-rate schedules and gradient clipping.",
        guides=("nn.md",),
        modules=("ivy_like.optimizers",),
    ),
    "random": Area(
        "Random numbers",
        "`ivy_like.random`: random numbers with explicit seeds or key arrays, the same on "
        "every backend.",
        guides=("nn.md",),
        modules=("ivy_like.random",),
    ),
    "convert": Area(
        "Converters",
        "`ivy_like.convert`: models, weights and arrays between PyTorch, Keras, Flax and "
        "ivy_like. The converters of a framework load it when first used.",
        guides=("convert.md",),
        modules=("ivy_like.convert",),
    ),
    "distributed": Area(
        "Distributed",
        "`ivy_like.distributed`: a step written once, run on many devices or processes: "
        "meshes, placements, `spmd`, `data_parallel`, collectives and checkpoints.",
        guides=("distributed.md",),
        modules=("ivy_like.distributed",),
    ),
    "testing": Area(
        "Testing",
        "`ivy_like.testing`: checking that code agrees across backends.",
        guides=("testing.md",),
        modules=("ivy_like.testing",),
    ),
    "backends": Area(
        "Backends",
        "Choosing (`ivy_like.set_backend`, `ivy_like.use_backend`), loading and inspecting "
        "backends.",
        guides=("design.md",),
        defined_in=("ivy_like.core.backend",),
    ),
    "arrays": Area(
        "Arrays, dtypes and the namespace",
        "`ivy_like.Array`, conversions to and from native arrays, dtypes and the array API's "
        "data type functions, and the namespace's other names that are not ops.",
        guides=("design.md", "interop.md"),
        modules=("ivy_like.linalg", "ivy_like.fft"),
    ),
}
# Where public names are published: the namespace (its public names) and the public
# subpackages (their ``__all__``). ``ivy_like.transforms`` and ``ivy_like.container`` publish
# what the namespace exports.
PUBLIC_MODULES = (
    "ivy_like",
    "ivy_like.nn",
    "ivy_like.optimizers",
    "ivy_like.random",
    "ivy_like.convert",
    "ivy_like.distributed",
    "ivy_like.testing",
    "ivy_like.linalg",
    "ivy_like.fft",
)
# Classes whose own public methods get an entry each (every other class lists its members).
METHODS_DOCUMENTED = ("ivy_like.Container",)
# Public by spelling, internal by purpose: left out of the reference, each with the reason.
NOT_API = {
    "ivy_like.build_all": "the package's own build step, run once by ivy_like/__init__.py",
}


@dataclass
class Entry:
    """A documented public name that is not an op."""

    name: str  # the public name: ivy_like.grad, ivy_like.Container.cont_map
    area: str  # the key of its page in AREAS
    kind: str  # function, class, exception, method, static method, class method, property
    call: str  # how it is called (``ivy_like.grad(fun, argnums=None, argnames=())``), or ""
    doc: str  # the cleaned docstring
    source: str  # the file defining it, relative to the repository
    namespaces: tuple[str, ...] = ("",)  # op namespaces its docstring's names are looked up in
    scope: dict[str, Any] = field(default_factory=dict)  # the globals of its module
    prefixes: tuple[str, ...] = ("ivy_like.",)  # where its docstring's other names are looked up
    obj: Any = None  # None for a name read from its source (loaded on first use)
    owner: Any = None  # the class whose attributes its docstring may name (itself, or its own)
    loads: str = ""  # the framework a lazily loaded name imports
    members: list[tuple[str, str, str]] = field(default_factory=list)  # (name, kind, summary)

    @property
    def anchor(self) -> str:
        """Its anchor on its page: the name without ``ivy_like.`` (``grad``, ``nn.Linear``)
        nor a dunder's underscores, which Markdown would read as bold
        (``array_namespace_info``)."""
        return re.sub(r"(^|\.)__(\w+)__$", r"\1\2", self.name[len("ivy_like.") :])

    @property
    def page(self) -> str:
        return f"api/{self.area}.md"


def _own_doc(obj: Any) -> str:
    """The docstring ``obj`` has itself (not one inherited from a builtin base)."""
    doc = obj.__doc__ if isinstance(obj, (type, property)) else getattr(obj, "__doc__", None)
    return inspect.cleandoc(doc) if isinstance(doc, str) else ""


def _source(obj: Any) -> str:
    try:
        path = Path(inspect.getsourcefile(inspect.unwrap(obj)) or "")
    except TypeError:
        return ""
    try:
        return path.resolve().relative_to(_ROOT).as_posix()
    except ValueError:
        return path.name


def plain_signature(sig: inspect.Signature, drop_first: bool = False) -> str:
    """A signature without annotations (and without ``self``): ``(x1, x2, /, *, out=None)``."""
    params = [p.replace(annotation=p.empty) for p in sig.parameters.values()]
    if drop_first:
        params = params[1:]
    return str(sig.replace(parameters=params, return_annotation=sig.empty))


def _signature(obj: Any, drop_first: bool = False) -> str | None:
    """``obj``'s plain signature, or None where it has none of its own (a builtin's)."""
    try:
        return plain_signature(inspect.signature(obj), drop_first)
    except (TypeError, ValueError):
        return None


def is_op_function(obj: Any) -> bool:
    return any(obj is spec.function for spec in OPS.values())


def _area_of(module: str, name: str, obj: Any) -> str:
    """The page of the name ``name`` published by ``module``."""
    defined = getattr(obj, "__module__", "") or ""
    for key, area in AREAS.items():
        if module in area.modules:
            return key
        if module == "ivy_like" and (
            any(name in getattr(sys.modules.get(m), "__all__", ()) for m in area.exported_by)
            or any(defined == d or defined.startswith(d + ".") for d in area.defined_in)
        ):
            return key
    return "arrays"


def _kind(obj: Any) -> str:
    if isinstance(obj, type):
        return "exception" if issubclass(obj, BaseException) else "class"
    return "function"


def _members(cls: type) -> list[tuple[str, Any, Any]]:
    """(name, raw attribute, value) of the public members ``cls`` gets from ivy_like's classes,
    without the op methods the registry generates."""
    generated = {n for s in OPS.values() for n in (s.name, f"static_{s.name}")}
    seen: dict[str, tuple[str, Any, Any]] = {}
    for klass in cls.__mro__:
        if not (klass.__module__ or "").startswith("ivy_like"):
            continue
        for name, raw in vars(klass).items():
            if name.startswith("_") or name in generated or name in seen:
                continue
            seen[name] = (name, raw, getattr(cls, name, None))
    return sorted(seen.values())


def _member_kind(raw: Any) -> str:
    if isinstance(raw, staticmethod):
        return "static method"
    if isinstance(raw, classmethod):
        return "class method"
    if isinstance(raw, (property, functools.cached_property)):
        return "property"
    return "method" if callable(raw) else "attribute"


def _member_doc(raw: Any) -> str:
    target = raw.__func__ if isinstance(raw, (staticmethod, classmethod)) else raw
    if isinstance(target, functools.cached_property):
        target = target.func
    return _own_doc(target) if callable(target) or isinstance(target, property) else ""


def _first_sentence(doc: str) -> str:
    return doc.split("\n\n")[0].replace("\n", " ").strip()


def _entry(module: str, name: str, obj: Any) -> Entry:
    dotted = f"{module}.{name}"
    area = _area_of(module, name, obj)
    kind = _kind(obj)
    sig = _signature(obj)
    if kind == "exception" and sig in (None, "(*args, **kwargs)"):
        sig = None
    owner = sys.modules.get(getattr(obj, "__module__", "") or "")
    prefixes = tuple(dict.fromkeys((f"{module}.", "ivy_like.")))
    entry = Entry(
        name=dotted,
        area=area,
        kind=kind,
        call=f"{dotted}{sig}" if sig is not None else "",
        doc=_own_doc(obj),
        source=_source(obj),
        namespaces=tuple(dict.fromkeys((module[len("ivy_like.") :] if "." in module else "", ""))),
        scope=dict(vars(owner)) if owner is not None else {},
        prefixes=prefixes,
        obj=obj,
        owner=obj if isinstance(obj, type) else None,
    )
    if isinstance(obj, type) and dotted not in METHODS_DOCUMENTED:
        entry.members = [
            (m, _member_kind(raw), _first_sentence(_member_doc(raw))) for m, raw, _ in _members(obj)
        ]
    return entry


def _method_entries(owner: Entry) -> list[Entry]:
    """An entry for each of a class's own public methods and properties."""
    cls = owner.obj
    short = owner.name.rpartition(".")[2].lower()
    out = []
    for name, raw, value in _members(cls):
        kind = _member_kind(raw)
        if kind == "property":
            call = f"{short}.{name}"
        elif kind in ("static method", "class method"):
            sig = _signature(value)
            call = f"{owner.name}.{name}{sig or '(...)'}"
        elif kind == "method":
            sig = _signature(value, drop_first=True)
            call = f"{short}.{name}{sig or '(...)'}"
        else:
            continue
        out.append(
            Entry(
                name=f"{owner.name}.{name}",
                area=owner.area,
                kind=kind,
                call=call,
                doc=_member_doc(raw),
                source=owner.source,
                namespaces=owner.namespaces,
                scope=owner.scope,
                prefixes=(f"{owner.name}.", *owner.prefixes),
                obj=value,
                owner=cls,
            )
        )
    return out


def _lazy_entry(module: str, name: str) -> Entry | None:
    """The entry of a name ``module`` loads on first use, read from its source file with
    :mod:`ast` (the package's ``_LAZY`` table says which submodule defines it), so that the
    framework it imports is never loaded. None when the source does not define it."""
    package = sys.modules[module]
    where = getattr(package, "_LAZY", {}).get(name)
    if where is None:
        return None
    submodule, attr = where
    path = Path(str(package.__file__)).parent.joinpath(*submodule.split(".")).with_suffix(".py")
    if not path.is_file():
        path = path.with_suffix("") / "__init__.py"
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return None
    node = next(
        (
            n
            for n in tree.body
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and n.name == attr
        ),
        None,
    )
    if node is None:
        return None
    dotted = f"{module}.{name}"
    kind, sig = "function", None
    if isinstance(node, ast.ClassDef):
        kind = "class"
        init = next(
            (n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"),
            None,
        )
        if init is not None:
            sig = _ast_signature(init.args, drop_first=True)
    else:
        sig = _ast_signature(node.args)
    return Entry(
        name=dotted,
        area=_area_of(module, name, None),
        kind=kind,
        call=f"{dotted}{sig}" if sig is not None else "",
        doc=inspect.cleandoc(ast.get_docstring(node) or ""),
        source=path.resolve().relative_to(_ROOT).as_posix(),
        namespaces=("",),
        scope=_ast_scope(path.parent),
        prefixes=(f"{module}.", "ivy_like."),
        loads=submodule.split(".")[0],
    )


def _ast_scope(folder: Path) -> dict[str, Any]:
    """The names the modules of ``folder`` (a framework's converter package) define or import
    at their top level, read with :mod:`ast`: what the docstrings of its lazily loaded names may
    refer to (each maps to None: it is known to exist, not loaded)."""
    names: dict[str, Any] = {}
    for path in sorted(folder.glob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError):
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names[node.name] = None
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update((a.asname or a.name.split(".")[0], None) for a in node.names)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update((t.id, None) for t in targets if isinstance(t, ast.Name))
    return names


def _ast_signature(args: ast.arguments, drop_first: bool = False) -> str:
    """``(a, /, b=1, *c, d='x', **e)``: the parameters as written in the source, without their
    annotations (and without ``self``)."""
    args = ast.parse(f"def f({ast.unparse(args)}): pass").body[0].args  # type: ignore[attr-defined]
    if drop_first:
        if args.posonlyargs:
            args.posonlyargs = args.posonlyargs[1:]
        else:
            args.args = args.args[1:]
            args.defaults = args.defaults[-len(args.args) :] if args.args else []
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    for arg in every:
        if arg is not None:
            arg.annotation = None
    return f"({ast.unparse(args)})"


def _public_names(module: str) -> list[tuple[str, Any]]:
    """(name, object or None when loaded on first use) of what ``module`` publishes."""
    mod = importlib.import_module(module)
    if module == "ivy_like":
        names = [
            k
            for k, v in vars(mod).items()
            if not k.startswith("_")
            or (k.startswith("__") and k.endswith("__") and callable(v) and k != "__getattr__")
        ]
    else:
        names = list(getattr(mod, "__all__", ()))
    # A name the package loads on first use (its _LAZY table) is read from its source whether
    # or not it is loaded by now, so that the pages do not depend on what was imported before.
    lazy = getattr(mod, "_LAZY", {})
    out = []
    for name in names:
        if name in vars(mod) and name not in lazy:
            out.append((name, vars(mod)[name]))
        elif name in getattr(mod, "__all__", ()):
            out.append((name, None))
    return out


@functools.lru_cache(maxsize=1)
def public_entries() -> tuple[Entry, ...]:
    """Every documented public name that is not an op: the namespace's functions and classes,
    the public subpackages' ``__all__`` (one entry per object: the first name it is published
    under), and the own methods of the classes in :data:`METHODS_DOCUMENTED`."""
    entries: list[Entry] = []
    seen: set[int] = set()
    for module in PUBLIC_MODULES:
        for name, obj in _public_names(module):
            dotted = f"{module}.{name}"
            if dotted in NOT_API:
                continue
            if obj is None:
                lazy = _lazy_entry(module, name)
                if lazy is not None:
                    entries.append(lazy)
                continue
            if id(obj) in seen or is_op_function(obj) or isinstance(obj, types.ModuleType):
                continue
            if not (
                callable(obj) and (getattr(obj, "__module__", "") or "").startswith("ivy_like")
            ):
                continue  # constants, dtypes, typing aliases: see the arrays page's table
            seen.add(id(obj))
            entry = _entry(module, name, obj)
            entries.append(entry)
            if dotted in METHODS_DOCUMENTED:
                entries.extend(_method_entries(entry))
    return tuple(entries)


@functools.lru_cache(maxsize=1)
def entry_index() -> tuple[dict[str, Entry], dict[int, Entry]]:
    by_name = {e.name: e for e in public_entries()}
    by_object = {id(e.obj): e for e in public_entries() if e.obj is not None}
    return by_name, by_object


def entry_for(dotted: str) -> Entry | None:
    """The entry documenting what ``dotted`` names (under any name it is published as)."""
    by_name, by_object = entry_index()
    if dotted in by_name:
        return by_name[dotted]
    obj = resolve(dotted)
    if isinstance(obj, LazyName):
        return by_name.get(obj.dotted)
    return by_object.get(id(obj)) if obj is not None else None

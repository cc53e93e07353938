"""The API reference of the documentation site, generated from the op registry at build time.

One Markdown page per op family (``api/<family>.md``, the family being the ``ops/`` file the op
is declared in) and an index (``api/index.md``). Each op gets its signature, its docstring, the
forms it really has (the function, the ``Array`` method, the ``Container`` method and static
method, read from the generated objects) and its status on every backend: computed with
:func:`ivy_like.devtools.support.status` for the backends installed where the pages are built, and
read from the generated support tables (``docs/support*.md``) for the others (MXNet lives in its
own environment). Nothing is listed by hand: whatever is registered when the pages are built
is documented.

``python -m ivy_like api-docs DIR`` writes the pages into ``DIR``. ``mkdocs build`` (``nox -s
docs``) generates them in memory: ``mkdocs.yml`` names this file as a hook, whose
:func:`on_files` adds the pages (and ``README.md`` as the home page) and whose
:func:`on_page_markdown` checks every page's references. A reference to a missing name (a
docstring's ``:func:`nosuch```, a guide's ```ivy_like.nosuch```) is a warning, which
``strict: true`` turns into a failed build, as it does for a broken link or anchor.

mkdocs loads a hook by its path, as a module of its own outside the package, so this module
imports ``ivy_like`` by absolute name. Importing it imports ``ivy_like`` (and so declares and
builds every op), never a framework other than NumPy.
"""

from __future__ import annotations

import importlib
import inspect
import logging
import posixpath
import re
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ivy_like
from ivy_like.core import backend as _backend
from ivy_like.core.registry import OPS
from ivy_like.devtools.support import status

_LOG = logging.getLogger("mkdocs.hooks.ivy_like_api")
_ROLE = re.compile(r":(?:func|class|meth|mod|attr|data|obj|exc):`~?([^`]+)`")
_SECTION = re.compile(r"^([A-Z][A-Za-z ]+)\n-{3,}$", re.MULTILINE)
# A code span naming something in ivy_like (```ivy_like.linalg.solve``` or a call of it), and
# a code span naming a guide (```docs/nn.md```); neither inside a Markdown link already.
_NAME_SPAN = re.compile(r"(?<!\[)`(ivy_like(?:\.[A-Za-z_]\w*)+)(\([^`]*\))?`(?!\]\()")
_GUIDE_SPAN = re.compile(r"(?<!\[)`docs/([\w-]+\.md)`(?!\]\()")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


@dataclass
class Pages:
    """The generated pages (path relative to the docs root -> Markdown) and the problems found
    while writing them (each a sentence naming the page and the op)."""

    pages: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


# -- names and links ----------------------------------------------------------------------------
def public_name(spec: Any) -> str:
    """``ivy_like.add``, ``ivy_like.linalg.solve``: the op's first published name."""
    return ".".join(filter(None, ("ivy_like", spec.namespaces[0], spec.name)))


def op_key(spec: Any) -> str:
    """The op's registry key (``add``, ``linalg.solve``), also its anchor on its page."""
    return spec.name if "" in spec.namespaces else f"{spec.namespaces[0]}.{spec.name}"


def op_link(spec: Any, from_page: str) -> str:
    """The relative link from ``from_page`` (a path under the docs root) to the op's entry."""
    target = f"api/{spec.family}.md"
    if target == from_page:
        return f"#{op_key(spec)}"
    return f"{posixpath.relpath(target, posixpath.dirname(from_page))}#{op_key(spec)}"


class LazyName:
    """A name a package exports (its ``__all__``) but loads on first use, with its framework
    (``ivy_like.convert.from_torch`` imports torch): it exists, and the docs build, which
    installs numpy alone, must not load it to know that."""

    def __init__(self, dotted: str) -> None:
        self.dotted = dotted


def resolve(dotted: str) -> object | None:
    """The object ``dotted`` (``ivy_like.nn.Linear``, ``ivy_like.random``) names, a
    :class:`LazyName` for a package's exported name not loaded yet, else None."""
    parts = dotted.split(".")
    obj: Any = None
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for j, attr in enumerate(parts[i:], i):
            if (
                isinstance(obj, types.ModuleType)
                and attr not in vars(obj)
                and attr in getattr(obj, "__all__", ())
            ):
                return LazyName(".".join(parts[: j + 1]))
            if not hasattr(obj, attr):
                return None
            obj = getattr(obj, attr)
        return obj
    return None


def _find_op(dotted: str) -> Any:
    """The OpSpec a public name (``ivy_like.linalg.solve``, ``ivy_like.matmul``) is, or None."""
    rel = dotted[len("ivy_like.") :] if dotted.startswith("ivy_like.") else dotted
    spec = OPS.get(rel)
    if spec is not None:
        return spec
    ns, _, name = rel.rpartition(".")
    for spec in OPS.values():
        if spec.name == name and ns in spec.namespaces:
            return spec
    return None


def _role_target(target: str, spec: Any) -> tuple[Any, str] | None:
    """What a docstring's ``:func:`target``` in ``spec`` names: (an OpSpec or None, shown name).

    Looked up as an op in the op's own namespaces, then as a top-level op, then as a name of
    the declaring module, then as a name under ``ivy_like``. None when it names nothing.
    """
    rel = target[len("ivy_like.") :] if target.startswith("ivy_like.") else target
    for ns in dict.fromkeys((*spec.namespaces, "")):
        key = f"{ns}.{rel}" if ns else rel
        if key in OPS:
            return OPS[key], public_name(OPS[key])
    found = _find_op(f"ivy_like.{rel}")
    if found is not None:
        return found, public_name(found)
    head = rel.split(".")[0]
    if head in spec.declaration.__globals__:
        return None, rel
    for ns in dict.fromkeys((*spec.namespaces, "")):
        prefix = f"ivy_like.{ns}." if ns else "ivy_like."
        if resolve(prefix + rel) is not None:
            return None, prefix + rel
    return None


# -- docstrings ---------------------------------------------------------------------------------
def _inline(text: str, spec: Any, page: str, problems: list[str]) -> str:
    """reST inline markup to Markdown: ````code```` to ``code``, roles to links or code."""

    def role(match: re.Match[str]) -> str:
        target = match.group(1).strip()
        found = _role_target(target, spec)
        if found is None:
            problems.append(
                f"{page}: the docstring of {public_name(spec)} refers to {match.group(0)}, "
                "which names no op and nothing in ivy_like"
            )
            return f"`{target}`"
        other, shown = found
        if other is None:
            return f"`{shown}`"
        return f"[`{shown}`]({op_link(other, page)})"

    text = _ROLE.sub(role, text)
    return re.sub(r"``(.+?)``", r"`\1`", text, flags=re.DOTALL)


def _definition_list(body: str, spec: Any, page: str, problems: list[str]) -> str:
    """numpydoc's ``name : type`` entries with indented descriptions, as a bullet list."""
    items: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line and not line[0].isspace():
            items.append((line.strip(), []))
        elif items:
            items[-1][1].append(line.strip())
        elif line.strip():
            items.append(("", [line.strip()]))
    out = []
    for term, desc in items:
        name, _, kind = term.partition(" : ")
        head = f"`{name.strip()}`" + (f" ({kind.strip()})" if kind.strip() else "")
        text = _inline(" ".join(d for d in desc if d), spec, page, problems)
        out.append(f"- {head}: {text}" if term else f"- {text}")
    return "\n".join(out)


def _see_also(body: str, spec: Any, page: str, problems: list[str]) -> str:
    """``See Also`` entries (``name : description`` or comma-separated names) as links."""
    out: list[str] = []
    for line in body.splitlines():
        if not line.strip() or line[0].isspace():
            if out and line.strip():
                out[-1] += " " + _inline(line.strip(), spec, page, problems)
            continue
        names, _, desc = line.partition(" : ")
        links = [
            _inline(f":func:`{n.strip()}`", spec, page, problems)
            for n in names.split(",")
            if n.strip()
        ]
        out.append(
            "- "
            + ", ".join(links)
            + (f": {_inline(desc.strip(), spec, page, problems)}" if desc else "")
        )
    return "\n".join(out)


def render_docstring(spec: Any, page: str, problems: list[str]) -> str:
    """The op's numpydoc docstring as Markdown: prose, parameter lists, the example session."""
    doc = inspect.cleandoc(spec.declaration.__doc__ or "")
    if not doc:
        problems.append(f"{page}: {public_name(spec)} has no docstring")
        return ""
    pieces = _SECTION.split(doc)
    parts = [_inline(pieces[0].strip(), spec, page, problems)]
    for title, body in zip(pieces[1::2], pieces[2::2]):
        body = body.strip("\n")
        parts.append(f"**{title}**")
        if title == "Examples":
            parts.append("```python\n" + inspect.cleandoc(body) + "\n```")
        elif title in ("Parameters", "Returns", "Yields", "Raises", "Warns", "Attributes"):
            parts.append(_definition_list(body, spec, page, problems))
        elif title == "See Also":
            parts.append(_see_also(body, spec, page, problems))
        else:
            parts.append(_inline(inspect.cleandoc(body), spec, page, problems))
    return "\n\n".join(p for p in parts if p)


# -- forms and statuses -------------------------------------------------------------------------
def _plain(sig: inspect.Signature, drop_first: bool = False) -> str:
    """A signature without annotations (and without ``self``): ``(x1, x2, /, *, out=None)``."""
    params = [p.replace(annotation=p.empty) for p in sig.parameters.values()]
    if drop_first:
        params = params[1:]
    return str(sig.replace(parameters=params, return_annotation=sig.empty))


def forms(spec: Any) -> list[tuple[str, str]]:
    """(form, call) for each way the op can be called, read from the generated objects."""
    result = []
    for ns in spec.namespaces:
        name = ".".join(filter(None, ("ivy_like", ns, spec.name)))
        if resolve(name) is spec.function:
            result.append(("function", f"{name}{_plain(inspect.signature(spec.declaration))}"))
    first = spec.params[0].name if spec.params else "x"
    meth = getattr(ivy_like.Array, spec.name, None) if spec.method else None
    if meth is not None and meth is spec.array_method:
        call = f"{first}.{spec.name}{_plain(inspect.signature(meth), drop_first=True)}"
        result.append(("`Array` method", call))
    container = ivy_like.Container
    meth = getattr(container, spec.name, None)
    if meth is not None and meth is spec.extras.get("container_method"):
        sig = _plain(inspect.signature(meth), drop_first=True)
        result.append(("`Container` method", f"container.{spec.name}{sig}"))
    static = getattr(container, f"static_{spec.name}", None)
    if static is not None and spec.extras.get("container_invoke") is not None:
        call = f"ivy_like.Container.static_{spec.name}{_plain(inspect.signature(static))}"
        result.append(("`Container` static method", call))
    return result


@dataclass
class Column:
    """One backend's column of statuses: its label and where the statuses come from."""

    label: str
    source: str  # "computed here" or the support table's file name
    status: dict[str, str]  # registry key -> status


def _table_statuses(docs_dir: Path) -> dict[str, tuple[str, str, dict[str, str]]]:
    """backend name -> (label, file name, {public op name: status}) from ``support*.md``."""
    found: dict[str, tuple[str, str, dict[str, str]]] = {}
    for path in sorted(docs_dir.glob("support*.md")):
        lines = path.read_text(encoding="utf-8").splitlines()
        header = next((row for row in lines if row.startswith("| op | family |")), None)
        if header is None:
            continue
        labels = [c.strip() for c in header.strip("|").split("|")][2:]
        rows: list[list[str]] = [
            [c.strip() for c in re.split(r"(?<!\\)\|", row.strip().strip("|"))]
            for row in lines
            if row.startswith("| `")
        ]
        for i, label in enumerate(labels):
            name = label.split()[0]
            if name not in found:
                column = {r[0].strip("`"): r[2 + i] for r in rows if len(r) > 2 + i}
                found[name] = (label, path.name, column)
    return found


def columns(docs_dir: Path, backends: list[str] | None = None) -> list[Column]:
    """Every registered backend's statuses: computed for ``backends`` (default: every
    available one), read from the support tables for the rest."""
    live = _backend.available_backends() if backends is None else backends
    tables = _table_statuses(docs_dir)
    out = []
    for name in _backend.registered_backends():
        if name in live:
            b = _backend.get_backend(name)
            values = {key: status(spec, b) for key, spec in OPS.items()}
            out.append(Column(f"{b.name} {b.version}", "computed here", values))
        elif name in tables:
            label, source, by_public = tables[name]
            values = {}
            for key, spec in OPS.items():
                public = public_name(spec)[len("ivy_like.") :]
                values[key] = by_public.get(public, f"not in {source}")
            out.append(Column(label, source, values))
    return out


# -- pages --------------------------------------------------------------------------------------
def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _summary(spec: Any, page: str) -> str:
    """The docstring's first paragraph (its references are checked with the whole text)."""
    doc = inspect.cleandoc(spec.declaration.__doc__ or "")
    return _inline(doc.split("\n\n")[0].replace("\n", " "), spec, page, [])


def _op_section(spec: Any, page: str, cols: list[Column], problems: list[str]) -> str:
    key = op_key(spec)
    lines = [f"## `{public_name(spec)}` {{#{key}}}", ""]
    sig = _plain(inspect.signature(spec.declaration))
    lines += ["```python", f"{public_name(spec)}{sig}", "```", ""]
    kind = (
        "; a composite: its body, written with ivy_like ops, runs where a backend has no kernel"
        if spec.composite
        else ""
    )
    lines += [f"Declared in `ivy_like/ops/{spec.family}.py`{kind}.", ""]
    lines += [render_docstring(spec, page, problems), ""]
    lines += ["| form | call |", "|---|---|"]
    lines += [f"| {form} | `{_cell(call)}` |" for form, call in forms(spec)]
    lines.append("")
    if cols:
        lines += ["| backend | status | from |", "|---|---|---|"]
        lines += [f"| {c.label} | {_cell(c.status[key])} | {c.source} |" for c in cols]
        lines.append("")
    return "\n".join(lines)


def generate(docs_dir: Path | str, backends: list[str] | None = None) -> Pages:
    """Every API page, from what is registered now; ``docs_dir`` holds the support tables."""
    result = Pages()
    cols = columns(Path(docs_dir), backends)
    families: dict[str, list[Any]] = {}
    for spec in OPS.values():
        families.setdefault(spec.family, []).append(spec)
    index = [
        "# API reference",
        "",
        "Every op ivy_like registers, one page per family (the `ivy_like/ops/` file that",
        "declares it), generated from the registry when the site is built: the signature, the",
        "docstring, the forms (function, `Array` method, `Container` method) and the status on",
        "every backend (native: the backend has a kernel; composite: the declaration, written",
        "with ivy_like ops, runs there; unsupported: with the backend's reason). Statuses",
        "marked *computed here* come from the backends installed where the site was built, the",
        "others from the generated [support tables](../support.md).",
        "",
        "| family | ops |",
        "|---|---|",
    ]
    for family in sorted(families):
        page = f"api/{family}.md"
        specs = sorted(families[family], key=lambda s: (len(s.namespaces[0]) > 0, op_key(s)))
        body = [
            f"# {family}",
            "",
            f"The ops declared in `ivy_like/ops/{family}.py`.",
            "",
            "| op | summary |",
            "|---|---|",
        ]
        body += [
            f"| [`{public_name(s)}`](#{op_key(s)}) | {_cell(_summary(s, page))} |" for s in specs
        ]
        body.append("")
        body += [_op_section(s, page, cols, result.problems) for s in specs]
        result.pages[page] = "\n".join(body)
        short = [public_name(s)[len("ivy_like.") :] for s in specs]
        links = ", ".join(f"[`{n}`]({family}.md#{op_key(s)})" for n, s in zip(short, specs))
        index.append(f"| [{family}]({family}.md) ({len(specs)}) | {links} |")
    result.pages["api/index.md"] = "\n".join(index) + "\n"
    return result


def write(out_dir: Path | str, docs_dir: Path | str, backends: list[str] | None = None) -> Pages:
    """Write the pages under ``out_dir`` (``out_dir/api/*.md``); return them and the problems."""
    result = generate(docs_dir, backends)
    for rel, text in result.pages.items():
        path = Path(out_dir) / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return result


# -- references in every page -------------------------------------------------------------------
def check_references(markdown: str, page: str) -> tuple[str, list[str]]:
    """Link guide names (```docs/nn.md```) and op names (```ivy_like.add```) in ``markdown``,
    outside code blocks; a name that resolves to nothing is a problem."""
    problems: list[str] = []
    depth = "../" * page.count("/")

    def name(match: re.Match[str]) -> str:
        dotted, call = match.group(1), match.group(2)
        if resolve(dotted) is None:
            problems.append(f"{page}: `{match.group(0).strip('`')}` names nothing in ivy_like")
            return match.group(0)
        spec = _find_op(dotted)
        if spec is None or call:
            return match.group(0)
        return f"[{match.group(0)}]({op_link(spec, page)})"

    def guide(match: re.Match[str]) -> str:
        return f"[{match.group(0)}]({depth}{match.group(1)})"

    out, fence = [], ""
    for line in markdown.splitlines(keepends=True):
        opened = _FENCE.match(line)
        if fence:
            if opened and opened.group(1).startswith(fence) and not line.strip()[len(fence) :]:
                fence = ""
            out.append(line)
        elif opened:
            fence = opened.group(1)
            out.append(line)
        else:
            out.append(_GUIDE_SPAN.sub(guide, _NAME_SPAN.sub(name, line)))
    return "".join(out), problems


# -- the mkdocs hook ----------------------------------------------------------------------------
def on_files(files: Any, config: Any) -> Any:
    """mkdocs hook: add the API pages, and README.md as the home page when docs/ has none."""
    from mkdocs.structure.files import File

    docs_dir = Path(config["docs_dir"])
    result = generate(docs_dir)
    for problem in result.problems:
        _LOG.warning(problem)
    for rel, text in result.pages.items():
        files.append(File.generated(config, rel, content=text))
    readme = docs_dir.parent / "README.md"
    if files.get_file_from_path("index.md") is None and readme.is_file():
        files.append(File.generated(config, "index.md", content=readme.read_text("utf-8")))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """mkdocs hook: check and link the names every page refers to (see check_references)."""
    text, problems = check_references(markdown, page.file.src_uri)
    for problem in problems:
        _LOG.warning(problem)
    return text

"""The API reference of the documentation site, generated from the code at build time.

One Markdown page per op family (``api/<family>.md``, the family being the ``ops/`` file the op
is declared in), one page per area of the public names that are not ops (``api/transforms.md``,
``api/container.md``, ``api/nn-layers.md``... see :data:`AREAS`) and an index
(``api/index.md``). Each op gets its signature, its docstring, the forms it really has (the
function, the ``Array`` method, the ``Container`` method and static method, read from the
generated objects) and its status on every backend: computed with
:func:`ivy_like.devtools.support.status` for the backends installed where the pages are built, and
read from the generated support tables (``docs/support*.md``) for the others (MXNet lives in its
own environment). Every other public name (the namespace's functions and classes that are not
ops, ``Container``'s own methods, and the ``__all__`` of the public subpackages in
:data:`PUBLIC_MODULES`) gets its signature and its docstring, example included, read with
:mod:`inspect`; a name a package loads on first use with its framework (``ivy_like.convert``'s
``from_torch``) is read from its source with :mod:`ast`, never imported. Nothing is listed by
hand: whatever is registered and exported when the pages are built is documented, and a public
name without a docstring example is a problem, as a broken reference is.

``python -m ivy_like api-docs DIR`` writes the pages into ``DIR``. ``mkdocs build`` (``nox -s
docs``) generates them in memory: ``mkdocs.yml`` names this file as a hook, whose
:func:`on_files` adds the pages (and ``README.md`` as the home page, the Pygments stylesheet of
the highlighted code, and the navigation), whose :func:`on_page_markdown` checks every page's
references and whose :func:`on_env` checks that no two pages share a title. A reference to a
missing name (a docstring's ``:func:`nosuch```, a guide's ```ivy_like.nosuch```) is a warning,
which ``strict: true`` turns into a failed build, as it does for a broken link or anchor.

mkdocs loads a hook by its path, as a module of its own outside the package, so this module
imports ``ivy_like`` by absolute name. Importing it imports ``ivy_like`` (and so declares and
builds every op), never a framework other than NumPy.
"""

from __future__ import annotations

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
from ivy_like.devtools.public_names import (
    AREAS,
    Entry,
    entry_for,
    entry_index,
    exists,
    plain_signature,
    public_entries,
    resolve,
)
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


def _link(target: str, anchor: str, from_page: str) -> str:
    """The relative link from ``from_page`` to ``target#anchor`` (both under the docs root)."""
    if target == from_page:
        return f"#{anchor}" if anchor else ""
    rel = posixpath.relpath(target, posixpath.dirname(from_page))
    return f"{rel}#{anchor}" if anchor else rel


def op_link(spec: Any, from_page: str) -> str:
    """The relative link from ``from_page`` (a path under the docs root) to the op's entry."""
    return _link(f"api/{spec.family}.md", op_key(spec), from_page)


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


def entry_link(entry: Entry, from_page: str) -> str:
    return _link(entry.page, entry.anchor, from_page)


def _module_link(obj: Any, from_page: str) -> str | None:
    """The page of a public module (``ivy_like.optimizers``, ``ivy_like.linalg``), or None."""
    if not isinstance(obj, types.ModuleType):
        return None
    for key, area in AREAS.items():
        if key != "arrays" and obj.__name__ in area.modules:
            return _link(f"api/{key}.md", "", from_page)
    family = obj.__name__.rpartition(".")[2]
    if obj.__name__.startswith("ivy_like.") and any(s.family == family for s in OPS.values()):
        return _link(f"api/{family}.md", "", from_page)
    return None


# -- docstrings ---------------------------------------------------------------------------------
@dataclass
class _Scope:
    """Where the names a docstring refers to are looked up, and whose docstring it is."""

    shown: str  # the documented name, for problems
    namespaces: tuple[str, ...]  # op namespaces, tried first ("" is the top level)
    scope: dict[str, Any]  # the globals of the defining module
    prefixes: tuple[str, ...]  # prefixes under which other names are tried
    owner: Any = None  # a class whose attributes are names too


def _scope(item: Any) -> _Scope:
    if isinstance(item, Entry):
        return _Scope(item.name, item.namespaces, item.scope, item.prefixes, item.owner)
    prefixes = tuple(f"ivy_like.{ns}." if ns else "ivy_like." for ns in item.namespaces)
    return _Scope(
        public_name(item),
        tuple(item.namespaces),
        item.declaration.__globals__,
        tuple(dict.fromkeys((*prefixes, "ivy_like."))),
    )


def _role_target(target: str, scope: _Scope, page: str) -> tuple[str | None, str] | None:
    """What a docstring's ``:func:`target``` names: (a link to its entry or None, shown name).

    Looked up as an op in the docstring's namespaces, then as a top-level op, then as a
    documented public name under the docstring's prefixes, then as a name of the defining
    module, then as any name under those prefixes. None when it names nothing.
    """
    rel = target[len("ivy_like.") :] if target.startswith("ivy_like.") else target
    for ns in dict.fromkeys((*scope.namespaces, "")):
        key = f"{ns}.{rel}" if ns else rel
        if key in OPS:
            return op_link(OPS[key], page), public_name(OPS[key])
    found = _find_op(f"ivy_like.{rel}")
    if found is not None:
        return op_link(found, page), public_name(found)
    by_name, _ = entry_index()
    for prefix in scope.prefixes:
        entry = by_name.get(prefix + rel)
        if entry is not None:
            return entry_link(entry, page), entry.name
    head, *rest = rel.split(".")
    if scope.owner is not None and head in dir(scope.owner):
        obj: Any = getattr(scope.owner, head)
        for attr in rest:
            obj = getattr(obj, attr, None)
        entry = entry_index()[1].get(id(obj)) if obj is not None else None
        if entry is not None:
            return entry_link(entry, page), entry.name
        return None, rel
    if head in scope.scope:
        obj = scope.scope[head]
        for attr in rest:
            obj = getattr(obj, attr, None)
        entry = entry_index()[1].get(id(obj)) if obj is not None else None
        if entry is not None:
            return entry_link(entry, page), entry.name
        return _module_link(obj, page), rel
    for prefix in scope.prefixes:
        if exists(prefix + rel):
            obj = resolve(prefix + rel)
            entry = entry_for(prefix + rel)
            if entry is not None:
                return entry_link(entry, page), entry.name
            return _module_link(obj, page), prefix + rel
    return None


def _inline(text: str, scope: _Scope, page: str, problems: list[str]) -> str:
    """reST inline markup to Markdown: ````code```` to ``code``, roles to links or code."""

    def role(match: re.Match[str]) -> str:
        target = match.group(1).strip()
        found = _role_target(target, scope, page)
        if found is None:
            problems.append(
                f"{page}: the docstring of {scope.shown} refers to {match.group(0)}, "
                "which names no op and nothing in ivy_like"
            )
            return f"`{target}`"
        link, shown = found
        return f"[`{shown}`]({link})" if link is not None else f"`{shown}`"

    text = _ROLE.sub(role, text)
    return re.sub(r"``(.+?)``", r"`\1`", text, flags=re.DOTALL)


def _definition_list(body: str, scope: _Scope, page: str, problems: list[str]) -> str:
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
        text = _inline(" ".join(d for d in desc if d), scope, page, problems)
        out.append(f"- {head}: {text}" if term else f"- {text}")
    return "\n".join(out)


def _see_also(body: str, scope: _Scope, page: str, problems: list[str]) -> str:
    """``See Also`` entries (``name : description`` or comma-separated names) as links."""
    out: list[str] = []
    for line in body.splitlines():
        if not line.strip() or line[0].isspace():
            if out and line.strip():
                out[-1] += " " + _inline(line.strip(), scope, page, problems)
            continue
        names, _, desc = line.partition(" : ")
        links = [
            _inline(f":func:`{n.strip()}`", scope, page, problems)
            for n in names.split(",")
            if n.strip()
        ]
        out.append(
            "- "
            + ", ".join(links)
            + (f": {_inline(desc.strip(), scope, page, problems)}" if desc else "")
        )
    return "\n".join(out)


_TABLE_BORDER = re.compile(r"^ *=+(?: +=+)+ *$")


def _simple_table(lines: list[str], scope: _Scope, page: str, problems: list[str]) -> str:
    """A reST simple table (``====  ====`` borders) as a Markdown table."""
    spans = [m.start() for m in re.finditer(r"=+", lines[0])]
    borders = [i for i, line in enumerate(lines) if _TABLE_BORDER.match(line)]
    head = lines[borders[0] + 1 : borders[1]] if len(borders) > 2 else []
    body = [s for s in lines[borders[-2] + 1 : borders[-1]] if s.strip()]

    def cells(line: str) -> list[str]:
        bounds = [*spans[1:], len(line)]
        return [
            _inline(line[a:b].strip(), scope, page, problems).replace("|", "\\|")
            for a, b in zip(spans, bounds)
        ]

    rows = [cells(s) for s in body]
    header = cells(head[0]) if head else [""] * len(spans)
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(spans)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def _prose(text: str, scope: _Scope, page: str, problems: list[str]) -> str:
    """Free docstring text as Markdown: paragraphs and lists with their inline markup, reST
    simple tables as tables and ``::`` literal blocks as code blocks."""
    lines = text.splitlines()
    out: list[str] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            out.append(_inline("\n".join(paragraph), scope, page, problems))
            paragraph.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        if _TABLE_BORDER.match(line):  # a simple table: its lines up to the next blank one
            flush()
            end = i
            while end + 1 < len(lines) and lines[end + 1].strip():
                end += 1
            out.append(_simple_table(lines[i : end + 1], scope, page, problems))
            i = end + 1
            continue
        if not line.strip():
            flush()
            i += 1
            continue
        paragraph.append(line)
        i += 1
        if line.rstrip().endswith("::"):
            paragraph[-1] = re.sub(r"\s*::$", ":", line.rstrip())
            if paragraph[-1].strip() == ":":
                paragraph.pop()
            flush()
            while i < len(lines) and not lines[i].strip():
                i += 1
            indent = len(line) - len(line.lstrip())
            block = []
            while i < len(lines) and (
                not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent
            ):
                block.append(lines[i])
                i += 1
            out.append("```text\n" + inspect.cleandoc("\n".join(block)) + "\n```")
    flush()
    return "\n\n".join(p for p in out if p)


def _examples(body: str, scope: _Scope, page: str, problems: list[str]) -> str:
    """An Examples section: its doctest sessions as code blocks, the text between as prose."""
    out: list[str] = []
    code: list[str] = []
    text: list[str] = []
    for line in inspect.cleandoc(body).splitlines() + [""]:
        if line.lstrip().startswith(">>>") or (code and line.strip()):
            if text:
                out.append(_prose("\n".join(text), scope, page, problems))
                text.clear()
            code.append(line)
        elif code:
            out.append("```python\n" + "\n".join(code) + "\n```")
            code.clear()
        else:
            text.append(line)
    if text:
        out.append(_prose("\n".join(text), scope, page, problems))
    return "\n\n".join(p for p in out if p)


def _docstring(item: Any) -> str:
    if isinstance(item, Entry):
        return item.doc
    return inspect.cleandoc(item.declaration.__doc__ or "")


def render_docstring(item: Any, page: str, problems: list[str]) -> str:
    """The numpydoc docstring of an op (an OpSpec) or of a public name (an :class:`Entry`) as
    Markdown: prose, parameter lists, the example sessions."""
    scope = _scope(item)
    doc = _docstring(item)
    if not doc:
        problems.append(f"{page}: {scope.shown} has no docstring")
        return ""
    pieces = _SECTION.split(doc)
    parts = [_prose(pieces[0].strip(), scope, page, problems)]
    for title, body in zip(pieces[1::2], pieces[2::2]):
        body = body.strip("\n")
        parts.append(f"**{title}**")
        if title == "Examples":
            parts.append(_examples(body, scope, page, problems))
        elif title in ("Parameters", "Returns", "Yields", "Raises", "Warns", "Attributes"):
            parts.append(_definition_list(body, scope, page, problems))
        elif title == "See Also":
            parts.append(_see_also(body, scope, page, problems))
        else:
            parts.append(_prose(inspect.cleandoc(body), scope, page, problems))
    return "\n\n".join(p for p in parts if p)


def examples(doc: str) -> str:
    """The Examples section of a numpydoc docstring ("" when it has none)."""
    pieces = _SECTION.split(inspect.cleandoc(doc))
    return next((b for t, b in zip(pieces[1::2], pieces[2::2]) if t == "Examples"), "")


# -- forms and statuses -------------------------------------------------------------------------
def forms(spec: Any) -> list[tuple[str, str]]:
    """(form, call) for each way the op can be called, read from the generated objects."""
    result = []
    for ns in spec.namespaces:
        name = ".".join(filter(None, ("ivy_like", ns, spec.name)))
        if resolve(name) is spec.function:
            result.append(
                ("function", f"{name}{plain_signature(inspect.signature(spec.declaration))}")
            )
    first = spec.params[0].name if spec.params else "x"
    meth = getattr(ivy_like.Array, spec.name, None) if spec.method else None
    if meth is not None and meth is spec.array_method:
        call = f"{first}.{spec.name}{plain_signature(inspect.signature(meth), drop_first=True)}"
        result.append(("`Array` method", call))
    container = ivy_like.Container
    meth = getattr(container, spec.name, None)
    if meth is not None and meth is spec.extras.get("container_method"):
        sig = plain_signature(inspect.signature(meth), drop_first=True)
        result.append(("`Container` method", f"container.{spec.name}{sig}"))
    static = getattr(container, f"static_{spec.name}", None)
    if static is not None and spec.extras.get("container_invoke") is not None:
        call = f"ivy_like.Container.static_{spec.name}{plain_signature(inspect.signature(static))}"
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


def _summary(item: Any, page: str) -> str:
    """The docstring's first paragraph (its references are checked with the whole text)."""
    doc = _docstring(item)
    return _inline(doc.split("\n\n")[0].replace("\n", " "), _scope(item), page, [])


def _op_section(spec: Any, page: str, cols: list[Column], problems: list[str]) -> str:
    key = op_key(spec)
    lines = [f"## `{public_name(spec)}` {{#{key}}}", ""]
    sig = plain_signature(inspect.signature(spec.declaration))
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


def _entry_section(entry: Entry, page: str, problems: list[str]) -> str:
    level = "###" if entry.kind in ("method", "static method", "class method", "property") else "##"
    lines = [f"{level} `{entry.name}` {{#{entry.anchor}}}", ""]
    if entry.call:
        lines += ["```python", entry.call, "```", ""]
    where = f"A {entry.kind}"
    if entry.source and level == "##":
        where += f" defined in `{entry.source}`"
    if entry.loads:
        where += f", loaded on first use (it imports {entry.loads})"
    lines += [where + ".", ""]
    lines += [render_docstring(entry, page, problems), ""]
    if entry.doc and not examples(entry.doc).count(">>>"):
        problems.append(
            f"{page}: the docstring of {entry.name} has no example (an Examples section)"
        )
    if entry.members:
        lines += ["| member | kind | summary |", "|---|---|---|"]
        scope = _scope(entry)
        lines += [
            f"| `{m}` | {kind} | {_cell(_inline(s, scope, page, problems))} |"
            for m, kind, s in entry.members
        ]
        lines.append("")
    return "\n".join(lines)


def _constants_table() -> list[str]:
    """The namespace's constants and dtypes (values, not functions: no entry of their own)."""
    rows = []
    for name, value in vars(ivy_like).items():
        if name.startswith("_") or callable(value) or isinstance(value, types.ModuleType):
            continue
        if isinstance(value, (float, type(None))):
            rows.append(f"| `ivy_like.{name}` | constant | `{value!r}` |")
        elif isinstance(value, ivy_like.Dtype):
            rows.append(f"| `ivy_like.{name}` | dtype | `{value!r}` |")
    if not rows:
        return []
    return [
        "## Constants and dtypes {#constants}",
        "",
        "| name | what | value |",
        "|---|---|---|",
        *rows,
        "",
    ]


def _area_page(key: str, entries: list[Entry], docs_dir: Path, problems: list[str]) -> str:
    area = AREAS[key]
    page = f"api/{key}.md"
    guides = [f"`docs/{g}`" for g in area.guides if (docs_dir / g).is_file()]
    intro = area.intro
    if guides:
        intro += f" {'Guides' if len(guides) > 1 else 'Guide'}: {' and '.join(guides)}."
    body = [f"# {area.title}", "", intro, ""]
    body += ["| name | summary |", "|---|---|"]
    body += [f"| [`{e.name}`](#{e.anchor}) | {_cell(_summary(e, page))} |" for e in entries]
    body.append("")
    body += [_entry_section(e, page, problems) for e in entries]
    if key == "arrays":
        body += _constants_table()
    return "\n".join(body)


def _sort_key(entry: Entry) -> tuple[str, ...]:
    """Classes' members right after their class, everything else by name."""
    owner, _, member = entry.name.rpartition(".")
    by_name = entry_index()[0]
    if owner in by_name:
        return (owner.lower(), "1", member.lower())
    return (entry.name.lower(), "0", "")


def generate(docs_dir: Path | str, backends: list[str] | None = None) -> Pages:
    """Every API page, from what is registered and exported now; ``docs_dir`` holds the
    support tables."""
    result = Pages()
    cols = columns(Path(docs_dir), backends)
    families: dict[str, list[Any]] = {}
    for spec in OPS.values():
        families.setdefault(spec.family, []).append(spec)
    for clash in sorted(set(families) & set(AREAS)):
        result.problems.append(
            f"api/{clash}.md: the op family {clash!r} and the area of public names {clash!r} "
            "would be the same page: rename the area in AREAS (ivy_like/devtools/api_docs.py)"
        )
    areas: dict[str, list[Entry]] = {key: [] for key in AREAS}
    for entry in public_entries():
        areas[entry.area].append(entry)
    index = [
        "# API reference",
        "",
        "Generated from the code when the site is built: every public name of ivy_like, with",
        "its signature, its docstring and an example the test suite runs.",
        "",
        "## Beyond the ops",
        "",
        "The transforms, `Container`, the `nn` layers and models, the optimizers, random",
        "numbers, the converters, the testing tools, the backends and the rest of the",
        "namespace, one page per area.",
        "",
        "| page | names |",
        "|---|---|",
    ]
    for key, entries in areas.items():
        entries.sort(key=_sort_key)
        if not entries:
            continue
        anchors = [e.anchor for e in entries]
        for twice in sorted({a for a in anchors if anchors.count(a) > 1}):
            result.problems.append(f"api/{key}.md: two names would have the anchor #{twice}")
        result.pages[f"api/{key}.md"] = _area_page(key, entries, Path(docs_dir), result.problems)
        links = ", ".join(f"[`{e.anchor}`]({key}.md#{e.anchor})" for e in entries)
        index.append(f"| [{AREAS[key].title}]({key}.md) ({len(entries)}) | {links} |")
    index += [
        "",
        "## The ops",
        "",
        "Every op ivy_like registers, one page per family (the `ivy_like/ops/` file that",
        "declares it), generated from the registry: the signature, the docstring, the forms",
        "(function, `Array` method, `Container` method) and the status on every backend",
        "(native: the backend has a kernel; composite: the declaration, written with ivy_like",
        "ops, runs there; unsupported: with the backend's reason). Statuses marked *computed",
        "here* come from the backends installed where the site was built, the others from the",
        "generated [support tables](../support.md).",
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
    """Link guide names (```docs/nn.md```), op names (```ivy_like.add```) and the other public
    names (```ivy_like.grad```, ```ivy_like.optimizers```) in ``markdown``, outside code
    blocks; a name that resolves to nothing is a problem."""
    problems: list[str] = []
    depth = "../" * page.count("/")

    def name(match: re.Match[str]) -> str:
        dotted, call = match.group(1), match.group(2)
        if not exists(dotted):
            problems.append(f"{page}: `{match.group(0).strip('`')}` names nothing in ivy_like")
            return match.group(0)
        if call:
            return match.group(0)
        spec = _find_op(dotted)
        if spec is not None:
            return f"[{match.group(0)}]({op_link(spec, page)})"
        entry = entry_for(dotted)
        if entry is not None:
            return f"[{match.group(0)}]({entry_link(entry, page)})"
        module = _module_link(resolve(dotted), page)
        return f"[{match.group(0)}]({module})" if module else match.group(0)

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


# -- the site: navigation and highlighting ------------------------------------------------------
def site_nav(pages: list[str]) -> list[Any]:
    """mkdocs' ``nav`` for ``pages`` (paths under the docs root): the home page, the guides,
    one entry per support table, the API reference (its index and the pages of the public
    names, in the order of :data:`AREAS`) and the op families. Every page is in it; titles are
    the pages' own."""
    top = sorted(p for p in pages if "/" not in p and p != "index.md")
    tables = sorted((p for p in top if p.startswith("support")), key=lambda p: (len(p), p))
    areas = [f"api/{key}.md" for key in AREAS if f"api/{key}.md" in pages]
    api = {"api/index.md", *areas}
    families = sorted(p for p in pages if p.startswith("api/") and p not in api)
    other = sorted(p for p in pages if "/" in p and not p.startswith("api/"))
    nav: list[Any] = [p for p in ("index.md",) if p in pages]
    nav += [p for p in top if p not in tables] + other + tables
    if "api/index.md" in pages:
        nav.append({"API reference": [{"Overview": "api/index.md"}, *areas]})
    if families:
        nav.append({"Ops by family": families})
    return nav


PYGMENTS_CSS = "css/pygments.css"


def pygments_css() -> str | None:
    """The stylesheet of the code blocks Pygments highlights when the site is built (the
    ``codehilite`` extension, class ``highlight``), or None without Pygments."""
    try:
        from pygments.formatters import HtmlFormatter  # type: ignore[import-untyped]
    except ImportError:
        return None
    return HtmlFormatter(style="default").get_style_defs(".highlight") + "\n"


# -- the mkdocs hook ----------------------------------------------------------------------------
def on_files(files: Any, config: Any) -> Any:
    """mkdocs hook: add the API pages, README.md as the home page when docs/ has none and the
    Pygments stylesheet; without a ``nav`` in mkdocs.yml, make the navigation (site_nav)."""
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
    if "codehilite" in config["markdown_extensions"]:
        css = pygments_css()
        if css is None:
            _LOG.warning(
                "code blocks are not highlighted: Pygments is not installed (pip install -e "
                "'.[docs]')"
            )
        elif files.get_file_from_path(PYGMENTS_CSS) is None:
            files.append(File.generated(config, PYGMENTS_CSS, content=css))
    if config["nav"] is None:
        config["nav"] = site_nav([f.src_uri for f in files.documentation_pages()])
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """mkdocs hook: check and link the names every page refers to (see check_references)."""
    text, problems = check_references(markdown, page.file.src_uri)
    for problem in problems:
        _LOG.warning(problem)
    return text


def on_env(env: Any, config: Any, files: Any) -> Any:
    """mkdocs hook, once every page is read: two pages with one title would be two entries the
    navigation cannot tell apart."""
    titles: dict[str, list[str]] = {}
    for file in files.documentation_pages():
        if file.page is not None and file.page.title:
            titles.setdefault(file.page.title, []).append(file.src_uri)
    for title, pages in sorted(titles.items()):
        if len(pages) > 1:
            _LOG.warning(f"{' and '.join(sorted(pages))} have the same title {title!r}")
    return env

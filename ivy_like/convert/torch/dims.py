"""The user's names for a capture's dynamic dimensions, worked out once at capture.

``torch.export`` gives every dynamic dimension a symbol of its own (``s43``); the user named it
``Dim("batch")`` (or ``from_torch`` did, for the default batch). The exported program keeps
only the symbols in its shapes and ``range_constraints``; the names live in the shape
environment of its fake tensors, which records for each symbol the sizes it came from
(``L['x'].size()[0]``) and for each of those the ``Dim`` name. :func:`symbol_names` reads that
map once, so every message the converted model gives about sizes says ``batch`` (``2*batch``
for a derived dimension) and the checks a call goes through compare names, not symbols.
A dimension without a ``Dim`` name (``Dim.AUTO``) is named for where it is read (``x.shape[0]``).
Torch's own constraint errors name sizes the same way (:func:`readable_error`).
"""

from __future__ import annotations

import re
from typing import Any

from .._errors import UnsupportedOpError

_SYMBOL = re.compile(r"\b[su]\d+\b")
_LOCAL = re.compile(r"L\['([^']+)'\]")


def readable_source(text: str) -> str:
    """torch's names of sizes (``L['x'].size()[0]``) as Python a user writes: ``x.shape[0]``."""
    return _LOCAL.sub(r"\1", text).replace(".size()[", ".shape[")


def _source_name(source: Any) -> str:
    name = getattr(source, "name", "")
    return name() if callable(name) else str(name)


def _shape_env(ep: Any) -> Any:
    for node in ep.graph.nodes:
        if node.op != "placeholder":
            continue
        env = getattr(getattr(node.meta.get("val"), "fake_mode", None), "shape_env", None)
        if env is not None:
            return env
    return None


def symbol_names(ep: Any) -> dict[str, str]:
    """torch's symbol (``"s43"``) -> the user's ``Dim`` name, for each symbol the exported
    program's shapes use; a symbol without a ``Dim`` name gets the place it is read from
    (``x.shape[0]``). Empty when the shape environment is not there to read."""
    env = _shape_env(ep)
    if env is None:
        return {}
    debug = getattr(env, "source_name_to_debug_name", {})
    replacements = getattr(env, "replacements", {})
    named: dict[str, str] = {}
    placed: dict[str, str] = {}
    for symbol, sources in getattr(env, "var_to_sources", {}).items():
        # torch unifies the symbols of sizes it finds equal: the names of every symbol
        # replaced by another one go to that one (the one the shapes show)
        target = replacements.get(symbol, symbol)
        if not getattr(target, "is_Symbol", False):
            continue  # a derived size (2*s26): named through its root's name
        key = str(target)
        for source in sources:
            name = _source_name(source)
            user = debug.get(name)
            if user is None and type(source).__name__ == "ConstantSource":
                user = name  # the root of derived dimensions, which no input has itself
            if user is not None:
                named.setdefault(key, user)
            elif name:
                placed.setdefault(key, readable_source(name))
    return placed | named


def rename(text: str, names: dict[str, str]) -> str:
    """``text`` (a size expression such as ``2*s26 + 1``) with torch's symbols as names."""
    return _SYMBOL.sub(lambda m: names.get(m.group(0), m.group(0)), text)


def _is_dynamic(d: Any) -> bool:
    """Whether a size is dynamic: a SymInt, unless torch worked it out to be a number
    (``Dim.AUTO`` on a size the model fixes)."""
    node = getattr(d, "node", None)
    return node is not None and not getattr(getattr(node, "expr", None), "is_number", True)


def input_sizes(shape: Any) -> tuple[int | None, ...]:
    """An input's captured shape for the call's checks: None for each dynamic size."""
    return tuple(None if _is_dynamic(d) else int(d) for d in shape)


def dynamic_dims(
    ep: Any, names: dict[str, str], n_user: int, shape: Any, where: str
) -> list[tuple[Any, ...]]:
    """The dynamic dimensions of user input ``n_user``: (input, axis, symbol, min, max, the
    size's expression) each, from ``torch.export``'s range constraints (max None when
    unbounded). A size torch worked out to be a number (``Dim.AUTO`` it specialized) is not
    dynamic."""
    ranges = {str(k): v for k, v in ep.range_constraints.items()}
    dims = []
    for axis, d in enumerate(shape):
        if not _is_dynamic(d):
            continue
        expr = d.node.expr
        symbol = str(d)
        if symbol not in ranges:
            raise UnsupportedOpError(
                f"from_torch: {where} axis {axis} is the derived dimension "
                f"{rename(symbol, names)}, which torch.export gave no range; dynamic "
                f"dimensions that are expressions of others are supported only as "
                f"Dim expressions in dynamic_shapes (2 * batch, batch + 1)"
            )
        vr = ranges[symbol]
        upper = vr.upper
        hi = int(upper) if getattr(upper, "is_finite", True) and upper < 1 << 62 else None
        dims.append((n_user, axis, symbol, int(vr.lower), hi, expr))
    return dims


def named_dims(
    ep: Any, dynamic: list[tuple[Any, ...]], names: dict[str, str]
) -> tuple[list[tuple[int, int, str, int, int | None]], list[tuple[Any, ...]], dict[str, Any]]:
    """What the per-call checks need, in the user's names: the dynamic dimensions as
    (input, axis, name, min, max); the derived ones (``2*batch + 1``) as (input, axis, name,
    root name, a, c), their size being ``a * root + c``; and each root's (min, max)."""
    ranges = {str(k): v for k, v in ep.range_constraints.items()}
    fallback = {d[2]: f"input{d[0]}.shape[{d[1]}]" for d in reversed(dynamic)}
    known = fallback | names  # every symbol a name, torch's shape environment or not
    plain: list[tuple[int, int, str, int, int | None]] = []
    derived: list[tuple[Any, ...]] = []
    roots: dict[str, tuple[int, int | None]] = {}
    for i, axis, symbol, lo, hi, expr in dynamic:
        name = rename(symbol, known)
        plain.append((i, axis, name, lo, hi))
        free = list(getattr(expr, "free_symbols", ()))
        if getattr(expr, "is_Symbol", False):
            continue
        root = free[0] if len(free) == 1 else None
        a = expr.diff(root) if root is not None else None
        c = expr.subs(root, 0) if root is not None else None
        linear = (
            a is not None
            and getattr(a, "is_Integer", False)
            and getattr(c, "is_Integer", False)
            and int(a) > 0
            and (expr - a * root - c).expand() == 0
        )
        if not linear:
            raise UnsupportedOpError(
                f"from_torch: input {i} axis {axis} is the dynamic dimension {name}; only "
                f"derived dimensions of the form a*dim + c are supported"
            )
        assert a is not None and c is not None  # linear says so
        root_name = rename(str(root), known)
        derived.append((i, axis, name, root_name, int(a), int(c)))
        vr = ranges.get(str(root))
        if vr is not None and root_name not in roots:
            upper = vr.upper
            top = int(upper) if getattr(upper, "is_finite", True) and upper < 1 << 62 else None
            roots[root_name] = (int(vr.lower), top)
    return plain, derived, roots


# torch's pointers to its logs and to draft_export: about torch's tooling, not the model
_TORCH_LOGS = 'For more information, run with TORCH_LOGS="+dynamic".'


def readable_error(text: str) -> str:
    """torch.export's constraint error on one line, its sizes named as Python names them
    (``x.shape[0]``), without torch's pointers to its logs."""
    text = text.split("The error above occurred when calling", 1)[0].replace(_TORCH_LOGS, "")
    parts = []
    for line in readable_source(text).splitlines():
        line = line.strip().removeprefix("- ").strip()
        if not line:
            continue
        if line == "Suggested fixes:":
            parts.append("torch suggests:")
            continue
        parts.append(line)
    out = " ".join(p if p.endswith((".", ":", "!")) else p + ";" for p in parts)
    return out.rstrip(";")

"""Signatures and types of the op variants, as stub source (for :mod:`ivy_like.devtools.stubs`).

Types follow the runtime rule of the dispatcher: a ``Container`` argument gives a Container,
else an ``Array`` gives an Array, else the (native) type of the first array argument, through
the TypeVar ``_T``; Python scalars and lists alone leave the type to the active backend (Any).
Creation ops without array arguments give an Array. Each ``def`` is laid out as ``ruff format``
lays out a stub, so generated files need no formatting pass and compare equal to a fresh run.
"""

from __future__ import annotations

import ast
import builtins
import inspect
from dataclasses import dataclass
from typing import Any

from ..core.build import BINARY_DUNDERS, COMPARISON_DUNDERS, UNARY_DUNDERS
from ..core.codegen import parameter_list
from ..core.registry import OpSpec

LINE_LENGTH = 100  # ruff's line-length in pyproject.toml: the stubs are already formatted
KIND = inspect.Parameter
# The key-chain keywords every Container op method and static method takes (container/_mapping).
_KEY_CHAIN_KWARGS = (
    ("key_chains", "Any"),
    ("to_apply", "bool"),
    ("prune_unapplied", "bool"),
    ("map_sequences", "bool"),
)
# Definitions of the helper names, emitted in the stubs that use them: (statement, type).
HELPERS = {
    "_T": ('_T = TypeVar("_T")', ""),
    # Python scalars and lists: no array type of their own, the active backend decides.
    "_Plain": (
        "_Plain: TypeAlias = ",
        "bool | int | float | complex | list[Any] | tuple[Any, ...]",
    ),
}


# -- rendering one signature ------------------------------------------------------------------
@dataclass(frozen=True)
class Param:
    """One parameter of a stub signature."""

    name: str
    kind: Any  # an inspect.Parameter kind
    annotation: str | None = None  # None: unannotated (self)
    default: bool = False


def _params_source(params: list[Param]) -> list[str]:
    """Each parameter's source, with the ``/`` and ``*`` markers where they belong."""
    return parameter_list(params, _param_text)[0]


def _param_text(p: Param) -> str:
    text = p.name if p.annotation is None else f"{p.name}: {p.annotation}"
    starred = p.kind in (KIND.VAR_POSITIONAL, KIND.VAR_KEYWORD)
    return f"{text} = ..." if p.default and not starred else text


def render_def(
    name: str,
    params: list[Param],
    returns: str | None,
    indent: str = "",
    decorators: tuple[str, ...] = (),
    comment: str = "",
    decorator_comment: str = "",
) -> list[str]:
    """A stub ``def`` laid out as ``ruff format`` lays it out: on one line when it fits, else
    the parameters on one indented line, else one parameter a line with a trailing comma.

    ``comment`` goes on the ``def`` line, ``decorator_comment`` on the first decorator's: a
    ``# type: ignore[...]`` must be on the line mypy reports the error at.
    """
    lines = [f"{indent}@{d}" for d in decorators]
    if decorator_comment:
        lines[0] += f"  {decorator_comment}"
    parts = _params_source(params)
    tail = f") -> {returns}: ..." if returns else "): ..."
    suffix = f"  {comment}" if comment else ""
    one = f"{indent}def {name}({', '.join(parts)}{tail}"
    if len(one) <= LINE_LENGTH:
        return [*lines, one + suffix]
    inner = indent + "    "
    lines.append(f"{indent}def {name}({suffix}")
    if len(inner + ", ".join(parts)) <= LINE_LENGTH:
        lines.append(inner + ", ".join(parts))
    else:
        lines += [f"{inner}{part}," for part in parts]
    return [*lines, indent + tail]


class Scope:
    """Rewrites annotations for one stub scope: a name the scope itself defines (the dtype
    ``bool``, the op ``sum``) would shadow the builtin in annotations, so ``builtins.`` it."""

    def __init__(self, defined: set[str]) -> None:
        self.shadowed = {n for n in defined if n in vars(builtins) and not n.startswith("_")}
        self._done: dict[str, str] = {}  # the same few annotations recur thousands of times

    def __call__(self, annotation: str) -> str:
        if not self.shadowed:
            return annotation
        if annotation not in self._done:
            self._done[annotation] = self._qualify(annotation)
        return self._done[annotation]

    def _qualify(self, annotation: str) -> str:
        tree = ast.parse(annotation, mode="eval")
        names = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in self.shadowed]
        if not names:
            return annotation  # as written (ast.unparse would respell quotes and spacing)
        for name in names:  # ``bool`` -> ``builtins.bool``, in place
            name.id = f"builtins.{name.id}"
        return ast.unparse(tree)


# -- the types of the op variants ---------------------------------------------------------------
@dataclass(frozen=True)
class Variant:
    """One overload: the annotations of the array-like parameters and the return type."""

    annotations: dict[str, str]
    returns: str
    # An optional array parameter this overload is about (``bias: Container``): it must be
    # given, else a call leaving it out would match and get this overload's return type.
    given: str | None = None
    comment: str = ""  # on its def line


def _result(spec: OpSpec, element: str) -> str:
    """The return type when each output is an ``element``."""
    n = spec.n_outputs
    if element == "Any" or n == 1:
        return element
    if n < 0:  # a tuple whose length depends on the data; a Container's leaves hold them
        return "Container" if element == "Container" else f"tuple[{element}, ...]"
    return f"tuple[{', '.join([element] * n)}]"


def _variant(
    spec: OpSpec, element: str, arrays: dict[str, str], given: str | None = None
) -> Variant:
    annotations = dict(arrays)
    if spec.out_index >= 0:
        annotations["out"] = "Any" if element == "Any" else f"{element} | None"
    # A Container's result for a tuple of any length is one Container, not the tuple[_T, ...]
    # of the last overload (where _T may be a Container): a first match mypy calls overlapping.
    overlap = element == "Container" and spec.n_outputs < 0
    comment = "# type: ignore[overload-overlap]" if overlap else ""
    return Variant(annotations, _result(spec, element), given, comment)


def function_variants(spec: OpSpec) -> list[Variant]:
    """The overloads of ``ivy_like.<op>`` (and ``Container.static_<op>``), first match wins:
    a Container anywhere, else an Array anywhere, else no array at all (Any), else the type
    of the first array argument (after Python values in front of it: ``add(2, x)``)."""
    if spec.sequences:
        return _sequence_variants(spec)
    arrays = [p for p in spec.params if p.name in spec.arrays]
    if not arrays:
        return [_variant(spec, "Array" if spec.creation else "Any", {})]
    names = [p.name for p in arrays]
    anything = dict.fromkeys(names, "Any")
    variants: list[Variant] = []
    # One array argument: the TypeVar alone keeps Container and Array, except where a
    # Container's result differs in shape (a tuple of any length: one Container).
    kinds = ("Container", "Array") if len(names) > 1 else ("Container",) * (spec.n_outputs < 0)
    for kind in kinds:
        variants += [_variant(spec, kind, {**anything, n: kind}, n) for n in names]
    plain = {p.name: "_Plain" if p.default is p.empty else "_Plain | None" for p in arrays}
    variants.append(_variant(spec, "Any", plain))
    required = [p.name for p in arrays if p.default is p.empty]
    # Python values before the first array (``where(True, 0.0, x)``): the longest run of
    # them first, so that each later overload sees an array where it puts _T.
    for i in range(len(required) - 1, 0, -1):
        lead = dict.fromkeys(required[:i], "_Plain")
        variants.append(_variant(spec, "_T", {**anything, **lead, required[i]: "_T"}))
    variants.append(_variant(spec, "_T", {**anything, names[0]: "_T"}))
    return variants


def _sequence_variants(spec: OpSpec) -> list[Variant]:
    """Ops on sequences of arrays (``concat``, ``meshgrid(*arrays)``): the same rule per item."""
    star = {p.name for p in spec.params if p.kind is KIND.VAR_POSITIONAL}

    def each(element: str) -> dict[str, str]:
        sequence = f"Sequence[{element}]"
        if element == "Container":
            sequence += " | Container"  # a Container in place of the sequence maps too
        annotations = dict.fromkeys(spec.arrays, "Any")
        for name in spec.sequences:
            annotations[name] = element if name in star else sequence
        return annotations

    return [
        _variant(spec, "Container", each("Container")),
        _variant(spec, "Array", each("Array")),
        _variant(spec, "Any", each("_Plain")),
        _variant(spec, "_T", each("_T")),
    ]


def array_method_variants(spec: OpSpec) -> list[Variant]:
    """``Array.<op>``: self is an Array, so the result is one unless a Container comes in."""
    others = [n for n in spec.arrays if n != spec.params[0].name]
    anything = dict.fromkeys(others, "Any")
    variants = [_variant(spec, "Container", {**anything, n: "Container"}, n) for n in others]
    return [*variants, _variant(spec, "Array", anything)]


def _params(spec: OpSpec, variant: Variant, scope: Scope) -> list[Param]:
    """The declaration's parameters with the variant's annotations; defaults become ``...``.

    The variant's ``given`` parameter has no default, nor (Python requires it) any positional
    parameter before it: ``clip(x, min, max: Container)``.
    """
    names = [p.name for p in spec.params]
    given = names.index(variant.given) if variant.given else -1
    positional = given >= 0 and spec.params[given].kind is not KIND.KEYWORD_ONLY
    out: list[Param] = []
    for i, p in enumerate(spec.params):
        annotation = variant.annotations.get(p.name)
        if annotation is None:
            annotation = p.annotation if isinstance(p.annotation, str) else "Any"
        default = p.default is not p.empty and not (i == given or (positional and i < given))
        out.append(Param(p.name, p.kind, scope(annotation), default))
    return out


def _with_key_chains(params: list[Param], scope: Scope) -> list[Param]:
    """Container signatures: the op's parameters, the key-chain keywords, then ``out``."""
    core = [p for p in params if p.name != "out"]
    extra = [Param(n, KIND.KEYWORD_ONLY, scope(a), True) for n, a in _KEY_CHAIN_KWARGS]
    return core + extra + [p for p in params if p.name == "out"]


Signature = tuple[list[Param], str, str]  # parameters, return type, comment on the def line


def _overloads(
    name: str,
    signatures: list[Signature],
    indent: str = "",
    decorators: tuple[str, ...] = (),
    decorator_comment: str = "",
) -> list[str]:
    """One ``def``, or ``@overload`` ones (``decorator_comment`` on the first)."""
    if len(signatures) == 1:
        params, returns, comment = signatures[0]
        return render_def(name, params, returns, indent, decorators, comment, decorator_comment)
    lines: list[str] = []
    for i, (params, returns, comment) in enumerate(signatures):
        note = decorator_comment if i == 0 else ""
        lines += render_def(name, params, returns, indent, ("overload", *decorators), comment, note)
    return lines


def function_stub(spec: OpSpec, scope: Scope) -> list[str]:
    variants = function_variants(spec)
    return _overloads(
        spec.name, [(_params(spec, v, scope), v.returns, v.comment) for v in variants]
    )


def _self(params: list[Param]) -> list[Param]:
    """The method form: ``self`` in place of the first parameter (of the same kind)."""
    return [Param("self", params[0].kind), *params[1:]]


def array_method_stub(spec: OpSpec, scope: Scope) -> list[str]:
    signatures = [
        (_self(_params(spec, v, scope)), v.returns, v.comment) for v in array_method_variants(spec)
    ]
    return _overloads(spec.name, signatures, "    ")


def container_method_stub(spec: OpSpec, scope: Scope) -> list[str]:
    variant = _variant(spec, "Container", dict.fromkeys(spec.arrays, "Any"))
    params = _with_key_chains(_self(_params(spec, variant, scope)), scope)
    return render_def(spec.name, params, variant.returns, "    ")


def container_static_stub(spec: OpSpec, scope: Scope) -> list[str]:
    signatures = [
        (_with_key_chains(_params(spec, v, scope), scope), v.returns, v.comment)
        for v in function_variants(spec)
    ]
    return _overloads(f"static_{spec.name}", signatures, "    ", ("staticmethod",))


def operator_stubs(cls: str) -> list[str]:
    """The operators ``ivy_like.core.build`` / ``container._mapping`` install on ``cls``."""
    other = [Param("self", KIND.POSITIONAL_ONLY), Param("other", KIND.POSITIONAL_ONLY, "Any")]
    with_container = [other[0], Param("other", KIND.POSITIONAL_ONLY, "Container")]
    lines: list[str] = []

    def binary(name: str, ignore: str = "") -> list[str]:
        if cls == "Container":  # a Container on either side maps over its leaves
            return render_def(name, other, "Container", "    ", comment=ignore)
        # ``array + container`` is a Container (the op maps over the Container's leaves).
        signatures = [(with_container, "Container", ""), (other, "Array", "")]
        return _overloads(name, signatures, "    ", decorator_comment=ignore)

    for short in BINARY_DUNDERS:
        lines += binary(f"__{short}__")
        # Reflected operators run only when the left operand is not ours: never a Container.
        lines += render_def(f"__r{short}__", other, cls, "    ")
        if cls == "Container":
            lines += render_def(f"__i{short}__", other, "Self", "    ")
        else:
            # ``x += container`` cannot rebind an Array to a Container: it raises.
            signatures = [(with_container, "NoReturn", ""), (other, "Self", "")]
            lines += _overloads(f"__i{short}__", signatures, "    ")
    for dunder in COMPARISON_DUNDERS:
        # Elementwise ==, != give arrays, not the bool of object.__eq__ and dict.__eq__.
        override = dunder in ("__eq__", "__ne__")
        lines += binary(dunder, "# type: ignore[override]" if override else "")
    for dunder in UNARY_DUNDERS:
        lines += render_def(dunder, [other[0]], cls, "    ")
    return lines

"""Code generation: the public function, the ``Array`` method and the operators of each op.

From one :class:`~ivy_like.core.registry.OpSpec` this writes Python source specialised to the
op's arity: a fast path for the common case (native arrays of one framework, no ``out=``) that
costs a type lookup and a call, and the general path (:mod:`ivy_like.core.dispatch`) for
everything else. No ``*args``/``**kwargs`` packing, no ``inspect`` and no decorator stack per
call. Each source is compiled under a stable file name (``<ivy_like generated: add>``) and put in
:mod:`linecache`, so tracebacks show the generated line and ``inspect.getsource`` works.
"""

from __future__ import annotations

import inspect
import linecache
from collections.abc import Callable
from typing import Any

from .decided_errors import decides
from .registry import OPS, OpSpec


def parameter_list(params: Any, text: Callable[[Any], str]) -> tuple[list[str], bool]:
    """The source of each parameter, ``text(p)``, with ``/`` after the positional-only ones and
    ``*`` before the first keyword-only one (``*args`` stands for it), and whether a ``*`` or
    ``*args`` was written. ``params`` are ``inspect.Parameter``-like (``.kind`` is read).
    One writer for the generated functions, the Container methods and the stubs."""
    kind = inspect.Parameter
    parts: list[str] = []
    posonly = star = False
    for p in params:
        if p.kind is kind.POSITIONAL_ONLY:
            posonly = True
        elif posonly:
            parts.append("/")
            posonly = False
        if p.kind is kind.VAR_POSITIONAL:
            parts.append(f"*{text(p)}")
            star = True
            continue
        if p.kind is kind.VAR_KEYWORD:
            parts.append(f"**{text(p)}")
            continue
        if p.kind is kind.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        parts.append(text(p))
    if posonly:
        parts.append("/")
    return parts, star


def _placeholder(p: inspect.Parameter) -> str:
    # Defaults are placeholders here, replaced by the declaration's own after exec.
    return p.name if p.default is p.empty or p.kind in _STARRED else f"{p.name}=None"


_STARRED = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


def _signature_source(params: tuple[inspect.Parameter, ...], drop_first: bool = False) -> str:
    """Parameter list source with markers; ``drop_first`` puts ``self`` in the first's place."""
    items = list(params)
    if drop_first:
        items[0] = items[0].replace(name="self", default=inspect.Parameter.empty)
    return ", ".join(parameter_list(items, _placeholder)[0])


def _backend_call(spec: OpSpec, first: str | None = None) -> str:
    """Source of the argument list of the backend call on the fast path."""
    parts: list[str] = []
    for p in spec.params:
        if p.name == "out":
            continue
        name = p.name if first is None or p is not spec.params[0] else first
        if p.kind is p.VAR_POSITIONAL:
            parts.append(f"*{name}")
        elif p.kind is p.KEYWORD_ONLY:
            parts.append(f"{p.name}={name}")
        else:
            parts.append(name)
    return ", ".join(parts)


def _all_values(spec: OpSpec, first: str | None = None) -> str:
    names = [p.name for p in spec.params]
    if first is not None:
        names[0] = first
    return "(" + "".join(f"{n}, " for n in names) + ")"


def _optional(spec: OpSpec, name: str) -> str:
    """``"x is None or "`` for an array parameter whose default is None (e.g. ``sorter``), so
    that leaving it out keeps the call on the fast path; ``""`` otherwise."""
    for p in spec.params:
        if p.name == name and p.default is None:
            return f"{name} is None or "
    return ""


def _fast_path_ok(spec: OpSpec) -> bool:
    return (
        bool(spec.arrays)
        and not spec.sequences
        and not spec.creation
        and all(p.kind is not p.VAR_POSITIONAL for p in spec.params)
    )


def _creation_fast_path_ok(spec: OpSpec) -> bool:
    """Creation ops without array arguments (``zeros``, ``asarray``): the active backend."""
    return (
        spec.creation
        and not spec.arrays
        and not spec.sequences
        and spec.out_index < 0
        and spec.n_outputs == 1
        and all(p.kind is not p.VAR_POSITIONAL for p in spec.params)
    )


def _sequence_fast_path_ok(spec: OpSpec) -> bool:
    """Ops on one sequence of arrays, their first parameter, and nothing else array-like
    (``concat``, ``meshgrid``; ``einsum(subscripts, *operands)`` takes the general path)."""
    return (
        len(spec.sequences) == 1
        and not spec.arrays
        and not spec.creation
        and spec.params[0].name == spec.sequences[0]
    )


def _device_lines(spec: OpSpec, backend: str = "_b") -> list[str]:
    """Validate ``device=`` once, here: each backend's ``native_device`` raises ``ValueError``
    for a device it does not have (backends then receive their own device objects)."""
    if "device" not in spec.param_names:
        return []
    return [f"if device is not None: device = {backend}.native_device(device)"]


def _left_out(spec: OpSpec) -> list[str]:
    """Conditions for the call cache: no dtype= and no device= (they need converting)."""
    conditions = [f"{d} is None" for d in spec.dtypes]
    if "device" in spec.param_names:
        conditions.append("device is None")
    return conditions


def _creation_source(spec: OpSpec) -> list[str]:
    # The general path would resolve no backend from the arguments and use the active one;
    # this does the same without its loops: read the stack, convert the dtype, call, wrap.
    # The call cache here is (backend stack, backend, function): a stack is an immutable tuple
    # that use_backend/set_backend replace, so the same object means the same active backend.
    plain = _left_out(spec)
    lines = []
    if spec.unwrapped:
        # An array of a framework (an Array, a torch tensor...) stays on its framework, as it
        # does for every other op; only neutral data (lists, NumPy, scalars) follows the stack.
        (u,) = spec.unwrapped
        # An Array whose data the kernel hands back unchanged (no copy, no cast, no move) is
        # returned itself: asarray(x, copy=False) is x, as the standard says.
        lines += [
            f"    if type({u}) is _Array: _o = {u}._backend; _in = {u}; {u} = {u}._data",
            f"    else: _o = _native(type({u})) or _owner({u}); _in = None",
            "    if _o is not None:",
            *[f"        if {d} is not None: {d} = _o.native_dtype({d})" for d in spec.dtypes],
            *[f"        {d}" for d in _device_lines(spec, "_o")],
            f"        _r = _o.{spec.backend_name}({_backend_call(spec)})",
            f"        return _in if _in is not None and _r is {u} else _wrap(_r, _o)",
        ]
    # A push traced by torch.compile is not in the ContextVar (see core/backend.py).
    lines += ["    _s = _stack() if not _TP[0] else _stack_now()", "    _c = _C"]
    defaulted = bool(spec.dtypes) and "float_default" in spec.extras
    # Once a default floating dtype other than float32 was ever chosen (_DF[0], see
    # core/dtypes.py), the cached function would hand one context's dtype to another: a call
    # without dtype= then takes the path below, which decides it from the context and the
    # values (the op's rule). Until then the cached path pays one check of the flag (~5 ns).
    hit = ["_s is _c[0]", *plain, *(["not _DF[0]"] if defaulted else [])]
    lines.append(f"    if {' and '.join(hit)}:")
    lines.append(f"        return _wrap(_c[2]({_backend_call(spec)}), _c[1])")
    lines.append("    _b = _s[-1] if _s else _current()")
    if defaulted:
        # Filled as ever (the cache still says which backend this stack means), once per stack:
        # calls without dtype= come here every time once a default was chosen.
        lines.append("    if _s is not _c[0]: _remember_creation(_ns, _s, _b)")
        name = spec.dtypes[0]
        positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        values = "".join(f"{p.name}, " for p in spec.params if p.kind in positional)
        lines.append(
            f"    if {name} is None and _DF[0]:"
            f" {name} = _creation_default(_spec.extras['float_default'], ({values}))"
        )
    else:
        lines.append("    _remember_creation(_ns, _s, _b)")
    lines += [f"    if {d} is not None: {d} = _b.native_dtype({d})" for d in spec.dtypes]
    lines += [f"    {d}" for d in _device_lines(spec)]
    lines.append(f"    return _wrap(_b.{spec.backend_name}({_backend_call(spec)}), _b)")
    return lines


def _sequence_source(spec: OpSpec) -> list[str]:
    # All items of one type: native arrays of one framework (or NumPy arrays under the numpy
    # backend) go straight to the backend; ivy_like.Arrays of one backend are unwrapped and the
    # result wrapped. Anything else (mixed types, scalars, Containers, empty) is general.
    seq = spec.sequences[0]
    param = spec.params[0]
    if param.name != seq:
        raise ValueError(f"op {spec.name}: the sequence fast path needs it as first parameter")
    star = param.kind is param.VAR_POSITIONAL
    no_out = " and out is None" if spec.out_index >= 0 else ""
    wrap = "_wrap_all" if spec.n_outputs != 1 else "_wrap"
    native_call = _backend_call(spec)
    unwrapped = _backend_call(spec, first="_d")  # the sequence is the first parameter
    check = "" if star else f"(type({seq}) is list or type({seq}) is tuple) and "
    # The call cache is (type, table or None, function), as for array arguments.
    return [
        f"    if {check}{seq}{no_out}:",
        f"        _t = type({seq}[0])",
        "        _c = _C",
        "        if _t is _c[0] and (_c[1] is None or _table() is _c[1]):",
        f"            for _a in {seq}:",
        "                if type(_a) is not _t:",
        "                    break",
        "            else:",
        f"                return _c[2]({native_call})",
        "        _b = _native(_t)",
        "        if _b is None:",
        "            _b = _table().get(_t)",
        "        if _b is not None:",
        f"            for _a in {seq}:",
        "                if type(_a) is not _t:",
        "                    break",
        "            else:",
        "                _remember(_ns, _t, _b)",
        f"                return _b.{spec.backend_name}({native_call})",
        "        elif _t is _Array:",
        f"            _b = {seq}[0]._backend",
        "            _d = []",
        f"            for _a in {seq}:",
        "                if type(_a) is not _Array or _a._backend is not _b:",
        "                    break",
        "                _d.append(_a._data)",
        "            else:",
        f"                return {wrap}(_b.{spec.backend_name}({unwrapped}), _b)",
    ]


def _guarded(source: str, spec: OpSpec, values: str) -> str:
    """``source`` (one generated function) with its body inside ``try``, for an op whose dtype,
    shape or axis errors ivy_like decides (:mod:`ivy_like.core.decided_errors`): a backend's failure is
    handed to ``_translate`` with ``values`` (source of the arguments' tuple, in the declaration's
    order), which raises ivy_like's error or lets the framework's go on.
    Python 3.11's ``try`` costs nothing until something is raised."""
    if not decides(spec):
        return source
    head, *body = source.rstrip("\n").split("\n")
    return (
        "\n".join(
            [
                head,
                "    try:",
                *(f"    {line}" for line in body),
                "    except Exception as _e:",
                f"        _translate(_spec, {values}, _e)",
                "        raise",
            ]
        )
        + "\n"
    )


def _function_source(spec: OpSpec) -> str:
    return _guarded(_unguarded_function_source(spec), spec, _all_values(spec))


def _unguarded_function_source(spec: OpSpec) -> str:
    name = spec.name
    lines = [f"def {name}({_signature_source(spec.params)}):"]
    if _creation_fast_path_ok(spec):
        return "\n".join(lines + _creation_source(spec)) + "\n"
    if _sequence_fast_path_ok(spec):
        lines += _sequence_source(spec)
    elif _fast_path_ok(spec):
        a0 = spec.arrays[0]
        others = spec.arrays[1:]
        no_out = ["out is None"] if spec.out_index >= 0 else []
        dtype_lines = [f"if {d} is not None: {d} = _b.native_dtype({d})" for d in spec.dtypes]
        dtype_lines += _device_lines(spec)
        # 1. native arrays of one framework (and Python scalars beside them). NATIVE (the
        # frameworks' own types) is a plain dict consulted first; only on a miss is the active
        # backend's table read from the ContextVar (NumPy arrays under the numpy backend).
        # Native calls thus never touch the ContextVar, which torch.compile cannot trace.
        same = [
            f"({_optional(spec, a)}_b is _native(type({a})) or type({a}) in _scalars"
            f" or _b is _table().get(type({a})))"
            for a in others
        ]
        # 0. The call cache: the last backend function this op called for arrays all of one
        # type, read as one tuple (type, table or None, function) so that a thread replacing
        # it is seen whole. The table is None for frameworks' own types and the active table
        # for NumPy arrays (whose backend depends on it).
        one_type = [f"{_optional(spec, a)}type({a}) is _t" for a in others]
        plain = _left_out(spec)
        guard = " and ".join(
            ["_t is _c[0]", *(f"({c})" for c in one_type), *no_out, *plain,
             "(_c[1] is None or _table() is _c[1])"]
        )  # fmt: skip
        lines.append("    _c = _C")
        lines.append(f"    _t = type({a0})")
        lines.append(f"    if {guard}:")
        lines.append(f"        return _c[2]({_backend_call(spec)})")
        lines.append("    _b = _native(_t)")
        lines.append("    if _b is None:")
        lines.append("        _b = _table().get(_t)")
        lines.append("    if _b is not None:")
        lines.append(f"        if {' and '.join([*no_out, *same]) or 'True'}:")
        if one_type:
            lines.append(f"            if {' and '.join(f'({c})' for c in one_type)}:")
            lines.append("                _remember(_ns, _t, _b)")
        else:
            lines.append("            _remember(_ns, _t, _b)")
        lines += [f"            {d}" for d in dtype_lines]
        lines.append(f"            return _b.{spec.backend_name}({_backend_call(spec)})")
        # 2. ivy_like.Arrays of one backend (and Python scalars beside them)
        arrays = [
            f"({_optional(spec, a)}type({a}) in _scalars"
            f" or (type({a}) is _Array and {a}._backend is _b))"
            for a in others
        ]
        lines.append("    elif _t is _Array:")
        lines.append(f"        _b = {a0}._backend")
        lines.append(f"        if {' and '.join([*no_out, *arrays]) or 'True'}:")
        lines += [f"            {d}" for d in dtype_lines]
        call = f"_b.{spec.backend_name}({_backend_call_unwrapped(spec)})"
        if spec.n_outputs != 1:
            lines.append(f"            return _wrap_all({call}, _b)")
        else:
            lines.append(f"            return _wrap({call}, _b)")
    lines.append(f"    return _general(_spec, {_all_values(spec)})")
    return "\n".join(lines) + "\n"


def _backend_call_unwrapped(spec: OpSpec) -> str:
    """Like _backend_call, with array arguments unwrapped from Array (scalars pass as is)."""
    parts: list[str] = []
    for p in spec.params:
        if p.name == "out":
            continue
        if p.name == spec.arrays[0]:
            value = f"{p.name}._data"
        elif p.name in spec.arrays:
            value = f"({p.name}._data if type({p.name}) is _Array else {p.name})"
        else:
            value = p.name
        parts.append(f"{p.name}={value}" if p.kind is p.KEYWORD_ONLY else value)
    return ", ".join(parts)


def _method_source(spec: OpSpec, method_name: str) -> str:
    """The Array method: ``self`` takes the place of the first parameter (an array)."""
    source = _unguarded_method_source(spec, method_name)
    return _guarded(source, spec, _all_values(spec, first="self"))


def _unguarded_method_source(spec: OpSpec, method_name: str) -> str:
    first = spec.params[0].name
    lines = [f"def {method_name}({_signature_source(spec.params, drop_first=True)}):"]
    if _fast_path_ok(spec) and spec.arrays[0] == first:
        others = spec.arrays[1:]
        cond = ["out is None"] if spec.out_index >= 0 else []
        # The other array arguments must be Arrays of the same backend or Python scalars.
        for a in others:
            cond.append(
                f"({_optional(spec, a)}type({a}) in _scalars"
                f" or (type({a}) is _Array and {a}._backend is _b))"
            )
        lines.append("    _b = self._backend")
        if cond:
            lines.append(f"    if {' and '.join(cond)}:")
            ind = "        "
        else:
            ind = "    "
        for a in others:
            lines.append(f"{ind}{a} = {a}._data if type({a}) is _Array else {a}")
        for d in spec.dtypes:
            lines.append(f"{ind}if {d} is not None: {d} = _b.native_dtype({d})")
        lines += [f"{ind}{d}" for d in _device_lines(spec)]
        call = f"_b.{spec.backend_name}({_backend_call(spec, first='self._data')})"
        if spec.n_outputs != 1:
            lines.append(f"{ind}return _wrap_all({call}, _b)")
        else:
            lines.append(f"{ind}return _wrap({call}, _b)")
    if not lines[-1].startswith("    return"):
        lines.append(f"    return _general(_spec, {_all_values(spec, first='self')})")
    return "\n".join(lines) + "\n"


def _reflected_source(spec: OpSpec, method_name: str) -> str:
    """``__radd__`` and friends: ``other <op> self``."""
    rest = spec.params[2:]
    if any(p.default is not None for p in rest):
        raise ValueError(f"op {spec.name}: reflected operators need None defaults after x2")
    pad = "None, " * len(rest)
    values = f"(other, self, {pad})"
    source = f"def {method_name}(self, other, /):\n    return _general(_spec, {values})\n"
    return _guarded(source, spec, values)


def compile_source(
    source: str, name: str, namespace: dict[str, Any], where: str
) -> Callable[..., Any]:
    """Compile one generated function ``name`` under the file name ``<ivy_like generated:
    where>`` (``where`` is its public name, ``ivy_like.add`` or ``Array.__add__``, so each
    source has its own) and keep the source in :mod:`linecache`: tracebacks then print the
    generated line, and ``inspect.getsource`` returns it. The entry has no modification time,
    so ``linecache.checkcache`` never drops it."""
    filename = f"<ivy_like generated: {where}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    code = compile(source, filename, "exec")
    exec(code, namespace)  # noqa: S102 - source built above from the op's own signature
    return namespace[name]


def checked_kernel(spec: OpSpec, kernel: Callable[..., Any], backend: str) -> Callable[..., Any]:
    """The op's kernel preceded by its declared ``check`` (see ``OpSpec.check``): a function
    with the kernel's parameters (the op's, without ``out``) that calls ``check`` with them and
    then ``kernel``. Written as source like the public function, so a traceback through it
    shows both lines (``<ivy_like generated: numpy.top_k>``)."""
    params = tuple(p for p in spec.params if p.name != "out")
    call = _backend_call(spec)
    source = (
        f"def {spec.backend_name}({_signature_source(params)}):\n"
        f"    _check({call})\n"
        f"    return _kernel({call})\n"
    )
    ns: dict[str, Any] = {"_check": spec.check, "_kernel": kernel}
    fn = compile_source(source, spec.backend_name, ns, f"{backend}.{spec.backend_name}")
    decl = spec.declaration
    fn.__defaults__ = decl.__defaults__
    kwdefaults = {k: v for k, v in (decl.__kwdefaults__ or {}).items() if k != "out"}
    fn.__kwdefaults__ = kwdefaults or None
    fn.__wrapped__ = kernel  # type: ignore[attr-defined]
    return fn


def public_name(spec: OpSpec) -> str:
    """``ivy_like.add``, ``ivy_like.linalg.inv``: where the function variant is published."""
    return ".".join(filter(None, ("ivy_like", spec.namespaces[0], spec.name)))


def _copy_metadata(fn: Callable[..., Any], spec: OpSpec, drop_first: bool) -> None:
    decl = spec.declaration
    defaults = decl.__defaults__
    if drop_first and defaults is not None:
        positional = [
            p for p in spec.params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        if len(defaults) > len(positional) - 1:
            defaults = defaults[1:]
    fn.__defaults__ = defaults
    fn.__kwdefaults__ = dict(decl.__kwdefaults__) if decl.__kwdefaults__ else None
    fn.__doc__ = decl.__doc__
    fn.__module__ = "ivy_like"
    annotations = dict(getattr(decl, "__annotations__", {}))
    if drop_first and spec.params:
        annotations.pop(spec.params[0].name, None)
    fn.__annotations__ = annotations


_build_hooks: list[Callable[[OpSpec], None]] = []


def on_build(hook: Callable[[OpSpec], None]) -> None:
    """Register ``hook(spec)`` to run for every op built now and later (Container methods)."""
    _build_hooks.append(hook)
    for spec in OPS.values():
        if spec.function is not None:
            hook(spec)


# The namespaces of generated functions that hold a call cache (``_C``), and its empty value:
# no array has the type _NoArray, so an empty cache never matches.
_CACHING: list[dict[str, Any]] = []
_NoArray = type("_NoArray", (), {})
EMPTY_CALL_CACHE = (_NoArray, None, None)


def forget_calls() -> None:
    """Empty every op's call cache (a backend's functions or the type tables changed)."""
    for ns in _CACHING:
        ns["_C"] = EMPTY_CALL_CACHE


def build(spec: OpSpec, namespace: dict[str, Any]) -> None:
    """Generate the function and the Array method of ``spec``."""
    ns = dict(namespace)
    ns["_spec"] = spec
    if _fast_path_ok(spec) or _creation_fast_path_ok(spec) or _sequence_fast_path_ok(spec):
        ns["_C"] = EMPTY_CALL_CACHE
        ns["_ns"] = ns
        _CACHING.append(ns)
    fn = compile_source(_function_source(spec), spec.name, ns, public_name(spec))
    _copy_metadata(fn, spec, drop_first=False)
    fn.__qualname__ = spec.name
    spec.function = fn
    for hook in _build_hooks:
        hook(spec)


def build_array_method(spec: OpSpec, namespace: dict[str, Any]) -> Callable[..., Any]:
    """Generate (once) the Array method of ``spec``; ``ivy_like.core.build`` calls it lazily."""
    if spec.array_method is None:
        ns = dict(namespace)
        ns["_spec"] = spec
        meth = compile_source(_method_source(spec, spec.name), spec.name, ns, f"Array.{spec.name}")
        _copy_metadata(meth, spec, drop_first=True)
        meth.__qualname__ = f"Array.{spec.name}"
        meth.__doc__ = (
            f"Array method variant of :func:`ivy_like.{spec.name}` (``self`` is "
            f"``{spec.params[0].name}``).\n\n{decl_doc_first_line(spec)}"
        )
        spec.array_method = meth
    return spec.array_method


def make_dunder(spec: OpSpec, dunder: str, namespace: dict[str, Any], reflected: bool) -> Any:
    ns = dict(namespace)
    ns["_spec"] = spec
    if reflected:
        return compile_source(_reflected_source(spec, dunder), dunder, ns, f"Array.{dunder}")
    fn = compile_source(_method_source(spec, dunder), dunder, ns, f"Array.{dunder}")
    _copy_metadata(fn, spec, drop_first=True)
    return fn


def decl_doc_first_line(spec: OpSpec) -> str:
    doc = (spec.declaration.__doc__ or "").strip()
    return doc.splitlines()[0] if doc else ""

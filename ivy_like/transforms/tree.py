"""Arguments and results of a differentiated or transformed function as flat lists of native
leaves, shared by every transform of this package (``grad.py``, ``_autodiff.py``, ``_vmap.py``,
``_compile.py``, ``_custom.py``, ``control_flow.py``).

Every transform does the same three things around the framework's own transform: flatten the
arguments (arrays, ``Array``, Containers, nested dicts/lists/tuples) into native leaves, let
the backend transform a function of that flat list, and rebuild the results in the
structures and types that came in. A *spec* records the structure; it is a hashable tuple
tree, so ``compile`` can key its cache on it:

* ``"n"`` a native array of the backend, ``"a"`` an ``ivy_like.Array``, ``"p"`` a NumPy array
  or a Python number converted to the backend (a leaf like the others);
* ``("s", value)`` a static value: kept out of the transform and passed as is (Python numbers
  where ``static_scalars`` is set, ``None``, strings, anything that is not an array);
* ``("d", type, keys, children)`` a dict or Container, ``("l", type, children)`` a list or tuple.
"""

from __future__ import annotations

from typing import Any

from ..container import Container
from ..container._container import make as _make_container
from ..core import backend as _backend
from ..core import codegen as _codegen
from ..core import tracing as _tracing
from ..core.array import _wrap
from ..core.backend import ARRAY_KIND, NEUTRAL, Backend, kind_of

N, A, P = "n", "a", "p"
_KIND = _backend._KIND
_SCALARS = (bool, int, float, complex)


def _kind(value: Any) -> Any:
    hit = _KIND.get(type(value))
    return hit if hit is not None else kind_of(type(value))


def check_fun(fun: Any, who: str) -> None:
    """Every transform's first check: ``fun`` (of ``who``) is callable."""
    if not callable(fun):
        raise TypeError(f"{who}: fun must be callable, got {type(fun).__name__}")


def describe(owner: Any) -> str:
    """``argument 0['w'][1]`` from the path ``(("argument 0", "w"), 1)`` a leaf's owner is
    kept as (formatted only for an error message: formatting every leaf costs microseconds)."""
    keys = []
    while isinstance(owner, tuple):
        owner, key = owner
        keys.append(f"[{key!r}]")
    return owner + "".join(reversed(keys))


class Flat:
    """The leaves of one call, their backend, and who owns each (for error messages)."""

    __slots__ = ("leaves", "backend", "paths", "neutral", "has_array", "who", "strict")

    def __init__(self, who: str, strict: bool = False) -> None:
        self.leaves: list[Any] = []
        self.backend: Backend | None = None
        self.paths: list[Any] = []  # one owner path per leaf, see describe()
        self.neutral: list[int] = []  # positions of NumPy/Python leaves, converted later
        self.has_array = False  # an ivy_like.Array among the leaves
        self.who = who
        # Differentiated arguments: anything that is not an array (a string, None) is an error
        # rather than a static value passed through.
        self.strict = strict

    @property
    def owners(self) -> list[str]:
        return [describe(p) for p in self.paths]

    def add_backend(self, backend: Backend) -> None:
        if self.backend is None:
            self.backend = backend
        elif backend is not self.backend:
            raise TypeError(
                f"{self.who}: arrays of two different frameworks ({self.backend.name} and "
                f"{backend.name}); convert one of them first"
            )


def flatten(obj: Any, flat: Flat, owner: Any, static_scalars: bool) -> Any:
    """The spec of ``obj``; its leaves are appended to ``flat``. (Every call of a compiled
    function runs this on its arguments: kept to dict lookups and appends.)"""
    kind = _KIND.get(type(obj))
    if kind is None:
        kind = kind_of(type(obj))
    if kind.__class__ is Backend:
        if kind is not flat.backend:
            flat.add_backend(kind)
        flat.leaves.append(obj)
        flat.paths.append(owner)
        return N
    if kind is ARRAY_KIND:
        backend = obj._backend
        if backend is not flat.backend:
            flat.add_backend(backend)
        flat.leaves.append(obj._data)
        flat.paths.append(owner)
        flat.has_array = True
        return A
    if kind is NEUTRAL and obj is not None:
        if static_scalars and type(obj) in _SCALARS:
            return ("s", obj)
        flat.neutral.append(len(flat.leaves))
        flat.leaves.append(obj)
        flat.paths.append(owner)
        return P
    if isinstance(obj, dict):  # plain dicts and Containers
        keys = tuple(obj)
        children = tuple([flatten(obj[k], flat, (owner, k), static_scalars) for k in keys])
        return ("d", type(obj), keys, children)
    if isinstance(obj, (list, tuple)):
        children = tuple([flatten(v, flat, (owner, i), static_scalars) for i, v in enumerate(obj)])
        return ("l", type(obj), children)
    if flat.strict:
        raise TypeError(
            f"{flat.who}: {describe(owner)} contains a {type(obj).__name__}; differentiated "
            f"arguments must be arrays, Containers, or dicts/lists/tuples of arrays"
        )
    return ("s", obj)


def flatten_arrays(obj: Any, leaves: list[Any], found: list[Any]) -> Any:
    """:func:`flatten` for the common differentiated argument: arrays (native or ``Array``)
    in Containers, dicts, lists and tuples. ``found`` is ``[backend, has_array]``, filled in.
    Returns the spec, or None at anything else (a NumPy array, a Python number, a string,
    arrays of two frameworks), where the caller takes :func:`flatten`, which converts the
    value or names it in its error. Keeps no owner paths: ~2x faster on a model's params."""
    kind = _KIND.get(type(obj))
    if kind.__class__ is Backend:
        if kind is not found[0]:
            if found[0] is not None:
                return None
            found[0] = kind
        leaves.append(obj)
        return N
    if kind is ARRAY_KIND:
        backend = obj._backend
        if backend is not found[0]:
            if found[0] is not None:
                return None
            found[0] = backend
        leaves.append(obj._data)
        found[1] = True
        return A
    if isinstance(obj, dict):
        keys = tuple(obj)
        children = []
        for k in keys:
            child = flatten_arrays(obj[k], leaves, found)
            if child is None:
                return None
            children.append(child)
        return ("d", type(obj), keys, tuple(children))
    if isinstance(obj, (list, tuple)):
        children = []
        for v in obj:
            child = flatten_arrays(v, leaves, found)
            if child is None:
                return None
            children.append(child)
        return ("l", type(obj), tuple(children))
    return None


def _make_mapping(tp: type, items: dict[Any, Any]) -> Any:
    if tp is dict:
        return items
    if tp is Container:
        return _make_container(items)  # its keys were checked when it was built: no checks
    return tp(items)


def rebuild(spec: Any, it: Any, backend: Backend) -> Any:
    """The object ``spec`` describes, its leaves taken in order from the iterator ``it``.

    A structure seen twice gets a generated function (one expression: a nested Container of
    six leaves is rebuilt in ~1 µs where the recursive walk takes ~3); see ``_generated``."""
    if spec is N or spec is P:
        return next(it)
    if spec is A:
        return _wrap(next(it), backend)
    if _tracing.is_tracing():  # Dynamo would guard on the table: the walk, plain Python
        return _rebuild(spec, it, backend)
    try:
        fn = _REBUILDERS.get(spec)
    except TypeError:  # an unhashable static value (a slice, a set): the walk
        return _rebuild(spec, it, backend)
    if fn is None:
        fn = _generated(spec)
        if fn is None:
            return _rebuild(spec, it, backend)
    return fn(spec, it.__next__, backend)


def _sequence(tp: type, values: list[Any]) -> Any:
    """A list, tuple or named tuple of type ``tp`` holding ``values``."""
    if tp is list:
        return values
    if tp is tuple:
        return tuple(values)
    return tp(*values) if hasattr(tp, "_fields") else tp(values)


def _rebuild(spec: Any, it: Any, backend: Backend) -> Any:
    if spec is N or spec is P:
        return next(it)
    if spec is A:
        return _wrap(next(it), backend)
    tag = spec[0]
    if tag == "d":
        _, tp, keys, children = spec
        return _make_mapping(tp, {k: _rebuild(c, it, backend) for k, c in zip(keys, children)})
    if tag == "l":
        _, tp, children = spec
        return _sequence(tp, [_rebuild(c, it, backend) for c in children])
    return spec[1]


# -- generated rebuilders -----------------------------------------------------------------------
# spec -> fn(spec, next_leaf, backend). Generated at a structure's second rebuild (a one-off
# structure keeps the walk: compiling costs ~100 µs), up to _MAX_GENERATED structures. The
# function reads static values and non-str keys from the spec it is given, never from the one
# it was made for: specs compare equal when their statics do (1 == 1.0 == True).
_REBUILDERS: dict[Any, Any] = {}
_SEEN: dict[Any, int] = {}
_MAX_GENERATED = 4096
_MAX_DEPTH = 32  # deeper nests keep the walk (the parser limits nested brackets)


def _generated(spec: Any) -> Any:
    if len(_REBUILDERS) >= _MAX_GENERATED:
        return None
    if _SEEN.get(spec) is None:
        if len(_SEEN) < _MAX_GENERATED:
            _SEEN[spec] = 1
        return None
    names: dict[str, Any] = {
        "_wrap": _wrap,
        "_mapping": _make_mapping,
        "_container": _make_container,
        "_zip": zip,
    }
    expr = _expression(spec, "spec", names, 0)
    if expr is None:
        _REBUILDERS[spec] = _rebuild_from_next
        return _rebuild_from_next
    source = f"def rebuild(spec, n, b):\n    return {expr}\n"
    fn = _codegen.compile_source(source, "rebuild", names, f"rebuild #{len(_REBUILDERS)}")
    _REBUILDERS[spec] = fn
    _SEEN.pop(spec, None)  # (another thread may have generated it too)
    return fn


def _rebuild_from_next(spec: Any, nxt: Any, backend: Backend) -> Any:
    return _rebuild(spec, iter(nxt, _STOP), backend)


_STOP = object()  # never returned by a leaf iterator's __next__ (iter(callable, sentinel))


def _name_of(tp: type, names: dict[str, Any]) -> str:
    """The generated source's name of the type ``tp`` (one name a type)."""
    for name, value in names.items():
        if value is tp:
            return name
    name = f"_t{len(names)}"
    names[name] = tp
    return name


def _expressions(
    children: tuple[Any, ...], path: str, names: dict[str, Any], depth: int
) -> list[str] | None:
    """The sources of a node's children (``path``: the expression of its children tuple), or
    None when one cannot be generated."""
    out = []
    for i, child in enumerate(children):
        source = _expression(child, f"{path}[{i}]", names, depth + 1)
        if source is None:
            return None
        out.append(source)
    return out


def _expression(spec: Any, path: str, names: dict[str, Any], depth: int) -> str | None:
    """Source building ``spec``'s object: ``n()`` is the next leaf, ``b`` the backend,
    ``path`` the expression of ``spec`` inside the argument ``spec``."""
    if spec is N or spec is P:
        return "n()"
    if spec is A:
        return "_wrap(n(), b)"
    if depth > _MAX_DEPTH:
        return None
    tag = spec[0]
    if tag == "s":
        return f"{path}[1]"
    if tag == "d":
        _, tp, keys, children = spec
        values = _expressions(children, f"{path}[3]", names, depth)
        if values is None:
            return None
        if tp is Container:  # its keys are str (checked when it was made): literals
            items = ", ".join(f"{k!r}: {v}" for k, v in zip(keys, values))
            return f"_container({{{items}}})"
        # Other mappings' keys come from the spec given: an equal key may be another object
        # (1 and True, a StrEnum member and its str).
        items = f"_zip({path}[2], ({', '.join(values)}{',' if len(values) == 1 else ''}))"
        if tp is dict:
            return f"dict({items})"
        return f"_mapping({_name_of(tp, names)}, dict({items}))"
    if tag == "l":
        _, tp, children = spec
        values = _expressions(children, f"{path}[2]", names, depth)
        if values is None:
            return None
        body = ", ".join(values)
        if tp is list:
            return f"[{body}]"
        if tp is tuple:
            return f"({body},)" if len(values) == 1 else f"({body})"
        tp_name = _name_of(tp, names)
        if hasattr(tp, "_fields"):
            return f"{tp_name}({body})"
        return f"{tp_name}([{body}])"
    return None


def place(spec: Any, it: Any) -> Any:
    """Like :func:`rebuild`, with each leaf position filled by the next object as it is."""
    if spec is N or spec is P or spec is A:
        return next(it)
    tag = spec[0]
    if tag == "d":
        _, tp, keys, children = spec
        return _make_mapping(tp, {k: place(c, it) for k, c in zip(keys, children)})
    if tag == "l":
        _, tp, children = spec
        return _sequence(tp, [place(c, it) for c in children])
    return spec[1]


def flatten_output(obj: Any, leaves: list[Any], backend: Backend) -> Any:
    """The spec of a result: arrays of ``backend`` become leaves, anything else is static."""
    kind = _kind(obj)
    if kind is ARRAY_KIND:
        leaves.append(obj._data)
        return A
    if kind is backend:
        leaves.append(obj)
        return N
    if isinstance(obj, dict):
        keys = tuple(obj)
        return ("d", type(obj), keys, tuple(flatten_output(obj[k], leaves, backend) for k in keys))
    if isinstance(obj, (list, tuple)):
        return ("l", type(obj), tuple(flatten_output(v, leaves, backend) for v in obj))
    if kind is NEUTRAL and isinstance(obj, backend.array_types):
        # NumPy arrays are neutral everywhere but are the numpy backend's own arrays: a result
        # that a mapped function computed from them is a leaf, not a constant (a static value
        # would make vmap return the last example's result).
        leaves.append(obj)
        return N
    return ("s", obj)


def leaf_specs(spec: Any) -> list[Any]:
    """The leaf entries of ``spec`` in order (``N``, ``A`` or ``P``)."""
    if spec is N or spec is A or spec is P:
        return [spec]
    if spec[0] == "d":
        return [s for c in spec[3] for s in leaf_specs(c)]
    if spec[0] == "l":
        return [s for c in spec[2] for s in leaf_specs(c)]
    return []


def promote(spec: Any) -> Any:
    """``spec`` with NumPy/Python leaves rebuilt as Arrays (beside Arrays, see grad)."""
    if spec is P:
        return A
    if spec is N or spec is A or spec[0] == "s":
        return spec
    if spec[0] == "d":
        return ("d", spec[1], spec[2], tuple(promote(c) for c in spec[3]))
    return ("l", spec[1], tuple(promote(c) for c in spec[2]))


def resolve_backend(flat: Flat, *others: Any) -> Backend:
    """The backend of the leaves, else of any array among ``others``, else the active one;
    NumPy leaves are converted to it."""
    backend = flat.backend
    if backend is None:
        for other in others:
            backend = _find(other)
            if backend is not None:
                break
        else:
            backend = _backend.current_backend()
    leaves = flat.leaves
    for j in flat.neutral:
        leaves[j] = backend.asarray(leaves[j])
    return backend


def first_backend(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Backend | None:
    """The backend of the arrays among the arguments: a top-level array's, else the first
    found inside a Container, dict, list or tuple (``compile`` on jax, ``(params, x)``: one
    dict lookup for ``x``; arrays of two frameworks are refused later, whichever is found)."""
    values = (*args, *kwargs.values())
    for value in values:
        kind = _kind(value)  # filled on a miss: a type not seen yet is still classified
        if kind.__class__ is Backend:
            return kind  # type: ignore[no-any-return]
        if kind is ARRAY_KIND:
            return value._backend  # type: ignore[no-any-return]
    for value in values:
        if isinstance(value, (dict, list, tuple)):
            hit = _find(value)
            if hit is not None:
                return hit
    return None


def backend_of_types(types: tuple[Any, ...]) -> Backend | None:
    """The backend :func:`first_backend` finds from the argument types alone: that of the
    first top-level native array, when no ``Array`` (whose backend is its own) comes before
    it; None otherwise."""
    for tp in types:
        kind = _KIND.get(tp) if isinstance(tp, type) else None
        if kind.__class__ is Backend:
            return kind  # type: ignore[no-any-return]
        if kind is ARRAY_KIND:
            return None
    return None


def _find(obj: Any) -> Backend | None:
    kind = _kind(obj)
    if kind.__class__ is Backend:
        return kind  # type: ignore[no-any-return]
    if kind is ARRAY_KIND:
        return obj._backend  # type: ignore[no-any-return]
    if isinstance(obj, dict):
        obj = list(obj.values())
    if isinstance(obj, (list, tuple)):
        for v in obj:
            hit = _find(v)
            if hit is not None:
                return hit
    return None

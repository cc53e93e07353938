"""Control flow with ``jax.lax``'s signatures and semantics: ``cond``, ``while_loop``,
``fori_loop`` and ``scan``, eager and under ``ivy_like.compile``.

Operands, carries and ``xs`` may be native arrays, ``Array``s, Containers and nested
dicts/lists/tuples of them (``transforms/tree.py`` flattens them); results keep the input's types. The
frontend checks what JAX checks, once per run of a user function (per trace where the backend
traces, per step where it loops in Python): branches that agree, a carry that keeps its
structure, shapes and dtypes, a boolean scalar condition, the sizes of the scanned axes. The
backend's ``control_flow.py`` runs the flat functions: ``lax.cond``/``while_loop``/
``fori_loop``/``scan`` on jax, ``tf.cond``/``tf.while_loop`` in a TensorFlow graph, Python
loops elsewhere (see ``backends/_common/control_flow.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from ..core.array import _wrap
from ..core.backend import ARRAY_KIND, NEUTRAL, Backend, activated
from ..core.decided_errors import optional_count
from . import tree as _tree
from .tree import A, Flat, N, P

__all__ = ["cond", "fori_loop", "scan", "while_loop"]

C = TypeVar("C")
Y = TypeVar("Y")
_kind = _tree._kind


# -- describing values in error messages ----------------------------------------------------
def _dtype_name(backend: Backend, native_dtype: Any) -> str:
    try:
        return backend.unified_dtype(native_dtype).name
    except (KeyError, TypeError, ValueError):
        return str(native_dtype)


def _aval(backend: Backend, leaf: Any) -> tuple[tuple[Any, ...], Any]:
    return tuple(backend.shape(leaf)), backend.dtype(leaf)


def _aval_str(backend: Backend, aval: tuple[tuple[Any, ...], Any]) -> str:
    shape, dtype = aval
    dims = ",".join("?" if d is None else str(d) for d in shape)
    return f"{_dtype_name(backend, dtype)}[{dims}]"


def _same_aval(a: tuple[tuple[Any, ...], Any], b: tuple[tuple[Any, ...], Any]) -> bool:
    if a == b:  # the common case, checked once per step of an eager loop
        return True
    if a[1] != b[1] or len(a[0]) != len(b[0]):
        return False
    # An unknown dimension (None, in a TensorFlow graph) matches any size.
    return all(x == y or x is None or y is None for x, y in zip(a[0], b[0]))


def _is_array(obj: Any) -> bool:
    kind = _kind(obj)
    return kind.__class__ is Backend or kind is ARRAY_KIND


def _describe_value(obj: Any, backend: Backend) -> str:
    kind = _kind(obj)
    owner = obj._backend if kind is ARRAY_KIND else kind
    if owner is backend:
        native = obj._data if kind is ARRAY_KIND else obj
        return f"an array {_aval_str(backend, _aval(backend, native))}"
    if owner.__class__ is Backend:
        return f"an array of {owner.name}"
    if isinstance(obj, dict):
        return f"a {type(obj).__name__} with keys {list(obj)}"
    if isinstance(obj, (list, tuple)):
        return f"a {type(obj).__name__} of {len(obj)}"
    return f"{obj!r:.80}"


def _describe_spec(spec: Any) -> str:
    if spec is N or spec is A or spec is P:
        return "an array"
    if spec[0] == "d":
        return f"a {spec[1].__name__} with keys {list(spec[2])}"
    if spec[0] == "l":
        return f"a {spec[1].__name__} of {len(spec[2])}"
    return f"{spec[1]!r:.80}"


def _callable(fun: Any, who: str, name: str) -> None:
    if not callable(fun):
        raise TypeError(f"{who}: {name} must be callable, got {type(fun).__name__}")


# -- one structure, checked against every value that must have it -----------------------------
class StructureMismatch(TypeError):
    """A value that must keep a structure, shapes and dtypes (a loop's carry, a scan's ``y``,
    the two branches of ``cond``) does not. A ``TypeError`` as in JAX; its own class so that
    a caller with another way for such a value (ONNX's ``Loop`` lets a carried value grow)
    can tell it from any other ``TypeError`` without reading the message."""


class _Mismatch(Exception):
    def __init__(self, path: Any, got: str, want: str) -> None:
        super().__init__()
        self.path, self.got, self.want = path, got, want


class _Shape:
    """A reference structure (a ``tree.py`` spec), the avals of its leaves and their kinds.

    ``leaves(obj, name)`` returns the native leaves of ``obj`` in the reference's order (dict
    keys are matched by name, not by insertion order) and raises ``TypeError`` where ``obj``
    differs in structure, shape or dtype, naming ``name`` (who returned it) and the
    reference. Each leaf's kind (``N``, ``A``, ``P``) is merged into ``kinds``: a result leaf
    is an ``Array`` where any value had an ``Array``.
    """

    __slots__ = ("spec", "avals", "kinds", "backend", "who", "rule", "reference", "root")

    def __init__(
        self,
        spec: Any,
        leaves: list[Any],
        backend: Backend,
        who: str,
        rule: str,
        reference: str,
        root: str,
    ) -> None:
        self.spec = spec
        self.avals = [_aval(backend, leaf) for leaf in leaves]
        self.kinds = _tree.leaf_specs(spec)
        self.backend = backend
        self.who, self.rule = who, rule
        self.reference = reference  # "init_val has", "true_fun returned"...
        self.root = root  # the name of the value in paths: "init_val", "output", "y"

    def _error(self, name: str, where: Any, got: str, want: str) -> StructureMismatch:
        return StructureMismatch(
            f"{self.who}: {self.rule}; at {_tree.describe(where)}, {name} returned {got} where "
            f"{self.reference} {want}"
        )

    def leaves(self, obj: Any, name: str) -> list[Any]:
        leaves: list[Any] = []
        paths: list[Any] = []
        kinds: list[Any] = []
        try:
            self._walk(self.spec, obj, self.root, leaves, paths, kinds)
        except _Mismatch as m:
            raise self._error(name, m.path, m.got, m.want) from None
        backend = self.backend
        for j, (leaf, path, ref) in enumerate(zip(leaves, paths, self.avals)):
            got = _aval(backend, leaf)
            if not _same_aval(got, ref):
                raise self._error(name, path, _aval_str(backend, got), _aval_str(backend, ref))
            if kinds[j] is A:
                self.kinds[j] = A
        return leaves

    def _walk(
        self, spec: Any, obj: Any, path: Any, leaves: list[Any], paths: list[Any], kinds: list[Any]
    ) -> None:
        backend = self.backend
        if spec is N or spec is A or spec is P:
            kind = _kind(obj)
            if kind is backend:
                leaves.append(obj)
                kinds.append(N)
            elif kind is ARRAY_KIND and obj._backend is backend:
                leaves.append(obj._data)
                kinds.append(A)
            elif kind is NEUTRAL and obj is not None:
                leaves.append(backend.asarray(obj))
                kinds.append(P)
            else:
                raise _Mismatch(path, _describe_value(obj, backend), "an array")
            paths.append(path)
            return
        tag = spec[0]
        if tag == "d":
            _, tp, keys, children = spec
            if type(obj) is not tp or len(obj) != len(keys) or any(k not in obj for k in keys):
                raise _Mismatch(path, _describe_value(obj, backend), _describe_spec(spec))
            for key, child in zip(keys, children):
                self._walk(child, obj[key], (path, key), leaves, paths, kinds)
        elif tag == "l":
            _, tp, children = spec
            if type(obj) is not tp or len(obj) != len(children):
                raise _Mismatch(path, _describe_value(obj, backend), _describe_spec(spec))
            for i, child in enumerate(children):
                self._walk(child, obj[i], (path, i), leaves, paths, kinds)
        else:
            value = spec[1]
            if obj is not value and (_is_array(obj) or not _equal(obj, value)):
                raise _Mismatch(path, _describe_value(obj, backend), _describe_spec(spec))

    def result_spec(self, has_array: bool) -> Any:
        """The spec to rebuild results with: each leaf an Array where any value had one
        (or, for Python/NumPy leaves, where the call had Arrays), else native."""
        plain = A if has_array else N
        return _respec(self.spec, iter([k if k is A else plain for k in self.kinds]))


def _equal(a: Any, b: Any) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:  # noqa: BLE001 - an object without a usable == is simply not equal
        return False


def _respec(spec: Any, kinds: Any) -> Any:
    """``spec`` with its leaf entries replaced, in order, by ``kinds``."""
    if spec is N or spec is A or spec is P:
        return next(kinds)
    if spec[0] == "d":
        return ("d", spec[1], spec[2], tuple(_respec(c, kinds) for c in spec[3]))
    if spec[0] == "l":
        return ("l", spec[1], tuple(_respec(c, kinds) for c in spec[2]))
    return spec


def _first_output(obj: Any, backend: Backend, root: str, who: str) -> tuple[Any, list[Any]]:
    """The spec and native leaves of a function's output (Python numbers and NumPy arrays
    become arrays of ``backend``; None, strings and other objects are static)."""
    flat = Flat(who)
    flat.backend = backend  # an array of another framework is an error, not a second backend
    spec = _tree.flatten(obj, flat, root, False)
    leaves = flat.leaves
    for j in flat.neutral:
        leaves[j] = backend.asarray(leaves[j])
    return spec, leaves


class _Recorder:
    """The outputs of a function run several times (the two branches of ``cond``, the ``y``
    of every ``scan`` step): the first run sets the structure, later runs must match it."""

    __slots__ = ("shape", "backend", "who", "rule", "root")

    def __init__(self, backend: Backend, who: str, rule: str, root: str) -> None:
        self.shape: _Shape | None = None
        self.backend, self.who, self.rule, self.root = backend, who, rule, root

    def leaves(self, obj: Any, name: str, as_reference: str) -> list[Any]:
        """The native leaves of ``obj``, returned by ``name`` (``as_reference``: how to name
        this run in errors of later runs, if it is the first)."""
        if self.shape is None:
            spec, leaves = _first_output(obj, self.backend, self.root, self.who)
            self.shape = _Shape(
                spec, leaves, self.backend, self.who, self.rule, as_reference, self.root
            )
            return leaves
        return self.shape.leaves(obj, name)


# -- inputs ------------------------------------------------------------------------------------
def _flatten(flat: Flat, *named: tuple[str, Any]) -> tuple[list[Any], Backend]:
    """Flatten each ``(owner, value)`` into ``flat`` (after the scalar arguments already in
    it): one list of leaves of one backend."""
    specs = [_tree.flatten(value, flat, owner, False) for owner, value in named]
    backend = _tree.resolve_backend(flat)
    if flat.has_array and flat.neutral:
        # NumPy data and Python numbers beside Arrays come back as Arrays (as in grad).
        specs = [_tree.promote(spec) for spec in specs]
    return specs, backend


def _scalar(
    value: Any, flat: Flat, who: str, name: str, kinds: str
) -> tuple[Any, Any]:  # (Python value, None) or (None, native array added to flat)
    """A scalar argument (``pred``, ``lower``, ``upper``): a Python or NumPy scalar is a
    constant (its Python value); an array joins ``flat`` (its backend counts)."""
    kind = _kind(value)
    if kind.__class__ is Backend or kind is ARRAY_KIND:
        _tree.flatten(value, flat, name, False)
        return None, flat.leaves[-1]
    code = _PYTHON_KINDS.get(type(value))
    if code is not None:  # (no NumPy here: torch.compile traces this with Python numbers)
        if code not in kinds:
            raise TypeError(f"{who}: {name} must be {_KINDS[kinds]}, got {type(value).__name__}")
        return value, None
    if kind is NEUTRAL and value is not None:
        arr = np.asarray(value)
        if arr.ndim != 0:
            raise TypeError(f"{who}: {name} must be a scalar (shape ()), got shape {arr.shape}")
        if arr.dtype.kind not in kinds:
            raise TypeError(f"{who}: {name} must be {_KINDS[kinds]}, got {arr.dtype.name}")
        return arr.item(), None
    raise TypeError(
        f"{who}: {name} must be {_KINDS[kinds]} (a Python scalar or an array of shape ()), "
        f"got {type(value).__name__}"
    )


_KINDS = {"biuf": "a boolean or a number", "iu": "an integer", "b": "a boolean"}
_PYTHON_KINDS = {bool: "b", int: "i", float: "f", complex: "c"}


def _check_scalar(backend: Backend, leaf: Any, who: str, name: str, kinds: str) -> Any:
    shape = tuple(backend.shape(leaf))
    if shape != ():
        raise TypeError(f"{who}: {name} must be a scalar (shape ()), got shape {shape}")
    dtype = backend.unified_dtype(backend.dtype(leaf))
    if dtype.kind not in kinds:
        raise TypeError(f"{who}: {name} must be {_KINDS[kinds]}, got {dtype.name}")
    return dtype


def _run(backend: Backend, name: str, *args: Any) -> Any:
    """Run the backend's primitive ``name`` with ``backend`` active: creation ops in the
    user's functions make arrays of the framework the loop runs on (as grad and the
    transforms do)."""
    primitive = backend.__dict__.get(name)
    if primitive is None:  # a plugin backend without a control_flow.py
        raise NotImplementedError(
            f"{name.removesuffix('_leaves')}: the {backend.name} backend defines no {name} "
            f"(its control_flow.py; see ivy_like/backends/__init__.py)"
        )
    return activated(primitive, backend)(*args)


# -- cond --------------------------------------------------------------------------------------
def cond(pred: Any, true_fun: Callable[..., Y], false_fun: Callable[..., Y], *operands: Any) -> Y:
    """``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)``, as ``jax.lax.cond``.

    ``pred`` is a scalar: a boolean, or a number compared with zero. Both branches must return
    the same structure with the same shapes and dtypes (``TypeError`` naming the branch
    otherwise); both are traced by ``jax`` and in a TensorFlow graph, and both run on the
    eager backends (the one not taken quietly, for that check), so the choice can depend on
    a traced value under ``ivy_like.compile`` (``lax.cond``, ``tf.cond``; a select on torch
    and mlx).

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([1., 2.])
    >>> ivy_like.cond(ivy_like.sum(x) > 2, lambda v: v * 10, lambda v: v - 1, x)
    ivy_like.array([10., 20.])
    """
    _callable(true_fun, "cond", "true_fun")
    _callable(false_fun, "cond", "false_fun")
    flat = Flat("cond")
    static, native_pred = _scalar(pred, flat, "cond", "pred", "biuf")
    n_pred = len(flat.leaves)
    (spec,), backend = _flatten(flat, ("operands", operands))
    if native_pred is None:
        chosen: Any = bool(static)
    else:
        chosen = flat.leaves[0]
        if _check_scalar(backend, chosen, "cond", "pred", "biuf").kind != "b":
            chosen = backend.not_equal(chosen, backend.zeros_like(chosen))  # as JAX: pred != 0
    leaves = flat.leaves[n_pred:]
    outputs = _Recorder(
        backend,
        "cond",
        "true_fun and false_fun must return the same structure, shapes and dtypes",
        "output",
    )

    def branch(fun: Callable[..., Any], name: str) -> Callable[[list[Any]], list[Any]]:
        def run(native: list[Any]) -> list[Any]:
            args = _tree.rebuild(spec, iter(native), backend)
            return outputs.leaves(fun(*args), name, f"{name} returned")

        return run

    out = _run(
        backend,
        "cond_leaves",
        chosen,
        branch(true_fun, "true_fun"),
        branch(false_fun, "false_fun"),
        leaves,
    )
    shape = outputs.shape
    assert shape is not None  # both branches ran or were traced
    return _tree.rebuild(shape.result_spec(flat.has_array), iter(out), backend)  # type: ignore[no-any-return]


# -- loops -------------------------------------------------------------------------------------
def _loop_pred(value: Any, backend: Backend) -> Any:
    """The condition of a ``while_loop``: a Python bool or a native boolean scalar."""
    if type(value) is bool or type(value) is np.bool_:
        return bool(value)
    kind = _kind(value)
    native = value._data if kind is ARRAY_KIND else value
    if (kind is ARRAY_KIND and value._backend is backend) or kind is backend:
        shape = tuple(backend.shape(native))
        dtype = backend.unified_dtype(backend.dtype(native))
        if shape == () and dtype.kind == "b":
            return native
        got = _aval_str(backend, (shape, backend.dtype(native)))
    else:
        got = _describe_value(value, backend)
    raise TypeError(f"while_loop: cond_fun must return a boolean scalar, got {got}")


def while_loop(cond_fun: Callable[[C], Any], body_fun: Callable[[C], C], init_val: C) -> C:
    """``val = body_fun(val)`` while ``cond_fun(val)``, from ``init_val``, as
    ``jax.lax.while_loop``.

    ``cond_fun`` returns a boolean scalar; ``body_fun`` returns a value with the structure,
    shapes and dtypes of ``init_val`` (``TypeError`` otherwise). The result has
    ``init_val``'s types. Compiles to ``lax.while_loop`` and ``tf.while_loop``; a Python loop
    on the other backends (whose compilers cannot loop on a traced condition). As in JAX, it
    is not differentiable in reverse mode on jax; use ``fori_loop`` or ``scan``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.while_loop(lambda v: v < 100, lambda v: v * 3, ivy_like.asarray(1))
    ivy_like.array(243)
    """
    _callable(cond_fun, "while_loop", "cond_fun")
    _callable(body_fun, "while_loop", "body_fun")
    flat = Flat("while_loop")
    (spec,), backend = _flatten(flat, ("init_val", init_val))
    carry = _Shape(
        spec,
        flat.leaves,
        backend,
        "while_loop",
        "body_fun must return a value with the structure, shapes and dtypes of init_val",
        "init_val has",
        "init_val",
    )

    def cond_f(native: list[Any]) -> Any:
        return _loop_pred(cond_fun(_tree.rebuild(spec, iter(native), backend)), backend)

    def body_f(native: list[Any]) -> list[Any]:
        out = body_fun(_tree.rebuild(spec, iter(native), backend))
        return carry.leaves(out, "body_fun")

    out = _run(backend, "while_loop_leaves", cond_f, body_f, flat.leaves)
    return _tree.rebuild(spec, iter(out), backend)  # type: ignore[no-any-return]


def fori_loop(lower: Any, upper: Any, body_fun: Callable[[Any, C], C], init_val: C) -> C:
    """``val = body_fun(i, val)`` for ``i`` from ``lower`` to ``upper - 1``, as
    ``jax.lax.fori_loop``.

    ``lower`` and ``upper`` are integers (Python or 0-d arrays of one dtype); ``i`` is a 0-d
    integer array of that dtype (the backend's default integer for Python bounds), an
    ``Array`` when the call has Arrays. ``body_fun`` keeps ``init_val``'s structure, shapes
    and dtypes (``TypeError`` otherwise). With Python bounds it is differentiable everywhere
    (on jax it is a ``lax.scan``, as in JAX); ``lax.fori_loop`` and ``tf.while_loop`` compile
    it with traced bounds too.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.fori_loop(0, 4, lambda i, v: v + i, ivy_like.asarray(10))
    ivy_like.array(16)
    """
    _callable(body_fun, "fori_loop", "body_fun")
    flat = Flat("fori_loop")
    lo, lo_native = _scalar(lower, flat, "fori_loop", "lower", "iu")
    hi, hi_native = _scalar(upper, flat, "fori_loop", "upper", "iu")
    n_bounds = len(flat.leaves)
    (spec,), backend = _flatten(flat, ("init_val", init_val))
    index_dtype: Any = None  # the backend's default integer
    if lo_native is not None or hi_native is not None:
        dtypes = []
        for x, name in ((lo_native, "lower"), (hi_native, "upper")):
            if x is not None:
                _check_scalar(backend, x, "fori_loop", name, "iu")
                dtypes.append(backend.dtype(x))
        if len(dtypes) == 2 and dtypes[0] != dtypes[1]:
            raise TypeError(
                f"fori_loop: lower and upper must have the same dtype, got "
                f"{_dtype_name(backend, dtypes[0])} and {_dtype_name(backend, dtypes[1])}"
            )
        index_dtype = dtypes[0]
        # A Python bound beside an array bound takes its dtype (as a weak type in JAX).
        lo = lo_native if lo_native is not None else backend.asarray(lo, dtype=index_dtype)
        hi = hi_native if hi_native is not None else backend.asarray(hi, dtype=index_dtype)
    leaves = flat.leaves[n_bounds:]
    has_array = flat.has_array
    carry = _Shape(
        spec,
        leaves,
        backend,
        "fori_loop",
        "body_fun must return a value with the structure, shapes and dtypes of init_val",
        "init_val has",
        "init_val",
    )

    def body_f(i: Any, native: list[Any]) -> list[Any]:
        if type(i) is int:  # a Python loop's counter
            i = backend.asarray(i, dtype=index_dtype)
        index = _wrap(i, backend) if has_array else i
        out = body_fun(index, _tree.rebuild(spec, iter(native), backend))
        return carry.leaves(out, "body_fun")

    out = _run(backend, "fori_loop_leaves", lo, hi, body_f, leaves)
    return _tree.rebuild(spec, iter(out), backend)  # type: ignore[no-any-return]


def scan(
    f: Callable[[C, Any], tuple[C, Y]],
    init: C,
    xs: Any = None,
    length: int | None = None,
    reverse: bool = False,
) -> tuple[C, Y]:
    """``(carry, ys)``: ``carry, y = f(carry, x)`` for each ``x`` along the leading axis of
    ``xs`` (every array in it), the ``y`` stacked along a new leading axis, as
    ``jax.lax.scan``.

    ``xs`` may be None with ``length`` given (then ``x`` is None). The carry keeps ``init``'s
    structure, shapes and dtypes and each ``y`` has one structure (``TypeError`` otherwise);
    leading sizes that differ from each other or from ``length`` are a ``ValueError`` naming
    the array of ``xs``. ``reverse=True`` scans from the end (``ys`` keep ``xs``' order).
    Compiles to ``lax.scan`` and a ``tf.while_loop``; a Python loop elsewhere (unrolled by
    ``torch.compile`` and ``mx.compile``). Differentiable on every backend with autodiff.

    Examples
    --------
    >>> import ivy_like
    >>> carry, ys = ivy_like.scan(lambda c, x: (c + x, c * x), 0.0, ivy_like.array([1., 2., 3.]))
    >>> carry, ys
    (ivy_like.array(6.), ivy_like.array([0., 2., 9.]))
    """
    _callable(f, "scan", "f")
    length = optional_count("scan", "length", length)
    flat = Flat("scan")
    init_spec = _tree.flatten(init, flat, "init", False)
    n_carry = len(flat.leaves)
    xs_spec = _tree.flatten(xs, flat, "xs", False)
    backend = _tree.resolve_backend(flat)
    if flat.has_array and flat.neutral:
        init_spec, xs_spec = _tree.promote(init_spec), _tree.promote(xs_spec)
    init_leaves, xs_leaves = flat.leaves[:n_carry], flat.leaves[n_carry:]
    length = _scan_length(backend, xs_leaves, flat.paths[n_carry:], length)
    carry = _Shape(
        init_spec,
        init_leaves,
        backend,
        "scan",
        "f must return a carry with the structure, shapes and dtypes of init",
        "init has",
        "init",
    )
    ys = _Recorder(backend, "scan", "f must return y with one structure, shapes and dtypes", "y")

    def step(carry_native: list[Any], x_native: list[Any]) -> tuple[list[Any], list[Any]]:
        out = f(
            _tree.rebuild(init_spec, iter(carry_native), backend),
            _tree.rebuild(xs_spec, iter(x_native), backend),
        )
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError(
                f"scan: f must return a pair (carry, y), got {_describe_value(out, backend)}"
            )
        return carry.leaves(out[0], "f"), ys.leaves(out[1], "f", "its first step returned")

    carry_out, ys_out = _run(
        backend, "scan_leaves", step, init_leaves, xs_leaves, length, bool(reverse)
    )
    shape = ys.shape
    assert shape is not None  # f ran or was traced at least once
    return (
        _tree.rebuild(init_spec, iter(carry_out), backend),
        _tree.rebuild(shape.result_spec(flat.has_array), iter(ys_out), backend),
    )


def _scan_length(backend: Backend, xs: list[Any], paths: list[Any], length: int | None) -> Any:
    """The number of steps, from ``length`` and the leading sizes of ``xs`` (None when they
    are unknown until the graph runs, in a TensorFlow graph)."""
    known: list[tuple[int, Any]] = []
    for leaf, path in zip(xs, paths):
        shape = tuple(backend.shape(leaf))
        if not shape:
            raise ValueError(
                f"scan: {_tree.describe(path)} has no leading axis to scan over (shape ())"
            )
        if shape[0] is not None:
            known.append((shape[0], path))
    if length is not None:
        for size, path in known:
            if size != length:
                raise ValueError(
                    f"scan: length={length} disagrees with the leading size {size} of "
                    f"{_tree.describe(path)}"
                )
        return length
    if not xs:
        raise ValueError("scan: xs holds no array to scan over and length is not given")
    for size, path in known[1:]:
        if size != known[0][0]:
            raise ValueError(
                f"scan: the arrays of xs must have one leading size; "
                f"{_tree.describe(known[0][1])} has {known[0][0]} and "
                f"{_tree.describe(path)} has {size}"
            )
    return known[0][0] if len(known) == len(xs) else None

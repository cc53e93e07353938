"""``compile`` and ``checkpoint``, as ``mx.compile`` and ``mx.checkpoint``.

Arrays, Arrays and Containers (and dicts/lists/tuples of them) are the compiled function's
inputs; every other argument (Python numbers, strings, None) is a constant of the compiled
function, as in MLX: a new value compiles again, the same value reuses the compilation. One
compiled function is kept per structure of the arguments (the spec of ``tree.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..core.backend import Backend, activated
from ..core.dtypes import Dtype
from . import tree as _tree
from .grad import GRADIENT_REDUCER, REDUCERS_LIVE
from .tree import Flat, check_fun

__all__ = ["checkpoint", "compile"]


def _hashable(spec: Any, who: str) -> None:
    try:
        hash(spec)
    except TypeError:
        raise TypeError(
            f"{who}: an argument that is not an array must be hashable to be a constant of "
            f"the compiled function (got an unhashable value in {spec!r:.120})"
        ) from None


class _Outputs:
    """The output specs of one compiled function's traces.

    A compiler traces again for new shapes or dtypes (tf.function, mx.compile, make_fx) while
    the compiled function keeps its entry: the output's structure and Python values may then
    differ between traces (``(x * 2, x.shape[0])``). Every trace records its spec under the
    signature of the leaves it was traced for; a call reads the spec of its own signature
    only once two traces have given different specs (until then one spec serves, at no
    per-call cost)."""

    __slots__ = ("last", "by_signature", "varying")

    def __init__(self) -> None:
        self.last: Any = None
        self.by_signature: dict[tuple[Any, ...], Any] = {}
        self.varying = False

    def traced(self, leaves: tuple[Any, ...], spec: Any) -> None:
        if self.by_signature and not _identical(spec, self.last):
            self.varying = True
        self.by_signature[_signature(leaves)] = spec
        self.last = spec

    def spec_for(self, leaves: list[Any]) -> Any:
        if not self.varying:
            return self.last
        return self.by_signature.get(_signature(leaves), self.last)


def _identical(a: Any, b: Any) -> bool:
    """Equal specs with statics of the same types (3 == 3.0 == True, yet the output's type
    differs); a static whose comparison is not a bool (an array) counts as different."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if type(a) is tuple:
        return len(a) == len(b) and all(_identical(x, y) for x, y in zip(a, b))
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - an array's ambiguous truth value, a failing __eq__
        return False


def _signature(leaves: Any) -> tuple[Any, ...]:
    """Shapes and dtypes, as the compilers retrace on them (read from traced values too)."""
    return tuple((tuple(getattr(x, "shape", ())), str(getattr(x, "dtype", ""))) for x in leaves)


def _flat_function(
    fun: Callable[..., Any], specs: tuple[Any, Any], backend: Backend, out: _Outputs
) -> Callable[..., list[Any]]:
    """``fun`` as a function of the native leaves; each trace's output spec goes to ``out``."""
    pos, kw = specs
    # A backend's check of the Python values a traced function returns (TensorFlow: a
    # tf.distribute per-replica result holds the graph's tensors, unusable after the trace).
    refuse = backend.__dict__.get("refuse_static_output")

    def flat_fun(*leaves: Any) -> list[Any]:
        it = iter(leaves)
        args = [_tree.rebuild(s, it, backend) for s in pos]
        kwargs = {k: _tree.rebuild(s, it, backend) for k, s in kw}
        result = fun(*args, **kwargs)
        native: list[Any] = []
        spec = _tree.flatten_output(result, native, backend)
        if refuse is not None:
            _check_statics(spec, refuse)
        out.traced(leaves, spec)
        return native

    return flat_fun


def _check_statics(spec: Any, refuse: Callable[[Any], None]) -> None:
    if spec is _tree.N or spec is _tree.A or spec is _tree.P:
        return
    if spec[0] == "s":
        refuse(spec[1])
    elif spec[0] == "d":
        for child in spec[3]:
            _check_statics(child, refuse)
    elif spec[0] == "l":
        for child in spec[2]:
            _check_statics(child, refuse)


def _flatten_call(args: tuple, kwargs: dict, who: str) -> tuple[Flat, tuple[Any, Any], Backend]:
    flat = Flat(who)
    pos = tuple(_tree.flatten(a, flat, f"argument {i}", True) for i, a in enumerate(args))
    kw = tuple((k, _tree.flatten(v, flat, f"argument {k!r}", True)) for k, v in kwargs.items())
    backend = _tree.resolve_backend(flat, args, kwargs)
    return flat, (pos, kw), backend


# The types of the arguments that are constants of a compiled function; a dtype is one, and
# a tuple or list of constants (a shape, axes) is one, as on the generic path.
_STATIC = frozenset({int, float, bool, complex, str, type(None), Dtype})
_SEQUENCES = (tuple, list)


def _constant(a: Any) -> bool:
    t = type(a)
    return t in _STATIC or (t in _SEQUENCES and all(_constant(v) for v in a))


def _static_positions(args: tuple, kwargs: dict) -> tuple[tuple[int, ...], tuple[str, ...]]:
    return (
        tuple(i for i, a in enumerate(args) if _constant(a)),
        tuple(k for k, v in kwargs.items() if _constant(v)),
    )


def _has_list(args: tuple, kwargs: dict, static: tuple[tuple[int, ...], tuple[str, ...]]) -> bool:
    """Whether a constant argument is a list: unhashable, it cannot be a static argument of
    jax.jit, so the call takes the generic path (whose spec of a list is hashable)."""
    positions, names = static
    return any(type(args[i]) is list for i in positions) or any(
        type(kwargs[k]) is list for k in names
    )


def _activated(fun: Callable[..., Any], backend: Backend) -> Callable[..., Any]:
    """``fun`` run with ``backend`` active (creation ops inside it make its arrays); a
    compiler runs this when it traces, not on every call."""
    return functools.update_wrapper(activated(fun, backend), fun)


def compile(fun: Callable[..., Any]) -> Callable[..., Any]:  # noqa: A001 - MLX's name
    """``fun`` compiled by its backend: ``jax.jit``, ``torch.compile``, ``tf.function``,
    ``mx.compile``; on NumPy, ``fun`` itself.

    Examples
    --------
    >>> import ivy_like
    >>> f = ivy_like.compile(lambda x, y: ivy_like.sum(x * y))
    >>> f(ivy_like.array([1., 2.]), ivy_like.array([3., 4.]))
    ivy_like.array(11.)
    """
    check_fun(fun, "compile")
    if getattr(fun, "_ivy_like_compiled", False):
        # already compiled by its engine as a whole (a distributed step on JAX or TensorFlow:
        # tf.function around strategy.run would compile it a second time, and break it)
        return fun
    return _compiled(fun, reduced=False)


def _compiled(fun: Callable[..., Any], reduced: bool) -> Callable[..., Any]:
    """:func:`compile`'s function. ``reduced``: this is the compilation made for calls inside a
    data-parallel step, whose gradients are reduced (see ``grad.GRADIENT_REDUCER``): a trace
    made outside one has no mean in it, so a call inside one uses its own compilation, one
    per step function (a silent missing mean otherwise)."""
    variants: dict[Any, Callable[..., Any]] = {}  # reducer -> the compilation for its calls
    # (backend, spec) -> (compiled flat function, its traces' output specs)
    cache: dict[tuple[Any, Any], tuple[Callable[..., list[Any]], _Outputs]] = {}
    # (backend, static positions, static names) -> the backend's own tree-aware compilation
    trees: dict[tuple[Any, ...], Callable[..., Any]] = {}
    # (backend, argument types[, keyword names and types]) -> its entry of trees: the common
    # call costs one tuple of types and one lookup (~0.3 µs) before jax.jit's own dispatch.
    by_types: dict[tuple[Any, ...], Callable[..., Any]] = {}
    # The argument types and tree function of the last call whose types alone decide the
    # backend (one tuple: threads swap it whole). Python before jax's dispatch costs more
    # latency than its own time (measured: ~0.5 µs of argument search, +4-8 µs a call).
    last: list[tuple[Any, Any]] = [(None, None)]

    def tree_function(
        backend: Backend, static: tuple[int, ...], names: tuple[str, ...]
    ) -> Callable[..., Any]:
        # Top-level constants (numbers, strings, None, dtypes, shapes) are the compiler's
        # static arguments.
        tree_key = (backend, static, names)
        tree_fn = trees.get(tree_key)
        if tree_fn is None:
            tree_fn = trees[tree_key] = backend.compile_tree(
                _activated(fun, backend), static, names
            )
        return tree_fn

    @functools.wraps(fun)
    def compiled(*args: Any, **kwargs: Any) -> Any:
        if REDUCERS_LIVE[0] and not reduced:  # (a list read: nothing for Dynamo to trace)
            reducer = GRADIENT_REDUCER.get()
            if reducer is not None:
                variant = variants.get(reducer)
                if variant is None:
                    variant = variants[reducer] = _compiled(fun, reduced=True)
                return variant(*args, **kwargs)
        types: tuple[Any, ...] = tuple(map(type, args))
        if kwargs:
            types += (*kwargs, *map(type, kwargs.values()))
        seen, tree_fn = last[0]
        if types == seen:  # items compared by identity first: no hashing
            return tree_fn(*args, **kwargs)
        backend = _tree.first_backend(args, kwargs)
        sequences = any(t in _SEQUENCES for t in types)
        static = _static_positions(args, kwargs) if sequences else None
        if (
            backend is not None
            and "compile_tree" in backend.__dict__
            and (static is None or not _has_list(args, kwargs, static))
        ):
            # A framework whose compiler takes Arrays and Containers as they are (jax.jit:
            # both are pytree nodes) flattens them itself, in C++: no Python walk per call.
            key: tuple[Any, ...] = (backend, *types)
            if static is not None:
                # A tuple is a constant (a shape) or holds arrays: its type does not say which.
                key += static
            tree_fn = by_types.get(key)
            if tree_fn is None:
                tree_fn = by_types[key] = tree_function(
                    backend, *(static or _static_positions(args, kwargs))
                )
            if static is None and _tree.backend_of_types(types) is backend:
                # The argument types alone name this backend (a top-level native array
                # comes first): the next call of the same types skips the search.
                last[0] = (types, tree_fn)
            return tree_fn(*args, **kwargs)
        flat, specs, backend = _flatten_call(args, kwargs, "compile")
        key = (backend, specs)
        hit = cache.get(key)
        if hit is None:
            _hashable(specs, "compile")
            outputs = _Outputs()
            # Activated inside: a compiler runs the function when it traces, not every call.
            flat_fun = _activated(_flat_function(fun, specs, backend, outputs), backend)
            native = backend.compile_leaves(flat_fun)
            hit = cache[key] = (native, outputs)
        native, outputs = hit
        results = native(*flat.leaves)  # first: a call that traces records its spec
        return _tree.rebuild(outputs.spec_for(flat.leaves), iter(results), backend)

    return compiled


def checkpoint(fun: Callable[..., Any]) -> Callable[..., Any]:
    """``fun`` recomputed in the backward pass instead of keeping its intermediate values
    (``jax.checkpoint``, torch's activation checkpointing, ``tf.recompute_grad``,
    ``mx.checkpoint``); the values and gradients are those of ``fun``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.checkpoint(lambda x: x * 2)(ivy_like.array([1., 2.]))
    ivy_like.array([2., 4.])
    """
    check_fun(fun, "checkpoint")

    @functools.wraps(fun)
    def checkpointed(*args: Any, **kwargs: Any) -> Any:
        flat, specs, backend = _flatten_call(args, kwargs, "checkpoint")
        out = _Outputs()
        native = backend.checkpoint_leaves(_flat_function(fun, specs, backend, out))
        results = activated(native, backend)(*flat.leaves)
        return _tree.rebuild(out.last, iter(results), backend)

    return checkpointed

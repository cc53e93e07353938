"""``compile`` and ``checkpoint``, as ``mx.compile`` and ``mx.checkpoint``.

Arrays, Arrays and Containers (and dicts/lists/tuples of them) are the compiled function's
inputs; every other argument (Python numbers, strings, None) is a constant of the compiled
function, as in MLX: a new value compiles again, the same value reuses the compilation. One
compiled function is kept per structure of the arguments (the spec of ``_tree``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .. import _tree
from .._gradients import _activate, _check_fun, _deactivate
from .._tree import Flat
from ..core.backend import Backend

__all__ = ["checkpoint", "compile"]


def _hashable(spec: Any, who: str) -> None:
    try:
        hash(spec)
    except TypeError:
        raise TypeError(
            f"{who}: an argument that is not an array must be hashable to be a constant of "
            f"the compiled function (got an unhashable value in {spec!r:.120})"
        ) from None


def _flat_function(
    fun: Callable[..., Any], specs: tuple[Any, Any], backend: Backend, out: list[Any]
) -> Callable[..., list[Any]]:
    """``fun`` as a function of the native leaves; the output's spec goes to ``out``."""
    pos, kw = specs

    def flat_fun(*leaves: Any) -> list[Any]:
        it = iter(leaves)
        args = [_tree.rebuild(s, it, backend) for s in pos]
        kwargs = {k: _tree.rebuild(s, it, backend) for k, s in kw}
        result = fun(*args, **kwargs)
        native: list[Any] = []
        out[:] = [_tree.flatten_output(result, native, backend)]
        return native

    return flat_fun


def _flatten_call(args: tuple, kwargs: dict, who: str) -> tuple[Flat, tuple[Any, Any], Backend]:
    flat = Flat(who)
    pos = tuple(_tree.flatten(a, flat, f"argument {i}", True) for i, a in enumerate(args))
    kw = tuple((k, _tree.flatten(v, flat, f"argument {k!r}", True)) for k, v in kwargs.items())
    backend = _tree.resolve_backend(flat, args, kwargs)
    return flat, (pos, kw), backend


_STATIC = frozenset({int, float, bool, complex, str, type(None)})


def _activated(fun: Callable[..., Any], backend: Backend) -> Callable[..., Any]:
    """``fun`` run with ``backend`` active (creation ops inside it make its arrays); a
    compiler runs this when it traces, not on every call."""

    @functools.wraps(fun)
    def run(*args: Any, **kwargs: Any) -> Any:
        tokens = _activate(backend)
        try:
            return fun(*args, **kwargs)
        finally:
            if tokens is not None:
                _deactivate(tokens)

    return run


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
    _check_fun(fun, "compile")
    # (backend, spec) -> (compiled flat function, the output spec box)
    cache: dict[tuple[Any, Any], tuple[Callable[..., list[Any]], list[Any]]] = {}
    # (backend, static positions, static names) -> the backend's own tree-aware compilation
    trees: dict[tuple[Any, ...], Callable[..., Any]] = {}
    # (backend, argument types[, keyword names and types]) -> its entry of trees: the common
    # call costs one tuple of types and one lookup (~0.3 µs) before jax.jit's own dispatch.
    by_types: dict[tuple[Any, ...], Callable[..., Any]] = {}

    def tree_function(backend: Backend, args: tuple, kwargs: dict) -> Callable[..., Any]:
        # Top-level Python numbers, strings and None are the compiler's static arguments.
        static = tuple(i for i, a in enumerate(args) if type(a) in _STATIC)
        names = tuple(k for k, v in kwargs.items() if type(v) in _STATIC)
        tree_key = (backend, static, names)
        tree_fn = trees.get(tree_key)
        if tree_fn is None:
            tree_fn = trees[tree_key] = backend.compile_tree(
                _activated(fun, backend), static, names
            )
        return tree_fn

    @functools.wraps(fun)
    def compiled(*args: Any, **kwargs: Any) -> Any:
        backend = _tree.first_backend(args, kwargs)
        if backend is not None and "compile_tree" in backend.__dict__:
            # A framework whose compiler takes Arrays and Containers as they are (jax.jit:
            # both are pytree nodes) flattens them itself, in C++: no Python walk per call.
            key: tuple[Any, ...] = (backend, *map(type, args))
            if kwargs:
                key += (*kwargs, *map(type, kwargs.values()))
            tree_fn = by_types.get(key)
            if tree_fn is None:
                tree_fn = by_types[key] = tree_function(backend, args, kwargs)
            return tree_fn(*args, **kwargs)
        flat, specs, backend = _flatten_call(args, kwargs, "compile")
        key = (backend, specs)
        hit = cache.get(key)
        if hit is None:
            _hashable(specs, "compile")
            out: list[Any] = []
            # Activated inside: a compiler runs the function when it traces, not every call.
            flat_fun = _activated(_flat_function(fun, specs, backend, out), backend)
            native = backend.compile_leaves(flat_fun)
            hit = cache[key] = (native, out)
        native, out = hit
        results = native(*flat.leaves)  # first: the first call fills out
        return _tree.rebuild(out[0], iter(results), backend)

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
    _check_fun(fun, "checkpoint")

    @functools.wraps(fun)
    def checkpointed(*args: Any, **kwargs: Any) -> Any:
        flat, specs, backend = _flatten_call(args, kwargs, "checkpoint")
        out: list[Any] = []
        native = backend.checkpoint_leaves(_flat_function(fun, specs, backend, out))
        tokens = _activate(backend)
        try:
            results = native(*flat.leaves)
        finally:
            if tokens is not None:
                _deactivate(tokens)
        return _tree.rebuild(out[0], iter(results), backend)

    return checkpointed

"""``custom_function``: custom vjp, jvp and vmap rules, as ``mx.custom_function``.

The rules have MLX's signatures and see the arguments as they were given (Arrays,
Containers...):

* ``vjp(primals, cotangents, outputs)``: ``primals`` is the tuple of arguments,
  ``cotangents`` and ``outputs`` have the structure of the function's result; returns one
  cotangent per argument (a tuple, or the cotangent alone for one argument; ``None`` for an
  argument means zeros, e.g. for an integer argument);
* ``jvp(primals, tangents)``: returns the tangent of the result;
* ``vmap(inputs, axes)``: ``axes`` has the structure of ``inputs`` (an int or None per
  array); returns ``(outputs, out_axes)``.

The backend's ``custom_function_leaves(f, vjp, jvp, vmap)`` registers them with its framework
(``mx.custom_function``, ``jax.custom_vjp``/``custom_jvp``/``custom_vmap``,
``torch.autograd.Function``, ``tf.custom_gradient``) on flat lists of native leaves, so
``grad``, ``vjp``, ``jvp``, ``vmap`` and ``compile`` all use them.

Each rule is used for its own mode, as in MLX: reverse mode (``grad``, ``vjp``) uses the vjp
rule, forward mode (``jvp``) the jvp rule, and a missing rule falls back to differentiating the
function. One exception, JAX's own limit: a JAX function takes one custom derivative rule and
cannot have a custom vjp and forward mode at once, so on jax a function with a jvp rule (alone
or beside a vjp rule) uses it in both modes (reverse mode transposes it). Rules that are each
other's transpose, as derivative rules should be, give the same numbers everywhere.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..core.backend import Backend
from . import tree as _tree
from ._compile import _flatten_call, _hashable
from ._vmap import _leaf_axes
from .tree import check_fun

__all__ = ["custom_function"]


def _as_tuple(value: Any, n: int, who: str) -> tuple[Any, ...]:
    if n == 1 and not (isinstance(value, tuple) and len(value) == 1):
        return (value,)
    if not isinstance(value, (tuple, list)) or len(value) != n:
        raise ValueError(
            f"custom_function: the {who} rule must return {n} values, one per argument"
        )
    return tuple(value)


class custom_function:  # noqa: N801 - MLX's name
    """Decorate a function to give it custom vjp, jvp and vmap rules (``mx.custom_function``).

    Examples
    --------
    >>> import ivy_like
    >>> @ivy_like.custom_function
    ... def f(x):
    ...     return x * 2
    >>> @f.vjp
    ... def f_vjp(primals, cotangent, output):
    ...     return cotangent * 0.1
    >>> f(ivy_like.array([1., 2.]))
    ivy_like.array([2., 4.])
    """

    def __init__(self, fun: Callable[..., Any]) -> None:
        check_fun(fun, "custom_function")
        functools.update_wrapper(self, fun)
        self.fun = fun
        self._vjp: Callable[..., Any] | None = None
        self._jvp: Callable[..., Any] | None = None
        self._vmap: Callable[..., Any] | None = None
        self._cache: dict[Any, tuple[Callable[..., Any], list[Any]]] = {}

    def _rule(self, name: str, rule: Any) -> Any:
        check_fun(rule, f"custom_function.{name}")
        setattr(self, f"_{name}", rule)
        self._cache.clear()
        return rule

    def vjp(self, rule: Callable[..., Any]) -> Callable[..., Any]:
        """Register ``rule(primals, cotangents, outputs) -> cotangents of the arguments``."""
        return self._rule("vjp", rule)

    def jvp(self, rule: Callable[..., Any]) -> Callable[..., Any]:
        """Register ``rule(primals, tangents) -> tangent of the result``."""
        return self._rule("jvp", rule)

    def vmap(self, rule: Callable[..., Any]) -> Callable[..., Any]:
        """Register ``rule(inputs, axes) -> (outputs, out_axes)``."""
        return self._rule("vmap", rule)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            raise TypeError("custom_function: keyword arguments are not supported (MLX's rule)")
        flat, specs, backend = _flatten_call(args, {}, "custom_function")
        key = (backend, specs)
        hit = self._cache.get(key)
        if hit is None:
            _hashable(specs, "custom_function")
            hit = self._cache[key] = self._build(specs[0], backend)
        native, out = hit
        results = native(*flat.leaves)  # records the result's structure in out on first use
        return _tree.rebuild(out[0], iter(results), backend)

    def _build(
        self, specs: tuple[Any, ...], backend: Backend
    ) -> tuple[Callable[..., Any], list[Any]]:
        out: list[Any] = []  # the result's spec, recorded when the function runs
        fun, n_args = self.fun, len(specs)

        def args_of(leaves: list[Any]) -> list[Any]:
            it = iter(leaves)
            return [_tree.rebuild(s, it, backend) for s in specs]

        def flat_fun(*leaves: Any) -> list[Any]:
            native: list[Any] = []
            out[:] = [_tree.flatten_output(fun(*args_of(list(leaves))), native, backend)]
            return native

        def result_of(leaves: list[Any]) -> Any:
            return _tree.rebuild(out[0], iter(leaves), backend)

        def leaves_like(values: tuple[Any, ...], what: str, primals: list[Any]) -> list[Any]:
            native: list[Any] = []
            it = iter(primals)
            for spec, value in zip(specs, values):
                got = len(native)
                mine = [next(it) for _ in _tree.leaf_specs(spec)]
                if value is None:  # no cotangent for this argument (MLX, JAX): zeros
                    native += [backend.zeros_like(p) for p in mine]
                    continue
                _tree.flatten_output(value, native, backend)
                if len(native) - got != len(_tree.leaf_specs(spec)):
                    raise ValueError(
                        f"custom_function: the {what} rule returned a value that does not "
                        f"have the structure of its argument"
                    )
            return native

        vjp_rule, jvp_rule, vmap_rule = self._vjp, self._jvp, self._vmap
        flat_vjp = flat_jvp = flat_vmap = None
        if vjp_rule is not None:

            def flat_vjp(
                primals: list[Any], cotangents: list[Any], outputs: list[Any]
            ) -> list[Any]:
                grads = vjp_rule(tuple(args_of(primals)), result_of(cotangents), result_of(outputs))
                return leaves_like(_as_tuple(grads, n_args, "vjp"), "vjp", primals)

        if jvp_rule is not None:

            def flat_jvp(primals: list[Any], tangents: list[Any]) -> list[Any]:
                tangent = jvp_rule(tuple(args_of(primals)), tuple(args_of(tangents)))
                native: list[Any] = []
                _tree.flatten_output(tangent, native, backend)
                return native

        if vmap_rule is not None:

            def flat_vmap(leaves: list[Any], axes: list[Any]) -> tuple[list[Any], list[Any]]:
                it = iter(axes)
                arg_axes = tuple(_tree.place(s, it) for s in specs)
                outputs, out_axes = vmap_rule(tuple(args_of(leaves)), arg_axes)
                native: list[Any] = []
                spec = _tree.flatten_output(outputs, native, backend)
                out[:] = [spec]  # fun may never run under vmap (torch's vmap staticmethod)
                return native, _leaf_axes(spec, out_axes, "out_axes of the vmap rule", "")

        if flat_vjp is None and flat_jvp is None and flat_vmap is None:
            return flat_fun, out  # no rule: every transform takes its default (MLX)
        native = backend.custom_function_leaves(flat_fun, flat_vjp, flat_jvp, flat_vmap)
        return native, out

"""Private helpers of several backends' family files, written once.

``named`` gives a kernel built by a factory (a closure) the op's name, and a docstring, so that
tracebacks, ``repr`` and ``help`` show ``add`` rather than ``op``. The type names at the end
spell the signature of every backend's ``custom_function_leaves``.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., object])


def named(fn: F, name: str, doc: str | None = None) -> F:
    """``fn`` named ``name`` (``__name__`` and ``__qualname__``), with ``doc`` when given."""
    fn.__name__ = fn.__qualname__ = name
    if doc is not None:
        fn.__doc__ = doc
    return fn


def vjp_leaves_for(
    vjp: Callable[..., Any],
) -> Callable[..., tuple[list[Any], list[Any]]]:
    """A backend's ``vjp_leaves`` on ``vjp(f, primals) -> (outputs, pullback)`` (``jax.vjp``,
    ``torch.func.vjp``), whose pullback gives one gradient per argument of ``f``."""

    def vjp_leaves(
        f: Callable[[list[Any]], list[Any]],
        primals: list[Any],
        cotangents_for: Callable[[list[Any]], list[Any]],
    ) -> tuple[list[Any], list[Any]]:
        outputs, pullback = vjp(f, primals)
        (grads,) = pullback(cotangents_for(outputs))
        return outputs, grads

    return vjp_leaves


# custom_function_leaves(f, vjp, jvp, vmap) -> f with the rules: a function of leaves and its
# optional rules, as the transforms hand them to every backend; vmap_leaves(f, leaves, in_axes,
# axis_size) maps a VmapFn (leaves -> (mapped outputs, unmapped outputs)).
VmapFn = Callable[[list[Any]], tuple[list[Any], list[Any]]]
LeavesFn = Callable[..., list[Any]]
VjpRule = Callable[[list[Any], list[Any], list[Any]], list[Any]]
JvpRule = Callable[[list[Any], list[Any]], list[Any]]
VmapRule = Callable[[list[Any], list[Any]], tuple[list[Any], list[Any]]]

"""NumPy transform primitives: NumPy has no autodiff, no tracer and no vectorising map.

* ``vjp_leaves`` / ``jvp_leaves``: :class:`~ivy_like.core.backend.NoAutodiffError`. The frontend
  raises it before reaching the backend (``_differentiable_leaves``); these are for a direct
  caller.
* ``vmap_leaves``: a Python loop over the batch, one call per example on its slices (views),
  the results stacked with ``np.stack`` (``backends/_common/loop_vmap.py``): correct, and as
  slow as the loop. An output with ``out_axes`` ``None`` must be equal for every example
  (checked by value, a ``ValueError`` otherwise); an empty batch raises
  ``NotImplementedError`` (no example to run).
* ``compile_leaves``: ``f`` itself; NumPy runs eagerly and has nothing to compile.
* ``checkpoint_leaves``: ``f`` itself; no backward pass keeps anything to recompute.
* ``custom_function_leaves``: ``f`` itself, the vjp and jvp rules unused (no autodiff: grad,
  vjp and jvp raise before they could run). A vmap rule is used under ``ivy_like.vmap``: the
  loop calls it once on the whole batch, as the vectorising backends do.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ...core.backend import get_backend, no_autodiff_error
from .._common.helpers import JvpRule, LeavesFn, VjpRule, VmapRule
from .._common.loop_vmap import LoopVmap as _LoopVmap


def _no_autodiff(who: str) -> Exception:
    return no_autodiff_error(get_backend("numpy"), who)


def vjp_leaves(
    f: Callable[[list[Any]], list[Any]],
    primals: list[Any],
    cotangents_for: Callable[[list[Any]], list[Any]],
) -> tuple[list[Any], list[Any]]:
    raise _no_autodiff("vjp")


def jvp_leaves(
    f: Callable[[list[Any]], list[Any]], primals: list[Any], tangents: list[Any]
) -> tuple[list[Any], list[Any]]:
    raise _no_autodiff("jvp")


def _take(x: Any, axis: int, i: int) -> Any:
    # Basic indexing: a view, no copy. The Ellipsis keeps a 0-d result an ndarray (x[i] alone
    # would give a NumPy scalar).
    return x[(slice(None),) * axis + (i, Ellipsis)]


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    a, b = np.asarray(a), np.asarray(b)
    return (
        a.shape == b.shape
        and a.dtype == b.dtype
        and bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
    )


_LOOP = _LoopVmap("numpy", _take, np.stack, _same)
vmap_leaves = _LOOP.vmap_leaves


def compile_leaves(f: Callable[..., list[Any]]) -> Callable[..., list[Any]]:
    return f


def checkpoint_leaves(f: Callable[..., list[Any]]) -> Callable[..., list[Any]]:
    return f


def custom_function_leaves(
    f: LeavesFn, vjp: VjpRule | None, jvp: JvpRule | None, vmap: VmapRule | None
) -> LeavesFn:
    if vmap is None:
        return f
    rule = vmap

    def custom(*leaves: Any) -> list[Any]:
        frame = _LOOP.active()
        if frame is None:  # not under vmap (or inside a vmap rule): the function itself
            return f(*leaves)
        return _LOOP.call(frame, custom, rule, list(leaves))

    return custom

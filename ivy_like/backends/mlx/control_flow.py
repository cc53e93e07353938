"""MLX control-flow primitives: Python loops (``backends/_common/control_flow.py``), which
``mx.grad``, ``mx.vjp`` and ``mx.jvp`` differentiate step by step. MLX is lazy: the branch of a
``cond`` not taken only builds a graph that is never evaluated, so checking it costs little.

MLX has no control-flow primitive, so under ``mx.compile`` (``ivy_like.compile``) and
``mx.vmap`` the loops unroll, and a value cannot be read: there a ``cond`` computes both
branches and selects with ``mx.where`` (as ``jax.lax.cond`` under ``vmap``), and a
``while_loop`` or ``fori_loop`` driven by a traced value is a ``TypeError`` (MLX refuses to
evaluate an array while it traces).

The frontend (``ivy_like/transforms/control_flow.py``) flattens, checks and rebuilds; the contract of each
function is in ``ivy_like/backends/__init__.py``.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx

from .._common.control_flow import PythonLoops as _PythonLoops
from .._common.control_flow import dtype_zeros as _dtype_zeros


def _concrete(x: Any, kind: type) -> Any:
    try:
        return kind(x.item())
    except ValueError:  # "[eval] Attempting to eval an array during function transformations"
        return None


_LOOPS = _PythonLoops(
    "mlx", stack=mx.stack, zeros=_dtype_zeros(mx.zeros), where=mx.where, concrete=_concrete
)
cond_leaves = _LOOPS.cond_leaves
while_loop_leaves = _LOOPS.while_loop_leaves
fori_loop_leaves = _LOOPS.fori_loop_leaves
scan_leaves = _LOOPS.scan_leaves

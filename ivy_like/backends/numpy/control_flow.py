"""NumPy control-flow primitives: Python loops (``backends/_common/control_flow.py``); the
branch of ``cond`` not taken runs with NumPy's floating-point warnings off, since its values
are thrown away. NumPy never traces, so every predicate and bound is concrete.

The frontend (``ivy_like/transforms/control_flow.py``) flattens, checks and rebuilds; the contract of each
function is in ``ivy_like/backends/__init__.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._common.control_flow import PythonLoops as _PythonLoops
from .._common.control_flow import dtype_zeros as _dtype_zeros


def _take(x: Any, i: int) -> Any:
    return x[i, ...]  # the Ellipsis keeps a 0-d result an ndarray (x[i] gives a NumPy scalar)


def _quiet() -> Any:
    return np.errstate(all="ignore")


_LOOPS = _PythonLoops(
    "numpy", take=_take, stack=np.stack, zeros=_dtype_zeros(np.zeros), quiet=_quiet
)
cond_leaves = _LOOPS.cond_leaves
while_loop_leaves = _LOOPS.while_loop_leaves
fori_loop_leaves = _LOOPS.fori_loop_leaves
scan_leaves = _LOOPS.scan_leaves

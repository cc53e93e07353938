"""MXNet 1.9 control-flow primitives: Python loops (``backends/_common/control_flow.py``),
which ``mxnet.autograd`` records step by step. MXNet runs eagerly (``compile`` is the function
itself), so every predicate and bound is concrete; the branch of a ``cond`` not taken runs with
the tape paused. Each primitive runs with NumPy shape semantics on (0-d arrays), as every
kernel here does.

The frontend (``ivy_like/transforms/control_flow.py``) flattens, checks and rebuilds; the contract of each
function is in ``ivy_like/backends/__init__.py``.
"""

from __future__ import annotations

from typing import Any

import mxnet as mx
from mxnet import autograd

from .._common.control_flow import PythonLoops as _PythonLoops
from . import NDArray as _NDArray
from . import numpy_shapes as _numpy_shapes
from .manipulation import stack as _stack_kernel


def _concrete(x: Any, kind: type) -> Any:
    return kind(x.asscalar()) if isinstance(x, _NDArray) else kind(x)


def _zeros(shape: tuple[int, ...], like: Any) -> Any:
    return mx.nd.zeros(shape, ctx=like.context, dtype=like.dtype)


# take: x[i], 0-d for a 1-d x (NumPy shape semantics)
_LOOPS = _PythonLoops(
    "mxnet", stack=_stack_kernel, zeros=_zeros, concrete=_concrete, quiet=autograd.pause
)
cond_leaves = _numpy_shapes(_LOOPS.cond_leaves)
while_loop_leaves = _numpy_shapes(_LOOPS.while_loop_leaves)
fori_loop_leaves = _numpy_shapes(_LOOPS.fori_loop_leaves)
scan_leaves = _numpy_shapes(_LOOPS.scan_leaves)

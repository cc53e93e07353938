"""PyTorch control-flow primitives: Python loops (``backends/_common/control_flow.py``), which
autograd and ``torch.func`` differentiate step by step.

Where the predicate of a ``cond`` cannot be read, both branches are computed and selected
leaf by leaf with ``torch.where`` (as ``jax.lax.cond`` under ``vmap``): under ``torch.func.vmap``
(a batched predicate) and under ``ivy_like.compile`` (``make_fx`` traces on fake tensors).
``torch.cond`` would keep one branch there, but it does not trace cleanly in those places
(torch 2.13: under ``torch.func.grad`` it fails, so ``compile(grad(f))`` would; a branch that
returns an operand unchanged is refused as aliasing). Inside a caller's own ``torch.compile``
Dynamo reads the predicate (a graph break) and unrolls the loops. A ``while_loop`` or
``fori_loop`` whose condition or bounds are traced cannot run as a Python loop: ``TypeError``
saying so (``torch._higher_order_ops.while_loop`` traces under ``make_fx``, but
``torch._inductor.compile`` then fails on it; ``torch.compile`` of the traced graph runs it).

The frontend (``ivy_like/transforms/control_flow.py``) flattens, checks and rebuilds; the contract of each
function is in ``ivy_like/backends/__init__.py``.
"""

from __future__ import annotations

from typing import Any

import torch
from torch._C import _functorch
from torch._subclasses.fake_tensor import FakeTensor as _FakeTensor

from .._common.control_flow import PythonLoops as _PythonLoops


def _traced(x: Any) -> bool:
    """Is the value of ``x`` unknown here: batched by ``torch.func.vmap`` (under any functorch
    wrappers), or a fake tensor that ``make_fx`` traces and that is not a constant?"""
    while _functorch.is_functorch_wrapped_tensor(x):
        if _functorch.is_batchedtensor(x):
            return True
        x = _functorch.get_unwrapped(x)
    return isinstance(x, _FakeTensor) and x.constant is None


def _concrete(x: Any, kind: type) -> Any:
    # Dynamo (a caller's torch.compile) reads the value itself, with a graph break.
    if not torch.compiler.is_compiling() and _traced(x):
        return None
    return kind(x)


def _zeros(shape: tuple[int, ...], like: Any) -> Any:
    return torch.zeros(shape, dtype=like.dtype, device=like.device)


_LOOPS = _PythonLoops(
    "torch",
    stack=torch.stack,
    zeros=_zeros,
    where=torch.where,
    concrete=_concrete,
    quiet=torch.no_grad,
)
cond_leaves = _LOOPS.cond_leaves
while_loop_leaves = _LOOPS.while_loop_leaves
fori_loop_leaves = _LOOPS.fori_loop_leaves
scan_leaves = _LOOPS.scan_leaves

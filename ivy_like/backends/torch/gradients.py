"""PyTorch gradient primitives through ``torch.func``.

``torch.func`` transforms are functional: they never set ``.grad`` on the caller's tensors nor
flip their ``requires_grad``, they nest (``grad(grad(f))``) and ``torch.compile`` can trace them.
"""

from __future__ import annotations

from typing import Any, Callable

import torch
import torch.func


def _apply(leaves: list[Any], f: Callable[[list[Any]], tuple[Any, Any]]) -> tuple[Any, Any]:
    return f(leaves)


def _apply_one(leaf: Any, f: Callable[[list[Any]], tuple[Any, Any]]) -> tuple[Any, Any]:
    return f([leaf])


# Built once: the per-call function travels as a non-differentiated argument. One leaf (the
# common case) goes in bare: torch.func's handling of a list input costs ~30 µs a call.
_GRAD_AND_VALUE = torch.func.grad_and_value(_apply, has_aux=True)
_GRAD_AND_VALUE_ONE = torch.func.grad_and_value(_apply_one, has_aux=True)


def value_and_grad_leaves(
    f: Callable[[list[Any]], tuple[Any, Any]], leaves: list[Any]
) -> tuple[Any, Any, list[Any]]:
    """``f(leaves) -> (scalar, aux)``; return ``(scalar, aux, grads)`` with one grad a leaf."""
    if len(leaves) == 1:
        grad, (value, aux) = _GRAD_AND_VALUE_ONE(leaves[0], f)
        return value, aux, [grad]
    grads, (value, aux) = _GRAD_AND_VALUE(leaves, f)
    return value, aux, grads


def jacobian(f: Callable[[Any], Any], x: Any) -> Any:
    """The Jacobian of ``f`` at ``x``, shaped ``f(x).shape + x.shape``."""
    return torch.func.jacrev(f)(x)

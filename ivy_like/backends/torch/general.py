"""torch backend: general functions (``stop_gradient``, ``variable``).

A variable is a leaf tensor that requires grad; ``stop_gradient`` detaches without a copy.
"""

from __future__ import annotations

from typing import Any

import torch

from ._helpers import _dtype_name


def stop_gradient(x: Any, /, *, preserve_type: bool = True) -> Any:
    # detach() shares memory (no copy) and never changes x's flags.
    # Inside torch.func transforms the wrapped inputs report requires_grad and is_leaf; they
    # are not user variables and torch.func forbids requires_grad_() on them.
    if (
        preserve_type
        and x.requires_grad
        and x.is_leaf
        and not torch._C._functorch.is_functorch_wrapped_tensor(x)
    ):
        return x.detach().requires_grad_(True)  # a new trainable leaf
    return x.detach()


def variable(x: Any, /) -> Any:
    if not (x.is_floating_point() or x.is_complex()):
        raise TypeError(
            f"variable: torch can only train floating-point or complex arrays, got {_dtype_name(x)}"
        )
    return x.detach().clone().requires_grad_(True)

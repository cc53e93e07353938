"""``format="torch"``: a ``.pt2`` file from ``torch.export``, loaded with
``torch.export.load(path).module()``.

The weights are buffers of the exported module (``state_dict`` keys are their key chains with
``/`` as ``.``); each dynamic dimension is a ``torch.export.Dim`` of its name, so batch 1 is
allowed (``Dim.AUTO`` would exclude it). Outputs are plain tuples and dicts: a ``.pt2`` whose
outputs are a registered pytree class cannot be loaded without that class's package.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from ._plan import Plan, flat_outputs


def _module(plan: Plan) -> Any:
    import torch

    f = plan.native("torch")
    names = [k.replace("/", "_") for k in plan.weights]

    class Exported(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            for name, w in zip(names, plan.weights.values()):
                self.register_buffer(name, torch.from_numpy(np.array(w, copy=True)))

        def forward(self, *inputs: Any) -> Any:
            return f([getattr(self, name) for name in names], *inputs)

    return Exported()


def program(plan: Plan) -> Any:
    """The ``torch.export`` program of ``plan`` (each dynamic dimension a ``Dim``)."""
    import torch
    from torch.export import Dim

    symbols = {name: Dim(name) for name in plan.symbols()}
    shapes = tuple(
        {axis: symbols[name] for axis, name in dims.items()} or None for dims in plan.dims
    )
    args = tuple(torch.from_numpy(np.array(x, copy=True)) for x in plan.examples)
    try:
        exported = torch.export.export(
            _module(plan), args, dynamic_shapes=(shapes,) if any(plan.dims) else None, strict=False
        )
    except torch._dynamo.exc.UserError as err:
        fixed = re.findall(r"You marked (\w+) as dynamic but your code specialized it", str(err))
        if not fixed:
            raise
        sizes = plan.symbols()
        raise ValueError(
            "the trace fixed "
            + ", ".join(f"dimension {n!r} at the example's size {sizes.get(n)}" for n in fixed)
            + " (a size read as an int, or a reshape to the example's sizes), so it cannot "
            "be dynamic"
        ) from None
    return exported


def write(plan: Plan, path: str) -> None:
    import torch

    torch.export.save(program(plan), path)


def load(path: str, names: list[str]) -> Callable[..., Any]:
    import torch

    module = torch.export.load(path).module()

    def run(*inputs: np.ndarray) -> dict[str, np.ndarray]:
        with torch.no_grad():
            out = module(*(torch.from_numpy(np.array(x, copy=True)) for x in inputs))
        return {k: y.detach().numpy() for k, y in flat_outputs(out)}

    return run

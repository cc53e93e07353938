"""``format="jax"``: serialized StableHLO from ``jax.export``, loaded with
``jax.export.deserialize(data).call(*inputs)``.

The weights are constants of the exported module. Each dynamic dimension is one of
``jax.export``'s symbolic dimensions (one scope, so a name shared by inputs is one size).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._plan import Plan, flat_outputs


def write(plan: Plan, path: str) -> None:
    import jax
    from jax import export as jax_export

    f = plan.native("jax")
    weights = [jax.numpy.asarray(w) for w in plan.weights.values()]
    scope = jax_export.SymbolicScope()
    specs = []
    for x, dims in zip(plan.examples, plan.dims):
        shape = ", ".join(dims.get(axis, str(n)) for axis, n in enumerate(x.shape))
        symbolic = jax_export.symbolic_shape(shape, scope=scope) if x.ndim else ()
        specs.append(jax.ShapeDtypeStruct(symbolic, x.dtype))
    exported = jax_export.export(jax.jit(lambda *xs: f(weights, *xs)))(*specs)
    with open(path, "wb") as file:
        file.write(exported.serialize())


def load(path: str, names: list[str]) -> Callable[..., Any]:
    from jax import export as jax_export

    with open(path, "rb") as file:
        exported = jax_export.deserialize(bytearray(file.read()))

    def run(*inputs: np.ndarray) -> dict[str, np.ndarray]:
        return {k: np.asarray(y) for k, y in flat_outputs(exported.call(*inputs))}

    return run

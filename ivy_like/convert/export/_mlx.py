"""``format="mlx"``: an ``.mlxfn`` file from ``mx.export_function``, loaded with
``mx.import_function(path)``.

The weights are constants of the exported graph. MLX has no named dimensions: with any
dynamic dimension the function is exported ``shapeless`` (one graph for every shape), which
:func:`ivy_like.export` then checks at another size, since a shapeless graph that pinned a
size (a reshape to the example's) is not refused by MLX. The imported function returns a
flat list: the outputs' leaves in order (dict keys in their order, tuples by position).
MLX has no graph-level loop or branch on values, so a function that needs one fails the
export.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any

import numpy as np

from ._plan import Plan, flat_outputs


def write(plan: Plan, path: str) -> None:
    import mlx.core as mx

    f = plan.native("mlx")
    # Row-major copies: mx.array keeps a NumPy view's strides (a transposed or Fortran-order
    # weight), and mx.export_function writes a constant's buffer as if it were row-major, so
    # the artifact would compute with scrambled weights (which the check after it refuses).
    weights = [mx.array(np.ascontiguousarray(w)) for w in plan.weights.values()]

    def leaves(*inputs: Any) -> list[Any]:
        return [y for _, y in flat_outputs(f(weights, *inputs))]

    args = [mx.array(x) for x in plan.examples]
    mx.export_function(path, leaves, *args, shapeless=any(plan.dims))


# Run in a process of its own: a shapeless graph that pinned a size can abort MLX (a matrix
# product given the example's sizes stops the process in BLAS) rather than raise.
_RUN = """
import sys, numpy as np, mlx.core as mx
f = mx.import_function(sys.argv[1])
with np.load(sys.argv[2]) as data:
    inputs = [mx.array(data[f"arg{i}"]) for i in range(len(data.files))]
np.savez(sys.argv[3], *[np.array(y) for y in f(*inputs)])
"""


def load(path: str, names: list[str]) -> Callable[..., Any]:
    def run(*inputs: np.ndarray) -> dict[str, np.ndarray]:
        with tempfile.TemporaryDirectory() as folder:
            given, taken = os.path.join(folder, "in.npz"), os.path.join(folder, "out.npz")
            named: dict[str, Any] = {f"arg{i}": x for i, x in enumerate(inputs)}
            np.savez(given, **named)
            done = subprocess.run(
                [sys.executable, "-c", _RUN, path, given, taken], capture_output=True, text=True
            )
            if done.returncode != 0:
                last = (done.stderr.strip().splitlines() or ["no message"])[-1]
                raise RuntimeError(f"MLX stopped (exit status {done.returncode}): {last}")
            with np.load(taken) as data:
                return {f"output_{i}": data[f"arr_{i}"] for i in range(len(data.files))}

    return run

"""What a type checker sees of ivy_like: ``mypy examples/typed_usage.py`` checks this file clean.

The generated API is typed by stubs (``python -m ivy_like stubs``): every function, method and
operator keeps the kind of array it is given. An ``ivy_like.Array`` in gives an ``Array`` out,
a NumPy (or other native) array gives the same native type back, and a ``Container`` gives a
``Container``, so the annotations below are checked rather than taken on trust.

Run it (NumPy only, no framework needed): ``python examples/typed_usage.py``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import ivy_like
from ivy_like import Array, Container


def mse(pred: Array, target: Array) -> Array:
    """Functions and operators on Arrays give Arrays."""
    return ivy_like.mean((pred - target) ** 2)


def unit(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """NumPy in, NumPy out: the same functions keep native arrays native."""
    return ivy_like.divide(x, ivy_like.linalg.vector_norm(x))


def sgd_step(params: Container, grads: Container, lr: float) -> Container:
    """Operators on Containers map over their leaves and give Containers."""
    return params - lr * grads


def main() -> None:
    x = ivy_like.array([[2.0, 1.0], [1.0, 3.0]])  # creation functions give Arrays
    inverse: Array = ivy_like.linalg.inv(x)
    identity: Array = ivy_like.round(x @ inverse)  # operators and functions
    q, r = ivy_like.linalg.qr(x)  # several outputs: a tuple of Arrays
    back: Array = q @ r
    total: Array = x.sum(axis=0).exp()  # Array methods
    print("x @ inv(x) =", identity.to_numpy().tolist())
    print("q @ r == x:", bool(ivy_like.all(ivy_like.abs(back - x) < 1e-5)))
    print("exp(column sums):", total.to_numpy().astype(np.float64).round(3).tolist())
    print("mse:", float(mse(x, identity)))

    v: npt.NDArray[np.float64] = unit(np.array([3.0, 4.0]))
    print("unit vector (numpy):", type(v).__name__, v.tolist())

    params = Container(w=x, b=ivy_like.zeros(2))
    grads = Container(w=ivy_like.ones_like(x), b=ivy_like.ones(2))
    params = sgd_step(params, grads, lr=0.1)
    squared: Container = params.square(key_chains="w")  # Container methods (w only)
    sums: Container = Container.static_sum(squared)  # static variants of every op
    for key, value in params.cont_to_numpy().cont_to_dict().items():
        print(f"params[{key!r}] after one step:", value.astype(np.float64).round(3).tolist())
    print("sums (w squared):", {k: round(float(v), 3) for k, v in sums.cont_to_dict().items()})


if __name__ == "__main__":
    main()

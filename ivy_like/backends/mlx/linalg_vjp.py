"""mlx backend: gradients for the decompositions MLX cannot differentiate (MLX 0.32).

MLX has no VJP for ``Inverse``, ``Cholesky``, ``Eigh`` or ``SVD``, and its ``solve`` fails
under ``grad`` on the pivot indices of its LU. Each function here is the MLX op wrapped in
``mx.custom_function`` with the VJP written out (real matrices: complex input never reaches
these, the mlx backend refuses it). Forward results are MLX's own, unchanged.

Conventions, as on the other backends (``ivy_like.ops.linalg``): ``cholesky``, ``eigh`` and
``eigvalsh`` read the lower triangle, and their gradient is the symmetric matrix
``(G + G^T) / 2``, torch's convention and JAX's default.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx

_CPU = mx.cpu


def _mT(x: Any) -> Any:
    return mx.swapaxes(x, -1, -2)


def _only(primals: Any) -> Any:
    """The input of a one-argument custom function (MLX passes it bare, not in a tuple)."""
    return primals[0] if isinstance(primals, (tuple, list)) else primals


def _symmetric(g: Any) -> Any:
    return (g + _mT(g)) * 0.5


@mx.custom_function
def inv(x: Any) -> Any:
    return mx.linalg.inv(x, stream=_CPU)


@inv.vjp
def _inv_vjp(primals: Any, cotangent: Any, output: Any) -> Any:
    # d(X^-1) = -X^-1 dX X^-1, so the cotangent of X is -Y^T G Y^T with Y = X^-1.
    y_t = _mT(output)
    return -mx.matmul(mx.matmul(y_t, cotangent, stream=_CPU), y_t, stream=_CPU)


@mx.custom_function
def solve(a: Any, b: Any) -> Any:
    """``a @ x = b`` for matrices ``b`` with ``a``'s batch dimensions (the caller broadcasts)."""
    return mx.linalg.solve(a, b, stream=_CPU)


@solve.vjp
def _solve_vjp(primals: Any, cotangent: Any, output: Any) -> Any:
    a, _ = primals
    grad_b = mx.linalg.solve(_mT(a), cotangent, stream=_CPU)
    return -mx.matmul(grad_b, _mT(output), stream=_CPU), grad_b


@mx.custom_function
def cholesky(x: Any) -> Any:
    """The lower factor ``L`` of ``x = L L^T``, from ``x``'s lower triangle."""
    return mx.linalg.cholesky(x, stream=_CPU)


@cholesky.vjp
def _cholesky_vjp(primals: Any, cotangent: Any, output: Any) -> Any:
    # With P = L^T G, lower triangle kept and its diagonal halved, the cotangent of x is
    # L^-T P L^-1, symmetrized.
    low_inv = mx.linalg.tri_inv(output, upper=False, stream=_CPU)
    p = mx.tril(mx.matmul(_mT(output), cotangent, stream=_CPU))
    n = p.shape[-1]
    p = p - 0.5 * p * mx.eye(n, dtype=p.dtype)
    middle = mx.matmul(mx.matmul(_mT(low_inv), p, stream=_CPU), low_inv, stream=_CPU)
    return _symmetric(middle)


@mx.custom_function
def eigh(x: Any) -> tuple[Any, Any]:
    return mx.linalg.eigh(x, stream=_CPU)


@eigh.vjp
def _eigh_vjp(primals: Any, cotangents: Any, outputs: Any) -> Any:
    w, v = outputs
    grad_w, grad_v = cotangents
    # V (diag(gw) + F * (V^T gV)) V^T with F_ij = 1 / (w_j - w_i) off the diagonal (distinct
    # eigenvalues, as on every backend), symmetrized.
    gaps = mx.expand_dims(w, -2) - mx.expand_dims(w, -1)
    n = w.shape[-1]
    off = 1 - mx.eye(n, dtype=w.dtype)
    f = off / (gaps + (1 - off))  # the diagonal divides by one and is zeroed
    inner = f * mx.matmul(_mT(v), grad_v, stream=_CPU) + mx.expand_dims(grad_w, -1) * mx.eye(n)
    return _symmetric(mx.matmul(mx.matmul(v, inner, stream=_CPU), _mT(v), stream=_CPU))


@mx.custom_function
def eigvalsh(x: Any) -> Any:
    return mx.linalg.eigvalsh(x, stream=_CPU)


@eigvalsh.vjp
def _eigvalsh_vjp(primals: Any, cotangent: Any, output: Any) -> Any:
    _, v = mx.linalg.eigh(_only(primals), stream=_CPU)  # the eigenvectors: V diag(g) V^T
    return mx.matmul(v * mx.expand_dims(cotangent, -2), _mT(v), stream=_CPU)


@mx.custom_function
def svdvals(x: Any) -> Any:
    return mx.linalg.svd(x, compute_uv=False, stream=_CPU)


@svdvals.vjp
def _svdvals_vjp(primals: Any, cotangent: Any, output: Any) -> Any:
    x = _only(primals)
    u, _, vh = mx.linalg.svd(x, stream=_CPU)  # full matrices: keep the first k of each
    k = min(x.shape[-2:])
    u, vh = u[..., :, :k], vh[..., :k, :]
    return mx.matmul(u * mx.expand_dims(cotangent, -2), vh, stream=_CPU)

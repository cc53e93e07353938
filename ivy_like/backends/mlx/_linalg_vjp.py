"""mlx backend: gradients for the decompositions MLX cannot differentiate (MLX 0.32).

MLX has no VJP for ``Inverse``, ``Cholesky``, ``Eigh``, ``SVD`` or ``QR``, and its ``solve``
fails under ``grad`` on the pivot indices of its LU. Each function here is the MLX op wrapped
in ``mx.custom_function`` with the VJP written out (real matrices: complex input never
reaches these, the mlx backend refuses it); that of ``eig`` and ``eigvals`` raises
``NotImplementedError`` (see there). Forward results are MLX's own, unchanged;
``pinv`` is composed from MLX's SVD (MLX's own pinv has no cutoff). Each formula is checked
against float64 finite differences in ``tests/array_api/test_linalg_fft.py``, for square,
tall, wide and batched input.

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


# -- no gradient: eig and eigvals -----------------------------------------------------------------
# MLX has no VJP for Eig either, and its complex linear algebra (no complex inv or solve) cannot
# write one. Wrapped all the same, so that ``grad`` through them names the function and the
# backend (a NotImplementedError, as for any transform a backend lacks) instead of MLX's
# "[Primitive::vjp] Not implemented for Eig" ValueError.
def _no_gradient(name: str) -> Any:
    def vjp(primals: Any, cotangents: Any, outputs: Any) -> Any:
        raise NotImplementedError(
            f"linalg.{name}: the mlx backend cannot differentiate {name} (MLX 0.32 has no "
            f"gradient for it); the jax, torch and tensorflow backends can"
        )

    return vjp


@mx.custom_function
def eig(x: Any) -> tuple[Any, Any]:
    return mx.linalg.eig(x, stream=_CPU)


@mx.custom_function
def eigvals(x: Any) -> Any:
    return mx.linalg.eigvals(x, stream=_CPU)


eig.vjp(_no_gradient("eig"))
eigvals.vjp(_no_gradient("eigvals"))


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


def _mm(a: Any, b: Any) -> Any:
    return mx.matmul(a, b, stream=_CPU)


@mx.custom_function
def svd(x: Any) -> tuple[Any, Any, Any]:
    """MLX's SVD (always full ``U`` and ``Vh``); the gradient flows through their first
    ``k = min(m, n)`` columns and rows. The others are not unique, so their cotangents are
    dropped (as torch does; JAX refuses full matrices that are not square)."""
    return mx.linalg.svd(x, stream=_CPU)


@svd.vjp
def _svd_vjp(primals: Any, cotangents: Any, outputs: Any) -> Any:
    # With A = U S V^T (reduced, distinct singular values) and E_ij = 1 / (s_j^2 - s_i^2)
    # off the diagonal:
    #   gA = U [diag(gS) + (E * (U^T gU - gU^T U)) S + S (E * (V^T gV - gV^T V))] V^T
    #        + (I - U U^T) gU S^-1 V^T + U S^-1 gV^T (I - V V^T)
    # The last two terms vanish for square input.
    x = _only(primals)
    u_full, s, vh_full = outputs
    g_u_full, g_s, g_vh_full = cotangents
    m, n = x.shape[-2:]
    k = min(m, n)
    u, g_u = u_full[..., :, :k], g_u_full[..., :, :k]
    v, g_v = _mT(vh_full[..., :k, :]), _mT(g_vh_full[..., :k, :])
    s_row = mx.expand_dims(s, -2)  # multiplies columns: M S
    s_col = mx.expand_dims(s, -1)  # multiplies rows: S M
    s2 = s * s
    gaps = mx.expand_dims(s2, -2) - mx.expand_dims(s2, -1)  # s_j^2 - s_i^2 at [i, j]
    off = 1 - mx.eye(k, dtype=s.dtype)
    e = off / (gaps + (1 - off))  # the diagonal divides by one and is zeroed
    utgu = _mm(_mT(u), g_u)
    vtgv = _mm(_mT(v), g_v)
    inner = (
        mx.expand_dims(g_s, -1) * mx.eye(k, dtype=s.dtype)
        + (e * (utgu - _mT(utgu))) * s_row
        + s_col * (e * (vtgv - _mT(vtgv)))
    )
    grad = _mm(_mm(u, inner), _mT(v))
    if m > k:  # tall: the part of gU outside U's columns
        g_u_out = g_u - _mm(u, utgu)
        grad = grad + _mm(g_u_out / s_row, _mT(v))
    if n > k:  # wide: the part of gV outside V's columns
        g_v_out = g_v - _mm(v, vtgv)
        grad = grad + _mm(u / s_row, _mT(g_v_out))
    return grad


def _qr_tall_vjp(q: Any, r: Any, g_q: Any, g_r: Any) -> Any:
    """Cotangent of ``A`` (m >= n) from reduced ``Q`` (m x n), ``R`` (n x n):
    ``(gQ + Q copyltu(M)) R^-T`` with ``M = R gR^T - gQ^T Q``; ``copyltu`` mirrors the lower
    triangle onto the upper one."""
    mid = _mm(r, _mT(g_r)) - _mm(_mT(g_q), q)
    low = mx.tril(mid)
    mid = low + _mT(mx.tril(mid, -1))
    b = g_q + _mm(q, mid)
    # b R^-T: solve R X = b^T for X = (b R^-T)^T (R upper triangular).
    return _mT(_solve_upper(r, _mT(b)))


def _solve_upper(r: Any, b: Any) -> Any:
    if r.ndim == 2:
        return mx.linalg.solve_triangular(r, b, upper=True, stream=_CPU)
    return _mm(mx.linalg.tri_inv(r, upper=True, stream=_CPU), b)  # batches: MLX's solve is 2-D


@mx.custom_function
def qr(x: Any) -> tuple[Any, Any]:
    """MLX's reduced QR."""
    return mx.linalg.qr(x, stream=_CPU)


@qr.vjp
def _qr_vjp(primals: Any, cotangents: Any, outputs: Any) -> Any:
    x = _only(primals)
    q, r = outputs
    g_q, g_r = cotangents
    m, n = x.shape[-2:]
    if m >= n:
        return _qr_tall_vjp(q, r, g_q, g_r)
    # Wide: A = [X | Y] with X = Q R1 square and Y = Q R2. Y's cotangent is Q gR2; R2 = Q^T Y
    # passes Y gR2^T on to Q, and X's cotangent is the square case.
    y, g_r1, g_r2 = x[..., :, m:], g_r[..., :, :m], g_r[..., :, m:]
    g_x = _qr_tall_vjp(q, r[..., :, :m], g_q + _mm(y, _mT(g_r2)), g_r1)
    return mx.concatenate([g_x, _mm(q, g_r2)], axis=-1)


@mx.custom_function
def pinv(x: Any, rtol: Any) -> Any:
    """The pseudo-inverse from the SVD, singular values up to ``rtol * max(s)`` dropped
    (``rtol``: an array broadcasting against the batch dimensions)."""
    u, s, vh = mx.linalg.svd(x, stream=_CPU)
    k = min(x.shape[-2:])
    u, vh = u[..., :, :k], vh[..., :k, :]
    cutoff = mx.expand_dims(rtol, -1) * mx.max(s, axis=-1, keepdims=True)
    keep = s > cutoff
    s_inv = mx.where(keep, 1 / mx.where(keep, s, 1), 0)  # no division by the dropped zeros
    return _mm(_mT(vh) * mx.expand_dims(s_inv, -2), _mT(u))


@pinv.vjp
def _pinv_vjp(primals: Any, cotangent: Any, output: Any) -> Any:
    # For a pseudo-inverse P of constant rank (Golub and Pereyra):
    #   gA = -P^T G P^T + (I - A P) G^T P P^T + P^T P G^T (I - P A)
    x, rtol = primals
    p, p_t, g_t = output, _mT(output), _mT(cotangent)
    left = g_t - _mm(x, _mm(p, g_t))  # (I - A P) G^T
    right = g_t - _mm(_mm(g_t, p), x)  # G^T (I - P A)
    grad = -_mm(_mm(p_t, cotangent), p_t) + _mm(_mm(left, p), p_t) + _mm(p_t, _mm(p, right))
    return grad, mx.zeros_like(rtol)

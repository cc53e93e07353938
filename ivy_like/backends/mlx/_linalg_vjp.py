"""mlx backend: derivatives for the decompositions MLX cannot differentiate (MLX 0.32).

MLX has no VJP or JVP for ``Inverse``, ``Cholesky``, ``Eigh``, ``SVD`` or ``QRF``, and its
``solve`` fails under ``grad`` and ``jvp`` on the LU factorization (``LUF``) it runs. Each
function here is the MLX op wrapped in ``mx.custom_function`` with the VJP and the JVP written
out (real matrices: complex input never reaches these, the mlx backend refuses it); those of
``eig`` and ``eigvals`` raise ``NotImplementedError`` (see there). Forward results are MLX's
own, unchanged; ``pinv`` is composed from MLX's SVD (MLX's own pinv has no cutoff). Each VJP is
checked against float64 finite differences in ``tests/array_api/test_linalg_fft.py``, for
square, tall, wide and batched input; each JVP, and the JVP of the JVP, in
``tests/testing/test_check_ops.py``.

Two MLX rules shape the code. MLX's forward mode walks the nodes inside a custom function too
(its JVP rule does not replace theirs, it is added), and asks the MLX primitive there for a JVP
it does not have: so every body computes from ``mx.stop_gradient`` of its inputs (no tangent
reaches the primitive; reverse mode uses the VJP rule either way). And the rules compute with
this module's functions (``inv``, ``eigh``, ``svd``...), never with the bare MLX primitive, so
that a derivative of a derivative (``jvp`` of ``jvp``, ``vjp`` of ``jvp``, ``vjp`` of ``vjp``)
finds a rule at every node. A JVP rule is not given the outputs: it calls the function again.

Conventions, as on the other backends (``ivy_like.ops.linalg``): ``cholesky``, ``eigh`` and
``eigvalsh`` read the lower triangle, and their gradient is the symmetric matrix
``(G + G^T) / 2``, torch's convention and JAX's default; the tangent is symmetrized the same
way, ``(dX + dX^T) / 2`` (the map whose transpose that gradient is, as on the jax backend).
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx

_CPU = mx.cpu


def _mT(x: Any) -> Any:
    return mx.swapaxes(x, -1, -2)


def _mm(a: Any, b: Any) -> Any:
    return mx.matmul(a, b, stream=_CPU)


def _only(primals: Any) -> Any:
    """The input (or tangent) of a one-argument custom function: MLX passes it bare, not in a
    tuple (indexing it would take its first row)."""
    return primals[0] if isinstance(primals, (tuple, list)) else primals


def _symmetric(g: Any) -> Any:
    return (g + _mT(g)) * 0.5


def _gap_inverse(w: Any) -> Any:
    """``F`` with ``F_ij = 1 / (w_j - w_i)`` off the diagonal and 0 on it (distinct values)."""
    gaps = mx.expand_dims(w, -2) - mx.expand_dims(w, -1)  # w_j - w_i at [i, j]
    off = 1 - mx.eye(w.shape[-1], dtype=w.dtype)
    return off / (gaps + (1 - off))  # the diagonal divides by one and is zeroed


def _diagonal_of_product(a: Any, b: Any) -> Any:
    """``diag(a^T b)`` without the off-diagonal products."""
    return mx.sum(a * b, axis=-2)


@mx.custom_function
def inv(x: Any) -> Any:
    return mx.linalg.inv(mx.stop_gradient(x), stream=_CPU)


@inv.vjp
def _inv_vjp(primals: Any, cotangent: Any, output: Any) -> Any:
    # d(X^-1) = -X^-1 dX X^-1, so the cotangent of X is -Y^T G Y^T with Y = X^-1.
    y_t = _mT(output)
    return -_mm(_mm(y_t, cotangent), y_t)


@inv.jvp
def _inv_jvp(primals: Any, tangents: Any) -> Any:
    y = inv(_only(primals))
    return -_mm(_mm(y, _only(tangents)), y)


@mx.custom_function
def solve(a: Any, b: Any) -> Any:
    """``a @ x = b`` for matrices ``b`` with ``a``'s batch dimensions (the caller broadcasts)."""
    return mx.linalg.solve(mx.stop_gradient(a), mx.stop_gradient(b), stream=_CPU)


@solve.vjp
def _solve_vjp(primals: Any, cotangent: Any, output: Any) -> Any:
    a, _ = primals
    grad_b = solve(_mT(a), cotangent)  # differentiable (MLX's solve is not: LU pivots)
    return -_mm(grad_b, _mT(output)), grad_b


@solve.jvp
def _solve_jvp(primals: Any, tangents: Any) -> Any:
    # dx = A^-1 (db - dA x); MLX passes None for the tangent of an argument held constant.
    a, b = primals
    da, db = tangents
    x = solve(a, b)
    if da is None:
        return solve(a, db) if db is not None else mx.zeros_like(x)
    rhs = -_mm(da, x) if db is None else db - _mm(da, x)
    return solve(a, rhs)


def _phi(m: Any) -> Any:
    """The lower triangle of ``m`` with its diagonal halved (self-adjoint: the JVP and the
    VJP of cholesky both apply it)."""
    low = mx.tril(m)
    return low - 0.5 * low * mx.eye(m.shape[-1], dtype=m.dtype)


@mx.custom_function
def cholesky(x: Any) -> Any:
    """The lower factor ``L`` of ``x = L L^T``, from ``x``'s lower triangle."""
    return mx.linalg.cholesky(mx.stop_gradient(x), stream=_CPU)


@cholesky.vjp
def _cholesky_vjp(primals: Any, cotangent: Any, output: Any) -> Any:
    # With P = Phi(L^T G), the cotangent of x is L^-T P L^-1, symmetrized.
    low_inv = inv(output)  # differentiable (MLX's tri_inv is not): a second derivative
    p = _phi(_mm(_mT(output), cotangent))
    return _symmetric(_mm(_mm(_mT(low_inv), p), low_inv))


@cholesky.jvp
def _cholesky_jvp(primals: Any, tangents: Any) -> Any:
    # dL = L Phi(L^-1 dA L^-T), dA the symmetrized tangent: the transpose of the VJP.
    low = cholesky(_only(primals))
    low_inv = inv(low)
    return _mm(low, _phi(_mm(_mm(low_inv, _symmetric(_only(tangents))), _mT(low_inv))))


@mx.custom_function
def eigh(x: Any) -> tuple[Any, Any]:
    return mx.linalg.eigh(mx.stop_gradient(x), stream=_CPU)


@eigh.vjp
def _eigh_vjp(primals: Any, cotangents: Any, outputs: Any) -> Any:
    w, v = outputs
    grad_w, grad_v = cotangents
    # V (diag(gw) + F * (V^T gV)) V^T with F_ij = 1 / (w_j - w_i) off the diagonal (distinct
    # eigenvalues, as on every backend), symmetrized.
    n = w.shape[-1]
    inner = _gap_inverse(w) * _mm(_mT(v), grad_v) + mx.expand_dims(grad_w, -1) * mx.eye(n)
    return _symmetric(_mm(_mm(v, inner), _mT(v)))


@eigh.jvp
def _eigh_jvp(primals: Any, tangents: Any) -> Any:
    # With P = V^T dA V (dA the symmetrized tangent): dw = diag(P), dV = V (F * P).
    w, v = eigh(_only(primals))
    p = _mm(_mm(_mT(v), _symmetric(_only(tangents))), v)
    return mx.diagonal(p, 0, -2, -1), _mm(v, _gap_inverse(w) * p)


@mx.custom_function
def eigvalsh(x: Any) -> Any:
    return mx.linalg.eigvalsh(mx.stop_gradient(x), stream=_CPU)


@eigvalsh.vjp
def _eigvalsh_vjp(primals: Any, cotangent: Any, output: Any) -> Any:
    # The eigenvectors, V diag(g) V^T; from eigh here, differentiable (MLX's Eigh is not).
    _, v = eigh(_only(primals))
    return _mm(v * mx.expand_dims(cotangent, -2), _mT(v))


@eigvalsh.jvp
def _eigvalsh_jvp(primals: Any, tangents: Any) -> Any:
    _, v = eigh(_only(primals))  # dw = diag(V^T dA V)
    return _diagonal_of_product(v, _mm(_symmetric(_only(tangents)), v))


# -- no gradient: eig and eigvals -----------------------------------------------------------------
# MLX has no VJP or JVP for Eig either, and its complex linear algebra (no complex inv or solve)
# cannot write one. Wrapped all the same, so that ``grad`` and ``jvp`` through them name the
# function and the backend (a NotImplementedError, as for any transform a backend lacks)
# instead of MLX's "[Primitive::vjp] Not implemented for Eig" ValueError. The bodies see their
# input through stop_gradient, as all here do, so the rule is the one that runs.
def _no_gradient(name: str) -> Any:
    def rule(*_: Any) -> Any:
        raise NotImplementedError(
            f"linalg.{name}: the mlx backend cannot differentiate {name} (MLX 0.32 has no "
            f"gradient for it); the jax, torch and tensorflow backends can"
        )

    return rule


@mx.custom_function
def eig(x: Any) -> tuple[Any, Any]:
    return mx.linalg.eig(mx.stop_gradient(x), stream=_CPU)


@mx.custom_function
def eigvals(x: Any) -> Any:
    return mx.linalg.eigvals(mx.stop_gradient(x), stream=_CPU)


eig.vjp(_no_gradient("eig"))
eig.jvp(_no_gradient("eig"))
eigvals.vjp(_no_gradient("eigvals"))
eigvals.jvp(_no_gradient("eigvals"))


def _reduced(x: Any) -> tuple[Any, Any, Any]:
    """``U``, ``S`` and ``V`` (not ``Vh``) of ``x``'s reduced SVD, from :func:`svd`."""
    u, s, vh = svd(x)
    k = s.shape[-1]
    return u[..., :, :k], s, _mT(vh[..., :k, :])


@mx.custom_function
def svdvals(x: Any) -> Any:
    return mx.linalg.svd(mx.stop_gradient(x), compute_uv=False, stream=_CPU)


@svdvals.vjp
def _svdvals_vjp(primals: Any, cotangent: Any, output: Any) -> Any:
    u, _, v = _reduced(_only(primals))  # svd: differentiable
    return _mm(u * mx.expand_dims(cotangent, -2), _mT(v))


@svdvals.jvp
def _svdvals_jvp(primals: Any, tangents: Any) -> Any:
    u, _, v = _reduced(_only(primals))  # ds = diag(U^T dA V)
    return _diagonal_of_product(u, _mm(_only(tangents), v))


@mx.custom_function
def svd(x: Any) -> tuple[Any, Any, Any]:
    """MLX's SVD (always full ``U`` and ``Vh``); the derivatives flow through their first
    ``k = min(m, n)`` columns and rows. The others are not unique: their cotangents are
    dropped (as torch does; JAX refuses full matrices that are not square), and their
    tangents are zero, the transpose of that."""
    return mx.linalg.svd(mx.stop_gradient(x), stream=_CPU)


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
    e = _gap_inverse(s * s)
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


@svd.jvp
def _svd_jvp(primals: Any, tangents: Any) -> Any:
    # The transpose of the VJP: with P = U^T dA V,
    #   dS = diag(P), dU = U (E * (P S + S P^T)) + (I - U U^T) dA V S^-1,
    #   dV = V (E * (S P + P^T S)) + (I - V V^T) dA^T U S^-1.
    x, dx = _only(primals), _only(tangents)
    m, n = x.shape[-2:]
    u, s, v = _reduced(x)
    k = s.shape[-1]
    s_row = mx.expand_dims(s, -2)
    s_col = mx.expand_dims(s, -1)
    e = _gap_inverse(s * s)
    dx_v = _mm(dx, v)
    p = _mm(_mT(u), dx_v)
    p_s = p * s_row
    s_p = s_col * p
    d_u = _mm(u, e * (p_s + _mT(p_s)))
    d_v = _mm(v, e * (s_p + _mT(s_p)))
    if m > k:  # tall: dA V outside U's columns
        d_u = d_u + (dx_v - _mm(u, p)) / s_row
    if n > k:  # wide: dA^T U outside V's columns
        dxt_u = _mm(_mT(dx), u)
        d_v = d_v + (dxt_u - _mm(v, _mT(p))) / s_row
    batch = x.shape[:-2]
    d_u = mx.concatenate([d_u, mx.zeros((*batch, m, m - k), dtype=dx.dtype)], axis=-1)
    d_vh = mx.concatenate([_mT(d_v), mx.zeros((*batch, n - k, n), dtype=dx.dtype)], axis=-2)
    return d_u, mx.diagonal(p, 0, -2, -1), d_vh


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


def _qr_tall_jvp(q: Any, r: Any, dx: Any) -> tuple[Any, Any]:
    """Tangents of reduced ``Q`` (m x n) and ``R`` (n x n) for ``A`` (m >= n): with
    ``C = Q^T dA R^-1`` and ``W = tril(C, -1) - tril(C, -1)^T`` (skew),
    ``dQ = Q (W - C) + dA R^-1`` and ``dR = (C - W) R`` (Townsend's QR derivative, JAX's)."""
    dx_rinv = _mm(dx, inv(r))  # inv: differentiable, as in _solve_upper
    c = _mm(_mT(q), dx_rinv)
    low = mx.tril(c, -1)
    w = low - _mT(low)
    return _mm(q, w - c) + dx_rinv, _mm(c - w, r)


def _solve_upper(r: Any, b: Any) -> Any:
    # inv: differentiable (MLX's solve_triangular and tri_inv are not), and for batches too
    return _mm(inv(r), b)


@mx.custom_function
def qr(x: Any) -> tuple[Any, Any]:
    """MLX's reduced QR."""
    return mx.linalg.qr(mx.stop_gradient(x), stream=_CPU)


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


@qr.jvp
def _qr_jvp(primals: Any, tangents: Any) -> Any:
    x, dx = _only(primals), _only(tangents)
    q, r = qr(x)
    m, n = x.shape[-2:]
    if m >= n:
        return _qr_tall_jvp(q, r, dx)
    # Wide: A = [X | Y], X = Q R1 the square case, R2 = Q^T Y: dR2 = dQ^T Y + Q^T dY.
    d_q, d_r1 = _qr_tall_jvp(q, r[..., :, :m], dx[..., :, :m])
    d_r2 = _mm(_mT(d_q), x[..., :, m:]) + _mm(_mT(q), dx[..., :, m:])
    return d_q, mx.concatenate([d_r1, d_r2], axis=-1)


@mx.custom_function
def pinv(x: Any, rtol: Any) -> Any:
    """The pseudo-inverse from the SVD, singular values up to ``rtol * max(s)`` dropped
    (``rtol``: an array broadcasting against the batch dimensions)."""
    x, rtol = mx.stop_gradient(x), mx.stop_gradient(rtol)
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


@pinv.jvp
def _pinv_jvp(primals: Any, tangents: Any) -> Any:
    # The transpose of the VJP (constant rank):
    #   dP = -P dA P + P P^T dA^T (I - A P) + (I - P A) dA^T P^T P
    # rtol moves only which singular values are dropped: no tangent (the VJP's zero).
    x, rtol = primals
    dx = tangents[0]
    p = pinv(x, rtol)
    if dx is None:
        return mx.zeros_like(p)
    p_t, dx_t = _mT(p), _mT(dx)
    left = dx_t - _mm(_mm(dx_t, x), p)  # dA^T (I - A P)
    right = dx_t - _mm(p, _mm(x, dx_t))  # (I - P A) dA^T
    return -_mm(_mm(p, dx), p) + _mm(_mm(p, p_t), left) + _mm(right, _mm(p_t, p))

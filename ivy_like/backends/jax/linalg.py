"""jax backend: the array API linalg extension (``jax.numpy.linalg`` is conforming).

Wrappers add the rules of ``ivy_like.ops.linalg``: floating-point input for the
decompositions, the standard's default ``rtol`` (JAX's own is 10x larger), NumPy's reading of
only the lower triangle in ``cholesky``/``eigh``/``eigvalsh`` (JAX symmetrizes by default),
the default integer for ``matrix_rank``, named-tuple results, the upper triangle for
``cholesky(upper=True)`` and, under a transform, the symmetric gradient of the functions that
read one triangle and the derivative of a non-square ``svd`` with full matrices, and
ivy_like's ``LinAlgError`` for a singular matrix given to ``inv``/``solve`` with concrete
values (JAX returns inf/NaN). Tracers pass through otherwise unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, cast

import jax
import jax.numpy as jnp
import numpy as np

from ivy_like.core.registry import OPS
from ivy_like.ops.linalg import EighResult, EigResult, SlogdetResult, SVDResult

from .._common import linalg as _linalg
from . import DEFAULT_INT, _ArrayImpl
from ._helpers import _in_float32


def _float(name: str, x: Any, square: bool = False, matrix: bool = True) -> Any:
    """``x`` as a JAX array (the op's declared check, ops/linalg.py, read its dtype and
    shape)."""
    if not isinstance(x, jax.Array):  # tracers are jax.Array too; asarray costs ~10 µs
        x = jnp.asarray(x)
    return x


def _adjoint(x: Any) -> Any:
    return jnp.conj(jnp.swapaxes(x, -1, -2))


@jax.custom_jvp
def _symmetric_cotangent(x: Any) -> Any:
    """``x`` itself; its tangent is made Hermitian, ``(dX + dX^H) / 2``, and so (the
    transpose of that map) its cotangent, ``(G + G^H) / 2``.

    ``cholesky``, ``eigh`` and ``eigvalsh`` read one triangle; their gradient on every backend
    is the symmetric one (torch's, and JAX's with its default ``symmetrize_input=True``, which
    here would change the forward result of non-symmetric input). A JVP rule, which JAX
    transposes for reverse mode, keeps forward mode (a custom VJP would refuse ``jvp``).
    """
    return x


@_symmetric_cotangent.defjvp
def _hermitian_tangent(primals: tuple[Any], tangents: tuple[Any]) -> tuple[Any, Any]:
    (x,), (dx,) = primals, tangents
    return _symmetric_cotangent(x), (dx + _adjoint(dx)) / 2


_Tracer = jax.core.Tracer


def _one_triangle(name: str, x: Any, build: bool = False) -> Any:
    """``x`` checked as a square float stack; under a transform, with a symmetric cotangent.

    ``build``: under a transform, also pass on the Hermitian matrix of ``x``'s lower triangle
    (the same forward result): JAX's eigh derivative at a non-symmetric input is not the
    symmetric one the other backends give, at the Hermitian matrix it is.
    """
    x = _float(name, x, square=True)
    if not isinstance(x, _Tracer):
        return x
    x = _symmetric_cotangent(x)
    return jnp.tril(x) + _adjoint(jnp.tril(x, -1)) if build else x


_default_rtol = _linalg.default_rtol_for(np.finfo)


# -- in both namespaces ---------------------------------------------------------------------------
matmul = jnp.matmul  # 1-D operands are promoted and squeezed, as in NumPy
matrix_transpose = _linalg.matrix_transpose_for(jnp)
tensordot = _linalg.tensordot_for(jnp)
vecdot = _linalg.vecdot_for(jnp)


# -- linalg ---------------------------------------------------------------------------------------
@_in_float32
def linalg_cholesky(x: Any, /, *, upper: bool = False) -> Any:
    x = _one_triangle("cholesky", x)
    if upper:  # reads the upper triangle, as NumPy does: the lower factor of x^H, adjoined
        lower = jnp.linalg.cholesky(_adjoint(x), symmetrize_input=False)
        return _adjoint(lower)
    return jnp.linalg.cholesky(x, symmetrize_input=False)


linalg_cross = _linalg.cross_for(jnp, jnp.linalg.cross)
linalg_det = _in_float32(_linalg.of_matrix_for(jnp.linalg.det, "det", _float, square=True))
linalg_diagonal = _linalg.diagonal_for(jnp)


def _eig(x: Any) -> list[Any]:
    """Eigenvalues and right eigenvectors, with JAX's eigenvector derivatives opted in.

    ``jnp.linalg.eig`` leaves them off (its derivative then raises ``NotImplementedError``)
    because they hold only for distinct eigenvalues and a loss that does not depend on the
    eigenvectors' phases: the assumptions torch's and TensorFlow's eig derivatives make too,
    which ivy_like states for every backend (``ivy_like.ops.linalg``).
    """
    return jax.lax.linalg.eig(x, compute_left_eigenvectors=False, enable_eigvec_derivs=True)


# eig/eigvals: complex results, so half precision gives complex64 (restore=False).
linalg_eig = _in_float32(restore=False)(_linalg.named_result_for(_eig, "eig", _float, EigResult))
linalg_eigvals = _in_float32(restore=False)(
    _linalg.of_matrix_for(jnp.linalg.eigvals, "eigvals", _float, square=True)
)


@_in_float32
def linalg_eigh(x: Any, /) -> EighResult:
    return EighResult(
        *jnp.linalg.eigh(_one_triangle("eigh", x, build=True), UPLO="L", symmetrize_input=False)
    )


@_in_float32
def linalg_eigvalsh(x: Any, /) -> Any:
    return jnp.linalg.eigvalsh(_one_triangle("eigvalsh", x, build=True), symmetrize_input=False)


_inv = _in_float32(_linalg.of_matrix_for(jnp.linalg.inv, "inv", _float, square=True))


def linalg_inv(x: Any, /) -> Any:
    out = _inv(x)
    if type(out) is _ArrayImpl and not _finite(out):  # concrete: JAX gives inf/NaN, no error
        _raise_if_singular(x, "inv", "x")
    return out


# -- singular matrices (the rule of ivy_like.ops.linalg) -----------------------------------------
# JAX's LU leaves a zero pivot in place and its triangular solves divide by it: an exactly
# singular matrix gives inf or NaN in the result (x / 0), never finite values. So a concrete
# result with only finite values needs nothing more; a non-finite one (from a singular matrix,
# or from inf/NaN input or overflow) has its LU pivots read, which says which. Tracers (jit,
# grad, vmap) carry no values: their result is JAX's.
_ON_CPU = jax.default_backend() == "cpu"
_all_finite = jax.jit(lambda a: jnp.isfinite(a).all())


def _finite(out: Any) -> bool:
    """Whether the concrete ``out`` holds only finite values: on the CPU NumPy reads the buffer
    in place (+3 µs measured on a 64x64 float32 inverse of 51 µs); on an accelerator one
    reduction there, one bool brought back."""
    if _ON_CPU:
        return bool(np.isfinite(np.asarray(out)).all())
    return bool(_all_finite(out))


def _raise_if_singular(x: Any, name: str, arg: str) -> None:
    """LinAlgError when the LU factorization of ``x`` (a stack) has an exactly zero pivot."""
    x = jnp.asarray(x)
    if x.dtype.itemsize == 2 and x.dtype.kind in "fV":  # half precision: computed in float32
        x = x.astype(jnp.float32)
    lu = jax.lax.linalg.lu(x)[0]
    if bool((jnp.diagonal(lu, axis1=-2, axis2=-1) == 0).any()):
        raise _linalg.singular_error(name, arg, x.ndim)


@_in_float32
def linalg_matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:  # noqa: A002
    x = _float("matrix_norm", x)
    if ord == "fro" and isinstance(x, _Tracer):  # gradient 0 at zero (jnp's: NaN)
        a = jnp.abs(x)
        squares = jnp.sum(a * a, axis=(-2, -1), keepdims=keepdims)
        return _linalg.root_zero_grad(squares, jnp.sqrt, jnp.where)
    return jnp.linalg.matrix_norm(x, keepdims=keepdims, ord=ord)


linalg_matrix_power = _in_float32(_linalg.matrix_power_for(jnp.linalg.matrix_power, _float))


@_in_float32(restore=False, default_rtol=True)
def linalg_matrix_rank(x: Any, /, *, rtol: Any = None) -> Any:
    x = _float("matrix_rank", x)
    rtol = _default_rtol(x) if rtol is None else rtol
    # jnp.linalg.matrix_rank compares the singular values with ``rtol`` itself (an absolute
    # cut-off); the standard's cut-off is relative to the largest singular value.
    s = jnp.linalg.svdvals(x)
    if s.shape[-1] == 0:
        return jnp.zeros(s.shape[:-1], DEFAULT_INT)
    cutoff = jnp.expand_dims(jnp.asarray(rtol, s.dtype) * jnp.max(s, axis=-1), -1)
    return jnp.sum(s > cutoff, axis=-1).astype(DEFAULT_INT)


linalg_outer = _linalg.outer_for(jnp, jnp.linalg.outer)
linalg_pinv = _in_float32(default_rtol=True)(_linalg.pinv_for(jnp, _float, _default_rtol))
linalg_qr = _in_float32(_linalg.qr_for(jnp.linalg.qr, _float))
linalg_slogdet = _in_float32(
    _linalg.named_result_for(jnp.linalg.slogdet, "slogdet", _float, SlogdetResult)
)


# Half precision is not here: it takes the checked path, computed in float32.
_INEXACT = frozenset(map(np.dtype, ("float32", "float64", "complex64", "complex128")))


def linalg_solve(x1: Any, x2: Any, /) -> Any:
    if type(x1) is _ArrayImpl and type(x2) is _ArrayImpl:
        # Two concrete arrays: the checks of _checked_solve read dtypes and shapes only, so
        # under jit they run once per signature, at trace time (their errors every call);
        # this measured 7.38 -> 6.8 us beside 6.75 for jnp.linalg.solve on 3x3 float32.
        out = _jitted_solve(x1, x2)
    else:
        out = _checked_solve(x1, x2)
        if type(out) is not _ArrayImpl:
            return out  # traced: no values to check
    if not _finite(out):  # a singular x1 gives inf/NaN (see _raise_if_singular)
        _raise_if_singular(x1, "solve", "x1")
    return out


# solve with ivy_like's checks (JAX itself would promote integers to floats); JAX >= 0.5
# follows the standard: x2 is a vector only when it is 1-D.
_solve_rules = _in_float32(pair=True)(_linalg.checked_solve_for(jnp.linalg.solve, _float))
# solve's declared check runs here, inside the jitted solve: once per signature, at trace time
# (its error on every call, as a failed trace is not cached), not before every call.
CHECKS_IN_KERNEL = {"linalg_solve": "the check runs when the jitted solve is traced"}
_SOLVE_CHECK = cast("Callable[..., None]", OPS["linalg.solve"].check)  # declared in ops/linalg.py


def _checked_solve(x1: Any, x2: Any) -> Any:
    _SOLVE_CHECK(x1, x2)
    return _solve_rules(x1, x2)


_jitted_solve = jax.jit(_checked_solve)


@_in_float32
def linalg_svd(x: Any, /, *, full_matrices: bool = True) -> SVDResult:
    x = _float("svd", x)
    if (
        full_matrices
        and isinstance(x, _Tracer)
        and x.shape[-1] != x.shape[-2]
        and not jnp.iscomplexobj(x)
    ):
        return SVDResult(*_svd_full(x))  # differentiable (JAX's own SVD JVP refuses this)
    return SVDResult(*jnp.linalg.svd(x, full_matrices=full_matrices))


@jax.custom_jvp
def _svd_full(x: Any) -> tuple[Any, Any, Any]:
    """``jnp.linalg.svd(x, full_matrices=True)`` of a non-square ``x``, with a derivative.

    JAX 0.10 has no SVD derivative with full matrices unless ``x`` is square. The derivative
    here, as torch's and TensorFlow's, flows through the first ``k = min(m, n)`` columns of
    ``U`` and rows of ``Vh`` (the others are not unique): their tangents are zero.
    """
    return tuple(jnp.linalg.svd(x, full_matrices=True))


@_svd_full.defjvp
def _svd_full_jvp(primals: tuple[Any], tangents: tuple[Any]) -> tuple[Any, Any]:
    (x,), (dx,) = primals, tangents
    u_full, s, vh_full = out = _svd_full(x)
    m, n = x.shape[-2:]
    k = min(m, n)
    u, v = u_full[..., :, :k], _adjoint(vh_full[..., :k, :])
    # Real input only (complex input keeps JAX's own SVD): with dP = U^T dA V, E_ij = 1/(s_j^2 - s_i^2)
    # off the diagonal, dS = diag(dP), dU = U (E * (dP S + S dP^T)) + (I - U U^T) dA V S^-1,
    # dV = V (E * (S dP + dP^T S)) + (I - V V^T) dA^T U S^-1.
    dp = _adjoint(u) @ dx @ v
    row, col = s[..., None, :], s[..., :, None]  # multiply columns / rows by s
    gaps = (row - col) * (row + col)
    eye = jnp.eye(k, dtype=s.dtype)
    e = (1 - eye) / (gaps + eye)
    ds = jnp.diagonal(dp, axis1=-2, axis2=-1)
    du = u @ (e * (dp * row + col * _adjoint(dp))) + (dx @ v - u @ dp) / row
    dv = v @ (e * (col * dp + _adjoint(dp) * row)) + (_adjoint(dx) @ u - v @ _adjoint(dp)) / row
    du_full = jnp.concatenate([du, jnp.zeros((*du.shape[:-1], m - k), du.dtype)], axis=-1)
    dvh = _adjoint(dv)
    dvh_full = jnp.concatenate([dvh, jnp.zeros((*dvh.shape[:-2], n - k, n), dvh.dtype)], axis=-2)
    return out, (du_full, ds, dvh_full)


linalg_svdvals = _in_float32(
    _linalg.of_matrix_for(jnp.linalg.svdvals, "svdvals", _float, square=False)
)


def linalg_trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
    x = jnp.asarray(x)
    return jnp.linalg.trace(x, offset=offset, dtype=dtype)


@_in_float32
def linalg_vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> Any:  # noqa: A002
    x = _float("vector_norm", x, matrix=False)
    p = float(ord)
    axes = None if axis is None else _linalg.norm_axes(x.ndim, axis)
    if p > 1 and p != math.inf and isinstance(x, _Tracer):  # gradient 0 at zero (jnp's: NaN)
        total = lambda v: jnp.sum(v, axis=axes, keepdims=keepdims)  # noqa: E731
        return _linalg.power_sum_norm(jnp.abs(x), p, total, jnp.sqrt, jnp.where)
    return jnp.linalg.vector_norm(x, axis=axes, keepdims=keepdims, ord=ord)

"""mxnet backend: ``matmul`` and the array API linalg extension.

``matmul`` is NumPy's from ``mx.nd.dot``/``batch_dot``: ``dot`` handles only float32/float64
on the CPU and crashes the process (SIGFPE) on zero-size operands, so float16 is multiplied in
float32, integers exactly by multiply-and-sum, and zero-size products are built directly.

Mapped onto ``mx.nd``: ``matrix_transpose``, ``tensordot`` and ``vecdot`` (through this
backend's ``matmul``/``multiply``/``sum``, so integers stay exact), ``cholesky``
(``mx.nd.linalg.potrf``), ``det``, ``slogdet``, ``inv`` (``mx.nd.linalg.det``/``slogdet``/
``inverse``), ``solve`` (``inverse(x1) @ x2``: MXNet has no general solver; accurate to float32
on well-conditioned systems), ``diagonal``/``trace`` (``mx.nd.diag``), ``outer`` and
``vector_norm``, ``cross`` and ``matrix_power`` (composed from this backend's ops), ``eigh`` and
``eigvalsh`` (``mx.nd.linalg.syevd``, which reads the lower triangle as NumPy does and gives
the eigenvectors as rows).
``mx.nd.linalg`` computes in float32/float64 only: float16 input is computed in
float32 and the result cast back.

MXNet 1.9 has no SVD on the CPU: ``svdvals``, ``pinv``, ``matrix_rank`` and the spectral and
nuclear norms of ``matrix_norm`` come from ``syevd`` of ``[[0, x], [x^T, 0]]``, whose eigenvalues
are the singular values of ``x`` and their negatives (accurate to about ``eps * |x|``, as an
SVD; differentiable), and ``svd`` too, from its eigenvectors ``[u; v] / sqrt(2)``
orthonormalised by ``qr``. ``qr``: Householder reflections in MXNet operators with LAPACK's
sign conventions (MXNet has only the LQ factorisation of full-rank wide matrices).

``eig`` and ``eigvals`` are unsupported: their results are complex, and MXNet has no complex
dtype.
"""

from __future__ import annotations

from typing import Any

import mxnet as mx
import numpy as np

from ivy_like.core.decided_errors import decided
from ivy_like.ops.linalg import (
    EighResult,
    QRResult,
    SlogdetResult,
    SVDResult,
    solve_operands_error,
)

from .._common import linalg as _linalg
from .._common.host import numpy_answer
from . import _BOOL, DEFAULT_INT, NDArray, numpy_shapes
from ._helpers import _broadcast, _broadcast_to, _cast, _in_float32, _no_bool, _operands
from .elementwise import abs as _abs
from .elementwise import multiply as _multiply
from .elementwise import subtract as _subtract
from .manipulation import permute_dims, reshape
from .statistical import max as _max
from .statistical import min as _min
from .statistical import sum as _sum

nd = mx.nd


_NO_COMPLEX = (
    "MXNet 1.9 has no complex dtype, and the eigenvalues and eigenvectors of a general matrix "
    "are complex (the array API gives them a complex dtype even when they are real)"
)
UNSUPPORTED: dict[str, str] = {"linalg_eig": _NO_COMPLEX, "linalg_eigvals": _NO_COMPLEX}
_F16, _F32 = np.dtype("float16"), np.dtype("float32")
# vector_norm and solve: float16 computed in float32 (_in_float32, ivy_like.backends._common.half); the
# functions that go through _float do the same there. MXNet gives dtypes as NumPy types.


def _float(name: str, x: Any, square: bool = False) -> tuple[Any, np.dtype]:
    """``x`` in a dtype ``mx.nd.linalg`` computes in, and the dtype to return."""
    dt = np.dtype(x.dtype)  # checked by the op's declared check (ops/linalg.py)
    return (_cast(x, _F32) if dt == _F16 else x), dt


def _swap_last(x: Any) -> Any:
    axes = list(range(x.ndim))
    axes[-2], axes[-1] = axes[-1], axes[-2]
    return nd.transpose(x, axes=tuple(axes))


# -- in both namespaces ---------------------------------------------------------------------------
def _matmul_2d_batched(a: Any, b: Any, dt: np.dtype) -> Any:
    """(..., n, k) @ (..., k, m) with broadcast batch dimensions."""
    batch = np.broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    n, k, m = a.shape[-2], a.shape[-1], b.shape[-1]
    if 0 in (n, k, m) or 0 in batch:  # MXNet's dot dies with SIGFPE on zero-size operands
        return nd.zeros(batch + (n, m), dtype=dt)
    if dt.kind != "f":  # exact integer products: multiply and sum (dot is float-only)
        prod = nd.broadcast_mul(a.expand_dims(-1), b.expand_dims(-3))
        return _cast(nd.sum(prod, axis=-2), dt)
    work = np.dtype("float32") if dt == np.float16 else dt  # CPU dot: float32/float64 only
    a, b = _cast(a, work), _cast(b, work)
    if not batch:
        return _cast(nd.dot(a, b), dt)
    a = _broadcast_to(a, batch + (n, k)).reshape((-1, n, k))
    b = _broadcast_to(b, batch + (k, m)).reshape((-1, k, m))
    return _cast(nd.batch_dot(a, b).reshape(batch + (n, m)), dt)


@numpy_shapes
def matmul(x1: Any, x2: Any, /) -> Any:
    """NumPy's ``matmul`` from ``mx.nd.dot``/``batch_dot``.

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> from ivy_like.backends.mxnet import linalg
    >>> B.to_numpy(linalg.matmul(mx.nd.array([[1, 2], [3, 4]], dtype="int64"), mx.nd.array([1, 1], dtype="int64")))
    array([3, 7])
    """
    if not (isinstance(x1, NDArray) and isinstance(x2, NDArray)):
        raise TypeError("matmul: both operands must be arrays (no Python scalars)")
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("matmul: operands must have at least one dimension")
    if 0 in x1.shape or 0 in x2.shape:  # MXNet infers no shape with a 0: NumPy's answer
        return numpy_answer("mxnet", "matmul", x1, x2)
    (a, b), dt = _operands("matmul", x1, x2)
    a, b = _no_bool(a), _no_bool(b)
    a = a.reshape((1,) + tuple(a.shape)) if x1.ndim == 1 else a  # a row vector...
    b = b.reshape(tuple(b.shape) + (1,)) if x2.ndim == 1 else b  # ...and a column vector
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"matmul: inner dimensions differ ({a.shape[-1]} and {b.shape[-2]})")
    out = _matmul_2d_batched(a, b, np.dtype(a.dtype))
    shp = tuple(out.shape)
    if x2.ndim == 1:
        shp = shp[:-1]
    if x1.ndim == 1:
        shp = shp[:-2] + shp[-1:] if x2.ndim > 1 else shp[:-1]
    out = out.reshape(shp) if shp != tuple(out.shape) else out
    return out.astype(_BOOL) if dt == _BOOL else out


@numpy_shapes
def matrix_transpose(x: Any, /) -> Any:
    return _swap_last(x)


def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
    a1, a2 = _linalg.tensordot_axes(axes, x1.ndim, x2.ndim)
    free1 = [i for i in range(x1.ndim) if i not in a1]
    free2 = [i for i in range(x2.ndim) if i not in a2]
    for i, j in zip(a1, a2):
        if x1.shape[i] != x2.shape[j]:
            raise ValueError(
                f"tensordot: contracted sizes differ ({x1.shape[i]} and {x2.shape[j]})"
            )
    k = int(np.prod([x1.shape[i] for i in a1], dtype=np.int64))
    out_shape = tuple(x1.shape[i] for i in free1) + tuple(x2.shape[j] for j in free2)
    m = int(np.prod([x1.shape[i] for i in free1], dtype=np.int64))
    n = int(np.prod([x2.shape[j] for j in free2], dtype=np.int64))
    left = reshape(permute_dims(x1, tuple(free1) + tuple(a1)), (m, k))
    right = reshape(permute_dims(x2, tuple(a2) + tuple(free2)), (k, n))
    return reshape(matmul(left, right), out_shape)


def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    axis = _linalg.vector_axis("vecdot", tuple(x1.shape), tuple(x2.shape), axis)
    product = _multiply(x1, x2)  # real dtypes only: MXNet has no complex
    return _sum(product, axis=axis, dtype=np.dtype(product.dtype))


# -- linalg ---------------------------------------------------------------------------------------
@numpy_shapes
def linalg_cholesky(x: Any, /, *, upper: bool = False) -> Any:
    x, dt = _float("cholesky", x, square=True)
    if upper:  # reads the upper triangle, as NumPy does: the lower factor of x^T, transposed
        return _cast(_swap_last(nd.linalg.potrf(_swap_last(x))), dt)
    return _cast(nd.linalg.potrf(x), dt)


@numpy_shapes
def linalg_det(x: Any, /) -> Any:
    if 0 in x.shape:  # MXNet's is garbage (1.4e17 for a 0x0 matrix): NumPy's answer
        return numpy_answer("mxnet", "linalg_det", x)
    x, dt = _float("det", x, square=True)
    return _cast(nd.linalg.det(x).reshape(tuple(x.shape[:-2])), dt)


@numpy_shapes
def linalg_slogdet(x: Any, /) -> SlogdetResult:
    if 0 in x.shape:  # MXNet's is garbage (1.4e17 for a 0x0 matrix): NumPy's answer
        return numpy_answer("mxnet", "linalg_slogdet", x)
    x, dt = _float("slogdet", x, square=True)
    sign, logabsdet = nd.linalg.slogdet(x)
    batch = tuple(x.shape[:-2])
    sign = sign.reshape(batch) + 0  # + 0: MXNet gives -0 as the sign of a singular matrix
    return SlogdetResult(_cast(sign, dt), _cast(logabsdet.reshape(batch), dt))


@numpy_shapes
def linalg_eigh(x: Any, /) -> EighResult:
    x, dt = _float("eigh", x, square=True)
    rows, values = _syevd(x)
    return EighResult(_cast(values, dt), _cast(_swap_last(rows), dt))


@numpy_shapes
def linalg_eigvalsh(x: Any, /) -> Any:
    x, dt = _float("eigvalsh", x, square=True)
    return _cast(_syevd(x)[1], dt)


def _syevd(x: Any) -> tuple[Any, Any]:
    """``(eigenvectors as rows, ascending eigenvalues)`` of the lower triangle of ``x``.

    ``mx.nd.linalg.syevd`` (LAPACK's, differentiable) refuses zero-size input: empty results
    of the right shapes are made here.
    """
    if x.size == 0:
        n = x.shape[-1]
        return (
            nd.zeros(tuple(x.shape), ctx=x.context, dtype=x.dtype),
            nd.zeros(tuple(x.shape[:-2]) + (n,), ctx=x.context, dtype=x.dtype),
        )
    return nd.linalg.syevd(x)


@numpy_shapes
def _inverse(x: Any, name: str, arg: str) -> Any:
    """``nd.linalg.inverse`` of the square float stack ``x``, waited for: MXNet reports a
    singular matrix (LAPACK's zero pivot) only when the result is read, and a second read
    gives garbage without an error. That error becomes ivy_like's LinAlgError."""
    x, dt = _float(name, x, square=True)
    out = nd.linalg.inverse(x)
    try:
        out.wait_to_read()
    except mx.base.MXNetError as e:
        if "non-convertible" not in str(e):
            raise
        raise _linalg.singular_error(name, arg, x.ndim) from e
    return _cast(out, dt)


def linalg_inv(x: Any, /) -> Any:
    return _inverse(x, "inv", "x")


@_in_float32(pair=True)
def linalg_solve(x1: Any, x2: Any, /) -> Any:
    (x1, x2), _ = _operands("solve", x1, x2)
    error = solve_operands_error(x1, x2)  # MXNet reports a bad shape only when it is read
    if error is not None:
        raise decided(error)
    # A 1-D x2 is a vector, as the standard reads it.
    return matmul(_inverse(x1, "solve", "x1"), x2)


@numpy_shapes
def linalg_diagonal(x: Any, /, *, offset: int = 0) -> Any:
    rows, cols = x.shape[-2:]
    if not -rows < offset < cols:  # MXNet raises "Diagonal does not exist"
        return nd.zeros(tuple(x.shape[:-2]) + (0,), ctx=x.context, dtype=x.dtype)
    return nd.diag(x, k=offset, axis1=x.ndim - 2, axis2=x.ndim - 1)


def linalg_trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
    if 0 in x.shape:  # MXNet cannot take the diagonals of an empty stack: NumPy's answer
        return numpy_answer("mxnet", "linalg_trace", x, offset=offset, dtype=dtype)
    diag = linalg_diagonal(x, offset=offset)
    if diag.shape[-1] == 0:  # MXNet cannot reduce zero-size arrays: sum one zero instead
        diag = nd.zeros(tuple(diag.shape[:-1]) + (1,), ctx=x.context, dtype=x.dtype)
    return _sum(diag, axis=-1, dtype=dtype)


def linalg_outer(x1: Any, x2: Any, /) -> Any:
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("linalg.outer: x1 and x2 must be one-dimensional")
    return _multiply(reshape(x1, (-1, 1)), reshape(x2, (1, -1)))


@numpy_shapes
@_in_float32
def linalg_vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> Any:  # noqa: A002
    p = float(ord)
    axes = tuple(range(x.ndim)) if axis is None else _linalg.norm_axes(x.ndim, axis)
    a = _abs(x)
    if p == float("inf"):
        return _max(a, axis=axes, keepdims=keepdims)
    if p == float("-inf"):
        return _min(a, axis=axes, keepdims=keepdims)
    if p == 0:
        return _sum((a != 0).astype(x.dtype), axis=axes, keepdims=keepdims)
    where = nd.where if mx.autograd.is_recording() else None  # the zero-gradient guard
    with np.errstate(divide="ignore"):
        return _linalg.power_sum_norm(
            a, p, lambda v: _sum(v, axis=axes, keepdims=keepdims), nd.sqrt, where
        )


@numpy_shapes
def linalg_cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    axis = _linalg.vector_axis("linalg.cross", tuple(x1.shape), tuple(x2.shape), axis)
    if x1.shape[axis] != 3:
        raise ValueError("linalg.cross: the vectors must have 3 elements along axis")
    (a, b), _ = _operands("linalg.cross", x1, x2)
    a, b = _broadcast([a, b])
    ax = a.ndim + axis
    (a0, a1, a2), (b0, b1, b2) = (
        [nd.slice_axis(v, axis=ax, begin=i, end=i + 1) for i in range(3)] for v in (a, b)
    )
    parts = (
        _subtract(_multiply(a1, b2), _multiply(a2, b1)),
        _subtract(_multiply(a2, b0), _multiply(a0, b2)),
        _subtract(_multiply(a0, b1), _multiply(a1, b0)),
    )
    return nd.concat(*parts, dim=ax)


@numpy_shapes
def linalg_matrix_power(x: Any, n: int, /) -> Any:
    x, dt = _float("matrix_power", x, square=True)
    if n < 0:
        x, n = nd.linalg.inverse(x), -n
    size = x.shape[-1]
    result = nd.broadcast_to(
        nd.eye(size, ctx=x.context, dtype=x.dtype).reshape((1,) * (x.ndim - 2) + (size, size)),
        tuple(x.shape),
    )
    base = x
    while n:  # binary powering: log2(n) products
        if n & 1:
            result = matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return _cast(result, dt)


# -- from the singular values ---------------------------------------------------------------------
# MXNet 1.9 has no SVD on the CPU. The symmetric matrix H = [[0, x], [x^T, 0]] of size m + n
# has the eigenvalues +s_i and -s_i for the singular values s_i of x, and |m - n| zeros, with
# the eigenvectors [u_i; +-v_i] / sqrt(2) (Golub and Van Loan, the Jordan-Wielandt matrix).
# syevd, a backward-stable LAPACK eigensolver that MXNet differentiates, gives them to an
# absolute error of about eps * |x|, the accuracy of an SVD's singular values. pinv needs only
# the pairs above its cutoff; svd (below) re-orthogonalises the vectors, as those of zero
# singular values mix in the zero eigenspace.


def _jordan_wielandt(x: Any) -> tuple[Any, Any]:
    """``(eigenvectors as rows, ascending eigenvalues)`` of ``[[0, x], [x^T, 0]]``."""
    m, n = x.shape[-2:]
    batch = tuple(x.shape[:-2])
    last = x.ndim - 1

    def zeros(k: int) -> Any:
        return nd.zeros(batch + (k, k), ctx=x.context, dtype=x.dtype)

    top = nd.concat(zeros(m), x, dim=last)
    bottom = nd.concat(_swap_last(x), zeros(n), dim=last)
    return nd.linalg.syevd(nd.concat(top, bottom, dim=last - 1))


def _svdvals(x: Any) -> Any:
    """Descending singular values of a float32/float64 stack (the largest eigenvalues of H)."""
    m, n = x.shape[-2:]
    k = min(m, n)
    if x.size == 0:
        return nd.zeros(tuple(x.shape[:-2]) + (k,), ctx=x.context, dtype=x.dtype)
    _, values = _jordan_wielandt(x)
    last = values.ndim - 1  # MXNet's slice_axis and flip take non-negative axes
    top = nd.slice_axis(values, axis=last, begin=m + n - k, end=m + n)
    # Zero singular values come out as +-eps * |x|: clamped at 0 (monotone, so still sorted).
    return nd.flip(nd.relu(top), axis=last)


@numpy_shapes
def linalg_svdvals(x: Any, /) -> Any:
    x, dt = _float("svdvals", x)
    return _cast(_svdvals(x), dt)


@numpy_shapes
def linalg_matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:  # noqa: A002
    x, dt = _float("matrix_norm", x)
    if ord == "fro":  # gradient 0 at a zero matrix (where recorded), as on every backend
        squares = _sum(nd.square(x), axis=(-2, -1))
        recording = mx.autograd.is_recording()
        out = _linalg.root_zero_grad(squares, nd.sqrt, nd.where) if recording else nd.sqrt(squares)
    elif ord in (1, -1, float("inf"), float("-inf")):
        # The largest (smallest) absolute column sum for 1 (-1), row sum for inf (-inf).
        sums = _sum(_abs(x), axis=-2 if ord in (1, -1) else -1)
        out = (_max if ord > 0 else _min)(sums, axis=-1)
    else:  # 2, -2, "nuc"
        out = {2: _max, -2: _min, "nuc": _sum}[ord](_svdvals(x), axis=-1)
    if keepdims:
        out = out.reshape(tuple(out.shape) + (1, 1))
    return _cast(out, dt)


def _cutoff(x: Any, largest: Any, rtol: Any) -> Any:
    """``rtol * largest`` (``largest`` with a trailing axis); ``rtol`` a float or an array over
    the stack (default: ``max(M, N) * eps`` of the dtype, as on every backend)."""
    if rtol is None:
        rtol = max(x.shape[-2:]) * float(np.finfo(np.dtype(x.dtype)).eps)
    if not isinstance(rtol, NDArray):
        return largest * rtol
    rtol = _cast(rtol, np.dtype(x.dtype))
    return nd.broadcast_mul(largest, rtol.reshape(tuple(rtol.shape) + (1,)))


@_in_float32(restore=False, default_rtol=True)
@numpy_shapes
def linalg_matrix_rank(x: Any, /, *, rtol: Any = None) -> Any:
    x, _ = _float("matrix_rank", x)
    s = _svdvals(x)
    if s.shape[-1] == 0:
        return nd.zeros(tuple(s.shape[:-1]), ctx=x.context, dtype=DEFAULT_INT)
    largest = _max(s, axis=-1, keepdims=True)
    above = nd.broadcast_greater(s, _cutoff(x, largest, rtol))  # 0.0 / 1.0 in s's dtype
    return _sum(above.astype(DEFAULT_INT), axis=-1)


@_in_float32(default_rtol=True)
@numpy_shapes
def linalg_pinv(x: Any, /, *, rtol: Any = None) -> Any:
    x, _ = _float("pinv", x)
    m, n = x.shape[-2:]
    if x.size == 0:
        return nd.zeros(tuple(x.shape[:-2]) + (n, m), ctx=x.context, dtype=x.dtype)
    rows, values = _jordan_wielandt(x)
    last = values.ndim - 1
    # Each pair (+s, [u; v] / sqrt 2) above the cutoff adds v u^T / s: with both halves of
    # the eigenvector that is 2 * bottom @ top^T / s, summed over the kept eigenvalues.
    largest = nd.slice_axis(values, axis=last, begin=m + n - 1, end=m + n)
    kept = nd.broadcast_greater(values, _cutoff(x, largest, rtol))
    safe = nd.where(kept, values, nd.ones_like(values))  # no 1/0 (its gradient would be NaN)
    weights = nd.where(kept, 1 / safe, nd.zeros_like(values))
    vectors = _swap_last(rows)  # eigenvectors as columns
    top = nd.slice_axis(vectors, axis=last, begin=0, end=m)
    bottom = nd.slice_axis(vectors, axis=last, begin=m, end=m + n)
    scaled = nd.broadcast_mul(bottom, nd.expand_dims(weights, axis=last))
    return 2 * matmul(scaled, _swap_last(top))


# -- qr -------------------------------------------------------------------------------------------
# MXNet has only the LQ factorisation (gelqf) of full-rank wide matrices. QR is composed here
# from Householder reflections in MXNet operators, with LAPACK's geqrf conventions (the
# reflection of column k maps it to beta * e_k with beta = -sign(a_kk) * |column|, none where
# the column is already zero below the diagonal), so Q and R carry the same signs as NumPy's
# and torch's, and MXNet's autograd differentiates it. min(m - 1, n) steps of a few
# operators each: for the small matrices the array API is used with, not a LAPACK substitute.
# Where a column is already zero below the diagonal (triangular input, the identity) LAPACK's
# convention takes no reflection and is not differentiable (a small tail would flip the sign
# of R's diagonal): the gradient there treats the column as settled and is finite, where the
# analytic formula of torch, JAX and the mlx backend continues the other branch.


def _householder_qr(x: Any, complete: bool) -> tuple[Any, Any]:
    m, n = x.shape[-2:]
    k = min(m, n)
    batch = tuple(x.shape[:-2])
    ctx, dtype = x.context, x.dtype
    q_shape = batch + (m, m if complete else k)
    eye = np.broadcast_to(np.eye(*q_shape[-2:]), q_shape)  # Q before any reflection
    if x.size == 0:
        r_rows = m if complete else k
        return nd.array(eye, ctx=ctx, dtype=dtype), nd.zeros(
            batch + (r_rows, n), ctx=ctx, dtype=dtype
        )
    axis = x.ndim - 2  # the row axis (MXNet's slice_axis takes no negative axis)
    rows = nd.arange(m, ctx=ctx, dtype=dtype).reshape((m, 1))
    r = x
    reflections = []
    for j in range(min(m - 1, n)):
        at = rows == j  # (m, 1) masks of row j and the rows below it
        below = rows > j
        column = nd.slice_axis(r, axis=axis + 1, begin=j, end=j + 1)  # (..., m, 1)
        alpha = nd.sum(nd.broadcast_mul(column, at), axis=axis, keepdims=True)
        tail = nd.broadcast_mul(column, below)
        sumsq = nd.sum(nd.square(tail), axis=axis, keepdims=True)
        reflects = sumsq > 0  # a zero tail: no reflection (LAPACK's tau = 0)
        zero, one = nd.zeros_like(alpha), nd.ones_like(alpha)
        norm = nd.sqrt(nd.square(alpha) + sumsq)
        beta = nd.where(alpha >= 0, -norm, norm)  # -sign(alpha) |column|, sign(0) = +1
        # Without a reflection the divisions below see 1, not 0 (nor alpha - 1, which is 0
        # for a column of the identity): a 1/0 in the branch where does not take would
        # still make its gradient NaN.
        safe_beta = nd.where(reflects, beta, one)
        gap = nd.where(reflects, alpha - beta, one)  # |alpha - beta| >= |column| > 0
        v = nd.broadcast_add(nd.broadcast_mul(tail, nd.where(reflects, 1 / gap, zero)), at)
        tau = nd.where(reflects, (safe_beta - alpha) / safe_beta, zero)
        reflections.append((v, tau))
        r = _reflect(r, v, tau, axis)
    cols = nd.arange(n, ctx=ctx, dtype=dtype).reshape((1, n))
    r = nd.broadcast_mul(r, nd.broadcast_greater_equal(cols, rows))  # exact zeros below
    q = nd.array(eye, ctx=ctx, dtype=dtype)
    for v, tau in reversed(reflections):  # Q = H_0 H_1 ... H_last, applied to I's columns
        q = _reflect(q, v, tau, axis)
    return q, (r if complete else nd.slice_axis(r, axis=axis, begin=0, end=k))


def _reflect(a: Any, v: Any, tau: Any, axis: int) -> Any:
    """``(I - tau v v^T) a`` for column vectors ``v`` along ``axis``."""
    projection = nd.sum(nd.broadcast_mul(v, a), axis=axis, keepdims=True)
    return a - nd.broadcast_mul(nd.broadcast_mul(tau, v), projection)


@_in_float32
@numpy_shapes
def linalg_qr(x: Any, /, *, mode: str = "reduced") -> QRResult:
    x, _ = _float("qr", x)
    return QRResult(*_householder_qr(x, mode == "complete"))


# -- svd ------------------------------------------------------------------------------------------
# The singular vectors come from the same eigendecomposition as svdvals: the eigenvector of
# +s_i is [u_i; v_i] / sqrt(2), accurate to about eps * |x| / gap (an SVD's bound). The
# Householder QR of [u_1 .. u_k] (and of the v_i) re-orthogonalises them, moving each by that
# error, keeps their signs and completes them to a basis. For a zero s_i the halves of its
# eigenvector are not singular vectors (the zero eigenvalues mix), but any orthonormal pair is
# right there and s_i u_i v_i^T stays at rounding level: measured on 600 random matrices with
# singular values from 1e-6 to 1e2, zeros included, U S Vh within a few eps of x (below).
# The columns past min(m, n) carry no gradient (not unique; torch's rule).


def _orthonormal_completion(vectors: Any) -> Any:
    """An orthogonal ``(..., d, d)`` whose first columns are ``vectors`` orthonormalised."""
    d = vectors.shape[-2]
    q, r = _householder_qr(vectors, complete=True)
    # The diagonal of R holds +-|u_i|: its sign turns Q's columns back into the u_i.
    k = vectors.shape[-1]
    diag = nd.sum(nd.broadcast_mul(r, nd.eye(d, k, ctx=r.context, dtype=r.dtype)), axis=r.ndim - 2)
    signs = nd.where(diag < 0, -nd.ones_like(diag), nd.ones_like(diag))  # (..., k)
    if d > k:
        ones = nd.ones(tuple(signs.shape[:-1]) + (d - k,), ctx=r.context, dtype=r.dtype)
        signs = nd.concat(signs, ones, dim=signs.ndim - 1)
    return nd.broadcast_mul(q, nd.expand_dims(signs, axis=signs.ndim - 1))


def _svd(x: Any, full_matrices: bool) -> tuple[Any, Any, Any]:
    m, n = x.shape[-2:]
    k = min(m, n)
    batch = tuple(x.shape[:-2])
    if x.size == 0:
        u_cols, v_rows = (m, n) if full_matrices else (k, k)
        u = nd.array(
            np.broadcast_to(np.eye(m, u_cols), batch + (m, u_cols)), ctx=x.context, dtype=x.dtype
        )
        vh = nd.array(
            np.broadcast_to(np.eye(v_rows, n), batch + (v_rows, n)), ctx=x.context, dtype=x.dtype
        )
        return u, nd.zeros(batch + (k,), ctx=x.context, dtype=x.dtype), vh
    rows, values = _jordan_wielandt(x)
    last = values.ndim - 1
    s = nd.flip(nd.relu(nd.slice_axis(values, axis=last, begin=m + n - k, end=m + n)), axis=last)
    top = nd.flip(
        nd.slice_axis(rows, axis=last, begin=m + n - k, end=m + n), axis=last
    )  # (..., k, m+n)
    pairs = _swap_last(top) * np.sqrt(2.0)  # (..., m + n, k): [u_i; v_i] as columns
    u_raw = nd.slice_axis(pairs, axis=last, begin=0, end=m)
    v_raw = nd.slice_axis(pairs, axis=last, begin=m, end=m + n)
    u, v = _orthonormal_completion(u_raw), _orthonormal_completion(v_raw)
    u, vh = _first_columns(u, k, full_matrices), _swap_last(_first_columns(v, k, full_matrices))
    return u, s, vh


def _first_columns(q: Any, k: int, full: bool) -> Any:
    """``q[..., :k]``, or all of ``q`` with the columns past ``k`` cut from the gradient."""
    last = q.ndim - 1
    head = nd.slice_axis(q, axis=last, begin=0, end=k)
    if not full or q.shape[-1] == k:
        return head
    tail = nd.stop_gradient(nd.slice_axis(q, axis=last, begin=k, end=q.shape[-1]))
    return nd.concat(head, tail, dim=last)


@_in_float32
@numpy_shapes
def linalg_svd(x: Any, /, *, full_matrices: bool = True) -> SVDResult:
    x, _ = _float("svd", x)
    return SVDResult(*_svd(x, full_matrices))

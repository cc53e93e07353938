"""mlx backend: the array API linalg extension on ``mlx.core.linalg``.

MLX's decompositions (cholesky, eigh, inv, qr, svd, solve, det, slogdet...) run only on the
CPU stream, so they are called with ``stream=mx.cpu`` (a GPU array is read there and the
result used anywhere, as MLX has unified memory). Real float32 and float64 work; complex
input to the decompositions is a ``TypeError`` here (MLX has no complex ``inv``/``solve``/
``qr``..., and half of a family working would be a trap).

Composed from MLX ops where MLX lacks the array API form: ``pinv`` with ``rtol`` (MLX's pinv
has no cutoff), ``matrix_rank``, ``svd(full_matrices=False)`` (MLX returns full matrices),
``qr(mode="complete")`` (MLX returns the reduced form: the complete Q comes from the QR of
``[x | I]``, whose first columns are those of ``x``'s Householder QR), ``solve`` with
broadcast batch dimensions, ``vector_norm``, ``matrix_power``, and ``matmul``, ``tensordot``
and ``vecdot`` of integers (``mx.matmul`` rejects them).

``inv`` and ``solve`` evaluate their result, so that a singular matrix is ivy_like's
``LinAlgError`` in the call (MLX reports it only at evaluation; see ``_evaluated``).

Gradients: MLX 0.32 cannot differentiate ``inv``, ``solve``, ``cholesky``, ``eigh``,
``eigvalsh``, ``svd`` or ``qr``, in either mode; ``_linalg_vjp`` gives them and ``pinv`` VJPs
and JVPs (so ``matrix_power`` with n < 0, ``svdvals`` and ``matrix_norm`` of ord 2, -2 and
'nuc' too), which compose to second order.
``eig`` and ``eigvals`` have none (a ``NotImplementedError`` under ``grad`` and ``jvp``), and
refuse float64 input: their results are complex and MLX has no complex128.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, cast

import mlx.core as mx

from ivy_like.core.registry import OPS
from ivy_like.ops.linalg import EighResult, EigResult, QRResult, SlogdetResult, SVDResult

from .._common import linalg as _linalg
from .._common.host import numpy_answer
from . import _INEXACT, DEFAULT_INT
from . import _linalg_vjp as _vjp
from ._helpers import _float_sum, _in_float32
from .statistical import sum as _sum

# _in_float32 (from _helpers): float16/bfloat16 computed in float32, the
# rule of ivy_like.backends._common.half.

_CPU = mx.cpu


_FLOAT32 = mx.float32


def _float(name: str, x: Any, square: bool = False, matrix: bool = True) -> Any:
    """``x`` as it is, after the op's declared check (ops/linalg.py): MLX's linalg has no
    complex kernels but for the norms."""
    if x.dtype == mx.complex64 and name not in ("matrix_norm", "vector_norm"):
        raise TypeError(f"linalg.{name}: complex input is not supported by the mlx backend")
    return x


def _empty(name: str, *arrays: Any, **kwargs: Any) -> Any:
    """NumPy's answer for arrays of which one holds no element: MLX's kernels crash on some
    (``inv`` and ``solve`` of a 0x0 matrix die of SIGFPE) and refuse others (``pinv``: "Cannot
    max reduce over axis 0 with size 0"), so none is reached with one."""
    return numpy_answer("mlx", f"linalg_{name}", *arrays, **kwargs)


def _guarded(name: str, kernel: Any) -> Any:
    """``kernel`` (one array argument) with :func:`_empty` for an empty array."""

    def guarded(x: Any, /, *args: Any, **kwargs: Any) -> Any:
        if x.size == 0:
            return _empty(name, x, *args, **kwargs)
        return kernel(x, *args, **kwargs)

    return guarded


def _mT(x: Any) -> Any:
    return mx.swapaxes(x, -1, -2)


def _eps(x: Any) -> float:
    return float(mx.finfo(x.dtype).eps)


def _svdvals(x: Any) -> Any:
    return mx.linalg.svd(x, compute_uv=False, stream=_CPU)


def _cutoff(x: Any, s: Any, rtol: Any) -> Any:
    """``rtol * largest singular value`` with a trailing axis, for comparing with ``s``."""
    if rtol is None:
        rtol = max(x.shape[-2:]) * _eps(x)
    rtol = mx.array(rtol, dtype=s.dtype) if not isinstance(rtol, mx.array) else rtol
    return mx.expand_dims(rtol.astype(s.dtype), -1) * mx.max(s, axis=-1, keepdims=True)


# -- in both namespaces ---------------------------------------------------------------------------
def matmul(x1: Any, x2: Any, /) -> Any:
    """``mx.matmul``; integer and bool operands (which it rejects) via exact multiply-and-sum.

    Examples
    --------
    >>> import mlx.core as mx
    >>> from ivy_like.backends.mlx import linalg as B
    >>> B.matmul(mx.array([[1, 2], [3, 4]]), mx.array([1, 1]))
    array([3, 7], dtype=int32)
    """
    try:
        # Floating operands (the common call) pass; MLX raises ValueError for integer and
        # bool ones, handled below, and for shapes NumPy refuses too (raised again below).
        return mx.matmul(x1, x2)
    except ValueError:
        pass
    if not (isinstance(x1, mx.array) and isinstance(x2, mx.array)):
        return mx.matmul(x1, x2)  # a scalar operand: MLX raises, as NumPy does
    if x1.dtype in _INEXACT or x2.dtype in _INEXACT:
        return mx.matmul(x1, x2)
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("matmul: operands must have at least one dimension")
    a = x1[None] if x1.ndim == 1 else x1  # NumPy: a 1-D left operand is a row vector...
    b = x2[:, None] if x2.ndim == 1 else x2  # ...and a 1-D right operand a column vector
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"matmul: inner dimensions differ ({a.shape[-1]} and {b.shape[-2]})")
    products = mx.expand_dims(a, -1) * mx.expand_dims(b, -3)  # (..., n, k, m)
    out = mx.sum(products, axis=-2).astype(products.dtype)
    if x2.ndim == 1:
        out = out.squeeze(-1)
    if x1.ndim == 1:
        out = out.squeeze(-2 if x2.ndim > 1 else -1)
    return out


def matrix_transpose(x: Any, /) -> Any:
    return _mT(x)


def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
    a1, a2 = _linalg.tensordot_axes(axes, x1.ndim, x2.ndim)
    if x1.dtype in _INEXACT or x2.dtype in _INEXACT:
        return mx.tensordot(x1, x2, axes=[list(a1), list(a2)])
    # Integers: contract with this backend's exact integer matmul.
    free1 = [i for i in range(x1.ndim) if i not in a1]
    free2 = [i for i in range(x2.ndim) if i not in a2]
    k = math.prod(x1.shape[i] for i in a1)
    left = mx.transpose(x1, [*free1, *a1]).reshape(-1, k)
    right = mx.transpose(x2, [*a2, *free2]).reshape(k, -1)
    shape = [x1.shape[i] for i in free1] + [x2.shape[i] for i in free2]
    return matmul(left, right).reshape(shape)


def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    axis = _linalg.vector_axis("vecdot", tuple(x1.shape), tuple(x2.shape), axis)
    prod = mx.conj(x1) * x2 if x1.dtype == mx.complex64 else x1 * x2
    return _float_sum(prod, axis, False).astype(prod.dtype)  # MLX widens small ints in sums


# -- linalg ---------------------------------------------------------------------------------------
@_in_float32
def linalg_cholesky(x: Any, /, *, upper: bool = False) -> Any:
    if x.size == 0:
        return _empty("cholesky", x, upper=upper)
    x = _float("cholesky", x, square=True)
    # upper=True reads the upper triangle, as NumPy does: the lower factor of x^T, transposed.
    return _mT(_vjp.cholesky(_mT(x))) if upper else _vjp.cholesky(x)


def linalg_cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    axis = _linalg.vector_axis("linalg.cross", tuple(x1.shape), tuple(x2.shape), axis)
    if x1.shape[axis] != 3:
        raise ValueError("linalg.cross: the vectors must have 3 elements along axis")
    return mx.linalg.cross(x1, x2, axis=axis)


@_in_float32
def linalg_det(x: Any, /) -> Any:
    if x.size == 0:
        return _empty("det", x)
    return mx.linalg.det(_float("det", x, square=True), stream=_CPU)


def linalg_diagonal(x: Any, /, *, offset: int = 0) -> Any:
    shape = tuple(x.shape)
    rows, cols = shape[-2:]
    if min(rows + min(offset, 0), cols - max(offset, 0)) <= 0:
        # An empty diagonal is built directly. MLX 0.32's empty diagonal *view* makes a later
        # reduction over it (trace) loop on stale strides: 10-25 s, minutes at worst, per call,
        # once torch, TensorFlow and JAX are loaded in the same process.
        return mx.zeros((*shape[:-2], 0), dtype=x.dtype)
    return mx.diagonal(x, offset, -2, -1)


def _eig_input(name: str, x: Any, square: bool = False, matrix: bool = True) -> Any:
    """``x`` for eig/eigvals: their results are complex, and MLX has only complex64, so
    float64 input is a TypeError rather than a silent loss of precision (as for the FFTs)."""
    if x.dtype == getattr(mx, "float64", None):
        raise TypeError(
            f"linalg.{name}: the mlx backend has no complex128 for the eigenvalues of float64 "
            "input; convert it to float32 explicitly"
        )
    return _float(name, x, square, matrix)


# eig/eigvals: complex results, so half precision gives complex64 (restore=False). No
# gradient: _linalg_vjp's raise NotImplementedError under grad.
linalg_eig = _in_float32(restore=False)(
    _linalg.named_result_for(_vjp.eig, "eig", _eig_input, EigResult)
)
linalg_eigvals = _in_float32(restore=False)(
    _linalg.of_matrix_for(_vjp.eigvals, "eigvals", _eig_input, square=True)
)
linalg_eigh = _guarded(
    "eigh", _in_float32(_linalg.named_result_for(_vjp.eigh, "eigh", _float, EighResult))
)
linalg_eigvalsh = _guarded(
    "eigvalsh",
    _in_float32(_linalg.of_matrix_for(_vjp.eigvalsh, "eigvalsh", _float, square=True)),
)


@_in_float32
def linalg_inv(x: Any, /) -> Any:
    if x.size == 0:
        return _empty("inv", x)
    x = _float("inv", x, square=True)
    return _evaluated(_vjp.inv(x), x, "inv", "x")


def _evaluated(out: Any, x: Any, name: str, arg: str) -> Any:
    """``out`` (the inverse of ``x``, or a solution with ``x`` as ``x1``), evaluated.

    MLX reports a singular matrix (a zero pivot of LAPACK's LU) only when the result is
    evaluated, as a RuntimeError, and ``numpy.asarray`` of that result gives garbage with no
    error at all: so the result is evaluated here, and that error becomes ivy_like's
    LinAlgError once ``x``'s own LU shows the zero pivot. (An evaluation MLX makes later
    anyway when the result is read: +0.3 µs on a 64x64 inverse, see ``docs/design.md``.)
    Inside ``mx.compile``/``mx.vmap`` nothing can be evaluated: ``out`` goes on unchecked.
    """
    try:
        mx.eval(out)
    except ValueError:  # inside mx.compile / mx.vmap: values unknown
        pass
    except RuntimeError as e:
        lu, _ = mx.linalg.lu_factor(x, stream=_CPU)
        if mx.any(mx.diagonal(lu, 0, -2, -1) == 0).item():
            raise _linalg.singular_error(name, arg, x.ndim) from e
        raise
    return out


@_in_float32
def linalg_matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:  # noqa: A002
    if x.size == 0:
        return _empty("matrix_norm", x, keepdims=keepdims, ord=ord)
    x = _float("matrix_norm", x)
    reduce = _SINGULAR_VALUE_NORMS.get(ord) if isinstance(ord, (int, float, str)) else None
    if ord == "fro":  # gradient 0 at a zero matrix, as on every backend (_root_zero_grad)
        a = mx.abs(x)
        return _linalg.root_zero_grad(_float_sum(a * a, [-2, -1], keepdims), mx.sqrt, mx.where)
    if reduce is None:  # 1, -1, inf, -inf: MLX's own, differentiable
        return mx.linalg.norm(x, ord=ord, axis=[-2, -1], keepdims=keepdims, stream=_CPU)
    # 2, -2 and "nuc" from the singular values, whose derivatives _linalg_vjp gives.
    out = reduce(_vjp.svdvals(x))
    return mx.expand_dims(out, (-2, -1)) if keepdims else out


# The singular values come sorted, largest first: 2 and -2 take the first and the last rather
# than mx.max/mx.min, whose JVP gathers at the argmax and has no JVP itself (MLX 0.32: "Cannot
# calculate JVP with respect to indices"), so that forward over forward works.
_SINGULAR_VALUE_NORMS: dict[Any, Callable[[Any], Any]] = {
    2: lambda s: s[..., 0],
    -2: lambda s: s[..., -1],
    "nuc": lambda s: mx.sum(s, axis=-1),
}


@_in_float32
def linalg_matrix_power(x: Any, n: int, /) -> Any:
    if x.size == 0:
        return _empty("matrix_power", x, n)
    x = _float("matrix_power", x, square=True)
    if n == 0:
        return mx.broadcast_to(mx.eye(x.shape[-1], dtype=x.dtype), x.shape)
    if n < 0:
        x, n = _vjp.inv(x), -n
    # Square-and-multiply: log2(n) products, as NumPy does.
    result = None
    while n:
        if n & 1:
            result = x if result is None else mx.matmul(result, x, stream=_CPU)
        n >>= 1
        if n:
            x = mx.matmul(x, x, stream=_CPU)
    return result


@_in_float32(restore=False, default_rtol=True)
def linalg_matrix_rank(x: Any, /, *, rtol: Any = None) -> Any:
    if x.size == 0:
        return _empty("matrix_rank", x, rtol=rtol)
    x = _float("matrix_rank", x)
    s = _svdvals(x)
    return mx.sum(s > _cutoff(x, s, rtol), axis=-1).astype(DEFAULT_INT)


def linalg_outer(x1: Any, x2: Any, /) -> Any:
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("linalg.outer: x1 and x2 must be one-dimensional")
    return mx.outer(x1, x2)


def _reduced_svd(x: Any) -> tuple[Any, Any, Any]:
    u, s, vh = _vjp.svd(x)  # always full matrices in MLX
    k = min(x.shape[-2:])
    return u[..., :, :k], s, vh[..., :k, :]


@_in_float32(default_rtol=True)
def linalg_pinv(x: Any, /, *, rtol: Any = None) -> Any:
    if x.size == 0:
        return _empty("pinv", x, rtol=rtol)
    x = _float("pinv", x)
    if rtol is None:
        rtol = max(x.shape[-2:]) * _eps(x)
    rtol = rtol.astype(x.dtype) if isinstance(rtol, mx.array) else mx.array(rtol, x.dtype)
    return _vjp.pinv(x, rtol)


@_in_float32
def linalg_qr(x: Any, /, *, mode: str = "reduced") -> QRResult:
    if x.size == 0:
        return _empty("qr", x, mode=mode)
    x = _float("qr", x)
    m, n = x.shape[-2:]
    if mode == "reduced" or m <= n:  # for m <= n the two modes agree
        return QRResult(*_vjp.qr(x))
    eye = mx.broadcast_to(mx.eye(m, m - n, dtype=x.dtype), (*x.shape[:-2], m, m - n))
    q, _ = _vjp.qr(mx.concatenate([x, eye], axis=-1))
    r = mx.triu(mx.matmul(_mT(q), x, stream=_CPU))  # exact zeros below the diagonal
    return QRResult(q, r)


@_in_float32
def linalg_slogdet(x: Any, /) -> SlogdetResult:
    if x.size == 0:
        return _empty("slogdet", x)
    return SlogdetResult(*mx.linalg.slogdet(_float("slogdet", x, square=True), stream=_CPU))


# The declared check (ops/linalg.py) runs on the slow path only: mx.linalg.solve is tried first
# on two matrices and raises ValueError for all the check refuses (reading the dtypes and
# shapes first cost 2 to 4 µs a call).
CHECKS_IN_KERNEL = {
    "linalg_solve": "mx.linalg.solve is tried first and refuses what the check refuses"
}
_SOLVE_CHECK = cast("Callable[..., None]", OPS["linalg.solve"].check)


def linalg_solve(x1: Any, x2: Any, /) -> Any:
    if x1.size == 0 or x2.size == 0:
        return _empty("solve", x1, x2)
    if type(x1) is mx.array and type(x2) is mx.array and x1.ndim == 2 and x2.ndim == 2:
        # Two matrices: MLX accepts exactly what the checks below pass on unchanged (real
        # floating dtypes, square x1, matching rows) and raises ValueError for the rest.
        try:
            out = _vjp.solve(x1, x2)
        except ValueError:
            pass
        else:
            return _evaluated(out, x1, "solve", "x1")
    _SOLVE_CHECK(x1, x2)
    return _checked_solve(x1, x2)


@_in_float32(pair=True)
def _checked_solve(x1: Any, x2: Any) -> Any:
    """solve with ivy_like's checks: what the direct call above does not take."""
    x1 = _float("solve", x1, square=True)
    vector = x2.ndim == 1
    if vector:
        x2 = x2[:, None]
    b1, b2 = x1.shape[:-2], x2.shape[:-2]
    if b1 != b2:
        # mx.linalg.solve needs equal batch dimensions: broadcast them here.
        batch = mx.broadcast_shapes(b1, b2)
        x1 = mx.broadcast_to(x1, (*batch, *x1.shape[-2:]))
        x2 = mx.broadcast_to(x2, (*batch, *x2.shape[-2:]))
    out = _evaluated(_vjp.solve(x1, x2), x1, "solve", "x1")
    return out[..., 0] if vector else out


@_in_float32
def linalg_svd(x: Any, /, *, full_matrices: bool = True) -> SVDResult:
    if x.size == 0:
        return _empty("svd", x, full_matrices=full_matrices)
    x = _float("svd", x)
    if full_matrices:
        return SVDResult(*_vjp.svd(x))
    return SVDResult(*_reduced_svd(x))


linalg_svdvals = _guarded(
    "svdvals",
    _in_float32(_linalg.of_matrix_for(_vjp.svdvals, "svdvals", _float, square=False)),
)


linalg_trace = _linalg.trace_for(linalg_diagonal, _sum)


@_in_float32
def linalg_vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> Any:  # noqa: A002
    x = _float("vector_norm", x, matrix=False)
    p = float(ord)
    axes = list(_linalg.norm_axes(x.ndim, axis))
    a = mx.abs(x)  # real for complex input
    if p == math.inf:
        return mx.max(a, axis=axes, keepdims=keepdims)
    if p == -math.inf:
        return mx.min(a, axis=axes, keepdims=keepdims)
    if p == 0:
        return mx.sum((a != 0).astype(a.dtype), axis=axes, keepdims=keepdims)
    return _linalg.power_sum_norm(a, p, lambda v: _float_sum(v, axes, keepdims), mx.sqrt, mx.where)

"""numpy backend: the array API linalg extension (``numpy.linalg`` of NumPy 2 is conforming),
and the linear algebra functions of the main namespace (``matmul``, ``matrix_transpose``,
``tensordot``, ``vecdot``).

Wrappers only add the rules of ``ivy_like.ops.linalg``: floating-point input for the
decompositions, the standard's default ``rtol`` for ``pinv``, named-tuple results.

NumPy 1.x (the core supports >= 1.23) lacks ``vecdot``, ``cross``, ``diagonal``, ``matrix_norm``,
``outer``, ``svdvals``, ``trace`` and ``vector_norm`` in ``numpy.linalg``, ``cholesky(upper=)``
and ``rtol`` in ``matrix_rank``/``pinv``, and its ``solve`` reads ``x2`` as a stack of vectors
whenever ``x2.ndim == x1.ndim - 1``: the ``_NP2`` branches build the same results from NumPy 1
functions. NumPy 2 always takes the first branch.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ivy_like.ops.linalg import (
    EighResult,
    QRResult,
    SlogdetResult,
    SVDResult,
    _check_float,
    _check_matrix,
    _check_matrix_norm_ord,
    _check_power,
    _check_qr_mode,
    _check_solve_operands,
    _check_vector_norm_ord,
    _norm_axes,
    _tensordot_axes,
    _vector_axis,
)

from ._helpers import _in_float32, _wide_accumulator

# _in_float32 (from _helpers.py): float16/bfloat16 computed in float32, the rule of
# ivy_like.ops._half.

_NP2 = np.lib.NumpyVersion(np.__version__) >= "2.0.0"


def _float(name: str, x: Any, square: bool = False, matrix: bool = True) -> np.ndarray:
    x = np.asarray(x)
    _check_float(name, x.dtype.kind)
    if matrix:
        _check_matrix(name, x.shape, square)
    return x


def _default_rtol(x: np.ndarray) -> float:
    return max(x.shape[-2:]) * float(np.finfo(x.dtype).eps)


# -- in both namespaces ---------------------------------------------------------------------------
matmul = np.matmul


def matrix_transpose(x: Any, /) -> Any:
    x = np.asarray(x)
    _check_matrix("matrix_transpose", x.shape)
    return np.swapaxes(x, -1, -2)


def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
    return np.tensordot(x1, x2, axes=_tensordot_axes(axes, np.ndim(x1), np.ndim(x2)))


def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    axis = _vector_axis("vecdot", np.shape(x1), np.shape(x2), axis)
    if _NP2:
        return np.linalg.vecdot(x1, x2, axis=axis)
    x1, x2 = np.asarray(x1), np.asarray(x2)
    prod = (np.conj(x1) if x1.dtype.kind == "c" else x1) * x2
    wide = _wide_accumulator(prod, axis)  # a leading float32 axis: in float64 (see sum)
    if wide is not None:
        return np.asarray(np.sum(prod, axis=axis, dtype=wide).astype(prod.dtype))
    return np.asarray(np.sum(prod, axis=axis, dtype=prod.dtype))


# -- linalg ---------------------------------------------------------------------------------------
@_in_float32
def linalg_cholesky(x: Any, /, *, upper: bool = False) -> Any:
    x = _float("cholesky", x, square=True)
    if _NP2:
        return np.linalg.cholesky(x, upper=upper)
    if not upper:
        return np.linalg.cholesky(x)
    # NumPy 2's upper=True reads the upper triangle: the lower factor of x^H, adjoined.
    lower = np.linalg.cholesky(np.conj(np.swapaxes(x, -1, -2)))
    return np.conj(np.swapaxes(lower, -1, -2))


def linalg_cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    axis = _vector_axis("linalg.cross", np.shape(x1), np.shape(x2), axis)
    if np.shape(x1)[axis] != 3:
        raise ValueError("linalg.cross: the vectors must have 3 elements along axis")
    if _NP2:
        return np.linalg.cross(x1, x2, axis=axis)
    return np.cross(x1, x2, axis=axis)


@_in_float32
def linalg_det(x: Any, /) -> Any:
    return np.linalg.det(_float("det", x, square=True))


def linalg_diagonal(x: Any, /, *, offset: int = 0) -> Any:
    x = np.asarray(x)
    _check_matrix("diagonal", x.shape)
    if _NP2:
        return np.linalg.diagonal(x, offset=offset)
    return np.diagonal(x, offset=offset, axis1=-2, axis2=-1)


@_in_float32
def linalg_eigh(x: Any, /) -> EighResult:
    return EighResult(*np.linalg.eigh(_float("eigh", x, square=True)))


@_in_float32
def linalg_eigvalsh(x: Any, /) -> Any:
    return np.linalg.eigvalsh(_float("eigvalsh", x, square=True))


@_in_float32
def linalg_inv(x: Any, /) -> Any:
    return np.linalg.inv(_float("inv", x, square=True))


@_in_float32
def linalg_matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:  # noqa: A002
    _check_matrix_norm_ord(ord)
    x = _float("matrix_norm", x)
    if _NP2:
        return np.linalg.matrix_norm(x, keepdims=keepdims, ord=ord)
    return np.asarray(np.linalg.norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims))


@_in_float32
def linalg_matrix_power(x: Any, n: int, /) -> Any:
    return np.linalg.matrix_power(_float("matrix_power", x, square=True), _check_power(n))


@_in_float32(restore=False, default_rtol=True)
def linalg_matrix_rank(x: Any, /, *, rtol: Any = None) -> Any:
    x = _float("matrix_rank", x)
    rtol = _default_rtol(x) if rtol is None else rtol
    if _NP2:
        return np.asarray(np.linalg.matrix_rank(x, rtol=rtol), dtype=np.int64)
    s = np.linalg.svd(x, compute_uv=False)
    if s.shape[-1] == 0:
        return np.zeros(s.shape[:-1], dtype=np.int64)
    tol = s.max(axis=-1, keepdims=True) * np.asarray(rtol)[..., np.newaxis]
    return np.asarray(np.count_nonzero(s > tol, axis=-1), dtype=np.int64)


def linalg_outer(x1: Any, x2: Any, /) -> Any:
    if np.ndim(x1) != 1 or np.ndim(x2) != 1:
        raise ValueError("linalg.outer: x1 and x2 must be one-dimensional")
    if _NP2:
        return np.linalg.outer(x1, x2)
    return np.multiply.outer(x1, x2)


@_in_float32(default_rtol=True)
def linalg_pinv(x: Any, /, *, rtol: Any = None) -> Any:
    x = _float("pinv", x)
    rtol = _default_rtol(x) if rtol is None else rtol
    if _NP2:
        return np.linalg.pinv(x, rtol=rtol)
    return np.linalg.pinv(x, rcond=rtol)  # NumPy 1's rcond is relative, as rtol is


@_in_float32
def linalg_qr(x: Any, /, *, mode: str = "reduced") -> QRResult:
    _check_qr_mode(mode)
    return QRResult(*np.linalg.qr(_float("qr", x), mode=mode))


@_in_float32
def linalg_slogdet(x: Any, /) -> SlogdetResult:
    return SlogdetResult(*np.linalg.slogdet(_float("slogdet", x, square=True)))


# Dtypes whose arrays np.linalg.solve takes as they are (NumPy would convert integers
# silently; float16 it refuses). Empty on NumPy 1, whose solve reads x2 by other rules.
_DIRECT_SOLVE_DTYPES = frozenset(
    np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128) if _NP2
)
_np_solve = np.linalg.solve
_ndarray = np.ndarray


def linalg_solve(x1: Any, x2: Any, /) -> Any:
    if (
        type(x1) is _ndarray
        and type(x2) is _ndarray
        and x1.dtype in _DIRECT_SOLVE_DTYPES
        and x2.dtype in _DIRECT_SOLVE_DTYPES
    ):
        # np.linalg.solve raises LinAlgError, a ValueError, for exactly the shapes the checks
        # below refuse. (A set of dtypes and a module-level name: ~0.3 µs less than reading
        # dtype.kind and np.linalg.solve.)
        try:
            return _np_solve(x1, x2)
        except ValueError:
            pass
    return _checked_solve(x1, x2)


@_in_float32(pair=True)
def _checked_solve(x1: Any, x2: Any) -> Any:
    """solve with ivy_like's checks: what the direct call above does not take."""
    x1 = _float("solve", x1, square=True)
    x2 = _float("solve", x2, matrix=False)
    _check_solve_operands(x1.shape, x2.shape)
    # NumPy 2 already follows the standard: x2 is a vector only when it is 1-D.
    if _NP2:
        return np.linalg.solve(x1, x2)
    # NumPy 1 reads x2 as a stack of vectors exactly when x2.ndim == x1.ndim - 1: give x2 as
    # many dimensions as x1 so that it is always read as a stack of matrices.
    if x2.ndim == 1:  # a vector: one column, broadcast over x1's batch
        column = np.broadcast_to(x2[:, np.newaxis], x1.shape[:-1] + (1,))
        return np.linalg.solve(x1, column)[..., 0]
    if x2.ndim == x1.ndim - 1:
        x2 = x2[np.newaxis]
    return np.linalg.solve(x1, x2)


@_in_float32
def linalg_svd(x: Any, /, *, full_matrices: bool = True) -> SVDResult:
    return SVDResult(*np.linalg.svd(_float("svd", x), full_matrices=full_matrices))


@_in_float32
def linalg_svdvals(x: Any, /) -> Any:
    x = _float("svdvals", x)
    if _NP2:
        return np.linalg.svdvals(x)
    return np.linalg.svd(x, compute_uv=False)


def linalg_trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
    x = np.asarray(x)
    _check_matrix("trace", x.shape)
    if _NP2:
        return np.asarray(np.linalg.trace(x, offset=offset, dtype=dtype))
    return np.asarray(np.trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype))


@_in_float32
def linalg_vector_norm(
    x: Any,
    /,
    *,
    axis: Any = None,
    keepdims: bool = False,
    ord: Any = 2,  # noqa: A002
) -> Any:
    x = _float("vector_norm", x, matrix=False)
    _check_vector_norm_ord(ord)
    axes = None if axis is None else _norm_axes(x.ndim, axis)
    strided = axes is not None and _wide_accumulator(x, axes) is not None
    if _NP2 and not strided:
        return np.asarray(np.linalg.vector_norm(x, axis=axes, keepdims=keepdims, ord=ord))
    # NumPy 1's norm takes one axis for vectors: move the reduced axes last and merge them.
    # (So do many float32 values on leading axes: NumPy's sums along the last axis are
    # pairwise, along others a running total; see sum.)
    axes = tuple(range(x.ndim)) if axes is None else axes
    rest = [i for i in range(x.ndim) if i not in axes]
    size = int(np.prod([x.shape[i] for i in axes], dtype=np.int64))
    flat = np.transpose(x, rest + list(axes)).reshape([x.shape[i] for i in rest] + [size])
    if strided:
        flat = np.ascontiguousarray(flat)  # (a transposed view would be reduced row by row)
    out = np.asarray(np.linalg.norm(flat, ord=ord, axis=-1))
    if keepdims:
        out = out.reshape([1 if i in axes else x.shape[i] for i in range(x.ndim)])
    return out

"""numpy backend: the array API linalg extension (``numpy.linalg`` of NumPy 2 is conforming),
and the linear algebra functions of the main namespace (``matmul``, ``matrix_transpose``,
``tensordot``, ``vecdot``).

Wrappers only add the rules of ``ivy_like.ops.linalg`` (whose declared checks, floating-point
input for the decompositions and stacks of matrices, run before these kernels): the standard's
default ``rtol`` for ``pinv``, named-tuple results.

NumPy 1.x (the core supports >= 1.23) lacks ``vecdot``, ``cross``, ``diagonal``, ``matrix_norm``,
``outer``, ``svdvals``, ``trace`` and ``vector_norm`` in ``numpy.linalg``, ``cholesky(upper=)``
and ``rtol`` in ``matrix_rank``/``pinv``, and its ``solve`` reads ``x2`` as a stack of vectors
whenever ``x2.ndim == x1.ndim - 1``: where ``_NP2`` is false, the same results are built from
NumPy 1 functions. Kernels that are the same code in jax (or torch, tensorflow) are written once
in ``_common/linalg.py``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, cast

import numpy as np

from ivy_like.core.registry import OPS
from ivy_like.ops.linalg import EighResult, EigResult, SlogdetResult

from .._common import linalg as _linalg
from ._helpers import _in_float32, _wide_accumulator

# _in_float32 (from _helpers.py): float16/bfloat16 computed in float32, the rule of
# ivy_like.backends._common.half.

_NP2 = np.lib.NumpyVersion(np.__version__) >= "2.0.0"


def _float(name: str, x: Any, square: bool = False, matrix: bool = True) -> np.ndarray:
    return np.asarray(x)  # checked by the op's declared check (ops/linalg.py)


_default_rtol = _linalg.default_rtol_for(np.finfo)


# -- in both namespaces ---------------------------------------------------------------------------
matmul = np.matmul
matrix_transpose = _linalg.matrix_transpose_for(np)
tensordot = _linalg.tensordot_for(np)

if _NP2:
    vecdot = _linalg.vecdot_for(np)
else:

    def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        axis = _linalg.vector_axis("vecdot", np.shape(x1), np.shape(x2), axis)
        x1, x2 = np.asarray(x1), np.asarray(x2)
        prod = (np.conj(x1) if x1.dtype.kind == "c" else x1) * x2
        wide = _wide_accumulator(prod, axis)  # a leading float32 axis: in float64 (see sum)
        if wide is not None:
            return np.asarray(np.sum(prod, axis=axis, dtype=wide).astype(prod.dtype))
        return np.asarray(np.sum(prod, axis=axis, dtype=prod.dtype))


# -- linalg ---------------------------------------------------------------------------------------
if _NP2:
    linalg_cholesky = _in_float32(_linalg.cholesky_for(np.linalg.cholesky, _float))
else:

    @_in_float32
    def linalg_cholesky(x: Any, /, *, upper: bool = False) -> Any:
        x = _float("cholesky", x, square=True)
        if not upper:
            return np.linalg.cholesky(x)
        # NumPy 2's upper=True reads the upper triangle: the lower factor of x^H, adjoined.
        lower = np.linalg.cholesky(np.conj(np.swapaxes(x, -1, -2)))
        return np.conj(np.swapaxes(lower, -1, -2))


linalg_cross = _linalg.cross_for(np, np.linalg.cross if _NP2 else np.cross)
linalg_det = _in_float32(_linalg.of_matrix_for(np.linalg.det, "det", _float, square=True))

if _NP2:
    linalg_diagonal = _linalg.diagonal_for(np)
else:

    def linalg_diagonal(x: Any, /, *, offset: int = 0) -> Any:
        return np.diagonal(np.asarray(x), offset=offset, axis1=-2, axis2=-1)


def _complex(a: np.ndarray) -> np.ndarray:
    """``a`` as complex of its precision: NumPy's eig/eigvals give a real array when every
    eigenvalue is real, the standard a complex one always."""
    return a.astype(np.result_type(a.dtype, np.complex64), copy=False)


@_in_float32(restore=False)  # half precision: complex64 out
def linalg_eig(x: Any, /) -> EigResult:
    w, v = np.linalg.eig(_float("eig", x, square=True))
    return EigResult(_complex(w), _complex(v))


@_in_float32(restore=False)
def linalg_eigvals(x: Any, /) -> Any:
    return _complex(np.linalg.eigvals(_float("eigvals", x, square=True)))


linalg_eigh = _in_float32(_linalg.named_result_for(np.linalg.eigh, "eigh", _float, EighResult))
linalg_eigvalsh = _in_float32(
    _linalg.of_matrix_for(np.linalg.eigvalsh, "eigvalsh", _float, square=True)
)
_SINGULAR = (np.linalg.LinAlgError,)  # NumPy's, for a zero pivot (the shapes are checked first)
linalg_inv = _in_float32(_linalg.inv_for(np.linalg.inv, _float, _SINGULAR))


@_in_float32
def linalg_matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:  # noqa: A002
    x = _float("matrix_norm", x)
    if _NP2:
        return np.linalg.matrix_norm(x, keepdims=keepdims, ord=ord)
    return np.asarray(np.linalg.norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims))


linalg_matrix_power = _in_float32(_linalg.matrix_power_for(np.linalg.matrix_power, _float))


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


if _NP2:
    linalg_outer = _linalg.outer_for(np, np.linalg.outer)
else:
    linalg_outer = _linalg.outer_for(np, np.multiply.outer)

if _NP2:
    linalg_pinv = _in_float32(default_rtol=True)(_linalg.pinv_for(np, _float, _default_rtol))
else:

    @_in_float32(default_rtol=True)
    def linalg_pinv(x: Any, /, *, rtol: Any = None) -> Any:
        x = _float("pinv", x)
        rtol = _default_rtol(x) if rtol is None else rtol
        return np.linalg.pinv(x, rcond=rtol)  # NumPy 1's rcond is relative, as rtol is


linalg_qr = _in_float32(_linalg.qr_for(np.linalg.qr, _float))
linalg_slogdet = _in_float32(
    _linalg.named_result_for(np.linalg.slogdet, "slogdet", _float, SlogdetResult)
)


# Dtypes whose arrays np.linalg.solve takes as they are (NumPy would convert integers
# silently; float16 it refuses). Empty on NumPy 1, whose solve reads x2 by other rules.
_DIRECT_SOLVE_DTYPES = frozenset(
    np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128) if _NP2
)
_np_solve = np.linalg.solve
_ndarray = np.ndarray
# The direct call takes floating and complex arrays only, all that solve's declared check
# lets through, so the check runs on the checked path: before it, it would cost the direct
# call as much again (two dtype reads).
CHECKS_IN_KERNEL = {"linalg_solve": "the direct call takes only the dtypes the check admits"}
_SOLVE_CHECK = cast("Callable[..., None]", OPS["linalg.solve"].check)  # declared in ops/linalg.py


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
    _SOLVE_CHECK(x1, x2)
    return _checked_solve(x1, x2)


# What the direct call above does not take. NumPy 2 already follows the standard: x2 is a
# vector only when it is 1-D.
if _NP2:
    _checked_solve = _in_float32(pair=True)(
        _linalg.checked_solve_for(np.linalg.solve, _float, _SINGULAR)
    )
else:

    def _solve1(x1: Any, x2: Any) -> Any:
        # NumPy 1 reads x2 as a stack of vectors exactly when x2.ndim == x1.ndim - 1: give x2
        # as many dimensions as x1 so that it is always read as a stack of matrices.
        if x2.ndim == 1:  # a vector: one column, broadcast over x1's batch
            column = np.broadcast_to(x2[:, np.newaxis], x1.shape[:-1] + (1,))
            return np.linalg.solve(x1, column)[..., 0]
        if x2.ndim == x1.ndim - 1:
            x2 = x2[np.newaxis]
        return np.linalg.solve(x1, x2)

    _checked_solve = _in_float32(pair=True)(_linalg.checked_solve_for(_solve1, _float, _SINGULAR))


linalg_svd = _in_float32(_linalg.svd_for(np.linalg.svd, _float))
linalg_svdvals = _in_float32(
    _linalg.of_matrix_for(
        np.linalg.svdvals if _NP2 else functools.partial(np.linalg.svd, compute_uv=False),
        "svdvals",
        _float,
        square=False,
    )
)


def linalg_trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
    x = np.asarray(x)
    if _NP2:
        return np.asarray(np.linalg.trace(x, offset=offset, dtype=dtype))
    return np.asarray(np.trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype))


@_in_float32
def linalg_vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> Any:  # noqa: A002
    x = _float("vector_norm", x, matrix=False)
    axes = None if axis is None else _linalg.norm_axes(x.ndim, axis)
    strided = axes is not None and _wide_accumulator(x, axes) is not None
    if _NP2 and not strided:
        # NumPy's stubs take axis=None only with keepdims=False; NumPy itself takes both.
        out = np.linalg.vector_norm(x, axis=axes, keepdims=keepdims, ord=ord)  # type: ignore[arg-type]
        return np.asarray(out)
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

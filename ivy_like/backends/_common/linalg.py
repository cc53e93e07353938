"""Linear algebra kernels written once for several backends (see ``_common/__init__.py``).

Each factory returns the kernel itself. ``xp`` is a NumPy-like namespace (``numpy``,
``jax.numpy``) with NumPy 2's ``linalg``; elsewhere the framework's function is the parameter
(``fn``), with ``check``, the backend's ``_float(name, x, square=False, matrix=True)``: ``x``
checked as floating point (and as a stack of (square) matrices) by the rules of
``ivy_like.ops.linalg``, in the array the framework's function takes. Decorators such as a
backend's ``_in_float32`` are applied by the backend to the kernel returned.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...ops.linalg import (
    QRResult,
    SVDResult,
    _check_float,
    _check_matrix,
    _check_power,
    _check_qr_mode,
    _check_solve_operands,
    _singular,
    _tensordot_axes,
    _vector_axis,
)

Kernel = Callable[..., Any]
Check = Callable[..., Any]
Errors = tuple[type[BaseException], ...]  # a framework's errors for a singular matrix


# -- private helpers ------------------------------------------------------------------------------
def float_check_for(kind: Callable[[Any], str]) -> Check:
    """``_float`` of a backend whose arrays need no conversion (torch, tensorflow); ``kind(x)``
    is the NumPy kind of ``x``'s dtype ("f", "c", "i"...)."""

    def _float(name: str, x: Any, square: bool = False, matrix: bool = True) -> Any:
        _check_float(name, kind(x))
        if matrix:
            _check_matrix(name, tuple(x.shape), square)
        return x

    return _float


def default_rtol_for(finfo: Callable[[Any], Any]) -> Callable[[Any], float]:
    """The standard's default ``rtol`` of ``pinv``/``matrix_rank``, ``max(M, N) * eps`` of
    ``x``'s dtype, with ``finfo`` (``np.finfo``) reading eps (numpy, jax)."""

    def _default_rtol(x: Any) -> float:
        return max(x.shape[-2:]) * float(finfo(x.dtype).eps)

    return _default_rtol


# -- in both namespaces (numpy, jax.numpy) --------------------------------------------------------
def matrix_transpose_for(xp: Any) -> Kernel:  # numpy, jax
    def matrix_transpose(x: Any, /) -> Any:
        x = xp.asarray(x)
        _check_matrix("matrix_transpose", x.shape)
        return xp.swapaxes(x, -1, -2)

    return matrix_transpose


def tensordot_for(xp: Any) -> Kernel:  # numpy, jax
    def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
        return xp.tensordot(x1, x2, axes=_tensordot_axes(axes, xp.ndim(x1), xp.ndim(x2)))

    return tensordot


def vecdot_for(xp: Any) -> Kernel:  # numpy 2, jax
    def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        axis = _vector_axis("vecdot", xp.shape(x1), xp.shape(x2), axis)
        return xp.linalg.vecdot(x1, x2, axis=axis)

    return vecdot


# -- linalg (numpy, jax.numpy) --------------------------------------------------------------------
def cross_for(xp: Any, fn: Callable[..., Any]) -> Kernel:
    """cross of 3-vectors along ``axis`` by ``fn(x1, x2, axis=axis)`` (numpy, jax)."""

    def linalg_cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        axis = _vector_axis("linalg.cross", xp.shape(x1), xp.shape(x2), axis)
        if xp.shape(x1)[axis] != 3:
            raise ValueError("linalg.cross: the vectors must have 3 elements along axis")
        return fn(x1, x2, axis=axis)

    return linalg_cross


def diagonal_for(xp: Any) -> Kernel:  # numpy 2, jax
    def linalg_diagonal(x: Any, /, *, offset: int = 0) -> Any:
        x = xp.asarray(x)
        _check_matrix("diagonal", x.shape)
        return xp.linalg.diagonal(x, offset=offset)

    return linalg_diagonal


def outer_for(xp: Any, fn: Callable[..., Any]) -> Kernel:
    """outer of two 1-D arrays by ``fn(x1, x2)`` (numpy, jax)."""

    def linalg_outer(x1: Any, x2: Any, /) -> Any:
        if xp.ndim(x1) != 1 or xp.ndim(x2) != 1:
            raise ValueError("linalg.outer: x1 and x2 must be one-dimensional")
        return fn(x1, x2)

    return linalg_outer


def pinv_for(xp: Any, check: Check, default_rtol: Callable[[Any], float]) -> Kernel:
    """pinv with the standard's default rtol (numpy 2, jax)."""

    def linalg_pinv(x: Any, /, *, rtol: Any = None) -> Any:
        x = check("pinv", x)
        return xp.linalg.pinv(x, rtol=default_rtol(x) if rtol is None else rtol)

    return linalg_pinv


# -- linalg: one framework function after ``check`` -----------------------------------------------
def of_matrix_for(fn: Callable[[Any], Any], name: str, check: Check, square: bool) -> Kernel:
    """``linalg_<name>(x)``: ``fn`` of ``x`` checked as a float stack of (square) matrices
    (det, eigvalsh, svdvals: numpy, jax, torch, tensorflow, mlx; jax's inv before its
    singularity check)."""

    def kernel(x: Any, /) -> Any:
        return fn(check(name, x, square=square))

    kernel.__name__ = kernel.__qualname__ = f"linalg_{name}"
    return kernel


def inv_for(fn: Callable[[Any], Any], check: Check, singular: Errors) -> Kernel:
    """inv of a checked square float stack by ``fn``, which raises one of ``singular`` for a
    singular matrix: that becomes ivy_like's LinAlgError (numpy, torch, tensorflow). On the
    failure path only: the call that succeeds runs no check."""

    def linalg_inv(x: Any, /) -> Any:
        x = check("inv", x, square=True)
        try:
            return fn(x)
        except singular as e:
            raise _singular("inv", "x", len(x.shape)) from e

    return linalg_inv


def named_result_for(
    fn: Callable[[Any], Any], name: str, check: Check, result: Callable[..., Any]
) -> Kernel:
    """``linalg_<name>(x)``: ``fn``'s results, as the named tuple ``result``, of ``x`` checked
    as a float stack of square matrices (eigh, slogdet: numpy, jax, torch, tensorflow, mlx)."""

    def kernel(x: Any, /) -> Any:
        return result(*fn(check(name, x, square=True)))

    kernel.__name__ = kernel.__qualname__ = f"linalg_{name}"
    return kernel


def cholesky_for(fn: Callable[..., Any], check: Check) -> Kernel:  # numpy 2, torch
    def linalg_cholesky(x: Any, /, *, upper: bool = False) -> Any:
        return fn(check("cholesky", x, square=True), upper=upper)

    return linalg_cholesky


def matrix_power_for(fn: Callable[[Any, int], Any], check: Check) -> Kernel:
    """matrix_power of a checked square float stack (numpy, jax, torch)."""

    def linalg_matrix_power(x: Any, n: int, /) -> Any:
        return fn(check("matrix_power", x, square=True), _check_power(n))

    return linalg_matrix_power


def qr_for(fn: Callable[..., Any], check: Check) -> Kernel:  # numpy, jax, torch
    def linalg_qr(x: Any, /, *, mode: str = "reduced") -> QRResult:
        _check_qr_mode(mode)
        return QRResult(*fn(check("qr", x), mode=mode))

    return linalg_qr


def svd_for(fn: Callable[..., Any], check: Check) -> Kernel:  # numpy, torch
    def linalg_svd(x: Any, /, *, full_matrices: bool = True) -> SVDResult:
        return SVDResult(*fn(check("svd", x), full_matrices=full_matrices))

    return linalg_svd


def checked_solve_for(fn: Callable[[Any, Any], Any], check: Check, singular: Errors = ()) -> Kernel:
    """solve with ivy_like's checks (the part of a backend's ``linalg_solve`` that is not its
    direct call), by an ``fn`` that already follows the standard: x2 is a vector only when it
    is 1-D (numpy 2, jax >= 0.5). (JAX itself would promote integers to floats.) ``fn``'s
    errors in ``singular`` (a singular x1) become ivy_like's LinAlgError (numpy)."""

    def _checked_solve(x1: Any, x2: Any) -> Any:
        x1 = check("solve", x1, square=True)
        x2 = check("solve", x2, matrix=False)
        _check_solve_operands(x1.shape, x2.shape)
        try:
            return fn(x1, x2)
        except singular as e:
            raise _singular("solve", "x1", len(x1.shape)) from e

    return _checked_solve


def trace_for(diagonal: Kernel, total: Kernel) -> Kernel:
    """trace as the backend's ``sum`` kernel (``total``) of its ``diagonal`` kernel (mlx,
    tensorflow)."""

    def linalg_trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
        # Summed by this backend's sum: the dtype rule of ivy_like.sum.
        return total(diagonal(x, offset=offset), axis=-1, dtype=dtype)

    return linalg_trace

"""Linear algebra kernels written once for several backends (see ``_common/__init__.py``).

Each factory returns the kernel itself. ``xp`` is a NumPy-like namespace (``numpy``,
``jax.numpy``) with NumPy 2's ``linalg``; elsewhere the framework's function is the parameter
(``fn``), with ``prepare``, the backend's ``_float(name, x, square=False, matrix=True)``: ``x``
as the array the framework's function takes (the checks ``ivy_like.ops.linalg`` declares with
each op, floating point and a stack of (square) matrices, ran before the kernel). Decorators
such as a backend's ``_in_float32`` are applied by the backend to the kernel returned.

The computations the backends share (axes of ``tensordot``/``vecdot``/``vector_norm``, the
p-norm from a sum, the error for a singular matrix) are the public functions at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...ops.linalg import LinAlgError, QRResult, SVDResult

Kernel = Callable[..., Any]
Prepare = Callable[..., Any]
Errors = tuple[type[BaseException], ...]  # a framework's errors for a singular matrix


# -- private helpers ------------------------------------------------------------------------------
def as_is(name: str, x: Any, square: bool = False, matrix: bool = True) -> Any:
    """``_float`` of a backend whose arrays need no conversion (torch, tensorflow)."""
    return x


def default_rtol_for(finfo: Callable[[Any], Any]) -> Callable[[Any], float]:
    """The standard's default ``rtol`` of ``pinv``/``matrix_rank``, ``max(M, N) * eps`` of
    ``x``'s dtype, with ``finfo`` (``np.finfo``) reading eps (numpy, jax)."""

    def _default_rtol(x: Any) -> float:
        return max(x.shape[-2:]) * float(finfo(x.dtype).eps)

    return _default_rtol


# -- in both namespaces (numpy, jax.numpy) --------------------------------------------------------
def matrix_transpose_for(xp: Any) -> Kernel:  # numpy, jax
    def matrix_transpose(x: Any, /) -> Any:
        return xp.swapaxes(xp.asarray(x), -1, -2)

    return matrix_transpose


def tensordot_for(xp: Any) -> Kernel:  # numpy, jax
    def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
        return xp.tensordot(x1, x2, axes=tensordot_axes(axes, xp.ndim(x1), xp.ndim(x2)))

    return tensordot


def vecdot_for(xp: Any) -> Kernel:  # numpy 2, jax
    def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        axis = vector_axis("vecdot", xp.shape(x1), xp.shape(x2), axis)
        return xp.linalg.vecdot(x1, x2, axis=axis)

    return vecdot


# -- linalg (numpy, jax.numpy) --------------------------------------------------------------------
def cross_for(xp: Any, fn: Callable[..., Any]) -> Kernel:
    """cross of 3-vectors along ``axis`` by ``fn(x1, x2, axis=axis)`` (numpy, jax)."""

    def linalg_cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        axis = vector_axis("linalg.cross", xp.shape(x1), xp.shape(x2), axis)
        if xp.shape(x1)[axis] != 3:
            raise ValueError("linalg.cross: the vectors must have 3 elements along axis")
        return fn(x1, x2, axis=axis)

    return linalg_cross


def diagonal_for(xp: Any) -> Kernel:  # numpy 2, jax
    def linalg_diagonal(x: Any, /, *, offset: int = 0) -> Any:
        return xp.linalg.diagonal(xp.asarray(x), offset=offset)

    return linalg_diagonal


def outer_for(xp: Any, fn: Callable[..., Any]) -> Kernel:
    """outer of two 1-D arrays by ``fn(x1, x2)`` (numpy, jax)."""

    def linalg_outer(x1: Any, x2: Any, /) -> Any:
        if xp.ndim(x1) != 1 or xp.ndim(x2) != 1:
            raise ValueError("linalg.outer: x1 and x2 must be one-dimensional")
        return fn(x1, x2)

    return linalg_outer


def pinv_for(xp: Any, prepare: Prepare, default_rtol: Callable[[Any], float]) -> Kernel:
    """pinv with the standard's default rtol (numpy 2, jax)."""

    def linalg_pinv(x: Any, /, *, rtol: Any = None) -> Any:
        x = prepare("pinv", x)
        return xp.linalg.pinv(x, rtol=default_rtol(x) if rtol is None else rtol)

    return linalg_pinv


# -- linalg: one framework function after ``prepare`` ---------------------------------------------
def of_matrix_for(fn: Callable[[Any], Any], name: str, prepare: Prepare, square: bool) -> Kernel:
    """``linalg_<name>(x)``: ``fn`` of ``x`` checked as a float stack of (square) matrices
    (det, eigvalsh, svdvals: numpy, jax, torch, tensorflow, mlx; eigvals: jax, torch,
    tensorflow, mlx; jax's inv before its singularity check)."""

    def kernel(x: Any, /) -> Any:
        return fn(prepare(name, x, square=square))

    kernel.__name__ = kernel.__qualname__ = f"linalg_{name}"
    return kernel


def inv_for(fn: Callable[[Any], Any], prepare: Prepare, singular: Errors) -> Kernel:
    """inv of a checked square float stack by ``fn``, which raises one of ``singular`` for a
    singular matrix: that becomes ivy_like's LinAlgError (numpy, torch, tensorflow). On the
    failure path only: the call that succeeds runs no check."""

    def linalg_inv(x: Any, /) -> Any:
        x = prepare("inv", x, square=True)
        try:
            return fn(x)
        except singular as e:
            raise singular_error("inv", "x", len(x.shape)) from e

    return linalg_inv


def named_result_for(
    fn: Callable[[Any], Any], name: str, prepare: Prepare, result: Callable[..., Any]
) -> Kernel:
    """``linalg_<name>(x)``: ``fn``'s results, as the named tuple ``result``, of ``x`` checked
    as a float stack of square matrices (eigh, slogdet: numpy, jax, torch, tensorflow, mlx;
    eig: jax, torch, tensorflow, mlx)."""

    def kernel(x: Any, /) -> Any:
        return result(*fn(prepare(name, x, square=True)))

    kernel.__name__ = kernel.__qualname__ = f"linalg_{name}"
    return kernel


def cholesky_for(fn: Callable[..., Any], prepare: Prepare) -> Kernel:  # numpy 2, torch
    def linalg_cholesky(x: Any, /, *, upper: bool = False) -> Any:
        return fn(prepare("cholesky", x, square=True), upper=upper)

    return linalg_cholesky


def matrix_power_for(fn: Callable[[Any, int], Any], prepare: Prepare) -> Kernel:
    """matrix_power of a checked square float stack (numpy, jax, torch)."""

    def linalg_matrix_power(x: Any, n: int, /) -> Any:
        return fn(prepare("matrix_power", x, square=True), n)

    return linalg_matrix_power


def qr_for(fn: Callable[..., Any], prepare: Prepare) -> Kernel:  # numpy, jax, torch
    def linalg_qr(x: Any, /, *, mode: str = "reduced") -> QRResult:
        return QRResult(*fn(prepare("qr", x), mode=mode))

    return linalg_qr


def svd_for(fn: Callable[..., Any], prepare: Prepare) -> Kernel:  # numpy, torch
    def linalg_svd(x: Any, /, *, full_matrices: bool = True) -> SVDResult:
        return SVDResult(*fn(prepare("svd", x), full_matrices=full_matrices))

    return linalg_svd


def checked_solve_for(
    fn: Callable[[Any, Any], Any],
    prepare: Prepare,
    singular: Errors = (),
    common: Callable[[Any, Any], tuple[Any, Any]] | None = None,
) -> Kernel:
    """solve with ivy_like's rules (the part of a backend's ``linalg_solve`` that is not its
    direct call), by an ``fn`` that already follows the standard: x2 is a vector only when it
    is 1-D (numpy 2, jax >= 0.5; torch and tensorflow through their broadcasting solve, after
    ``common`` gave both operands one dtype). ``fn``'s errors in ``singular`` (a singular x1)
    become ivy_like's LinAlgError (numpy, torch, tensorflow)."""

    def _checked_solve(x1: Any, x2: Any) -> Any:
        x1 = prepare("solve", x1, square=True)
        x2 = prepare("solve", x2, matrix=False)
        if common is not None:
            x1, x2 = common(x1, x2)
        try:
            return fn(x1, x2)
        except singular as e:
            raise singular_error("solve", "x1", len(x1.shape)) from e

    return _checked_solve


def trace_for(diagonal: Kernel, total: Kernel) -> Kernel:
    """trace as the backend's ``sum`` kernel (``total``) of its ``diagonal`` kernel (mlx,
    tensorflow)."""

    def linalg_trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
        # Summed by this backend's sum: the dtype rule of ivy_like.sum.
        return total(diagonal(x, offset=offset), axis=-1, dtype=dtype)

    return linalg_trace


# -- computations the backends share (plain Python, no framework) ----------------------------
def singular_error(name: str, arg: str, ndim: int) -> LinAlgError:
    """The error for a singular ``arg`` of ``linalg.<name>`` with ``ndim`` dimensions."""
    which = f"{arg} holds a singular matrix" if ndim > 2 else f"{arg} is singular"
    return LinAlgError(f"linalg.{name}: {which} (its LU factorization has a zero pivot)")


def power_sum_norm(a: Any, p: float, total: Any, sqrt: Any, where: Any = None) -> Any:
    """``(sum |x|^p)^(1/p)`` of ``a = |x|`` for finite non-zero ``p``, from a backend's
    ``total`` (its most accurate sum over the reduced axes) and ``sqrt``. Given ``where`` (a
    backend passes it where a gradient may be taken), ``p > 1`` has gradient 0 at a zero
    vector (see :func:`root_zero_grad`); the value is the same either way."""
    if p == 1:
        return total(a)
    s = total(a * a) if p == 2 else total(a**p)
    root = sqrt if p == 2 else (lambda v: v ** (1.0 / p))
    if where is None or p < 1:  # (below 1 the root has no infinite slope at 0)
        return root(s)
    return root_zero_grad(s, root, where)


def root_zero_grad(s: Any, root: Any, where: Any) -> Any:
    """``root(s)`` of sums ``s >= 0`` with gradient 0 where ``s == 0``.

    The root's slope is infinite at 0, so the chain rule gives ``inf * 0 = NaN`` for the
    gradient of a 2-norm at a zero vector (JAX, TensorFlow, MLX, MXNet); torch defines it as
    0 (a subgradient), the rule here on every backend. The root sees 1 where ``s`` is 0.
    Five more operations: backends use it only where a gradient may be taken (a JAX tracer,
    a TensorFlow tape or graph, MXNet recording; always on MLX, which cannot tell).
    """
    positive = s > 0
    zeros = s * 0
    return where(positive, root(where(positive, s, zeros + 1)), zeros)


def norm_axes(ndim: int, axis: Any) -> tuple[int, ...]:
    """``axis`` of vector_norm as non-negative axes (None: all), checked."""
    if axis is None:
        return tuple(range(ndim))
    items = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out = []
    for a in items:
        if isinstance(a, bool) or not isinstance(a, int):
            raise TypeError(f"linalg.vector_norm: axis must be an int or tuple, got {axis!r}")
        if not -ndim <= a < max(ndim, 1):
            raise ValueError(f"linalg.vector_norm: axis {a} out of range for {ndim}-d input")
        out.append(a % ndim if ndim else 0)
    if len(set(out)) != len(out):
        raise ValueError(f"linalg.vector_norm: repeated axis in {axis!r}")
    return tuple(out)


def vector_axis(name: str, shape1: tuple[int, ...], shape2: tuple[int, ...], axis: Any) -> int:
    """The negative axis of ``vecdot``/``cross`` after broadcasting, checked."""
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError(f"{name}: axis must be an int, got {axis!r}")
    n = min(len(shape1), len(shape2))
    if not -n <= axis <= -1:
        raise ValueError(f"{name}: axis must be in [-{n}, -1] (negative, counted from the end)")
    if shape1[axis] != shape2[axis]:
        raise ValueError(
            f"{name}: x1 and x2 must have the same size along axis {axis}, "
            f"got {shape1[axis]} and {shape2[axis]}"
        )
    return axis


def tensordot_axes(axes: Any, ndim1: int, ndim2: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``axes`` of tensordot as two tuples of non-negative axes."""
    if isinstance(axes, int) and not isinstance(axes, bool):
        if not 0 <= axes <= min(ndim1, ndim2):
            raise ValueError(f"tensordot: axes={axes} is out of range for these inputs")
        return tuple(range(ndim1 - axes, ndim1)), tuple(range(axes))
    try:
        a1, a2 = axes
        a1 = tuple(a1) if isinstance(a1, (tuple, list)) else (a1,)
        a2 = tuple(a2) if isinstance(a2, (tuple, list)) else (a2,)
    except (TypeError, ValueError):
        raise TypeError(
            f"tensordot: axes must be an int or a pair of sequences, got {axes!r}"
        ) from None
    if len(a1) != len(a2):
        raise ValueError(f"tensordot: the two sequences in axes differ in length: {axes!r}")
    return tuple(a % ndim1 for a in a1), tuple(a % ndim2 for a in a2)

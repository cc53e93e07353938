"""Linear algebra: the array API ``linalg`` extension and the main-namespace functions.

``matmul``, ``matrix_transpose``, ``tensordot`` and ``vecdot`` are in both ``ivy_like`` and
``ivy_like.linalg``; the rest only in ``ivy_like.linalg``.

Rules decided once for every backend:

* The decompositions and solvers (cholesky, det, eig, eigh, eigvals, eigvalsh, inv,
  matrix_norm, matrix_power, matrix_rank, pinv, qr, slogdet, solve, svd, svdvals, vector_norm)
  take floating-point arrays only; integer or boolean input is a ``TypeError`` (NumPy would
  compute in float64, JAX in float32: they disagree, so neither is chosen). Results keep the
  input's precision (float32 in, float32 out). ``matmul``, ``tensordot``, ``vecdot``, ``outer``,
  ``cross``, ``trace``, ``diagonal`` and ``matrix_transpose`` take any numeric dtype.
* Stacks: every matrix function works on ``(..., M, N)`` and broadcasts batch dimensions.
* ``solve(x1, x2)`` treats ``x2`` as a vector only when it is one-dimensional (the standard's
  rule; torch's own rule also guesses from the shapes, here it never does). An ``x2`` without
  ``x1``'s rows, or with batch dimensions that do not broadcast with ``x1``'s, is a
  ``ValueError`` naming ``x2`` on every backend.
* ``matrix_rank`` and ``pinv`` cut singular values below ``rtol * largest``; the default
  ``rtol`` is ``max(M, N) * eps`` of the dtype on every backend (JAX's own default is 10x
  larger, NumPy's pinv uses 1e-15). ``matrix_rank`` gives the backend's default integer.
* ``eigh`` eigenvalues are ascending. Eigenvector and singular vector signs (phases) are not
  unique and may differ between backends; ``U @ diag(S) @ Vh`` and ``A @ v = v * w`` agree.
* ``eig`` and ``eigvals`` (array API 2025.12, any square matrix) always return complex arrays
  of the input's precision: complex64 for float32 and complex64 input, complex128 for float64
  and complex128, also when every eigenvalue is real (NumPy's own would be real then). The
  order of the eigenvalues is unspecified and differs between backends (MLX's is not
  LAPACK's), and each eigenvector (a column of unit 2-norm) has a phase that may differ too;
  ``A @ v = v * w`` holds on every backend. A defective matrix (a repeated eigenvalue with
  fewer eigenvectors) has no full set of them, and TensorFlow's float32 solver can return
  columns that are not eigenvectors there. Gradients (torch, TensorFlow, JAX) assume distinct
  eigenvalues and a loss that does not depend on the eigenvectors' phases, as the frameworks'
  own do (torch raises for a loss that does; the jax backend opts in to JAX's eigenvector
  derivatives, ``enable_eigvec_derivs``). The mlx backend cannot differentiate them (MLX 0.32
  has no gradient for them): ``grad`` through them is a ``NotImplementedError``, never a
  zero. It refuses float64 input with a ``TypeError`` (MLX has no complex128 for the
  results), and complex input as for every decomposition there. MXNet has no complex dtype:
  neither function is supported there.
* A singular matrix given to ``inv`` or ``solve`` (``x1``) is a :class:`LinAlgError` in eager
  code on every backend, naming the function and the argument; for a stack, when any of its
  matrices is singular. Singular means what LAPACK's LU says: an exactly zero pivot
  (``info > 0``), found by the framework's own factorization. So an exactly singular matrix
  is caught, and a nearly singular one is not (its inverse is returned, large, as NumPy
  does); input holding NaN follows the framework's LU (NumPy, JAX and TensorFlow find a zero
  pivot, torch and MLX return NaN). The check costs nothing where the framework raises
  (NumPy, torch, TensorFlow, MXNet: its error is translated on the failure path). JAX
  returns inf/NaN: a concrete result is tested for non-finite values in the same jitted call
  as the solve (one more reduction, a read of one bool), and only a non-finite one has its
  LU pivots inspected. MLX raises when the result is evaluated, and ``numpy.asarray`` of
  that result gives garbage without an error, so the mlx backend evaluates the result
  (a synchronisation MLX would make later anyway). Where the values are not known (inside
  ``jax.jit``, ``jax.grad`` and ``jax.vmap``, ``tf.function``, ``mx.compile``/``mx.vmap``,
  ``torch.compile`` graphs) nothing is checked and the framework's own result or error
  comes out: inf/NaN on JAX, an ``InvalidArgumentError`` when a TensorFlow graph runs, the
  framework's values on MLX. ``cholesky`` of a matrix that is not positive definite: what
  the framework does.
* ``cholesky`` reads the lower triangle, or the upper one with ``upper=True``; ``eigh`` and
  ``eigvalsh`` read the lower triangle (NumPy's rules; JAX and TensorFlow read the lower
  triangle for ``upper=True`` too, torch and MLX not). Their gradient is the symmetric
  (Hermitian) matrix ``(G + G^H) / 2``, torch's convention and JAX's default, on every
  backend, also for non-symmetric input (TensorFlow's eigh gradient is folded into the lower
  triangle, JAX's Cholesky gradient is unsymmetrized: both are symmetrized here).
* Gradients agree across the autodiff backends (tested against float64 finite differences).
  At a zero vector (matrix) the gradient of ``vector_norm`` with ``ord > 1`` and of the
  Frobenius ``matrix_norm`` is 0, torch's subgradient, on every backend (JAX, TensorFlow,
  MLX and MXNet gave NaN: the root's slope is infinite at 0).
  MLX 0.32 has no gradient for inv, solve, cholesky, eigh, eigvalsh, svd or qr: the mlx
  backend defines them, and pinv's (``backends/mlx/_linalg_vjp.py``). The gradient of
  ``svd(x, full_matrices=True)`` of a non-square ``x`` flows through the first ``min(m, n)``
  columns of ``U`` and rows of ``Vh`` only (the rest are not unique), as in torch and
  TensorFlow; the jax backend adds that derivative (JAX 0.10 raises ``NotImplementedError``).
* Half precision (float16, bfloat16) is computed in float32 and the result cast back to the
  input's dtype, by every function above from cholesky to vector_norm (``matrix_rank`` gives
  its integer count, ``eig`` and ``eigvals`` complex64). The frameworks otherwise disagree: most refuse half precision with five
  different errors, some accept it for one function and not the next, and those that accept
  it for ``vector_norm`` overflow at ``256**2`` where torch accumulates in float32. The
  default ``rtol`` of ``pinv``/``matrix_rank`` still uses the input dtype's eps. ``solve``
  returns half precision when both operands have the same half dtype, otherwise the promoted
  dtype (float16 with bfloat16 or float32: float32; with float64: float64).
* MLX runs its decompositions on the CPU stream (its GPU has none); float64 works there on the
  CPU. TensorFlow and MLX compose ``matrix_norm``, ``vector_norm``, ``matrix_power``,
  ``matrix_rank`` and similar from their own ops.

The named-tuple result types are defined here, without any framework import; every backend
returns them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from ..core.decided_errors import (
    KIND_OF_DTYPE,
    NUMERIC,
    decided,
    kind_of,
    matmul_shapes,
    shape_of,
    tensordot_axes,
)
from ..core.registry import op

__all__ = ["EigResult", "EighResult", "LinAlgError", "QRResult", "SVDResult", "SlogdetResult"]


class LinAlgError(np.linalg.LinAlgError, ValueError):
    """A singular matrix given to :func:`ivy_like.linalg.inv` or :func:`ivy_like.linalg.solve`.

    The same type on every backend, in eager code (see the rules at the top of this module).
    A ``ValueError``, and NumPy's ``numpy.linalg.LinAlgError`` too: NumPy is ivy_like's one
    required dependency, so code that catches NumPy's error keeps working on every backend
    (NumPy 1's LinAlgError is not a ValueError, hence both bases).

    Examples
    --------
    >>> import ivy_like
    >>> try:
    ...     ivy_like.linalg.inv(ivy_like.array([[1., 2.], [2., 4.]]))
    ... except ivy_like.linalg.LinAlgError as e:
    ...     print(e)
    linalg.inv: x is singular (its LU factorization has a zero pivot)
    """


class EigResult(NamedTuple):
    """``(eigenvalues, eigenvectors)`` of :func:`ivy_like.linalg.eig`."""

    eigenvalues: Any
    eigenvectors: Any


class EighResult(NamedTuple):
    """``(eigenvalues, eigenvectors)`` of :func:`ivy_like.linalg.eigh`."""

    eigenvalues: Any
    eigenvectors: Any


class QRResult(NamedTuple):
    """``(Q, R)`` of :func:`ivy_like.linalg.qr`."""

    Q: Any
    R: Any


class SlogdetResult(NamedTuple):
    """``(sign, logabsdet)`` of :func:`ivy_like.linalg.slogdet`."""

    sign: Any
    logabsdet: Any


class SVDResult(NamedTuple):
    """``(U, S, Vh)`` of :func:`ivy_like.linalg.svd`."""

    U: Any
    S: Any
    Vh: Any


_BOTH = ("", "linalg")
_LINALG = ("linalg",)


# -- argument checks (run before any kernel; see ``OpSpec.check``) -------------------------------
MATRIX_NORM_ORDS = ("fro", "nuc", 1, -1, 2, -2, float("inf"), -float("inf"))
_FLOATING = ("f", "c")


def _matrices(name: str, x: Any, square: bool = False, floating: bool = True) -> None:
    """``x`` a floating-point array (``floating``) and a stack of (``square``) matrices. The
    frameworks would compute integers in float64 or float32, or refuse them in their words."""
    if floating and kind_of(x) not in _FLOATING:
        raise TypeError(f"linalg.{name}: expected a floating-point array (see ivy_like.linalg)")
    shape = shape_of(x)
    if shape is None:
        return
    if len(shape) < 2:
        raise ValueError(f"linalg.{name}: x must be at least 2-D, got shape {shape}")
    if square and shape[-1] != shape[-2]:
        raise ValueError(f"linalg.{name}: x must be square, got shape {shape}")


def _check_matrix_transpose(x: Any, /) -> None:
    _matrices("matrix_transpose", x, floating=False)


def _check_diagonal(x: Any, /, **_: Any) -> None:
    _matrices("diagonal", x, floating=False)


def _check_trace(x: Any, /, **_: Any) -> None:
    _matrices("trace", x, floating=False)


def _square_check(name: str) -> Callable[..., None]:
    """The check of an op of one floating-point stack of square matrices."""

    def check(x: Any, /, **_: Any) -> None:
        _matrices(name, x, square=True)

    check.__name__ = check.__qualname__ = f"_check_{name}"
    return check


def _matrix_check(name: str) -> Callable[..., None]:
    """The check of an op of one floating-point stack of matrices."""

    def check(x: Any, /, **_: Any) -> None:
        _matrices(name, x)

    check.__name__ = check.__qualname__ = f"_check_{name}"
    return check


def _check_matrix_power(x: Any, n: Any, /) -> None:
    _matrices("matrix_power", x, square=True)
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"linalg.matrix_power: n must be an int, got {n!r}")


def _check_matrix_norm(x: Any, /, *, keepdims: Any = False, ord: Any = "fro") -> None:  # noqa: A002
    if isinstance(ord, bool) or ord not in MATRIX_NORM_ORDS:
        raise ValueError(
            f"linalg.matrix_norm: ord must be one of 'fro', 'nuc', 1, -1, 2, -2, inf, -inf; "
            f"got {ord!r}"
        )
    _matrices("matrix_norm", x)


def _check_qr(x: Any, /, *, mode: Any = "reduced") -> None:
    if mode != "reduced" and mode != "complete":
        raise ValueError(f"linalg.qr: mode must be 'reduced' or 'complete', got {mode!r}")
    _matrices("qr", x)


def _check_vector_norm(x: Any, /, *, axis: Any = None, keepdims: Any = False, ord: Any = 2) -> None:  # noqa: A002
    if kind_of(x) not in _FLOATING:
        raise TypeError("linalg.vector_norm: expected a floating-point array (see ivy_like.linalg)")
    if isinstance(ord, bool) or not isinstance(ord, (int, float)) or ord != ord:
        raise ValueError(f"linalg.vector_norm: ord must be a real number, got {ord!r}")


def _check_solve(x1: Any, x2: Any, /) -> None:
    """Floating-point ``x1`` and ``x2`` (NumPy would solve integers in float64, JAX in
    float32). Two dict lookups on the common path: ``solve`` is timed per call. The shapes
    are decided by :func:`solve_shapes` once a framework refused them."""
    try:
        if KIND_OF_DTYPE[x1.dtype] in _FLOATING and KIND_OF_DTYPE[x2.dtype] in _FLOATING:
            return
    except (AttributeError, KeyError, TypeError):  # a dtype not met yet (kind_of adds it)
        pass
    for x in (x1, x2):
        if kind_of(x) not in _FLOATING:
            raise TypeError("linalg.solve: expected a floating-point array (see ivy_like.linalg)")


def solve_operands_error(x1: Any, x2: Any) -> Exception | None:
    """The decided error for the shapes of ``solve``'s operands, or None: ``x1`` a stack of
    square matrices; ``x2`` a vector of ``n`` values (``n`` = x1's rows) or a stack of ``n``-row
    matrices whose batch dimensions broadcast with x1's. The frameworks raise ValueError,
    RuntimeError or InvalidArgumentError here, in their own words; ivy_like raises one
    ValueError. Unknown (None) sizes of a traced TensorFlow shape are not checked. (MXNet, which
    reports a bad shape only when the result is read, calls it before its solve.)"""
    shape1, shape2 = shape_of(x1), shape_of(x2)
    if shape1 is None or shape2 is None:
        return None
    if len(shape1) < 2:
        return ValueError(f"linalg.solve: x must be at least 2-D, got shape {shape1}")
    if shape1[-1] != shape1[-2]:
        return ValueError(f"linalg.solve: x must be square, got shape {shape1}")
    n = shape1[-1]
    if len(shape2) == 0:
        return ValueError("linalg.solve: x2 must be at least 1-D, got a 0-d array")
    rows = shape2[-1] if len(shape2) == 1 else shape2[-2]
    if rows != n and rows is not None and n is not None:
        return ValueError(
            f"linalg.solve: x2 must have x1's {n} rows, got x2 of shape {shape2} for "
            f"x1 of shape {shape1}"
        )
    for a, b in zip(reversed(shape1[:-2]), reversed(shape2[:-2])):
        if a != b and 1 not in (a, b) and None not in (a, b):
            return ValueError(
                f"linalg.solve: the batch dimensions of x1 {shape1[:-2]} and x2 "
                f"{shape2[:-2]} do not broadcast"
            )
    return None


def solve_shapes(spec: Any, args: dict[str, Any]) -> None:
    """``solve``'s shape rule, after a framework failed (see :func:`solve_operands_error`)."""
    error = solve_operands_error(args["x1"], args["x2"])
    if error is not None:
        raise decided(error)


# -- in ivy_like and ivy_like.linalg ------------------------------------------------------------
@op(arrays=("x1", "x2"), namespaces=_BOTH, dtype_category=NUMERIC, shape_rule=matmul_shapes)
def matmul(x1: Any, x2: Any, /, *, out: Any = None):
    """Matrix product with broadcasting over leading dimensions (``x1 @ x2``).

    Examples
    --------
    >>> import ivy_like
    >>> a = ivy_like.array([[1., 2.], [3., 4.]])
    >>> ivy_like.matmul(a, ivy_like.array([1., 1.]))
    ivy_like.array([3., 7.])
    """


@op(arrays=("x",), namespaces=_BOTH, check=_check_matrix_transpose)
def matrix_transpose(x: Any, /, *, out: Any = None):
    """Transpose the last two axes of ``x`` (at least two-dimensional).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.matrix_transpose(ivy_like.array([[1., 2., 3.]]))
    ivy_like.array([[1.],
                    [2.],
                    [3.]])
    """


@op(arrays=("x1", "x2"), namespaces=_BOTH, dtype_category=NUMERIC, shape_rule=tensordot_axes)
def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2, out: Any = None):
    """Sum of products over the last ``axes`` axes of ``x1`` and the first of ``x2``.

    ``axes`` is an int N (the last N of ``x1`` with the first N of ``x2``) or a pair of
    sequences of axes, contracted pairwise. Contracted axes must have equal sizes.

    Examples
    --------
    >>> import ivy_like
    >>> a = ivy_like.array([[1., 2.], [3., 4.]])
    >>> ivy_like.tensordot(a, a, axes=1)
    ivy_like.array([[ 7., 10.],
                    [15., 22.]])
    >>> ivy_like.tensordot(a, a, axes=([0, 1], [0, 1]))
    ivy_like.array(30.)
    """


@op(arrays=("x1", "x2"), namespaces=_BOTH, dtype_category=NUMERIC)
def vecdot(x1: Any, x2: Any, /, *, axis: int = -1, out: Any = None):
    """Dot product of vectors along ``axis``: ``sum(conj(x1) * x2, axis)``, broadcasting the rest.

    ``axis`` must be negative (counted from the end after broadcasting, as the standard asks)
    and ``x1`` and ``x2`` must have the same size along it; otherwise ``ValueError``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.vecdot(ivy_like.array([[1., 2.], [3., 4.]]), ivy_like.array([1., 1.]))
    ivy_like.array([3., 7.])
    """


# -- ivy_like.linalg only -------------------------------------------------------------------------
@op(arrays=("x",), namespaces=_LINALG, check=_square_check("cholesky"))
def cholesky(x: Any, /, *, upper: bool = False, out: Any = None):
    """Cholesky factor of a symmetric (Hermitian) positive-definite matrix (stack).

    Lower-triangular ``L`` with ``x = L @ L^H``; with ``upper=True`` the upper factor
    ``U = L^H`` with ``x = U^H @ U``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.linalg.cholesky(ivy_like.array([[4., 2.], [2., 5.]]))
    ivy_like.array([[2., 0.],
                    [1., 2.]])
    """


@op(arrays=("x1", "x2"), namespaces=_LINALG)
def cross(x1: Any, x2: Any, /, *, axis: int = -1, out: Any = None):
    """Cross product of 3-element vectors along ``axis``, broadcasting the other axes.

    ``axis`` must be negative and the size along it 3 in both arrays (``ValueError``).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.linalg.cross(ivy_like.array([1., 0., 0.]), ivy_like.array([0., 1., 0.]))
    ivy_like.array([0., 0., 1.])
    """


@op(arrays=("x",), namespaces=_LINALG, check=_square_check("det"))
def det(x: Any, /, *, out: Any = None):
    """Determinant of a square matrix (or of each in a stack).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.linalg.det(ivy_like.array([[1., 2.], [3., 4.]]))
    ivy_like.array(-2.)
    """


@op(arrays=("x",), namespaces=_LINALG, check=_check_diagonal)
def diagonal(x: Any, /, *, offset: int = 0, out: Any = None):
    """The ``offset``-th diagonal of the last two axes (above the main one when positive).

    An offset outside the matrix gives an empty last axis.

    Examples
    --------
    >>> import ivy_like
    >>> a = ivy_like.array([[1., 2., 3.], [4., 5., 6.]])
    >>> ivy_like.linalg.diagonal(a), ivy_like.linalg.diagonal(a, offset=1)
    (ivy_like.array([1., 5.]), ivy_like.array([2., 6.]))
    """


@op(arrays=("x",), n_outputs=2, namespaces=_LINALG, check=_square_check("eig"))
def eig(x: Any, /):
    """Eigenvalues and eigenvectors (columns) of a general square matrix (stack); 2025.12.

    Returns an :class:`EigResult` ``(eigenvalues, eigenvectors)`` with ``x @ v = v * w``, both
    complex of ``x``'s precision (complex64 for float32, complex128 for float64), also when
    the eigenvalues are real. Their order is unspecified and differs between backends, and
    each eigenvector has unit 2-norm and a phase that may differ too (see the module notes).
    For a symmetric (Hermitian) matrix, :func:`eigh` is faster and gives real, ascending
    eigenvalues.

    Examples
    --------
    >>> import ivy_like
    >>> a = ivy_like.array([[2., 1.], [0., 3.]])
    >>> w, v = ivy_like.linalg.eig(a)
    >>> w.dtype, v.dtype
    (ivy_like.complex64, ivy_like.complex64)
    >>> ivy_like.sort(ivy_like.real(w))
    ivy_like.array([2., 3.])
    >>> bool(ivy_like.all(ivy_like.abs(a @ v - v * w) < 1e-5))
    True
    """


@op(arrays=("x",), namespaces=_LINALG, check=_square_check("eigvals"))
def eigvals(x: Any, /, *, out: Any = None):
    """Eigenvalues of a general square matrix (stack), complex of ``x``'s precision; 2025.12.

    complex64 for float32 input, complex128 for float64, also when they are real. Their
    order is unspecified and differs between backends (see :func:`eig`).

    Examples
    --------
    >>> import ivy_like
    >>> w = ivy_like.linalg.eigvals(ivy_like.array([[0., -1.], [1., 0.]]))
    >>> w.dtype
    ivy_like.complex64
    >>> ivy_like.sort(ivy_like.imag(w))
    ivy_like.array([-1.,  1.])
    """


@op(arrays=("x",), n_outputs=2, namespaces=_LINALG, check=_square_check("eigh"))
def eigh(x: Any, /):
    """Eigenvalues (ascending) and eigenvectors (columns) of a symmetric/Hermitian matrix.

    Returns an :class:`EighResult` ``(eigenvalues, eigenvectors)``; only the lower triangle
    of ``x`` is read. Eigenvector signs are not unique (see the module notes).

    Examples
    --------
    >>> import ivy_like
    >>> w, v = ivy_like.linalg.eigh(ivy_like.array([[2., 0.], [0., 1.]]))
    >>> w
    ivy_like.array([1., 2.])
    """


@op(arrays=("x",), namespaces=_LINALG, check=_square_check("eigvalsh"))
def eigvalsh(x: Any, /, *, out: Any = None):
    """Eigenvalues (ascending) of a symmetric/Hermitian matrix (stack).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.linalg.eigvalsh(ivy_like.array([[3., 0.], [0., 1.]]))
    ivy_like.array([1., 3.])
    """


@op(arrays=("x",), namespaces=_LINALG, check=_square_check("inv"))
def inv(x: Any, /, *, out: Any = None):
    """Inverse of a square matrix (stack).

    A singular ``x`` (a zero pivot in its LU factorization; in a stack, any of its matrices)
    is a :class:`LinAlgError` in eager code on every backend; see the module's rules for
    traced code.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.linalg.inv(ivy_like.array([[2., 1.], [1., 1.]]))
    ivy_like.array([[ 1., -1.],
                    [-1.,  2.]])
    """


@op(arrays=("x",), namespaces=_LINALG, check=_check_matrix_norm)
def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro", out: Any = None):  # noqa: A002
    """Matrix norm over the last two axes.

    ``ord``: ``"fro"`` (Frobenius), ``"nuc"`` (sum of singular values), ``1``/``-1`` (max/min
    column sum of absolute values), ``inf``/``-inf`` (max/min row sum), ``2``/``-2``
    (largest/smallest singular value). Any other value is a ``ValueError``. Complex input
    gives a real result of the same precision.

    Examples
    --------
    >>> import ivy_like
    >>> a = ivy_like.array([[3., 0.], [0., 4.]])
    >>> ivy_like.linalg.matrix_norm(a), ivy_like.linalg.matrix_norm(a, ord=1)
    (ivy_like.array(5.), ivy_like.array(4.))
    """


@op(arrays=("x",), namespaces=_LINALG, check=_check_matrix_power)
def matrix_power(x: Any, n: int, /, *, out: Any = None):
    """``x`` raised to the integer power ``n`` (``n = 0``: identity; negative: of the inverse).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.linalg.matrix_power(ivy_like.array([[1., 1.], [0., 1.]]), 3)
    ivy_like.array([[1., 3.],
                    [0., 1.]])
    """


@op(arrays=("x", "rtol"), namespaces=_LINALG, check=_matrix_check("matrix_rank"))
def matrix_rank(x: Any, /, *, rtol: Any = None, out: Any = None):
    """Number of singular values above ``rtol * largest`` (default ``rtol``: ``max(M, N) * eps``).

    ``rtol`` is a float or an array broadcasting against the stack shape. The result has the
    backend's default integer dtype.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.linalg.matrix_rank(ivy_like.array([[1., 2.], [2., 4.]]))
    ivy_like.array(1)
    """


@op(arrays=("x1", "x2"), namespaces=_LINALG)
def outer(x1: Any, x2: Any, /, *, out: Any = None):
    """Outer product of two one-dimensional arrays: ``out[i, j] = x1[i] * x2[j]``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.linalg.outer(ivy_like.array([1., 2.]), ivy_like.array([1., 10.]))
    ivy_like.array([[ 1., 10.],
                    [ 2., 20.]])
    """


@op(arrays=("x", "rtol"), namespaces=_LINALG, check=_matrix_check("pinv"))
def pinv(x: Any, /, *, rtol: Any = None, out: Any = None):
    """Moore-Penrose pseudo-inverse; singular values below ``rtol * largest`` count as zero.

    The default ``rtol`` is ``max(M, N) * eps`` of the dtype on every backend.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.linalg.pinv(ivy_like.array([[2., 0.], [0., 0.]]))
    ivy_like.array([[0.5, 0. ],
                    [0. , 0. ]])
    """


@op(arrays=("x",), n_outputs=2, namespaces=_LINALG, check=_check_qr)
def qr(x: Any, /, *, mode: str = "reduced"):
    """QR decomposition ``x = Q @ R`` of an ``(..., M, N)`` matrix; a :class:`QRResult`.

    ``mode="reduced"``: ``Q`` is ``(..., M, K)`` and ``R`` ``(..., K, N)`` with
    ``K = min(M, N)``; ``mode="complete"``: ``Q`` is ``(..., M, M)`` and ``R`` ``(..., M, N)``.
    Column signs of ``Q`` (rows of ``R``) may differ between backends.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.ones((3, 2))
    >>> [a.shape for a in ivy_like.linalg.qr(x)], [a.shape for a in ivy_like.linalg.qr(x, mode="complete")]
    ([(3, 2), (2, 2)], [(3, 3), (3, 2)])
    """


@op(arrays=("x",), n_outputs=2, namespaces=_LINALG, check=_square_check("slogdet"))
def slogdet(x: Any, /):
    """Sign and natural log of the absolute determinant; a :class:`SlogdetResult`.

    For a singular matrix the sign is 0 and ``logabsdet`` is ``-inf``.

    Examples
    --------
    >>> import ivy_like
    >>> sign, logabsdet = ivy_like.linalg.slogdet(ivy_like.array([[-4., 0.], [0., 0.25]]))
    >>> sign, logabsdet
    (ivy_like.array(-1.), ivy_like.array(0.))
    """


@op(arrays=("x1", "x2"), namespaces=_LINALG, shape_rule=solve_shapes, check=_check_solve)
def solve(x1: Any, x2: Any, /, *, out: Any = None):
    """Solve ``x1 @ result = x2`` for square ``x1``, broadcasting batch dimensions.

    ``x2`` is a vector only when it is one-dimensional; otherwise a stack of matrices. A
    singular ``x1`` is a :class:`LinAlgError` in eager code on every backend, as for
    :func:`inv`.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.linalg.solve(ivy_like.array([[2., 0.], [0., 4.]]), ivy_like.array([2., 2.]))
    ivy_like.array([1. , 0.5])
    """


@op(arrays=("x",), n_outputs=3, namespaces=_LINALG, check=_matrix_check("svd"))
def svd(x: Any, /, *, full_matrices: bool = True):
    """Singular value decomposition ``x = U @ diag(S) @ Vh``; an :class:`SVDResult`.

    ``S`` is descending. With ``full_matrices=False``, ``U`` is ``(..., M, K)`` and ``Vh``
    ``(..., K, N)`` for ``K = min(M, N)``; otherwise square. Singular vector signs may differ
    between backends.

    Examples
    --------
    >>> import ivy_like
    >>> u, s, vh = ivy_like.linalg.svd(ivy_like.array([[0., 2.], [3., 0.]]))
    >>> s
    ivy_like.array([3., 2.])
    """


@op(arrays=("x",), namespaces=_LINALG, check=_matrix_check("svdvals"))
def svdvals(x: Any, /, *, out: Any = None):
    """Singular values of ``x`` (stack), descending.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.linalg.svdvals(ivy_like.array([[0., 2.], [3., 0.]]))
    ivy_like.array([3., 2.])
    """


@op(arrays=("x",), dtypes=("dtype",), namespaces=_LINALG, check=_check_trace)
def trace(x: Any, /, *, offset: int = 0, dtype: Any = None, out: Any = None):
    """Sum of the ``offset``-th diagonal of the last two axes.

    Without ``dtype`` the dtype follows ``ivy_like.sum``: booleans and integers narrower than
    the backend's default integer are summed in it, floats keep their dtype.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.linalg.trace(ivy_like.array([[1., 2.], [3., 4.]]))
    ivy_like.array(5.)
    """


@op(arrays=("x",), namespaces=_LINALG, check=_check_vector_norm)
def vector_norm(
    x: Any,
    /,
    *,
    axis: Any = None,
    keepdims: bool = False,
    ord: Any = 2,  # noqa: A002
    out: Any = None,
):
    """Vector p-norm over ``axis`` (None: all elements; a tuple: those axes as one vector).

    ``ord``: any nonzero real p (``sum(abs(x)**p)**(1/p)``), ``inf``/``-inf`` (max/min of
    ``abs(x)``) or ``0`` (number of nonzero elements, as a float). Complex input gives a real
    result of the same precision.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.linalg.vector_norm(ivy_like.array([3., -4.]))
    ivy_like.array(5.)
    >>> ivy_like.linalg.vector_norm(ivy_like.array([3., -4.]), ord=float("inf"))
    ivy_like.array(4.)
    """

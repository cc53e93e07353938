"""``linalg.eig`` and ``linalg.eigvals`` (array API 2025.12) on every backend.

The standard leaves the order of the eigenvalues and the phase of each eigenvector
unspecified, and the backends differ in both (MLX's order is not LAPACK's, TensorFlow's
phases are not NumPy's), so nothing here compares raw vectors or positions: eigenvectors are
checked by ``A v = v w`` and their unit norm, eigenvalues against NumPy's after pairing each
with its nearest (the matrices have well-separated eigenvalues), and gradients through losses
that depend on neither order nor phase. The rules themselves are in ``ivy_like.ops.linalg``.
"""

from __future__ import annotations

import numpy as np
import pytest

import ivy_like
from ivy_like.ops.linalg import EigResult
from ivy_like.testing import assert_close

F32 = np.float32
TOL = {"rtol": 1e-5, "atol": 1e-5}
# Distinct, well-separated eigenvalues: three real ones (1.27, 1.59, 3.14), a complex pair
# and a real one (1.02 +- 1.98i, 2.96), a triangular matrix (its diagonal: 1, 3, 2).
MATRICES = {
    "real": np.array([[2.0, 1.0, 0.5], [0.3, 3.0, 1.0], [0.2, -0.4, 1.0]]),
    "complex_pair": np.array([[1.0, -2.0, 0.0], [2.0, 1.0, 0.5], [0.3, 0.0, 3.0]]),
    "triangular": np.array([[1.0, 2.0, 0.0], [0.0, 3.0, 1.0], [0.0, 0.0, 2.0]]),
}
COMPLEX = {
    "complex64": np.complex64,
    "complex128": np.complex128,
}
# The complex dtype of the results, for each input dtype.
RESULT_DTYPE = {
    "float32": np.complex64,
    "float64": np.complex128,
    "complex64": np.complex64,
    "complex128": np.complex128,
}
# Backends that cannot differentiate eig/eigvals (a NotImplementedError under grad).
NO_GRADIENT = {"mlx"}


def np_of(x):
    return x.to_numpy() if isinstance(x, ivy_like.Array) else ivy_like.backend_of(x).to_numpy(x)


def paired(got, want):
    """``got`` reordered along its last axis to pair each of ``want`` with its nearest value
    (for well-separated eigenvalues: the same eigenvalue), for every matrix of a stack."""
    out = np.empty_like(got)
    for index in np.ndindex(got.shape[:-1]):
        free = list(range(got.shape[-1]))
        for j, value in enumerate(want[index]):
            nearest = min(free, key=lambda i: abs(got[index][i] - value))
            free.remove(nearest)
            out[index + (j,)] = got[index][nearest]
    return out


def check_eig(a, result, eigenvalues, dtype, tol):
    """``result`` (eig's) and ``eigenvalues`` (eigvals') of ``a`` (NumPy, any precision)."""
    assert type(result) is EigResult
    w, v, w_only = np_of(result.eigenvalues), np_of(result.eigenvectors), np_of(eigenvalues)
    assert w.dtype == v.dtype == w_only.dtype == dtype
    assert w.shape == w_only.shape == a.shape[:-1] and v.shape == a.shape
    a = a.astype(dtype)
    assert_close(a @ v, v * w[..., None, :], **tol)  # the definition, free of order and phase
    assert_close(np.linalg.norm(v, axis=-2), np.ones(a.shape[:-1], w.real.dtype), **tol)
    want = np.linalg.eigvals(a.astype(np.complex128)).astype(dtype)
    assert_close(paired(w, want), want, **tol)
    assert_close(paired(w_only, want), want, **tol)


@pytest.mark.parametrize("name", list(MATRICES))
def test_eig_and_eigvals_of_float32_matrices(backend, name):
    a = MATRICES[name].astype(F32)
    x = backend.asarray(a)
    check_eig(a, ivy_like.linalg.eig(x), ivy_like.linalg.eigvals(x), np.complex64, TOL)


def test_a_stack_of_matrices(backend):
    """Batch dimensions: each matrix of a (2, 3, 3, 3) stack on its own."""
    a = np.stack([np.stack(list(MATRICES.values()))] * 2).astype(F32)
    a[1] *= -0.5
    x = backend.asarray(a)
    check_eig(a, ivy_like.linalg.eig(x), ivy_like.linalg.eigvals(x), np.complex64, TOL)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_results_are_complex_of_the_inputs_precision(backend, dtype):
    """float32 and complex64 in: complex64 out; float64 and complex128: complex128 (the
    triangular matrix too, whose eigenvalues are all real)."""
    unified = getattr(ivy_like, dtype)
    if unified not in backend.module.DTYPES:
        pytest.skip(f"{backend.name} has no {dtype}")
    a = MATRICES["complex_pair"]
    if dtype in COMPLEX:
        a = a + 1j * MATRICES["real"].T  # a complex matrix: eigenvalues with no conjugate
    for matrix in (a, MATRICES["triangular"].astype(a.dtype)):
        x = ivy_like.asarray(matrix, dtype=unified)
        if backend.name == "mlx" and dtype != "float32":
            # MLX has no complex128, and no complex decompositions (ivy_like.ops.linalg).
            message = "complex128" if dtype == "float64" else "complex input"
            for fn in (ivy_like.linalg.eig, ivy_like.linalg.eigvals):
                with pytest.raises(TypeError, match=message):
                    fn(x)
            return
        tol = TOL if dtype in ("float32", "complex64") else {"rtol": 1e-12, "atol": 1e-12}
        eigenvalues = ivy_like.linalg.eigvals(x)
        check_eig(matrix, ivy_like.linalg.eig(x), eigenvalues, RESULT_DTYPE[dtype], tol)


@pytest.mark.parametrize("half", ["float16", "bfloat16"])
def test_half_precision_is_computed_in_float32(backend, half):
    """Half precision in: the float32 computation of the same values, complex64 out."""
    dtype = getattr(ivy_like, half)
    if dtype not in backend.module.DTYPES:
        pytest.skip(f"{backend.name} has no {half}")
    a = np.array([[2.0, 1.0, 0.5], [0.25, 3.0, 1.0], [0.125, -0.5, 1.0]])  # exact in both
    wide = ivy_like.asarray(a, dtype=ivy_like.float32)
    x = ivy_like.asarray(a, dtype=dtype)
    got, want = ivy_like.linalg.eig(x), ivy_like.linalg.eig(wide)
    assert type(got) is EigResult
    for g, w in zip(got, want):
        assert g.dtype == ivy_like.complex64
        np.testing.assert_array_equal(g.to_numpy(), w.to_numpy())
    got = ivy_like.linalg.eigvals(x)
    assert got.dtype == ivy_like.complex64
    np.testing.assert_array_equal(got.to_numpy(), ivy_like.linalg.eigvals(wide).to_numpy())


@pytest.mark.parametrize("name", ["eig", "eigvals"])
def test_decided_errors(backend, name):
    """The same error on every backend, before any kernel runs (ivy_like.ops.linalg)."""
    fn = getattr(ivy_like.linalg, name)
    with pytest.raises(ValueError, match=rf"linalg\.{name}: x must be square, got shape \(2, 3\)"):
        fn(backend.asarray(np.ones((2, 3), F32)))
    with pytest.raises(ValueError, match=rf"linalg\.{name}: x must be square"):
        fn(backend.asarray(np.ones((4, 2, 3), F32)))
    with pytest.raises(ValueError, match=rf"linalg\.{name}: x must be at least 2-D"):
        fn(backend.asarray(np.ones(3, F32)))
    with pytest.raises(ValueError, match=rf"linalg\.{name}: x must be at least 2-D"):
        fn(backend.asarray(np.asarray(1.0, F32)))
    for dtype in (np.int32, np.bool_):
        with pytest.raises(TypeError, match=rf"linalg\.{name}: expected a floating-point array"):
            fn(backend.asarray(np.eye(2, dtype=dtype)))


def test_entry_points(backend):
    """Native arrays in, native arrays out (in an EigResult); Arrays in, Arrays out; the
    Array methods."""
    a = MATRICES["real"].astype(F32)
    native = ivy_like.linalg.eig(backend.asarray(a))
    assert type(native) is EigResult
    for part in native:
        assert ivy_like.backend_of(part) is backend and not isinstance(part, ivy_like.Array)
    arr = ivy_like.asarray(a)
    result = arr.eig()
    assert type(result) is EigResult
    assert all(isinstance(part, ivy_like.Array) for part in result)
    assert result.eigenvalues is result[0] and result.eigenvectors is result[1]
    assert isinstance(arr.eigvals(), ivy_like.Array)
    check_eig(a, result, arr.eigvals(), np.complex64, TOL)


# -- gradients ------------------------------------------------------------------------------------
def _eigenvalue_loss(w):
    # Symmetric in the eigenvalues (any order); imag(w)^2 is smooth where imag(w) = 0.
    return ivy_like.sum(ivy_like.real(w) ** 3) + ivy_like.sum(ivy_like.imag(w) ** 2)


def _eigenvector_loss(x):
    # |v|^2 is free of each column's phase, and weights per row only leave the loss as it is
    # under a permutation of the columns (another eigenvalue order).
    squares = ivy_like.abs(ivy_like.linalg.eig(x).eigenvectors) ** 2
    return ivy_like.sum(squares * ivy_like.asarray([[1.0], [2.0], [-0.5]], dtype=squares.dtype))


GRAD_LOSSES = {
    "eigvals": ("eigvals", lambda x: _eigenvalue_loss(ivy_like.linalg.eigvals(x))),
    "eig_eigenvalues": ("eig", lambda x: _eigenvalue_loss(ivy_like.linalg.eig(x).eigenvalues)),
    "eig_eigenvectors": ("eig", _eigenvector_loss),
}


def finite_difference_gradient(loss, a, eps=1e-6):
    """Central differences in float64 on the numpy backend: the reference gradient."""
    with ivy_like.use_backend("numpy"):
        grad = np.zeros_like(a)
        for index in np.ndindex(a.shape):
            step = np.zeros_like(a)
            step[index] = eps
            up = float(loss(ivy_like.asarray(a + step)))
            down = float(loss(ivy_like.asarray(a - step)))
            grad[index] = (up - down) / (2 * eps)
    return grad


@pytest.mark.parametrize("matrix", ["real", "complex_pair"])
@pytest.mark.parametrize("name", list(GRAD_LOSSES))
@pytest.mark.requires("autodiff")
def test_gradients_match_finite_differences(backend, name, matrix):
    """torch, TensorFlow and JAX differentiate eig and eigvals (distinct eigenvalues, a loss
    free of the eigenvectors' phases); a backend that cannot says so, never a zero."""
    function, loss = GRAD_LOSSES[name]
    a = MATRICES[matrix]
    x = ivy_like.asarray(a.astype(F32))
    if backend.name in NO_GRADIENT:
        message = rf"linalg\.{function}: the {backend.name} backend cannot differentiate"
        with pytest.raises(NotImplementedError, match=message):
            ivy_like.grad(loss)(x)
        return
    want = finite_difference_gradient(loss, a)
    got = ivy_like.grad(loss)(x)
    assert got.dtype == ivy_like.float32
    assert_close(got, want.astype(F32), rtol=2e-3, atol=2e-3 * np.abs(want).max())

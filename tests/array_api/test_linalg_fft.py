"""The linalg and fft extensions (and main-namespace linear algebra) on every backend.

Inputs are drawn with hypothesis as NumPy float32 arrays and converted to the backend under
test; NumPy (float64 where it sharpens the reference) is the oracle. Tolerances are for
float32 on well-conditioned inputs: matrices entering inv/solve/cholesky/det are drawn as
``A @ A.T + n * I`` (eigenvalues >= n, condition number <= ~2), so errors stay within a few
ulp of the data's scale times the size; factorisations whose vectors have free signs are
checked by reconstruction (``U diag(S) Vh == A``, ``A v == v w``, ``Q R == A``) and by the
properties that define them, never by comparing raw vectors.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ivy_like
from ivy_like.ops.linalg import EighResult, EigResult, QRResult, SlogdetResult, SVDResult
from ivy_like.testing import assert_close

F32 = np.float32
unit = st.floats(-1, 1, width=32, allow_subnormal=False)
batch = st.sampled_from([(), (2,), (1, 2)])
side = st.integers(1, 4)
# float32 products of entries in [-1, 1] over <= 4 terms: 1e-5 of the scale is ~ 40 ulp.
TOL = {"rtol": 1e-4, "atol": 1e-5}
# Factorisations of well-conditioned matrices, reconstructed: a few 1e-6 of ||A|| ~ n.
LOOSE = {"rtol": 1e-4, "atol": 5e-5}


def matrices(data, square=False, label="x"):
    rows = data.draw(side, label="rows")
    cols = rows if square else data.draw(side, label="cols")
    shape = data.draw(batch, label="batch") + (rows, cols)
    return data.draw(hnp.arrays(F32, shape, elements=unit), label=label)


def spd(data):
    """A symmetric positive-definite stack with eigenvalues in [n, n + n^2]."""
    a = matrices(data, square=True, label="a")
    n = a.shape[-1]
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n, dtype=F32)).astype(F32)


def t(x):
    return np.swapaxes(x, -1, -2)


def np_of(x):
    """A backend result as a NumPy array (to check properties with NumPy arithmetic)."""
    if isinstance(x, ivy_like.Array):
        return x.to_numpy()
    return ivy_like.backend_of(x).to_numpy(x)


def has_float64(backend):
    return ivy_like.float64 in backend.module.DTYPES


def needs_complex64(backend):
    """Skip where the backend has no complex64 to build the input from (mxnet)."""
    if ivy_like.complex64 not in backend.module.DTYPES:
        pytest.skip(f"{backend.name} has no complex64 (documented by the backend)")


def default_int(backend):
    return np.dtype(backend.unified_dtype(backend.module.DEFAULT_INT).name)


# NumPy references. NumPy 1 (the MXNet environment has 1.23) lacks these array API functions of
# numpy.linalg (and cholesky's `upper`, solve's reading of x2): there each is built from its
# definition with NumPy 1 functions.
NP2 = np.lib.NumpyVersion(np.__version__) >= "2.0.0"


def ref_vecdot(x1, x2, axis=-1):
    if NP2:
        return np.linalg.vecdot(x1, x2, axis=axis)
    x1, x2 = np.broadcast_arrays(x1, x2)
    x1, x2 = np.moveaxis(x1, axis, -1), np.moveaxis(x2, axis, -1)
    return np.einsum("...i,...i->...", np.conj(x1), x2)


def ref_cross(x1, x2, axis=-1):
    if NP2:
        return np.linalg.cross(x1, x2, axis=axis)
    x1, x2 = np.broadcast_arrays(x1, x2)
    (a0, a1, a2), (b0, b1, b2) = np.moveaxis(x1, axis, 0), np.moveaxis(x2, axis, 0)
    return np.moveaxis(np.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0]), 0, axis)


def ref_cholesky(a, upper):
    if NP2:
        return np.linalg.cholesky(a, upper=upper)
    lower = np.linalg.cholesky(a)
    return np.conj(t(lower)) if upper else lower


def ref_solve(a, b):
    if NP2:
        return np.linalg.solve(a, b)
    return np.linalg.inv(a) @ b  # matmul reads a 1-D b as a vector and broadcasts batches


def ref_matrix_norm(a, ord, keepdims):  # noqa: A002
    if NP2:
        return np.linalg.matrix_norm(a, ord=ord, keepdims=keepdims)
    return np.linalg.norm(a, ord=ord, axis=(-2, -1), keepdims=keepdims)


def ref_vector_norm(x, axis, keepdims, ord):  # noqa: A002
    if NP2:
        return np.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)
    a = np.abs(x)
    if ord == math.inf:
        return np.max(a, axis=axis, keepdims=keepdims)
    if ord == -math.inf:
        return np.min(a, axis=axis, keepdims=keepdims)
    if ord == 0:
        return np.sum(a != 0, axis=axis, keepdims=keepdims).astype(a.dtype)
    return np.sum(a**ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)


def ref_diagonal(a, offset):
    if NP2:
        return np.linalg.diagonal(a, offset=offset)
    return np.diagonal(a, offset=offset, axis1=-2, axis2=-1)


def ref_trace(a, offset):
    if NP2:
        return np.linalg.trace(a, offset=offset)
    return np.trace(a, offset=offset, axis1=-2, axis2=-1)


# -- main namespace and linalg: products ------------------------------------------------------
@given(data=st.data())
def test_matmul_transpose_in_both_namespaces(backend, data):
    a = matrices(data)
    b = data.draw(hnp.arrays(F32, a.shape[-1:] + (data.draw(side),), elements=unit))
    assert ivy_like.linalg.matmul is ivy_like.matmul
    assert ivy_like.linalg.matrix_transpose is ivy_like.matrix_transpose
    assert_close(ivy_like.linalg.matmul(backend.asarray(a), backend.asarray(b)), a @ b, **TOL)
    assert_close(ivy_like.matrix_transpose(backend.asarray(a)), t(a))


@given(data=st.data())
def test_tensordot(backend, data):
    x1 = data.draw(
        hnp.arrays(F32, hnp.array_shapes(min_dims=1, max_dims=3, max_side=3), elements=unit)
    )
    k = data.draw(st.integers(0, x1.ndim), label="k")
    tail = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, max_side=3), label="tail")
    x2 = data.draw(hnp.arrays(F32, x1.shape[x1.ndim - k :] + tail, elements=unit))
    got = ivy_like.tensordot(backend.asarray(x1), backend.asarray(x2), axes=k)
    assert_close(got, np.tensordot(x1, x2, axes=k), **TOL)
    # The pair form, contracting the first axis of x1 with the last of y.
    y = data.draw(hnp.arrays(F32, (2, x1.shape[0]), elements=unit))
    got = ivy_like.linalg.tensordot(backend.asarray(x1), backend.asarray(y), axes=([0], [-1]))
    assert_close(got, np.tensordot(x1, y, axes=([0], [-1])), **TOL)


@given(data=st.data())
def test_vecdot_outer_cross(backend, data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=3))
    x1 = data.draw(hnp.arrays(F32, shape, elements=unit))
    x2 = data.draw(hnp.arrays(F32, shape[-1:], elements=unit))  # broadcasts
    assert_close(
        ivy_like.vecdot(backend.asarray(x1), backend.asarray(x2)), ref_vecdot(x1, x2), **TOL
    )
    v1, v2 = x1.reshape(-1), x2
    assert_close(ivy_like.linalg.outer(backend.asarray(v1), backend.asarray(v2)), np.outer(v1, v2))
    c1 = data.draw(hnp.arrays(F32, (3,) + shape[1:], elements=unit))
    c2 = data.draw(hnp.arrays(F32, (3,) + shape[1:], elements=unit))
    axis = -c1.ndim
    got = ivy_like.linalg.cross(backend.asarray(c1), backend.asarray(c2), axis=axis)
    assert_close(got, ref_cross(c1, c2, axis=axis), **TOL)


def test_integer_products_are_exact(backend):
    a = np.arange(12, dtype=np.int32).reshape(3, 4) - 5
    b = np.arange(8, dtype=np.int32).reshape(4, 2) - 3
    assert_close(ivy_like.tensordot(backend.asarray(a), backend.asarray(b), axes=1), a @ b)
    assert_close(ivy_like.vecdot(backend.asarray(a), backend.asarray(a[0])), ref_vecdot(a, a[0]))
    assert_close(
        ivy_like.linalg.outer(backend.asarray(a[0]), backend.asarray(b[:, 0])),
        np.outer(a[0], b[:, 0]),
    )
    u, v = np.array([1, 2, 3], np.int32), np.array([-4, 0, 2], np.int32)
    assert_close(ivy_like.linalg.cross(backend.asarray(u), backend.asarray(v)), np.cross(u, v))


def test_complex_vecdot_conjugates_the_first_argument(backend):
    needs_complex64(backend)
    x = np.array([1 + 2j, 3 - 1j], np.complex64)
    y = np.array([2 - 1j, 1j], np.complex64)
    assert_close(ivy_like.vecdot(backend.asarray(x), backend.asarray(y)), np.vdot(x, y))


# -- linalg: decompositions and solvers ---------------------------------------------------------
@given(data=st.data(), upper=st.booleans())
def test_cholesky(backend, data, upper):
    a = spd(data)
    got = np_of(ivy_like.linalg.cholesky(backend.asarray(a), upper=upper))
    assert_close(got, ref_cholesky(a.astype(np.float64), upper).astype(F32), **LOOSE)


@given(data=st.data())
def test_inv_det_slogdet(backend, data):
    a = spd(data)
    a64 = a.astype(np.float64)
    x = backend.asarray(a)
    assert_close(ivy_like.linalg.inv(x), np.linalg.inv(a64).astype(F32), **LOOSE)
    det = np.linalg.det(a64)
    # det of an n x n with eigenvalues ~n..n+n^2: relative accuracy is what float32 keeps.
    assert_close(ivy_like.linalg.det(x), det.astype(F32), rtol=1e-4, atol=0)
    sign, logabsdet = ivy_like.linalg.slogdet(x)
    want_sign, want_logabsdet = np.linalg.slogdet(a64)  # a plain tuple on NumPy 1
    assert_close(sign, want_sign.astype(F32))
    assert_close(logabsdet, want_logabsdet.astype(F32), rtol=1e-5, atol=1e-5)


def test_slogdet_of_a_singular_matrix(backend):
    sign, logabsdet = ivy_like.linalg.slogdet(
        backend.asarray(np.array([[1.0, 2.0], [2.0, 4.0]], F32))
    )
    assert_close(sign, F32(0))
    assert_close(logabsdet, F32(-np.inf))


@given(data=st.data(), vector=st.booleans())
def test_solve_broadcasts_and_reads_1d_as_vector(backend, data, vector):
    a = spd(data)
    n = a.shape[-1]
    if vector:
        b = data.draw(hnp.arrays(F32, (n,), elements=unit))
    else:
        # A stack of right-hand sides with its own batch dimensions that broadcast against a's.
        b = data.draw(hnp.arrays(F32, data.draw(batch) + (n, data.draw(side)), elements=unit))
    want = ref_solve(a.astype(np.float64), b.astype(np.float64)).astype(F32)
    assert_close(ivy_like.linalg.solve(backend.asarray(a), backend.asarray(b)), want, **LOOSE)


def test_solve_never_guesses_a_batch_of_vectors(backend):
    a = np.stack([np.eye(3, dtype=F32) * 2] * 2)  # (2, 3, 3)
    b = np.ones((2, 3), F32)  # a 2 x 3 matrix for the standard, not 2 vectors
    with pytest.raises(ValueError, match=r"x2 must have x1's 3 rows, got x2 of shape \(2, 3\)"):
        ivy_like.linalg.solve(backend.asarray(a), backend.asarray(b))


@pytest.mark.parametrize(
    ("shape1", "shape2", "message"),
    [
        ((3, 3), (2,), r"x2 must have x1's 3 rows, got x2 of shape \(2,\)"),
        ((3, 3), (1, 2), r"x2 must have x1's 3 rows, got x2 of shape \(1, 2\)"),
        ((2, 3, 3), (4, 3, 1), r"batch dimensions of x1 \(2,\) and x2 \(4,\) do not broadcast"),
        ((3, 3), (), "x2 must be at least 1-D"),
    ],
)
def test_solve_of_mismatched_operands_is_one_value_error(backend, shape1, shape2, message):
    # Decided once: every backend raises ValueError naming x2 (the frameworks raise
    # ValueError, RuntimeError or InvalidArgumentError, each in its own words).
    a = backend.asarray(np.broadcast_to(np.eye(3, dtype=F32) * 2, shape1).copy())
    b = backend.asarray(np.ones(shape2, F32))
    with pytest.raises(ValueError, match=message):
        ivy_like.linalg.solve(a, b)


def test_solve_of_a_singular_matrix(backend):
    # Decided in ivy_like.ops.linalg: ivy_like's LinAlgError in eager code on every backend
    # (more cases in test_edge_cases.py).
    a = backend.asarray(np.array([[1.0, 2.0], [2.0, 4.0]], F32))
    b = backend.asarray(np.ones((2, 1), F32))
    with pytest.raises(ivy_like.linalg.LinAlgError, match=r"linalg\.solve: x1 is singular"):
        ivy_like.linalg.solve(a, b)


@given(data=st.data())
def test_eigh_and_eigvalsh(backend, data):
    a = matrices(data, square=True)
    a = ((a + t(a)) / 2).astype(F32)
    w_want = np.linalg.eigvalsh(a.astype(np.float64)).astype(F32)
    result = ivy_like.linalg.eigh(backend.asarray(a))
    assert type(result) is EighResult
    w, v = np_of(result.eigenvalues), np_of(result.eigenvectors)
    n = a.shape[-1]
    assert_close(w, w_want, **LOOSE)
    assert_close(ivy_like.linalg.eigvalsh(backend.asarray(a)), w_want, **LOOSE)
    # A v = v diag(w) and V^T V = I: the definition, free of eigenvector signs.
    assert_close(a @ v, v * w[..., None, :], **LOOSE)
    assert_close(t(v) @ v, np.broadcast_to(np.eye(n, dtype=F32), v.shape), **LOOSE)


# Entries of eig's matrices: multiples of 1/8. Defective and repeated-eigenvalue matrices are
# drawn, but no entry of 1e-38 beside one of 1: LAPACK's balancing (geev) of such a matrix
# can lose its eigenvectors (torch, JAX and MLX return A v - v w of order |A|; NumPy's LAPACK
# does not), a limit of the libraries and not the rules tested here.
eighths = st.integers(-8, 8).map(lambda i: i / 8)


def distinct_eigenvalues(a):
    """Whether every matrix of the stack ``a`` has eigenvalues at least 1e-3 apart."""
    w = np.linalg.eigvals(a.astype(np.float64))
    gaps = np.abs(w[..., :, None] - w[..., None, :]) + np.eye(w.shape[-1])
    return bool(np.all(gaps > 1e-3))


@given(data=st.data())
def test_eig_and_eigvals(backend, data):
    """A general matrix: complex64 results, unit eigenvectors, ``A v = v w`` where the
    eigenvalues are distinct, and eigenvalues whose power sums are the traces of the powers of
    ``A`` (``sum(w**k) = trace(A**k)`` for k = 1..n fixes them up to order), which holds for a
    backward-stable solver even where the eigenvalues are ill-conditioned (a defective
    matrix). None of it depends on the order and phases the backends differ in (see
    ivy_like.ops.linalg)."""
    n = data.draw(side, label="n")
    shape = data.draw(batch, label="batch") + (n, n)
    a = data.draw(hnp.arrays(F32, shape, elements=eighths), label="x")
    result = ivy_like.linalg.eig(backend.asarray(a))
    assert type(result) is EigResult
    w, v = np_of(result.eigenvalues), np_of(result.eigenvectors)
    w_only = np_of(ivy_like.linalg.eigvals(backend.asarray(a)))
    assert w.dtype == v.dtype == w_only.dtype == np.complex64
    assert w.shape == w_only.shape == a.shape[:-1] and v.shape == a.shape
    assert_close(np.linalg.norm(v, axis=-2), np.ones(a.shape[:-1], F32), **LOOSE)
    if distinct_eigenvalues(a):
        # (A defective matrix has no full set of eigenvectors, and TensorFlow's float32
        # solver can return columns that are not eigenvectors there: ivy_like.ops.linalg.)
        assert_close(a @ v, v * w[..., None, :], **LOOSE)
    power = np.broadcast_to(np.eye(n), a.shape)
    for k in range(1, n + 1):
        power = power @ a.astype(np.float64)
        want = np.trace(power, axis1=-2, axis2=-1).astype(np.complex128)
        for values in (w, w_only):
            got = np.sum(values.astype(np.complex128) ** k, axis=-1)
            assert_close(got, want, rtol=1e-4, atol=1e-5 * k * n**k)


@given(data=st.data(), full=st.booleans())
def test_svd_and_svdvals(backend, data, full):
    a = matrices(data)
    m, n = a.shape[-2:]
    k = min(m, n)
    s_want = np.linalg.svd(a.astype(np.float64), compute_uv=False).astype(F32)
    result = ivy_like.linalg.svd(backend.asarray(a), full_matrices=full)
    assert type(result) is SVDResult
    u, s, vh = (np_of(r) for r in result)
    assert u.shape == a.shape[:-2] + ((m, m) if full else (m, k))
    assert vh.shape == a.shape[:-2] + ((n, n) if full else (k, n))
    assert_close(s, s_want, **LOOSE)
    assert_close(ivy_like.linalg.svdvals(backend.asarray(a)), s_want, **LOOSE)
    assert_close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, **LOOSE)
    assert_close(
        t(u) @ u,
        np.broadcast_to(np.eye(u.shape[-1], dtype=F32), t(u).shape[:-1] + (u.shape[-1],)),
        **LOOSE,
    )


@given(data=st.data(), mode=st.sampled_from(["reduced", "complete"]))
def test_qr(backend, data, mode):
    a = matrices(data)
    m, n = a.shape[-2:]
    k = m if mode == "complete" else min(m, n)
    result = ivy_like.linalg.qr(backend.asarray(a), mode=mode)
    assert type(result) is QRResult
    q, r = np_of(result.Q), np_of(result.R)
    assert q.shape == a.shape[:-2] + (m, k) and r.shape == a.shape[:-2] + (k, n)
    assert_close(q @ r, a, **LOOSE)
    assert_close(t(q) @ q, np.broadcast_to(np.eye(k, dtype=F32), q.shape[:-2] + (k, k)), **LOOSE)
    assert np.array_equal(r, np.triu(r)), "R must be upper triangular"


@given(data=st.data())
def test_pinv_and_matrix_rank(backend, data):
    a = matrices(data)
    a64 = a.astype(np.float64)
    s = np.linalg.svd(a64, compute_uv=False)
    # Compare pinv only where the smallest singular value is clear of the cut-off.
    if s.size and s.min() > 1e-2 * s.max():
        want = np.linalg.pinv(a64).astype(F32)
        scale = max(1.0, float(np.abs(want).max()))
        assert_close(ivy_like.linalg.pinv(backend.asarray(a)), want, rtol=1e-3, atol=1e-4 * scale)
    # Rank of an exactly low-rank integer-valued matrix: u @ w with inner dimension r.
    r = data.draw(st.integers(0, 3), label="rank")
    u = data.draw(hnp.arrays(F32, (4, r), elements=st.integers(-3, 3).map(float)))
    w = data.draw(hnp.arrays(F32, (r, 5), elements=st.integers(-3, 3).map(float)))
    low = (u @ w).astype(F32)
    want = np.linalg.matrix_rank(low.astype(np.float64))
    got = ivy_like.linalg.matrix_rank(backend.asarray(low))
    assert_close(got, np.asarray(want, dtype=default_int(backend)))


def test_rtol_cuts_singular_values(backend):
    a = np.diag(np.array([1.0, 0.1, 0.001], F32))
    x = backend.asarray(a)
    assert_close(ivy_like.linalg.matrix_rank(x), np.asarray(3, default_int(backend)))
    assert_close(ivy_like.linalg.matrix_rank(x, rtol=0.01), np.asarray(2, default_int(backend)))
    assert_close(
        ivy_like.linalg.pinv(x, rtol=0.01),
        np.diag(np.array([1.0, 10.0, 0.0], F32)),
        rtol=1e-5,
        atol=1e-5,
    )
    # An array rtol broadcasts against the stack.
    stack = backend.asarray(np.stack([a, a]))
    rtol = backend.asarray(np.array([0.5, 0.01], F32))
    assert_close(
        ivy_like.linalg.matrix_rank(stack, rtol=rtol), np.array([1, 2], default_int(backend))
    )


@given(data=st.data(), n=st.integers(-2, 4))
def test_matrix_power(backend, data, n):
    a = spd(data)
    a = (a / a.shape[-1]).astype(F32)  # eigenvalues in [1, 1 + n]: powers stay moderate
    want = np.linalg.matrix_power(a.astype(np.float64), n).astype(F32)
    scale = max(1.0, float(np.abs(want).max()))
    got = ivy_like.linalg.matrix_power(backend.asarray(a), n)
    assert_close(got, want, rtol=1e-4, atol=1e-5 * scale)


@given(
    data=st.data(),
    ord=st.sampled_from(["fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf]),
    keepdims=st.booleans(),
)
def test_matrix_norm(backend, data, ord, keepdims):  # noqa: A002
    a = matrices(data)
    want = ref_matrix_norm(a.astype(np.float64), ord, keepdims).astype(F32)
    got = ivy_like.linalg.matrix_norm(backend.asarray(a), ord=ord, keepdims=keepdims)
    assert_close(got, want, **LOOSE)


@given(
    data=st.data(),
    ord=st.sampled_from([2, 1, 0, 3, 0.5, -1, math.inf, -math.inf]),
    keepdims=st.booleans(),
)
def test_vector_norm(backend, data, ord, keepdims):  # noqa: A002
    x = data.draw(
        hnp.arrays(F32, hnp.array_shapes(min_dims=1, max_dims=3, max_side=3), elements=unit)
    )
    axis = data.draw(
        st.one_of(
            st.none(),
            st.integers(-x.ndim, x.ndim - 1),
            st.lists(st.integers(0, x.ndim - 1), min_size=1, unique=True).map(tuple),
        ),
        label="axis",
    )
    with np.errstate(divide="ignore"):
        want = ref_vector_norm(x.astype(np.float64), axis, keepdims, ord)
    got = ivy_like.linalg.vector_norm(backend.asarray(x), axis=axis, keepdims=keepdims, ord=ord)
    assert_close(got, np.asarray(want, F32), **LOOSE)


@given(data=st.data(), offset=st.integers(-5, 5))
def test_diagonal_and_trace(backend, data, offset):
    a = matrices(data)
    assert_close(
        ivy_like.linalg.diagonal(backend.asarray(a), offset=offset),
        ref_diagonal(a, offset),
    )
    want = ref_trace(a.astype(np.float64), offset).astype(F32)
    assert_close(ivy_like.linalg.trace(backend.asarray(a), offset=offset), want, **TOL)


@pytest.mark.parametrize("offset", [-4, 3, 9])
def test_empty_diagonal_and_its_trace(backend, offset):
    # Offsets past the matrix give an empty diagonal; its trace is 0 (mlx: built without a view,
    # see linalg_diagonal in backends/mlx/linalg.py).
    x = backend.asarray(np.ones((2, 1, 3, 3), F32))
    d = ivy_like.linalg.diagonal(x, offset=offset)
    assert_close(d, np.zeros((2, 1, 0), F32))  # shape and dtype
    assert_close(ivy_like.linalg.trace(x, offset=offset), np.zeros((2, 1), F32))
    assert_close(ivy_like.sum(d, axis=-1), np.zeros((2, 1), F32))


def test_trace_dtype_follows_sum(backend):
    x = np.arange(9, dtype=np.int8).reshape(3, 3)
    got = ivy_like.linalg.trace(backend.asarray(x))
    assert_close(got, np.asarray(12, default_int(backend)))
    got = ivy_like.linalg.trace(backend.asarray(x), dtype=ivy_like.float32)
    assert_close(got, F32(12))


# -- rules shared by every backend ----------------------------------------------------------------
@pytest.mark.parametrize(
    "name",
    [
        "cholesky",
        "det",
        "eig",
        "eigh",
        "eigvals",
        "eigvalsh",
        "inv",
        "matrix_norm",
        "pinv",
        "qr",
        "slogdet",
        "svd",
        "svdvals",
        "matrix_rank",
        "vector_norm",
    ],
)
def test_decompositions_reject_integers(backend, name):
    x = backend.asarray(np.eye(2, dtype=np.int32))
    with pytest.raises(TypeError, match="floating-point"):
        getattr(ivy_like.linalg, name)(x)


def test_argument_errors(backend):
    x = backend.asarray(np.eye(3, dtype=F32))
    with pytest.raises(ValueError, match="ord"):
        ivy_like.linalg.matrix_norm(x, ord=3)
    with pytest.raises(ValueError, match="mode"):
        ivy_like.linalg.qr(x, mode="r")
    with pytest.raises(ValueError, match="3 elements"):
        ivy_like.linalg.cross(backend.asarray(np.ones(2, F32)), backend.asarray(np.ones(2, F32)))
    with pytest.raises(ValueError, match="negative"):
        ivy_like.vecdot(x, x, axis=0)
    with pytest.raises(ValueError, match="square"):
        ivy_like.linalg.inv(backend.asarray(np.ones((2, 3), F32)))
    with pytest.raises(ValueError, match="at least 2-D"):
        ivy_like.linalg.det(backend.asarray(np.ones(3, F32)))
    with pytest.raises(TypeError, match="n must be an int"):
        ivy_like.linalg.matrix_power(x, 1.5)
    with pytest.raises(ValueError, match="one-dimensional"):
        ivy_like.linalg.outer(x, x)


def test_float64_is_kept(backend):
    if not has_float64(backend):
        with pytest.raises(TypeError, match="float64"):
            ivy_like.asarray(np.eye(2), dtype=ivy_like.float64)
        return
    a = np.array([[4.0, 1.0], [1.0, 3.0]])
    x = ivy_like.asarray(a, dtype=ivy_like.float64)
    inv = ivy_like.linalg.inv(x)
    assert inv.dtype == ivy_like.float64
    assert_close(inv, np.linalg.inv(a), rtol=1e-12, atol=1e-14)
    assert_close(
        ivy_like.linalg.svdvals(x), np.linalg.svd(a, compute_uv=False), rtol=1e-12, atol=1e-14
    )


# -- half precision: computed in float32, returned in the input's dtype ---------------------------
HALF = ["float16", "bfloat16"]
# exactly representable in float16 and bfloat16; symmetric positive definite, well conditioned
HALF_MATRIX = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]])
HALF_CALLS = {
    "cholesky": lambda x: ivy_like.linalg.cholesky(x, upper=True),
    "det": ivy_like.linalg.det,
    "eigh": ivy_like.linalg.eigh,
    "eigvalsh": ivy_like.linalg.eigvalsh,
    "inv": ivy_like.linalg.inv,
    "matrix_norm": lambda x: ivy_like.linalg.matrix_norm(x, ord=2),
    "matrix_power": lambda x: ivy_like.linalg.matrix_power(x, -2),
    "matrix_rank": ivy_like.linalg.matrix_rank,
    "pinv": ivy_like.linalg.pinv,
    "qr": ivy_like.linalg.qr,
    "slogdet": ivy_like.linalg.slogdet,
    "solve": lambda x: ivy_like.linalg.solve(x, x[:, :2]),
    "svd": lambda x: ivy_like.linalg.svd(x, full_matrices=False),
    "svdvals": ivy_like.linalg.svdvals,
    "vector_norm": lambda x: ivy_like.linalg.vector_norm(x, ord=3),
}


def half_dtype(backend, name):
    dtype = getattr(ivy_like, name)
    if dtype not in backend.module.DTYPES:
        pytest.skip(f"{backend.name} has no {name}")
    return dtype


def leaves(result):
    return list(result) if isinstance(result, tuple) else [result]


@pytest.mark.parametrize("half", HALF)
@pytest.mark.parametrize("name", sorted(HALF_CALLS))
def test_half_precision_is_computed_in_float32(backend, name, half):
    """Each function on half input equals the float32 computation cast back, bit for bit."""
    dtype = half_dtype(backend, name=half)
    call = HALF_CALLS[name]
    # (a function a backend does not map raises its NotImplementedError here, which the suite
    # reports as an expected failure with the backend's reason, as for every other test)
    wide = call(ivy_like.asarray(HALF_MATRIX, dtype=ivy_like.float32))
    got = call(ivy_like.asarray(HALF_MATRIX, dtype=dtype))
    assert type(got) is type(wide)
    for g, w in zip(leaves(got), leaves(wide)):
        if name == "matrix_rank":  # a count: the backend's default integer, as for float32
            assert g.dtype == w.dtype and int(g) == int(w) == 3
            continue
        assert g.dtype == dtype
        want = w.astype(dtype).astype(ivy_like.float32).to_numpy()
        np.testing.assert_array_equal(g.astype(ivy_like.float32).to_numpy(), want)


@pytest.mark.parametrize("half", HALF)
def test_half_precision_norms_do_not_overflow(backend, half):
    """300**2 + 400**2 is past float16's range; the norm, 500, is not (torch's own answer)."""
    dtype = half_dtype(backend, name=half)
    x = ivy_like.asarray([300.0, 400.0], dtype=dtype)
    norm = ivy_like.linalg.vector_norm(x)
    assert norm.dtype == dtype and float(norm) == 500.0
    m = ivy_like.asarray([[300.0, 0.0], [400.0, 0.0]], dtype=dtype)
    assert float(ivy_like.linalg.vector_norm(m, axis=(0, 1))) == 500.0
    if backend.name != "mxnet":  # no matrix_norm on mxnet (needs an SVD for ord 2)
        assert float(ivy_like.linalg.matrix_norm(m)) == 500.0


@pytest.mark.parametrize("half", HALF)
def test_half_precision_default_rtol_is_the_half_eps(backend, half):
    """The standard's default rtol, max(M, N) * eps, is the input dtype's: 1e-3 is below it."""
    dtype = half_dtype(backend, name=half)
    x = ivy_like.asarray([[1.0, 0.0], [0.0, 1e-3]], dtype=dtype)
    assert int(ivy_like.linalg.matrix_rank(x)) == 1
    assert int(ivy_like.linalg.matrix_rank(x.astype(ivy_like.float32))) == 2
    assert int(ivy_like.linalg.matrix_rank(x, rtol=1e-4)) == 2
    assert_close(ivy_like.linalg.pinv(x).astype(ivy_like.float32), np.diag([1.0, 0.0]).astype(F32))


def test_half_precision_solve_promotes_mixed_operands(backend):
    a = HALF_MATRIX.astype(F32)
    f16 = half_dtype(backend, name="float16")
    x16 = ivy_like.asarray(a, dtype=f16)
    mixed = ivy_like.linalg.solve(x16, ivy_like.asarray(a[:, 0], dtype=ivy_like.float32))
    assert mixed.dtype == ivy_like.float32  # float16 with float32 is float32, computed so
    assert_close(mixed, np.linalg.solve(a, a[:, 0]), **TOL)
    if ivy_like.bfloat16 in backend.module.DTYPES:
        b16 = ivy_like.asarray(a[:, 0], dtype=ivy_like.bfloat16)
        assert ivy_like.linalg.solve(x16, b16).dtype == ivy_like.float32


@pytest.mark.requires("autodiff")
def test_half_precision_gradients_flow_through_float32(backend):
    """grad of a half-precision linalg function: half-precision gradient, float32 numbers."""
    a = HALF_MATRIX.astype(F32)

    def loss(x):  # det: the decomposition with a gradient on MLX 0.32 too
        return ivy_like.linalg.det(x)

    g16 = ivy_like.grad(loss)(ivy_like.asarray(a, dtype=ivy_like.float16))
    g32 = ivy_like.grad(loss)(ivy_like.asarray(a, dtype=ivy_like.float32))
    assert g16.dtype == ivy_like.float16
    want = np.asarray(g32.to_numpy(), np.float16).astype(F32)
    np.testing.assert_array_equal(g16.astype(ivy_like.float32).to_numpy(), want)


# -- one triangle read, and gradients agreeing across backends ------------------------------------
NONSYM = np.array([[4.0, 1.0, 0.5], [1.2, 3.0, 0.25], [0.5, 0.3, 2.0]])  # SPD lower and upper


def hermitian_of(a, upper=False):
    """The symmetric matrix of ``a``'s lower (or upper) triangle."""
    t = np.triu(a) if upper else np.tril(a)
    return t + np.swapaxes(t, -1, -2) - np.diag(np.diagonal(a))


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_reads_one_triangle(backend, upper):
    """NumPy's rule on every backend: the lower triangle, or the upper one with upper=True."""
    a = NONSYM.astype(F32)
    got = ivy_like.linalg.cholesky(ivy_like.asarray(a), upper=upper)
    lower = np.linalg.cholesky(hermitian_of(NONSYM, upper))
    assert_close(got, (lower.T if upper else lower).astype(F32), **TOL)
    want_eigenvalues = np.linalg.eigvalsh(NONSYM).astype(F32)
    assert_close(ivy_like.linalg.eigvalsh(ivy_like.asarray(a)), want_eigenvalues, **TOL)


W3 = np.arange(9.0).reshape(3, 3) / 10 + 0.1
C3 = np.array([1.0, 2.0, 5.0])


def _w(x):
    return ivy_like.asarray(W3, dtype=x.dtype)


GRAD_LOSSES = {
    "inv": lambda x: ivy_like.sum(ivy_like.linalg.inv(x) * _w(x)),
    "solve": lambda x: ivy_like.sum(ivy_like.linalg.solve(x, _w(x)) * _w(x)),
    "solve_vector": lambda x: ivy_like.vecdot(ivy_like.linalg.solve(x, _w(x)[0]), _w(x)[1]),
    "det": ivy_like.linalg.det,
    "slogdet": lambda x: ivy_like.linalg.slogdet(x).logabsdet,
    "matrix_power": lambda x: ivy_like.sum(ivy_like.linalg.matrix_power(x, -2) * _w(x)),
    "cholesky": lambda x: ivy_like.sum(ivy_like.linalg.cholesky(x) * _w(x)),
    "cholesky_upper": lambda x: ivy_like.sum(ivy_like.linalg.cholesky(x, upper=True) * _w(x)),
    "eigvalsh": lambda x: ivy_like.vecdot(ivy_like.linalg.eigvalsh(x), _w(x)[0]),
    # V diag(c) V^T: the eigenvectors without their sign (not unique, backends differ)
    "eigh": lambda x: ivy_like.sum(
        ivy_like.matmul(
            ivy_like.linalg.eigh(x).eigenvectors * ivy_like.asarray(C3, dtype=x.dtype),
            ivy_like.matrix_transpose(ivy_like.linalg.eigh(x).eigenvectors),
        )
        * _w(x)
    ),
    "svdvals": lambda x: ivy_like.vecdot(ivy_like.linalg.svdvals(x), _w(x)[0]),
    "svd": lambda x: ivy_like.sum(ivy_like.abs(ivy_like.linalg.svd(x)[0]) * _w(x)),
    "qr": lambda x: ivy_like.sum(ivy_like.linalg.qr(x).R * _w(x)),
    "pinv": lambda x: ivy_like.sum(ivy_like.linalg.pinv(x) * _w(x)),
    "matrix_norm_2": lambda x: ivy_like.linalg.matrix_norm(x, ord=2),
}
ONE_TRIANGLE = {"cholesky", "cholesky_upper", "eigvalsh", "eigh"}


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


@pytest.mark.parametrize("symmetric", [True, False], ids=["symmetric", "nonsymmetric"])
@pytest.mark.parametrize("name", list(GRAD_LOSSES))
@pytest.mark.requires("autodiff")
def test_linalg_gradients_match_finite_differences(backend, name, symmetric):
    """Every autodiff backend, the same gradient: central differences in float64.

    For the functions that read one triangle, the gradient is the symmetric one, (G + G^T)/2
    of the differences (torch's convention; JAX's default), also for non-symmetric input.
    """
    a = (NONSYM + NONSYM.T) / 2 if symmetric else NONSYM
    loss = GRAD_LOSSES[name]
    want = finite_difference_gradient(loss, a)
    if name in ONE_TRIANGLE:
        want = (want + want.T) / 2
    got = ivy_like.grad(loss)(ivy_like.asarray(a.astype(F32)))
    assert_close(got, want.astype(F32), rtol=2e-3, atol=2e-3 * np.abs(want).max())


def _weighted(y):
    """A loss term that weights every element of ``y`` differently (and is not symmetric)."""
    weights = np.linspace(0.1, 1.3, int(np.prod(y.shape))).reshape(y.shape)
    return ivy_like.sum(y * ivy_like.asarray(weights, dtype=y.dtype))


# Rectangular and batched matrices: the tall and wide branches of the SVD, QR and pinv
# gradients. Vectors enter through their absolute values (their signs are not unique).
RECT_LOSSES = {
    "svd_u": lambda x: _weighted(ivy_like.abs(ivy_like.linalg.svd(x, full_matrices=False).U)),
    "svd_vh": lambda x: _weighted(ivy_like.abs(ivy_like.linalg.svd(x, full_matrices=False).Vh)),
    "svd_s_full": lambda x: _weighted(ivy_like.linalg.svd(x).S),
    # full matrices: the first min(m, n) columns of U and rows of Vh (the rest are not unique)
    "svd_u_full": lambda x: _weighted(
        ivy_like.abs(ivy_like.linalg.svd(x).U[..., : min(x.shape[-2:])])
    ),
    "svd_vh_full": lambda x: _weighted(
        ivy_like.abs(ivy_like.linalg.svd(x).Vh[..., : min(x.shape[-2:]), :])
    ),
    "svdvals": lambda x: _weighted(ivy_like.linalg.svdvals(x)),
    "qr_q": lambda x: _weighted(ivy_like.linalg.qr(x).Q),
    "qr_r": lambda x: _weighted(ivy_like.linalg.qr(x).R),
    "pinv": lambda x: _weighted(ivy_like.linalg.pinv(x)),
    "matrix_norm_2": lambda x: _weighted(ivy_like.linalg.matrix_norm(x, ord=2)),
    "matrix_norm_-2": lambda x: _weighted(ivy_like.linalg.matrix_norm(x, ord=-2)),
    "matrix_norm_nuc": lambda x: _weighted(
        ivy_like.linalg.matrix_norm(x, ord="nuc", keepdims=True)
    ),
}
RECT_SHAPES = {"tall": (4, 3), "wide": (3, 4), "batch_tall": (2, 4, 3), "batch_wide": (2, 3, 4)}


@pytest.mark.parametrize("shape", list(RECT_SHAPES))
@pytest.mark.parametrize("name", list(RECT_LOSSES))
@pytest.mark.requires("autodiff")
def test_rectangular_linalg_gradients_match_finite_differences(backend, name, shape):
    a = np.random.default_rng(7).normal(size=RECT_SHAPES[shape])
    loss = RECT_LOSSES[name]
    want = finite_difference_gradient(loss, a)
    got = ivy_like.grad(loss)(ivy_like.asarray(a.astype(F32)))
    assert_close(got, want.astype(F32), rtol=2e-3, atol=2e-3 * np.abs(want).max())


# Second order through forward mode on torch: torch 2.13's forward-mode rules of det, slogdet
# and solve hold the LU factors constant, so differentiating their jvp again was silently wrong
# (pytorch#192540: jvp of jvp of det gave -38.0 for 8.39); the torch backend then computes
# through differentiable LU ops. Float64, a matrix whose LU factorization swaps rows (the sign
# of det), and the routes that differentiate a jvp: jvp (torch.func), vjp (torch.func) and grad
# of native tensors (at the top level: torch's own autograd, no torch.func level).
PIVOTED = np.array([[0.5, 2.0, 1.0], [3.0, 0.25, -1.0], [1.0, -1.5, 2.5]])
RHS = np.array([[1.0, -2.0], [0.5, 1.5], [-1.0, 0.75]])
SECOND_ORDER = {
    "det": lambda a, b: ivy_like.linalg.det(a),
    "slogdet": lambda a, b: ivy_like.linalg.slogdet(a).logabsdet,
    "solve": lambda a, b: ivy_like.linalg.solve(a, b),
    "solve_vector": lambda a, b: ivy_like.linalg.solve(a, b[:, 0]),
    "solve_batch": lambda a, b: ivy_like.linalg.solve(ivy_like.stack([a, a.mT]), b),
}


def _second_difference(f, x, v, w, h=1e-4):
    """d/ds d/dt f(x + s v + t w) at 0 by central differences in float64 (numpy backend)."""
    with ivy_like.use_backend("numpy"):

        def at(s, t):
            moved = [ivy_like.asarray(xi + s * vi + t * wi) for xi, vi, wi in zip(x, v, w)]
            return np.asarray(f(*moved).to_numpy(), np.float64)

        return (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h)


@pytest.mark.parametrize("route", ["jvp", "vjp", "grad"])
@pytest.mark.parametrize("name", list(SECOND_ORDER))
@pytest.mark.requires("autodiff")
def test_differentiated_jvp_of_lu_ops_matches_finite_differences(backend, name, route):
    if backend.name != "torch":
        pytest.skip("the regression of torch's forward-mode rules; test_check_ops covers all")
    f = SECOND_ORDER[name]
    rng = np.random.default_rng(3)
    x = [PIVOTED, RHS]
    v, w = ([rng.normal(size=xi.shape) for xi in x] for _ in range(2))
    want = _second_difference(f, x, v, w)
    u = rng.normal(size=want.shape)
    make = backend.asarray if route == "grad" else ivy_like.asarray  # float64 kept
    x, v, w = ([make(a) for a in z] for z in (x, v, w))

    def jvp_along_v(a, b):
        return ivy_like.jvp(f, [a, b], v)[1][0]

    if route == "jvp":
        got = ivy_like.jvp(jvp_along_v, x, w)[1][0]
        assert_close(got, want, rtol=1e-6, atol=1e-6 * np.abs(want).max())
        return

    # Reverse over forward: <u, d/dt jvp(x + t w)> from the vjp (or gradient) dotted with w.
    def weighted(a, b):
        return ivy_like.sum(jvp_along_v(a, b) * make(u))

    if route == "vjp":
        grads = ivy_like.vjp(jvp_along_v, x, [make(u)])[1]
    else:
        grads = ivy_like.grad(weighted, argnums=(0, 1))(*x)
    got = sum(float(ivy_like.sum(g * wi)) for g, wi in zip(grads, w))
    assert got == pytest.approx(float(np.sum(u * want)), rel=1e-6, abs=1e-6)


def test_named_tuples_from_native_inputs(backend):
    x = backend.asarray(np.array([[2.0, 1.0], [1.0, 2.0]], F32))
    assert type(ivy_like.linalg.eigh(x)) is EighResult
    assert type(ivy_like.linalg.qr(x)) is QRResult
    assert type(ivy_like.linalg.svd(x)) is SVDResult
    result = ivy_like.linalg.slogdet(x)
    assert type(result) is SlogdetResult
    assert_close(result.logabsdet, F32(np.log(3.0)), rtol=1e-6, atol=1e-6)


def test_named_tuples_from_arrays(backend):
    x = ivy_like.asarray([[2.0, 1.0], [1.0, 2.0]])
    result = ivy_like.linalg.eigh(x)
    assert type(result) is EighResult and isinstance(result.eigenvalues, ivy_like.Array)
    assert type(x.slogdet()) is SlogdetResult


def test_entry_points(backend):
    """The function on Arrays, native arrays and NumPy arrays; the Array method."""
    a = np.array([[2.0, 1.0], [1.0, 3.0]], F32)
    want = np.linalg.inv(a)
    arr = ivy_like.asarray(a)
    got = ivy_like.linalg.inv(arr)
    assert isinstance(got, ivy_like.Array) and got.backend == backend
    assert_close(got, want, **TOL)
    assert_close(arr.inv(), want, **TOL)
    native = ivy_like.linalg.inv(backend.asarray(a))
    assert ivy_like.backend_of(native) is backend and not isinstance(native, ivy_like.Array)
    assert_close(native, want, **TOL)
    assert_close(ivy_like.linalg.inv(a), want, **TOL)  # NumPy input follows the active backend
    assert_close(arr.matrix_transpose(), a.T)
    # NumPy 1 transforms in complex128 whatever the input; NumPy 2 and the backends keep float32.
    assert_close(ivy_like.fft.rfft(a[0]), np.fft.rfft(a[0]).astype(np.complex64), **TOL)
    assert_close(arr.fftshift(axes=0), np.fft.fftshift(a, axes=0))


def test_out_is_written(backend):
    a = np.array([[2.0, 1.0], [1.0, 3.0]], F32)
    out = ivy_like.zeros((2, 2))
    result = ivy_like.linalg.inv(ivy_like.asarray(a), out=out)
    assert result is out
    assert_close(out, np.linalg.inv(a), **TOL)


# -- fft ------------------------------------------------------------------------------------------
norms = st.sampled_from(["backward", "ortho", "forward"])
fft_shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5)


def complex_arrays(shape):
    return st.tuples(
        hnp.arrays(F32, shape, elements=unit), hnp.arrays(F32, shape, elements=unit)
    ).map(lambda ri: (ri[0] + 1j * ri[1]).astype(np.complex64))


def fft_tol(n):
    """float32 FFTs: an error of a few ulp per point, summed over n points of size <= ~1."""
    return {"rtol": 1e-4, "atol": 2e-6 * max(n, 1) + 1e-6}


@pytest.mark.parametrize("name", ["fft", "ifft", "irfft", "hfft"])
@given(data=st.data(), norm=norms)
def test_complex_input_1d(backend, name, data, norm):
    needs_complex64(backend)
    shape = data.draw(fft_shapes)
    x = data.draw(complex_arrays(shape))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    size = shape[axis]
    if name in ("irfft", "hfft"):
        n = data.draw(st.one_of(st.none(), st.integers(1, 8)), label="n")
        if n is None and size == 1:
            n = 1  # the default 2 * (m - 1) would be 0
        # The standard leaves the imaginary parts of the DC and Nyquist terms of a Hermitian
        # spectrum unspecified (implementations drop them); draw them as zero.
        x = np.moveaxis(x, axis, -1).copy()
        points = (n if n is not None else 2 * (size - 1)) // 2 + 1
        x[..., 0] = x[..., 0].real
        if points <= size and (n if n is not None else 2 * (size - 1)) % 2 == 0:
            x[..., points - 1] = x[..., points - 1].real
        x = np.moveaxis(x, -1, axis)
    else:
        n = data.draw(st.one_of(st.none(), st.integers(1, 8)), label="n")
    want = getattr(np.fft, name)(x.astype(np.complex128), n=n, axis=axis, norm=norm)
    want = want.astype(np.complex64 if want.dtype.kind == "c" else F32)
    got = getattr(ivy_like.fft, name)(backend.asarray(x), n=n, axis=axis, norm=norm)
    assert_close(got, want, **fft_tol(max(n or 0, size * 2)))


@pytest.mark.parametrize("name", ["fft", "rfft", "ihfft"])
@given(data=st.data(), norm=norms)
def test_real_input_1d(backend, name, data, norm):
    x = data.draw(hnp.arrays(F32, fft_shapes, elements=unit))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    n = data.draw(st.one_of(st.none(), st.integers(1, 8)), label="n")
    want = getattr(np.fft, name)(x.astype(np.float64), n=n, axis=axis, norm=norm).astype(
        np.complex64
    )
    got = getattr(ivy_like.fft, name)(backend.asarray(x), n=n, axis=axis, norm=norm)
    assert_close(got, want, **fft_tol(max(n or 0, x.shape[axis])))


def draw_s_axes(data, shape):
    ndim = len(shape)
    axes = data.draw(
        st.one_of(
            st.none(),
            st.lists(
                st.integers(-ndim, ndim - 1),
                min_size=1,
                max_size=ndim,
                unique_by=lambda a: a % ndim,
            ),
        ),
        label="axes",
    )
    k = ndim if axes is None else len(axes)
    s = data.draw(
        st.one_of(
            st.none(), st.lists(st.sampled_from([-1, 1, 2, 3, 4, 6]), min_size=k, max_size=k)
        ),
        label="s",
    )
    if axes is None and s is not None:
        axes = list(range(ndim - len(s), ndim))  # the rule, spelled out for NumPy 2
    return s, axes


@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn"])
@given(data=st.data(), norm=norms)
def test_nd(backend, name, data, norm):
    x = data.draw(hnp.arrays(F32, fft_shapes, elements=unit))
    if name != "rfftn":
        needs_complex64(backend)
        x = (x + 0.5j * x[::-1]).astype(np.complex64)
    s, axes = draw_s_axes(data, x.shape)
    if axes is not None:
        resolved = [a % x.ndim for a in axes]
        ref_s = None if s is None else [x.shape[a] if v == -1 else v for a, v in zip(resolved, s)]
    else:
        ref_s = None
    src = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    want = getattr(np.fft, name)(src, s=ref_s, axes=axes, norm=norm).astype(np.complex64)
    got = getattr(ivy_like.fft, name)(backend.asarray(x), s=s, axes=axes, norm=norm)
    assert_close(got, want, **fft_tol(int(np.prod(want.shape))))


@given(data=st.data(), norm=norms)
def test_irfftn_round_trip(backend, data, norm):
    needs_complex64(backend)
    x = data.draw(hnp.arrays(F32, fft_shapes, elements=unit))
    s, axes = draw_s_axes(data, x.shape)
    axes = list(range(x.ndim)) if axes is None else [a % x.ndim for a in axes]
    sizes = (
        [x.shape[a] for a in axes]
        if s is None
        else [x.shape[a] if v == -1 else v for a, v in zip(axes, s)]
    )
    # rfftn of real data is an exactly Hermitian spectrum: irfftn of it is well defined.
    spectrum = np.fft.rfftn(x.astype(np.float64), s=sizes, axes=axes, norm=norm).astype(
        np.complex64
    )
    want = np.fft.irfftn(spectrum.astype(np.complex128), s=sizes, axes=axes, norm=norm).astype(F32)
    got = ivy_like.fft.irfftn(backend.asarray(spectrum), s=sizes, axes=axes, norm=norm)
    assert_close(got, want, **fft_tol(int(np.prod(sizes))))


@given(n=st.integers(1, 9), d=st.sampled_from([1.0, 0.5, 0.1, 3.0]))
def test_fftfreq_rfftfreq(backend, n, d):
    for name in ("fftfreq", "rfftfreq"):
        got = getattr(ivy_like.fft, name)(n, d=d)
        assert isinstance(got, ivy_like.Array) and got.backend == backend
        assert_close(got, getattr(np.fft, name)(n, d).astype(F32))
    if has_float64(backend):
        got = ivy_like.fft.fftfreq(n, d=d, dtype=ivy_like.float64)
        assert_close(got, np.fft.fftfreq(n, d), rtol=1e-15, atol=0)


@given(x=hnp.arrays(F32, fft_shapes, elements=unit), data=st.data())
def test_fftshift_ifftshift(backend, x, data):
    axes = data.draw(
        st.one_of(
            st.none(),
            st.integers(-x.ndim, x.ndim - 1),
            st.lists(st.integers(0, x.ndim - 1), unique=True, min_size=1),
        )
    )
    assert_close(
        ivy_like.fft.fftshift(backend.asarray(x), axes=axes), np.fft.fftshift(x, axes=axes)
    )
    assert_close(
        ivy_like.fft.ifftshift(backend.asarray(x), axes=axes), np.fft.ifftshift(x, axes=axes)
    )


def test_fft_rules(backend):
    ints = backend.asarray(np.arange(4, dtype=np.int32))
    with pytest.raises(TypeError, match="floating-point"):
        ivy_like.fft.fft(ints)
    c = backend.asarray(np.ones(4, np.complex64))
    with pytest.raises(TypeError, match="real"):
        ivy_like.fft.rfft(c)
    x = backend.asarray(np.ones(4, F32))
    with pytest.raises(ValueError, match="norm"):
        ivy_like.fft.fft(x, norm="none")
    with pytest.raises(ValueError, match=">= 1"):
        ivy_like.fft.fft(x, n=0)
    with pytest.raises(ValueError, match="same length"):
        ivy_like.fft.fftn(x, s=(4, 4), axes=(0,))
    # ivy_like's dtype on the left: mlx's Dtype.__eq__ answers False (not NotImplemented) for
    # any other type, so ``mx.complex64 == ivy_like.complex64`` cannot be made true from here.
    assert ivy_like.complex64 == ivy_like.fft.fft(x).dtype
    assert ivy_like.float32 == ivy_like.fft.irfft(c).dtype


def test_fft_float64(backend):
    if backend.name == "mlx" and has_float64(backend):
        x = ivy_like.asarray(np.ones(4), dtype=ivy_like.float64)
        with pytest.raises(TypeError, match="single precision"):
            ivy_like.fft.fft(x)
        return
    if not has_float64(backend):  # jax without x64: float64 cannot even be asked for
        with pytest.raises(TypeError, match="float64"):
            ivy_like.asarray(np.ones(4), dtype=ivy_like.float64)
        return
    x = np.linspace(0, 1, 6)
    got = ivy_like.fft.rfft(ivy_like.asarray(x, dtype=ivy_like.float64))
    assert got.dtype == ivy_like.complex128
    assert_close(got, np.fft.rfft(x), rtol=1e-12, atol=1e-12)


ZERO_NORMS = {
    "vector_norm_2": lambda x: ivy_like.linalg.vector_norm(x),
    "vector_norm_3": lambda x: ivy_like.linalg.vector_norm(x, ord=3),
    "vector_norm_2_axis": lambda x: ivy_like.sum(ivy_like.linalg.vector_norm(x, axis=0)),
    "matrix_norm_fro": lambda x: ivy_like.linalg.matrix_norm(x),
}


@pytest.mark.parametrize("name", list(ZERO_NORMS))
@pytest.mark.requires("autodiff")
def test_norm_gradient_at_zero_is_zero(backend, name):
    """The root's infinite slope at 0 made the 2-norm's gradient NaN at a zero vector on
    JAX, TensorFlow, MLX and MXNet; torch's subgradient 0 is the rule on every backend.
    Away from zero: x / |x|."""
    norm = ZERO_NORMS[name]
    zero = ivy_like.asarray(np.zeros((2, 3), F32))
    assert float(ivy_like.to_numpy(norm(zero))) == 0.0
    assert_close(ivy_like.grad(norm)(zero), np.zeros((2, 3), F32), rtol=0.0, atol=0.0)
    x = np.array([[3.0, 0.0, 1.0], [4.0, 0.0, -2.0]], F32)
    if name in ("vector_norm_2", "matrix_norm_fro"):
        want = x / np.sqrt((x * x).sum())
        assert_close(ivy_like.grad(norm)(ivy_like.asarray(x)), want, rtol=1e-6, atol=0.0)

"""Edges where a backend gave a silent wrong answer, on every backend.

* ``linalg.inv``/``linalg.solve`` of a singular matrix: ``ivy_like.linalg.LinAlgError`` in
  eager code (MLX returned finite garbage, JAX inf/NaN, the others four different errors);
* reductions of zero-size arrays made from NumPy data (MLX gave ``prod`` 0 and ``all`` False,
  and spun forever in about half the processes for 1-D input);
* ``reshape`` with a -1 beside a 0 (TensorFlow inferred a size; the others refuse).

The rules are in ``ivy_like/ops/linalg.py`` (singular matrices) and the backends' modules.
"""

from __future__ import annotations

import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

import ivy_like
from ivy_like.testing import assert_close

F32 = np.float32
SINGULAR = np.array([[1.0, 2.0], [2.0, 4.0]], F32)
REGULAR = np.array([[2.0, 1.0], [1.0, 1.0]], F32)


# -- singular matrices in inv and solve -----------------------------------------------------------
def test_linalg_error_is_a_value_error_and_numpys():
    assert issubclass(ivy_like.linalg.LinAlgError, ValueError)
    assert issubclass(ivy_like.linalg.LinAlgError, np.linalg.LinAlgError)
    assert "LinAlgError" in ivy_like.linalg.__all__


@pytest.mark.parametrize(
    "matrix",
    [SINGULAR, np.zeros((2, 2), F32), np.array([[0.0, 1.0], [0.0, 1.0]], F32)],
    ids=["rank1", "zeros", "zero_column"],
)
def test_inv_of_a_singular_matrix(backend, matrix):
    with pytest.raises(ivy_like.linalg.LinAlgError, match=r"^linalg\.inv: x is singular"):
        ivy_like.linalg.inv(backend.asarray(matrix))


@pytest.mark.parametrize("rhs", [(2,), (2, 1), (2, 3)], ids=["vector", "column", "matrix"])
def test_solve_of_a_singular_matrix(backend, rhs):
    with pytest.raises(ivy_like.linalg.LinAlgError, match=r"^linalg\.solve: x1 is singular"):
        ivy_like.linalg.solve(backend.asarray(SINGULAR), backend.asarray(np.ones(rhs, F32)))


def test_one_singular_matrix_in_a_stack(backend):
    stack = backend.asarray(np.stack([REGULAR, SINGULAR, REGULAR]))
    with pytest.raises(ivy_like.linalg.LinAlgError, match=r"inv: x holds a singular matrix"):
        ivy_like.linalg.inv(stack)
    with pytest.raises(ivy_like.linalg.LinAlgError, match=r"solve: x1 holds a singular matrix"):
        ivy_like.linalg.solve(stack, backend.asarray(np.ones((2, 1), F32)))  # broadcast x2


def test_singular_half_precision(backend):
    x = backend.asarray(SINGULAR.astype(np.float16))
    with pytest.raises(ivy_like.linalg.LinAlgError):
        ivy_like.linalg.inv(x)


def test_regular_and_nearly_singular_matrices_are_not_refused(backend):
    # Only an exactly zero pivot counts: a badly conditioned matrix is inverted (as NumPy
    # does), and a stack of regular matrices, float64 where the backend has it, too.
    rng = np.random.default_rng(0)
    good = (rng.standard_normal((4, 5, 5)) + 5 * np.eye(5)).astype(F32)
    assert_close(ivy_like.linalg.inv(backend.asarray(good)), np.linalg.inv(good), rtol=1e-4)
    b = rng.standard_normal((4, 5, 2)).astype(F32)
    assert_close(
        ivy_like.linalg.solve(backend.asarray(good), backend.asarray(b)),
        np.linalg.solve(good, b),
        rtol=1e-4,
        atol=1e-5,
    )
    near = np.array([[1.0, 1.0], [1.0, 1.0 + 2**-10]], F32)  # condition number ~4e3
    assert_close(ivy_like.linalg.inv(backend.asarray(near)), np.linalg.inv(near), rtol=1e-3)


@pytest.mark.requires("autodiff")
def test_gradients_through_inv_and_solve(backend):
    a = np.array([[3.0, 1.0], [1.0, 2.0]], F32)
    b = np.array([1.0, -1.0], F32)
    a_inv = np.linalg.inv(a)
    ones = np.ones((2, 2), F32)
    # d sum(A^-1) / dA = -A^-T 1 A^-T; d sum(A^-1 b) / dA = -A^-T 1 (A^-1 b)^T.
    g_inv = ivy_like.grad(lambda m: ivy_like.sum(ivy_like.linalg.inv(m)))(backend.asarray(a))
    assert_close(g_inv, -a_inv.T @ ones @ a_inv.T, rtol=1e-5, atol=1e-6)
    g_solve = ivy_like.grad(lambda m: ivy_like.sum(ivy_like.linalg.solve(m, backend.asarray(b))))(
        backend.asarray(a)
    )
    want = -a_inv.T @ np.ones((2, 1), F32) @ (a_inv @ b)[None, :]
    assert_close(g_solve, want, rtol=1e-5, atol=1e-6)


def test_traced_code_keeps_the_frameworks_result():
    # Inside jax.jit nothing can be checked (documented): JAX's own inf/NaN come out.
    jax = pytest.importorskip("jax")
    with ivy_like.use_backend("jax"):
        out = jax.jit(ivy_like.linalg.inv)(jax.numpy.asarray(SINGULAR))
    assert not np.isfinite(np.asarray(out)).all()


# -- reductions of zero-size arrays ----------------------------------------------------------------
REDUCTIONS = ["sum", "prod", "mean", "var", "std", "any", "all"]


@pytest.mark.parametrize("shape", [(0, 3), (2, 0, 3), (3, 0)])
@pytest.mark.parametrize("name", REDUCTIONS)
def test_reductions_of_zero_size_numpy_data(backend, name, shape):
    # Made from NumPy data, as asarray makes it (MLX 0.32 read stray memory here: prod of a
    # (0, 3) array was 0, all was False).
    x = np.zeros(shape, F32)
    for axis in (None, 0, -1):
        for keepdims in (False, True):
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                # NumPy's mean of nothing, torch's variance of nothing
                warnings.simplefilter("ignore", RuntimeWarning)
                warnings.simplefilter("ignore", UserWarning)
                want = np.asarray(getattr(np, name)(x, axis=axis, keepdims=keepdims))
                got = getattr(ivy_like, name)(backend.asarray(x), axis=axis, keepdims=keepdims)
            assert_close(got, want.astype(F32) if want.dtype == np.float64 else want)


def test_zero_size_extrema_and_cumulative_sum(backend):
    x = backend.asarray(np.zeros((0, 3), F32))
    for fn in (ivy_like.max, ivy_like.min):
        with pytest.raises(ValueError):  # nothing to take the maximum of
            fn(x)
        assert_close(fn(x, axis=1), np.zeros((0,), F32))  # every row reduced: no rows
    assert_close(ivy_like.cumulative_sum(x, axis=0), np.zeros((0, 3), F32))
    assert_close(ivy_like.cumulative_sum(x, axis=0, include_initial=True), np.zeros((1, 3), F32))
    ints = backend.asarray(np.zeros((0,), np.int8))
    one = backend.asarray(np.ones(1, np.int8))
    for fn, identity in ((ivy_like.sum, 0), (ivy_like.prod, 1)):
        assert fn(ints).dtype == fn(one).dtype  # the accumulator of int8, as for non-empty
        assert int(ivy_like.to_numpy(fn(ints))) == identity


_ONE_D_SCRIPT = """
import numpy as np, ivy_like
ivy_like.set_backend("mlx")
ivy_like.to_numpy(ivy_like.ones(3) + 1)  # an earlier evaluation
x = ivy_like.asarray(np.zeros((0,), np.float32))
print([float(ivy_like.to_numpy(getattr(ivy_like, n)(x))) for n in ("sum", "prod", "mean", "any")])
"""


def test_mlx_one_dimensional_zero_size_reductions_finish():
    # MLX 0.32 spun forever in about half the processes on these (the state is per process,
    # so several fresh processes make a regression near certain to show: 2**-8).
    pytest.importorskip("mlx.core")
    for _ in range(8):
        run = subprocess.run(
            [sys.executable, "-c", _ONE_D_SCRIPT], capture_output=True, text=True, timeout=60
        )
        assert run.returncode == 0, run.stderr
        assert run.stdout.split("\n")[-2] == "[0.0, 1.0, nan, 0.0]"


# -- reshape: -1 beside a 0 ------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(-1, 0), (0, -1), (3, -1, 0)])
def test_reshape_cannot_infer_minus_one_beside_zero(backend, shape):
    # The decided error of every backend (TensorFlow inferred a size: (3, 0) for (-1, 0)).
    x = backend.asarray(np.zeros((0, 3), F32))
    want = (
        rf"reshape: x of shape \(0, 3\) \(0 elements\) cannot take shape {re.escape(str(shape))}$"
    )
    with pytest.raises(ValueError, match="^" + want):
        ivy_like.reshape(x, shape)
    assert ivy_like.reshape(x, (2, -1)).shape == (2, 0)  # a -1 beside no 0 is fine

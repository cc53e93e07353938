"""The linalg and fft ops' examples for ``test_check_ops.py``.

Linear algebra: small float32 matrices far from singular, with well-separated eigenvalues
and singular values, and so are the batch's variants (reversed, a square matrix becomes
``P A P``, with the same eigenvalues; with random signs and scales the values move but stay
apart), so that every decomposition has one answer and a derivative, and ``compile`` and
``vmap`` see three distinct ones. Where the op alone has no single answer (the signs of
eigenvectors and singular vectors, the order and phases of ``eig``'s, the backend's default
integer of ``matrix_rank``) the case checks a function of it that has one. ``cholesky``,
``eigh`` and ``eigvalsh`` read one triangle, and their gradient is the symmetric one by
design (``ivy_like.ops.linalg``), which equals finite differences only along symmetric
directions: their input is built symmetric from the argument (positive definite for
``cholesky``, for the variants too).

FFT: ``check_function`` differentiates real floating-point arguments and outputs only, so a
transform's complex input is built from a real and an imaginary part and its complex output
is returned as its two parts; 7 and 13 points (odd: no Nyquist term) and a 3 x 4 grid, with
``n``/``s`` that pad or crop.
"""

from __future__ import annotations

import numpy as np
from _op_case import Case, case

import ivy_like

F32 = np.float32
# Eigenvalues 3.14, 1.59, 1.27; singular values 3.53, 1.75, 1.03; its symmetric part's
# eigenvalues 0.89, 1.72, 3.40. With random signs: eigenvalues 2.34, -3.38, -0.96.
SQUARE = np.array([[2.0, 1.0, 0.5], [0.3, 3.0, 1.0], [0.2, -0.4, 1.0]], F32)
# A complex pair and a real eigenvalue: 1.02 +- 1.98i, 2.96 (random signs: 2.39, -2.60, -2.10).
ROTATING = np.array([[1.0, -2.0, 0.0], [2.0, 1.0, 0.5], [0.3, 0.0, 3.0]], F32)
# Singular values 2.80, 1.81, 0.89 (random signs: 2.96, 2.11, 0.97).
TALL = np.array(
    [[-0.65, -0.17, 1.66], [0.66, -1.64, -0.01], [-0.62, 0.15, -1.61], [0.24, 0.24, 1.58]], F32
)
RHS = np.array([[0.5, -1.0], [1.5, 0.25], [-0.75, 2.0]], F32)
ROWS = np.array([[0.3, -1.2, 0.8], [1.1, 0.4, -0.6]], F32)
ROWS2 = np.array([[-0.7, 0.9, 1.3], [0.2, -1.5, 0.45]], F32)
VECTOR = np.array([0.3, -1.2, 0.8], F32)
VECTOR2 = np.array([1.1, 0.4, -0.6, 0.9], F32)
# Three tensors contracted over two axes.
T234 = np.random.default_rng(1).normal(size=(2, 3, 4)).astype(F32)
T342 = np.random.default_rng(2).normal(size=(3, 4, 2)).astype(F32)

# Signals of 7 points (odd: no Nyquist term), a 3 x 4 one for the n-D transforms.
SIGNAL = np.array([0.3, -1.2, 0.8, 1.7, -0.4, 0.9, -1.1], F32)
SIGNAL_IM = np.array([0.5, 0.2, -0.9, 0.4, 1.3, -0.6, 0.7], F32)
GRID = np.random.default_rng(3).normal(size=(3, 4)).astype(F32)
GRID_IM = np.random.default_rng(4).normal(size=(3, 4)).astype(F32)


def _spd(a):
    """``a a^T + I``: symmetric positive definite for every ``a`` (the variants too)."""
    # ivy_like.add: eye is an ivy_like.Array, which MXNet's NDArray.__add__ refuses
    return ivy_like.add(
        ivy_like.matmul(a, ivy_like.matrix_transpose(a)), ivy_like.eye(3, dtype=a.dtype)
    )


def _symmetric(a):
    return (a + ivy_like.matrix_transpose(a)) / 2


def _parts(z):
    """A complex array as the real arrays check_function differentiates."""
    return ivy_like.real(z), ivy_like.imag(z)


def _complex(re, im):
    """``re + i im`` (complex64 from float32, complex128 from the finite differences' float64)"""
    return ivy_like.add(re, ivy_like.multiply(im, 1j))


def _cholesky(a):
    return ivy_like.linalg.cholesky(_spd(a))


def _eigh(a):
    # Each eigenvector times its first entry: the same for v and -v.
    w, v = ivy_like.linalg.eigh(_symmetric(a))
    return w, v * v[..., :1, :]


def _eigvalsh(a):
    return ivy_like.linalg.eigvalsh(_symmetric(a))


def _eig(a):
    # The eigenvalues' real and imaginary parts each sorted (a multiset: free of the kernel's
    # order), and sum_j w_j v_j v_j^H: free of the order and of each vector's phase.
    w, v = ivy_like.linalg.eig(a)
    m = ivy_like.matmul(v * w[..., None, :], ivy_like.conj(ivy_like.matrix_transpose(v)))
    return ivy_like.sort(ivy_like.real(w)), ivy_like.sort(ivy_like.imag(w)), *_parts(m)


def _eigvals(a):
    w = ivy_like.linalg.eigvals(a)
    return ivy_like.sort(ivy_like.real(w)), ivy_like.sort(ivy_like.imag(w))


def _rank(a, **kwargs):
    return ivy_like.astype(ivy_like.linalg.matrix_rank(a, **kwargs), ivy_like.int32)


def _qr(a):
    # The factorization with a positive diagonal of R (the unique one): the kernel's signs off.
    q, r = ivy_like.linalg.qr(a)
    s = ivy_like.sign(ivy_like.linalg.diagonal(r))
    return q * s[..., None, :], r * s[..., :, None]


def _svd(a):
    # u_j times the first entry of v_j, v_j times the first entry of u_j: the same for
    # (u_j, v_j) and (-u_j, -v_j), and not for a pair of mismatched signs.
    u, s, vh = ivy_like.linalg.svd(a, full_matrices=False)
    t = ivy_like.matrix_transpose
    return u * t(vh[..., :, :1]), s, vh * t(u[..., :1, :])


def _spectrum(op):
    def f(x, **kwargs):
        return _parts(op(x, **kwargs))

    return f


def _from_parts(op):
    def f(re, im, **kwargs):
        return op(_complex(re, im), **kwargs)

    return f


def _complex_to_complex(op):
    def f(re, im, **kwargs):
        return _parts(op(_complex(re, im), **kwargs))

    return f


_WHY_TRIANGLE = (
    "the op reads one triangle and its gradient is the symmetric one (by design), which "
    "equals finite differences only along symmetric directions: the input is built "
    "symmetric from the argument"
)
_WHY_REAL_OUT = "the complex spectrum as its real and imaginary parts (derivatives: real only)"
_WHY_COMPLEX_IN = "the complex input from a real and an imaginary part (derivatives: real only)"

CASES: dict[str, Case] = {
    "matmul": case(ROWS, TALL.T),
    "matrix_transpose": case(ROWS),
    "tensordot": case(T234, T342, axes=2),
    "vecdot": case(ROWS, ROWS2),
    "linalg.cholesky": case(
        SQUARE, f=_cholesky, why=_WHY_TRIANGLE + ", a a^T + I: positive definite (variants too)"
    ),
    "linalg.cross": case(ROWS, ROWS2),
    "linalg.det": case(SQUARE),
    "linalg.diagonal": case(TALL, offset=-1),
    "linalg.eig": case(
        ROTATING,
        f=_eig,
        why="the eigenvalues' order and the eigenvectors' phases are the kernel's: sorted parts "
        "of the eigenvalues and V diag(w) V^H, as real and imaginary parts",
    ),
    "linalg.eigh": case(
        SQUARE,
        f=_eigh,
        why="the eigenvectors' signs are the kernel's: each is multiplied by its first entry; "
        + _WHY_TRIANGLE,
    ),
    "linalg.eigvals": case(
        SQUARE,
        f=_eigvals,
        why="the eigenvalues' order is the kernel's: their real and imaginary parts sorted",
    ),
    "linalg.eigvalsh": case(SQUARE, f=_eigvalsh, why=_WHY_TRIANGLE),
    "linalg.inv": case(SQUARE),
    "linalg.matrix_norm": case(TALL, ord="nuc"),
    "linalg.matrix_power": case(SQUARE, -2),
    # rtol cuts the smallest singular value (0.89 < 0.4 * 2.80; with random signs 0.97 < 1.18).
    "linalg.matrix_rank": case(
        TALL,
        f=_rank,
        why="the rank's dtype is the backend's default integer (int32 on JAX without x64 and "
        "on MLX, int64 elsewhere), by design: compared as int32",
        rtol=0.4,
    ),
    "linalg.outer": case(VECTOR, VECTOR2),
    "linalg.pinv": case(TALL),
    "linalg.qr": case(
        TALL, f=_qr, why="the signs of Q's columns and R's rows are the kernel's: made positive"
    ),
    "linalg.slogdet": case(SQUARE),
    "linalg.solve": case(SQUARE, RHS),
    "linalg.svd": case(
        TALL,
        f=_svd,
        why="the singular vectors' signs are the kernel's: each pair's sign cancelled",
    ),
    "linalg.svdvals": case(TALL),
    "linalg.trace": case(SQUARE, offset=1),
    "linalg.vector_norm": case(ROWS, ord=3),
    "fft.fft": case(SIGNAL, SIGNAL_IM, f=_complex_to_complex(ivy_like.fft.fft), why=_WHY_REAL_OUT),
    "fft.ifft": case(
        SIGNAL, SIGNAL_IM, f=_complex_to_complex(ivy_like.fft.ifft), why=_WHY_REAL_OUT
    ),
    "fft.fftn": case(GRID, GRID_IM, f=_complex_to_complex(ivy_like.fft.fftn), why=_WHY_REAL_OUT),
    "fft.ifftn": case(GRID, GRID_IM, f=_complex_to_complex(ivy_like.fft.ifftn), why=_WHY_REAL_OUT),
    "fft.rfft": case(SIGNAL, f=_spectrum(ivy_like.fft.rfft), why=_WHY_REAL_OUT),
    "fft.rfftn": case(GRID, f=_spectrum(ivy_like.fft.rfftn), why=_WHY_REAL_OUT),
    "fft.ihfft": case(SIGNAL, f=_spectrum(ivy_like.fft.ihfft), why=_WHY_REAL_OUT),
    "fft.irfft": case(
        SIGNAL, SIGNAL_IM, f=_from_parts(ivy_like.fft.irfft), why=_WHY_COMPLEX_IN, n=13
    ),
    "fft.irfftn": case(
        GRID, GRID_IM, f=_from_parts(ivy_like.fft.irfftn), why=_WHY_COMPLEX_IN, s=(3, 5)
    ),
    "fft.hfft": case(
        SIGNAL, SIGNAL_IM, f=_from_parts(ivy_like.fft.hfft), why=_WHY_COMPLEX_IN, n=13
    ),
    "fft.fftfreq": case(8, d=0.5),
    "fft.rfftfreq": case(8, d=0.5),
    "fft.fftshift": case(GRID),
    "fft.ifftshift": case(GRID),
}

_MLX_NO_VMAP = {"linalg.qr": "QRF", "linalg.solve": "LUF"}
# The cases that build a complex input (MXNet has no complex dtype, nor FFTs on the CPU).
_COMPLEX_INPUT = (
    "fft.fft",
    "fft.ifft",
    "fft.fftn",
    "fft.ifftn",
    "fft.irfft",
    "fft.irfftn",
    "fft.hfft",
)

KNOWN: dict[tuple[str, str, str], str] = {
    **{
        ("mxnet", key, "agree"): (
            "MXNet 1.9 has no complex dtype: the complex input cannot be built ('multiply: "
            "complex operands are not supported by mxnet', a TypeError), and the op itself is "
            "declared unsupported (no FFT on the CPU)"
        )
        for key in _COMPLEX_INPUT
    },
    **{
        ("mlx", key, "vmap"): (
            f"MLX 0.32 has no vmap rule for {primitive} ('[Primitive::vmap] Not implemented "
            f"for {primitive}'); a vmap rule on the mlx backend's custom function does not "
            f"help: MLX maps the nodes inside it first, and raises there"
        )
        for key, primitive in _MLX_NO_VMAP.items()
    },
}

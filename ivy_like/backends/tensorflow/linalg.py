"""tensorflow backend: the array API linalg extension on ``tf.linalg``.

``tf.linalg`` has the decompositions but not the array API's conveniences, so some functions
are composed here from TensorFlow ops: ``cross`` (any axis, broadcasting), ``diagonal`` with
an offset outside the matrix, ``matrix_norm``, ``vector_norm``, ``matrix_power``,
``matrix_rank``, ``vecdot``, ``outer``; ``matmul`` takes 1-D operands (NumPy's rules);
``solve`` broadcasts the batch dimensions itself (``tf.linalg.solve`` needs equal ones);
``svd`` returns ``Vh`` (TensorFlow gives ``V``); operands of different dtypes are promoted by
NumPy's rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
import tensorflow as tf
from tensorflow.python.eager import record  # could_possibly_record: no public equivalent

from ivy_like.core.decided_errors import tensordot_axes as _tensordot_rule
from ivy_like.core.registry import OPS
from ivy_like.ops.linalg import EighResult, EigResult, QRResult, SlogdetResult, SVDResult

from .._common import linalg as _linalg
from . import DEFAULT_INT
from ._eager import (
    EXECUTE_FAILS,
    RAW,
    RAW_FAILS,
    EagerTensor,
    eager_context,
    execute,
)
from ._helpers import _in_float32, _promote, _promoting, _wide_accumulator
from .statistical import sum as _sum

# _in_float32 (from _helpers): float16/bfloat16 computed in float32, the
# rule of ivy_like.backends._common.half.


_float = _linalg.as_is  # checked by the op's declared check (ops/linalg.py)


@tf.custom_gradient
def _symmetric_cotangent(x: Any) -> Any:
    """``x`` itself; its gradient is made Hermitian, ``(G + G^H) / 2``.

    TensorFlow's own gradients disagree: Cholesky's is symmetric, SelfAdjointEigV2's is
    folded into the lower triangle. Every backend gives the symmetric one (torch's).
    """

    def hermitian_part(g: Any) -> Any:
        return (g + tf.linalg.adjoint(g)) / 2

    return tf.identity(x), hermitian_part


# Whether a GradientTape could record this call (TensorFlow's own test before recording an op).
_could_record = record.could_possibly_record


def _gradient_possible() -> bool:
    """A tape could record this call, or it is traced into a graph (which may be differentiated)."""
    return _could_record() or not tf.executing_eagerly()


def _one_triangle(name: str, x: Any) -> Any:
    """``x`` checked as a square float stack; where a gradient may be taken, symmetric."""
    x = _float(name, x, square=True)
    if _gradient_possible():
        return _symmetric_cotangent(x)
    return x


def _common(x1: Any, x2: Any) -> tuple[Any, Any]:
    if getattr(x1, "dtype", None) == getattr(x2, "dtype", 0):
        return x1, x2
    promoted = _promote(x1, x2)
    return (x1, x2) if promoted is None else (promoted[0], promoted[1])


def _real_dtype(x: Any) -> Any:
    return x.dtype.real_dtype


def _svdvals(x: Any) -> Any:
    return tf.math.real(tf.linalg.svd(x, compute_uv=False))  # real even for complex input


def _rtol(x: Any, rtol: Any) -> Any:
    """rtol as a real tensor broadcasting against the stack, with a trailing axis."""
    real = _real_dtype(x)
    if rtol is None:
        rtol = max(x.shape[-2:]) * float(np.finfo(real.as_numpy_dtype).eps)
    return tf.cast(rtol, real)[..., None]


# -- in both namespaces ---------------------------------------------------------------------------
_matmul = _promoting(tf.linalg.matmul)


def matmul(x1: Any, x2: Any, /) -> Any:
    if type(x1) is EagerTensor and type(x2) is EagerTensor:
        # MatMul for two matrices (what tf.linalg.matmul runs; BatchMatMulV2's gradient
        # costs 30% more on a 1438x64 @ 64x64 product), BatchMatMulV2 for batches (NumPy's
        # matmul for ranks >= 2, batch dimensions broadcast). Both raise for 1-D operands
        # and mixed dtypes, handled below.
        try:
            if x1.ndim == 2 and x2.ndim == 2:
                return RAW.MatMul(a=x1, b=x2)
            return RAW.BatchMatMulV2(x=x1, y=x2)
        except RAW_FAILS:
            pass
    # tf.linalg.matmul needs two matrices (batched); NumPy's rules for 1-D operands: a vector
    # on the left is a row, on the right a column, and that axis is dropped from the result.
    r1, r2 = len(getattr(x1, "shape", ())), len(getattr(x2, "shape", ()))  # scalars: 0
    if r1 == 0 or r2 == 0:
        raise ValueError("matmul: operands must have at least one dimension, got a 0-d array")
    # expand_dims rather than x[None]: a StridedSlice's gradient (StridedSliceGrad) is a
    # dozen ops once tf.vectorized_map has rewritten it, ExpandDims's (a Reshape) two.
    a = tf.expand_dims(x1, 0) if r1 == 1 else x1
    b = tf.expand_dims(x2, -1) if r2 == 1 else x2
    if isinstance(a, tf.Tensor) and isinstance(b, tf.Tensor) and a.dtype != b.dtype:
        # Promote first: tf.linalg.matmul would take bfloat16 with another float to its
        # deprecated sparse_matmul (float32 out, and a deprecation warning printed).
        promoted = _promote(a, b)
        if promoted is not None:  # (never None for two dtypes)
            a, b = promoted
    out = _matmul(a, b)
    if r1 == 1:
        out = tf.squeeze(out, -2)
    if r2 == 1:
        out = tf.squeeze(out, -1)
    return out


def matrix_transpose(x: Any, /) -> Any:
    return tf.linalg.matrix_transpose(x)


def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
    x1, x2 = _common(x1, x2)
    a1, a2 = _linalg.tensordot_axes(axes, len(x1.shape), len(x2.shape))
    if x1.shape.num_elements() == 0 or x2.shape.num_elements() == 0:
        # tf.tensordot contracts an empty axis with one of any size (a silent wrong answer):
        # the op's shape rule, which every other framework's own error matches, refuses it.
        _tensordot_rule(OPS["tensordot"], {"x1": x1, "x2": x2, "axes": axes})
    return tf.tensordot(x1, x2, axes=[list(a1), list(a2)])


def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    x1, x2 = _common(x1, x2)
    axis = _linalg.vector_axis("vecdot", tuple(x1.shape), tuple(x2.shape), axis)
    if x1.dtype.is_complex:
        x1 = tf.math.conj(x1)
    return _sum(x1 * x2, axis=axis, dtype=x1.dtype)


# -- linalg ---------------------------------------------------------------------------------------
@_in_float32
def linalg_cholesky(x: Any, /, *, upper: bool = False) -> Any:
    x = _float("cholesky", x, square=True)
    if upper:  # reads the upper triangle, as NumPy does: the lower factor of x^H, adjoined
        return tf.linalg.adjoint(tf.linalg.cholesky(tf.linalg.adjoint(x)))
    return tf.linalg.cholesky(x)


def linalg_cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    x1, x2 = _common(x1, x2)
    axis = _linalg.vector_axis("linalg.cross", tuple(x1.shape), tuple(x2.shape), axis)
    if x1.shape[axis] != 3:
        raise ValueError("linalg.cross: the vectors must have 3 elements along axis")
    # Component formulas broadcast like any elementwise op (tf.linalg.cross needs equal
    # shapes and the last axis).
    a0, a1, a2 = tf.unstack(x1, axis=axis)
    b0, b1, b2 = tf.unstack(x2, axis=axis)
    return tf.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=axis)


linalg_det = _in_float32(_linalg.of_matrix_for(tf.linalg.det, "det", _float, square=True))


def linalg_diagonal(x: Any, /, *, offset: int = 0) -> Any:
    shape = tuple(x.shape)
    rows, cols = shape[-2:]
    if min(rows + min(offset, 0), cols - max(offset, 0)) <= 0:
        return tf.zeros((*shape[:-2], 0), dtype=x.dtype)  # tf.linalg.diag_part raises here
    return tf.linalg.diag_part(x, k=offset)


# eig/eigvals: complex results, so half precision gives complex64 (restore=False). (Eigen's
# solver: in float32 the columns it gives for a defective matrix need not be eigenvectors, as
# ivy_like.ops.linalg says.)
linalg_eig = _in_float32(restore=False)(
    _linalg.named_result_for(tf.linalg.eig, "eig", _float, EigResult)
)
linalg_eigvals = _in_float32(restore=False)(
    _linalg.of_matrix_for(tf.linalg.eigvals, "eigvals", _float, square=True)
)


@_in_float32
def linalg_eigh(x: Any, /) -> EighResult:
    return EighResult(*tf.linalg.eigh(_one_triangle("eigh", x)))


@_in_float32
def linalg_eigvalsh(x: Any, /) -> Any:
    return tf.linalg.eigvalsh(_one_triangle("eigvalsh", x))


# What MatrixInverse and MatrixSolve raise for a singular matrix ("Input is not invertible")
# in eager mode; the checks before them leave no other InvalidArgumentError. In a graph the
# error comes when the graph runs: TensorFlow's own.
_SINGULAR = (tf.errors.InvalidArgumentError,)
linalg_inv = _in_float32(_linalg.inv_for(tf.linalg.inv, _float, _SINGULAR))


@_in_float32
def linalg_matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:  # noqa: A002
    x = _float("matrix_norm", x)
    if ord == "fro":
        squares = tf.reduce_sum(tf.square(tf.abs(x)), axis=(-2, -1))
        out = (
            _linalg.root_zero_grad(squares, tf.sqrt, tf.where)
            if _gradient_possible()
            else tf.sqrt(squares)
        )
    elif ord in ("nuc", 2, -2):
        s = _svdvals(x)
        reduce = {"nuc": tf.reduce_sum, 2: tf.reduce_max, -2: tf.reduce_min}[ord]
        out = reduce(s, axis=-1)
    else:
        # 1/-1: max/min over columns of the column sums; inf/-inf: the same over rows.
        sums = tf.reduce_sum(tf.abs(x), axis=-2 if abs(ord) == 1 else -1)
        out = (tf.reduce_max if ord > 0 else tf.reduce_min)(sums, axis=-1)
    return out[..., None, None] if keepdims else out


@_in_float32
def linalg_matrix_power(x: Any, n: int, /) -> Any:
    x = _float("matrix_power", x, square=True)
    shape = tuple(x.shape)
    if n == 0:
        return tf.eye(shape[-1], batch_shape=shape[:-2], dtype=x.dtype)
    if n < 0:
        x, n = tf.linalg.inv(x), -n
    # Square-and-multiply: log2(n) products, as NumPy does.
    result = None
    while n:
        if n & 1:
            result = x if result is None else tf.linalg.matmul(result, x)
        n >>= 1
        if n:
            x = tf.linalg.matmul(x, x)
    return result


@_in_float32(restore=False, default_rtol=True)
def linalg_matrix_rank(x: Any, /, *, rtol: Any = None) -> Any:
    x = _float("matrix_rank", x)
    s = _svdvals(x)
    tol = _rtol(x, rtol) * tf.reduce_max(s, axis=-1, keepdims=True)
    return tf.reduce_sum(tf.cast(s > tol, DEFAULT_INT), axis=-1)


def linalg_outer(x1: Any, x2: Any, /) -> Any:
    x1, x2 = _common(x1, x2)
    if len(x1.shape) != 1 or len(x2.shape) != 1:
        raise ValueError("linalg.outer: x1 and x2 must be one-dimensional")
    return x1[:, None] * x2[None, :]


@_in_float32(default_rtol=True)
def linalg_pinv(x: Any, /, *, rtol: Any = None) -> Any:
    x = _float("pinv", x)
    return tf.linalg.pinv(x, rcond=_rtol(x, rtol)[..., 0])


@_in_float32
def linalg_qr(x: Any, /, *, mode: str = "reduced") -> QRResult:
    return QRResult(*tf.linalg.qr(_float("qr", x), full_matrices=mode == "complete"))


linalg_slogdet = _in_float32(
    _linalg.named_result_for(tf.linalg.slogdet, "slogdet", _float, SlogdetResult)
)


# MatrixSolve refuses every dtype solve's declared check refuses (integers, booleans), so the
# check runs on the checked path only, after the op failed or in a graph.
CHECKS_IN_KERNEL = {"linalg_solve": "MatrixSolve is tried first and refuses non-floating input"}
_SOLVE_CHECK = cast("Callable[..., None]", OPS["linalg.solve"].check)  # declared in ops/linalg.py


def linalg_solve(x1: Any, x2: Any, /) -> Any:
    if type(x1) is EagerTensor and type(x2) is EagerTensor:
        # Try the op first. It succeeds exactly for what the checked path below would hand
        # it unchanged (float or complex square matrices, one dtype, equal batch dimensions,
        # a matrix right-hand side); anything else fails and takes that path, which raises
        # ivy_like's errors or broadcasts. Reading dtypes and shapes first costs more than
        # the op's own failure would. In a graph (tf.function) the checked path runs.
        ctx = eager_context()
        if ctx is not None:
            try:
                return execute(ctx, "MatrixSolve", None, x1, x2, "adjoint", False)
            except EXECUTE_FAILS:
                pass
    _SOLVE_CHECK(x1, x2)
    return _checked_solve(x1, x2)


def _broadcast_solve(x1: Any, x2: Any) -> Any:
    vector = len(x2.shape) == 1
    if vector:
        x2 = x2[:, None]
    if x1.shape.rank == 2 and x2.shape.rank == 2:  # no batch dimensions to broadcast
        out = tf.linalg.solve(x1, x2)
        return out[..., 0] if vector else out
    b1, b2 = x1.shape[:-2].as_list(), x2.shape[:-2].as_list()
    if b1 != b2 or None in b1:
        # tf.linalg.solve needs equal batch dimensions: broadcast them here.
        batch = tf.broadcast_static_shape(x1.shape[:-2], x2.shape[:-2]).as_list()
        x1 = tf.broadcast_to(x1, [*batch, *x1.shape[-2:]])
        x2 = tf.broadcast_to(x2, [*batch, *x2.shape[-2:]])
    out = tf.linalg.solve(x1, x2)
    return out[..., 0] if vector else out


# What the direct call above does not take: both operands in one dtype, batches broadcast.
_checked_solve = _in_float32(pair=True)(
    _linalg.checked_solve_for(_broadcast_solve, _float, _SINGULAR, common=_common)
)


@_in_float32
def linalg_svd(x: Any, /, *, full_matrices: bool = True) -> SVDResult:
    s, u, v = tf.linalg.svd(_float("svd", x), full_matrices=full_matrices)
    return SVDResult(u, tf.math.real(s), tf.linalg.adjoint(v))


@_in_float32
def linalg_svdvals(x: Any, /) -> Any:
    return _svdvals(_float("svdvals", x))


linalg_trace = _linalg.trace_for(linalg_diagonal, _sum)


@_in_float32
def linalg_vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> Any:  # noqa: A002
    x = _float("vector_norm", x, matrix=False)
    p = float(ord)
    axes = list(_linalg.norm_axes(len(x.shape), axis))
    a = tf.abs(x)  # real for complex input
    if p == float("inf"):
        return tf.reduce_max(a, axis=axes, keepdims=keepdims)
    if p == -float("inf"):
        return tf.reduce_min(a, axis=axes, keepdims=keepdims)
    if p == 0:
        return tf.reduce_sum(tf.cast(a != 0, a.dtype), axis=axes, keepdims=keepdims)
    wide = _wide_accumulator(a, axes)  # leading float32 axes: in float64 (see there)
    if wide is not None:
        a = tf.cast(a, wide)
    where = tf.where if _gradient_possible() else None  # the zero-gradient guard: see there
    out = _linalg.power_sum_norm(
        a, p, lambda v: tf.reduce_sum(v, axis=axes, keepdims=keepdims), tf.sqrt, where
    )
    return out if wide is None else tf.cast(out, x.dtype.real_dtype)

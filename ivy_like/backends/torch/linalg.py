"""torch backend: the array API linalg extension on ``torch.linalg``.

Wrappers exist where torch differs from the rules of ``ivy_like.ops.linalg``: floating-point
input for the decompositions, mixed-dtype ``matmul``, ``solve`` (torch guesses vector-vs-matrix from the shapes; here
``x2`` is a vector only when 1-D), operands of different dtypes (promoted by
``torch.result_type`` as NumPy would, where torch refuses them), ``trace`` of a stack, and the
named-tuple results.

``det``, ``slogdet`` and ``solve`` compute through the LU factors as differentiable ops
(``lu_factor_ex``, ``lu_solve``) where a forward-mode derivative is differentiated again (jvp
of jvp, vjp of jvp): torch 2.13's own forward-mode rules of the three hold the LU factors
constant there (pytorch#192540) and give silently wrong values; the composites' rules are right
at every order. Elsewhere the fused kernels run, after one check for a torch.func level.
"""

from __future__ import annotations

import math
from typing import Any

import torch
from torch._C import _functorch

from ivy_like.ops.linalg import EighResult, EigResult, SlogdetResult

from .._common import linalg as _linalg
from .._common.statistical import ACCURATE_SUM_FROM
from ._helpers import _in_float32
from .transforms import forward_rule_differentiated

_is_compiling = torch.compiler.is_compiling  # read once: two attribute lookups a call
_solve_ex = torch.linalg.solve_ex
_det = torch.linalg.det
_slogdet = torch.linalg.slogdet
_transform_level = _functorch.maybe_current_level  # None outside every torch.func transform


# _in_float32 (from _helpers.py): float16/bfloat16 computed in float32, the
# rule of ivy_like.backends._common.half.


_float = _linalg.as_is  # checked by the op's declared check (ops/linalg.py)


def _common(x1: Any, x2: Any) -> tuple[Any, Any]:
    """Both operands as tensors of their NumPy-style common dtype (torch needs one dtype)."""
    x1 = x1 if isinstance(x1, torch.Tensor) else torch.as_tensor(x1)
    x2 = x2 if isinstance(x2, torch.Tensor) else torch.as_tensor(x2)
    if x1.dtype is x2.dtype:
        return x1, x2
    common = torch.result_type(x1, x2)
    return x1.to(common), x2.to(common)


def _rtol(x: Any, rtol: Any) -> Any:
    if rtol is None:
        return max(x.shape[-2:]) * torch.finfo(x.dtype).eps
    return rtol


# -- in both namespaces ---------------------------------------------------------------------------
def matmul(x1: Any, x2: Any, /) -> Any:
    try:
        return torch.matmul(x1, x2)
    except RuntimeError:
        # torch.matmul needs one dtype; NumPy promotes.
        common = torch.result_type(x1, x2)
        if x1.dtype == common and x2.dtype == common:
            raise
        return torch.matmul(x1.to(common), x2.to(common))


def matrix_transpose(x: Any, /) -> Any:
    return x.mT


def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
    x1, x2 = _common(x1, x2)
    a1, a2 = _linalg.tensordot_axes(axes, x1.ndim, x2.ndim)
    return torch.tensordot(x1, x2, dims=(list(a1), list(a2)))


def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    x1, x2 = _common(x1, x2)
    axis = _linalg.vector_axis("vecdot", tuple(x1.shape), tuple(x2.shape), axis)
    if x1.is_complex() or x1.is_floating_point():
        return torch.linalg.vecdot(x1, x2, dim=axis)
    # torch.linalg.vecdot has no integer kernels; keep the dtype as NumPy does.
    return torch.sum(x1 * x2, dim=axis, dtype=x1.dtype)


# -- linalg ---------------------------------------------------------------------------------------
linalg_cholesky = _in_float32(_linalg.cholesky_for(torch.linalg.cholesky, _float))


def linalg_cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    x1, x2 = _common(x1, x2)
    axis = _linalg.vector_axis("linalg.cross", tuple(x1.shape), tuple(x2.shape), axis)
    if x1.shape[axis] != 3:
        raise ValueError("linalg.cross: the vectors must have 3 elements along axis")
    if x1.dim() != x2.dim():  # torch broadcasts only arrays of one rank
        x1, x2 = torch.broadcast_tensors(x1, x2)
    return torch.linalg.cross(x1, x2, dim=axis)


@_in_float32
def linalg_det(x: Any, /) -> Any:
    x = _float("det", x, square=True)
    if _transform_level() is not None and forward_rule_differentiated(x):
        return _det_by_lu(x)  # torch's rule would be differentiated: see the docstring
    return _det(x)


def _det_by_lu(x: Any) -> Any:
    return _signed_diagonal(x).prod(-1)  # a singular x: a zero on the diagonal, det 0


def _slogdet_by_lu(x: Any) -> tuple[Any, Any]:
    diagonal = _signed_diagonal(x)  # a singular x: a zero, so sign 0 and logabsdet -inf
    return torch.sgn(diagonal).prod(-1), diagonal.abs().log().sum(-1)


def _signed_diagonal(x: Any) -> Any:
    """The diagonal of U in x = P L U (differentiable), each element negated where the
    factorization swapped its row for another: their product is det(x). (The sign is folded
    in before the product, not multiplied after it: Inductor 2.13 crashes on jvp of jvp of a
    0-d result times a 0-d factor, as in ``compile(jvp(jvp(det)))``.)"""
    lu, pivots, _ = torch.linalg.lu_factor_ex(x)
    rows = torch.arange(1, pivots.shape[-1] + 1, dtype=pivots.dtype, device=pivots.device)
    diagonal = torch.diagonal(lu, dim1=-2, dim2=-1)
    return torch.where(pivots != rows, -diagonal, diagonal)  # LAPACK's pivots are 1-based


def _solve_by_lu(x1: Any, x2: Any) -> Any:
    """torch.linalg.solve of a matrix x2 (batches broadcast) through differentiable LU ops."""
    lu, pivots, info = torch.linalg.lu_factor_ex(x1)
    # torch.linalg.solve's own LinAlgError for a singular x1 (also read per element under vmap)
    torch._linalg_check_errors(info, "torch.linalg.solve", is_matrix=x1.ndim == 2)
    return torch.linalg.lu_solve(lu, pivots, x2)


def linalg_diagonal(x: Any, /, *, offset: int = 0) -> Any:
    return torch.diagonal(x, offset=offset, dim1=-2, dim2=-1)


# eig/eigvals: complex results, so half precision gives complex64 (restore=False).
linalg_eig = _in_float32(restore=False)(
    _linalg.named_result_for(torch.linalg.eig, "eig", _float, EigResult)
)
linalg_eigvals = _in_float32(restore=False)(
    _linalg.of_matrix_for(torch.linalg.eigvals, "eigvals", _float, square=True)
)
linalg_eigh = _in_float32(_linalg.named_result_for(torch.linalg.eigh, "eigh", _float, EighResult))
linalg_eigvalsh = _in_float32(
    _linalg.of_matrix_for(torch.linalg.eigvalsh, "eigvalsh", _float, square=True)
)
# torch's error for a singular matrix (a RuntimeError): ivy_like's LinAlgError instead.
_SINGULAR = (torch.linalg.LinAlgError,)
linalg_inv = _in_float32(_linalg.inv_for(torch.linalg.inv, _float, _SINGULAR))


@_in_float32
def linalg_matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:  # noqa: A002
    return torch.linalg.matrix_norm(_float("matrix_norm", x), ord=ord, keepdim=keepdims)


linalg_matrix_power = _in_float32(_linalg.matrix_power_for(torch.linalg.matrix_power, _float))


@_in_float32(restore=False, default_rtol=True)
def linalg_matrix_rank(x: Any, /, *, rtol: Any = None) -> Any:
    x = _float("matrix_rank", x)
    return torch.linalg.matrix_rank(x, rtol=_rtol(x, rtol))  # int64, the default integer


def linalg_outer(x1: Any, x2: Any, /) -> Any:
    x1, x2 = _common(x1, x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("linalg.outer: x1 and x2 must be one-dimensional")
    return torch.outer(x1, x2)


@_in_float32(default_rtol=True)
def linalg_pinv(x: Any, /, *, rtol: Any = None) -> Any:
    x = _float("pinv", x)
    return torch.linalg.pinv(x, rtol=_rtol(x, rtol))


linalg_qr = _in_float32(_linalg.qr_for(torch.linalg.qr, _float))


@_in_float32
def linalg_slogdet(x: Any, /) -> SlogdetResult:
    x = _float("slogdet", x, square=True)
    if _transform_level() is not None and forward_rule_differentiated(x):
        # torch's forward-mode rule would be differentiated: see the docstring
        return SlogdetResult(*_slogdet_by_lu(x))
    return SlogdetResult(*_slogdet(x))


def linalg_solve(x1: Any, x2: Any, /) -> Any:
    if (
        type(x1) is torch.Tensor
        and type(x2) is torch.Tensor
        and x1.ndim == 2
        and x2.ndim == 2
        and not _is_compiling()
        and (_transform_level() is None or not forward_rule_differentiated(x1, x2))
    ):
        # Two matrices: torch succeeds exactly where the checks below pass them on unchanged
        # (one floating dtype, square x1, matching rows), and raises otherwise. solve_ex is
        # the same solver without torch.linalg.solve's error handling, ~2 µs cheaper on small
        # matrices; a singular x1 (info != 0) goes on to the path below, where
        # torch.linalg.solve's LinAlgError becomes ivy_like's. Under vmap, reading info
        # raises (data-dependent control flow) and the path below runs as well. A forward-mode
        # derivative to be differentiated again goes below too (see the docstring).
        try:
            result, info = _solve_ex(x1, x2)
            if not info:
                return result
        except (RuntimeError, TypeError):
            pass
    return _checked_solve(x1, x2)


def _broadcast_solve(x1: Any, x2: Any) -> Any:
    solve = torch.linalg.solve
    if _transform_level() is not None and forward_rule_differentiated(x1, x2):
        solve = _solve_by_lu  # torch's rule would be differentiated: see the docstring
    if x2.ndim == 2 and x1.ndim == 2:  # no batch dimensions: nothing to broadcast
        return solve(x1, x2)
    if x2.ndim == 1:
        return solve(x1, x2[:, None])[..., 0]
    if x1.shape[:-2] != x2.shape[:-2]:
        # Broadcast the batch dimensions explicitly so torch never reads x2 as a batch of
        # vectors (with equal batch shapes it cannot; broadcast_shapes costs ~10 µs).
        batch = torch.broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
        x1 = x1.expand(*batch, *x1.shape[-2:])
        x2 = x2.expand(*batch, *x2.shape[-2:])
    return solve(x1, x2)


# What the direct call above does not take: both operands in one dtype, batches broadcast.
_checked_solve = _in_float32(pair=True)(
    _linalg.checked_solve_for(_broadcast_solve, _float, _SINGULAR, common=_common)
)


linalg_svd = _in_float32(_linalg.svd_for(torch.linalg.svd, _float))
linalg_svdvals = _in_float32(
    _linalg.of_matrix_for(torch.linalg.svdvals, "svdvals", _float, square=False)
)


def linalg_trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
    # Summed like ivy_like.sum: narrow integers and booleans accumulate in int64.
    return torch.sum(torch.diagonal(x, offset=offset, dim1=-2, dim2=-1), dim=-1, dtype=dtype)


@_in_float32
def linalg_vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> Any:  # noqa: A002
    ord = float(ord)  # noqa: A001
    dim = None if axis is None else _linalg.norm_axes(x.ndim, axis)
    out = torch.linalg.vector_norm(x, ord=ord, dim=dim, keepdim=keepdims)
    if x.numel() < ACCURATE_SUM_FROM or x.dtype not in _SUMMED or ord in (0, math.inf, -math.inf):
        return out
    # torch's vector_norm adds float32 in one running total (3.5e-3 off for a million 0.1s
    # with ord=1, 4e-4 with ord=2), torch.sum in a cascade (6e-8): the value from torch.sum,
    # the gradient from vector_norm (its subgradient at zero, where sqrt's would be NaN).
    accurate = _linalg.power_sum_norm(
        x.abs(), ord, lambda v: torch.sum(v, dim=dim, keepdim=keepdims), torch.sqrt
    )
    both_finite = torch.isfinite(out) & torch.isfinite(accurate)  # (inf - inf would be NaN)
    return torch.where(both_finite, out + (accurate - out).detach(), out)


_SUMMED = (torch.float32, torch.complex64)

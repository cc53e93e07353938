"""torch backend: array API searching functions.

Where torch differs from the NumPy reference: ``argmax``/``argmin`` of booleans (torch refuses
them) and over nothing (NumPy's ``ValueError``), ``nonzero`` of a 0-d tensor, ``searchsorted``
with NaN (torch's binary search compares with NaN) and of mixed dtypes. ``where`` is in
``elementwise.py``.
"""

from __future__ import annotations

from typing import Any

import torch

from .._common import searching as _searching
from .statistical import sum as _sum


def _empty_error(name: str, x: Any, err: Exception) -> Exception:
    # NumPy raises ValueError for an arg-reduction over nothing; torch IndexError/RuntimeError.
    return (
        ValueError(f"{name}: zero-size reduction, which has no result") if x.numel() == 0 else err
    )


def count_nonzero(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    if keepdims or axis == () or axis == []:
        # torch.count_nonzero has no keepdim and reads dim=() as every axis: the sum of the
        # mask instead, with this backend's sum (int64 for booleans, NumPy's empty axes).
        return _sum(x != 0, axis=axis, keepdims=keepdims)
    return torch.count_nonzero(x, dim=axis)


def argmax(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    if x.dtype == torch.bool:
        x = x.to(torch.uint8)  # torch refuses bool here
    try:
        return torch.argmax(x, dim=axis, keepdim=keepdims)  # NaN first, ties first (checked)
    except (IndexError, RuntimeError) as err:
        raise _empty_error("argmax", x, err) from None


def argmin(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    if x.dtype == torch.bool:
        x = x.to(torch.uint8)
    try:
        return torch.argmin(x, dim=axis, keepdim=keepdims)
    except (IndexError, RuntimeError) as err:
        raise _empty_error("argmin", x, err) from None


def nonzero(x: Any, /) -> tuple[Any, ...]:
    if x.ndim == 0:  # torch treats a 0-d tensor as 1-d here
        raise ValueError("nonzero: x must have at least one dimension, got a 0-d array")
    return torch.nonzero(x, as_tuple=True)


def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    _searching.check_searchsorted(x1.ndim, side)
    if sorter is not None:
        x1 = x1[sorter]
    if not isinstance(x2, torch.Tensor):
        x2 = torch.as_tensor(x2, dtype=torch.result_type(x1, x2), device=x1.device)
    common = torch.promote_types(x1.dtype, x2.dtype)
    x1, x2 = x1.to(common), x2.to(common)
    if not common.is_floating_point:
        return torch.searchsorted(x1, x2, side=side)
    # torch's binary search compares with NaN, which breaks it. NaN sorts last (NumPy): search
    # among the numbers (NaNs of x1 replaced by inf), never past them, and send NaN values to
    # the first NaN of x1 (left) or the end (right).
    x1_nan = torch.isnan(x1)
    numbers = (~x1_nan).sum()
    out = torch.searchsorted(torch.where(x1_nan, torch.inf, x1), x2, side=side)
    out = torch.minimum(out, numbers)
    nan_at = numbers if side == "left" else torch.tensor(x1.shape[0], device=x1.device)
    return torch.where(torch.isnan(x2), nan_at, out)

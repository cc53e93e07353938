"""torch backend: array API set functions.

torch has no ``return_index``: ``unique_all``/``unique_counts``/``unique_inverse`` come from one
stable sort, with first-occurrence indices and each NaN distinct, as NumPy. ``isin`` is
``torch.isin`` for two arrays of one dtype it has a kernel for, the composite otherwise.
"""

from __future__ import annotations

from typing import Any

import torch

from .._common import set_functions as _set_functions


def _unique(x: Any) -> tuple[Any, Any, Any, Any]:
    """Sorted unique values, first indices, inverse (x's shape) and counts; NaNs distinct.

    From one stable sort: a new group starts wherever a value differs from its predecessor
    (NaN != NaN, so each NaN is its own group); the first element of a group in the stable
    order is its first occurrence.
    """
    flat = x.reshape(-1)
    perm = _argsort(flat)
    ordered = flat[perm]
    starts = torch.ones_like(ordered, dtype=torch.bool)
    starts[1:] = ordered[1:] != ordered[:-1]
    group = torch.cumsum(starts, 0) - 1
    inverse = torch.empty_like(group)
    inverse[perm] = group
    first = torch.nonzero(starts).reshape(-1)
    counts = torch.diff(first, append=torch.tensor([flat.numel()], device=x.device))
    return ordered[first], perm[first], inverse.reshape(x.shape), counts


def _argsort(flat: Any) -> Any:
    """The stable sorting permutation; complex numbers (which torch does not sort on the CPU)
    by real part, then imaginary part, as NumPy orders them."""
    if not flat.is_complex():
        return torch.argsort(flat, stable=True)
    by_imag = torch.argsort(flat.imag, stable=True)
    return by_imag[torch.argsort(flat.real[by_imag], stable=True)]


unique_all = _set_functions.unique_all_for(_unique)
unique_counts = _set_functions.unique_counts_for(_unique)
unique_inverse = _set_functions.unique_inverse_for(_unique)


def unique_values(x: Any, /) -> Any:
    if x.is_complex():  # torch.unique sorts, which it cannot do for complex numbers
        return _unique(x)[0]
    return torch.unique(x, sorted=True)  # NaNs distinct (checked), like NumPy's equal_nan=False


# torch.isin has no kernel for bool, complex and the unsigned types above uint8 (2.13).
_ISIN_DTYPES = frozenset(
    {
        torch.int8,
        torch.uint8,
        torch.int16,
        torch.int32,
        torch.int64,
        torch.float16,
        torch.bfloat16,
        torch.float32,
        torch.float64,
    }
)
isin = _set_functions.isin_for(torch.isin, "torch", lambda x1, x2: x1.dtype in _ISIN_DTYPES)

"""torch backend: array API utility functions.

``all``/``any`` over several axes and over no axis (``axis=()``: each element's truth value,
where torch would reduce every axis). ``diff`` is the shared one over this backend's
``concat`` (our promotion of ``prepend``/``append``) and ``torch.narrow`` views.
"""

from __future__ import annotations

from typing import Any

import torch

from .._common.statistical import reduction_axes
from .._common.utility import diff_for
from .elementwise import subtract
from .manipulation import concat


def _logical(fn: Any, x: Any, axis: Any, keepdims: bool) -> Any:
    if axis is None:
        out = fn(x)
        return out.reshape((1,) * x.ndim) if keepdims else out
    axes = reduction_axes(x.ndim, axis, fn.__name__)
    if not axes:
        return x != 0  # nothing reduced: each element's truth value
    return fn(x, dim=axes, keepdim=keepdims)


def all(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return _logical(torch.all, x, axis, keepdims)


def any(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return _logical(torch.any, x, axis, keepdims)


def _shifted(x: Any, axis: int) -> tuple[Any, Any]:
    m = x.shape[axis] - 1
    return torch.narrow(x, axis, 1, m), torch.narrow(x, axis, 0, m)


diff = diff_for(concat, subtract, _shifted, lambda a: tuple(a.shape))

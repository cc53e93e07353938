"""torch backend: array API utility functions.

``all``/``any`` over several axes and over no axis (``axis=()``: each element's truth value,
where torch would reduce every axis).
"""

from __future__ import annotations

from typing import Any

import torch

from ivy_like.ops.statistical import _axes


def _logical(fn: Any, x: Any, axis: Any, keepdims: bool) -> Any:
    if axis is None:
        out = fn(x)
        return out.reshape((1,) * x.ndim) if keepdims else out
    axes = _axes(x.ndim, axis, fn.__name__)
    if not axes:
        return x != 0  # nothing reduced: each element's truth value
    return fn(x, dim=axes, keepdim=keepdims)


def all(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return _logical(torch.all, x, axis, keepdims)


def any(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return _logical(torch.any, x, axis, keepdims)

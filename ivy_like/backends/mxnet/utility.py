"""mxnet backend: array API utility functions: ``all`` and ``any``.

A count of the non-zero elements (NaN is non-zero) with ``mx.nd.sum`` in int64, compared with
0 or with the reduced size; zero-size reductions give the identity (``True`` for ``all``).
"""

from __future__ import annotations

import builtins
from typing import Any

import mxnet as mx

from ivy_like.ops.statistical import _count

from . import _BOOL, DEFAULT_INT, numpy_shapes
from ._helpers import _axes, _no_bool, _reduce, _truth

nd = mx.nd


def _logical_reduce(x: Any, axis: Any, keepdims: bool, name: str) -> Any:
    axes = _axes(x, axis, name)
    shape = tuple(1 if i in axes else n for i, n in enumerate(x.shape) if keepdims or i not in axes)
    if x.size == 0 or not axes:
        if not axes:
            return nd.broadcast_not_equal(_no_bool(x), nd.zeros_like(_no_bool(x))).astype(_BOOL)
        return nd.full(shape, int(name == "all"), ctx=x.context, dtype=_BOOL)
    truth = _truth(nd.broadcast_not_equal(_no_bool(x), nd.zeros_like(_no_bool(x))))
    hits = _reduce(nd.sum, truth.astype(DEFAULT_INT), axis, keepdims, name)
    if name == "any":
        return nd.broadcast_greater(hits, nd.zeros_like(hits)).astype(_BOOL)
    size = builtins.max(1, _count(tuple(x.shape), axis, name))
    return nd.broadcast_equal(hits, nd.full(hits.shape, size, dtype=hits.dtype)).astype(_BOOL)


@numpy_shapes
def all(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return _logical_reduce(x, axis, keepdims, "all")


@numpy_shapes
def any(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return _logical_reduce(x, axis, keepdims, "any")

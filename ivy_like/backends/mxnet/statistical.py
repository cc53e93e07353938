"""mxnet backend: array API statistical functions.

``mx.nd`` reductions (``sum``, ``mean``, ``max``/``min``, ``prod``, ``cumsum``), with the rules
of ``ivy_like.ops`` applied where MXNet differs:

* full reductions, which legacy operators return with shape ``(1,)``, are reshaped to ``()``;
  ``axis=()`` reduces nothing; zero-size inputs (which MXNet's reductions reject) give the
  op's identity, or a ``ValueError`` for ``max``/``min``.
* integers and bools accumulate in int64 in ``sum``, ``cumulative_sum`` and ``prod``, unsigned
  ones too: MXNet has no uint64 (documented in ``ivy_like.ops``, as for torch).
* ``var``/``std`` are NaN when ``N - correction <= 0``.
* float16 is computed in float32 and cast back (``mean``, ``var``, ``std``, ``prod``,
  ``cumulative_sum``).
"""

from __future__ import annotations

import builtins
from typing import Any, Callable

import mxnet as mx
import numpy as np

from .._common import statistical as _statistical
from .._common.statistical import cumulative_axis, reduction_count
from . import _BOOL, DEFAULT_INT, numpy_shapes
from ._helpers import _axes, _cast, _in_float32, _no_bool, _reduce, _supported

nd = mx.nd


@numpy_shapes
def sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    """``mx.nd.sum``; bools and integers accumulate in int64, as NumPy does for signed ones.

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> from ivy_like.backends.mxnet import statistical
    >>> s = statistical.sum(mx.nd.array([1., 2.]))
    >>> s.shape, float(B.to_numpy(s))
    ((), 3.0)
    """
    if dtype is None and (x.dtype == np.bool_ or np.dtype(x.dtype).kind in "iu"):
        dtype = DEFAULT_INT
    if dtype is not None:
        x = _cast(x, _supported(np.dtype(dtype), "sum"))
    return _reduce(nd.sum, x, axis, keepdims, "sum")


@numpy_shapes  # outermost: the float32 round trip runs with NumPy shapes (0-d results)
@_in_float32
def mean(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    if np.dtype(x.dtype).kind != "f":
        raise TypeError(f"mean: expected a floating-point array, got {np.dtype(x.dtype)}")
    return _reduce(nd.mean, x, axis, keepdims, "mean")


def _extremum(mx_op: Callable[..., Any], name: str) -> Callable[..., Any]:
    @numpy_shapes
    def op(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        axes = _axes(x, axis, name)
        if x.size == 0 and (not axes or builtins.any(x.shape[a] == 0 for a in axes)):
            raise ValueError(f"{name}: zero-size reduction has no identity")
        out = _reduce(mx_op, _no_bool(x), axis, keepdims, name)
        return out.astype(_BOOL) if x.dtype == np.bool_ else out

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``mx.nd.{mx_op.__name__}`` (NaN-propagating, like NumPy)."
    return op


max = _extremum(nd.max, "max")  # noqa: A001
min = _extremum(nd.min, "min")  # noqa: A001


def _accumulator(x: Any, dtype: Any, who: str) -> Any:
    if dtype is None and (x.dtype == np.bool_ or np.dtype(x.dtype).kind in "iu"):
        dtype = DEFAULT_INT  # as NumPy does for signed integers (MXNet has no uint64)
    return x if dtype is None else _cast(_no_bool(x), _supported(np.dtype(dtype), who))


@numpy_shapes
@_in_float32(dtype_arg=True)
def cumulative_sum(
    x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> Any:
    """``mx.nd.cumsum`` along one axis.

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> from ivy_like.backends.mxnet import statistical
    >>> B.to_numpy(statistical.cumulative_sum(mx.nd.array([1, 2, 3], dtype="int32"), include_initial=True))
    array([0, 1, 3, 6])
    """
    axis = cumulative_axis(x.ndim, axis)
    x = _accumulator(x, dtype, "cumulative_sum")
    out = nd.cumsum(x, axis=axis) if x.size else nd.identity(x)
    if include_initial:
        shape = list(out.shape)
        shape[axis] = 1
        first = nd.zeros(tuple(shape), ctx=x.context, dtype=out.dtype)
        out = nd.concat(first, out, dim=axis) if out.size else first if out.ndim else out
        if x.shape[axis] == 0:
            out = first
    return out


@numpy_shapes
@_in_float32(dtype_arg=True)
def cumulative_prod(
    x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> Any:
    """Running products of the slices along one axis (``mx.nd`` has no ``cumprod``).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> from ivy_like.backends.mxnet import statistical
    >>> B.to_numpy(statistical.cumulative_prod(mx.nd.array([2, 3], dtype="int32"), include_initial=True))
    array([1, 2, 6])
    """
    axis = cumulative_axis(x.ndim, axis, "cumulative_prod")
    x = _accumulator(x, dtype, "cumulative_prod")
    shape = list(x.shape)
    shape[axis] = 1
    running = nd.ones(tuple(shape), ctx=x.context, dtype=x.dtype)
    parts = [running] if include_initial else []
    for i in range(x.shape[axis]):  # one multiply a slice: the successive products
        running = nd.broadcast_mul(running, nd.slice_axis(x, axis=axis, begin=i, end=i + 1))
        parts.append(running)
    if not parts:  # nothing along axis and no initial one: x itself, empty
        return nd.identity(x)
    return parts[0] if len(parts) == 1 else nd.concat(*parts, dim=axis)


@numpy_shapes
@_in_float32(dtype_arg=True)
def prod(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    x = _accumulator(x, dtype, "prod")
    axes = _axes(x, axis, "prod")
    if x.size == 0:  # the empty product is 1 (MXNet cannot reduce zero-size arrays)
        shape = tuple(
            1 if i in axes else n for i, n in enumerate(x.shape) if keepdims or i not in axes
        )
        return nd.ones(shape, ctx=x.context, dtype=x.dtype)
    return _reduce(nd.prod, x, axis, keepdims, "prod")


def _var(name: str, x: Any, axis: Any, correction: Any, keepdims: bool) -> Any:
    if np.dtype(x.dtype).kind != "f":
        raise TypeError(f"{name}: expected a real floating-point array, got {np.dtype(x.dtype)}")
    c = float(correction)  # checked by the op (ops/statistical.py)
    n = reduction_count(tuple(x.shape), axis, name)
    axes = _axes(x, axis, name)
    shape = tuple(1 if i in axes else s for i, s in enumerate(x.shape) if keepdims or i not in axes)
    if n - c <= 0:  # the standard's NaN
        return nd.full(shape, np.nan, ctx=x.context, dtype=x.dtype)
    centred = nd.broadcast_sub(
        x,
        mean(x, axis=axis, keepdims=True).reshape(
            tuple(1 if i in axes else s for i, s in enumerate(x.shape))
        ),
    )
    total = sum(nd.square(centred), axis=axis, keepdims=keepdims)
    return total / (n - c)


def _shapes_in_float32(fn: Callable[..., Any]) -> Callable[..., Any]:
    # numpy_shapes outermost: the float32 round trip runs with NumPy shapes (0-d results).
    return numpy_shapes(_in_float32(fn))


var = _statistical.var_for(_var, _shapes_in_float32)
std = _statistical.std_for(_var, nd.sqrt, _shapes_in_float32)

"""mlx backend: array API statistical functions.

Fixed here: float32 sums of many elements go in blocks (``_helpers._float_sum``: MLX's running
total drifts), ``sum`` takes a ``dtype`` (MLX has none), integer accumulation width, variance
``correction`` (MLX takes an integer ``ddof``); ``max``/``min`` are MLX's (NaN-propagating).
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx

from ivy_like.ops.statistical import _ACCURATE_SUM_FROM, _check_correction, _count

from .._common import statistical as _statistical
from . import _INEXACT
from ._helpers import _float_sum, _in_float32, _reduce_axes

# NumPy's accumulation rule with MLX's default integer (int32): narrower ints widen to it.
_ACCUMULATOR = {
    mx.bool_: mx.int32,
    mx.int8: mx.int32,
    mx.int16: mx.int32,
    mx.uint8: mx.uint32,
    mx.uint16: mx.uint32,
}
_REAL_FLOATS = frozenset(d for d in _INEXACT if d != mx.complex64)


def sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    """``mx.sum``, converting to ``dtype`` first when one is given (MLX has no ``dtype=``).

    Examples
    --------
    >>> import mlx.core as mx
    >>> from ivy_like.backends.mlx import statistical as B
    >>> B.sum(mx.array([1, 2]), dtype=mx.float32)
    array(3, dtype=float32)
    """
    if dtype is not None:
        x = x.astype(dtype)
    if x.size < _ACCURATE_SUM_FROM:  # small: MLX's own sum (no rounding to speak of)
        return mx.sum(x, axis=axis, keepdims=keepdims)
    return _float_sum(x, axis, keepdims)


# Large float32 inputs summed in blocks (_float_sum): MLX's running total drifts.
mean = _statistical.mean_for(mx, _INEXACT, _in_float32, _float_sum)


max = mx.max  # noqa: A001  (NaN-propagating, like NumPy)
min = mx.min  # noqa: A001


cumulative_sum = _statistical.cumulative_sum_for(mx, mx.astype, _ACCUMULATOR, _in_float32)
prod = _statistical.prod_for(mx.prod, mx.astype, _ACCUMULATOR, _reduce_axes, _in_float32)


def _var(name: str, x: Any, axis: Any, correction: Any, keepdims: bool) -> Any:
    if x.dtype not in _REAL_FLOATS:
        raise TypeError(f"{name}: expected a real floating-point array, got {x.dtype}")
    c = _check_correction(correction, name)
    axes = _reduce_axes(x, axis, name)
    n = _count(tuple(x.shape), axis, name)
    if n - c <= 0:
        return mx.sum(x, axis=axes, keepdims=keepdims) * float("nan")
    # Two passes with the divisor N - correction (mx.var takes only an integer ddof).
    # The sums in blocks when large (see _float_sum): MLX's running float32 total drifts.
    centred = x - _float_sum(x, axes, True) / n
    return _float_sum(mx.square(centred), axes, keepdims) / (n - c)


var = _statistical.var_for(_var, _in_float32)
std = _statistical.std_for(_var, mx.sqrt, _in_float32)

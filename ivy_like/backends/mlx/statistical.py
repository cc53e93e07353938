"""mlx backend: array API statistical functions.

Fixed here: float32 sums of many elements go in blocks (``_helpers._float_sum``: MLX's running
total drifts), ``sum`` takes a ``dtype`` (MLX has none), integer accumulation width, variance
``correction`` (MLX takes an integer ``ddof``); ``max``/``min`` are MLX's (NaN-propagating).
Reductions of zero-size input are built here, never run by MLX (``_of_nothing``).
"""

from __future__ import annotations

import math
from typing import Any

import mlx.core as mx

from .._common import statistical as _statistical
from .._common.statistical import ACCURATE_SUM_FROM, reduction_axes, reduction_count
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


def _of_nothing(x: Any, axis: Any, keepdims: bool, value: Any, dtype: Any, name: str) -> Any:
    """The reduction over ``axis`` of the zero-size ``x``: ``value`` in the result's shape.

    MLX 0.32's reductions of a zero-size array made from a NumPy one (``mx.array(np.zeros((0,
    3)))``, which is what ``asarray`` of NumPy data gives) read memory that is not theirs:
    ``prod`` gives 0, ``all`` False, and about half the runs of a 1-D ``sum``/``prod``/
    ``mean``/``any`` spin forever once anything was evaluated before. (Arrays MLX allocated
    itself reduce correctly, as did the empty diagonal, built with ``mx.zeros`` for the same
    reason in ``linalg.py``.) Reducing nothing gives the identity (or NaN) in a shape known
    from ``axis`` and ``keepdims``, so it is built directly: MLX's reduction never runs.
    """
    axes = reduction_axes(x.ndim, axis, name)
    shape = [1 if i in axes else n for i, n in enumerate(x.shape) if keepdims or i not in axes]
    return mx.full(shape, value, dtype)


def sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    """``mx.sum``, converting to ``dtype`` first when one is given (MLX has no ``dtype=``).

    Examples
    --------
    >>> import mlx.core as mx
    >>> from ivy_like.backends.mlx import statistical as B
    >>> B.sum(mx.array([1, 2]), dtype=mx.float32)
    array(3, dtype=float32)
    """
    n = x.size
    if dtype is None and (axis == () or (n == 1 and x.ndim == 0)):
        # Reducing no axis (or a 0-d x), MLX returns x as it is; the sum's dtype still widens
        # (bool and narrow ints, as MLX's own reductions widen), as on every backend.
        dtype = _ACCUMULATOR.get(x.dtype)
    if dtype is not None:
        x = x.astype(dtype)
    if n < ACCURATE_SUM_FROM:  # small: MLX's own sum (no rounding to speak of)
        if n:
            return mx.sum(x, axis=axis, keepdims=keepdims)
        # MLX's sum widens as _ACCUMULATOR says (bool and narrow ints), and so does this.
        return _of_nothing(x, axis, keepdims, 0, _ACCUMULATOR.get(x.dtype, x.dtype), "sum")
    return _float_sum(x, axis, keepdims)


def _mean(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    if x.size:
        return mx.mean(x, axis=axis, keepdims=keepdims)
    return _of_nothing(x, axis, keepdims, math.nan, x.dtype, "mean")


def _prod(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    if x.size:
        return mx.prod(x, axis=axis, keepdims=keepdims)
    return _of_nothing(x, axis, keepdims, 1, x.dtype, "prod")


# Large float32 inputs summed in blocks (_float_sum): MLX's running total drifts.
mean = _statistical.mean_for(_mean, _INEXACT, _in_float32, _float_sum)


# NaN-propagating, like NumPy. Over an empty axis MLX raises ValueError when called, before
# anything is evaluated (so a zero-size input never reaches its reduction); a zero-size input
# reduced over non-empty axes gives an empty result, which MLX computes correctly.
max = mx.max  # noqa: A001
min = mx.min  # noqa: A001


# (A zero-size cumsum is itself empty and zero-padded: correct from MLX, measured.)
cumulative_sum = _statistical.cumulative_sum_for(mx, mx.astype, _ACCUMULATOR, _in_float32)
cumulative_prod = _statistical.cumulative_prod_for(
    mx.cumprod, mx.pad, mx.astype, _ACCUMULATOR, _in_float32
)
prod = _statistical.prod_for(_prod, mx.astype, _ACCUMULATOR, _reduce_axes, _in_float32)


def _var(name: str, x: Any, axis: Any, correction: Any, keepdims: bool) -> Any:
    if x.dtype not in _REAL_FLOATS:
        raise TypeError(f"{name}: expected a real floating-point array, got {x.dtype}")
    c = float(correction)  # checked by the op (ops/statistical.py)
    if not x.size:  # NaN over an empty axis, else an empty result (see _of_nothing)
        return _of_nothing(x, axis, keepdims, math.nan, x.dtype, name)
    axes = _reduce_axes(x, axis, name)
    n = reduction_count(tuple(x.shape), axis, name)
    if n - c <= 0:
        return mx.sum(x, axis=axes, keepdims=keepdims) * float("nan")
    # Two passes with the divisor N - correction (mx.var takes only an integer ddof).
    # The sums in blocks when large (see _float_sum): MLX's running float32 total drifts.
    centred = x - _float_sum(x, axes, True) / n
    return _float_sum(mx.square(centred), axes, keepdims) / (n - c)


var = _statistical.var_for(_var, _in_float32)
std = _statistical.std_for(_var, mx.sqrt, _in_float32)

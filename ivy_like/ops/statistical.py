"""Reductions (array API statistical functions)."""

from __future__ import annotations

from typing import Any

from ..core.decided_errors import FLOAT, NUMERIC, REAL, REAL_FLOAT, axis_in_range
from ..core.registry import op


@op(arrays=("x",), dtypes=("dtype",), dtype_category=NUMERIC, shape_rule=axis_in_range)
def sum(  # noqa: A001 - array API name
    x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False, out: Any = None
):
    """Sum over ``axis`` (an int, a tuple of ints, or None for all axes).

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([[1., 2.], [3., 4.]])
    >>> ivy_like.sum(x), ivy_like.sum(x, axis=0)
    (ivy_like.array(10.), ivy_like.array([4., 6.]))
    """


@op(arrays=("x",), dtype_category=FLOAT, shape_rule=axis_in_range)
def mean(x: Any, /, *, axis: Any = None, keepdims: bool = False, out: Any = None):
    """Arithmetic mean over ``axis`` (floating-point inputs).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.mean(ivy_like.array([[1., 2.], [3., 4.]]), axis=1)
    ivy_like.array([1.5, 3.5])
    """


@op(arrays=("x",), dtype_category=REAL, shape_rule=axis_in_range)
def max(x: Any, /, *, axis: Any = None, keepdims: bool = False, out: Any = None):  # noqa: A001
    """Maximum over ``axis``; NaN if any reduced value is NaN.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.max(ivy_like.array([[1., 5.], [3., 4.]]), axis=0)
    ivy_like.array([3., 5.])
    """


@op(arrays=("x",), dtype_category=REAL, shape_rule=axis_in_range)
def min(x: Any, /, *, axis: Any = None, keepdims: bool = False, out: Any = None):  # noqa: A001
    """Minimum over ``axis``; NaN if any reduced value is NaN.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.min(ivy_like.array([[1., 5.], [3., 4.]]), axis=1)
    ivy_like.array([1., 3.])
    """


@op(arrays=("x",), dtypes=("dtype",), dtype_category=NUMERIC, shape_rule=axis_in_range)
def cumulative_sum(
    x: Any,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: bool = False,
    out: Any = None,
):
    """Cumulative sum along ``axis``; with ``include_initial`` the result starts with a zero.

    ``axis`` may be omitted only for a one-dimensional ``x``; for more dimensions it is a
    ``ValueError`` (so is a 0-d ``x``). Without ``dtype``, booleans and integers narrower than
    the backend's default integer accumulate in it (unsigned ones in the unsigned integer of
    that width; on torch and mxnet, which have no usable uint64, in int64); floats keep their
    dtype.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.cumulative_sum(ivy_like.array([1., 2., 3.]), include_initial=True)
    ivy_like.array([0., 1., 3., 6.])
    """


@op(arrays=("x",), dtypes=("dtype",), dtype_category=NUMERIC, shape_rule=axis_in_range)
def cumulative_prod(
    x: Any,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: bool = False,
    out: Any = None,
):
    """Cumulative product along ``axis``; with ``include_initial`` the result starts with a one.

    The rules of :func:`cumulative_sum`: ``axis`` may be omitted only for a one-dimensional
    ``x`` (``ValueError`` otherwise, and for a 0-d ``x``); without ``dtype``, booleans and
    integers narrower than the backend's default integer are multiplied in it (unsigned ones
    in the unsigned integer of that width; int64 on torch and mxnet); floats keep their dtype,
    half precision being multiplied in float32. NaN and infinities propagate as in successive
    :func:`multiply` calls.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.cumulative_prod(ivy_like.array([1., 2., 3.]), include_initial=True)
    ivy_like.array([1., 1., 2., 6.])
    >>> ivy_like.cumulative_prod(ivy_like.array([[1, 2], [3, 4]]), axis=0)
    ivy_like.array([[1, 2],
                    [3, 8]])
    """


@op(arrays=("x",), dtypes=("dtype",), dtype_category=NUMERIC, shape_rule=axis_in_range)
def prod(
    x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False, out: Any = None
):
    """Product over ``axis``; the product of nothing is 1. Result dtype as for ``sum``.

    Booleans and integers narrower than the backend's default integer are multiplied in it
    (unsigned ones in the unsigned integer of that width; int64 on torch and mxnet).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.prod(ivy_like.array([[1., 2.], [3., 4.]]), axis=1)
    ivy_like.array([ 2., 12.])
    """


def _correction_check(name: str) -> Any:
    """The check of ``std``/``var`` (``name``): ``correction`` is an int or a float (the
    frameworks would read a bool, a string or an array each in their own way)."""

    def check(x: Any, /, *, axis: Any = None, correction: Any = 0.0, keepdims: Any = False) -> None:
        if type(correction) is float or type(correction) is int:
            return  # the common case
        if isinstance(correction, bool) or not isinstance(correction, (int, float)):
            raise TypeError(f"{name}: correction must be an int or a float, got {correction!r}")

    check.__name__ = check.__qualname__ = f"_check_{name}"
    return check


@op(
    arrays=("x",),
    dtype_category=REAL_FLOAT,
    shape_rule=axis_in_range,
    check=_correction_check("std"),
)
def std(
    x: Any,
    /,
    *,
    axis: Any = None,
    correction: int | float = 0.0,
    keepdims: bool = False,
    out: Any = None,
):
    """Standard deviation over ``axis``: the square root of :func:`var`.

    For real floating-point inputs (others raise ``TypeError``). ``correction`` is subtracted
    from the number N of reduced elements in the divisor (1 gives the sample estimate); when
    ``N - correction <= 0`` the result is NaN on every backend (NumPy and torch give inf).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.std(ivy_like.array([1., 3., 5.]), correction=1)
    ivy_like.array(2.)
    """


@op(
    arrays=("x",),
    dtype_category=REAL_FLOAT,
    shape_rule=axis_in_range,
    check=_correction_check("var"),
)
def var(
    x: Any,
    /,
    *,
    axis: Any = None,
    correction: int | float = 0.0,
    keepdims: bool = False,
    out: Any = None,
):
    """Variance over ``axis``: ``sum((x - mean) ** 2) / (N - correction)``.

    For real floating-point inputs (others raise ``TypeError``); when ``N - correction <= 0``
    (an empty reduction included) the result is NaN on every backend.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.var(ivy_like.array([1., 2., 3., 4.])), ivy_like.var(ivy_like.array([1.]), correction=1)
    (ivy_like.array(1.25), ivy_like.array(nan))
    """

"""Array API sorting functions: argsort and sort.

Decided once for every backend: ``stable=True`` (the default) keeps equal elements in their
original relative order, also with ``descending=True`` (the order of equal elements is then
*not* reversed, as the standard asks). NaN sorts as the largest value: last in ascending order,
first in descending order. ``stable=False`` may give any order of equal elements; every backend
here happens to be stable anyway.
"""

from __future__ import annotations

from typing import Any

from ..core.decided_errors import REAL, axis_in_range
from ..core.registry import op


@op(arrays=("x",), dtype_category=REAL, shape_rule=axis_in_range)
def argsort(
    x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True, out: Any = None
):
    """Indices that sort ``x`` along ``axis`` (default integer dtype).

    Equal elements keep their original order (``stable=True``), in descending order too;
    NaN is the largest value.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([3., 1., 3., 2.])
    >>> ivy_like.argsort(x), ivy_like.argsort(x, descending=True)
    (ivy_like.array([1, 3, 0, 2]), ivy_like.array([0, 2, 3, 1]))
    """


@op(arrays=("x",), dtype_category=REAL, shape_rule=axis_in_range)
def sort(
    x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True, out: Any = None
):
    """``x`` sorted along ``axis``; NaN is the largest value (last, or first when descending).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.sort(ivy_like.array([3., float("nan"), 1.]), descending=True)
    ivy_like.array([nan,  3.,  1.])
    """

"""Array API utility functions: all and any (logical reductions of any dtype)."""

from __future__ import annotations

from typing import Any

from ..core.decided_errors import axis_in_range
from ..core.registry import op


@op(arrays=("x",), shape_rule=axis_in_range)
def all(  # noqa: A001 - array API name
    x: Any, /, *, axis: Any = None, keepdims: bool = False, out: Any = None
):
    """Whether every element along ``axis`` is non-zero (NaN is non-zero); True when empty.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.all(ivy_like.array([[1., 0.], [2., 3.]]), axis=1)
    ivy_like.array([False,  True])
    """


@op(arrays=("x",), shape_rule=axis_in_range)
def any(  # noqa: A001 - array API name
    x: Any, /, *, axis: Any = None, keepdims: bool = False, out: Any = None
):
    """Whether any element along ``axis`` is non-zero (NaN is non-zero); False when empty.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.any(ivy_like.array([[0., 0.], [0., 3.]]), axis=1)
    ivy_like.array([False,  True])
    """

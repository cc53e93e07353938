"""Array API searching functions: argmax, argmin, count_nonzero, nonzero, searchsorted.

Every index result has the backend's default integer dtype (int64; int32 on mlx and on jax
without 64-bit mode).
"""

from __future__ import annotations

import sys
from typing import Any

from ..core.decided_errors import REAL, axis_in_range
from ..core.registry import op


@op(arrays=("x",), dtype_category=REAL, shape_rule=axis_in_range)
def argmax(x: Any, /, *, axis: int | None = None, keepdims: bool = False, out: Any = None):
    """Index of the largest value along ``axis`` (of the flattened array when None).

    Ties give the first occurrence; NaN counts as the largest value, so the index of the first
    NaN is returned (NumPy's rule, also on tensorflow whose ``argmax`` ignores NaN). An empty
    reduction raises ``ValueError``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.argmax(ivy_like.array([1., 5., 5., 2.]))
    ivy_like.array(1)
    >>> ivy_like.argmax(ivy_like.array([[1., 5.], [7., 2.]]), axis=1, keepdims=True)
    ivy_like.array([[1],
                    [0]])
    """


@op(arrays=("x",), dtype_category=REAL, shape_rule=axis_in_range)
def argmin(x: Any, /, *, axis: int | None = None, keepdims: bool = False, out: Any = None):
    """Index of the smallest value along ``axis`` (of the flattened array when None).

    Ties give the first occurrence; a NaN wins here too (index of the first NaN), as in NumPy.
    An empty reduction raises ``ValueError``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.argmin(ivy_like.array([[1., 5.], [7., 2.]]), axis=0)
    ivy_like.array([0, 1])
    """


@op(arrays=("x",), shape_rule=axis_in_range)
def count_nonzero(x: Any, /, *, axis: Any = None, keepdims: bool = False, out: Any = None):
    """Number of non-zero elements along ``axis`` (an int, a tuple of ints, or None for all).

    Any dtype: NaN is non-zero, a complex element is non-zero when either part is, and a
    boolean when it is True. The counts have the backend's default integer dtype (array API
    2024.12).

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([[0., 1., 2.], [0., 0., float("nan")]])
    >>> ivy_like.count_nonzero(x), ivy_like.count_nonzero(x, axis=1)
    (ivy_like.array(3), ivy_like.array([2, 1]))
    """
    # The composite, for backends without a kernel: a sum of booleans, which every backend
    # accumulates in its default integer (astype to bool is non-zero for both complex parts).
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    return il.sum(il.astype(x, il.bool), axis=axis, keepdims=keepdims)


# nonzero returns one index array per dimension of x: a tuple whose length depends on the input
# (n_outputs=-1); the Container variant gives a Container whose leaves are those tuples.
@op(arrays=("x",), n_outputs=-1)
def nonzero(x: Any, /):
    """Indices of the non-zero (True, NaN counts as non-zero) elements, one array per axis.

    The indices are in row-major (C) order. A 0-d ``x`` raises ``ValueError``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nonzero(ivy_like.array([[0, 3], [4, 0]]))
    (ivy_like.array([0, 1]), ivy_like.array([1, 0]))
    """


@op(arrays=("x1", "x2", "sorter"))
def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None, out: Any = None):
    """Indices where the values of ``x2`` would be inserted into the sorted 1-D ``x1``.

    ``side="left"`` gives the first suitable index (``x1[i-1] < v <= x1[i]``), ``"right"``
    the last (``x1[i-1] <= v < x1[i]``). ``sorter`` (indices sorting ``x1``) may replace a
    sorted ``x1``. NaN sorts after every number, as in NumPy's ``sort``: a NaN in ``x2`` goes
    before the first NaN of ``x1`` (left) or at the end (right) on every backend (torch and
    tensorflow need this fixed up). ``x1`` must be one-dimensional (``ValueError``). ``x2`` may
    be a Python int or float (2025.12): the result is then 0-d.

    Examples
    --------
    >>> import ivy_like
    >>> x1 = ivy_like.array([1., 2., 2., 5.])
    >>> ivy_like.searchsorted(x1, ivy_like.array([2., 6.])), ivy_like.searchsorted(x1, ivy_like.array([2.]), side="right")
    (ivy_like.array([1, 4]), ivy_like.array([3]))
    >>> ivy_like.searchsorted(x1, 3)
    ivy_like.array(3)
    """

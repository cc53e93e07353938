"""Array API set functions: unique_all, unique_counts, unique_inverse, unique_values.

Decided once for every backend: the unique values are sorted ascending (as NumPy's
``np.unique``), every NaN is distinct from every other NaN (each gets its own entry, count 1,
at the end), ``indices`` point at the first occurrence in the flattened ``x`` (so of 0.0 and
-0.0 the one that comes first is kept), ``inverse_indices`` has the shape of ``x``, and index
and count arrays have the backend's default integer dtype.

The result types are the standard's named tuples, defined here (no framework import) and
returned by every backend.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..core.registry import op

__all__ = ["UniqueAllResult", "UniqueCountsResult", "UniqueInverseResult"]


class UniqueAllResult(NamedTuple):
    """``(values, indices, inverse_indices, counts)`` of :func:`ivy_like.unique_all`."""

    values: Any
    indices: Any
    inverse_indices: Any
    counts: Any


class UniqueCountsResult(NamedTuple):
    """``(values, counts)`` of :func:`ivy_like.unique_counts`."""

    values: Any
    counts: Any


class UniqueInverseResult(NamedTuple):
    """``(values, inverse_indices)`` of :func:`ivy_like.unique_inverse`."""

    values: Any
    inverse_indices: Any


@op(arrays=("x",), n_outputs=4)
def unique_all(x: Any, /):
    """Sorted unique values of ``x`` with first indices, inverse indices and counts.

    Returns a :class:`UniqueAllResult` ``(values, indices, inverse_indices, counts)`` with
    ``values == x.flatten()[indices]`` and ``values[inverse_indices] == x``; NaNs are distinct.

    Examples
    --------
    >>> import ivy_like
    >>> values, indices, inverse_indices, counts = ivy_like.unique_all(ivy_like.array([3, 1, 3, 2]))
    >>> values, indices, inverse_indices, counts
    (ivy_like.array([1, 2, 3]), ivy_like.array([1, 3, 0]), ivy_like.array([2, 0, 2, 1]), ivy_like.array([1, 1, 2]))
    """


@op(arrays=("x",), n_outputs=2)
def unique_counts(x: Any, /):
    """Sorted unique values of ``x`` and how often each occurs (each NaN once).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.unique_counts(ivy_like.array([1., float("nan"), 1., float("nan")]))
    UniqueCountsResult(values=ivy_like.array([ 1., nan, nan]), counts=ivy_like.array([2, 1, 1]))
    """


@op(arrays=("x",), n_outputs=2)
def unique_inverse(x: Any, /):
    """Sorted unique values of ``x`` and, in the shape of ``x``, each element's index in them.

    Examples
    --------
    >>> import ivy_like
    >>> values, inverse = ivy_like.unique_inverse(ivy_like.array([[2, 1], [1, 2]]))
    >>> values, inverse
    (ivy_like.array([1, 2]), ivy_like.array([[1, 0],
                    [0, 1]]))
    """


@op(arrays=("x",))
def unique_values(x: Any, /):
    """Sorted unique values of ``x`` (every NaN kept: NaNs are distinct).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.unique_values(ivy_like.array([3, 1, 3, 2]))
    ivy_like.array([1, 2, 3])
    """

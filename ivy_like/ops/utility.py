"""Array API utility functions: all and any (logical reductions of any dtype), diff."""

from __future__ import annotations

import builtins
import operator
import sys
from typing import Any

from ..core import backend as _backend
from ..core.axes import normalize_axis
from ..core.decided_errors import NUMERIC, axis_in_range, kind_of, shape_of
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


# -- argument checks (run before any kernel; see ``OpSpec.check``) -------------------------------
def _check_diff(
    x: Any, /, *, axis: Any = -1, n: Any = 1, prepend: Any = None, append: Any = None
) -> None:
    """``diff``'s rules: a numeric ``x`` of at least one dimension, ``n`` a non-negative int,
    ``axis`` in range, ``prepend``/``append`` of ``x``'s shape off ``axis``."""
    if kind_of(x) == "b":
        raise TypeError("diff: x must have a numeric dtype (the array API standard's), got bool")
    joined = {"prepend": prepend, "append": append}
    _diff_axis(shape_of(x) or (), axis, n, joined, shape_of)


def _diff_axis(
    shape: tuple[int, ...], axis: Any, n: Any, joined: dict[str, Any], shape_of: Any
) -> int:
    """The checked axis of ``diff``; ``joined`` maps "prepend"/"append" to arrays or None,
    whose shapes ``shape_of`` reads (the backend's ``shape``)."""
    if not shape:
        raise ValueError("diff: x must have at least one dimension, got a 0-d array")
    if isinstance(n, bool) or not hasattr(n, "__index__"):
        raise TypeError(f"diff: n must be an int, got {n!r}")
    if operator.index(n) < 0:
        raise ValueError(f"diff: n must be non-negative, got {n}")
    axis = normalize_axis(axis, len(shape), "diff")
    for name, a in joined.items():
        if a is None:
            continue
        if not hasattr(a, "shape"):
            raise TypeError(f"diff: {name} must be an array or None, got {type(a).__name__}")
        got = tuple(shape_of(a))
        off = [(s, g) for d, (s, g) in enumerate(zip(shape, got)) if d != axis]
        if len(got) != len(shape) or builtins.any(s != g for s, g in off):
            raise ValueError(
                f"diff: {name} of shape {got} must have x's shape {shape} except along axis {axis}"
            )
    return axis


@op(arrays=("x", "prepend", "append"), dtype_category=NUMERIC, check=_check_diff)
def diff(
    x: Any,
    /,
    *,
    axis: int = -1,
    n: int = 1,
    prepend: Any = None,
    append: Any = None,
    out: Any = None,
):
    """The ``n``-th forward difference along ``axis``: ``out[i] = x[i+1] - x[i]``, ``n`` times.

    ``prepend`` and ``append`` (arrays of ``x``'s shape except along ``axis``) are joined to
    ``x`` first, as :func:`concat` joins (and promotes) them. Decided once for every backend
    (array API 2024.12): ``x`` must be numeric and at least 1-D (``TypeError`` for booleans,
    ``ValueError`` for 0-d), ``n`` a non-negative int (``n=0`` returns the joined array, as
    the standard's size rule says; NumPy would drop ``prepend``/``append`` there), an ``axis``
    out of range an ``AxisError``. An axis of size ``m`` gives ``max(m - n, 0)`` values.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([1., 4., 9., 16.])
    >>> ivy_like.diff(x), ivy_like.diff(x, n=2)
    (ivy_like.array([3., 5., 7.]), ivy_like.array([2., 2.]))
    >>> ivy_like.diff(x, prepend=ivy_like.array([0.]))
    ivy_like.array([1., 3., 5., 7.])
    """
    # One composite for every backend: slices (each backend's getitem) and subtract.
    b = _backend.current_backend()
    axis = normalize_axis(axis, len(b.shape(x)), "diff")  # diff's check ran first
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    if prepend is not None or append is not None:
        x = il.concat([a for a in (prepend, x, append) if a is not None], axis=axis)
    lead = (slice(None),) * axis
    head, tail = lead + (slice(None, -1),), lead + (slice(1, None),)
    # After as many steps as the axis has values it is empty, and stays so: stop there.
    for _ in range(min(operator.index(n), b.shape(x)[axis])):
        x = il.subtract(b.getitem(x, tail), b.getitem(x, head))
    return x

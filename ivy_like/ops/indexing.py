"""Array API indexing functions: take (issue 5) and take_along_axis (2024.12)."""

from __future__ import annotations

from typing import Any

from ..core import backend as _backend
from ..core.axes import _axis
from ..core.registry import op


@op(arrays=("x", "indices"))
def take(x: Any, indices: Any, /, *, axis: int | None = None, out: Any = None):
    """Elements of ``x`` at ``indices`` along ``axis`` (None: of the flattened ``x``).

    Decided once for every backend: negative indices count from the end; an index out of
    range raises ``IndexError`` (jax would clamp or fill and mlx would read past the end;
    inside ``jax.jit`` / ``mx.compile`` index values are unknown and go unchecked, as for
    ``x[i]``); ``indices`` must be an int or an integer array (``TypeError`` otherwise, bool
    arrays included).

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([[1, 2], [3, 4]])
    >>> ivy_like.take(x, ivy_like.array([1, 0, -1]), axis=1)
    ivy_like.array([[2, 1, 2],
                    [4, 3, 4]])
    """


@op(arrays=("x", "indices"))
def take_along_axis(x: Any, indices: Any, /, *, axis: int = -1, out: Any = None):
    """Elements of ``x`` at ``indices`` along ``axis``, one index per position of the result.

    ``indices`` is an integer array of ``x``'s rank (``TypeError`` for other dtypes, as for
    :func:`take`; ``ValueError`` for another rank); off ``axis`` the two shapes broadcast
    (``ValueError`` otherwise), and the result has their broadcast shape with
    ``indices.shape[axis]`` along ``axis``. Decided once for every backend: negative indices
    count from the end and an index out of range raises ``IndexError`` (inside ``jax.jit`` /
    ``mx.compile`` index values are unknown and go unchecked, as for ``x[i]``); an ``axis`` out
    of range is an ``AxisError``.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([[10, 30, 20], [60, 40, 50]])
    >>> ivy_like.take_along_axis(x, ivy_like.argsort(x, axis=1), axis=1)
    ivy_like.array([[10, 20, 30],
                    [40, 50, 60]])
    >>> ivy_like.take_along_axis(x, ivy_like.array([[-1], [0]]))
    ivy_like.array([[20],
                    [60]])
    """
    # One composite for every backend: x indexed with integer arrays, ``indices`` along
    # ``axis`` and a range broadcast along each other axis. Each backend's getitem already
    # decides negative indices and bounds (IndexError) as NumPy does.
    b = _backend.current_backend()
    shape = tuple(b.shape(x))
    kind = b.unified_dtype(b.dtype(indices)).kind if hasattr(indices, "shape") else None
    axis = _along_axis(shape, tuple(b.shape(indices)) if kind else (), axis, kind)
    return b.getitem(x, _along_axis_key(shape, indices, axis, b.arange, b.reshape))


# -- shared rules (backends call these; no framework is imported here) ------------------------
def _along_axis(shape: tuple[int, ...], ishape: tuple[int, ...], axis: Any, kind: Any) -> int:
    """The checked axis of ``take_along_axis`` (``kind``: the dtype kind letter of
    ``indices``, None for something that is not an array)."""
    if kind is None or kind not in "iu":
        raise TypeError("take_along_axis: indices must be an integer array")
    if len(ishape) != len(shape):
        raise ValueError(
            f"take_along_axis: indices must have x's rank ({len(shape)}), got shape {ishape}"
        )
    axis = _axis(axis, len(shape), "take_along_axis")
    for d, (a, i) in enumerate(zip(shape, ishape)):
        if d != axis and a != i and a != 1 and i != 1:
            raise ValueError(
                f"take_along_axis: x of shape {shape} and indices of shape {ishape} do not "
                f"broadcast off axis {axis}"
            )
    return axis


def _along_axis_key(
    shape: tuple[int, ...], indices: Any, axis: int, arange: Any, reshape: Any
) -> tuple[Any, ...]:
    """The integer-array key of ``take_along_axis``: ``indices`` at ``axis``, elsewhere
    ``arange(size)`` reshaped (by the backend's ``arange``/``reshape``) to broadcast along its
    own axis only."""
    key = []
    for d, size in enumerate(shape):
        if d == axis:
            key.append(indices)
        else:
            view = [1] * len(shape)
            view[d] = size
            key.append(reshape(arange(size), tuple(view)))
    return tuple(key)


def _host_bounds(values: Any) -> tuple[int, int]:
    """``(min, max)`` of a non-empty NumPy copy of an integer index array.

    A few values go through a list and the builtins, which beats two NumPy reductions.
    """
    if values.size <= 16:
        flat = values.ravel().tolist()
        return min(flat), max(flat)
    return int(values.min()), int(values.max())


def _check_step(k: slice) -> None:
    """NumPy's ``ValueError`` for a slice with a step of zero."""
    step = k.step
    if step is not None and hasattr(step, "__index__") and step.__index__() == 0:
        raise ValueError("slice step cannot be zero")


def _in_range_basic(shape: tuple[int, ...], key: Any) -> bool:
    """True for a key of Python ints and slices (with int or None bounds and a non-zero step),
    every int within its axis: NumPy's basic indexing, which JAX and MLX read as NumPy does.
    Backends index with such a key directly; anything else (lists, arrays, None, ``...``, an
    int out of range) goes through their checks."""
    if type(key) is slice:
        return key.step is None or (type(key.step) is int and key.step != 0)
    items = key if type(key) is tuple else (key,) if type(key) is int else None
    if items is None or len(items) > len(shape):
        return False
    for size, k in zip(shape, items):
        if type(k) is int:
            if not -size <= k < size:
                return False
        elif type(k) is slice:
            if not (k.step is None or (type(k.step) is int and k.step != 0)):
                return False
        else:
            return False
    return True


def _check_bounds(lo: int, hi: int, size: int, axis: int) -> None:
    """NumPy's ``IndexError`` when an index in ``[lo, hi]`` is outside ``[-size, size)``."""
    if hi >= size or lo < -size:
        bad = hi if hi >= size else lo
        raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {size}")


def _take_axis(ndim: int, indices: Any, axis: int | None, kind: str | None) -> int | None:
    """The checked axis of ``take`` (None: flatten ``x`` first).

    ``kind`` is the dtype kind letter of ``indices`` (None for a Python value). Backends then
    select along ``axis`` with NumPy's bounds checks: their ``getitem`` of
    ``x[(slice(None),) * axis + (indices,)]``, or their own gather after the same checks.
    """
    if kind is None:
        if isinstance(indices, bool) or not hasattr(indices, "__index__"):
            raise TypeError(f"take: indices must be an integer array, got {indices!r}")
    elif kind not in "iu":
        raise TypeError("take: indices must be an integer array")
    if axis is None:
        return None
    if type(axis) is int and -ndim <= axis < ndim:
        return axis % ndim
    from .manipulation import _axis  # errors and index-like axes

    return _axis(axis, ndim, "take")

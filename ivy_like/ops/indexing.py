"""Array API indexing functions: take and take_along_axis (2024.12)."""

from __future__ import annotations

from typing import Any

from ..core import backend as _backend
from ..core.axes import normalize_axis
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
    axis = along_axis(shape, tuple(b.shape(indices)) if kind else (), axis, kind)
    return b.getitem(x, along_axis_key(shape, indices, axis, b.arange, b.reshape))


# -- take_along_axis's rules, for its composite and the kernels that gather themselves ---------
def along_axis(shape: tuple[int, ...], ishape: tuple[int, ...], axis: Any, kind: Any) -> int:
    """The checked axis of ``take_along_axis`` (``kind``: the dtype kind letter of
    ``indices``, None for something that is not an array)."""
    if kind is None or kind not in "iu":
        raise TypeError("take_along_axis: indices must be an integer array")
    if len(ishape) != len(shape):
        raise ValueError(
            f"take_along_axis: indices must have x's rank ({len(shape)}), got shape {ishape}"
        )
    axis = normalize_axis(axis, len(shape), "take_along_axis")
    for d, (a, i) in enumerate(zip(shape, ishape)):
        if d != axis and a != i and a != 1 and i != 1:
            raise ValueError(
                f"take_along_axis: x of shape {shape} and indices of shape {ishape} do not "
                f"broadcast off axis {axis}"
            )
    return axis


def along_axis_key(
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

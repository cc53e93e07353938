"""Shape manipulation and dtype conversion."""

from __future__ import annotations

import math
import operator
from typing import Any

from ..core.axes import check_repeats_array, normalize_axis
from ..core.decided_errors import (
    decided,
    joined_shapes,
    kind_of,
    permute_axes,
    reshape_size,
    shape_of,
)
from ..core.registry import op

_SCALARS = (bool, int, float, complex)


@op(arrays=("x",), shape_rule=reshape_size)
def reshape(x: Any, /, shape: Any, *, copy: bool | None = None, out: Any = None):
    """The same values with a new shape (one dimension may be -1).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.reshape(ivy_like.arange(6), (2, 3))
    ivy_like.array([[0, 1, 2],
                    [3, 4, 5]])
    """


@op(arrays=("x",), shape_rule=permute_axes)
def permute_dims(x: Any, /, axes: Any, *, out: Any = None):
    """Reorder the axes of ``x`` (``axes`` is a permutation of ``range(x.ndim)``; negative
    axes count from the end, as 2025.12 allows).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.permute_dims(ivy_like.zeros((2, 3, 4)), (2, 0, 1)).shape
    (4, 2, 3)
    >>> ivy_like.permute_dims(ivy_like.zeros((2, 3, 4)), (-1, 0, -2)).shape
    (4, 2, 3)
    """


@op(sequences=("arrays",), shape_rule=joined_shapes)
def concat(arrays: Any, /, *, axis: int | None = 0, out: Any = None):
    """Join a sequence of arrays along an existing axis (``axis=None`` flattens first).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.concat([ivy_like.array([1., 2.]), ivy_like.array([3.])])
    ivy_like.array([1., 2., 3.])
    """


@op(sequences=("arrays",), shape_rule=joined_shapes)
def stack(arrays: Any, /, *, axis: int = 0, out: Any = None):
    """Join a sequence of same-shaped arrays along a new axis.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.stack([ivy_like.array([1., 2.]), ivy_like.array([3., 4.])], axis=1)
    ivy_like.array([[1., 3.],
                    [2., 4.]])
    """


@op(arrays=("x",), dtypes=("dtype",))
def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None, out: Any = None):
    """``x`` converted to ``dtype`` (a unified dtype, a string or a native dtype).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.astype(ivy_like.array([1.7, -1.7]), "int32")
    ivy_like.array([ 1, -1])
    """


# -- the rest of the array API manipulation functions -----------------------------------------
# Rules decided once for every backend (each backend calls these helpers before its native op):
# * an axis out of range raises ``AxisError`` (NumPy's: both an IndexError and a ValueError);
#   a repeated axis raises ValueError;
# * ``squeeze`` of an axis whose size is not 1 raises ValueError (torch would ignore it);
# * ``repeat``: negative repeats, or repeats whose length is neither 1 nor the axis size,
#   raise ValueError; non-integer repeats raise TypeError.


@op(sequences=("arrays",), n_outputs=-1)
def broadcast_arrays(*arrays: Any):
    """Broadcast arrays against each other; returns a tuple of arrays of one shape.

    Each result keeps its own dtype. Shapes that do not broadcast raise ``ValueError`` on
    every backend. The result is a tuple, as 2025.12 says (a list under earlier revisions: see
    :func:`ivy_like.set_array_api_version`).

    Examples
    --------
    >>> import ivy_like
    >>> a, b = ivy_like.broadcast_arrays(ivy_like.array([1, 2]), ivy_like.array([[0], [1]]))
    >>> a.shape, b.shape
    ((2, 2), (2, 2))
    """


@op(arrays=("x",))
def broadcast_to(x: Any, /, shape: Any, *, out: Any = None):
    """``x`` broadcast to ``shape`` (NumPy's broadcasting rules; ``ValueError`` otherwise).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.broadcast_to(ivy_like.array([1, 2]), (2, 2))
    ivy_like.array([[1, 2],
                    [1, 2]])
    """


@op(arrays=("x",))
def expand_dims(x: Any, /, axis: int | tuple[int, ...] = 0, *, out: Any = None):
    """``x`` with new axes of size 1: one at ``axis`` (in ``[-x.ndim - 1, x.ndim]``), or, since
    the 2025.12 standard, one at each position of a tuple ``axis`` (positions in the result,
    which has ``M = x.ndim + len(axis)`` axes: each in ``[-M, M)``, no two the same).

    An axis out of range raises ``AxisError`` (an ``IndexError`` and a ``ValueError``), a
    repeated one ``ValueError``. ``axis`` may be given by position or by keyword, as the
    standard's stubs write it; it still defaults to 0, so 2023.12 calls keep working.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.expand_dims(ivy_like.array([1, 2]), axis=-1).shape
    (2, 1)
    >>> ivy_like.expand_dims(ivy_like.array([1, 2]), 0).shape
    (1, 2)
    >>> ivy_like.expand_dims(ivy_like.array([1, 2]), axis=(0, -1)).shape
    (1, 2, 1)
    """


@op(arrays=("x",))
def flip(x: Any, /, *, axis: Any = None, out: Any = None):
    """``x`` with the order of elements reversed along ``axis`` (None: every axis).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.flip(ivy_like.array([[1, 2], [3, 4]]), axis=1)
    ivy_like.array([[2, 1],
                    [4, 3]])
    """


@op(arrays=("x",))
def moveaxis(x: Any, source: Any, destination: Any, /, *, out: Any = None):
    """``x`` with the axes ``source`` (an int or a tuple) moved to ``destination``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.moveaxis(ivy_like.zeros((2, 3, 4)), 0, -1).shape
    (3, 4, 2)
    """


def _check_repeat(x: Any, repeats: Any, /, *, axis: Any = None) -> None:
    """``repeats`` a non-negative int, or an integer array of 0 or 1 dimensions with 1 or
    ``n`` counts (``n``: the size of ``axis``, or of ``x`` when ``axis`` is None), and ``axis``
    in range. Negative counts in an array are found by the kernels, which read its values."""
    if type(repeats) is int and repeats >= 0 and axis is None:
        return  # the common case
    shape = shape_of(x)
    ax = None if axis is None or shape is None else normalize_axis(axis, len(shape), "repeat")
    if not hasattr(repeats, "dtype"):  # a Python number
        if isinstance(repeats, bool) or not hasattr(repeats, "__index__"):
            raise TypeError(f"repeat: repeats must be an int or an integer array, got {repeats!r}")
        if repeats < 0:
            raise ValueError(f"repeat: repeats must be non-negative, got {repeats}")
        return
    counts = shape_of(repeats)
    if shape is None or counts is None or None in counts or None in shape:
        return  # sizes a traced TensorFlow shape does not know: the kernel's to check
    size = math.prod(shape) if ax is None else shape[ax]
    check_repeats_array(counts, size, axis, kind_of(repeats) or "f")


@op(arrays=("x", "repeats"), check=_check_repeat)
def repeat(x: Any, repeats: Any, /, *, axis: int | None = None, out: Any = None):
    """Each element of ``x`` repeated ``repeats`` times along ``axis`` (None: flattened first).

    ``repeats`` is an int or a 1-D integer array of length 1 or ``x.shape[axis]``. Negative
    repeats or a wrong length raise ``ValueError``, non-integer repeats ``TypeError``, on every
    backend. With an array of repeats the result's shape depends on the values: jax needs
    concrete repeats (not inside ``jax.jit``) and mlx evaluates them.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.repeat(ivy_like.array([1, 2]), 2)
    ivy_like.array([1, 1, 2, 2])
    >>> ivy_like.repeat(ivy_like.array([1, 2]), ivy_like.array([0, 3]))
    ivy_like.array([2, 2, 2])
    """


@op(arrays=("x",))
def roll(x: Any, /, shift: Any, *, axis: Any = None, out: Any = None):
    """Elements of ``x`` shifted cyclically by ``shift`` along ``axis``.

    ``axis=None`` rolls the flattened array and restores the shape (``shift`` must then be an
    int). With a tuple of axes, ``shift`` is an int (used for each) or a tuple of the same
    length; shifts of a repeated axis add up, as in NumPy.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.roll(ivy_like.array([1, 2, 3, 4]), 1)
    ivy_like.array([4, 1, 2, 3])
    """


@op(arrays=("x",))
def squeeze(x: Any, /, axis: Any, *, out: Any = None):
    """``x`` without the axes ``axis`` (an int or a tuple), each of which must have size 1.

    Squeezing an axis whose size is not 1 raises ``ValueError`` on every backend (torch alone
    would silently keep it).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.squeeze(ivy_like.zeros((1, 2, 1)), axis=(0, 2)).shape
    (2,)
    """


@op(arrays=("x",))
def tile(x: Any, repetitions: Any, /, *, out: Any = None):
    """``x`` repeated ``repetitions[i]`` times along each axis ``i`` (NumPy's ``tile``).

    When ``repetitions`` is shorter than ``x.ndim`` it is padded with leading ones; when it is
    longer, ``x`` gains leading axes of size 1. Negative repetitions raise ``ValueError``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.tile(ivy_like.array([1, 2]), (2, 2))
    ivy_like.array([[1, 2, 1, 2],
                    [1, 2, 1, 2]])
    """


@op(arrays=("x",), n_outputs=-1)
def unstack(x: Any, /, *, axis: int = 0):
    """A tuple of the ``x.shape[axis]`` slices of ``x`` along ``axis``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.unstack(ivy_like.array([[1, 2], [3, 4]]), axis=1)
    (ivy_like.array([1, 3]), ivy_like.array([2, 4]))
    """


PAD_MODES = ("constant", "reflect", "edge")


def _pad_entry(pad_width: Any, value: Any, ndim: int) -> int:
    if isinstance(value, (list, tuple)):
        raise _pad_shape_error(pad_width, ndim)
    if type(value) is bool or not hasattr(value, "__index__"):
        raise decided(
            TypeError(
                f"pad: pad_width must hold integers, got {value!r} (a {type(value).__name__})"
            )
        )
    value = operator.index(value)
    if value < 0:
        raise decided(ValueError(f"pad: pad_width must not hold negative sizes, got {pad_width!r}"))
    return value


def _pad_shape_error(pad_width: Any, ndim: int) -> Exception:
    return decided(
        ValueError(
            f"pad: pad_width {pad_width!r} does not fit x's {ndim} dimension(s); give an int, "
            f"(before, after), or one (before, after) pair per axis"
        )
    )


def pad_pairs(pad_width: Any, ndim: int) -> tuple[tuple[int, int], ...]:
    """NumPy's forms of ``pad_width`` (an int, ``(pad,)``, ``(before, after)``, ``((before,
    after),)`` or one pair per axis) as one ``(before, after)`` pair per axis; the decided
    ``TypeError`` for entries that are not integers, ``ValueError`` for negative ones or a form
    that does not fit ``ndim`` axes."""
    value = pad_width
    if hasattr(value, "tolist") and not isinstance(value, (list, tuple)):
        value = value.tolist()  # a NumPy (or framework) array or integer scalar
    if not isinstance(value, (list, tuple)):
        n = _pad_entry(pad_width, value, ndim)
        return ((n, n),) * ndim
    rows = list(value)
    if not any(isinstance(r, (list, tuple)) for r in rows):  # (pad,) or (before, after)
        if len(rows) not in (1, 2):
            raise _pad_shape_error(pad_width, ndim)
        pair = tuple(_pad_entry(pad_width, v, ndim) for v in rows)
        return ((pair[0], pair[-1]),) * ndim
    pairs = []
    for row in rows:
        if not isinstance(row, (list, tuple)) or len(row) not in (1, 2):
            raise _pad_shape_error(pad_width, ndim)
        entries = [_pad_entry(pad_width, v, ndim) for v in row]
        pairs.append((entries[0], entries[-1]))
    if len(pairs) == 1:
        return (pairs[0],) * ndim
    if len(pairs) != ndim:
        raise _pad_shape_error(pad_width, ndim)
    return tuple(pairs)


def _check_pad(x: Any, pad_width: Any, mode: Any = "constant", constant_values: Any = 0) -> None:
    """``mode`` one of :data:`PAD_MODES`, ``pad_width`` one of NumPy's forms for ``x``'s axes
    (see :func:`pad_pairs`), an empty axis extended only by ``"constant"``, and a number for
    ``constant_values``."""
    if type(mode) is not str or mode not in PAD_MODES:
        raise decided(
            ValueError(f"pad: mode must be 'constant', 'reflect' or 'edge', got {mode!r}")
        )
    shape = shape_of(x)
    if shape is None:
        return
    pairs = pad_pairs(pad_width, len(shape))
    if mode != "constant":
        for axis, (size, pair) in enumerate(zip(shape, pairs)):
            if size == 0 and pair != (0, 0):
                raise decided(
                    ValueError(
                        f"pad: mode={mode!r} cannot extend x's empty axis {axis} (only "
                        f"'constant' can)"
                    )
                )
    elif type(constant_values) not in _SCALARS and shape_of(constant_values) != ():
        raise decided(
            TypeError(
                f"pad: constant_values must be a number, got {type(constant_values).__name__}"
            )
        )


@op(arrays=("x",), check=_check_pad)
def pad(x: Any, pad_width: Any, mode: str = "constant", constant_values: Any = 0):
    """``x`` extended at both ends of each axis (NumPy's ``pad``, three of its modes).

    ``pad_width`` takes NumPy's forms: an int (both ends of every axis), ``(before, after)``
    (every axis), or one ``(before, after)`` pair per axis. ``mode`` is ``"constant"`` (the new
    values are ``constant_values``, a number cast to ``x``'s dtype), ``"reflect"`` (mirrored
    about the first and last values, which are not repeated, as often as the padding needs) or
    ``"edge"`` (the first and last values repeated); any other mode is a ``ValueError``. The
    result is a new array.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([1, 2, 3])
    >>> ivy_like.pad(x, (1, 2)), ivy_like.pad(x, 2, mode="reflect")
    (ivy_like.array([0, 1, 2, 3, 0, 0]), ivy_like.array([3, 2, 1, 2, 3, 2, 1]))
    >>> ivy_like.pad(ivy_like.array([[1., 2.]]), ((1, 0), (0, 1)), mode="edge")
    ivy_like.array([[1., 2., 2.],
                    [1., 2., 2.]])
    """

"""Manipulation kernels written once for several backends (see ``_common/__init__.py``).

Each factory returns the kernel itself. ``xp`` is a NumPy-like namespace (``numpy``,
``jax.numpy``, ``mlx.core``) whose functions take NumPy's arguments; the shared rules of
``ivy_like.ops.manipulation`` (axis checks, squeeze of a non-1 axis...) run first so every
backend raises the same errors.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from ...core.axes import expand_axes, normalize_axes, normalize_axis

Kernel = Callable[..., Any]


# -- aliases with the standard's signature (users named at each) ---------------------------------
def reshape_for(xp: Any) -> Kernel:  # jax.numpy without copy=, mlx.core
    def reshape(x: Any, /, shape: Any, *, copy: Any = None) -> Any:
        # Immutable arrays: a copy and a view cannot be told apart, so ``copy`` changes nothing.
        # An int is a 1-d shape, as NumPy, torch and TensorFlow read it (mx.reshape refuses it).
        return xp.reshape(x, (shape,) if type(shape) is int else shape)

    return reshape


def permute_dims_for(xp: Any) -> Kernel:  # numpy, mlx.core
    def permute_dims(x: Any, /, axes: Any) -> Any:
        return xp.transpose(x, axes)

    return permute_dims


def broadcast_arrays_for(xp: Any) -> Kernel:  # numpy, jax.numpy, mlx.core
    def broadcast_arrays(*arrays: Any) -> tuple[Any, ...]:
        return tuple(xp.broadcast_arrays(*arrays))

    return broadcast_arrays


def broadcast_to_for(xp: Any) -> Kernel:  # numpy, jax.numpy, mlx.core
    def broadcast_to(x: Any, /, shape: Any) -> Any:
        return xp.broadcast_to(x, shape)

    return broadcast_to


# -- numpy, jax.numpy: the rank from xp.ndim, the shape from xp.shape (non-array input too) -------
def expand_dims_for(xp: Any) -> Kernel:
    def expand_dims(x: Any, /, axis: Any) -> Any:
        if type(axis) is int:  # the common case: one axis
            return xp.expand_dims(x, normalize_axis(axis, xp.ndim(x) + 1, "expand_dims"))
        return xp.expand_dims(x, expand_axes(axis, xp.ndim(x)))

    return expand_dims


def flip_for(xp: Any) -> Kernel:
    def flip(x: Any, /, *, axis: Any = None) -> Any:
        return xp.flip(x, axis=normalize_axes(axis, xp.ndim(x), "flip"))

    return flip


def moveaxis_for(xp: Any) -> Kernel:
    def moveaxis(x: Any, source: Any, destination: Any, /) -> Any:
        return xp.transpose(x, moveaxis_perm(xp.ndim(x), source, destination))

    return moveaxis


def repeat_for(
    xp: Any, count_types: tuple[type, ...], readable: Callable[[Any], bool] | None = None
) -> Kernel:
    """``repeat`` whose array of counts (``count_types``) is checked for negative values where
    ``readable(repeats)`` says its values can be read (always, without ``readable``): the declared check sees only its shape
    and dtype, and JAX would take a negative count as 0."""

    def repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
        if axis is not None:
            axis = normalize_axis(axis, xp.ndim(x), "repeat")
        if isinstance(repeats, count_types):
            if (readable is None or readable(repeats)) and bool(xp.any(xp.less(repeats, 0))):
                raise ValueError("repeat: repeats must be non-negative")
        else:
            repeats = operator.index(repeats)
        return xp.repeat(x, repeats, axis=axis)

    return repeat


def roll_for(xp: Any) -> Kernel:
    def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Any:
        shift, axis = roll_args(shift, axis, xp.ndim(x))
        return xp.roll(x, shift, axis=axis)

    return roll


def squeeze_for(xp: Any) -> Kernel:
    def squeeze(x: Any, /, axis: Any) -> Any:
        return xp.squeeze(x, axis=squeeze_axes(xp.shape(x), axis))

    return squeeze


def tile_for(xp: Any) -> Kernel:
    def tile(x: Any, repetitions: Any, /) -> Any:
        _, reps = tile_shapes(xp.shape(x), repetitions)
        return xp.tile(x, reps)

    return tile


# -- the rank from x.ndim, the shape from x.shape: the framework's function is ``fn`` -------------
def expand_dims_by(fn: Callable[[Any, int], Any]) -> Kernel:
    """expand_dims by ``fn(x, axis)`` (``mx.expand_dims``, ``torch.unsqueeze``)."""

    def expand_dims(x: Any, /, axis: Any) -> Any:
        if type(axis) is int:  # the common case: one axis
            return fn(x, normalize_axis(axis, x.ndim + 1, "expand_dims"))
        for position in expand_axes(axis, x.ndim):  # ascending: each is where it ends up
            x = fn(x, position)
        return x

    return expand_dims


def moveaxis_by(fn: Callable[[Any, Any], Any]) -> Kernel:
    """moveaxis by ``fn(x, axes)`` (``mx.transpose``, ``torch.permute``, mxnet's
    ``permute_dims``)."""

    def moveaxis(x: Any, source: Any, destination: Any, /) -> Any:
        return fn(x, moveaxis_perm(x.ndim, source, destination))

    return moveaxis


def roll_by(fn: Callable[..., Any]) -> Kernel:
    """roll by ``fn(x, shifts)`` (flattened) or ``fn(x, shifts, axes)`` (``mx.roll``,
    ``torch.roll``)."""

    def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Any:
        shift, axis = roll_args(shift, axis, x.ndim)
        if axis is None:  # torch.roll takes no dims=None
            return fn(x, shift)
        return fn(x, shift, axis)

    return roll


def tile_by(fn: Callable[[Any, Any], Any]) -> Kernel:
    """tile by ``fn(x, repetitions)`` (``mx.tile``, ``torch.tile``)."""

    def tile(x: Any, repetitions: Any, /) -> Any:
        _, reps = tile_shapes(x.shape, repetitions)
        return fn(x, reps)

    return tile


# -- computations the backends share (plain Python, no framework) ----------------------------
def squeeze_axes(shape: tuple[int, ...], axis: Any) -> tuple[int, ...]:
    axes = normalize_axes(axis, len(shape), "squeeze")
    for a in axes:
        if shape[a] != 1:
            raise ValueError(f"squeeze: cannot squeeze axis {a} of size {shape[a]} (not 1)")
    return axes


def moveaxis_perm(ndim: int, source: Any, destination: Any) -> list[int]:
    """The permutation that ``moveaxis(x, source, destination)`` applies to ``x``'s axes."""
    src = normalize_axes(source, ndim, "moveaxis")
    dst = normalize_axes(destination, ndim, "moveaxis")
    if len(src) != len(dst):
        raise ValueError(
            f"moveaxis: source {source!r} and destination {destination!r} differ in length"
        )
    rest = [a for a in range(ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        rest.insert(d, s)
    return rest


def roll_args(shift: Any, axis: Any, ndim: int) -> tuple[Any, Any]:
    """``(shifts, axes)`` as tuples with distinct axes (repeated axes' shifts summed), or
    ``(shift, None)`` for the flattened roll."""
    if axis is None:
        if isinstance(shift, bool) or not hasattr(shift, "__index__"):
            raise TypeError(f"roll: with axis=None, shift must be an int, got {shift!r}")
        return shift.__index__(), None
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    shifts = tuple(shift) if isinstance(shift, (tuple, list)) else (shift,) * len(axes)
    if len(shifts) != len(axes):
        raise ValueError(f"roll: shift {shift!r} and axis {axis!r} differ in length")
    total: dict[int, int] = {}
    for s, a in zip(shifts, axes):
        if isinstance(s, bool) or not hasattr(s, "__index__"):
            raise TypeError(f"roll: shift must be an int or a tuple of ints, got {shift!r}")
        a = normalize_axis(a, ndim, "roll")
        total[a] = total.get(a, 0) + s.__index__()
    return tuple(total.values()), tuple(total)


def tile_shapes(
    shape: tuple[int, ...], repetitions: Any
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(shape of x with leading ones, repetitions with leading ones)``, of equal length."""
    reps = tuple(repetitions) if isinstance(repetitions, (tuple, list)) else (repetitions,)
    for r in reps:
        if isinstance(r, bool) or not hasattr(r, "__index__"):
            raise TypeError(f"tile: repetitions must be ints, got {repetitions!r}")
        if r < 0:
            raise ValueError(f"tile: repetitions must be non-negative, got {repetitions!r}")
    n = max(len(shape), len(reps))
    return (1,) * (n - len(shape)) + tuple(shape), (1,) * (n - len(reps)) + reps


def repeat_count(repeats: int) -> int:
    """A Python int of repeats, checked (arrays of repeats are checked by each backend)."""
    if isinstance(repeats, bool) or not hasattr(repeats, "__index__"):
        raise TypeError(f"repeat: repeats must be an int or an integer array, got {repeats!r}")
    if repeats < 0:
        raise ValueError(f"repeat: repeats must be non-negative, got {repeats}")
    return repeats.__index__()


def pad_sources(
    shape: tuple[int, ...], pairs: tuple[tuple[int, int], ...], mode: str
) -> list[tuple[int, list[int]]]:
    """``pad`` in mode "reflect" or "edge" as gathers: for each axis it extends, ``(axis,
    sources)``, the position in ``x`` that each position of the padded axis copies. NumPy's
    rule: "reflect" mirrors about the end values without repeating them, as often as needed
    (an axis of one value repeats it); "edge" repeats the end values."""
    out = []
    for axis, (size, (before, after)) in enumerate(zip(shape, pairs)):
        if not before and not after:
            continue
        if not size:
            raise ValueError(
                f"pad: mode={mode!r} cannot extend x's empty axis {axis} (only 'constant' can)"
            )
        last = size - 1
        positions = range(-before, size + after)
        if mode == "edge" or last == 0:
            sources = [min(max(i, 0), last) for i in positions]
        else:
            period = 2 * last  # mirroring about both ends repeats with this period
            folded = [i % period for i in positions]
            sources = [f if f <= last else period - f for f in folded]
        out.append((axis, sources))
    return out

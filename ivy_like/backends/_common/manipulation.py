"""Manipulation kernels written once for several backends (see ``_common/__init__.py``).

Each factory returns the kernel itself. ``xp`` is a NumPy-like namespace (``numpy``,
``jax.numpy``, ``mlx.core``) whose functions take NumPy's arguments; the shared rules of
``ivy_like.ops.manipulation`` (axis checks, squeeze of a non-1 axis...) run first so every
backend raises the same errors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...ops.manipulation import (
    _axes,
    _axis,
    _moveaxis_perm,
    _roll_args,
    _squeeze_axes,
    _tile_shapes,
)

Kernel = Callable[..., Any]


# -- aliases with the standard's signature (users named at each) ---------------------------------
def reshape_for(xp: Any) -> Kernel:  # jax.numpy without copy=, mlx.core
    def reshape(x: Any, /, shape: Any, *, copy: Any = None) -> Any:
        # Immutable arrays: a copy and a view cannot be told apart, so ``copy`` changes nothing.
        return xp.reshape(x, shape)

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
    def expand_dims(x: Any, /, axis: int = 0) -> Any:
        return xp.expand_dims(x, _axis(axis, xp.ndim(x) + 1, "expand_dims"))

    return expand_dims


def flip_for(xp: Any) -> Kernel:
    def flip(x: Any, /, *, axis: Any = None) -> Any:
        return xp.flip(x, axis=_axes(axis, xp.ndim(x), "flip"))

    return flip


def moveaxis_for(xp: Any) -> Kernel:
    def moveaxis(x: Any, source: Any, destination: Any, /) -> Any:
        return xp.transpose(x, _moveaxis_perm(xp.ndim(x), source, destination))

    return moveaxis


def roll_for(xp: Any) -> Kernel:
    def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Any:
        shift, axis = _roll_args(shift, axis, xp.ndim(x))
        return xp.roll(x, shift, axis=axis)

    return roll


def squeeze_for(xp: Any) -> Kernel:
    def squeeze(x: Any, /, axis: Any) -> Any:
        return xp.squeeze(x, axis=_squeeze_axes(xp.shape(x), axis))

    return squeeze


def tile_for(xp: Any) -> Kernel:
    def tile(x: Any, repetitions: Any, /) -> Any:
        _, reps = _tile_shapes(xp.shape(x), repetitions)
        return xp.tile(x, reps)

    return tile


# -- the rank from x.ndim, the shape from x.shape: the framework's function is ``fn`` -------------
def expand_dims_by(fn: Callable[[Any, int], Any]) -> Kernel:
    """expand_dims by ``fn(x, axis)`` (``mx.expand_dims``, ``torch.unsqueeze``)."""

    def expand_dims(x: Any, /, axis: int = 0) -> Any:
        return fn(x, _axis(axis, x.ndim + 1, "expand_dims"))

    return expand_dims


def moveaxis_by(fn: Callable[[Any, Any], Any]) -> Kernel:
    """moveaxis by ``fn(x, axes)`` (``mx.transpose``, ``torch.permute``, mxnet's
    ``permute_dims``)."""

    def moveaxis(x: Any, source: Any, destination: Any, /) -> Any:
        return fn(x, _moveaxis_perm(x.ndim, source, destination))

    return moveaxis


def roll_by(fn: Callable[..., Any]) -> Kernel:
    """roll by ``fn(x, shifts)`` (flattened) or ``fn(x, shifts, axes)`` (``mx.roll``,
    ``torch.roll``)."""

    def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Any:
        shift, axis = _roll_args(shift, axis, x.ndim)
        if axis is None:  # torch.roll takes no dims=None
            return fn(x, shift)
        return fn(x, shift, axis)

    return roll


def tile_by(fn: Callable[[Any, Any], Any]) -> Kernel:
    """tile by ``fn(x, repetitions)`` (``mx.tile``, ``torch.tile``)."""

    def tile(x: Any, repetitions: Any, /) -> Any:
        _, reps = _tile_shapes(x.shape, repetitions)
        return fn(x, reps)

    return tile

"""tensorflow backend: array API manipulation functions.

TensorFlow ops after the shared rules of ``ivy_like.ops``. Differences from NumPy handled here:

* eager ``reshape``/``permute_dims``/``concat``/``astype`` run the raw op directly (see
  ``_eager``); ``concat`` and ``stack`` promote mixed dtypes by NumPy's rules;
* ``tile`` pads ``x``'s shape and the repetitions to one length (``tf.tile`` needs that);
* ``roll`` over ``axis=None`` rolls the flattened tensor (``tf.roll`` needs an axis);
* shape errors (``InvalidArgumentError``) become ``ValueError``.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import tensorflow as tf

from ...core.axes import expand_axes, normalize_axes, normalize_axis
from ...ops.manipulation import pad_pairs
from .._common.manipulation import (
    moveaxis_perm,
    pad_sources,
    roll_args,
    squeeze_axes,
    tile_shapes,
)
from . import _eager
from ._eager import RAW, RAW_FAILS, EagerTensor
from ._helpers import _MISMATCH, _const, _on, _promote, _shape

_SHAPE_ERRORS = (ValueError, tf.errors.InvalidArgumentError)


def reshape(x: Any, /, shape: Any, *, copy: Any = None) -> Any:
    # Tensors are immutable: sharing memory or not cannot be observed, so copy has no effect.
    shape = _shape(shape)
    if type(x) is EagerTensor and _eager.executing_eagerly():
        dims = _eager.int64(shape)
        if dims is not None and 0 not in shape:  # (a 0 in the shape: see below)
            try:
                return RAW.Reshape(tensor=x, shape=dims)
            except RAW_FAILS:
                pass  # sizes that do not match: tf.reshape raises its own error
    if isinstance(shape, (tuple, list)) and -1 in shape and 0 in shape:
        # -1 beside a 0: no size makes the product fit, or every size does. TensorFlow picks
        # one ((0, 3) to (-1, 0) gives (3, 0)); NumPy and the other frameworks refuse. This
        # error makes the decided rule (reshape_size) raise its ValueError in its place.
        raise ValueError(f"reshape: a -1 in shape {tuple(shape)} beside a 0 cannot be inferred")
    return tf.reshape(x, shape)


def permute_dims(x: Any, /, axes: Any) -> Any:
    if type(x) is EagerTensor and _eager.executing_eagerly():
        perm = _eager.int64(axes)  # tf.transpose converts the list each call: ~110 µs
        if perm is not None:
            try:
                return RAW.Transpose(x=x, perm=perm)
            except RAW_FAILS:
                pass
    return tf.transpose(x, perm=axes)


def _promoting_join(fn: Callable[[Any, int], Any]) -> Callable[..., Any]:
    """``fn(arrays, axis)`` (``tf.concat``, ``tf.stack``), the arrays promoted by NumPy's rules
    when TensorFlow rejects their mixed dtypes."""

    def join(arrays: Any, /, *, axis: int = 0) -> Any:
        try:
            return fn(arrays, axis)
        except _MISMATCH:
            promoted = _promote(*arrays)
            if promoted is None:
                raise
            return fn(promoted, axis)

    join.__name__ = join.__qualname__ = fn.__name__
    return join


_concat = _promoting_join(tf.concat)


def concat(arrays: Any, /, *, axis: int | None = 0) -> Any:
    if (
        type(axis) is int
        and type(arrays) in (list, tuple)
        and len(arrays) > 1  # ConcatV2 takes two or more
        and _eager.executing_eagerly()
    ):
        for a in arrays:
            if type(a) is not EagerTensor:
                break
        else:
            try:
                return RAW.ConcatV2(values=arrays, axis=_eager.axis32(axis))
            except RAW_FAILS:
                pass  # mixed dtypes or shapes, a bad axis: the path below
    if axis is None:
        arrays, axis = [tf.reshape(a, [-1]) for a in arrays], 0
    return _concat(arrays, axis=axis)


stack = _promoting_join(tf.stack)


def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    if device is None and type(x) is EagerTensor:
        src = x.dtype
        if src != dtype and not src.is_complex:  # tf.cast takes the real part first
            try:
                return RAW.Cast(x=x, DstT=dtype)  # what tf.cast runs
            except RAW_FAILS:
                pass
    with _on(device):
        if dtype == x.dtype:
            return tf.identity(x) if copy or device is not None else x
        if dtype == tf.bool and x.dtype.is_complex:
            # The standard's rule, True when either part is non-zero (tf.cast reads the real
            # part alone).
            return tf.not_equal(x, tf.zeros((), x.dtype))
        return tf.cast(x, dtype)


def broadcast_arrays(*arrays: Any) -> tuple[Any, ...]:
    shape = tf.TensorShape([])
    try:
        for a in arrays:
            shape = tf.broadcast_static_shape(shape, a.shape)
    except _SHAPE_ERRORS as err:
        raise ValueError(f"broadcast_arrays: shapes do not broadcast ({err})") from None
    return tuple(tf.broadcast_to(a, shape) for a in arrays)


def broadcast_to(x: Any, /, shape: Any) -> Any:
    try:
        return tf.broadcast_to(x, _shape(shape))
    except _SHAPE_ERRORS as err:
        raise ValueError(f"broadcast_to: cannot broadcast to {shape} ({err})") from None


def expand_dims(x: Any, /, axis: Any) -> Any:
    for position in expand_axes(axis, x.shape.rank):  # ascending: each is where it ends up
        x = tf.expand_dims(x, position)
    return x


def flip(x: Any, /, *, axis: Any = None) -> Any:
    return tf.reverse(x, axis=list(normalize_axes(axis, x.shape.rank, "flip")))


def moveaxis(x: Any, source: Any, destination: Any, /) -> Any:
    return tf.transpose(x, moveaxis_perm(x.shape.rank, source, destination))


def repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
    if axis is not None:
        axis = normalize_axis(axis, x.shape.rank, "repeat")
    if isinstance(repeats, (tf.Tensor, tf.Variable)):  # its shape and dtype: repeat's check
        repeats = tf.cast(repeats, tf.int64)
        if bool(tf.reduce_any(repeats < 0)):
            raise ValueError("repeat: repeats must be non-negative")
    else:
        repeats = operator.index(repeats)
    if 0 in x.shape:
        # tf.repeat fails on some empty inputs (shape (0, 2) along axis 1); the result is
        # empty too, of a shape known from the repeats.
        shape = [0] if axis is None else list(x.shape)
        if axis is not None:
            per_item = tf.broadcast_to(repeats, [x.shape[axis]])
            shape[axis] = int(tf.reduce_sum(tf.cast(per_item, tf.int64)))
        return tf.zeros(shape, x.dtype)
    return tf.repeat(x, repeats, axis=axis)


def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Any:
    shift, axis = roll_args(shift, axis, x.shape.rank)
    if axis is None:
        flat = tf.roll(tf.reshape(x, [-1]), shift, axis=0)
        return tf.reshape(flat, tf.shape(x))
    if not axis:
        return x
    return tf.roll(x, list(shift), axis=list(axis))


def squeeze(x: Any, /, axis: Any) -> Any:
    axes = squeeze_axes(tuple(x.shape), axis)
    # tf.squeeze(x, axis=[]) would squeeze every axis of size 1.
    return tf.squeeze(x, axis=list(axes)) if axes else tf.identity(x)


def tile(x: Any, repetitions: Any, /) -> Any:
    shape, reps = tile_shapes(tuple(x.shape), repetitions)
    return tf.tile(tf.reshape(x, shape), reps)


def unstack(x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    return tuple(tf.unstack(x, axis=normalize_axis(axis, x.shape.rank, "unstack")))


def _is_plain_zero(value: Any) -> bool:
    # 0, False or 0.0 (not -0.0, whose sign the border keeps): what tf.pad pads with.
    return type(value) in (int, bool, float) and value == 0 and math.copysign(1.0, value) > 0


def pad(x: Any, pad_width: Any, mode: str = "constant", constant_values: Any = 0) -> Any:
    pairs = pad_pairs(pad_width, x.shape.rank)
    if mode == "constant":
        if not pairs:
            return tf.identity(x)
        if _is_plain_zero(constant_values):
            return tf.pad(x, pairs)
        # The value cast to x's dtype through NumPy, as np.pad does (tf.pad would refuse 2.5
        # for an integer x). tf.vectorized_map's rule for PadV2 drops constant_values (it pads
        # with 0), so under vmap the border would be 0: the value goes in through a mask.
        inside = tf.pad(tf.ones_like(x, dtype=tf.bool), pairs)  # False on the border
        return tf.where(inside, tf.pad(x, pairs), _const(constant_values, x.dtype))
    # NumPy's reflect and edge (pad's check refused any other mode) as gathers: tf.pad's REFLECT needs pads smaller than the axis.
    for axis, sources in pad_sources(tuple(x.shape), pairs, mode):
        x = tf.gather(x, sources, axis=axis)
    return x

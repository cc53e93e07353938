"""Eager fast paths: TensorFlow's raw ops, called directly.

TensorFlow's Python API spends most of a small op's time before the kernel runs: name scopes,
dispatch decorators and, above all, converting Python shapes and axes to tensors. Measured on
the CI machine (2 cores): ``tf.add`` 42 µs against 16 µs for ``tf.raw_ops.AddV2``;
``tf.reduce_sum`` 72 µs against 18 µs for ``Sum`` with a ready axis tensor; ``tf.zeros((3,))``
110 µs against 17 µs for ``Fill``. ``tf.raw_ops`` is public API; the small int64 tensors for
shapes and axes are made once and kept here.

The backend uses these only for eager tensors in eager mode (``tf.function`` traces, variables
and Python scalars take the ``tf.*`` path), and falls back to the ``tf.*`` path whenever a raw
op raises, so promotion, error types and messages stay that path's.
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf
from tensorflow.python import pywrap_tfe
from tensorflow.python.eager import context as _context
from tensorflow.python.eager import core as _core

RAW = tf.raw_ops
# init_scope: made eagerly even when this module is first imported inside a tf.function trace
# (a replica of strategy.run that loads the backend), where tf.constant is symbolic.
with tf.init_scope():
    EagerTensor = type(tf.constant(0))
# What a raw op raises for inputs it does not take (dtype mismatch, rank, missing kernel).
RAW_FAILS = (tf.errors.OpError, TypeError, ValueError)
executing_eagerly = tf.executing_eagerly

# The call TensorFlow's generated op functions make in eager mode (``gen_*_ops``), without
# their Python wrapper: ``execute(context, "OpName", None, *inputs, *attr_name_value_pairs)``.
# It records on gradient tapes like them. Measured for MatrixSolve on 3x3 float32: 0.3 µs
# less than ``tf.linalg.solve`` (8.3 vs 8.6 µs); ``tf.raw_ops`` adds 0.8 µs. What it raises
# for inputs it does not take (the generated functions turn these into ``OpError``s):
execute = pywrap_tfe.TFE_Py_FastPathExecute
EXECUTE_FAILS = (_core._NotOkStatusException, _core._FallbackException, TypeError, ValueError)


def eager_context() -> Any:
    """TensorFlow's context when this thread executes eagerly (what ``execute`` needs); None
    inside a graph (``tf.function`` tracing), where ops must go through ``tf.*``."""
    ctx = _context._context
    if ctx is not None and ctx._thread_local_data.is_eager:
        return ctx
    return None


_MAX_CACHED = 4096  # distinct shapes and axes kept; past that the cache starts again
_INT64: dict[Any, Any] = {}
_FILL: dict[tuple[Any, int], Any] = {}


def int64(value: Any) -> Any:
    """A cached eager int64 tensor of ``value``: an int, or a tuple or list of ints (a shape,
    axes).

    None for anything else (NumPy integers, tensors): the caller takes the ``tf.*`` path. Call only in eager mode: a graph constant must not be cached.
    """
    if type(value) is list:  # axes are often given as a list
        value = tuple(value)
    # Types first: 1.0 == 1 and True == 1 would find the int's entry.
    if type(value) is tuple:
        for v in value:
            if type(v) is not int:
                return None
    elif type(value) is not int:
        return None
    tensor = _INT64.get(value)
    if tensor is not None:
        return tensor
    if len(_INT64) >= _MAX_CACHED:
        _INT64.clear()
    tensor = _INT64[value] = tf.constant(value, tf.int64)
    return tensor


_AXIS32: dict[int, Any] = {}


def axis32(axis: int) -> Any:
    """A cached eager int32 scalar: the axis of ``ConcatV2``, whose gradient for sparse
    (``IndexedSlices``) incoming gradients takes the axis modulo an int32 rank and fails on an
    int64 axis (``tf.concat`` itself passes int32). Call only in eager mode."""
    tensor = _AXIS32.get(axis)
    if tensor is None:
        tensor = _AXIS32[axis] = tf.constant(axis, tf.int32)
    return tensor


def all_axes(rank: int) -> Any:
    """The cached axes ``(0, 1, ..., rank - 1)``: a reduction over every axis."""
    return int64(tuple(range(rank)))


def fill_value(dtype: Any, value: int) -> Any:
    """A cached eager scalar ``value`` (0 or 1) of ``dtype``, for ``Fill``."""
    key = (dtype, value)
    scalar = _FILL.get(key)
    if scalar is None:
        scalar = _FILL[key] = tf.cast(tf.constant(value), dtype)
    return scalar


def checked_gather_ok() -> bool:
    """True when an out-of-range ``GatherV2`` raises: on CPU it does, on GPU it writes zeros.

    So ``take`` may run the gather first and check only when it fails, on a machine without
    accelerators (decided once: the devices TensorFlow sees do not change in a process).
    """
    global _CPU_ONLY
    if _CPU_ONLY is None:
        _CPU_ONLY = all(d.device_type == "CPU" for d in tf.config.list_logical_devices())
    return _CPU_ONLY


_CPU_ONLY: bool | None = None


_SLICES: dict[tuple[tuple[int, ...], ...], tuple[Any, Any, Any]] = {}


def sliced(x: Any, key: Any) -> Any:
    """``x[key]`` for a key of ints and slices with int or None bounds (NumPy's basic
    indexing), by ``StridedSlice`` with cached begin, end and strides; None for any other key
    (``None``, ``...``, arrays, steps of 0) or outside eager mode. ``x[1:]`` costs TensorFlow's
    ``__getitem__`` about 250 µs on the CI machine; ivy_like's ``Array.__getitem__`` through
    this, about 42 µs.

    An int out of range raises ``tf.errors.InvalidArgumentError``, as ``x[key]`` does.
    """
    items = key if type(key) is tuple else (key,)
    if len(items) > x.ndim:
        return None  # too many indices: the tf path raises
    begin: list[int] = []
    end: list[int] = []
    strides: list[int] = []
    begin_mask = end_mask = shrink_mask = 0
    bit = 1
    for k in items:
        if type(k) is int:  # one position; its axis is dropped (end is unused)
            begin.append(k)
            end.append(k + 1)
            strides.append(1)
            shrink_mask |= bit
        elif type(k) is slice:
            start, stop, step = k.start, k.stop, k.step
            if step is None:
                step = 1
            elif type(step) is not int or step == 0:
                return None
            if start is None:
                start = 0
                begin_mask |= bit
            elif type(start) is not int:
                return None
            if stop is None:
                stop = 0
                end_mask |= bit
            elif type(stop) is not int:
                return None
            begin.append(start)
            end.append(stop)
            strides.append(step)
        else:
            return None
        bit <<= 1
    if not executing_eagerly():
        return None
    spec = (tuple(begin), tuple(end), tuple(strides))
    consts = _SLICES.get(spec)
    if consts is None:
        if len(_SLICES) >= _MAX_CACHED:
            _SLICES.clear()
        consts = _SLICES[spec] = tuple(tf.constant(v, tf.int64, shape=(len(v),)) for v in spec)
    return RAW.StridedSlice(
        input=x,
        begin=consts[0],
        end=consts[1],
        strides=consts[2],
        begin_mask=begin_mask,
        end_mask=end_mask,
        shrink_axis_mask=shrink_mask,
    )

"""TensorFlow control-flow primitives: ``tf.cond`` and ``tf.while_loop`` in a graph (inside a
``tf.function``, so ``ivy_like.compile``), Python loops when executing eagerly
(``backends/_common/control_flow.py``, which tapes record step by step).

In a graph:

* ``cond_leaves``: ``tf.cond`` on a traced predicate (TensorFlow traces both branches; the
  frontend checks they agree before TensorFlow does). A Python predicate picks its branch
  while tracing (both are still traced, for the check).
* ``while_loop_leaves``: ``tf.while_loop`` over the carry.
* ``fori_loop_leaves``: ``tf.while_loop`` over ``(i, carry)``: one loop in the graph, never
  unrolled, with traced or Python bounds (``i`` has the bounds' dtype, else ``DEFAULT_INT``).
* ``scan_leaves``: ``tf.while_loop`` writing each step's outputs to ``tf.TensorArray``s, whose
  dtypes and shapes come from one trace of the step in a scratch ``tf.function`` graph (not
  run); a leading size unknown until the graph runs (``None``) is read with ``tf.shape``.

All of them are differentiable by ``GradientTape`` (``ivy_like.grad``), in a graph and eagerly.

The frontend (``ivy_like/transforms/control_flow.py``) flattens, checks and rebuilds; the contract of each
function is in ``ivy_like/backends/__init__.py``.
"""

from __future__ import annotations

from typing import Any, Callable

import tensorflow as tf

from .._common.control_flow import PythonLoops as _PythonLoops
from .._common.control_flow import dtype_zeros as _dtype_zeros
from . import DEFAULT_INT as _DEFAULT_INT

_Leaves = list[Any]


_LOOPS = _PythonLoops("tensorflow", stack=tf.stack, zeros=_dtype_zeros(tf.zeros))


def cond_leaves(
    pred: Any,
    true_f: Callable[[_Leaves], _Leaves],
    false_f: Callable[[_Leaves], _Leaves],
    operands: _Leaves,
) -> _Leaves:
    if type(pred) is bool or tf.executing_eagerly():
        return _LOOPS.cond_leaves(pred, true_f, false_f, operands)
    return list(tf.cond(pred, lambda: true_f(list(operands)), lambda: false_f(list(operands))))


def while_loop_leaves(
    cond_f: Callable[[_Leaves], Any], body_f: Callable[[_Leaves], _Leaves], init: _Leaves
) -> _Leaves:
    if tf.executing_eagerly():
        return _LOOPS.while_loop_leaves(cond_f, body_f, init)
    out = tf.while_loop(
        lambda *carry: tf.convert_to_tensor(cond_f(list(carry))),
        lambda *carry: tuple(body_f(list(carry))),
        tuple(init),
    )
    return list(out)


def fori_loop_leaves(
    lower: Any, upper: Any, body_f: Callable[[Any, _Leaves], _Leaves], init: _Leaves
) -> _Leaves:
    if tf.executing_eagerly():
        return _LOOPS.fori_loop_leaves(lower, upper, body_f, init)
    dtype = upper.dtype if isinstance(upper, tf.Tensor) else _DEFAULT_INT
    lo = tf.convert_to_tensor(lower, dtype=dtype)
    hi = tf.convert_to_tensor(upper, dtype=dtype)
    out = tf.while_loop(
        lambda i, *carry: i < hi,
        lambda i, *carry: (i + 1, *body_f(i, list(carry))),
        (lo, *init),
    )
    return list(out[1:])


def _step_outputs(
    f: Callable[[_Leaves, _Leaves], tuple[_Leaves, _Leaves]], init: _Leaves, xs: _Leaves
) -> list[tuple[Any, Any]]:
    """The ``(shape, dtype)`` of each ``y`` leaf of one step, traced in a scratch graph."""
    carry_specs = [tf.TensorSpec(c.shape, c.dtype) for c in init]
    x_specs = [tf.TensorSpec(x.shape[1:], x.dtype) for x in xs]
    traced = tf.function(lambda c, x: f(list(c), list(x))[1], autograph=False)
    outputs = traced.get_concrete_function(carry_specs, x_specs).structured_outputs
    return [(y.shape, y.dtype) for y in outputs]


def scan_leaves(
    f: Callable[[_Leaves, _Leaves], tuple[_Leaves, _Leaves]],
    init: _Leaves,
    xs: _Leaves,
    length: int | None,
    reverse: bool,
) -> tuple[_Leaves, _Leaves]:
    if tf.executing_eagerly():
        return _LOOPS.scan_leaves(f, init, xs, length, reverse)
    n = len(init)
    steps: Any = tf.shape(xs[0])[0] if length is None else tf.constant(length)
    arrays = [
        tf.TensorArray(dtype, size=steps, element_shape=shape)
        for shape, dtype in _step_outputs(f, init, xs)
    ]

    def body(i: Any, *state: Any) -> tuple[Any, ...]:
        k = steps - 1 - i if reverse else i
        carry, ys = f(list(state[:n]), [x[k] for x in xs])
        return (i + 1, *carry, *[a.write(k, y) for a, y in zip(state[n:], ys)])

    out = tf.while_loop(lambda i, *state: i < steps, body, (tf.constant(0), *init, *arrays))
    return list(out[1 : n + 1]), [a.stack() for a in out[n + 1 :]]

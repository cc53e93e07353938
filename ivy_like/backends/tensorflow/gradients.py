"""TensorFlow gradient primitives through ``tf.GradientTape``.

The tape watches exactly the leaves it is given (``watch_accessed_variables=False``), so a
``tf.Variable`` used inside ``f`` but not differentiated gets no gradient and differentiated
Variables are watched like tensors. Gradients that do not flow are zeros
(``UnconnectedGradients.ZERO``), never ``None``. ``tape.gradient`` is called after the inner
``with`` block but inside any enclosing tape, so an enclosing ``grad`` records it (nesting).
"""

from __future__ import annotations

from typing import Any, Callable

import tensorflow as tf

_ZERO = tf.UnconnectedGradients.ZERO
# The raw op: tf.identity's Python dispatch layers cost ~20 µs a call in eager mode.
_identity = tf.raw_ops.Identity


def _sources(leaves: list[Any]) -> list[Any]:
    # The tape identifies sources by tensor identity: a differentiated tensor that is also
    # passed elsewhere (a non-differentiated argument, or a second differentiated one) would
    # collect the gradient of every use. JAX, torch.func and MLX go by argument position, so
    # each differentiated tensor gets its own identity here (one cheap op per leaf). Variables
    # stay themselves (a later grad may rely on them being Variables) unless repeated.
    seen: set[int] = set()
    out = []
    for leaf in leaves:
        if not isinstance(leaf, tf.Variable) or id(leaf) in seen:
            leaf = _identity(input=leaf)
        seen.add(id(leaf))
        out.append(leaf)
    return out


def _dense(g: Any) -> Any:
    # Gathers give IndexedSlices; users of a unified API expect an array shaped like the input.
    return tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g


def value_and_grad_leaves(
    f: Callable[[list[Any]], tuple[Any, Any]], leaves: list[Any]
) -> tuple[Any, Any, list[Any]]:
    """``f(leaves) -> (scalar, aux)``; return ``(scalar, aux, grads)`` with one grad a leaf."""
    leaves = _sources(leaves)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        for leaf in leaves:
            tape.watch(leaf)
        value, aux = f(leaves)
    if len(leaves) == 1:
        # One source given bare: with a list, tape.gradient packs and maps nested structures,
        # each step a typing-Protocol isinstance check that costs ~10 µs.
        return value, aux, [_dense(tape.gradient(value, leaves[0], unconnected_gradients=_ZERO))]
    grads = tape.gradient(value, leaves, unconnected_gradients=_ZERO)
    return value, aux, [_dense(g) for g in grads]


def jacobian(f: Callable[[Any], Any], x: Any) -> Any:
    """The Jacobian of ``f`` at ``x``, shaped ``f(x).shape + x.shape``."""
    x = _identity(input=x)  # its own identity, as in value_and_grad_leaves
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(x)
        y = f(x)
    return tape.jacobian(y, x, unconnected_gradients=_ZERO)

"""tensorflow backend: ``stop_gradient`` and ``variable``.

``stop_gradient`` of an eager tensor runs the raw op; of a ``tf.Variable`` with
``preserve_type`` it gives a new Variable; ``variable`` wraps a tensor in a ``tf.Variable``.
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from ._eager import RAW, EagerTensor
from ._helpers import _is_variable


def stop_gradient(x: Any, /, *, preserve_type: bool = True) -> Any:
    if type(x) is EagerTensor:
        return RAW.StopGradient(input=x)
    if preserve_type and _is_variable(x):
        return tf.Variable(tf.stop_gradient(x), trainable=x.trainable)  # a new variable
    return tf.stop_gradient(x)


def variable(x: Any, /) -> Any:
    return tf.Variable(x)

"""tensorflow backend: array API utility functions.

``all``/``any`` reduce the truth of any dtype (``tf.reduce_all``/``reduce_any`` take bool
only).
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from ._helpers import _reduce_axes, _truth


def all(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return tf.reduce_all(_truth(x), axis=_reduce_axes(x, axis, "all"), keepdims=keepdims)


def any(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return tf.reduce_any(_truth(x), axis=_reduce_axes(x, axis, "any"), keepdims=keepdims)

"""tensorflow backend: array API utility functions.

``all``/``any`` reduce the truth of any dtype (``tf.reduce_all``/``reduce_any`` take bool
only). ``diff`` is the shared one over this backend's ``concat`` and ``subtract`` (our
promotion) and strided slices.
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from .._common.utility import diff_for
from ._helpers import _reduce_axes, _truth
from .elementwise import subtract
from .manipulation import concat


def all(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return tf.reduce_all(_truth(x), axis=_reduce_axes(x, axis, "all"), keepdims=keepdims)


def any(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    return tf.reduce_any(_truth(x), axis=_reduce_axes(x, axis, "any"), keepdims=keepdims)


def _shifted(x: Any, axis: int) -> tuple[Any, Any]:
    lead = (slice(None),) * axis
    return x[lead + (slice(1, None),)], x[lead + (slice(None, -1),)]


diff = diff_for(concat, subtract, _shifted, lambda a: tuple(a.shape))

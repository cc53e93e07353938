"""mxnet backend: array API general functions: ``stop_gradient`` and ``variable``.

``stop_gradient`` is ``mx.nd.stop_gradient`` (``BlockGrad``, a copy). A *variable* is an
NDArray with a gradient buffer (``attach_grad``); ``is_variable`` (a hook the core calls) is in
``__init__.py``.
"""

from __future__ import annotations

from typing import Any

import mxnet as mx

from . import numpy_shapes

nd = mx.nd


@numpy_shapes
def stop_gradient(x: Any, /, *, preserve_type: bool = True) -> Any:
    """``mx.nd.stop_gradient`` (``BlockGrad``); a variable stays a variable with
    ``preserve_type=True`` (a new gradient buffer; ``x``'s own is untouched).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> from ivy_like.backends.mxnet import general
    >>> b = general.variable(mx.nd.array([0., 1.]))
    >>> with mx.autograd.record():
    ...     loss = general.stop_gradient(3 * b) + mx.nd.array([1., 2.])
    >>> B.to_numpy(loss)
    array([1., 5.], dtype=float32)
    >>> B.is_variable(general.stop_gradient(b)), B.is_variable(general.stop_gradient(b, preserve_type=False))
    (True, False)
    """
    out = nd.stop_gradient(x)
    if preserve_type and x.grad is not None:
        out.attach_grad()
    return out


@numpy_shapes
def variable(x: Any, /) -> Any:
    """A copy of ``x`` with a gradient buffer (``attach_grad``); ``x`` is not marked."""
    with mx.autograd.pause():  # a plain copy, not a recorded op (nor a view of x)
        out = x.copy()
    out.attach_grad()
    return out

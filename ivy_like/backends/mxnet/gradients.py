"""MXNet gradient primitives through ``mxnet.autograd`` (``record`` / ``backward``).

The leaves are differentiated through copies that get their own gradient buffers
(``attach_grad``), so the caller's arrays are never marked and no ``.grad`` of theirs changes.
Everything runs with MXNet's NumPy shape semantics on for this thread (0-d values).

Gaps: MXNet's imperative autograd cannot nest (a ``record`` inside a ``record`` shares one
tape, and ``attach_grad`` cuts the copies from the outer tape), so gradients of gradients
raise ``NotImplementedError``.
"""

from __future__ import annotations

from typing import Any, Callable

import mxnet as mx
from mxnet import autograd

from . import NDArray, numpy_shapes

_NOT_IN_GRAPH = "not in a computational graph"


def _fresh_leaves(leaves: list[Any]) -> list[Any]:
    if autograd.is_recording():
        raise NotImplementedError(
            "mxnet: gradients of gradients (a gradient taken inside another one) are not "
            "supported: MXNet's autograd records one tape per thread and cannot nest (hessian, "
            "grad of grad, vjp inside grad); jax, torch, tensorflow and mlx can"
        )
    with autograd.pause():
        copies = [leaf.copy() for leaf in leaves]
    for c in copies:
        c.attach_grad()  # zeros until backward writes: unconnected leaves get zero gradients
    return copies


def _backward(head: Any, **kwargs: Any) -> None:
    try:
        head.backward(**kwargs)
    except mx.base.MXNetError as err:
        # A head that does not depend on any recorded op (a constant): every gradient is 0.
        if _NOT_IN_GRAPH not in str(err):
            raise


def _detach(value: Any) -> Any:
    return value.detach() if isinstance(value, NDArray) else value


@numpy_shapes
def value_and_grad_leaves(
    f: Callable[[list[Any]], tuple[Any, Any]], leaves: list[Any]
) -> tuple[Any, Any, list[Any]]:
    """``f(leaves) -> (scalar, aux)``; return ``(scalar, aux, grads)`` with one grad a leaf.

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends.mxnet.gradients import value_and_grad_leaves
    >>> x = mx.nd.array([1., 2.])
    >>> v, _, (g,) = value_and_grad_leaves(lambda ls: ((ls[0] * ls[0]).sum().reshape(()), []), [x])
    >>> float(v.asscalar()), g.asnumpy(), x.grad is None
    (5.0, array([2., 4.], dtype=float32), True)
    """
    copies = _fresh_leaves(leaves)
    with autograd.record():
        value, aux = f(copies)
    _backward(value)
    grads = [c.grad for c in copies]
    return _detach(value), [_detach(a) for a in aux], grads


@numpy_shapes
def jacobian(f: Callable[[Any], Any], x: Any) -> Any:
    """The Jacobian of ``f`` at ``x``, shaped ``f(x).shape + x.shape`` (one backward per
    output element, the graph retained between them).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends.mxnet.gradients import jacobian
    >>> jacobian(lambda x: x * x, mx.nd.array([1., 2.])).asnumpy()
    array([[2., 0.],
           [0., 4.]], dtype=float32)
    """
    (xc,) = _fresh_leaves([x])
    with autograd.record():
        out = f(xc)
    n = int(out.size)
    rows = []
    for i in range(n):
        onehot = mx.nd.zeros((n,), ctx=out.context, dtype=out.dtype)
        onehot[i] = 1
        xc.grad[()] = 0
        _backward(out, out_grad=onehot.reshape(out.shape), retain_graph=True)
        rows.append(xc.grad.copy())
    shape = tuple(out.shape) + tuple(x.shape)
    if not rows:
        return mx.nd.zeros(shape, ctx=x.context, dtype=x.dtype)
    return mx.nd.stack(*rows).reshape(shape)

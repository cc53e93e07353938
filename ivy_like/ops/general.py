"""Gradient-related ops that every backend provides."""

from __future__ import annotations

from typing import Any

from ..core.registry import op


@op(arrays=("x",))
def stop_gradient(x: Any, /, *, preserve_type: bool = True, out: Any = None):
    """The same values as ``x``, through which no gradient flows.

    Inside ``jax.grad``, ``torch.autograd``/``torch.func``, ``tf.GradientTape`` or
    :func:`ivy_like.grad`, the result is treated as a constant. The input is never changed.

    Per backend: jax ``jax.lax.stop_gradient``; torch ``Tensor.detach()`` (no copy);
    tensorflow ``tf.stop_gradient``; numpy, which has no autodiff, returns ``x`` itself.

    Parameters
    ----------
    x
        The array (native, :class:`ivy_like.Array` or a Container of them).
    preserve_type
        When True, a trainable variable in gives a trainable variable out, cut from the graph
        (torch: a new leaf with ``requires_grad=True``; tensorflow: a new ``tf.Variable``).
        When False the result is always a plain, non-trainable array.
    out
        Optional array of the result's shape and dtype to write into. numpy and torch arrays
        are written in place; an :class:`ivy_like.Array` on jax or tensorflow is rebound to
        the result; a ``tf.Variable`` is assigned; a jax array or ``tf.Tensor`` raises
        ``TypeError``. Nothing is written when a check fails.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([1., 2., 3.])
    >>> y = ivy_like.stop_gradient(x, preserve_type=True)
    >>> print(y)
    ivy_like.array([1., 2., 3.])
    >>> x = ivy_like.zeros((2, 3))
    >>> _ = ivy_like.stop_gradient(x, preserve_type=False, out=x)
    >>> print(x)
    ivy_like.array([[0., 0., 0.],
                    [0., 0., 0.]])
    """


@op(arrays=("x",))
def variable(x: Any, /):
    """A trainable variable holding a copy of ``x``, in the backend's own sense.

    torch: a leaf tensor with ``requires_grad=True``; tensorflow: a ``tf.Variable``. jax and
    numpy have no variable type (under ``jax.grad`` every array is differentiable), so ``x``
    is returned unchanged there. The input is never modified.

    Examples
    --------
    >>> import ivy_like
    >>> v = ivy_like.variable(ivy_like.array([1., 2.]))
    >>> v
    ivy_like.array([1., 2.])
    """

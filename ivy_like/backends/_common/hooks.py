"""Hooks of the core that several backends' ``__init__.py`` share, written once.

A backend's ``__init__.py`` still holds every hook by name (``dtype = _hooks.dtype``,
``getitem = _hooks.getitem_for(_key)``): the functions here are the hooks themselves (or
factories returning them), so sharing adds no call frame. ``dtype_table`` builds the ``DTYPES``
fact from the framework's dtype lookup. Nothing here imports a framework or a backend package
(the backends' ``__init__`` imports this module): what differs is passed as a parameter.
"""

from __future__ import annotations

from typing import Any, Callable

from ...core import dtypes as D
from .indexing import in_range_basic


def dtype_table(native: Callable[[str], Any], names: str) -> dict[D.Dtype, Any]:
    """``DTYPES``: unified dtype -> ``native(name)`` for each space-separated dtype name.

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.backends._common import hooks
    >>> hooks.dtype_table(np.dtype, "bool float32")
    {ivy_like.bool: dtype('bool'), ivy_like.float32: dtype('float32')}
    """
    return {getattr(D, name): native(name) for name in names.split()}


# -- the hooks several backends define alike -------------------------------------------------------
def shape(x: Any) -> tuple[int, ...]:
    return tuple(x.shape)


def dtype(x: Any) -> Any:
    return x.dtype


def is_variable(x: Any) -> bool:
    """Never: for frameworks without variables (NumPy) or whose arrays are values (JAX, MLX)."""
    return False


def dlpack(x: Any, *args: Any, **kwargs: Any) -> Any:
    return x.__dlpack__(*args, **kwargs)


def dlpack_device(x: Any) -> tuple[int, int]:
    return x.__dlpack_device__()


def dlpack_for(convert: Callable[[Any], Any]) -> Callable[..., Any]:
    """The ``dlpack`` hook exporting ``convert(x)`` (NumPy scalars as arrays, a tf.Variable's
    value, a torch tensor detached from its graph)."""

    def dlpack(x: Any, *args: Any, **kwargs: Any) -> Any:
        return convert(x).__dlpack__(*args, **kwargs)

    return dlpack


def dlpack_device_for(convert: Callable[[Any], Any]) -> Callable[[Any], tuple[int, int]]:
    """The ``dlpack_device`` hook of ``convert(x)`` (see :func:`dlpack_for`)."""

    def dlpack_device(x: Any) -> tuple[int, int]:
        return convert(x).__dlpack_device__()

    return dlpack_device


def immutable_write_inplace(name: str) -> Callable[[Any, Any], None]:
    """The ``write_inplace`` hook of a backend whose arrays cannot be written in place (jax,
    mlx): it always raises.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from ivy_like.backends import jax as B
    >>> B.write_inplace(jnp.zeros(2), jnp.ones(2))
    Traceback (most recent call last):
    TypeError: out=: jax arrays are immutable; pass an ivy_like.Array (it is rebound) or use the return value
    >>> import mlx.core as mx
    >>> from ivy_like.backends import mlx as B
    >>> B.write_inplace(mx.zeros(2), mx.ones(2))
    Traceback (most recent call last):
    TypeError: out=: mlx arrays are immutable; pass an ivy_like.Array (it is rebound) or use the return value
    """
    message = (
        f"out=: {name} arrays are immutable; pass an ivy_like.Array (it is rebound) or use the "
        "return value"
    )

    def write_inplace(target: Any, value: Any) -> None:
        raise TypeError(message)

    return write_inplace


def getitem_for(
    key_for: Callable[[Any, Any], Any],
    refused: tuple[Any, Callable[[Any, Any, Exception], Any]] | None = None,
) -> Callable[[Any, Any], Any]:
    """The ``getitem`` hook of a backend that indexes NumPy's basic keys (ints in range,
    slices) as NumPy does and translates and checks any other key with ``key_for(x, key)``
    (jax: lists as index arrays, bounds; mlx: boolean masks, bounds). ``refused``: an error
    class of the framework and what to do instead where indexing raises it.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from ivy_like.backends import jax as B
    >>> B.getitem(jnp.arange(4), [0, 2])
    Array([0, 2], dtype=int32)
    >>> import mlx.core as mx
    >>> from ivy_like.backends import mlx as B
    >>> x = mx.array([1., 2., 3.])
    >>> B.getitem(x, x > 1.5)
    array([2, 3], dtype=float32)
    """

    def getitem(x: Any, key: Any) -> Any:
        """``x[key]`` with NumPy's rules (see :func:`ivy_like.backends._common.hooks.getitem_for`)."""
        if in_range_basic(x.shape, key):  # nothing to translate or check
            return x[key]
        return x[key_for(x, key)]

    if refused is None:
        return getitem
    error, fallback = refused

    def getitem_or_fallback(x: Any, key: Any) -> Any:
        """``x[key]`` with NumPy's rules; ``fallback(x, key, err)`` where the framework raises
        ``error`` (jax: a gather whose result's sharding it will not guess)."""
        if in_range_basic(x.shape, key):
            return x[key]
        key = key_for(x, key)
        try:
            return x[key]
        except error as err:
            return fallback(x, key, err)

    return getitem_or_fallback

"""Entering and leaving ivy_like: ``array``, ``to_native``, ``to_numpy``, ``is_variable``.

Not to be confused with ``ivy_like.convert`` (models to and from other frameworks) or with the
Containers' leaf conversions (``container/``): these take one array (or a Container) in or out.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .core.array import Array
from .core.backend import ARRAY_KIND, CONTAINER_KIND, NEUTRAL, Backend, kind_of
from .core.registry import OPS


def array(obj: Any, dtype: Any = None, device: Any = None, copy: bool | None = None) -> Array:
    """Create an :class:`ivy_like.Array` on the active backend (``asarray`` by another name).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.array([[1, 2], [3, 4]], dtype="float32")
    ivy_like.array([[1., 2.],
                    [3., 4.]])
    """
    asarray = OPS["asarray"].function  # the generated ivy_like.asarray
    return asarray(obj, dtype=dtype, device=device, copy=copy)  # type: ignore[misc,no-any-return]


def to_native(x: Any) -> Any:
    """The native array inside an ``Array`` (Containers: every leaf); anything else unchanged.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([1., 2.])
    >>> ivy_like.to_native(x) is x.data, ivy_like.to_native(3.0)
    (True, 3.0)
    """
    kind = kind_of(type(x))
    if kind is ARRAY_KIND:
        return x._data
    if kind is CONTAINER_KIND:
        return x.cont_to_native()
    return x


def to_numpy(x: Any) -> Any:
    """A ``numpy.ndarray`` from an ``Array``, a native array of any backend, or a Container.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.to_numpy(ivy_like.array([1., 2.]))
    array([1., 2.], dtype=float32)
    """
    kind = kind_of(type(x))
    if kind is ARRAY_KIND:
        return x._backend.to_numpy(x._data)
    if kind is CONTAINER_KIND:
        return x.cont_to_numpy()
    if isinstance(kind, Backend):
        return kind.to_numpy(x)
    if kind is NEUTRAL:
        return np.asarray(x)
    raise TypeError(f"to_numpy: expected an array, got {type(x).__name__}")


def is_variable(x: Any) -> bool:
    """True when ``x`` is a trainable variable of its backend (torch leaf requiring grad,
    ``tf.Variable``). jax and numpy arrays are never variables.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.is_variable(ivy_like.array([1.]))
    False
    """
    kind = kind_of(type(x))
    if kind is ARRAY_KIND:
        return bool(x._backend.is_variable(x._data))
    if isinstance(kind, Backend):
        return bool(kind.is_variable(x))
    return False

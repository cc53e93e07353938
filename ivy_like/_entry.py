"""Entering and leaving ivy_like: ``array``, ``to_native``, ``to_numpy``, ``is_variable``."""

from __future__ import annotations

from typing import Any

from .core.array import Array
from .core.backend import ARRAY_KIND, CONTAINER_KIND, NEUTRAL, Backend, kind_of


def array(obj: Any, dtype: Any = None, device: Any = None, copy: bool | None = None) -> Array:
    """Create an :class:`ivy_like.Array` on the active backend (``asarray`` by another name).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.array([[1, 2], [3, 4]], dtype="float32")
    ivy_like.array([[1., 2.],
                    [3., 4.]])
    """
    from . import asarray  # type: ignore[attr-defined]

    return asarray(obj, dtype=dtype, device=device, copy=copy)


def to_native(x: Any) -> Any:
    """The native array inside an ``Array`` (Containers: every leaf); anything else unchanged.

    Examples
    --------
    >>> import numpy as np
    >>> import ivy_like
    >>> type(ivy_like.to_native(ivy_like.array([1., 2.]))) is np.ndarray
    True
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
    >>> ivy_like.to_numpy(ivy_like.array([1, 2]))
    array([1, 2])
    """
    import numpy as np

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

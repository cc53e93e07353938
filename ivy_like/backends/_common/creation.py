"""Creation kernels written once for several backends (see ``_common/__init__.py``).

Each ``*_for`` factory returns the kernel itself. ``xp`` is a NumPy-like namespace (``numpy``,
``jax.numpy``, ``mlx.core``, and ``torch`` where its function takes the same arguments); the
shared rules of ``ivy_like.ops.creation`` (matrix and meshgrid checks) run first so every
backend raises the same errors. NumPy, the one required dependency, is the only import.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...ops.creation import _check_matrix, _check_meshgrid

Kernel = Callable[..., Any]


def is_python_data(obj: Any) -> bool:
    """Whether ``obj`` is Python data (scalars, nested lists): no NumPy array or scalar, and
    nothing that converts itself with ``__array__`` (a framework's array)."""
    return not isinstance(obj, (np.ndarray, np.generic)) and not hasattr(obj, "__array__")


def scalar_default_for(bool_: Any, int_: Any, float_: Any, complex_: Any) -> Callable[[Any], Any]:
    """The dtype a Python scalar fill value takes when no dtype is given: the backend's
    ``bool_``, default integer, default float or default complex (None for anything else)."""

    def _scalar_default(value: Any) -> Any:
        if isinstance(value, bool):  # before int: bool is an int subclass
            return bool_
        if isinstance(value, int):
            return int_
        if isinstance(value, float):
            return float_
        if isinstance(value, complex):
            return complex_
        return None

    return _scalar_default


def arange_dtype_for(float_: Any, int_: Any) -> Callable[[Any, Any, Any], Any]:
    """The dtype ``arange`` takes when no dtype is given: the backend's default float if
    ``start``, ``stop`` or ``step`` is a Python float, else its default integer."""

    def _arange_dtype(start: Any, stop: Any, step: Any) -> Any:
        if isinstance(start, float) or isinstance(stop, float) or isinstance(step, float):
            return float_
        return int_

    return _arange_dtype


def meshgrid_for(xp: Any) -> Kernel:
    """meshgrid as a tuple (numpy, jax.numpy, mlx.core: each input keeps its dtype)."""

    def meshgrid(*arrays: Any, indexing: str = "xy") -> tuple[Any, ...]:
        _check_meshgrid(arrays, indexing)
        return tuple(xp.meshgrid(*arrays, indexing=indexing))

    return meshgrid


def tril_for(xp: Any) -> Kernel:
    """tril with ``k`` as the second positional argument (numpy, jax.numpy, mlx.core, torch,
    which calls it ``diagonal``)."""

    def tril(x: Any, /, *, k: int = 0) -> Any:
        _check_matrix(x, "tril")
        return xp.tril(x, k)

    return tril


def triu_for(xp: Any) -> Kernel:
    """triu with ``k`` as the second positional argument (as ``tril_for``)."""

    def triu(x: Any, /, *, k: int = 0) -> Any:
        _check_matrix(x, "triu")
        return xp.triu(x, k)

    return triu

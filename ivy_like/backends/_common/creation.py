"""Creation kernels written once for several backends (see ``_common/__init__.py``).

Each ``*_for`` factory returns the kernel itself. ``xp`` is a NumPy-like namespace (``numpy``,
``jax.numpy``, ``mlx.core``, and ``torch`` where its function takes the same arguments); the
argument checks ``ivy_like.ops.creation`` declares with each op (matrix and meshgrid inputs,
``arange`` and ``eye`` sizes) run before them, so every backend raises the same errors. NumPy,
the one required dependency, is the only framework imported.

The checks of bad input are here too, for every backend's ``asarray`` and shape kernels: :func:`refuse_data` and :func:`check_numeric` decide Python data the framework refused
or read as strings or objects, :func:`too_big` refuses shapes before the frameworks that would
crash on them (MLX, JAX) or wrap their sizes around (MXNet) are called.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from ...core import dtypes as _dtypes
from ...core.decided_errors import data_error, is_decided, shape_error

Kernel = Callable[..., Any]
is_decided = is_decided  # for the backends: a decided error is raised as it is


def is_python_data(obj: Any) -> bool:
    """Whether ``obj`` is Python data (scalars, nested lists): no NumPy array or scalar, and
    nothing that converts itself with ``__array__`` (a framework's array)."""
    return not isinstance(obj, (np.ndarray, np.generic)) and not hasattr(obj, "__array__")


def refuse_data(
    obj: Any,
    error: BaseException | None,
    *,
    dtype: Any = None,
    int_bits: int = 64,
    where: str = "asarray",
    name: str = "obj",
) -> None:
    """Raise the decided error for data ``obj`` that holds something other than numbers (a
    str, None, an int beyond ``int_bits``, ragged lists; see
    :func:`ivy_like.core.decided_errors.data_error`), from ``error`` (the framework's refusal,
    or None); return where ``obj`` holds numbers only (the caller re-raises or goes on).
    ``dtype``: the dtype asked for, if any; ``int_bits``: the width of the integers Python ints
    become without one.

    Runs only after the framework failed or produced an array without numbers: the calls that
    succeed pay nothing."""
    decided = data_error(obj, where=where, name=name, dtype=dtype, int_bits=int_bits)
    if decided is not None:
        raise decided from error


def check_numeric(
    obj: Any,
    arr: np.ndarray,
    *,
    dtype: Any = None,
    int_bits: int = 64,
    where: str = "asarray",
    name: str = "obj",
) -> None:
    """Refuse NumPy's reading ``arr`` of the Python data ``obj`` when it holds no numbers (an
    object, string or bytes array, which the NumPy and TensorFlow backends would return and
    which fails later at ``.dtype`` or ``repr``) or is uint64 made from Python ints beyond
    int64 (NumPy's reading of ``[2**63]``; every other backend refuses it). Callers test
    ``arr.dtype.kind in "OUSu"`` first, so the common reading costs one test."""
    kind = arr.dtype.kind
    if kind == "u" and (arr.dtype.itemsize < 8 or dtype is not None):
        return  # NumPy unsigned scalars in a list, or a dtype was given
    refuse_data(obj, None, dtype=dtype, int_bits=int_bits, where=where, name=name)
    if kind != "u":  # nothing to blame in obj itself (e.g. an object that reads as an object)
        raise TypeError(
            f"{where}: {name} cannot be read as an array of numbers (NumPy reads it as {arr.dtype})"
        )


NUMBERS = frozenset({bool, int, float, complex})
_NOT_INT = frozenset({bool, float, complex})


def fill(where: str, value: Any, dtype: Any) -> Any:
    """``value``, the fill value of ``full``/``full_like`` of ``dtype`` (native; None: the
    value's own), once checked: anything but a Python number must hold one number (the
    errors of :func:`refuse_data`: NumPy and TensorFlow filled with a numeric string, NaN for
    None, MLX with a byte's code), and a Python int beyond int64 becomes a float for a float or
    complex dtype (torch and MLX refused it, MXNet filled with 0) and is refused otherwise.

    The numpy and tensorflow kernels call it only for values that are not Python numbers (one
    set lookup); the others for every value (their frameworks take big ints badly)."""
    kind = type(value)
    if kind in _NOT_INT:
        return value
    if kind is int:
        if -(2**63) <= value < 2**63:
            return value
        found = _dtypes._lookup(dtype) if dtype is not None else None
        if found is not None and found.kind in "fc":
            return float(value)
    refuse_data(value, None, dtype=dtype, where=where, name="fill_value")
    return value


def too_big(
    where: str, shape: Any, itemsize: int, limit: int, *, name: str = "shape", scalar: bool = False
) -> bool:
    """Before a framework that must not see it: raise the decided error (an OverflowError or
    MemoryError, or the shape's own TypeError or ValueError) for a ``shape`` of more than
    ``limit`` bytes; True where it is over ``limit`` yet no decided error applies (the caller
    then refuses it in its framework's terms), False for every shape within it.

    Cheap for the shapes that pass: a product and a comparison (MLX allocates lazily and
    crashes the process when it reads an array the machine cannot hold; XLA aborts the process
    when a byte count overflows int64; MXNet wraps sizes beyond its int32 around). Anything
    but integers passes here: the framework refuses it and the rule decides the error."""
    try:
        n = shape if type(shape) is int else math.prod(shape)
        if type(n) is not int:  # NumPy integers: multiplied as Python ints (no wrap-around)
            n = math.prod(map(operator.index, shape))
        if not n and type(shape) is not int:  # zero-size: the frameworks multiply the others
            n = math.prod(d for d in shape if d)
        if n * itemsize <= limit:
            return False
    except TypeError:
        return False
    error = shape_error(where, shape, itemsize, name=name, scalar=scalar)
    if error is not None:
        raise error
    return True


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
        return tuple(xp.meshgrid(*arrays, indexing=indexing))

    return meshgrid


def tril_for(xp: Any) -> Kernel:
    """tril with ``k`` as the second positional argument (numpy, jax.numpy, mlx.core, torch,
    which calls it ``diagonal``)."""

    def tril(x: Any, /, *, k: int = 0) -> Any:
        return xp.tril(x, k)

    return tril


def triu_for(xp: Any) -> Kernel:
    """triu with ``k`` as the second positional argument (as ``tril_for``)."""

    def triu(x: Any, /, *, k: int = 0) -> Any:
        return xp.triu(x, k)

    return triu


def meshgrid_shapes(
    lengths: list[int], indexing: str
) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """``(output shape, shape each 1-D input is reshaped to before broadcasting)``.

    For backends whose own meshgrid needs one dtype (torch, tensorflow).
    """
    n = len(lengths)
    axes = list(range(n))
    if indexing == "xy" and n >= 2:
        axes[0], axes[1] = 1, 0  # Cartesian: x varies along columns, y along rows
    shape = [1] * n
    views = []
    for size, axis in zip(lengths, axes):
        shape[axis] = size
        view = [1] * n
        view[axis] = size
        views.append(tuple(view))
    return tuple(shape), views

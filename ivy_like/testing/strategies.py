"""Hypothesis strategies for dtypes, shapes and arrays on any ivy_like backend.

Arrays are drawn as NumPy arrays with ``hypothesis.extra.numpy`` (so shrinking and the special
values it knows apply) and then converted to the requested backend, which keeps one source of
examples for every framework. Requires ``hypothesis`` (the ``test`` extra).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from ..core import backend as _backend
from ..core import dtypes as _dtypes
from ..core.array import Array

__all__ = ["dtypes", "shapes", "arrays"]

_FLOATS = ("float32", "float64")
_INTS = ("int8", "int16", "int32", "int64", "uint8")


def dtypes(kind: str = "numeric", backend: str | None = None) -> st.SearchStrategy[_dtypes.Dtype]:
    """Unified dtypes of ``kind`` ("float", "integer", "bool" or "numeric") that ``backend``
    (default: the active one) supports.

    Examples
    --------
    >>> from ivy_like.testing import strategies
    >>> strategies.dtypes("float").example() in ("float32", "float64")
    True
    """
    names = {"float": _FLOATS, "integer": _INTS, "bool": ("bool",)}.get(kind, _FLOATS + _INTS)
    b = _backend.get_backend(backend) if backend else _backend.current_backend()
    usable = [_dtypes.as_dtype(n) for n in names if _dtypes.as_dtype(n) in b._dtype_to_native]
    if not usable:
        raise ValueError(f"dtypes: the {b.name} backend supports no {kind} dtype")
    return st.sampled_from(usable)


def shapes(min_dims: int = 0, max_dims: int = 3, max_side: int = 4) -> st.SearchStrategy:
    """Array shapes (tuples of ints), small by default so every backend stays fast.

    Examples
    --------
    >>> from ivy_like.testing import strategies
    >>> len(strategies.shapes(max_dims=2).example()) <= 2
    True
    """
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=1, max_side=max_side)


def arrays(
    dtype: Any = "float32",
    shape: Any = None,
    *,
    backend: str | None = None,
    elements: st.SearchStrategy | None = None,
    wrap: bool = True,
) -> st.SearchStrategy:
    """Arrays of ``dtype`` and ``shape`` (strategies or values) on ``backend``.

    ``wrap=True`` gives :class:`ivy_like.Array`, ``False`` the native array. The active backend
    is read when an example is drawn, so the strategy works with the ``backend`` fixture.

    Examples
    --------
    >>> import ivy_like
    >>> from ivy_like.testing import strategies
    >>> x = strategies.arrays("float32", (2, 3)).example()
    >>> x.shape, x.dtype
    ((2, 3), ivy_like.float32)
    """
    shape = shapes() if shape is None else shape

    @st.composite
    def draw_array(draw: Any) -> Any:
        dt = draw(dtype) if isinstance(dtype, st.SearchStrategy) else dtype
        np_dtype = np.dtype(_dtypes.as_dtype(dt).name)
        value = draw(hnp.arrays(np_dtype, shape, elements=elements))
        b = _backend.get_backend(backend) if backend else _backend.current_backend()
        native = b.asarray(value, dtype=b.native_dtype(dt))
        return Array(native, b) if wrap else native

    return draw_array()

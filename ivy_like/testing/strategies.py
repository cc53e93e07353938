"""Hypothesis strategies for dtypes, shapes and arrays on any ivy_like backend.

Arrays are drawn as NumPy arrays with ``hypothesis.extra.numpy`` (so shrinking and the special
values it knows apply) and then converted to the requested backend, which keeps one source of
examples for every framework. Requires ``hypothesis`` (the ``test`` extra).

For :func:`~ivy_like.testing.check_function`, :func:`array_args` draws the arguments of a
function as NumPy arrays (converted to each backend by the check): dtypes that every backend
has and that the standard's promotion table combines, shapes that broadcast together, and
values that include the special ones (signed zeros, infinities, NaN, subnormals, the extremes
of each dtype) far more often than uniform drawing would.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from ..core import backend as _backend
from ..core import dtypes as _dtypes
from ..core.array import Array

__all__ = [
    "array_args",
    "arrays",
    "common_dtypes",
    "dtypes",
    "elements",
    "promotable_dtypes",
    "shapes",
    "special_values",
]

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


def shapes(
    min_dims: int = 0, max_dims: int = 3, max_side: int = 4, *, min_side: int = 1
) -> st.SearchStrategy:
    """Array shapes (tuples of ints), small by default so every backend stays fast;
    ``min_side=0`` lets arrays with no element in.

    Examples
    --------
    >>> from ivy_like.testing import strategies
    >>> len(strategies.shapes(max_dims=2).example()) <= 2
    True
    """
    return hnp.array_shapes(
        min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side
    )


def arrays(
    dtype: Any = "float32",
    shape: Any = None,
    *,
    backend: str | None = None,
    elements: st.SearchStrategy | None = None,
    wrap: bool = True,
    specials: bool = False,
) -> st.SearchStrategy:
    """Arrays of ``dtype`` and ``shape`` (strategies or values) on ``backend``.

    ``wrap=True`` gives :class:`ivy_like.Array`, ``False`` the native array. The active backend
    is read when an example is drawn, so the strategy works with the ``backend`` fixture.
    ``specials=True`` draws the values from :func:`elements` (the special values often).

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
        values = _elements(np_dtype) if specials and elements is None else elements
        value = draw(hnp.arrays(np_dtype, shape, elements=values))
        b = _backend.get_backend(backend) if backend else _backend.current_backend()
        native = b.asarray(value, dtype=b.native_dtype(dt))
        return Array(native, b) if wrap else native

    return draw_array()


# -- the special values, and arguments for check_function -----------------------------------------
def special_values(dtype: Any) -> list[Any]:
    """The values of ``dtype`` where implementations differ most: for floating dtypes NaN,
    both infinities, both zeros, the smallest subnormal and normal numbers of each sign, the
    largest finite ones and +-1; for integers the extremes, 0, 1 (and -1); True and False.

    Examples
    --------
    >>> from ivy_like.testing import strategies
    >>> strategies.special_values("int8")
    [-128, 127, 0, 1, -1]
    >>> [str(v) for v in strategies.special_values("float32")[:5]]
    ['nan', 'inf', '-inf', '-0.0', '0.0']
    """
    dt = np.dtype(_dtypes.as_dtype(dtype).name)
    if dt.kind == "b":
        return [True, False]
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return [int(info.min), int(info.max), 0, 1, *([-1] if dt.kind == "i" else [])]
    fi = np.finfo(dt)
    smallest = float(fi.smallest_subnormal)
    reals = [np.nan, np.inf, -np.inf, -0.0, 0.0, smallest, -smallest]
    reals += [float(fi.tiny), -float(fi.tiny), float(fi.max), float(fi.min), 1.0, -1.0]
    if dt.kind == "c":
        return [complex(r, i) for r in reals[:5] for i in (0.0, -0.0, np.inf, np.nan)]
    return reals


def _elements(dt: np.dtype[Any]) -> st.SearchStrategy:
    """One value in two special, the others whatever Hypothesis draws for the dtype."""
    return st.one_of(st.sampled_from(special_values(dt.name)), hnp.from_dtype(dt))


def elements(dtype: Any) -> st.SearchStrategy:
    """Values of ``dtype``: one in two a special value (:func:`special_values`), the others
    any value of the dtype (for floats Hypothesis includes subnormals).

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.testing import strategies
    >>> bool(-128 <= strategies.elements("int8").example() <= 127)
    True
    """
    return _elements(np.dtype(_dtypes.as_dtype(dtype).name))


_KINDS = {"float": _FLOATS, "integer": _INTS, "bool": ("bool",), "numeric": _FLOATS + _INTS}


def common_dtypes(kind: str = "numeric", backends: Sequence[str] | None = None) -> list[Any]:
    """The dtypes of ``kind`` that every backend of ``backends`` (default: every installed
    one) has: the arguments of ``check_function`` go to all of them (JAX has no float64 or
    int64 without ``jax_enable_x64``).

    Examples
    --------
    >>> from ivy_like.testing import strategies
    >>> strategies.common_dtypes("float", ["numpy"])
    [ivy_like.float32, ivy_like.float64]
    """
    names = list(backends) if backends is not None else _backend.available_backends()
    loaded = [_backend.get_backend(n) for n in names]
    if kind not in _KINDS:
        raise ValueError(f"common_dtypes: kind must be one of {', '.join(_KINDS)}, got {kind!r}")
    found = [
        _dtypes.as_dtype(n)
        for n in _KINDS[kind]
        if all(_dtypes.as_dtype(n) in b._dtype_to_native for b in loaded)
    ]
    if not found:
        raise ValueError(f"common_dtypes: no {kind} dtype is on every one of {', '.join(names)}")
    return found


def promotable_dtypes(
    n: int = 2, kind: str = "numeric", backends: Sequence[str] | None = None
) -> st.SearchStrategy:
    """Tuples of ``n`` dtypes that the array API standard's promotion table combines: all
    boolean, all integer (``int64`` with ``uint64`` left out: the standard leaves it to
    implementations), or all floating-point; mixed kinds are not in the table. Only dtypes
    every backend of ``backends`` has (:func:`common_dtypes`).

    Examples
    --------
    >>> from ivy_like.testing import strategies
    >>> pair = strategies.promotable_dtypes(2, "integer", ["numpy"]).example()
    >>> len(pair), all(d.kind in "iu" for d in pair)
    (2, True)
    """
    kinds = ["float", "integer"] if kind == "numeric" else [kind]
    choices = {k: common_dtypes(k, backends) for k in kinds}

    def allowed(ds: tuple[Any, ...]) -> bool:
        names = {d.name for d in ds}
        return not {"int64", "uint64"} <= names

    return st.sampled_from(kinds).flatmap(
        lambda k: st.tuples(*[st.sampled_from(choices[k])] * n).filter(allowed)
    )


def array_args(
    n: int = 1,
    *,
    kind: str = "float",
    min_dims: int = 0,
    max_dims: int = 3,
    min_side: int = 1,
    max_side: int = 4,
    specials: bool = True,
    backends: Sequence[str] | None = None,
) -> st.SearchStrategy:
    """Tuples of ``n`` NumPy arrays for ``check_function(f, strategy=...)``: dtypes of
    :func:`promotable_dtypes`, shapes that broadcast together, values with the special ones
    (``specials``).

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.testing import strategies
    >>> x, y = strategies.array_args(2, backends=["numpy"]).example()
    >>> np.broadcast_shapes(x.shape, y.shape) is not None
    True
    """
    if n < 1:
        raise ValueError(f"array_args: n must be at least 1, got {n}")

    @st.composite
    def draw_args(draw: Any) -> tuple[np.ndarray, ...]:
        kinds = draw(promotable_dtypes(n, kind, backends))
        found = draw(
            hnp.mutually_broadcastable_shapes(
                num_shapes=n,
                min_dims=min_dims,
                max_dims=max_dims,
                min_side=min_side,
                max_side=max_side,
            )
        )
        out = []
        for d, shape in zip(kinds, found.input_shapes):
            dt = np.dtype(d.name)
            out.append(draw(hnp.arrays(dt, shape, elements=_elements(dt) if specials else None)))
        return tuple(out)

    return draw_args()

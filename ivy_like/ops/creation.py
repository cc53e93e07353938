"""Creation ops. Without array inputs they use the active backend and return ``ivy_like.Array``."""

from __future__ import annotations

import math
from typing import Any

from ..core.decided_errors import (
    creation_shape,
    decided,
    itemsize_of,
    like_shape,
    linspace_num,
    shape_error,
    shape_of,
)
from ..core.registry import OpSpec, op


# -- the default floating dtype (ivy_like.set_default_dtype) ------------------------------------
# Each creation op with a dtype says, from its positional values, when the default floating
# dtype applies to a call without dtype=: "f" (floating), "c" (complex) or None (the backend
# decides: ints, bools, NumPy arrays and scalars keep their dtype). Called only once a default
# other than float32 was chosen somewhere (see core/dtypes.py).
def _default_for(kind_of: Any) -> Any:
    def mark(spec: OpSpec) -> OpSpec:
        spec.extras["float_default"] = kind_of
        return spec

    return mark


def _always_floating(values: tuple[Any, ...]) -> str:
    return "f"


def _kind_of_scalar(value: Any) -> str | None:
    # The backends' own rule for a Python scalar (bool before int, an int subclass).
    if isinstance(value, bool):
        return None
    if isinstance(value, float):
        return "f"
    if isinstance(value, complex):
        return "c"
    return None


def _kind_of_fill(values: tuple[Any, ...]) -> str | None:
    return _kind_of_scalar(values[1])  # full(shape, fill_value)


def _kind_of_range(values: tuple[Any, ...]) -> str | None:
    # arange is floating when start, stop or step is a float (the backends' rule).
    return "f" if any(isinstance(v, float) for v in values) else None


def _kind_of_endpoints(values: tuple[Any, ...]) -> str:
    # linspace is floating whatever its endpoints, complex for complex ones.
    return "c" if "c" in (_kind_of_scalar(values[0]), _kind_of_scalar(values[1])) else "f"


def _kind_of_data(values: tuple[Any, ...]) -> str | None:
    # Python data only: a float (a complex) anywhere in nested lists makes it floating
    # (complex); anything else inside (a NumPy array or scalar, an array) lets the backend
    # read it as it always does.
    kinds: set[type] = set()
    pending = [values[0]]
    while pending:
        item = pending.pop()
        kind = type(item)
        if kind is list or kind is tuple:
            pending.extend(item)
        elif kind is bool or kind is int or kind is float or kind is complex:
            kinds.add(kind)
        else:
            return None
    return "c" if complex in kinds else "f" if float in kinds else None


@_default_for(_kind_of_data)
@op(dtypes=("dtype",), creation=True, unwrapped=("obj",))
def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None):
    """Convert ``obj`` (a nested sequence, a scalar, a NumPy or native array) to an array.

    Python floats become the default floating dtype (float32 on every backend, unless
    :func:`ivy_like.set_default_dtype` chose another), Python ints the default integer dtype of
    the backend (int64; int32 on jax without x64 and on mlx).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.asarray([1., 2., 3.])
    ivy_like.array([1., 2., 3.])
    >>> ivy_like.asarray([1, 2], dtype=ivy_like.float64).dtype
    ivy_like.float64
    """


@_default_for(_always_floating)
@op(dtypes=("dtype",), creation=True, shape_rule=creation_shape)
def zeros(shape: Any, *, dtype: Any = None, device: Any = None):
    """An array of zeros of the given shape (default: the default floating dtype, float32).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.zeros((2, 3))
    ivy_like.array([[0., 0., 0.],
                    [0., 0., 0.]])
    """


@_default_for(_always_floating)
@op(dtypes=("dtype",), creation=True, shape_rule=creation_shape)
def ones(shape: Any, *, dtype: Any = None, device: Any = None):
    """An array of ones of the given shape (default: the default floating dtype, float32).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.ones(3, dtype="int32")
    ivy_like.array([1, 1, 1])
    """


@_default_for(_kind_of_fill)
@op(dtypes=("dtype",), creation=True, shape_rule=creation_shape)
def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None):
    """An array filled with ``fill_value``; the dtype follows the value when not given.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.full((2,), 7.5)
    ivy_like.array([7.5, 7.5])
    """


# -- argument checks (run before any kernel; see ``OpSpec.check``) -------------------------------
# Below this many elements a size check costs more than it saves: every backend allocates it.
_LARGE = 2**24
_REAL = (int, float)


def arange_length(start: Any, stop: Any, step: Any) -> int | None:
    """How many values ``arange(start, stop, step)`` has (``stop`` None: from 0 to ``start``),
    for real Python numbers; None for anything else, a zero step or a bound that is not finite
    (the frameworks refuse those in their own words)."""
    if stop is None:
        start, stop = 0, start
    if type(start) not in _REAL or type(stop) not in _REAL or type(step) not in _REAL or not step:
        return None
    try:
        return max(0, math.ceil((stop - start) / step))
    except (OverflowError, ValueError):  # an infinite or NaN bound
        return None


def _check_arange(
    start: Any, stop: Any = None, step: Any = 1, *, dtype: Any = None, device: Any = None
) -> None:
    """A range of more values than int64 can count or the machine can hold is refused before
    a framework tries it (MLX would crash reading it, XLA abort, MXNet wrap the count around)."""
    count = arange_length(start, stop, step)
    if count is None or count <= _LARGE:
        return  # the common case; other bounds the frameworks refuse themselves
    floats = float in (type(start), type(stop), type(step))
    if stop is None:
        start, stop = 0, start
    shown = f"[{start}, {stop}) in steps of {step} ({count} values)"
    itemsize = itemsize_of(dtype, 1.0 if floats else 1)
    error = shape_error("arange", count, itemsize, name="the range", scalar=True, shown=shown)
    if error is not None:
        raise error


def _check_eye(
    n_rows: Any,
    n_cols: Any = None,
    /,
    *,
    k: Any = 0,
    dtype: Any = None,
    device: Any = None,
) -> None:
    """``n_rows`` and ``n_cols`` are sizes (MXNet reads -1 as "square"), and a matrix of more
    bytes than the machine holds is refused before any framework allocates (``tf.eye`` sets
    up its diagonal first: 16 GiB for ``eye(2**32)``)."""
    cols = n_rows if n_cols is None else n_cols
    if type(n_rows) is int and type(cols) is int and 0 <= n_rows and 0 <= cols:
        if n_rows * cols <= _LARGE:
            return  # the common case: two ints and a product
    for name, size in (("n_rows", n_rows), ("n_cols", n_cols)):
        if size is not None:
            error = shape_error("eye", size, name=name, scalar=True, sizes=False)
            if error is not None:
                raise error
    shape = (n_rows, cols)
    error = shape_error("eye", shape, itemsize_of(dtype), name="(n_rows, n_cols)")
    if error is not None:
        raise error


def _check_meshgrid(*arrays: Any, indexing: Any = "xy") -> None:
    """``indexing`` is ``"xy"`` or ``"ij"`` and every input is 1-D (NumPy would flatten)."""
    if indexing != "xy" and indexing != "ij":
        raise decided(ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}"))
    for i, a in enumerate(arrays):
        ndim = len(getattr(a, "shape", ()))
        if ndim != 1:
            raise decided(ValueError(f"meshgrid: arrays[{i}] must be 1-D, got {ndim} dimensions"))


def _check_matrices(where: str, x: Any) -> None:
    shape = shape_of(x)
    if shape is not None and len(shape) < 2:
        raise decided(ValueError(f"{where}: x must have at least 2 dimensions, got {len(shape)}"))


def _check_tril(x: Any, /, *, k: Any = 0) -> None:
    _check_matrices("tril", x)


def _check_triu(x: Any, /, *, k: Any = 0) -> None:
    _check_matrices("triu", x)


@_default_for(_kind_of_range)
@op(dtypes=("dtype",), creation=True, check=_check_arange)
def arange(
    start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None, device: Any = None
):
    """Evenly spaced values in ``[start, stop)`` (``arange(n)`` counts from 0).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.arange(4)
    ivy_like.array([0, 1, 2, 3])
    >>> ivy_like.arange(0., 1., 0.25)
    ivy_like.array([0.  , 0.25, 0.5 , 0.75])
    """


@_default_for(_kind_of_endpoints)
@op(dtypes=("dtype",), creation=True, shape_rule=linspace_num)
def linspace(
    start: Any,
    stop: Any,
    /,
    num: int,
    *,
    dtype: Any = None,
    device: Any = None,
    endpoint: bool = True,
):
    """``num`` evenly spaced values from ``start`` to ``stop``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.linspace(0, 1, 5)
    ivy_like.array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    """


@_default_for(_always_floating)
@op(dtypes=("dtype",), creation=True, check=_check_eye)
def eye(
    n_rows: int,
    n_cols: int | None = None,
    /,
    *,
    k: int = 0,
    dtype: Any = None,
    device: Any = None,
):
    """A 2-D array with ones on the ``k``-th diagonal.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.eye(2)
    ivy_like.array([[1., 0.],
                    [0., 1.]])
    """


@op(arrays=("x",), dtypes=("dtype",), shape_rule=like_shape)
def zeros_like(x: Any, /, *, dtype: Any = None, device: Any = None):
    """Zeros with the shape (and by default the dtype) of ``x``; the type follows ``x``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.zeros_like(ivy_like.array([1, 2]))
    ivy_like.array([0, 0])
    """


@op(arrays=("x",), dtypes=("dtype",), shape_rule=like_shape)
def ones_like(x: Any, /, *, dtype: Any = None, device: Any = None):
    """Ones with the shape (and by default the dtype) of ``x``; the type follows ``x``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.ones_like(ivy_like.array([1., 2.]))
    ivy_like.array([1., 1.])
    """


# -- the rest of the array API creation functions --------------------------------------------
@_default_for(_always_floating)
@op(dtypes=("dtype",), creation=True, shape_rule=creation_shape)
def empty(shape: Any, *, dtype: Any = None, device: Any = None):
    """An uninitialised array of the given shape (default: the default floating dtype).

    Only the shape and dtype are defined. TensorFlow and MLX have no uninitialised
    allocation and fill it with zeros.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.empty((2, 3), dtype=ivy_like.int32)
    >>> x.shape, x.dtype
    ((2, 3), ivy_like.int32)
    """


@op(arrays=("x",), dtypes=("dtype",), shape_rule=like_shape)
def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None):
    """An uninitialised array with the shape (and by default the dtype) of ``x``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.empty_like(ivy_like.array([1., 2.])).shape
    (2,)
    """


@op(arrays=("x",), dtypes=("dtype",), shape_rule=like_shape)
def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None):
    """An array of ``fill_value`` with the shape (and by default the dtype) of ``x``.

    The value is converted to the result's dtype as ``astype`` would (``2.5`` in an integer
    array is ``2``).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.full_like(ivy_like.array([1, 2]), 7)
    ivy_like.array([7, 7])
    """


@op(creation=True)
def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None):
    """An array of the active backend sharing (or copying) the memory of a DLPack object.

    ``x`` is anything with ``__dlpack__`` (an ``ivy_like.Array``, a NumPy array, a tensor of
    another framework). ``copy=True`` always copies; ``copy=False`` never copies and raises
    ``BufferError`` where the backend must copy (MLX always must; JAX and TensorFlow must for
    buffers not aligned as they need); ``None`` shares where possible.

    Examples
    --------
    >>> import numpy as np
    >>> import ivy_like
    >>> ivy_like.from_dlpack(np.arange(3.0, dtype=np.float32))
    ivy_like.array([0., 1., 2.])
    """


@op(sequences=("arrays",), n_outputs=-1, check=_check_meshgrid)
def meshgrid(*arrays: Any, indexing: str = "xy"):
    """Coordinate grids from 1-D coordinate arrays; a tuple with one array per input.

    ``indexing="xy"`` (Cartesian: the first two output axes are swapped) or ``"ij"``
    (matrix). Inputs that are not 1-D raise ``ValueError`` on every backend (NumPy would
    flatten them); each output keeps its input's dtype. The result is a tuple, as 2025.12
    says (a list under earlier revisions: see :func:`ivy_like.set_array_api_version`).

    Examples
    --------
    >>> import ivy_like
    >>> gx, gy = ivy_like.meshgrid(ivy_like.array([1, 2, 3]), ivy_like.array([4, 5]))
    >>> gx
    ivy_like.array([[1, 2, 3],
                    [1, 2, 3]])
    """


@op(arrays=("x",), check=_check_tril)
def tril(x: Any, /, *, k: int = 0, out: Any = None):
    """The lower triangle of each matrix of ``x`` (the last two axes); zeros above diagonal k.

    ``x`` must have at least two dimensions (``ValueError`` otherwise, on every backend).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.tril(ivy_like.ones((2, 3), dtype=ivy_like.int32))
    ivy_like.array([[1, 0, 0],
                    [1, 1, 0]])
    """


@op(arrays=("x",), check=_check_triu)
def triu(x: Any, /, *, k: int = 0, out: Any = None):
    """The upper triangle of each matrix of ``x`` (the last two axes); zeros below diagonal k.

    ``x`` must have at least two dimensions (``ValueError`` otherwise, on every backend).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.triu(ivy_like.ones((2, 3), dtype=ivy_like.int32), k=1)
    ivy_like.array([[0, 1, 1],
                    [0, 0, 1]])
    """

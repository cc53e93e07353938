"""Creation ops. Without array inputs they use the active backend and return ``ivy_like.Array``."""

from __future__ import annotations

from typing import Any

from ..core.decided_errors import (
    arange_count,
    creation_shape,
    eye_sizes,
    like_shape,
    linspace_num,
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


@_default_for(_kind_of_range)
@op(dtypes=("dtype",), creation=True, shape_rule=arange_count)
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
@op(dtypes=("dtype",), creation=True, shape_rule=eye_sizes)
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


# -- array API creation functions (issue 5) -----------------------------------------------------
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


@op(sequences=("arrays",), n_outputs=-1)
def meshgrid(*arrays: Any, indexing: str = "xy"):
    """Coordinate grids from 1-D coordinate arrays; a tuple with one array per input.

    ``indexing="xy"`` (Cartesian: the first two output axes are swapped) or ``"ij"``
    (matrix). Inputs that are not 1-D raise ``ValueError`` on every backend (NumPy would
    flatten them); each output keeps its input's dtype. The standard calls the result a
    list; like NumPy 2 we return a tuple.

    Examples
    --------
    >>> import ivy_like
    >>> gx, gy = ivy_like.meshgrid(ivy_like.array([1, 2, 3]), ivy_like.array([4, 5]))
    >>> gx
    ivy_like.array([[1, 2, 3],
                    [1, 2, 3]])
    """


@op(arrays=("x",))
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


@op(arrays=("x",))
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


# -- shared rules (backends call these; no framework is imported here) ------------------------
def _check_meshgrid(arrays: Any, indexing: Any) -> None:
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    for i, a in enumerate(arrays):
        ndim = len(getattr(a, "shape", ()))
        if ndim != 1:
            raise ValueError(f"meshgrid: arrays[{i}] must be 1-D, got {ndim} dimensions")


def _check_matrix(x: Any, name: str) -> None:
    if len(x.shape) < 2:
        raise ValueError(f"{name}: x must have at least 2 dimensions, got {len(x.shape)}")


def _meshgrid_shapes(
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

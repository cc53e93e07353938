"""mxnet backend: array API creation, manipulation and indexing functions (issue 5).

``mx.nd`` operators (``broadcast_to``, ``expand_dims``, ``flip``, ``transpose``, ``repeat``,
``tile``, ``take``, ``split``), ``mx.np.roll`` on zero-copy ``as_np_ndarray()`` views, and the
shared rules of ``ivy_like.ops`` applied first so every backend raises the same errors.
Differences handled here:

* ``take`` checks the bounds itself (MXNet only clips or wraps) and then wraps negative indices.
* ``tril``/``triu``: legacy MXNet has neither; a mask from ``arange`` and ``where``.
* ``repeat`` with an array of repeats gathers with ``take`` (``mx.nd.repeat`` takes one int);
  the index array is computed from the repeats on the host, as the output shape depends on them.
* bools go through uint8 where MXNet's kernels reject them.
"""

from __future__ import annotations

from typing import Any

import mxnet as mx
import numpy as np

from ...ops.creation import _check_matrix, _check_meshgrid
from ...ops.indexing import _take_axis
from ...ops.manipulation import (
    _axes,
    _axis,
    _check_repeats_array,
    _moveaxis_perm,
    _repeat_count,
    _roll_args,
    _squeeze_axes,
    _tile_shapes,
)
from . import (
    _BOOL,
    DEFAULT_FLOAT,
    NDArray,
    _broadcast,
    _broadcast_to,
    _context,
    _no_bool,
    _shape,
    _supported,
    asarray,
    numpy_shapes,
    permute_dims,
    reshape,
    to_numpy,
)

nd = mx.nd

__all__ = [
    "broadcast_arrays",
    "broadcast_to",
    "empty",
    "empty_like",
    "expand_dims",
    "flip",
    "from_dlpack",
    "full_like",
    "meshgrid",
    "moveaxis",
    "repeat",
    "roll",
    "squeeze",
    "take",
    "tile",
    "tril",
    "triu",
    "unstack",
]


def _keep_bool(x: Any, out: Any) -> Any:
    return out.astype(_BOOL) if x.dtype == np.bool_ and out.dtype != np.bool_ else out


# -- creation -------------------------------------------------------------------------------------
@numpy_shapes
def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return nd.empty(_shape(shape), ctx=_context(device), dtype=dtype or DEFAULT_FLOAT)


@numpy_shapes
def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    ctx = x.context if device is None else _context(device)
    return nd.empty(x.shape, ctx=ctx, dtype=dtype or x.dtype)


@numpy_shapes
def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    ctx = x.context if device is None else _context(device)
    dt = np.dtype(dtype or x.dtype)
    if dt.kind in "iub" and isinstance(fill_value, float):
        fill_value = int(fill_value)  # as astype would convert it (2.5 -> 2)
    return nd.full(x.shape, fill_value, ctx=ctx, dtype=dt)


@numpy_shapes
def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
    """``mx.nd.from_dlpack`` of the producer's capsule (shares its memory); ``copy=True``
    copies. A producer MXNet cannot read (not on the CPU) is copied through NumPy unless
    ``copy=False``, which then raises ``BufferError``.

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.backends import mxnet as B
    >>> B.to_numpy(B.from_dlpack(np.arange(2.0, dtype=np.float32), copy=True))
    array([0., 1.], dtype=float32)
    """
    if device not in (None, "cpu") and not isinstance(device, mx.Context):
        raise ValueError(f"from_dlpack: expected device 'cpu', got {device!r}")
    if isinstance(x, NDArray):
        return x.copy() if copy else x  # (a copy of an NDArray is ordered by MXNet's engine)
    try:
        out = nd.from_dlpack(x.__dlpack__())
    except Exception as err:  # noqa: BLE001 - any producer MXNet cannot import
        if copy is False:
            raise BufferError(f"from_dlpack: copy=False but MXNet cannot share it ({err})") from err
        return asarray(np.from_dlpack(x), copy=True)
    if copy:
        out = out.copy()
        out.wait_to_read()  # MXNet copies asynchronously: done before the producer changes
    return out


@numpy_shapes
def meshgrid(*arrays: Any, indexing: str = "xy") -> tuple[Any, ...]:
    _check_meshgrid(arrays, indexing)
    n = len(arrays)
    lengths = [int(a.shape[0]) for a in arrays]
    if indexing == "xy" and n >= 2:
        lengths[0], lengths[1] = lengths[1], lengths[0]
    out = []
    for i, a in enumerate(arrays):
        where = i if indexing == "ij" or n < 2 or i > 1 else 1 - i
        shape = [1] * n
        shape[where] = a.shape[0]
        if 0 in lengths:  # nothing to broadcast (MXNet cannot broadcast zero-size arrays)
            out.append(nd.zeros(tuple(lengths), ctx=a.context, dtype=a.dtype))
            continue
        b = _no_bool(a).reshape(tuple(shape))
        out.append(_keep_bool(a, _broadcast_to(b, tuple(lengths))))
    return tuple(out)


def _triangle(x: Any, k: int, lower: bool, name: str) -> Any:
    _check_matrix(x, name)
    n, m = x.shape[-2], x.shape[-1]
    if x.size == 0:
        return nd.identity(x)
    rows = nd.arange(n, dtype="int64").reshape((n, 1))
    cols = nd.arange(m, dtype="int64").reshape((1, m))
    diff = nd.broadcast_sub(cols, rows)  # column - row: 0 on the diagonal
    limit = nd.full((1, 1), k, dtype="int64")
    keep = (
        nd.broadcast_lesser_equal(diff, limit) if lower else nd.broadcast_greater_equal(diff, limit)
    )
    keep, xx = _broadcast([keep.astype(x.dtype if x.dtype != np.bool_ else "uint8"), _no_bool(x)])
    return _keep_bool(x, nd.where(keep, xx, nd.zeros_like(xx)))


@numpy_shapes
def tril(x: Any, /, *, k: int = 0) -> Any:
    return _triangle(x, k, True, "tril")


@numpy_shapes
def triu(x: Any, /, *, k: int = 0) -> Any:
    return _triangle(x, k, False, "triu")


# -- manipulation ---------------------------------------------------------------------------------
@numpy_shapes
def broadcast_arrays(*arrays: Any) -> tuple[Any, ...]:
    return tuple(_broadcast(list(arrays)))


@numpy_shapes
def broadcast_to(x: Any, /, shape: Any) -> Any:
    target = _shape(shape)
    np.broadcast_shapes(tuple(x.shape), target)  # ValueError when not broadcastable
    if len(target) < x.ndim or np.broadcast_shapes(tuple(x.shape), target) != target:
        raise ValueError(f"broadcast_to: cannot broadcast {tuple(x.shape)} to {target}")
    if x.size == 0 or int(np.prod(target)) == 0:
        return nd.zeros(target, ctx=x.context, dtype=x.dtype)
    return _keep_bool(x, _broadcast_to(_no_bool(x), target))


@numpy_shapes
def expand_dims(x: Any, /, *, axis: int = 0) -> Any:
    axis = _axis(axis, x.ndim + 1, "expand_dims")
    shape = tuple(x.shape)
    return reshape(x, shape[:axis] + (1,) + shape[axis:])


@numpy_shapes
def flip(x: Any, /, *, axis: Any = None) -> Any:
    axes = _axes(axis, x.ndim, "flip")
    if not axes or x.size == 0:
        return nd.identity(x)
    return _keep_bool(x, nd.flip(_no_bool(x), axis=axes))


@numpy_shapes
def moveaxis(x: Any, source: Any, destination: Any, /) -> Any:
    return permute_dims(x, _moveaxis_perm(x.ndim, source, destination))


@numpy_shapes
def repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
    """``mx.nd.repeat`` for an int; a gather with ``mx.nd.take`` for an array of repeats.

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> x = mx.nd.array([1, 2], dtype="int64")
    >>> B.to_numpy(B.repeat(x, 2)), B.to_numpy(B.repeat(x, mx.nd.array([0, 3], dtype="int64")))
    (array([1, 1, 2, 2]), array([2, 2, 2]))
    """
    if axis is not None:
        axis = _axis(axis, x.ndim, "repeat")
    if axis is None:
        x = x.reshape((-1,)) if x.ndim != 1 else x
        axis = 0
    if isinstance(repeats, (NDArray, np.ndarray, np.generic)):
        counts = to_numpy(repeats) if isinstance(repeats, NDArray) else np.asarray(repeats)
        _check_repeats_array(counts.shape, x.shape[axis], axis, counts.dtype.kind)
        if (counts < 0).any():
            raise ValueError("repeat: repeats must be non-negative")
        counts = np.broadcast_to(counts.reshape(-1), (x.shape[axis],))
        # The output length depends on the values: the gather positions are known only here.
        index = np.repeat(np.arange(x.shape[axis]), counts)
        return _gather(x, nd.array(index, ctx=x.context, dtype="int64"), axis)
    count = _repeat_count(repeats)
    if count == 0 or x.size == 0:
        shape = list(x.shape)
        shape[axis] *= count
        return nd.zeros(tuple(shape), ctx=x.context, dtype=x.dtype)
    return _keep_bool(x, nd.repeat(_no_bool(x), repeats=count, axis=axis))


@numpy_shapes
def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Any:
    shift, axis = _roll_args(shift, axis, x.ndim)
    if x.size == 0:
        return nd.identity(x)
    out = mx.np.roll(_no_bool(x).as_np_ndarray(), shift, axis=axis).as_nd_ndarray()
    return _keep_bool(x, out)


@numpy_shapes
def squeeze(x: Any, /, axis: Any) -> Any:
    axes = _squeeze_axes(tuple(x.shape), axis)
    return reshape(x, tuple(n for i, n in enumerate(x.shape) if i not in axes))


@numpy_shapes
def tile(x: Any, repetitions: Any, /) -> Any:
    shape, reps = _tile_shapes(tuple(x.shape), repetitions)
    target = tuple(s * r for s, r in zip(shape, reps))
    if int(np.prod(target)) == 0:
        return nd.zeros(target, ctx=x.context, dtype=x.dtype)
    xx = _no_bool(x).reshape(shape) if shape else _no_bool(x)
    # MXNet 1.9.1's nd.tile returns uninitialised memory for some 4-D inputs (shape
    # (1, 1, 1, 2) with reps (2, 2, 2, 2): wrong in most calls). One concat per repeated axis
    # is exact.
    out = xx
    for axis, r in enumerate(reps):
        if r > 1:
            out = nd.concat(*([out] * r), dim=axis)
    return _keep_bool(x, nd.identity(out) if out is xx else out)


@numpy_shapes
def unstack(x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    axis = _axis(axis, x.ndim, "unstack")
    rest = tuple(n for i, n in enumerate(x.shape) if i != axis)
    out = []
    for i in range(x.shape[axis]):
        index = nd.full((1,), i, ctx=x.context, dtype="int64")
        out.append(_gather(x, index, axis).reshape(rest))
    return tuple(out)


# -- indexing -------------------------------------------------------------------------------------
def _gather(x: Any, index: Any, axis: int) -> Any:
    if x.size == 0 or index.size == 0:
        shape = tuple(x.shape[:axis]) + tuple(index.shape) + tuple(x.shape[axis + 1 :])
        return nd.zeros(shape, ctx=x.context, dtype=x.dtype)
    return _keep_bool(x, nd.take(_no_bool(x), index, axis=axis, mode="wrap"))


@numpy_shapes
def take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
    """``mx.nd.take``; out-of-range indices raise ``IndexError`` (MXNet would clip or wrap).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> B.to_numpy(B.take(mx.nd.array([1., 2., 3.]), mx.nd.array([2, -1], dtype="int64")))
    array([3., 3.], dtype=float32)
    """
    kind = np.dtype(indices.dtype).kind if hasattr(indices, "dtype") else None
    axis = _take_axis(x.ndim, indices, axis, kind)
    if axis is None:
        x, axis = x.reshape((-1,)), 0
    if not isinstance(indices, NDArray):
        indices = asarray(indices)
    n = x.shape[axis]
    if indices.size:
        host = to_numpy(indices)
        lo, hi = int(host.min()), int(host.max())
        if lo < -n or hi >= n:
            raise IndexError(f"take: index {hi if hi >= n else lo} is out of bounds for size {n}")
    _supported(np.dtype(indices.dtype), "take")
    return _gather(x, indices.astype("int64"), axis)

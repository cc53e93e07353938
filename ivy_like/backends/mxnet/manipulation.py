"""mxnet backend: array API manipulation functions and ``astype``.

``mx.nd`` operators (``reshape``, ``transpose``, ``concat``, ``stack``, ``broadcast_to``,
``flip``, ``repeat``, ``take``), ``mx.np.roll`` on zero-copy ``as_np_ndarray()`` views, and the
shared rules of ``ivy_like.ops.manipulation`` applied first so every backend raises the same
errors. Differences handled here:

* ``reshape`` uses NumPy's rules (MXNet's special codes 0, -2, -3, -4 are not used) and builds
  zero-size results directly; ``stack`` checks the shapes itself (``nd.stack`` would fail only
  when the result is read: MXNet runs asynchronously).
* ``repeat`` with an array of repeats gathers with ``take`` (``mx.nd.repeat`` takes one int);
  the index array is computed from the repeats on the host, as the output shape depends on them.
* ``tile`` is one ``concat`` per repeated axis (MXNet 1.9.1's ``nd.tile`` is wrong for some 4-D
  inputs).
* bools go through uint8 where MXNet's kernels reject them.
"""

from __future__ import annotations

import builtins
from typing import Any

import mxnet as mx
import numpy as np

from ...core.axes import expand_axes, normalize_axes, normalize_axis
from ...ops.manipulation import pad_pairs
from .._common import manipulation as _manipulation
from .._common.manipulation import pad_sources, repeat_count, roll_args, squeeze_axes, tile_shapes
from . import _BOOL, NDArray, _context, numpy_shapes, to_numpy
from ._helpers import (
    _broadcast,
    _broadcast_to,
    _gather,
    _keep_bool,
    _no_bool,
    _operands,
    _shape,
    _supported,
)

nd = mx.nd


@numpy_shapes
def reshape(x: Any, /, shape: Any, *, copy: Any = None) -> Any:
    """NumPy's reshape (MXNet's special codes 0, -2, -3, -4 are not used).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends.mxnet import manipulation
    >>> manipulation.reshape(mx.nd.zeros((2, 3)), (-1,)).shape
    (6,)
    """
    target = list(_shape(shape))
    if target.count(-1) > 1 or builtins.any(n < -1 for n in target):
        raise ValueError(f"reshape: invalid shape {tuple(target)}")
    size = int(np.prod(x.shape))
    known = int(np.prod([n for n in target if n != -1]))
    if -1 in target:
        if known == 0 or size % known:
            raise ValueError(f"reshape: cannot reshape {tuple(x.shape)} into {tuple(target)}")
        target[target.index(-1)] = size // known
    elif known != size:
        raise ValueError(f"reshape: cannot reshape {tuple(x.shape)} into {tuple(target)}")
    target_t = tuple(target)
    if size == 0:  # MXNet's shape inference rejects some zero-size targets; no data to move
        return nd.zeros(target_t, ctx=x.context, dtype=x.dtype)
    out = x.reshape(target_t)  # a view, recorded by autograd
    return nd.identity(out) if copy else out


@numpy_shapes
def permute_dims(x: Any, /, axes: Any) -> Any:
    axes = tuple(a % builtins.max(x.ndim, 1) for a in axes)  # MXNet refuses negative axes
    if sorted(axes) != list(range(x.ndim)):
        raise ValueError(f"permute_dims: axes {axes} are not a permutation of {x.ndim} axes")
    if x.ndim == 0:
        return nd.identity(x)
    out = nd.transpose(_no_bool(x), axes=axes)
    return out.astype(_BOOL) if x.dtype == np.bool_ else out


def _sequence(arrays: Any, who: str) -> tuple[list[Any], np.dtype]:
    if not arrays:
        raise ValueError(f"{who}: need at least one array")
    arrays, dt = _operands(who, *arrays)
    return [_no_bool(a) for a in arrays], dt


@numpy_shapes
def concat(arrays: Any, /, *, axis: int | None = 0) -> Any:
    arrays, dt = _sequence(arrays, "concat")
    if axis is None:
        arrays = [a.reshape((-1,)) for a in arrays]
        axis = 0
    if builtins.any(a.ndim == 0 for a in arrays):
        raise ValueError("concat: zero-dimensional arrays cannot be concatenated")
    ndim = arrays[0].ndim
    if not -ndim <= axis < ndim:
        raise ValueError(f"concat: axis {axis} is out of bounds for {ndim} dimensions")
    out = nd.concat(*arrays, dim=axis % ndim)
    return out.astype(_BOOL) if dt == _BOOL else out


@numpy_shapes
def stack(arrays: Any, /, *, axis: int = 0) -> Any:
    arrays, dt = _sequence(arrays, "stack")
    ndim = arrays[0].ndim + 1
    if not -ndim <= axis < ndim:
        raise ValueError(f"stack: axis {axis} is out of bounds for {ndim} dimensions")
    if len({a.shape for a in arrays}) > 1:
        # nd.stack would fail only when the result is read (MXNet runs asynchronously); the
        # generated function turns this into ivy_like's message (ivy_like.core.decided_errors).
        raise ValueError("stack: the arrays' shapes differ")
    out = nd.stack(*arrays, axis=axis % ndim)
    return out.astype(_BOOL) if dt == _BOOL else out


@numpy_shapes
def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    dt = _supported(np.dtype(dtype), "astype")
    if device is not None and _context(device) != x.context:
        x = x.as_in_context(_context(device))
    if np.dtype(x.dtype) == dt:
        return nd.identity(x) if copy else x
    return x.astype(dt)


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
def expand_dims(x: Any, /, axis: Any) -> Any:
    shape = list(x.shape)
    for position in expand_axes(axis, x.ndim):  # ascending: each is where it ends up
        shape.insert(position, 1)
    return reshape(x, tuple(shape))


@numpy_shapes
def flip(x: Any, /, *, axis: Any = None) -> Any:
    axes = normalize_axes(axis, x.ndim, "flip")
    if not axes or x.size == 0:
        return nd.identity(x)
    return _keep_bool(x, nd.flip(_no_bool(x), axis=axes))


moveaxis = numpy_shapes(_manipulation.moveaxis_by(permute_dims))


@numpy_shapes
def repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
    """``mx.nd.repeat`` for an int; a gather with ``mx.nd.take`` for an array of repeats.

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> from ivy_like.backends.mxnet import manipulation
    >>> x = mx.nd.array([1, 2], dtype="int64")
    >>> B.to_numpy(manipulation.repeat(x, 2)), B.to_numpy(manipulation.repeat(x, mx.nd.array([0, 3], dtype="int64")))
    (array([1, 1, 2, 2]), array([2, 2, 2]))
    """
    if axis is not None:
        axis = normalize_axis(axis, x.ndim, "repeat")
    if axis is None:
        x = x.reshape((-1,)) if x.ndim != 1 else x
        axis = 0
    if isinstance(repeats, (NDArray, np.ndarray, np.generic)):
        counts = to_numpy(repeats) if isinstance(repeats, NDArray) else np.asarray(repeats)
        if (counts < 0).any():
            raise ValueError("repeat: repeats must be non-negative")
        counts = np.broadcast_to(counts.reshape(-1), (x.shape[axis],))
        # The output length depends on the values: the gather positions are known only here.
        index = np.repeat(np.arange(x.shape[axis]), counts)
        return _gather(x, nd.array(index, ctx=x.context, dtype="int64"), axis)
    count = repeat_count(repeats)
    if count == 0 or x.size == 0:
        shape = list(x.shape)
        shape[axis] *= count
        return nd.zeros(tuple(shape), ctx=x.context, dtype=x.dtype)
    return _keep_bool(x, nd.repeat(_no_bool(x), repeats=count, axis=axis))


@numpy_shapes
def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Any:
    shift, axis = roll_args(shift, axis, x.ndim)
    if x.size == 0:
        return nd.identity(x)
    out = mx.np.roll(_no_bool(x).as_np_ndarray(), shift, axis=axis).as_nd_ndarray()
    return _keep_bool(x, out)


@numpy_shapes
def squeeze(x: Any, /, axis: Any) -> Any:
    axes = squeeze_axes(tuple(x.shape), axis)
    return reshape(x, tuple(n for i, n in enumerate(x.shape) if i not in axes))


@numpy_shapes
def tile(x: Any, repetitions: Any, /) -> Any:
    shape, reps = tile_shapes(tuple(x.shape), repetitions)
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
    axis = normalize_axis(axis, x.ndim, "unstack")
    rest = tuple(n for i, n in enumerate(x.shape) if i != axis)
    out = []
    for i in range(x.shape[axis]):
        index = nd.full((1,), i, ctx=x.context, dtype="int64")
        out.append(_gather(x, index, axis).reshape(rest))
    return tuple(out)


@numpy_shapes
def pad(x: Any, pad_width: Any, mode: str = "constant", constant_values: Any = 0) -> Any:
    pairs = pad_pairs(pad_width, x.ndim)
    if mode == "constant":
        value = np.asarray(constant_values, dtype=np.dtype(x.dtype)).item()  # as np.pad casts
        shape = tuple(n + before + after for n, (before, after) in zip(x.shape, pairs))
        if x.size == 0 or 0 in shape:  # MXNet concatenates no empty arrays: all padding
            return nd.full(shape, value, ctx=x.context, dtype=x.dtype)
        # One concat per padded axis (nd.pad takes only 4-D and 5-D arrays).
        out = _no_bool(x)
        for axis, (before, after) in enumerate(pairs):
            parts = [out]
            for n, at in ((before, 0), (after, 2)):
                if n:
                    side = (*out.shape[:axis], n, *out.shape[axis + 1 :])
                    parts.insert(at, nd.full(side, value, ctx=x.context, dtype=out.dtype))
            if len(parts) > 1:
                out = nd.concat(*parts, dim=axis)
        return _keep_bool(x, out) if out is not x else nd.identity(x)
    out = x  # reflect or edge: pad's check refused any other mode
    for axis, sources in pad_sources(tuple(x.shape), pairs, mode):
        out = _gather(out, nd.array(sources, ctx=x.context, dtype="int64"), axis)
    return out if out is not x else nd.identity(x)

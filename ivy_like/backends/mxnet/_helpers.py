"""mxnet backend: private helpers shared by several family files.

Operand handling (``_operands`` promotes with NumPy's table and makes Python scalars weak,
``_broadcast`` broadcasts with NumPy's rule, ``_no_bool``/``_truth`` route bools through uint8),
shapes (``_shape``), the gather behind ``take``/``repeat``/``unstack``, the reductions' axis
rules and zero-size results (``_axes``, ``_reduce``), half precision in float32
(``_in_float32``), and the stable NaN-last argsort that ``sorting.py`` and ``set_functions.py``
build on (``_stable_argsort_rows``). ``_context`` (devices) is in ``__init__.py``, beside the
``native_device`` hook.
"""

from __future__ import annotations

import builtins
from typing import Any, Callable

import mxnet as mx
import numpy as np

from .._common.half import half_in_float32
from . import _BOOL, _SUPPORTED, _UINT8, ASARRAY, DEFAULT_FLOAT, DEFAULT_INT, NDArray

nd = mx.nd


# -- dtypes and operands --------------------------------------------------------------------------
def _supported(dt: np.dtype, where: str) -> np.dtype:
    """``dt`` if MXNet has it, else ``TypeError``."""
    if dt not in _SUPPORTED:
        raise TypeError(f"{where}: {dt} is not supported by the mxnet backend")
    return dt


def _cast(x: Any, dt: np.dtype) -> Any:
    return x if np.dtype(x.dtype) == dt else x.astype(dt)


def _scalar_dtype(arr_dt: np.dtype, value: Any, where: str) -> np.dtype:
    """Weak Python scalars: they take the array's dtype unless their kind is wider."""
    if isinstance(value, bool):
        return arr_dt
    if isinstance(value, int):
        return DEFAULT_INT if arr_dt == _BOOL else arr_dt
    if isinstance(value, float):
        return arr_dt if arr_dt.kind == "f" else DEFAULT_FLOAT
    raise TypeError(f"{where}: {type(value).__name__} operands are not supported by mxnet")


def _operands(where: str, *xs: Any) -> tuple[list[Any], np.dtype]:
    """Arrays of one promoted dtype (Python scalars become 0-d arrays of it)."""
    arrays = [x for x in xs if isinstance(x, NDArray)]
    if not arrays:
        arrays = [ASARRAY[0](x) for x in xs]
        xs = tuple(arrays)
    dt = np.result_type(*[np.dtype(a.dtype) for a in arrays])
    for x in xs:
        if not isinstance(x, NDArray):  # weak: the arrays' dtype, or the scalar kind's default
            dt = _scalar_dtype(dt, x, where)
    if dt not in _SUPPORTED:
        # e.g. int8 with uint8: an error naming the standard's result, never a wider type.
        names = " with ".join(sorted({str(np.dtype(a.dtype)) for a in arrays}))
        raise TypeError(
            f"{where}: {names} promotes to {dt.name}, which the mxnet backend does not support; "
            "convert one operand first"
        )
    out = [
        _cast(x, dt) if isinstance(x, NDArray) else nd.array(np.asarray(x, dtype=dt), dtype=dt)
        for x in xs
    ]
    return out, dt


def _no_bool(x: Any) -> Any:
    return x.astype(_UINT8) if x.dtype == np.bool_ else x


def _truth(x: Any) -> Any:
    return x.astype(_BOOL).astype(_UINT8)


def _broadcast(arrays: list[Any]) -> list[Any]:
    """Broadcast to one shape (0-d arrays are first reshaped: MXNet cannot broadcast them)."""
    target = np.broadcast_shapes(*[tuple(a.shape) for a in arrays])
    return [_broadcast_to(a, target) for a in arrays]


def _broadcast_to(a: Any, target: tuple[int, ...]) -> Any:
    """``broadcast_to`` with NumPy's rule of leading 1s (MXNet needs equal ranks)."""
    if tuple(a.shape) == target:
        return a
    if a.ndim < len(target):
        a = a.reshape((1,) * (len(target) - a.ndim) + tuple(a.shape))
    return nd.broadcast_to(a, shape=target)


def _shape(shape: Any) -> tuple[int, ...]:
    return (shape,) if isinstance(shape, int) else tuple(shape)


def _keep_bool(x: Any, out: Any) -> Any:
    return out.astype(_BOOL) if x.dtype == np.bool_ and out.dtype != np.bool_ else out


def _gather(x: Any, index: Any, axis: int) -> Any:
    if x.size == 0 or index.size == 0:
        shape = tuple(x.shape[:axis]) + tuple(index.shape) + tuple(x.shape[axis + 1 :])
        return nd.zeros(shape, ctx=x.context, dtype=x.dtype)
    return _keep_bool(x, nd.take(_no_bool(x), index, axis=axis, mode="wrap"))


# -- reductions -----------------------------------------------------------------------------------
def _axes(x: Any, axis: Any, who: str) -> tuple[int, ...]:
    ndim = x.ndim
    if axis is None:
        return tuple(range(ndim))
    items = (axis,) if isinstance(axis, int) else tuple(axis)
    out = []
    for a in items:
        if not -ndim <= a < builtins.max(ndim, 1) or (ndim == 0 and a != 0 and a != -1):
            raise (
                np.AxisError(a, ndim, who)
                if hasattr(np, "AxisError")
                else ValueError(
                    f"{who}: axis {a} is out of bounds for an array of dimension {ndim}"
                )
            )
        out.append(a % ndim if ndim else 0)
    if len(set(out)) != len(out):
        raise ValueError(f"{who}: duplicate value in axis {axis!r}")
    return tuple(sorted(out))


_EMPTY_REDUCTION: dict[Any, float] = {nd.sum: 0, nd.prod: 1, nd.mean: float("nan")}


def _reduce(mx_op: Callable[..., Any], x: Any, axis: Any, keepdims: bool, who: str) -> Any:
    axes = _axes(x, axis, who)
    shp = tuple(x.shape)
    want = tuple(1 if i in axes else n for i, n in enumerate(shp) if keepdims or i not in axes)
    if not axes:
        return nd.identity(x)  # axis=() reduces nothing (MXNet would reduce everything)
    if x.size == 0:
        # MXNet's reductions reject zero-size inputs ("Shape size mismatch"): the result is
        # the op's identity (NaN for mean, as in NumPy) in the reduced shape, or itself empty.
        return nd.full(want, _EMPTY_REDUCTION.get(mx_op, 0), dtype=x.dtype)
    if x.ndim == 0:
        return mx_op(x.reshape((1,))).reshape(want)
    out = mx_op(x, axis=axes, keepdims=keepdims)
    return out if tuple(out.shape) == want else out.reshape(want)  # (1,) -> ()


# Half precision computed in float32 (ivy_like.backends._common.half): mean, var/std, prod and
# cumulative_sum in statistical.py, the decompositions in linalg.py.
_in_float32 = half_in_float32({"float16": np.float16}, np.dtype("float32"), _cast)


# -- sorting --------------------------------------------------------------------------------------
# MXNet's argsort is not stable and misplaces NaN. A stable order with NaN last comes from
# three of its sorts, each on keys where neither matters: an unstable argsort of the values
# (NaN read as +inf) gives each element its rank among distinct values; the inverse of that
# permutation (an argsort of distinct integers) brings the ranks back to the elements; then
# the distinct keys (NaN flag, rank, position) are sorted. Every index is int64 (MXNet's
# default, float32, is exact only to 2**24), and the float64 keys are exact below 2**53.
_INF = float("inf")


def _gather_rows(values: Any, indices: Any) -> Any:
    """``values[r, indices[r, j]]`` for a ``(rows, n)`` pair (differentiable: ``nd.take``)."""
    rows, n = indices.shape
    offsets = nd.arange(rows, ctx=indices.context, dtype=DEFAULT_INT).reshape((rows, 1)) * n
    flat = nd.broadcast_add(indices, offsets).reshape((-1,))
    return nd.take(values.reshape((-1,)), flat).reshape((rows, n))


def _stable_argsort_rows(x: Any) -> Any:
    """Ascending stable argsort of each row of a ``(rows, n)`` array, NaN last (int64)."""
    rows, n = x.shape
    if n == 1:  # (MXNet cannot slice the empty neighbour differences below)
        return nd.zeros((rows, 1), ctx=x.context, dtype=DEFAULT_INT)
    kind = np.dtype(x.dtype).kind
    if kind == "b" or x.dtype == np.float16:  # argsort takes neither: exact in float32
        x = x.astype(np.float32)
    nan = None
    if kind == "f":
        nan = nd.broadcast_not_equal(x, x)
        x = nd.where(nan, nd.full(x.shape, _INF, ctx=x.context, dtype=x.dtype), x)
    order = nd.argsort(x, axis=1, dtype=DEFAULT_INT)  # ties (and NaN, now +inf) in any order
    ranked = _gather_rows(x, order)
    steps = nd.broadcast_not_equal(
        nd.slice_axis(ranked, axis=1, begin=1, end=n),
        nd.slice_axis(ranked, axis=1, begin=0, end=n - 1),
    ).astype(np.float64)
    first = nd.zeros((rows, 1), ctx=x.context, dtype=np.float64)
    rank_in_order = nd.cumsum(nd.concat(first, steps, dim=1), axis=1)
    rank = _gather_rows(rank_in_order, nd.argsort(order, axis=1, dtype=DEFAULT_INT))
    if nan is not None:
        rank = rank + nan.astype(np.float64) * n  # after every number; NaNs keep their order
    position = nd.arange(n, ctx=x.context, dtype=np.float64).reshape((1, n))
    keys = nd.broadcast_add(rank * n, position)  # distinct: any sort is a stable one
    return nd.argsort(keys, axis=1, dtype=DEFAULT_INT)

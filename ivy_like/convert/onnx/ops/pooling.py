"""ONNX pooling -> ivy_like: ``MaxPool`` (with its optional Indices output), ``AveragePool``,
``LpPool``, ``GlobalAveragePool``, ``GlobalMaxPool``, ``GlobalLpPool`` and ``MaxUnpool``.

A pooling over a box window is separable: the maximum (or sum) over the box is the maximum
(or sum) along one axis of the maxima (sums) along the next, so any number of spatial axes,
dilations, asymmetric pads and ``ceil_mode`` come down to one strided slice per kernel
position per axis. A 2-d max pool without dilation uses ``ivy_like.nn.max_pool2d`` on the
padded input. The divisor of an average is known from the shapes (NumPy, at conversion).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

import ivy_like as il

from .._table import Node, Refused, index_dtype, ints, onnx_op
from .nn import (
    Pairs,
    as_array,
    lift,
    optional_ints,
    pad_or_crop,
    per_axis,
    shape_of,
    wanted_outputs,
    window_attrs,
    window_pads,
)


def _geometry(
    sizes: Sequence[int],
    kernel: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
    pads: Pairs,
    ceil_mode: bool,
) -> tuple[list[int], list[int]]:
    """Per axis the number of windows and the padding ``ceil_mode`` adds at the end so the
    last (partial) window is in range; a last window that would start in the end padding is
    dropped (ONNX's and PyTorch's rule)."""
    outs, extras = [], []
    for size, k, s, d, (lo, hi) in zip(sizes, kernel, strides, dilations, pads):
        span = size + lo + hi - (k - 1) * d - 1
        out = (-(-span // s) if ceil_mode else span // s) + 1
        if ceil_mode and (out - 1) * s >= size + lo:
            out -= 1
        outs.append(out)
        extras.append(max(0, (out - 1) * s + (k - 1) * d + 1 - (size + lo + hi)))
    return outs, extras


def _lowest(dtype: Any) -> Any:
    """What pads a max pool's input so that it never wins: -inf, or an integer type's least."""
    if il.isdtype(dtype, "bool"):
        return False
    if il.isdtype(dtype, "integral"):
        return int(il.iinfo(dtype).min)
    return -math.inf


def _windows_along(x: Any, axis: int, k: int, s: int, d: int, out: int) -> list[Any]:
    """The ``k`` strided slices of (padded) ``x`` along ``axis``: slice ``j`` holds the
    ``j``-th element of each of the ``out`` windows."""
    parts = []
    for j in range(k):
        index: list[Any] = [slice(None)] * len(x.shape)
        index[axis] = slice(j * d, j * d + (out - 1) * s + 1, s)
        parts.append(x[tuple(index)])
    return parts


def _pool(
    x: Any,
    kernel: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
    pads: Pairs,
    outs: Sequence[int],
    extras: Sequence[int],
    fill: Any,
    combine: Any,
) -> Any:
    """``combine`` (``il.maximum`` or ``il.add``) over each window, one axis at a time, the
    input padded with ``fill``."""
    for a, (k, s, d, (lo, hi), out, extra) in enumerate(
        zip(kernel, strides, dilations, pads, outs, extras)
    ):
        axis = 2 + a
        x = pad_or_crop(x, axis, lo, hi + extra, fill)
        x = functools.reduce(combine, _windows_along(x, axis, k, s, d, out))
    return x


def _pool_attrs(node: Node) -> dict[str, Any]:
    rank = node.ins[0].shape if node.ins and node.ins[0] is not None else None
    if rank is not None and len(rank) < 3:
        raise Refused(f"{node.op_type}: a {len(rank)}-D input; N, C and spatial axes expected")
    kernel = optional_ints(node, "kernel_shape")
    if kernel is None:
        raise Refused(f"{node.op_type}: kernel_shape is required")
    return {
        **window_attrs(node),
        "kernel_shape": kernel,
        "ceil_mode": bool(node.attr("ceil_mode", 0)),
    }


def _setup(
    x: Any,
    kernel_shape: Sequence[int],
    auto_pad: str,
    strides: Any,
    dilations: Any,
    pads: Any,
    ceil_mode: bool,
) -> tuple[Any, ...]:
    sizes = shape_of(x)[2:]
    n = len(sizes)
    strides, dilations = per_axis(strides, n, 1), per_axis(dilations, n, 1)
    pairs = window_pads(auto_pad, sizes, kernel_shape, strides, dilations, pads)
    outs, extras = _geometry(sizes, kernel_shape, strides, dilations, pairs, ceil_mode)
    return sizes, strides, dilations, pairs, outs, extras


def _max_pool_attrs(node: Node) -> dict[str, Any]:
    return {
        **_pool_attrs(node),
        "storage_order": int(node.attr("storage_order", 0)),
        "outputs": wanted_outputs(node),
    }


@onnx_op("MaxPool", attrs=_max_pool_attrs)
def max_pool(
    x: Any,
    *,
    kernel_shape: Sequence[int],
    auto_pad: str = "NOTSET",
    ceil_mode: bool = False,
    dilations: Any = None,
    pads: Any = None,
    storage_order: int = 0,
    strides: Any = None,
    outputs: int = 1,
) -> Any:
    """ONNX MaxPool; with ``outputs=2`` also Indices, each maximum's flat index in ``x``
    (row-major, or column-major over the spatial axes with ``storage_order=1``; the first
    maximum of a window in row-major order wins a tie)."""
    x = lift(x)
    sizes, strides, dilations, pairs, outs, extras = _setup(
        x, kernel_shape, auto_pad, strides, dilations, pads, ceil_mode
    )
    fill = _lowest(x.dtype)
    if outputs > 1:
        return _max_pool_with_indices(
            x, kernel_shape, strides, dilations, pairs, outs, extras, fill, storage_order
        )
    if len(sizes) == 2 and dilations == (1, 1) and il.isdtype(x.dtype, "real floating"):
        for a in (0, 1):
            x = pad_or_crop(x, 2 + a, pairs[a][0], pairs[a][1] + extras[a], fill)
        return il.nn.max_pool2d(x, tuple(kernel_shape), tuple(strides), 0)
    return _pool(x, kernel_shape, strides, dilations, pairs, outs, extras, fill, il.maximum)


def _max_pool_with_indices(
    x: Any,
    kernel: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
    pairs: Pairs,
    outs: Sequence[int],
    extras: Sequence[int],
    fill: Any,
    storage_order: int,
) -> tuple[Any, Any]:
    """Max pooling with argmax: every window position stacked on a new axis, the maximum and
    its position there; a flat index is linear in the coordinates, so it is the window's
    start's index plus the position's offset plus the (sample, channel) block's start."""
    shape = shape_of(x)
    sizes = shape[2:]
    n = len(sizes)
    for a in range(n):
        x = pad_or_crop(x, 2 + a, pairs[a][0], pairs[a][1] + extras[a], fill)
    parts = [x]
    for a in range(n):  # every kernel position along axis a, for each earlier combination
        parts = [
            p
            for part in parts
            for p in _windows_along(part, 2 + a, kernel[a], strides[a], dilations[a], outs[a])
        ]
    stacked = il.stack(parts, axis=2)
    best = il.astype(il.argmax(stacked, axis=2), index_dtype())
    values = il.max(stacked, axis=2)
    # element strides of the spatial axes in the flat index (column-major: storage_order=1)
    order = range(n) if storage_order else range(n - 1, -1, -1)
    step, steps = 1, [0] * n
    for a in order:
        steps[a] = step
        step *= sizes[a]
    offsets = np.zeros(1, dtype=np.int64)
    for a in range(n):  # row-major over the kernel positions, as the windows were stacked
        offsets = (offsets[:, None] + np.arange(kernel[a]) * dilations[a] * steps[a]).reshape(-1)
    starts = np.zeros((), dtype=np.int64)
    for a in range(n):
        along = (np.arange(outs[a]) * strides[a] - pairs[a][0]) * steps[a]
        starts = starts[..., None] + along
    blocks = (np.arange(shape[0] * shape[1]) * step).reshape(shape[0], shape[1], *(1,) * n)
    idx = index_dtype()
    flat = il.take(il.asarray(offsets, dtype=idx), best, axis=0)
    flat = flat + il.asarray(starts[None, None], dtype=idx) + il.asarray(blocks, dtype=idx)
    return values, flat


def _average_attrs(node: Node) -> dict[str, Any]:
    return {**_pool_attrs(node), "count_include_pad": bool(node.attr("count_include_pad", 0))}


def _counts(size: int, k: int, s: int, d: int, lo: int, hi: int, out: int, with_pad: bool) -> Any:
    """How many elements of each window along an axis the average divides by: those in the
    input (and its pads with ``count_include_pad``), never ceil_mode's overhang."""
    first, last = (-lo, size + hi) if with_pad else (0, size)
    pos = np.arange(out)[:, None] * s - lo + np.arange(k)[None, :] * d
    return ((pos >= first) & (pos < last)).sum(axis=1)


@onnx_op("AveragePool", attrs=_average_attrs)
def average_pool(
    x: Any,
    *,
    kernel_shape: Sequence[int],
    auto_pad: str = "NOTSET",
    ceil_mode: bool = False,
    count_include_pad: bool = False,
    dilations: Any = None,
    pads: Any = None,
    strides: Any = None,
) -> Any:
    """ONNX AveragePool: window sums over zero padding divided by the count of the window's
    elements in the input (and in its pads with ``count_include_pad``)."""
    x = lift(x)
    sizes, strides, dilations, pairs, outs, extras = _setup(
        x, kernel_shape, auto_pad, strides, dilations, pads, ceil_mode
    )
    sums = _pool(x, kernel_shape, strides, dilations, pairs, outs, extras, 0, il.add)
    divisor = np.ones((), dtype=np.float64)
    for args in zip(sizes, kernel_shape, strides, dilations, pairs, outs):
        size, k, s, d, (lo, hi), out = args
        count = _counts(size, k, s, d, lo, hi, out, count_include_pad)
        divisor = divisor[..., None] * count
    return sums / as_array(divisor[None, None], x.dtype)


def _lp_attrs(node: Node) -> dict[str, Any]:
    return {**_pool_attrs(node), "p": _p(node)}


def _p(node: Node) -> float:
    p = node.attr("p", 2)
    if float(p) <= 0:
        raise Refused(f"{node.op_type}: p={p}; a positive p only")
    return float(p)


def _abs_pow(x: Any, p: float) -> Any:
    return x * x if p == 2 else il.pow(il.abs(x), p)


def _root(x: Any, p: float) -> Any:
    return il.sqrt(x) if p == 2 else il.pow(x, 1.0 / p)


@onnx_op("LpPool", attrs=_lp_attrs)
def lp_pool(
    x: Any,
    *,
    kernel_shape: Sequence[int],
    p: float = 2.0,
    auto_pad: str = "NOTSET",
    ceil_mode: bool = False,
    dilations: Any = None,
    pads: Any = None,
    strides: Any = None,
) -> Any:
    """ONNX LpPool: ``(sum of |x|**p over the window) ** (1/p)``, padding counting as 0."""
    x = lift(x)
    _, strides, dilations, pairs, outs, extras = _setup(
        x, kernel_shape, auto_pad, strides, dilations, pads, ceil_mode
    )
    sums = _pool(_abs_pow(x, p), kernel_shape, strides, dilations, pairs, outs, extras, 0, il.add)
    return _root(sums, p)


def _spatial(x: Any) -> tuple[int, ...]:
    return tuple(range(2, len(x.shape)))


@onnx_op("GlobalAveragePool")
def global_average_pool(x: Any) -> Any:
    """ONNX GlobalAveragePool: the mean over the spatial axes, kept as size 1."""
    return il.mean(lift(x), axis=_spatial(x), keepdims=True)


@onnx_op("GlobalMaxPool")
def global_max_pool(x: Any) -> Any:
    """ONNX GlobalMaxPool: the maximum over the spatial axes, kept as size 1."""
    return il.max(lift(x), axis=_spatial(x), keepdims=True)


@onnx_op("GlobalLpPool", since=2, attrs=lambda node: {"p": _p(node)})
def global_lp_pool(x: Any, *, p: float = 2.0) -> Any:
    """ONNX GlobalLpPool: the p-norm over the spatial axes, kept as size 1."""
    x = lift(x)
    return _root(il.sum(_abs_pow(x, p), axis=_spatial(x), keepdims=True), p)


def _unpool_attrs(node: Node) -> dict[str, Any]:
    kernel = optional_ints(node, "kernel_shape")
    if kernel is None:
        raise Refused("MaxUnpool: kernel_shape is required")
    return {
        "kernel_shape": kernel,
        "pads": optional_ints(node, "pads"),
        "strides": optional_ints(node, "strides"),
    }


@onnx_op("MaxUnpool", since=9, attrs=_unpool_attrs)
def max_unpool(
    x: Any,
    indices: Any,
    output_shape: Any = None,
    *,
    kernel_shape: Sequence[int],
    pads: Any = None,
    strides: Any = None,
) -> Any:
    """ONNX MaxUnpool: zeros of the pooled input's shape (``output_shape``, else the size the
    pooling geometry gives) with each value of ``x`` at its flat index in ``indices``, as
    PyTorch's ``max_unpool`` (the same index twice, from overlapping windows, holds the
    same value once)."""
    x = lift(x)
    shape = shape_of(x)
    n = len(shape) - 2
    if output_shape is not None:
        out_shape = ints(output_shape, "MaxUnpool", "output_shape")
    else:
        strides = per_axis(strides, n, 1)
        pairs = window_pads("NOTSET", shape[2:], kernel_shape, strides, (1,) * n, pads)
        out_shape = shape[:2] + tuple(
            (size - 1) * s - lo - hi + k
            for size, s, (lo, hi), k in zip(shape[2:], strides, pairs, kernel_shape)
        )
    total = int(np.prod(out_shape))
    if isinstance(indices, np.ndarray):
        indices = il.asarray(indices, dtype=index_dtype())
    ids = il.reshape(indices, (-1,))
    sums = il.segment_sum(il.reshape(x, (-1,)), ids, total)
    hits = il.segment_sum(il.ones(ids.shape, dtype=x.dtype), ids, total)
    flat = sums / il.maximum(hits, il.ones_like(hits))
    return il.reshape(flat, out_shape)

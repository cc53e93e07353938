"""ONNX operators that move, reshape, cut, join, pad and create arrays, and the helpers the
shape and indexing families share.

Reshape, Flatten, Transpose, Squeeze, Unsqueeze, Concat, Split, Slice, Shape, Size, Expand,
Tile, Pad, ConstantOfShape, Range, Constant, EyeLike, DepthToSpace, SpaceToDepth and
CenterCropPad. Their shape-like inputs (shapes, axes, starts, pads, repeats) are read as known
values with :func:`ints`; every handler also runs on NumPy inputs with the numpy backend active
(the converter's shape arithmetic) and then returns NumPy arrays (see :func:`handler`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

import ivy_like as il

from .._table import ONNX_DTYPES, Node, Refused, has_dtype, index_dtype, ints, onnx_op, scalar

_KNOWN = (np.ndarray, np.generic)


# ---------------------------------------------------------------------------------------------
# Shared helpers (also used by ``indexing.py``)


def known(*inputs: Any) -> bool:
    """Whether every input is a NumPy value (or left out): the node is shape arithmetic."""
    return all(x is None or isinstance(x, _KNOWN) for x in inputs)


def _to_numpy(out: Any) -> Any:
    if isinstance(out, tuple):
        return tuple(_to_numpy(o) for o in out)
    if isinstance(out, _KNOWN):
        return np.asarray(out)
    return np.asarray(il.to_numpy(out))


def handler(
    *names: str, since: int = 1, attrs: Callable[[Node], dict[str, Any]] | None = None
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """:func:`onnx_op`, with one rule for known values: when every input is a NumPy array the
    handler runs on the numpy backend and its result is a NumPy array too (ivy_like's creation
    functions return Arrays even there), so shape arithmetic stays in NumPy whatever the
    model's backend."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def run(*inputs: Any, **kwargs: Any) -> Any:
            if not known(*inputs):
                return fn(*inputs, **kwargs)
            with il.use_backend("numpy"):
                return _to_numpy(fn(*inputs, **kwargs))

        return onnx_op(*names, since=since, attrs=attrs)(run)

    return register


def il_dtype(dtype: Any) -> Any:
    """An ivy_like dtype for a NumPy dtype, an ivy_like dtype or an ONNX type number; int64 and
    uint64 become the index dtype where the backend lacks them (JAX without 64-bit mode)."""
    if isinstance(dtype, int) and not isinstance(dtype, bool):
        if dtype not in ONNX_DTYPES:
            raise Refused(f"ONNX data type {dtype} is not supported")
        dtype = ONNX_DTYPES[dtype]
    d = il.as_dtype(dtype)
    if d in (il.int64, il.uint64) and not has_dtype(d):
        return index_dtype()
    return d


def arr(x: Any) -> Any:
    """``x`` as an array of the active backend. A NumPy value stays NumPy on the numpy backend
    (so shape arithmetic stays NumPy); elsewhere it is converted, its int64 (a constant's
    indices, a shape) narrowed to int32 where the backend has no int64."""
    if not isinstance(x, _KNOWN):
        return x
    x = np.asarray(x)
    if il.current_backend().name == "numpy":
        return x
    if x.dtype.kind in "iu" and x.dtype.itemsize == 8 and not has_dtype(x.dtype.name):
        x = x.astype(np.int32)
    elif x.dtype == np.float64 and not has_dtype("float64"):
        x = x.astype(np.float32)
    return il.asarray(x)


def indices(x: Any) -> Any:
    """An index input as an integer array of the active backend (float indices, which OneHot
    allows, are truncated to the index dtype)."""
    x = arr(x)
    if not il.isdtype(il.as_dtype(x.dtype), "integral"):
        x = il.astype(x, index_dtype())
    return x


def axis_of(axis: int, rank: int, op: str) -> int:
    """A possibly negative axis as one in ``[0, rank)``."""
    if not -rank <= axis < rank:
        raise ValueError(f"{op}: axis {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def dims(x: Any) -> tuple[int, ...]:
    return tuple(int(d) for d in x.shape)


def take_range(x: Any, axis: int, start: int, stop: int, step: int = 1) -> Any:
    """``x[..., start:stop:step, ...]`` along ``axis`` (bounds already in range)."""
    key = [slice(None)] * len(x.shape)
    key[axis] = slice(start, stop, step)
    return x[tuple(key)]


# ---------------------------------------------------------------------------------------------
# Reshaping


@handler("Reshape", since=5)
def reshape(data: Any, shape: Any, *, allowzero: int = 0) -> Any:
    """Reshape: a 0 copies the input's dimension unless ``allowzero``; one -1 is inferred."""
    target = list(ints(shape, "Reshape", "the shape input"))
    if not allowzero:
        have = dims(data)
        target = [have[i] if d == 0 else d for i, d in enumerate(target)]
    return il.reshape(arr(data), tuple(target))


@handler("Flatten")
def flatten(x: Any, *, axis: int = 1) -> Any:
    """Flatten to 2-D: the dimensions before ``axis`` and those from it."""
    shape = dims(x)
    axis = axis + len(shape) if axis < 0 else axis
    return il.reshape(arr(x), (math.prod(shape[:axis]), math.prod(shape[axis:])))


@handler("Transpose")
def transpose(x: Any, *, perm: Any = None) -> Any:
    """Transpose: ``perm`` defaults to the axes reversed."""
    rank = len(x.shape)
    return il.permute_dims(arr(x), tuple(perm) if perm is not None else tuple(range(rank))[::-1])


def _axes_rule(node: Node) -> dict[str, Any]:
    # Squeeze and Unsqueeze take their axes as an attribute before opset 13, an input after.
    if node.opset < 13:
        return {"axes_attr": list(node.attr("axes", None) or [])}
    return {}


@handler("Squeeze", attrs=_axes_rule)
def squeeze(data: Any, axes: Any = None, *, axes_attr: Any = None) -> Any:
    """Squeeze the axes given (each of size 1), or every axis of size 1 when none is."""
    shape = dims(data)
    if axes_attr is not None:
        chosen = tuple(axes_attr) if axes_attr else None
    else:
        chosen = None if axes is None else ints(axes, "Squeeze", "the axes input")
    if chosen is None:
        drop = {i for i, d in enumerate(shape) if d == 1}
    else:
        drop = {axis_of(a, len(shape), "Squeeze") for a in chosen}
        for a in drop:
            if shape[a] != 1:
                raise ValueError(f"Squeeze: axis {a} has size {shape[a]}, not 1")
    return il.reshape(arr(data), tuple(d for i, d in enumerate(shape) if i not in drop))


@handler("Unsqueeze", attrs=_axes_rule)
def unsqueeze(data: Any, axes: Any = None, *, axes_attr: Any = None) -> Any:
    """Insert axes of size 1 at ``axes`` (positions in the result)."""
    shape = dims(data)
    chosen = tuple(axes_attr) if axes_attr is not None else ints(axes, "Unsqueeze", "axes")
    rank = len(shape) + len(chosen)
    new = {axis_of(a, rank, "Unsqueeze") for a in chosen}
    if len(new) != len(chosen):
        raise ValueError(f"Unsqueeze: repeated axes {chosen}")
    rest = iter(shape)
    return il.reshape(arr(data), tuple(1 if i in new else next(rest) for i in range(rank)))


@handler("Concat", since=4)
def concat(*inputs: Any, axis: int) -> Any:
    """Join the inputs along ``axis``."""
    if known(*inputs):
        return il.concat(list(inputs), axis=axis)
    return il.concat([arr(x) for x in inputs], axis=axis)


def _split_rule(node: Node) -> dict[str, Any]:
    kw: dict[str, Any] = {"axis": node.attr("axis", 0), "outputs": len(node.outs)}
    if node.opset < 13 and node.attr("split") is not None:
        kw["split_attr"] = list(node.attr("split"))
    if node.opset >= 18 and node.attr("num_outputs") is not None:
        kw["outputs"] = node.attr("num_outputs")
    return kw


@handler("Split", since=2, attrs=_split_rule)
def split(
    x: Any, split: Any = None, *, axis: int = 0, outputs: int = 1, split_attr: Any = None
) -> Any:
    """Split along ``axis`` into the sizes ``split``, or into ``outputs`` equal parts (the
    last one smaller when the size does not divide, as opset 18 says)."""
    shape = dims(x)
    axis = axis_of(axis, len(shape), "Split")
    if split_attr is not None:
        sizes = tuple(split_attr)
    elif split is not None:
        sizes = ints(split, "Split", "the split input")
    else:
        part = -(-shape[axis] // outputs)
        sizes = (part,) * (outputs - 1) + (shape[axis] - part * (outputs - 1),)
    if sum(sizes) != shape[axis] or min(sizes, default=0) < 0:
        raise ValueError(f"Split: sizes {sizes} do not split a dimension of {shape[axis]}")
    x = arr(x)
    starts = np.cumsum((0,) + sizes)
    parts = tuple(take_range(x, axis, int(a), int(b)) for a, b in zip(starts[:-1], starts[1:]))
    return parts if len(parts) > 1 else parts[0]


def _slice_rule(node: Node) -> dict[str, Any]:
    # Before opset 10 starts, ends and axes are attributes and there are no steps.
    if node.opset < 10:
        return {
            "starts_attr": list(node.attr("starts")),
            "ends_attr": list(node.attr("ends")),
            "axes_attr": None if node.attr("axes") is None else list(node.attr("axes")),
        }
    return {}


@handler("Slice", attrs=_slice_rule)
def slice_(
    data: Any,
    starts: Any = None,
    ends: Any = None,
    axes: Any = None,
    steps: Any = None,
    *,
    starts_attr: Any = None,
    ends_attr: Any = None,
    axes_attr: Any = None,
) -> Any:
    """Slice: per axis ``start:end:step``, both ends clamped as Python clamps them (so
    INT_MAX/INT_MIN mean "to the end"); negative steps walk backwards."""
    if starts_attr is not None:
        first, last, which, step = tuple(starts_attr), tuple(ends_attr), axes_attr, None
    else:
        first = ints(starts, "Slice", "starts")
        last = ints(ends, "Slice", "ends")
        which = None if axes is None else ints(axes, "Slice", "axes")
        step = None if steps is None else ints(steps, "Slice", "steps")
    shape = dims(data)
    which = tuple(range(len(first))) if which is None else tuple(which)
    step = (1,) * len(first) if step is None else step
    key = [slice(None)] * len(shape)
    for a, s, e, st in zip(which, first, last, step, strict=True):
        a = axis_of(a, len(shape), "Slice")
        if st == 0:
            raise ValueError("Slice: a step of 0")
        # slice.indices clamps as ONNX does; every backend then gets in-range bounds
        # (mlx refuses 64-bit ones).
        s, e, st = slice(s, e, st).indices(shape[a])
        if st > 0:
            key[a] = slice(s, max(s, e), st)
        else:
            key[a] = slice(s, None if e < 0 else e, st) if s > e else slice(0, 0)
    return arr(data)[tuple(key)]


@handler("Shape")
def shape(data: Any, *, start: int = 0, end: Any = None) -> Any:
    """The shape (from ``start`` to ``end``, Python's slice clamping) as an int64 NumPy array:
    every backend knows its shapes, so the value never reaches the device."""
    return np.asarray(dims(data)[start:end], dtype=np.int64)


@handler("Size")
def size(data: Any) -> Any:
    """The number of elements as a 0-d int64 NumPy array."""
    return np.asarray(math.prod(dims(data)), dtype=np.int64)


@handler("Expand", since=8)
def expand(data: Any, shape: Any) -> Any:
    """Broadcast ``data`` and ``shape`` together (either may have the larger dimension)."""
    target = np.broadcast_shapes(dims(data), ints(shape, "Expand", "the shape input"))
    return il.broadcast_to(arr(data), tuple(target))


@handler("Tile", since=6)
def tile(x: Any, repeats: Any) -> Any:
    """Repeat ``x`` ``repeats[i]`` times along each axis ``i``."""
    return il.tile(arr(x), ints(repeats, "Tile", "the repeats input"))


# ---------------------------------------------------------------------------------------------
# Padding and cropping


def _pad_rule(node: Node) -> dict[str, Any]:
    kw: dict[str, Any] = {"mode": node.attr("mode", "constant")}
    if node.opset < 11:  # pads and value are attributes before opset 11
        kw["pads_attr"] = list(node.attr("pads", node.attr("paddings")))
        kw["value_attr"] = float(node.attr("value", 0.0))
    if kw["mode"] not in ("constant", "reflect", "edge", "wrap"):
        raise Refused(f"Pad mode {kw['mode']!r} is not an ONNX mode")
    return kw


def _pad_pairs(x: Any, pads: tuple[int, ...], axes: Any) -> list[list[int]]:
    rank = len(x.shape)
    which = range(rank) if axes is None else [axis_of(a, rank, "Pad") for a in axes]
    which = list(which)
    if len(pads) != 2 * len(which):
        raise ValueError(f"Pad: {len(pads)} pads for {len(which)} axes")
    pairs = [[0, 0] for _ in range(rank)]
    for i, a in enumerate(which):
        pairs[a] = [pads[i], pads[len(which) + i]]
    return pairs


def pad_array(x: Any, pairs: list[list[int]], mode: str, value: Any = 0) -> Any:
    """``x`` padded by ``pairs`` (before, after per axis; negative ones crop first). ``value``
    is a number or a 0-d array of ``x``'s dtype (then the result selects it by a mask, which
    works when it is only known at run time)."""
    shape = dims(x)
    for a, (b, e) in enumerate(pairs):
        if b < 0 or e < 0:
            x = take_range(x, a, max(-b, 0), shape[a] + min(e, 0))
    grow = [(max(b, 0), max(e, 0)) for b, e in pairs]
    if not any(b or e for b, e in grow):
        return x
    if mode == "wrap":
        # wrap reads each new position modulo the size: one gather per padded axis.
        for a, (b, e) in enumerate(grow):
            if b or e:
                n = int(x.shape[a])
                where = np.arange(-b, n + e) % n
                x = il.take(x, arr(where.astype(np.int32)), axis=a)
        return x
    if mode != "constant":
        return il.pad(x, grow, mode=mode)
    if value is None or isinstance(value, int | float | bool | np.ndarray | np.generic):
        fill = 0 if value is None else np.asarray(value).reshape(-1)[0].item()
        return il.pad(x, grow, constant_values=fill)
    inside = np.pad(np.ones(dims(x), dtype=bool), grow)
    value = il.astype(il.reshape(value, ()), x.dtype)
    return il.where(arr(inside), il.pad(x, grow), value)


@handler("Pad", since=2, attrs=_pad_rule)
def pad(
    data: Any,
    pads: Any = None,
    constant_value: Any = None,
    axes: Any = None,
    *,
    mode: str = "constant",
    pads_attr: Any = None,
    value_attr: Any = None,
) -> Any:
    """Pad (modes constant, reflect, edge, wrap); ``pads`` lists every start then every end,
    for ``axes`` (default all); negative pads remove elements."""
    if pads_attr is not None:
        amounts, value = tuple(pads_attr), value_attr
    else:
        amounts, value = ints(pads, "Pad", "the pads input"), constant_value
    which = None if axes is None else ints(axes, "Pad", "the axes input")
    x = arr(data)
    return pad_array(x, _pad_pairs(x, amounts, which), mode, value)


@handler("CenterCropPad", since=18)
def center_crop_pad(x: Any, shape: Any, *, axes: Any = None) -> Any:
    """Crop or zero-pad each of ``axes`` to ``shape`` around the centre (the extra element of
    an odd difference goes at the end)."""
    have = dims(x)
    want = ints(shape, "CenterCropPad", "the shape input")
    which = (
        range(len(have)) if axes is None else [axis_of(a, len(have), "CenterCropPad") for a in axes]
    )
    pairs = [[0, 0] for _ in have]
    for a, size in zip(which, want, strict=True):
        diff = size - have[a]
        pairs[a] = (
            [diff // 2, diff - diff // 2] if diff > 0 else [-(-diff // 2), diff + (-diff // 2)]
        )
    return pad_array(arr(x), pairs, "constant", 0)


# ---------------------------------------------------------------------------------------------
# Creating arrays


@handler("ConstantOfShape", since=9)
def constant_of_shape(shape: Any, *, value: Any = None) -> Any:
    """An array of ``shape`` filled with the one element of ``value`` (default float32 0)."""
    value = np.zeros(1, dtype=np.float32) if value is None else np.asarray(value)
    target = ints(shape, "ConstantOfShape", "the shape input")
    fill = value.reshape(-1)[0]
    dtype = value.dtype
    if known(shape):  # a known value: NumPy keeps every dtype (bfloat16 included)
        return np.full(target, fill, dtype=dtype)
    if dtype.name == "bfloat16":  # no NumPy scalar of it on every backend: through float32
        return il.astype(il.full(target, float(fill), dtype=il.float32), il.bfloat16)
    return il.full(target, fill.item(), dtype=il_dtype(dtype))


@handler("Range", since=11)
def range_(start: Any, limit: Any, delta: Any, *, stash_type: int = 1) -> Any:
    """``start, start + delta, ...`` up to ``limit`` (exclusive). The length depends on the
    values, so they must be known; float16/bfloat16 are computed in float32 (``stash_type``
    1, the default) or float64, then rounded once."""
    dtype = il.as_dtype(start.dtype)
    first, stop, step = (
        scalar(v, "Range", n) for v, n in ((start, "start"), (limit, "limit"), (delta, "delta"))
    )
    if il.isdtype(dtype, "integral"):
        first, stop, step = int(first), int(stop), int(step)
        count = max(-((first - stop) // step), 0)
        values: np.ndarray = first + np.arange(count, dtype=np.int64) * step
    else:
        count = max(math.ceil((stop - first) / step), 0)
        low = dtype in (il.float16, il.bfloat16)
        work = np.float64 if not low or stash_type == 11 else np.float32
        values = np.arange(count, dtype=work) * work(step) + work(first)
    if known(start, limit, delta):  # a known value: NumPy keeps every dtype
        return values.astype(np.asarray(start).dtype)
    if dtype == il.bfloat16:
        return il.astype(arr(values.astype(np.float32)), il.bfloat16)
    return arr(values.astype(str(dtype)))


def _constant_rule(node: Node) -> dict[str, Any]:
    a = node.attrs
    for bad in ("value_string", "value_strings", "sparse_value"):
        if bad in a:
            raise Refused(f"Constant with {bad}: only numeric dense tensors are arrays")
    if "value" in a:
        value = np.asarray(a["value"])
        if value.dtype.kind in "OSU":
            raise Refused("Constant of strings: strings are not arrays on every backend")
    elif "value_float" in a:
        value = np.asarray(a["value_float"], dtype=np.float32)
    elif "value_floats" in a:
        value = np.asarray(list(a["value_floats"]), dtype=np.float32)
    elif "value_int" in a:
        value = np.asarray(a["value_int"], dtype=np.int64)
    elif "value_ints" in a:
        value = np.asarray(list(a["value_ints"]), dtype=np.int64)
    else:
        raise Refused("Constant without a value")
    return {"value": value}


@handler("Constant", attrs=_constant_rule)
def constant(*, value: Any) -> Any:
    """The constant, a NumPy array (a value known at conversion)."""
    return value


def _eye_like_rule(node: Node) -> dict[str, Any]:
    kw = {"k": node.attr("k", 0), "dtype": node.attr("dtype")}
    if kw["dtype"] is not None and kw["dtype"] not in ONNX_DTYPES:
        raise Refused(f"EyeLike to ONNX data type {kw['dtype']}, which no backend has")
    return kw


@handler("EyeLike", since=9, attrs=_eye_like_rule)
def eye_like(x: Any, *, dtype: Any = None, k: int = 0) -> Any:
    """Ones on the ``k``-th diagonal of a 2-D array shaped like ``x`` (its dtype, or ``dtype``)."""
    n, m = dims(x)
    out = il_dtype(dtype if dtype is not None else il.as_dtype(x.dtype))
    return il.eye(n, m, k=k, dtype=out)


# ---------------------------------------------------------------------------------------------
# Moving blocks between depth and space


@handler("DepthToSpace")
def depth_to_space(x: Any, *, blocksize: int, mode: str = "DCR") -> Any:
    """Move ``blocksize`` x ``blocksize`` blocks of channels into space (NCHW); ``DCR`` reads
    the block index before the channel, ``CRD`` after it."""
    b, c, h, w = dims(x)
    s = blocksize
    if mode == "DCR":
        y = il.permute_dims(il.reshape(arr(x), (b, s, s, c // (s * s), h, w)), (0, 3, 4, 1, 5, 2))
    else:
        y = il.permute_dims(il.reshape(arr(x), (b, c // (s * s), s, s, h, w)), (0, 1, 4, 2, 5, 3))
    return il.reshape(y, (b, c // (s * s), h * s, w * s))


@handler("SpaceToDepth")
def space_to_depth(x: Any, *, blocksize: int, mode: str = "DCR") -> Any:
    """The inverse of DepthToSpace: ``blocksize`` x ``blocksize`` blocks of space into
    channels (NCHW); ``mode`` (opset 28) orders them as DepthToSpace does."""
    b, c, h, w = dims(x)
    s = blocksize
    y = il.reshape(arr(x), (b, c, h // s, s, w // s, s))
    order = (0, 3, 5, 1, 2, 4) if mode == "DCR" else (0, 1, 3, 5, 2, 4)
    return il.reshape(il.permute_dims(y, order), (b, c * s * s, h // s, w // s))

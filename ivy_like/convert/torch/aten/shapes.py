"""ATen ops -> ivy_like: views, reshapes, joins, splits, slices and padding
(``view``, ``cat``, ``pad``...).

Registered in the table of :mod:`.registry` by the ``@aten`` decorator.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

import ivy_like as il

from .registry import (
    _ALL,
    _axis,
    _native,
    _ndim,
    _shape_of,
    aten,
    broadcast_to,
    dim_size,
    dim_sizes,
    is_symbolic,
    reshape_to,
)


# -- shapes --------------------------------------------------------------------------------------
@aten("view.default", "_unsafe_view.default", "reshape.default", "view_copy.default")
def reshape(x: Any, shape: Any, known: Any = None) -> Any:
    """``known``: the output's sizes the capture knows (None for a dynamic one)."""
    return reshape_to(x, _shape_of(shape), known)


@aten("sym_size.int")
def sym_size(x: Any, dim: int) -> int:
    """A dimension captured as dynamic (``torch.export.Dim``): read from the array at run
    time, a Python int, or the framework's own dynamic size when the generated function is
    traced for every size at once (``ivy_like.export``)."""
    return dim_size(x, dim)


@aten("reshape_as.default", "view_as.default")
def reshape_as(x: Any, other: Any) -> Any:
    return il.reshape(x, tuple(other.shape))


@aten("permute.default")
def permute(x: Any, dims: Any) -> Any:
    return il.permute_dims(x, tuple(_axis(d, _ndim(x)) for d in dims))


@aten("transpose.int")
def transpose(x: Any, dim0: int, dim1: int) -> Any:
    n = _ndim(x)
    axes = list(range(n))
    a, b = _axis(dim0, n), _axis(dim1, n)
    axes[a], axes[b] = axes[b], axes[a]
    return il.permute_dims(x, tuple(axes))


@aten("t.default")
def t(x: Any) -> Any:
    return x if _ndim(x) < 2 else il.permute_dims(x, (1, 0))


@aten("unsqueeze.default")
def unsqueeze(x: Any, dim: int) -> Any:
    return il.expand_dims(x, axis=dim)


@aten("squeeze.default", "squeeze.dim", "squeeze.dims")
def squeeze(x: Any, dim: Any = None) -> Any:
    n = _ndim(x)
    dims = range(n) if dim is None else [dim] if isinstance(dim, int) else dim
    # torch leaves axes whose size is not 1 alone; the array API's squeeze would raise
    axes = tuple(a for a in (_axis(d, n) for d in dims) if x.shape[a] == 1)
    return il.squeeze(x, axis=axes) if axes else x


@aten("flatten.using_ints")
def flatten(x: Any, start_dim: int = 0, end_dim: int = -1) -> Any:
    n = _ndim(x)
    if n == 0:
        return il.reshape(x, (1,))
    s, e = _axis(start_dim, n), _axis(end_dim, n)
    shape = dim_sizes(x)
    merged = shape[s : e + 1]
    empty = any(isinstance(d, int) and d == 0 for d in shape)  # -1 beside a 0: ambiguous
    if s and not empty and all(isinstance(d, int) for d in merged):
        # the merged size as a number and axis 0 (the batch) as -1: a trace that holds the
        # batch as a number (MLX's shapeless export) then does not fix it
        return reshape_to(x, (-1, *shape[1:s], math.prod(merged), *shape[e + 1 :]))
    return reshape_to(x, (*shape[:s], -1, *shape[e + 1 :]))


@aten("unflatten.int")
def unflatten(x: Any, dim: int, sizes: Any) -> Any:
    shape = tuple(x.shape)
    d = _axis(dim, len(shape))
    return il.reshape(x, (*shape[:d], *_shape_of(sizes), *shape[d + 1 :]))


@aten("expand.default")
def expand(x: Any, size: Any, *, implicit: bool = False) -> Any:
    shape = dim_sizes(x)
    lead = len(size) - len(shape)
    target = tuple(
        shape[i - lead] if isinstance(s, int) and s == -1 else _shape_of((s,))[0]
        for i, s in enumerate(size)
    )
    return broadcast_to(x, target)


@aten("repeat.default")
def repeat(x: Any, repeats: Any) -> Any:
    return il.tile(x, tuple(int(r) for r in repeats))


@aten("cat.default", promote=(0,))
def cat(tensors: Any, dim: int = 0) -> Any:
    # torch.cat skips 1-D empty tensors (a legacy rule); the array API has none
    kept = [t for t in tensors if not (_ndim(t) == 1 and t.shape[0] == 0)]
    return il.concat(kept, axis=dim)


@aten("stack.default", promote=(0,))
def stack(tensors: Any, dim: int = 0) -> Any:
    return il.stack(list(tensors), axis=dim)


def _slice_along(x: Any, dim: int, s: slice) -> Any:
    # the axes before ``dim`` as an Ellipsis: torch writes a full slice over a dynamic size as
    # a slice node in an exported graph (it cannot prove it whole), over a static size nothing
    n = _ndim(x)
    d = _axis(dim, n)
    return x[(..., s) + (slice(None),) * (n - d - 1)] if d else x[(s,)]


@aten("slice.Tensor")
def slice_(x: Any, dim: int = 0, start: Any = None, end: Any = None, step: int = 1) -> Any:
    size = x.shape[_axis(dim, _ndim(x))]
    if size is None or is_symbolic(size):  # a dynamic size: comparing it would fix it
        if isinstance(end, int) and end >= 1 << 62:
            end = None  # ATen's "to the end"
        return _slice_along(x, dim, slice(start, end, step))
    # ATen writes "to the end" as 2**63 - 1, which some frameworks cannot take as an index
    if end is not None and end > size:
        end = size
    if start is not None and start > size:
        start = size
    return _slice_along(x, dim, slice(start, end, step))


@aten("select.int")
def select(x: Any, dim: int, index: int) -> Any:
    n = _ndim(x)
    d = _axis(dim, n)  # an Ellipsis before it, as in _slice_along
    return x[(..., index) + (slice(None),) * (n - d - 1)] if d else x[(index,)]


def _scatter_along(x: Any, src: Any, dim: int, picked: range) -> Any:
    """``x`` with the positions ``picked`` along ``dim`` replaced by ``src`` (a functionalized
    ``x[..., a:b:c] = src``): the runs of ``x`` and of ``src`` concatenated in order (three
    pieces for a step of 1), which differentiates on every backend."""
    d = _axis(dim, _ndim(x))
    size = int(x.shape[d])
    if not picked:
        return x
    if list(picked) == list(range(size)):
        return src
    source = [("x", i) for i in range(size)]
    for k, i in enumerate(picked):
        source[i] = ("src", k)
    pieces, run_start = [], 0
    for i in range(1, size + 1):  # close a run where the source or the contiguity changes
        if i < size and source[i][0] == source[i - 1][0] and source[i][1] == source[i - 1][1] + 1:
            continue
        kind, first = source[run_start]
        whole = x if kind == "x" else src
        pieces.append(_slice_along(whole, d, slice(first, first + i - run_start)))
        run_start = i
    return pieces[0] if len(pieces) == 1 else il.concat(pieces, axis=d)


@aten("slice_scatter.default", promote=_ALL)
def slice_scatter(
    x: Any, src: Any, dim: int = 0, start: Any = None, end: Any = None, step: int = 1
) -> Any:
    size = int(x.shape[_axis(dim, _ndim(x))])
    return _scatter_along(x, src, dim, range(size)[slice(start, end, step)])


@aten("select_scatter.default", promote=_ALL)
def select_scatter(x: Any, src: Any, dim: int, index: int) -> Any:
    d = _axis(dim, _ndim(x))
    size = int(x.shape[d])
    i = index + size if index < 0 else index
    return _scatter_along(x, il.expand_dims(src, axis=d), d, range(i, i + 1))


@aten("narrow.default")
def narrow(x: Any, dim: int, start: int, length: int) -> Any:
    if start < 0:
        start += x.shape[_axis(dim, _ndim(x))]
    return _slice_along(x, dim, slice(start, start + length))


def _split_at(x: Any, sizes: Sequence[int], dim: int) -> list[Any]:
    out, start = [], 0
    for s in sizes:
        out.append(_slice_along(x, dim, slice(start, start + s)))
        start += s
    return out


@aten("split.Tensor")
def split(x: Any, split_size: int, dim: int = 0) -> Any:
    n = x.shape[_axis(dim, _ndim(x))]
    sizes = [min(split_size, n - s) for s in range(0, n, split_size)] or [0]
    return _split_at(x, sizes, dim)


@aten("split_with_sizes.default")
def split_with_sizes(x: Any, split_sizes: Any, dim: int = 0) -> Any:
    return _split_at(x, [int(s) for s in split_sizes], dim)


@aten("chunk.default")
def chunk(x: Any, chunks: int, dim: int = 0) -> Any:
    n = x.shape[_axis(dim, _ndim(x))]
    return split(x, -(-n // chunks) if n else 1, dim)


@aten("unbind.int")
def unbind(x: Any, dim: int = 0) -> Any:
    return list(il.unstack(x, axis=dim))


@aten("diagonal.default")
def diagonal(x: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Any:
    """The diagonal of the ``(dim1, dim2)`` planes, on a new last axis (torch's layout): one
    ``take`` from the two axes flattened, at positions fixed by the shape."""
    n = _ndim(x)
    a, b = _axis(dim1, n), _axis(dim2, n)
    rest = [i for i in range(n) if i not in (a, b)]
    moved = il.permute_dims(x, (*rest, a, b))
    rows, cols = int(x.shape[a]), int(x.shape[b])
    length = max(0, min(rows - max(-offset, 0), cols - max(offset, 0)))
    i = np.arange(length)
    positions = (i + max(-offset, 0)) * cols + i + max(offset, 0)
    flat = il.reshape(moved, (*[int(x.shape[r]) for r in rest], rows * cols))
    return il.take(flat, _native(il.asarray(positions.astype(np.int32))), axis=len(rest))


@aten("unfold.default")
def unfold(x: Any, dimension: int, size: int, step: int) -> Any:
    """``x.unfold``: the windows of ``size`` every ``step`` along ``dimension``, which then
    counts the windows, each window on a new last axis."""
    d = _axis(dimension, _ndim(x))
    count = (int(x.shape[d]) - size) // step + 1
    windows = il.stack(
        [_slice_along(x, d, slice(i * step, i * step + size)) for i in range(count)], axis=d
    )
    n = _ndim(windows)
    return il.permute_dims(windows, (*range(d + 1), *range(d + 2, n), d + 1))


@aten("flip.default")
def flip(x: Any, dims: Any) -> Any:
    return il.flip(x, axis=tuple(dims))


@aten("roll.default")
def roll(x: Any, shifts: Any, dims: Any = ()) -> Any:
    if not len(dims):
        return il.reshape(il.roll(il.reshape(x, (-1,)), tuple(shifts)), tuple(x.shape))
    return il.roll(x, tuple(shifts), axis=tuple(dims))


_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": ""}


def _check_pad(x: Any, pad: Any, mode: str = "constant", value: Any = None) -> str | None:
    if mode not in _PAD_MODES:
        return f"mode={mode!r}; only {', '.join(map(repr, _PAD_MODES))} padding"
    if len(pad) % 2 or len(pad) // 2 > len(x.shape):
        return f"pad={list(pad)} does not match the input's {len(x.shape)} axes"
    if mode == "circular":
        n = len(x.shape)
        for i, w in enumerate(pad):
            if not 0 <= int(w) <= x.shape[n - 1 - i // 2]:
                return f"circular pad={list(pad)}: widths from 0 to the axis size only"
    return None


def _wrap(x: Any, widths: Sequence[tuple[int, int]]) -> Any:
    """Circular padding: each axis extended by its own other end."""
    for axis, (lo, hi) in enumerate(widths):
        if lo or hi:
            n = int(x.shape[axis])
            parts = [_slice_along(x, axis, slice(n - lo, n))] if lo else []
            parts.append(x)
            if hi:
                parts.append(_slice_along(x, axis, slice(0, hi)))
            x = il.concat(parts, axis=axis)
    return x


def _pad(x: Any, pad: Sequence[int], mode: str, value: Any) -> Any:
    """torch's pad list (last axis first, ``(lo, hi)`` pairs, negative widths crop) as
    ``ivy_like.pad`` (NumPy's ``pad_width``, one pair per axis)."""
    n = _ndim(x)
    widths = [(0, 0)] * n
    for i in range(len(pad) // 2):
        axis = n - 1 - i
        lo, hi = int(pad[2 * i]), int(pad[2 * i + 1])
        if lo < 0 or hi < 0:
            x = _slice_along(x, axis, slice(max(-lo, 0), x.shape[axis] - max(-hi, 0)))
        widths[axis] = (max(lo, 0), max(hi, 0))
    if not any(lo or hi for lo, hi in widths):
        return x
    if mode == "constant":
        return il.pad(x, tuple(widths), constant_values=value)
    if mode == "circular":
        return _wrap(x, widths)
    return il.pad(x, tuple(widths), mode=_PAD_MODES[mode])


@aten("constant_pad_nd.default", check=_check_pad)
def constant_pad_nd(x: Any, pad: Any, value: Any = 0) -> Any:
    return _pad(x, pad, "constant", value)


@aten("pad.default", check=_check_pad)
def pad(x: Any, pad: Any, mode: str = "constant", value: Any = None) -> Any:
    return _pad(x, pad, mode, 0 if value is None else value)


@aten("reflection_pad1d.default", "reflection_pad2d.default", check=_check_pad)
def reflection_pad(x: Any, padding: Any) -> Any:
    return _pad(x, padding, "reflect", 0)


@aten("replication_pad1d.default", "replication_pad2d.default", check=_check_pad)
def replication_pad(x: Any, padding: Any) -> Any:
    return _pad(x, padding, "replicate", 0)

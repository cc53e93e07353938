"""ONNX's spatial-transformer operators: ``AffineGrid`` (the sampling grid of a batch of
affine maps) and ``GridSample`` (sample an image at the grid's points: nearest, N-linear or
N-cubic interpolation, with zeros, border or reflection padding).

GridSample works for any number of spatial dimensions: every point's coordinates are
un-normalised, the taps around it (2 per axis for linear, 4 for cubic, 1 for nearest) are
read with one ``take_along_axis`` each from the flattened image, and weighted. The result is
differentiable in the image and in the grid (through the interpolation weights).
Registered by ``attention.py``, which imports this module.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

import ivy_like as il

from .._table import Node, Refused, ints, onnx_op

_CUBIC_A = -0.75  # Keys' cubic convolution coefficient, as ONNX (and PyTorch) use


def _arr(x: Any) -> Any:
    return il.asarray(x) if isinstance(x, np.ndarray) else x


def _base_coords(n: int, align_corners: bool) -> np.ndarray:
    """The n normalised pixel positions along one axis, in [-1, 1]."""
    if align_corners:
        return np.linspace(-1.0, 1.0, n) if n > 1 else np.zeros(1)
    return (2.0 * np.arange(n) + 1.0) / n - 1.0


@onnx_op("AffineGrid", since=20)
def affine_grid(theta: Any, size: Any, align_corners: int = 0) -> Any:
    """ONNX AffineGrid: the (N, H, W, 2) or (N, D, H, W, 3) grid ``theta @ [x, y(, z), 1]``
    over the output's pixels; ``size`` (N, C, H, W) or (N, C, D, H, W) must be known."""
    spatial = ints(size, "AffineGrid", "size")[2:]
    theta = _arr(theta)
    # The homogeneous coordinates of every output pixel, x (the last axis) first.
    axes = [_base_coords(n, bool(align_corners)) for n in spatial]
    mesh = np.meshgrid(*axes, indexing="ij")
    points = [m.reshape(-1) for m in reversed(mesh)] + [np.ones(int(np.prod(spatial)))]
    base = il.asarray(np.stack(points, axis=-1), dtype=theta.dtype)  # (P, r + 1)
    grid = il.matmul(base, il.permute_dims(theta, (0, 2, 1)))  # (N, P, r)
    return il.reshape(grid, (int(theta.shape[0]), *spatial, len(spatial)))


def _grid_rule(node: Node) -> dict[str, Any]:
    mode = node.attr("mode", "bilinear" if node.opset < 20 else "linear")
    mode = {"bilinear": "linear", "bicubic": "cubic"}.get(mode, mode)
    if mode not in ("linear", "nearest", "cubic"):
        raise Refused(f"GridSample: unknown mode {mode!r}")
    padding = node.attr("padding_mode", "zeros")
    if padding not in ("zeros", "border", "reflection"):
        raise Refused(f"GridSample: unknown padding_mode {padding!r}")
    return {
        "mode": mode,
        "padding_mode": padding,
        "align_corners": bool(node.attr("align_corners", 0)),
    }


def _reflect(x: Any, lo: float, hi: float) -> Any:
    """Reflect ``x`` at the borders ``lo`` and ``hi`` until it lies between them."""
    span = hi - lo
    if span <= 0:
        return il.zeros_like(x) + lo
    below = x < lo
    dist = il.where(below, lo - x, x - hi)
    flips = il.floor(dist / span)
    rest = dist - flips * span
    even = il.remainder(flips, 2.0) == 0
    from_lo, from_hi = lo + rest, hi - rest
    inside = il.logical_and(x >= lo, x <= hi)
    reflected = il.where(below, il.where(even, from_lo, from_hi), il.where(even, from_hi, from_lo))
    return il.where(inside, x, reflected)


def _cubic_weights(t: Any) -> list[Any]:
    """Keys' cubic weights of the taps at -1, 0, 1, 2 for a fraction ``t`` in [0, 1)."""
    a = _CUBIC_A

    def far(d: Any) -> Any:  # 1 <= d < 2
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a

    def near(d: Any) -> Any:  # 0 <= d < 1
        return ((a + 2) * d - (a + 3)) * d * d + 1

    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


@onnx_op("GridSample", since=16, attrs=_grid_rule)
def grid_sample(
    X: Any,
    grid: Any,
    *,
    mode: str = "linear",
    padding_mode: str = "zeros",
    align_corners: bool = False,
) -> Any:
    """ONNX GridSample: ``Y[n, c, p] = X[n, c]`` interpolated at ``grid[n, p]`` (normalised
    coordinates, the last axis first)."""
    X, grid = _arr(X), _arr(grid)
    out_dtype = X.dtype
    floating = il.isdtype(out_dtype, "real floating")
    work = out_dtype if floating else il.float32
    x = X if floating else il.astype(X, work)
    n, c, *dims = (int(d) for d in X.shape)
    out_spatial = tuple(int(d) for d in grid.shape[1:-1])
    r, points = len(dims), int(np.prod(out_spatial))
    g = il.astype(il.reshape(grid, (n, points, r)), work)
    flat = il.reshape(x, (n, c, int(np.prod(dims))))

    # Per spatial axis: the un-normalised coordinate, moved inside by border/reflection.
    coords = []
    for i, d in enumerate(dims):
        v = g[..., r - 1 - i]
        v = (v + 1) * 0.5 * (d - 1) if align_corners else ((v + 1) * d - 1) * 0.5
        if mode == "nearest":
            v = il.round(v)  # half to even
        lo, hi = (0.0, d - 1.0) if align_corners else (-0.5, d - 0.5)
        if padding_mode == "border":
            outside = il.logical_or(v < lo, v > hi)
            v = il.where(outside, il.clip(v, 0.0, d - 1.0), v)
        elif padding_mode == "reflection":
            v = _reflect(v, lo, hi)
        coords.append((v, d, lo, hi))

    # Per axis: the taps' integer positions and weights.
    taps: list[list[tuple[Any, Any]]] = []
    for v, *_ in coords:
        if mode == "nearest":
            taps.append([(il.astype(v, il.int32), None)])
            continue
        base = il.floor(v)
        t = v - base
        start = il.astype(base, il.int32)
        if mode == "linear":
            weights, offsets = [1 - t, t], [0, 1]
        else:
            weights, offsets = _cubic_weights(t), [-1, 0, 1, 2]
        taps.append([(start + o, w) for o, w in zip(offsets, weights)])

    # Every combination of one tap per axis: read it (with the padding rule) and weight it.
    strides = [int(np.prod(dims[i + 1 :])) for i in range(r)]
    total = None
    for combo in itertools.product(*taps):
        index, weight, valid = None, None, None
        for (idx, w), (_, d, lo, hi), stride in zip(combo, coords, strides):
            if padding_mode == "zeros":
                ok = il.logical_and(idx >= 0, idx < d)
                valid = ok if valid is None else il.logical_and(valid, ok)
                idx = il.clip(idx, 0, d - 1)
            elif padding_mode == "border":
                idx = il.clip(idx, 0, d - 1)
            else:
                idx = il.astype(_reflect(il.astype(idx, work), lo, hi), il.int32)
                idx = il.clip(idx, 0, d - 1)
            index = idx * stride if index is None else index + idx * stride
            if w is not None:
                weight = w if weight is None else weight * w
        index = il.broadcast_to(il.expand_dims(index, axis=1), (n, c, points))
        value = il.take_along_axis(flat, index, axis=2)
        if valid is not None:
            value = il.where(il.expand_dims(valid, axis=1), value, il.zeros_like(value))
        if weight is not None:
            value = value * il.expand_dims(weight, axis=1)
        total = value if total is None else total + value
    Y = il.reshape(total, (n, c, *out_spatial))
    return Y if floating else il.astype(Y, out_dtype)

"""ONNX resizing -> ivy_like: ``Resize`` (opsets 10 to 19) and ``Upsample`` (7 and 9).

Resizing is separable: each resized axis is mapped on its own. The output size, each output
position's source coordinate (``coordinate_transformation_mode``) and the interpolation
weights come from the shapes and the known ``scales``/``sizes``/``roi`` inputs alone, so they
are computed with NumPy in float64 (as ONNX's reference does): ``nearest`` is one ``take``
per axis, ``linear`` and ``cubic`` (antialiased or not) one product by an (out, in) weight
matrix per axis, which is exact to the dtype's rounding and differentiable on every backend.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

import ivy_like as il

from .._table import Node, Refused, floats, has_dtype, index_dtype, ints, onnx_op
from .nn import lift, shape_of

_MODES = ("nearest", "linear", "cubic")
_TRANSFORMS = (
    "half_pixel",
    "half_pixel_symmetric",  # opset 19
    "pytorch_half_pixel",
    "align_corners",
    "asymmetric",
    "tf_crop_and_resize",
)
_ROUNDINGS = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")
_POLICIES = ("stretch", "not_larger", "not_smaller")


def _choice(node: Node, name: str, default: str, allowed: Sequence[str]) -> str:
    value = str(node.attr(name, default))
    if value not in allowed:
        raise Refused(f"{node.op_type}: {name}={value!r}; one of {tuple(allowed)}")
    return value


def _check_dtype(node: Node, mode: str) -> None:
    dtype = node.ins[0].dtype if node.ins and node.ins[0] is not None else None
    if mode != "nearest" and dtype is not None and dtype == np.bool_:
        raise Refused(f"{node.op_type}: {mode} interpolation of booleans")


def _resize_attrs(node: Node) -> dict[str, Any]:
    mode = _choice(node, "mode", "nearest", _MODES)
    _check_dtype(node, mode)
    if node.opset < 11:  # Resize-10: (X, scales), asymmetric coordinates, Upsample's rounding
        if mode == "cubic":
            raise Refused("Resize: mode='cubic' before opset 11")
        return {"mode": mode, "transform": "asymmetric", "rounding": "simple", "legacy": True}
    transforms = (
        _TRANSFORMS
        if node.opset >= 19
        else tuple(t for t in _TRANSFORMS if t != "half_pixel_symmetric")
    )
    axes = node.attr("axes")
    return {
        "mode": mode,
        "transform": _choice(node, "coordinate_transformation_mode", "half_pixel", transforms),
        "rounding": _choice(node, "nearest_mode", "round_prefer_floor", _ROUNDINGS),
        "cubic_coeff_a": float(node.attr("cubic_coeff_a", -0.75)),
        "exclude_outside": bool(node.attr("exclude_outside", 0)),
        "extrapolation_value": float(node.attr("extrapolation_value", 0.0)),
        "antialias": bool(node.attr("antialias", 0)) and mode != "nearest",
        "axes": None if axes is None else tuple(int(a) for a in axes),
        "policy": _choice(node, "keep_aspect_ratio_policy", "stretch", _POLICIES),
    }


def _given(v: Any) -> bool:
    """An optional input that is there and not empty (opset 11 passes an empty ``scales``
    beside ``sizes``)."""
    return v is not None and int(np.prod(v.shape)) > 0


@onnx_op("Resize", since=10, attrs=_resize_attrs)
def resize(
    x: Any,
    roi: Any = None,
    scales: Any = None,
    sizes: Any = None,
    *,
    mode: str = "nearest",
    transform: str = "half_pixel",
    rounding: str = "round_prefer_floor",
    cubic_coeff_a: float = -0.75,
    exclude_outside: bool = False,
    extrapolation_value: float = 0.0,
    antialias: bool = False,
    axes: Any = None,
    policy: str = "stretch",
    legacy: bool = False,
) -> Any:
    """ONNX Resize (see the module's docstring): ``scales`` or ``sizes`` (known), over
    ``axes`` (default all), ``roi`` for ``tf_crop_and_resize``."""
    x = lift(x)
    if legacy:  # Resize-10's second input is the scales
        roi, scales, sizes = None, roi, None
    shape = shape_of(x)
    rank = len(shape)
    axes = tuple(range(rank)) if axes is None else tuple(a % rank for a in axes)
    plan: Sequence[tuple[int, float, int | None]]  # (axis, scale, output size where given)
    if _given(sizes):
        given = ints(sizes, "Resize", "sizes")
        plan = _plan_sizes(shape, axes, given, policy)
    elif _given(scales):
        factors = floats(scales, "Resize", "scales")
        plan = [(a, float(s), None) for a, s in zip(axes, factors)]
    else:
        raise ValueError("Resize: give scales or sizes")
    boxes = {a: (0.0, 1.0) for a in axes}
    if transform == "tf_crop_and_resize" and _given(roi):
        values = floats(roi, "Resize", "roi")
        half = len(values) // 2
        boxes = {a: (values[i], values[half + i]) for i, a in enumerate(axes)}
    return _resize(
        x,
        plan,
        boxes,
        mode,
        transform,
        rounding,
        cubic_coeff_a,
        exclude_outside,
        extrapolation_value,
        antialias,
    )


def _plan_sizes(
    shape: Sequence[int], axes: Sequence[int], sizes: Sequence[int], policy: str
) -> list[tuple[int, float, int]]:
    """``(axis, scale, output size)`` from ``sizes``; ``not_larger``/``not_smaller`` keep the
    aspect ratio with one scale (the least/greatest), the sizes rounded half up."""
    if policy == "stretch":
        return [(a, n / shape[a], n) for a, n in zip(axes, sizes)]
    ratios = [n / shape[a] for a, n in zip(axes, sizes)]
    scale = min(ratios) if policy == "not_larger" else max(ratios)
    return [(a, scale, int(scale * shape[a] + 0.5)) for a in axes]


def _resize(
    x: Any,
    plan: Sequence[tuple[int, float, int | None]],
    boxes: dict[int, tuple[float, float]],
    mode: str,
    transform: str,
    rounding: str,
    a: float,
    exclude_outside: bool,
    extrapolation_value: float,
    antialias: bool,
) -> Any:
    shape = shape_of(x)
    out_dtype = x.dtype
    outside = None  # tf_crop_and_resize: the output positions mapped outside the input
    work = x
    if mode != "nearest" and x.dtype not in (il.float32, il.float64):
        # interpolate in a wider float, rounded back at the end (float64 where the backend
        # has it: an integer result then rounds as ONNX's reference, computed in float64)
        wide = (
            il.float64 if has_dtype("float64") and il.isdtype(x.dtype, "integral") else il.float32
        )
        work = il.astype(x, wide)
    for axis, scale, n_out in plan:
        n_in = shape[axis]
        start, end = boxes.get(axis, (0.0, 1.0))
        if n_out is None:  # from a scale: floored (the roi's part of the axis with a crop)
            part = end - start if transform == "tf_crop_and_resize" else 1.0
            n_out = int(math.floor(n_in * part * scale))
        crop = transform == "tf_crop_and_resize" and (start, end) != (0.0, 1.0)
        if math.isclose(scale, 1.0) and n_out == n_in and not crop:
            continue
        mapping, mask = _axis_map(
            n_in,
            n_out,
            scale,
            (start, end),
            mode,
            transform,
            rounding,
            a,
            antialias,
            exclude_outside,
        )
        if mask is not None:
            view = [1] * len(shape)
            view[axis] = n_out
            outside = mask.reshape(view) if outside is None else outside | mask.reshape(view)
        if mode == "nearest":
            work = il.take(work, il.asarray(mapping, dtype=index_dtype()), axis=axis)
        else:
            work = _along(work, axis, il.asarray(mapping, dtype=work.dtype))
    if outside is not None:
        fill = il.asarray(np.array(extrapolation_value), dtype=work.dtype)
        work = il.where(il.asarray(outside), fill, work)
    if work.dtype != out_dtype:
        if il.isdtype(out_dtype, "integral"):  # ONNX rounds and saturates into an integer type
            info = il.iinfo(out_dtype)
            work = il.clip(il.round(work), float(info.min), float(info.max))
        work = il.astype(work, out_dtype)
    return work


@functools.lru_cache(maxsize=256)
def _axis_map(
    n_in: int,
    n_out: int,
    scale: float,
    box: tuple[float, float],
    mode: str,
    transform: str,
    rounding: str,
    a: float,
    antialias: bool,
    exclude_outside: bool,
) -> tuple[np.ndarray, np.ndarray | None]:
    """One axis's map (cached: a model resizes by the same few geometries on every call):
    the input index of each output (nearest) or the (in, out) weight matrix, and for
    ``tf_crop_and_resize`` the outputs mapped outside the input (None if none is)."""
    src = _source(transform, n_in, n_out, scale, box)
    mask = None
    if transform == "tf_crop_and_resize":
        mask = (src < 0) | (src > n_in - 1)
        mask = mask if mask.any() else None
    if mode == "nearest":
        mapping = _nearest(src, n_in, rounding, scale)
    else:
        mapping = np.ascontiguousarray(
            _weights(src, n_in, mode, a, antialias, scale, exclude_outside).T
        )
    return mapping, mask  # cached and shared: the callers only read them


def _along(x: Any, axis: int, matrix_t: Any) -> Any:
    """``x`` with ``axis`` mapped by the (in, out) matrix: one product over that axis."""
    last = len(x.shape) - 1
    if axis == last:
        return il.matmul(x, matrix_t)
    return il.moveaxis(il.matmul(il.moveaxis(x, axis, -1), matrix_t), -1, axis)


def _source(
    transform: str, n_in: int, n_out: int, scale: float, box: tuple[float, float]
) -> np.ndarray:
    """The input coordinate of each output position (float64), by ONNX's
    ``coordinate_transformation_mode``. As ONNX's reference, the output length in the
    formulas is ``scale * n_in``, a fraction when a scale does not divide evenly."""
    y = np.arange(n_out, dtype=np.float64)
    length = scale * n_in
    if transform == "half_pixel":
        return (y + 0.5) / scale - 0.5
    if transform == "half_pixel_symmetric":
        offset = n_in / 2 * (1 - n_out / length)
        return offset + (y + 0.5) / scale - 0.5
    if transform == "pytorch_half_pixel":
        return np.full(n_out, -0.5) if length == 1 else (y + 0.5) / scale - 0.5
    if transform == "align_corners":
        return np.zeros(n_out) if length == 1 else y * (n_in - 1) / (length - 1)
    if transform == "asymmetric":
        return y / scale
    start, end = box  # tf_crop_and_resize
    if length == 1:
        return np.full(n_out, (end - start) * (n_in - 1) / 2 + start * (n_in - 1))
    return y * (end - start) * (n_in - 1) / (length - 1) + start * (n_in - 1)


def _nearest(src: np.ndarray, n_in: int, rounding: str, scale: float) -> np.ndarray:
    """The input index of each output position, by ``nearest_mode`` (``"simple"``: Resize-10
    and Upsample, floor when enlarging and ceil when shrinking), kept in the input."""
    low = np.floor(src)
    frac = src - low
    if rounding == "simple":
        rounding = "floor" if scale >= 1 else "ceil"
    if rounding == "round_prefer_floor":
        index = np.where(frac <= 0.5, low, low + 1)
    elif rounding == "round_prefer_ceil":
        index = np.where(frac < 0.5, low, low + 1)
    elif rounding == "floor":
        index = low
    else:
        index = np.where(frac == 0, low, low + 1)
    return np.clip(index, 0, n_in - 1).astype(np.int64)


def _kernel(mode: str, t: np.ndarray, a: float) -> np.ndarray:
    """The linear (tent) or cubic (Keys, coefficient ``a``) kernel at distances ``t``."""
    t = np.abs(t)
    if mode == "linear":
        return np.clip(1 - t, 0, 1)
    near = ((a + 2) * t - (a + 3)) * t * t + 1
    far = ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    return np.where(t <= 1, near, np.where(t < 2, far, 0.0))


def _weights(
    src: np.ndarray,
    n_in: int,
    mode: str,
    a: float,
    antialias: bool,
    scale: float,
    exclude_outside: bool,
) -> np.ndarray:
    """The (out, in) interpolation matrix of one axis. Each output reads the ``taps`` inputs
    nearest its source coordinate (the lower ones on a tie); an antialiased shrink
    stretches the kernel by ``1/scale`` (more taps) and normalizes its weights; taps past an
    edge read the edge, or with ``exclude_outside`` get no weight (the rest renormalized)."""
    stretch = min(scale, 1.0) if antialias else 1.0
    reach = 1 if mode == "linear" else 2
    taps = 2 - 2 * (math.floor(-reach / stretch) + 1)
    low = np.floor(src)
    first = low - taps // 2 + np.where(src == low, 0, 1)
    index = first[:, None] + np.arange(taps)[None, :]
    w = _kernel(mode, (index - src[:, None]) * stretch, a)
    if antialias:
        w = w / w.sum(axis=1, keepdims=True)
    if exclude_outside:
        w = np.where((index < 0) | (index > n_in - 1), 0.0, w)
        total = w.sum(axis=1, keepdims=True)
        w = w / np.where(total == 0, 1.0, total)
    matrix = np.zeros((len(src), n_in))
    rows = np.repeat(np.arange(len(src)), taps)
    np.add.at(
        matrix, (rows, np.clip(index, 0, n_in - 1).astype(np.int64).reshape(-1)), w.reshape(-1)
    )
    return matrix


def _upsample_attrs(node: Node) -> dict[str, Any]:
    mode = str(node.attr("mode", "nearest"))
    if mode == "bilinear":  # the name before opset 7
        mode = "linear"
    if mode not in ("nearest", "linear"):
        raise Refused(f"Upsample: mode={mode!r}; 'nearest' or 'linear'")
    _check_dtype(node, mode)
    scales = node.attr("scales")  # an attribute before opset 9, an input from it
    return {"mode": mode, "scales_attr": None if scales is None else tuple(scales)}


@onnx_op("Upsample", since=7, attrs=_upsample_attrs)
def upsample(x: Any, scales: Any = None, *, mode: str = "nearest", scales_attr: Any = None) -> Any:
    """ONNX Upsample: sizes ``floor(n * scale)``, asymmetric coordinates, nearest taking the
    floor (as Resize-10)."""
    x = lift(x)
    factors = scales_attr if scales_attr is not None else floats(scales, "Upsample", "scales")
    plan = [(a, float(s), None) for a, s in enumerate(factors)]
    return _resize(x, plan, {}, mode, "asymmetric", "simple", -0.75, False, 0.0, False)

"""ATen ops -> ivy_like: convolutions, pooling and resizing
(``convolution``, ``conv3d``, ``max_pool2d``, ``upsample_*``).

Registered in the table of :mod:`.registry` by the ``@aten`` decorator.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

import ivy_like as il

from ....ops.nn.resize import linear_resize_matrix, nearest_resize_indices
from ..._conv3d import conv3d as _conv3d
from ..._errors import UnsupportedOpError
from .registry import _native, _ndim, aten


# -- convolution and pooling -------------------------------------------------------------------
def _single(v: Any) -> Any:
    return v[0] if isinstance(v, (list, tuple)) and len(v) == 1 else v


def _pair(v: Any) -> Any:
    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple)):
        return v[0] if len(v) == 1 else tuple(int(i) for i in v)
    return int(v)


def _convolution(op: Any, unpack: Any) -> Any:
    """ATen's ``conv1d``/``conv2d``: ``op`` with the geometry in the form ivy_like's takes."""

    def conv(
        x: Any,
        weight: Any,
        bias: Any = None,
        stride: Any = 1,
        padding: Any = 0,
        dilation: Any = 1,
        groups: int = 1,
    ) -> Any:
        return op(
            x,
            weight,
            bias,
            stride=unpack(stride),
            padding=unpack(padding),
            dilation=unpack(dilation),
            groups=groups,
        )

    return conv


conv2d = aten("conv2d.default", "conv2d.padding")(_convolution(il.nn.conv2d, _pair))
conv1d = aten("conv1d.default", "conv1d.padding")(_convolution(il.nn.conv1d, _single))


def _check_convolution(
    x: Any,
    weight: Any,
    bias: Any,
    stride: Any,
    padding: Any,
    dilation: Any,
    transposed: bool,
    *_: Any,
    **__: Any,
) -> str | None:
    n = len(x.shape) - 2
    if transposed and n not in (1, 2):
        return f"{n}-d transposed convolution; 1-d and 2-d only"
    if n not in (1, 2, 3):
        return f"{n}-d convolution; 1-d, 2-d and 3-d only"
    return None


def _per_axis(v: Any, n: int) -> tuple[int, ...]:
    if isinstance(v, (list, tuple)):
        return tuple(int(i) for i in v) * (n if len(v) == 1 else 1)
    return (int(v),) * n


def _conv_pads(padding: Any, kernel: tuple[int, ...], dilation: tuple[int, ...]) -> Any:
    """ATen's ``padding`` of an n-d convolution as per-axis ``(lo, hi)`` pairs: ``"valid"`` is
    none, ``"same"`` the dilated kernel's extent less one, the odd one at the end (torch's)."""
    if padding == "valid":
        return tuple((0, 0) for _ in kernel)
    if padding == "same":
        total = [d * (k - 1) for k, d in zip(kernel, dilation)]
        return tuple((t // 2, t - t // 2) for t in total)
    return tuple((p, p) for p in _per_axis(padding, len(kernel)))


@aten("conv3d.default", "conv3d.padding")
def conv3d(
    x: Any,
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Any:
    """ATen's ``conv3d`` (NCDHW, or CDHW unbatched; OIDHW weights): ivy_like has no 3-d
    convolution, so the composite of ``convert/_conv3d.py``, one ``conv2d`` over the input's
    depth windows (the same sums of products; differentiable on every backend)."""
    unbatched = _ndim(x) == 4
    if unbatched:
        x = il.expand_dims(x, axis=0)
    dilation = _per_axis(dilation, 3)
    pads = _conv_pads(padding, tuple(int(k) for k in weight.shape[2:]), dilation)
    out = _conv3d(x, weight, bias, _per_axis(stride, 3), pads, dilation, int(groups))
    return il.squeeze(out, axis=0) if unbatched else out


def _check_conv_transpose(x: Any, weight: Any, *rest: Any) -> str | None:
    if len(x.shape) - 2 not in (1, 2):
        return f"a {len(x.shape)}-D input; batched 1-d and 2-d transposed convolutions only"
    return None


@aten("conv_transpose1d.default", "conv_transpose2d.input", check=_check_conv_transpose)
def conv_transpose(
    x: Any,
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
) -> Any:
    """``ivy_like.nn.conv_transpose2d``; a 1-d one as a 2-d one over a unit height axis."""
    n = _ndim(x) - 2
    stride, padding = _per_axis(stride, n), _per_axis(padding, n)
    output_padding, dilation = _per_axis(output_padding, n), _per_axis(dilation, n)
    if n == 2:
        return il.nn.conv_transpose2d(
            x, weight, bias, stride, padding, output_padding, int(groups), dilation
        )
    out = il.nn.conv_transpose2d(
        il.expand_dims(x, axis=2),
        il.expand_dims(weight, axis=2),
        bias,
        (1, stride[0]),
        (0, padding[0]),
        (0, output_padding[0]),
        int(groups),
        (1, dilation[0]),
    )
    return il.squeeze(out, axis=2)


@aten("convolution.default", check=_check_convolution)
def convolution(
    x: Any,
    weight: Any,
    bias: Any,
    stride: Any,
    padding: Any,
    dilation: Any,
    transposed: bool,
    output_padding: Any,
    groups: int,
) -> Any:
    """ATen's ``convolution`` (what ``conv*d`` decompose into): by its spatial rank and
    ``transposed``, the handlers above."""
    if transposed:
        return conv_transpose(x, weight, bias, stride, padding, output_padding, groups, dilation)
    if _ndim(x) == 3:
        return conv1d(x, weight, bias, stride, padding, dilation, groups)
    if _ndim(x) == 5:
        return conv3d(x, weight, bias, stride, padding, dilation, groups)
    return conv2d(x, weight, bias, stride, padding, dilation, groups)


def _pool_geometry(size: int, k: int, s: int, p: int, ceil_mode: bool) -> tuple[int, int]:
    """(output size, padding to add at the end) of a pooling axis, as ATen sizes it: with
    ``ceil_mode`` a last partial window counts if it starts inside the input or its left
    padding."""
    span = size + 2 * p - k
    out = (-(-span // s) if ceil_mode else span // s) + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out, max(0, (out - 1) * s + k - (size + 2 * p))


def _pool_args(x: Any, kernel_size: Any, stride: Any, padding: Any) -> tuple[Any, Any, Any]:
    k = _per_axis(kernel_size, 2)
    return k, (_per_axis(stride, 2) if len(stride) else k), _per_axis(padding, 2)


def _check_max_pool(
    x: Any,
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
) -> str | None:
    if _pair(dilation) not in (1, (1, 1)):
        return f"dilation={list(dilation) if isinstance(dilation, (list, tuple)) else dilation}"
    if len(x.shape) != 4:
        return "a 3-D (unbatched) input; 4-D NCHW only"
    return None


@aten("max_pool2d.default", check=_check_max_pool)
def max_pool2d(
    x: Any,
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
) -> Any:
    k, s, p = _pool_args(x, kernel_size, stride, padding)
    extra = [_pool_geometry(int(x.shape[2 + a]), k[a], s[a], p[a], ceil_mode)[1] for a in (0, 1)]
    if not any(extra):
        return il.nn.max_pool2d(x, k, s, p)
    # ceil_mode's last partial windows: padding of minus infinity, which a max never picks
    widths = ((0, 0), (0, 0), (p[0], p[0] + extra[0]), (p[1], p[1] + extra[1]))
    return il.nn.max_pool2d(il.pad(x, widths, constant_values=-math.inf), k, s, 0)


@aten("max_pool2d_with_indices.default", check=_check_max_pool, outputs=(0,))
def max_pool2d_with_indices(*args: Any) -> tuple[Any, None]:
    return max_pool2d(*args), None


def _check_avg_pool(
    x: Any,
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: Any = None,
) -> str | None:
    if len(x.shape) != 4:
        return "a 3-D (unbatched) input; 4-D NCHW only"
    return None


def _window_counts(size: int, k: int, s: int, p: int, out: int, with_pad: bool) -> np.ndarray:
    """How many positions of each window along an axis the mean divides by: the input and
    its padding (count_include_pad), or the input only; never ceil_mode's overhang."""
    lo, hi = (-p, size + p) if with_pad else (0, size)
    starts = np.arange(out) * s - p
    return (np.minimum(starts + k, hi) - np.maximum(starts, lo)).astype(np.float32)


@aten("avg_pool2d.default", check=_check_avg_pool)
def avg_pool2d(
    x: Any,
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: Any = None,
) -> Any:
    k, s, p = _pool_args(x, kernel_size, stride, padding)
    sizes = (int(x.shape[2]), int(x.shape[3]))
    geometry = [_pool_geometry(sizes[a], k[a], s[a], p[a], ceil_mode) for a in (0, 1)]
    if not any(e for _, e in geometry) and count_include_pad and divisor_override is None:
        return il.nn.avg_pool2d(x, k, s, p)
    # window sums (the mean over k*k zero-padded positions, times k*k), then torch's divisor
    widths = ((0, 0), (0, 0), *((p[a], p[a] + geometry[a][1]) for a in (0, 1)))
    sums = il.multiply(il.nn.avg_pool2d(il.pad(x, widths), k, s, 0), float(k[0] * k[1]))
    if divisor_override:
        return il.divide(sums, float(divisor_override))
    rows, cols = (
        _window_counts(sizes[a], k[a], s[a], p[a], geometry[a][0], count_include_pad)
        for a in (0, 1)
    )
    divisor = _native(il.astype(il.asarray(np.outer(rows, cols)), x.dtype))
    return il.divide(sums, divisor)


@aten("adaptive_avg_pool2d.default", "_adaptive_avg_pool2d.default")
def adaptive_avg_pool2d(x: Any, output_size: Any) -> Any:
    return il.nn.adaptive_avg_pool2d(x, _pair(output_size))


def _check_adaptive_max(x: Any, output_size: Any) -> str | None:
    if len(x.shape) not in (3, 4):
        return f"a {len(x.shape)}-D input; 3-D or 4-D only"
    return None


@aten("adaptive_max_pool2d.default", check=_check_adaptive_max, outputs=(0,))
def adaptive_max_pool2d(x: Any, output_size: Any) -> tuple[Any, None]:
    return il.nn.adaptive_max_pool2d(x, _pair(output_size)), None


# -- resizing (F.interpolate) ------------------------------------------------------------------
def _check_upsample(x: Any, output_size: Any, *rest: Any) -> str | None:
    if len(x.shape) != 4:
        return f"a {len(x.shape)}-D input; 4-D NCHW only"
    return None


def _resize_plan(x: Any, output_size: Any, scales: Sequence[Any]) -> list[tuple[int, int, Any]]:
    """(input size, output size, scale factor or None) for H and W, as ATen computes them:
    a given scale factor sets the output size (floored) and is the one used to map back."""
    sizes = tuple(int(s) for s in x.shape[2:])
    plan = []
    for i, n_in in enumerate(sizes):
        scale = scales[i] if scales is not None and i < len(scales) else None
        if output_size is not None and len(output_size):
            n_out = int(output_size[i])
        elif scale is not None:
            n_out = int(math.floor(n_in * float(scale)))
        else:
            raise UnsupportedOpError("interpolation with neither an output size nor a scale")
        plan.append((n_in, n_out, scale))
    return plan


def _interpolate(x: Any, output_size: Any, scales: Any, mode: str, align_corners: Any) -> Any:
    """``ivy_like.nn.interpolate`` when ATen gives an output size or scale factors (None when
    it gives both: the size then sets the output and the scales map back, which the op's
    arguments cannot say)."""
    has_size = output_size is not None and len(output_size) > 0
    given = [s for s in (scales or ()) if s is not None]
    if has_size and not given:
        size = tuple(int(s) for s in output_size)
        return il.nn.interpolate(x, size=size, mode=mode, align_corners=align_corners)
    if not has_size and len(given) == 2 and all(s > 0 for s in given):
        factors = tuple(float(s) for s in given)
        return il.nn.interpolate(x, scale_factor=factors, mode=mode, align_corners=align_corners)
    return None


def _bilinear(x: Any, output_size: Any, align_corners: bool, scales: Any) -> Any:
    public = _interpolate(x, output_size, scales, "bilinear", bool(align_corners))
    if public is not None:
        return public
    (h_in, h_out, sh), (w_in, w_out, sw) = _resize_plan(x, output_size, scales)
    wh = _native(
        il.astype(il.asarray(linear_resize_matrix(h_in, h_out, align_corners, sh)), x.dtype)
    )
    ww = _native(
        il.astype(il.asarray(linear_resize_matrix(w_in, w_out, align_corners, sw).T), x.dtype)
    )
    return il.matmul(il.matmul(wh, x), ww)  # (Ho, H) @ x @ (W, Wo)


def _nearest(x: Any, output_size: Any, scales: Any, exact: bool) -> Any:
    public = _interpolate(x, output_size, scales, "nearest-exact" if exact else "nearest", None)
    if public is not None:
        return public
    (h_in, h_out, sh), (w_in, w_out, sw) = _resize_plan(x, output_size, scales)
    rows = _native(il.asarray(nearest_resize_indices(h_in, h_out, sh, exact)))
    cols = _native(il.asarray(nearest_resize_indices(w_in, w_out, sw, exact)))
    return il.take(il.take(x, rows, axis=2), cols, axis=3)


@aten("upsample_bilinear2d.vec", check=_check_upsample)
def upsample_bilinear2d(x: Any, output_size: Any, align_corners: bool, scale_factors: Any) -> Any:
    return _bilinear(x, output_size, align_corners, scale_factors)


@aten("upsample_bilinear2d.default", check=_check_upsample)
def upsample_bilinear2d_sizes(
    x: Any, output_size: Any, align_corners: bool, scales_h: Any = None, scales_w: Any = None
) -> Any:
    return _bilinear(x, output_size, align_corners, (scales_h, scales_w))


@aten("upsample_nearest2d.vec", check=_check_upsample)
def upsample_nearest2d(x: Any, output_size: Any, scale_factors: Any) -> Any:
    return _nearest(x, output_size, scale_factors, exact=False)


@aten("upsample_nearest2d.default", check=_check_upsample)
def upsample_nearest2d_sizes(
    x: Any, output_size: Any, scales_h: Any = None, scales_w: Any = None
) -> Any:
    return _nearest(x, output_size, (scales_h, scales_w), exact=False)


@aten("_upsample_nearest_exact2d.vec", check=_check_upsample)
def upsample_nearest_exact2d(x: Any, output_size: Any, scale_factors: Any) -> Any:
    return _nearest(x, output_size, scale_factors, exact=True)

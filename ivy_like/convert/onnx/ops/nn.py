"""ONNX convolutions and normalizations -> ivy_like: ``Conv``, ``ConvTranspose``, ``Col2Im``,
``ConvInteger``, ``QLinearConv``, ``DeformConv``, ``BatchNormalization``,
``InstanceNormalization``, ``LayerNormalization``, ``GroupNormalization``, ``RMSNormalization``
and ``LRN``.

Convolutions of 1, 2 and 3 spatial axes go to ``ivy_like.nn.conv1d``/``conv2d`` and to the
3-d composite of ``convert/_conv3d.py``; a transposed convolution is ``conv_transpose2d``
where its geometry fits, else the convolution it is the gradient of (zeros between the input's
elements, the kernel flipped). The integer convolutions sum exactly in a float (float64 where
the backend has it); the deformable one gathers its bilinear samples into columns for one
grouped matrix product. The geometry helpers here (``auto_pad``, the pads of a window) are
shared with ``pooling.py`` and ``resize.py``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

import ivy_like as il

from ..._conv3d import conv3d as _conv3d
from .._table import Node, Refused, has_dtype, index_dtype, ints, onnx_op

Pairs = tuple[tuple[int, int], ...]
_AUTO_PADS = ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID")


# -- shared helpers ------------------------------------------------------------------------------
def shape_of(x: Any) -> tuple[int, ...]:
    return tuple(int(s) for s in x.shape)


def lift(x: Any) -> Any:
    """A known NumPy input as an array of the active backend (others as they are)."""
    return il.asarray(x) if isinstance(x, np.ndarray) else x


def as_array(v: Any, dtype: Any) -> Any:
    """``v`` (an ivy_like array or a known NumPy value) as an array of ``dtype``."""
    if isinstance(v, np.ndarray) or not hasattr(v, "dtype"):
        return il.asarray(np.asarray(v), dtype=dtype)
    return v if v.dtype == dtype else il.astype(v, dtype)


def wanted_outputs(node: Node) -> int:
    """How many of the node's outputs are used (the count up to the last one given)."""
    used = [i for i, o in enumerate(node.outs) if o is not None]
    return used[-1] + 1 if used else 1


def auto_pad_of(node: Node) -> str:
    mode = str(node.attr("auto_pad", "NOTSET"))
    if mode not in _AUTO_PADS:
        raise Refused(f"{node.op_type}: auto_pad={mode!r}; one of {_AUTO_PADS}")
    return mode


def optional_ints(node: Node, name: str) -> tuple[int, ...] | None:
    v = node.attr(name)
    return None if v is None or len(v) == 0 else tuple(int(i) for i in v)


def window_attrs(node: Node) -> dict[str, Any]:
    """The window attributes Conv and the poolings share, as tuples (None: the default)."""
    return {
        "auto_pad": auto_pad_of(node),
        "dilations": optional_ints(node, "dilations"),
        "pads": optional_ints(node, "pads"),
        "strides": optional_ints(node, "strides"),
    }


def per_axis(v: Sequence[int] | None, n: int, default: int) -> tuple[int, ...]:
    return (default,) * n if v is None else tuple(int(i) for i in v)


def window_pads(
    auto_pad: str,
    sizes: Sequence[int],
    kernel: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
    pads: Sequence[int] | None,
) -> Pairs:
    """Per spatial axis the ``(begin, end)`` padding of a convolution or pooling: ``pads``
    (ONNX's order: all begins, then all ends), or by ``auto_pad`` the padding that gives
    ``ceil(size / stride)`` outputs, its odd unit at the end (SAME_UPPER) or the start
    (SAME_LOWER)."""
    n = len(sizes)
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        out = []
        for size, k, s, d in zip(sizes, kernel, strides, dilations):
            total = max(0, (-(-size // s) - 1) * s + (k - 1) * d + 1 - size)
            small, big = total // 2, total - total // 2
            out.append((small, big) if auto_pad == "SAME_UPPER" else (big, small))
        return tuple(out)
    if auto_pad == "VALID" or pads is None:
        return ((0, 0),) * n
    return tuple((int(pads[i]), int(pads[i + n])) for i in range(n))


def pad_or_crop(x: Any, axis: int, lo: int, hi: int, fill: Any = 0) -> Any:
    """``x`` with ``lo``/``hi`` entries of ``fill`` added before/after ``axis`` (a negative
    count removes entries instead)."""
    if lo < 0 or hi < 0:
        index: list[Any] = [slice(None)] * len(x.shape)
        index[axis] = slice(max(-lo, 0), int(x.shape[axis]) - max(-hi, 0))
        x = x[tuple(index)]
    if lo > 0 or hi > 0:
        widths = [(0, 0)] * len(x.shape)
        widths[axis] = (max(lo, 0), max(hi, 0))
        x = il.pad(x, tuple(widths), constant_values=fill)
    return x


# -- convolutions --------------------------------------------------------------------------------
def conv_nd(
    x: Any,
    w: Any,
    b: Any,
    strides: Sequence[int],
    pads: Pairs,
    dilations: Sequence[int],
    group: int,
) -> Any:
    """An NC... convolution of 1, 2 or 3 spatial axes with explicit ``(begin, end)`` pads."""
    n = len(x.shape) - 2
    if n == 1:
        return il.nn.conv1d(
            x, w, b, stride=strides[0], padding=(pads[0],), dilation=dilations[0], groups=group
        )
    if n == 2:
        return il.nn.conv2d(
            x, w, b, stride=tuple(strides), padding=pads, dilation=tuple(dilations), groups=group
        )
    if n == 3:
        return _conv3d(x, w, b, strides, pads, dilations, group)
    raise ValueError(f"Conv: {n} spatial axes; ivy_like convolves 1, 2 or 3")


def _rank_check(node: Node, least: int = 3, most: int = 5) -> None:
    shape = node.ins[0].shape if node.ins and node.ins[0] is not None else None
    if shape is not None and not least <= len(shape) <= most:
        raise Refused(
            f"{node.op_type}: a {len(shape)}-D input; 1, 2 or 3 spatial axes (3-D to 5-D) only"
        )


def _conv_attrs(node: Node) -> dict[str, Any]:
    _rank_check(node)
    return {**window_attrs(node), "group": int(node.attr("group", 1))}


@onnx_op("Conv", attrs=_conv_attrs)
def conv(
    x: Any,
    w: Any,
    b: Any = None,
    *,
    auto_pad: str = "NOTSET",
    dilations: Any = None,
    group: int = 1,
    pads: Any = None,
    strides: Any = None,
) -> Any:
    """ONNX Conv (cross-correlation, NC... input, weight (M, C/group, k...))."""
    x, w = lift(x), lift(w)
    n = len(x.shape) - 2
    kernel = shape_of(w)[2:]
    strides, dilations = per_axis(strides, n, 1), per_axis(dilations, n, 1)
    pairs = window_pads(auto_pad, shape_of(x)[2:], kernel, strides, dilations, pads)
    return conv_nd(
        x, w, as_array(b, x.dtype) if b is not None else None, strides, pairs, dilations, group
    )


def _spread(x: Any, axis: int, s: int) -> Any:
    """``x`` with ``s - 1`` zeros after each entry along ``axis`` (the trailing ones kept:
    the caller's padding accounts for them)."""
    shape = shape_of(x)
    widths = [(0, 0)] * (len(shape) + 1)
    widths[axis + 1] = (0, s - 1)
    spread = il.pad(il.expand_dims(x, axis=axis + 1), tuple(widths))
    return il.reshape(spread, (*shape[:axis], shape[axis] * s, *shape[axis + 1 :]))


def conv_transpose_nd(
    x: Any,
    w: Any,
    b: Any,
    strides: Sequence[int],
    pads: Pairs,
    output_padding: Sequence[int],
    dilations: Sequence[int],
    group: int,
) -> Any:
    """The transposed convolution of ``x`` (N, C, ...) by ``w`` (C, M/group, k...): output
    size ``s * (n - 1) + op + d * (k - 1) + 1 - begin - end`` per axis (a negative pad adds
    zeros). ``conv_transpose2d`` where its arguments fit, else the convolution of ``x`` with
    ``s - 1`` zeros between its entries by the flipped kernel, in/out channels swapped."""
    n = len(x.shape) - 2
    kernel = shape_of(w)[2:]
    symmetric = all(lo == hi >= 0 for lo, hi in pads)
    fits = all(o < max(s, d) for o, s, d in zip(output_padding, strides, dilations))
    if n in (1, 2) and symmetric and fits:
        if n == 2:
            return il.nn.conv_transpose2d(
                x,
                w,
                b,
                tuple(strides),
                tuple(p for p, _ in pads),
                tuple(output_padding),
                group,
                tuple(dilations),
            )
        out = il.nn.conv_transpose2d(
            il.expand_dims(x, axis=2),
            il.expand_dims(w, axis=2),
            b,
            (1, strides[0]),
            (0, pads[0][0]),
            (0, output_padding[0]),
            group,
            (1, dilations[0]),
        )
        return il.squeeze(out, axis=2)
    for a in range(n):
        axis, s = 2 + a, strides[a]
        reach = dilations[a] * (kernel[a] - 1)
        lo, hi = reach - pads[a][0], reach - pads[a][1] + output_padding[a]
        if s > 1:  # the spread keeps s - 1 zeros after the last entry: count them in hi
            x = _spread(x, axis, s)
            hi -= s - 1
        x = pad_or_crop(x, axis, lo, hi)
    c_in, c_out_g = shape_of(w)[:2]
    w = il.reshape(w, (group, c_in // group, c_out_g, *kernel))
    w = il.permute_dims(w, (0, 2, 1, *range(3, 3 + n)))
    w = il.reshape(w, (group * c_out_g, c_in // group, *kernel))
    w = il.flip(w, axis=tuple(range(2, 2 + n)))
    return conv_nd(x, w, b, (1,) * n, ((0, 0),) * n, dilations, group)


def _conv_transpose_attrs(node: Node) -> dict[str, Any]:
    _rank_check(node)
    return {
        **window_attrs(node),
        "group": int(node.attr("group", 1)),
        "output_padding": optional_ints(node, "output_padding"),
        "output_shape": optional_ints(node, "output_shape"),
    }


@onnx_op("ConvTranspose", attrs=_conv_transpose_attrs)
def conv_transpose(
    x: Any,
    w: Any,
    b: Any = None,
    *,
    auto_pad: str = "NOTSET",
    dilations: Any = None,
    group: int = 1,
    output_padding: Any = None,
    output_shape: Any = None,
    pads: Any = None,
    strides: Any = None,
) -> Any:
    """ONNX ConvTranspose: ``output_shape`` (or SAME auto_pad) sets the pads, the odd unit at
    the start unless SAME_UPPER; else ``pads``."""
    x, w = lift(x), lift(w)
    sizes, kernel = shape_of(x)[2:], shape_of(w)[2:]
    n = len(sizes)
    strides, dilations = per_axis(strides, n, 1), per_axis(dilations, n, 1)
    output_padding = per_axis(output_padding, n, 0)
    if output_shape is not None or auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        target = (
            tuple(s * i for s, i in zip(strides, sizes))
            if output_shape is None
            else tuple(output_shape)[-n:]
        )
        pairs = []
        for i in range(n):
            full = strides[i] * (sizes[i] - 1) + output_padding[i] + dilations[i] * (kernel[i] - 1)
            total = full + 1 - target[i]
            small, big = total // 2, total - total // 2
            pairs.append((small, big) if auto_pad == "SAME_UPPER" else (big, small))
        pads_ = tuple(pairs)
    else:
        pads_ = window_pads(auto_pad, sizes, kernel, strides, dilations, pads)
    bias = as_array(b, x.dtype) if b is not None else None
    return conv_transpose_nd(x, w, bias, strides, pads_, output_padding, dilations, group)


def _col2im_attrs(node: Node) -> dict[str, Any]:
    return {
        "dilations": optional_ints(node, "dilations"),
        "pads": optional_ints(node, "pads"),
        "strides": optional_ints(node, "strides"),
    }


@onnx_op("Col2Im", since=18, attrs=_col2im_attrs)
def col2im(
    x: Any,
    image_shape: Any,
    block_shape: Any,
    *,
    dilations: Any = None,
    pads: Any = None,
    strides: Any = None,
) -> Any:
    """ONNX Col2Im: the sum of the blocks ``x`` (N, C * prod(block), L) holds back into an
    image, which is a transposed convolution with one-hot kernels (one per block position,
    a group per channel): exact, and differentiable."""
    x = lift(x)
    image = ints(image_shape, "Col2Im", "image_shape")
    block = ints(block_shape, "Col2Im", "block_shape")
    n, k = len(image), int(np.prod(block))
    strides, dilations = per_axis(strides, n, 1), per_axis(dilations, n, 1)
    pairs = window_pads("NOTSET", image, block, strides, dilations, pads)
    blocks = [
        (size + lo + hi - d * (kk - 1) - 1) // s + 1
        for size, (lo, hi), kk, s, d in zip(image, pairs, block, strides, dilations)
    ]
    batch, channels_k, length = shape_of(x)
    if channels_k % k or length != int(np.prod(blocks)):
        raise ValueError(
            f"Col2Im: input of shape {shape_of(x)} does not hold {blocks} blocks of "
            f"{tuple(block)} per channel"
        )
    c = channels_k // k
    cols = il.reshape(x, (batch, channels_k, *blocks))
    eye = np.eye(k, dtype=np.float64).reshape(k, 1, *block)
    w = as_array(np.tile(eye, (c, 1) + (1,) * n), x.dtype)
    extra = [
        size - (s * (m - 1) + d * (kk - 1) + 1 - lo - hi)
        for size, m, (lo, hi), kk, s, d in zip(image, blocks, pairs, block, strides, dilations)
    ]
    # output padding past a stride: a plain zero extension, so do it as negative end padding
    pads_ = tuple((lo, hi - e) for (lo, hi), e in zip(pairs, extra))
    return conv_transpose_nd(cols, w, None, strides, pads_, (0,) * n, dilations, c)


# -- quantized and deformable convolutions -------------------------------------------------------
def _wide_float() -> Any:
    """The float type integer convolutions are summed in: float64 where the backend has it
    (exact for any sum of int8 products), else float32 (exact up to 2**24)."""
    return il.float64 if has_dtype("float64") else il.float32


def _shifted(v: Any, zero_point: Any, dtype: Any, per_channel_axis: int | None = None) -> Any:
    """``v - zero_point`` in ``dtype``; a 1-D zero point of several entries is per output
    channel (axis 0 of a weight)."""
    v = as_array(v, dtype)
    if zero_point is None:
        return v
    zp = as_array(zero_point, dtype)
    if per_channel_axis is not None and len(zp.shape) == 1 and int(zp.shape[0]) > 1:
        zp = il.reshape(zp, (-1,) + (1,) * (len(v.shape) - 1))
    return v - il.reshape(zp, ()) if int(np.prod(zp.shape)) == 1 else v - zp


def _integer_conv(x, w, x_zero_point, w_zero_point, attrs: dict[str, Any]) -> Any:
    """The exact integer sums of a convolution of zero-point-shifted integers, in a float."""
    wide = _wide_float()
    xs = _shifted(lift(x), x_zero_point, wide)
    ws = _shifted(lift(w), w_zero_point, wide, per_channel_axis=0)
    return conv(xs, ws, None, **attrs)


@onnx_op("ConvInteger", since=10, attrs=_conv_attrs)
def conv_integer(
    x: Any, w: Any, x_zero_point: Any = None, w_zero_point: Any = None, **attrs: Any
) -> Any:
    """ONNX ConvInteger: the int32 convolution of ``x - x_zero_point`` by ``w -
    w_zero_point`` (the padding holds the zero point)."""
    return il.astype(il.round(_integer_conv(x, w, x_zero_point, w_zero_point, attrs)), il.int32)


@onnx_op("QLinearConv", since=10, attrs=_conv_attrs)
def qlinear_conv(
    x: Any,
    x_scale: Any,
    x_zero_point: Any,
    w: Any,
    w_scale: Any,
    w_zero_point: Any,
    y_scale: Any,
    y_zero_point: Any,
    b: Any = None,
    **attrs: Any,
) -> Any:
    """ONNX QLinearConv: the integer convolution (plus the int32 bias ``b``) requantized by
    ``x_scale * w_scale / y_scale`` (w_scale per output channel when 1-D), shifted by
    ``y_zero_point``, saturated and rounded half to even into y_zero_point's type."""
    acc = _integer_conv(x, w, x_zero_point, w_zero_point, attrs)
    n = len(acc.shape) - 2
    wide = acc.dtype
    if b is not None:
        acc = acc + il.reshape(as_array(b, wide), (1, -1) + (1,) * n)
    scale = as_array(x_scale, il.float32) * as_array(w_scale, il.float32)
    scale = as_array(scale / as_array(y_scale, il.float32), wide)
    if len(scale.shape) == 1 and int(scale.shape[0]) > 1:
        scale = il.reshape(scale, (1, -1) + (1,) * n)
    elif len(scale.shape):
        scale = il.reshape(scale, ())
    y_zero_point = lift(y_zero_point)
    out = y_zero_point.dtype
    info = il.iinfo(out)
    y = acc * scale + il.reshape(as_array(y_zero_point, wide), ())
    return il.astype(il.round(il.clip(y, float(info.min), float(info.max))), out)


def _deform_attrs(node: Node) -> dict[str, Any]:
    shape = node.ins[0].shape if node.ins and node.ins[0] is not None else None
    if shape is not None and len(shape) != 4:
        raise Refused(f"DeformConv: a {len(shape)}-D input; 2-D (NCHW) deformable convolution only")
    return {
        "dilations": optional_ints(node, "dilations"),
        "group": int(node.attr("group", 1)),
        "offset_group": int(node.attr("offset_group", 1)),
        "pads": optional_ints(node, "pads"),
        "strides": optional_ints(node, "strides"),
    }


@onnx_op("DeformConv", since=19, attrs=_deform_attrs)
def deform_conv(
    x: Any,
    w: Any,
    offset: Any,
    b: Any = None,
    mask: Any = None,
    *,
    dilations: Any = None,
    group: int = 1,
    offset_group: int = 1,
    pads: Any = None,
    strides: Any = None,
) -> Any:
    """ONNX DeformConv (2-d): each kernel tap reads the input at its place plus its learned
    ``offset`` (bilinear, zero outside the input), weighted by ``mask``; the taps' columns are
    then one grouped matrix product with the kernel. Differentiable in x, w, offset, mask."""
    x, w, offset = lift(x), lift(w), lift(offset)
    n, c, h, wd = shape_of(x)
    m, c_g, kh, kw = shape_of(w)
    oh, ow = shape_of(offset)[2:]
    k, length, g_off = kh * kw, oh * ow, offset_group
    (sh, sw), (dh, dw) = per_axis(strides, 2, 1), per_axis(dilations, 2, 1)
    top, left = (pads[0], pads[1]) if pads is not None else (0, 0)
    # where each tap reads without offset: (K, L), row-major over the kernel and the output
    rows = (np.arange(kh) * dh)[:, None, None, None] + (np.arange(oh) * sh - top)[:, None]
    cols = (np.arange(kw) * dw)[:, None, None] + (np.arange(ow) * sw - left)
    base_h = np.broadcast_to(rows, (kh, kw, oh, ow)).reshape(k, length)
    base_w = np.broadcast_to(cols, (kh, kw, oh, ow)).reshape(k, length)
    moves = il.reshape(offset, (n, g_off, k, 2, length))
    at_h = moves[:, :, :, 0] + as_array(base_h, x.dtype)
    at_w = moves[:, :, :, 1] + as_array(base_w, x.dtype)
    # the cell corners are piecewise constant in the offsets: no gradient (MLX cannot
    # differentiate an integer gather index at all)
    low_h, low_w = il.stop_gradient(il.floor(at_h)), il.stop_gradient(il.floor(at_w))
    frac_h, frac_w = at_h - low_h, at_w - low_w
    flat = il.reshape(x, (n, g_off, c // g_off, h * wd))
    sampled = None
    for dy, dx in ((0, 0), (0, 1), (1, 0), (1, 1)):
        yy, xx = low_h + dy, low_w + dx
        weight = (frac_h if dy else 1 - frac_h) * (frac_w if dx else 1 - frac_w)
        inside = (yy >= 0) & (yy <= h - 1) & (xx >= 0) & (xx <= wd - 1)
        weight = il.where(inside, weight, il.zeros_like(weight))
        index = il.clip(yy, 0, h - 1) * wd + il.clip(xx, 0, wd - 1)
        index = il.reshape(il.astype(index, index_dtype()), (n, g_off, 1, k * length))
        index = il.broadcast_to(index, (n, g_off, c // g_off, k * length))
        part = il.take_along_axis(flat, index, axis=3)
        part = part * il.reshape(weight, (n, g_off, 1, k * length))
        sampled = part if sampled is None else sampled + part
    if mask is not None:
        sampled = sampled * il.reshape(as_array(mask, x.dtype), (n, g_off, 1, k * length))
    # (N, C, K, L) -> per conv group (C/group * K, L), the kernel flattened the same way
    columns = il.reshape(sampled, (n, group, c_g * k, length))
    kernel = il.reshape(w, (1, group, m // group, c_g * k))
    y = il.reshape(il.matmul(kernel, columns), (n, m, oh, ow))
    return y if b is None else y + il.reshape(as_array(b, x.dtype), (1, -1, 1, 1))


# -- normalizations ------------------------------------------------------------------------------
_STASH = {1: "float32", 10: "float16", 11: "float64", 16: "bfloat16"}


def _stash(node: Node) -> str:
    code = int(node.attr("stash_type", 1))
    if code not in _STASH:
        raise Refused(f"{node.op_type}: stash_type={code}; a floating type only")
    return _STASH[code]


def _channel_shape(x: Any, v: Any) -> Any:
    """A per-channel (C,) parameter shaped to broadcast over NC...; a parameter of more axes
    (BatchNormalization's spatial=0) over the batch."""
    rank = len(v.shape)
    if rank == 1:
        return il.reshape(v, (1, -1) + (1,) * (len(x.shape) - 2))
    return il.expand_dims(v, axis=0)


def _batch_norm_attrs(node: Node) -> dict[str, Any]:
    if node.opset >= 14 and int(node.attr("training_mode", 0)):
        raise Refused(
            "BatchNormalization: training_mode=1 normalizes by the batch's statistics and "
            "updates running ones; export the model for inference"
        )
    if wanted_outputs(node) > 1:
        raise Refused(
            "BatchNormalization: the running statistics outputs (training) are not supported"
        )
    return {"epsilon": float(node.attr("epsilon", 1e-5))}


@onnx_op("BatchNormalization", since=7, attrs=_batch_norm_attrs)
def batch_normalization(
    x: Any, scale: Any, b: Any, mean: Any, var: Any, *, epsilon: float = 1e-5
) -> Any:
    """ONNX BatchNormalization at inference: ``(x - mean) / sqrt(var + eps) * scale + b``
    per channel (axis 1); the parameters may have another float type (opset 15): they are
    cast to x's."""
    x = lift(x)
    params = [as_array(v, x.dtype) for v in (scale, b, mean, var)]
    if all(len(p.shape) == 1 for p in params) and len(x.shape) >= 2:
        s, bias, m, v = params
        return il.nn.batch_norm(x, m, v, s, bias, eps=epsilon)
    s, bias, m, v = (_channel_shape(x, p) for p in params)
    return (x - m) / il.sqrt(v + epsilon) * s + bias


@onnx_op("InstanceNormalization", attrs=lambda node: {"epsilon": float(node.attr("epsilon", 1e-5))})
def instance_normalization(x: Any, scale: Any, b: Any, *, epsilon: float = 1e-5) -> Any:
    """ONNX InstanceNormalization: each (sample, channel) normalized over its spatial axes,
    which is group normalization with a group per channel."""
    x = lift(x)
    channels = shape_of(x)[1]
    return il.nn.group_norm(x, channels, as_array(scale, x.dtype), as_array(b, x.dtype), epsilon)


def _stats(x: Any, axes: tuple[int, ...], stash: Any, epsilon: float) -> tuple[Any, Any, Any]:
    """``(x in the stash type - mean, mean, 1 / sqrt(var + eps))`` over ``axes``."""
    xs = x if x.dtype == stash else il.astype(x, stash)
    mean = il.mean(xs, axis=axes, keepdims=True)
    centered = xs - mean
    inv = 1.0 / il.sqrt(il.mean(centered * centered, axis=axes, keepdims=True) + epsilon)
    return centered, mean, inv


def _layer_norm_attrs(node: Node) -> dict[str, Any]:
    return {
        "axis": int(node.attr("axis", -1)),
        "epsilon": float(node.attr("epsilon", 1e-5)),
        "stash": _stash(node),
        "outputs": wanted_outputs(node),
    }


@onnx_op("LayerNormalization", since=17, attrs=_layer_norm_attrs)
def layer_normalization(
    x: Any,
    scale: Any,
    b: Any = None,
    *,
    axis: int = -1,
    epsilon: float = 1e-5,
    stash: str = "float32",
    outputs: int = 1,
) -> Any:
    """ONNX LayerNormalization over the axes from ``axis`` on, its statistics in the stash
    type; with ``outputs`` 2 or 3 also Mean and InvStdDev (x's shape, 1 on those axes)."""
    x = lift(x)
    rank = len(x.shape)
    first = axis % rank
    axes = tuple(range(first, rank))
    stash_dtype = il.as_dtype(stash)
    scale = as_array(scale, x.dtype)
    b = None if b is None else as_array(b, x.dtype)
    normalized = shape_of(x)[first:]
    plain = shape_of(scale) == normalized and (b is None or shape_of(b) == normalized)
    if outputs == 1 and x.dtype == stash_dtype and plain:
        return il.nn.layer_norm(x, normalized, scale, b, epsilon)
    centered, mean, inv = _stats(x, axes, stash_dtype, epsilon)
    y = il.astype(centered * inv, x.dtype) * scale
    if b is not None:
        y = y + b
    return (y, mean, inv)[:outputs] if outputs > 1 else y


def _group_norm_attrs(node: Node) -> dict[str, Any]:
    return {
        "num_groups": int(node.attr("num_groups")),
        "epsilon": float(node.attr("epsilon", 1e-5)),
        "stash": _stash(node) if node.opset >= 21 else None,
        "per_group": node.opset < 21,  # opset 18's scale and bias have one entry per group
    }


@onnx_op("GroupNormalization", since=18, attrs=_group_norm_attrs)
def group_normalization(
    x: Any,
    scale: Any,
    b: Any,
    *,
    num_groups: int,
    epsilon: float = 1e-5,
    stash: str | None = "float32",
    per_group: bool = False,
) -> Any:
    """ONNX GroupNormalization: the channels split into ``num_groups`` groups, each
    normalized over its channels and spatial axes, then scaled and shifted per channel
    (opset 21) or per group (opset 18)."""
    x = lift(x)
    shape = shape_of(x)
    channels = shape[1]
    scale, b = as_array(scale, x.dtype), as_array(b, x.dtype)
    if per_group:  # one entry per group -> one per channel
        scale = il.repeat(scale, channels // num_groups)
        b = il.repeat(b, channels // num_groups)
    stash_dtype = x.dtype if stash is None else il.as_dtype(stash)
    if stash_dtype == x.dtype:
        return il.nn.group_norm(x, num_groups, scale, b, epsilon)
    grouped = il.reshape(x, (shape[0], num_groups, -1))
    centered, _, inv = _stats(grouped, (2,), stash_dtype, epsilon)
    y = il.reshape(il.astype(centered * inv, x.dtype), shape)
    return y * _channel_shape(x, scale) + _channel_shape(x, b)


def _rms_norm_attrs(node: Node) -> dict[str, Any]:
    return {
        "axis": int(node.attr("axis", -1)),
        "epsilon": float(node.attr("epsilon", 1e-5)),
        "stash": _stash(node),
    }


@onnx_op("RMSNormalization", since=23, attrs=_rms_norm_attrs)
def rms_normalization(
    x: Any, scale: Any, *, axis: int = -1, epsilon: float = 1e-5, stash: str = "float32"
) -> Any:
    """ONNX RMSNormalization: ``x / sqrt(mean(x**2) + eps) * scale`` over the axes from
    ``axis`` on, the root mean square in the stash type."""
    x = lift(x)
    rank = len(x.shape)
    axes = tuple(range(axis % rank, rank))
    stash_dtype = il.as_dtype(stash)
    xs = x if x.dtype == stash_dtype else il.astype(x, stash_dtype)
    inv = 1.0 / il.sqrt(il.mean(xs * xs, axis=axes, keepdims=True) + epsilon)
    return il.astype(xs * inv, x.dtype) * as_array(scale, x.dtype)


def _lrn_attrs(node: Node) -> dict[str, Any]:
    return {
        "alpha": float(node.attr("alpha", 1e-4)),
        "beta": float(node.attr("beta", 0.75)),
        "bias": float(node.attr("bias", 1.0)),
        "size": int(node.attr("size")),
    }


@onnx_op("LRN", attrs=_lrn_attrs)
def lrn(x: Any, *, alpha: float = 1e-4, beta: float = 0.75, bias: float = 1.0, size: int) -> Any:
    """ONNX LRN: ``x / (bias + alpha / size * sum of x**2 over the size channels about
    each) ** beta``; the window runs ``floor((size-1)/2)`` channels back and
    ``ceil((size-1)/2)`` on, cut at the ends."""
    x = lift(x)
    channels = shape_of(x)[1]
    squares = pad_or_crop(x * x, 1, math.floor((size - 1) / 2), math.ceil((size - 1) / 2))
    total = squares[:, 0:channels]
    for j in range(1, size):
        total = total + squares[:, j : j + channels]
    return x / il.pow(total * (alpha / size) + bias, beta)

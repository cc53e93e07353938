"""mlx backend: ivy_like.nn ops: ``mx.conv_general`` convolutions, mlx activations and 2-D
pooling. The rest are the composite declarations in ``ivy_like/ops/nn/``: no mlx kernel
computes them faster at the sizes the converted models use, and the composites give
PyTorch's gradients at the corners.

MLX's core has no pooling op: ``max_pool2d``/``avg_pool2d`` reduce the composite's window stack
built from MLX ops directly, a reshape for the usual non-overlapping windows.

``mx.conv_general`` takes channels-last inputs ``(N, ..., C_in)`` and weights
``(C_out, ..., C_in/groups)``; PyTorch (OIHW) and Keras (HWIO) weights are transposed to it.
"""

from __future__ import annotations

import math
from typing import Any

import mlx.core as mx

from ivy_like.ops.nn import sizes as _sizes

from .._common import nn as _nn
from . import _INEXACT
from .statistical import mean as _mean

nn_sigmoid = mx.sigmoid


def nn_relu(x: Any) -> Any:
    # One op for the composite's three (where, <=, zeros_like); mx.maximum also gives gradient
    # 0 at 0 and keeps NaN. The weak int 0 keeps x's dtype; relu of a bool array is itself.
    return mx.maximum(x, 0) if x.dtype != mx.bool_ else x


def nn_silu(x: Any) -> Any:
    return x * mx.sigmoid(x)


def nn_gelu(x: Any, approximate: str) -> Any:
    if approximate == "tanh":
        return _nn.tanh_gelu(x, mx.tanh)
    return 0.5 * x * (1.0 + mx.erf(x / math.sqrt(2.0)))


def nn_softmax(x: Any, axis: int) -> Any:
    return mx.softmax(x, axis=axis, precise=True)


def nn_log_softmax(x: Any, axis: int) -> Any:
    if x.size == 0:  # mx.logsumexp refuses an empty array; the answer is as empty as x
        return x
    return x - mx.logsumexp(x, axis=axis, keepdims=True)


_TO_LAST = {1: (0, 2, 1), 2: (0, 2, 3, 1)}
_TO_FIRST = {1: (0, 2, 1), 2: (0, 3, 1, 2)}
_W_FROM_OI = {1: (0, 2, 1), 2: (0, 2, 3, 1)}  # (O, I, spatial...) -> (O, spatial..., I)
_W_FROM_IO = {1: (2, 0, 1), 2: (3, 0, 1, 2)}  # (spatial..., I, O) -> (O, spatial..., I)


def _conv(n: int, x: Any, weight: Any, bias: Any, given: Any, groups: int, last: bool) -> Any:
    if last:
        weight = mx.transpose(weight, _W_FROM_IO[n])
    else:
        x = mx.transpose(x, _TO_LAST[n])
        weight = mx.transpose(weight, _W_FROM_OI[n])
    stride, padding, dilation = given
    strides, pads, dils = _sizes.conv_geometry(
        tuple(x.shape[1:-1]), tuple(weight.shape[1:-1]), stride, padding, dilation
    )
    lo, hi = [p[0] for p in pads], [p[1] for p in pads]
    y = mx.conv_general(x, weight, list(strides), (lo, hi), list(dils), groups=groups)
    if bias is not None:
        y = y + bias
    return y if last else mx.transpose(y, _TO_FIRST[n])


nn_conv1d = _nn.conv_for(_conv, 1, "mlx")
nn_conv2d = _nn.conv_for(_conv, 2, "mlx")


# -- pooling ---------------------------------------------------------------------------------------
_REAL_FLOATS = frozenset(d for d in _INEXACT if d != mx.complex64)
_composite = _nn.composites_of("mlx")


def _windows(x: Any, kernel: Any, strides: Any, pads: Any, last: bool, fill: float) -> Any:
    """The composite's window stack (``_windows`` of ``ivy_like/ops/nn/convolution.py``): every window on a
    new first axis, row offset major, padding holding ``fill``, but in x's own layout
    (``(kh*kw, N, C, OH, OW)``, NHWC: ``(kh*kw, N, OH, OW, C)``). The same elements in the same
    order, so reducing axis 0 gives the composite's values and gradients bit for bit (a max
    over both window axes of ``mx.as_strided`` windows was 2-6x slower here, and a max of
    strided slices sends a tie's gradient to one element where the composite shares it)."""
    (kh, kw), (sh, sw), (ph, pw) = kernel, strides, pads
    ax = 1 if last else 2  # the H axis; W follows it
    if ph or pw:
        widths = [(0, 0)] * 4
        widths[ax], widths[ax + 1] = (ph, ph), (pw, pw)
        x = mx.pad(x, widths, constant_values=fill)
    h, w = x.shape[ax], x.shape[ax + 1]
    oh, ow = (h - kh) // sh + 1, (w - kw) // sw + 1
    if (kh, kw) != (sh, sw):  # overlapping or spaced windows: one strided slice per offset
        rows = [slice(i, i + sh * (oh - 1) + 1, sh) for i in range(kh)]
        cols = [slice(j, j + sw * (ow - 1) + 1, sw) for j in range(kw)]
        if last:
            return mx.stack([x[:, r, c] for r in rows for c in cols])
        return mx.stack([x[:, :, r, c] for r in rows for c in cols])
    # Windows that tile the input: crop what no window covers, then one transposing copy.
    if (oh * kh, ow * kw) != (h, w):
        x = x[:, : oh * kh, : ow * kw] if last else x[:, :, : oh * kh, : ow * kw]
    if last:
        n, c = x.shape[0], x.shape[3]
        x = mx.transpose(x.reshape(n, oh, kh, ow, kw, c), (2, 4, 0, 1, 3, 5))
        return x.reshape(kh * kw, n, oh, ow, c)
    n, c = x.shape[:2]
    x = mx.transpose(x.reshape(n, c, oh, kh, ow, kw), (3, 5, 0, 1, 2, 4))
    return x.reshape(kh * kw, n, c, oh, ow)


def nn_max_pool2d(x: Any, kernel_size: Any, stride: Any, padding: Any, data_format: str) -> Any:
    kernel, strides, pads, last = _sizes.pool_geometry(
        x.shape, kernel_size, stride, padding, data_format
    )
    if x.dtype not in _REAL_FLOATS:  # integer and bool padding: what the composite's fill gives
        return _composite("nn.max_pool2d")(x, kernel_size, stride, padding, data_format)
    # mx.max is the backend's max, which the composite reduces its stack with.
    return mx.max(_windows(x, kernel, strides, pads, last, -math.inf), axis=0)


def nn_avg_pool2d(x: Any, kernel_size: Any, stride: Any, padding: Any, data_format: str) -> Any:
    kernel, strides, pads, last = _sizes.pool_geometry(
        x.shape, kernel_size, stride, padding, data_format
    )
    if x.dtype not in _REAL_FLOATS:  # the composite's mean raises its TypeError
        return _composite("nn.avg_pool2d")(x, kernel_size, stride, padding, data_format)
    # The backend's mean, as the composite's: zero padding counts (count_include_pad).
    return _mean(_windows(x, kernel, strides, pads, last, 0.0), axis=0)

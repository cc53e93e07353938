"""mlx backend: ivy_like.nn ops (issue 6): ``mx.conv_general`` convolutions and mlx
activations. Pooling and the rest are the composite declarations in
``ivy_like/ops/nn.py`` (MLX's core has no pooling op).

``mx.conv_general`` takes channels-last inputs ``(N, ..., C_in)`` and weights
``(C_out, ..., C_in/groups)``; PyTorch (OIHW) and Keras (HWIO) weights are transposed to it.
"""

from __future__ import annotations

import math
from typing import Any

import mlx.core as mx

from ivy_like.ops.nn import check_axis, check_gelu, conv_geometry

from .._common import nn as _nn

nn_sigmoid = mx.sigmoid


def nn_relu(x: Any) -> Any:
    # One op for the composite's three (where, <=, zeros_like); mx.maximum also gives gradient
    # 0 at 0 and keeps NaN. The weak int 0 keeps x's dtype; relu of a bool array is itself.
    return mx.maximum(x, 0) if x.dtype != mx.bool_ else x


def nn_silu(x: Any) -> Any:
    return x * mx.sigmoid(x)


def nn_gelu(x: Any, approximate: str = "none") -> Any:
    check_gelu(approximate)
    if approximate == "tanh":
        inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)
        return 0.5 * x * (1.0 + mx.tanh(inner))
    return 0.5 * x * (1.0 + mx.erf(x / math.sqrt(2.0)))


def nn_softmax(x: Any, axis: int = -1) -> Any:
    check_axis("softmax", len(x.shape), axis)
    return mx.softmax(x, axis=axis, precise=True)


def nn_log_softmax(x: Any, axis: int = -1) -> Any:
    check_axis("log_softmax", len(x.shape), axis)
    return x - mx.logsumexp(x, axis=axis, keepdims=True)


_TO_LAST = {1: (0, 2, 1), 2: (0, 2, 3, 1)}
_TO_FIRST = {1: (0, 2, 1), 2: (0, 3, 1, 2)}
_W_FROM_OI = {1: (0, 2, 1), 2: (0, 2, 3, 1)}  # (O, I, spatial...) -> (O, spatial..., I)
_W_FROM_IO = {1: (2, 0, 1), 2: (3, 0, 1, 2)}  # (spatial..., I, O) -> (O, spatial..., I)


def _conv(
    who: str, n: int, x: Any, weight: Any, bias: Any, given: Any, groups: int, last: bool
) -> Any:
    if last:
        weight = mx.transpose(weight, _W_FROM_IO[n])
    else:
        x = mx.transpose(x, _TO_LAST[n])
        weight = mx.transpose(weight, _W_FROM_OI[n])
    stride, padding, dilation = given
    strides, pads, dils = conv_geometry(
        who, tuple(x.shape[1:-1]), tuple(weight.shape[1:-1]), stride, padding, dilation
    )
    lo, hi = [p[0] for p in pads], [p[1] for p in pads]
    y = mx.conv_general(x, weight, list(strides), (lo, hi), list(dils), groups=groups)
    if bias is not None:
        y = y + bias
    return y if last else mx.transpose(y, _TO_FIRST[n])


nn_conv1d = _nn.conv_for(_conv, 1)
nn_conv2d = _nn.conv_for(_conv, 2)

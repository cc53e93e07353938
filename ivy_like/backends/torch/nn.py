"""torch backend: ivy_like.nn ops (issue 6), mostly ``torch.nn.functional``.

Layouts: torch convolves NCHW inputs with OIHW weights; channels-last ``data_format`` is
permuted in and out. Asymmetric padding (``"same"`` with an even kernel, explicit pairs) goes
through ``F.pad`` first, since ``F.conv2d`` pads symmetrically. Ops not defined here are the
composite declarations in ``ivy_like/ops/nn.py``.
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F

from ivy_like.ops.nn import check_gelu, check_linear, conv_geometry, pool_geometry

from .._common import nn as _nn

nn_relu = torch.relu  # gradient 0 at 0, as the composite
nn_sigmoid = torch.sigmoid
nn_silu = F.silu


def nn_linear(x: Any, weight: Any, bias: Any = None) -> Any:
    check_linear(tuple(x.shape), tuple(weight.shape), None if bias is None else tuple(bias.shape))
    return F.linear(x, weight, bias)


def nn_gelu(x: Any, approximate: str = "none") -> Any:
    check_gelu(approximate)
    return F.gelu(x, approximate=approximate)


nn_softmax = _nn.axis_op_for("softmax", torch.softmax)
nn_log_softmax = _nn.axis_op_for("log_softmax", torch.log_softmax)


_FIRST = {1: (0, 2, 1), 2: (0, 3, 1, 2)}  # channels-last -> channels-first
_LAST = {1: (0, 2, 1), 2: (0, 2, 3, 1)}
_W_FIRST = {1: (2, 1, 0), 2: (3, 2, 0, 1)}  # (spatial..., I, O) -> (O, I, spatial...)
_CONV = {1: F.conv1d, 2: F.conv2d}


def _conv(
    who: str, n: int, x: Any, weight: Any, bias: Any, given: Any, groups: int, last: bool
) -> Any:
    if last:
        x = x.permute(_FIRST[n])
        weight = weight.permute(_W_FIRST[n])
    stride, padding, dilation = given
    strides, pads, dils = conv_geometry(
        who, tuple(x.shape[2:]), tuple(weight.shape[2:]), stride, padding, dilation
    )
    if all(lo == hi for lo, hi in pads):
        sym = tuple(lo for lo, _ in pads)
    else:
        # F.pad takes (last_lo, last_hi, previous_lo, previous_hi, ...)
        x = F.pad(x, [p for pair in reversed(pads) for p in pair])
        sym = (0,) * n
    y = _CONV[n](x, weight, bias, strides, sym, dils, groups)
    return y.permute(_LAST[n]) if last else y


nn_conv1d = _nn.conv_for(_conv, 1)
nn_conv2d = _nn.conv_for(_conv, 2)


def _pool(who: str, fn: Any, x: Any, kernel_size: Any, stride: Any, padding: Any, fmt: str) -> Any:
    kernel, strides, pads, last = pool_geometry(
        who, tuple(x.shape), kernel_size, stride, padding, fmt
    )
    if last:
        x = x.permute(0, 3, 1, 2)
    y = fn(x, kernel, strides, pads)
    return y.permute(0, 2, 3, 1) if last else y


def nn_max_pool2d(
    x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, data_format: str = "NCHW"
) -> Any:
    return _pool("max_pool2d", F.max_pool2d, x, kernel_size, stride, padding, data_format)


def nn_avg_pool2d(
    x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, data_format: str = "NCHW"
) -> Any:
    return _pool("avg_pool2d", F.avg_pool2d, x, kernel_size, stride, padding, data_format)

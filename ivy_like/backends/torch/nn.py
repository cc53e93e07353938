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

from ivy_like.ops.nn import (
    check_axis,
    check_conv,
    check_gelu,
    check_linear,
    conv_geometry,
    pool_geometry,
)

nn_relu = torch.relu  # gradient 0 at 0, as the composite
nn_sigmoid = torch.sigmoid
nn_silu = F.silu


def nn_linear(x: Any, weight: Any, bias: Any = None) -> Any:
    check_linear(tuple(x.shape), tuple(weight.shape), None if bias is None else tuple(bias.shape))
    return F.linear(x, weight, bias)


def nn_gelu(x: Any, approximate: str = "none") -> Any:
    check_gelu(approximate)
    return F.gelu(x, approximate=approximate)


def nn_softmax(x: Any, axis: int = -1) -> Any:
    check_axis("softmax", len(x.shape), axis)
    return torch.softmax(x, dim=axis)


def nn_log_softmax(x: Any, axis: int = -1) -> Any:
    check_axis("log_softmax", len(x.shape), axis)
    return torch.log_softmax(x, dim=axis)


_FIRST = {1: (0, 2, 1), 2: (0, 3, 1, 2)}  # channels-last -> channels-first
_LAST = {1: (0, 2, 1), 2: (0, 2, 3, 1)}
_W_FIRST = {1: (2, 1, 0), 2: (3, 2, 0, 1)}  # (spatial..., I, O) -> (O, I, spatial...)
_CONV = {1: F.conv1d, 2: F.conv2d}


def _conv(
    who: str,
    n: int,
    x: Any,
    weight: Any,
    bias: Any,
    stride: Any,
    padding: Any,
    dilation: Any,
    groups: int,
    data_format: str,
) -> Any:
    last = check_conv(
        who,
        tuple(x.shape),
        tuple(weight.shape),
        n,
        groups,
        data_format,
        None if bias is None else tuple(bias.shape),
    )
    if last:
        x = x.permute(_FIRST[n])
        weight = weight.permute(_W_FIRST[n])
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


def nn_conv1d(
    x: Any,
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
    data_format: str = "NCW",
) -> Any:
    return _conv("conv1d", 1, x, weight, bias, stride, padding, dilation, groups, data_format)


def nn_conv2d(
    x: Any,
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
    data_format: str = "NCHW",
) -> Any:
    return _conv("conv2d", 2, x, weight, bias, stride, padding, dilation, groups, data_format)


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

"""mxnet backend: ivy_like.nn ops.

Every nn op with a composite declaration in ``ivy_like/ops/nn/`` runs as that composite.
``conv1d``/``conv2d`` are ``mx.nd.Convolution`` (channels-first on the CPU: channels-last input
and ``(spatial..., I, O)`` weights are transposed around it; asymmetric ``"same"`` padding is
added with zero blocks, since ``Convolution`` pads symmetrically). ``gelu`` is
``x * (1 + erf(x / sqrt 2)) / 2`` with ``mx.nd.erf``: ``mx.nd.LeakyReLU(act_type="gelu")``
computes float64 input to float32 accuracy only (measured 4e-7 off on MXNet 1.9.1). The tanh
approximation is ``_common/nn.py``'s ``tanh_gelu`` over this backend's ``tanh``. float16 is
computed in float32 and cast back.
"""

from __future__ import annotations

import math
from typing import Any

import mxnet as mx
import numpy as np

from ivy_like.ops.nn import sizes as _sizes

from .._common import nn as _nn
from . import numpy_shapes
from ._helpers import _cast, _operands
from .elementwise import tanh as _tanh

nd = mx.nd


UNSUPPORTED: dict[str, str] = {}
_F16, _F32 = np.dtype("float16"), np.dtype("float32")
# channels-last weight (spatial..., I, O) -> channels-first (O, I, spatial...)
_TO_OI = {1: (2, 1, 0), 2: (3, 2, 0, 1)}


def _pad(x: Any, pads: tuple[tuple[int, int], ...]) -> Any:
    """Zero blocks before/after each spatial axis (differentiable, any rank)."""
    for i, (lo, hi) in enumerate(pads):
        axis = 2 + i
        parts = []
        for size in (lo, hi):
            shape = list(x.shape)
            shape[axis] = size
            parts.append(nd.zeros(tuple(shape), ctx=x.context, dtype=x.dtype) if size else None)
        pieces = [p for p in (parts[0], x, parts[1]) if p is not None]
        x = nd.concat(*pieces, dim=axis) if len(pieces) > 1 else x
    return x


def _conv(n: int, x: Any, weight: Any, bias: Any, given: Any, groups: int, last: bool) -> Any:
    who = f"conv{n}d"
    arrays, dt = _operands(who, *([x, weight] if bias is None else [x, weight, bias]))
    if dt.kind != "f":
        raise TypeError(f"{who}: expected floating-point input, got {dt}")
    work = _F32 if dt == _F16 else dt
    x, weight = _cast(arrays[0], work), _cast(arrays[1], work)
    bias = None if bias is None else _cast(arrays[2], work)
    if last:
        x = nd.transpose(x, axes=(0, n + 1) + tuple(range(1, n + 1)))
        weight = nd.transpose(weight, axes=_TO_OI[n])
    stride, padding, dilation = given
    strides, pads, dils = _sizes.conv_geometry(
        tuple(x.shape[2:]), tuple(weight.shape[2:]), stride, padding, dilation
    )
    sym = tuple(min(lo, hi) for lo, hi in pads)
    x = _pad(x, tuple((lo - s, hi - s) for (lo, hi), s in zip(pads, sym)))
    y = nd.Convolution(
        x,
        weight,
        bias,
        kernel=tuple(weight.shape[2:]),
        stride=strides,
        dilate=dils,
        pad=sym,
        num_filter=weight.shape[0],
        num_group=groups,
        no_bias=bias is None,
    )
    if last:
        y = nd.transpose(y, axes=(0,) + tuple(range(2, n + 2)) + (1,))
    return _cast(y, dt)


nn_conv1d = numpy_shapes(_nn.conv_for(_conv, 1, "mxnet"))
nn_conv2d = numpy_shapes(_nn.conv_for(_conv, 2, "mxnet"))


@numpy_shapes
def nn_gelu(x: Any, approximate: str) -> Any:
    dt = np.dtype(x.dtype)
    if dt.kind != "f":
        raise TypeError(f"gelu: expected a floating-point array, got {dt}")
    if approximate == "tanh":
        return _nn.tanh_gelu(x, _tanh)
    v = _cast(x, _F32) if dt == _F16 else x
    return _cast(v * (nd.erf(v * (1.0 / math.sqrt(2.0))) + 1.0) * 0.5, dt)

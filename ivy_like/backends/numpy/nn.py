"""numpy backend: ivy_like.nn ops.

NumPy has no convolution, so ``conv1d``/``conv2d`` are written here with
``sliding_window_view`` and one ``einsum`` per call (groups as a batch axis). ``gelu`` needs
erf, which NumPy lacks: it is evaluated with ``math.erf`` elementwise in float64 (exact to
float64 rounding; slow, but the numpy backend is the reference, not the fast path). Every
other nn op is its composite declaration in ``ivy_like/ops/nn/``: no numpy kernel computes
them faster at the sizes the converted models use, and the composites give PyTorch's
gradients at the corners.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ivy_like.ops.nn import sizes as _sizes

from .._common import nn as _nn

# channels-last weight (spatial..., I, O) -> channels-first (O, I, spatial...)
_TO_OI = {1: (2, 1, 0), 2: (3, 2, 0, 1)}


def _conv(n: int, x: Any, weight: Any, bias: Any, given: Any, groups: int, last: bool) -> Any:
    x, weight = np.asarray(x), np.asarray(weight)
    if last:
        x = np.moveaxis(x, -1, 1)
        weight = weight.transpose(_TO_OI[n])
    stride, padding, dilation = given
    strides, pads, dils = _sizes.conv_geometry(
        x.shape[2:], weight.shape[2:], stride, padding, dilation
    )
    x = np.pad(x, [(0, 0), (0, 0), *pads])
    kernel = weight.shape[2:]
    span = tuple((k - 1) * d + 1 for k, d in zip(kernel, dils))
    win = sliding_window_view(x, span, axis=tuple(range(2, 2 + n)))  # (N, C, *out, *span)
    picks = tuple(slice(None, None, s) for s in strides) + tuple(slice(None, None, d) for d in dils)
    win = win[(slice(None), slice(None), *picks)]  # (N, C, *out, *kernel)
    batch, channels = x.shape[:2]
    out_sp = win.shape[2 : 2 + n]
    c_out = weight.shape[0]
    win = win.reshape(batch, groups, channels // groups, *out_sp, *kernel)
    w = weight.reshape(groups, c_out // groups, channels // groups, *kernel)
    sp, ks = "hw"[:n], "ij"[:n]
    y = np.einsum(f"ngc{sp}{ks},goc{ks}->ngo{sp}", win, w, optimize=True)
    y = y.reshape(batch, c_out, *out_sp).astype(np.result_type(x, weight), copy=False)
    if bias is not None:
        y = y + np.asarray(bias).reshape((1, -1) + (1,) * n)
    return np.moveaxis(y, 1, -1) if last else y


nn_conv1d = _nn.conv_for(_conv, 1, "numpy")
nn_conv2d = _nn.conv_for(_conv, 2, "numpy")


_erf = np.frompyfunc(math.erf, 1, 1)


def nn_gelu(x: Any, approximate: str) -> Any:
    x = np.asarray(x)
    if approximate == "tanh":
        return _nn.tanh_gelu(x, np.tanh)
    x64 = x.astype(np.float64)
    # np.asarray: frompyfunc gives a Python float for a 0-d input
    phi = 0.5 * (1.0 + np.asarray(_erf(x64 / math.sqrt(2.0)), np.float64))
    return (x64 * phi).astype(x.dtype)

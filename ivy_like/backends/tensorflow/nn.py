"""tensorflow backend: ivy_like.nn ops: ``tf.nn`` activations, convolutions and pooling. Ops
not defined here are the composite declarations in ``ivy_like/ops/nn/``.

TensorFlow's CPU kernels convolve channels-last only (NHWC with HWIO weights), so NCHW/OIHW
inputs are transposed in and out. Padding is applied with ``tf.pad`` (explicit, possibly
asymmetric pairs) and the convolution runs ``VALID``. Where TF refuses a combination on CPU
(strides together with dilations, grouped convolutions) the result is computed the long way
round: stride 1 then subsampling, and one convolution per group.
"""

from __future__ import annotations

import math
from typing import Any

import tensorflow as tf

from ivy_like.ops.nn import sizes as _sizes

from .._common import nn as _nn

nn_relu = tf.nn.relu
nn_sigmoid = tf.math.sigmoid
nn_silu = tf.nn.silu


def nn_gelu(x: Any, approximate: str) -> Any:
    if approximate == "tanh":
        return tf.nn.gelu(x, approximate=True)
    # tf.nn.gelu's exact form is off by ~5e-9 in float64 (a float32 constant inside)
    return 0.5 * x * (1.0 + tf.math.erf(x * _SQRT_HALF))


nn_softmax = tf.nn.softmax  # (x, axis), the axis checked before
nn_log_softmax = tf.nn.log_softmax
_composite = _nn.composites_of("tensorflow")


def nn_linear(x: Any, weight: Any, bias: Any) -> Any:
    """One MatMul with ``transpose_b`` (then a broadcast add) for floating inputs of one dtype
    and at least two axes; the composite (its promotion, a 1-D ``x``) otherwise. The
    composite's explicit Transpose costs a compiled MLP's loss and gradient ~40 %: its
    gradient is a second transpose per layer, where MatMul's own takes the flag."""
    dtype, rank = x.dtype, x.shape.rank
    if (
        rank is not None
        and rank >= 2
        and dtype.is_floating
        and weight.dtype == dtype
        and (bias is None or bias.dtype == dtype)
    ):
        y = tf.matmul(x, weight, transpose_b=True)
        return y if bias is None else y + bias
    return _composite("nn.linear")(x, weight, bias)


_SQRT_HALF = math.sqrt(0.5)

_TO_LAST = {1: (0, 2, 1), 2: (0, 2, 3, 1)}
_TO_FIRST = {1: (0, 2, 1), 2: (0, 3, 1, 2)}
_W_TO_LAST = {1: (2, 1, 0), 2: (2, 3, 1, 0)}  # (O, I, spatial...) -> (spatial..., I, O)
_CHANNELS_LAST = {1: "NWC", 2: "NHWC"}


def _conv(n: int, x: Any, weight: Any, bias: Any, given: Any, groups: int, last: bool) -> Any:
    if not last:
        x = tf.transpose(x, _TO_LAST[n])
        weight = tf.transpose(weight, _W_TO_LAST[n])
    stride, padding, dilation = given
    strides, pads, dils = _sizes.conv_geometry(
        tuple(x.shape[1:-1]), tuple(weight.shape[:-2]), stride, padding, dilation
    )
    if any(lo or hi for lo, hi in pads):
        x = tf.pad(x, [(0, 0), *pads, (0, 0)])
    dilated = any(d > 1 for d in dils)
    run_strides = (1,) * n if dilated else strides
    # data_format given: without it the op records none, and TensorFlow's eager gradient of
    # that op's gradient (a second derivative) fails reading it ("'NoneType' object has no
    # attribute 'decode'", TF 2.21).
    fmt = _CHANNELS_LAST[n]
    if groups == 1:
        y = tf.nn.convolution(x, weight, run_strides, "VALID", dilations=dils, data_format=fmt)
    else:
        xs = tf.split(x, groups, axis=-1)
        ws = tf.split(weight, groups, axis=-1)
        y = tf.concat(
            [
                tf.nn.convolution(a, w, run_strides, "VALID", dilations=dils, data_format=fmt)
                for a, w in zip(xs, ws)
            ],
            axis=-1,
        )
    if dilated and any(s > 1 for s in strides):
        y = y[(slice(None), *(slice(None, None, s) for s in strides), slice(None))]
    if bias is not None:
        y = y + bias
    return y if last else tf.transpose(y, _TO_FIRST[n])


nn_conv1d = _nn.conv_for(_conv, 1, "tensorflow")
nn_conv2d = _nn.conv_for(_conv, 2, "tensorflow")


def _pool(x: Any, kernel_size: Any, stride: Any, padding: Any, fmt: str, fill: float) -> Any:
    kernel, strides, pads, last = _sizes.pool_geometry(x.shape, kernel_size, stride, padding, fmt)
    if not last:
        x = tf.transpose(x, (0, 2, 3, 1))
    if any(pads):
        widths = [(0, 0), (pads[0], pads[0]), (pads[1], pads[1]), (0, 0)]
        if fill:
            # tf.vectorized_map's rule for PadV2 drops constant_values (it pads with 0), so
            # under vmap a border of 0 would win the max over negative values: the fill goes
            # in through a mask of the border (one image and channel, broadcast).
            inside = tf.pad(tf.ones_like(x[:1, :, :, :1], dtype=tf.bool), widths)
            # an integer's max pads with its dtype's minimum (-inf has no integer value)
            border = fill if x.dtype.is_floating else x.dtype.min
            x = tf.where(inside, tf.pad(x, widths), tf.constant(border, x.dtype))
        else:
            x = tf.pad(x, widths)
    y = (tf.nn.max_pool2d if fill else tf.nn.avg_pool2d)(x, kernel, strides, "VALID")
    return y if last else tf.transpose(y, (0, 3, 1, 2))


def nn_max_pool2d(x: Any, kernel_size: Any, stride: Any, padding: Any, data_format: str) -> Any:
    if x.dtype == tf.bool:  # tf.nn.max_pool2d pools numbers only; the composite booleans too
        return _composite("nn.max_pool2d")(x, kernel_size, stride, padding, data_format)
    return _pool(x, kernel_size, stride, padding, data_format, -math.inf)


def nn_avg_pool2d(x: Any, kernel_size: Any, stride: Any, padding: Any, data_format: str) -> Any:
    # VALID windows over the zero-padded input: the padding counts in the mean (torch default)
    return _pool(x, kernel_size, stride, padding, data_format, 0.0)

"""jax backend: ivy_like.nn ops (issue 6): ``jax.nn`` activations, ``lax`` convolutions and
pooling windows. Ops not defined here are the composite declarations in ``ivy_like/ops/nn.py``.

``jax.nn.relu`` has derivative 0 at 0 (like torch and the composite); ``jnp.maximum`` would
split it (0.5), which is why it is not used.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
from jax import lax

from ivy_like.ops.nn import check_axis, check_conv, check_gelu, conv_geometry, pool_geometry

nn_relu = jax.nn.relu
nn_sigmoid = jax.nn.sigmoid
nn_silu = jax.nn.silu


def nn_gelu(x: Any, approximate: str = "none") -> Any:
    check_gelu(approximate)
    return jax.nn.gelu(x, approximate=approximate == "tanh")


def nn_softmax(x: Any, axis: int = -1) -> Any:
    check_axis("softmax", len(x.shape), axis)
    return jax.nn.softmax(x, axis=axis)


def nn_log_softmax(x: Any, axis: int = -1) -> Any:
    check_axis("log_softmax", len(x.shape), axis)
    return jax.nn.log_softmax(x, axis=axis)


_DIMS = {
    (1, False): ("NCH", "OIH", "NCH"),
    (1, True): ("NHC", "HIO", "NHC"),
    (2, False): ("NCHW", "OIHW", "NCHW"),
    (2, True): ("NHWC", "HWIO", "NHWC"),
}


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
        x.shape,
        weight.shape,
        n,
        groups,
        data_format,
        None if bias is None else tuple(bias.shape),
    )
    spatial = x.shape[1:-1] if last else x.shape[2:]
    kernel = weight.shape[:-2] if last else weight.shape[2:]
    strides, pads, dils = conv_geometry(who, spatial, kernel, stride, padding, dilation)
    y = lax.conv_general_dilated(
        x,
        weight,
        window_strides=strides,
        padding=pads,
        rhs_dilation=dils,
        dimension_numbers=_DIMS[(n, last)],
        feature_group_count=groups,
        precision=lax.Precision.HIGHEST,
    )
    if bias is not None:
        y = y + (bias if last else bias.reshape((-1,) + (1,) * n))
    return y


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


def _window(who: str, x: Any, kernel_size: Any, stride: Any, padding: Any, fmt: str) -> Any:
    kernel, strides, pads, last = pool_geometry(
        who, tuple(x.shape), kernel_size, stride, padding, fmt
    )
    if last:
        return (1, *kernel, 1), (1, *strides, 1), ((0, 0), *((p, p) for p in pads), (0, 0)), kernel
    return (1, 1, *kernel), (1, 1, *strides), ((0, 0), (0, 0), *((p, p) for p in pads)), kernel


def nn_max_pool2d(
    x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, data_format: str = "NCHW"
) -> Any:
    dims, strides, pads, _ = _window("max_pool2d", x, kernel_size, stride, padding, data_format)
    return lax.reduce_window(x, jnp.array(-jnp.inf, x.dtype), lax.max, dims, strides, pads)


def nn_avg_pool2d(
    x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, data_format: str = "NCHW"
) -> Any:
    dims, strides, pads, kernel = _window(
        "avg_pool2d", x, kernel_size, stride, padding, data_format
    )
    total = lax.reduce_window(x, jnp.array(0, x.dtype), lax.add, dims, strides, pads)
    return total / (kernel[0] * kernel[1])  # zero padding counted, as PyTorch's default

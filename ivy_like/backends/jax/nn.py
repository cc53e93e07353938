"""jax backend: ivy_like.nn ops: ``jax.nn`` activations, ``lax`` convolutions and pooling
windows. Ops not defined here are the composite declarations in ``ivy_like/ops/nn/``.

``jax.nn.relu`` has derivative 0 at 0 (like torch and the composite); ``jnp.maximum`` would
split it (0.5), which is why it is not used.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ivy_like.ops.nn import sizes as _sizes

from .._common import nn as _nn

nn_relu = jax.nn.relu
nn_sigmoid = jax.nn.sigmoid
nn_silu = jax.nn.silu


def nn_gelu(x: Any, approximate: str) -> Any:
    return jax.nn.gelu(x, approximate=approximate == "tanh")


def _shifted(x: Any, axis: int) -> Any:
    """``x`` minus its maximum along ``axis``, shifted twice. XLA's CPU compiler may compute
    a value feeding both the maximum and the subtraction twice, once rounded and once inside
    a fused multiply-add (a mean is a multiply by 1/n), so that at logits of 1e9 and more the
    shift is off by hundreds and every exp underflows (0/0: ``jax.nn.softmax`` gives NaN).
    The second shift works on small values, where such a difference is negligible. (The
    initial -inf: an empty axis, as attention over no keys, has no maximum.)"""
    s = x - jax.lax.stop_gradient(jnp.max(x, axis, keepdims=True, initial=-jnp.inf))
    return s - jax.lax.stop_gradient(jnp.max(s, axis, keepdims=True, initial=-jnp.inf))


def nn_softmax(x: Any, axis: int) -> Any:  # the axis checked before
    e = jnp.exp(_shifted(x, axis))
    return e / jnp.sum(e, axis, keepdims=True)


def nn_log_softmax(x: Any, axis: int) -> Any:
    s = _shifted(x, axis)
    return s - jnp.log(jnp.sum(jnp.exp(s), axis, keepdims=True))


_composite = _nn.composites_of("jax")


def nn_scaled_dot_product_attention(
    query: Any, key: Any, value: Any, attn_mask: Any, is_causal: bool, scale: float | None
) -> Any:
    """``jax.nn.dot_product_attention`` where it computes the composite's function; the
    composite otherwise.

    With it ``nn.TransformerBlock`` compiles, fusion for fusion, to the program of JAX's own
    block (the swapped axes below cancel against the block's head split); the composite's
    matmuls on (batch, heads, length, dim) lay the scores out differently, ~1% slower at
    d_model 32. Values are the composite's to the bit there.

    The kernel takes 3-D or 4-D float32 q, k, v of the same batch axes and k, v of one
    shape, without ``attn_mask``: JAX fills masked scores with a large finite negative, so a
    fully masked row would be uniform where the composite's is NaN, and it refuses float
    masks. Its causal mask is the composite's ``tril`` (position 0 kept in every row, so no
    row is fully masked). Empty q or k take the composite too."""
    if (
        attn_mask is None
        and query.ndim in (3, 4)
        and key.ndim == query.ndim
        and key.shape == value.shape
        and query.shape[:-2] == key.shape[:-2]
        and query.shape[-1] == key.shape[-1]
        and query.dtype == key.dtype == value.dtype == jnp.float32
        and query.size
        and key.size  # JAX divides by the number of heads, and by the embedding size
    ):
        if query.ndim == 3:  # one head: (batch, length, dim) -> (batch, length, 1, dim)
            q, k, v = query[:, :, None], key[:, :, None], value[:, :, None]
            out = jax.nn.dot_product_attention(q, k, v, scale=scale, is_causal=is_causal)
            return out[:, :, 0]
        q, k, v = (jnp.swapaxes(t, 1, 2) for t in (query, key, value))
        out = jax.nn.dot_product_attention(q, k, v, scale=scale, is_causal=is_causal)
        return jnp.swapaxes(out, 1, 2)
    return _composite("nn.scaled_dot_product_attention")(
        query, key, value, attn_mask, is_causal, scale
    )


_DIMS = {
    (1, False): ("NCH", "OIH", "NCH"),
    (1, True): ("NHC", "HIO", "NHC"),
    (2, False): ("NCHW", "OIHW", "NCHW"),
    (2, True): ("NHWC", "HWIO", "NHWC"),
}


def _conv(n: int, x: Any, weight: Any, bias: Any, given: Any, groups: int, last: bool) -> Any:
    spatial = x.shape[1:-1] if last else x.shape[2:]
    kernel = weight.shape[:-2] if last else weight.shape[2:]
    stride, padding, dilation = given
    strides, pads, dils = _sizes.conv_geometry(spatial, kernel, stride, padding, dilation)
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


nn_conv1d = _nn.conv_for(_conv, 1, "jax")
nn_conv2d = _nn.conv_for(_conv, 2, "jax")


def _window(x: Any, kernel_size: Any, stride: Any, padding: Any, fmt: str) -> Any:
    kernel, strides, pads, last = _sizes.pool_geometry(x.shape, kernel_size, stride, padding, fmt)
    if last:
        return (1, *kernel, 1), (1, *strides, 1), ((0, 0), *((p, p) for p in pads), (0, 0)), kernel
    return (1, 1, *kernel), (1, 1, *strides), ((0, 0), (0, 0), *((p, p) for p in pads)), kernel


def nn_max_pool2d(x: Any, kernel_size: Any, stride: Any, padding: Any, data_format: str) -> Any:
    if x.dtype == jnp.bool_:  # no iinfo for booleans: the composite pools them
        return _composite("nn.max_pool2d")(x, kernel_size, stride, padding, data_format)
    dims, strides, pads, _ = _window(x, kernel_size, stride, padding, data_format)
    # A Python scalar start value: JAX recognises max with -inf as reduce_window_max, which
    # differentiates under jit; a jnp array start value would be a generic reduce_window.
    # An integer's start value is its dtype's minimum in that dtype: a Python int is taken as
    # int32, which reduce_window refuses for the other integer dtypes.
    if jnp.issubdtype(x.dtype, jnp.inexact):
        low: Any = -jnp.inf
    else:
        low = np.array(jnp.iinfo(x.dtype).min, x.dtype)[()]
    return lax.reduce_window(x, low, lax.max, dims, strides, pads)


def nn_avg_pool2d(x: Any, kernel_size: Any, stride: Any, padding: Any, data_format: str) -> Any:
    dims, strides, pads, kernel = _window(x, kernel_size, stride, padding, data_format)
    # A Python scalar start value, as in max_pool2d: reduce_window_sum differentiates under jit.
    total = lax.reduce_window(
        x, 0 if jnp.issubdtype(x.dtype, jnp.integer) else 0.0, lax.add, dims, strides, pads
    )
    return total / (kernel[0] * kernel[1])  # zero padding counted, as PyTorch's default

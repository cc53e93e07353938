"""ATen ops -> ivy_like: normalization layers (``layer_norm``, ``batch_norm``, ``group_norm``).

Registered in the table of :mod:`.registry` by the ``@aten`` decorator.
"""

from __future__ import annotations

from typing import Any

import ivy_like as il

from .registry import _ndim, _shape_of, aten


# -- normalization -------------------------------------------------------------------------------
@aten("layer_norm.default")
def layer_norm(
    x: Any,
    normalized_shape: Any,
    weight: Any = None,
    bias: Any = None,
    eps: float = 1e-5,
    cudnn_enable: bool = True,
) -> Any:
    return il.nn.layer_norm(x, _shape_of(normalized_shape), weight, bias, eps)


@aten("native_layer_norm.default")
def native_layer_norm(
    x: Any, normalized_shape: Any, weight: Any, bias: Any, eps: float
) -> tuple[Any, Any, Any]:
    axes = tuple(range(-len(normalized_shape), 0))
    mu = il.mean(x, axis=axes, keepdims=True)
    centered = il.subtract(x, mu)
    rstd = il.reciprocal(
        il.sqrt(il.add(il.mean(il.square(centered), axis=axes, keepdims=True), eps))
    )
    y = il.multiply(centered, rstd)
    if weight is not None:
        y = il.multiply(y, weight)
    if bias is not None:
        y = il.add(y, bias)
    return y, mu, rstd


def _batch_stats_norm(x: Any, weight: Any, bias: Any, eps: float) -> Any:
    """Batch norm with the batch's own statistics (biased variance), as torch normalizes."""
    n = _ndim(x)
    axes = (0, *range(2, n))
    shape = (1, -1) + (1,) * (n - 2)
    mu = il.mean(x, axis=axes, keepdims=True)
    centered = il.subtract(x, mu)
    var = il.mean(il.square(centered), axis=axes, keepdims=True)
    y = il.divide(centered, il.sqrt(il.add(var, eps)))
    if weight is not None:
        y = il.multiply(y, il.reshape(weight, shape))
    return y if bias is None else il.add(y, il.reshape(bias, shape))


@aten("batch_norm.default")
def batch_norm(
    x: Any,
    weight: Any,
    bias: Any,
    running_mean: Any,
    running_var: Any,
    training: bool,
    momentum: float,
    eps: float,
    cudnn_enabled: bool = True,
) -> Any:
    if training or running_mean is None:
        return _batch_stats_norm(x, weight, bias, eps)
    return il.nn.batch_norm(x, running_mean, running_var, weight, bias, eps=eps)


@aten("_native_batch_norm_legit_no_training.default", outputs=(0,))
def native_batch_norm_eval(
    x: Any, weight: Any, bias: Any, running_mean: Any, running_var: Any, momentum: float, eps: float
) -> tuple[Any, None, None]:
    return il.nn.batch_norm(x, running_mean, running_var, weight, bias, eps=eps), None, None


@aten("_native_batch_norm_legit.no_stats", outputs=(0,))
def native_batch_norm_batch_stats(
    x: Any, weight: Any, bias: Any, training: bool, momentum: float, eps: float
) -> tuple[Any, None, None]:
    return _batch_stats_norm(x, weight, bias, eps), None, None


@aten("group_norm.default")
def group_norm(
    x: Any,
    num_groups: int,
    weight: Any = None,
    bias: Any = None,
    eps: float = 1e-5,
    cudnn_enabled: bool = True,
) -> Any:
    return il.nn.group_norm(x, num_groups, weight, bias, eps)

"""Normalization in the nn family: ``layer_norm``, ``batch_norm`` (at inference, from running
statistics) and ``group_norm``, each scaled by ``weight`` and shifted by ``bias``.
``layer_norm`` and ``batch_norm`` check in their bodies: their fast kernels (torch's) hand
every argument they do not take, bad ones included, to the composite.
"""

from __future__ import annotations

import sys
from typing import Any

from ...core.registry import op
from ._helpers import NN, check_axis, dims, int_shape, is_int_value, optional_dims


@op(arrays=("x", "weight", "bias"), **NN)
def layer_norm(
    x: Any, normalized_shape: Any, weight: Any = None, bias: Any = None, eps: float = 1e-5
):
    """Normalize over the trailing ``normalized_shape`` axes (biased variance, as PyTorch),
    then scale by ``weight`` and shift by ``bias``.

    Examples
    --------
    >>> import ivy_like
    >>> y = ivy_like.nn.layer_norm(ivy_like.array([[1., 3.], [2., 2.]]), 2)
    >>> [[round(float(v), 4) for v in row] for row in y.to_numpy()]
    [[-1.0, 1.0], [0.0, 0.0]]
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    dims = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    shape = tuple(x.shape)  # only the trailing sizes are read: the others may be dynamic
    if tuple(shape[len(shape) - len(dims) :]) != dims:
        raise ValueError(
            f"layer_norm: normalized_shape {dims} does not match the trailing axes of x {shape}"
        )
    axes = tuple(range(-len(dims), 0))
    mu = il.mean(x, axis=axes, keepdims=True)
    centered = x - mu
    var = il.mean(centered * centered, axis=axes, keepdims=True)
    y = centered / il.sqrt(var + eps)
    if weight is not None:
        y = y * weight
    return y if bias is None else y + bias


@op(arrays=("x", "running_mean", "running_var", "weight", "bias"), **NN)
def batch_norm(
    x: Any,
    running_mean: Any,
    running_var: Any,
    weight: Any = None,
    bias: Any = None,
    eps: float = 1e-5,
    axis: int = 1,
):
    """Batch normalization at inference: ``(x - running_mean) / sqrt(running_var + eps)``,
    scaled and shifted, with the statistics taken along the channel ``axis`` (1: NC...).

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([[1., 2.], [3., 4.]])
    >>> ivy_like.nn.batch_norm(x, ivy_like.array([1., 2.]), ivy_like.array([4., 1.]), eps=0.)
    ivy_like.array([[0., 0.],
                    [1., 2.]])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    ndim = len(int_shape(x))
    if ndim < 2:
        raise ValueError(f"batch_norm: x must have at least 2 dimensions, got {ndim}")
    check_axis("batch_norm", ndim, axis)
    channels = int_shape(x)[axis]
    for name, v in (
        ("running_mean", running_mean),
        ("running_var", running_var),
        ("weight", weight),
        ("bias", bias),
    ):
        if v is not None and int_shape(v) != (channels,):
            raise ValueError(
                f"batch_norm: {name} must have shape ({channels},) (the channels of x along "
                f"axis {axis}), got {int_shape(v)}"
            )
    shape = [1] * ndim
    shape[axis % ndim] = -1

    def channel(v: Any) -> Any:
        return il.reshape(v, tuple(shape))

    y = (x - channel(running_mean)) / il.sqrt(channel(running_var) + eps)
    if weight is not None:
        y = y * channel(weight)
    return y if bias is None else y + channel(bias)


def _check_group_norm(x: Any, num_groups: Any, weight: Any, bias: Any, eps: Any) -> None:
    who = "group_norm"
    x, weight, bias = dims(x), optional_dims(weight), optional_dims(bias)
    if len(x) < 2:
        raise ValueError(f"{who}: x must be at least 2-D (N, C, ...), got shape {x}")
    if not is_int_value(num_groups) or num_groups < 1:
        raise TypeError(f"{who}: num_groups must be a positive int, got {num_groups!r}")
    if x[1] % num_groups:
        raise ValueError(
            f"{who}: num_groups ({num_groups}) must divide the {x[1]} channels (axis 1)"
        )
    for name, s in (("weight", weight), ("bias", bias)):
        if s is not None and s != (x[1],):
            raise ValueError(f"{who}: {name} must have shape ({x[1]},), got {s}")


@op(arrays=("x", "weight", "bias"), check=_check_group_norm, **NN)
def group_norm(x: Any, num_groups: int, weight: Any = None, bias: Any = None, eps: float = 1e-5):
    """Group normalization (``torch.nn.functional.group_norm``): the channels (axis 1) of
    each sample are split into ``num_groups`` groups, each normalized by its own mean and
    biased variance, then scaled by ``weight`` and shifted by ``bias`` (per channel).

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.reshape(ivy_like.array([1., 3., 0., 4.]), (1, 2, 2))
    >>> ivy_like.nn.group_norm(x, 2, eps=0.0)
    ivy_like.array([[[-1.,  1.],
                     [-1.,  1.]]])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    shape = int_shape(x)
    grouped = il.reshape(x, (shape[0], num_groups, -1))
    centered = grouped - il.mean(grouped, axis=-1, keepdims=True)
    var = il.mean(centered * centered, axis=-1, keepdims=True)
    y = il.reshape(centered / il.sqrt(var + eps), shape)
    channel = (1, -1) + (1,) * (len(shape) - 2)
    if weight is not None:
        y = y * il.reshape(weight, channel)
    return y if bias is None else y + il.reshape(bias, channel)

"""torch backend: the ivy_like.nn ops of ``ivy_like/ops/nn_layers.py`` (issue 22).

``torch.nn.functional``'s kernels and ``torch.lstm`` / ``torch.lstm_cell`` / ``torch.gru_cell``
(the fused kernels ``torch.nn.LSTM`` and ``GRUCell`` run), after the checks every backend makes. They compute what the composite
declarations compute, with the same gradients.
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F

from ivy_like.ops.nn_layers import (
    adaptive_output_size,
    check_bounds,
    check_conv_transpose2d,
    check_group_norm,
    check_gru_cell,
    check_lstm_cell,
    interpolate_plan,
    lstm_weights_per_layer,
)

from .nn import _composite


def _same_float(*tensors: Any) -> bool:
    """Whether torch's kernels take these (x first): floating tensors of one dtype. Mixed
    dtypes, which torch's kernels refuse, take the composite, which promotes them."""
    dtype = tensors[0].dtype
    return dtype.is_floating_point and all(t is None or t.dtype == dtype for t in tensors)


nn_relu6 = F.relu6
nn_hardsigmoid = F.hardsigmoid
nn_hardswish = F.hardswish


def nn_adaptive_avg_pool2d(x: Any, output_size: Any) -> Any:
    size = adaptive_output_size("adaptive_avg_pool2d", tuple(x.shape), output_size)
    return F.adaptive_avg_pool2d(x, size)


def nn_hardtanh(x: Any, min_val: float = -1.0, max_val: float = 1.0) -> Any:
    lo, hi = check_bounds("hardtanh", min_val, max_val)
    return F.hardtanh(x, lo, hi)


def nn_lstm_cell(
    x: Any, h: Any, c: Any, w_ih: Any, w_hh: Any, b_ih: Any = None, b_hh: Any = None
) -> Any:
    check_lstm_cell(
        tuple(x.shape), tuple(h.shape), tuple(c.shape), tuple(w_ih.shape), tuple(w_hh.shape)
    )
    if x.ndim == 1:  # torch.lstm_cell takes a batch only
        h1, c1 = torch.lstm_cell(x[None], (h[None], c[None]), w_ih, w_hh, b_ih, b_hh)
        return h1[0], c1[0]
    return torch.lstm_cell(x, (h, c), w_ih, w_hh, b_ih, b_hh)


def nn_lstm(
    x: Any,
    weights: Any,
    h0: Any = None,
    c0: Any = None,
    num_layers: int = 1,
    bias: bool = True,
    batch_first: bool = False,
    bidirectional: bool = False,
) -> Any:
    lstm_weights_per_layer("lstm", len(weights), num_layers, bias, bidirectional)
    if x.ndim != 3:
        raise ValueError(f"lstm: x must be 3-D (time, batch, input), got shape {tuple(x.shape)}")
    states = (
        num_layers * (2 if bidirectional else 1),
        x.shape[0 if batch_first else 1],
        weights[1].shape[1],
    )
    h0 = x.new_zeros(states) if h0 is None else h0
    c0 = x.new_zeros(states) if c0 is None else c0
    for name, s in (("h0", h0), ("c0", c0)):
        if tuple(s.shape) != states:
            raise ValueError(f"lstm: {name} must have shape {states}, got {tuple(s.shape)}")
    # dropout 0 and train=False: inference, as the composite computes
    return torch.lstm(
        x, (h0, c0), list(weights), bias, num_layers, 0.0, False, bidirectional, batch_first
    )


def nn_gru_cell(x: Any, h: Any, w_ih: Any, w_hh: Any, b_ih: Any = None, b_hh: Any = None) -> Any:
    check_gru_cell(tuple(x.shape), tuple(h.shape), tuple(w_ih.shape), tuple(w_hh.shape))
    if x.ndim == 1:  # torch.gru_cell takes a batch only
        return torch.gru_cell(x[None], h[None], w_ih, w_hh, b_ih, b_hh)[0]
    return torch.gru_cell(x, h, w_ih, w_hh, b_ih, b_hh)


def nn_group_norm(
    x: Any, num_groups: int, weight: Any = None, bias: Any = None, eps: float = 1e-5
) -> Any:
    check_group_norm(
        tuple(x.shape),
        num_groups,
        None if weight is None else tuple(weight.shape),
        None if bias is None else tuple(bias.shape),
    )
    if not _same_float(x, weight, bias):
        return _composite("nn.group_norm")(x, num_groups, weight, bias, eps)
    return F.group_norm(x, num_groups, weight, bias, eps)


def nn_adaptive_max_pool2d(x: Any, output_size: Any) -> Any:
    size = adaptive_output_size("adaptive_max_pool2d", tuple(x.shape), output_size)
    return F.adaptive_max_pool2d(x, size)


def nn_conv_transpose2d(
    x: Any,
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
) -> Any:
    s, p, op_, d = check_conv_transpose2d(
        tuple(x.shape),
        tuple(weight.shape),
        None if bias is None else tuple(bias.shape),
        stride,
        padding,
        output_padding,
        groups,
        dilation,
    )
    # mixed dtypes: torch's error, as nn.conv2d (which the composite runs) gives on torch
    return F.conv_transpose2d(x, weight, bias, s, p, op_, groups, d)


def nn_interpolate(
    x: Any,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: Any = None,
) -> Any:
    plan, corners = interpolate_plan(tuple(x.shape), size, scale_factor, mode, align_corners)
    if not x.dtype.is_floating_point:  # torch resizes floats only; the composite any dtype
        return _composite("nn.interpolate")(x, size, scale_factor, mode, align_corners)
    sizes = [n_out for _, n_out, _ in plan]
    # the scale factors that set the sizes map positions back, as the composite does
    scales = None if size is not None else [scale for _, _, scale in plan]
    return F.interpolate(
        x,
        size=sizes if scales is None else None,
        scale_factor=scales,
        mode=mode,
        align_corners=corners if mode == "bilinear" else None,
    )

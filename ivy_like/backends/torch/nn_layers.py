"""torch backend: the ivy_like.nn ops of ``ivy_like/ops/nn_layers.py`` (issue 22).

``torch.nn.functional``'s kernels and ``torch.lstm`` / ``torch.lstm_cell`` (the fused kernels
``torch.nn.LSTM`` runs), after the checks every backend makes. They compute what the composite
declarations compute, with the same gradients.
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F

from ivy_like.ops.nn_layers import (
    adaptive_output_size,
    check_bounds,
    check_lstm_cell,
    lstm_weights_per_layer,
)

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

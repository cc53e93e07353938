"""3-d convolution composed of ivy_like ops, for the converters (ivy_like has conv1d and conv2d
only): ATen's ``conv3d``/``convolution`` with three spatial axes map here, and a 3-D
``conv_general_dilated`` can.

The depth axis is unrolled into the channels ("im2col" along depth only): for every output
depth position the ``KD`` input depth slices its kernel reads are stacked as channels and the
batch takes the output depth positions, so one ``conv2d`` with the weight's depth folded into
its input channels computes the whole convolution. Each output is the same sum of products as
a 3-d convolution's (only the order of the additions differs), and every step (pad, strided
slices, stack, reshape, transpose, conv2d) is differentiable on every backend.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ivy_like as il

Pads = Sequence[Any]  # per axis: an int (both sides) or a (lo, hi) pair


def _pads(padding: Pads) -> tuple[tuple[int, int], ...]:
    return tuple(
        (int(p[0]), int(p[1])) if isinstance(p, (list, tuple)) else (int(p), int(p))
        for p in padding
    )


def _depth_windows(x: Any, k: int, stride: int, dilation: int) -> tuple[Any, int]:
    """``x`` (N, C, D, H, W) as (N, C, Do, k, H, W): the ``k`` depth slices each of the ``Do``
    output depth positions reads (strided slices, stacked), and ``Do``."""
    depth = int(x.shape[2])
    out = (depth - dilation * (k - 1) - 1) // stride + 1
    if out < 1:
        raise ValueError(
            f"conv3d: the (padded) input of depth {depth} is smaller than the dilated kernel "
            f"of depth {dilation * (k - 1) + 1}"
        )
    span = stride * (out - 1) + 1
    slices = [x[:, :, i * dilation : i * dilation + span : stride] for i in range(k)]
    return il.stack(slices, axis=3), out


def conv3d(
    x: Any,
    weight: Any,
    bias: Any,
    stride: Sequence[int],
    padding: Pads,
    dilation: Sequence[int],
    groups: int,
) -> Any:
    """3-d convolution (cross-correlation) of ``x`` (N, C, D, H, W) with ``weight``
    (O, C/groups, KD, KH, KW) and an optional ``bias`` (O,), as PyTorch's ``conv3d``.

    ``stride`` and ``dilation`` are 3 ints (depth, height, width), ``padding`` 3 ints or
    ``(lo, hi)`` pairs of zeros. Computed as one ``ivy_like.nn.conv2d`` over the depth
    windows (see the module's docstring): exact and differentiable on every backend.
    """
    n, c = int(x.shape[0]), int(x.shape[1])
    o, c_g, kd, kh, kw = (int(s) for s in weight.shape)
    g = int(groups)
    (dlo, dhi), *hw_pads = _pads(padding)
    if dlo or dhi:
        x = il.pad(x, ((0, 0), (0, 0), (dlo, dhi), (0, 0), (0, 0)))
    windows, d_out = _depth_windows(x, kd, int(stride[0]), int(dilation[0]))
    h, w = int(x.shape[3]), int(x.shape[4])
    # (N, C, Do, KD, H, W) -> (N*Do, C*KD, H, W), channels ordered (group, kd, channel in group)
    # so that each of conv2d's groups holds its group's channels for every kernel depth
    windows = il.reshape(windows, (n, g, c_g, d_out, kd, h, w))
    windows = il.permute_dims(windows, (0, 3, 1, 4, 2, 5, 6))
    windows = il.reshape(windows, (n * d_out, c * kd, h, w))
    # (O, C/g, KD, KH, KW) -> (O, KD*C/g, KH, KW), the same (kd, channel) order
    kernel = il.reshape(il.permute_dims(weight, (0, 2, 1, 3, 4)), (o, kd * c_g, kh, kw))
    out = il.nn.conv2d(
        windows,
        kernel,
        bias,
        stride=(int(stride[1]), int(stride[2])),
        padding=tuple(hw_pads),
        dilation=(int(dilation[1]), int(dilation[2])),
        groups=g,
    )
    h_out, w_out = int(out.shape[2]), int(out.shape[3])
    out = il.reshape(out, (n, d_out, o, h_out, w_out))
    return il.permute_dims(out, (0, 2, 1, 3, 4))

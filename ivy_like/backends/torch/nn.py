"""torch backend: ivy_like.nn ops, mostly ``torch.nn.functional``, and ``torch.lstm`` /
``torch.lstm_cell`` / ``torch.gru_cell`` (the fused kernels ``torch.nn.LSTM`` and ``GRUCell``
run). They compute what the composite declarations in ``ivy_like/ops/nn/`` compute, with the
same gradients. The arguments are checked before a kernel runs (the ops' ``check=``), or, for
the kernels that hand the cases they do not take to the composite, by the composite.

Layouts: torch convolves NCHW inputs with OIHW weights; channels-last ``data_format`` is
permuted in and out. Asymmetric padding (``"same"`` with an even kernel, explicit pairs) goes
through ``F.pad`` first, since ``F.conv2d`` pads symmetrically. The losses run torch's kernels
and apply ``weight``/``pos_weight`` themselves: torch's kernels have no gradient for those
arguments (autograd raises), the composites do.
"""

from __future__ import annotations

import math
from typing import Any

import torch
import torch.nn.functional as F
from torch._functorch.pyfunctorch import retrieve_all_functorch_interpreters

from ivy_like.ops.nn import sizes as _sizes
from ivy_like.ops.nn.losses import label_error, probability_error

from .._common import nn as _nn

_functorch = torch._C._functorch
_functorch_level = _functorch.maybe_current_level
_interpreters = retrieve_all_functorch_interpreters
_is_compiling = torch.compiler.is_compiling
_is_exporting = torch.compiler.is_exporting
_dispatch_modes = torch._C._len_torch_dispatch_stack
_INDEX_DTYPES = frozenset({torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8})
_NEVER_A_LABEL = torch.iinfo(torch.int64).min  # ignore_index, which torch cannot turn off
_composite = _nn.composites_of("torch")


nn_relu = torch.relu  # gradient 0 at 0, as the composite
nn_sigmoid = torch.sigmoid
nn_silu = F.silu


nn_linear = F.linear  # (x, weight, bias)


def nn_gelu(x: Any, approximate: str) -> Any:
    return F.gelu(x, approximate=approximate)


nn_softmax = torch.softmax  # (x, axis), the axis checked before
nn_log_softmax = torch.log_softmax


_FIRST = {1: (0, 2, 1), 2: (0, 3, 1, 2)}  # channels-last -> channels-first
_LAST = {1: (0, 2, 1), 2: (0, 2, 3, 1)}
_W_FIRST = {1: (2, 1, 0), 2: (3, 2, 0, 1)}  # (spatial..., I, O) -> (O, I, spatial...)
_CONV = {1: F.conv1d, 2: F.conv2d}


def _conv(n: int, x: Any, weight: Any, bias: Any, given: Any, groups: int, last: bool) -> Any:
    if last:
        x = x.permute(_FIRST[n])
        weight = weight.permute(_W_FIRST[n])
    stride, padding, dilation = given
    strides, pads, dils = _sizes.conv_geometry(
        tuple(x.shape[2:]), tuple(weight.shape[2:]), stride, padding, dilation
    )
    if all(lo == hi for lo, hi in pads):
        sym = tuple(lo for lo, _ in pads)
    else:
        # F.pad takes (last_lo, last_hi, previous_lo, previous_hi, ...)
        x = F.pad(x, [p for pair in reversed(pads) for p in pair])
        sym = (0,) * n
    y = _CONV[n](x, weight, bias, strides, sym, dils, groups)
    return y.permute(_LAST[n]) if last else y


nn_conv1d = _nn.conv_for(_conv, 1, "torch")
nn_conv2d = _nn.conv_for(_conv, 2, "torch")


def _pool(fn: Any, x: Any, kernel_size: Any, stride: Any, padding: Any, fmt: str) -> Any:
    kernel, strides, pads, last = _sizes.pool_geometry(x.shape, kernel_size, stride, padding, fmt)
    if last:
        x = x.permute(0, 3, 1, 2)
    y = fn(x, kernel, strides, pads)
    return y.permute(0, 2, 3, 1) if last else y


def nn_max_pool2d(x: Any, kernel_size: Any, stride: Any, padding: Any, data_format: str) -> Any:
    if x.dtype == torch.bool:  # torch pools numbers only; the composite booleans too
        return _composite("nn.max_pool2d")(x, kernel_size, stride, padding, data_format)
    return _pool(F.max_pool2d, x, kernel_size, stride, padding, data_format)


def nn_avg_pool2d(x: Any, kernel_size: Any, stride: Any, padding: Any, data_format: str) -> Any:
    return _pool(F.avg_pool2d, x, kernel_size, stride, padding, data_format)


# -- losses: torch.nn.functional's kernels, the arguments checked before (ops/nn/losses.py) ----
def _reduce(losses: Any, reduction: str) -> Any:
    if reduction == "mean":
        return losses.mean()
    return losses.sum() if reduction == "sum" else losses


def nn_binary_cross_entropy(input: Any, target: Any, weight: Any, *, reduction: str) -> Any:
    try:
        losses = F.binary_cross_entropy(
            input, target, reduction=reduction if weight is None else "none"
        )
    except RuntimeError as e:  # torch checks the values itself: only its failure costs more
        if "should be between 0 and 1" not in str(e):
            raise
        values = {"input": input.detach().cpu().numpy(), "target": target.detach().cpu().numpy()}
        raise ValueError(probability_error("binary_cross_entropy", values)) from None
    # torch's weight= has no gradient (an error under autograd): weighed here, as the composite
    return losses if weight is None else _reduce(losses * weight, reduction)


def nn_binary_cross_entropy_with_logits(
    input: Any, target: Any, weight: Any, *, reduction: str, pos_weight: Any
) -> Any:
    if weight is None and pos_weight is None:
        return F.binary_cross_entropy_with_logits(input, target, reduction=reduction)
    # torch's weight= and pos_weight= have no gradient: the composite's formula, in torch ops
    if pos_weight is None:
        losses = F.binary_cross_entropy_with_logits(input, target, reduction="none")
    else:
        log_weight = 1.0 + (pos_weight - 1.0) * target
        losses = (1.0 - target) * input + log_weight * F.softplus(-input)
    return _reduce(losses if weight is None else losses * weight, reduction)


def _same_float(*tensors: Any) -> bool:
    """Whether torch's kernels take these (x first): floating tensors of one dtype. Mixed
    dtypes, which torch's kernels refuse, take the composite, which promotes them."""
    dtype = tensors[0].dtype
    return dtype.is_floating_point and all(t is None or t.dtype == dtype for t in tensors)


def _plain(*tensors: Any) -> bool:
    """Whether fused normalization kernels may take these (x first): floating tensors of x's
    dtype, and no torch.func transform or torch.compile trace (the composites serve those).
    A ``torch.export`` trace (``ivy_like.export``) takes the kernels: the artifact is run op
    by op, where one kernel is what the original module runs (a ResNet's 12 batch norms were
    84 nodes as composites, and the exported model 1.12-1.16x the original's time)."""
    if (_is_compiling() and not _is_exporting()) or _functorch_level() is not None:
        return False
    return _same_float(*tensors)


def nn_layer_norm(x: Any, normalized_shape: Any, weight: Any, bias: Any, eps: float) -> Any:
    """``F.layer_norm`` (one kernel where the composite has seven: 41 against 7 µs on a
    GPT-2 block) when weight and bias have exactly the normalized shape; the composite, which
    broadcasts them and promotes dtypes, otherwise."""
    dims = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if (
        tuple(x.shape[x.ndim - len(dims) :]) == dims
        and all(t is None or tuple(t.shape) == dims for t in (weight, bias))
        and _plain(x, weight, bias)
    ):
        return F.layer_norm(x, dims, weight, bias, eps)
    return _composite("nn.layer_norm")(x, normalized_shape, weight, bias, eps)


def nn_batch_norm(
    x: Any, running_mean: Any, running_var: Any, weight: Any, bias: Any, eps: float, axis: int
) -> Any:
    """``F.batch_norm`` in inference mode for channels on axis 1 (one kernel where the
    composite has eight: 77 against 22 µs on a ResNet block). torch gives the running
    statistics no gradient, so statistics that autograd tracks take the composite, whose
    gradient they have, as do other axes and the checks' failures."""
    if (
        x.ndim >= 2
        and axis in (1, 1 - x.ndim)
        and not (running_mean.requires_grad or running_var.requires_grad)
        and all(
            t is None or tuple(t.shape) == (x.shape[1],)
            for t in (running_mean, running_var, weight, bias)
        )
        and _plain(x, running_mean, running_var, weight, bias)
    ):
        return F.batch_norm(x, running_mean, running_var, weight, bias, False, 0.0, eps)
    return _composite("nn.batch_norm")(x, running_mean, running_var, weight, bias, eps, axis)


def nn_cross_entropy(logits: Any, labels: Any, reduction: str) -> Any:
    """torch's fused kernel for class indices (two autograd nodes where the composite has
    eight: a small MLP's gradient step is ~25 % cheaper), the composite otherwise.

    The composite stays where its rules are the ones wanted: probabilities, bad shapes or
    dtypes (its errors), inside torch.func transforms and torch.compile (its traced bounds
    check), and for any label the kernel would not refuse: torch skips targets equal to
    ``ignore_index``, so int64 labels holding that value go to the composite, which raises.
    """
    if (
        labels.dtype not in _INDEX_DTYPES
        or not logits.dtype.is_floating_point
        or labels.shape != logits.shape[:-1]
        or reduction not in ("mean", "sum", "none")
        or _is_compiling()  # first: Dynamo cannot trace the functorch level query
        or _functorch_level() is not None
        or _dispatch_modes()  # make_fx (ivy_like.compile), fake tensors: no value to read
    ):
        return _composite("nn.cross_entropy")(logits, labels, reduction)
    # The only value the kernel skips instead of refusing. One reduction read back (~1 µs,
    # where ``(labels == x).any()`` costs 2.5): a label at int64's minimum is the minimum.
    if labels.dtype == torch.int64 and labels.numel() and labels.min().item() == _NEVER_A_LABEL:
        return _composite("nn.cross_entropy")(logits, labels, reduction)
    flat = logits.ndim == 2  # a batch of rows already: no views (each is a backward node)
    try:
        losses = F.cross_entropy(
            logits if flat else logits.reshape(-1, logits.shape[-1]),
            labels if labels.dtype == torch.int64 and flat else labels.reshape(-1).long(),
            ignore_index=_NEVER_A_LABEL,
            reduction=reduction,
        )
    except IndexError:  # a label out of range: the composite names it
        return _composite("nn.cross_entropy")(logits, labels, reduction)
    return losses.reshape(labels.shape) if reduction == "none" and not flat else losses


def nn_mse_loss(input: Any, target: Any, reduction: str) -> Any:
    """``F.mse_loss`` (one autograd node where the composite has three) for same-shape,
    same-dtype floating inputs; the composite, with its errors and promotion, otherwise."""
    if (
        input.shape == target.shape
        and reduction in ("mean", "sum", "none")
        and input.dtype == target.dtype
        and input.dtype.is_floating_point
    ):
        return F.mse_loss(input, target, reduction=reduction)
    return _composite("nn.mse_loss")(input, target, reduction)


def nn_scaled_dot_product_attention(
    query: Any, key: Any, value: Any, attn_mask: Any, is_causal: bool, scale: float | None
) -> Any:
    """``F.scaled_dot_product_attention`` (torch's fused CPU kernel: one autograd node where
    the composite has about a dozen) where it computes the composite's function; the
    composite otherwise.

    The kernel needs q, k, v of one floating dtype and the same batch axes (no broadcasting).
    A row whose every position is masked is NaN in the composite (a softmax of -inf) but 0 in
    torch's kernel, so a mask goes to the kernel only when every row keeps a position (one
    reduction, read once; a trace without values, ivy_like.compile's, takes the composite);
    causal masking keeps position 0 in every row, as the composite's ``tril`` does (torch
    refuses a mask together with ``is_causal``: the composite takes both). A mask that
    autograd tracks takes the composite, which differentiates it.
    """
    if (
        query.ndim >= 3
        and key.ndim == query.ndim
        and value.ndim == query.ndim
        and query.shape[:-2] == key.shape[:-2] == value.shape[:-2]
        and query.shape[-1] == key.shape[-1]
        and key.shape[-2] == value.shape[-2]
        and _plain(query, key, value)
        and (attn_mask is None or (not is_causal and _mask_fits(attn_mask, query, key)))
    ):
        return F.scaled_dot_product_attention(
            query, key, value, attn_mask=attn_mask, is_causal=is_causal, scale=scale
        )
    return _composite("nn.scaled_dot_product_attention")(
        query, key, value, attn_mask, is_causal, scale
    )


def _mask_fits(mask: Any, query: Any, key: Any) -> bool:
    """An ``attn_mask`` the fused kernel takes with the composite's meaning: boolean or of
    q's dtype, untracked, broadcasting to the scores, and leaving each row a position."""
    if mask.requires_grad or mask.ndim > query.ndim:
        return False
    scores = (*query.shape[:-1], key.shape[-2])
    shape = (1,) * (len(scores) - mask.ndim) + tuple(mask.shape)
    if any(m not in (1, n) for m, n in zip(shape, scores)):
        return False  # the composite names the shapes
    if _dispatch_modes():  # make_fx (ivy_like.compile), fake tensors: no value to read
        return False
    if mask.dtype == torch.bool:
        return bool(mask.any(dim=-1).all()) if mask.shape[-1] == key.shape[-2] else bool(mask.all())
    if mask.dtype != query.dtype:
        return False
    return bool((mask != -math.inf).any(dim=-1).all())


def nn_nll_loss(input: Any, target: Any, weight: Any, *, ignore_index: int, reduction: str) -> Any:
    if target.dtype != torch.int64:  # torch takes int64 class indices only
        target = target.long()
    try:
        losses = F.nll_loss(
            input,
            target,
            ignore_index=ignore_index,
            reduction=reduction if weight is None else "none",
        )
    except IndexError:  # torch's own range check ("Target 5 is out of bounds.")
        n = input.shape[0 if input.ndim == 1 else 1]
        values = target.cpu().numpy()
        message = label_error(values, n, "nll_loss", ("target", "input"), ignore_index)
        raise ValueError(message) from None
    if weight is None:
        return losses
    # torch's weight= has no gradient: each target's weight (0 where ignored) applied here
    counted = target != ignore_index
    weights = weight[torch.where(counted, target, 0)] * counted
    losses = losses * weights
    return losses.sum() / weights.sum() if reduction == "mean" else _reduce(losses, reduction)


def nn_huber_loss(input: Any, target: Any, reduction: str, delta: float, weight: Any) -> Any:
    delta = float(delta)
    if weight is None:
        return F.huber_loss(input, target, reduction=reduction, delta=delta)
    # weight broadcasts here (torch's own weight= wants input's shape exactly)
    return _reduce(F.huber_loss(input, target, reduction="none", delta=delta) * weight, reduction)


def nn_smooth_l1_loss(input: Any, target: Any, *, reduction: str, beta: float) -> Any:
    return F.smooth_l1_loss(input, target, reduction=reduction, beta=float(beta))


# torch.kl_div takes the reduction as torch's enum (F.kl_div warns on every "mean")
_KL_ENUM = {"none": 0, "mean": 1, "sum": 2, "batchmean": 2}


def nn_kl_div(input: Any, target: Any, *, reduction: str, log_target: bool) -> Any:
    out = torch.kl_div(input, target, _KL_ENUM[reduction], log_target=log_target)
    if reduction == "batchmean" and input.ndim:
        return out / input.shape[0]
    return out


nn_cosine_similarity = F.cosine_similarity  # (x1, x2, dim, eps)


# -- the layers of converted models: activations, pooling, recurrent cells, resizing -----------
nn_relu6 = F.relu6


def nn_hardsigmoid(x: Any) -> Any:
    # relu6(x + 3) / 6, the composite's formula: F.hardsigmoid's backward has no derivative
    # (second-order gradients raise), hardtanh's has; the values and the gradient, 0 at the
    # corners, are the same.
    return F.hardtanh(x + 3.0, 0.0, 6.0) / 6.0


nn_hardswish = F.hardswish


def nn_adaptive_avg_pool2d(x: Any, output_size: Any) -> Any:
    return F.adaptive_avg_pool2d(x, _sizes.adaptive_output_size(x.shape, output_size))


def nn_hardtanh(x: Any, min_val: float, max_val: float) -> Any:
    return F.hardtanh(x, float(min_val), float(max_val))


# The torch.func transforms that torch's fused recurrent kernels do not support: vmap
# (aten::lstm and aten::lstm_cell have no batching rule and no fallback, aten::gru_cell runs
# its slow fallback with a warning) and jvp (mkldnn_rnn_layer has no forward derivative).
_UNFUSED_UNDER = frozenset({_functorch.TransformType.Vmap, _functorch.TransformType.Jvp})


def _fused_rnn() -> bool:
    """Whether torch's fused recurrent kernels may run here: not under vmap or jvp, where the
    composite (linear layers and gates) serves. Inside a torch.compile trace they run."""
    if _is_compiling():
        return True
    return not any(i.key() in _UNFUSED_UNDER for i in _interpreters())


def nn_lstm_cell(x: Any, h: Any, c: Any, w_ih: Any, w_hh: Any, b_ih: Any, b_hh: Any) -> Any:
    if not _fused_rnn():
        return _composite("nn.lstm_cell")(x, h, c, w_ih, w_hh, b_ih, b_hh)
    if x.ndim == 1:  # torch.lstm_cell takes a batch only
        h1, c1 = torch.lstm_cell(x[None], (h[None], c[None]), w_ih, w_hh, b_ih, b_hh)
        return h1[0], c1[0]
    return torch.lstm_cell(x, (h, c), w_ih, w_hh, b_ih, b_hh)


def nn_lstm(
    x: Any,
    weights: Any,
    h0: Any,
    c0: Any,
    num_layers: int,
    bias: bool,
    batch_first: bool,
    bidirectional: bool,
) -> Any:
    if not _fused_rnn():
        return _composite("nn.lstm")(
            x, weights, h0, c0, num_layers, bias, batch_first, bidirectional
        )
    states = (
        num_layers * (2 if bidirectional else 1),
        x.shape[0 if batch_first else 1],
        weights[1].shape[1],
    )
    h0 = x.new_zeros(states) if h0 is None else h0
    c0 = x.new_zeros(states) if c0 is None else c0
    # dropout 0 and train=False: inference, as the composite computes
    return torch.lstm(
        x, (h0, c0), list(weights), bias, num_layers, 0.0, False, bidirectional, batch_first
    )


def nn_gru_cell(x: Any, h: Any, w_ih: Any, w_hh: Any, b_ih: Any, b_hh: Any) -> Any:
    if not _fused_rnn():
        return _composite("nn.gru_cell")(x, h, w_ih, w_hh, b_ih, b_hh)
    if x.ndim == 1:  # torch.gru_cell takes a batch only
        return torch.gru_cell(x[None], h[None], w_ih, w_hh, b_ih, b_hh)[0]
    return torch.gru_cell(x, h, w_ih, w_hh, b_ih, b_hh)


def nn_group_norm(x: Any, num_groups: int, weight: Any, bias: Any, eps: float) -> Any:
    if not _same_float(x, weight, bias):
        return _composite("nn.group_norm")(x, num_groups, weight, bias, eps)
    return F.group_norm(x, num_groups, weight, bias, eps)


def nn_adaptive_max_pool2d(x: Any, output_size: Any) -> Any:
    return F.adaptive_max_pool2d(x, _sizes.adaptive_output_size(x.shape, output_size))


def nn_conv_transpose2d(x: Any, weight: Any, bias: Any, *geometry: Any) -> Any:
    # geometry: stride, padding, output_padding, groups, dilation (the op's order)
    stride, padding, output_padding, groups, dilation = geometry
    s, p, op_, d = (_sizes.pair(v) for v in (stride, padding, output_padding, dilation))
    # mixed dtypes: torch's error, as nn.conv2d (which the composite runs) gives on torch
    return F.conv_transpose2d(x, weight, bias, s, p, op_, groups, d)


def nn_interpolate(x: Any, size: Any, scale_factor: Any, mode: str, align_corners: Any) -> Any:
    if not x.dtype.is_floating_point:  # torch resizes floats only; the composite any dtype
        return _composite("nn.interpolate")(x, size, scale_factor, mode, align_corners)
    plan = _sizes.interpolate_plan(x.shape, size, scale_factor)
    sizes = [n_out for _, n_out, _ in plan]
    # the scale factors that set the sizes map positions back, as the composite does
    scales = None if size is not None else [scale for _, _, scale in plan]
    return F.interpolate(
        x,
        size=sizes if scales is None else None,
        scale_factor=scales,
        mode=mode,
        align_corners=bool(align_corners) if mode == "bilinear" else None,
    )

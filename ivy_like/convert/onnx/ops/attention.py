"""ONNX's attention family: ``Attention`` (opset 23+, with GQA, causal and sliding-window
masks, soft-capping, a KV cache and the ``qk_matmul_output`` debug output),
``RotaryEmbedding``, and the recurrent-state operators of opset 27, ``LinearAttention`` and
``CausalConvWithState``.

The masks that depend only on shapes (causal, window) are built with NumPy at trace time;
those that depend on ``nonpad_kv_seqlen`` (a run-time length per batch entry) with ivy_like
ops. Every mask is folded into one boolean "allowed" array plus an optional additive float
mask, and softmax is written so that a fully masked row gives zeros (not NaN) with finite
gradients. ``AffineGrid`` and ``GridSample`` live in ``sampling.py``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import ivy_like as il

from .._table import Node, Refused, has_dtype, onnx_op

# TensorProto element types softmax_precision may name.
_PRECISIONS = {1: "float32", 10: "float16", 11: "float64", 16: "bfloat16"}


def _arr(x: Any) -> Any:
    """A known NumPy input as an array of the active backend (None stays None)."""
    return il.asarray(x) if isinstance(x, np.ndarray) else x


def _to_heads(x: Any, heads: int) -> Any:
    """(B, S, heads*D) -> (B, heads, S, D)."""
    b, s, hidden = (int(d) for d in x.shape)
    return il.permute_dims(il.reshape(x, (b, s, heads, hidden // heads)), (0, 2, 1, 3))


def _attention_rule(node: Node) -> dict[str, Any]:
    scale = node.attr("scale", None)
    precision = node.attr("softmax_precision", None)
    if precision is not None and int(precision) not in _PRECISIONS:
        raise Refused(f"Attention: softmax_precision {precision} is not a float type")
    mode = int(node.attr("qk_matmul_output_mode", 0))
    if mode not in (0, 1, 2, 3):
        raise Refused(f"Attention: qk_matmul_output_mode must be 0 to 3, got {mode}")
    q_heads, kv_heads = node.attr("q_num_heads", None), node.attr("kv_num_heads", None)
    q_info = node.ins[0] if node.ins else None
    if q_info is not None and q_info.shape is not None and len(q_info.shape) == 3:
        if q_heads is None or kv_heads is None:
            raise Refused("Attention: 3-D inputs need q_num_heads and kv_num_heads")
    return {
        "scale": None if scale is None else float(scale),
        "is_causal": bool(node.attr("is_causal", 0)),
        "q_num_heads": None if q_heads is None else int(q_heads),
        "kv_num_heads": None if kv_heads is None else int(kv_heads),
        "softcap": float(node.attr("softcap", 0.0)),
        "softmax_precision": None if precision is None else _PRECISIONS[int(precision)],
        "qk_matmul_output_mode": mode,
        # the window attributes exist from opset 25; -1 leaves a side unbounded
        "left_window_size": int(node.attr("left_window_size", -1)),
        "right_window_size": int(node.attr("right_window_size", -1)),
        "n_outputs": max(len(node.outs), 1),
    }


def _static_allowed(
    q_len: int, kv_len: int, offset: int, causal: bool, left: int, right: int
) -> np.ndarray | None:
    """The (q, kv) keys each query may see by the causal and window rules, at a fixed
    offset (the number of cached keys before the query block); None: no restriction."""
    if not causal and left < 0 and right < 0:
        return None
    diff = np.arange(q_len)[:, None] + offset - np.arange(kv_len)[None, :]  # query pos - key
    allowed = np.ones((q_len, kv_len), dtype=bool)
    if causal:
        allowed &= diff >= 0
    if left >= 0:
        allowed &= diff <= left
    if right >= 0:
        allowed &= -diff <= right
    return allowed


def _batch_allowed(
    nonpad: Any, q_len: int, kv_len: int, causal: bool, left: int, right: int
) -> Any:
    """The (B, 1, q, kv) allowed keys with an external cache: key j is padding past
    ``nonpad[b]``, and the causal/window offset of batch entry b is ``nonpad[b] - q_len``."""
    lens = il.reshape(il.astype(_arr(nonpad), il.int32), (-1, 1, 1, 1))
    j = il.reshape(il.arange(kv_len, dtype=il.int32), (1, 1, 1, kv_len))
    allowed = il.less(j, lens)
    if causal or left >= 0 or right >= 0:
        i = il.reshape(il.arange(q_len, dtype=il.int32), (1, 1, q_len, 1))
        diff = i + (lens - q_len) - j
        if causal:
            allowed = il.logical_and(allowed, diff >= 0)
        if left >= 0:
            allowed = il.logical_and(allowed, diff <= left)
        if right >= 0:
            allowed = il.logical_and(allowed, -diff <= right)
    return allowed


def _pad_mask(mask: Any, kv_len: int) -> Any:
    """A mask shorter than the keys, padded on the last axis with "not allowed"."""
    width = kv_len - int(mask.shape[-1])
    if width <= 0:
        return mask
    shape = (*(int(d) for d in mask.shape[:-1]), width)
    if mask.dtype == il.bool:
        fill = il.zeros(shape, dtype=il.bool)
    else:
        fill = il.full(shape, -math.inf, dtype=mask.dtype)
    return il.concat([mask, fill], axis=-1)


def _safe_softmax(x: Any) -> Any:
    """Softmax over the last axis where an all ``-inf`` row gives zeros, not NaN."""
    row_max = il.stop_gradient(il.max(x, axis=-1, keepdims=True))
    row_max = il.where(il.isinf(row_max), il.zeros_like(row_max), row_max)
    e = il.exp(x - row_max)
    total = il.sum(e, axis=-1, keepdims=True)
    return e / il.where(total == 0, il.ones_like(total), total)


@onnx_op("Attention", since=23, attrs=_attention_rule)
def attention(
    Q: Any,
    K: Any,
    V: Any,
    attn_mask: Any = None,
    past_key: Any = None,
    past_value: Any = None,
    nonpad_kv_seqlen: Any = None,
    *,
    scale: float | None = None,
    is_causal: bool = False,
    q_num_heads: int | None = None,
    kv_num_heads: int | None = None,
    softcap: float = 0.0,
    softmax_precision: str | None = None,
    qk_matmul_output_mode: int = 0,
    left_window_size: int = -1,
    right_window_size: int = -1,
    n_outputs: int = 1,
) -> Any:
    """ONNX Attention: ``softmax(softcap(Q K^T * scale) + mask) V`` on 3-D or 4-D inputs;
    returns ``(Y, present_key, present_value, qk_matmul_output)`` (as many as asked)."""
    Q, K, V = _arr(Q), _arr(K), _arr(V)
    past_key, past_value = _arr(past_key), _arr(past_value)
    if (past_key is None) != (past_value is None):
        raise ValueError("Attention: past_key and past_value go together")
    if nonpad_kv_seqlen is not None and past_key is not None:
        raise ValueError("Attention: nonpad_kv_seqlen cannot be used with past_key")
    three_d = len(Q.shape) == 3
    if three_d:
        if q_num_heads is None or kv_num_heads is None:
            raise ValueError("Attention: 3-D inputs need q_num_heads and kv_num_heads")
        Q, K, V = _to_heads(Q, q_num_heads), _to_heads(K, kv_num_heads), _to_heads(V, kv_num_heads)
    if past_key is not None:
        K = il.concat([past_key, K], axis=2)
        V = il.concat([past_value, V], axis=2)
    present_key, present_value = K, V
    dtype = Q.dtype
    q_len, kv_len = int(Q.shape[2]), int(K.shape[2])

    # Which keys each query may see (bool) and an additive float mask, from every source.
    allowed: Any = None
    float_mask: Any = None
    if attn_mask is not None:
        mask = _pad_mask(_arr(attn_mask), kv_len)
        if mask.dtype == il.bool:
            allowed = mask
        else:
            float_mask = mask
    left, right = left_window_size, right_window_size
    if nonpad_kv_seqlen is None:
        offset = int(past_key.shape[2]) if past_key is not None else 0
        static = _static_allowed(q_len, kv_len, offset, is_causal, left, right)
        rule = None if static is None else il.asarray(static)
    else:
        rule = _batch_allowed(nonpad_kv_seqlen, q_len, kv_len, is_causal, left, right)
    if rule is not None:
        allowed = rule if allowed is None else il.logical_and(allowed, rule)
    bias = float_mask
    if allowed is not None:
        neg_inf = il.full((), -math.inf, dtype=dtype)
        base = il.zeros((), dtype=dtype) if bias is None else bias
        bias = il.where(allowed, base, neg_inf)

    # Grouped-query attention: each KV head serves q_heads / kv_heads consecutive query heads.
    q_heads, kv_heads = int(Q.shape[1]), int(K.shape[1])
    if q_heads != kv_heads:
        if q_heads % kv_heads:
            raise ValueError(f"Attention: {q_heads} query heads for {kv_heads} KV heads")
        K = il.repeat(K, q_heads // kv_heads, axis=1)
        V = il.repeat(V, q_heads // kv_heads, axis=1)

    # Scale Q and K by sqrt(scale) each (ONNX's order, which keeps float16 in range).
    root_value = math.sqrt(1.0 / math.sqrt(int(Q.shape[3])) if scale is None else scale)
    root = il.asarray(root_value, dtype=dtype)
    raw = il.matmul(Q * root, il.matrix_transpose(K * root))
    # softcap comes before the mask, so masked scores stay -inf
    qk = il.tanh(raw / softcap) * softcap if softcap > 0 else raw
    scores = qk if bias is None else qk + bias
    # mode 0 is the raw product, as the spec and onnxruntime have it (onnx's reference
    # returns it soft-capped)
    qk_out = (raw, qk, scores)[qk_matmul_output_mode] if qk_matmul_output_mode < 3 else None

    if softmax_precision is not None and has_dtype(softmax_precision):
        probs = _safe_softmax(il.astype(scores, il.as_dtype(softmax_precision)))
    else:
        probs = _safe_softmax(scores)
    if bias is not None:
        # A query whose every key is masked gives a zero row, decided on the mask alone.
        row_max = il.max(bias, axis=-1, keepdims=True)
        dead = il.logical_and(il.isinf(row_max), row_max < 0)
        probs = il.where(dead, il.zeros_like(probs), probs)
    probs = il.astype(probs, dtype)
    if qk_matmul_output_mode == 3:
        qk_out = probs
    Y = il.matmul(probs, V)
    if three_d:
        b, h, s, d = (int(n) for n in Y.shape)
        Y = il.reshape(il.permute_dims(Y, (0, 2, 1, 3)), (b, s, h * d))
    results = (Y, present_key, present_value, qk_out)
    return Y if n_outputs == 1 else results[:n_outputs]


def _rotary_rule(node: Node) -> dict[str, Any]:
    heads = node.attr("num_heads", None)
    return {
        "interleaved": int(node.attr("interleaved", 0)),
        "rotary_embedding_dim": int(node.attr("rotary_embedding_dim", 0)),
        "num_heads": None if heads is None else int(heads),
    }


@onnx_op("RotaryEmbedding", since=23, attrs=_rotary_rule)
def rotary_embedding(
    X: Any,
    cos_cache: Any,
    sin_cache: Any,
    position_ids: Any = None,
    *,
    interleaved: int = 0,
    rotary_embedding_dim: int = 0,
    num_heads: int | None = None,
) -> Any:
    """ONNX RotaryEmbedding: rotate the first ``rotary_embedding_dim`` features of each head
    (as halves, or as interleaved pairs) by the angles of each token's position."""
    X, cos, sin = _arr(X), _arr(cos_cache), _arr(sin_cache)
    shape = tuple(int(d) for d in X.shape)
    if len(shape) == 4:  # (B, heads, S, D) -> (B, S, heads, D)
        x = il.permute_dims(X, (0, 2, 1, 3))
    else:
        if not num_heads:
            raise ValueError("RotaryEmbedding: a 3-D input needs num_heads")
        x = il.reshape(X, (shape[0], shape[1], num_heads, shape[2] // num_heads))
    b, s, heads, d = (int(n) for n in x.shape)
    rot = rotary_embedding_dim or d
    half = rot // 2
    if position_ids is not None:
        ids = il.reshape(_arr(position_ids), (-1,))
        cos = il.reshape(il.take(cos, ids, axis=0), (b, s, half))
        sin = il.reshape(il.take(sin, ids, axis=0), (b, s, half))
    cos = il.expand_dims(cos, axis=2)  # one angle per (token, pair), shared by the heads
    sin = il.expand_dims(sin, axis=2)
    x_rot = x[..., :rot]
    if interleaved:
        pairs = il.reshape(x_rot, (b, s, heads, half, 2))
        x1, x2 = pairs[..., 0], pairs[..., 1]
    else:
        x1, x2 = x_rot[..., :half], x_rot[..., half:]
    real = cos * x1 - sin * x2
    imag = sin * x1 + cos * x2
    if interleaved:
        rotated = il.reshape(il.stack([real, imag], axis=-1), (b, s, heads, rot))
    else:
        rotated = il.concat([real, imag], axis=-1)
    out = rotated if rot == d else il.concat([rotated, x[..., rot:]], axis=-1)
    if len(shape) == 4:
        return il.permute_dims(out, (0, 2, 1, 3))
    return il.reshape(out, shape)


def _linear_attention_rule(node: Node) -> dict[str, Any]:
    rule = node.attr("update_rule", "gated_delta")
    if rule not in ("linear", "gated", "delta", "gated_delta"):
        raise Refused(f"LinearAttention: unknown update_rule {rule!r}")
    q_heads, kv_heads = node.attr("q_num_heads", None), node.attr("kv_num_heads", None)
    if q_heads is None or kv_heads is None:
        raise Refused("LinearAttention: q_num_heads and kv_num_heads are required")
    if int(q_heads) <= 0 or int(kv_heads) <= 0 or int(q_heads) % int(kv_heads):
        raise Refused(f"LinearAttention: {q_heads} query heads for {kv_heads} KV heads")
    return {
        "update_rule": rule,
        "q_num_heads": int(q_heads),
        "kv_num_heads": int(kv_heads),
        "scale": float(node.attr("scale", 0.0)),
        "n_outputs": max(len(node.outs), 1),
    }


@onnx_op("LinearAttention", since=27, attrs=_linear_attention_rule)
def linear_attention(
    query: Any,
    key: Any,
    value: Any,
    past_state: Any = None,
    decay: Any = None,
    beta: Any = None,
    *,
    update_rule: str = "gated_delta",
    q_num_heads: int,
    kv_num_heads: int,
    scale: float = 0.0,
    n_outputs: int = 2,
) -> Any:
    """ONNX LinearAttention: a recurrent state ``S`` (B, H_kv, d_k, d_v) updated per token
    (``gated``: decayed by ``exp(decay)``; ``delta``: the value corrected by what ``S``
    already recalls for the key, times ``beta``), read by each query. Computed in float32;
    returns ``(output, present_state)``."""
    gating = update_rule in ("gated", "gated_delta")
    delta = update_rule in ("delta", "gated_delta")
    if gating != (decay is not None) or delta != (beta is not None):
        raise ValueError(
            f"LinearAttention: update_rule {update_rule!r} "
            f"{'needs' if gating else 'forbids'} decay and {'needs' if delta else 'forbids'} beta"
        )
    query, key, value = _arr(query), _arr(key), _arr(value)
    out_dtype = query.dtype
    b, t, _ = (int(n) for n in query.shape)
    f32 = il.float32
    q4 = il.astype(_to_heads(query, q_num_heads), f32)
    k4 = il.astype(_to_heads(key, kv_num_heads), f32)
    v4 = il.astype(_to_heads(value, kv_num_heads), f32)
    d_k, d_v = int(q4.shape[3]), int(v4.shape[3])
    group = q_num_heads // kv_num_heads
    if decay is not None:
        decay = _arr(decay)
        if int(decay.shape[-1]) not in (kv_num_heads, kv_num_heads * d_k):
            raise ValueError(
                f"LinearAttention: decay's last axis must be kv_num_heads ({kv_num_heads}) or "
                f"kv_num_heads*d_k ({kv_num_heads * d_k}), got {int(decay.shape[-1])}"
            )
        # per head (B, T, H_kv) or per key feature (B, T, H_kv*d_k) -> (B, H_kv, T, 1 or d_k)
        decay = il.astype(_to_heads(decay, kv_num_heads), f32)
    if beta is not None:
        beta = _arr(beta)
        if int(beta.shape[-1]) not in (kv_num_heads, 1):
            raise ValueError(
                f"LinearAttention: beta's last axis must be kv_num_heads ({kv_num_heads}) or 1, "
                f"got {int(beta.shape[-1])}"
            )
        beta = il.astype(_to_heads(beta, int(beta.shape[-1])), f32)  # (B, H_kv or 1, T, 1)
    if past_state is None:
        state_dtype = out_dtype
        state = il.zeros((b, kv_num_heads, d_k, d_v), dtype=f32)
    else:
        past_state = _arr(past_state)
        state_dtype = past_state.dtype
        state = il.astype(past_state, f32)
    scale = scale or 1.0 / math.sqrt(d_k)
    outputs = []
    for i in range(t):
        k_t, v_t = k4[:, :, i, :], v4[:, :, i, :]
        if decay is not None:
            state = state * il.expand_dims(il.exp(decay[:, :, i, :]), axis=-1)
        if beta is not None:
            # what the state recalls for this key: S^T k
            recalled = il.matmul(il.expand_dims(k_t, axis=2), state)[:, :, 0, :]
            v_t = beta[:, :, i, :] * (v_t - recalled)
        state = state + il.expand_dims(k_t, axis=-1) * il.expand_dims(v_t, axis=-2)
        read = state if group == 1 else il.repeat(state, group, axis=1)
        o_t = il.matmul(il.expand_dims(q4[:, :, i, :], axis=2), read)[:, :, 0, :]
        outputs.append(o_t * scale)
    out = il.stack(outputs, axis=1)  # (B, T, H_q, d_v)
    out = il.astype(il.reshape(out, (b, t, q_num_heads * d_v)), out_dtype)
    results = (out, il.astype(state, state_dtype))
    return out if n_outputs == 1 else results[:n_outputs]


def _causal_conv_rule(node: Node) -> dict[str, Any]:
    activation = node.attr("activation", "none")
    if activation not in ("none", "silu", "swish"):
        raise Refused(f"CausalConvWithState: unknown activation {activation!r}")
    return {"activation": activation, "n_outputs": max(len(node.outs), 1)}


@onnx_op("CausalConvWithState", since=27, attrs=_causal_conv_rule)
def causal_conv_with_state(
    input: Any,  # noqa: A002 - ONNX's name
    weight: Any,
    bias: Any = None,
    past_state: Any = None,
    *,
    activation: str = "none",
    n_outputs: int = 2,
) -> Any:
    """ONNX CausalConvWithState: a depthwise causal 1-D convolution over ``past_state`` then
    ``input`` (B, C, L), with an optional fused SiLU; returns ``(output, present_state)``,
    the state being the last ``k - 1`` steps seen."""
    x, weight = _arr(input), _arr(weight)
    b, c, length = (int(n) for n in x.shape)
    k = int(weight.shape[2])
    if past_state is None:
        pad = il.zeros((b, c, k - 1), dtype=x.dtype)
    else:
        pad = _arr(past_state)
    padded = il.concat([pad, x], axis=2)
    # Low-precision floats accumulate in float32 and round once, as a convolution does.
    low = x.dtype in (il.float16, il.bfloat16)
    wide_x = il.astype(padded, il.float32) if low else padded
    wide_w = il.astype(weight, il.float32) if low else weight
    # k is small: one shifted multiply-add per tap, each channel with its own weight
    out: Any = None
    for j in range(k):
        term = il.reshape(wide_w[:, 0, j], (1, c, 1)) * wide_x[:, :, j : j + length]
        out = term if out is None else out + term
    if bias is not None:
        bias = _arr(bias)
        out = out + il.reshape(il.astype(bias, out.dtype), (1, c, 1))
    out = il.astype(out, x.dtype)
    if activation != "none":
        wide = il.astype(out, il.float32)
        out = il.astype(wide * il.nn.sigmoid(wide), x.dtype)
    state = padded[:, :, length:]
    return out if n_outputs == 1 else (out, state)[:n_outputs]

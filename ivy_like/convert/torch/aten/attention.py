"""ATen ops -> ivy_like: attention, dropout and recurrent layers
(``scaled_dot_product_attention``, ``lstm``).

Registered in the table of :mod:`.registry` by the ``@aten`` decorator.
"""

from __future__ import annotations

from typing import Any

import torch

import ivy_like as il

from .registry import _native, _ndim, _shape_of, aten, broadcast_to, dim_size, dim_sizes


# -- attention, dropout, recurrent layers ------------------------------------------------------
def _check_attention(
    q: Any, k: Any, v: Any, mask: Any = None, dropout_p: float = 0.0, *_: Any, **__: Any
) -> str | None:
    if dropout_p:
        return f"dropout_p={dropout_p} (attention dropout in training mode)"
    return None


def _shared_heads(q: Any, k: Any, v: Any, enable_gqa: bool) -> tuple[Any, Any]:
    """``k`` and ``v`` with their heads repeated to ``q``'s (grouped-query attention)."""
    if enable_gqa and q.shape[-3] != k.shape[-3]:
        groups = q.shape[-3] // k.shape[-3]
        k = il.repeat(k, groups, axis=_ndim(k) - 3)
        v = il.repeat(v, groups, axis=_ndim(v) - 3)
    return k, v


def _attention(name: str, guard_rows: bool, doc: str) -> Any:
    """``aten.scaled_dot_product_attention`` as the function ``name``; ``guard_rows``: whether
    a boolean mask may leave a query no key to attend to (then torch gives zeros there, not
    NaN)."""

    def attention(
        q: Any,
        k: Any,
        v: Any,
        attn_mask: Any = None,
        dropout_p: float = 0.0,
        is_causal: bool = False,
        *,
        scale: Any = None,
        enable_gqa: bool = False,
    ) -> Any:
        k, v = _shared_heads(q, k, v, enable_gqa)
        if not guard_rows or attn_mask is None or "bool" not in str(attn_mask.dtype):
            return il.nn.scaled_dot_product_attention(q, k, v, attn_mask, is_causal, scale)
        natives = [_native(a) for a in (q, k, v, attn_mask)]
        if not is_causal and _torch_kernel_takes(*natives):
            # On torch the captured op itself, whose zeros for such rows are the meaning asked
            # for: one fused kernel, where the guard below is about ten ops per call (a mask
            # that depends on a dynamic size is not folded at capture).
            nq, nk, nv, mask = natives
            return torch.nn.functional.scaled_dot_product_attention(
                nq, nk, nv, attn_mask=mask, scale=scale
            )
        # A query that may attend to no key gives zeros in torch (its safe softmax), not NaN:
        # such rows attend everywhere here (finite values and gradients) and are zeroed after.
        scores = (*dim_sizes(q)[:-1], dim_size(k, -2))
        mask = broadcast_to(attn_mask, _shape_of(scores))
        if is_causal:
            causal = _native(il.tril(il.ones((scores[-2], scores[-1]), dtype=il.bool)))
            mask, is_causal = il.logical_and(mask, causal), False
        some = il.any(mask, axis=-1, keepdims=True)
        out = il.nn.scaled_dot_product_attention(
            q, k, v, il.logical_or(mask, il.logical_not(some)), False, scale
        )
        return il.where(some, out, il.zeros_like(out))

    attention.__name__ = attention.__qualname__ = name
    attention.__doc__ = doc
    return attention


def _torch_kernel_takes(q: Any, k: Any, v: Any, mask: Any) -> bool:
    """Whether q, k, v and a boolean mask are torch tensors that torch's attention takes as
    the graph gave them (one floating dtype, the same leading axes)."""
    t = torch.Tensor  # subclasses too: torch.export and torch.func trace with them
    return (
        isinstance(q, t)
        and isinstance(k, t)
        and isinstance(v, t)
        and isinstance(mask, t)
        and mask.dtype == torch.bool
        and q.dtype == k.dtype == v.dtype
        and q.dtype.is_floating_point
        and q.ndim == k.ndim == v.ndim >= 3
        and not mask.requires_grad
    )


attention_rows_attend = _attention(
    "attention_rows_attend",
    guard_rows=False,
    doc="""``scaled_dot_product_attention`` for a boolean mask that the converter saw, at capture,
    let every query attend to some key (a constant mask, as GPT-2's causal one): no row to
    guard, so the mask goes to ivy_like's attention as it is.""",
)


def rows_attend(mask: Any) -> bool:
    """Whether every query of a boolean attention mask attends to some key (then
    :func:`attention_rows_attend` computes the attention), read from a mask computed once per
    size; False when it cannot be read (a mask traced in a compiled function): the guarded
    attention then runs, which is right either way."""
    try:  # read first: a traced mask raises here, before any op is added to the trace
        values = il.to_numpy(mask)
    except Exception:  # noqa: BLE001 - every framework names its tracer errors differently
        return False
    return bool(values.any(axis=-1).all())


scaled_dot_product_attention = aten("scaled_dot_product_attention.default", check=_check_attention)(
    _attention(
        "scaled_dot_product_attention",
        guard_rows=True,
        doc="ATen's attention; a query that a boolean mask lets attend to no key gives zeros.",
    )
)


def _check_dropout(x: Any, p: float, train: Any) -> str | None:
    if train and p:
        return "dropout in training mode; capture the module in eval mode"
    return None


@aten(
    "dropout.default",
    "feature_dropout.default",
    "alpha_dropout.default",
    "feature_alpha_dropout.default",
    check=_check_dropout,
)
def dropout(x: Any, p: float, train: Any) -> Any:
    return x


@aten("native_dropout.default", check=_check_dropout)
def native_dropout(x: Any, p: float, train: Any) -> tuple[Any, Any]:
    return x, il.ones_like(x, dtype=il.bool)


def _check_lstm(x: Any, hx: Any, params: Any, *flags: Any) -> str | None:
    """``flags``: the rest of ``lstm.input``'s arguments, from ``has_biases`` on."""
    has_biases, num_layers, dropout, train, bidirectional, _batch_first = flags
    if train and dropout and num_layers > 1:
        return "dropout between layers in training mode; capture the module in eval mode"
    per = (4 if has_biases else 2) * (2 if bidirectional else 1) * num_layers
    if len(params) != per:
        return "proj_size (projected LSTM) is not implemented yet"
    return None


@aten("lstm.input", check=_check_lstm)
def lstm(
    x: Any,
    hx: Any,
    params: Any,
    has_biases: bool,
    num_layers: int,
    dropout: float,
    train: bool,
    bidirectional: bool,
    batch_first: bool,
) -> Any:
    return il.nn.lstm(
        x,
        list(params),
        hx[0],
        hx[1],
        num_layers=num_layers,
        bias=has_biases,
        batch_first=batch_first,
        bidirectional=bidirectional,
    )

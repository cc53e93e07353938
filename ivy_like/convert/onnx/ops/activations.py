"""The ONNX activations: ``Relu``, ``LeakyRelu``, ``PRelu``, ``ThresholdedRelu``, ``Elu``,
``Selu``, ``Celu``, ``Gelu``, ``Sigmoid``, ``HardSigmoid``, ``HardSwish``, ``Swish``,
``SwiGLU``, ``Mish``, ``Softplus``, ``Softsign``, ``Shrink``, and ``Dropout`` at inference.

Imported by :mod:`.elementwise`. The exponential branches take ``min(x, 0)``, so the branch a
``where`` discards never overflows and the gradient stays finite.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import ivy_like as il

from .._table import Node, Refused, onnx_op
from .elementwise import backend_dtype


def _neg_part(x: Any) -> Any:
    """``min(x, 0)``: the argument of an exponential branch taken only for ``x <= 0``."""
    return il.minimum(x, il.zeros_like(x))


@onnx_op("Relu", since=6)
def relu(x: Any) -> Any:
    return il.nn.relu(x)


@onnx_op("LeakyRelu", since=6)
def leaky_relu(x: Any, alpha: float = 0.01) -> Any:
    return il.where(il.greater(x, 0), x, il.multiply(x, alpha))


@onnx_op("PRelu", since=7)
def prelu(x: Any, slope: Any) -> Any:
    """``slope`` broadcasts to ``x`` (unidirectionally), so the result has ``x``'s shape."""
    return il.where(il.greater(x, 0), x, il.multiply(x, slope))


@onnx_op("ThresholdedRelu", since=10)
def thresholded_relu(x: Any, alpha: float = 1.0) -> Any:
    return il.where(il.greater(x, alpha), x, il.zeros_like(x))


@onnx_op("Elu", since=6)
def elu(x: Any, alpha: float = 1.0) -> Any:
    return il.where(il.greater(x, 0), x, il.multiply(il.expm1(_neg_part(x)), alpha))


@onnx_op("Selu", since=6)
def selu(
    x: Any, alpha: float = 1.67326319217681884765625, gamma: float = 1.05070102214813232421875
) -> Any:
    neg = il.multiply(il.expm1(_neg_part(x)), alpha)
    return il.multiply(il.where(il.greater(x, 0), x, neg), gamma)


@onnx_op("Celu", since=12)
def celu(x: Any, alpha: float = 1.0) -> Any:
    neg = il.multiply(il.expm1(il.divide(_neg_part(x), alpha)), alpha)
    return il.where(il.greater(x, 0), x, neg)


def _gelu_rule(node: Node) -> dict[str, Any]:
    approximate = node.attr("approximate", "none")
    if approximate not in ("none", "tanh"):
        raise Refused(f"Gelu: approximate must be 'none' or 'tanh', got {approximate!r}")
    return {"approximate": approximate}


@onnx_op("Gelu", since=20, attrs=_gelu_rule)
def gelu(x: Any, approximate: str = "none") -> Any:
    return il.nn.gelu(x, approximate=approximate)


@onnx_op("Sigmoid", since=6)
def sigmoid(x: Any) -> Any:
    return il.nn.sigmoid(x)


@onnx_op("HardSigmoid", since=6)
def hard_sigmoid(x: Any, alpha: float = 0.2, beta: float = 0.5) -> Any:
    return _unit_clip(il.add(il.multiply(x, alpha), beta))


def _unit_clip(x: Any) -> Any:
    return il.minimum(il.maximum(x, il.zeros_like(x)), il.ones_like(x))


@onnx_op("HardSwish", since=14)
def hard_swish(x: Any) -> Any:
    """``x * HardSigmoid(x)`` with ONNX's fixed ``alpha = 1/6``, ``beta = 1/2``."""
    return il.multiply(x, _unit_clip(il.add(il.divide(x, 6.0), 0.5)))


@onnx_op("Swish", since=24)
def swish(x: Any, alpha: float = 1.0) -> Any:
    return il.multiply(x, il.nn.sigmoid(il.multiply(x, alpha)))


@onnx_op("SwiGLU", since=28)
def swiglu(a: Any, b: Any, alpha: float = 1.0) -> Any:
    """``Swish_alpha(a) * b``: ``a`` gates, ``b`` is the value (same shapes)."""
    return il.multiply(swish(a, alpha), b)


def _softplus(x: Any) -> Any:
    # log(1 + e^x) = max(x, 0) + log1p(e^-|x|): no overflow for large |x|
    return il.add(il.maximum(x, il.zeros_like(x)), il.log1p(il.exp(il.negative(il.abs(x)))))


@onnx_op("Softplus", since=1)
def softplus(x: Any) -> Any:
    return _softplus(x)


@onnx_op("Mish", since=18)
def mish(x: Any) -> Any:
    return il.multiply(x, il.tanh(_softplus(x)))


@onnx_op("Softsign", since=1)
def softsign(x: Any) -> Any:
    return il.divide(x, il.add(il.abs(x), 1.0))


@onnx_op("Shrink", since=9)
def shrink(x: Any, bias: float = 0.0, lambd: float = 0.5) -> Any:
    """``x + bias`` below ``-lambd``, ``x - bias`` above ``lambd``, 0 between."""
    if il.isdtype(x.dtype, "integral"):
        # the float attributes act on an integer input as in C: computed in floats, the
        # result truncated back
        return il.astype(shrink(il.astype(x, backend_dtype("float64")), bias, lambd), x.dtype)
    low = il.add(x, bias)
    high = il.subtract(x, bias)
    zero = il.zeros_like(x)
    return il.where(il.less(x, -lambd), low, il.where(il.greater(x, lambd), high, zero))


def _dropout_rule(node: Node) -> dict[str, Any]:
    """Dropout at inference: the identity (and a mask of ones); training mode is random."""
    # before opset 12 the ratio is an attribute and there is no training mode
    if node.opset >= 12 and len(node.ins) > 2 and node.ins[2] is not None:
        training = node.known[2] if len(node.known) > 2 else None
        if training is None:
            raise Refused(
                "Dropout: training_mode is computed from the data; ivy_like runs dropout "
                "at inference only and needs it known to be false"
            )
        if bool(np.asarray(training).reshape(-1)[0]):
            # a ratio of 0 drops nothing: training mode is the identity then
            given = len(node.ins) > 1 and node.ins[1] is not None
            ratio = node.known[1] if given else np.float32(0.5)
            if ratio is None or float(np.asarray(ratio).reshape(-1)[0]) != 0:
                raise Refused(
                    "Dropout: training_mode is true, which drops at random; the converted "
                    "model is deterministic (inference only)"
                )
    # the mask is boolean from opset 10, the input's dtype before
    return {"mask": len(node.outs) > 1, "mask_like_input": node.opset < 10}


@onnx_op("Dropout", since=7, attrs=_dropout_rule)
def dropout(
    x: Any,
    ratio: Any = None,
    training_mode: Any = None,
    *,
    mask: bool = False,
    mask_like_input: bool = False,
) -> Any:
    if not mask:
        return x
    ones = il.ones_like(x) if mask_like_input else il.ones_like(x, dtype=il.bool)
    return x, ones

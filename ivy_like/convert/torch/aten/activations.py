"""ATen ops -> ivy_like: activations (``relu``, ``gelu``, ``softmax``...).

Registered in the table of :mod:`.registry` by the ``@aten`` decorator.
"""

from __future__ import annotations

from typing import Any

import ivy_like as il

from ... import _special
from ..._casts import cast
from .registry import Handler, aten


# -- activations ---------------------------------------------------------------------------------
@aten("gelu.default")
def gelu(x: Any, approximate: str = "none") -> Any:
    return il.nn.gelu(x, approximate=approximate)


@aten("hardtanh.default")
def hardtanh(x: Any, min_val: float = -1.0, max_val: float = 1.0) -> Any:
    if min_val == 0.0 and max_val == 6.0:
        return il.nn.relu6(x)
    return il.nn.hardtanh(x, min_val, max_val)


@aten("leaky_relu.default")
def leaky_relu(x: Any, negative_slope: float = 0.01) -> Any:
    return il.where(il.greater(x, 0), x, il.multiply(x, negative_slope))


@aten("elu.default")
def elu(x: Any, alpha: float = 1.0, scale: float = 1.0, input_scale: float = 1.0) -> Any:
    neg = il.multiply(il.expm1(il.multiply(x, input_scale)), alpha * scale)
    return il.where(il.greater(x, 0), il.multiply(x, scale), neg)


@aten("softplus.default")
def softplus(x: Any, beta: float = 1.0, threshold: float = 20.0) -> Any:
    bx = il.multiply(x, beta)
    # torch switches to the identity above the threshold; the exp there is never used
    soft = il.divide(il.log1p(il.exp(il.minimum(bx, threshold))), beta)
    return il.where(il.greater(bx, threshold), x, soft)


@aten("softmax.int", "_softmax.default")
def softmax(x: Any, dim: int, dtype_or_half: Any = None) -> Any:
    if dtype_or_half is not None and not isinstance(dtype_or_half, bool):
        x = cast(x, dtype_or_half)
    return il.nn.softmax(x, axis=dim)


@aten("log_softmax.int", "_log_softmax.default")
def log_softmax(x: Any, dim: int, dtype_or_half: Any = None) -> Any:
    if dtype_or_half is not None and not isinstance(dtype_or_half, bool):
        x = cast(x, dtype_or_half)
    return il.nn.log_softmax(x, axis=dim)


# ATen ops that are ivy_like's function as it is (one argument, the same meaning): the handler
# is the function itself, so the generated line calls it without a wrapper.
_SAME: dict[str, Handler] = {
    "relu": il.nn.relu,
    "silu": il.nn.silu,
    "sigmoid": il.nn.sigmoid,
    "relu6": il.nn.relu6,
    "hardswish": il.nn.hardswish,
    "hardsigmoid": il.nn.hardsigmoid,
}
for _name, _fn in _SAME.items():
    aten(f"{_name}.default")(_fn)


@aten("erf.default")
def erf(x: Any) -> Any:
    return _special.erf(x)


@aten("erfc.default")
def erfc(x: Any) -> Any:
    return _special.erfc(x)

"""The elementwise ops' examples for ``test_check_ops.py``: float32 inside each op's domain
(away from kinks and poles, where there is no derivative to compare), integers for the
bitwise ops and booleans for the logical ones."""

from __future__ import annotations

import numpy as np
from _op_case import Case, case

from ivy_like.core.registry import OPS

# Inside every unary op's domain: (0, 1) for acos/asin/atanh, above 1 for acosh, not near an
# integer (floor, round...), the pole of tan or 0 (abs, sign).
UNARY_FLOAT = np.array([[0.31, 0.47], [0.62, 0.83]], dtype=np.float32)
# Two arguments broadcasting against each other: powers of positive bases, divisors away
# from 0, no ties (maximum, minimum), no integer quotients (floor_divide, remainder).
BINARY_FLOAT = (
    np.array([[0.37, 0.58, 0.71]], dtype=np.float32),
    np.array([[0.93], [1.26]], dtype=np.float32),
)
INTEGERS = (np.array([3, 12, 7], dtype=np.int32), np.array([5, 2, 1], dtype=np.int32))
BOOLEANS = (np.array([True, False, True]), np.array([False, False, True]))

SHIFTED = {"acosh": 1.0}  # added to the unary input (acosh needs x > 1)
INTEGER_OPS = {
    "bitwise_and", "bitwise_left_shift", "bitwise_invert", "bitwise_or",
    "bitwise_right_shift", "bitwise_xor",
}  # fmt: skip
BOOLEAN_OPS = {"logical_and", "logical_not", "logical_or", "logical_xor"}


def _default(key: str) -> Case:
    n = len(OPS[key].arrays)
    if key in INTEGER_OPS:
        return case(*INTEGERS[:n])
    if key in BOOLEAN_OPS:
        return case(*BOOLEANS[:n])
    if n == 1:
        return case(UNARY_FLOAT + np.float32(SHIFTED.get(key, 0.0)))
    return case(*BINARY_FLOAT)


CASES: dict[str, Case] = {
    key: _default(key)
    for key, spec in OPS.items()
    if spec.family == "elementwise" and key not in ("where", "clip", "nextafter")
}
CASES["where"] = case(np.array([[True, False, True]]), *BINARY_FLOAT)
# Bounds that cut some of the values (the derivative is 0 there, 1 inside; none at a bound).
CASES["clip"] = case(UNARY_FLOAT, min=0.4, max=0.7)
# One ulp towards the other argument: the derivative is 1 with respect to x1 and 0 with
# respect to x2 wherever a float64 step is taken, as in float32.
CASES["nextafter"] = case(*BINARY_FLOAT)

_MLX_COPYSIGN = (
    "MLX's copysign (composed in ivy_like) reads the sign bit through a bit view, which MLX "
    "cannot differentiate ('[Primitive::vjp] Not implemented for View int32')"
)
KNOWN: dict[tuple[str, str, str], str] = {
    **{("mlx", "copysign", c): _MLX_COPYSIGN for c in ("vjp", "jvp", "vjp2", "jvp2", "transpose")},
    ("tensorflow", "hypot", "jvp2"): (
        "nested tf.autodiff.ForwardAccumulators give a wrong second derivative of TensorFlow's "
        "hypot composition (abs, maximum, minimum, divide): 2.02 for 0.86 in plain TensorFlow"
    ),
}

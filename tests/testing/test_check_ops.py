"""``check_function`` over the registered elementwise ops: correct code raises no false
failure. Every unary and binary elementwise op of the registry runs with every check on
every selected backend, in float32 inside its domain (away from kinks and poles, where
there is no derivative to compare), and on integers for the integer and boolean ops. The
known gaps of a backend (a framework without a derivative rule) are listed with the reason.
"""

import numpy as np
import pytest

import ivy_like
from ivy_like.core.registry import OPS
from ivy_like.testing import check_function
from ivy_like.testing.pytest_plugin import selected_backends

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
# Not taken: where (three arguments), clip (bounds), nextafter (its result is one ulp away:
# no derivative, and float32 steps are what it is about).
LEFT_OUT = {"where", "clip", "nextafter"}
# (backend, op, check) -> why it fails there: real gaps, found by these checks.
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


def _ops() -> list[str]:
    return [
        k
        for k, s in OPS.items()
        if s.family == "elementwise" and k not in LEFT_OUT and len(s.arrays) in (1, 2)
    ]


def _args(key: str) -> tuple:
    spec = OPS[key]
    if key in INTEGER_OPS:
        return INTEGERS[: len(spec.arrays)]
    if key in BOOLEAN_OPS:
        return BOOLEANS[: len(spec.arrays)]
    if len(spec.arrays) == 1:
        return (UNARY_FLOAT + SHIFTED.get(key, 0.0),)
    return BINARY_FLOAT


def test_the_sample_is_broad():
    assert len(_ops()) >= 60


@pytest.mark.parametrize("key", _ops())
def test_an_elementwise_op_passes_every_check(request, key):
    names = selected_backends(request.config)
    op = getattr(ivy_like, key)
    report = check_function(op, *_args(key), backends=names)
    unexpected = [(b, c, o.detail) for b, c, o in report.failures if (b, key, c) not in KNOWN]
    assert not unexpected, str(report)

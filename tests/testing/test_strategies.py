"""``ivy_like.testing.strategies``: the special values are drawn (and found by Hypothesis's
search), dtypes combine by the standard's promotion table, shapes broadcast, and only dtypes
every backend has are drawn for ``check_function``."""

import numpy as np
import pytest
from hypothesis import find, given, settings

import ivy_like
from ivy_like.testing import strategies as S


def test_the_special_values_of_each_kind():
    floats = S.special_values("float32")
    assert any(np.isnan(v) for v in floats) and np.inf in floats and -np.inf in floats
    zeros = [v for v in floats if v == 0]
    assert sorted(np.signbit(zeros).tolist()) == [False, True]  # both signed zeros
    subnormal = np.finfo(np.float32).smallest_subnormal
    assert subnormal in floats and -subnormal in floats
    assert S.special_values("uint8") == [0, 255, 0, 1]
    assert S.special_values("int64")[:2] == [-(2**63), 2**63 - 1]
    assert S.special_values("bool") == [True, False]
    assert any(np.isnan(v.imag) for v in S.special_values("complex64"))


@pytest.mark.parametrize(
    "dtype, condition",
    [
        ("float32", lambda v: v == 0 and np.signbit(v)),
        ("float32", lambda v: np.isnan(v)),
        ("float32", lambda v: v != 0 and abs(v) < np.finfo(np.float32).tiny),  # subnormal
        ("float32", lambda v: np.isinf(v) and v < 0),
        ("int16", lambda v: v == np.iinfo(np.int16).min),
        ("uint8", lambda v: v == 255),
    ],
    ids=["negative-zero", "nan", "subnormal", "-inf", "int16-min", "uint8-max"],
)
def test_the_special_values_are_drawn(dtype, condition):
    found = find(S.elements(dtype), condition, settings=settings(max_examples=500, database=None))
    assert condition(found)


@given(S.promotable_dtypes(3, backends=["numpy"]))
def test_dtypes_combine_by_the_standards_table(dtypes):
    kinds = {d.kind for d in dtypes}
    assert kinds <= {"i", "u"} or kinds == {"f"}  # no mixing of integers with floats
    assert not {"int64", "uint64"} <= {d.name for d in dtypes}
    ivy_like.result_type(*dtypes)  # defined


@given(S.array_args(3, kind="numeric", backends=["numpy"]))
def test_the_arguments_broadcast_and_promote(args):
    assert len(args) == 3 and all(isinstance(a, np.ndarray) for a in args)
    np.broadcast_shapes(*(a.shape for a in args))
    ivy_like.result_type(*(a.dtype for a in args))


def test_only_dtypes_every_backend_has(request):
    from ivy_like.testing.pytest_plugin import selected_backends

    names = selected_backends(request.config)
    found = S.common_dtypes("numeric", names)
    for name in names:
        have = ivy_like.get_backend(name)._dtype_to_native
        assert all(d in have for d in found)
    with pytest.raises(ValueError, match="kind must be one of"):
        S.common_dtypes("real", names)


@given(S.arrays("float32", (6,), backend="numpy", wrap=False, specials=True))
def test_arrays_take_the_special_values_on_request(x):
    assert x.dtype == np.float32 and x.shape == (6,)

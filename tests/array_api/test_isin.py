"""``isin`` (array API 2025.12) on every backend: the edge cases its table test
(``tests/array_api/test_statistical.py``) does not draw.

NaN is in nothing and -0.0 is 0.0, on the pairwise path and on the sorted one (more than
``ISIN_PAIRWISE_MAX`` pairs); ``invert``; Python scalars, converted to the array's dtype as the
standard converts them, matching nothing where no value of the dtype stands for them; 0-d and
empty arrays; two dtypes compared by exact value; the decided errors; the function, ``Array``
method, ``Container`` method, ``out=`` and compiled forms.
"""

from __future__ import annotations

import numpy as np
import pytest

import ivy_like
from ivy_like.ops.set_functions import ISIN_PAIRWISE_MAX
from ivy_like.testing import assert_close

NAN, INF = float("nan"), float("inf")


def has(backend, name: str) -> bool:
    """Whether the backend has the dtype ``name`` (jax without 64-bit mode, MXNet...)."""
    try:
        backend.native_dtype(name)
    except TypeError:
        return False
    return True


def needs(backend, *names: str) -> None:
    missing = [n for n in names if not has(backend, n)]
    if missing:
        pytest.skip(f"{backend.name} has no {', '.join(missing)}")


def isin(x1, x2, **kwargs):
    """ivy_like.isin of NumPy inputs (Python scalars left alone), as a NumPy result."""
    a = ivy_like.asarray(x1) if isinstance(x1, np.ndarray) else x1
    b = ivy_like.asarray(x2) if isinstance(x2, np.ndarray) else x2
    out = ivy_like.isin(a, b, **kwargs)
    assert out.dtype == ivy_like.bool
    return ivy_like.to_numpy(out)


def check(x1, x2, expected, **kwargs):
    """Both senses of the test: ``expected`` and, with ``invert=True``, its negation."""
    expected = np.asarray(expected, dtype=bool)
    assert_close(isin(x1, x2, **kwargs), expected)
    assert_close(isin(x1, x2, invert=True, **kwargs), ~expected)


# -- NaN and signed zeros, on both paths -----------------------------------------------------------
def test_nan_is_in_nothing_and_minus_zero_is_zero(backend):
    x1 = np.array([[NAN, -0.0, 0.0], [1.0, INF, -INF]], np.float32)
    x2 = np.array([NAN, 0.0, INF], np.float32)
    check(x1, x2, [[False, True, True], [False, True, False]])
    check(x1, np.array([-0.0, NAN, -INF], np.float32), [[False, True, True], [False, False, True]])
    check(np.array([NAN], np.float32), np.array([NAN, NAN], np.float32), [False])


def _big_floats(n: int, seed: int) -> np.ndarray:
    """Many repeats of few values, NaN (of both signs), ±0 and ±inf among them."""
    pool = np.array([NAN, -NAN, -0.0, 0.0, INF, -INF, 1.5, -2.0, 3.25, 7.0], np.float32)
    rng = np.random.default_rng(seed)
    return np.concatenate(
        [pool[rng.integers(0, pool.size, n // 2)], rng.integers(-50, 50, n - n // 2)]
    )


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "float64"])
def test_many_floats_take_the_sorted_path_alike(backend, dtype):
    needs(backend, dtype)
    x1 = _big_floats(600, 1).reshape(20, 30)
    x2 = _big_floats(500, 2)
    assert x1.size * x2.size > ISIN_PAIRWISE_MAX
    a, b = (ivy_like.asarray(v, dtype=dtype) for v in (x1, x2))
    assert_close(ivy_like.isin(a, b), np.isin(x1, x2))
    assert_close(ivy_like.isin(a, b, invert=True), np.isin(x1, x2, invert=True))
    no_zero = x2[x2 != 0]
    assert_close(ivy_like.isin(a, ivy_like.asarray(no_zero, dtype=dtype)), np.isin(x1, no_zero))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "int64", "uint64"])
def test_many_integers_take_the_sorted_path_alike(backend, dtype):
    needs(backend, dtype)
    info = np.iinfo(dtype)
    rng = np.random.default_rng(3)
    x1 = np.concatenate(
        [rng.integers(0, 60, 400).astype(dtype), np.array([info.min, info.max], dtype)]
    )
    x2 = np.concatenate([rng.integers(30, 90, 300).astype(dtype), np.array([info.max], dtype)])
    assert_close(isin(x1.reshape(2, -1), x2), np.isin(x1, x2).reshape(2, -1))
    assert_close(isin(x1, x2[:0]), np.zeros(x1.shape, bool))


def test_many_complex_and_bool_values(backend):
    rng = np.random.default_rng(4)
    flags = rng.integers(0, 2, 500).astype(bool)
    check(flags, np.ones(300, bool), flags)
    check(flags, np.zeros(300, bool), ~flags)
    check(flags, np.zeros(0, bool), np.zeros(500, bool))
    needs(backend, "complex64")
    x1 = (rng.integers(0, 9, 500) + 1j * rng.integers(0, 3, 500)).astype(np.complex64)
    x1[::50] = complex(NAN, 0)
    x2 = (rng.integers(0, 9, 300) + 1j * rng.integers(1, 3, 300)).astype(np.complex64)
    x2[::7] = complex(NAN, 1)
    assert x1.size * x2.size > ISIN_PAIRWISE_MAX
    check(x1, x2, np.isin(x1, x2))
    check(x1[:5], x2[:3], np.isin(x1[:5], x2[:3]))


# -- Python scalars ------------------------------------------------------------------------------------
def test_a_python_scalar_x2_is_converted_to_the_arrays_dtype(backend):
    ints = np.array([[-1, 0, 1], [2, 3, 127]], np.int8)
    check(ints, 1, [[False, False, True], [False, False, False]])
    check(ints, 127, [[False, False, False], [False, False, True]])
    check(ints, 1.0, [[False, False, True], [False, False, False]])  # the same value
    check(ints, True, [[False, False, True], [False, False, False]])  # True is 1
    check(ints, 2 + 0j, [[False, False, False], [True, False, False]])
    for nothing in (300, -129, 2**70, 1.5, NAN, INF, 1 + 1j):  # no int8 stands for these
        check(ints, nothing, np.zeros((2, 3), bool))
    flags = np.array([True, False])
    check(flags, 1, [True, False])
    check(flags, 0.0, [False, True])
    check(flags, 2, [False, False])
    floats = np.array([0.1, 16777216.0, INF, NAN, -0.0], np.float32)
    # Rounded to float32, as the standard converts a scalar to the array's dtype.
    check(floats, 0.1, [True, False, False, False, False])
    check(floats, 16777217, [False, True, False, False, False])
    check(floats, 2**24 + 1.0, [False, True, False, False, False])
    check(floats, 0, [False, False, False, False, True])
    check(floats, INF, [False, False, True, False, False])
    check(floats, 0.1 + 0j, [True, False, False, False, False])
    for nothing in (NAN, 1e300, -(2**200), 0.1 + 1j):  # NaN, float32 overflow, an imaginary part
        check(floats, nothing, np.zeros(5, bool))


def test_a_python_scalar_beyond_a_half_dtype_matches_nothing(backend):
    needs(backend, "float16")
    halves = ivy_like.asarray([65504.0, INF, 2048.0], dtype=ivy_like.float16)
    assert_close(ivy_like.isin(halves, 65504), np.array([True, False, False]))
    assert_close(ivy_like.isin(halves, 65519.0), np.array([True, False, False]))  # rounds down
    assert_close(ivy_like.isin(halves, 65520), np.zeros(3, bool))  # would round to infinity
    assert_close(ivy_like.isin(halves, 2049), np.array([False, False, True]))  # ties to even


def test_a_python_scalar_x1_gives_a_0d_answer(backend):
    x2 = np.array([[1, 2], [3, 4]], np.int32)
    for x1, found in ((3, True), (5, False), (3.0, True), (3.5, False), (True, True), (NAN, False)):
        got = ivy_like.isin(x1, ivy_like.asarray(x2))
        assert got.shape == () and got.dtype == ivy_like.bool
        assert_close(got, np.bool_(found))
        assert_close(ivy_like.isin(x1, ivy_like.asarray(x2), invert=True), np.bool_(not found))
    assert_close(ivy_like.isin(0.1, ivy_like.asarray([0.1, 0.2])), np.bool_(True))
    assert_close(ivy_like.isin(1, ivy_like.zeros((0,))), np.bool_(False))
    assert_close(ivy_like.isin(1, ivy_like.zeros((0,)), invert=True), np.bool_(True))


def test_two_python_scalars_become_arrays_first(backend):
    for x1, x2, found in ((1, 1, True), (1, 2, False), (2, 2.0, True), (0.5, 0.5, True)):
        got = ivy_like.isin(x1, x2)
        assert isinstance(got, backend.array_types)  # as add(1, 2): a native array
        assert_close(ivy_like.to_numpy(got), np.bool_(found))


# -- shapes and dtypes -----------------------------------------------------------------------------
def test_the_result_has_x1s_shape(backend):
    for dtype in ("float32", "int32", "bool"):
        x2 = np.array([[1, 0]], dtype)
        for shape in [(), (0,), (3, 0), (0, 2, 1), (1,), (2, 1, 3)]:
            x1 = np.ones(shape, dtype)
            got = ivy_like.isin(ivy_like.asarray(x1), ivy_like.asarray(x2))
            assert tuple(got.shape) == shape and got.dtype == ivy_like.bool
            assert_close(got, np.ones(shape, bool))
    check(np.array(2.0, np.float32), np.array(2.0, np.float32), True)  # both 0-d
    check(np.array([1.0, 2.0], np.float32), np.zeros((2, 0), np.float32), [False, False])


def test_two_dtypes_compare_exactly(backend):
    check(np.array([16777217, 16777216], np.int32), np.array([16777216.0], np.float32), [0, 1])
    check(np.array([16777216.0, 3.0], np.float32), np.array([16777217, 3], np.int32), [0, 1])
    check(np.array([255, 1], np.uint8), np.array([-1, 1], np.int8), [0, 1])
    check(np.array([-1, 1], np.int8), np.array([255, 1], np.uint8), [0, 1])
    check(np.array([1, 2, 0], np.int32), np.array([True]), [1, 0, 0])
    check(np.array([True, False]), np.array([2, 1], np.int8), [1, 0])
    check(np.array([1.5, 2.0, NAN], np.float32), np.array([2, 1], np.int8), [0, 1, 0])
    check(np.array([2, 1], np.int8), np.array([1.5, 2.0, NAN, 300.0], np.float32), [1, 0])
    check(np.array([2, 1], np.int8), np.array([1.5, 300.0, -INF], np.float32), [0, 0])
    check(np.array([0.5, 3.0], np.float32), [3, 4], [0, 1])  # a list: an array of the backend


def test_two_dtypes_compare_exactly_in_complex_and_half_dtypes(backend):
    needs(backend, "complex64")
    check(np.array([1.0, 2.0], np.float32), np.array([1 + 0j, 2 + 1j], np.complex64), [1, 0])
    check(np.array([1 + 0j, 2 + 1j], np.complex64), np.array([1, 2], np.int32), [1, 0])
    check(np.array([1 + 0j, 2 + 1j], np.complex64), np.array([2 + 1j, 1], np.complex64), [1, 1])
    needs(backend, "float16", "bfloat16")
    half = ivy_like.asarray([0.1, 1.5, 65504.0, 2049.0], dtype=ivy_like.float16)
    brain = ivy_like.asarray([0.1, 1.5, 65504.0, 2048.0, 4096.0], dtype=ivy_like.bfloat16)
    # 0.1 rounds differently in each, 65504 is 65536 in bfloat16, 2049 is 2048 in float16.
    assert_close(ivy_like.isin(half, brain), np.array([False, True, False, True]))
    assert_close(ivy_like.isin(brain, half), np.array([False, True, False, True, False]))


def test_64_bit_integers_are_not_rounded(backend):
    needs(backend, "int64", "float64", "uint64")
    big = 2**53 + 1
    check(np.array([big, 2**53], np.int64), np.array([2.0**53], np.float64), [0, 1])
    check(np.array([2.0**53, 2.0**63], np.float64), np.array([big, 2**63 - 1], np.int64), [0, 0])
    check(np.array([2**64 - 1, 5], np.uint64), np.array([-1, 5], np.int64), [0, 1])
    check(np.array([-1, 2**63 - 1], np.int64), np.array([2**64 - 1, 2**63 - 1], np.uint64), [0, 1])
    many = np.arange(400, dtype=np.int64) + 2**53
    check(many, many.astype(np.float64)[::2], np.isin(many, many[::2]))


def test_many_pairs_of_two_dtypes(backend):
    rng = np.random.default_rng(5)
    x1 = rng.integers(-20, 400, 500).astype(np.int32)
    x2 = (rng.integers(-40, 300, 400) / 2).astype(np.float32)
    x2[::9] = NAN
    check(x1, x2, np.isin(x1, x2))
    check(x2, x1, np.isin(x2, x1))
    fractions = np.arange(300, dtype=np.float32) + 0.5
    check(x1, fractions, np.zeros(500, bool))  # no element of x2 kept: nothing stands in
    unsigned, signed = rng.integers(0, 256, 500).astype(np.uint8), x1[:400].astype(np.int8)
    check(unsigned, signed, np.isin(unsigned, signed))  # neither dtype holds the other
    check(signed, unsigned, np.isin(signed, unsigned))


# -- errors ------------------------------------------------------------------------------------------
def test_decided_errors(backend):
    x = ivy_like.asarray([1, 2])
    for bad in (1, None, "yes", np.array(True)):
        with pytest.raises(TypeError, match="isin: invert must be a bool, got"):
            ivy_like.isin(x, x, invert=bad)
    with pytest.raises(TypeError, match="isin: argument 'x2' must be an array"):
        ivy_like.isin(x, "1")
    with pytest.raises(TypeError, match="isin: argument 'x1' must be an array"):
        ivy_like.isin(None, x)
    with pytest.raises(TypeError, match="isin: invert must be a bool"):
        x.isin(x, invert=0)


# -- the ways in ---------------------------------------------------------------------------------
def test_function_method_container_and_out(backend):
    x1 = ivy_like.asarray([[1.0, 2.0], [3.0, NAN]])
    x2 = ivy_like.asarray([3.0, 1.0, NAN])
    want = np.array([[True, False], [True, False]])
    got = x1.isin(x2)
    assert type(got) is ivy_like.Array
    assert_close(got, want)
    native = ivy_like.isin(x1.data, x2.data)
    assert isinstance(native, backend.array_types)
    assert_close(native, want)
    assert_close(ivy_like.isin(np.asarray(ivy_like.to_numpy(x1)), x2), want)  # NumPy x1
    c = ivy_like.Container(a=x1, b=ivy_like.asarray([3, 4]))
    result = c.isin(x2)
    assert_close(result["a"], want)
    assert_close(result["b"], np.array([True, False]))
    assert_close(ivy_like.isin(c, x2, invert=True)["b"], np.array([False, True]))
    out = ivy_like.zeros((2, 2), dtype=ivy_like.bool)
    assert ivy_like.isin(x1, x2, out=out) is out
    assert_close(out, want)


def test_compiled_isin_matches_eager(backend):
    rng = np.random.default_rng(6)
    x1 = ivy_like.asarray(rng.integers(0, 50, (20, 30)).astype(np.float32))
    x2 = ivy_like.asarray(rng.integers(25, 75, 400).astype(np.float32))
    small = ivy_like.asarray([1, 2, 3])

    def both(a, b, c):
        return ivy_like.isin(a, b), ivy_like.isin(c, 2, invert=True)

    compiled = ivy_like.compile(both)(x1, x2, small)
    assert_close(list(compiled), list(both(x1, x2, small)))

"""The array API standard's 2025.12 revision: what it added and changed, on every backend, and
the earlier revisions a user can still choose (ivy_like/_api_versions.py). ``isin`` and
``linalg.eig``/``eigvals`` have tests of their own (test_isin.py, tests/ops/test_eig.py)."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import numpy as np
import pytest

import ivy_like

INF = math.inf


# -- the revision ---------------------------------------------------------------------------------
def test_the_namespace_follows_2025_12(backend):
    assert ivy_like.__array_api_version__ == "2025.12"
    x = ivy_like.Array(backend.asarray(np.ones(2, np.float32)))
    assert x.__array_namespace__() is ivy_like
    assert x.__array_namespace__(api_version="2025.12") is ivy_like
    with pytest.raises(ValueError, match="api_version"):
        x.__array_namespace__(api_version="1999.01")


def test_tuples_from_2025_12_on(backend):
    grids = ivy_like.meshgrid(ivy_like.arange(2), ivy_like.arange(3))
    arrays = ivy_like.broadcast_arrays(ivy_like.ones((2, 1)), ivy_like.ones(3))
    devices = ivy_like.__array_namespace_info__().devices()
    assert type(grids) is tuple and type(arrays) is tuple and type(devices) is tuple
    assert [g.shape for g in grids] == [(3, 2), (3, 2)]


@pytest.mark.parametrize("version", ["2023.12", "2024.12"])
def test_an_earlier_revision_is_a_namespace_of_its_own(backend, version):
    x = ivy_like.Array(backend.asarray(np.arange(3, dtype=np.float32)))
    ns = x.__array_namespace__(api_version=version)
    assert ns is not ivy_like and ns is x.__array_namespace__(api_version=version)
    assert ns.__array_api_version__ == version
    assert type(ns.meshgrid(x, x)) is list and type(ns.broadcast_arrays(x, x)) is list
    assert type(ns.__array_namespace_info__().devices()) is list
    # everything else is ivy_like's own, the 2025.12 additions included
    assert ns.add is ivy_like.add and ns.linalg is ivy_like.linalg
    assert ns.isin is ivy_like.isin and ns.broadcast_shapes is ivy_like.broadcast_shapes
    np.testing.assert_array_equal(ns.add(x, x).to_numpy(), [0.0, 2.0, 4.0])
    # and ivy_like itself is unchanged
    assert ivy_like.__array_api_version__ == "2025.12"
    assert type(ivy_like.meshgrid(x)) is tuple


def test_set_array_api_version_switches_the_namespace_and_back(backend):
    x = ivy_like.arange(2)
    try:
        ivy_like.set_array_api_version("2024.12")
        assert ivy_like.__array_api_version__ == "2024.12"
        assert type(ivy_like.meshgrid(x)) is list
        assert type(ivy_like.__array_namespace_info__().devices()) is list
        assert x.__array_namespace__() is ivy_like
        assert x.__array_namespace__(api_version="2024.12") is ivy_like
        assert type(x.__array_namespace__(api_version="2025.12").meshgrid(x)) is tuple
    finally:
        ivy_like.set_array_api_version("2025.12")
    assert type(ivy_like.meshgrid(x)) is tuple and type(ivy_like.broadcast_arrays(x)) is tuple
    with pytest.raises(ValueError, match="2025.12"):
        ivy_like.set_array_api_version("2026.12")
    assert ivy_like.__array_api_version__ == "2025.12"


def test_the_environment_variable_chooses_the_revision_at_import():
    code = (
        "import ivy_like; print(ivy_like.__array_api_version__, type(ivy_like.meshgrid()).__name__)"
    )
    env = {**os.environ, "IVY_LIKE_ARRAY_API_VERSION": "2023.12", "IVY_LIKE_BACKEND": "numpy"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.split() == ["2023.12", "list"], out.stderr
    env["IVY_LIKE_ARRAY_API_VERSION"] = "2020.01"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode != 0 and "IVY_LIKE_ARRAY_API_VERSION" in out.stderr


def test_info_dtypes_are_the_standard_s(backend):
    dtypes = ivy_like.__array_namespace_info__().dtypes()
    assert "float16" not in dtypes and "bfloat16" not in dtypes
    assert {"bool", "int32", "float32"} <= set(dtypes)


# -- broadcast_shapes ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "shapes, expected",
    [
        ((), ()),
        (((2, 3),), (2, 3)),
        (((2, 1), (3,)), (2, 3)),
        (((5, 1, 4), (1, 3, 1), ()), (5, 3, 4)),
        (((0,), (1,)), (0,)),
        (((None, 1), (1, 4)), (None, 4)),
        (((None,), (3,)), (3,)),
        ([[2, 1], [1, 2]], (2, 2)),
    ],
)
def test_broadcast_shapes(shapes, expected):
    assert ivy_like.broadcast_shapes(*shapes) == expected
    if None not in sum(map(tuple, shapes), ()):
        assert ivy_like.broadcast_shapes(*shapes) == np.broadcast_shapes(*map(tuple, shapes))


@pytest.mark.parametrize(
    "shapes, error, match",
    [
        (((2,), (3,)), ValueError, "do not broadcast"),
        (((2, 3), (4, 1, 2)), ValueError, "do not broadcast"),
        (((2,), 3), TypeError, r"shapes\[1\]"),
        (((2.0,),), TypeError, r"shapes\[0\]"),
        ((("ab",),), TypeError, r"shapes\[0\]"),
        ((("ab"),), TypeError, r"shapes\[0\]"),
        (((-1,),), ValueError, "non-negative"),
        (((True,),), TypeError, r"shapes\[0\]"),
    ],
)
def test_broadcast_shapes_errors(shapes, error, match):
    with pytest.raises(error, match=match):
        ivy_like.broadcast_shapes(*shapes)


# -- expand_dims with a tuple ------------------------------------------------------------------
@pytest.mark.parametrize(
    "shape, axis, expected",
    [
        ((2, 3), (0, -1), (1, 2, 3, 1)),
        ((2, 3), (1, 3), (2, 1, 3, 1)),
        ((2, 3), (-1, 0), (1, 2, 3, 1)),
        ((2,), (0, 1, 2), (1, 1, 1, 2)),
        ((), (), ()),
        ((), (0, -1), (1, 1)),
        ((2, 3), [2], (2, 3, 1)),
        ((2, 3), 1, (2, 1, 3)),
    ],
)
def test_expand_dims_tuple(backend, shape, axis, expected):
    x = np.arange(math.prod(shape), dtype=np.float32).reshape(shape)
    out = ivy_like.expand_dims(ivy_like.Array(backend.asarray(x)), axis=axis)
    assert out.shape == expected
    np.testing.assert_array_equal(out.to_numpy(), x.reshape(expected))
    # the method is the same function
    assert ivy_like.Array(backend.asarray(x)).expand_dims(axis).shape == expected


@pytest.mark.parametrize("axis", [(0, 0), (1, -3), (4,), (0, -5), (-5, 0)])
def test_expand_dims_tuple_errors(backend, axis):
    x = ivy_like.Array(backend.asarray(np.zeros((2, 3), np.float32)))
    with pytest.raises((IndexError, ValueError), match="expand_dims"):
        ivy_like.expand_dims(x, axis=axis)


def test_expand_dims_tuple_on_a_container():
    c = ivy_like.Container(a=ivy_like.zeros((2,)), b=ivy_like.zeros((3, 4)))
    out = c.expand_dims(axis=(0, -1))
    assert out["a"].shape == (1, 2, 1) and out["b"].shape == (1, 3, 4, 1)


# -- permute_dims with negative axes, searchsorted with a scalar -----------------------------------
def test_permute_dims_negative_axes(backend):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    out = ivy_like.permute_dims(ivy_like.Array(backend.asarray(x)), (-1, 0, -2))
    np.testing.assert_array_equal(out.to_numpy(), np.transpose(x, (2, 0, 1)))
    with pytest.raises(ValueError, match="permute_dims"):
        ivy_like.permute_dims(ivy_like.Array(backend.asarray(x)), (-1, 2, 0))


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_scalar(backend, side):
    x1 = np.array([1.0, 2.0, 2.0, 5.0], np.float32)
    for v in (2, 2.0, 0, 7.5):
        out = ivy_like.searchsorted(ivy_like.Array(backend.asarray(x1)), v, side=side)
        assert out.shape == ()
        assert int(out) == np.searchsorted(x1, v, side=side)


# -- special cases: floor_divide with an infinite operand, complex expm1 --------------------------
def test_floor_divide_special_cases(backend):
    x1 = np.array([INF, INF, -INF, -INF, 1.0, -1.0, 1.0, -1.0, -0.0, 7.0, -7.0], np.float32)
    x2 = np.array([2.0, -2.0, 2.0, -2.0, -INF, INF, INF, -INF, 3.0, 2.0, 2.0], np.float32)
    want = [INF, -INF, -INF, INF, -0.0, -0.0, 0.0, 0.0, -0.0, 3.0, -4.0]
    a, b = ivy_like.Array(backend.asarray(x1)), ivy_like.Array(backend.asarray(x2))
    for out in (ivy_like.floor_divide(a, b), a // b):
        got = out.to_numpy()
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))  # the zeros' signs


def test_floor_divide_of_floats_is_the_floor_of_the_quotient(backend):
    # The standard's wording, and what every backend computes: 1 // 0.1 is floor(10.0).
    x = ivy_like.Array(backend.asarray(np.array([1.0, 0.5, -1.0], np.float32)))
    np.testing.assert_array_equal(ivy_like.floor_divide(x, 0.1).to_numpy(), [10.0, 5.0, -10.0])
    ints = ivy_like.Array(backend.asarray(np.array([7, -7], np.int32)))
    np.testing.assert_array_equal(ivy_like.floor_divide(ints, 2).to_numpy(), [3, -4])


def test_complex_expm1_special_cases(backend):
    if ivy_like.complex64 not in ivy_like.__array_namespace_info__().dtypes().values():
        pytest.skip(f"{backend.name} has no complex dtype")
    nan = math.nan
    z = [
        0j,
        complex(-0.0, 0.0),
        complex(INF, 0.0),
        complex(-INF, INF),
        complex(-INF, nan),
        complex(-INF, 2.0),
        complex(nan, 0.0),
        complex(INF, INF),
        complex(INF, nan),
    ]
    want = [
        0j,
        0j,
        complex(INF, 0.0),
        complex(-1, 0),
        complex(-1, 0),
        complex(-1, 0),
        complex(nan, 0.0),
    ]
    got = ivy_like.expm1(ivy_like.Array(backend.asarray(np.array(z, np.complex64)))).to_numpy()
    np.testing.assert_array_equal(got[:7], want)
    assert not np.signbit(got[1].real)  # -0 + 0j gives +0 + 0j
    assert np.isinf(got[7].real) and np.isnan(got[7].imag)
    assert np.isinf(got[8].real) and np.isnan(got[8].imag)
    # and small arguments keep their accuracy (no exp(z) - 1 cancellation)
    small = np.array([1e-4 + 1e-4j], np.complex64)
    got = ivy_like.expm1(ivy_like.Array(backend.asarray(small))).to_numpy()
    np.testing.assert_allclose(got, np.expm1(small.astype(np.complex128)), rtol=1e-5)


# -- found by the standard's suite at 2025.12 -----------------------------------------------------
PYTHON = {
    "add": lambda a, b: a + b,
    "multiply": lambda a, b: a * b,
    "greater": lambda a, b: a > b,
    "maximum": max,
    "bitwise_or": lambda a, b: a | b,
    "pow": lambda a, b: a**b,
}


@pytest.mark.parametrize("name", list(PYTHON))
def test_a_0d_array_promotes_with_a_dimensioned_one(backend, name):
    # torch let the dimensioned tensor's dtype win within a kind: 200 + 1 wrapped to -55.
    big = ivy_like.Array(backend.asarray(np.asarray(200, np.int32)))
    small = ivy_like.Array(backend.asarray(np.array([1], np.int8)))
    for x1, x2, a, b in ((big, small, 200, 1), (small, big, 1, 200)):
        out = getattr(ivy_like, name)(x1, x2)
        assert out.shape == (1,)
        assert out.dtype == (ivy_like.bool if name == "greater" else ivy_like.int32)
        assert out.to_numpy().tolist() == [PYTHON[name](a, b)]


def test_asarray_of_nested_0d_arrays(backend):
    x = ivy_like.Array(backend.asarray(np.array([[1, 2], [3, 4]], np.int32)))
    out = ivy_like.asarray([[x[i, j] for i in range(2)] for j in range(2)])
    np.testing.assert_array_equal(out.to_numpy(), [[1, 3], [2, 4]])
    flags = ivy_like.Array(backend.asarray(np.array([True, False])))
    assert ivy_like.asarray([flags[1], flags[0]]).to_numpy().tolist() == [False, True]


def test_cross_broadcasts_arrays_of_different_ranks(backend):
    x1 = ivy_like.Array(backend.asarray(np.array([[1.0, 0.0, 0.0]], np.float32)))
    x2 = ivy_like.Array(backend.asarray(np.array([0.0, 1.0, 0.0], np.float32)))
    np.testing.assert_array_equal(ivy_like.linalg.cross(x1, x2).to_numpy(), [[0.0, 0.0, 1.0]])
    empty = ivy_like.Array(backend.asarray(np.zeros((0, 3), np.float32)))
    assert ivy_like.linalg.cross(empty, x2).shape == (0, 3)


def test_unique_of_complex_numbers(backend):
    # torch cannot sort complex numbers on the CPU: its unique_* now order them as NumPy does.
    if ivy_like.complex64 not in ivy_like.__array_namespace_info__().dtypes().values():
        pytest.skip(f"{backend.name} has no complex dtype")
    z = np.array([1 + 2j, 0j, 1 + 1j, 1 + 2j, -1j, 0j], np.complex64)
    values, indices, inverse, counts = ivy_like.unique_all(ivy_like.Array(backend.asarray(z)))
    np.testing.assert_array_equal(values.to_numpy(), [-1j, 0j, 1 + 1j, 1 + 2j])
    assert indices.to_numpy().tolist() == [4, 1, 2, 0]
    assert inverse.to_numpy().tolist() == [3, 1, 2, 3, 0, 1]
    assert counts.to_numpy().tolist() == [1, 2, 1, 2]
    unique = ivy_like.unique_values(ivy_like.Array(backend.asarray(z)))
    np.testing.assert_array_equal(unique.to_numpy(), [-1j, 0j, 1 + 1j, 1 + 2j])

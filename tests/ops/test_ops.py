"""Every op of the first set, on every backend, against NumPy, with hypothesis-drawn inputs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ivy_like
from ivy_like.testing import assert_close

shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=4)
# No subnormals: jax, tensorflow and mlx flush them to zero on CPU (documented in
# docs/design.md), so log/sqrt/divide of a subnormal legitimately differ from NumPy.
floats32 = st.floats(
    -50, 50, width=32, allow_nan=False, allow_infinity=False, allow_subnormal=False
)


def f32(shape=shapes, elements=floats32):
    return hnp.arrays(np.float32, shape, elements=elements)


def on(backend, *arrays):
    return [backend.asarray(a) for a in arrays]


UNARY = {
    "negative": np.negative,
    "positive": np.positive,
    "abs": np.abs,
    "exp": lambda a: np.exp(np.clip(a, -50, 50)),
    "log": np.log,
    "sqrt": np.sqrt,
    "square": np.square,
    "sin": np.sin,
    "cos": np.cos,
    "tanh": np.tanh,
}


@pytest.mark.parametrize("name", sorted(UNARY))
@given(x=f32())
def test_unary_float_ops_match_numpy(backend, name, x):
    with np.errstate(all="ignore"):
        expected = UNARY[name](x)
    if name == "exp":
        x = np.clip(x, -50, 50)
    got = getattr(ivy_like, name)(*on(backend, x))
    assert_close(got, expected, label=f"{name}: ")
    # The Array method is the same op.
    method = getattr(ivy_like.array(x), name)()
    assert_close(method, expected, label=f"Array.{name}: ")


BINARY = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "divide": np.divide,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "equal": np.equal,
    "not_equal": np.not_equal,
    "less": np.less,
    "less_equal": np.less_equal,
    "greater": np.greater,
    "greater_equal": np.greater_equal,
}


@st.composite
def broadcastable_pair(draw):
    s1, s2 = draw(
        hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=4)
    ).input_shapes
    return draw(f32(s1)), draw(f32(s2))


@pytest.mark.parametrize("name", sorted(BINARY))
@given(pair=broadcastable_pair())
def test_binary_ops_broadcast_and_match_numpy(backend, name, pair):
    a, b = pair
    with np.errstate(all="ignore"):
        expected = BINARY[name](a, b)
    got = getattr(ivy_like, name)(*on(backend, a, b))
    assert_close(got, expected, label=f"{name}: ")


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "maximum", "pow"])
@given(x=f32(elements=st.floats(0.5, 4, width=32)), s=st.sampled_from([2.0, 0.5, 3.0]))
def test_python_scalars_are_weak(backend, name, x, s):
    ref = {"pow": np.power}.get(name, BINARY.get(name))
    expected = ref(x, np.float32(s))
    got = getattr(ivy_like, name)(ivy_like.array(x), s)
    assert got.dtype == ivy_like.float32
    assert_close(got, expected.astype(np.float32), label=f"{name}: ")


@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_nan_propagates_in_maximum_minimum(backend, name):
    a = np.array([np.nan, 1.0, 2.0], np.float32)
    b = np.array([0.0, np.nan, 1.0], np.float32)
    got = getattr(ivy_like, name)(*on(backend, a, b))
    assert_close(got, getattr(np, name)(a, b))


@pytest.mark.parametrize("name", ["max", "min"])
def test_nan_propagates_in_max_min(backend, name):
    a = np.array([[1.0, np.nan], [2.0, 3.0]], np.float32)
    assert_close(getattr(ivy_like, name)(*on(backend, a), axis=1), getattr(np, name)(a, axis=1))
    assert_close(getattr(ivy_like, name)(*on(backend, a)), getattr(np, name)(a))


@given(
    x=hnp.arrays(np.int64, shapes, elements=st.integers(-20, 20)),
    d=st.integers(1, 7) | st.integers(-7, -1),
)
def test_floor_divide_and_remainder_follow_python_signs(backend, x, d):
    native = backend.asarray(
        x.astype(
            backend.module.DEFAULT_INT.name
            if hasattr(backend.module.DEFAULT_INT, "name")
            else str(backend.module.DEFAULT_INT).split(".")[-1]
        )
    )
    got_div = ivy_like.floor_divide(native, d)
    got_rem = ivy_like.remainder(native, d)
    assert_close(got_div, np.floor_divide(x, d), check_dtype=False)
    assert_close(got_rem, np.remainder(x, d), check_dtype=False)


REDUCTIONS = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min}


@st.composite
def array_and_axis(draw):
    x = draw(f32(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)))
    axes = (
        st.none()
        | st.integers(-x.ndim, x.ndim - 1)
        | st.lists(st.integers(0, x.ndim - 1), min_size=1, max_size=x.ndim, unique=True).map(tuple)
    )
    return x, draw(axes), draw(st.booleans())


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@given(case=array_and_axis())
def test_reductions_match_numpy(backend, name, case):
    x, axis, keepdims = case
    expected = REDUCTIONS[name](x, axis=axis, keepdims=keepdims)
    got = getattr(ivy_like, name)(*on(backend, x), axis=axis, keepdims=keepdims)
    # Summation order differs between frameworks: allow float32 rounding of the total.
    atol = float(np.sum(np.abs(x))) * 1e-6 + 1e-6
    assert_close(got, np.asarray(expected, np.float32), atol=atol)


def test_sum_dtype_argument(backend):
    x = backend.asarray(np.array([1, 2, 3], np.int32))
    got = ivy_like.sum(x, dtype=ivy_like.float32)
    assert ivy_like.Array(got).dtype == ivy_like.float32
    assert float(ivy_like.to_numpy(got)) == 6.0


@given(
    pair=st.integers(1, 4).flatmap(
        lambda k: st.tuples(
            f32(st.tuples(st.integers(1, 4), st.just(k))),
            f32(st.tuples(st.just(k), st.integers(1, 4))),
        )
    )
)
def test_matmul_matches_numpy(backend, pair):
    a, b = pair
    got = ivy_like.matmul(*on(backend, a, b))
    atol = float(np.abs(a).max() * np.abs(b).max() * a.shape[1]) * 1e-6 + 1e-6
    assert_close(got, a @ b, atol=atol)
    assert_close(ivy_like.matmul(*on(backend, a, b[:, 0])), a @ b[:, 0], atol=atol)


@given(x=f32(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4)), data=st.data())
def test_manipulation_matches_numpy(backend, x, data):
    (nx,) = on(backend, x)
    perm = data.draw(st.permutations(range(x.ndim)))
    assert_close(ivy_like.permute_dims(nx, tuple(perm)), np.transpose(x, perm))
    assert_close(ivy_like.reshape(nx, (-1,)), x.reshape(-1))
    assert_close(ivy_like.reshape(nx, (x.size, 1)), x.reshape(x.size, 1))
    assert_close(ivy_like.concat([nx, nx], axis=0), np.concatenate([x, x]))
    assert_close(ivy_like.concat([nx, nx], axis=None), np.concatenate([x, x], axis=None))
    axis = data.draw(st.integers(0, x.ndim))
    assert_close(ivy_like.stack([nx, nx], axis=axis), np.stack([x, x], axis=axis))
    assert_close(ivy_like.astype(nx, "int32"), x.astype(np.int32))
    assert_close(ivy_like.where(nx > 0, nx, 0.0), np.where(x > 0, x, np.float32(0)))


@pytest.mark.parametrize("container", [list, tuple])
def test_sequence_ops_take_lists_and_tuples_of_every_kind(backend, container):
    x = np.arange(3, dtype=np.float32)
    native = backend.asarray(x)
    wrapped = ivy_like.Array(native)
    want = np.concatenate([x, x])
    # native arrays of one backend: native result
    got = ivy_like.concat(container([native, native]))
    assert type(got) is type(native)
    assert_close(got, want)
    # ivy_like.Arrays: an Array of the same backend
    got = ivy_like.stack(container([wrapped, wrapped]))
    assert type(got) is ivy_like.Array and got.backend is backend
    assert_close(got, np.stack([x, x]))
    # a mix of both, and NumPy arrays beside them: the general path, still an Array
    got = ivy_like.concat(container([wrapped, native, x]))
    assert type(got) is ivy_like.Array and got.backend is backend
    assert_close(got, np.concatenate([x, x, x]))
    grids = ivy_like.meshgrid(wrapped, wrapped)
    assert all(type(g) is ivy_like.Array for g in grids)
    assert_close(grids, tuple(np.meshgrid(x, x)))
    out = ivy_like.broadcast_arrays(native, native[:1])
    assert all(type(o) is type(native) for o in out)


def test_sequence_of_two_frameworks_is_a_type_error(backend):
    # The other framework: numpy beside any backend, and any other installed one beside numpy.
    others = [n for n in ivy_like.available_backends() if n != backend.name]
    if not others:  # nox -s "tests(backend='numpy')": numpy is the only framework installed
        pytest.skip("only numpy is installed: there is no second framework to mix")
    other = ivy_like.get_backend("numpy" if backend.name != "numpy" else others[0])
    a = ivy_like.Array(other.asarray(np.ones(2, np.float32)))
    b = ivy_like.Array(backend.asarray(np.ones(2, np.float32)))
    with pytest.raises(TypeError, match="two different frameworks"):
        ivy_like.concat([a, b])
    with pytest.raises(TypeError, match="two different frameworks"):
        ivy_like.meshgrid(b, a)


def test_creation_follows_the_active_backend(backend):
    with ivy_like.use_backend(backend):
        got = ivy_like.zeros((2,), dtype=ivy_like.int32)
        assert type(got) is ivy_like.Array and got.backend is backend
        assert got.dtype == ivy_like.int32
        assert ivy_like.asarray([1.0]).backend is backend
    assert ivy_like.zeros(1).backend.name == ivy_like.current_backend().name


def test_creation_matches_numpy_with_default_dtypes(backend):
    assert_close(ivy_like.zeros((2, 3)), np.zeros((2, 3), np.float32))
    assert_close(ivy_like.ones(3, dtype="int32"), np.ones(3, np.int32))
    assert_close(ivy_like.full((2,), 7.5), np.full(2, 7.5, np.float32))
    assert_close(ivy_like.arange(0.0, 1.0, 0.25), np.arange(0, 1, 0.25, dtype=np.float32))
    assert_close(ivy_like.linspace(0, 1, 5), np.linspace(0, 1, 5, dtype=np.float32))
    assert_close(ivy_like.eye(2, 3, k=1), np.eye(2, 3, k=1, dtype=np.float32))
    x = ivy_like.array([[1, 2]], dtype="int32")
    assert_close(ivy_like.zeros_like(x), np.zeros((1, 2), np.int32))
    assert_close(ivy_like.ones_like(x, dtype="float32"), np.ones((1, 2), np.float32))
    assert ivy_like.arange(4).dtype == backend.unified_dtype(backend.module.DEFAULT_INT)
    assert ivy_like.asarray([1.0, 2.0]).dtype == ivy_like.float32
    if ivy_like.int16 in backend.module.DTYPES:
        assert ivy_like.asarray(np.array([1, 2], np.int16)).dtype == ivy_like.int16
    else:  # e.g. mxnet: a clear error, never a silent change of dtype
        with pytest.raises(TypeError, match="int16"):
            ivy_like.asarray(np.array([1, 2], np.int16))

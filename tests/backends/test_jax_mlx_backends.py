"""The jax and mlx backend modules against NumPy, the oracle.

Every op's docstring example is run under each backend; elementwise ops, reductions, operators
and indexing are compared value by value with NumPy; gradients, ``jax.jit``, ``out=`` and the
immutability rules are checked directly.
"""

from __future__ import annotations

import doctest
import io
import os
import subprocess
import sys

import numpy as np
import pytest

import ivy_like
from ivy_like.core.registry import OPS

BACKENDS = ["jax", "mlx"]


def _native(name: str):
    """A converter from NumPy to the framework's own array, by backend name."""
    if name == "jax":
        jnp = pytest.importorskip("jax.numpy")
        return jnp.asarray
    mx = pytest.importorskip("mlx.core")
    return mx.array


def _native_type(name: str) -> type:
    if name == "jax":
        import jax

        return jax.Array
    import mlx.core as mx

    return mx.array


@pytest.fixture(params=BACKENDS)
def bname(request: pytest.FixtureRequest) -> str:
    """A backend name; not the plugin's `backend` fixture, which runs on every backend."""
    pytest.importorskip(request.param)
    return request.param


def _np(x) -> np.ndarray:
    return ivy_like.to_numpy(x)


# -- every op's docstring example ----------------------------------------------------------------
_DOC_XFAIL = {
    ("jax", "asarray"): "the example asks for float64, which jax lacks without 64-bit mode "
    "(TypeError by design)",
}


_DOC_CASES = [
    pytest.param(
        name,
        op_name,
        id=f"{name}-{op_name}",
        marks=[pytest.mark.xfail(reason=_DOC_XFAIL[(name, op_name)], strict=True)]
        if (name, op_name) in _DOC_XFAIL
        else [],
    )
    for name in BACKENDS
    for op_name in sorted(OPS)
]


@pytest.mark.parametrize(("name", "op_name"), _DOC_CASES)
def test_op_docstring_example(name: str, op_name: str) -> None:
    pytest.importorskip(name)
    doc = OPS[op_name].declaration.__doc__
    test = doctest.DocTestParser().get_doctest(doc, {}, op_name, None, 0)
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    with ivy_like.use_backend(name):
        runner.run(test, out=out.write)
    assert runner.failures == 0, out.getvalue()


def test_jax_asarray_float64_example_fails_clearly() -> None:
    """The xfail above, pinned: the failure is the TypeError naming the dtype."""
    pytest.importorskip("jax")
    from ivy_like.backends import jax as B

    if B.X64:
        pytest.skip("64-bit mode is on in this process")
    with ivy_like.use_backend("jax"), pytest.raises(TypeError, match="float64"):
        ivy_like.asarray([1, 2], dtype=ivy_like.float64)


# -- native arrays in, native arrays out ---------------------------------------------------------
def test_native_in_native_out(bname: str) -> None:
    conv = _native(bname)
    a = conv(np.ones(3, dtype=np.float32))
    r = ivy_like.add(a, a)
    assert isinstance(r, _native_type(bname))
    np.testing.assert_array_equal(_np(r), np.full(3, 2.0, np.float32))


def test_array_repr_and_type(bname: str) -> None:
    with ivy_like.use_backend(bname):
        x = ivy_like.array([1.0, 2.0, 3.0])
    assert isinstance(x, ivy_like.Array)
    assert isinstance(x.data, _native_type(bname))
    assert repr(x) == "ivy_like.array([1., 2., 3.])"
    assert x.dtype == ivy_like.float32 and x.shape == (3,) and x.device == "cpu"


# -- values against NumPy ------------------------------------------------------------------------
BINARY = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "floor_divide",
    "remainder",
    "pow",
    "maximum",
    "minimum",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
]
UNARY = ["negative", "positive", "abs", "exp", "sin", "cos", "tanh", "square"]
_rng = np.random.default_rng(0)
_A = _rng.uniform(-3, 3, (2, 3)).astype(np.float32)
_B = _rng.uniform(0.5, 3, (2, 3)).astype(np.float32)


@pytest.mark.parametrize("op_name", BINARY)
def test_binary_matches_numpy(bname: str, op_name: str) -> None:
    conv = _native(bname)
    fn = getattr(ivy_like, op_name)
    npfn = {"pow": np.power}.get(op_name, getattr(np, op_name))
    a, b = (np.abs(_A), _B) if op_name == "pow" else (_A, _B)
    got = fn(conv(a), conv(b))
    np.testing.assert_allclose(_np(got), npfn(a, b), rtol=1e-5, atol=1e-6)
    # A Python scalar second operand is weak: a float32 array stays float32.
    got = fn(conv(a), 2.0)
    want = npfn(a, np.float32(2.0))
    assert _np(got).dtype == want.dtype
    np.testing.assert_allclose(_np(got), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("op_name", ["floor_divide", "remainder"])
def test_integer_division_sign_rules(bname: str, op_name: str) -> None:
    conv = _native(bname)
    a = np.array([7, -7, 7, -7], dtype=np.int32)
    b = np.array([2, 2, -2, -2], dtype=np.int32)
    fn, npfn = getattr(ivy_like, op_name), getattr(np, op_name)
    np.testing.assert_array_equal(_np(fn(conv(a), conv(b))), npfn(a, b))
    fa, fb = a.astype(np.float32), b.astype(np.float32)
    np.testing.assert_array_equal(_np(fn(conv(fa), conv(fb))), npfn(fa, fb))


@pytest.mark.parametrize("op_name", UNARY + ["log", "sqrt"])
def test_unary_matches_numpy(bname: str, op_name: str) -> None:
    conv = _native(bname)
    x = np.abs(_A) + 0.1 if op_name in ("log", "sqrt") else _A
    got = getattr(ivy_like, op_name)(conv(x))
    np.testing.assert_allclose(_np(got), getattr(np, op_name)(x), rtol=1e-5, atol=1e-6)


def test_logical_and_where(bname: str) -> None:
    conv = _native(bname)
    p, q = np.array([True, True, False]), np.array([True, False, False])
    np.testing.assert_array_equal(_np(ivy_like.logical_and(conv(p), conv(q))), p & q)
    np.testing.assert_array_equal(_np(ivy_like.logical_or(conv(p), conv(q))), p | q)
    np.testing.assert_array_equal(_np(ivy_like.logical_not(conv(p))), ~p)
    x = np.array([1.0, 2.0, 3.0], np.float32)
    np.testing.assert_array_equal(_np(ivy_like.where(conv(p), conv(x), 0.0)), np.where(p, x, 0))


@pytest.mark.parametrize("op_name", ["max", "min", "maximum", "minimum"])
def test_nan_propagates(bname: str, op_name: str) -> None:
    conv = _native(bname)
    x = np.array([1.0, np.nan, 3.0], np.float32)
    y = np.array([np.nan, 0.0, 5.0], np.float32)
    if op_name in ("max", "min"):
        got, want = getattr(ivy_like, op_name)(conv(x)), getattr(np, op_name)(x)
    else:
        got, want = getattr(ivy_like, op_name)(conv(x), conv(y)), getattr(np, op_name)(x, y)
    np.testing.assert_array_equal(_np(got), want)  # NaN positions compared too


@pytest.mark.parametrize("op_name", ["sum", "mean", "max", "min"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions_match_numpy(bname: str, op_name: str, axis, keepdims: bool) -> None:
    conv = _native(bname)
    got = getattr(ivy_like, op_name)(conv(_A), axis=axis, keepdims=keepdims)
    want = getattr(np, op_name)(_A, axis=axis, keepdims=keepdims)
    assert _np(got).shape == want.shape
    np.testing.assert_allclose(_np(got), want, rtol=1e-5, atol=1e-6)


def test_sum_dtype_and_mean_of_ints(bname: str) -> None:
    conv = _native(bname)
    x = conv(np.array([1, 2, 3], dtype=np.int32))
    s = ivy_like.sum(x, dtype=ivy_like.float32)
    assert ivy_like.Array(s).dtype == ivy_like.float32 and float(_np(s)) == 6.0
    with pytest.raises(TypeError, match="int32"):
        ivy_like.mean(x)


@pytest.mark.parametrize("dtype", ["float32", "int32"])
@pytest.mark.parametrize(
    ("s1", "s2"),
    [((2, 3), (3, 4)), ((3,), (3, 4)), ((2, 3), (3,)), ((3,), (3,)), ((5, 2, 3), (3,))],
)
def test_matmul_matches_numpy(bname: str, dtype: str, s1, s2) -> None:
    conv = _native(bname)
    a = _rng.integers(-4, 5, s1).astype(dtype)
    b = _rng.integers(-4, 5, s2).astype(dtype)
    got = _np(ivy_like.matmul(conv(a), conv(b)))
    want = np.matmul(a, b)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_manipulation(bname: str) -> None:
    conv = _native(bname)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(
        _np(ivy_like.concat([conv(x), conv(y)], axis=None)), np.concatenate([x, y], axis=None)
    )
    np.testing.assert_array_equal(
        _np(ivy_like.concat([conv(x), conv(x)], axis=1)), np.concatenate([x, x], axis=1)
    )
    np.testing.assert_array_equal(
        _np(ivy_like.stack([conv(y), conv(y)], axis=1)), np.stack([y, y], axis=1)
    )
    np.testing.assert_array_equal(
        _np(ivy_like.reshape(conv(x), (3, -1), copy=True)), x.reshape(3, -1)
    )
    np.testing.assert_array_equal(_np(ivy_like.permute_dims(conv(x), (1, 0))), x.T)
    cast = ivy_like.astype(conv(np.array([1.7, -1.7], np.float32)), "int32", copy=False)
    np.testing.assert_array_equal(_np(cast), np.array([1, -1], np.int32))


def test_creation_defaults(bname: str) -> None:
    with ivy_like.use_backend(bname):
        assert ivy_like.zeros((2,)).dtype == ivy_like.float32
        assert ivy_like.full((2,), 7.5).dtype == ivy_like.float32
        assert ivy_like.arange(3).dtype == ivy_like.int32  # int64 on jax only with x64
        assert ivy_like.asarray([1 + 2j]).dtype == ivy_like.complex64
        np.testing.assert_allclose(
            _np(ivy_like.linspace(0, 1, 4, endpoint=False)), np.linspace(0, 1, 4, endpoint=False)
        )
        np.testing.assert_array_equal(_np(ivy_like.eye(2, 3, k=1)), np.eye(2, 3, k=1))
        ints = ivy_like.array([1, 2])
        assert ivy_like.zeros_like(ints).dtype == ivy_like.int32
        assert ivy_like.ones_like(ints, dtype="float16").dtype == ivy_like.float16


# -- operators and indexing ----------------------------------------------------------------------
def test_operators_match_numpy(bname: str) -> None:
    with ivy_like.use_backend(bname):
        a, b = ivy_like.array(_A), ivy_like.array(_B)
    got = [-a, abs(a), a + b, a - 1.0, 2.0 - a, a * b, a / b, a // b, a % b, b**2.0, a < b, a @ b.T]
    want = [
        -_A,
        abs(_A),
        _A + _B,
        _A - 1,
        2 - _A,
        _A * _B,
        _A / _B,
        _A // _B,
        _A % _B,
        _B**2,
        _A < _B,
        _A @ _B.T,
    ]
    for g, w in zip(got, want):
        assert isinstance(g, ivy_like.Array) and g.backend == bname
        np.testing.assert_allclose(_np(g), w, rtol=1e-5, atol=1e-6)
    c = a
    c += 1.0
    assert c is a
    np.testing.assert_allclose(_np(a), _A + 1, rtol=1e-6)


_X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
KEYS = [
    1,
    -1,
    (1, 2),
    slice(None, None, -1),
    (Ellipsis, 1),
    (None, 0, slice(1, 3)),
    (slice(None), None, 2),
    [1, 0],
    (0, [2, 0, 1]),
    (np.array([0, 1]), slice(None), np.array([1, 3])),
    (slice(None), np.array([0, 2])),
    _X > 10,
    (0, _X[0] > 5),
    (slice(None), np.array([True, False, True])),
    (Ellipsis, np.array([True, False, False, True])),
]


@pytest.mark.parametrize("key", KEYS, ids=[str(i) for i in range(len(KEYS))])
def test_getitem_matches_numpy(bname: str, key) -> None:
    conv = _native(bname)
    # Index arrays as the framework's own arrays too, wrapped or not.
    native_key = (
        tuple(conv(k) if isinstance(k, np.ndarray) else k for k in key)
        if isinstance(key, tuple)
        else (conv(key) if isinstance(key, np.ndarray) else key)
    )
    with ivy_like.use_backend(bname):
        x = ivy_like.array(_X)
    want = _X[key]
    for k in (key, native_key):
        got = _np(x[k])
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("key", [3, (0, -4), (0, 0, 4), np.array([0, 2]), (0, np.array([3]))])
def test_getitem_out_of_bounds_raises(bname: str, key) -> None:
    with ivy_like.use_backend(bname):
        x = ivy_like.array(_X)
    with pytest.raises(IndexError):
        _X[key]  # the oracle agrees
    with pytest.raises(IndexError, match="out of bounds"):
        x[key]


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "uint32", "uint64", "int8", "int16"])
def test_narrow_and_unsigned_index_arrays(bname: str, dtype: str) -> None:
    # Comparing such indices with -size or size in the index dtype used to overflow (mlx), and
    # JAX wraps negative indices in the index dtype (int8 indices into an axis of 300).
    info = np.iinfo(dtype)
    values = np.array([0, 4, min(int(info.max), 255)], dtype)
    if info.min < 0:
        values = np.append(values, np.array(-128, dtype))
    base = np.arange(300, dtype=np.float32)
    conv = _native(bname)
    with ivy_like.use_backend(bname):
        x = ivy_like.asarray(base)
        idx = ivy_like.Array(conv(values))
        np.testing.assert_array_equal(_np(x[idx]), base[values])
        np.testing.assert_array_equal(_np(ivy_like.take(x, idx)), np.take(base, values))
        small = ivy_like.asarray(base[:5])
        with pytest.raises(IndexError, match="out of bounds"):
            small[ivy_like.Array(conv(np.array([0, 100], dtype)))]


def test_full_converts_a_value_of_a_higher_kind(bname: str) -> None:
    # mx.full(shape, 2.5, dtype=int32) kept float32: the dtype must win, as in NumPy.
    with ivy_like.use_backend(bname):
        # (complex into a real dtype is left out: the standard leaves it unspecified and JAX
        # raises where NumPy drops the imaginary part.)
        for value, dtype in [(2.5, "int32"), (-2.5, "int16"), (True, "float32"), (3, "bool")]:
            got = ivy_like.full((2,), value, dtype=dtype)
            assert got.dtype == ivy_like.as_dtype(dtype), (value, dtype)
            np.testing.assert_array_equal(_np(got), np.full((2,), value, dtype=dtype))


def test_setitem_rebinds_and_leaves_native_alone(bname: str) -> None:
    conv = _native(bname)
    native = conv(np.zeros(4, np.float32))
    x = ivy_like.Array(native)
    x[1] = 5.0
    x[np.array([False, False, True, False])] = 7.0
    x[ivy_like.Array(conv(np.array([3])))] = ivy_like.Array(conv(np.array([9.0], np.float32)))
    np.testing.assert_array_equal(_np(x), [0, 5, 7, 9])
    np.testing.assert_array_equal(_np(native), np.zeros(4))  # the native input is unchanged


# -- gradients, jit, out= -------------------------------------------------------------------------
def test_stop_gradient_out_rebinds_array(bname: str) -> None:
    """Ivy's example: ``stop_gradient(x, preserve_type=False, out=x)`` on zeros((2, 3))."""
    with ivy_like.use_backend(bname):
        x = ivy_like.zeros((2, 3))
    y = ivy_like.stop_gradient(x, preserve_type=False, out=x)
    assert y is x  # the same Array, rebound (jax may hand back the very same buffer)
    assert isinstance(x.data, _native_type(bname))
    np.testing.assert_array_equal(_np(x), np.zeros((2, 3)))
    assert ivy_like.variable(x).data is x.data and not ivy_like.is_variable(x)


def test_native_out_raises_and_changes_nothing(bname: str) -> None:
    conv = _native(bname)
    a = conv(np.array([1.0, 2.0], np.float32))
    out = conv(np.array([5.0, 6.0], np.float32))
    with pytest.raises(TypeError, match="immutable"):
        ivy_like.add(a, a, out=out)
    with pytest.raises(TypeError, match="immutable"):
        ivy_like.stop_gradient(a, out=out)
    np.testing.assert_array_equal(_np(out), [5.0, 6.0])
    np.testing.assert_array_equal(_np(a), [1.0, 2.0])


def _grad(bname: str):
    if bname == "jax":
        import jax

        return jax.grad
    import mlx.core as mx

    return mx.grad


def test_grad_through_stop_gradient(bname: str) -> None:
    """The MXNet seed: d/da, d/db of sum(stop_gradient(3 b) + a) are ones and zeros."""
    conv = _native(bname)
    a = conv(np.array([1.0, 2.0], np.float32))
    b = conv(np.array([0.0, 1.0], np.float32))

    def loss(a, b):
        return (ivy_like.stop_gradient(3 * b) + a).sum()

    ga, gb = _grad(bname)(loss, argnums=(0, 1))(a, b)
    np.testing.assert_array_equal(_np(ga), [1.0, 1.0])
    np.testing.assert_array_equal(_np(gb), [0.0, 0.0])
    value = _np(loss(a, b))
    assert float(value) == 1 + 2 + 0 + 3


def test_compiled_function_dispatches(bname: str) -> None:
    """Tracers (jax.jit) and compiled MLX graphs reach the backend like plain arrays."""
    conv = _native(bname)

    def f(x):
        y = ivy_like.multiply(ivy_like.add(x, 1.0), x)
        return ivy_like.sum(ivy_like.where(ivy_like.greater(y, 1.0), y, 0.0))

    if bname == "jax":
        import jax

        compiled = jax.jit(f)
    else:
        import mlx.core as mx

        compiled = mx.compile(f)
    x = conv(np.array([0.0, 1.0, 2.0], np.float32))
    assert float(_np(compiled(x))) == 2.0 + 6.0
    assert float(_np(compiled(x))) == float(_np(f(x)))


def test_take_of_traced_indices(bname: str) -> None:
    """Indices whose values are unknown (jax.jit, mx.compile, mx.vmap) skip the bounds check
    and take what the framework takes, in range the same values as eagerly."""
    conv = _native(bname)
    x = conv(np.arange(5.0, dtype=np.float32))
    idx = conv(np.array([4, -1, 0], np.int32))

    def f(i):
        return ivy_like.take(x, i)

    if bname == "jax":
        import jax

        transformed = [jax.jit(f)]
        batched = jax.vmap(f)
    else:
        import mlx.core as mx

        transformed = [mx.compile(f)]
        batched = mx.vmap(f)
    for g in transformed:
        np.testing.assert_array_equal(_np(g(idx)), [4.0, 4.0, 0.0])
    rows = conv(np.array([[1, 2], [-2, 0]], np.int32))
    np.testing.assert_array_equal(_np(batched(rows)), [[1.0, 2.0], [3.0, 0.0]])


def test_dlpack_round_trip(bname: str) -> None:
    conv = _native(bname)
    x = conv(np.arange(3, dtype=np.float32))
    np.testing.assert_array_equal(np.from_dlpack(ivy_like.Array(x)), [0.0, 1.0, 2.0])
    b = ivy_like.get_backend(bname)
    y = b.from_dlpack(np.arange(3, dtype=np.int32))
    assert isinstance(y, _native_type(bname)) and b.dtype(y) == b.native_dtype("int32")
    assert b.dlpack_device(x) == (1, 0)


# -- dtypes -------------------------------------------------------------------------------------
def test_mlx_keeps_numpy_float64() -> None:
    pytest.importorskip("mlx")
    from ivy_like.backends import mlx as B
    from ivy_like.backends.mlx import creation

    if ivy_like.float64 not in B.DTYPES:
        pytest.skip("float64 does not run on this MLX device")
    with ivy_like.use_backend("mlx"):
        x = ivy_like.asarray(np.array([0.1]))
        assert x.dtype == ivy_like.float64
        assert _np(x)[0] == 0.1  # not rounded through float32
        assert creation.from_dlpack(np.array([0.1])).dtype == B.DTYPES[ivy_like.float64]
        with pytest.raises(TypeError, match="complex128"):
            ivy_like.asarray(np.array([1j]))


def test_jax_without_x64_refuses_64_bit_numpy() -> None:
    pytest.importorskip("jax")
    from ivy_like.backends import jax as B
    from ivy_like.backends.jax import creation

    if B.X64:
        pytest.skip("64-bit mode is on in this process")
    with ivy_like.use_backend("jax"):
        with pytest.raises(TypeError, match="jax_enable_x64"):
            ivy_like.asarray(np.ones(2))
        assert ivy_like.asarray(np.ones(2), dtype="float32").dtype == ivy_like.float32
    with pytest.raises(TypeError, match="float64"):
        creation.from_dlpack(np.ones(2))


_X64_SCRIPT = """
import jax
jax.config.update("jax_enable_x64", True)
import numpy as np
import ivy_like
from ivy_like.backends import jax as B
assert B.X64 and ivy_like.float64 in B.DTYPES and str(B.DEFAULT_INT) == "int64"
with ivy_like.use_backend("jax"):
    assert ivy_like.asarray([1.0, 2.0]).dtype == ivy_like.float32
    assert ivy_like.asarray([1, 2]).dtype == ivy_like.int64
    assert ivy_like.asarray(np.array([0.1])).dtype == ivy_like.float64
    assert ivy_like.asarray([1, 2], dtype=ivy_like.float64).dtype == ivy_like.float64
print("ok")
"""


def test_jax_x64_mode_in_a_fresh_process() -> None:
    pytest.importorskip("jax")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root)
    done = subprocess.run(
        [sys.executable, "-c", _X64_SCRIPT], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_jax_index_bounds_are_kept_only_on_immutable_arrays() -> None:
    # A JAX array's bounds are read once and kept on the array; a NumPy index array can be
    # changed in place between calls, so it is read again each time.
    jnp = pytest.importorskip("jax.numpy")
    from ivy_like.backends import jax as B

    with ivy_like.use_backend("jax"):
        x = ivy_like.asarray([0.0, 1.0, 2.0])
        k = jnp.array([0, 2])
        np.testing.assert_array_equal(np.asarray(x[k]), [0.0, 2.0])
        assert getattr(k, B._BOUNDS_ATTR) == (0, 2)
        assert getattr(k + 1, B._BOUNDS_ATTR, None) is None  # a new array: not read yet
        idx = np.array([0, 1], np.int32)
        np.testing.assert_array_equal(np.asarray(x[idx]), [0.0, 1.0])
        idx[0] = 10
        with pytest.raises(IndexError, match="index 10 is out of bounds"):
            x[idx]
        with pytest.raises(IndexError, match="index 10 is out of bounds"):
            ivy_like.take(x, idx)


def test_jax_take_checks_every_new_index_array() -> None:
    # The bounds of each index array are remembered; a new array at a reused id must not
    # find its predecessor's.
    jnp = pytest.importorskip("jax.numpy")
    x = jnp.arange(3.0)
    for _ in range(30):
        ok = jnp.array([0, 2])
        np.testing.assert_array_equal(np.asarray(ivy_like.take(x, ok)), [0.0, 2.0])
        del ok
        bad = jnp.array([0, 3])
        with pytest.raises(IndexError, match="index 3 is out of bounds"):
            ivy_like.take(x, bad)
        with pytest.raises(IndexError, match="index 3 is out of bounds"):
            ivy_like.take(x, bad)  # the second time from the cache
        del bad
    # Known bounds are checked against each array they index, negatives included.
    idx = jnp.array([-3, 1])
    np.testing.assert_array_equal(np.asarray(ivy_like.take(x, idx)), [0.0, 1.0])
    with pytest.raises(IndexError, match="index -3 is out of bounds for axis 0 with size 2"):
        ivy_like.take(x[:2], idx)
    np.testing.assert_array_equal(np.asarray(ivy_like.take(jnp.arange(5.0), idx)), [2.0, 1.0])


def test_jax_jitted_take_and_solve_match_the_eager_calls() -> None:
    """The jax fast paths call jitted jnp.take / checked solve: the same values as the eager
    calls, bit for bit, and the same errors (checks run at trace time, raised every call)."""
    pytest.importorskip("jax")
    import jax.numpy as jnp

    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.standard_normal(7).astype(np.float32))
    idx = jnp.asarray(np.array([6, -7, 3], np.int32))
    a = jnp.asarray((rng.standard_normal((4, 4)) + 4 * np.eye(4)).astype(np.float32))
    b = jnp.asarray(rng.standard_normal((4, 2)).astype(np.float32))
    with ivy_like.use_backend("jax"):
        np.testing.assert_array_equal(_np(ivy_like.take(x, idx)), np.asarray(jnp.take(x, idx)))
        got = _np(ivy_like.linalg.solve(a, b))
        np.testing.assert_array_equal(got, np.asarray(jnp.linalg.solve(a, b)))
        for _ in range(2):  # an error is raised on every call, not only the first trace
            with pytest.raises(TypeError, match="floating-point"):
                ivy_like.linalg.solve(jnp.ones((2, 2), jnp.int32), jnp.ones((2, 2)))
            with pytest.raises(ValueError, match="square"):
                ivy_like.linalg.solve(jnp.ones((2, 3)), jnp.ones((2, 2)))
        half = ivy_like.linalg.solve(a.astype(jnp.float16), b.astype(jnp.float16))
        assert half.dtype == ivy_like.float16


def test_jax_narrow_indices_into_a_symbolic_axis_export_and_wrap():
    """Under ``jax.export`` an axis size is symbolic: ``take`` and integer-array indexing
    cannot compare it with the index dtype's maximum, so narrow indices are widened (exact);
    negative int8 indices still count back from the size of each call."""
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")

    def f(x, i):
        x, i = ivy_like.asarray(x), ivy_like.asarray(i)
        return ivy_like.to_native(ivy_like.take(x, i, axis=0)), ivy_like.to_native(x[i])

    (b,) = jax.export.symbolic_shape("b")
    ivy_like.set_backend("jax")
    try:
        exported = jax.export.export(jax.jit(f))(
            jax.ShapeDtypeStruct((b, 3), jnp.float32), jax.ShapeDtypeStruct((4,), jnp.int8)
        )
    finally:
        ivy_like.unset_backend()
    i = np.array([0, -1, 2, -5], np.int8)
    for n in (5, 9):
        x = np.arange(n * 3, dtype=np.float32).reshape(n, 3)
        for got in exported.call(x, i):
            np.testing.assert_array_equal(np.asarray(got), x[i.astype(np.int64)])

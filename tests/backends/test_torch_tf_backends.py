"""The torch and tensorflow backend modules: their contract, and where they differ from the
frameworks to match the NumPy reference (weak scalars, NaN, signs, defaults, indexing, out=,
stop_gradient and variables)."""

from __future__ import annotations

import doctest
import inspect
import os

import numpy as np
import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import ivy_like  # noqa: E402
from ivy_like.core.registry import OPS  # noqa: E402

torch = pytest.importorskip("torch")
tf = pytest.importorskip("tensorflow")

NAMES = ["torch", "tensorflow"]


@pytest.fixture(params=NAMES)
def name(request):
    with ivy_like.use_backend(request.param):
        yield request.param


def mod(name):
    return ivy_like.get_backend(name).module


def native(name, value, dtype=None):
    """A native array of the backend, built by the framework itself."""
    if name == "torch":
        return torch.tensor(np.asarray(value, dtype=dtype))
    return tf.constant(np.asarray(value, dtype=dtype))


def npy(x):
    return ivy_like.to_numpy(x)


def same(got, expected):
    """Equal values (NaN where NumPy has NaN) and the same shape."""
    got, expected = npy(got), np.asarray(expected)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6, equal_nan=True)


# -- the module contract ------------------------------------------------------------------------
def _public(module):
    return {
        k
        for k, v in vars(module).items()
        if not k.startswith("_")
        and k not in {"annotations", "np", "Any", "D", "builtins"}
        and not inspect.ismodule(v)
    }


def _names(backend_name):
    """A backend's facts and hooks (the public names of its ``__init__``) and its native
    kernels (each read from the file of its op family), name -> value."""
    backend = ivy_like.get_backend(backend_name)
    names = {k: getattr(backend.module, k) for k in _public(backend.module)}
    names.update(backend.kernels)
    return names


@pytest.mark.parametrize("backend_name", NAMES)
def test_module_defines_every_name_of_the_numpy_backend(backend_name):
    module = mod(backend_name)
    missing = set(_names("numpy")) - set(_names(backend_name))
    assert not missing, f"{backend_name} backend lacks {sorted(missing)}"
    assert module.HAS_AUTODIFF is True
    assert module.MUTABLE_ARRAYS is (backend_name == "torch")
    assert module.NAME == backend_name


@pytest.mark.parametrize("backend_name", NAMES)
def test_python_wrappers_keep_the_numpy_backend_signatures(backend_name):
    module = mod(backend_name)
    names = _names(backend_name)
    for key, ref in _names("numpy").items():
        ours = names[key]
        if not inspect.isfunction(ref) or not inspect.isfunction(ours):
            continue  # facts, and aliases of C functions without a Python signature
        if not f"{ours.__module__}.".startswith(f"{module.__name__}."):
            continue  # not the backend's own (its __init__ or a family file)
        assert inspect.signature(ours).parameters.keys() == (
            inspect.signature(ref).parameters.keys()
        ), key


def test_array_types_cover_tensors_and_variables():
    types = mod("tensorflow").ARRAY_TYPES
    assert issubclass(type(tf.constant(1.0)), types)
    assert issubclass(type(tf.Variable(1.0)), types)
    assert mod("torch").ARRAY_TYPES == (torch.Tensor,)


def test_dtype_tables():
    t, f = mod("torch").DTYPES, mod("tensorflow").DTYPES
    assert t[ivy_like.bfloat16] is torch.bfloat16 and f[ivy_like.bfloat16] == tf.bfloat16
    assert len(f) == len(ivy_like.all_dtypes)
    # uint16/32/64 lack add and comparisons on torch's CPU: left out, so a clear TypeError.
    assert ivy_like.uint32 not in t
    with ivy_like.use_backend("torch"), pytest.raises(TypeError, match="uint32"):
        ivy_like.zeros(2, dtype="uint32")
    assert mod("torch").DEFAULT_INT is torch.int64 and mod("tensorflow").DEFAULT_INT == tf.int64


def test_no_framework_global_setting_is_changed(name):
    ivy_like.add(ivy_like.array([1.0]), 1.0)
    assert torch.get_default_dtype() is torch.float32
    # TF's NumPy behaviour mode would give tensors NumPy methods such as reshape.
    assert not hasattr(tf.constant([1.0]), "reshape")


# -- through the package core --------------------------------------------------------------------
def test_native_in_native_out_and_array_wrapping(name):
    x = native(name, [1.0, 2.0, 3.0], np.float32)
    out = ivy_like.add(x, x)
    assert isinstance(out, mod(name).ARRAY_TYPES)
    same(out, [2.0, 4.0, 6.0])
    a = ivy_like.Array(x)
    assert a.backend == name and a.data is x


def test_array_on_the_active_backend(name):
    x = ivy_like.array([1.0, 2.0, 3.0])
    assert x.backend == name and isinstance(x.data, mod(name).ARRAY_TYPES)
    assert repr(x) == "ivy_like.array([1., 2., 3.])"
    assert x.dtype == ivy_like.float32 and x.shape == (3,) and x.device == "cpu"
    same(x * 2 + 1, [3.0, 5.0, 7.0])
    same((x - 1) / 2, [0.0, 0.5, 1.0])
    same(2.0 - x, [1.0, 0.0, -1.0])
    same(2.0**x, [2.0, 4.0, 8.0])
    same(x @ x, 14.0)
    same(x[1:], [2.0, 3.0])
    same(x[::-1], [3.0, 2.0, 1.0])
    same(x[x > 1.5], [2.0, 3.0])
    same(ivy_like.sum(x), 6.0)
    same(x.max(), 3.0)


def _examples(spec):
    return doctest.DocTestFinder().find(spec.declaration, spec.name, globs={})


@pytest.mark.parametrize("op", sorted(OPS))
def test_every_docstring_example_gives_the_numpy_output(name, op):
    failures = []
    for test in _examples(OPS[op]):
        runner = doctest.DocTestRunner(verbose=False, optionflags=doctest.NORMALIZE_WHITESPACE)
        result = runner.run(test, out=failures.append)
        assert result.attempted > 0
    assert not failures, "".join(failures)


# -- elementwise semantics -----------------------------------------------------------------------
BINARY = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "divide": np.divide,
    "floor_divide": np.floor_divide,
    "remainder": np.remainder,
    "pow": np.power,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "equal": np.equal,
    "not_equal": np.not_equal,
    "less": np.less,
    "less_equal": np.less_equal,
    "greater": np.greater,
    "greater_equal": np.greater_equal,
}


@pytest.mark.parametrize("op", sorted(BINARY))
@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
def test_python_scalars_are_weak_on_both_sides(name, op, dtype):
    a = np.array([0.5, 2.0, 3.0], dtype=dtype)
    x = native(name, a)
    fn = getattr(ivy_like, op)
    for args, nargs in [((x, 2.0), (a, 2.0)), ((2.0, x), (2.0, a)), ((x, 2), (a, 2))]:
        got = fn(*args)
        expected = BINARY[op](*nargs)
        assert npy(got).dtype == expected.dtype, (args, npy(got).dtype, expected.dtype)
        np.testing.assert_allclose(npy(got), expected, rtol=1e-3)
    # Array operands and methods too.
    same(fn(ivy_like.Array(x), 2.0), BINARY[op](a, 2.0))


@pytest.mark.parametrize("op", ["maximum", "minimum", "logical_and", "where"])
def test_scalar_only_torch_functions_accept_scalars(name, op):
    x = native(name, [True, False])
    if op == "where":
        same(ivy_like.where(x, 1.0, native(name, [5.0, 6.0], np.float32)), [1.0, 6.0])
        same(ivy_like.where(x, native(name, [5.0, 6.0], np.float64), 0.0), [5.0, 0.0])
    elif op == "logical_and":
        same(ivy_like.logical_and(x, native(name, [True, True])), [True, False])
    else:
        f = native(name, [1.0, 5.0], np.float32)
        out = getattr(ivy_like, op)(3.0, f)
        same(out, getattr(np, op)(3.0, np.array([1.0, 5.0], np.float32)))
        assert npy(out).dtype == np.float32


@pytest.mark.parametrize("op", ["maximum", "minimum", "add", "multiply", "where"])
def test_the_sign_of_a_zero_scalar_is_kept(name, op):
    # TensorFlow caches the tensors it makes from Python scalars by value, and 0.0 == -0.0:
    # after a call with -0.0, one with 0.0 used to get -0.0 (clip's docstring printed -0.).
    x = native(name, [-2.0, 0.5], np.float32)
    cond = native(name, [True, False])

    def call(zero):
        if op == "where":
            return ivy_like.where(cond, zero, x)
        return getattr(ivy_like, op)(x, zero)

    for zero in (-0.0, 0.0, -0.0, 0.0):
        want = np.where([True, False], zero, [-2.0, 0.5]) if op == "where" else None
        if want is None:
            want = getattr(np, op)(np.array([-2.0, 0.5], np.float32), zero)
        got = npy(call(zero))
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want), err_msg=f"{op} {zero}")


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "uint16", "int32"])
def test_narrow_and_unsigned_index_arrays_are_indices(name, dtype):
    # torch reads uint8 index tensors as boolean masks and refuses int8/int16/uint16.
    values = np.array([0, 4, 255 if dtype != "int8" else 127, -128], dtype=np.int64)
    values = values[values >= 0] if dtype.startswith("u") else values
    values = values.astype(dtype)
    base = np.arange(300, dtype=np.float32)
    x = ivy_like.Array(native(name, base))
    idx = ivy_like.Array(native(name, values))
    same(x[idx], base[values])
    same(ivy_like.take(x, idx), np.take(base, values))
    with pytest.raises(IndexError):
        ivy_like.take(ivy_like.Array(native(name, base[:5])), ivy_like.Array(native(name, values)))


def test_integer_array_with_float_scalar_gives_a_float(name):
    out = ivy_like.add(native(name, [1, 2], np.int64), 0.5)
    same(out, [1.5, 2.5])
    # NumPy gives float64; torch its default float32; tensorflow follows NumPy.
    assert npy(out).dtype == (np.float32 if name == "torch" else np.float64)


def test_mixed_dtypes_promote_like_numpy(name):
    a = native(name, [1.0, 2.0], np.float32)
    b = native(name, [1.0, 2.0], np.float64)
    i = native(name, [1, 2], np.int32)
    for fn in (ivy_like.add, ivy_like.maximum, ivy_like.equal, ivy_like.multiply):
        assert npy(fn(a, b)).dtype == npy(fn(b, a)).dtype
    assert npy(ivy_like.add(a, b)).dtype == np.float64
    assert npy(ivy_like.add(i, native(name, [1, 2], np.int64))).dtype == np.int64
    m = native(name, [[1.0, 2.0]], np.float32)
    same(ivy_like.matmul(m, native(name, [[1.0], [1.0]], np.float64)), [[3.0]])
    same(ivy_like.concat([a, b]), [1.0, 2.0, 1.0, 2.0])
    same(ivy_like.stack([a, b]), [[1.0, 2.0], [1.0, 2.0]])


@pytest.mark.parametrize("op", ["maximum", "minimum"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_nan_propagates_elementwise(name, op, dtype):
    nan = float("nan")
    a = np.array([nan, 1.0, nan, 4.0] * 5, dtype)
    b = np.array([1.0, nan, nan, 2.0] * 5, dtype)
    fn = getattr(ivy_like, op)
    same(fn(native(name, a), native(name, b)), getattr(np, op)(a, b))
    same(fn(native(name, b), native(name, a)), getattr(np, op)(b, a))
    same(fn(native(name, a), 0.5), getattr(np, op)(a, np.array(0.5, dtype)))


@pytest.mark.parametrize("op", ["max", "min"])
def test_nan_propagates_in_reductions(name, op):
    rng = np.random.default_rng(0)
    for n in (2, 7, 33, 1000):
        for pos in (0, n // 2, n - 1):
            a = rng.standard_normal((3, n)).astype(np.float32)
            a[1, pos] = np.nan
            fn = getattr(ivy_like, op)
            x = native(name, a)
            same(fn(x), getattr(np, op)(a))
            same(fn(x, axis=1), getattr(np, op)(a, axis=1))
            same(fn(x, axis=0, keepdims=True), getattr(np, op)(a, axis=0, keepdims=True))


def test_floor_divide_and_remainder_follow_python_signs(name):
    ints = native(name, [7, -7, 7, -7], np.int64)
    d = native(name, [2, 2, -2, -2], np.int64)
    same(ivy_like.floor_divide(ints, d), [3, -4, -4, 3])
    same(ivy_like.remainder(ints, d), [1, 1, -1, -1])
    floats = native(name, [7.5, -7.5], np.float32)
    same(ivy_like.floor_divide(floats, 2.0), [3.0, -4.0])
    same(ivy_like.remainder(floats, 2.0), [1.5, 0.5])
    same(ivy_like.remainder(-7, native(name, [3], np.int64)), [2])


def test_integer_true_division_gives_floats(name):
    out = ivy_like.divide(native(name, [1, 3], np.int64), native(name, [2, 2], np.int64))
    assert ivy_like.as_dtype(npy(out).dtype).is_floating
    same(out, [0.5, 1.5])


def test_unsigned_abs_and_negative(name):
    dtype = "uint8"
    x = ivy_like.asarray([1, 200], dtype=dtype)
    same(ivy_like.abs(x), [1, 200])
    same(ivy_like.negative(x), np.negative(np.array([1, 200], np.uint8)))


# -- reductions -----------------------------------------------------------------------------------
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (), (2, 0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("op", ["sum", "mean", "max", "min"])
def test_reductions_match_numpy(name, op, axis, keepdims):
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 7.5
    got = getattr(ivy_like, op)(native(name, a), axis=axis, keepdims=keepdims)
    expected = getattr(np, op)(a, axis=axis, keepdims=keepdims)
    same(got, expected)
    assert npy(got).dtype == np.float32


def test_sum_dtypes(name):
    ints = native(name, [1, 2, 3], np.int32)
    assert npy(ivy_like.sum(ints)).dtype == np.int64  # like NumPy
    assert npy(ivy_like.sum(native(name, [True, True]))).dtype == np.int64
    out = ivy_like.sum(ints, dtype=ivy_like.float64)
    assert npy(out).dtype == np.float64 and float(npy(out)) == 6.0
    same(ivy_like.sum(native(name, np.ones((2, 3), np.float32)), axis=(0, 1)), 6.0)


def test_mean_of_integers_is_a_type_error_naming_the_dtype(name):
    with pytest.raises(TypeError, match="mean.*int64"):
        ivy_like.mean(native(name, [1, 2], np.int64))


def test_max_and_min_of_booleans(name):
    x = native(name, [[True, False], [True, True]])
    same(ivy_like.max(x, axis=1), [True, True])
    same(ivy_like.min(x, axis=1), [False, True])


def test_max_over_an_empty_axis_is_an_error_like_numpy(name):
    x = native(name, np.zeros((0, 3), np.float32))
    same(ivy_like.max(x, axis=1), np.zeros((0,), np.float32))  # nothing to reduce: fine
    # NumPy raises ValueError; torch raises IndexError or RuntimeError; tf would give -inf.
    with pytest.raises(ValueError, match="zero-size"):
        ivy_like.max(x, axis=0)
    with pytest.raises(ValueError, match="zero-size"):
        ivy_like.min(x)
    with pytest.raises(ValueError, match="zero-size"):
        ivy_like.max(x, axis=(1, 0), keepdims=True)


# -- manipulation and linalg ---------------------------------------------------------------------
def test_reshape_permute_concat_stack_astype(name):
    a = np.arange(6, dtype=np.float32)
    x = native(name, a)
    same(ivy_like.reshape(x, (2, 3)), a.reshape(2, 3))
    same(ivy_like.reshape(x, 6), a)
    same(ivy_like.reshape(x, (-1, 2), copy=True), a.reshape(-1, 2))
    same(
        ivy_like.permute_dims(ivy_like.reshape(x, (1, 2, 3)), (2, 0, 1)),
        a.reshape(1, 2, 3).transpose(2, 0, 1),
    )
    m = ivy_like.reshape(x, (2, 3))
    same(ivy_like.concat([m, m], axis=None), np.concatenate([a, a]))
    same(ivy_like.concat([m, m], axis=1), np.concatenate([a.reshape(2, 3)] * 2, axis=1))
    same(ivy_like.stack([x, x], axis=1), np.stack([a, a], axis=1))
    same(ivy_like.astype(native(name, [1.7, -1.7], np.float32), "int32"), [1, -1])
    assert npy(ivy_like.astype(x, "float16")).dtype == np.float16


def test_torch_reshape_copy_flags():
    x = torch.arange(6.0)
    view = ivy_like.reshape(x, (2, 3), copy=False)
    view[0, 0] = 100.0
    assert x[0] == 100.0  # a view
    copied = ivy_like.reshape(x, (2, 3), copy=True)
    copied[0, 0] = -1.0
    assert x[0] == 100.0
    with pytest.raises(ValueError, match="copy=False"):
        ivy_like.reshape(x.reshape(2, 3).T, (6,), copy=False)
    assert ivy_like.astype(x, torch.float32, copy=False) is x
    assert ivy_like.astype(x, torch.float32, copy=True) is not x


@pytest.mark.parametrize(
    "s1,s2",
    [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)), ((2, 3), (3, 4)), ((5, 1, 2, 3), (4, 3, 2))],
)
def test_matmul_like_numpy(name, s1, s2):
    rng = np.random.default_rng(1)
    a = rng.standard_normal(s1).astype(np.float32)
    b = rng.standard_normal(s2).astype(np.float32)
    got = ivy_like.matmul(native(name, a), native(name, b))
    np.testing.assert_allclose(npy(got), a @ b, rtol=1e-5, atol=1e-5)


def test_matmul_of_a_scalar_is_an_error(name):
    # One ValueError everywhere (ivy_like.core.decided_errors); torch.matmul's own error was a
    # RuntimeError or TypeError.
    vector = native(name, [1.0], np.float32)
    with pytest.raises(ValueError, match="matmul: x1 must be at least 1-D"):
        ivy_like.matmul(native(name, 2.0, np.float32), vector)
    with pytest.raises(ValueError, match="matmul: x2 must be at least 1-D"):
        ivy_like.matmul(vector, 2.0)


def test_where_broadcasts(name):
    c = native(name, [[True], [False]])
    same(
        ivy_like.where(c, native(name, [1.0, 2.0], np.float32), native(name, 0.0, np.float32)),
        [[1.0, 2.0], [0.0, 0.0]],
    )


# -- creation -------------------------------------------------------------------------------------
def test_creation_defaults(name):
    assert npy(ivy_like.asarray([1.0, 2.0])).dtype == np.float32
    assert npy(ivy_like.asarray([1, 2])).dtype == np.int64
    assert npy(ivy_like.asarray(3)).dtype == np.int64
    assert npy(ivy_like.asarray([1j])).dtype == np.complex64
    assert npy(ivy_like.asarray([True])).dtype == np.bool_
    assert npy(ivy_like.asarray(np.ones(2))).dtype == np.float64  # NumPy arrays keep theirs
    assert npy(ivy_like.asarray(np.ones(2, np.int16))).dtype == np.int16
    assert npy(ivy_like.asarray([1.7, -1.2], dtype="int32")).tolist() == [1, -1]
    for fn in (ivy_like.zeros, ivy_like.ones):
        assert npy(fn((2, 3))).dtype == np.float32 and fn(3).shape == (3,)
    assert npy(ivy_like.eye(3)).dtype == np.float32
    assert npy(ivy_like.linspace(0, 1, 3)).dtype == np.float32
    assert npy(ivy_like.arange(0.0, 1.0, 0.25)).dtype == np.float32
    assert npy(ivy_like.arange(5)).dtype == np.int64
    assert npy(ivy_like.full((2,), 7)).dtype == np.int64
    assert npy(ivy_like.full((2,), 7.5)).dtype == np.float32
    assert npy(ivy_like.full((2,), True)).dtype == np.bool_
    assert npy(ivy_like.full(2, 7.5, dtype="int32")).tolist() == [7, 7]
    assert npy(ivy_like.full((1,), 1e300, dtype="float64")).tolist() == [1e300]


@pytest.mark.parametrize(
    "args,kwargs",
    [
        ((0, 1, 5), {}),
        ((0, 1, 5), {"endpoint": False}),
        ((-1, 1, 5), {"dtype": "int64"}),
        ((2, 10, 7), {"dtype": "int32", "endpoint": False}),
        ((0, 1, 0), {}),
        ((0, 1, 1), {"endpoint": False}),
        ((-3.5, 9.25, 11), {"dtype": "float64"}),
    ],
)
def test_linspace_like_numpy(name, args, kwargs):
    dt = kwargs.get("dtype", "float32")
    expected = np.linspace(*args, **{**kwargs, "dtype": dt})
    got = npy(ivy_like.linspace(*args, **kwargs))
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(got, expected, rtol=1e-6)


@pytest.mark.parametrize(
    "args", [(5,), (2, 7), (7, 2, -2), (0.0, 1.0, 0.1), (1.0, -1.0, -0.3), (3, 3), (0, 10, 3)]
)
def test_arange_like_numpy(name, args):
    got = npy(ivy_like.arange(*args))
    dt = np.float32 if any(isinstance(a, float) for a in args) else np.int64
    expected = np.arange(*args, dtype=dt)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-6)
    same(ivy_like.arange(4, dtype="int8"), np.arange(4, dtype=np.int8))


@pytest.mark.parametrize("shape,k", [((3,), 0), ((3,), 1), ((3, 5), 2), ((4, 2), -1), ((2,), 5)])
def test_eye_like_numpy(name, shape, k):
    same(ivy_like.eye(*shape, k=k), np.eye(*shape, k=k, dtype=np.float32))
    same(ivy_like.eye(*shape, k=k, dtype="int32"), np.eye(*shape, k=k, dtype=np.int32))


def test_asarray_copy_rules(name):
    source = np.arange(3.0)
    copied = ivy_like.asarray(source, copy=True)
    source[0] = 100.0
    assert npy(copied)[0] == 0.0
    with pytest.raises(ValueError, match="copy=False"):
        ivy_like.asarray([1.0, 2.0], copy=False)
    x = native(name, [1.0, 2.0], np.float32)
    with pytest.raises(ValueError, match="copy=False"):
        ivy_like.asarray(x, dtype="float64", copy=False)
    assert ivy_like.asarray(x, copy=False).data is x


def test_torch_asarray_shares_numpy_memory_without_a_copy():
    source = np.arange(3.0)
    shared = ivy_like.backends.torch.creation.asarray(source, copy=False)
    source[0] = 100.0
    assert shared[0] == 100.0


def test_like_functions_follow_the_input(name):
    x = native(name, [1, 2], np.int32)
    same(ivy_like.zeros_like(x), np.zeros(2, np.int32))
    assert npy(ivy_like.ones_like(x, dtype="float64")).dtype == np.float64


def test_bfloat16_round_trip(name):
    x = ivy_like.asarray([1.5, 2.0], dtype="bfloat16")
    assert x.dtype == ivy_like.bfloat16
    assert repr(x).startswith("ivy_like.array([1.5, 2")  # NumPy prints ml_dtypes' bfloat16
    same(ivy_like.astype(x * 2, "float32"), [3.0, 4.0])


# -- helpers --------------------------------------------------------------------------------------
def test_shape_dtype_device(name):
    m = mod(name)
    x = native(name, np.zeros((2, 3), np.float32))
    s = m.shape(x)
    assert s == (2, 3) and type(s) is tuple and all(type(d) is int for d in s)
    assert m.dtype(x) == m.DTYPES[ivy_like.float32]
    assert m.device(x) == "cpu"


def test_to_numpy_of_variables():
    t = torch.ones(2, requires_grad=True)
    assert isinstance(ivy_like.to_numpy(t), np.ndarray)
    assert ivy_like.to_numpy(tf.Variable([1.0, 2.0])).tolist() == [1.0, 2.0]


def test_dlpack_round_trip(name):
    m = mod(name)
    x = ivy_like.array([1.0, 2.0, 3.0])
    assert np.from_dlpack(x).tolist() == [1.0, 2.0, 3.0]
    assert m.dlpack_device(x.data) == (1, 0)
    back = ivy_like.get_backend(name).from_dlpack(np.arange(3.0))  # an op: a family file
    assert isinstance(back, m.ARRAY_TYPES) and npy(back).tolist() == [0.0, 1.0, 2.0]
    if name == "torch":
        grad_leaf = torch.ones(2, requires_grad=True)
        assert np.from_dlpack(ivy_like.Array(grad_leaf)).tolist() == [1.0, 1.0]
    else:
        assert np.from_dlpack(ivy_like.Array(tf.Variable([4.0]))).tolist() == [4.0]


_A = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
KEYS = [
    0,
    -1,
    slice(None, None, -1),
    (0, slice(1, None)),
    (Ellipsis, 1),
    (None, 0),
    (slice(None), None, 1),
    [1, 0],
    np.array([1, -1]),
    (slice(None), [0, 2]),
    ([0, 1], [1, 2]),
    ([0, 1], slice(None), [1, 2]),
    (slice(None), [0, 2], [1, 3]),
    (0, slice(None), [1, 2]),  # the integer counts as an index array (NumPy), not as in torch
    (Ellipsis, [1, 0]),
    (slice(None), np.array([[0, 1], [2, 0]])),
    _A[:, :, 0, 0] > 10,
    (_A[:, :, 0, 0] > 10, 1),
    (slice(None), _A[0, :, :, 0] > 3),
    (None, [1, 0], Ellipsis, [0, 4]),
    (slice(None, None, -2), [2, 0], slice(1, None, -1)),
    ([[0], [1]], [0, 2]),
    (1, [0, 2], slice(None), 1),
    ([],),
    (slice(None), 1, [0, 1], slice(None)),
    (np.array([1, 0]), None, 2),
    (slice(3, 0, -1), slice(None, None, -3)),
    (_A[:, :, 0, 0] > 10, slice(None, None, -1), 0),
    (Ellipsis, slice(None, None, -2)),
    (0, Ellipsis, [0, 2], slice(4, None, -3)),
]


def _native_key(name, key):
    """Index arrays as native tensors (keys may mix them with NumPy arrays and lists)."""
    if isinstance(key, tuple):
        return tuple(_native_key(name, k) for k in key)
    if isinstance(key, np.ndarray):
        return native(name, key)
    return key


@pytest.mark.parametrize("key", KEYS, ids=[str(i) for i in range(len(KEYS))])
def test_getitem_and_setitem_like_numpy(name, key):
    m = mod(name)
    for k in (key, _native_key(name, key)):
        same(m.getitem(native(name, _A), k), _A[k])
        expected = _A.copy()
        expected[k] = -7.0
        same(m.setitem(native(name, _A), k, -7.0), expected)
        # Through Array indexing.
        a = ivy_like.Array(native(name, _A))
        same(a[k], _A[k])
        a[k] = -7.0
        same(a, expected)


def test_setitem_broadcasts_values(name):
    expected = _A.copy()
    expected[0, :, 1] = np.arange(5)
    a = ivy_like.Array(native(name, _A))
    a[0, :, 1] = ivy_like.arange(5)
    same(a, expected)
    a[:, 0] = np.zeros((4, 5), np.float32)  # a NumPy value
    expected[:, 0] = 0
    same(a, expected)


def test_getitem_errors(name):
    m = mod(name)
    x = native(name, np.arange(3.0))
    with pytest.raises(IndexError):
        m.getitem(x, native(name, [5]))
    with pytest.raises(IndexError):
        m.getitem(x, (0, 0))


def test_torch_setitem_is_in_place():
    x = torch.zeros(3)
    assert mod("torch").setitem(x, 1, 5.0) is x
    assert x.tolist() == [0.0, 5.0, 0.0]
    assert mod("torch").setitem(x, slice(None, None, -2), 1.0) is x
    assert x.tolist() == [1.0, 5.0, 1.0]


def test_tensorflow_setitem_never_mutates_a_tensor_and_assigns_a_variable():
    m = mod("tensorflow")
    x = tf.constant([0.0, 0.0, 0.0])
    new = m.setitem(x, 1, 5.0)
    assert x.numpy().tolist() == [0.0, 0.0, 0.0] and new.numpy().tolist() == [0.0, 5.0, 0.0]
    v = tf.Variable([0.0, 0.0, 0.0])
    assert m.setitem(v, [0, 2], 2.0) is v
    assert v.numpy().tolist() == [2.0, 0.0, 2.0]


def test_write_inplace():
    t = torch.zeros(2, requires_grad=True)
    mod("torch").write_inplace(t, torch.ones(2))
    assert t.tolist() == [1.0, 1.0] and t.requires_grad and t.grad_fn is None
    v = tf.Variable([0.0, 0.0])
    mod("tensorflow").write_inplace(v, tf.ones(2))
    assert v.numpy().tolist() == [1.0, 1.0]
    msg = "out=: a tf.Tensor is immutable; pass a tf.Variable or an ivy_like.Array"
    with pytest.raises(TypeError, match=msg.replace(".", r"\.")):
        mod("tensorflow").write_inplace(tf.zeros(2), tf.ones(2))


def test_is_variable():
    assert ivy_like.is_variable(torch.ones(2, requires_grad=True))
    assert not ivy_like.is_variable(torch.ones(2))
    assert not ivy_like.is_variable(torch.ones(2, requires_grad=True) * 2)  # not a leaf
    assert ivy_like.is_variable(tf.Variable(1.0))
    assert not ivy_like.is_variable(tf.constant(1.0))


# -- stop_gradient, variable, out= ---------------------------------------------------------------
def test_ivy_page_examples(name, capsys):
    x = ivy_like.array([1.0, 2.0, 3.0])
    y = ivy_like.stop_gradient(x, preserve_type=True)
    print(y)
    x = ivy_like.zeros((2, 3))
    ret = ivy_like.stop_gradient(x, preserve_type=False, out=x)
    assert ret is x
    print(x)
    print(x.stop_gradient(preserve_type=True))
    assert capsys.readouterr().out == (
        "ivy_like.array([1., 2., 3.])\n"
        "ivy_like.array([[0., 0., 0.],\n                [0., 0., 0.]])\n"
        "ivy_like.array([[0., 0., 0.],\n                [0., 0., 0.]])\n"
    )


def test_torch_stop_gradient_and_preserve_type():
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    plain = ivy_like.stop_gradient(leaf, preserve_type=False)
    kept = ivy_like.stop_gradient(leaf)
    assert not plain.requires_grad and plain.data_ptr() == leaf.data_ptr()  # no copy
    assert kept.requires_grad and kept.is_leaf and kept is not leaf
    assert leaf.requires_grad and leaf.is_leaf and leaf.grad is None  # input untouched
    inner = leaf * 2  # not a variable: preserve_type gives a plain tensor
    assert not ivy_like.stop_gradient(inner).requires_grad
    t = torch.ones(2)
    assert not ivy_like.stop_gradient(t).requires_grad and not t.requires_grad


def test_tensorflow_stop_gradient_and_preserve_type():
    v = tf.Variable([1.0, 2.0], trainable=False)
    kept = ivy_like.stop_gradient(v)
    assert isinstance(kept, tf.Variable) and kept is not v and not kept.trainable
    plain = ivy_like.stop_gradient(v, preserve_type=False)
    assert not isinstance(plain, tf.Variable)
    kept.assign([5.0, 5.0])
    assert v.numpy().tolist() == [1.0, 2.0]  # a new variable, not a view of v
    assert not isinstance(ivy_like.stop_gradient(tf.constant(1.0)), tf.Variable)


def test_torch_autograd_sees_a_constant():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    loss = (ivy_like.stop_gradient(3 * b, preserve_type=False) + a).sum()
    ga, gb = torch.autograd.grad(loss, (a, b), allow_unused=True)
    assert ga.tolist() == [1.0, 1.0] and (gb is None or gb.tolist() == [0.0, 0.0])
    # Through an Array and its method as well.
    x = torch.tensor([2.0], requires_grad=True)
    y = (ivy_like.Array(x).stop_gradient() * ivy_like.Array(x)).data.sum()
    (g,) = torch.autograd.grad(y, x)
    assert g.tolist() == [2.0]  # d/dx (c * x) with c = x held constant


def test_tensorflow_tape_sees_a_constant():
    # The TensorFlow page: "pretend that the value was a constant".
    a = tf.Variable([1.0, 2.0])
    b = tf.Variable([3.0, 4.0])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(ivy_like.stop_gradient(3 * b) + a)
    ga, gb = tape.gradient(loss, [a, b], unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert ga.numpy().tolist() == [1.0, 1.0] and gb.numpy().tolist() == [0.0, 0.0]
    x = tf.constant([2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(ivy_like.stop_gradient(x) * x)
    assert tape.gradient(y, x).numpy().tolist() == [2.0]


def test_variable():
    x = torch.tensor([1.0, 2.0])
    v = ivy_like.variable(x)
    assert v.requires_grad and v.is_leaf and not x.requires_grad
    v.data[0] = 9.0
    assert x[0] == 1.0  # a copy
    with pytest.raises(TypeError, match="int64"):
        ivy_like.variable(torch.tensor([1, 2]))
    tv = ivy_like.variable(tf.constant([1.0]))
    assert isinstance(tv, tf.Variable) and tv.numpy().tolist() == [1.0]
    with ivy_like.use_backend("tensorflow"):
        arr = ivy_like.variable(ivy_like.array([1.0]))
        assert ivy_like.is_variable(arr)


def test_out_torch_native_is_written_in_place():
    x = torch.ones(3)
    out = torch.zeros(3)
    assert ivy_like.add(x, x, out=out) is out
    assert out.tolist() == [2.0, 2.0, 2.0]
    leaf = torch.zeros(3, requires_grad=True)
    assert ivy_like.stop_gradient(x, out=leaf) is leaf
    assert leaf.tolist() == [1.0, 1.0, 1.0] and leaf.requires_grad


def test_out_tensorflow_variable_is_assigned_and_tensor_refused():
    x = tf.ones(3)
    v = tf.Variable(tf.zeros(3))
    assert ivy_like.add(x, x, out=v) is v
    assert v.numpy().tolist() == [2.0, 2.0, 2.0]
    frozen = tf.zeros(3)
    with pytest.raises(TypeError, match="immutable"):
        ivy_like.add(x, x, out=frozen)
    assert frozen.numpy().tolist() == [0.0, 0.0, 0.0]
    with ivy_like.use_backend("tensorflow"):
        a = ivy_like.zeros(3)
        ivy_like.add(x, x, out=a)  # an Array is rebound
        assert npy(a).tolist() == [2.0, 2.0, 2.0]


@pytest.mark.parametrize("bad", ["shape", "dtype"])
def test_out_that_does_not_fit_raises_before_writing(name, bad):
    x = native(name, [1.0, 2.0], np.float32)
    if bad == "shape":
        target, error = np.zeros(3, np.float32), ValueError
    else:
        target, error = np.zeros(2, np.float64), TypeError
    out = torch.tensor(target) if name == "torch" else tf.Variable(target)
    with pytest.raises(error, match="out="):
        ivy_like.add(x, x, out=out)
    assert not npy(out).any()


def test_out_of_the_wrong_framework_is_refused():
    with pytest.raises(TypeError, match="out="):
        ivy_like.add(torch.ones(2), torch.ones(2), out=tf.Variable(tf.zeros(2)))


def test_tensorflow_imports_a_strided_torch_view_by_copying():
    # TensorFlow's DLPack import refuses non-row-major strides; the backend copies instead,
    # so Containers holding transposed torch tensors convert too.
    torch = pytest.importorskip("torch")
    pytest.importorskip("tensorflow")
    t = torch.arange(12.0).reshape(3, 4).T
    tf_backend = ivy_like.get_backend("tensorflow")
    out = tf_backend.from_dlpack(t)
    np.testing.assert_array_equal(out.numpy(), t.numpy())
    with pytest.raises(BufferError, match="C-contiguous"):
        tf_backend.from_dlpack(t, copy=False)
    c = ivy_like.Container(w=t).cont_to_backend("tensorflow")
    np.testing.assert_array_equal(ivy_like.to_numpy(c.w), t.numpy())


def test_torch_solve_of_two_matrices_is_torch_linalg_solve():
    # The common call runs torch.linalg.solve_ex and reads its info: the same numbers and
    # gradients as torch.linalg.solve, ivy_like's LinAlgError (from torch's) for a singular
    # matrix, and the general path under vmap (where info cannot be read).
    g = torch.Generator().manual_seed(0)
    for dtype in (torch.float32, torch.float64, torch.complex64):
        a, b = torch.randn(4, 4, generator=g).to(dtype), torch.randn(4, 2, generator=g).to(dtype)
        assert torch.equal(ivy_like.linalg.solve(a, b), torch.linalg.solve(a, b))
    with pytest.raises(ivy_like.linalg.LinAlgError, match="singular") as raised:
        ivy_like.linalg.solve(torch.zeros(3, 3), torch.ones(3, 1))
    assert isinstance(raised.value.__cause__, torch.linalg.LinAlgError)
    a = torch.randn(3, 3, generator=g, requires_grad=True)
    b = torch.randn(3, 2, generator=g)
    (ours,) = torch.autograd.grad(ivy_like.linalg.solve(a, b).sum(), a)
    (theirs,) = torch.autograd.grad(torch.linalg.solve(a, b).sum(), a)
    assert torch.equal(ours, theirs)
    grad = torch.func.grad(lambda m: ivy_like.linalg.solve(m, b).sum())(a.detach())
    torch.testing.assert_close(grad, theirs)
    batch_a, batch_b = torch.randn(5, 3, 3, generator=g), torch.randn(5, 3, 2, generator=g)
    got = torch.func.vmap(ivy_like.linalg.solve)(batch_a, batch_b)
    torch.testing.assert_close(got, torch.linalg.solve(batch_a, batch_b))


def test_imag_of_a_lazily_conjugated_tensor_under_vmap():
    x = torch.tensor([[1 + 2j, 3 - 1j], [0.5j, -2 + 0j]], dtype=torch.complex64)
    with ivy_like.use_backend("torch"):
        got = ivy_like.vmap(lambda a: ivy_like.imag(torch.conj(a)))(x)
    np.testing.assert_array_equal(got.numpy(), -np.imag(x.numpy()))

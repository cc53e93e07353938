"""The TensorFlow backend's two speed paths, against what they replace.

``nn_linear`` (``backends/tensorflow/nn.py``) runs one ``tf.matmul(..., transpose_b=True)`` for
floating inputs of one dtype with ``x`` of known rank >= 2, and hands every other case to the
composite declaration: values, gradients, promotion and errors must be the composite's.

``compile_leaves`` (``backends/tensorflow/transforms.py``) calls, for eager-tensor leaves, the
concrete function of their (shape, dtype) through ``ConcreteFunction._call_flat`` instead of
the ``tf.function``; variables and symbolic leaves keep the ``tf.function`` call. Retracing,
trace counts, gradients recorded on a watching tape and output structures must not change.
"""

from __future__ import annotations

import inspect
import os

import numpy as np
import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import ivy_like  # noqa: E402
from ivy_like.core.registry import OPS  # noqa: E402

tf = pytest.importorskip("tensorflow")

LINEAR = OPS["nn.linear"].declaration
TOL = {"float32": {"rtol": 2e-6, "atol": 2e-6}, "float64": {"rtol": 1e-12, "atol": 1e-12}}


def _composite(*args):
    """The composite as a backend without the kernel runs it: the op's check, then its body."""
    bound = inspect.signature(LINEAR).bind(*args)
    bound.apply_defaults()
    with ivy_like.use_backend("tensorflow"):
        OPS["nn.linear"].check(*bound.args)
        return LINEAR(*args)


def _tensors(x_shape, dtype="float32", bias=True, out=4, seed=0):
    rng = np.random.default_rng(seed)
    n_in = x_shape[-1] if x_shape else 3
    x = tf.constant(rng.standard_normal(x_shape).astype(dtype))
    w = tf.constant(rng.standard_normal((out, n_in)).astype(dtype))
    b = tf.constant(rng.standard_normal(out).astype(dtype)) if bias else None
    return x, w, b


def _same(got, expected, tol):
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert tuple(got.shape) == tuple(expected.shape), (got.shape, expected.shape)
    np.testing.assert_allclose(got.numpy(), expected.numpy(), **tol)


def _numpy_linear(x, w, b):
    y = np.asarray(x, np.float64) @ np.asarray(w, np.float64).T
    return y if b is None else y + np.asarray(b, np.float64)


# -- nn_linear ---------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(5, 3), (2, 4, 3), (0, 3)])
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_linear_values_are_the_composites_and_numpys(shape, bias, dtype):
    x, w, b = _tensors(shape, dtype, bias)
    got = ivy_like.nn.linear(x, w, b)
    assert isinstance(got, tf.Tensor)  # native in, native out
    _same(got, _composite(x, w, b), TOL[dtype])
    want = _numpy_linear(x.numpy(), w.numpy(), None if b is None else b.numpy())
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("shape", [(5, 3), (2, 4, 3), (0, 3)])
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_linear_tape_gradients_are_the_composites(shape, bias, dtype):
    """The MatMul's own gradient (with transpose_b) against the composite's Transpose and
    MatMul gradients, for x, weight and bias, with a non-uniform cotangent."""
    x, w, b = _tensors(shape, dtype, bias)
    sources = [x, w] + ([b] if bias else [])
    ct = tf.constant(np.random.default_rng(1).standard_normal((*shape[:-1], 4)).astype(dtype))

    def grads(fn):
        with tf.GradientTape() as tape:
            tape.watch(sources)
            y = fn(x, w, b)
        return tape.gradient(y, sources, output_gradients=ct)

    for got, want in zip(grads(ivy_like.nn.linear), grads(_composite), strict=True):
        _same(got, want, TOL[dtype])


def test_linear_float16_and_bfloat16_match_the_composite():
    for dtype in (tf.float16, tf.bfloat16):
        x, w, b = (tf.cast(t, dtype) for t in _tensors((6, 3)))
        got = ivy_like.nn.linear(x, w, b)
        want = _composite(x, w, b)
        assert got.dtype == want.dtype == dtype
        np.testing.assert_allclose(
            tf.cast(got, tf.float32).numpy(),
            tf.cast(want, tf.float32).numpy(),
            rtol=2e-2,
            atol=2e-2,
        )
        with tf.GradientTape() as tape:
            tape.watch(w)
            y = tf.reduce_sum(ivy_like.nn.linear(x, w, b))
        g = tape.gradient(y, w)
        assert g.dtype == dtype
        # d sum(x @ w.T + b) / dw[o, i] = sum over rows of x[:, i]
        want_g = np.broadcast_to(tf.cast(x, tf.float32).numpy().sum(0), (4, 3))
        np.testing.assert_allclose(tf.cast(g, tf.float32).numpy(), want_g, rtol=2e-2, atol=2e-2)


def test_linear_mixed_float_dtypes_promote_as_the_composite():
    """x float32 with weight (and bias) float64 must not reach tf.matmul (which refuses
    mixed dtypes): the composite promotes to float64."""
    x, w, b = _tensors((5, 3))
    w64, b64 = tf.cast(w, tf.float64), tf.cast(b, tf.float64)
    for bias in (None, b64):
        got = ivy_like.nn.linear(x, w64, bias)
        want = _composite(x, w64, bias)
        _same(got, want, TOL["float64"])
        assert got.dtype == tf.float64
    # x float64, weight float32: promotion the other way round
    got = ivy_like.nn.linear(tf.cast(x, tf.float64), w)
    _same(got, _composite(tf.cast(x, tf.float64), w), TOL["float64"])


def test_linear_integer_inputs_are_the_composites():
    x = tf.constant([[1, 2, 3], [-4, 5, 0]], tf.int32)
    w = tf.constant([[1, 0, 1], [2, 2, 2]], tf.int32)
    b = tf.constant([7, -1], tf.int32)
    for bias in (None, b):
        got = ivy_like.nn.linear(x, w, bias)
        want = _composite(x, w, bias)
        assert got.dtype == want.dtype == tf.int32
        np.testing.assert_array_equal(got.numpy(), want.numpy())
    np.testing.assert_array_equal(ivy_like.nn.linear(x, w, b).numpy(), [[11, 11], [3, 1]])
    got = ivy_like.nn.linear(x, tf.cast(w, tf.int64))  # mixed integers promote
    assert got.dtype == _composite(x, tf.cast(w, tf.int64)).dtype == tf.int64


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
def test_linear_one_dimensional_x_is_the_composites(bias):
    """tf.matmul refuses a 1-D x; the composite gives a 1-D result."""
    x, w, b = _tensors((3,), bias=bias)
    got = ivy_like.nn.linear(x, w, b)
    assert got.shape == (4,)
    _same(got, _composite(x, w, b), TOL["float32"])
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = tf.reduce_sum(ivy_like.nn.linear(x, w, b) ** 2)
    gx, gw = tape.gradient(y, [x, w])
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = tf.reduce_sum(_composite(x, w, b) ** 2)
    ex, ew = tape.gradient(y, [x, w])
    _same(gx, ex, TOL["float32"])
    _same(gw, ew, TOL["float32"])


BAD = {
    "in_features": ((5, 3), (4, 2), None),
    "bias_length": ((5, 3), (4, 3), (3,)),
    "bias_2d": ((5, 3), (4, 3), (1, 4)),
    "weight_3d": ((5, 3), (4, 3, 1), None),
    "weight_1d": ((2, 3), (3,), None),
    "batched_in_features": ((2, 5, 3), (4, 2), (4,)),
}


@pytest.mark.parametrize("dtype", ["float32", "int32"])
@pytest.mark.parametrize("case", list(BAD))
def test_linear_bad_shapes_raise_the_composites_error(case, dtype):
    """The kernel checks before tf.matmul: its InvalidArgumentError (or a silently broadcast
    bias) would replace the composite's ValueError naming the argument."""
    xs, ws, bs = BAD[case]
    args = [tf.ones(xs, dtype), tf.ones(ws, dtype), None if bs is None else tf.ones(bs, dtype)]
    with pytest.raises(Exception) as expected:
        _composite(*args)
    with pytest.raises(type(expected.value)) as got:
        ivy_like.nn.linear(*args)
    assert str(got.value) == str(expected.value)
    assert type(got.value) is ValueError and "linear:" in str(got.value)


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
def test_linear_in_a_tf_function_with_an_unknown_batch_dimension(bias):
    """The first axis of x is None while tracing: the kernel's check reads the last axis only.
    (Before the kernel, the composite's shape check failed on the None with a TypeError.)"""
    _, w, b = _tensors((1, 3), bias=bias)
    traces = []

    @tf.function(input_signature=[tf.TensorSpec((None, 3), tf.float32)], autograph=False)
    def f(x):
        traces.append(1)
        y = ivy_like.nn.linear(x, w, b)
        assert y.shape.as_list() == [None, 4]
        return y

    for n in (5, 1, 0):
        x = _tensors((n, 3), bias=bias, seed=n)[0]
        got = f(x)
        want = _numpy_linear(x.numpy(), w.numpy(), None if b is None else b.numpy())
        assert got.shape == (n, 4)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)
        _same(got, ivy_like.nn.linear(x, w, b), TOL["float32"])
    assert len(traces) == 1


def test_linear_in_a_tf_function_with_an_unknown_rank_takes_the_composite():
    """Unknown rank (x.shape.rank is None) is the composite's case, with its error."""
    _, w, _ = _tensors((1, 3))

    def traced(fn):
        return tf.function(
            lambda x: fn(x, w, None),
            input_signature=[tf.TensorSpec(None, tf.float32)],
            autograph=False,
        )

    with pytest.raises(Exception) as expected:
        traced(_composite)(tf.ones((2, 3)))
    with pytest.raises(type(expected.value)) as got:
        traced(ivy_like.nn.linear)(tf.ones((2, 3)))
    assert str(got.value) == str(expected.value)


def test_linear_layer_and_mlp_apply_agree_with_numpy():
    layer = ivy_like.nn.Linear(3, 5)
    params = layer.init(0, backend="tensorflow")
    x = _tensors((6, 3))[0]
    y = layer.apply(params, x)
    assert isinstance(y, tf.Tensor) and y.shape == (6, 5)
    np.testing.assert_allclose(
        y.numpy(),
        _numpy_linear(x.numpy(), params["weight"].numpy(), params["bias"].numpy()),
        rtol=1e-5,
        atol=1e-5,
    )
    no_bias = ivy_like.nn.Linear(3, 2, bias=False)
    p = no_bias.init(1, backend="tensorflow")
    np.testing.assert_allclose(
        no_bias.apply(p, x).numpy(), x.numpy() @ p["weight"].numpy().T, rtol=1e-5, atol=1e-5
    )

    mlp = ivy_like.nn.MLP([3, 8, 2], activation="tanh", backend="tensorflow")
    p = mlp.params
    xs = _tensors((2, 7, 3), seed=3)[0]
    hidden = np.tanh(_numpy_linear(xs.numpy(), p["0"]["weight"].numpy(), p["0"]["bias"].numpy()))
    want = _numpy_linear(hidden, p["2"]["weight"].numpy(), p["2"]["bias"].numpy())
    got = mlp(xs)
    assert isinstance(got, tf.Tensor) and got.shape == (2, 7, 2)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)

    # and its parameter gradients, through a compiled loss (the benchmarked training step)
    def loss(params, x):
        return ivy_like.sum(mlp.apply(params, x) ** 2)

    got_g = ivy_like.compile(ivy_like.grad(loss))(p, xs)
    with ivy_like.use_backend("tensorflow"):
        ref = ivy_like.grad(
            lambda q, x: ivy_like.sum(
                _composite(
                    ivy_like.tanh(_composite(x, q["0"]["weight"], q["0"]["bias"])),
                    q["2"]["weight"],
                    q["2"]["bias"],
                )
                ** 2
            )
        )(p, xs)
    for key in ("0/weight", "0/bias", "2/weight", "2/bias"):
        np.testing.assert_allclose(
            got_g.cont_at_key_chain(key).numpy(),
            ref.cont_at_key_chain(key).numpy(),
            rtol=1e-5,
            atol=1e-5,
        )


# -- compile ---------------------------------------------------------------------------------


def _f(x, y):
    return ivy_like.sum(ivy_like.sin(x) * y**2) + ivy_like.mean(x * y)


def _np_f(x, y):
    return np.sum(np.sin(x) * y**2) + np.mean(x * y)


def _np_grads(x, y):
    return np.cos(x) * y**2 + y / x.size, 2 * np.sin(x) * y + x / x.size


def _xy(n, seed=0, dtype="float32"):
    rng = np.random.default_rng(seed)
    return (tf.constant(rng.standard_normal(n).astype(dtype)) for _ in range(2))


def test_compile_retraces_for_new_shapes_and_dtypes_and_reuses_old_traces():
    """The concrete functions are keyed on every leaf's shape and dtype: a key without one
    of them would run a trace of another signature (wrong values, a dtype error)."""
    traces = []

    def f(x, y):
        traces.append((tuple(x.shape), x.dtype))
        return _f(x, y)

    cf = ivy_like.compile(f)
    calls = [(3, "float32"), (5, "float32"), (3, "float64"), (3, "float32"), (5, "float32")]
    for n, dtype in calls:
        x, y = _xy(n, seed=n, dtype=dtype)
        got = cf(x, y)
        assert got.dtype == x.dtype
        np.testing.assert_allclose(got.numpy(), _np_f(x.numpy(), y.numpy()), rtol=1e-5)
    assert len(traces) == 3, traces
    # a leaf of another shape among equal ones retraces too
    x, y = _xy(3)
    np.testing.assert_allclose(cf(x, tf.ones(1)).numpy(), _np_f(x.numpy(), np.ones(1)), rtol=1e-5)
    assert len(traces) == 4


def test_compile_traces_once_for_repeated_calls_of_one_signature():
    traces = []

    def f(x, y):
        traces.append(1)
        return _f(x, y)

    cf = ivy_like.compile(f)
    for seed in range(6):
        x, y = _xy(4, seed)
        np.testing.assert_allclose(cf(x, y).numpy(), _np_f(x.numpy(), y.numpy()), rtol=1e-5)
    assert len(traces) == 1, f"traced {len(traces)} times for six calls of one signature"


def test_gradient_tape_through_a_compiled_function():
    """_call_flat must record the call on the watching tape: without it (the concrete
    function's inference call) the gradients are None."""
    cf = ivy_like.compile(_f)
    x, y = _xy(4, seed=2)
    for _ in range(2):  # the first call traces, the second one takes the cached function
        with tf.GradientTape() as tape:
            tape.watch([x, y])
            value = cf(x, y)
        got = tape.gradient(value, [x, y])
        with tf.GradientTape() as tape:
            tape.watch([x, y])
            value = _f(x, y)
        want = tape.gradient(value, [x, y])
        for g, e, n in zip(got, want, _np_grads(x.numpy(), y.numpy()), strict=True):
            assert g is not None
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(g.numpy(), n, rtol=1e-5, atol=1e-6)


def test_gradient_tape_watching_some_leaves_and_a_leaf_given_twice():
    cf = ivy_like.compile(lambda a, n, b: ivy_like.sum(a * b) * ivy_like.astype(n, "float32"))
    x, y = _xy(3, seed=4)
    n = tf.constant(3)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(y)
        value = cf(x, n, y)
    np.testing.assert_allclose(tape.gradient(value, y).numpy(), 3 * x.numpy(), rtol=1e-6)
    assert tape.gradient(value, x) is None  # not watched
    twice = ivy_like.compile(lambda a, b: ivy_like.sum(a * b))
    with tf.GradientTape() as tape:
        tape.watch(x)
        value = twice(x, x)
    np.testing.assert_allclose(tape.gradient(value, x).numpy(), 2 * x.numpy(), rtol=1e-6)


def test_second_order_and_forward_mode_through_a_compiled_function():
    cf = ivy_like.compile(_f)
    x, y = _xy(4, seed=5)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            value = cf(x, y)
        gx = inner.gradient(value, x)
    hess_diag = outer.gradient(gx, x)
    np.testing.assert_allclose(hess_diag.numpy(), -np.sin(x.numpy()) * y.numpy() ** 2, rtol=1e-5)
    tangent = tf.constant([1.0, -2.0, 0.5, 0.0])
    with tf.autodiff.ForwardAccumulator(x, tangent) as acc:
        value = cf(x, y)
    want = np.dot(_np_grads(x.numpy(), y.numpy())[0], tangent.numpy())
    np.testing.assert_allclose(acc.jvp(value).numpy(), want, rtol=1e-5)


def test_gradient_tape_sees_a_variable_the_compiled_function_closes_over():
    v = tf.Variable([1.0, 2.0, 3.0])
    cf = ivy_like.compile(lambda x: ivy_like.sum(x * v * v))
    x = tf.constant([0.5, -1.0, 2.0])
    for _ in range(2):
        with tf.GradientTape() as tape:  # watch_accessed_variables: the variable is read inside
            value = cf(x)
        np.testing.assert_allclose(tape.gradient(value, v).numpy(), 2 * x.numpy() * v.numpy())
    v.assign([2.0, 0.0, 1.0])  # read when called, not captured by value
    np.testing.assert_allclose(cf(x).numpy(), np.sum(x.numpy() * v.numpy() ** 2))


def test_ivy_grad_of_compile_and_compile_of_grad_agree_with_eager():
    x, y = _xy(5, seed=6)
    eager = ivy_like.grad(_f, argnums=(0, 1))(x, y)
    for got in (
        ivy_like.grad(ivy_like.compile(_f), argnums=(0, 1))(x, y),
        ivy_like.compile(ivy_like.grad(_f, argnums=(0, 1)))(x, y),
    ):
        for _ in range(2):
            for g, e, n in zip(got, eager, _np_grads(x.numpy(), y.numpy()), strict=True):
                np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-5, atol=1e-6)
                np.testing.assert_allclose(g.numpy(), n, rtol=1e-5, atol=1e-6)
    value, g = ivy_like.value_and_grad(ivy_like.compile(_f))(x, y)
    np.testing.assert_allclose(value.numpy(), _np_f(x.numpy(), y.numpy()), rtol=1e-5)
    np.testing.assert_allclose(g.numpy(), eager[0].numpy(), rtol=1e-5, atol=1e-6)
    _, tangents = ivy_like.jvp(ivy_like.compile(_f), [x, y], [tf.ones(5), tf.zeros(5)])
    np.testing.assert_allclose(tangents[0].numpy(), eager[0].numpy().sum(), rtol=1e-5)


def test_custom_vjp_inside_a_compiled_function_under_a_tape():
    """The concrete function's recorded gradient is the custom rule traced inside it."""

    @ivy_like.custom_function
    def double(x):
        return x * 2

    @double.vjp
    def _(primals, cotangent, output):
        return cotangent * 0.1

    cf = ivy_like.compile(lambda x: ivy_like.sum(double(x)))
    x = tf.constant([1.0, 2.0, 3.0])
    np.testing.assert_allclose(ivy_like.grad(cf)(x).numpy(), np.full(3, 0.1), rtol=1e-6)
    with tf.GradientTape() as tape:
        tape.watch(x)
        value = cf(x)
    np.testing.assert_allclose(value.numpy(), 12.0)
    np.testing.assert_allclose(tape.gradient(value, x).numpy(), np.full(3, 0.1), rtol=1e-6)


def test_a_variable_leaf_takes_the_tf_function_call():
    v = tf.Variable([1.0, 2.0, 3.0])
    x = tf.constant([0.5, -1.0, 2.0])
    traces = []

    def f(w, x):
        traces.append(1)
        return ivy_like.sum(w * x)

    cf = ivy_like.compile(f)
    for value in ([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]):
        v.assign(value)
        with tf.GradientTape() as tape:
            out = cf(v, x)
        np.testing.assert_allclose(out.numpy(), np.dot(value, x.numpy()), rtol=1e-6)
        np.testing.assert_allclose(tape.gradient(out, v).numpy(), x.numpy())
    assert len(traces) == 1
    # the same compiled function then called with an eager tensor of the variable's shape
    np.testing.assert_allclose(cf(tf.ones(3), x).numpy(), x.numpy().sum(), rtol=1e-6)


def test_a_compiled_function_inside_an_outer_tf_function():
    """Symbolic leaves (an outer graph being built) keep the tf.function call, and the
    outer function's gradient goes through it."""
    cf = ivy_like.compile(_f)

    @tf.function(autograph=False)
    def outer(x, y):
        return cf(x, y) * 2.0

    for n in (4, 4, 6):
        x, y = _xy(n, seed=n)
        np.testing.assert_allclose(outer(x, y).numpy(), 2 * _np_f(x.numpy(), y.numpy()), rtol=1e-5)
        with tf.GradientTape() as tape:
            tape.watch(x)
            value = outer(x, y)
        want = 2 * _np_grads(x.numpy(), y.numpy())[0]
        np.testing.assert_allclose(tape.gradient(value, x).numpy(), want, rtol=1e-5, atol=1e-6)
    # and eagerly after that, on the signatures the outer function already traced
    x, y = _xy(4, seed=4)
    np.testing.assert_allclose(cf(x, y).numpy(), _np_f(x.numpy(), y.numpy()), rtol=1e-5)


def test_compiled_outputs_keep_their_structure():
    x, y = _xy(3, seed=8)
    c = ivy_like.Container(a=x, b=ivy_like.Container(c=y))

    def f(c, scale):
        s = c["a"] * c["b"]["c"] * scale
        return ivy_like.Container(s=s, t=c["a"] - 1.0), (s, 3, None, "tag"), [ivy_like.sum(s)]

    cf = ivy_like.compile(f)
    for scale in (2.0, 2.0, 3.0):
        cont, tup, lst = cf(c, scale)
        assert type(cont) is ivy_like.Container and set(cont) == {"s", "t"}
        assert type(tup) is tuple and len(tup) == 4 and tup[1:] == (3, None, "tag")
        assert type(lst) is list and len(lst) == 1
        s = x.numpy() * y.numpy() * scale
        np.testing.assert_allclose(cont["s"].numpy(), s, rtol=1e-6)
        np.testing.assert_allclose(cont["t"].numpy(), x.numpy() - 1, rtol=1e-6)
        np.testing.assert_allclose(tup[0].numpy(), s, rtol=1e-6)
        np.testing.assert_allclose(lst[0].numpy(), s.sum(), rtol=1e-6)
    # no array output at all: the concrete function has no outputs
    assert ivy_like.compile(lambda x: 7)(x) == 7
    assert ivy_like.compile(lambda x: [])(x) == []
    assert ivy_like.compile(lambda x: (x.shape[0], None))(x) == (3, None)
    # ivy_like.Array in, ivy_like.Array out
    arr = ivy_like.compile(lambda a: a * 2)(ivy_like.asarray(x))
    assert type(arr) is ivy_like.Array
    np.testing.assert_allclose(arr.to_numpy(), 2 * x.numpy())


def test_shape_dependent_python_outputs_follow_the_call_not_the_last_trace():
    """A Python output computed from a static shape belongs to the trace of the call's
    signature (compile used to keep one output spec per argument structure, refilled at each
    trace: a call of an earlier signature after a retrace returned the later trace's
    constant). Every backend: tests/transforms/test_compile.py."""
    cf = ivy_like.compile(lambda x: (x * 2, x.shape[0]))
    assert cf(tf.ones(3))[1] == 3
    assert cf(tf.ones(5))[1] == 5
    assert cf(tf.ones(3))[1] == 3


def test_run_functions_eagerly_runs_the_python_each_call():
    # tf.config's debugging switch: a compiled function runs its Python at every call (the
    # concrete-function shortcut must not bypass it).
    calls = [0]

    def f(x):
        calls[0] += 1
        return x * 2

    compiled = ivy_like.compile(f)
    tf.config.run_functions_eagerly(True)
    try:
        for _ in range(3):
            np.testing.assert_allclose(compiled(tf.ones(2)).numpy(), [2.0, 2.0])
    finally:
        tf.config.run_functions_eagerly(False)
    assert calls[0] == 3
    for _ in range(3):
        compiled(tf.ones(2))
    assert calls[0] == 4  # traced once, then reused

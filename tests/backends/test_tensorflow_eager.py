"""The TensorFlow backend's eager fast paths (``backends/tensorflow/_eager.py``): raw ops on
eager tensors give what the ``tf.*`` path gives, fall back to it for everything they do not
take, stay out of graphs, and are seen by ``tf.GradientTape``."""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import ivy_like  # noqa: E402

tf = pytest.importorskip("tensorflow")

from ivy_like.backends.tensorflow import _eager  # noqa: E402

B = ivy_like.get_backend("tensorflow")

X = tf.constant([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])
M = tf.constant(np.eye(3, dtype=np.float32) * 2 + 0.25)


def same(got, expected):
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    np.testing.assert_array_equal(got.numpy(), expected.numpy())


# Each case: the backend call (which takes the raw op for these eager tensors) and the tf.*
# call it must equal.
CASES = {
    "add": (lambda: B.add(X, X), lambda: tf.add(X, X)),
    "subtract": (lambda: B.subtract(X, X * 3), lambda: tf.subtract(X, X * 3)),
    "multiply": (lambda: B.multiply(X, X), lambda: tf.multiply(X, X)),
    "maximum": (lambda: B.maximum(X, -X), lambda: tf.maximum(X, -X)),
    "less": (lambda: B.less(X, -X), lambda: tf.less(X, -X)),
    "floor_divide": (lambda: B.floor_divide(X, X + 0.5), lambda: tf.math.floordiv(X, X + 0.5)),
    "remainder": (lambda: B.remainder(X, X + 0.5), lambda: tf.math.floormod(X, X + 0.5)),
    "pow": (lambda: B.pow(X, X), lambda: tf.pow(X, X)),
    "divide": (lambda: B.divide(X, X + 0.5), lambda: tf.divide(X, X + 0.5)),
    "exp": (lambda: B.exp(X), lambda: tf.exp(X)),
    "log": (lambda: B.log(X * X), lambda: tf.math.log(X * X)),
    "sqrt": (lambda: B.sqrt(X * X), lambda: tf.sqrt(X * X)),
    "tanh": (lambda: B.tanh(X), lambda: tf.tanh(X)),
    "where": (lambda: B.where(X > 0, X, -X), lambda: tf.where(X > 0, X, -X)),
    "permute_dims": (lambda: B.permute_dims(X, [1, 0]), lambda: tf.transpose(X, [1, 0])),
    "astype": (lambda: B.astype(X, tf.int16), lambda: tf.cast(X, tf.int16)),
    "sum all": (lambda: B.sum(X), lambda: tf.reduce_sum(X)),
    "sum axis": (lambda: B.sum(X, axis=-1, keepdims=True), lambda: tf.reduce_sum(X, -1, True)),
    "mean": (lambda: B.mean(X, axis=0), lambda: tf.reduce_mean(X, 0)),
    "max": (lambda: B.max(X), lambda: tf.reduce_max(X)),
    "min": (lambda: B.min(X, axis=1), lambda: tf.reduce_min(X, 1)),
    "zeros": (lambda: B.zeros((2, 0, 3), dtype=tf.int16), lambda: tf.zeros((2, 0, 3), tf.int16)),
    "ones": (lambda: B.ones(4), lambda: tf.ones((4,))),
    "reshape": (lambda: B.reshape(X, (3, -1)), lambda: tf.reshape(X, (3, -1))),
    "concat": (lambda: B.concat([X, X, X], axis=-1), lambda: tf.concat([X, X, X], -1)),
    "matmul": (lambda: B.matmul(X, M), lambda: tf.linalg.matmul(X, M)),
    "batched matmul": (
        lambda: B.matmul(tf.stack([M, 2 * M]), M),
        lambda: tf.linalg.matmul(tf.stack([M, 2 * M]), tf.stack([M, M])),
    ),
    "take": (lambda: B.take(X, tf.constant([2, 0]), axis=1), lambda: tf.gather(X, [2, 0], axis=1)),
    "stop_gradient": (lambda: B.stop_gradient(X), lambda: tf.stop_gradient(X)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_raw_path_equals_the_tf_path(case):
    ours, theirs = CASES[case]
    same(ours(), theirs())


def test_what_raw_ops_refuse_takes_the_tf_path():
    i32 = tf.constant([1, 2, 3], tf.int32)
    f64 = tf.constant([0.5, 0.5, 0.5], tf.float64)
    # mixed dtypes: promoted like NumPy (AddV2 refuses them)
    same(B.add(i32, f64), tf.constant([1.5, 2.5, 3.5], tf.float64))
    same(B.concat([i32, f64]), tf.constant([1, 2, 3, 0.5, 0.5, 0.5], tf.float64))
    # 1-D matmul operands (BatchMatMulV2 needs rank 2)
    same(B.matmul(f64, f64), tf.constant(0.75, tf.float64))
    # a single array to concat (ConcatV2 needs two)
    same(B.concat([i32], axis=0), i32)
    # negative indices wrap like NumPy (GatherV2 raises for them)
    same(B.take(i32, tf.constant([-1, 0])), tf.constant([3, 1], tf.int32))
    # sums of small integers are int64 (NumPy's rule) on the raw path too
    same(B.sum(i32), tf.constant(6, tf.int64))
    # integer true division gives floats (RealDiv would truncate)
    same(B.divide(i32, i32 + 1), tf.constant([0.5, 2 / 3, 0.75], tf.float64))
    # integers have no exp kernel: the tf path's error
    with pytest.raises(tf.errors.InvalidArgumentError):
        B.exp(i32)
    # complex to real keeps the real part, as tf.cast does
    z = tf.constant([1 + 2j, -3 + 0j], tf.complex64)
    same(B.astype(z, tf.float32), tf.constant([1.0, -3.0]))
    # a dtype the array has already: no cast
    assert B.astype(f64, tf.float64, copy=False) is f64


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: B.take(X, tf.constant([0, 9]), axis=1), IndexError),
        (lambda: B.take(X[0], tf.constant([-4])), IndexError),
        (lambda: B.take(X[0], tf.constant([0.0])), TypeError),
        (lambda: B.reshape(X, (4, 2)), tf.errors.InvalidArgumentError),
        (lambda: B.sum(X, axis=5), tf.errors.InvalidArgumentError),
        (lambda: B.zeros((2.0,)), TypeError),
        (lambda: B.matmul(X, X), tf.errors.InvalidArgumentError),
    ],
)
def test_errors_are_those_of_the_checked_path(call, error):
    with pytest.raises(error):
        call()


def test_out_of_range_take_leaves_no_partial_result():
    idx = tf.constant([0, 3])
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        ivy_like.take(X[0], idx)


def test_constant_cache_takes_only_python_ints():
    assert _eager.int64(1.5) is None
    assert _eager.int64(True) is None
    assert _eager.int64([1, 2]) is _eager.int64((1, 2))  # a list is read as its tuple
    assert _eager.int64([1, 2.0]) is None
    assert _eager.int64((np.int64(2),)) is None
    one = _eager.int64((1,))
    assert one is _eager.int64((1,))  # cached
    assert _eager.int64((1.0,)) is None  # 1.0 == 1: the int's entry must not answer
    assert _eager.int64((True,)) is None
    np.testing.assert_array_equal(one.numpy(), [1])
    assert one.dtype == tf.int64


def test_no_graph_tensor_enters_the_constant_cache():
    # Tracing a tf.function (an XLA-compiled one here) must not cache graph constants: shapes
    # and axes first seen in a trace are asked for again eagerly afterwards.
    shape, dims, axes = (1, 6, 1, 1), (7, 1, 1, 1), (1, 1, 1, 1, 1)

    @tf.function(jit_compile=True, autograph=False)
    def f():
        return (
            ivy_like.sum(tf.reshape(X, axes + (6,))),  # all five-plus-one axes
            ivy_like.reshape(X, shape),
            ivy_like.concat([X, X], axis=1),
            B.zeros(dims),
        )

    total, reshaped, joined, zeros = f()
    assert total.numpy() == 5.0 and reshaped.shape == shape and joined.shape == (2, 6)
    assert zeros.shape == dims
    assert all(type(t) is _eager.EagerTensor for t in _eager._INT64.values())
    assert all(type(t) is _eager.EagerTensor for t in _eager._FILL.values())
    same(B.reshape(X, shape), tf.reshape(X, shape))
    same(B.zeros(dims), tf.zeros(dims))
    same(B.sum(tf.reshape(X, axes + (6,))), tf.constant(5.0))


def test_tape_sees_the_raw_ops():
    w = tf.constant([[0.5, -1.0], [2.0, 0.25], [1.0, 1.0]])
    idx = tf.constant([1, 0])
    with tf.GradientTape() as tape:
        tape.watch(w)
        h = B.matmul(X, w)  # (2, 2)
        h = B.concat([B.add(h, h), B.multiply(h, h)], axis=0)  # (4, 2)
        loss = B.sum(B.reshape(B.take(h, idx, axis=1), (-1,)))
    grad = tape.gradient(loss, w)
    with tf.GradientTape() as tape:
        tape.watch(w)
        h = tf.linalg.matmul(X, w)
        h = tf.concat([h + h, h * h], 0)
        expected_loss = tf.reduce_sum(tf.gather(h, [1, 0], axis=1))
    expected = tape.gradient(expected_loss, w)
    same(loss, expected_loss)
    np.testing.assert_allclose(grad.numpy(), expected.numpy(), rtol=1e-6)


_BOUNDS = [None, -5, -3, -1, 0, 2, 4]
_ITEMS = [-4, -1, 0, 2, 3] + [
    slice(a, b, s) for a in _BOUNDS for b in _BOUNDS for s in (None, 1, 2, -1, -3)
]


def test_basic_slicing_matches_numpy():
    # Every int and slice (bounds in and out of range, negative steps) on each of two axes,
    # through StridedSlice; out-of-range ints raise IndexError as in NumPy.
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = tf.constant(a)
    for k0 in _ITEMS:
        for key in (k0, (k0,), (k0, slice(None, None, -1)), (slice(1, None), k0)):
            try:
                expected = a[key]
            except IndexError:
                with pytest.raises(IndexError):
                    B.getitem(x, key)
                continue
            got = B.getitem(x, key).numpy()
            assert got.shape == expected.shape, key
            np.testing.assert_array_equal(got, expected)


def test_other_keys_take_the_general_path():
    x = tf.constant(np.arange(6.0).reshape(2, 3))
    assert _eager.sliced(x, (None, 0)) is None
    assert _eager.sliced(x, (Ellipsis, 1)) is None
    assert _eager.sliced(x, slice(0, 2, 0)) is None
    assert _eager.sliced(x, np.int64(1)) is None
    assert _eager.sliced(x, (0, 0, 0)) is None
    with pytest.raises(ValueError):
        B.getitem(x, slice(0, 2, 0))  # NumPy: "slice step cannot be zero"
    same(B.getitem(x, (Ellipsis, 1)), tf.constant([1.0, 4.0], tf.float64))

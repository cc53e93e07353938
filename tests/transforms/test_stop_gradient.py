"""stop_gradient: the seed pages' examples, preserve_type, out= and autodiff on every backend."""

from __future__ import annotations

import numpy as np
import pytest
from _native import native_grads

import ivy_like
from ivy_like.testing import assert_close


def test_ivy_page_function_examples(backend, capsys):
    x = ivy_like.array([1.0, 2.0, 3.0])
    y = ivy_like.stop_gradient(x, preserve_type=True)
    print(y)
    x = ivy_like.zeros((2, 3))
    ivy_like.stop_gradient(x, preserve_type=False, out=x)
    print(x)
    assert capsys.readouterr().out == (
        "ivy_like.array([1., 2., 3.])\n"
        "ivy_like.array([[0., 0., 0.],\n"
        "                [0., 0., 0.]])\n"
    )
    assert x.backend is backend


def test_ivy_page_array_method_example(backend):
    x = ivy_like.array([1.0, 2.0, 3.0])
    y = x.stop_gradient(preserve_type=True)
    assert repr(y) == "ivy_like.array([1., 2., 3.])"
    assert isinstance(y, ivy_like.Array) and y.backend is backend


def test_mxnet_page_example_with_framework_autodiff(backend):
    """loss = stop_gradient(3 * b) + a: forward [1, 5]; d/da [1, 1]; d/db [0, 0]."""
    a = backend.asarray(np.array([1.0, 2.0], np.float32))
    b = backend.asarray(np.array([0.0, 1.0], np.float32))
    loss = ivy_like.add(ivy_like.stop_gradient(ivy_like.multiply(b, 3.0)), a)
    assert_close(loss, np.array([1.0, 5.0], np.float32))
    if not backend.has_autodiff:
        assert backend.name == "numpy"
        return

    def f(a, b):
        return ivy_like.sum(ivy_like.add(ivy_like.stop_gradient(ivy_like.multiply(b, 3.0)), a))

    ga, gb = native_grads(backend.name, f, [a, b])
    np.testing.assert_array_equal(ga, [1.0, 1.0])
    np.testing.assert_array_equal(gb, [0.0, 0.0])


def test_tensorflow_page_pretend_constant(backend):
    """d/dx sum(stop_gradient(x*x) * x) = x*x, not 3*x*x: the stopped value is a constant."""
    x = backend.asarray(np.array([1.0, 2.0, 3.0], np.float32))
    if not backend.has_autodiff:
        assert ivy_like.stop_gradient(x) is x  # numpy: the value itself, no copy
        return

    def stopped(x):
        return ivy_like.sum(ivy_like.multiply(ivy_like.stop_gradient(ivy_like.square(x)), x))

    def plain(x):
        return ivy_like.sum(ivy_like.multiply(ivy_like.square(x), x))

    (g_stopped,) = native_grads(backend.name, stopped, [x])
    (g_plain,) = native_grads(backend.name, plain, [x])
    np.testing.assert_allclose(g_stopped, [1.0, 4.0, 9.0], rtol=1e-6)
    np.testing.assert_allclose(g_plain, [3.0, 12.0, 27.0], rtol=1e-6)


def test_value_unchanged_and_input_not_mutated(backend):
    data = np.array([[1.5, -2.0], [3.0, 4.0]], np.float32)
    x = ivy_like.variable(backend.asarray(data))
    was_variable = ivy_like.is_variable(x)
    for preserve in (True, False):
        y = ivy_like.stop_gradient(x, preserve_type=preserve)
        assert_close(y, data)
    assert ivy_like.is_variable(x) == was_variable
    assert_close(x, data)
    if backend.name == "torch":
        assert x.requires_grad and x.is_leaf and x.grad is None


def test_preserve_type(backend):
    x = ivy_like.variable(backend.asarray(np.array([1.0, 2.0], np.float32)))
    kept = ivy_like.stop_gradient(x, preserve_type=True)
    plain = ivy_like.stop_gradient(x, preserve_type=False)
    assert not ivy_like.is_variable(plain)
    if backend.name in ("torch", "tensorflow", "mxnet"):
        assert ivy_like.is_variable(x)
        assert ivy_like.is_variable(kept) and kept is not x
    else:  # numpy, jax and mlx have no variable type
        assert not ivy_like.is_variable(kept)
    if backend.name == "torch":
        assert kept.is_leaf and kept.requires_grad and kept.grad_fn is None
        assert kept.data_ptr() == x.data_ptr()  # detach(): no copy
    if backend.name == "tensorflow":
        import tensorflow as tf

        assert isinstance(kept, tf.Variable) and not isinstance(plain, tf.Variable)
    if backend.name == "mxnet":  # a new gradient buffer; x's own is untouched
        assert kept.grad is not None and kept.grad is not x.grad and plain.grad is None
    # A plain array in stays a plain array, whatever preserve_type says.
    p = backend.asarray(np.array([1.0], np.float32))
    assert not ivy_like.is_variable(ivy_like.stop_gradient(p, preserve_type=True))


def test_out_array_is_written_or_rebound_on_every_backend(backend):
    out = ivy_like.full((2,), 9.0)
    before = out.data
    x = ivy_like.array([1.0, 2.0])
    result = ivy_like.stop_gradient(x, out=out)
    assert result is out
    assert_close(out, np.array([1.0, 2.0], np.float32))
    if backend.mutable_arrays:
        assert out.data is before  # written in place


def test_out_native(backend):
    x = backend.asarray(np.array([1.0, 2.0], np.float32))
    out = backend.asarray(np.array([7.0, 7.0], np.float32))
    if backend.mutable_arrays:
        assert ivy_like.stop_gradient(x, out=out) is out
        assert_close(out, np.array([1.0, 2.0], np.float32))
        return
    with pytest.raises(TypeError, match="immutable"):
        ivy_like.stop_gradient(x, out=out)
    assert_close(out, np.array([7.0, 7.0], np.float32))
    if backend.name == "tensorflow":
        import tensorflow as tf

        var = tf.Variable([7.0, 7.0])
        assert ivy_like.stop_gradient(x, out=var) is var
        assert_close(var, np.array([1.0, 2.0], np.float32))


@pytest.mark.parametrize(
    "bad_out, error, match",
    [
        (np.zeros(3, np.float32), ValueError, "shape"),
        (np.zeros(2, np.float64), TypeError, "dtype"),
    ],
)
def test_out_that_does_not_fit_raises_before_writing(backend, bad_out, error, match):
    x = ivy_like.array([1.0, 2.0])
    out = (
        ivy_like.Array(backend.asarray(bad_out + 5))
        if backend.name != "jax" or bad_out.dtype != np.float64
        else None
    )
    if out is None:  # jax without x64 cannot even hold a float64 out
        out = ivy_like.Array(backend.asarray(np.full(2, 5, np.int32)))
        match = "dtype"
    snapshot = out.to_numpy().copy()
    with pytest.raises(error, match=match):
        ivy_like.stop_gradient(x, out=out)
    np.testing.assert_array_equal(out.to_numpy(), snapshot)


def test_out_of_another_backend_is_a_type_error(backend):
    other = next((n for n in ivy_like.available_backends() if n != backend.name), None)
    if other is None:
        pytest.skip("needs a second backend; the main CI run installs five")
    out = ivy_like.Array(ivy_like.get_backend(other).asarray(np.zeros(2, np.float32)))
    with pytest.raises(TypeError, match=f"out= is a {other} array"):
        ivy_like.stop_gradient(ivy_like.array([1.0, 2.0]), out=out)
    np.testing.assert_array_equal(out.to_numpy(), [0.0, 0.0])


def test_variable_copies_and_keeps_values(backend):
    data = np.array([1.0, 2.0], np.float32)
    x = backend.asarray(data)
    v = ivy_like.variable(x)
    assert_close(v, data)
    assert ivy_like.is_variable(v) == (backend.name in ("torch", "tensorflow", "mxnet"))
    av = ivy_like.variable(ivy_like.Array(x))
    assert isinstance(av, ivy_like.Array) and ivy_like.is_variable(av) == ivy_like.is_variable(v)

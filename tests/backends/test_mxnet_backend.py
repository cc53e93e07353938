"""The MXNet 1.9 backend: the page's example, 0-d values, promotion, bool, out=, gradients.

Runs only in the MXNet environment (``nox -s tests_mxnet``): without mxnet the module skips.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

mx = pytest.importorskip("mxnet")

import ivy_like  # noqa: E402
from ivy_like.backends import mxnet as B  # noqa: E402
from ivy_like.backends.mxnet import creation  # noqa: E402
from ivy_like.testing import assert_close  # noqa: E402

nd = mx.nd


@pytest.fixture(autouse=True)
def _mxnet_active():
    with ivy_like.use_backend("mxnet"):
        yield
    # No test may leave MXNet's NumPy shape semantics switched on for the caller.
    assert not mx.util.is_np_shape()


def native_grads(f, xs):
    """MXNet's own autodiff (``record``/``backward`` on marked copies), as NumPy arrays."""
    leaves = [x.copy() for x in xs]
    for leaf in leaves:
        leaf.attach_grad()
    with mx.util.np_shape(True):
        with mx.autograd.record():
            out = f(*leaves)
        out.backward()
    return [leaf.grad.asnumpy() for leaf in leaves]


def test_mxnet_page_example_through_ivy_like():
    a = nd.array([1, 2])
    b = nd.array([0, 1])
    loss = ivy_like.stop_gradient(3 * b) + a
    assert isinstance(loss, nd.NDArray)
    np.testing.assert_array_equal(loss.asnumpy(), [1, 5])
    ga, gb = ivy_like.grad(
        lambda a, b: ivy_like.sum(ivy_like.stop_gradient(3 * b) + a), argnums=(0, 1)
    )(a, b)
    np.testing.assert_array_equal(ga.asnumpy(), [1, 1])
    np.testing.assert_array_equal(gb.asnumpy(), [0, 0])
    # The user's arrays are never marked for autograd.
    assert a.grad is None and b.grad is None


def test_mxnet_page_example_with_mxnet_autodiff():
    a = nd.array([1.0, 2.0])
    b = nd.array([0.0, 1.0])
    ga, gb = native_grads(lambda a, b: ivy_like.sum(ivy_like.stop_gradient(3 * b) + a), [a, b])
    np.testing.assert_array_equal(ga, [1, 1])
    np.testing.assert_array_equal(gb, [0, 0])


def test_scalars_are_0d_and_shape_semantics_stay_thread_local():
    x = nd.array([1.0, 2.0, 3.0])
    s = ivy_like.sum(x)
    assert s.shape == () and float(ivy_like.to_numpy(s)) == 6.0
    assert ivy_like.mean(x, keepdims=True).shape == (1,)
    assert ivy_like.max(nd.ones((2, 3)), axis=(0, 1)).shape == ()
    assert B.getitem(x, 1).shape == ()
    assert ivy_like.add(s, x).shape == (3,)  # 0-d operands broadcast
    seen = []
    t = threading.Thread(target=lambda: seen.append(mx.util.is_np_shape()))
    t.start()
    t.join()
    assert seen == [False] and not mx.util.is_np_shape()


def test_promotion_and_weak_scalars():
    i = nd.array([1, 2], dtype="int32")
    f = nd.array([0.5, 0.5], dtype="float64")
    assert np.dtype(ivy_like.add(i, f).dtype) == np.float64  # MXNet alone raises here
    assert np.dtype(ivy_like.add(i, 1).dtype) == np.int32
    assert np.dtype(ivy_like.add(i, 1.5).dtype) == np.float32
    h = nd.array([1, 2], dtype="float16")
    assert np.dtype(ivy_like.multiply(h, 2.0).dtype) == np.float16
    assert_close(ivy_like.divide(i, 2), np.array([0.5, 1.0], np.float32))
    assert_close(ivy_like.floor_divide(nd.array([-3, 3], dtype="int64"), 2), np.array([-2, 1]))
    with pytest.raises(TypeError, match="complex"):
        ivy_like.add(i, 1j)


def test_bool_results_and_operands():
    x = nd.array([1.0, -2.0, 3.0])
    mask = ivy_like.greater(x, 0)
    assert np.dtype(mask.dtype) == np.bool_
    np.testing.assert_array_equal(mask.asnumpy(), [True, False, True])
    both = ivy_like.logical_and(mask, ivy_like.less(x, 2))
    np.testing.assert_array_equal(both.asnumpy(), [True, False, False])
    np.testing.assert_array_equal(ivy_like.logical_not(mask).asnumpy(), [False, True, False])
    assert_close(ivy_like.where(mask, x, 0.0), np.array([1.0, 0.0, 3.0], np.float32))
    assert_close(ivy_like.sum(mask), np.int64(2))
    assert bool(ivy_like.to_numpy(ivy_like.max(mask))) is True
    np.testing.assert_array_equal(ivy_like.concat([mask, mask]).asnumpy(), [1, 0, 1] * 2)


def test_matmul_shapes_and_dtypes():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(12, dtype=np.float32).reshape(2, 3, 2)
    assert_close(ivy_like.matmul(nd.array(a), nd.array(b)), a @ b)  # broadcast batch
    assert_close(ivy_like.matmul(nd.array(a[0]), nd.array(a[0])), a[0] @ a[0])
    ai = a.astype(np.int64)
    got = ivy_like.matmul(creation.asarray(ai), creation.asarray(ai.T))
    assert_close(got, ai @ ai.T)
    ah = a.astype(np.float16)
    assert_close(ivy_like.matmul(creation.asarray(ah), creation.asarray(ah.T)), ah @ ah.T)
    # MXNet's dot kills the process on zero-size operands; these are built directly.
    assert ivy_like.matmul(creation.zeros((2, 0)), creation.zeros((0, 3))).shape == (2, 3)


def test_unsupported_dtypes_raise_clearly():
    with pytest.raises(TypeError, match="int16"):
        ivy_like.asarray(np.array([1, 2], np.int16))
    with pytest.raises(TypeError, match="complex64 is not supported by the mxnet backend"):
        ivy_like.zeros(2, dtype="complex64")


def test_out_written_in_place_outside_the_tape():
    out = nd.zeros((2,))
    x = nd.array([1.0, 2.0])
    assert ivy_like.stop_gradient(x, out=out) is out
    np.testing.assert_array_equal(out.asnumpy(), [1, 2])
    scalar_out = creation.zeros(())
    ivy_like.sum(x, out=scalar_out)
    assert float(scalar_out.asnumpy()) == 3.0
    with pytest.raises(ValueError, match="shape"):
        ivy_like.add(x, x, out=nd.zeros((3,)))
    with pytest.raises(TypeError, match="dtype"):
        ivy_like.add(x, x, out=nd.zeros((2,), dtype="float64"))
    np.testing.assert_array_equal(out.asnumpy(), [1, 2])


def test_variables_and_preserve_type():
    x = nd.array([1.0, 2.0])
    v = ivy_like.variable(x)
    assert ivy_like.is_variable(v) and not ivy_like.is_variable(x) and v is not x
    kept = ivy_like.stop_gradient(v, preserve_type=True)
    plain = ivy_like.stop_gradient(v, preserve_type=False)
    assert ivy_like.is_variable(kept) and not ivy_like.is_variable(plain)
    assert_close(kept, np.array([1.0, 2.0], np.float32))
    np.testing.assert_array_equal(v.grad.asnumpy(), [0, 0])  # v's own buffer is untouched


def test_gradients_zero_when_unconnected_and_for_constants():
    x = nd.array([1.0, 2.0])
    g = ivy_like.grad(lambda x, y: ivy_like.sum(y * y), argnums=0)(x, nd.array([3.0]))
    np.testing.assert_array_equal(g.asnumpy(), [0, 0])
    g = ivy_like.grad(lambda x: ivy_like.sum(ivy_like.stop_gradient(x) * 2.0))(x)
    np.testing.assert_array_equal(g.asnumpy(), [0, 0])


def test_jacobian_and_value_and_grad():
    x = nd.array([1.0, 2.0, 3.0])
    j = ivy_like.jac(lambda x: x * x)(x)
    assert_close(j, np.diag([2.0, 4.0, 6.0]).astype(np.float32))
    value, grad = ivy_like.value_and_grad(lambda x: (ivy_like.sum(x * x), x * 2.0))(x)
    assert_close(value[0], np.float32(14.0))
    assert_close(value[1], np.array([2.0, 4.0, 6.0], np.float32))
    assert_close(grad, np.array([2.0, 4.0, 6.0], np.float32))


def test_gradients_of_gradients_raise_clearly():
    cube = lambda x: x * x * x  # noqa: E731
    with pytest.raises(NotImplementedError, match="cannot nest"):
        ivy_like.grad(ivy_like.grad(cube))(nd.array(np.float32(2.0)))


def test_mxnet_qr_gradient_is_finite_at_triangular_input() -> None:
    """No reflection (a zero column tail, as in the identity) used to put 1/0 in the branch
    that where did not take: NaN gradients."""
    pytest.importorskip("mxnet")
    weights = np.arange(9, dtype=np.float32).reshape(3, 3)
    with ivy_like.use_backend("mxnet"):
        for a in (np.eye(3, dtype=np.float32), np.triu(weights + 1)):
            grad = ivy_like.grad(
                lambda x: ivy_like.sum(ivy_like.linalg.qr(x).R * ivy_like.asarray(weights))
            )(ivy_like.asarray(a))
            assert np.isfinite(ivy_like.to_numpy(grad)).all()

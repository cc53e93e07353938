"""Transform primitives of the backends without a vectorising map: numpy and mxnet.

``vmap`` is a loop over the batch there (``backends/_common/loop_vmap.py``); a custom vmap rule
is still applied once to the whole batch. MXNet also differentiates (``vjp``, ``checkpoint``
and custom vjp rules through ``autograd.Function``) and refuses ``jvp`` clearly. References are
closed-form NumPy values. The mxnet tests run only in the MXNet environment
(``nox -s tests_mxnet``).
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import ivy_like

M = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
W = np.array([0.5, -1.0, 2.0])
TOL = {"rtol": 1e-5, "atol": 1e-6}
LOOPS = ["numpy"] + (["mxnet"] if importlib.util.find_spec("mxnet") else [])


def _arr(name, value, dtype=np.float32):
    return ivy_like.asarray(ivy_like.get_backend(name).asarray(np.asarray(value, dtype)))


def _close(got, want):
    np.testing.assert_allclose(ivy_like.to_numpy(got), want, **TOL)


def _scaled(seen):
    """A custom function ``a * k`` whose vmap rule adds 1000 (so its use shows) and records
    the axes it is given."""

    @ivy_like.custom_function
    def scale(a, k):
        return a * k

    @scale.vmap
    def _(inputs, axes):
        seen.append(axes)
        return inputs[0] * inputs[1] + 1000, axes[0]

    return scale


@pytest.mark.parametrize("name", LOOPS)
def test_vmap_rule_runs_once_per_batch(name):
    m, w = _arr(name, M), _arr(name, W)
    seen = []
    scale = _scaled(seen)
    # An array captured from outside the map reaches the rule unbatched (axis None).
    _close(ivy_like.vmap(lambda r: scale(r, w))(m), M * W + 1000)
    assert seen == [(0, None)]
    seen.clear()
    _close(ivy_like.vmap(scale)(m, m), M * M + 1000)
    assert seen == [(0, 0)]
    seen.clear()
    # Two calls in a row: each gets the batch once, in order.
    got = ivy_like.vmap(lambda r: scale(scale(r, w) * 0.001, w))(m)
    _close(got, ((M * W + 1000) * 0.001) * W + 1000)
    assert seen == [(0, None), (0, None)]
    # Nested maps: the rule serves the inner one; outside any map the function itself runs.
    _close(ivy_like.vmap(ivy_like.vmap(lambda e: scale(e, e)))(m), M * M + 1000)
    _close(scale(w, w), W * W)


@pytest.mark.parametrize("name", LOOPS)
def test_vmap_rule_with_unbatched_output(name):
    @ivy_like.custom_function
    def f(a):
        return a * 2

    @f.vmap
    def _(inputs, axes):
        return ivy_like.sum(inputs[0], axis=0) * 0 + 7, None

    _close(ivy_like.vmap(f)(_arr(name, M)), np.full((2, 3), 7.0))


@pytest.mark.parametrize("name", LOOPS)
def test_the_loop_stop_is_not_an_exception_of_the_users_function(name):
    seen = []
    scale = _scaled(seen)

    def f(r):
        try:
            return scale(r, r)
        except Exception:  # must not catch the loop's own signal
            return r * 0

    _close(ivy_like.vmap(f)(_arr(name, M)), M * M + 1000)


@pytest.mark.parametrize("name", LOOPS)
def test_loop_vmap_errors(name):
    m, w = _arr(name, M), _arr(name, W)
    with pytest.raises(ValueError, match="unmapped output 0 .* differs between example 0"):
        ivy_like.vmap(lambda r: (r * 2, r * 3), out_axes=(0, None))(m)
    both = ivy_like.vmap(lambda r: (r * 2, w * 3), out_axes=(0, None))(m)
    _close(both[1], W * 3)
    with pytest.raises(ValueError, match=r"mapped output 0 has shape \(1,\) .* \(3,\)"):
        ivy_like.vmap(lambda r: r[: int(float(r[0]))])(m)
    scale = _scaled([])
    with pytest.raises(ValueError, match="some examples called a custom_function"):
        ivy_like.vmap(lambda r: scale(r, w) if float(ivy_like.sum(r)) < 10 else r)(m)
    with pytest.raises(NotImplementedError, match="empty batch .* jax, torch, tensorflow, mlx"):
        ivy_like.vmap(lambda r: r * 2)(m[:0])
    with pytest.raises(ZeroDivisionError):
        ivy_like.vmap(lambda r: 1 / 0)(m)


def test_numpy_primitives():
    from ivy_like.backends.numpy import transforms as T

    def f(*leaves):
        return list(leaves)

    assert T.compile_leaves(f) is f
    assert T.checkpoint_leaves(f) is f
    assert T.custom_function_leaves(f, None, None, None) is f
    with pytest.raises(ivy_like.NoAutodiffError, match="vjp: the numpy backend"):
        T.vjp_leaves(f, [], lambda outs: outs)
    with pytest.raises(ivy_like.NoAutodiffError, match="jvp: the numpy backend"):
        T.jvp_leaves(f, [], [])


# -- mxnet ----------------------------------------------------------------------------------------
@pytest.fixture
def mx():
    mxnet = pytest.importorskip("mxnet")
    yield mxnet
    # Nothing may leave MXNet's NumPy shape semantics on, or a tape recording.
    assert not mxnet.util.is_np_shape() and not mxnet.autograd.is_recording()


def test_mxnet_vjp(mx):
    a, w = _arr("mxnet", M[0]), _arr("mxnet", W)
    ct = np.array([0.3, -1.0, 2.0])
    outs, (ga, gw) = ivy_like.vjp(
        lambda a, w: [ivy_like.sin(a) * w, ivy_like.sum(a * w), _arr("mxnet", [5.0, 5.0])],
        [a, w],
        [_arr("mxnet", ct), _arr("mxnet", 0.7), _arr("mxnet", [1.0, 1.0])],
    )
    _close(outs[0], np.sin(M[0]) * W)
    _close(ga, ct * np.cos(M[0]) * W + 0.7 * W)
    _close(gw, ct * np.sin(M[0]) + 0.7 * M[0])
    # The identity, and a float64 cotangent of a float32 output.
    _close(ivy_like.vjp(lambda a: a, [a], [_arr("mxnet", ct)])[1][0], ct)
    _close(ivy_like.vjp(lambda a: a * a, [a], [_arr("mxnet", ct, np.float64)])[1][0], 2 * ct * M[0])
    assert a._data.grad is None  # the caller's array is never marked


def test_mxnet_refuses_what_its_autograd_cannot_do(mx):
    a = _arr("mxnet", W)
    with pytest.raises(NotImplementedError, match="jvp: .* jax, torch, tensorflow and mlx can"):
        ivy_like.jvp(lambda x: x * x, [a], [a])
    with pytest.raises(NotImplementedError, match="cannot nest"):
        ivy_like.grad(lambda x: ivy_like.sum(ivy_like.vjp(lambda y: y * y, [x], [x])[1][0]))(a)
    with pytest.raises(NotImplementedError, match="cannot nest .* jax, torch, tensorflow and mlx"):
        ivy_like.hessian(lambda x: ivy_like.sum(x**3))(a)


def test_mxnet_custom_vjp_rule(mx):
    a, s = _arr("mxnet", W), _arr("mxnet", 2.0)

    @ivy_like.custom_function
    def mul(k, x):
        return x * k

    @mul.vjp
    def _(primals, cotangent, output):
        k, x = primals
        return ivy_like.zeros_like(k) + 100.0, cotangent * k * 10

    # A constant first argument: MXNet alone would leave the second one's gradient unwritten.
    _close(ivy_like.grad(lambda x: ivy_like.sum(mul(_arr("mxnet", np.ones(3)), x)))(a), [10.0] * 3)
    # 0-d arguments and result (the rule runs on MXNet's worker thread).
    _close(ivy_like.grad(lambda x: mul(x, x))(s), 100.0 + 2.0 * 10)
    _close(ivy_like.vjp(mul, [a, a], [_arr("mxnet", np.ones(3))])[1][1], W * 10)
    _close(ivy_like.compile(ivy_like.grad(lambda x: ivy_like.sum(mul(x, x))))(a), 100 + W * 10)

    @ivy_like.custom_function
    def same(x):
        return x  # an output that is already on the tape

    @same.vjp
    def _(primals, cotangent, output):
        return cotangent * 3

    _close(ivy_like.grad(lambda x: ivy_like.sum(same(x) * x))(a), 3 * W + W)

    @ivy_like.custom_function
    def bad(x):
        return x * 2

    @bad.vjp
    def _(primals, cotangent, output):
        return ivy_like.ones(5)

    with pytest.raises(ValueError, match=r"vjp rule returned \(5,\) for an argument of shape"):
        ivy_like.vjp(bad, [a], [a])


def test_mxnet_checkpoint_recomputes_in_the_backward_pass(mx):
    a = _arr("mxnet", W)
    runs = []

    def block(k, x):
        runs.append(1)
        return ivy_like.sin(x) * ivy_like.exp(x) * k

    g = ivy_like.grad(lambda x: ivy_like.sum(ivy_like.checkpoint(block)(_arr("mxnet", 2.0), x)))(a)
    _close(g, 2 * (np.cos(W) + np.sin(W)) * np.exp(W))
    assert len(runs) == 2  # the forward pass and the recomputation
    runs.clear()
    _close(ivy_like.checkpoint(block)(2.0, a), 2 * np.sin(W) * np.exp(W))
    assert len(runs) == 1  # no tape: the function itself
    s = _arr("mxnet", 0.5)
    _close(ivy_like.grad(lambda x: ivy_like.checkpoint(block)(x, x))(s), _d_block(0.5))


def _d_block(x):
    # d/dx of sin(x) * exp(x) * x
    return (np.cos(x) * x + np.sin(x) * x + np.sin(x)) * np.exp(x)


def test_mxnet_custom_rules_under_vmap_and_grad(mx):
    m = _arr("mxnet", M)

    @ivy_like.custom_function
    def triple_when_batched(x):
        return x * 2

    @triple_when_batched.vmap
    def _(inputs, axes):
        return inputs[0] * 3, axes[0]

    # As MLX: per-example gradients take the rule's value and the function's derivative
    # (d/dr sum(f(r) * r) = 2r + 3r); a gradient around the map goes through the rule.
    per_example = ivy_like.vmap(ivy_like.grad(lambda r: ivy_like.sum(triple_when_batched(r) * r)))
    _close(per_example(m), 5 * M)
    around = ivy_like.grad(lambda x: ivy_like.sum(ivy_like.vmap(triple_when_batched)(x)))
    _close(around(m), np.full((2, 3), 3.0))

    @triple_when_batched.vjp
    def _(primals, cotangent, output):
        return cotangent * 0.5

    _close(per_example(m), 3.5 * M)
    around = ivy_like.grad(lambda x: ivy_like.sum(ivy_like.vmap(triple_when_batched)(x) * x))
    _close(around(m), 3.5 * M)
    unmapped = ivy_like.grad(
        lambda w: ivy_like.sum(ivy_like.vmap(lambda r, v: r * v, in_axes=(0, None))(m, w))
    )
    _close(unmapped(_arr("mxnet", W)), M.sum(axis=0))
    moved = ivy_like.grad(
        lambda x: ivy_like.sum(ivy_like.vmap(lambda c: c * c, in_axes=1, out_axes=1)(x))
    )
    _close(moved(m), 2 * M)

"""Torch-specific regression tests for ivy_like/backends/torch/transforms.py: each fails on a
simpler torch implementation, named in its docstring."""

from __future__ import annotations

import numpy as np
import pytest

import ivy_like

torch = pytest.importorskip("torch")
X = np.array([0.5, 1.0, 1.5])


def _t(value=X):
    return torch.tensor(value, dtype=torch.float64)


def test_compile_traces_once_per_signature_and_each_function_compiles():
    """With compile_leaves = torch.compile(f): Dynamo replays the list append on every call,
    and after 8 compiled functions sharing the frontend's code object runs them eagerly."""
    traces: list[int] = []
    funs = [ivy_like.compile(lambda b, k=k: (traces.append(k), b * k)[1]) for k in range(12)]
    for _ in range(3):
        for k, f in enumerate(funs):
            np.testing.assert_allclose(f(_t()).numpy(), X * k)
    assert sorted(traces) == list(range(12)), traces
    f = funs[2]
    f(torch.ones(4, dtype=torch.float64))  # a new shape traces again
    assert traces.count(2) == 2


def test_compile_keys_on_grad_mode():
    """A graph compiled under no_grad must not serve a call that needs a backward."""
    x = _t().requires_grad_()
    f = ivy_like.compile(lambda b: torch.sin(b) * b)
    with torch.no_grad():
        assert not f(x).requires_grad
    (g,) = torch.autograd.grad(torch.sum(f(x)), x)
    np.testing.assert_allclose(g.numpy(), np.cos(X) * X + np.sin(X))


def test_compile_value_dependent_control_flow_is_a_type_error():
    with pytest.raises(TypeError, match="Python control flow"):
        ivy_like.compile(lambda b: b * 2 if torch.sum(b) > 0 else b)(_t())


def test_compile_respects_custom_rules():
    """Dynamo drops autograd.Function rules under torch.func (pytorch#193279); make_fx
    traces them as they run."""

    @ivy_like.custom_function
    def f(a):
        return torch.sin(a)

    @f.vjp
    def _(primals, cotangent, output):
        return cotangent * 7

    g = ivy_like.compile(ivy_like.grad(lambda a: torch.sum(f(a))))
    np.testing.assert_allclose(g(_t()).numpy(), np.full(3, 7.0))


@pytest.mark.parametrize("rule", ["vjp", "jvp", "vmap"])
def test_custom_rules_under_a_callers_torch_compile(rule):
    """The backend primitive inside the caller's own torch.compile: without the eager
    fallback Dynamo inlines the forward and silently uses sin's own derivative/batching."""
    backend = ivy_like.get_backend("torch")
    rules = {
        "vjp": lambda p, ct, o: [ct[0] * 7],
        "jvp": lambda p, t: [t[0] * 5],
        "vmap": lambda leaves, axes: ([torch.sin(leaves[0]) * 1000], [axes[0]]),
    }
    f = backend.custom_function_leaves(
        lambda a: [torch.sin(a)],
        rules["vjp"] if rule == "vjp" else None,
        rules["jvp"] if rule == "jvp" else None,
        rules["vmap"] if rule == "vmap" else None,
    )
    x = _t()
    run = {
        "vjp": lambda a: torch.func.grad(lambda b: torch.sum(f(b)[0]))(a),
        "jvp": lambda a: torch.func.jvp(lambda b: f(b)[0], (a,), (torch.ones_like(a),))[1],
        "vmap": lambda a: torch.func.vmap(lambda b: f(b)[0])(torch.stack([a, a])),
    }[rule]
    want = run(x)
    torch._dynamo.reset()
    np.testing.assert_allclose(torch.compile(run)(x).numpy(), want.numpy())


def test_grad_of_vmap_of_custom_vjp_with_an_unmapped_argument():
    """generate_vmap_rule keeps one record of the saved tensors' batch dims: saving the
    outputs for backward only (not for forward) broke grad(vmap(f)) with in_axes None."""

    @ivy_like.custom_function
    def f(a, c):
        return ivy_like.sin(a) * c

    @f.vjp
    def _(primals, cotangent, output):
        a, c = primals
        return cotangent * ivy_like.cos(a) * c * 10, cotangent * ivy_like.sin(a) * 10

    m, x = _t(np.arange(6.0).reshape(2, 3) / 5), _t()
    g = ivy_like.grad(lambda mm: ivy_like.sum(ivy_like.vmap(f, in_axes=(0, None))(mm, x)))(m)
    np.testing.assert_allclose(g.numpy(), np.cos(m.numpy()) * X * 10)


def test_jvp_of_checkpoint_and_custom_with_integer_outputs():
    """autograd.Function.jvp must return None for an integer output."""
    idx = torch.tensor([2, 0])
    ck = ivy_like.checkpoint(lambda a, j: (ivy_like.take(ivy_like.sin(a), j), ivy_like.argmax(a)))
    _, (tangent,) = ivy_like.jvp(
        lambda a: ck(a, idx)[0], [_t()], [torch.ones(3, dtype=torch.float64)]
    )
    np.testing.assert_allclose(tangent.numpy(), np.cos(X)[[2, 0]])


def test_checkpoint_recomputes_and_leaves_no_grad():
    calls: list[int] = []
    x = _t().requires_grad_()

    def body(c):
        calls.append(1)
        return torch.sin(c) * c

    g = ivy_like.grad(lambda a: torch.sum(ivy_like.checkpoint(body)(a)))(x)
    np.testing.assert_allclose(g.detach().numpy(), np.cos(X) * X + np.sin(X))
    assert len(calls) == 2  # the forward pass, then again in the backward pass
    assert x.grad is None

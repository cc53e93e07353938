"""torch's fast paths of a gradient call keep the promises of the general ones.

* The top-level route calls autograd's engine directly instead of ``torch.autograd.grad``: a
  hook changing the value's gradient in place, a leaf the value does not use, a tensor
  subclass and an outer graph must give what ``torch.autograd.grad`` gives.
* ``nn.cross_entropy`` reads int64 labels (int64's minimum is the ignore index torch cannot
  turn off); under ``ivy_like.compile`` no value can be read, so it must not try.
"""

from __future__ import annotations

import numpy as np
import pytest

import ivy_like

torch = pytest.importorskip("torch")


def test_a_hook_changing_the_seed_in_place_does_not_leak_into_the_next_call():
    def loss(w):
        v = (w * w).sum()
        v.register_hook(lambda g: g.mul_(10.0))  # in place, on the seed of the backward pass
        return v

    w = torch.tensor([1.0, 2.0])
    first = ivy_like.grad(loss)(w)
    second = ivy_like.grad(loss)(w)
    torch.testing.assert_close(first, torch.tensor([20.0, 40.0]))
    torch.testing.assert_close(second, first)
    assert w.grad is None and not w.requires_grad


def test_unused_leaves_get_zero_gradients():
    p = {"w": torch.ones(2), "unused": torch.ones(3, dtype=torch.float64)}
    g = ivy_like.grad(lambda p: (p["w"] * 3.0).sum())(p)
    torch.testing.assert_close(g["w"], torch.full((2,), 3.0))
    assert g["unused"].dtype == torch.float64
    torch.testing.assert_close(g["unused"], torch.zeros(3, dtype=torch.float64))


class _Logged(torch.Tensor):
    """A tensor subclass with a __torch_function__ of its own (counts the calls it sees)."""

    calls: list[str] = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.calls.append(getattr(func, "__name__", str(func)))
        return super().__torch_function__(func, types, args, kwargs or {})


def test_tensor_subclasses_go_through_torch_autograd_grad():
    w = torch.tensor([1.0, 2.0]).as_subclass(_Logged)
    _Logged.calls.clear()
    g = ivy_like.grad(lambda w: (w * w).sum())(w)
    torch.testing.assert_close(g.as_subclass(torch.Tensor), torch.tensor([2.0, 4.0]))
    assert "grad" in _Logged.calls  # torch.autograd.grad's override hook saw the call


def test_an_outer_graph_still_gets_differentiable_gradients():
    # Gradient penalty: the inner gradient depends on a parameter the outer graph tracks.
    scale = torch.tensor(3.0, requires_grad=True)
    x = torch.tensor([1.0, 2.0])
    inner = ivy_like.grad(lambda x: (scale * x * x).sum())(x)  # 2 * scale * x
    assert inner.requires_grad
    (penalty,) = torch.autograd.grad(inner.sum(), scale)
    torch.testing.assert_close(penalty, torch.tensor(6.0))  # d/dscale of 2 scale (1 + 2)


def test_value_and_grad_gives_a_detached_value_and_leaves_inputs_alone():
    w = torch.tensor([1.0, -2.0])
    before = w.clone()
    value, g = ivy_like.value_and_grad(lambda w: (w**3).sum())(w)
    assert not value.requires_grad and value.grad_fn is None
    torch.testing.assert_close(value, torch.tensor(-7.0))
    torch.testing.assert_close(g, torch.tensor([3.0, 12.0]))
    torch.testing.assert_close(w, before)
    assert w.grad is None


# -- torch's cross-entropy under ivy_like.compile ----------------------------------------------
def test_compiled_torch_step_with_int64_labels():
    # The kernel's check of int64 labels reads a value; make_fx has none to give (it used to
    # make the compile fail with "uses the value of an array in Python control flow").
    model = ivy_like.nn.MLP([4, 8, 3], seed=0, backend="torch")
    opt = ivy_like.optimizers.adam(1e-2)
    x = torch.tensor(np.random.default_rng(0).standard_normal((6, 4)).astype(np.float32))
    y = torch.tensor([0, 1, 2, 0, 1, 2], dtype=torch.int64)

    def step(params, state, x, y):
        loss, grads = ivy_like.value_and_grad(
            lambda p: ivy_like.nn.cross_entropy(model.apply(p, x), y)
        )(params)
        params, state = opt.update(params, grads, state)
        return params, state, loss

    compiled = ivy_like.compile(step)
    eager_p, eager_s = model.params, opt.init(model.params)
    comp_p, comp_s = model.params, opt.init(model.params)
    for _ in range(3):
        eager_p, eager_s, eager_loss = step(eager_p, eager_s, x, y)
        comp_p, comp_s, comp_loss = compiled(comp_p, comp_s, x, y)
    torch.testing.assert_close(comp_loss, eager_loss, rtol=1e-5, atol=1e-6)
    for kc in eager_p.cont_flatten_key_chains():
        torch.testing.assert_close(comp_p[kc], eager_p[kc], rtol=1e-5, atol=1e-6)

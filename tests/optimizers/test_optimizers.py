"""``ivy_like.optimizers`` step by step against optax (and torch.optim), on every backend."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from _nn_ref import rand
from _reference import flat, make_grads, optax_history

import ivy_like
from ivy_like import optimizers
from ivy_like.testing import assert_backends_agree, assert_close

optax = pytest.importorskip("optax")
jnp = pytest.importorskip("jax.numpy")

AUTODIFF = [n for n in ivy_like.available_backends() if ivy_like.get_backend(n).has_autodiff]
NO_AUTODIFF = "numpy has no autodiff: ivy_like.value_and_grad raises NoAutodiffError"
STEP_TOL = {"rtol": 1e-5, "atol": 1e-6}


def no_bias(kc):
    return not kc.endswith("bias")


# name: (ours, optax reference)
CONFIGS = {
    "sgd": (lambda: optimizers.sgd(0.1), lambda: optax.sgd(0.1)),
    "momentum": (
        lambda: optimizers.momentum(0.05, beta=0.8),
        lambda: optax.sgd(0.05, momentum=0.8),
    ),
    "nesterov": (
        lambda: optimizers.momentum(0.05, beta=0.8, nesterov=True),
        lambda: optax.sgd(0.05, momentum=0.8, nesterov=True),
    ),
    "adam": (
        lambda: optimizers.adam(0.01, b1=0.8, b2=0.95, eps=1e-6),
        lambda: optax.adam(0.01, b1=0.8, b2=0.95, eps=1e-6),
    ),
    "adam_defaults": (lambda: optimizers.adam(), lambda: optax.adam(1e-3)),
    # a large eps makes "eps outside the square root" observable (inside, steps differ ~10%)
    "adam_large_eps": (
        lambda: optimizers.adam(0.05, eps=0.3),
        lambda: optax.adam(0.05, eps=0.3),
    ),
    "adamw": (
        lambda: optimizers.adamw(0.01, weight_decay=0.1),
        lambda: optax.adamw(0.01, weight_decay=0.1),
    ),
    "adamw_masked": (
        lambda: optimizers.adamw(0.02, weight_decay=0.3, mask=no_bias),
        lambda: optax.adamw(
            0.02,
            weight_decay=0.3,
            mask=lambda p: {k: {n: n != "bias" for n in v} for k, v in p.items()},
        ),
    ),
}


def initial():
    return {
        "layer": {"weight": rand(3, 4), "bias": rand(3, seed=1)},
        "out": {"weight": rand(2, 3, seed=2), "bias": rand(2, seed=3)},
    }


grads_for = make_grads(rand)


def run_optax(name, steps):
    return optax_history(CONFIGS[name][1](), initial(), grads_for, steps)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_steps_match_optax(backend, name):
    steps = 6
    expected = run_optax(name, steps)
    opt = CONFIGS[name][0]()
    params = ivy_like.Container(initial()).cont_to_backend(backend)
    state = opt.init(params)
    for t in range(steps):
        g = ivy_like.Container(grads_for(params.cont_to_numpy(), t)).cont_to_backend(backend)
        params, state = opt.update(params, g, state)
        assert isinstance(params, ivy_like.Container)
        for leaf in params.cont_flatten_key_chains().values():
            assert ivy_like.backend_of(leaf) is backend
        assert_close(flat(params), expected[t], **STEP_TOL, label=f"{name} step {t + 1}: ")


@pytest.mark.parametrize(
    "name, torch_opt",
    [
        ("momentum", lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.8)),
        ("nesterov", lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.8, nesterov=True)),
        ("adam", lambda p: torch.optim.Adam(p, lr=0.01, betas=(0.8, 0.95), eps=1e-6)),
        ("adamw", lambda p: torch.optim.AdamW(p, lr=0.01, weight_decay=0.1)),
    ],
)
def test_steps_match_torch_optim(name, torch_opt):
    # A second, independent reference, in float64 (our run stays float32 on numpy).
    steps = 5
    start = initial()
    leaves = {
        f"{k}/{n}": torch.tensor(v, dtype=torch.float64, requires_grad=True)
        for k, d in start.items()
        for n, v in d.items()
    }
    topt = torch_opt(list(leaves.values()))
    opt = CONFIGS[name][0]()
    params = ivy_like.Container(start)
    state = opt.init(params)
    for t in range(steps):
        current = {
            k: {n: leaves[f"{k}/{n}"].detach().numpy().astype(np.float32) for n in d}
            for k, d in start.items()
        }
        g = grads_for(current, t)
        for kc, leaf in leaves.items():
            k, n = kc.split("/")
            leaf.grad = torch.tensor(g[k][n], dtype=torch.float64)
        topt.step()
        params, state = opt.update(params, ivy_like.Container(grads_for(params, t)), state)
        want = {kc: v.detach().numpy().astype(np.float32) for kc, v in leaves.items()}
        assert_close(flat(params), want, rtol=1e-5, atol=1e-6, label=f"step {t + 1}: ")


def test_sgd_and_adam_by_hand():
    # Values worked out by hand: the rules as written in the module docstring.
    p = ivy_like.Container(w=np.array([1.0, -2.0], np.float32))
    g = ivy_like.Container(w=np.array([0.5, 4.0], np.float32))
    opt = optimizers.sgd(0.1)
    p1, _ = opt.update(p, g, opt.init(p))
    np.testing.assert_allclose(p1["w"], [0.95, -2.4], rtol=1e-6)
    # Adam, first step: m̂ = g, v̂ = g², so the step is lr * g / (|g| + eps) = lr * sign(g)
    opt = optimizers.adam(0.1, eps=0.0)
    p1, state = opt.update(p, g, opt.init(p))
    np.testing.assert_allclose(p1["w"], [0.9, -2.1], rtol=1e-6)
    assert state["count"] == 1
    np.testing.assert_allclose(state["mu"]["w"], 0.1 * g["w"], rtol=1e-6)
    np.testing.assert_allclose(state["nu"]["w"], 0.001 * g["w"] ** 2, rtol=1e-6)


# -- with value_and_grad, on every autodiff backend ----------------------------------------------
@pytest.mark.ivy_like_xfail("numpy", reason=NO_AUTODIFF)
@pytest.mark.parametrize("name", ["sgd", "momentum", "adam", "adamw_masked"])
def test_training_with_value_and_grad(backend, name):
    model = ivy_like.nn.MLP([3, 8, 1], seed=0)
    x = rand(32, 3)
    y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32)).astype(np.float32)
    xb, yb = backend.asarray(x), backend.asarray(y)

    def loss(params):
        return ivy_like.nn.mse_loss(model.apply(params, xb), yb)

    opt = CONFIGS[name][0]()
    vg = ivy_like.value_and_grad(loss)
    params, state = model.params, opt.init(model.params)
    losses = []
    for _ in range(40):
        value, grads = vg(params)
        params, state = opt.update(params, grads, state)
        losses.append(float(ivy_like.to_numpy(value)))
    assert losses[-1] < 0.5 * losses[0]
    # the model's own parameters were not modified in place
    assert_close(model.params, ivy_like.nn.MLP([3, 8, 1], seed=0, backend=backend).params)


def test_training_trajectories_agree_across_backends():
    x, y = rand(16, 3), rand(16, 2, seed=1)

    def train(x, y):
        model = ivy_like.nn.MLP([3, 4, 2], seed=0)

        def loss(params):
            return ivy_like.nn.mse_loss(model.apply(params, x), y)

        opt = optimizers.adamw(0.05)
        params, state = model.params, opt.init(model.params)
        for _ in range(5):
            grads = ivy_like.grad(loss)(params)
            params, state = opt.update(params, grads, state)
        return params

    assert_backends_agree(train, x, y, backends=AUTODIFF, rtol=1e-4, atol=1e-6)


def test_update_under_jax_jit():
    import jax

    opt = optimizers.adam(0.01)
    params = ivy_like.Container(initial()).cont_to_backend("jax")
    state = opt.init(params)
    update = jax.jit(opt.update)
    eager_p, eager_s = params, state
    for t in range(3):
        g = ivy_like.Container(grads_for(params.cont_to_numpy(), t)).cont_to_backend("jax")
        params, state = update(params, g, state)
        eager_p, eager_s = opt.update(eager_p, g, eager_s)
    assert_close(flat(params), flat(eager_p), **STEP_TOL)  # XLA fuses: a few ulp
    assert int(state["count"]) == 3


def test_plain_dicts_lists_and_single_arrays():
    opt = optimizers.momentum(0.1, beta=0.5)
    params = [np.ones(2, np.float32), {"a": np.zeros(1, np.float32)}]
    grads = [np.ones(2, np.float32), {"a": np.ones(1, np.float32)}]
    state = opt.init(params)
    new, state = opt.update(params, grads, state)
    assert isinstance(new, list) and isinstance(new[1], dict)
    np.testing.assert_allclose(new[0], [0.9, 0.9])
    np.testing.assert_allclose(new[1]["a"], [-0.1])
    opt = optimizers.sgd(0.5)
    new, _ = opt.update(np.ones(3, np.float32), np.ones(3, np.float32), opt.init(None))
    np.testing.assert_allclose(new, [0.5, 0.5, 0.5])


# -- errors --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "make, exc, message",
    [
        (lambda: optimizers.sgd(0), ValueError, r"sgd: lr must be a positive number, got 0"),
        (lambda: optimizers.sgd(-1.0), ValueError, r"sgd: lr must be a positive number"),
        (lambda: optimizers.sgd("0.1"), ValueError, r"sgd: lr must be a positive number"),
        (lambda: optimizers.momentum(0.1, beta=1.0), ValueError, r"momentum: beta must be in"),
        (lambda: optimizers.momentum(0.1, beta=-0.1), ValueError, r"momentum: beta must be in"),
        (lambda: optimizers.adam(0.1, b1=1.0), ValueError, r"adam: b1 must be in \[0, 1\)"),
        (lambda: optimizers.adam(0.1, b2=1.5), ValueError, r"adam: b2 must be in \[0, 1\)"),
        (lambda: optimizers.adam(0.1, eps=-1e-8), ValueError, r"adam: eps must be"),
        (lambda: optimizers.adamw(0.1, weight_decay=-0.1), ValueError, r"adamw: weight_decay"),
        (lambda: optimizers.adamw(0.1, mask="bias"), TypeError, r"adamw: mask must be a call"),
    ],
)
def test_bad_hyperparameters(make, exc, message):
    with pytest.raises(exc, match=message):
        make()


def test_mismatched_structures_name_the_key_chain():
    opt = optimizers.adam(0.1)
    params = ivy_like.Container(a={"w": np.ones(2, np.float32), "b": np.ones(1, np.float32)})
    state = opt.init(params)
    grads = ivy_like.Container(a={"w": np.ones(2, np.float32)})
    with pytest.raises(ValueError, match=r"differ in structure at 'a'"):
        opt.update(params, grads, state)
    grads = ivy_like.Container(a={"w": np.ones(3, np.float32), "b": np.ones(1, np.float32)})
    with pytest.raises(ValueError, match=r"'a/w'.*shape"):
        opt.update(params, grads, state)

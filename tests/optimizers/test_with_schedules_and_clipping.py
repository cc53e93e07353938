"""Optimizers with schedules and clipping (``rmsprop``, ``adagrad``, ``lion``;
``constant_schedule`` ... ``warmup_cosine_decay_schedule``; ``clip_by_global_norm``,
``clip_by_value``) step by step against optax 0.2.8 on every backend, against torch.optim where
the docstrings claim torch's numbers, compiled with ``ivy_like.compile``, and their errors."""

from __future__ import annotations

import numpy as np
import pytest
from _reference import flat, make_grads, optax_history

import ivy_like
from ivy_like import optimizers as O
from ivy_like.testing import assert_close

try:
    import jax.numpy as jnp
    import optax
except ModuleNotFoundError:  # the MXNet environment: the tests against numpy still run
    optax = jnp = None
needs_optax = pytest.mark.skipif(optax is None, reason="optax, the reference, is not installed")

STEP_TOL = {"rtol": 1e-5, "atol": 1e-6}  # float32, six steps, different kernels: a few ulp
SCHEDULE_TOL = {"rtol": 2e-6, "atol": 1e-9}
AUTODIFF = [n for n in ivy_like.available_backends() if ivy_like.get_backend(n).has_autodiff]
NO_AUTODIFF = "numpy has no autodiff: ivy_like.value_and_grad raises NoAutodiffError"


def rand(*shape, seed=0):
    return np.random.default_rng(2400 + seed).standard_normal(shape).astype(np.float32)


def no_bias(kc):
    return not kc.endswith("bias")


def optax_no_bias(params):
    return {k: {n: n != "bias" for n in v} for k, v in params.items()}


# name: (ours, optax's); each a factory
CONFIGS = {
    "rmsprop": (lambda: O.rmsprop(0.01), lambda: optax.rmsprop(0.01)),
    "rmsprop_eps_outside": (
        lambda: O.rmsprop(0.02, decay=0.95, eps=0.1, initial_scale=0.2, eps_in_sqrt=False),
        lambda: optax.rmsprop(0.02, decay=0.95, eps=0.1, initial_scale=0.2, eps_in_sqrt=False),
    ),
    "rmsprop_centered": (
        lambda: O.rmsprop(0.01, centered=True, eps=1e-3),
        lambda: optax.rmsprop(0.01, centered=True, eps=1e-3),
    ),
    "rmsprop_momentum": (
        lambda: O.rmsprop(0.01, momentum=0.8),
        lambda: optax.rmsprop(0.01, momentum=0.8),
    ),
    "rmsprop_nesterov_scheduled": (  # momentum after the (scheduled) learning rate, as optax
        lambda: O.rmsprop(O.exponential_decay(0.02, 2, 0.5), momentum=0.8, nesterov=True),
        lambda: optax.rmsprop(optax.exponential_decay(0.02, 2, 0.5), momentum=0.8, nesterov=True),
    ),
    "adagrad": (lambda: O.adagrad(0.1), lambda: optax.adagrad(0.1)),
    "adagrad_from_zero": (
        lambda: O.adagrad(0.1, initial_accumulator_value=0.0, eps=0.0),
        lambda: optax.adagrad(0.1, initial_accumulator_value=0.0, eps=0.0),
    ),
    "lion": (lambda: O.lion(1e-3), lambda: optax.lion(1e-3)),
    "lion_masked": (
        lambda: O.lion(0.01, b1=0.8, b2=0.9, weight_decay=0.5, mask=no_bias),
        lambda: optax.lion(0.01, b1=0.8, b2=0.9, weight_decay=0.5, mask=optax_no_bias),
    ),
    "lion_joined": (
        lambda: O.lion(
            O.join_schedules([O.constant_schedule(0.01), O.linear_schedule(0.01, 0.0, 4)], [2])
        ),
        lambda: optax.lion(
            optax.join_schedules(
                [optax.constant_schedule(0.01), optax.linear_schedule(0.01, 0.0, 4)], [2]
            )
        ),
    ),
    # schedules on the optimizers that were there before
    "sgd_exponential": (
        lambda: O.sgd(O.exponential_decay(0.1, 2, 0.5, transition_begin=1, staircase=True)),
        lambda: optax.sgd(optax.exponential_decay(0.1, 2, 0.5, transition_begin=1, staircase=True)),
    ),
    "momentum_cosine": (
        lambda: O.momentum(O.cosine_decay_schedule(0.05, 5, alpha=0.1), beta=0.8),
        lambda: optax.sgd(optax.cosine_decay_schedule(0.05, 5, alpha=0.1), momentum=0.8),
    ),
    "adam_warmup_cosine": (
        lambda: O.adam(O.warmup_cosine_decay_schedule(0.0, 0.05, 2, 6, end_value=0.005)),
        lambda: optax.adam(optax.warmup_cosine_decay_schedule(0.0, 0.05, 2, 6, end_value=0.005)),
    ),
    "adamw_linear_masked": (  # the decay follows the scheduled rate
        lambda: O.adamw(O.linear_schedule(0.05, 0.01, 4), weight_decay=0.3, mask=no_bias),
        lambda: optax.adamw(
            optax.linear_schedule(0.05, 0.01, 4), weight_decay=0.3, mask=optax_no_bias
        ),
    ),
    # clipping, applied to the gradients before the optimizer (optax.chain(clip, opt))
    "adam_clip_global_norm": (
        lambda: O.adam(0.05, clip=O.clip_by_global_norm(1.0)),
        lambda: optax.chain(optax.clip_by_global_norm(1.0), optax.adam(0.05)),
    ),
    "sgd_clip_global_norm_inactive": (
        lambda: O.sgd(0.1, clip=O.clip_by_global_norm(100.0)),
        lambda: optax.chain(optax.clip_by_global_norm(100.0), optax.sgd(0.1)),
    ),
    "momentum_clip_value": (
        lambda: O.momentum(0.1, beta=0.5, clip=O.clip_by_value(0.3)),
        lambda: optax.chain(optax.clip(0.3), optax.sgd(0.1, momentum=0.5)),
    ),
    "rmsprop_clip_and_schedule": (
        lambda: O.rmsprop(O.linear_schedule(0.0, 0.02, 3), clip=O.clip_by_global_norm(2.0)),
        lambda: optax.chain(
            optax.clip_by_global_norm(2.0), optax.rmsprop(optax.linear_schedule(0.0, 0.02, 3))
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


def run_ours(name, backend, steps):
    opt = CONFIGS[name][0]()
    params = ivy_like.Container(initial()).cont_to_backend(backend)
    state = opt.init(params)
    history = []
    for t in range(steps):
        g = ivy_like.Container(grads_for(params.cont_to_numpy(), t)).cont_to_backend(backend)
        params, state = opt.update(params, g, state)
        history.append(flat(params))
    return history


@needs_optax
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


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_steps_agree_with_numpy(backend, name):
    # The numpy backend is checked against optax above; this runs where optax is not
    # installed (the MXNet environment).
    numpy = ivy_like.get_backend("numpy")
    with ivy_like.use_backend(numpy):
        expected = run_ours(name, numpy, 6)
    for t, got in enumerate(run_ours(name, backend, 6)):
        assert_close(got, expected[t], **STEP_TOL, label=f"{name} step {t + 1}: ")


def test_clipping_acts_in_these_tests():
    # the global-norm cases above clip (norm above 1 and 2) or not (below 100)
    norm = np.sqrt(sum(np.sum(v * v) for v in flat(grads_for(initial(), 0)).values()))
    assert 2.0 < norm < 100.0, norm


# -- schedules alone -----------------------------------------------------------------------------
SCHEDULES = {
    "constant": (lambda m: m.constant_schedule(0.3),),
    "linear": (lambda m: m.linear_schedule(1.0, 0.1, 7, transition_begin=2),),
    "linear_no_steps": (lambda m: m.linear_schedule(1.0, 0.1, 0),),
    "exponential": (lambda m: m.exponential_decay(0.1, 3, 0.7),),
    "exponential_staircase_bounded": (
        lambda m: m.exponential_decay(
            0.1, 2, 0.5, transition_begin=3, staircase=True, end_value=0.02
        ),
    ),
    "exponential_growth_bounded": (lambda m: m.exponential_decay(0.1, 2, 1.5, end_value=0.3),),
    "cosine": (lambda m: m.cosine_decay_schedule(0.2, 9),),
    "cosine_alpha_exponent": (lambda m: m.cosine_decay_schedule(0.2, 9, alpha=0.25, exponent=2.0),),
    "warmup_cosine": (lambda m: m.warmup_cosine_decay_schedule(0.01, 0.5, 3, 12, end_value=0.05),),
    "join": (
        lambda m: m.join_schedules(
            [
                m.linear_schedule(0.0, 1.0, 4),
                m.constant_schedule(1.0),
                m.cosine_decay_schedule(1.0, 5),
            ],
            [4, 8],
        ),
    ),
}
COUNTS = list(range(16))


@needs_optax
@pytest.mark.parametrize("name", sorted(SCHEDULES))
def test_schedules_match_optax(backend, name):
    ours, theirs = SCHEDULES[name][0](O), SCHEDULES[name][0](optax)
    expected = np.array([float(theirs(jnp.asarray(t, jnp.int32))) for t in COUNTS], np.float32)
    # a Python int gives a float
    by_int = [ours(t) for t in COUNTS]
    assert all(isinstance(v, float) for v in by_int)
    assert_close(np.array(by_int, np.float32), expected, **SCHEDULE_TOL)
    # an int32 count array (as in an optimizer's state) gives a scalar array of its backend
    count = backend.asarray(np.array(0, np.int32))
    got = []
    for t in COUNTS:
        value = ours(backend.add(count, t))
        if not isinstance(value, float):  # constant_schedule returns its number, as optax's
            assert ivy_like.backend_of(value) is backend
        got.append(float(ivy_like.to_numpy(value)))
    assert_close(np.array(got, np.float32), expected, **SCHEDULE_TOL)


@pytest.mark.parametrize("name", sorted(SCHEDULES))
def test_schedules_of_arrays_agree_with_python_ints(backend, name):
    schedule = SCHEDULES[name][0](O)
    count = backend.asarray(np.array(0, np.int32))
    got = [float(ivy_like.to_numpy(schedule(backend.add(count, t)))) for t in COUNTS]
    assert_close(np.array(got, np.float32), np.array([schedule(t) for t in COUNTS], np.float32))


def test_schedule_of_an_array_count_keeps_the_array_type():
    count = ivy_like.array(np.array(3, np.int32))  # an Array, as when parameters are Arrays
    value = O.cosine_decay_schedule(1.0, 10)(count)
    assert isinstance(value, ivy_like.Array) and value.dtype == ivy_like.float32


# -- state: the count where a schedule needs it, as an int32 array --------------------------------
@pytest.mark.parametrize(
    "make, keys",
    [
        (lambda lr: O.sgd(lr), set()),
        (lambda lr: O.momentum(lr), {"velocity"}),
        (lambda lr: O.rmsprop(lr, centered=True, momentum=0.5), {"nu", "mu", "velocity"}),
        (lambda lr: O.adagrad(lr), {"sum_of_squares"}),
        (lambda lr: O.lion(lr), {"mu"}),
        (lambda lr: O.adam(lr), {"count", "mu", "nu"}),
    ],
)
def test_state_holds_an_int32_count_with_a_schedule(backend, make, keys):
    params = ivy_like.Container(initial()).cont_to_backend(backend)
    grads = ivy_like.Container(grads_for(initial(), 0)).cont_to_backend(backend)
    assert set(make(0.1).init(params)) == keys
    opt = make(O.exponential_decay(0.1, 1, 0.5))
    state = opt.init(params)
    assert set(state) == keys | {"count"}
    for _ in range(3):
        params, state = opt.update(params, grads, state)
    count = state["count"]
    assert ivy_like.backend_of(count) is backend
    assert str(ivy_like.as_dtype(count.dtype)) == "int32"
    assert int(ivy_like.to_numpy(count)) == 3


def test_plain_trees_and_arrays_with_clipping():
    # dicts, lists and single arrays, as the other optimizers take them
    opt = O.lion(0.1, weight_decay=0.0, clip=O.clip_by_value(1.0))
    params = [np.ones(2, np.float32), {"a": np.zeros(1, np.float32)}]
    grads = [np.array([3.0, -0.5], np.float32), {"a": np.array([-2.0], np.float32)}]
    new, state = opt.update(params, grads, opt.init(params))
    assert isinstance(new, list) and isinstance(new[1], dict)
    np.testing.assert_allclose(new[0], [0.9, 1.1])
    np.testing.assert_allclose(new[1]["a"], [0.1])
    clip = O.clip_by_global_norm(5.0)
    np.testing.assert_allclose(clip(np.array([30.0, 40.0], np.float32)), [3.0, 4.0], rtol=1e-6)
    assert clip({}) == {}


def test_global_norm_of_mixed_dtypes_is_summed_in_float64():
    clip = O.clip_by_global_norm(1.0)
    grads = {"a": np.array([3.0], np.float64), "b": np.array([4.0], np.float32)}
    out = clip(grads)
    assert out["a"].dtype == np.float64 and out["b"].dtype == np.float32
    np.testing.assert_allclose(out["a"], [0.6])
    np.testing.assert_allclose(out["b"], [0.8], rtol=1e-6)


# -- torch's numbers, where the docstrings say how to get them -----------------------------------
@pytest.mark.parametrize(
    "name, ours, theirs",
    [
        ("rmsprop", lambda: O.rmsprop(0.01, decay=0.99, eps_in_sqrt=False), dict(lr=0.01)),
        (
            "rmsprop_centered_momentum",
            lambda: O.rmsprop(0.01, decay=0.99, eps_in_sqrt=False, centered=True, momentum=0.9),
            dict(lr=0.01, centered=True, momentum=0.9),
        ),
        (
            "adagrad",
            lambda: O.adagrad(0.1, initial_accumulator_value=0.0, eps=0.0),
            dict(lr=0.1),
        ),
    ],
)
def test_steps_match_torch_optim(name, ours, theirs):
    torch = pytest.importorskip("torch")
    optimizer = {"rmsprop": torch.optim.RMSprop, "adagrad": torch.optim.Adagrad}[name.split("_")[0]]
    start = initial()
    leaves = {
        f"{k}/{n}": torch.tensor(v, dtype=torch.float64, requires_grad=True)
        for k, d in start.items()
        for n, v in d.items()
    }
    topt = optimizer(list(leaves.values()), **theirs)
    opt = ours()
    params = ivy_like.Container(start)
    state = opt.init(params)
    for t in range(5):
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


# -- compiled: one step with a schedule and clipping, traced once ---------------------------------
COMPILERS = [n for n in ("jax", "torch", "tensorflow", "mlx") if n in ivy_like.available_backends()]


@pytest.mark.parametrize("name", COMPILERS)
@pytest.mark.parametrize(
    "make",
    [
        lambda: O.adam(
            O.warmup_cosine_decay_schedule(0.0, 0.05, 2, 6), clip=O.clip_by_global_norm(1.0)
        ),
        lambda: O.rmsprop(O.exponential_decay(0.02, 2, 0.5), momentum=0.5),
        lambda: O.lion(O.linear_schedule(0.01, 0.001, 4), clip=O.clip_by_value(0.5)),
    ],
    ids=["adam", "rmsprop", "lion"],
)
def test_compiled_step_with_a_schedule_traces_once(name, make):
    b = ivy_like.get_backend(name)
    opt, traces = make(), [0]

    def step(params, grads, state):
        traces[0] += 1
        return opt.update(params, grads, state)

    params = ivy_like.Container(initial()).cont_to_backend(b)
    state = opt.init(params)
    eager_params, eager_state = params, state
    compiled = ivy_like.compile(step)
    for t in range(5):
        g = ivy_like.Container(grads_for(initial(), t)).cont_to_backend(b)
        params, state = compiled(params, g, state)
        eager_params, eager_state = opt.update(eager_params, g, eager_state)
    assert traces[0] == 1, f"{traces[0]} traces for 5 steps"
    assert_close(flat(params), flat(eager_params), **STEP_TOL)
    assert int(ivy_like.to_numpy(state["count"])) == 5


# -- training with value_and_grad ---------------------------------------------------------------
@pytest.mark.ivy_like_xfail("numpy", reason=NO_AUTODIFF)
@pytest.mark.parametrize(
    "make",
    [
        lambda: O.rmsprop(0.01),
        lambda: O.adagrad(0.3),
        lambda: O.lion(O.cosine_decay_schedule(0.02, 40)),
        lambda: O.sgd(0.05, clip=O.clip_by_global_norm(1.0)),
    ],
    ids=["rmsprop", "adagrad", "lion_cosine", "sgd_clipped"],
)
def test_training_with_value_and_grad(backend, make):
    model = ivy_like.nn.MLP([3, 8, 1], seed=0)
    x = rand(32, 3)
    y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32)).astype(np.float32)
    xb, yb = backend.asarray(x), backend.asarray(y)

    def loss(params):
        return ivy_like.nn.mse_loss(model.apply(params, xb), yb)

    opt = make()
    vg = ivy_like.value_and_grad(loss)
    params, state = model.params, opt.init(model.params)
    losses = []
    for _ in range(40):
        value, grads = vg(params)
        params, state = opt.update(params, grads, state)
        losses.append(float(ivy_like.to_numpy(value)))
    assert losses[-1] < 0.5 * losses[0], losses


# -- errors --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "make, exc, message",
    [
        (
            lambda: O.rmsprop(0),
            ValueError,
            r"^rmsprop: lr must be a positive number, got 0 \(or a schedule",
        ),
        (lambda: O.rmsprop(0.1, decay=1.0), ValueError, r"^rmsprop: decay must be in \[0, 1\)"),
        (lambda: O.rmsprop(0.1, eps=-1.0), ValueError, r"^rmsprop: eps must be a non-negative"),
        (lambda: O.rmsprop(0.1, momentum=1.5), ValueError, r"^rmsprop: momentum must be in"),
        (lambda: O.rmsprop(0.1, initial_scale=-1), ValueError, r"^rmsprop: initial_scale must"),
        (lambda: O.adagrad("fast"), ValueError, r"^adagrad: lr must be a positive number"),
        (
            lambda: O.adagrad(0.1, initial_accumulator_value=-0.1),
            ValueError,
            r"^adagrad: initial_accumulator_value must be a non-negative number",
        ),
        (lambda: O.lion(0.1, b2=1.0), ValueError, r"^lion: b2 must be in \[0, 1\)"),
        (lambda: O.lion(0.1, weight_decay=-1), ValueError, r"^lion: weight_decay must be"),
        (lambda: O.lion(0.1, mask="bias"), TypeError, r"^lion: mask must be a callable"),
        (lambda: O.adam(0.1, clip=1.0), TypeError, r"^adam: clip must be a function of the grad"),
        (lambda: O.sgd(0.1, clip="norm"), TypeError, r"^sgd: clip must be a function"),
        (
            lambda: O.clip_by_global_norm(0),
            ValueError,
            r"^clip_by_global_norm: max_norm must be a positive number, got 0$",
        ),
        (
            lambda: O.clip_by_value(-1.0),
            ValueError,
            r"^clip_by_value: max_delta must be a positive",
        ),
        (
            lambda: O.cosine_decay_schedule(0.1, 0),
            ValueError,
            r"^cosine_decay_schedule: decay_steps must be a positive int, got 0$",
        ),
        (
            lambda: O.join_schedules([O.constant_schedule(1.0)], [3]),
            ValueError,
            r"^join_schedules: expected one boundary fewer than schedules, got 1 schedules and 1",
        ),
    ],
)
def test_bad_arguments(make, exc, message):
    with pytest.raises(exc, match=message):
        make()


@pytest.mark.parametrize("make", [O.rmsprop, O.adagrad, O.lion])
def test_mismatched_gradients_name_the_key_chain(make):
    opt = make(0.1)
    params = ivy_like.Container(a={"w": np.ones(2, np.float32), "b": np.ones(1, np.float32)})
    state = opt.init(params)
    with pytest.raises(ValueError, match=r"differ in structure at 'a'"):
        opt.update(params, ivy_like.Container(a={"w": np.ones(2, np.float32)}), state)
    bad = ivy_like.Container(a={"w": np.ones(3, np.float32), "b": np.ones(1, np.float32)})
    with pytest.raises(ValueError, match=r"'a/w'.*shape"):
        opt.update(params, bad, state)

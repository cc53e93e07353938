"""``optimizers.adam`` / ``adamw`` on torch through the multi-tensor update
(the torch backend's ``fused_adam_update`` hook, ``torch._foreach_*``): the same numbers as the
composite path (bit for bit on CPU) and as a NumPy float64 reference over several steps,
inputs never changed, and the composite wherever the hook declines (autograd recording,
``torch.func`` transforms, mixed dtypes, ``Array`` leaves)."""

from __future__ import annotations

import numpy as np
import pytest

import ivy_like
from ivy_like import optimizers as O
from ivy_like.testing import assert_close

torch = pytest.importorskip("torch")

STEPS = 5
SHAPES = {"l0/weight": (5, 4), "l0/bias": (4,), "l1/weight": (4, 3), "l1/bias": (3,)}
NUMPY_TOL = {"rtol": 2e-5, "atol": 1e-6}  # float32 against float64, five steps


def no_bias(kc: str) -> bool:
    return not kc.endswith("bias")


# name: (optimizer, NumPy reference settings: lr(count), b1, b2, eps, weight_decay, mask)
CASES = {
    "adam": (lambda: O.adam(1e-2), (lambda t: 1e-2, 0.9, 0.999, 1e-8, 0.0, None)),
    "adam-betas": (
        lambda: O.adam(3e-2, b1=0.5, b2=0.9, eps=1e-6),
        (lambda t: 3e-2, 0.5, 0.9, 1e-6, 0.0, None),
    ),
    "adamw-mask": (
        lambda: O.adamw(1e-2, weight_decay=0.1, mask=no_bias),
        (lambda t: 1e-2, 0.9, 0.999, 1e-8, 0.1, no_bias),
    ),
    "adamw-schedule": (
        lambda: O.adamw(O.linear_schedule(0.0, 0.05, 3), weight_decay=0.2),
        (lambda t: 0.05 * min(t, 3) / 3, 0.9, 0.999, 1e-8, 0.2, None),
    ),
}


def _numpy(seed: int, dtype: type = np.float32) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {kc: rng.standard_normal(shape).astype(dtype) for kc, shape in SHAPES.items()}


def _tree(flat: dict[str, np.ndarray], convert=torch.from_numpy) -> ivy_like.Container:
    return ivy_like.Container.cont_unflatten({kc: convert(a.copy()) for kc, a in flat.items()})


def _flat(tree: ivy_like.Container) -> dict[str, torch.Tensor]:
    return dict(tree.cont_flatten_key_chains())


def _run(make, params, grads_per_step):
    opt = make()
    state = opt.init(params)
    for grads in grads_per_step:
        params, state = opt.update(params, grads, state)
    return params, state


def _reference(settings, params, grads_per_step):
    """Adam(W) in float64 from the documented rule."""
    lr, b1, b2, eps, wd, mask = settings
    p = {kc: a.astype(np.float64) for kc, a in params.items()}
    m = {kc: np.zeros_like(a) for kc, a in p.items()}
    v = {kc: np.zeros_like(a) for kc, a in p.items()}
    for t, grads in enumerate(grads_per_step, start=1):
        rate = lr(t - 1)  # the rate at the count before the update, as optax
        for kc in p:
            g = grads[kc].astype(np.float64)
            m[kc] = b1 * m[kc] + (1 - b1) * g
            v[kc] = b2 * v[kc] + (1 - b2) * g * g
            update = (m[kc] / (1 - b1**t)) / (np.sqrt(v[kc] / (1 - b2**t)) + eps)
            if wd and (mask is None or mask(kc)):
                update = update + wd * p[kc]
            p[kc] = p[kc] - rate * update
    return p


@pytest.fixture
def calls(monkeypatch):
    """Counts the calls of torch's multi-tensor Adam update and how many it accepted."""
    hooks = ivy_like.get_backend("torch").__dict__
    hook = hooks.get("fused_adam_update")
    assert hook is not None
    seen = {"called": 0, "fused": 0}

    def spy(*args):
        seen["called"] += 1
        out = hook(*args)
        seen["fused"] += out is not None
        return out

    monkeypatch.setitem(hooks, "fused_adam_update", spy)
    return seen


def _composite(monkeypatch):
    monkeypatch.delitem(ivy_like.get_backend("torch").__dict__, "fused_adam_update")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", list(CASES))
def test_fused_equals_composite_and_numpy(case, dtype, calls, monkeypatch):
    make, settings = CASES[case]
    params_np = _numpy(0, dtype)
    grads_np = [_numpy(10 + i, dtype) for i in range(STEPS)]
    grads = [_tree(g) for g in grads_np]
    with ivy_like.use_backend("torch"):
        fused, fused_state = _run(make, _tree(params_np), grads)
        assert calls["fused"] == STEPS
        _composite(monkeypatch)
        plain, plain_state = _run(make, _tree(params_np), grads)
    assert type(fused) is ivy_like.Container and type(fused_state) is ivy_like.Container
    assert sorted(fused_state) == sorted(plain_state) == ["count", "mu", "nu"]
    assert int(fused_state["count"]) == STEPS and fused_state["count"].dtype == torch.int32
    for name in ("mu", "nu"):
        for kc, value in _flat(fused_state[name]).items():
            assert torch.equal(value, _flat(plain_state[name])[kc]), (name, kc)
    reference = _reference(settings, params_np, grads_np)
    tol = NUMPY_TOL
    if dtype == np.float64:  # schedules are evaluated in float32 (documented), rates exact
        tol = {"rtol": 1e-6, "atol": 1e-9} if "schedule" in case else {"rtol": 1e-12, "atol": 0}
    for kc, value in _flat(fused).items():
        assert value.dtype == torch.from_numpy(params_np[kc]).dtype
        assert torch.equal(value, _flat(plain)[kc]), kc  # the composite's ops, bit for bit
        assert_close(value.numpy(), reference[kc].astype(dtype), **tol)


@pytest.mark.parametrize("case", ["adam", "adamw-mask"])
def test_inputs_never_mutated(case, calls):
    make, _ = CASES[case]
    params = _tree(_numpy(0))
    grads = _tree(_numpy(1))
    with ivy_like.use_backend("torch"):
        opt = make()
        state = opt.init(params)
        _, state = opt.update(params, grads, state)  # non-zero moments
        before = {
            name: {kc: t.clone() for kc, t in _flat(tree).items()}
            for name, tree in [("params", params), ("grads", grads)]
            + [(k, state[k]) for k in ("mu", "nu")]
        }
        count = state["count"].clone()
        new, new_state = opt.update(params, grads, state)
    assert calls["fused"] == 2
    for name, tree in [("params", params), ("grads", grads)] + [
        (k, state[k]) for k in ("mu", "nu")
    ]:
        for kc, t in _flat(tree).items():
            assert torch.equal(t, before[name][kc]), (name, kc)
    assert torch.equal(state["count"], count)
    olds = [t.data_ptr() for t in _flat(params).values()]
    olds += [t.data_ptr() for k in ("mu", "nu") for t in _flat(state[k]).values()]
    for tree in (new, new_state["mu"], new_state["nu"]):
        for t in _flat(tree).values():
            assert t.data_ptr() not in olds  # new tensors, not the inputs written over


def test_dicts_lists_and_empty_subtrees_keep_their_structure(calls, monkeypatch):
    rng = np.random.default_rng(3)
    make = lambda a: {"a": [torch.from_numpy(a[0]), ()], "b": {}, "c": (torch.from_numpy(a[1]),)}  # noqa: E731
    p_np = [
        rng.standard_normal((3,)).astype(np.float32),
        rng.standard_normal((2, 2)).astype(np.float32),
    ]
    g_np = [
        rng.standard_normal((3,)).astype(np.float32),
        rng.standard_normal((2, 2)).astype(np.float32),
    ]
    with ivy_like.use_backend("torch"):
        fused, state = _run(lambda: O.adam(0.1), make(p_np), [make(g_np)] * 2)
        assert calls["fused"] == 2
        _composite(monkeypatch)
        plain, _ = _run(lambda: O.adam(0.1), make(p_np), [make(g_np)] * 2)
    assert type(fused) is dict and type(fused["a"]) is list and type(fused["c"]) is tuple
    assert fused["a"][1] == () and fused["b"] == {} and state["mu"]["b"] == {}
    assert torch.equal(fused["a"][0], plain["a"][0]) and torch.equal(fused["c"][0], plain["c"][0])


def test_declines_where_foreach_does_not_fit(calls, monkeypatch):
    """Mixed dtypes, ``Array`` leaves, autograd recording through the parameters and
    torch.func transforms take the composite, with its numbers and gradients."""
    p_np, g_np = _numpy(0), _numpy(1)
    with ivy_like.use_backend("torch"):
        opt = O.adam(0.1)
        # mixed dtypes: the hook is asked and declines
        mixed = _tree(p_np)
        mixed["l1"]["bias"] = mixed["l1"]["bias"].double()
        mixed_g = _tree(g_np)
        mixed_g["l1"]["bias"] = mixed_g["l1"]["bias"].double()
        new, _ = opt.update(mixed, mixed_g, opt.init(mixed))
        assert new["l1"]["bias"].dtype == torch.float64
        assert (calls["called"], calls["fused"]) == (1, 0)
        # Array leaves never reach the hook
        arrays = _tree(p_np, lambda a: ivy_like.asarray(torch.from_numpy(a)))
        array_grads = _tree(g_np, lambda a: ivy_like.asarray(torch.from_numpy(a)))
        new, _ = opt.update(arrays, array_grads, opt.init(arrays))
        assert isinstance(new["l0"]["weight"], ivy_like.Array) and calls["called"] == 1

        # autograd through the update (meta-learning style): the composite records the graph
        def through_autograd():
            params = _tree(p_np, lambda a: torch.from_numpy(a).requires_grad_())
            new, _ = opt.update(params, _tree(g_np), opt.init(params))
            total = sum(t.sum() for t in _flat(new).values())
            return torch.autograd.grad(total, list(_flat(params).values()))

        recorded = through_autograd()
        assert calls["fused"] == 0 and calls["called"] == 2

        # torch.func.grad of the updated parameters with respect to the gradients
        def updated_sum(grads):
            params = _tree(p_np)
            new, _ = opt.update(params, grads, opt.init(params))
            return sum(t.sum() for t in _flat(new).values())

        transformed = torch.func.grad(updated_sum)(_tree(g_np))
        assert calls["fused"] == 0 and calls["called"] == 3

        _composite(monkeypatch)
        expected = through_autograd()
        expected_transformed = torch.func.grad(updated_sum)(_tree(g_np))
    for got, want in zip(recorded, expected):
        assert torch.equal(got, want)
    for kc, got in _flat(transformed).items():
        assert torch.equal(got, _flat(expected_transformed)[kc])


def test_structure_and_shape_errors_still_name_the_key_chain(calls):
    params = _tree(_numpy(0))
    with ivy_like.use_backend("torch"):
        opt = O.adam()
        state = opt.init(params)
        wrong = _tree(_numpy(1))
        wrong["l1"]["bias"] = torch.zeros(5)
        with pytest.raises(ValueError, match="l1/bias"):
            opt.update(params, wrong, state)
        missing = _tree(_numpy(1))
        del missing["l1"]["bias"]
        with pytest.raises(ValueError, match="l1"):
            opt.update(params, missing, state)
    assert calls["called"] == 0


@pytest.mark.parametrize("compiler", ["ivy_like.compile", "torch.compile"])
def test_compiled_steps_trace_the_composite_once(compiler, calls):
    """Under ``ivy_like.compile`` (make_fx, then inductor; traced once for several steps) and
    ``torch.compile`` (Dynamo) the hook declines and the graph is the composite's, with
    eager's numbers."""
    params = _tree(_numpy(0))
    grads = [_tree(_numpy(1 + t)) for t in range(3)]
    traces = [0]
    with ivy_like.use_backend("torch"):
        opt = O.adamw(1e-2, weight_decay=0.1, mask=no_bias)

        def step(params, grads, state):
            traces[0] += 1
            return opt.update(params, grads, state)

        compiled = ivy_like.compile(step) if compiler == "ivy_like.compile" else torch.compile(step)
        state = opt.init(params)
        eager, eager_state = params, state
        for g in grads:
            params, state = compiled(params, g, state)
        assert calls["fused"] == 0
        if compiler == "ivy_like.compile":  # (Dynamo replays the counter's side effect per call)
            assert traces[0] == 1
        for g in grads:
            eager, eager_state = opt.update(eager, g, eager_state)
        assert calls["fused"] == len(grads)
    for kc, value in _flat(params).items():
        assert_close(value.numpy(), _flat(eager)[kc].numpy(), rtol=1e-6, atol=1e-7)


def test_only_the_torch_backend_provides_the_fused_update():
    """The optimizers ask the backend for the hook; every other backend runs the composite."""
    for name in ivy_like.available_backends():
        provided = "fused_adam_update" in ivy_like.get_backend(name).__dict__
        assert provided == (name == "torch"), name

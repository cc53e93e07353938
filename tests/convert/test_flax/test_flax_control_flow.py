"""from_flax keeps jax's control flow: ``lax.while_loop``, ``lax.cond``/``switch`` and
``lax.scan`` become ``ivy_like.while_loop``/``cond``/``scan`` in the converted model.

Each model is traced once, on one example, then run on every backend for inputs that take a
different number of iterations or another branch than the example did: the loop's count and
the branch are decided by the data when the model runs, eagerly and under
``ivy_like.compile``. Gradients through ``cond`` and ``scan`` match ``jax.grad``.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("flax")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from flax import nnx  # noqa: E402

import ivy_like  # noqa: E402
from ivy_like.convert import UnsupportedOpError, from_flax, to_backend  # noqa: E402

TOL = {"atol": 1e-5, "rtol": 1e-5}


def _np(x):
    return np.asarray(ivy_like.to_numpy(x))


def _leaves(tree):
    return [np.asarray(x) for x in jax.tree_util.tree_leaves(tree)]


# -- the models ----------------------------------------------------------------------------------
class Halving(nnx.Module):
    """Scales the input by a parameter until its L1 norm is below a threshold: the number of
    iterations depends on the input's values (a parameter closed over by the loop's body)."""

    def __init__(self) -> None:
        self.scale = nnx.Param(jnp.asarray([0.5, 0.25], jnp.float32))

    def __call__(self, x):
        def going(state):
            return jnp.sum(jnp.abs(state[1])) > 1.0

        def step(state):
            return state[0] + 1, state[1] * self.scale[...]

        return jax.lax.while_loop(going, step, (jnp.int32(0), x))


class NewtonSqrt(nnx.Module):
    """Newton's iterations for sqrt(x) until the residual is small, each step a ``cond``
    inside the loop (a nested sub-jaxpr): a damped step while far from the root."""

    def __call__(self, x):
        def going(state):
            y, _ = state
            return jnp.max(jnp.abs(y * y - x)) > 1e-3

        def step(state):
            y, n = state
            new = 0.5 * (y + x / y)
            far = jnp.max(jnp.abs(y * y - x)) > 100.0
            y = jax.lax.cond(far, lambda a, b: 0.5 * (a + b), lambda a, b: b, y, new)
            return y, n + 1

        return jax.lax.while_loop(going, step, (x, jnp.int32(0)))


class Branch(nnx.Module):
    """A ``cond`` on the sign of the input's sum, each branch reading a parameter."""

    def __init__(self) -> None:
        self.w = nnx.Param(jnp.asarray([1.5, -2.0, 0.5], jnp.float32))

    def __call__(self, x):
        return jax.lax.cond(
            jnp.sum(x) > 0,
            lambda v: jnp.sin(v) * self.w[...],
            lambda v: v * v - self.w[...],
            x,
        )


class Switch(nnx.Module):
    """``lax.switch`` over three branches, picked by the position of the largest entry."""

    def __call__(self, x):
        index = jnp.argmax(x).astype(jnp.int32)
        return jax.lax.switch(index, [lambda v: v + 1.0, lambda v: v * 2.0, jnp.tanh], x)


class Cumulative(nnx.Module):
    """A ``scan`` over time: a decayed cumulative sum (the decay a parameter) and a stacked
    nonlinearity of it; forwards and ``reverse``."""

    def __init__(self, reverse: bool) -> None:
        self.decay = nnx.Param(jnp.asarray([0.9, 0.5], jnp.float32))
        self.reverse = reverse

    def __call__(self, xs):
        def f(c, x):
            c = c * self.decay[...] + x
            return c, jnp.tanh(c)

        return jax.lax.scan(f, jnp.zeros(xs.shape[1:], xs.dtype), xs, reverse=self.reverse)


def _halving_counts(x):
    count, _ = Halving()(x)
    return int(count)


HALVING_INPUTS = [
    np.array([3.0, -1.0], np.float32),
    np.array([400.0, 90.0], np.float32),
]
NEWTON_INPUTS = [np.array([2.0, 3.0], np.float32), np.array([900.0, 5.0], np.float32)]
BRANCH_INPUTS = [np.array([1.0, 2.0, -0.5], np.float32), np.array([-1.0, 0.2, -0.5], np.float32)]
SWITCH_INPUTS = [
    np.array([3.0, 1.0, 0.0], np.float32),
    np.array([0.0, 2.0, 1.0], np.float32),
    np.array([0.0, -1.0, 0.7], np.float32),
]
SCAN_INPUT = np.linspace(-1.0, 2.0, 10, dtype=np.float32).reshape(5, 2)

CASES = {
    "while": (Halving, HALVING_INPUTS),
    "while_with_cond": (NewtonSqrt, NEWTON_INPUTS),
    "cond": (Branch, BRANCH_INPUTS),
    "switch": (Switch, SWITCH_INPUTS),
    "scan": (lambda: Cumulative(False), [SCAN_INPUT, SCAN_INPUT[::-1] * 2]),
    "scan_reverse": (lambda: Cumulative(True), [SCAN_INPUT, SCAN_INPUT * -3]),
}


def test_the_inputs_take_different_paths():
    """The inputs differ in what the control flow does, so the tests below can fail."""
    assert len({_halving_counts(x) for x in HALVING_INPUTS}) == 2
    assert len({int(NewtonSqrt()(x)[1]) for x in NEWTON_INPUTS}) == 2
    assert len({bool(np.sum(x) > 0) for x in BRANCH_INPUTS}) == 2
    assert len({int(np.argmax(x)) for x in SWITCH_INPUTS}) == 3


@pytest.mark.parametrize("name", list(CASES))
def test_control_flow_gives_the_source_outputs(backend, name):
    make, inputs = CASES[name]
    module = make()
    model = from_flax(module, inputs[0])
    kept = {"while": "while", "while_with_cond": "while", "cond": "cond", "switch": "cond"}
    assert kept.get(name, "scan") in model.primitives
    for x in inputs:
        got = jax.tree_util.tree_leaves(model(to_backend(x, backend.name)))
        want = _leaves(module(x))
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_allclose(_np(g), w, **TOL, err_msg=f"input {x}")


@pytest.mark.parametrize("target", ["jax", "torch", "tensorflow"])
@pytest.mark.parametrize("name", ["while", "while_with_cond", "cond", "switch", "scan"])
def test_control_flow_under_compile(target, name):
    """One compiled function follows the data: another iteration count or branch per input
    (``lax.while_loop``, ``tf.while_loop``; torch compiles ``cond`` as a select and ``scan``
    unrolled, and refuses a loop on a traced condition)."""
    pytest.importorskip(target)
    make, inputs = CASES[name]
    module = make()
    model = from_flax(module, inputs[0])
    compiled = ivy_like.compile(model.apply)
    params = model.params_on(target)
    if target == "torch" and name.startswith("while"):
        # torch's compiler cannot loop on a traced condition: ivy_like says so
        with pytest.raises(TypeError, match="while_loop: .* torch backend runs loops in Python"):
            compiled(params, to_backend(inputs[0], target))
        return
    for x in [*inputs, *inputs]:  # the second round runs the compiled function
        got = jax.tree_util.tree_leaves(compiled(params, to_backend(x, target)))
        for g, w in zip(got, _leaves(module(x))):
            np.testing.assert_allclose(_np(g), w, **TOL, err_msg=f"input {x}")


@pytest.mark.requires("autodiff")
@pytest.mark.parametrize("name", ["cond", "switch", "scan", "scan_reverse"])
def test_gradients_through_cond_and_scan_match_jax_grad(backend, name):
    make, inputs = CASES[name]
    module = make()
    model = from_flax(module, inputs[0])
    graphdef, state = nnx.split(module)

    def source_loss(state, x):
        outs = jax.tree_util.tree_leaves(nnx.merge(graphdef, state)(x))
        return sum(jnp.sum(o * jnp.cos(o)) for o in outs)

    def loss(params, x):
        outs = jax.tree_util.tree_leaves(model.apply(params, x))
        total = ivy_like.sum(outs[0] * ivy_like.cos(outs[0]))
        for o in outs[1:]:
            total = total + ivy_like.sum(o * ivy_like.cos(o))
        return total

    params = model.params_on(backend)
    for x in inputs:
        want_x = jax.grad(source_loss, argnums=1)(state, x)
        got_x = ivy_like.grad(loss, argnums=1)(params, to_backend(x, backend.name))
        np.testing.assert_allclose(_np(got_x), np.asarray(want_x), **TOL, err_msg=f"input {x}")
        if model.params.cont_all_key_chains():
            want_p = jax.grad(source_loss)(state, x)
            got_p = ivy_like.grad(loss)(params, to_backend(x, backend.name))
            for kc, g in got_p.cont_flatten_key_chains().items():
                w = np.asarray(want_p[kc.split("/")[0]][...])
                np.testing.assert_allclose(_np(g), w, **TOL, err_msg=f"{kc}, input {x}")


def test_a_cond_on_a_known_value_keeps_only_its_branch():
    class Fixed(nnx.Module):
        def __call__(self, x):
            return jax.lax.cond(True, jnp.sin, jnp.cos, x)

    x = np.array([0.3, -1.2], np.float32)
    model = from_flax(Fixed(), x, backend="numpy")
    assert "cond" not in model.primitives and "sin" in model.primitives
    np.testing.assert_allclose(_np(model(x)), np.sin(x), **TOL)


def test_an_unmapped_primitive_inside_a_loop_is_named_with_its_place():
    class Inverse(nnx.Module):
        def __call__(self, x):
            def step(state):
                return state[0] + 1, jax.lax.erf_inv(state[1] * 0.5)

            return jax.lax.while_loop(lambda s: s[0] < 3, step, (0, x))

    with pytest.raises(
        UnsupportedOpError,
        match=r"jax primitive erf_inv \(equation \d+ \(while\) > body_fun > equation \d+.*"
        r"test_flax_control_flow\.py",
    ):
        from_flax(Inverse(), np.array([0.1, 0.2], np.float32), backend="numpy")

"""The transforms, each inside a function that ``check_function`` checks on every backend and
under every transform: a checkpoint, custom rules, control flow, and the transforms
themselves (``grad``, ``vmap``, ``compile``, ``jac``, ``hessian``) nested in the function
under test, so that ``compile`` of a ``grad``, ``vmap`` of a ``scan``, the second derivatives
of a ``checkpoint`` and so on are each compared with what they must equal (finite
differences in float64, the function on each example, the other backends).

The cases are chosen for the behaviour each transform must keep: the predicate of ``cond``
and the trip count of ``while_loop`` depend on the values, so the batch of distinct examples
(the example, reversed, with random signs) takes both branches and different counts under
``compile`` and ``vmap``. The known gaps of a backend are listed with the reason; a listed
cell that passes fails the test, so that the list stays true.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ivy_like as il
from ivy_like.testing import check_function
from ivy_like.testing.pytest_plugin import selected_backends

RNG = np.random.default_rng(37)
X = RNG.uniform(0.2, 0.9, (3, 4)).astype(np.float32)  # a batch of three rows
W = RNG.uniform(-0.6, 0.6, (4,)).astype(np.float32)
# Smaller, for jac and hessian: their finite differences call a Jacobian per input element.
X_SMALL, W_SMALL = X[:2, :3].copy(), W[:3].copy()
XS = RNG.uniform(-0.8, 0.8, (5, 2)).astype(np.float32)  # a sequence of five steps
H0 = np.array([0.1, -0.2], dtype=np.float32)


def loss(x: Any, w: Any) -> Any:
    # ivy_like functions on the 0-d sums: MXNet's own operators fail on 0-d arrays
    return il.add(il.sum(il.tanh(il.matmul(x, w)) ** 2), il.multiply(il.sum(w * w), 0.1))


def checkpointed(x: Any, w: Any) -> Any:
    return il.multiply(il.checkpoint(loss)(x, w), il.mean(x))


@il.custom_function
def _softplus(x: Any) -> Any:
    return il.log1p(il.exp(x))


@_softplus.vjp
def _softplus_vjp(primals: Any, cotangent: Any, output: Any) -> Any:
    return cotangent * il.nn.sigmoid(primals[0])


@_softplus.jvp
def _softplus_jvp(primals: Any, tangents: Any) -> Any:
    return tangents[0] * il.nn.sigmoid(primals[0])


def custom_rules(x: Any, w: Any) -> Any:
    """A custom function whose rules are right: every derivative check must pass."""
    return il.multiply(_softplus(il.matmul(x, w)), il.sum(w))


def gradient(x: Any, w: Any) -> Any:
    """``grad`` as a function: its derivatives are the loss's second derivatives."""
    return il.grad(loss, argnums=1)(x, w)


def value_and_gradient(x: Any, w: Any) -> Any:
    return il.value_and_grad(loss, argnums=(0, 1))(x, w)


def inner_vmap(x: Any, w: Any) -> Any:
    return il.vmap(lambda row: il.matmul(il.sin(row * w), w))(x)


_COMPILED_LOSS = il.compile(loss)  # one compiled function: each shape traces once


def inner_compile(x: Any, w: Any) -> Any:
    return il.add(_COMPILED_LOSS(x, w), il.sum(x))


def jacobian(x: Any, w: Any) -> Any:
    return il.jac(lambda v: il.tanh(il.matmul(x, v)))(w)


def hessian(x: Any, w: Any) -> Any:
    return il.hessian(loss, argnums=1)(x, w)


def branch(x: Any, w: Any) -> Any:
    """``cond`` on a value: the batch's examples take both branches."""
    s = il.sum(il.matmul(x, w))
    return il.cond(il.greater(s, 0.0), lambda a: il.exp(a * w), lambda a: il.sin(a) * w, x)


def loop(x: Any, w: Any) -> Any:
    """``fori_loop``: a fixed number of steps, differentiable in both modes."""
    return il.fori_loop(0, 4, lambda i, c: il.tanh(c * w + x), x)


def until(x: Any) -> Any:
    """``while_loop`` whose trip count depends on the values (no derivative to compare: the
    count is piecewise constant, and JAX has no reverse mode through it)."""
    return il.while_loop(
        lambda c: il.greater(il.max(il.abs(c[0])), 0.05),
        lambda c: (c[0] * 0.5, c[1] + 1.0),
        (x, il.zeros_like(x[..., 0])),
    )


def rnn(h0: Any, xs: Any, w: Any) -> Any:
    """``scan``: a recurrent cell over the sequence, the final state and every state."""

    def step(h: Any, x: Any) -> tuple[Any, Any]:
        h = il.tanh(h * w[:2] + x)
        return h, il.sum(h)

    return il.scan(step, h0, xs)


VALUES_ONLY = ("agree", "compile", "vmap", "mutation", "lazy")
# jac's and hessian's own second derivatives are the loss's third and fourth: a minute of
# finite differences, for rules that the first-order checks of jac and hessian and the
# second-order checks of grad already exercise.
FIRST_ORDER = ("agree", "compile", "vmap", "vjp", "jvp", "transpose", "mutation", "lazy")
CASES: dict[str, tuple[Callable[..., Any], tuple[Any, ...], tuple[str, ...] | None]] = {
    "checkpoint": (checkpointed, (X, W), None),
    "custom_function": (custom_rules, (X, W), None),
    "grad": (gradient, (X, W), None),
    "value_and_grad": (value_and_gradient, (X, W), None),
    "vmap": (inner_vmap, (X, W), None),
    "compile": (inner_compile, (X, W), None),
    "jac": (jacobian, (X_SMALL, W_SMALL), FIRST_ORDER),
    "hessian": (hessian, (X_SMALL, W_SMALL), FIRST_ORDER),
    "cond": (branch, (X, W), None),
    "fori_loop": (loop, (X, W), None),
    "while_loop": (until, (X,), VALUES_ONLY),
    "scan": (rnn, (H0, XS, W), None),
}
_PYTHON_LOOP = (
    "the {} backend runs while_loop in Python, which cannot loop on a traced value: a clear "
    "TypeError under compile and vmap, where the trip count depends on the values"
)
# A Hessian is a second derivative: MXNet's higher-order gradients cover too few operators,
# and it refuses (NotImplementedError); numpy has no autodiff.
SECOND_ORDER = {"hessian"}
SECOND_ORDER_BACKENDS = ("jax", "torch", "tensorflow", "mlx")
# (backend, case, check) -> why it fails there.
KNOWN: dict[tuple[str, str, str], str] = {
    **{
        (b, "while_loop", c): _PYTHON_LOOP.format(b)
        for b in ("torch", "mlx")
        for c in ("compile", "vmap")
    },
    ("mlx", "hessian", "lazy"): (
        "MLX 0.32.4: mx.eval of an inner mx.grad's result inside an outer mx.vjp cuts the "
        "graph, and the outer derivative is 0 (plain MLX: mx.vjp(lambda a: eval'd "
        "mx.grad(f)(a)) gives 0 where it gives f's Hessian unevaluated)"
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_transform_inside_a_function_passes_every_check(request, name):
    names = selected_backends(request.config)
    if name in SECOND_ORDER and not set(names).intersection(SECOND_ORDER_BACKENDS):
        pytest.skip(f"{name} needs second-order autodiff: {', '.join(SECOND_ORDER_BACKENDS)}")
    f, args, checks = CASES[name]
    report = check_function(f, *args, backends=names, checks=checks)
    unexpected = [(b, c, o.detail) for b, c, o in report.failures if (b, name, c) not in KNOWN]
    assert not unexpected, str(report)
    fixed = [
        (b, c)
        for (b, k, c) in KNOWN
        if k == name and (b, c) in report.outcomes and report.outcomes[b, c].status == "pass"
    ]
    assert not fixed, f"listed as failing in KNOWN, but they pass now: {fixed}"

"""from_torch keeps torch.export's control flow: ``torch.cond``, ``torch.while_loop`` and
``scan`` become ``ivy_like.cond``/``while_loop``/``scan`` in the converted model.

Each model is captured once, on one example, then run on every backend for inputs that take
a different number of iterations or another branch than the example did: the loop's count
and the branch are decided by the data when the model runs, eagerly and under
``ivy_like.compile``. Gradients through ``cond`` and ``scan`` match torch's autograd.
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from torch._higher_order_ops.map import map as map_rows  # noqa: E402
from torch._higher_order_ops.scan import scan  # noqa: E402

import ivy_like  # noqa: E402
from ivy_like.convert import UnsupportedOpError, from_torch, to_backend  # noqa: E402

TOL = {"atol": 1e-5, "rtol": 1e-5}


def _np(x):
    return np.asarray(ivy_like.to_numpy(x))


def _flat(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


# -- the models ----------------------------------------------------------------------------------
class Branch(torch.nn.Module):
    """``torch.cond`` on the sign of the input's sum, the true branch reading a parameter."""

    def __init__(self) -> None:
        super().__init__()
        self.w = torch.nn.Parameter(torch.tensor([1.5, -2.0, 0.5]))

    def forward(self, x):
        return torch.cond(x.sum() > 0, lambda v: torch.sin(v) * self.w, lambda v: v * v - 1.0, (x,))


class Halving(torch.nn.Module):
    """``torch.while_loop`` scaling the input by a parameter until its L1 norm is below a
    threshold, counting the steps: the count depends on the input's values."""

    def __init__(self) -> None:
        super().__init__()
        self.scale = torch.nn.Parameter(torch.tensor([0.5, 0.25]))

    def forward(self, x):
        def going(i, v):
            return v.abs().sum() > 1.0

        def step(i, v):
            return i + 1, v * self.scale

        return torch.while_loop(going, step, (torch.zeros((), dtype=torch.int64), x))


class NewtonSqrt(torch.nn.Module):
    """Newton's iterations for sqrt(x) until the residual is small, each step a
    ``torch.cond`` inside the loop (a sub-graph in a sub-graph): damped while far off."""

    def forward(self, x):
        def going(y, n):
            return (y * y - x).abs().max() > 1e-3

        def step(y, n):
            new = 0.5 * (y + x / y)
            far = (y * y - x).abs().max() > 100.0
            y = torch.cond(far, lambda a, b: 0.5 * (a + b), lambda a, b: b.clone(), (y, new))
            return y, n + 1

        return torch.while_loop(going, step, (x.clone(), torch.zeros((), dtype=torch.int64)))


class Cumulative(torch.nn.Module):
    """torch's ``scan`` over time: a decayed cumulative sum (the decay a parameter) and a
    stacked nonlinearity of it; forwards and ``reverse``."""

    def __init__(self, reverse: bool) -> None:
        super().__init__()
        self.decay = torch.nn.Parameter(torch.tensor([0.9, 0.5]))
        self.reverse = reverse

    def forward(self, xs):
        def f(c, x):
            c = c * self.decay + x
            return c, torch.tanh(c)

        return scan(f, torch.zeros(xs.shape[1:]), xs, reverse=self.reverse)


SCAN_INPUT = torch.linspace(-1.0, 2.0, 10).reshape(5, 2)
CASES = {
    "cond": (Branch, [torch.tensor([1.0, 2.0, -0.5]), torch.tensor([-1.0, 0.2, -0.5])]),
    "while": (Halving, [torch.tensor([3.0, -1.0]), torch.tensor([400.0, 90.0])]),
    "while_with_cond": (NewtonSqrt, [torch.tensor([2.0, 3.0]), torch.tensor([900.0, 5.0])]),
    "scan": (lambda: Cumulative(False), [SCAN_INPUT, SCAN_INPUT.flip(0) * 2]),
    "scan_reverse": (lambda: Cumulative(True), [SCAN_INPUT, SCAN_INPUT * -3]),
}
KEPT = {"cond": "cond", "while": "while_loop", "while_with_cond": "while_loop"}


def test_the_inputs_take_different_paths():
    """The inputs differ in what the control flow does, so the tests below can fail."""
    assert len({bool(x.sum() > 0) for x in CASES["cond"][1]}) == 2
    for name in ("while", "while_with_cond"):
        make, inputs = CASES[name]
        counts = {int(_flat(make()(x))[0 if name == "while" else 1]) for x in inputs}
        assert len(counts) == 2, name


def _source(module, x):
    with torch.no_grad():
        return [o.numpy() for o in _flat(module(x))]


@pytest.mark.parametrize("name", list(CASES))
def test_control_flow_gives_the_source_outputs(backend, name):
    make, inputs = CASES[name]
    module = make().eval()
    model = from_torch(module, inputs[0])
    assert f"higher_order.{KEPT.get(name, 'scan')}" in model.aten_ops
    for x in inputs:
        got = _flat(model(to_backend(x.numpy(), backend.name)))
        want = _source(module, x)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_allclose(_np(g), w, **TOL, err_msg=f"input {x}")


@pytest.mark.parametrize("target", ["jax", "torch", "tensorflow"])
@pytest.mark.parametrize("name", list(CASES))
def test_control_flow_under_compile(target, name):
    """One compiled function follows the data: another iteration count or branch per input
    (``lax.while_loop``, ``tf.while_loop``; torch compiles ``cond`` as a select and ``scan``
    unrolled, and refuses a loop on a traced condition)."""
    pytest.importorskip(target)
    make, inputs = CASES[name]
    module = make().eval()
    model = from_torch(module, inputs[0])
    compiled = ivy_like.compile(model.apply)
    params = model.params_on(target)
    if target == "torch" and name.startswith("while"):
        with pytest.raises(TypeError, match="while_loop: .* torch backend runs loops in Python"):
            compiled(params, to_backend(inputs[0].numpy(), target))
        return
    for x in [*inputs, *inputs]:  # the second round runs the compiled function
        got = _flat(compiled(params, to_backend(x.numpy(), target)))
        for g, w in zip(got, _source(module, x)):
            np.testing.assert_allclose(_np(g), w, **TOL, err_msg=f"input {x}")


@pytest.mark.requires("autodiff")
@pytest.mark.parametrize("name", ["cond", "scan", "scan_reverse"])
def test_gradients_through_cond_and_scan_match_torch(backend, name):
    make, inputs = CASES[name]
    module = make().eval()
    model = from_torch(module, inputs[0])

    def loss(params, x):
        total = None
        for o in _flat(model.apply(params, x)):
            term = ivy_like.sum(o * ivy_like.cos(o))
            total = term if total is None else total + term
        return total

    params = model.params_on(backend)
    for x in inputs:
        source_x = x.clone().requires_grad_(True)
        module.zero_grad()
        sum((o * torch.cos(o)).sum() for o in _flat(module(source_x))).backward()
        native = to_backend(x.numpy(), backend.name)
        got_x = ivy_like.grad(loss, argnums=1)(params, native)
        got_p = ivy_like.grad(loss)(params, native)
        np.testing.assert_allclose(_np(got_x), source_x.grad.numpy(), **TOL, err_msg=f"input {x}")
        for kc, g in got_p.cont_flatten_key_chains().items():
            want = module.get_parameter(kc.replace("/", ".")).grad
            want = np.zeros(g.shape, np.float32) if want is None else want.numpy()
            np.testing.assert_allclose(_np(g), want, **TOL, err_msg=f"{kc}, input {x}")


class _MapRows(torch.nn.Module):
    def forward(self, x):
        return map_rows(torch.sin, x)


def test_other_higher_order_ops_are_refused_naming_the_op():
    with pytest.raises(
        UnsupportedOpError,
        match=r"higher-order op map_impl \(node 'map_impl', in module '\(root\)' .*_MapRows\)\) "
        r"is not supported .*supported higher-order ops: cond, scan, while_loop",
    ):
        from_torch(_MapRows(), torch.ones(3, 2), backend="numpy")

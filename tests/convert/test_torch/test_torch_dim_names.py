"""from_torch's dynamic dimensions go by the user's ``Dim`` names, never torch's symbols.

torch.export names each dynamic size with a symbol of its own (``s43``); a converted model's
errors about a call's sizes (out of the captured range, two inputs of one ``Dim`` that
disagree, a size the capture fixed), ``model.dynamic_dims`` and the errors of torch's
constraint solver at capture say ``batch`` (the default) or the user's names, a derived
dimension as its expression (``2*batch``), which the call also checks. Then: norms without
affine parameters (BatchNorm with running statistics but no weight, InstanceNorm, LayerNorm,
GroupNorm) go through ``to_torch(from_torch(m))`` with the ``state_dict`` bit for bit.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from ivy_like.convert import from_torch, to_torch  # noqa: E402
from ivy_like.testing import assert_close  # noqa: E402

Dim = torch.export.Dim
TOL = {"rtol": 1e-5, "atol": 1e-5}
SYMBOL = re.compile(r"\b[su]\d+\b")  # torch's names: s0, s43, u0


def _message(excinfo) -> str:
    text = str(excinfo.value)
    assert SYMBOL.search(text) is None, f"a torch symbol in: {text}"
    assert "L['" not in text, f"torch's source syntax in: {text}"
    return text


def _ones(*shape):
    return np.ones(shape, np.float32)


class _Pair(torch.nn.Module):
    def forward(self, x, y):
        return x * 2.0, y.sum(1)


# -- the default batch ---------------------------------------------------------------------------
def test_the_default_batch_is_named_batch_in_every_error():
    model = from_torch(_Pair(), torch.randn(4, 3), torch.randn(4, 5), backend="numpy")
    assert model.dynamic_dims == {0: {0: "batch"}, 1: {0: "batch"}}
    got = model(_ones(6, 3), _ones(6, 5))
    assert_close(got[0], 2 * _ones(6, 3), **TOL)
    with pytest.raises(ValueError) as excinfo:  # two inputs of the one Dim disagree
        model(_ones(3, 3), _ones(4, 5))
    text = _message(excinfo)
    assert "input 1 axis 0 has size 4 but input 0 axis 0 has size 3" in text
    assert "dynamic dimension 'batch'" in text
    with pytest.raises(ValueError) as excinfo:  # a size the capture fixed
        model(_ones(3, 4), _ones(3, 5))
    assert "captured for shape (batch, 3)" in _message(excinfo)


class _AtMostFive(torch.nn.Module):
    def forward(self, x):
        return x * 2.0 if x.shape[0] > 5 else x


def test_a_batch_torch_refused_is_explained_with_its_name():
    """torch's solver refuses the batch dynamic (the model branches on it): the static
    capture's error at another size says why in the user's terms."""
    model = from_torch(_AtMostFive(), torch.randn(4, 3), backend="numpy")
    assert model.dynamic_dims is None
    with pytest.raises(ValueError) as excinfo:
        model(_ones(7, 3))
    text = _message(excinfo)
    assert "captured for shape (4, 3)" in text
    assert "could not be dynamic: Constraints violated (batch)" in text
    assert "batch = x.shape[0]" in text and "For more information" not in text


# -- the user's own names ------------------------------------------------------------------------
def test_a_dim_named_tokens_shows_up_as_tokens():
    tokens = Dim("tokens", max=16)
    model = from_torch(
        _Pair(),
        torch.randn(4, 3),
        torch.randn(4, 5),
        dynamic_shapes=({0: tokens}, {0: tokens}),
        backend="numpy",
    )
    assert model.dynamic_dims == {0: {0: "tokens"}, 1: {0: "tokens"}}
    assert_close(model(_ones(9, 3), _ones(9, 5))[1], np.full(9, 5.0, np.float32), **TOL)
    with pytest.raises(ValueError) as excinfo:  # outside the recorded range
        model(_ones(17, 3), _ones(17, 5))
    text = _message(excinfo)
    assert "input 0 axis 0 has size 17; the dynamic dimension 'tokens'" in text
    assert re.search(r"sizes \d+ to 16", text)
    with pytest.raises(ValueError) as excinfo:
        model(_ones(3, 3), _ones(5, 5))
    assert "dynamic dimension 'tokens' of the capture" in _message(excinfo)
    with pytest.raises(ValueError) as excinfo:
        model(_ones(3, 3), _ones(3, 6))
    assert "captured for shape (tokens, 5)" in _message(excinfo)


class _Masked(torch.nn.Module):
    def forward(self, ids, attention_mask=None):
        return ids * attention_mask


def test_names_given_by_keyword_name_each_axis():
    batch, seq = Dim("batch", max=8), Dim("seq", max=10)
    both = {0: batch, 1: seq}
    model = from_torch(
        _Masked(),
        torch.randn(2, 4),
        attention_mask=torch.randn(2, 4),
        dynamic_shapes={"ids": both, "attention_mask": both},
        backend="numpy",
    )
    assert model.dynamic_dims == {0: {0: "batch", 1: "seq"}, 1: {0: "batch", 1: "seq"}}
    with pytest.raises(ValueError) as excinfo:
        model(_ones(3, 11), attention_mask=_ones(3, 11))
    assert "the dynamic dimension 'seq' was captured for sizes" in _message(excinfo)
    with pytest.raises(ValueError) as excinfo:
        model(_ones(3, 5), attention_mask=_ones(3, 6))
    assert "dynamic dimension 'seq'" in _message(excinfo)


class _Add(torch.nn.Module):
    def forward(self, x, y):
        return x + y


def test_the_constraint_solver_at_capture_speaks_of_the_users_dims():
    with pytest.raises(ValueError) as excinfo:
        from_torch(
            _Add(),
            torch.randn(3),
            torch.randn(3),
            dynamic_shapes=({0: Dim("rows")}, {0: Dim("cols")}),
            backend="numpy",
        )
    text = _message(excinfo)
    assert text.startswith("from_torch: dynamic_shapes: Constraints violated")
    assert "cols = y.shape[0]" in text and "rows = x.shape[0]" in text
    assert "torch suggests: cols = rows" in text and "\n" not in text
    with pytest.raises(ValueError) as excinfo:
        from_torch(
            _AtMostFive(), torch.randn(4, 3), dynamic_shapes=({0: Dim("tokens")},), backend="numpy"
        )
    text = _message(excinfo)
    assert "tokens = x.shape[0]" in text and "Dim('tokens', max=5)" in text


# -- derived dimensions --------------------------------------------------------------------------
class _Pairs(torch.nn.Module):
    def forward(self, x, pairs):
        return pairs[: x.shape[0] * 2] * 3.0 + x.sum(), x.sum(1)


def test_a_derived_dimension_is_named_as_its_expression_and_checked():
    batch = Dim("batch", max=32)
    model = from_torch(
        _Pairs(),
        torch.randn(3, 4),
        torch.randn(6, 2),
        dynamic_shapes=({0: batch}, {0: 2 * batch}),
        backend="numpy",
    )
    assert model.dynamic_dims == {0: {0: "batch"}, 1: {0: "2*batch"}}
    x, pairs = np.random.default_rng(0).standard_normal((5, 4)).astype(np.float32), _ones(10, 2)
    want = _Pairs()(torch.from_numpy(x), torch.from_numpy(pairs))
    for g, w in zip(model(x, pairs), want):
        assert_close(g, w.numpy(), rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError) as excinfo:  # the derived size must follow the batch
        model(x, _ones(12, 2))
    text = _message(excinfo)
    assert "input 1 axis 0 has size 12; it is the dynamic dimension '2*batch'" in text
    assert "which is 10 where 'batch' is 5 (input 0 axis 0)" in text
    with pytest.raises(ValueError) as excinfo:
        model(x, _ones(10, 3))
    assert "captured for shape (2*batch, 2)" in _message(excinfo)


class _Sums(torch.nn.Module):
    def forward(self, x, y):
        return x.sum(0) + y[1:].sum(0)


def test_derived_dimensions_of_a_root_no_input_has():
    """Only ``2*batch`` and ``2*batch + 1`` are inputs' sizes: the first decides ``batch``
    (a whole number in its range), the second must follow."""
    batch = Dim("batch", min=2, max=20)
    model = from_torch(
        _Sums(),
        torch.randn(6, 3),
        torch.randn(7, 3),
        dynamic_shapes=({0: 2 * batch}, {0: 2 * batch + 1}),
        backend="numpy",
    )
    assert model.dynamic_dims == {0: {0: "2*batch"}, 1: {0: "2*batch + 1"}}
    assert_close(model(_ones(8, 3), _ones(9, 3)), np.full(3, 16.0, np.float32), **TOL)
    for x, y, says in [
        (_ones(7, 3), _ones(8, 3), "no whole 'batch' in the captured range 2 to 20 gives 7"),
        (_ones(42, 3), _ones(43, 3), "dimension '2*batch' was captured for sizes 4 to 40"),
        (_ones(8, 3), _ones(11, 3), "'2*batch + 1', which is 9 where 'batch' is 4"),
    ]:
        with pytest.raises(ValueError) as excinfo:
            model(x, y)
        assert says in _message(excinfo)


# -- dimensions torch names itself (Dim.AUTO) ----------------------------------------------------
def test_an_auto_dimension_goes_by_the_users_name_it_joins_or_where_it_is_read():
    model = from_torch(
        _Add(),
        torch.randn(6, 2),
        torch.randn(6, 2),
        dynamic_shapes=({0: Dim.AUTO, 1: Dim.AUTO}, {0: Dim("rows")}),
        backend="numpy",
    )
    # axis 0 of x is y's "rows"; axis 1 torch fixed at 2 (y's is static): static here too
    assert model.dynamic_dims == {0: {0: "rows"}, 1: {0: "rows"}}
    with pytest.raises(ValueError) as excinfo:
        model(_ones(5, 3), _ones(5, 2))
    assert "input 0 has shape (5, 3); the model was captured for shape (rows, 2)" in (
        _message(excinfo)
    )
    alone = from_torch(_Add(), torch.randn(6, 2), torch.randn(6, 2), backend="numpy")
    assert alone.dynamic_dims == {0: {0: "batch"}, 1: {0: "batch"}}
    auto = from_torch(
        _Add(),
        torch.randn(6, 2),
        torch.randn(6, 2),
        dynamic_shapes=({0: Dim.AUTO}, {0: Dim.AUTO}),
        backend="numpy",
    )
    assert auto.dynamic_dims == {0: {0: "x.shape[0]"}, 1: {0: "x.shape[0]"}}
    with pytest.raises(ValueError) as excinfo:
        auto(_ones(5, 2), _ones(4, 2))
    assert "dynamic dimension 'x.shape[0]'" in _message(excinfo)


# -- norms without affine parameters: the round trip keeps the state_dict bit for bit -----------
def _norms():
    torch.manual_seed(0)
    return {
        "batch_norm": torch.nn.BatchNorm2d(4, affine=False),
        "instance_norm": torch.nn.InstanceNorm2d(4, affine=False, track_running_stats=False),
        "layer_norm": torch.nn.LayerNorm(8, elementwise_affine=False),
        "group_norm": torch.nn.GroupNorm(2, 4, affine=False),
    }


class _Norms(torch.nn.Module):
    """A convolution (so there are parameters too) then the norms given, in order."""

    def __init__(self, norms):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.norms = torch.nn.ModuleList(norms)

    def forward(self, x):
        x = self.conv(x)
        for norm in self.norms:
            x = norm(x)
        return x


def _trained(net, channels=3):
    """Running statistics and step counters that are not their initial values."""
    net.train()
    gen = torch.Generator().manual_seed(3)
    with torch.no_grad():
        for _ in range(3):
            net(torch.randn(2, channels, 8, 8, generator=gen) * 2.0 + 0.5)
    return net.eval()


@pytest.mark.parametrize("which", [*_norms(), "all"])
def test_norms_without_affine_parameters_round_trip_bit_for_bit(which, backend):
    norms = _norms()
    net = _trained(_Norms(list(norms.values()) if which == "all" else [norms[which]]))
    x = torch.randn(2, 3, 8, 8, generator=torch.Generator().manual_seed(4))
    model = from_torch(net, x, backend="numpy")
    back = to_torch(model)
    want, got = net.state_dict(), back.state_dict()
    assert list(got) == list(want)
    for name, t in want.items():
        assert got[name].dtype == t.dtype, name
        assert torch.equal(got[name], t), name
    with torch.no_grad():
        ref = net(x).numpy()
        assert_close(back(x).numpy(), ref, **TOL)
    assert_close(model(backend.asarray(x.numpy())), ref, **TOL)


@pytest.mark.parametrize("which", ["batch_norm", "layer_norm"])
def test_a_sequential_of_norms_without_affine_round_trips_layer_by_layer(which):
    net = _trained(torch.nn.Sequential(_norms()[which]), channels=4)
    back = to_torch(from_torch(net, backend="numpy"))
    want, got = net.state_dict(), back.state_dict()
    assert list(got) == list(want)
    assert all(torch.equal(got[k], t) for k, t in want.items())


@pytest.mark.parametrize("which", ["batch_norm", "layer_norm"])
def test_a_norm_trained_away_from_identity_keeps_its_affine_parameters(which):
    """A norm without affine parameters runs as weight 1, bias 0; once those params change,
    to_torch keeps them (a layer with affine parameters) rather than dropping the values."""
    net = _trained(torch.nn.Sequential(_norms()[which]), channels=4)
    model = from_torch(net, backend="numpy")
    params = model.params.cont_map(lambda v, kc: v * 2.0 if kc.endswith("weight") else v)
    back = to_torch(model, params)
    assert "0.weight" in back.state_dict() and "0.bias" in back.state_dict()
    x = torch.randn(2, 4, 8, 8, generator=torch.Generator().manual_seed(5))
    with torch.no_grad():
        want = model.apply(params, x.numpy())
        assert_close(back(x).numpy(), want, **TOL)
        assert not np.allclose(back(x).numpy(), net(x).numpy(), atol=1e-3)

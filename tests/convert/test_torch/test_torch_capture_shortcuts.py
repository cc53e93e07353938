"""The shortcuts a converted torch graph takes at capture: values that depend
on no input are folded into constants, attention with a constant mask skips the guard for
queries that attend to nothing, and nodes that change nothing on the captured shapes give their
input back. Each test checks the shortcut is taken (in ``model.code``) and that the outputs
still equal PyTorch's on every backend; and that what must stay per call (outputs, parameters)
does.
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import torch.nn.functional as F  # noqa: E402

import ivy_like  # noqa: E402
from ivy_like.container import Container  # noqa: E402
from ivy_like.convert import from_torch  # noqa: E402
from ivy_like.convert.torch import capture  # noqa: E402
from ivy_like.testing import assert_close  # noqa: E402

TOL = {"rtol": 1e-5, "atol": 1e-5}
FOLDED = "folded at capture"


def _x(*shape: int) -> np.ndarray:
    return np.random.default_rng(0).standard_normal(shape).astype(np.float32)


def _torch_out(net: torch.nn.Module, *xs: np.ndarray) -> object:
    with torch.no_grad():
        return net(*(torch.from_numpy(x) for x in xs))


def _calls(code: str, handler: str) -> list[str]:
    return [line for line in code.splitlines() if f"{handler}(" in line]


# -- folding -------------------------------------------------------------------------------------
class _CausalMix(torch.nn.Module):
    """A mask and positions built from ``arange`` (as GPT-2 does), applied to the input."""

    def forward(self, x):
        pos = torch.arange(x.shape[-1])
        allowed = pos[None, :] <= pos[:, None]
        return torch.where(allowed, x, 0.0) + pos.float() * 0.5


def test_a_subgraph_of_constants_is_computed_at_capture(backend):
    net = _CausalMix()
    model = from_torch(net, torch.ones(4, 4), backend="numpy")
    assert FOLDED in model.code
    assert not _calls(model.code, "aten_arange_default")  # not run again on each call
    x = _x(4, 4)
    out = model(backend.asarray(x))
    assert isinstance(out, tuple(backend.array_types))
    assert_close(out, _torch_out(net, x).numpy(), **TOL)


class _ConstantOutputs(torch.nn.Module):
    def forward(self, x):
        return x + 1, torch.arange(3), torch.arange(4) * 2


def test_outputs_made_of_constants_are_new_arrays_on_every_call():
    model = from_torch(_ConstantOutputs(), torch.ones(3), backend="numpy")
    assert FOLDED in model.code  # arange(4) is folded, its product is computed per call
    assert len(_calls(model.code, "aten_arange_default")) == 1  # the output arange(3)
    x = np.ones(3, np.float32)
    with ivy_like.use_backend("numpy"):
        first = model(x)
        first[1][...] = 7  # a caller writing into its outputs
        first[2][...] = 7
        second = model(x)
    assert first[1] is not second[1] and first[2] is not second[2]
    np.testing.assert_array_equal(second[1], [0, 1, 2])
    np.testing.assert_array_equal(second[2], [0, 2, 4, 6])


class _BigConstant(torch.nn.Module):
    def forward(self, x):
        return x + torch.arange(16.0).reshape(4, 4)


def test_constants_over_the_size_limit_are_computed_per_call(monkeypatch):
    x = _x(4, 4)
    want = _torch_out(_BigConstant(), x).numpy()
    folded = from_torch(_BigConstant(), torch.ones(4, 4), backend="numpy")
    assert FOLDED in folded.code
    monkeypatch.setattr(capture, "FOLD_LIMIT", 8)
    model = from_torch(_BigConstant(), torch.ones(4, 4), backend="numpy")
    assert FOLDED not in model.code
    assert len(_calls(model.code, "aten_arange_default")) == 1
    with ivy_like.use_backend("numpy"):
        assert_close(model(x), want, **TOL)
        assert_close(folded(x), want, **TOL)


# -- attention with a constant mask --------------------------------------------------------------
class _MaskedAttention(torch.nn.Module):
    def __init__(self, empty_row: int | None) -> None:
        super().__init__()
        self.empty_row = empty_row

    def forward(self, x):
        n = x.shape[-2]
        mask = torch.ones(n, n, dtype=torch.bool).tril()
        if self.empty_row is not None:
            mask[self.empty_row] = False  # a query that may attend to no key
        q, k, v = x, x * 0.5, x + 1.0
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)


@pytest.mark.parametrize("empty_row", [None, 2])
def test_attention_with_a_constant_mask(backend, empty_row):
    net = _MaskedAttention(empty_row)
    model = from_torch(net, torch.ones(2, 3, 5, 8), backend="numpy")
    direct = _calls(model.code, "attention_rows_attend")
    guarded = _calls(model.code, "aten_scaled_dot_product_attention_default")
    # the guard for queries attending to nothing (torch's zeros) only where the mask has one
    assert (len(direct), len(guarded)) == ((1, 0) if empty_row is None else (0, 1))
    x = _x(2, 3, 5, 8)
    want = _torch_out(net, x).numpy()
    if empty_row is not None:
        assert not want[..., empty_row, :].any()
    assert_close(model(backend.asarray(x)), want, **TOL)


# -- nodes that change nothing on the captured shapes --------------------------------------------
class _Reshapes(torch.nn.Module):
    def forward(self, x):
        y = x.view(2, 3).to(torch.float32).expand(2, 3)[:, 0:3]
        return y * 2 + x.transpose(0, 1).reshape(2, 3)


def test_no_op_nodes_give_their_input_and_shapes_are_static(backend):
    net = _Reshapes()
    model = from_torch(net, torch.ones(2, 3), backend="numpy")
    for handler in ("view_default", "to_dtype", "expand_default", "slice_Tensor", "transpose"):
        assert not [ln for ln in _calls(model.code, "aten_" + handler)], model.code
    assert _calls(model.code, "il_permute_dims") and _calls(model.code, "il_reshape")
    x = _x(2, 3)
    assert_close(model(backend.asarray(x)), _torch_out(net, x).numpy(), **TOL)


# -- parameters are read on every call -----------------------------------------------------------
def test_apply_reads_the_parameters_it_is_given_on_every_call():
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
    model = from_torch(net, torch.ones(5, 3), backend="numpy")
    x = _x(5, 3)
    params = model.params
    with ivy_like.use_backend("numpy"):
        assert_close(model.apply(params, x), _torch_out(net, x).numpy(), **TOL)
        with torch.no_grad():
            net[2].weight.mul_(2.0)
        want = _torch_out(net, x).numpy()
        # a new Container with one leaf replaced
        changed = Container(params.cont_to_dict())
        changed["2/weight"] = net[2].weight.detach().numpy().copy()
        assert_close(model.apply(changed, x), want, **TOL)
        # the same Container object, its leaf replaced in place
        params["2/weight"] = net[2].weight.detach().numpy().copy()
        assert_close(model.apply(params, x), want, **TOL)
        # nested plain dicts work too, and a missing leaf is a KeyError
        nested = {k: dict(v) for k, v in params.items()}
        assert_close(model.apply(nested, x), want, **TOL)
        del nested["2"]["bias"]
        with pytest.raises(KeyError):
            model.apply(nested, x)


# -- addmm as one linear -------------------------------------------------------------------------
class _Conv1D(torch.nn.Module):
    """transformers' Conv1D: a flattening view, addmm, a view back; then addmm variants."""

    def __init__(self) -> None:
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.weight = torch.nn.Parameter(torch.randn(8, 6, generator=g))
        self.bias = torch.nn.Parameter(torch.randn(6, generator=g))

    def forward(self, x):
        y = torch.addmm(self.bias, x.view(-1, 8), self.weight).view(*x.shape[:-1], 6)
        z = torch.addmm(self.bias, x.view(-1, 8) * 2, self.weight)  # no view around it
        scaled = torch.addmm(self.bias, x.view(-1, 8), self.weight, beta=0.5)  # beta scales
        return y, z, scaled


def test_addmm_runs_as_one_linear(backend):
    net = _Conv1D()
    model = from_torch(net, torch.ones(2, 3, 8), backend="numpy")
    linears = _calls(model.code, "addmm_as_linear")
    assert len(linears) == 2
    assert "(x, " in linears[0]  # the unflattened input: both views are gone
    assert len(_calls(model.code, "aten_addmm_default")) == 1  # the one with beta=0.5
    x = _x(2, 3, 8)
    got = model(backend.asarray(x))
    for g, want in zip(got, _torch_out(net, x)):
        assert_close(g, want.numpy(), **TOL)


# -- indexing with constant indices --------------------------------------------------------------
class _ConstantIndices(torch.nn.Module):
    def forward(self, x):
        pos = torch.arange(4)
        rows, cols = pos[:, None], (pos - 1)[None, :]  # -1 counts back from the end
        picked = x[0][rows, cols]  # (4, 4) from two broadcast index arrays
        inner = x[:, torch.tensor([3, 0, -2])]  # one array, on axis 1
        return picked, inner


def test_indexing_with_constant_indices(backend):
    net = _ConstantIndices()
    model = from_torch(net, torch.ones(2, 4, 4), backend="numpy")
    assert len(_calls(model.code, "index_rows")) == 2
    assert not _calls(model.code, "aten_index_Tensor")
    x = _x(2, 4, 4)
    for got, want in zip(model(backend.asarray(x)), _torch_out(net, x)):
        assert_close(got, want.numpy(), **TOL)

"""from_torch with ``dynamic_shapes=``: one capture runs at every size of its dynamic dimensions.

GPT-2 (a small config, random weights, no download) is captured once with its batch and
sequence length dynamic and run at other batch sizes and lengths on every backend, eagerly
and compiled, against PyTorch; gradients at a new size match PyTorch's. The call checks the
ranges torch.export captured and that inputs sharing a ``Dim`` agree; a model that fixes a
dimension marked dynamic is refused naming it; arithmetic on sizes (``x.shape[0] *
x.shape[1]``) is computed from the sizes of each call.
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

import ivy_like  # noqa: E402
from ivy_like.convert import from_torch  # noqa: E402
from ivy_like.testing import assert_close  # noqa: E402

Dim = torch.export.Dim
TOL = {"rtol": 1e-4, "atol": 1e-4}
SIZES = [(1, 5), (3, 40), (7, 5)]  # (batch, tokens), none of them the example's (2, 16)


@pytest.fixture(scope="module")
def gpt2():
    torch.manual_seed(0)
    config = transformers.GPT2Config(
        n_layer=2, n_embd=32, n_head=2, vocab_size=100, n_positions=64, use_cache=False
    )
    net = transformers.GPT2LMHeadModel(config).eval()
    ids = torch.randint(0, 100, (2, 16))
    batch, seq = Dim("batch", max=64), Dim("seq", max=64)
    model = from_torch(
        net,
        ids,
        attention_mask=torch.ones(2, 16, dtype=torch.int64),
        dynamic_shapes={"input_ids": {0: batch, 1: seq}, "attention_mask": {0: batch, 1: seq}},
        backend="numpy",
    )
    return net, model


def _inputs(batch: int, tokens: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    ids = rng.integers(0, 100, (batch, tokens)).astype(np.int32)
    mask = np.ones((batch, tokens), np.int32)
    mask[0, : min(2, tokens - 1)] = 0  # left padding in the first row
    return ids, mask


def _torch_logits(net, ids, mask):
    with torch.no_grad():
        out = net(torch.from_numpy(ids).long(), attention_mask=torch.from_numpy(mask).long())
    return out.logits.numpy()


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
def test_one_capture_runs_at_every_batch_and_length(backend, gpt2, compiled):
    net, model = gpt2
    params = model.params_on(backend)

    def logits(p, ids, mask):
        return model.apply(p, ids, attention_mask=mask)["logits"]

    run = ivy_like.compile(logits) if compiled else logits
    for seed, (batch, tokens) in enumerate(SIZES):
        ids, mask = _inputs(batch, tokens, seed)
        got = run(params, backend.asarray(ids), backend.asarray(mask))
        assert_close(got, _torch_logits(net, ids, mask), **TOL, label=f"{(batch, tokens)}: ")


@pytest.mark.requires("autodiff")
def test_gradients_at_a_new_size_match_torch(backend, gpt2):
    net, model = gpt2
    ids, mask = _inputs(3, 9, 7)
    net.zero_grad()
    out = net(torch.from_numpy(ids).long(), attention_mask=torch.from_numpy(mask).long())
    (out.logits**2).mean().backward()
    want = {n.replace(".", "/"): p.grad.numpy() for n, p in net.named_parameters()}
    native_ids, native_mask = backend.asarray(ids), backend.asarray(mask)

    def loss(p):
        return ivy_like.mean(model.apply(p, native_ids, attention_mask=native_mask)["logits"] ** 2)

    got = ivy_like.grad(loss)(model.params_on(backend)).cont_flatten_key_chains()
    for kc, g in got.items():
        name = kc if kc in want else model.aliases[kc][0].replace(".", "/")
        scale = max(1.0, float(np.abs(want[name]).max()))
        assert_close(g, want[name], rtol=1e-4, atol=1e-4 * scale, label=f"{kc}: ")


def test_calls_are_checked_against_the_dynamic_dimensions(gpt2):
    _, model = gpt2
    with pytest.raises(ValueError, match=r"input 0 axis 1 has size 65; .* sizes \d+ to 64"):
        model(np.zeros((2, 65), np.int64), attention_mask=np.ones((2, 65), np.int64))
    with pytest.raises(
        ValueError, match=r"input 1 axis 1 has size 6 but input 0 axis 1 has size 5"
    ):
        model(np.zeros((2, 5), np.int64), attention_mask=np.ones((2, 6), np.int64))
    with pytest.raises(ValueError, match=r"input 0 has shape \(2, 5, 1\)"):
        model(np.zeros((2, 5, 1), np.int64), attention_mask=np.ones((2, 5), np.int64))


class _Flatten(torch.nn.Module):
    def forward(self, x):
        rows = x.shape[0] * x.shape[1]
        return x.reshape(rows, x.shape[2]).sum(0) * 2.0, x.new_zeros(x.shape[0], 3)


def test_arithmetic_on_sizes_follows_each_call(backend):
    x = torch.randn(2, 3, 4)
    dims = ({0: Dim("a"), 1: Dim("b")},)
    model = from_torch(_Flatten(), x, dynamic_shapes=dims, backend="numpy")
    for shape in [(5, 2, 4), (1, 7, 4)]:
        y = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
        want = [t.numpy() for t in _Flatten()(torch.from_numpy(y))]
        got = model(backend.asarray(y))
        for g, w in zip(got, want):
            assert_close(g, w, **TOL)
    with pytest.raises(ValueError, match=r"input 0 has shape \(2, 3, 5\)"):
        model(np.zeros((2, 3, 5), np.float32))  # axis 2 was not made dynamic


class _FixesTheBatch(torch.nn.Module):
    def forward(self, x):
        return x.reshape(2, -1)  # the example's batch, written as a number


def test_a_model_that_fixes_a_dynamic_dimension_is_refused_naming_it():
    x = torch.randn(2, 3)
    with pytest.raises(ValueError, match=r"dynamic_shapes: .*'batch'"):
        from_torch(_FixesTheBatch(), x, dynamic_shapes=({0: Dim("batch")},), backend="numpy")


def test_static_captures_say_how_to_make_a_dimension_dynamic():
    model = from_torch(_Flatten(), torch.randn(2, 3, 4), backend="numpy")
    with pytest.raises(ValueError, match=r"captured for shape \(2, 3, 4\).*dynamic_shapes"):
        model(np.zeros((3, 3, 4), np.float32))
    with pytest.raises(TypeError, match="dynamic_shapes needs example inputs"):
        from_torch(torch.nn.Sequential(torch.nn.Linear(2, 2)), dynamic_shapes={})


def test_ivy_like_export_of_a_dynamic_capture(tmp_path, gpt2):
    """Exported with its example's sizes, a dynamic capture serves them; exported with
    dynamic dimensions it is not yet (ivy_like's composites read sizes as ints), and says so
    naming the dimension, with nothing left at the path."""
    net, model = gpt2

    def logits(ids, mask):  # the mask is a keyword of the model's
        return model(ids, attention_mask=mask)["logits"]

    ids, mask = _inputs(2, 16, 3)
    path = tmp_path / "gpt2.pt2"
    ivy_like.export(logits, ids, mask, format="torch", path=str(path), dynamic=False)
    served = torch.export.load(str(path)).module()
    with torch.no_grad():
        got = served(torch.from_numpy(ids), torch.from_numpy(mask))
    assert_close(got.numpy(), _torch_logits(net, ids, mask), **TOL)

    bad = tmp_path / "dynamic.pt2"
    with pytest.raises(ivy_like.convert.ExportError, match="batch"):
        ivy_like.export(logits, ids, mask, format="torch", path=str(bad))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gpt2.pt2"]

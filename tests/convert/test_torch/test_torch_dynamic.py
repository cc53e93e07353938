"""from_torch with ``dynamic_shapes=``: one capture runs at every size of its dynamic dimensions.

GPT-2 (a small config, random weights, no download) is captured once with its batch and
sequence length dynamic and run at other batch sizes and lengths on every backend, eagerly
and compiled, against PyTorch; gradients at a new size match PyTorch's. The call checks the
ranges torch.export captured and that inputs sharing a ``Dim`` agree; a model that fixes a
dimension marked dynamic is refused naming it; arithmetic on sizes (``x.shape[0] *
x.shape[1]``) is computed from the sizes of each call.
"""

from __future__ import annotations

import sys
from pathlib import Path

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
    model = from_torch(_Flatten(), torch.randn(2, 3, 4), backend="numpy", dynamic_shapes=False)
    with pytest.raises(ValueError, match=r"captured for shape \(2, 3, 4\).*dynamic_shapes"):
        model(np.zeros((3, 3, 4), np.float32))
    with pytest.raises(TypeError, match="dynamic_shapes needs example inputs"):
        from_torch(torch.nn.Sequential(torch.nn.Linear(2, 2)), dynamic_shapes={})


# -- the default: axis 0 of every tensor input is one dynamic dimension ------------------------
class _TwoInputs(torch.nn.Module):
    def forward(self, x, table):
        return x @ table + x.sum(0)  # table's axis 0 is x's axis 1, not the batch


def test_without_dynamic_shapes_the_batch_is_dynamic(backend):
    model = from_torch(_Flatten(), torch.randn(2, 3, 4), backend="numpy")
    for shape in [(5, 3, 4), (1, 3, 4)]:
        y = np.random.default_rng(2).standard_normal(shape).astype(np.float32)
        want = [t.numpy() for t in _Flatten()(torch.from_numpy(y))]
        for g, w in zip(model(backend.asarray(y)), want):
            assert_close(g, w, **TOL)
    with pytest.raises(ValueError, match=r"input 0 has shape \(2, 4, 4\)"):
        model(np.zeros((2, 4, 4), np.float32))  # only axis 0 is dynamic


def test_an_input_whose_axis_0_is_not_the_batch_stays_static():
    x, table = torch.randn(2, 3), torch.randn(3, 3)
    model = from_torch(_TwoInputs(), x, table, backend="numpy")
    y, t = np.ones((6, 3), np.float32), table.numpy()
    want = _TwoInputs()(torch.from_numpy(y), table).numpy()
    assert_close(model(y, t), want, **TOL)
    with pytest.raises(ValueError, match=r"input 1 has shape \(4, 3\)"):
        model(np.ones((4, 3), np.float32), np.ones((4, 3), np.float32))


def test_a_model_that_fixes_the_batch_is_captured_static_and_says_why():
    model = from_torch(_FixesTheBatch(), torch.randn(2, 3), backend="numpy")
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert_close(model(x), x.reshape(2, -1), **TOL)
    with pytest.raises(ValueError, match=r"axis 0\) could not be dynamic: .*fixes .*'batch'"):
        model(np.zeros((3, 3), np.float32))
    one = from_torch(_Flatten(), torch.randn(1, 3, 4), backend="numpy")  # torch fixes a 1
    with pytest.raises(ValueError, match=r"could not be dynamic: the example's batch is 1"):
        one(np.zeros((2, 3, 4), np.float32))


# -- what depends on the sizes alone: computed once per size ------------------------------------
class _Positions(torch.nn.Module):
    def forward(self, x):
        pos = torch.arange(x.shape[0], dtype=x.dtype)  # from the batch size alone
        causal = (pos[:, None] >= pos[None, :]).to(x.dtype)
        return causal @ x + pos[:, None]


def _positions(y):
    return _Positions()(torch.from_numpy(np.asarray(y, np.float32))).numpy()


def test_what_depends_on_the_sizes_alone_is_kept_per_size(backend):
    """Eager, compiled and under vmap (each slice its own size) the values follow each
    call's sizes; the cache keeps at most SizedValues.LIMIT tuples of sizes."""
    from ivy_like.convert._captured import SizedValues

    model = from_torch(_Positions(), torch.randn(4, 3), backend="numpy")
    assert "once per size" in model.code
    rng = np.random.default_rng(5)
    xs = [rng.standard_normal((n, 3)).astype(np.float32) for n in (5, 2, 5, 7)]
    params = model.params_on(backend)
    compiled = ivy_like.compile(lambda x: model.apply(params, x))
    for run in (model, compiled):
        for y in xs:
            assert_close(run(backend.asarray(y)), _positions(y), **TOL, label=f"{y.shape}: ")
    stack = rng.standard_normal((3, 6, 3)).astype(np.float32)
    got = ivy_like.to_numpy(ivy_like.vmap(lambda x: model.apply(params, x))(backend.asarray(stack)))
    for i in range(3):
        assert_close(got[i], _positions(stack[i]), **TOL, label=f"vmap slice {i}: ")
    for n in range(1, 2 * SizedValues.LIMIT):
        assert_close(
            model(backend.asarray(np.ones((n, 3), np.float32))), _positions(np.ones((n, 3)))
        )
    cache = model._function.__globals__["__sized"]._cache
    assert 0 < len(cache) <= SizedValues.LIMIT


@pytest.mark.requires("autodiff")
def test_gradients_through_values_kept_per_size(backend):
    model = from_torch(_Positions(), torch.randn(4, 3), backend="numpy")
    for n in (5, 3, 5):
        y = np.random.default_rng(n).standard_normal((n, 3)).astype(np.float32)
        t = torch.from_numpy(y).requires_grad_()
        (_Positions()(t) ** 2).sum().backward()
        got = ivy_like.grad(lambda x: ivy_like.sum(model(x) ** 2))(backend.asarray(y))
        assert_close(got, t.grad.numpy(), **TOL, label=f"{n}: ")


# -- ivy_like.export of the dynamic capture: one artifact per format serves every size ------------
ARTIFACTS = {  # format -> (framework, file name)
    "torch": ("torch", "gpt2.pt2"),
    "jax": ("jax", "gpt2.jaxexport"),
    "savedmodel": ("tensorflow", "gpt2_savedmodel"),
    "tflite": ("tensorflow", "gpt2.tflite"),
}
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/convert: the loader
from _load_artifacts import serve as serve_artifacts  # noqa: E402


def _serve(fmt, path, sizes, folder):
    """The artifact at ``path`` run at each (batch, tokens) of ``sizes`` by a process that
    cannot import ivy_like: the logits of each, and the inputs given."""
    jobs, given = [], []
    for seed, (batch, tokens) in enumerate(sizes):
        ids, mask = _inputs(batch, tokens, 10 + seed)
        inputs, outputs = folder / f"in_{seed}.npz", folder / f"out_{seed}.npz"
        np.savez(inputs, arg0=ids, arg1=mask)
        jobs.append({"format": fmt, "path": str(path), "names": ["ids", "mask"],
                     "inputs": str(inputs), "outputs": str(outputs)})  # fmt: skip
        given.append((ids, mask, outputs))
    serve_artifacts(jobs, folder)
    out = []
    for ids, mask, outputs in given:
        with np.load(outputs) as data:
            out.append((ids, mask, [data[k] for k in data.files]))
    return out


@pytest.mark.parametrize("fmt", list(ARTIFACTS))
def test_an_export_of_the_dynamic_capture_serves_every_batch_and_length(fmt, tmp_path, gpt2):
    """Captured once at 2 x 16 with its batch and length dynamic, exported once: the
    framework alone serves batch 1, 3 and 7 and 5 and 40 tokens, as PyTorch computes them."""
    framework, filename = ARTIFACTS[fmt]
    pytest.importorskip(framework)
    net, model = gpt2

    def logits(ids, mask):  # the mask is a keyword of the model's
        return model(ids, attention_mask=mask)["logits"]

    ids, mask = _inputs(2, 16, 3)
    path = tmp_path / filename
    both = {0: "batch", 1: "seq"}
    ivy_like.export(logits, ids, mask, format=fmt, path=str(path), dynamic=[both, both])
    for ids, mask, got in _serve(fmt, path, SIZES, tmp_path):
        assert len(got) == 1
        assert_close(got[0], _torch_logits(net, ids, mask), **TOL, label=f"{ids.shape}: ")


def test_mlx_cannot_carry_the_dynamic_capture_and_says_so(tmp_path, gpt2):
    """MLX has dynamic dimensions only as one shapeless graph, which GPT-2's split (MLX's
    Slice) cannot run at another shape: a clear error, nothing left behind; with its shapes
    fixed the same capture exports."""
    pytest.importorskip("mlx.core")
    net, model = gpt2

    def logits(ids, mask):
        return model(ids, attention_mask=mask)["logits"]

    ids, mask = _inputs(2, 16, 3)
    with pytest.raises(ivy_like.convert.ExportError, match=r"MLX carries dynamic .* shapeless"):
        ivy_like.export(logits, ids, mask, format="mlx", path=str(tmp_path / "dynamic.mlxfn"))
    assert list(tmp_path.iterdir()) == []
    path = tmp_path / "gpt2.mlxfn"
    ivy_like.export(logits, ids, mask, format="mlx", path=str(path), dynamic=False)
    ((_, _, got),) = _serve("mlx", path, [(2, 16)], tmp_path)
    want = _torch_logits(net, *_inputs(2, 16, 10))
    assert_close(got[0], want, **TOL)


def _calls(program) -> int:
    return sum(n.op == "call_function" for n in program.graph.nodes)


def test_the_dynamic_pt2_is_no_larger_than_torch_export_of_the_source(tmp_path):
    """Eager ``.pt2`` time follows the number of ops: on torch the converted index, embedding
    and slices are ATen's own ops (one node each), the attention mask is read only outside a
    trace, so the artifact of the default capture (batch dynamic) has no more ops than what
    ``torch.export`` makes of the original with the same ``Dim``."""
    torch.manual_seed(0)
    config = transformers.GPT2Config(
        n_layer=2, n_embd=32, n_head=2, vocab_size=100, n_positions=64, use_cache=False
    )
    net = transformers.GPT2LMHeadModel(config).eval()
    ids = torch.randint(0, 100, (2, 16))
    path = str(tmp_path / "gpt2.pt2")
    ivy_like.export(from_torch(net, ids), ids.numpy(), format="torch", path=path)
    ours = torch.export.load(path)
    theirs = torch.export.export(net, (ids,), dynamic_shapes=({0: Dim("batch")},))
    assert _calls(ours) <= _calls(theirs), (_calls(ours), _calls(theirs))
    names = {str(n.target) for n in ours.graph.nodes if n.op == "call_function"}
    assert "aten.where.self" not in names  # no bounds arithmetic around the indexing
    at = torch.randint(0, 100, (3, 16))
    with torch.no_grad():
        want = net(at).logits
    assert_close(ours.module()(at)["logits"].numpy(), want.numpy(), **TOL)

"""from_torch by graph capture: real models on every backend, their gradients, the
errors, the round trip through to_torch, and the nn ops the converted models need.

Each model is captured once (on numpy) and run on every installed backend against PyTorch's
own float32 outputs. On jax the model runs under ``ivy_like.compile``: eager jax compiles
every op of the graph on first use (10-40 s per model on a loaded 2-core machine), a jit
compiles the graph once; eager jax is tested on the LSTM.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import torch.nn.functional as F  # noqa: E402
from _nets import gen as _gen  # noqa: E402
from _nets import randomize_norms  # noqa: E402

import ivy_like  # noqa: E402
from ivy_like.convert import (  # noqa: E402
    GraphModel,
    UnsupportedOpError,
    from_torch,
    to_torch,
)
from ivy_like.testing import assert_close  # noqa: E402

TOL = {"rtol": 1e-4, "atol": 1e-4}  # the bar: within 1e-4 of torch in float32


# -- the models ----------------------------------------------------------------------------------
def transformer_encoder():
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(
        d_model=32, nhead=4, dim_feedforward=64, batch_first=True
    )
    net = torch.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
    return net.eval(), (torch.randn(2, 5, 32, generator=_gen(1)),), {}


class LSTMClassifier(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lstm = torch.nn.LSTM(8, 16, num_layers=2, batch_first=True)
        self.head = torch.nn.Linear(16, 3)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


def lstm_classifier():
    torch.manual_seed(0)
    return LSTMClassifier().eval(), (torch.randn(2, 6, 8, generator=_gen(2)),), {}


def _gpt2():
    transformers = pytest.importorskip("transformers")
    torch.manual_seed(0)
    config = transformers.GPT2Config(
        n_layer=2, n_head=4, n_embd=64, vocab_size=100, n_positions=32, use_cache=False
    )
    return transformers.GPT2LMHeadModel(config).eval()


def gpt2():
    return _gpt2(), (torch.randint(0, 100, (2, 7), generator=_gen(3)),), {}


def gpt2_masked():
    mask = torch.ones(2, 7, dtype=torch.long)
    mask[1, :3] = 0  # left padding
    ids = torch.randint(0, 100, (2, 7), generator=_gen(4))
    return _gpt2(), (ids,), {"attention_mask": mask}


def resnet():
    transformers = pytest.importorskip("transformers")
    torch.manual_seed(0)
    config = transformers.ResNetConfig(
        depths=[1, 1, 1, 1],
        hidden_sizes=[16, 32, 64, 128],
        embedding_size=16,
        layer_type="basic",
    )
    net = transformers.ResNetForImageClassification(config)
    randomize_norms(net, 5, linear=True)
    return net.eval(), (torch.randn(2, 3, 64, 64, generator=_gen(6)),), {}


def mobilenet_v2():
    transformers = pytest.importorskip("transformers")
    torch.manual_seed(0)
    config = transformers.MobileNetV2Config(depth_multiplier=0.35)
    net = transformers.MobileNetV2ForImageClassification(config)
    randomize_norms(net, 7, linear=True)
    return net.eval(), (torch.randn(2, 3, 64, 64, generator=_gen(8)),), {}


MODELS = {
    "transformer_encoder": transformer_encoder,
    "lstm": lstm_classifier,
    "gpt2": gpt2,
    "gpt2_masked": gpt2_masked,
    "resnet": resnet,
    "mobilenet_v2": mobilenet_v2,
}


def _main_output(out):
    return out["logits"] if isinstance(out, dict) else out


@functools.cache
def captured(name: str):
    """(torch module, example args, kwargs, GraphModel on numpy, torch's output as NumPy)."""
    net, args, kwargs = MODELS[name]()
    model = from_torch(net, *args, backend="numpy", **kwargs)
    with torch.no_grad():
        ref = _main_output(net(*args, **kwargs)).numpy()
    return net, args, kwargs, model, ref


def _on(backend, t):
    """A torch example input as an array of ``backend`` (int64 ids as the backend's int)."""
    a = t.numpy()
    if a.dtype == np.int64 and backend.name in ("jax",):
        a = a.astype(np.int32)  # jax has no int64 unless x64 is on
    return backend.asarray(a)


def _inputs(backend, args, kwargs):
    return [_on(backend, a) for a in args], {k: _on(backend, v) for k, v in kwargs.items()}


def _run(model, backend, args, kwargs):
    if backend.name == "jax":
        return ivy_like.compile(model.apply)(model.params_on(backend), *args, **kwargs)
    return model(*args, **kwargs)


# -- outputs on every backend ------------------------------------------------------------------
@pytest.mark.parametrize("name", list(MODELS))
def test_converted_model_matches_torch(backend, name):
    net, args, kwargs, model, ref = captured(name)
    a, k = _inputs(backend, args, kwargs)
    out = _main_output(_run(model, backend, a, k))
    assert isinstance(out, tuple(backend.array_types))
    assert_close(out, ref, **TOL)


def test_eager_jax_runs_the_graph():
    pytest.importorskip("jax")
    net, args, kwargs, model, ref = captured("lstm")
    with ivy_like.use_backend("jax") as b:
        out = model(*[_on(b, a) for a in args])
    assert_close(out, ref, **TOL)


class _WithConstant(torch.nn.Module):
    def forward(self, x):
        return x * torch.tensor([1.0, 2.0, 3.0])  # a constant of the graph


def test_constants_made_inside_a_jit_do_not_leak_out_of_it():
    pytest.importorskip("jax")
    model = from_torch(_WithConstant(), torch.ones(3), backend="numpy")
    with ivy_like.use_backend("jax") as b:
        x = b.asarray(np.ones(3, np.float32))
        want = np.array([1.0, 2.0, 3.0], np.float32)
        assert_close(ivy_like.compile(model.apply)(model.params, x), want)
        assert_close(model(x), want)  # eager after the jit: no escaped tracer
        assert_close(ivy_like.compile(lambda v: model(v) * 2)(x), want * 2)


class _WithScalarBuffer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("scale", torch.tensor(2.0))  # a 0-d buffer
        self.register_buffer("shift", torch.zeros(()), persistent=False)  # a 0-d constant

    def forward(self, x):
        return x * self.scale + self.shift


def test_zero_d_buffers_and_constants_keep_their_shape():
    model = from_torch(_WithScalarBuffer(), torch.ones(3), backend="numpy")
    assert tuple(model.params["scale"].shape) == ()
    assert_close(model(np.arange(3, dtype=np.float32)), np.arange(3, dtype=np.float32) * 2)
    assert tuple(model.constants_on(ivy_like.get_backend("numpy"))[0].shape) == ()


def test_params_are_the_state_dict():
    net, args, kwargs, model, ref = captured("resnet")
    names = {k for k in net.state_dict() if not k.endswith("num_batches_tracked")}
    assert set(model.params.cont_all_key_chains()) == {k.replace(".", "/") for k in names}
    kc = "resnet/encoder/stages/0/layers/0/layer/0/convolution/weight"
    sd = net.state_dict()[kc.replace("/", ".")]
    assert_close(model.params[kc], sd.numpy())
    # copied by default: the torch module's weights are not shared
    assert not np.shares_memory(model.params[kc], sd.numpy())


def test_tied_weights_are_one_leaf():
    net, args, kwargs, model, ref = captured("gpt2")
    keys = model.params.cont_all_key_chains()
    assert "transformer/wte/weight" in keys and "lm_head/weight" not in keys
    assert model.aliases["transformer/wte/weight"] == ["transformer.wte.weight", "lm_head.weight"]


def test_model_output_structure_is_kept():
    net, args, kwargs, model, ref = captured("gpt2")
    out = model(args[0].numpy())
    assert isinstance(out, ivy_like.Container) and list(out) == ["logits"]
    assert out.logits.shape == (2, 7, 100)


def test_calls_are_checked_against_the_capture():
    net, args, kwargs, model, ref = captured("gpt2_masked")
    ids, mask = args[0].numpy(), kwargs["attention_mask"].numpy()
    with pytest.raises(TypeError, match="attention_mask"):
        model(ids)  # captured with attention_mask=
    with pytest.raises(ValueError, match=r"captured for shape \(\w+, 7\)"):
        model(ids[:, :3], attention_mask=mask[:, :3])  # only the batch is dynamic


def test_generated_code_names_ops_and_modules():
    net, args, kwargs, model, ref = captured("gpt2")
    assert "aten.scaled_dot_product_attention.default" in model.aten_ops
    line = next(ln for ln in model.code.splitlines() if "aten.layer_norm" in ln)
    assert "module 'transformer.h.0.ln_1'" in line


def test_capture_leaves_the_training_mode_alone():
    net = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Dropout(0.5)).train()
    model = from_torch(net, torch.ones(2, 3), backend="numpy")
    assert net.training and net[1].training
    x = np.ones((2, 3), dtype=np.float32)
    # captured in eval mode: the dropout is the identity
    assert_close(model(x), net.eval()(torch.from_numpy(x)).detach().numpy(), atol=1e-6)


def test_sequential_without_examples_still_converts_layer_by_layer():
    net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU())
    assert isinstance(from_torch(net, backend="numpy"), ivy_like.nn.Sequential)
    assert isinstance(from_torch(net, torch.ones(1, 3), backend="numpy"), GraphModel)


# -- many ops at once: two modules returning a tuple of small results ---------------------------
class _MathZoo(torch.nn.Module):
    def forward(self, x, idx, img):
        y = x[:, :4]
        return (
            1 - x,
            x // 2,
            x % 3,
            torch.clamp(x, -0.5, 0.5),
            x.masked_fill(x > 0, 1.0),
            torch.cumsum(x, 1),
            x.flip(0),
            torch.roll(x, 1, 0),
            F.leaky_relu(x, 0.1),
            F.elu(x),
            F.softplus(x),
            F.gelu(x),
            torch.erf(x * 1.7),
            torch.erfc(x),
            F.silu(x),
            torch.sigmoid(x),
            x.var(1),
            x.std(),
            x.amax(1),
            x.max(1).values,
            x.max(1).indices,
            x.argmax(-1),
            torch.where(x > 0, x, 0.5),
            (x > 0).sum(1),
            torch.tril(y),
            y.t(),
            x.abs().sqrt(),
            torch.rsqrt(x.abs() + 1),
            x.exp().log(),
            x**2,
            x / 3,
            idx * 0.5,
            x.mean((0, 1), keepdim=True),
            F.softmax(x, -1),
            F.log_softmax(x, 0),
            x.min(),
            x.prod(1),
            torch.minimum(x, y.sum()),
            x.new_ones(3),
            torch.arange(4.0),
            torch.full((2,), 7),
            x.mul(idx[:, None].float()),
            torch.logical_and(x > 0, x < 1),
            ~(x > 0),
            x.round(),
            x.floor(),
            x.ceil(),
            x.sign(),
            torch.atan2(x, y.sum()),
            F.hardtanh(x),
            F.relu6(x * 8),
            F.hardsigmoid(x * 4),
        )


class _ShapeZoo(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.gru = torch.nn.GRU(4, 3, batch_first=True)  # no table entry: decomposed by torch
        self.conv = torch.nn.Conv1d(4, 6, 3, padding=1)
        self.gn = torch.nn.GroupNorm(2, 4)
        self.emb = torch.nn.Embedding(10, 4, padding_idx=0)

    def forward(self, x, idx, img):
        never = torch.tensor([[True, False], [False, False]])  # a query that sees no key
        return (
            x.gather(1, idx[:, None].expand(-1, 2)),
            x.index_select(1, idx),
            x[:, idx],
            x[idx, idx],
            x[..., idx],
            F.pad(x, (1, 2)),
            F.pad(x, (-1, 1, 1, 0), value=3.0),
            torch.cat([x, x], 1),
            torch.stack([x, x], -1),
            x.chunk(3, -1),
            x.unbind(0),
            x.split([1, 5], 1),
            x.expand(3, 2, 6),
            x.repeat(2, 1),
            x.unsqueeze(1).squeeze(),
            x.flatten(),
            x.unflatten(1, (2, 3)),
            x.permute(1, 0),
            x.transpose(0, 1).contiguous(),
            x.narrow(1, 1, 2),
            x[:, 1:5:2],
            x[-1],
            self.gru(x.reshape(1, 3, 4))[0],
            self.conv(x.reshape(1, 4, 3)),
            self.gn(img),
            F.avg_pool2d(img, 2, 1, 1),
            F.adaptive_avg_pool2d(img, (2, 1)),
            F.max_pool2d(img, 2, 1),
            self.emb(idx + 1),
            F.group_norm(img, 1),
            F.layer_norm(x, (6,)),
            x @ x.T,
            torch.bmm(x[None], x.T[None]),
            F.scaled_dot_product_attention(x[None], x[None], x[None], is_causal=True),
            F.scaled_dot_product_attention(x[None], x[None], x[None], attn_mask=never),
            x.to(torch.int32),
            x.type_as(idx),
            torch.zeros_like(x),
            torch.ones(2, dtype=torch.bool),
            F.pad(img, (1, 2, 2, 1), mode="reflect"),
            F.pad(img, (1, 0, 0, 2), mode="replicate"),
            torch.einsum("ij,kj->ik", x, x),
        )


class _LayerZoo(torch.nn.Module):
    """Transposed convolutions, resizing, slice assignment, weight norm, a 0-d constant,
    pooling in ceil mode, without counting the padding and adaptive max, circular padding,
    view_as."""

    def __init__(self) -> None:
        super().__init__()
        self.up = torch.nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2)
        self.up_odd = torch.nn.ConvTranspose2d(4, 2, (3, 2), stride=(2, 3), padding=(2, 0))
        self.up1d = torch.nn.ConvTranspose1d(2, 3, 4, stride=3, padding=1, dilation=2)
        self.wn = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(6, 3))

    def forward(self, x, idx, img):
        y = x.clone()
        y[:, 1:5:2] = x[:, :2] * 2  # slice_scatter
        y[1] = 0.5  # select_scatter
        z = torch.zeros(2, 6)
        z.copy_(x[:1])  # copy, broadcast
        return (
            self.up(img),
            self.up_odd(img),
            self.up1d(x.reshape(2, 2, 3)),
            self.wn(x),
            F.interpolate(img, scale_factor=2, mode="bilinear"),
            F.interpolate(img, size=(3, 7), mode="bilinear", align_corners=True),
            F.interpolate(img, scale_factor=1.7, mode="bilinear"),
            F.interpolate(img, size=(6, 3), mode="nearest"),
            F.interpolate(img, scale_factor=2.5, mode="nearest-exact"),
            y,
            z,
            torch.linalg.vector_norm(x, dim=1),
            torch.linalg.vector_norm(x, ord=float("inf")),
            torch.linalg.vector_norm(x, ord=3, dim=(0, 1), keepdim=True),
            x.sum() + torch.tensor(3.0),  # a 0-d constant stays 0-d
            F.max_pool2d(img, 3, 2, 1, ceil_mode=True),
            F.max_pool2d(img, 2, 3, ceil_mode=True),
            F.avg_pool2d(img, 3, 2, 1, ceil_mode=True),
            F.avg_pool2d(img, 3, 1, 1, count_include_pad=False),
            F.avg_pool2d(img, 2, 3, ceil_mode=True, count_include_pad=False),
            F.avg_pool2d(img, 2, divisor_override=3),
            img.flatten()[:12].view_as(x),
            x.flatten().reshape_as(x.t()),
            torch.arange(0, 6, 2.0, dtype=torch.int64),  # whole float bounds, integer dtype
            F.adaptive_max_pool2d(img, (3, 2)),
            F.adaptive_max_pool1d(x.reshape(2, 2, 3), 2),
            F.pad(img, (1, 2, 4, 0), mode="circular"),
        )


class _ScatterZoo(torch.nn.Module):
    """Index and scatter assignment, sorting, diagonals, distances, a bilinear layer, and a few
    more elementwise ops."""

    def __init__(self) -> None:
        super().__init__()
        self.bilinear = torch.nn.Bilinear(6, 3, 2)

    def forward(self, x, idx, img):
        y = x.clone()
        y[idx] = 2.0  # index_put, first axis
        z = img.clone()
        z[:, :, idx] = x[:, None, :2, None]  # index_put on a middle axis, broadcast values
        w = x.clone()
        w[x > 0.5] = -1.0  # index_put with a boolean mask and one value
        to = torch.tensor([[0, 3, 5], [4, 1, 2]])  # no repeated target in a row
        return (
            y,
            z,
            w,
            x.index_add(0, idx, x * 3),
            x.index_fill(1, idx, 0.0),
            torch.zeros(2, 6).scatter(1, to, x[:, :3]),
            x.scatter(1, to, 7.0),
            torch.ones(2, 6).scatter_add(1, torch.tensor([[0, 0, 5], [1, 1, 1]]), x[:, :3]),
            torch.sort(x, 1).values,
            torch.sort(x, 0, descending=True).indices,
            torch.argsort(x, 1),
            torch.topk(x, 2).values,
            torch.topk(x, 3, dim=1, largest=False).indices,
            torch.cumprod(x, 1),
            torch.fmod(x * 5, 1.5),
            torch.fmod(torch.tensor([-7, 7, -3]), 2),
            torch.hypot(x, x * 2),
            torch.exp2(x),
            torch.std_mean(x, 1)[0],
            x.unfold(1, 3, 2),
            F.one_hot(idx, 4),
            img.diagonal(),
            img.diagonal(1, 2, 3),
            img.diagonal(-2, -1, 1),
            torch.cdist(x, x[:1] + 0.5),
            torch.cdist(img[0], img[1], p=1.0),
            self.bilinear(x, x[:, :3]),
        )


@functools.cache
def zoo(name: str):
    torch.manual_seed(0)
    zoos = {"math": _MathZoo, "shapes": _ShapeZoo, "layers": _LayerZoo, "scatter": _ScatterZoo}
    net = zoos[name]().eval()
    args = (torch.randn(2, 6), torch.tensor([1, 0]), torch.randn(2, 4, 4, 4))
    with torch.no_grad():
        ref = [t.numpy() for t in torch.utils._pytree.tree_leaves(net(*args))]
    return from_torch(net, *args, backend="numpy"), args, ref


@pytest.mark.parametrize("name", ["math", "shapes", "layers", "scatter"])
def test_op_zoo_matches_torch(backend, name):
    model, args, ref = zoo(name)
    a, _ = _inputs(backend, args, {})
    out = _run(model, backend, a, {})
    leaves = [v for r in out for v in (r if isinstance(r, (list, tuple)) else [r])]
    assert len(leaves) == len(ref)
    for i, (got, want) in enumerate(zip(leaves, ref)):
        got = ivy_like.to_numpy(got)
        assert got.shape == want.shape, f"output {i}: shape {got.shape}, expected {want.shape}"
        # jax has no int64 without x64: its integers are int32, as its own arrays are
        dtype = np.int32 if want.dtype == np.int64 and backend.name == "jax" else want.dtype
        assert got.dtype == dtype, f"output {i}: dtype {got.dtype}, expected {dtype}"
        assert_close(got, want, atol=1e-5, rtol=1e-5, check_dtype=False, label=f"output {i}: ")


@pytest.mark.requires("autodiff")
@pytest.mark.parametrize("name", ["layers", "scatter"])
def test_zoo_gradients_match_torch(backend, name):
    """Gradients through transposed convolutions, resizing, pooling, slice, index and scatter
    assignment, sorting and weight norm, with respect to the weights and the inputs."""
    model, args, ref = zoo(name)
    net = {"layers": _LayerZoo, "scatter": _ScatterZoo}[name]()
    weights = model.params.cont_to_backend("numpy").cont_flatten_key_chains()
    net.load_state_dict(
        {k.replace("/", "."): torch.from_numpy(np.asarray(v)) for k, v in weights.items()}
    )
    x, idx, img = (a.clone() for a in args)
    x.requires_grad_(True)
    img.requires_grad_(True)
    outs = torch.utils._pytree.tree_leaves(net(x, idx, img))
    sum(o.square().sum() for o in outs if o.is_floating_point()).backward()
    expected = {n.replace(".", "/"): p.grad.numpy() for n, p in net.named_parameters()}
    a, _ = _inputs(backend, args, {})

    def loss(params, x, image):
        outs = model.apply(params, x, a[1], image)
        leaves = [v for r in outs for v in (r if isinstance(r, (list, tuple)) else [r])]
        return sum(ivy_like.sum(v * v) for v in leaves if "float" in str(v.dtype))

    grad = ivy_like.grad(loss, argnums=[0, 1, 2])
    # eager for the layers on jax: the jax backend's avg_pool2d gives reduce_window a jnp
    # array as its start value, which JAX cannot linearize under jit (max_pool2d's is fixed)
    if backend.name == "jax" and name != "layers":
        grad = ivy_like.compile(grad)
    g_params, g_x, g_img = grad(model.params_on(backend), a[0], a[2])
    assert_close(g_x, x.grad.numpy(), **TOL, label="x: ")
    assert_close(g_img, img.grad.numpy(), **TOL, label="image: ")
    got = g_params.cont_flatten_key_chains()
    assert set(got) == set(expected)
    for kc, want in expected.items():
        assert_close(got[kc], want, **TOL, label=f"{kc}: ")


def test_an_op_the_table_lacks_is_decomposed_by_torch():
    model, args, ref = zoo("shapes")
    assert "aten.gru.input" not in model.aten_ops
    assert "aten.sigmoid.default" in model.aten_ops  # what GRU decomposes into


class _LogSumExp(torch.nn.Module):
    def __init__(self, dim, keepdim):
        super().__init__()
        self.dim, self.keepdim = dim, keepdim

    def forward(self, x):
        return torch.logsumexp(x, dim=self.dim, keepdim=self.keepdim)


@pytest.mark.parametrize("dim, keepdim", [(-1, False), ((0, 2), True), (1, True)])
def test_logsumexp_is_one_node_and_matches_torch(backend, dim, keepdim):
    """``aten.logsumexp.default`` has its own entry (the example of docs/contributing.md): one
    call to ``ivy_like.logsumexp``, not the nine nodes torch decomposes it into, with torch's
    values where a naive ``log(sum(exp(x)))`` overflows and on rows of -inf and inf."""
    x = torch.randn(2, 3, 4, generator=_gen(3)) * 60
    x[0, 1] = float("-inf")
    x[1, 2, 0] = float("inf")
    net = _LogSumExp(dim, keepdim)
    model = from_torch(net, x, backend="numpy")
    assert model.aten_ops == ["aten.logsumexp.default"]
    assert "aten_logsumexp_default(x, " in model.code
    a, _ = _inputs(backend, (x,), {})
    assert_close(_run(model, backend, a, {}), net(x).numpy(), **TOL)


# -- gradients: fine-tuning a torch model elsewhere ---------------------------------------------
def _torch_grads(name):
    net, args, kwargs, model, ref = captured(name)
    weights = torch.randn(ref.shape, generator=_gen(9))
    net.zero_grad()
    (_main_output(net(*args, **kwargs)) * weights).sum().backward()
    grads = {n.replace(".", "/"): p.grad.numpy().copy() for n, p in net.named_parameters()}
    net.zero_grad()
    return grads, weights.numpy()


@pytest.mark.parametrize("name", ["transformer_encoder", "gpt2_masked"])
def test_gradients_match_torch(backend, name):
    net, args, kwargs, model, ref = captured(name)
    expected, weights = _torch_grads(name)
    a, k = _inputs(backend, args, kwargs)
    w = backend.asarray(weights)

    def loss(params):
        return ivy_like.sum(_main_output(model.apply(params, *a, **k)) * w)

    grad = ivy_like.grad(loss)
    if not backend.has_autodiff:
        with pytest.raises(NotImplementedError, match="no automatic differentiation"):
            grad(model.params_on(backend))
        return
    if backend.name == "jax":
        grad = ivy_like.compile(grad)
    got = grad(model.params_on(backend)).cont_flatten_key_chains()
    assert set(got) == set(expected)
    for kc, g in expected.items():
        assert_close(got[kc], g, **TOL, label=f"{kc}: ")


# -- back to torch -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["transformer_encoder", "gpt2_masked", "resnet", "lstm"])
def test_round_trip_to_torch(name):
    net, args, kwargs, model, ref = captured(name)
    back = to_torch(model)
    assert isinstance(back, torch.nn.Module)
    assert set(back.state_dict()) == set(net.state_dict())
    with torch.no_grad():
        assert_close(_main_output(back(*args, **kwargs)).numpy(), ref, atol=1e-6, rtol=1e-6)
    # new weights: the module computes with them, as the ivy_like model does
    params = model.params.cont_map(lambda x, kc: x * 1.1)
    back = to_torch(model, params)
    np_args = [a.numpy() for a in args]
    np_kwargs = {key: v.numpy() for key, v in kwargs.items()}
    expected = _main_output(model.apply(params, *np_args, **np_kwargs))
    with torch.no_grad():
        assert_close(_main_output(back(*args, **kwargs)).numpy(), expected, **TOL)
    # the new module owns its weights: the original is untouched
    first = next(iter(net.state_dict()))
    assert back.state_dict()[first].data_ptr() != net.state_dict()[first].data_ptr()


def test_to_torch_keeps_ties():
    net, args, kwargs, model, ref = captured("gpt2")
    back = to_torch(model)
    assert back.lm_head.weight is back.transformer.wte.weight


# -- errors --------------------------------------------------------------------------------------
class _Inner(torch.nn.Module):
    def forward(self, x):
        return torch.special.bessel_j0(x) + 1


class _Outer(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.block = _Inner()

    def forward(self, x):
        return self.block(x)


def test_unsupported_op_names_op_node_module_and_the_supported_ops():
    with pytest.raises(UnsupportedOpError) as info:
        from_torch(_Outer(), torch.ones(3), backend="numpy")
    message = str(info.value)
    assert "aten.special_bessel_j0.default" in message
    assert "node 'special_bessel_j0'" in message
    assert "module 'block'" in message and "_Inner" in message
    assert "supported ATen ops: " in message and "aten.linear.default" in message
    assert isinstance(info.value, TypeError)


def test_unsupported_setting_is_named():
    net = torch.nn.Sequential(torch.nn.MaxPool2d(2, dilation=2))
    with pytest.raises(UnsupportedOpError, match=r"aten.max_pool2d.* \(dilation=\[2, 2\]\)"):
        from_torch(net, torch.ones(1, 1, 5, 5), backend="numpy")


class _Branchy(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 1


class _Masked(torch.nn.Module):
    def forward(self, x):
        return x[x > 0]


def test_data_dependent_control_flow_is_refused_clearly():
    with pytest.raises(UnsupportedOpError, match="data-dependent control flow") as info:
        from_torch(_Branchy(), torch.randn(3), backend="numpy")
    assert "if x.sum() > 0" in str(info.value)


class _MaskAssignOnAxis1(torch.nn.Module):
    def forward(self, x):
        y = x.clone()
        y[:, x[0] > 0] = 1.0  # a mask beside a full slice: its positions depend on the data
        return y


def test_a_mask_assignment_beside_a_slice_is_refused():
    with pytest.raises(UnsupportedOpError, match=r"aten.index_put.* \(a boolean mask index beside"):
        from_torch(_MaskAssignOnAxis1(), torch.randn(2, 3), backend="numpy")


def test_data_dependent_shapes_are_refused():
    with pytest.raises(UnsupportedOpError, match="aten.index.Tensor.*boolean mask"):
        from_torch(_Masked(), torch.randn(3), backend="numpy")


class _Box:
    def __init__(self, t) -> None:
        self.t = t


class _ReturnsABox(torch.nn.Module):
    def forward(self, x):
        return _Box(x * 2)  # like a transformers model returning its DynamicCache


def test_an_output_export_cannot_flatten_is_refused_clearly():
    with pytest.raises(UnsupportedOpError, match=r"returns a '.*_Box' \(output\).*use_cache"):
        from_torch(_ReturnsABox(), torch.ones(2), backend="numpy")


def test_a_module_needs_example_inputs():
    with pytest.raises(TypeError, match="needs example inputs"):
        from_torch(torch.nn.Linear(2, 2))


def test_docs_list_every_supported_op():
    from ivy_like.convert.torch.aten import supported_ops_markdown

    docs = (Path(__file__).parents[3] / "docs" / "convert.md").read_text()
    block = re.search(r"<!-- aten-ops -->\n(.*?)<!-- /aten-ops -->", docs, re.S)
    assert block is not None, "docs/convert.md lost its generated list of ATen ops"
    assert block.group(1) == supported_ops_markdown(), (
        "docs/convert.md is stale: regenerate the list with "
        "python -c 'from ivy_like.convert.torch.aten import supported_ops_markdown as m; print(m())'"
    )


# -- the new nn ops against torch.nn.functional --------------------------------------------------
def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize(
    "shape,size",
    [((2, 3, 8, 6), 2), ((2, 3, 7, 5), (3, 2)), ((1, 2, 5, 5), 1), ((3, 7, 9), (None, 4))],
)
def test_adaptive_avg_pool2d(backend, shape, size):
    x = _rand(*shape)
    expected = F.adaptive_avg_pool2d(torch.from_numpy(x), size).numpy()
    assert_close(ivy_like.nn.adaptive_avg_pool2d(backend.asarray(x), size), expected, atol=1e-6)


def test_adaptive_avg_pool2d_checks_its_arguments():
    with pytest.raises(ValueError, match="3-D .* or 4-D"):
        ivy_like.nn.adaptive_avg_pool2d(np.ones((2, 2), np.float32), 1)
    with pytest.raises(ValueError, match="positive ints"):
        ivy_like.nn.adaptive_avg_pool2d(np.ones((1, 2, 2), np.float32), 0)


_CORNERS = np.array([-4.0, -3.0, -1.0, 0.0, 0.5, 1.0, 3.0, 6.0, 7.0], dtype=np.float32)
HARD = {
    "hardtanh": (lambda x: ivy_like.nn.hardtanh(x, -1.0, 1.0), lambda t: F.hardtanh(t)),
    "relu6": (ivy_like.nn.relu6, F.relu6),
    "hardsigmoid": (ivy_like.nn.hardsigmoid, F.hardsigmoid),
    "hardswish": (ivy_like.nn.hardswish, F.hardswish),
}


@pytest.mark.parametrize("name", list(HARD))
def test_hard_activations_and_their_gradients_at_the_corners(backend, name):
    ours, theirs = HARD[name]
    t = torch.from_numpy(_CORNERS.copy()).requires_grad_(True)
    y = theirs(t)
    y.sum().backward()
    x = backend.asarray(_CORNERS)
    assert_close(ours(x), y.detach().numpy(), atol=1e-6)
    if backend.has_autodiff:
        grad = ivy_like.grad(lambda v: ivy_like.sum(ours(v)))(x)
        assert_close(grad, t.grad.numpy(), atol=1e-6)


def test_hardtanh_checks_its_bounds():
    with pytest.raises(ValueError, match="min_val"):
        ivy_like.nn.hardtanh(np.ones(2, np.float32), 1.0, -1.0)


def test_lstm_cell(backend):
    cell = torch.nn.LSTMCell(4, 5)
    x, h, c = _rand(3, 4), _rand(3, 5, seed=1), _rand(3, 5, seed=2)
    with torch.no_grad():
        h1, c1 = cell(torch.from_numpy(x), (torch.from_numpy(h), torch.from_numpy(c)))
    weights = [p.detach().numpy() for p in (cell.weight_ih, cell.weight_hh)]
    biases = [p.detach().numpy() for p in (cell.bias_ih, cell.bias_hh)]
    got = ivy_like.nn.lstm_cell(*[backend.asarray(a) for a in (x, h, c, *weights, *biases)])
    assert_close(got[0], h1.numpy(), atol=1e-5)
    assert_close(got[1], c1.numpy(), atol=1e-5)


@pytest.mark.parametrize(
    "kw",
    [
        dict(num_layers=2, bias=True, batch_first=True, bidirectional=False),
        dict(num_layers=2, bias=False, batch_first=False, bidirectional=True),
        dict(num_layers=1, bias=True, batch_first=True, bidirectional=True),
    ],
    ids=lambda kw: "-".join(f"{k}={v}" for k, v in kw.items()),
)
@pytest.mark.parametrize("with_state", [True, False])
def test_lstm(backend, kw, with_state):
    torch.manual_seed(0)
    net = torch.nn.LSTM(4, 5, **kw)
    x = _rand(*((2, 6, 4) if kw["batch_first"] else (6, 2, 4)))
    states = (kw["num_layers"] * (2 if kw["bidirectional"] else 1), 2, 5)
    h0, c0 = _rand(*states, seed=1), _rand(*states, seed=2)
    with torch.no_grad():
        given = (torch.from_numpy(h0), torch.from_numpy(c0)) if with_state else None
        out, (h, c) = net(torch.from_numpy(x), given)
    weights = [backend.asarray(w.detach().numpy()) for w in net._flat_weights]
    state = [backend.asarray(h0), backend.asarray(c0)] if with_state else [None, None]
    got = ivy_like.nn.lstm(backend.asarray(x), weights, *state, **kw)
    for mine, theirs in zip(got, (out, h, c)):
        assert_close(mine, theirs.numpy(), atol=1e-5)


def test_lstm_checks_the_weight_count():
    with pytest.raises(ValueError, match="expected 8 weights"):
        ivy_like.nn.lstm(np.ones((2, 1, 1), np.float32), [np.ones((4, 1))] * 4, num_layers=2)


# -- 3-d convolution and embedding bags -------------------------------------------------------
class _Conv3dZoo(torch.nn.Module):
    """3-d convolutions: stride, int and per-axis padding, "same" and "valid", dilation,
    groups, with and without bias, unbatched, and ATen's convolution op called directly."""

    def __init__(self) -> None:
        super().__init__()
        kw = dict(stride=(1, 2, 1), padding=(1, 0, 2), dilation=(2, 1, 1), groups=2)
        self.a = torch.nn.Conv3d(4, 6, 3, **kw)
        self.b = torch.nn.Conv3d(4, 2, (2, 3, 2), stride=2, padding=1, dilation=(1, 2, 1))
        self.c = torch.nn.Conv3d(4, 4, (2, 3, 4), padding="same", dilation=(1, 2, 1), groups=4)
        self.d = torch.nn.Conv3d(4, 3, 2, padding="valid", bias=False)

    def forward(self, x):
        a = self.a
        return (
            a(x),
            self.b(x),
            self.c(x),
            self.d(x),
            self.d(x[1]),  # unbatched
            torch.ops.aten.convolution(
                x, a.weight, a.bias, [2, 1, 1], [0, 1, 0], [1, 1, 2], False, [0, 0, 0], 2
            ),
        )


class _BagZoo(torch.nn.Module):
    """Embedding bags: sum, mean and max over a 2-D input (bags of 3) and a 1-D input with
    offsets (an empty bag among them), per-sample weights, padding_idx (a bag of padding
    only), include_last_offset, and ATen's _embedding_bag and embedding_bag (with a negative
    padding_idx) called directly."""

    def __init__(self) -> None:
        super().__init__()
        self.sum = torch.nn.EmbeddingBag(10, 3, mode="sum")
        self.mean = torch.nn.EmbeddingBag(10, 3, mode="mean")
        self.max = torch.nn.EmbeddingBag(10, 3, mode="max")
        self.pad_mean = torch.nn.EmbeddingBag(10, 3, mode="mean", padding_idx=2)
        self.pad_sum = torch.nn.EmbeddingBag(10, 3, mode="sum", padding_idx=-1)
        self.pad_max = torch.nn.EmbeddingBag(10, 3, mode="max", padding_idx=0)
        self.last = torch.nn.EmbeddingBag(10, 3, mode="max", include_last_offset=True)
        with torch.no_grad():  # below the padding row's zeros: a max that read it would be 0
            self.pad_max.weight[1:] = -self.pad_max.weight[1:].abs() - 0.1
            # rows 1 and 5 tie in the bag [1, 2, 5]: torch's max (and gradient) takes the first
            self.max.weight[5] = self.max.weight[1]

    def forward(self, rows, ids, offsets, weights):
        ends = torch.cat([offsets, torch.tensor([ids.shape[0]])])
        return (
            self.sum(rows),
            self.mean(rows),
            self.max(rows),  # a repeated index in a bag: tied maxima
            self.sum(ids, offsets),
            self.mean(ids, offsets),
            self.max(ids, offsets),
            self.sum(rows, per_sample_weights=weights),
            self.sum(ids, offsets, per_sample_weights=weights.flatten()[: ids.shape[0]]),
            self.pad_mean(rows),
            self.pad_mean(ids, offsets),
            self.pad_sum(ids, offsets),
            self.pad_max(rows),
            self.last(ids, ends),
            torch.ops.aten._embedding_bag(
                self.mean.weight, ids, offsets, False, 1, False, None, False, 2
            )[0],
            torch.ops.aten.embedding_bag.padding_idx(  # padding_idx=-1: the last row, 9
                self.sum.weight, ids, offsets, False, 2, False, None, False, -1
            )[0],
        )


def _bag_inputs():
    rows = torch.tensor([[1, 2, 5], [2, 2, 2], [9, 0, 3], [4, 4, 7]])
    ids = torch.tensor([3, 2, 8, 0, 0, 6, 2, 9, 9])
    offsets = torch.tensor([0, 3, 3, 6])  # bags [3, 2, 8], [], [0, 0, 6], [2, 9, 9]
    return rows, ids, offsets, torch.rand(4, 3, generator=_gen(3))


NEW_LAYERS = {
    "conv3d": (_Conv3dZoo, lambda: (torch.randn(2, 4, 6, 7, 8, generator=_gen(4)),)),
    "embedding_bag": (_BagZoo, _bag_inputs),
}


@functools.cache
def new_layer(name: str):
    """(torch module, example args, GraphModel on numpy, torch's outputs as NumPy)."""
    torch.manual_seed(0)
    cls, make_args = NEW_LAYERS[name]
    net, args = cls().eval(), make_args()
    with torch.no_grad():
        ref = [t.numpy() for t in net(*args)]
    return net, args, from_torch(net, *args, backend="numpy"), ref


@pytest.mark.parametrize("name", list(NEW_LAYERS))
def test_new_layers_match_torch(backend, name):
    net, args, model, ref = new_layer(name)
    ops = {"conv3d": "aten.conv3d.default", "embedding_bag": "aten.embedding_bag.padding_idx"}
    assert ops[name] in model.aten_ops
    a, _ = _inputs(backend, args, {})
    out = _run(model, backend, a, {})
    assert len(out) == len(ref)
    for i, (got, want) in enumerate(zip(out, ref)):
        assert got.shape == want.shape, f"output {i}: shape {got.shape}, expected {want.shape}"
        assert_close(got, want, **TOL, label=f"output {i}: ")


@pytest.mark.requires("autodiff")
@pytest.mark.parametrize("name", list(NEW_LAYERS))
def test_new_layers_gradients_match_torch(backend, name):
    """Gradients with respect to the weights and the float inputs (the 3-d convolutions'
    input, the bags' per-sample weights)."""
    net, args, model, ref = new_layer(name)
    floats = [i for i, t in enumerate(args) if t.is_floating_point()]
    leaves = [t.clone().requires_grad_(i in floats) for i, t in enumerate(args)]
    net.zero_grad()
    sum(o.square().sum() for o in net(*leaves)).backward()
    expected = {n.replace(".", "/"): p.grad.numpy().copy() for n, p in net.named_parameters()}
    net.zero_grad()
    a, _ = _inputs(backend, args, {})

    def loss(params, *values):
        given = list(a)
        for i, v in zip(floats, values):
            given[i] = v
        return sum(ivy_like.sum(o * o) for o in model.apply(params, *given))

    grad = ivy_like.grad(loss, argnums=list(range(1 + len(floats))))
    if backend.name == "jax":
        grad = ivy_like.compile(grad)
    g_params, *g_inputs = grad(model.params_on(backend), *(a[i] for i in floats))
    for i, g in zip(floats, g_inputs):
        assert_close(g, leaves[i].grad.numpy(), **TOL, label=f"input {i}: ")
    got = g_params.cont_flatten_key_chains()
    assert set(got) == set(expected)
    for kc, want in expected.items():
        assert_close(got[kc], want, **TOL, label=f"{kc}: ")


class _ForwardOnlyBags(torch.nn.Module):
    def forward(self, weight, ids, offsets):
        return [
            torch.ops.aten._embedding_bag_forward_only(
                weight, ids, offsets, False, mode, False, None, False, 9
            )[0]
            for mode in (0, 1, 2)
        ]


def test_embedding_bag_forward_only_matches_torch(backend):
    """ATen's _embedding_bag_forward_only (torch has no gradient for it): its values."""
    _, ids, offsets, _ = _bag_inputs()
    args = (torch.randn(10, 3, generator=_gen(5)), ids, offsets)
    net = _ForwardOnlyBags()
    model = from_torch(net, *args, backend="numpy")
    assert "aten._embedding_bag_forward_only.default" in model.aten_ops
    a, _ = _inputs(backend, args, {})
    for i, (got, want) in enumerate(zip(_run(model, backend, a, {}), net(*args))):
        assert_close(got, want.numpy(), **TOL, label=f"mode {i}: ")


@pytest.mark.parametrize(
    "net, args, match",
    [
        (
            torch.nn.ConvTranspose3d(2, 3, 2),
            (torch.ones(1, 2, 3, 3, 3),),
            r"aten.convolution.* \(3-d transposed convolution; 1-d and 2-d only\)",
        ),
        (
            torch.nn.EmbeddingBag(10, 3, scale_grad_by_freq=True),
            (torch.tensor([[1, 2], [3, 4]]),),
            r"aten.embedding_bag.* \(scale_grad_by_freq=True\)",
        ),
        (
            torch.nn.EmbeddingBag(10, 3, mode="sum", sparse=True),
            (torch.tensor([[1, 2], [3, 4]]),),
            r"aten.embedding_bag.* \(sparse=True \(sparse gradients\)\)",
        ),
    ],
    ids=["conv_transpose3d", "scale_grad_by_freq", "sparse"],
)
def test_refused_conv3d_and_embedding_bag_settings_are_named(net, args, match):
    with pytest.raises(UnsupportedOpError, match=match):
        from_torch(net, *args, backend="numpy")


def test_embedding_bag_check_refuses_per_sample_weights_beyond_sum():
    """torch refuses these before the capture; the table's check does too, should a graph
    carry one."""
    from ivy_like.convert.torch.aten import CHECKS, TensorMeta

    check = CHECKS["aten._embedding_bag.default"]
    w, ids, offsets = (
        TensorMeta((10, 3), "float32"),
        TensorMeta((6,), "int64"),
        TensorMeta((2,), "int64"),
    )
    weights = TensorMeta((6,), "float32")
    assert check(w, ids, offsets, False, 0, False, weights) is None
    assert "mode='max'; with mode='sum' only" in check(w, ids, offsets, False, 2, False, weights)
    assert "mode=3" in check(w, ids, offsets, False, 3)
    assert "not 1-D" in check(w, TensorMeta((2, 3), "int64"), offsets)

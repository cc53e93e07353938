"""The models of ``bench_convert.py`` written natively in MLX, as MLX users write them: modules of
``mlx.nn`` whose attribute names follow the transformers checkpoint (so its state dict loads with
a small ``sanitize``, the mlx-examples way), images channels-last, attention by
``mx.fast.scaled_dot_product_attention``. Each builder copies the torch module's weights in and
checks the logits against it (within ``TOLERANCE``) before anything is timed.

Two ways to serve each, as an MLX user does: :func:`compiled` (``mx.compile`` of the model's
call) and :func:`exported` (the model's call written by ``mx.export_function`` and read back by
``mx.import_function``); each is checked against the model's eager call before it is timed.

The weights are made C-contiguous before they become MLX arrays: ``mx.array`` of a transposed
NumPy view keeps its strides, and ``mx.export_function`` writes such a constant's buffer as if
it were row-major, so the imported function would compute with scrambled weights.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import Any

import numpy as np

TOLERANCE = 1e-4
NCHW_PROBE = np.random.default_rng(5).standard_normal((2, 3, 64, 64)).astype(np.float32)


def _torch_state(net: Any) -> dict[str, np.ndarray]:
    return {k: v.detach().numpy() for k, v in net.state_dict().items()}


def _check(got: np.ndarray, want: np.ndarray, what: str) -> None:
    if got.shape != want.shape or not np.allclose(got, want, atol=TOLERANCE, rtol=0):
        diff = np.abs(got - want).max() if got.shape == want.shape else float("nan")
        raise AssertionError(f"the native MLX {what} differs by {diff:.2e}")


# -- ResNet -------------------------------------------------------------------------------------
def resnet(net: Any) -> Any:
    """transformers' ``ResNetForImageClassification`` (basic blocks) in ``mlx.nn``, channels-last
    (NHWC in, logits out), holding ``net``'s weights, in eval mode."""
    import mlx.core as mx
    import mlx.nn as nn

    class ConvLayer(nn.Module):
        def __init__(self, cin: int, cout: int, size: int, stride: int, relu: bool) -> None:
            super().__init__()
            self.convolution = nn.Conv2d(cin, cout, size, stride, size // 2, bias=False)
            self.normalization = nn.BatchNorm(cout, eps=1e-5)
            self.relu = relu

        def __call__(self, x: Any) -> Any:
            x = self.normalization(self.convolution(x))
            return nn.relu(x) if self.relu else x

    class BasicLayer(nn.Module):
        def __init__(self, cin: int, cout: int, stride: int) -> None:
            super().__init__()
            if cin != cout or stride != 1:
                self.shortcut = ConvLayer(cin, cout, 1, stride, relu=False)
            self.layer = [ConvLayer(cin, cout, 3, stride, True), ConvLayer(cout, cout, 3, 1, False)]

        def __call__(self, x: Any) -> Any:
            shortcut = self.shortcut(x) if "shortcut" in self else x
            y = self.layer[1](self.layer[0](x))
            return nn.relu(y + shortcut)

    class Stage(nn.Module):
        def __init__(self, cin: int, cout: int, stride: int, depth: int) -> None:
            super().__init__()
            self.layers = [BasicLayer(cin if i == 0 else cout, cout, stride if i == 0 else 1)
                           for i in range(depth)]  # fmt: skip

        def __call__(self, x: Any) -> Any:
            for layer in self.layers:
                x = layer(x)
            return x

    class Embedder(nn.Module):
        def __init__(self, channels: int, size: int) -> None:
            super().__init__()
            self.embedder = ConvLayer(channels, size, 7, 2, relu=True)
            self.pooler = nn.MaxPool2d(3, stride=2, padding=1)

        def __call__(self, x: Any) -> Any:
            return self.pooler(self.embedder(x))

    class Encoder(nn.Module):
        def __init__(self, config: Any) -> None:
            super().__init__()
            sizes = [config.embedding_size, *config.hidden_sizes]
            first = 2 if config.downsample_in_first_stage else 1
            self.stages = [Stage(sizes[s], sizes[s + 1], first if s == 0 else 2, depth)
                           for s, depth in enumerate(config.depths)]  # fmt: skip

        def __call__(self, x: Any) -> Any:
            for stage in self.stages:
                x = stage(x)
            return x

    class Backbone(nn.Module):
        def __init__(self, config: Any) -> None:
            super().__init__()
            self.embedder = Embedder(config.num_channels, config.embedding_size)
            self.encoder = Encoder(config)

        def __call__(self, x: Any) -> Any:
            return self.encoder(self.embedder(x)).mean(axis=(1, 2))  # global average pool

    class ResNet(nn.Module):
        def __init__(self, config: Any) -> None:
            super().__init__()
            self.resnet = Backbone(config)
            self.classifier = nn.Linear(config.hidden_sizes[-1], config.num_labels)

        def __call__(self, x: Any) -> Any:
            return self.classifier(self.resnet(x))

    def sanitize(state: dict[str, np.ndarray]) -> list[tuple[str, Any]]:
        out = []
        for key, value in state.items():
            if key.endswith("num_batches_tracked"):
                continue
            if value.ndim == 4:  # torch (out, in, kh, kw) -> MLX (out, kh, kw, in)
                value = value.transpose(0, 2, 3, 1)
            key = key.replace("classifier.1.", "classifier.")
            out.append((key, mx.array(np.ascontiguousarray(value))))
        return out

    model = ResNet(net.config)
    model.load_weights(sanitize(_torch_state(net)), strict=True)
    model.eval()
    mx.eval(model.parameters())
    want = _torch_logits(net, NCHW_PROBE)
    got = np.array(model(mx.array(NCHW_PROBE.transpose(0, 2, 3, 1))))
    _check(got, want, "ResNet, against torch,")
    return model


def _torch_logits(net: Any, x: np.ndarray) -> np.ndarray:
    import torch

    with torch.no_grad():
        return net(torch.from_numpy(x)).logits.numpy()


# -- GPT-2 --------------------------------------------------------------------------------------
def gpt2(net: Any) -> Any:
    """transformers' ``GPT2LMHeadModel`` in ``mlx.nn`` from its config: token and position
    embeddings, pre-LayerNorm blocks (causal attention, a GELU-tanh MLP), a final LayerNorm and
    the head tied to the token embedding. Token ids in, logits out; ``net``'s weights."""
    import mlx.core as mx
    import mlx.nn as nn

    config = net.config
    if config.activation_function != "gelu_new":
        raise ValueError(f"gpt2: activation {config.activation_function!r} is not written here")
    d, heads, eps = config.n_embd, config.n_head, config.layer_norm_epsilon
    inner = config.n_inner or 4 * d

    class Attention(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.c_attn = nn.Linear(d, 3 * d)
            self.c_proj = nn.Linear(d, d)

        def __call__(self, x: Any) -> Any:
            b, t, _ = x.shape
            q, k, v = mx.split(self.c_attn(x), 3, axis=-1)
            q, k, v = (y.reshape(b, t, heads, d // heads).transpose(0, 2, 1, 3) for y in (q, k, v))
            y = mx.fast.scaled_dot_product_attention(
                q, k, v, scale=1.0 / math.sqrt(d // heads), mask="causal"
            )
            return self.c_proj(y.transpose(0, 2, 1, 3).reshape(b, t, d))

    class MLP(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.c_fc = nn.Linear(d, inner)
            self.c_proj = nn.Linear(inner, d)

        def __call__(self, x: Any) -> Any:
            return self.c_proj(nn.gelu_approx(self.c_fc(x)))  # GPT-2's "gelu_new" (tanh)

    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.ln_1 = nn.LayerNorm(d, eps=eps)
            self.attn = Attention()
            self.ln_2 = nn.LayerNorm(d, eps=eps)
            self.mlp = MLP()

        def __call__(self, x: Any) -> Any:
            x = x + self.attn(self.ln_1(x))
            return x + self.mlp(self.ln_2(x))

    class Transformer(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.wte = nn.Embedding(config.vocab_size, d)
            self.wpe = nn.Embedding(config.n_positions, d)
            self.h = [Block() for _ in range(config.n_layer)]
            self.ln_f = nn.LayerNorm(d, eps=eps)

        def __call__(self, ids: Any) -> Any:
            x = self.wte(ids) + self.wpe(mx.arange(ids.shape[1]))
            for block in self.h:
                x = block(x)
            return self.ln_f(x)

    class GPT2(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.transformer = Transformer()

        def __call__(self, ids: Any) -> Any:
            return self.transformer.wte.as_linear(self.transformer(ids))  # the tied head

    def sanitize(state: dict[str, np.ndarray]) -> list[tuple[str, Any]]:
        out = []
        for key, value in state.items():
            if key == "lm_head.weight" or key.endswith(".attn.bias"):
                continue  # the tied head; the causal-mask buffer of older transformers
            if key.endswith(".weight") and any(
                f".{m}." in key for m in ("c_attn", "c_proj", "c_fc")
            ):
                value = value.T  # transformers' Conv1D stores (in, out); nn.Linear (out, in)
            out.append((key, mx.array(np.ascontiguousarray(value))))
        return out

    model = GPT2()
    model.load_weights(sanitize(_torch_state(net)), strict=True)
    model.eval()
    mx.eval(model.parameters())
    ids = np.random.default_rng(6).integers(0, config.vocab_size, (3, config.n_positions))
    want = _torch_logits(net, ids)
    got = np.array(model(mx.array(ids.astype(np.int32))))
    _check(got, want, "GPT-2, against torch,")
    return model


# -- serving ------------------------------------------------------------------------------------
def compiled(model: Any, x: np.ndarray) -> Callable[[], Any]:
    """``mx.compile`` of the model's call (its weights captured as the graph's constants), run
    on ``x`` and evaluated; compiled by the first call."""
    import mlx.core as mx

    forward = mx.compile(model)
    xs = mx.array(x)

    def run() -> Any:
        out = forward(xs)
        mx.eval(out)
        return out

    _check(np.array(run()), np.array(model(xs)), "model under mx.compile, against its eager call,")
    return run


def exported(model: Any, x: np.ndarray, folder: str, name: str) -> Callable[[], Any]:
    """The model's call written by ``mx.export_function`` (at ``x``'s shapes) and served by
    ``mx.import_function``, evaluated."""
    import mlx.core as mx

    path = os.path.join(folder, f"{name}.mlxfn")
    xs = mx.array(x)
    mx.export_function(path, model, xs)
    fn = mx.import_function(path)

    def run() -> Any:
        out = fn(xs)
        mx.eval(out)
        return out

    (got,) = run()
    _check(np.array(got), np.array(model(xs)), "model's .mlxfn, against its eager call,")
    return run

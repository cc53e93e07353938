"""The models of ``bench_convert.py`` written natively in Keras 3, as Keras users write them:
``keras.layers`` (images channels-last, attention by ``keras.layers.MultiHeadAttention``), the
torch module's weights copied in and the logits checked against it (within ``TOLERANCE``)
before anything is timed. :func:`served` writes a model with Keras's own ``model.export`` and
serves that SavedModel's ``serving_default`` signature, checked against the model's eager call.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np

TOLERANCE = 1e-4
NCHW_PROBE = np.random.default_rng(5).standard_normal((2, 3, 64, 64)).astype(np.float32)


def _torch_logits(net: Any, x: np.ndarray) -> np.ndarray:
    import torch

    with torch.no_grad():
        return net(torch.from_numpy(x)).logits.numpy()


def _check(got: Any, want: np.ndarray, what: str) -> None:
    got = np.asarray(got)
    if got.shape != want.shape or not np.allclose(got, want, atol=TOLERANCE, rtol=0):
        diff = np.abs(got - want).max() if got.shape == want.shape else float("nan")
        raise AssertionError(f"the Keras {what} differs by {diff:.2e}")


# -- ResNet -------------------------------------------------------------------------------------
def resnet(net: Any) -> Any:
    """transformers' ``ResNetForImageClassification`` (basic blocks) written with Keras layers,
    channels-last, holding ``net``'s weights. Explicit zero padding keeps torch's symmetric
    padding (Keras's "same" pads the odd pixel on one side); max pooling pads with zeros, which
    after a ReLU gives torch's -inf padding's result."""
    import keras

    layers = keras.layers
    state = {k: v.detach().numpy() for k, v in net.state_dict().items()}
    weights: list[tuple[Any, list[np.ndarray]]] = []

    def conv(x: Any, prefix: str, stride: int, relu: bool) -> Any:
        kernel = state[f"{prefix}.convolution.weight"]  # (out, in, kh, kw)
        size = kernel.shape[-1]
        if size // 2:
            x = layers.ZeroPadding2D(size // 2)(x)
        c = layers.Conv2D(kernel.shape[0], size, strides=stride, use_bias=False)
        x = c(x)
        weights.append((c, [kernel.transpose(2, 3, 1, 0)]))
        bn = layers.BatchNormalization(epsilon=1e-5)
        x = bn(x)
        n = f"{prefix}.normalization"
        stats = ("weight", "bias", "running_mean", "running_var")
        weights.append((bn, [state[f"{n}.{s}"] for s in stats]))
        return layers.ReLU()(x) if relu else x

    config = net.config
    inputs = keras.Input((64, 64, 3))
    x = conv(inputs, "resnet.embedder.embedder", 2, relu=True)
    x = layers.MaxPooling2D(3, strides=2)(layers.ZeroPadding2D(1)(x))
    for s, depth in enumerate(config.depths):
        for i in range(depth):
            prefix = f"resnet.encoder.stages.{s}.layers.{i}"
            stride = 2 if (s > 0 or config.downsample_in_first_stage) and i == 0 else 1
            shortcut = x
            if f"{prefix}.shortcut.convolution.weight" in state:
                shortcut = conv(x, f"{prefix}.shortcut", stride, relu=False)
            y = conv(x, f"{prefix}.layer.0", stride, relu=True)
            y = conv(y, f"{prefix}.layer.1", 1, relu=False)
            x = layers.ReLU()(layers.Add()([y, shortcut]))
    x = layers.GlobalAveragePooling2D()(x)
    dense = layers.Dense(state["classifier.1.weight"].shape[0])
    out = dense(x)
    weights.append((dense, [state["classifier.1.weight"].T, state["classifier.1.bias"]]))
    model = keras.Model(inputs, out)
    for layer, values in weights:
        layer.set_weights(values)
    want = _torch_logits(net, NCHW_PROBE)
    _check(model(NCHW_PROBE.transpose(0, 2, 3, 1)), want, "ResNet, against torch,")
    return model


# -- GPT-2 --------------------------------------------------------------------------------------
def gpt2(net: Any) -> Any:
    """transformers' ``GPT2LMHeadModel`` as a Keras model from its config: token and position
    embeddings, pre-LayerNorm blocks (``MultiHeadAttention`` with a causal mask, a GELU-tanh
    MLP), a final LayerNorm and the head tied to the token embedding. Token ids (int32) in,
    logits out; ``net``'s weights."""
    import keras

    layers, ops = keras.layers, keras.ops
    config = net.config
    if config.activation_function != "gelu_new":
        raise ValueError(f"gpt2: activation {config.activation_function!r} is not written here")
    d, heads, eps = config.n_embd, config.n_head, config.layer_norm_epsilon
    inner, hd = config.n_inner or 4 * d, d // heads

    class Block(layers.Layer):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.ln_1 = layers.LayerNormalization(epsilon=eps)
            self.attn = layers.MultiHeadAttention(heads, hd)
            self.ln_2 = layers.LayerNormalization(epsilon=eps)
            self.c_fc = layers.Dense(inner, activation=lambda x: keras.activations.gelu(x, True))
            self.c_proj = layers.Dense(d)

        def call(self, x: Any) -> Any:
            h = self.ln_1(x)
            x = x + self.attn(h, h, use_causal_mask=True)
            return x + self.c_proj(self.c_fc(self.ln_2(x)))

    class GPT2(keras.Model):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.wte = layers.Embedding(config.vocab_size, d)
            self.wpe = layers.Embedding(config.n_positions, d)
            self.blocks = [Block() for _ in range(config.n_layer)]
            self.ln_f = layers.LayerNormalization(epsilon=eps)

        def call(self, ids: Any) -> Any:
            x = self.wte(ids) + self.wpe(ops.arange(ops.shape(ids)[1]))
            for block in self.blocks:
                x = block(x)
            return ops.matmul(self.ln_f(x), ops.transpose(self.wte.embeddings))  # tied head

    state = {k: v.detach().numpy() for k, v in net.state_dict().items()}
    ids = np.random.default_rng(6).integers(0, config.vocab_size, (3, config.n_positions))
    model = GPT2()
    model(ids.astype(np.int32))  # builds every layer
    model.wte.set_weights([state["transformer.wte.weight"]])
    model.wpe.set_weights([state["transformer.wpe.weight"]])
    model.ln_f.set_weights([state["transformer.ln_f.weight"], state["transformer.ln_f.bias"]])
    for i, block in enumerate(model.blocks):

        def get(name: str, i: int = i) -> np.ndarray:
            return state[f"transformer.h.{i}.{name}"]

        block.ln_1.set_weights([get("ln_1.weight"), get("ln_1.bias")])
        block.ln_2.set_weights([get("ln_2.weight"), get("ln_2.bias")])
        # transformers' Conv1D stores (in, out): q, k and v side by side, each head's columns
        # together, as MultiHeadAttention's (in, heads, head_dim) kernels want them
        w, b = get("attn.c_attn.weight"), get("attn.c_attn.bias")
        parts = (block.attn.query_dense, block.attn.key_dense, block.attn.value_dense)
        for j, dense in enumerate(parts):
            cols = slice(j * d, (j + 1) * d)
            dense.set_weights([w[:, cols].reshape(d, heads, hd), b[cols].reshape(heads, hd)])
        proj = get("attn.c_proj.weight").reshape(heads, hd, d)
        block.attn.output_dense.set_weights([proj, get("attn.c_proj.bias")])
        block.c_fc.set_weights([get("mlp.c_fc.weight"), get("mlp.c_fc.bias")])
        block.c_proj.set_weights([get("mlp.c_proj.weight"), get("mlp.c_proj.bias")])
    _check(model(ids.astype(np.int32)), _torch_logits(net, ids), "GPT-2, against torch,")
    return model


# -- serving ------------------------------------------------------------------------------------
def served(model: Any, x: np.ndarray, folder: str, name: str) -> Callable[[], Any]:
    """``model.export``'s SavedModel (batch axis dynamic, as Keras writes it), served by its
    ``serving_default`` signature on ``x``."""
    import keras
    import tensorflow as tf

    path = os.path.join(folder, name)
    spec = [keras.InputSpec(shape=(None, *x.shape[1:]), dtype=str(x.dtype))]
    model.export(path, verbose=False, input_signature=spec)
    serve = tf.saved_model.load(path).signatures["serving_default"]
    xs = tf.constant(x)

    def run() -> list[np.ndarray]:
        return [v.numpy() for v in serve(xs).values()]

    (got,) = run()
    _check(got, np.asarray(model(x)), f"{name} SavedModel, against the model's eager call,")
    return run

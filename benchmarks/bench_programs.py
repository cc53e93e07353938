"""Whole programs against native idioms: training steps, inference, an optimizer update and
per-example gradients, each written with ivy_like and the way each framework's users write it.

Programs (float32; initial weights differ between the columns, shapes and dtypes do not):

* **MLP** 64-128-128-10 (ReLU), batch 64, integer labels, softmax cross-entropy;
* **SmallCNN**: two 3x3 conv (8, 16 channels) + ReLU + 2x2 max-pool stages and a linear
  classifier on 8x1x16x16 images, integer labels, cross-entropy (``ivy_like.nn.SmallCNN``,
  NCHW; TensorFlow's and MLX's own layers take NHWC, so their columns get NHWC images);
* **TransformerBlock**: one pre-norm encoder block, d_model 32, 4 heads, feed-forward 128
  (exact GELU), on 8x16x32 inputs, mean squared error to a fixed target
  (``ivy_like.nn.TransformerBlock``).

Rows per backend (torch eager on 1 thread, jax compiled, tensorflow eager, mlx eager):

1. *step*: one Adam (lr 1e-3) training step. ivy_like: the step of ``docs/nn.md``
   (``ivy_like.value_and_grad`` + ``optimizers.adam``), under ``ivy_like.compile`` on JAX. Native:
   torch ``zero_grad(); loss.backward(); opt.step()`` with ``torch.optim.Adam``;
   ``jax.jit`` of ``jax.value_and_grad`` + ``optax.adam``; ``tf.GradientTape`` + Keras layers and
   ``keras.optimizers.Adam``; ``mlx.nn`` + ``nn.value_and_grad`` + ``mlx.optimizers.Adam``
   (``bias_correction=True``). The MLP's native steps are ``bench_training``'s.
   *step, compiled* (torch, tensorflow, mlx; the MLP): the same ivy_like step under
   ``ivy_like.compile`` against each framework's compiled idiom: ``torch.compile`` of the
   model and of ``Adam.step`` with the backward pass between them, ``tf.function`` of the tape
   step, ``mx.compile`` of the ``mlx.nn`` step with the model and optimizer state as its inputs
   and outputs.
2. *inference*: the forward pass of the same models (torch under ``torch.no_grad()``; JAX
   jitted on both sides).
3. *adam update*: ``optimizers.adam(...).update`` on the MLP's parameters and fixed gradients
   against ``torch.optim.Adam.step``, a jitted ``optax.adam`` update, ``keras.optimizers.Adam``
   and ``mlx.optimizers.Adam.apply_gradients``.
4. *vmap(grad)*: per-example gradients over 64 examples, ``bench_transforms``' case.

Every timed call finishes its work (``block_until_ready`` on JAX, ``mx.eval`` of the results
and the optimizer state on MLX). Timing is ``bench_transforms._time``: a warm-up, then rounds
in a shuffled order, each timing a calibrated run of calls per column; µs are per-call medians,
the ratio is the median of the per-round ratios ivy_like / native. ``--quick`` runs few short
rounds (minutes, for development; the numbers are then rough).

``python benchmarks/bench_programs.py [--quick] [backend ...]``
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from html import escape
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
os.environ.setdefault("KERAS_BACKEND", "tensorflow")
sys.path.insert(0, str(Path(__file__).parent))

import bench_training as _training  # noqa: E402
import bench_transforms as _transforms  # noqa: E402
import numpy as np  # noqa: E402

import ivy_like as il  # noqa: E402
from ivy_like import nn, optimizers  # noqa: E402

LR = 1e-3
CLASSES = 10
MLP_SIZES = _training.SIZES  # 64-128-128-10
MLP_BATCH = _training.BATCH
CNN_BATCH, CNN_SIDE, CNN_CHANNELS = 8, 16, (8, 16)
D_MODEL, HEADS, D_FF, SEQ, TF_BATCH = 32, 4, 128, 16, 8
CHART = Path(__file__).parent.parent / "docs" / "benchmarks_programs.png"
BACKENDS = ("torch", "jax", "tensorflow", "mlx")
MODES = {"torch": "eager, 1 thread", "jax": "compiled", "tensorflow": "eager", "mlx": "eager"}
# Paired rounds per row: a 50 µs compiled call on this 2-core machine moves by ±5 µs between
# rounds (XLA's threads and Python share the cores), so 15 rounds left a median ±0.1 off.
ROUNDS = 31

Call = Callable[[], Any]  # one finished unit of work: a step, a forward pass, an update


# ------------------------------------------------------------------------------------- data
def _data(program: str, name: str) -> dict[str, np.ndarray]:
    """Inputs and targets of ``program``; labels int64 on torch, int32 elsewhere."""
    rng = np.random.default_rng(1)
    labels = np.int64 if name == "torch" else np.int32
    if program == "mlp":
        x, y = _training._data(labels)
        return {"x": x, "y": y}
    if program == "cnn":
        x = rng.standard_normal((CNN_BATCH, 1, CNN_SIDE, CNN_SIDE)).astype(np.float32)
        return {"x": x, "y": rng.integers(0, CLASSES, CNN_BATCH).astype(labels)}
    shape = (TF_BATCH, SEQ, D_MODEL)
    return {
        "x": rng.standard_normal(shape).astype(np.float32),
        "y": rng.standard_normal(shape).astype(np.float32),
    }


def _nhwc(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x.transpose(0, 2, 3, 1))


def _finisher(name: str) -> Callable[[Any], Any]:
    """Waits for (JAX) or evaluates (MLX) a result, Containers included."""
    if name == "jax":
        import jax

        return jax.block_until_ready
    if name == "mlx":
        import mlx.core as mx

        return lambda out: mx.eval(out)
    return lambda out: out


# --------------------------------------------------------------------------------- ivy_like
def _ivy_model(program: str) -> Any:
    if program == "mlp":
        return nn.MLP(MLP_SIZES, seed=0)
    if program == "cnn":
        return nn.SmallCNN(1, CLASSES, CNN_SIDE, CNN_CHANNELS, seed=0)
    return nn.TransformerBlock(D_MODEL, HEADS, D_FF, seed=0)


def _ivy_loss(program: str, model: Any) -> Callable[..., Any]:
    if program == "transformer":
        return lambda params, x, y: nn.mse_loss(model.apply(params, x), y)
    return lambda params, x, y: nn.cross_entropy(model.apply(params, x), y)


def _ivy_step(
    name: str, program: str, d: dict[str, np.ndarray], compiled: bool | None = None
) -> Call:
    """The training step of docs/nn.md, under ``ivy_like.compile`` when ``compiled`` (by
    default on JAX only)."""
    b = il.get_backend(name)
    model, opt = _ivy_model(program), optimizers.adam(LR)
    loss_fn = _ivy_loss(program, model)

    def step(params: Any, state: Any, x: Any, y: Any) -> Any:
        loss, grads = il.value_and_grad(loss_fn)(params, x, y)
        params, state = opt.update(params, grads, state)
        return params, state, loss

    if name == "jax" if compiled is None else compiled:
        step = il.compile(step)
    x, y = b.asarray(d["x"]), b.asarray(d["y"])
    carry = [model.params, opt.init(model.params)]
    finish = _finisher(name)

    def run() -> Any:
        carry[0], carry[1], loss = step(carry[0], carry[1], x, y)
        finish((carry[0], carry[1], loss))

    return run


def _ivy_infer(name: str, program: str, d: dict[str, np.ndarray]) -> Call:
    b = il.get_backend(name)
    model = _ivy_model(program)
    forward = il.compile(model.apply) if name == "jax" else model.apply
    params, x, finish = model.params, b.asarray(d["x"]), _finisher(name)
    return lambda: finish(forward(params, x))


def _ivy_adam(name: str, params: Any, grads: Any) -> Call:
    opt = optimizers.adam(LR)
    update = il.compile(opt.update) if name == "jax" else opt.update
    carry = [params, opt.init(params)]
    finish = _finisher(name)

    def run() -> Any:
        carry[0], carry[1] = update(carry[0], grads, carry[1])
        finish((carry[0], carry[1]))

    return run


# ---------------------------------------------------------------------------- torch, native
def _torch_model(program: str) -> Any:
    import torch
    from torch import nn as tnn

    torch.manual_seed(0)
    if program == "mlp":
        layers: list[Any] = []
        for i, (a, b) in enumerate(zip(MLP_SIZES, MLP_SIZES[1:])):
            layers += [tnn.Linear(a, b)] + ([tnn.ReLU()] if i < len(MLP_SIZES) - 2 else [])
        return tnn.Sequential(*layers)
    if program == "cnn":
        c1, c2 = CNN_CHANNELS
        side = CNN_SIDE // 4
        return tnn.Sequential(
            tnn.Conv2d(1, c1, 3, padding=1),
            tnn.ReLU(),
            tnn.MaxPool2d(2),
            tnn.Conv2d(c1, c2, 3, padding=1),
            tnn.ReLU(),
            tnn.MaxPool2d(2),
            tnn.Flatten(),
            tnn.Linear(c2 * side * side, CLASSES),
        )

    class Block(tnn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.ln1, self.ln2 = tnn.LayerNorm(D_MODEL), tnn.LayerNorm(D_MODEL)
            self.attn = tnn.MultiheadAttention(D_MODEL, HEADS, batch_first=True)
            self.ff1, self.ff2 = tnn.Linear(D_MODEL, D_FF), tnn.Linear(D_FF, D_MODEL)

        def forward(self, x: Any) -> Any:
            h = self.ln1(x)
            x = x + self.attn(h, h, h, need_weights=False)[0]
            return x + self.ff2(tnn.functional.gelu(self.ff1(self.ln2(x))))

    return Block()


def _torch_loss(program: str) -> Any:
    from torch import nn as tnn

    return tnn.MSELoss() if program == "transformer" else tnn.CrossEntropyLoss()


def _torch_step(program: str, d: dict[str, np.ndarray]) -> Call:
    import torch

    if program == "mlp":  # bench_training's native column
        run = _training._torch_native(d["x"], d["y"])
        return lambda: run(1)
    model, loss_fn = _torch_model(program), _torch_loss(program)
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])

    def run_step() -> Any:
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()

    return run_step


def _torch_infer(program: str, d: dict[str, np.ndarray]) -> Call:
    import torch

    model, x = _torch_model(program), torch.from_numpy(d["x"])

    def run() -> Any:
        with torch.no_grad():
            return model(x)

    return run


def _torch_adam(arrays: list[np.ndarray], grads: list[np.ndarray]) -> Call:
    import torch

    params = [torch.nn.Parameter(torch.from_numpy(a.copy())) for a in arrays]
    for p, g in zip(params, grads):
        p.grad = torch.from_numpy(g.copy())
    opt = torch.optim.Adam(params, lr=LR)
    return opt.step


# ------------------------------------------------------------------------------ jax, native
def _jax_params(program: str) -> Any:
    import jax.numpy as jnp

    rng = np.random.default_rng(0)

    def dense(a: int, b: int) -> dict[str, Any]:
        bound = 1 / np.sqrt(a)
        w = rng.uniform(-bound, bound, (a, b)).astype(np.float32)
        return {"w": jnp.asarray(w), "b": jnp.zeros(b, jnp.float32)}

    if program == "mlp":
        return [{"w": jnp.asarray(w), "b": jnp.asarray(b)} for w, b in _training._numpy_init()]
    if program == "cnn":
        c1, c2 = CNN_CHANNELS

        def conv(i: int, o: int) -> dict[str, Any]:
            w = rng.uniform(-1, 1, (o, i, 3, 3)).astype(np.float32) / np.sqrt(9 * i)
            return {"w": jnp.asarray(w), "b": jnp.zeros(o, jnp.float32)}

        return {"c1": conv(1, c1), "c2": conv(c1, c2), "fc": dense(c2 * (CNN_SIDE // 4) ** 2, 10)}
    ln = {"g": jnp.ones(D_MODEL, jnp.float32), "b": jnp.zeros(D_MODEL, jnp.float32)}
    return {
        "ln1": ln,
        "ln2": dict(ln),
        **{n: dense(D_MODEL, D_MODEL) for n in ("q", "k", "v", "o")},
        "ff1": dense(D_MODEL, D_FF),
        "ff2": dense(D_FF, D_MODEL),
    }


def _jax_forward(program: str) -> Callable[[Any, Any], Any]:
    import jax
    import jax.numpy as jnp
    from jax import lax

    if program == "mlp":

        def mlp(params: Any, x: Any) -> Any:
            for layer in params[:-1]:
                x = jax.nn.relu(x @ layer["w"] + layer["b"])
            return x @ params[-1]["w"] + params[-1]["b"]

        return mlp
    if program == "cnn":

        def stage(x: Any, c: Any) -> Any:
            x = lax.conv_general_dilated(
                x, c["w"], (1, 1), ((1, 1), (1, 1)), dimension_numbers=("NCHW", "OIHW", "NCHW")
            )
            x = jax.nn.relu(x + c["b"][None, :, None, None])
            return lax.reduce_window(x, -jnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

        def cnn(params: Any, x: Any) -> Any:
            x = stage(stage(x, params["c1"]), params["c2"])
            return x.reshape(x.shape[0], -1) @ params["fc"]["w"] + params["fc"]["b"]

        return cnn

    def layer_norm(x: Any, p: Any) -> Any:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) * lax.rsqrt(var + 1e-5) * p["g"] + p["b"]

    def block(params: Any, x: Any) -> Any:
        batch, length, _ = x.shape
        h = layer_norm(x, params["ln1"])
        q, k, v = (
            (h @ params[n]["w"] + params[n]["b"]).reshape(batch, length, HEADS, -1) for n in "qkv"
        )
        att = jax.nn.dot_product_attention(q, k, v).reshape(batch, length, D_MODEL)
        x = x + att @ params["o"]["w"] + params["o"]["b"]
        h = layer_norm(x, params["ln2"])
        h = jax.nn.gelu(h @ params["ff1"]["w"] + params["ff1"]["b"], approximate=False)
        return x + h @ params["ff2"]["w"] + params["ff2"]["b"]

    return block


def _jax_step(program: str, d: dict[str, np.ndarray]) -> Call:
    import jax
    import jax.numpy as jnp
    import optax

    if program == "mlp":  # bench_training's native column
        run = _training._jax_native(d["x"], d["y"])
        return lambda: run(1)
    forward, opt = _jax_forward(program), optax.adam(LR)

    def loss_fn(params: Any, x: Any, y: Any) -> Any:
        out = forward(params, x)
        if program == "transformer":
            return jnp.mean((out - y) ** 2)
        return optax.softmax_cross_entropy_with_integer_labels(out, y).mean()

    @jax.jit
    def step(params: Any, opt_state: Any, x: Any, y: Any) -> Any:
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    params = _jax_params(program)
    carry = [params, opt.init(params)]
    x, y = jnp.asarray(d["x"]), jnp.asarray(d["y"])

    def run_step() -> Any:
        carry[0], carry[1], loss = step(carry[0], carry[1], x, y)
        jax.block_until_ready((carry[0], carry[1], loss))

    return run_step


def _jax_infer(program: str, d: dict[str, np.ndarray]) -> Call:
    import jax
    import jax.numpy as jnp

    forward, params, x = jax.jit(_jax_forward(program)), _jax_params(program), jnp.asarray(d["x"])
    return lambda: jax.block_until_ready(forward(params, x))


def _jax_adam(arrays: list[np.ndarray], grads: list[np.ndarray]) -> Call:
    import jax
    import jax.numpy as jnp
    import optax

    opt = optax.adam(LR)
    params, g = [jnp.asarray(a) for a in arrays], [jnp.asarray(a) for a in grads]

    @jax.jit
    def update(params: Any, grads: Any, state: Any) -> Any:
        updates, state = opt.update(grads, state, params)
        return optax.apply_updates(params, updates), state

    carry = [params, opt.init(params)]

    def run() -> Any:
        carry[0], carry[1] = update(carry[0], g, carry[1])
        jax.block_until_ready(carry)

    return run


# ----------------------------------------------------------------------- tensorflow, native
def _keras_model(program: str) -> Any:
    import keras

    keras.utils.set_random_seed(0)
    L = keras.layers
    if program == "mlp":
        return keras.Sequential(
            [keras.Input((MLP_SIZES[0],))]
            + [L.Dense(n, activation="relu") for n in MLP_SIZES[1:-1]]
            + [L.Dense(MLP_SIZES[-1])]
        )
    if program == "cnn":
        c1, c2 = CNN_CHANNELS
        return keras.Sequential(
            [
                keras.Input((CNN_SIDE, CNN_SIDE, 1)),
                L.Conv2D(c1, 3, padding="same", activation="relu"),
                L.MaxPooling2D(2),
                L.Conv2D(c2, 3, padding="same", activation="relu"),
                L.MaxPooling2D(2),
                L.Flatten(),
                L.Dense(CLASSES),
            ]
        )
    x = inputs = keras.Input((SEQ, D_MODEL))
    h = L.LayerNormalization(epsilon=1e-5)(x)
    x = x + L.MultiHeadAttention(HEADS, D_MODEL // HEADS)(h, h)
    h = L.Dense(D_FF, activation="gelu")(L.LayerNormalization(epsilon=1e-5)(x))
    return keras.Model(inputs, x + L.Dense(D_MODEL)(h))


def _keras_input(program: str, d: dict[str, np.ndarray]) -> Any:
    import tensorflow as tf

    return tf.constant(_nhwc(d["x"]) if program == "cnn" else d["x"])


def _tensorflow_step(program: str, d: dict[str, np.ndarray]) -> Call:
    import keras
    import tensorflow as tf

    if program == "mlp":  # bench_training's native column
        run = _training._tensorflow_native(d["x"], d["y"])
        return lambda: run(1)
    model = _keras_model(program)
    if program == "transformer":
        loss_fn = keras.losses.MeanSquaredError()
    else:
        loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    opt = keras.optimizers.Adam(learning_rate=LR)
    x, y = _keras_input(program, d), tf.constant(d["y"])

    def run_step() -> Any:
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))

    return run_step


def _tensorflow_infer(program: str, d: dict[str, np.ndarray]) -> Call:
    model, x = _keras_model(program), _keras_input(program, d)
    return lambda: model(x, training=False)


def _tensorflow_adam(arrays: list[np.ndarray], grads: list[np.ndarray]) -> Call:
    import keras
    import tensorflow as tf

    variables = [tf.Variable(a) for a in arrays]
    g = [tf.constant(a) for a in grads]
    opt = keras.optimizers.Adam(learning_rate=LR)
    return lambda: opt.apply_gradients(zip(g, variables))


# ------------------------------------------------------------------------------ mlx, native
def _mlx_model(program: str) -> Any:
    import mlx.core as mx
    import mlx.nn as mnn

    mx.random.seed(0)
    if program == "mlp":
        layers: list[Any] = []
        for i, (a, b) in enumerate(zip(MLP_SIZES, MLP_SIZES[1:])):
            layers += [mnn.Linear(a, b)] + ([mnn.ReLU()] if i < len(MLP_SIZES) - 2 else [])
        return mnn.Sequential(*layers)
    if program == "cnn":
        c1, c2 = CNN_CHANNELS

        class CNN(mnn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.c1 = mnn.Conv2d(1, c1, 3, padding=1)
                self.c2 = mnn.Conv2d(c1, c2, 3, padding=1)
                self.pool = mnn.MaxPool2d(2)
                self.fc = mnn.Linear(c2 * (CNN_SIDE // 4) ** 2, CLASSES)

            def __call__(self, x: Any) -> Any:  # NHWC
                x = self.pool(mnn.relu(self.c2(self.pool(mnn.relu(self.c1(x))))))
                return self.fc(x.reshape(x.shape[0], -1))

        return CNN()

    class Block(mnn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.ln1, self.ln2 = mnn.LayerNorm(D_MODEL, eps=1e-5), mnn.LayerNorm(D_MODEL, eps=1e-5)
            self.attn = mnn.MultiHeadAttention(D_MODEL, HEADS, bias=True)
            self.ff1, self.ff2 = mnn.Linear(D_MODEL, D_FF), mnn.Linear(D_FF, D_MODEL)

        def __call__(self, x: Any) -> Any:
            h = self.ln1(x)
            x = x + self.attn(h, h, h)
            return x + self.ff2(mnn.gelu(self.ff1(self.ln2(x))))

    return Block()


def _mlx_input(program: str, d: dict[str, np.ndarray]) -> Any:
    import mlx.core as mx

    return mx.array(_nhwc(d["x"]) if program == "cnn" else d["x"])


def _mlx_step(program: str, d: dict[str, np.ndarray]) -> Call:
    import mlx.core as mx
    import mlx.nn as mnn
    import mlx.optimizers as optim

    if program == "mlp":  # bench_training's native column
        run = _training._mlx_native(d["x"], d["y"])
        return lambda: run(1)
    model = _mlx_model(program)
    mx.eval(model.parameters())
    opt = optim.Adam(learning_rate=LR, bias_correction=True)

    def loss_fn(model: Any, x: Any, y: Any) -> Any:
        if program == "transformer":
            return mnn.losses.mse_loss(model(x), y)
        return mnn.losses.cross_entropy(model(x), y, reduction="mean")

    loss_and_grad = mnn.value_and_grad(model, loss_fn)
    x, y = _mlx_input(program, d), mx.array(d["y"])

    def run_step() -> Any:
        loss, grads = loss_and_grad(model, x, y)
        opt.update(model, grads)
        mx.eval(model.parameters(), opt.state, loss)

    return run_step


def _mlx_infer(program: str, d: dict[str, np.ndarray]) -> Call:
    import mlx.core as mx

    model, x = _mlx_model(program), _mlx_input(program, d)
    mx.eval(model.parameters())
    return lambda: mx.eval(model(x))


def _mlx_adam(arrays: list[np.ndarray], grads: list[np.ndarray]) -> Call:
    import mlx.core as mx
    import mlx.optimizers as optim

    opt = optim.Adam(learning_rate=LR, bias_correction=True)
    params = {str(i): mx.array(a) for i, a in enumerate(arrays)}
    g = {str(i): mx.array(a) for i, a in enumerate(grads)}
    opt.init(params)
    carry = [params]

    def run() -> Any:
        carry[0] = opt.apply_gradients(g, carry[0])
        mx.eval(carry[0], opt.state)

    return run


# -------------------------------------------------------------------------------- the rows
# ------------------------------------------------------------- compiled steps, native (MLP)
def _torch_compiled_step(d: dict[str, np.ndarray]) -> Call:
    """PyTorch's compiled training idiom: ``torch.compile`` of the model and of
    ``optimizer.step`` (the autograd backward pass runs between them, as it does there)."""
    import torch

    model, loss_fn = _torch_model("mlp"), _torch_loss("mlp")
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    compiled, x, y = torch.compile(model), torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
    opt_step = torch.compile(opt.step)

    def run_step() -> Any:
        opt.zero_grad()
        loss_fn(compiled(x), y).backward()
        opt_step()

    return run_step


def _tensorflow_compiled_step(d: dict[str, np.ndarray]) -> Call:
    """``tf.function`` of the eager row's GradientTape step (Keras layers,
    ``keras.optimizers.Adam``)."""
    import tensorflow as tf

    return tf.function(_tensorflow_step("mlp", d))  # type: ignore[no-any-return]


def _mlx_compiled_step(d: dict[str, np.ndarray]) -> Call:
    """``mx.compile`` of the ``mlx.nn`` step with the model's and the optimizer's state as
    its inputs and outputs (MLX's documented idiom)."""
    import mlx.core as mx
    import mlx.nn as mnn
    import mlx.optimizers as optim

    model = _mlx_model("mlp")
    mx.eval(model.parameters())
    opt = optim.Adam(learning_rate=LR, bias_correction=True)
    loss_and_grad = mnn.value_and_grad(
        model, lambda m, x, y: mnn.losses.cross_entropy(m(x), y, reduction="mean")
    )
    state = [model.state, opt.state]

    def step(x: Any, y: Any) -> Any:
        loss, grads = loss_and_grad(model, x, y)
        opt.update(model, grads)
        return loss

    compiled = mx.compile(step, inputs=state, outputs=state)
    x, y = mx.array(d["x"]), mx.array(d["y"])

    def run_step() -> Any:
        loss = compiled(x, y)
        mx.eval(state, loss)

    return run_step


# JAX's step rows are compiled already.
_COMPILED: dict[str, Callable[[dict[str, np.ndarray]], Call]] = {
    "torch": _torch_compiled_step,
    "tensorflow": _tensorflow_compiled_step,
    "mlx": _mlx_compiled_step,
}


_NATIVE: dict[str, dict[str, Any]] = {
    "torch": {"step": _torch_step, "infer": _torch_infer, "adam": _torch_adam},
    "jax": {"step": _jax_step, "infer": _jax_infer, "adam": _jax_adam},
    "tensorflow": {"step": _tensorflow_step, "infer": _tensorflow_infer, "adam": _tensorflow_adam},
    "mlx": {"step": _mlx_step, "infer": _mlx_infer, "adam": _mlx_adam},
}
_IDIOMS = {
    ("torch", "step"): "`nn` modules, `loss.backward()`, `torch.optim.Adam`",
    ("torch", "infer"): "`nn` modules under `torch.no_grad()`",
    ("torch", "adam"): "`torch.optim.Adam.step()`",
    ("jax", "step"): "`jax.jit` of `jax.value_and_grad` + `optax.adam`",
    ("jax", "infer"): "`jax.jit` of the forward function",
    ("jax", "adam"): "`jax.jit` of `optax.adam` update + `apply_updates`",
    ("tensorflow", "step"): "Keras layers in `tf.GradientTape`, `keras.optimizers.Adam`",
    ("tensorflow", "infer"): "Keras model call",
    ("tensorflow", "adam"): "`keras.optimizers.Adam.apply_gradients`",
    ("mlx", "step"): "`mlx.nn`, `nn.value_and_grad`, `mlx.optimizers.Adam`",
    ("mlx", "infer"): "`mlx.nn` model call",
    ("mlx", "adam"): "`mlx.optimizers.Adam.apply_gradients`",
    ("torch", "compiled"): "`torch.compile` of the `nn` model and of `Adam.step`, "
    "`loss.backward()` (ivy_like: `ivy_like.compile` of the step)",
    ("tensorflow", "compiled"): "`tf.function` of the tape step, `keras.optimizers.Adam` "
    "(ivy_like: `ivy_like.compile` of the step)",
    ("mlx", "compiled"): "`mx.compile` of the `mlx.nn` step, state as inputs/outputs "
    "(ivy_like: `ivy_like.compile` of the step)",
}
_PROGRAMS = {
    "mlp": "MLP 64-128-128-10",
    "cnn": "SmallCNN 8x1x16x16",
    "transformer": "TransformerBlock d=32, seq 16",
}


def _adam_pair(name: str) -> tuple[Call, Call]:
    """``optimizers.adam`` against the native Adam on the MLP's parameters."""
    b = il.get_backend(name)
    params = _ivy_model("mlp").params
    flat = params.cont_flatten_key_chains()
    arrays = [np.asarray(b.to_numpy(flat[kc])) for kc in flat]
    rng = np.random.default_rng(2)
    grads_np = [rng.standard_normal(a.shape).astype(np.float32) for a in arrays]
    grads = il.Container.cont_unflatten({kc: b.asarray(g) for kc, g in zip(flat, grads_np)})
    return _NATIVE[name]["adam"](arrays, grads_np), _ivy_adam(name, params, grads)


def _rows(name: str) -> Iterator[tuple[str, str, Callable[[], tuple[Call, Call]]]]:
    """(program label, native idiom, builder of the (native, ivy_like) pair) of ``name``."""
    for kind, verb in (("step", "step"), ("infer", "inference")):
        for program, label in _PROGRAMS.items():
            d = _data(program, name)

            def pair(kind: str = kind, program: str = program, d: dict = d) -> tuple[Call, Call]:
                native = _NATIVE[name][kind](program, d)
                ours = (_ivy_step if kind == "step" else _ivy_infer)(name, program, d)
                return native, ours

            yield f"{label} {verb}", _IDIOMS[(name, kind)], pair
    if name in _COMPILED:
        d = _data("mlp", name)
        yield (
            f"{_PROGRAMS['mlp']} step, compiled",
            _IDIOMS[(name, "compiled")],
            lambda: (_COMPILED[name](d), _ivy_step(name, "mlp", d, compiled=True)),
        )
    yield "adam update, MLP parameters", _IDIOMS[(name, "adam")], lambda: _adam_pair(name)
    idiom = {
        "torch": "`torch.func.vmap(torch.func.grad)`",
        "jax": "`jax.vmap(jax.grad)`",
        "tensorflow": "`tf.vectorized_map` over a tape",
        "mlx": "`mx.vmap(mx.grad)`",
    }[name]
    yield (
        "vmap(grad), MLP 64-128-10, 64 examples",
        idiom,
        lambda: _transforms._per_example_pair(name, _transforms._data()),
    )


@contextlib.contextmanager
def _timing(quick: bool) -> Iterator[None]:
    """bench_transforms' timing with ROUNDS rounds (few short ones for ``quick``), restored
    afterwards."""
    saved = _transforms.ROUNDS, _transforms.RUN_SECONDS
    _transforms.ROUNDS = ROUNDS
    if quick:
        _transforms.ROUNDS, _transforms.RUN_SECONDS = 5, 0.03
    try:
        yield
    finally:
        _transforms.ROUNDS, _transforms.RUN_SECONDS = saved


@contextlib.contextmanager
def _one_torch_thread(name: str) -> Iterator[None]:
    if name != "torch":
        yield
        return
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def _chart(results: list[tuple[str, float]], path: Path) -> str:
    """A horizontal bar chart of the ratios; a PNG with matplotlib, else an SVG written here.
    Returns the file's name (relative to docs/)."""
    labels, ratios = [r[0] for r in results], [r[1] for r in results]
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        path = path.with_suffix(".svg")
        height = 22 * len(results) + 40
        scale = 300 / max([2.0, *ratios])
        bars = [
            f'<text x="395" y="{30 + 22 * i}" text-anchor="end" font-size="11">{escape(label)}</text>'
            f'<rect x="400" y="{18 + 22 * i}" width="{r * scale:.1f}" height="16" '
            f'fill="{"#4a8" if r <= 1.1 else "#c54"}"/>'
            f'<text x="{405 + r * scale:.1f}" y="{30 + 22 * i}" font-size="11">{r:.2f}</text>'
            for i, (label, r) in enumerate(results)
        ]
        lines = [
            f'<line x1="{400 + v * scale:.1f}" y1="10" x2="{400 + v * scale:.1f}" '
            f'y2="{height - 10}" stroke="#333" stroke-dasharray="{dash}"/>'
            for v, dash in ((1.0, "none"), (1.1, "4"))
        ]
        path.write_text(
            f'<svg xmlns="http://www.w3.org/2000/svg" width="780" height="{height}">'
            + "".join(bars + lines)
            + "</svg>\n"
        )
        return path.name
    fig = Figure(figsize=(8, 0.28 * len(results) + 1.2))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    positions = list(range(len(results)))[::-1]
    colors = ["#4a8" if r <= 1.1 else "#c54" for r in ratios]
    ax.barh(positions, ratios, color=colors)
    for y, r in zip(positions, ratios):
        ax.text(r, y, f" {r:.2f}", va="center", fontsize=7)
    ax.axvline(1.0, color="#333", linewidth=0.8)
    ax.axvline(1.1, color="#333", linewidth=0.8, linestyle="--")
    ax.set_yticks(positions, labels, fontsize=7)
    ax.set_xlabel("time ivy_like / native idiom (median of paired rounds; dashed: 1.1 target)")
    ax.set_title("Whole programs: ivy_like against each framework's own idiom", fontsize=9)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    return path.name


def programs_benchmark(
    backends: list[str] | None = None, quick: bool = False, chart: Path | None = CHART
) -> str:
    """Time every program of every installed backend; return the Markdown table (and write
    the bar chart of the ratios to ``chart`` unless it is None)."""
    available = il.available_backends()
    names = [n for n in (backends or BACKENDS) if n in available and n in _NATIVE]
    rounds = 5 if quick else ROUNDS
    lines = [
        "Each row runs the framework's own idiom and the same program written with ivy_like in "
        "one process, in paired rounds (`benchmarks/bench_programs.py`: MLP 64-128-128-10 on "
        f"a batch of {MLP_BATCH}; `nn.SmallCNN` on {CNN_BATCH}x1x{CNN_SIDE}x{CNN_SIDE} images "
        f"(TensorFlow's and MLX's own convolutions take NHWC); `nn.TransformerBlock` d={D_MODEL}, "
        f"{HEADS} heads, sequence {SEQ}, batch {TF_BATCH}; Adam lr {LR:g}). JAX is compiled on "
        "both sides (`jax.jit` against `ivy_like.compile`), the other backends are eager but "
        "for their *compiled* step row (`ivy_like.compile` of the step against the framework's "
        "own compiled idiom, named in the row); torch "
        f"runs on 1 thread. µs per call are medians over {rounds} rounds, the ratio the median "
        "of the per-round ratios ivy_like / native (target: ≤ 1.1)"
        + (" -- *quick run: few short rounds, rough numbers*" if quick else "")
        + ".\n",
        "| backend | program | native idiom | native µs | ivy_like µs | ratio |",
        "|---|---|---|---:|---:|---:|",
    ]
    results: list[tuple[str, float]] = []
    with _timing(quick):
        for name in names:
            with il.use_backend(name), _one_torch_thread(name):
                for label, idiom, build in _rows(name):
                    backend = f"{name} ({MODES[name]})"
                    try:
                        native, ours = build()
                        n_us, i_us, ratio = _transforms._time(native, ours)
                    except Exception as err:  # noqa: BLE001 -- reported in the row
                        # the first sentence of the error: the table stays readable
                        message = (str(err).splitlines() or [""])[0].split(". ")[0][:100]
                        lines.append(
                            f"| {backend} | {label} | {idiom} | failed: "
                            f"{type(err).__name__}: {message} | | |"
                        )
                        continue
                    lines.append(
                        f"| {backend} | {label} | {idiom} | {n_us:,.1f} | {i_us:,.1f} | "
                        f"{ratio:.2f} |"
                    )
                    results.append((f"{name}: {label}", ratio))
    if chart is not None and results:
        lines.append(f"\n![ratio ivy_like / native per program]({_chart(results, chart)})")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    args = sys.argv[1:]
    quick = "--quick" in args
    print(programs_benchmark([a for a in args if a != "--quick"] or None, quick=quick))

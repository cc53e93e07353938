"""Keras's None dimensions through from_keras: a functional model whose inputs have a dynamic
non-batch axis runs at any size on every backend, a traced subclassed model keeps its batch
axis dynamic, and ``ivy_like.export`` of both serves other sizes; ``to_keras`` of a traced
model saves with its batch axis dynamic."""

from __future__ import annotations

import numpy as np
import pytest

keras = pytest.importorskip("keras")
tf = pytest.importorskip("tensorflow")

import ivy_like  # noqa: E402
from ivy_like.convert import ExportError, from_keras, to_backend, to_keras  # noqa: E402
from ivy_like.testing import assert_close  # noqa: E402

TOL = {"rtol": 1e-4, "atol": 1e-4}
RNG = np.random.default_rng(11)


def _x(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def _sequence_model(conv: bool) -> keras.Model:
    """(batch, time, 8) -> (batch, 2): Dense, [Conv1D,] two attentions, a global pool."""
    keras.utils.set_random_seed(5)
    inp = keras.Input((None, 8))
    h = keras.layers.Dense(6, activation="relu")(inp)
    if conv:
        h = keras.layers.Conv1D(6, 3, padding="same", activation="tanh")(h)
    dot = keras.layers.Attention(use_scale=True)([h, h])
    concat = keras.layers.Attention(score_mode="concat")([h, h, h])
    pooled = keras.layers.GlobalAveragePooling1D()(keras.layers.Add()([dot, concat]))
    maxed = keras.layers.GlobalMaxPooling1D()(h)
    out = keras.layers.Dense(2)(keras.layers.Concatenate()([pooled, maxed]))
    model = keras.Model(inp, out)
    for w in model.weights:  # the attention scales start at 1: make them count
        if w.name in ("scale", "concat_score_weight"):
            w.assign(np.full(w.shape, 0.7, np.float32))
    return model


def test_a_dynamic_time_axis_runs_at_any_size_on_every_backend(backend):
    km = _sequence_model(conv=True)
    model = from_keras(km, backend=backend.name)
    for shape in [(2, 5, 8), (3, 9, 8), (1, 2, 8)]:
        x = _x(*shape)
        got = model(to_backend(x, backend.name))
        assert tuple(got.shape) == (shape[0], 2)
        assert_close(ivy_like.to_numpy(got), np.asarray(km(x)), **TOL, label=f"{shape}: ")


class _Net(keras.Model):
    def __init__(self) -> None:
        super().__init__(name="net")
        self.fc = keras.layers.Dense(6, name="fc")
        self.conv = keras.layers.Conv1D(4, 3, name="conv")

    def call(self, x):
        return keras.ops.mean(keras.ops.tanh(self.conv(self.fc(x))), axis=1)


def test_a_traced_model_keeps_the_batch_dynamic():
    keras.utils.set_random_seed(6)
    net = _Net()
    model = from_keras(net, _x(2, 5, 8), backend="numpy")
    for shape in [(2, 5, 8), (7, 5, 8)]:
        x = _x(*shape)
        assert_close(np.asarray(model(x)), np.asarray(net(x)), **TOL, label=f"{shape}: ")


@pytest.mark.parametrize("fmt", ["savedmodel", "jax"])
def test_export_with_dynamic_dimensions_serves_other_sizes(fmt, tmp_path):
    km = _sequence_model(conv=True)  # a stride-1 "same" convolution over the dynamic axis
    model = from_keras(km, backend="numpy")
    keras.utils.set_random_seed(6)
    net = _Net()
    traced = from_keras(net, _x(2, 5, 8), backend="numpy")
    cases = [
        (model, [{0: "batch", 1: "time"}], km, [(3, 11, 8), (1, 2, 8)]),
        (traced, None, net, [(6, 5, 8), (1, 5, 8)]),  # default: the batch axis dynamic
    ]
    for i, (m, dynamic, source, sizes) in enumerate(cases):
        path = str(tmp_path / f"m{i}.{fmt}")
        ivy_like.export(m, _x(2, 5, 8), format=fmt, path=path, dynamic=dynamic)
        run = _load(fmt, path)
        for shape in sizes:
            x = _x(*shape)
            assert_close(run(x), np.asarray(source(x)), **TOL, label=f"{fmt} {shape}: ")


def _load(fmt: str, path: str):
    if fmt == "savedmodel":
        serve = tf.saved_model.load(path).signatures["serving_default"]
        return lambda x: next(iter(serve(input_0=tf.constant(x)).values())).numpy()
    from jax import export

    with open(path, "rb") as file:
        exported = export.deserialize(bytearray(file.read()))
    return lambda x: np.asarray(exported.call(x))


def test_to_keras_of_a_traced_model_saves_with_a_dynamic_batch(tmp_path):
    keras.utils.set_random_seed(6)
    net = _Net()
    km = to_keras(from_keras(net, _x(2, 5, 8), backend="numpy"))
    x = _x(2, 5, 8)
    y = np.asarray(km(x))
    km.save(tmp_path / "net.keras")
    loaded = keras.models.load_model(tmp_path / "net.keras")
    assert np.array_equal(np.asarray(loaded(x)), np.asarray(tf.function(km)(x)))
    assert_close(np.asarray(loaded(x)), y, rtol=1e-6, atol=1e-6)
    bigger = _x(5, 5, 8)
    assert_close(np.asarray(loaded(bigger)), np.asarray(net(bigger)), **TOL)


@pytest.mark.parametrize("fmt", ["savedmodel", "jax"])
def test_a_strided_same_convolution_over_a_dynamic_axis_is_refused_by_name(fmt, tmp_path):
    """With a stride above 1, "same" padding depends on the axis's size: the export says so
    rather than writing a graph fixed at the example's padding, and leaves nothing behind."""
    inp = keras.Input((None, 8))
    km = keras.Model(inp, keras.layers.Conv1D(4, 3, strides=2, padding="same")(inp))
    model = from_keras(km, backend="numpy")
    path = tmp_path / f"m.{fmt}"
    with pytest.raises(ExportError, match="'same' padding with stride 2 over an axis of dynamic"):
        ivy_like.export(model, _x(2, 7, 8), format=fmt, path=str(path), dynamic=[{1: "time"}])
    assert not path.exists()
    ivy_like.export(model, _x(2, 7, 8), format=fmt, path=str(path), dynamic=None)  # batch only
    run = _load(fmt, str(path))
    x = _x(5, 7, 8)
    assert_close(run(x), np.asarray(km(x)), **TOL, label=f"{fmt}: ")

"""to_keras gives Keras models that ``model.save`` / ``keras.models.load_model`` round-trip.

An ``ivy_like.nn.Sequential`` and a model read from a functional Keras model come back as
Keras models of built-in layers, which load where ivy_like cannot be imported. Every other
model (captured from PyTorch or Flax) is a ``PortableKerasModel``: its weights are Keras
variables, its config the TensorFlow graph of its call as data; it loads where ivy_like is
importable, and its SavedModel (``model.export``, ``tf.saved_model.save``) serves without it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

keras = pytest.importorskip("keras")
tf = pytest.importorskip("tensorflow")
torch = pytest.importorskip("torch")

import ivy_like  # noqa: E402
from ivy_like.container import Container  # noqa: E402
from ivy_like.convert import from_keras, from_torch, to_keras  # noqa: E402
from ivy_like.convert.keras.portable import PortableKerasModel  # noqa: E402

RNG = np.random.default_rng(7)

# Runs in `python -I`: ivy_like cannot be imported; each job loads an artifact with Keras or
# TensorFlow alone and writes its outputs.
_SERVE = textwrap.dedent(
    """
    import json, sys
    import numpy as np

    class NoIvyLike:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] == "ivy_like":
                raise ImportError("ivy_like is blocked")
            return None

    sys.meta_path.insert(0, NoIvyLike())
    import keras
    import tensorflow as tf

    for job in json.loads(open(sys.argv[1]).read()):
        x = np.load(job["input"])
        if job["kind"] == "keras":
            model = keras.models.load_model(job["path"])
            out = np.asarray(model(x))
            weights = [np.asarray(w) for w in model.weights]
            np.savez(job["output"], out=out, *weights)
        else:
            serve = tf.saved_model.load(job["path"]).signatures["serving_default"]
            (out,) = serve(tf.constant(x)).values()
            np.savez(job["output"], out=out.numpy())
    if any(name.split(".")[0] == "ivy_like" for name in sys.modules):
        sys.exit("ivy_like was imported")
    """
)


def _serve_without_ivy_like(jobs: list[dict], folder: Path) -> None:
    spec = folder / "jobs.json"
    spec.write_text(json.dumps(jobs))
    done = subprocess.run(
        [sys.executable, "-I", "-c", _SERVE, str(spec)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": "", "KERAS_BACKEND": "tensorflow"},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]


# -- the sources -------------------------------------------------------------------------------
def _nn_sequential():
    with ivy_like.use_backend("numpy"):
        model = ivy_like.nn.Sequential(
            [ivy_like.nn.Linear(5, 4), ivy_like.nn.ReLU(), ivy_like.nn.Linear(4, 3)], seed=0
        )
    return model, RNG.standard_normal((2, 5)).astype(np.float32)


def _keras_functional():
    keras.utils.set_random_seed(3)
    inp = keras.Input((6,))
    h = keras.layers.Dense(5, activation="relu", name="body")(inp)
    h = keras.layers.BatchNormalization(name="bn")(h)
    out = keras.layers.Dense(2, name="out")(keras.layers.Concatenate()([inp, h]))
    km = keras.Model(inp, out)
    bn = km.get_layer("bn")
    bn.moving_mean.assign(RNG.standard_normal(5).astype(np.float32))
    bn.moving_variance.assign(RNG.uniform(0.5, 2.0, 5).astype(np.float32))
    return from_keras(km, backend="numpy"), RNG.standard_normal((3, 6)).astype(np.float32)


class _SmallCNN(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(4)
        self.fc = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(torch.relu(self.bn(self.conv(x))).mean((2, 3)))


def _torch_cnn():
    torch.manual_seed(0)
    net = _SmallCNN().eval()
    with torch.no_grad():
        net.bn.running_mean.copy_(torch.randn(4))
        net.bn.running_var.copy_(torch.rand(4) + 0.5)
    x = RNG.standard_normal((2, 3, 8, 8)).astype(np.float32)
    return from_torch(net, torch.from_numpy(x), backend="numpy"), x


def _flax_mlp():
    jax = pytest.importorskip("jax")
    fnn = pytest.importorskip("flax.linen")
    from ivy_like.convert import from_flax

    class MLP(fnn.Module):
        @fnn.compact
        def __call__(self, x):
            return fnn.Dense(2)(fnn.tanh(fnn.Dense(4)(x)))

    x = RNG.standard_normal((2, 3)).astype(np.float32)
    variables = MLP().init(jax.random.key(0), x)
    return from_flax(MLP(), variables, x, backend="numpy"), x


SOURCES = {
    "nn_sequential": (_nn_sequential, keras.Sequential),
    "keras_functional": (_keras_functional, keras.Model),
    "torch_cnn": (_torch_cnn, PortableKerasModel),
    "flax_mlp": (_flax_mlp, PortableKerasModel),
}
NATIVE = ("nn_sequential", "keras_functional")


def _same_outputs(loaded, km, x, y) -> None:
    """A model of built-in layers reloads to the same layers: the same outputs, bit for bit. A
    PortableKerasModel reloads to the graph of its call: bit for bit what the model computes in
    graph mode (``tf.function``, as Keras's ``predict`` and ``fit`` run it), and within 1e-6 of
    its eager run (TensorFlow's graph optimizer may fuse the ops otherwise)."""
    got = np.asarray(loaded(x))
    if isinstance(km, PortableKerasModel):
        assert np.array_equal(got, np.asarray(tf.function(km)(x)))
        np.testing.assert_allclose(got, y, rtol=1e-6, atol=1e-6)
    else:
        assert np.array_equal(got, y)


def _weights(model) -> list[np.ndarray]:
    return [np.asarray(w) for w in model.weights]


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """Each source sent to Keras, run, saved to .keras and reloaded in this process: (the Keras
    model, its input, its output, the reloaded model, the file, the converted model)."""
    folder = tmp_path_factory.mktemp("to_keras_native")
    out = {}
    for name, (build, _) in SOURCES.items():
        model, x = build()
        km = to_keras(model)
        y = np.asarray(km(x))
        path = folder / f"{name}.keras"
        km.save(path)
        out[name] = (km, x, y, keras.models.load_model(path), path, model)
    return out


@pytest.mark.parametrize("name", list(SOURCES))
def test_save_and_load_model_round_trip(saved, name):
    km, x, y, loaded, *_ = saved[name]
    assert isinstance(km, SOURCES[name][1])
    if name in NATIVE:
        assert not isinstance(km, PortableKerasModel)
    assert type(loaded) is type(km)
    _same_outputs(loaded, km, x, y)
    assert [w.name for w in loaded.weights] == [w.name for w in km.weights]
    for a, b in zip(_weights(loaded), _weights(km)):
        assert a.dtype == b.dtype and np.array_equal(a, b)
    assert [w.trainable for w in loaded.weights] == [w.trainable for w in km.weights]


def test_the_outputs_are_the_source_models(saved):
    """The Keras models compute what the converted models compute."""
    for name, (_, x, y, *_, model) in saved.items():
        want = np.asarray(ivy_like.to_numpy(model(x)))
        np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-5, err_msg=name)


@pytest.mark.parametrize("name", ["torch_cnn", "flax_mlp"])
def test_a_reloaded_portable_model_trains_and_saves_its_new_weights(saved, name, tmp_path):
    km, x, _, loaded, *_ = saved[name]

    def grads(model):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(tf.constant(x)) ** 2)
        return tape.gradient(loss, model.trainable_variables)

    for g, h in zip(grads(km), grads(loaded)):
        assert g is not None and h is not None
        np.testing.assert_allclose(h.numpy(), g.numpy(), rtol=1e-5, atol=1e-6)
    # a step of training on the reloaded model, saved again: the new weights come back
    for v, g in zip(loaded.trainable_variables, grads(loaded)):
        v.assign_sub(0.1 * g)
    moved = np.asarray(loaded(x))
    loaded.save(tmp_path / "again.keras")
    again = keras.models.load_model(tmp_path / "again.keras")
    assert np.array_equal(np.asarray(again(x)), moved)
    for a, b in zip(_weights(again), _weights(loaded)):
        assert np.array_equal(a, b)


def test_a_portable_models_batch_stays_dynamic_where_the_source_allows():
    model, x = _flax_mlp()
    km = to_keras(model, input_shape=(3,))
    config = km.get_config()
    assert config["graph"]["inputs"][0]["shape"] == [None, 3]
    restored = PortableKerasModel.from_config(json.loads(json.dumps(config)))
    for v, w in zip(restored.weights, km.weights):
        v.assign(w)
    bigger = RNG.standard_normal((5, 3)).astype(np.float32)
    _same_outputs(restored, km, bigger, np.asarray(km(bigger)))


def test_native_models_load_and_savedmodels_serve_without_ivy_like(saved, tmp_path):
    jobs, want = [], {}
    for name in SOURCES:
        km, x, y, _, path, _ = saved[name]
        np.save(tmp_path / f"{name}_x.npy", x)
        if name in NATIVE:
            jobs.append(
                {
                    "kind": "keras",
                    "path": str(path),
                    "input": str(tmp_path / f"{name}_x.npy"),
                    "output": str(tmp_path / f"{name}_keras.npz"),
                }
            )
            want[f"{name}_keras"] = (y, _weights(km))
        for how in ("export", "tf_saved_model"):
            folder = tmp_path / f"{name}_{how}"
            if how == "export":
                km.export(str(folder), verbose=False)
            else:
                tf.saved_model.save(km, str(folder))
            jobs.append(
                {
                    "kind": "savedmodel",
                    "path": str(folder),
                    "input": str(tmp_path / f"{name}_x.npy"),
                    "output": str(tmp_path / f"{name}_{how}.npz"),
                }
            )
            want[f"{name}_{how}"] = (y, None)
    _serve_without_ivy_like(jobs, tmp_path)
    for key, (y, weights) in want.items():
        with np.load(tmp_path / f"{key}.npz") as data:
            np.testing.assert_allclose(data["out"], y, rtol=1e-6, atol=1e-6, err_msg=key)
            if weights is not None:
                got = [data[f"arr_{i}"] for i in range(len(weights))]
                assert all(np.array_equal(a, b) for a, b in zip(got, weights)), key


class _PythonOp:
    """A portable model whose apply calls a Python function through TensorFlow."""

    def __init__(self) -> None:
        self.params = Container({"w": np.full((3,), 2.0, np.float32)})

    def apply(self, params, x):
        scaled = tf.convert_to_tensor(x) * tf.convert_to_tensor(params["w"])
        return tf.numpy_function(np.tanh, [scaled], tf.float32, stateful=False)


def test_a_model_that_cannot_be_described_refuses_to_save_and_leaves_no_file(tmp_path):
    km = to_keras(_PythonOp())
    x = RNG.standard_normal((2, 3)).astype(np.float32)
    y = np.asarray(km(x))
    path = tmp_path / "m.keras"
    with pytest.raises(TypeError, match="PyFunc"):
        km.save(path)
    assert not path.exists()
    np.testing.assert_allclose(np.asarray(km(x)), np.tanh(2.0 * x), rtol=1e-6)
    assert np.array_equal(np.asarray(km(x)), y)  # still works in memory


def test_a_model_never_called_says_what_to_do(tmp_path):
    model, _ = _torch_cnn()
    km = to_keras(model)
    with pytest.raises(TypeError, match="call the model once"):
        km.save(tmp_path / "m.keras")
    assert not (tmp_path / "m.keras").exists()


def test_a_functional_model_with_other_weight_dtypes_stays_exact():
    """Weights of another dtype than the Keras config's cannot go into the rebuilt layers
    without a cast: the model is then a PortableKerasModel, computing in their dtype."""
    model, x = _keras_functional()
    params = model.params.cont_map(lambda v, kc: np.asarray(v, np.float64))
    km = to_keras(model, params)
    assert isinstance(km, PortableKerasModel)
    assert all(w.dtype == "float64" for w in km.weights)
    want = np.asarray(ivy_like.to_numpy(model.apply(params, x.astype(np.float64))))
    np.testing.assert_allclose(np.asarray(km(x.astype(np.float64))), want, rtol=1e-12)


def test_a_rebuilt_functional_model_holds_the_given_params_exactly():
    model, x = _keras_functional()
    params = model.params.cont_map(lambda v, kc: np.asarray(v) * np.float32(0.5))
    km = to_keras(model, params)
    assert not isinstance(km, PortableKerasModel)
    for layer in km.layers:
        for w in layer.weights:
            assert np.array_equal(np.asarray(w), params[f"{layer.name}/{w.name}"])
    want = np.asarray(ivy_like.to_numpy(model.apply(params, x)))
    np.testing.assert_allclose(np.asarray(km(x)), want, rtol=1e-5, atol=1e-5)


class _MyNorm(keras.layers.LayerNormalization):
    """A layer class of the user's: Keras rebuilds it only where the class is registered."""


def test_a_functional_model_with_a_layer_class_of_its_own_is_portable(tmp_path):
    inp = keras.Input((4,))
    km = keras.Model(inp, _MyNorm(name="norm")(keras.layers.Dense(4, name="fc")(inp)))
    x = RNG.standard_normal((2, 4)).astype(np.float32)
    back = to_keras(from_keras(km, backend="numpy"))
    assert isinstance(back, PortableKerasModel)
    np.testing.assert_allclose(np.asarray(back(x)), np.asarray(km(x)), rtol=1e-5, atol=1e-5)
    back.save(tmp_path / "m.keras")
    _same_outputs(keras.models.load_model(tmp_path / "m.keras"), back, x, np.asarray(back(x)))

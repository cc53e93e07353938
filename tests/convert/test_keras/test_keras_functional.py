"""from_keras on Keras 3 functional models: residual connections, shared layers,
several inputs and outputs, on every backend, and gradients that match TensorFlow's."""

import keras
import numpy as np
import pytest
import tensorflow as tf

import ivy_like
from ivy_like.convert import UnsupportedOpError, from_keras, to_backend
from ivy_like.testing import assert_close

L = keras.layers
TOL = {"rtol": 1e-4, "atol": 1e-4}  # the bar: within 1e-4 of Keras in float32


def _randomize_batch_norms(model: keras.Model) -> keras.Model:
    # Non-trivial moving statistics and affine parameters, so inference mode is tested.
    rng = np.random.default_rng(0)
    for layer in model.layers:
        if isinstance(layer, L.BatchNormalization):
            layer.set_weights(
                [rng.uniform(0.5, 1.5, w.shape).astype("float32") for w in layer.get_weights()]
            )
    return model


def residual_model() -> keras.Model:
    """Conv, BatchNormalization and a residual Add, pooled, then upsampled by transposed
    convolutions, ending in two heads merged by Concatenate."""
    keras.utils.set_random_seed(0)
    inp = keras.Input((8, 8, 3), name="image")
    x = L.Conv2D(4, 3, padding="same", activation="relu", name="stem")(inp)
    x = L.BatchNormalization(name="bn")(x)
    y = L.Conv2D(4, 3, padding="same", name="branch")(x)
    y = L.BatchNormalization(name="branch_bn")(y)
    x = L.ReLU()(L.Add()([x, y]))
    x = L.Dropout(0.5)(L.MaxPooling2D(2)(x))
    x = L.Conv2DTranspose(3, 3, strides=2, padding="same", name="up")(x)
    x = L.Conv2DTranspose(2, 2, strides=2, activation="sigmoid", name="up_valid")(x)
    a = L.GlobalAveragePooling2D()(x)
    b = L.Flatten()(L.AveragePooling2D(4)(x))
    b = L.Dense(5, activation="tanh", name="head")(b)
    out = L.Reshape((3, 3))(L.Concatenate()([a, b, a]))
    return _randomize_batch_norms(keras.Model(inp, out))


def two_in_two_out() -> keras.Model:
    """Two inputs through one shared Dense (one weight set used twice), merged by
    Concatenate and Multiply into two outputs."""
    keras.utils.set_random_seed(1)
    a = keras.Input((6,), name="a")
    b = keras.Input((6,), name="b")
    shared = L.Dense(4, activation="gelu", name="shared")
    sa, sb = shared(a), shared(b)
    cat = L.Dense(3, name="cat_head")(L.Concatenate()([sa, sb]))
    prod = L.Activation("softmax")(L.Multiply()([sa, sb]))
    return keras.Model([a, b], [cat, prod])


def dict_model() -> keras.Model:
    keras.utils.set_random_seed(2)
    a = keras.Input((5,), name="a")
    b = keras.Input((5,), name="b")
    h = L.LayerNormalization(name="norm")(L.Subtract()([a, b]))
    return keras.Model({"a": a, "b": b}, {"sum": L.Add()([h, a]), "h": L.Dense(2)(h)})


def misc_model() -> keras.Model:
    """The other merges, Conv1D, Identity, global max pooling and more activations."""
    keras.utils.set_random_seed(3)
    inp = keras.Input((6, 5, 4))
    c = L.Conv1D(4, 3, padding="same", activation="silu")(L.Reshape((6, 20))(inp))
    m = L.Maximum()([c, L.Identity()(c)])
    n = L.Minimum()([c, L.Dense(4)(m)])
    out = L.Activation("log_softmax")(L.Flatten()(L.Average()([m, n])))
    pooled = L.Flatten()(L.GlobalMaxPooling2D(keepdims=True)(inp))
    return keras.Model(inp, [out, L.Dense(3, activation="relu6")(pooled)])


rng = np.random.default_rng(5)
CASES = {
    "residual": (residual_model, rng.standard_normal((2, 8, 8, 3)).astype("float32")),
    "two_in_two_out": (
        two_in_two_out,
        [rng.standard_normal((3, 6)).astype("float32") for _ in range(2)],
    ),
    "dict": (dict_model, {k: rng.standard_normal((2, 5)).astype("float32") for k in "ab"}),
    "misc": (misc_model, rng.standard_normal((2, 6, 5, 4)).astype("float32")),
}


def _on(backend, x):
    if isinstance(x, dict):
        return {k: to_backend(v, backend.name) for k, v in x.items()}
    if isinstance(x, list):
        return [to_backend(v, backend.name) for v in x]
    return to_backend(x, backend.name)


@pytest.mark.parametrize("case", sorted(CASES))
def test_functional_model_matches_keras_on_every_backend(backend, case):
    make, x = CASES[case]
    km = make()
    expected = km(x, training=False)
    model = from_keras(km, backend=backend.name)
    got = model(_on(backend, x))
    # Keras's output structure: one array, a list, or a dict.
    if isinstance(expected, dict):
        assert isinstance(got, dict) and set(got) == set(expected)
        pairs = [(got[k], expected[k]) for k in expected]
    elif isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected)
        pairs = list(zip(got, expected))
    else:
        pairs = [(got, expected)]
    for i, (g, e) in enumerate(pairs):
        e = np.asarray(e)
        assert tuple(g.shape) == e.shape
        assert_close(ivy_like.to_numpy(g), e, **TOL, label=f"output {i}: ")


def test_params_are_keyed_by_layer_and_weight_names():
    km = two_in_two_out()
    model = from_keras(km, backend="numpy")
    # the shared Dense has one set of weights, in Keras's layout (kernel (in, out))
    assert model.params.cont_all_key_chains() == [
        "shared/kernel",
        "shared/bias",
        "cat_head/kernel",
        "cat_head/bias",
    ]
    np.testing.assert_array_equal(
        ivy_like.to_numpy(model.params["shared/kernel"]), km.get_layer("shared").get_weights()[0]
    )
    # several inputs may be passed positionally, as well as in Keras's list
    x = CASES["two_in_two_out"][1]
    for g, e in zip(model(*x), model(x)):
        np.testing.assert_array_equal(ivy_like.to_numpy(g), ivy_like.to_numpy(e))
    with pytest.raises(TypeError, match=r"expected 2 inputs, got 3"):
        model([*x, x[0]])
    # new params change the result: apply is a function of them
    doubled = model.params.cont_map(lambda v, kc: v * 2)
    out = model.apply(doubled, x)[0]
    assert not np.allclose(ivy_like.to_numpy(out), ivy_like.to_numpy(model(x)[0]))


def _image_model(data_format: str) -> keras.Model:
    keras.utils.set_random_seed(4)
    first = data_format == "channels_first"
    inp = keras.Input((4, 6, 5) if first else (6, 5, 4))
    x = L.Conv2D(3, 3, strides=2, padding="same", data_format=data_format)(inp)
    x = L.Conv2DTranspose(2, 3, strides=2, padding="same", data_format=data_format)(x)
    pooled = L.Flatten(data_format=data_format)(L.MaxPooling2D(2, data_format=data_format)(x))
    normed = L.BatchNormalization(axis=1 if first else -1)(x)
    return keras.Model(
        inp,
        [
            pooled,
            L.GlobalAveragePooling2D(data_format=data_format)(x),
            L.Flatten(data_format=data_format)(normed),
        ],
    )


def test_channels_first_layers(backend):
    # TensorFlow cannot run Keras's channels-first convolutions on the CPU, so the reference
    # is the channels-last model with the same weights, fed the transposed input.
    last = _randomize_batch_norms(_image_model("channels_last"))
    first = _image_model("channels_first")
    first.set_weights(last.get_weights())
    x = rng.standard_normal((2, 6, 5, 4)).astype("float32")
    model = from_keras(first, backend=backend.name)
    got = model(to_backend(np.ascontiguousarray(x.transpose(0, 3, 1, 2)), backend.name))
    for i, (g, e) in enumerate(zip(got, last(x, training=False))):
        assert_close(ivy_like.to_numpy(g), np.asarray(e), **TOL, label=f"output {i}: ")


def _keras_gradients(km, x, weights):
    variables = {v.path: v for v in km.trainable_weights}
    with tf.GradientTape() as tape:
        outs = km(x, training=False)
        outs = outs if isinstance(outs, list) else [outs]
        loss = sum(tf.reduce_sum(o * w) for o, w in zip(outs, weights))
    grads = tape.gradient(loss, list(variables.values()))
    return {path: g.numpy() for path, g in zip(variables, grads)}


@pytest.mark.requires("autodiff")
@pytest.mark.parametrize("case", ["residual", "two_in_two_out"])
def test_gradients_match_tensorflow(backend, case):
    make, x = CASES[case]
    km = make()
    outs = km(x, training=False)
    shapes = [o.shape for o in (outs if isinstance(outs, list) else [outs])]
    weights = [rng.standard_normal(s).astype("float32") for s in shapes]
    expected = _keras_gradients(km, x, weights)
    model = from_keras(km, backend=backend.name)
    xs, ws = _on(backend, x), [to_backend(w, backend.name) for w in weights]

    def loss(params):
        outs = model.apply(params, xs)
        outs = outs if isinstance(outs, list) else [outs]
        return sum(ivy_like.sum(o * w) for o, w in zip(outs, ws))

    grad = ivy_like.grad(loss)
    if backend.name == "jax":
        grad = ivy_like.compile(grad)
    got = grad(model.params_on(backend.name)).cont_flatten_key_chains()
    # the moving statistics are parameters too (not trainable in Keras): their gradients exist
    assert set(expected) <= set(got)
    for kc, g in expected.items():
        assert_close(ivy_like.to_numpy(got[kc]), g, **TOL, label=f"{kc}: ")


def test_unsupported_layer_is_named():
    inp = keras.Input((4, 3))
    out = L.Dense(1)(L.LSTM(2, name="my_lstm")(inp))
    with pytest.raises(UnsupportedOpError) as err:
        from_keras(keras.Model(inp, out))
    msg = str(err.value)
    assert isinstance(err.value, TypeError)
    assert "layer 'my_lstm'" in msg and "LSTM" in msg
    assert "supported layers: InputLayer, Dense, Conv1D, Conv2D, Conv2DTranspose" in msg


@pytest.mark.parametrize(
    "make, why",
    [
        (lambda x: L.Activation("elu", name="odd")(x), "layer 'odd' .*activation 'elu'"),
        (lambda x: keras.ops.exp(x), r"layer 'exp' \(keras.src.ops.numpy.Exp\)"),
    ],
)
def test_unsupported_settings_are_named(make, why):
    inp = keras.Input((6, 6, 2))
    km = keras.Model(inp, make(L.Dense(2)(inp)))
    with pytest.raises(UnsupportedOpError, match=why):
        from_keras(km)


def test_subclassed_model_is_refused():
    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.fc = L.Dense(2)

        def call(self, x):
            return self.fc(x)

    net = Net()
    net(np.ones((1, 3), "float32"))
    with pytest.raises(TypeError, match="not a Sequential or functional model"):
        from_keras(net)


def test_docs_list_every_supported_layer():
    from pathlib import Path

    from ivy_like.convert.keras.functional import SUPPORTED_FUNCTIONAL

    docs = (Path(__file__).parents[3] / "docs" / "convert.md").read_text()
    section = docs.split("## Keras functional models", 1)[1].split("\n## ", 1)[0]
    missing = [n for n in SUPPORTED_FUNCTIONAL if n != "InputLayer" and n not in section]
    assert not missing, f"docs/convert.md does not list {missing}"

"""Keras <-> ivy_like: channels-last models on every backend, round trips, weight lists."""

import keras
import numpy as np
import pytest
import torch

import ivy_like
from ivy_like.convert import (
    Permute,
    UnsupportedLayerError,
    from_keras,
    from_keras_weights,
    from_torch,
    to_backend,
    to_keras,
    to_keras_weights,
)

L = keras.layers


def _randomize(model: keras.Model) -> keras.Model:
    # Non-trivial BatchNormalization statistics and LayerNormalization affine parameters.
    rng = np.random.default_rng(0)
    for layer in model.layers:
        if isinstance(layer, (L.BatchNormalization, L.LayerNormalization)):
            layer.set_weights(
                [rng.uniform(0.5, 1.5, w.shape).astype("float32") for w in layer.get_weights()]
            )
    return model


def cnn() -> keras.Sequential:
    keras.utils.set_random_seed(0)
    return _randomize(
        keras.Sequential(
            [
                keras.Input((10, 12, 3)),
                L.Conv2D(6, 3, padding="same", activation="relu"),
                L.BatchNormalization(),
                L.MaxPooling2D(2),
                L.ZeroPadding2D(1),
                L.Conv2D(8, (3, 2), strides=(1, 2), groups=2),
                L.AveragePooling2D(2),
                L.Conv2D(4, 1),
                L.Flatten(),
                L.Dense(10, activation="gelu"),
                L.LayerNormalization(),
                L.Dropout(0.3),
                L.Softmax(),
            ]
        )
    )


def sequence_model() -> keras.Sequential:
    keras.utils.set_random_seed(1)
    return keras.Sequential(
        [
            keras.Input((3,), dtype="int32"),
            L.Embedding(20, 6),
            L.Dense(8, activation="silu"),
            L.Dense(8, use_bias=False, activation="sigmoid"),
            L.Activation("tanh"),
            L.Dense(4),
            L.ReLU(),
            L.Activation("log_softmax"),
        ]
    )


def conv1d_model() -> keras.Sequential:
    keras.utils.set_random_seed(2)
    return _randomize(
        keras.Sequential(
            [
                keras.Input((9, 4)),
                L.Conv1D(6, 3, padding="same"),
                L.BatchNormalization(),
                L.Activation("relu"),
                L.Conv1D(2, 3, strides=2),
                L.Flatten(),
                L.Dense(3),
                L.BatchNormalization(),  # on (N, C): channel axis 1 is the last axis
            ]
        )
    )


rng = np.random.default_rng(5)
CASES = {
    "cnn": (cnn, rng.standard_normal((2, 10, 12, 3)).astype("float32")),
    "sequence": (sequence_model, np.array([[1, 5, 19], [0, 2, 7]], dtype="int32")),
    "conv1d": (conv1d_model, rng.standard_normal((2, 9, 4)).astype("float32")),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_from_keras_matches_on_every_backend(backend, case):
    make, x = CASES[case]
    km = make()
    expected = np.asarray(km(x))
    model = from_keras(km, backend=backend.name)
    got = ivy_like.to_numpy(model(to_backend(x, backend.name)))
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_channels_last_becomes_two_permutations():
    model = from_keras(cnn(), backend="numpy")
    kinds = [type(layer).__name__ for layer in model.layers]
    # NHWC -> NCHW once at the input, NCHW -> NHWC once before Flatten (Keras's element order).
    assert kinds.count("Permute") == 2
    assert kinds[0] == "Permute" and model.layers[0].dims == (0, 3, 1, 2)
    flatten = kinds.index("Flatten")
    assert kinds[flatten - 1] == "Permute" and model.layers[flatten - 1].dims == (0, 2, 3, 1)
    convs = [layer for layer in model.layers if isinstance(layer, ivy_like.nn.Conv2d)]
    assert convs[1].padding == 1  # ZeroPadding2D(1) became the padding of the next Conv2d


@pytest.mark.parametrize("case", sorted(CASES))
def test_keras_round_trip_on_every_backend(backend, case):
    make, x = CASES[case]
    km = make()
    back = to_keras(from_keras(km, backend=backend.name), input_shape=km.input_shape[1:])
    np.testing.assert_allclose(np.asarray(back(x)), np.asarray(km(x)), rtol=1e-5, atol=1e-6)
    # The weights come back bit for bit (layouts transposed there and back).
    ref = [w for w in km.get_weights()]
    got = back.get_weights()
    assert len(ref) == len(got)
    for a, b in zip(ref, got):
        np.testing.assert_array_equal(a, b)


def test_torch_model_into_keras():
    torch.manual_seed(0)
    net = torch.nn.Sequential(
        torch.nn.Conv2d(3, 4, 3, padding=1),
        torch.nn.BatchNorm2d(4),
        torch.nn.ReLU(),
        torch.nn.Conv2d(4, 4, 3, stride=2, padding=1),
        torch.nn.MaxPool2d(2),
        torch.nn.Flatten(),
        torch.nn.Linear(16, 5),
        torch.nn.LogSoftmax(dim=1),
    ).eval()
    x = torch.randn(2, 3, 8, 8)
    km = to_keras(from_torch(net), input_shape=(3, 8, 8))  # takes NCHW, like the torch model
    np.testing.assert_allclose(
        np.asarray(km(x.numpy())), net(x).detach().numpy(), rtol=1e-5, atol=1e-5
    )
    # and back: the permutations cancel, leaving the torch layers
    again = from_keras(km, backend="numpy")
    assert [type(layer).__name__ for layer in again.layers] == [type(m).__name__ for m in net]


def test_keras_weight_lists_on_every_backend(backend):
    km = cnn()
    model = from_keras(km, backend=backend.name)
    # the arrays land on the model's backend, as Array or native leaves as in model.params
    assert from_keras_weights(km.get_weights(), model).cont_identical(model.params)
    for a, b in zip(to_keras_weights(model), km.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_keras_weight_list_errors_name_the_key_chain():
    km = sequence_model()
    model = from_keras(km, backend="numpy")
    weights = km.get_weights()
    with pytest.raises(ValueError, match="got 5 arrays, the model has 6 weights"):
        from_keras_weights(weights[:-1], model)
    bad = list(weights)
    bad[1] = np.zeros((7, 8), "float32")  # the first Dense kernel should be (6, 8)
    with pytest.raises(ValueError, match=r"'1/weight' has shape \(8, 7\), expected \(8, 6\)"):
        from_keras_weights(bad, model)


def test_unsupported_keras_layer_is_named():
    km = keras.Sequential([keras.Input((4, 3)), L.LSTM(2), L.Dense(1)])
    with pytest.raises(UnsupportedLayerError) as err:
        from_keras(km)
    msg = str(err.value)
    assert "layer 0" in msg and "LSTM" in msg and "supported layers: Dense, Conv1D" in msg


@pytest.mark.parametrize(
    "layer, why",
    [
        (L.Conv2D(2, 2, padding="same"), "padding='same'"),
        (L.MaxPooling2D(2, padding="same"), "padding='same'"),
        (L.Activation("elu"), "activation 'elu'"),
    ],
)
def test_unsupported_keras_settings_are_named(layer, why):
    km = keras.Sequential([keras.Input((6, 6, 2)), L.Dense(2), layer])
    with pytest.raises(UnsupportedLayerError, match=f"layer 1 .*{why}"):
        from_keras(km)


def test_to_keras_rejects_what_keras_cannot_express():
    model = ivy_like.nn.Sequential([ivy_like.nn.MaxPool2d(3, padding=1)], backend="numpy")
    with pytest.raises(UnsupportedLayerError, match="to_keras: layer 0 .*padding"):
        to_keras(model)


def test_permute_layer():
    layer = Permute((0, 2, 1))
    assert layer.apply(layer.init(0), ivy_like.zeros((1, 2, 3))).shape == (1, 3, 2)
    with pytest.raises(ValueError, match="permutation"):
        Permute((0, 0, 1))

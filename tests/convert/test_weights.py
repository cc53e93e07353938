"""Weights through safetensors files, and one converted model agreeing on every backend.

A model converted and saved on one backend loads on every other bit for bit; the same
conversion gives the same predictions (within 1e-5) whichever backend runs it.
"""

import functools

import flax.linen as fnn
import jax
import keras
import numpy as np
import pytest
import safetensors.torch
import torch

import ivy_like
from ivy_like.convert import (
    flax_flatten,
    from_flax,
    from_keras,
    from_state_dict,
    from_torch,
    to_backend,
    to_torch,
)

nn = torch.nn
L = keras.layers


def torch_cnn(dtype=torch.float32) -> nn.Sequential:
    torch.manual_seed(0)
    net = nn.Sequential(
        nn.Conv2d(3, 4, 3, padding=1),
        nn.BatchNorm2d(4),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(4 * 4 * 4, 5),
        nn.LayerNorm(5),
        nn.LogSoftmax(dim=1),
    )
    with torch.no_grad():
        net[1].running_mean.uniform_(-0.5, 0.5)
        net[1].running_var.uniform_(0.5, 1.5)
    return net.to(dtype).eval()


def keras_cnn() -> keras.Sequential:
    keras.utils.set_random_seed(0)
    km = keras.Sequential(
        [
            keras.Input((8, 8, 3)),
            L.Conv2D(4, 3, padding="same", activation="relu"),
            L.BatchNormalization(),
            L.AveragePooling2D(2),
            L.Flatten(),
            L.Dense(5, activation="softmax"),
        ]
    )
    bn = km.layers[1]
    rng = np.random.default_rng(0)
    bn.set_weights([rng.uniform(0.5, 1.5, w.shape).astype("float32") for w in bn.get_weights()])
    return km


def flax_cnn():
    net = fnn.Sequential(
        [
            fnn.Conv(4, (3, 3)),
            fnn.gelu,
            functools.partial(fnn.max_pool, window_shape=(2, 2), strides=(2, 2)),
            flax_flatten,
            fnn.Dense(5),
        ]
    )
    return net, net.init(jax.random.key(0), np.zeros((1, 8, 8, 3), np.float32))


NCHW = np.random.default_rng(1).standard_normal((2, 3, 8, 8)).astype("float32")
NHWC = np.ascontiguousarray(NCHW.transpose(0, 2, 3, 1))


def bits(x):
    a = np.asarray(ivy_like.to_numpy(x))
    return str(a.dtype), a.shape, a.tobytes()


# -- safetensors -----------------------------------------------------------------------------
def test_saved_on_torch_loads_bit_exact_on_every_backend(backend, tmp_path):
    net = torch_cnn()
    on_torch = from_torch(net, backend="torch")
    path = tmp_path / "cnn.safetensors"
    on_torch.params.cont_to_disk(str(path))

    loaded = ivy_like.Container.cont_from_disk(str(path), backend=backend.name)
    saved = on_torch.params.cont_flatten_key_chains()
    got = loaded.cont_flatten_key_chains()
    assert sorted(got) == sorted(saved)  # (the file does not keep the key order)
    for kc, leaf in saved.items():
        assert ivy_like.backend_of(got[kc]).name == backend.name
        a = leaf.detach().numpy() if isinstance(leaf, torch.Tensor) else ivy_like.to_numpy(leaf)
        b = np.asarray(ivy_like.to_numpy(got[kc]))
        assert a.dtype == b.dtype and a.shape == b.shape, kc
        assert a.tobytes() == b.tobytes(), kc  # bit for bit

    model = ivy_like.nn.Sequential(on_torch.layers, params=loaded)
    out = ivy_like.to_numpy(model(to_backend(NCHW, backend.name)))
    np.testing.assert_allclose(out, net(torch.from_numpy(NCHW)).detach().numpy(), atol=1e-5)


def test_bfloat16_weights_survive_the_file(backend, tmp_path):
    net = torch_cnn(torch.bfloat16)
    path = tmp_path / "bf16.safetensors"
    from_torch(net, backend="torch").params.cont_to_disk(str(path))
    if backend.name == "numpy":  # NumPy has no bfloat16: a clear error, never a cast
        with pytest.raises(TypeError, match="bfloat16"):
            ivy_like.Container.cont_from_disk(str(path), backend="numpy")
        return
    loaded = ivy_like.Container.cont_from_disk(str(path), backend=backend.name, native=True)
    back = to_torch(from_torch(net, backend="torch"), params=loaded)
    for (k, a), (k2, b) in zip(net.state_dict().items(), back.state_dict().items()):
        assert k == k2
        if not k.endswith("num_batches_tracked"):
            assert a.dtype == b.dtype == torch.bfloat16, k
            assert torch.equal(a.view(torch.int16), b.view(torch.int16)), k


def test_a_state_dict_saved_by_torch_loads_through_the_container(backend, tmp_path):
    net = torch_cnn()
    sd = {k: v for k, v in net.state_dict().items() if not k.endswith("num_batches_tracked")}
    path = tmp_path / "torch.safetensors"
    safetensors.torch.save_file(sd, str(path))  # torch's own writer: keys "0.weight"
    model = from_torch(net, backend=backend.name)
    c = ivy_like.Container.cont_from_disk(str(path), backend=backend.name, native=True)
    params = from_state_dict(c, model)
    assert params.cont_identical(model.params)


def test_keras_weights_through_a_file_into_torch(tmp_path):
    km = keras_cnn()
    model = from_keras(km, backend="tensorflow")
    path = tmp_path / "keras.safetensors"
    model.params.cont_to_disk(str(path))
    loaded = ivy_like.Container.cont_from_disk(str(path), backend="torch", native=True)
    module = to_torch(model, params=loaded)  # takes NHWC, like the Keras model
    np.testing.assert_allclose(
        module(torch.from_numpy(NHWC)).detach().numpy(), np.asarray(km(NHWC)), atol=1e-5
    )


# -- one conversion, every backend -------------------------------------------------------------
def _reference(source):
    if source == "torch":
        net = torch_cnn()
        return (lambda b: from_torch(net, backend=b)), NCHW, net(torch.from_numpy(NCHW))
    if source == "keras":
        km = keras_cnn()
        return (lambda b: from_keras(km, backend=b)), NHWC, km(NHWC)
    net, variables = flax_cnn()
    return (lambda b: from_flax(variables, net, backend=b)), NHWC, net.apply(variables, NHWC)


@pytest.mark.parametrize("source", ["torch", "keras", "flax"])
def test_the_same_conversion_agrees_across_backends(source):
    convert, x, native = _reference(source)
    native = np.asarray(native.detach() if isinstance(native, torch.Tensor) else native)
    outputs = {}
    for name in ivy_like.available_backends():
        model = convert(name)
        leaves = model.params.cont_flatten_key_chains().values()
        assert {ivy_like.backend_of(v).name for v in leaves} == {name}
        outputs[name] = np.asarray(ivy_like.to_numpy(model(to_backend(x, name))))
    assert len(outputs) == 5, sorted(outputs)
    first = outputs["numpy"]
    for name, out in outputs.items():
        np.testing.assert_allclose(out, native, rtol=1e-5, atol=1e-5, err_msg=name)
        np.testing.assert_allclose(out, first, rtol=1e-5, atol=1e-5, err_msg=name)
    # and the weights are the same bits on every backend
    ref = {kc: bits(v) for kc, v in convert("numpy").params.cont_flatten_key_chains().items()}
    for name in outputs:
        got = {kc: bits(v) for kc, v in convert(name).params.cont_flatten_key_chains().items()}
        assert got == ref, name

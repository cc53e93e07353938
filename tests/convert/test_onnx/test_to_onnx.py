"""``to_onnx`` and the round trips: functions, ``ivy_like.nn`` models, converted Keras models
and models read by ``from_onnx`` become ONNX models that ``onnx.checker`` accepts with full
checking and ONNX Runtime runs with the same outputs; ``from_onnx(to_onnx(f))`` gives ``f``'s
gradients."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
pytest.importorskip("onnxscript")
torch = pytest.importorskip("torch")

import ivy_like  # noqa: E402
from ivy_like.convert import ExportError, from_onnx, to_onnx  # noqa: E402
from ivy_like.testing import assert_close  # noqa: E402

RNG = np.random.default_rng(1)


def run(model: object, *inputs: np.ndarray) -> list[np.ndarray]:
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    return session.run(None, dict(zip(names, inputs)))


def f(x: object, y: object) -> object:
    return ivy_like.tanh(x) * ivy_like.exp(-y) + ivy_like.sum(x * y, axis=-1, keepdims=True)


def test_a_function_with_a_dynamic_batch() -> None:
    x, y = RNG.standard_normal((2, 3)).astype(np.float32), RNG.random((2, 3)).astype(np.float32)
    model = to_onnx(f, x, y)
    onnx.checker.check_model(model, full_check=True)
    assert [i.name for i in model.graph.input] == ["x", "y"]
    assert model.graph.input[0].type.tensor_type.shape.dim[0].dim_param == "batch"
    for n in (1, 2, 6):
        a, b = RNG.standard_normal((n, 3)).astype(np.float32), RNG.random((n, 3)).astype(np.float32)
        with ivy_like.use_backend("numpy"):
            want = ivy_like.to_numpy(f(a, b))
        np.testing.assert_allclose(run(model, a, b)[0], want, rtol=1e-5, atol=1e-6)


def test_an_ivy_like_nn_model_keeps_its_weight_names(tmp_path: object) -> None:
    with ivy_like.use_backend("numpy"):
        nn = ivy_like.nn
        net = nn.Sequential([nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)], seed=0)
        x = RNG.standard_normal((3, 4)).astype(np.float32)
        want = ivy_like.to_numpy(net(x))
    path = tmp_path / "net.onnx"
    model = to_onnx(net, x, path=path)
    assert path.exists()
    names = {t.name for t in model.graph.initializer}
    assert set(net.params.cont_all_key_chains()) <= {n.replace(".", "/") for n in names}
    np.testing.assert_allclose(run(model, x)[0], want, rtol=1e-5, atol=1e-6)


def test_from_onnx_of_to_onnx_gives_the_gradients() -> None:
    x, y = RNG.standard_normal((4, 3)).astype(np.float32), RNG.random((4, 3)).astype(np.float32)
    back = from_onnx(to_onnx(f, x, y), backend="torch")
    with ivy_like.use_backend("torch"):
        xa, ya = ivy_like.asarray(x), ivy_like.asarray(y)
        got = ivy_like.grad(lambda a, b: ivy_like.sum(back(a, b)), argnums=(0, 1))(xa, ya)
        want = ivy_like.grad(lambda a, b: ivy_like.sum(f(a, b)), argnums=(0, 1))(xa, ya)
    for g, w in zip(got, want):
        assert_close(g, w, rtol=1e-5, atol=1e-6)


class SmallCnn(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.fc = torch.nn.Linear(8 * 4 * 4, 5)

    def forward(self, x: object) -> object:
        h = torch.nn.functional.max_pool2d(torch.relu(self.bn(self.conv(x))), 2)
        return torch.softmax(self.fc(h.flatten(1)), -1)


def test_to_onnx_of_from_onnx_runs_in_onnx_runtime() -> None:
    """A PyTorch CNN exported by PyTorch's own exporter, read by from_onnx, written again by
    to_onnx: ONNX Runtime gives PyTorch's outputs for both files."""
    torch.manual_seed(0)
    net = SmallCnn().eval()
    with torch.no_grad():
        net.bn.running_mean.uniform_(-0.5, 0.5)
        net.bn.running_var.uniform_(0.5, 2.0)
    x = RNG.standard_normal((2, 3, 8, 8)).astype(np.float32)
    source = torch.onnx.export(net, (torch.from_numpy(x),), dynamo=True, verbose=False).model_proto
    with torch.no_grad():
        want = net(torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(run(source, x)[0], want, rtol=1e-4, atol=1e-6)
    model = from_onnx(source, backend="torch")
    again = to_onnx(model, x, dynamic=False)
    onnx.checker.check_model(again, full_check=True)
    np.testing.assert_allclose(run(again, x)[0], want, rtol=1e-4, atol=1e-6)


def test_a_keras_model_through_to_onnx() -> None:
    keras = pytest.importorskip("keras")
    from ivy_like.convert import from_keras

    inputs = keras.Input((6,))
    h = keras.layers.Dense(5, activation="gelu")(inputs)
    out = keras.layers.Dense(3, activation="softmax")(keras.layers.LayerNormalization()(h))
    km = keras.Model(inputs, out)
    x = RNG.standard_normal((4, 6)).astype(np.float32)
    model = to_onnx(from_keras(km, backend="numpy"), x)
    np.testing.assert_allclose(run(model, x)[0], np.asarray(km(x)), rtol=1e-4, atol=1e-5)


def test_a_batch_the_function_cannot_take_is_refused(tmp_path: object) -> None:
    def fixed(x: object) -> object:
        return ivy_like.reshape(x, (2, 4))

    path = tmp_path / "fixed.onnx"
    with pytest.raises(ExportError, match="batch"):
        to_onnx(fixed, np.ones((2, 4), np.float32), path=path)
    assert not path.exists()
    model = to_onnx(fixed, np.ones((2, 4), np.float32), dynamic=False)
    assert run(model, np.ones((2, 4), np.float32))[0].shape == (2, 4)

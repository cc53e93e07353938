"""PyTorch <-> ivy_like: outputs on every backend, round trips, a torch-trained model elsewhere."""

import numpy as np
import pytest
import torch

import ivy_like
from ivy_like.convert import (
    UnsupportedLayerError,
    from_state_dict,
    from_torch,
    to_backend,
    to_state_dict,
    to_torch,
)

nn = torch.nn


def _randomize_bn(net: nn.Module) -> None:
    # Non-trivial running statistics, so inference BatchNorm is really tested.
    g = torch.Generator().manual_seed(1)
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            with torch.no_grad():
                m.running_mean.copy_(torch.rand(m.num_features, generator=g) - 0.5)
                m.running_var.copy_(torch.rand(m.num_features, generator=g) + 0.5)
                m.weight.copy_(torch.rand(m.num_features, generator=g) + 0.5)
                m.bias.copy_(torch.rand(m.num_features, generator=g) - 0.5)


def cnn() -> nn.Sequential:
    torch.manual_seed(0)
    net = nn.Sequential(
        nn.Conv2d(3, 6, 3, padding=1),
        nn.BatchNorm2d(6),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(6, 8, (3, 2), stride=(1, 2), dilation=(1, 1), groups=2),
        nn.AvgPool2d(2),
        nn.Flatten(),
        nn.Linear(8 * 1 * 1, 10),
        nn.LayerNorm(10),
        nn.GELU(),
        nn.Dropout(0.3),
        nn.LogSoftmax(dim=-1),
    )
    _randomize_bn(net)
    return net.eval()


def sequence_model() -> nn.Sequential:
    torch.manual_seed(1)
    return nn.Sequential(
        nn.Embedding(20, 6),
        nn.Linear(6, 8),
        nn.SiLU(),
        nn.Linear(8, 8, bias=False),
        nn.Sigmoid(),
        nn.Linear(8, 4),
        nn.Tanh(),
        nn.GELU(approximate="tanh"),
        nn.Softmax(dim=-1),
    ).eval()


def conv1d_model() -> nn.Sequential:
    torch.manual_seed(2)
    return nn.Sequential(
        nn.Conv1d(4, 6, 3, padding=1), nn.ReLU(), nn.Conv1d(6, 2, 3, stride=2), nn.Flatten()
    ).eval()


CASES = {
    "cnn": (cnn, lambda: torch.randn(2, 3, 10, 12, generator=torch.Generator().manual_seed(3))),
    "sequence": (sequence_model, lambda: torch.tensor([[1, 5, 19], [0, 2, 7]], dtype=torch.int32)),
    "conv1d": (
        conv1d_model,
        lambda: torch.randn(2, 4, 9, generator=torch.Generator().manual_seed(4)),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_from_torch_matches_on_every_backend(backend, case):
    make_net, make_x = CASES[case]
    net, x = make_net(), make_x()
    expected = net(x).detach().numpy()
    model = from_torch(net, backend=backend.name)
    assert isinstance(model, ivy_like.nn.Sequential)
    got = ivy_like.to_numpy(model(to_backend(x, backend.name)))
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("case", sorted(CASES))
def test_torch_round_trip_on_every_backend(backend, case):
    make_net, make_x = CASES[case]
    net, x = make_net(), make_x()
    back = to_torch(from_torch(net, backend=backend.name))
    assert [type(m) for m in back] == [type(m) for m in net]
    assert not back.training
    ref = {k: v for k, v in net.state_dict().items() if not k.endswith("num_batches_tracked")}
    got = {k: v for k, v in back.state_dict().items() if not k.endswith("num_batches_tracked")}
    assert list(ref) == list(got)
    for k in ref:
        assert torch.equal(ref[k], got[k]), k
    assert torch.equal(back(x), net(x))


def test_module_config_round_trips():
    net = cnn()
    back = to_torch(from_torch(net, backend="numpy"))
    for a, b in zip(net, back):
        assert repr(a) == repr(b)


def test_torch_trained_model_reproduced_in_jax_and_tensorflow():
    torch.manual_seed(0)
    x = torch.randn(64, 5)
    y = (x[:, 0] + x[:, 1] * x[:, 2] > 0).long()
    net = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 2))
    opt = torch.optim.SGD(net.parameters(), lr=0.5)
    before = [p.detach().clone() for p in net.parameters()]
    for _ in range(20):
        opt.zero_grad()
        nn.functional.cross_entropy(net(x), y).backward()
        opt.step()
    assert not all(torch.equal(a, b) for a, b in zip(before, net.parameters()))  # it trained
    expected = net(x).detach().numpy()
    for name in ("jax", "tensorflow"):
        model = from_torch(net, backend=name)
        leaf = model.params["0"]["weight"]
        assert ivy_like.backend_of(leaf).name == name
        got = ivy_like.to_numpy(model(to_backend(x, name)))
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
        assert (got.argmax(1) == expected.argmax(1)).all()


def test_torch_trained_cnn_reproduced_in_jax_and_tensorflow():
    # Adam, and BatchNorm in training mode: its running statistics move, then eval uses them.
    torch.manual_seed(1)
    x = torch.randn(32, 1, 8, 8)
    y = (x.mean(dim=(1, 2, 3)) > 0).long()
    net = nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1),
        nn.BatchNorm2d(4),
        nn.ReLU(),
        nn.AvgPool2d(2),
        nn.Flatten(),
        nn.Linear(64, 2),
    )
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    net.train()
    for _ in range(5):
        opt.zero_grad()
        nn.functional.cross_entropy(net(x), y).backward()
        opt.step()
    net.eval()
    assert not torch.equal(net[1].running_mean, torch.zeros(4))  # the statistics moved
    expected = net(x).detach().numpy()
    for name in ("jax", "tensorflow"):
        got = ivy_like.to_numpy(from_torch(net, backend=name)(to_backend(x, name)))
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5, err_msg=name)


def test_jax_jit_runs_a_converted_model():
    import jax

    net = sequence_model()
    model = from_torch(net, backend="jax")
    x = torch.tensor([[3, 4]], dtype=torch.int32)
    got = jax.jit(model.apply)(model.params, to_backend(x, "jax"))
    np.testing.assert_allclose(np.asarray(got), net(x).detach().numpy(), rtol=1e-5, atol=1e-6)


def test_copy_makes_the_model_independent():
    net = nn.Sequential(nn.Linear(3, 2))
    owned = from_torch(net, backend="numpy")
    shared = from_torch(net, backend="numpy", copy=False)
    assert shared.params["0"]["weight"].ctypes.data == net[0].weight.data_ptr()
    assert owned.params["0"]["weight"].ctypes.data != net[0].weight.data_ptr()
    with torch.no_grad():
        net[0].weight.add_(1.0)
    np.testing.assert_array_equal(shared.params["0"]["weight"], net[0].weight.detach().numpy())
    np.testing.assert_array_equal(owned.params["0"]["weight"] + 1.0, net[0].weight.detach().numpy())


def test_to_torch_owns_its_weights():
    model = from_torch(nn.Sequential(nn.Linear(3, 2)), backend="numpy")
    back = to_torch(model)
    with torch.no_grad():
        back[0].weight.zero_()
    assert np.abs(model.params["0"]["weight"]).sum() > 0


def test_float64_module_stays_float64(backend):
    net = nn.Sequential(nn.Linear(3, 2), nn.Tanh()).double()
    try:
        backend.native_dtype(ivy_like.float64)
    except TypeError:  # jax without jax_enable_x64: a clear error, never a silent downcast
        with pytest.raises(TypeError, match="'0/weight' has dtype float64"):
            from_torch(net, backend=backend.name)
        return
    model = from_torch(net, backend=backend.name)
    assert ivy_like.to_numpy(model.params["0"]["weight"]).dtype == np.float64
    assert to_torch(model)[0].weight.dtype == torch.float64


def test_unsupported_torch_layer_is_named():
    net = nn.Sequential(nn.Linear(3, 4), nn.LSTM(4, 4), nn.ReLU())
    with pytest.raises(UnsupportedLayerError) as err:
        from_torch(net)
    msg = str(err.value)
    assert "layer 1" in msg and "torch.nn.modules.rnn.LSTM" in msg
    assert "supported layers: Linear, Conv1d, Conv2d" in msg


@pytest.mark.parametrize(
    "layer, why",
    [
        (nn.MaxPool2d(2, ceil_mode=True), "ceil_mode"),
        (nn.Conv2d(1, 1, 3, padding=1, padding_mode="reflect"), "padding_mode"),
        (nn.Softmax(), "dim=None"),
        (nn.Flatten(1, 2), "end_dim"),
        (nn.BatchNorm2d(3, track_running_stats=False), "track_running_stats"),
    ],
)
def test_unsupported_torch_settings_are_named(layer, why):
    with pytest.raises(UnsupportedLayerError, match=f"layer 0 .*{why}"):
        from_torch(nn.Sequential(layer))


def test_from_torch_needs_a_sequential():
    with pytest.raises(TypeError, match="torch.nn.Sequential"):
        from_torch(nn.Linear(2, 2))


def test_to_torch_rejects_a_layer_it_does_not_know():
    class Double(ivy_like.nn.layers.Layer):
        def apply(self, params, x):
            return x * 2

    model = ivy_like.nn.Sequential([ivy_like.nn.Linear(2, 2), Double()], backend="numpy")
    with pytest.raises(UnsupportedLayerError, match="to_torch: layer 1 .*Double"):
        to_torch(model)


def test_state_dict_round_trip(backend):
    net = cnn()
    model = from_torch(net, backend=backend.name)
    c = from_state_dict(net.state_dict(), model)
    assert c.cont_identical(model.params)
    sd = to_state_dict(c)
    for k, v in net.state_dict().items():
        if not k.endswith("num_batches_tracked"):
            assert torch.equal(sd[k], v), k
    missing = net.state_dict().keys() - sd.keys()
    assert all(k.endswith("num_batches_tracked") for k in missing)
    fresh = cnn()
    with torch.no_grad():
        for p in fresh.parameters():
            p.zero_()
    fresh.load_state_dict(sd, strict=False)  # strict=False: no num_batches_tracked in sd
    x = CASES["cnn"][1]()
    assert torch.equal(fresh(x), net(x))


def test_state_dict_without_model_keeps_every_tensor():
    c = from_state_dict(nn.Linear(3, 2).state_dict(), backend="torch")
    assert sorted(c.cont_all_key_chains()) == ["bias", "weight"]
    assert isinstance(c["weight"], torch.Tensor)


def test_state_dict_errors_name_the_key_chain():
    net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    model = from_torch(net, backend="numpy")
    sd = net.state_dict()
    missing = {k: v for k, v in sd.items() if k != "2.bias"}
    with pytest.raises(ValueError, match="missing weights for key chain.*2/bias"):
        from_state_dict(missing, model)
    extra = dict(sd, **{"1.weight": torch.zeros(2)})
    with pytest.raises(ValueError, match="unexpected weights at key chain.*1/weight"):
        from_state_dict(extra, model)
    wrong = dict(sd, **{"0.weight": torch.zeros(3, 4)})
    with pytest.raises(ValueError, match=r"'0/weight' has shape \(3, 4\), expected \(4, 3\)"):
        from_state_dict(wrong, model)
    with pytest.raises(ValueError, match="missing weights.*2/bias"):
        to_torch(model, params=from_state_dict(missing, backend="numpy"))

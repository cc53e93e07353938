"""Flax (linen and nnx) -> ivy_like, and ivy_like weights back into Flax."""

import functools
import re

import flax.linen as fnn
import jax
import numpy as np
import pytest
from flax import nnx

import ivy_like
from ivy_like.convert import (
    UnsupportedLayerError,
    flax_flatten,
    from_flax,
    from_flax_params,
    to_backend,
    to_flax_params,
)

X = np.random.default_rng(0).standard_normal((4, 3)).astype("float32")


def linen_model():
    net = fnn.Sequential(
        [
            fnn.Dense(8),
            fnn.relu,
            fnn.LayerNorm(),
            fnn.Dense(8),
            fnn.gelu,
            fnn.Dense(2),
            fnn.log_softmax,
        ]
    )
    return net, net.init(jax.random.key(0), X)


def test_linen_sequential_on_every_backend(backend):
    net, variables = linen_model()
    model = from_flax(variables, net, backend=backend.name)
    got = ivy_like.to_numpy(model(to_backend(X, backend.name)))
    np.testing.assert_allclose(got, np.asarray(net.apply(variables, X)), rtol=1e-5, atol=1e-5)


def test_nnx_sequential_on_every_backend(backend):
    rngs = nnx.Rngs(0)
    net = nnx.Sequential(
        nnx.Linear(3, 8, rngs=rngs), nnx.silu, nnx.Linear(8, 2, rngs=rngs), nnx.tanh
    )
    model = from_flax(net, backend=backend.name)  # an nnx module carries its own params
    got = ivy_like.to_numpy(model(to_backend(X, backend.name)))
    np.testing.assert_allclose(got, np.asarray(net(X)), rtol=1e-5, atol=1e-5)


def test_compact_mlp_without_module():
    class MLP(fnn.Module):
        @fnn.compact
        def __call__(self, x):
            x = fnn.relu(fnn.Dense(8)(x))
            x = fnn.relu(fnn.Dense(8)(x))
            return fnn.Dense(2)(x)

    variables = MLP().init(jax.random.key(1), X)
    assert sorted(variables["params"]) == ["Dense_0", "Dense_1", "Dense_2"]
    model = from_flax(variables, backend="numpy")  # read as an MLP with relu between
    assert [type(layer).__name__ for layer in model.layers] == [
        "Linear",
        "ReLU",
        "Linear",
        "ReLU",
        "Linear",
    ]
    np.testing.assert_allclose(
        model(X), np.asarray(MLP().apply(variables, X)), rtol=1e-5, atol=1e-5
    )
    assert from_flax_params(variables, model).cont_identical(model.params)


def test_params_back_into_flax():
    net, variables = linen_model()
    model = from_flax(variables, net, backend="torch")
    out = to_flax_params(model)
    np.testing.assert_allclose(
        np.asarray(net.apply(out, X)), np.asarray(net.apply(variables, X)), rtol=0, atol=0
    )
    assert from_flax_params(out, model).cont_identical(model.params)
    nnx_style = to_flax_params(model, style="nnx")
    assert sorted(nnx_style["layers"]) == [0, 2, 3, 5]


def test_flax_errors_name_the_layer_or_key():
    net = fnn.Sequential([fnn.Dense(4), fnn.elu])
    variables = net.init(jax.random.key(0), X)
    with pytest.raises(UnsupportedLayerError, match="layer 1 "):
        from_flax(variables, net)
    bad = {"Dense_0": {"kernel": np.zeros((3, 4), "float32")}, "weird": {}}
    with pytest.raises(ValueError, match="'weird'"):
        from_flax(bad)
    model = from_flax(
        {"Dense_0": {"kernel": np.zeros((3, 4), "float32"), "bias": np.zeros(4, "float32")}},
        backend="numpy",
    )
    wrong = {"Dense_0": {"kernel": np.zeros((5, 4), "float32"), "bias": np.zeros(4, "float32")}}
    with pytest.raises(ValueError, match=r"'0/weight' has shape \(4, 5\), expected \(4, 3\)"):
        from_flax_params(wrong, model)
    with pytest.raises(ValueError, match="missing weights.*0/bias"):
        from_flax_params({"Dense_0": {"kernel": np.zeros((3, 4), "float32")}}, model)
    with pytest.raises(ValueError, match="activation"):
        from_flax(variables, activation="elu")


# -- convolutional models: HWIO kernels, NHWC inputs, BatchNorm statistics ---------------------
IMAGES = np.random.default_rng(1).standard_normal((2, 10, 12, 3)).astype("float32")
SIGNALS = np.random.default_rng(2).standard_normal((2, 9, 4)).astype("float32")


def _random_stats(variables):
    # Non-trivial running statistics and affine parameters, so inference BatchNorm is tested.
    rng = np.random.default_rng(3)

    def fill(tree, low, high):
        return jax.tree.map(lambda a: rng.uniform(low, high, a.shape).astype("float32"), tree)

    out = {"params": dict(variables["params"]), "batch_stats": {}}
    for name, stats in variables["batch_stats"].items():
        out["batch_stats"][name] = {
            "mean": fill(stats["mean"], -0.5, 0.5),
            "var": fill(stats["var"], 0.5, 1.5),
        }
        out["params"][name] = fill(variables["params"][name], 0.5, 1.5)
    return out


def linen_cnn():
    net = fnn.Sequential(
        [
            fnn.Conv(6, (3, 3)),  # padding "SAME": symmetric 1
            fnn.BatchNorm(use_running_average=True),
            fnn.relu,
            functools.partial(fnn.max_pool, window_shape=(2, 2), strides=(2, 2)),
            fnn.Conv(8, (3, 2), strides=(1, 2), padding="VALID", feature_group_count=2),
            functools.partial(fnn.avg_pool, window_shape=(2, 2), strides=(2, 2)),
            fnn.Conv(4, (1, 1), padding=((1, 1), (1, 1))),
            flax_flatten,
            fnn.Dense(10),
            fnn.LayerNorm(),
            fnn.Dropout(0.3, deterministic=True),
            fnn.softmax,
        ]
    )
    return net, _random_stats(net.init(jax.random.key(0), IMAGES))


def nnx_cnn():
    r = nnx.Rngs(0)
    net = nnx.Sequential(
        nnx.Conv(4, 6, (3,), rngs=r),
        nnx.BatchNorm(6, use_running_average=True, rngs=r),
        nnx.gelu,
        nnx.Conv(6, 2, (3,), strides=2, padding="VALID", kernel_dilation=1, rngs=r),
        flax_flatten,
        nnx.Linear(8, 3, rngs=r),
        nnx.BatchNorm(3, use_running_average=True, rngs=r),  # on (N, C)
    )
    rng = np.random.default_rng(4)
    for i in (1, 6):
        bn = net.layers[i]
        for var, low, high in ((bn.mean, -0.5, 0.5), (bn.var, 0.5, 1.5), (bn.scale, 0.5, 1.5)):
            var[...] = rng.uniform(low, high, var[...].shape).astype("float32")
    return net


def test_linen_cnn_on_every_backend(backend):
    net, variables = linen_cnn()
    expected = np.asarray(net.apply(variables, IMAGES))
    model = from_flax(variables, net, backend=backend.name)
    kinds = [type(layer).__name__ for layer in model.layers]
    # NHWC -> NCHW once at the input, back to NHWC once before Flatten (Flax's element order)
    assert kinds.count("Permute") == 2 and kinds[0] == "Permute"
    assert kinds[kinds.index("Flatten") - 1] == "Permute"
    got = ivy_like.to_numpy(model(to_backend(IMAGES, backend.name)))
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_nnx_conv1d_on_every_backend(backend):
    net = nnx_cnn()
    model = from_flax(net, backend=backend.name)
    got = ivy_like.to_numpy(model(to_backend(SIGNALS, backend.name)))
    np.testing.assert_allclose(got, np.asarray(net(SIGNALS)), rtol=1e-5, atol=1e-5)


def test_conv_params_round_trip_bit_exact_on_every_backend(backend):
    net, variables = linen_cnn()
    model = from_flax(variables, net, backend=backend.name)
    out = to_flax_params(model)
    assert sorted(out) == ["batch_stats", "params"]
    flat_in = dict(jax.tree_util.tree_leaves_with_path(variables))
    flat_out = dict(jax.tree_util.tree_leaves_with_path(out))
    assert flat_in.keys() == flat_out.keys()
    for path, leaf in flat_in.items():
        np.testing.assert_array_equal(np.asarray(flat_out[path]), np.asarray(leaf), str(path))
    assert from_flax_params(variables, model).cont_identical(model.params)
    # HWIO (3, 3, 3, 6) in Flax is OIHW (6, 3, 3, 3) in ivy_like
    assert model.params["1"]["weight"].shape == (6, 3, 3, 3)

    net2 = nnx_cnn()
    model2 = from_flax(net2, backend=backend.name)
    pure = to_flax_params(model2, style="nnx")  # params and BatchNorm statistics together
    ref = nnx.to_pure_dict(nnx.state(net2, nnx.Any(nnx.Param, nnx.BatchStat)))
    flat_ref = dict(jax.tree_util.tree_leaves_with_path(ref))
    flat_pure = dict(jax.tree_util.tree_leaves_with_path(pure))
    assert flat_ref.keys() == flat_pure.keys()
    for path, leaf in flat_ref.items():
        np.testing.assert_array_equal(np.asarray(flat_pure[path]), np.asarray(leaf), str(path))
    fresh = nnx.Sequential(*[nnx.clone(layer) for layer in net2.layers])
    fresh.layers[0].kernel[...] = fresh.layers[0].kernel[...] * 0  # forget: it comes back
    state = nnx.state(fresh, nnx.Any(nnx.Param, nnx.BatchStat))
    nnx.replace_by_pure_dict(state, pure)
    nnx.update(fresh, state)
    np.testing.assert_array_equal(np.asarray(fresh(SIGNALS)), np.asarray(net2(SIGNALS)))


def test_flax_conv_settings_without_equivalent_are_named():
    for layer, why in [
        (fnn.Conv(2, (2, 2)), "padding='SAME' with a stride or an even kernel"),
        (fnn.Conv(2, (3, 3), padding="CIRCULAR"), "padding='CIRCULAR'"),
        (fnn.Conv(2, (3, 3), padding=((0, 1), (1, 1))), "asymmetric padding"),
        (fnn.Conv(2, (3, 3), padding=1, input_dilation=2), "input_dilation"),
    ]:
        net = fnn.Sequential([fnn.Dense(2), layer])
        variables = net.init(jax.random.key(0), IMAGES)
        with pytest.raises(UnsupportedLayerError, match=f"layer 1 .*{re.escape(why)}"):
            from_flax(variables, net)
    pool = functools.partial(fnn.max_pool, window_shape=(2, 2), padding="SAME")
    net = fnn.Sequential([fnn.Dense(2), pool])
    with pytest.raises(UnsupportedLayerError, match="layer 1 .*padding='SAME'"):
        from_flax(net.init(jax.random.key(0), IMAGES), net)


def test_flax_batchnorm_needs_its_statistics_and_rank():
    net = fnn.Sequential([fnn.Dense(4), fnn.BatchNorm(use_running_average=True)])
    variables = net.init(jax.random.key(0), X)
    with pytest.raises(ValueError, match=r"layers_1 \(BatchNorm\) has no running statistics"):
        from_flax({"params": variables["params"]}, net)
    with pytest.raises(ValueError, match="cannot tell the rank of the input of layer 1"):
        from_flax(variables, net)
    model = from_flax(variables, net, input_shape=(3,), backend="numpy")
    np.testing.assert_allclose(model(X), np.asarray(net.apply(variables, X)), atol=1e-6)


def test_flax_missing_and_extra_params_are_named():
    net, variables = linen_model()
    params = dict(variables["params"])
    del params["layers_3"]
    with pytest.raises(ValueError, match=r"no params for layer 3 \(Dense\) at 'layers_3'"):
        from_flax({"params": params}, net)
    params = dict(variables["params"], layers_9={"kernel": np.zeros((2, 2), "float32")})
    with pytest.raises(ValueError, match=r"params \['layers_9'\] match no layer"):
        from_flax({"params": params}, net)
    model = from_flax(variables, net, backend="numpy")
    wrong = jax.tree.map(lambda a: a, variables)
    wrong["params"]["layers_2"]["shift"] = np.zeros(8, "float32")
    with pytest.raises(ValueError, match="unexpected weights at layers_2/shift"):
        from_flax_params(wrong, model)


def test_embedding_model_on_every_backend(backend):
    tokens = np.array([[1, 5, 19], [0, 2, 7]], dtype="int32")
    net = fnn.Sequential([fnn.Embed(20, 6), fnn.Dense(8), fnn.sigmoid, fnn.Dense(4), fnn.softmax])
    variables = net.init(jax.random.key(2), tokens)
    model = from_flax(variables, net, backend=backend.name)
    assert [type(layer).__name__ for layer in model.layers] == [
        "Embedding",
        "Linear",
        "Sigmoid",
        "Linear",
        "Softmax",
    ]
    got = ivy_like.to_numpy(model(to_backend(tokens, backend.name)))
    np.testing.assert_allclose(got, np.asarray(net.apply(variables, tokens)), rtol=1e-5, atol=1e-6)
    back = to_flax_params(model)
    assert jax.tree.all(
        jax.tree.map(lambda a, b: bool((np.asarray(a) == np.asarray(b)).all()), back, variables)
    )


def nnx_pools_and_norms():
    r = nnx.Rngs(0)
    pad1 = ((1, 1), (1, 1))
    return nnx.Sequential(
        functools.partial(nnx.max_pool, window_shape=(3, 3), strides=(2, 2), padding=pad1),
        functools.partial(nnx.avg_pool, window_shape=(3, 3), strides=(1, 1), padding=pad1),
        nnx.Conv(3, 4, (3, 3), strides=2, padding=1, rngs=r),
        nnx.Conv(4, 4, (3, 3), padding="SAME", kernel_dilation=2, feature_group_count=2, rngs=r),
        nnx.BatchNorm(4, use_running_average=True, rngs=r),
        nnx.LayerNorm(4, rngs=r),  # over the channels: the permutation back comes before it
        nnx.Dropout(0.5, deterministic=True, rngs=r),
        flax_flatten,
        nnx.Linear(16, 5, rngs=r),
        nnx.log_softmax,
    )


def test_nnx_padded_pools_dilation_and_norms_on_every_backend(backend):
    net = nnx_pools_and_norms()
    x = np.random.default_rng(6).standard_normal((2, 7, 7, 3)).astype("float32") - 2.0
    model = from_flax(net, backend=backend.name)
    kinds = [type(layer).__name__ for layer in model.layers]
    assert kinds.index("Permute", 1) == kinds.index("LayerNorm") - 1
    got = ivy_like.to_numpy(model(to_backend(x, backend.name)))
    np.testing.assert_allclose(got, np.asarray(net(x)), rtol=1e-5, atol=1e-5)

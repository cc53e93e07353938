"""from_keras on Keras 3 subclassed models, traced with example inputs: residual
connections, BatchNormalization, Conv2DTranspose, keras.ops calls and nested layers and models,
on every backend; gradients that match TensorFlow's; round trips to Keras and Flax; clear errors.
Also the layer settings that used to be refused: Conv2DTranspose's output_padding and "same"
pooling."""

import pytest

keras = pytest.importorskip("keras")
tf = pytest.importorskip("tensorflow")

import numpy as np  # noqa: E402

import ivy_like  # noqa: E402
from ivy_like.convert import UnsupportedOpError, from_keras, to_backend  # noqa: E402
from ivy_like.testing import assert_close  # noqa: E402

L = keras.layers
ops = keras.ops
TOL = {"rtol": 1e-4, "atol": 1e-4}  # the bar: within 1e-4 of Keras in float32
rng = np.random.default_rng(7)


@pytest.fixture(autouse=True, scope="module")
def _fresh_keras_names():
    # Keras numbers auto-generated names globally ("exp", "exp_1", ...), and other modules'
    # tests match them: leave the names as they would be had this module not run.
    yield
    keras.backend.clear_session()


def _randomize_batch_norms(model):
    # Non-trivial moving statistics and affine parameters, so inference mode is tested.
    r = np.random.default_rng(0)
    for layer in model._flatten_layers(include_self=False, recursive=True):
        if isinstance(layer, L.BatchNormalization):
            layer.set_weights(
                [r.uniform(0.5, 1.5, w.shape).astype("float32") for w in layer.get_weights()]
            )
    return model


class ResidualNet(keras.Model):
    """Conv + BatchNormalization with a residual Add, a Conv2DTranspose, Dense heads, and
    keras.ops calls (relu, mean, concatenate, reshape, transpose, softmax, matmul) in call."""

    def __init__(self):
        super().__init__(name="residual_net")
        self.stem = L.Conv2D(4, 3, padding="same", name="stem")
        self.bn = L.BatchNormalization(name="bn")
        self.branch = L.Conv2D(4, 3, padding="same", name="branch")
        self.add = L.Add(name="skip")
        self.up = L.Conv2DTranspose(3, 3, strides=2, padding="same", name="up")
        self.head = L.Dense(5, activation="tanh", name="head")
        self.proj = self.add_weight(shape=(5, 3), name="proj")

    def call(self, x, training=None):
        h = ops.relu(self.bn(self.stem(x), training=training))
        h = self.add([h, self.branch(h)])
        h = self.up(h)  # (B, 16, 16, 3)
        pooled = ops.mean(h, axis=(1, 2))
        flat = ops.reshape(ops.transpose(h[:, :2, :2, :], (0, 3, 1, 2)), (-1, 12))
        z = self.head(ops.concatenate([pooled, flat], axis=-1))
        return ops.softmax(ops.matmul(z, self.proj) * 2.0 - 1.0, axis=-1)


class Block(L.Layer):
    """A custom layer with its own weights, used twice (shared)."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.dense = L.Dense(units, name="dense")

    def build(self, input_shape):
        self.scale = self.add_weight(shape=(self.units,), initializer="ones", name="scale")

    def call(self, x):
        return ops.silu(self.dense(x)) * self.scale + x


class NestedNet(keras.Model):
    """A custom layer (called twice), a nested subclassed model, a nested functional model and
    a nested Sequential, with two inputs and two outputs."""

    def __init__(self):
        super().__init__(name="nested_net")
        self.block = Block(6, name="block")
        self.inner = InnerNet()
        inp = keras.Input((6,))
        self.functional = keras.Model(inp, L.Dense(3, name="f_dense")(L.ReLU()(inp)), name="fn")
        self.seq = keras.Sequential([L.Dense(6, activation="gelu", name="s_dense")], name="seq")
        self.norm = L.LayerNormalization(name="norm")

    def call(self, a, b):
        h = self.block(self.block(a) + self.seq(b))
        h = self.norm(self.inner(h))
        return self.functional(h), ops.maximum(h, 0.0)[:, ::2]


class InnerNet(keras.Model):
    def __init__(self):
        super().__init__(name="inner_net")
        self.fc = L.Dense(6, name="fc")
        self.bn = L.BatchNormalization(name="bn")

    def call(self, x):
        return ops.tanh(self.bn(self.fc(x))) - x


class AttentionNet(keras.Model):
    """Token embeddings into a pre-norm transformer block: Embedding and MultiHeadAttention
    (Keras layers without a translation of their own: traced through their call), with a causal
    and a padding mask, and a GELU MLP."""

    def __init__(self):
        super().__init__(name="attention_net")
        self.embed = L.Embedding(11, 6, name="embed")
        self.norm = L.LayerNormalization(name="norm")
        self.att = L.MultiHeadAttention(2, 4, name="att")
        self.up = L.Dense(8, activation="gelu", name="up")
        self.down = L.Dense(6, name="down")

    def call(self, ids, mask):
        x = self.embed(ids)
        h = self.norm(x)
        pad = ops.logical_and(ops.expand_dims(mask, 1), ops.expand_dims(mask, 2))
        x = x + self.att(h, h, attention_mask=pad, use_causal_mask=True)
        return x + self.down(self.up(x))


def attention_case():
    keras.utils.set_random_seed(2)
    km = AttentionNet()
    x = rng.integers(0, 11, (2, 5)).astype("int32")
    mask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], dtype=bool)
    km(x, mask)
    return km, (x, mask)


class OpsNet(keras.Model):
    """The other keras.ops the tracer translates, on a Dense layer's output; not built before
    the conversion (from_keras builds it with the example input, as Keras would)."""

    def __init__(self):
        super().__init__(name="ops_net")
        self.fc = L.Dense(4, name="fc")

    def call(self, x):
        h = self.fc(x)  # (B, 4)
        pos = ops.sqrt(ops.abs(h) + 1.0)
        a = ops.log(pos) + ops.exp(-ops.square(h)) - ops.power(pos, 2.0) / (pos + 2.0)
        b = ops.where(ops.greater(h, 0.0), ops.sin(h), ops.cos(h) * ops.var(h, axis=-1)[:, None])
        b = ops.where(ops.logical_or(ops.less_equal(h, -1.0), ops.equal(h, 0.5)), h, b)
        c = ops.clip(ops.einsum("bi,bj->bij", a, b), -2.0, 2.0)  # (B, 4, 4)
        c = ops.swapaxes(ops.tile(c, (1, 1, 2)), 1, 2)  # (B, 8, 4)
        d = ops.stack([ops.sum(c, axis=1), ops.max(c, axis=1), ops.min(c, axis=1)], axis=1)
        e = ops.squeeze(ops.expand_dims(ops.take(d, [2, 0], axis=1), 1), 1)  # (B, 2, 4)
        f = ops.broadcast_to(ops.mean(e, axis=0, keepdims=True), (3, 2, 4))
        g = ops.log_softmax(ops.gelu(e) + ops.relu6(e) - ops.sigmoid(e), axis=1)
        return g, f, ops.cast(ops.logical_not(ops.not_equal(h, h)), "float32") * ops.tanh(h)


def ops_case():
    keras.utils.set_random_seed(3)
    return OpsNet(), (rng.standard_normal((3, 5)).astype("float32"),)


def residual_case():
    keras.utils.set_random_seed(0)
    km = ResidualNet()
    x = rng.standard_normal((2, 8, 8, 3)).astype("float32")
    km(x)
    return _randomize_batch_norms(km), (x,)


def nested_case():
    keras.utils.set_random_seed(1)
    km = NestedNet()
    xs = tuple(rng.standard_normal((3, 6)).astype("float32") for _ in range(2))
    km(*xs)
    return _randomize_batch_norms(km), xs


CASES = {
    "residual": residual_case,
    "nested": nested_case,
    "attention": attention_case,
    "ops": ops_case,
}


def _outputs(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


@pytest.mark.parametrize("case", sorted(CASES))
def test_subclassed_model_matches_keras_on_every_backend(backend, case):
    km, xs = CASES[case]()
    expected = _outputs(km(*xs, training=False) if case == "residual" else km(*xs))
    model = from_keras(km, *xs, backend=backend.name)
    got = _outputs(model(*[to_backend(x, backend.name) for x in xs]))
    assert len(got) == len(expected)
    for i, (g, e) in enumerate(zip(got, expected)):
        e = np.asarray(e)
        assert tuple(g.shape) == e.shape
        assert_close(ivy_like.to_numpy(g), e, **TOL, label=f"output {i}: ")


def test_params_are_keyed_by_variable_paths():
    km, xs = nested_case()
    model = from_keras(km, *xs, backend="numpy")
    keys = model.params.cont_all_key_chains()
    # every weight once (the Block is shared), keyed by its path inside the model
    assert sorted(keys) == sorted(v.path.removeprefix("nested_net/") for v in km.weights)
    assert len(keys) == len(km.weights)
    assert "block/dense/kernel" in keys and "inner_net/bn/moving_mean" in keys
    # the weights Keras does not train are the buffers
    assert model.buffers == {
        v.path.removeprefix("nested_net/") for v in km.weights if not v.trainable
    }
    # a different batch size than the example's: the batch axis is free
    x = [rng.standard_normal((5, 6)).astype("float32") for _ in range(2)]
    for g, e in zip(model(*x), km(*x)):
        assert_close(ivy_like.to_numpy(g), np.asarray(e), **TOL)
    # apply is a function of the params
    doubled = model.params.cont_map(lambda v, kc: v * 2)
    assert not np.allclose(ivy_like.to_numpy(model.apply(doubled, *x)[0]), model(*x)[0])


def _keras_gradients(km, xs, weights, prefix):
    variables = {v.path.removeprefix(prefix): v for v in km.trainable_weights}
    with tf.GradientTape() as tape:
        outs = _outputs(km(*xs))
        loss = sum(tf.reduce_sum(o * w) for o, w in zip(outs, weights))
    grads = tape.gradient(loss, list(variables.values()))
    # an embedding's gradient is sparse (IndexedSlices): densify it
    return {path: tf.convert_to_tensor(g).numpy() for path, g in zip(variables, grads)}


@pytest.mark.requires("autodiff")
@pytest.mark.parametrize("case", sorted(CASES))
def test_gradients_match_tensorflow(backend, case):
    km, xs = CASES[case]()
    weights = [rng.standard_normal(o.shape).astype("float32") for o in _outputs(km(*xs))]
    expected = _keras_gradients(km, xs, weights, f"{km.name}/")
    model = from_keras(km, *xs, backend=backend.name)
    bx = [to_backend(x, backend.name) for x in xs]
    bw = [to_backend(w, backend.name) for w in weights]

    def loss(params):
        outs = _outputs(model.apply(params, *bx))
        return sum(ivy_like.sum(o * w) for o, w in zip(outs, bw))

    got = ivy_like.grad(loss)(model.params_on(backend.name)).cont_flatten_key_chains()
    assert set(expected) <= set(got)
    for kc, g in expected.items():
        assert_close(ivy_like.to_numpy(got[kc]), g, **TOL, label=f"{kc}: ")


@pytest.mark.parametrize("case", sorted(CASES))
def test_round_trips_to_keras_and_flax(case):
    from ivy_like.convert import to_flax, to_keras

    km, xs = CASES[case]()
    expected = [np.asarray(e) for e in _outputs(km(*xs))]
    model = from_keras(km, *xs, backend="numpy")
    back = to_keras(model)
    for i, (g, e) in enumerate(zip(_outputs(back(*xs)), expected)):
        assert_close(np.asarray(g), e, **TOL, label=f"to_keras output {i}: ")
    # the moving statistics are not trainable on the way back either
    assert len(back.trainable_weights) == len(km.trainable_weights)
    pytest.importorskip("flax")
    module, variables = to_flax(model)
    for i, (g, e) in enumerate(zip(_outputs(module.apply(variables, *xs)), expected)):
        assert_close(np.asarray(g), e, **TOL, label=f"to_flax output {i}: ")


class ControlFlow(keras.Model):
    def __init__(self):
        super().__init__(name="control_flow")
        self.fc = L.Dense(2)

    def call(self, x):
        if ops.sum(x) > 0:  # data-dependent: no symbolic trace can decide this
            return self.fc(x)
        return -self.fc(x)


def test_data_dependent_control_flow_is_a_clear_error():
    km = ControlFlow()
    x = np.ones((2, 3), "float32")
    km(x)
    with pytest.raises(UnsupportedOpError, match="data-dependent Python control flow") as err:
        from_keras(km, x)
    assert isinstance(err.value, TypeError) and "ControlFlow.call" in str(err.value)


def test_missing_example_input_is_a_type_error():
    km, _ = residual_case()
    with pytest.raises(
        TypeError, match=r"subclassed one: pass example inputs to trace its call\(\)"
    ):
        from_keras(km)


class UsesCumsum(keras.Model):
    def __init__(self):
        super().__init__(name="uses_cumsum")
        self.block = Block(3, name="blk")

    def call(self, x):
        return self.block(ops.cumsum(x, axis=1))


def test_unsupported_op_names_the_op_and_where_it_sits():
    km = UsesCumsum()
    x = np.ones((2, 3), "float32")
    km(x)
    with pytest.raises(UnsupportedOpError) as err:
        from_keras(km, x)
    msg = str(err.value)
    assert "keras.src.ops.numpy.Cumsum" in msg and "'uses_cumsum/cumsum'" in msg
    assert "supported keras.ops operations: Add, Subtract" in msg
    assert "supported layers: InputLayer, Dense" in msg


def test_sequential_and_functional_ignore_example_inputs():
    inp = keras.Input((3,))
    km = keras.Model(inp, L.Dense(2)(inp))
    x = np.ones((1, 3), "float32")
    model = from_keras(km, x, backend="numpy")
    assert type(model).__name__ == "KerasGraphModel"
    assert_close(ivy_like.to_numpy(model(x)), np.asarray(km(x)), **TOL)


# -- settings that used to be refused ----------------------------------------------------------
def _settings_model():
    keras.utils.set_random_seed(5)
    inp = keras.Input((7, 5, 2))
    outs = [
        L.Conv2DTranspose(3, 3, strides=2, output_padding=1, name="t_valid")(inp),
        L.Conv2DTranspose(2, 3, strides=2, padding="same", output_padding=0, name="t_same")(inp),
        L.Conv2DTranspose(2, (2, 4), strides=(3, 2), padding="same", output_padding=(2, 1))(inp),
        L.MaxPooling2D(2, padding="same")(inp),
        L.AveragePooling2D(2, padding="same")(inp),
        L.AveragePooling2D(3, strides=2, padding="same")(inp),
        L.MaxPooling2D((3, 2), strides=(2, 3), padding="same")(inp),
    ]
    return keras.Model(inp, outs)


def test_output_padding_and_same_pooling_match_keras(backend):
    km = _settings_model()
    x = rng.standard_normal((2, 7, 5, 2)).astype("float32")
    model = from_keras(km, backend=backend.name)
    got = model(to_backend(x, backend.name))
    for i, (g, e) in enumerate(zip(got, km(x))):
        e = np.asarray(e)
        assert tuple(g.shape) == e.shape, i
        assert_close(ivy_like.to_numpy(g), e, **TOL, label=f"output {i}: ")


def test_functional_buffers_are_the_non_trainable_weights():
    inp = keras.Input((4,))
    frozen = L.Dense(3, name="frozen")
    out = L.BatchNormalization(name="bn")(frozen(inp))
    km = keras.Model(inp, out)
    frozen.trainable = False
    model = from_keras(km, backend="numpy")
    assert model.buffers == {
        "frozen/kernel",
        "frozen/bias",
        "bn/moving_mean",
        "bn/moving_variance",
    }


def test_an_unbuilt_model_is_built_by_the_example_input():
    km, (x,) = ops_case()
    assert not km.built
    model = from_keras(km, x, backend="numpy")
    assert km.built and model.params.cont_all_key_chains() == ["fc/kernel", "fc/bias"]
    for g, e in zip(model(x), km(x)):
        assert_close(ivy_like.to_numpy(g), np.asarray(e), **TOL)


class TrainingBatchNorm(keras.Model):
    def __init__(self, capped):
        super().__init__(name="odd_net")
        self.bn = None if capped else L.BatchNormalization(name="bn")
        self.relu = L.ReLU(max_value=2.0, name="relu") if capped else None

    def call(self, x):
        if self.relu is not None:
            return self.relu(x)
        return self.bn(x, training=True)  # batch statistics: not an inference graph


@pytest.mark.parametrize(
    "capped, why",
    [
        (False, r"BatchNormalization at 'odd_net/bn' .*called with training=True"),
        (True, r"layer 'relu' .*max_value.* \(at 'odd_net/relu'\)"),
    ],
)
def test_unsupported_layer_settings_name_where_they_sit(capped, why):
    km = TrainingBatchNorm(capped)
    x = np.ones((2, 3), "float32")
    km(x)
    with pytest.raises(UnsupportedOpError, match=why):
        from_keras(km, x)

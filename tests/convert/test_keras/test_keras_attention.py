"""from_keras on functional models with ``keras.layers.MultiHeadAttention``: outputs and
gradients against Keras's at two sequence lengths (the sequence axis is None), the causal,
sliding-window and ``attention_mask`` masks, the attention scores, the refused settings, and
``to_keras`` back to a native Keras model that saves and loads."""

import re

import keras
import numpy as np
import pytest
import tensorflow as tf

import ivy_like
from ivy_like.convert import UnsupportedOpError, from_keras, to_backend, to_keras
from ivy_like.testing import assert_close

L = keras.layers
TOL = {"rtol": 1e-5, "atol": 1e-5}
LENGTHS = (5, 9)  # two sequence lengths through one converted model
rng = np.random.default_rng(11)


def self_attention() -> keras.Model:
    """A pre-norm transformer block: self-attention in a residual, then a Dense."""
    keras.utils.set_random_seed(0)
    x = keras.Input((None, 8), name="tokens")
    h = L.LayerNormalization(name="norm")(x)
    h = L.Add()([x, L.MultiHeadAttention(num_heads=2, key_dim=4, name="mha")(h, h)])
    return keras.Model(x, L.Dense(3, name="head")(h))


def cross_attention() -> keras.Model:
    """Query != value != key; value_dim, output_shape of two axes, no biases; the key given by
    keyword; a causal mask between sequences of different lengths."""
    keras.utils.set_random_seed(1)
    q = keras.Input((None, 8), name="q")
    v = keras.Input((None, 6), name="v")
    k = keras.Input((None, 5), name="k")
    mha = L.MultiHeadAttention(
        num_heads=3, key_dim=4, value_dim=5, output_shape=(2, 3), use_bias=False, name="cross"
    )
    causal = L.MultiHeadAttention(num_heads=2, key_dim=3, name="causal")
    return keras.Model([q, v, k], [mha(q, v, key=k), causal(q, v, k, use_causal_mask=True)])


def scores_and_gate() -> keras.Model:
    """The attention scores returned (Keras's Softmax-layer path), the sigmoid gate, a causal
    sliding window, and dropout (the identity at inference)."""
    keras.utils.set_random_seed(2)
    x = keras.Input((None, 8))
    out, scores = L.MultiHeadAttention(
        num_heads=2, key_dim=4, use_gate=True, dropout=0.3, name="gated"
    )(x, x, return_attention_scores=True, use_causal_mask=True)
    windowed = L.MultiHeadAttention(num_heads=2, key_dim=4, sliding_window=2, name="window")(
        x, x, use_causal_mask=True
    )
    return keras.Model(x, [out, scores, windowed])


def masked() -> keras.Model:
    """An ``attention_mask`` input with rows whose keys are all masked: Keras's fused
    attention averages every value there, its Softmax layer (scores returned) gives zeros."""
    keras.utils.set_random_seed(3)
    x = keras.Input((None, 8))
    m = keras.Input((None, None), dtype="bool")
    fused = L.MultiHeadAttention(num_heads=2, key_dim=4, name="fused")(x, x, attention_mask=m)
    out, scores = L.MultiHeadAttention(num_heads=2, key_dim=4, name="soft")(
        x, x, attention_mask=m, return_attention_scores=True
    )
    return keras.Model([x, m], [fused, out, scores])


def float_mask() -> keras.Model:
    """A float ``attention_mask`` (Keras attends where it is nonzero) with the causal mask."""
    keras.utils.set_random_seed(4)
    x = keras.Input((None, 8))
    m = keras.Input((None, None))
    mha = L.MultiHeadAttention(num_heads=2, key_dim=4, name="both")
    return keras.Model([x, m], mha(x, x, attention_mask=m, use_causal_mask=True))


def _inputs(case: str, t: int) -> list[np.ndarray]:
    def seq(n: int, d: int) -> np.ndarray:
        return rng.standard_normal((2, n, d)).astype("float32")

    if case == "cross":
        return [seq(t, 8), seq(t + 3, 6), seq(t + 3, 5)]
    if case == "masked":
        mask = rng.uniform(size=(2, t, t)) > 0.4
        mask[0, 1] = False  # a query row attending to nothing
        return [seq(t, 8), mask]
    if case == "float_mask":
        return [seq(t, 8), (rng.uniform(size=(2, t, t)) > 0.3).astype("float32") * 2.0]
    return [seq(t, 8)]


CASES = {
    "self": self_attention,
    "cross": cross_attention,
    "scores_and_gate": scores_and_gate,
    "masked": masked,
    "float_mask": float_mask,
}


def _as_list(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


@pytest.mark.parametrize("case", sorted(CASES))
def test_multi_head_attention_matches_keras_at_two_lengths(backend, case):
    km = CASES[case]()
    model = from_keras(km, backend=backend.name)
    for t in LENGTHS:
        xs = _inputs(case, t)
        expected = _as_list(km(xs if len(xs) > 1 else xs[0], training=False))
        given = [to_backend(x, backend.name) for x in xs]
        got = _as_list(model(given if len(given) > 1 else given[0]))
        assert len(got) == len(expected)
        for i, (g, e) in enumerate(zip(got, expected)):
            e = np.asarray(e)
            assert tuple(g.shape) == e.shape, (t, i)
            assert_close(ivy_like.to_numpy(g), e, **TOL, label=f"length {t}, output {i}: ")


def test_the_masks_change_the_result():
    # the causal, windowed and masked outputs are not what the unmasked attention gives
    km = masked()
    x, mask = _inputs("masked", 6)
    model = from_keras(km, backend="numpy")
    full = ivy_like.to_numpy(model([x, np.ones_like(mask)])[0])
    assert not np.allclose(ivy_like.to_numpy(model([x, mask])[0]), full, atol=1e-3)
    scores = ivy_like.to_numpy(model([x, mask])[2])
    # a row with every key masked: zero weights in the Softmax path, as Keras gives
    np.testing.assert_array_equal(scores[0, :, 1], 0.0)
    causal = ivy_like.to_numpy(from_keras(scores_and_gate(), backend="numpy")(x)[1])
    assert np.all(np.triu(causal, k=1) == 0) and np.allclose(causal.sum(-1), 1.0, atol=1e-6)


def test_params_are_keyed_by_the_sublayers_paths():
    km = cross_attention()
    model = from_keras(km, backend="numpy")
    chains = model.params.cont_all_key_chains()
    assert sorted(c for c in chains if c.startswith("cross/")) == [
        "cross/attention_output/kernel",
        "cross/key/kernel",
        "cross/query/kernel",
        "cross/value/kernel",
    ]
    assert {"causal/query/bias", "causal/attention_output/bias"} <= set(chains)
    layer = km.get_layer("cross")
    np.testing.assert_array_equal(
        ivy_like.to_numpy(model.params["cross/key/kernel"]), layer.key_dense.kernel.numpy()
    )
    assert model.params["cross/attention_output/kernel"].shape == (3, 5, 2, 3)
    # apply is a function of the params
    xs = _inputs("cross", 4)
    doubled = model.params.cont_map(lambda v, kc: v * 2)
    changed = ivy_like.to_numpy(model.apply(doubled, xs)[0])
    assert not np.allclose(changed, ivy_like.to_numpy(model(xs)[0]))


def _keras_gradients(km, xs, weights):
    variables = {v.path: v for v in km.trainable_weights}
    with tf.GradientTape() as tape:
        outs = _as_list(km(xs, training=False))
        loss = sum(tf.reduce_sum(o * w) for o, w in zip(outs, weights))
    grads = tape.gradient(loss, list(variables.values()))
    return {path: g.numpy() for path, g in zip(variables, grads)}


@pytest.mark.requires("autodiff")
@pytest.mark.parametrize("case", ["self", "cross"])
def test_gradients_match_tensorflow(backend, case):
    km = CASES[case]()
    xs = _inputs(case, 6)
    xs_keras = xs if len(xs) > 1 else xs[0]
    weights = [
        rng.standard_normal(np.asarray(o).shape).astype("float32")
        for o in _as_list(km(xs_keras, training=False))
    ]
    expected = _keras_gradients(km, xs_keras, weights)
    model = from_keras(km, backend=backend.name)
    given = [to_backend(x, backend.name) for x in xs]
    ws = [to_backend(w, backend.name) for w in weights]

    def loss(params):
        outs = _as_list(model.apply(params, given if len(given) > 1 else given[0]))
        return sum(ivy_like.sum(o * w) for o, w in zip(outs, ws))

    grad = ivy_like.grad(loss)
    if backend.name == "jax":
        grad = ivy_like.compile(grad)
    got = grad(model.params_on(backend.name)).cont_flatten_key_chains()
    # Keras's variable paths are the key chains: "mha/query/kernel"
    assert set(expected) == set(got)
    for kc, g in expected.items():
        assert_close(ivy_like.to_numpy(got[kc]), g, rtol=1e-4, atol=1e-5, label=f"{kc}: ")


def _refused(make_output, *inputs):
    km = keras.Model(list(inputs), make_output(*inputs))
    with pytest.raises(UnsupportedOpError) as err:
        from_keras(km, backend="numpy")
    return str(err.value)


@pytest.mark.parametrize(
    "shape, make, why",
    [
        (
            (3, 5, 8),
            lambda x: L.MultiHeadAttention(2, 4, attention_axes=(2,), name="axes")(x, x),
            r"layer 'axes' .*query of rank 4 with attention_axes=\(2,\)",
        ),
        (
            (None, 8),
            lambda x: L.MultiHeadAttention(2, 4, dropout=0.5, name="drop")(x, x, training=True),
            r"layer 'drop' .*called with training=True",
        ),
    ],
)
def test_unsupported_settings_are_named(shape, make, why):
    msg = _refused(make, keras.Input(shape))
    assert "MultiHeadAttention" in msg
    assert re.search(why, msg), msg


def test_rank_four_inputs_and_input_masks_are_refused():
    x4 = keras.Input((3, 5, 8))
    msg = _refused(lambda x: L.MultiHeadAttention(2, 4, name="img")(x, x), x4)
    assert "layer 'img'" in msg and "query of rank 4 with attention_axes=(1, 2)" in msg
    x, m = keras.Input((None, 8)), keras.Input((None,), dtype="bool")
    msg = _refused(lambda x, m: L.MultiHeadAttention(2, 4, name="vm")(x, x, value_mask=m), x, m)
    assert "layer 'vm'" in msg and "called with value_mask" in msg


def test_a_subclass_and_another_dtype_policy_are_refused():
    class Mine(L.MultiHeadAttention):
        pass

    x = keras.Input((None, 8))
    msg = _refused(lambda x: Mine(2, 4, name="mine")(x, x), x)
    assert "layer 'mine'" in msg and "is not supported" in msg and "MultiHeadAttention" in msg
    half = L.MultiHeadAttention(2, 4, name="half", dtype="mixed_float16")
    msg = _refused(lambda x: half(x, x), x)
    assert "layer 'half'" in msg and "dtype policy 'mixed_float16'" in msg


def test_to_keras_rebuilds_a_native_model_that_saves_and_loads(tmp_path):
    km = cross_attention()
    model = from_keras(km, backend="numpy")
    # new params: the rebuilt model holds them, not the source's weights
    params = model.params.cont_map(lambda v, kc: v * 1.5)
    back = to_keras(model, params)
    assert isinstance(back, keras.Model)
    assert not any(type(layer).__module__.startswith("ivy_like") for layer in back.layers)
    assert back.get_layer("cross").__class__ is L.MultiHeadAttention
    for t in LENGTHS:
        xs = _inputs("cross", t)
        want = _as_list(model.apply(params, xs))
        got = _as_list(back(xs))
        for g, w in zip(got, want):
            assert_close(np.asarray(g), ivy_like.to_numpy(w), **TOL)
    np.testing.assert_array_equal(
        back.get_layer("cross").query_dense.kernel.numpy(),
        ivy_like.to_numpy(params["cross/query/kernel"]),
    )
    path = str(tmp_path / "mha.keras")
    back.save(path)
    loaded = keras.models.load_model(path)
    xs = _inputs("cross", 7)
    for g, w in zip(_as_list(loaded(xs)), _as_list(back(xs))):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
    # and the unchanged params give Keras's own outputs
    same = to_keras(model)
    for g, w in zip(_as_list(same(xs)), _as_list(km(xs))):
        assert_close(np.asarray(g), np.asarray(w), **TOL)

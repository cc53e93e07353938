"""Any Flax module -> ivy_like by tracing its jaxpr (``from_flax(module, variables, *args)``).

Each model is compared with Flax's own float32 output on every backend (within 1e-4), its
gradients with ``jax.grad`` of the Flax model, and it goes back out with ``to_flax`` and
``to_keras``.
"""

import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("flax")

import flax.linen as fnn  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from flax import nnx  # noqa: E402

import ivy_like  # noqa: E402
from ivy_like.convert import UnsupportedOpError, from_flax, to_backend, to_flax  # noqa: E402
from ivy_like.convert.flax.jaxpr_model import JaxprModel  # noqa: E402

TOL = {"atol": 1e-4, "rtol": 1e-4}
RNG = np.random.default_rng(0)


def _x(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _np(x):
    return np.asarray(ivy_like.to_numpy(x))


# -- the models ----------------------------------------------------------------------------------
class SkipBlock(nnx.Module):
    """Linear -> relu -> Linear, plus the input, then LayerNorm (an nnx model with a skip connection)."""

    def __init__(self, rngs):
        self.linear1 = nnx.Linear(6, 12, rngs=rngs)
        self.linear2 = nnx.Linear(12, 6, rngs=rngs)
        self.norm = nnx.LayerNorm(6, rngs=rngs)

    def __call__(self, x):
        return self.norm(self.linear2(nnx.relu(self.linear1(x))) + x)


class CNN(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        x = fnn.Conv(8, (3, 3))(x)
        x = fnn.BatchNorm(use_running_average=True)(x)
        x = fnn.relu(x)
        x = fnn.max_pool(x, (2, 2), strides=(2, 2))
        x = fnn.Conv(4, (3, 3), strides=(2, 2), padding="VALID")(x)
        x = fnn.avg_pool(x, (2, 2), strides=(1, 1), padding="SAME")
        x = x.reshape((x.shape[0], -1))
        return fnn.Dense(5)(x)


class Attention(fnn.Module):
    """Embed -> causal self-attention -> residual, LayerNorm -> exact GELU -> Dense."""

    @fnn.compact
    def __call__(self, tokens):
        x = fnn.Embed(20, 16)(tokens)
        mask = fnn.make_causal_mask(tokens)
        y = fnn.MultiHeadDotProductAttention(num_heads=4, deterministic=True, decode=False)(
            x, mask=mask
        )
        x = fnn.LayerNorm()(x + y)
        return fnn.Dense(20)(fnn.gelu(x, approximate=False))


class NnxAttention(nnx.Module):
    def __init__(self, rngs):
        self.embed = nnx.Embed(20, 16, rngs=rngs)
        self.attention = nnx.MultiHeadAttention(
            num_heads=2, in_features=16, decode=False, dropout_rate=0.1, rngs=rngs
        )
        self.dropout = nnx.Dropout(0.5, rngs=rngs)

    def __call__(self, tokens):
        x = self.embed(tokens)
        return self.dropout(self.attention(x)) + x  # traced in eval mode: no dropout


class ScatterNet(fnn.Module):
    """Scatters whose indices come from the input: a segment sum of Dense rows by their argmax
    class (6 rows into 5 classes: a class repeats), a slice set, an add at negative indices."""

    @fnn.compact
    def __call__(self, x):
        h = fnn.Dense(6)(x)
        pooled = jnp.zeros((5, 6)).at[jnp.argmax(x, axis=1)].add(h)
        out = h.at[:, 1:3].set(pooled[:, 2:4].sum(0) * h[:, 4:])
        return out.at[jnp.array([0, -1])].add(jnp.tanh(h[1:3]))


class Upsample2d(fnn.Module):
    """Two transposed 2-D convolutions: strided with 'SAME', then explicit (negative) padding
    and a kernel dilation."""

    @fnn.compact
    def __call__(self, x):
        x = fnn.relu(fnn.ConvTranspose(4, (3, 3), strides=(2, 2), padding="SAME")(x))
        return fnn.ConvTranspose(
            2, (2, 3), strides=(1, 2), padding=((1, 0), (-1, 2)), kernel_dilation=(1, 2)
        )(x)


class Upsample1d(fnn.Module):
    """A transposed 1-D convolution, then ``lax.conv_transpose`` with a flipped kernel."""

    @fnn.compact
    def __call__(self, x):
        x = jnp.tanh(fnn.ConvTranspose(4, (3,), strides=(3,), padding="VALID")(x))
        w = self.param("w", fnn.initializers.lecun_normal(), (3, 2, 4))  # W, O, I
        return jax.lax.conv_transpose(
            x, w, (2,), "SAME", dimension_numbers=("NWC", "WIO", "NWC"), transpose_kernel=True
        )


def _randomize_stats(variables):
    """Running statistics other than 0 and 1, so that using them is tested."""
    stats = jax.tree_util.tree_map(
        lambda v: jnp.asarray(RNG.uniform(0.5, 1.5, v.shape).astype(np.float32)),
        variables["batch_stats"],
    )
    return {**variables, "batch_stats": stats}


def _case(name):
    """(model, the Flax function of the variables and inputs, its variables, example inputs)."""
    if name == "nnx_skip":
        block = SkipBlock(nnx.Rngs(0))
        x = _x(4, 6)
        graphdef, state = nnx.split(block)
        return from_flax(block, x), (lambda s, *a: nnx.merge(graphdef, s)(*a)), state, (x,)
    if name == "linen_cnn":
        net, x = CNN(), _x(2, 12, 12, 3)
        variables = _randomize_stats(net.init(jax.random.key(1), x))
        return from_flax(net, variables, x), net.apply, variables, (x,)
    if name == "linen_attention":
        net = Attention()
        tokens = RNG.integers(0, 20, (2, 7)).astype(np.int32)
        variables = net.init(jax.random.key(2), tokens)
        return from_flax(net, variables, tokens), net.apply, variables, (tokens,)
    if name in LINEN:
        net, x = LINEN[name]
        x = _x(*x)
        variables = net.init(jax.random.key(4), x)
        return from_flax(net, variables, x), net.apply, variables, (x,)
    block = NnxAttention(nnx.Rngs(3))
    tokens = RNG.integers(0, 20, (3, 5)).astype(np.int32)
    block.eval()
    graphdef, state = nnx.split(block)
    return (
        from_flax(block, None, tokens),
        (lambda s, *a: nnx.merge(graphdef, s)(*a)),
        state,
        (tokens,),
    )


_CACHE = {}
LINEN = {  # more linen models: (module, input shape)
    "linen_scatter": (ScatterNet(), (6, 5)),
    "linen_conv_transpose_2d": (Upsample2d(), (2, 5, 4, 3)),
    "linen_conv_transpose_1d": (Upsample1d(), (2, 5, 3)),
}
CASES = ["nnx_skip", "linen_cnn", "linen_attention", "nnx_attention", *LINEN]


def case(name):
    if name not in _CACHE:
        model, fn, variables, args = _case(name)
        _CACHE[name] = (model, fn, variables, args, np.asarray(fn(variables, *args)))
    return _CACHE[name]


@pytest.mark.parametrize("name", CASES)
def test_outputs_match_flax_on_every_backend(backend, name):
    model, _, _, args, want = case(name)
    assert isinstance(model, JaxprModel)
    got = model(*[to_backend(a, backend.name) for a in args])
    assert ivy_like.backend_of(got) is backend
    np.testing.assert_allclose(_np(got), want, **TOL)


def test_params_are_keyed_by_flax_paths_in_flax_layouts():
    model, *_ = case("linen_cnn")
    keys = model.params.cont_all_key_chains()
    assert "params/Conv_0/kernel" in keys and "batch_stats/BatchNorm_0/mean" in keys
    assert model.params["params"]["Conv_0"]["kernel"].shape == (3, 3, 3, 8)  # HWIO, as Flax
    assert model.params["params"]["Dense_0"]["kernel"].shape == (16, 5)  # (in, out)
    assert "conv_general_dilated" in model.primitives and "reduce_window_max" in model.primitives
    skip, *_ = case("nnx_skip")
    assert sorted(skip.params.cont_all_key_chains()) == [
        "linear1/bias",
        "linear1/kernel",
        "linear2/bias",
        "linear2/kernel",
        "norm/bias",
        "norm/scale",
    ]
    # nnx's random state is not read in eval mode, so it is not a parameter
    attention, *_ = case("nnx_attention")
    assert not any("rngs" in kc or "count" in kc for kc in attention.params.cont_all_key_chains())


def _flax_grads(name):
    _, fn, variables, args, want = case(name)
    w = np.linspace(-1, 1, want.size, dtype=np.float32).reshape(want.shape)

    def loss(v):
        return jnp.sum(fn(v, *args) * w)

    grads = jax.grad(loss)(variables)
    flat = {}
    for path, g in jax.tree_util.tree_flatten_with_path(grads)[0]:
        parts = [str(getattr(e, "key", getattr(e, "idx", getattr(e, "name", "")))) for e in path]
        if parts[-1] == "value":
            parts.pop()
        flat["/".join(parts)] = np.asarray(g)
    return flat, w


@pytest.mark.parametrize("name", ["nnx_skip", "linen_cnn", "linen_attention", *LINEN])
def test_gradients_match_jax_grad(backend, name):
    model, _, _, args, _ = case(name)
    expected, w = _flax_grads(name)
    inputs = [to_backend(a, backend.name) for a in args]
    weight = to_backend(w, backend.name)

    def loss(params):
        return ivy_like.sum(model.apply(params, *inputs) * weight)

    grad = ivy_like.grad(loss)
    if not backend.has_autodiff:
        with pytest.raises(NotImplementedError, match="no automatic differentiation"):
            grad(model.params_on(backend))
        return
    got = grad(model.params_on(backend)).cont_flatten_key_chains()
    assert set(got) <= set(expected) and got
    for kc, g in got.items():
        np.testing.assert_allclose(_np(g), expected[kc], **TOL, err_msg=kc)


@pytest.mark.requires("autodiff")
@pytest.mark.parametrize("name", list(LINEN))
def test_input_gradients_match_jax_grad(backend, name):
    """Through scatter-add and scatter (set), and transposed convolutions, to the input."""
    model, fn, variables, (x,), want = case(name)
    w = np.linspace(-1, 1, want.size, dtype=np.float32).reshape(want.shape)
    expected = jax.grad(lambda v: jnp.sum(fn(variables, v) * w))(x)
    weight, params = to_backend(w, backend.name), model.params_on(backend)
    grad = ivy_like.grad(lambda v: ivy_like.sum(model.apply(params, v) * weight))
    np.testing.assert_allclose(_np(grad(to_backend(x, backend.name))), expected, **TOL)


def test_the_scatters_and_transposed_convolutions_are_converted():
    """Not folded away: the models above run the new primitives."""
    assert {"scatter", "scatter-add"} <= set(case("linen_scatter")[0].primitives)
    for name in ("linen_conv_transpose_2d", "linen_conv_transpose_1d"):
        model = case(name)[0]
        assert "conv_general_dilated" in model.primitives
    assert "rev" in case("linen_conv_transpose_1d")[0].primitives
    for name, (fn, x) in PRIMITIVE_CASES.items():
        used = from_flax(Apply(fn), {}, x).primitives
        if "scatter" in name or "histogram" in name:
            assert any(p.startswith("scatter") for p in used), name
        if "conv" in name:
            assert "conv_general_dilated" in used, name


@pytest.mark.parametrize("primitive", [jax.lax.erf, jax.lax.erfc])
def test_erf_and_its_gradient_match_jax(backend, primitive):
    x = np.array([-3.0, -0.7, 0.0, 1e-3, 0.4, 2.5], np.float32)
    model = from_flax(Apply(primitive), {}, x)
    np.testing.assert_allclose(_np(model(to_backend(x, backend.name))), primitive(x), atol=1e-6)
    if backend.has_autodiff:  # the gradient at 0 too (an abs there would make it 0)
        grad = ivy_like.grad(lambda v: ivy_like.sum(model.apply({}, v)))
        want = jax.grad(lambda v: jnp.sum(primitive(v)))(x)
        np.testing.assert_allclose(_np(grad(to_backend(x, backend.name))), want, atol=1e-5)


def test_compile_on_jax():
    model, _, _, args, want = case("linen_attention")
    compiled = ivy_like.compile(model.apply)
    params = model.params_on("jax")
    for _ in range(2):  # the second call runs the compiled function
        np.testing.assert_allclose(_np(compiled(params, to_backend(args[0], "jax"))), want, **TOL)


def test_back_to_flax_and_keras():
    model, _, _, args, want = case("linen_cnn")
    module, variables = to_flax(model)
    assert module is model.linen_module  # the traced module itself, with model.params
    np.testing.assert_allclose(np.asarray(module.apply(variables, *args)), want, **TOL)
    nnx_model, _, _, nnx_args, nnx_want = case("nnx_attention")
    module, variables = to_flax(nnx_model)  # an nnx model is wrapped
    np.testing.assert_allclose(np.asarray(module.apply(variables, *nnx_args)), nnx_want, **TOL)
    pytest.importorskip("keras")
    from ivy_like.convert import to_keras

    skip, _, _, skip_args, skip_want = case("nnx_skip")
    keras_model = to_keras(skip)
    np.testing.assert_allclose(np.asarray(keras_model(*skip_args)), skip_want, **TOL)


def test_new_params_are_used():
    model, fn, variables, args, want = case("nnx_skip")
    doubled = model.params.cont_map(lambda v, kc: v * 2)
    got = model.apply(doubled, *args)
    assert not np.allclose(_np(got), want, atol=1e-3)
    state = jax.tree_util.tree_map(lambda v: v * 2, variables)
    np.testing.assert_allclose(_np(got), np.asarray(fn(state, *args)), **TOL)


# -- calls ----------------------------------------------------------------------------------------
def test_other_shapes_and_static_arguments_are_checked():
    class Net(fnn.Module):
        @fnn.compact
        def __call__(self, x, scale):
            return fnn.Dense(2)(x) * (2.0 if scale else 1.0)

    x = _x(3, 4)
    variables = Net().init(jax.random.key(0), x, True)
    model = from_flax(Net(), variables, x, True, backend="numpy")
    np.testing.assert_allclose(model(x, True), Net().apply(variables, x, True), **TOL)
    # axis 0 is the dynamic dimension "batch" by default: another batch size is taken
    other = _x(5, 4)
    np.testing.assert_allclose(model(other, True), Net().apply(variables, other, True), **TOL)
    with pytest.raises(
        ValueError, match=r"argument 0 has shape \(3, 5\).*traced for shape \(batch, 4\)"
    ):
        model(_x(3, 5), True)
    with pytest.raises(TypeError, match="argument 1 was True when the model was traced"):
        model(x, False)
    with pytest.raises(TypeError, match="traced with 2 arguments, got 1"):
        model(x)


def test_outputs_keep_their_structure():
    class TwoHeads(fnn.Module):
        @fnn.compact
        def __call__(self, x):
            return {"a": fnn.Dense(2)(x), "b": (x.sum(), x)}

    x = _x(3, 4)
    variables = TwoHeads().init(jax.random.key(0), x)
    out = from_flax(TwoHeads(), variables, x, backend="numpy")(x)
    want = TwoHeads().apply(variables, x)
    assert set(out) == {"a", "b"} and isinstance(out["b"], tuple)
    np.testing.assert_allclose(out["a"], want["a"], **TOL)
    np.testing.assert_allclose(out["b"][0], want["b"][0], **TOL)


def test_a_linen_module_needs_variables_and_inputs():
    with pytest.raises(TypeError, match=r"from_flax\(module, variables, \*example_args\)"):
        from_flax(CNN(), {"params": {}})


# -- single primitives, through a module that applies a function ---------------------------------
class Apply(fnn.Module):
    fn: object

    @fnn.compact
    def __call__(self, *xs):
        return self.fn(*xs)


@jax.custom_vjp
def _custom_vjp_sin(x):
    return jnp.sin(x) * 2


_custom_vjp_sin.defvjp(lambda x: (_custom_vjp_sin(x), x), lambda x, g: (g * jnp.cos(x) * 2,))

A = _x(3, 4)
INTS = np.array([[7, -7, 5, -5], [0, 3, -9, 8]], np.int32)
_ROW_WINDOW = jax.lax.ScatterDimensionNumbers(
    update_window_dims=(1,), inserted_window_dims=(), scatter_dims_to_operand_dims=(0,)
)


def _at(a):
    return jnp.asarray(a).at


def _ranks(a):
    """Indices computed from the input: 0..3 in the order of the first row, minus 2 (so
    -2..1: negative ones too)."""
    return jnp.argsort(a[0])[:3] - 2


PRIMITIVE_CASES = {
    "integer div and rem (toward zero)": (
        lambda a: (a // 3, jax.lax.div(a, 3), a % 3, jax.lax.rem(a, -3)),
        INTS,
    ),
    "float rem, pow, clamp": (
        lambda a: (jax.lax.rem(a, 0.7), jnp.abs(a) ** 1.5, jnp.clip(a, -0.5, 0.5)),
        A,
    ),
    "erf, erfc, round": (lambda a: (jax.lax.erf(a * 2), jax.lax.erfc(a), jnp.round(a * 3)), A),
    "exp2, cbrt, rsqrt, logistic": (
        lambda a: (jnp.exp2(a), jnp.cbrt(a), jax.lax.rsqrt(jnp.abs(a) + 1), jax.nn.sigmoid(a)),
        A,
    ),
    "einsum dot_general": (lambda a: jnp.einsum("ij,kj->ki", a, a * 2), A),
    "batched matmul": (lambda a: jnp.reshape(a, (3, 2, 2)) @ jnp.reshape(a, (3, 2, 2)), A),
    "slices, pad, concat": (
        lambda a: jnp.concatenate([a[1:, ::2], jnp.pad(a, ((1, 0), (0, 2)))[:2, 1:3]], axis=1),
        A,
    ),
    "negative pad": (lambda a: jax.lax.pad(a, 0.0, ((-1, 1, 0), (2, -2, 0))), A),
    "dynamic slice at a constant start": (lambda a: jax.lax.dynamic_slice(a, (1, 3), (2, 2)), A),
    "reductions and argmax": (
        lambda a: (
            a.max(0),
            a.min(1),
            a.prod(1),
            jnp.argmax(a, 1),
            jnp.argmin(a, 0),
            (a > 0).any(1),
        ),
        A,
    ),
    "cumsum and reverse": (lambda a: (jnp.cumsum(a, 1), jax.lax.cumsum(a, 0, reverse=True)), A),
    "sort, where, comparisons": (
        lambda a: (jnp.sort(a, 1), jnp.where(a > 0.1, a, -a), a == a.T[0, 0]),
        A,
    ),
    "take on axis 1 with a fill": (
        lambda a: jnp.take(a, jnp.array([3, 0, 5, -1]), axis=1, mode="fill"),
        A,
    ),
    "broadcast, iota, transpose": (lambda a: a.T[:, :, None] + jnp.arange(3.0), A),
    "3-d window max (generic path)": (
        lambda a: jax.lax.reduce_window(
            a[None], -jnp.inf, jax.lax.max, (1, 2, 3), (1, 1, 1), "SAME"
        ),
        A,
    ),
    "integer window min and max": (
        lambda a: (
            jax.lax.reduce_window(a, jnp.iinfo(jnp.int32).max, jax.lax.min, (2, 3), (1, 1), "SAME"),
            jax.lax.reduce_window(a, jnp.iinfo(jnp.int32).min, jax.lax.max, (2, 2), (1, 1), "SAME"),
        ),
        INTS,
    ),
    "1-d convolution": (
        lambda a: jax.lax.conv_general_dilated(
            a[None],
            a[:2, :, None] * jnp.ones((1, 1, 2)),
            (1,),
            "SAME",
            dimension_numbers=("NWC", "WIO", "NWC"),
        ),
        np.ascontiguousarray(A.T),
    ),
    "argsort and take_along_axis": (
        lambda a: (jnp.argsort(a, axis=1), jnp.take_along_axis(a, jnp.argsort(-a, axis=0), axis=0)),
        A,
    ),
    "rematerialized (checkpoint) custom_vjp": (jax.checkpoint(_custom_vjp_sin), A),
    "scatter set at computed negative indices": (
        lambda a: _at(a)[_ranks(a)].set(a[1, :3, None] * 10),
        A,
    ),
    "scatter add with repeated and negative indices": (
        lambda a: _at(a)[jnp.array([0, 0, -1, 2])].add(jnp.concatenate([a, a[:1]]) * 2),
        A,
    ),
    "scatter multiply: repeated indices, a slice": (
        lambda a: (
            _at(a)[jnp.array([0, 2, 0])].multiply(a[:3] + 2),
            _at(a)[:, 1:3].multiply(a[:, :2]),
        ),
        A,
    ),
    "scatter min and max with repeats": (
        lambda a: (
            _at(a)[jnp.array([1, 1, 2]), jnp.array([0, 0, 3])].min(a[0, :3]),
            _at(a)[_ranks(a), 1].max(a[2, :3]),
            _at(a)[jnp.array([2, 2])].max(a[:2] * 3),
        ),
        A,
    ),
    "integer scatter min, max, add": (
        lambda a: (
            _at(a)[jnp.array([0, 0, 1])].min(a[1, :3, None] * 2),
            _at(a)[jnp.array([0, 0, 1])].max(a[1, :3, None] * 2),
            _at(a)[jnp.argmax(a, 1)].add(a[:, 0, None]),
        ),
        INTS,
    ),
    "scatter set of a slice and of a boolean mask": (
        lambda a: (_at(a)[:, 1:3].set(a[:, :2] * 5), _at(a > 0)[_ranks(a), 0].set(True)),
        A,
    ),
    "histogram (repeated labels add up)": (
        lambda a: jnp.zeros(5).at[jnp.concatenate([jnp.argmax(a, 1)] * 2)].add(1),
        A,
    ),
    "scatter out of bounds: dropped, or clipped": (
        lambda a: (
            _at(a)[jnp.array([1, 7, -9])].set(a[0] * 3),
            _at(a)[jnp.argmax(a, 1) + 2].add(a[:, ::-1]),
            _at(a)[jnp.array([1, 7])].add(a[:2] * 3, mode="clip"),
            # windows of 3 along 4: starts above 1 do not fit and the whole window is dropped
            jax.lax.scatter_add(
                a[0],
                jnp.array([[3], [1], [-1], [2]]) + jnp.argmax(a[0, :1]),
                jnp.broadcast_to(a[1, :3], (4, 3)),
                _ROW_WINDOW,
            ),
        ),
        A,
    ),
    "batched scatter (vmap: operand_batching_dims)": (
        jax.vmap(lambda r: r.at[jnp.argmax(r)].set(100.0)),
        A,
    ),
    "grouped lhs-dilated NCHW convolution": (
        lambda a: jax.lax.conv_general_dilated(
            jnp.reshape(a, (1, 2, 3, 2)),
            jnp.reshape(jnp.concatenate([a[0], a[1]]), (4, 1, 2, 1)) * jnp.ones((1, 1, 1, 2)),
            (1, 2),
            ((1, -1), (2, 0)),
            lhs_dilation=(2, 3),
            rhs_dilation=(1, 2),
            feature_group_count=2,
        ),
        A,
    ),
    "lax.conv_transpose": (
        lambda a: jax.lax.conv_transpose(
            jnp.reshape(a, (1, 3, 2, 2)),
            jnp.reshape(a[:2], (2, 2, 2, 1)) * jnp.ones((1, 1, 1, 3)),
            (2, 3),
            ((1, 0), (0, 2)),
            dimension_numbers=("NHWC", "HWIO", "NHWC"),
        ),
        A,
    ),
    "NCHW convolution": (
        lambda a: jax.lax.conv(a.reshape(1, 1, 3, 4), jnp.ones((2, 1, 2, 2)), (1, 1), "VALID"),
        A,
    ),
}


@pytest.mark.parametrize("name", list(PRIMITIVE_CASES))
def test_primitives(backend, name):
    fn, x = PRIMITIVE_CASES[name]
    module = Apply(fn)
    model = from_flax(module, {}, x)
    want = jax.tree_util.tree_leaves(module.apply({}, x))
    got = jax.tree_util.tree_leaves(model(to_backend(x, backend.name)))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(
            _np(g).astype(np.float64), np.asarray(w).astype(np.float64), **TOL
        )


# -- refusals ------------------------------------------------------------------------------------
def test_an_unmapped_primitive_is_refused():
    with pytest.raises(UnsupportedOpError, match=r"jax primitive erf_inv .*supported:"):
        from_flax(Apply(jax.lax.erf_inv), {}, A * 0.1)
    with pytest.raises(TypeError, match=r"dynamic_slice .*data-dependent"):
        from_flax(Apply(lambda a: jax.lax.dynamic_slice(a, (jnp.argmax(a[0]), 0), (1, 4))), {}, A)


@pytest.mark.parametrize(
    "fn, x, error",
    [
        (
            lambda a: jax.lax.scatter_add(
                a[0], jnp.array([[1], [0]]), a[1:, :3], _ROW_WINDOW, mode="one_hot"
            ),
            A,
            r"jax primitive scatter-add .*mode ONE_HOT; CLIP, FILL_OR_DROP or PROMISE_IN_BOUNDS only",
        ),
        (
            lambda a: _at(a > 0)[jnp.argmax(a[0])].max(True),
            A,
            r"jax primitive scatter-max .*combining bool values; integers and floats only",
        ),
        (
            lambda a: _at(a)[jnp.argsort(a)].multiply(2.0),
            _x(2100),
            r"jax primitive scatter-mul .*2100 updates whose indices may repeat",
        ),
        (
            lambda a: jax.lax.conv_transpose(
                a[None, :, :, :, None],
                jnp.ones((2, 2, 2, 1, 1)),
                (2, 2, 2),
                "SAME",
                dimension_numbers=("NDHWC", "DHWIO", "NDHWC"),
            ),
            A[:, :, None] * np.ones((1, 1, 2), np.float32),
            r"jax primitive conv_general_dilated .*a 3-D convolution; 1-D and 2-D only",
        ),
    ],
    ids=["one_hot mode", "boolean scatter-max", "large scatter-mul", "3-d transposed conv"],
)
def test_scatters_and_convolutions_that_are_refused_say_why(fn, x, error):
    with pytest.raises(UnsupportedOpError, match=error):
        from_flax(Apply(fn), {}, x)


def test_a_scatter_set_at_repeated_indices_takes_one_of_the_values(backend):
    idx = np.array([2, 0, 2, 2, 1, 0], np.int32)
    fn = Apply(lambda a, i: _at(a)[i].set(a[::-1] * 10))
    x = _x(6)
    got = _np(from_flax(fn, {}, x, idx)(to_backend(x, backend.name), to_backend(idx, backend.name)))
    updates = x[::-1] * 10
    for position in range(6):
        candidates = updates[idx == position]
        if candidates.size:
            assert np.isclose(candidates, got[position], atol=1e-6).any()
        else:
            assert got[position] == x[position]


def test_the_generated_code_names_the_primitives():
    model, *_ = case("linen_cnn")
    assert "conv_general_dilated" in model.code and "def jaxpr(" in model.code
    assert repr(model).startswith("JaxprModel('CNN'")


def test_docs_list_every_supported_primitive():
    from ivy_like.convert.flax.primitives import supported_primitives_markdown

    docs = (Path(__file__).parents[3] / "docs" / "convert.md").read_text()
    block = re.search(r"<!-- jax-primitives -->\n(.*?)<!-- /jax-primitives -->", docs, re.S)
    assert block is not None, "docs/convert.md lost its generated list of jax primitives"
    assert block.group(1) == supported_primitives_markdown(), (
        "docs/convert.md is stale: regenerate the list with python -c 'from "
        "ivy_like.convert.flax.primitives import supported_primitives_markdown as m; print(m())'"
    )


class NnxNormed(nnx.Module):
    def __init__(self):
        self.lin = nnx.Linear(3, 4, rngs=nnx.Rngs(0))
        self.bn = nnx.BatchNorm(4, rngs=nnx.Rngs(1))

    def __call__(self, x):
        return self.bn(self.lin(x))


def test_batch_statistics_are_buffers_that_keras_does_not_train():
    pytest.importorskip("keras")
    from ivy_like.convert import to_keras

    x = _x(2, 3)
    net = CNN()
    variables = net.init(jax.random.key(0), _x(2, 8, 8, 1))
    linen = from_flax(net, variables, _x(2, 8, 8, 1), backend="numpy")
    assert linen.buffers == {"batch_stats/BatchNorm_0/mean", "batch_stats/BatchNorm_0/var"}
    nnx_model = from_flax(NnxNormed(), x, backend="numpy")
    assert nnx_model.buffers == {"bn/mean", "bn/var"}
    keras_model = to_keras(nnx_model)
    assert len(keras_model.non_trainable_weights) == 2  # mean and var, by nnx's variable types
    assert len(keras_model.trainable_weights) == 4

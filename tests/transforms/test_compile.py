"""``ivy_like.compile``: retraces, and training steps that compile.

After a retrace each call's outputs come from the trace of its own signature: tf.function,
mx.compile and make_fx trace again for a new shape while the compiled function keeps one entry
per argument structure; the Python values and the structure of the output may differ between
those traces.

Training steps: a whole step written once with ivy_like
(``value_and_grad`` + ``optimizers.adam`` + dropout with an array key) compiled with
``ivy_like.compile`` on jax, torch, tensorflow and mlx runs many steps from one trace, and its
parameters are those of the same step run eagerly.

Also here: the counter-based generator of key arrays against an independent NumPy
implementation of the algorithm ``ivy_like/random.py`` documents (uint32 arithmetic, where the
library uses int32 bit patterns), Adam's array step count under the native compilers, what
MLX does with a Container, and torch.compile(fullgraph=True).

Traces are counted with a Python side effect inside the compiled function: every compiler
here (jax.jit, tf.function, mx.compile, and ivy_like.compile on torch, which traces with
make_fx) runs the Python of the function only when it traces.
"""

from __future__ import annotations

import numpy as np
import pytest

import ivy_like
from ivy_like import nn, optimizers
from ivy_like import random as R
from ivy_like.testing import assert_close

COMPILERS = [n for n in ("jax", "torch", "tensorflow", "mlx") if n in ivy_like.available_backends()]
STEPS = 5
# float32, five Adam steps compiled against eager: fused kernels differ by a few ulps.
STEP_TOL = {"rtol": 1e-5, "atol": 1e-6}


def _data(backend):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 4)).astype(np.float32)
    y = (x[:, 0] - x[:, 1] > 0).astype(np.int32)
    return backend.asarray(x), backend.asarray(y)


def _training(backend):
    """The step as docs/nn.md writes it, with a dropout layer and an array key."""
    model = nn.Sequential(
        [nn.Linear(4, 16), nn.ReLU(), nn.Dropout(0.5), nn.Linear(16, 2)],
        seed=0,
        backend=backend,
    )
    opt = optimizers.adam(1e-2)
    traces = [0]

    def loss_fn(params, x, y, key):
        return nn.cross_entropy(model.apply(params, x, key=key), y)

    def step(params, state, key, x, y):
        traces[0] += 1
        key, sub = R.split(key)
        loss, grads = ivy_like.value_and_grad(loss_fn)(params, x, y, sub)
        params, state = opt.update(params, grads, state)
        return params, state, key, loss

    return model, opt, step, traces


def _run(step, model, opt, backend, steps=STEPS):
    params, state = model.params, opt.init(model.params)
    key = R.key(0, backend=backend)
    x, y = _data(backend)
    losses = []
    for _ in range(steps):
        params, state, key, loss = step(params, state, key, x, y)
        losses.append(float(ivy_like.to_numpy(loss)))
    return params, state, key, losses


@pytest.mark.parametrize("name", COMPILERS)
def test_compiled_training_step_traces_once_and_matches_eager(name):
    b = ivy_like.get_backend(name)
    with ivy_like.use_backend(b):
        model, opt, step, traces = _training(b)
        eager_params, eager_state, eager_key, eager_losses = _run(step, model, opt, b)
        assert traces[0] == STEPS
        traces[0] = 0
        params, state, key, losses = _run(ivy_like.compile(step), model, opt, b)
    assert traces[0] == 1, f"{name}: {traces[0]} traces for {STEPS} steps"
    assert isinstance(params, ivy_like.Container) and isinstance(state, ivy_like.Container)
    assert_close(params, eager_params, **STEP_TOL, label=f"{name} params: ")
    assert_close(state, eager_state, **STEP_TOL, label=f"{name} state: ")
    assert int(ivy_like.to_numpy(state["count"])) == STEPS
    assert_close(key, eager_key)
    np.testing.assert_allclose(losses, eager_losses, rtol=1e-5)
    assert len(set(losses)) == STEPS  # a new mask (and new parameters) at every step


@pytest.mark.parametrize("name", COMPILERS)
def test_compiled_forward_over_forward_equals_eager(name):
    # On torch the traced graph held aten._efficientzerotensor (a tangent known to be zero),
    # which Inductor compiled into a function that crashed the process (torch 2.13).
    rng = np.random.default_rng(5)
    a, v, w = (rng.standard_normal((3, 3)).astype(np.float32) for _ in range(3))
    with ivy_like.use_backend(name):
        a, v, w = (ivy_like.asarray(t) for t in (a, v, w))

        def inner(x):
            return ivy_like.jvp(lambda y: ivy_like.sum(ivy_like.sin(y)) * 2.0, [x], [v])[1][0]

        def outer(x):
            return ivy_like.jvp(inner, [x], [w])[1][0]

        got = ivy_like.compile(outer)(a)
    want = -2.0 * np.sum(np.sin(ivy_like.to_numpy(a)) * ivy_like.to_numpy(v) * ivy_like.to_numpy(w))
    np.testing.assert_allclose(float(ivy_like.to_numpy(got)), want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", COMPILERS)
def test_compiled_gradient_through_max_pool(name):
    # A CNN step compiles: jax could not differentiate its max-pool window under jit when the
    # start value was an array (a generic reduce_window); the gradient routes to each maximum.
    b = ivy_like.get_backend(name)
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)

    def loss(x):
        return ivy_like.sum(nn.max_pool2d(x, 2) ** 2)

    expected = np.zeros_like(x)
    expected[0, 0, 1::2, 1::2] = 2 * x[0, 0, 1::2, 1::2]
    got = ivy_like.compile(ivy_like.grad(loss))(b.asarray(x))
    np.testing.assert_allclose(ivy_like.to_numpy(got), expected)


@pytest.mark.parametrize("name", COMPILERS)
def test_dropout_masks_differ_between_steps_from_one_compilation(name):
    b = ivy_like.get_backend(name)
    traces = [0]

    def masked(x, key):
        traces[0] += 1
        key, sub = R.split(key)
        return nn.dropout(x, 0.5, key=sub), key

    compiled = ivy_like.compile(masked)
    x = b.asarray(np.ones(64, np.float32))
    key = eager_key = R.key(3, backend=b)
    masks = []
    for _ in range(4):
        out, key = compiled(x, key)
        want, eager_key = masked(x, eager_key)
        assert_close(out, want)  # the compiled generator draws the eager bits
        masks.append(ivy_like.to_numpy(out))
    assert traces[0] == 1 + 4  # one trace, four eager calls
    assert len({m.tobytes() for m in masks}) == 4
    assert set(np.unique(np.concatenate(masks))) == {0.0, 2.0}


# -- the generator of key arrays, against an independent NumPy implementation -------------------
def _ref_words(key, n, domain):
    """The documented algorithm in uint32 arithmetic (wrapping, logical shifts)."""
    with np.errstate(over="ignore"):

        def mix(x):
            x = x ^ (x >> np.uint32(16))
            x = x * np.uint32(0x7FEB352D)
            x = x ^ (x >> np.uint32(15))
            x = x * np.uint32(0x846CA68B)
            return x ^ (x >> np.uint32(16))

        words = np.asarray(key).astype(np.int64).astype(np.uint32)  # low 32 bits
        r = mix(words ^ np.uint32(domain))
        h = mix(np.arange(n, dtype=np.uint32) ^ r[0])
        h = mix(h ^ r[1])
        return mix(h + (r[0] + r[1]))


DRAW, SPLIT = 0x243F6A88, 0x2B7E1516
KEY = [123456789, -987654321]


def _reference(name):
    words = _ref_words(KEY, 12, DRAW)
    unit = (words >> np.uint32(8)).astype(np.float32) * np.float32(2.0**-24)
    if name == "uniform":
        x = unit * np.float32(5.0) + np.float32(-2.0)
        return np.where(x < 3.0, x, np.nextafter(np.float32(3.0), np.float32(0.0)))
    if name == "randint":
        return ((words >> np.uint32(1)) % np.uint32(12)).astype(np.int64) - 5
    if name == "bernoulli":
        return (words >> np.uint32(8)) < round(0.3 * 2**24)
    if name == "permutation":
        return np.argsort(words.view(np.int32), kind="stable")
    raise AssertionError(name)


KEYED = {
    "uniform": lambda key: R.uniform((3, 4), seed=key, low=-2.0, high=3.0),
    "randint": lambda key: R.randint(-5, 7, (3, 4), seed=key),
    "bernoulli": lambda key: R.bernoulli(0.3, (3, 4), seed=key),
    "permutation": lambda key: R.permutation(12, seed=key),
}


@pytest.mark.parametrize("name", sorted(KEYED))
def test_key_arrays_draw_the_documented_bits_on_every_backend(name):
    want = _reference(name).reshape(-1)
    for b in ivy_like.available_backends():
        key = ivy_like.get_backend(b).asarray(np.array(KEY, np.int32))
        got = KEYED[name](key)
        assert isinstance(got, ivy_like.Array) and got.backend.name == b
        got = got.to_numpy().reshape(-1)
        if name in ("randint", "permutation"):
            got = got.astype(np.int64)  # default int width differs
        np.testing.assert_array_equal(got, want, err_msg=f"{name} on {b}")


def test_key_array_normal_and_float64_follow_the_documented_rule():
    words = _ref_words(KEY, 8, DRAW)
    u = (words >> np.uint32(8)).astype(np.float64) * 2.0**-24
    z = np.sqrt(-2 * np.log(1 - u[:4])) * np.cos(2 * np.pi * u[4:])
    words64 = _ref_words(KEY, 8, DRAW)
    u64 = (
        (words64[:4] >> np.uint32(6)).astype(np.float64) * 2.0**27
        + (words64[4:] >> np.uint32(5)).astype(np.float64)
    ) * 2.0**-53
    for b in ivy_like.available_backends():
        key = ivy_like.get_backend(b).asarray(np.array(KEY, np.int32))
        # transcendental kernels differ by a few float32 ulps between frameworks
        np.testing.assert_allclose(
            R.normal((4,), seed=key, mean=1.0, std=2.0).to_numpy(), 1 + 2 * z, rtol=2e-6
        )
        if b != "jax":  # jax without jax_enable_x64 has no float64
            np.testing.assert_array_equal(
                R.uniform((4,), seed=key, dtype="float64").to_numpy(), u64, err_msg=b
            )
        half = R.uniform((8,), seed=key, dtype="float16").to_numpy()
        np.testing.assert_array_equal(
            half, ((words >> np.uint32(21)).astype(np.float32) * 2.0**-11).astype(np.float16)
        )


def test_split_and_key_follow_the_documented_rule_on_every_backend():
    children = _ref_words(KEY, 6, SPLIT).view(np.int32).reshape(3, 2)
    seed = 2**40 + 7
    for b in ivy_like.available_backends():
        key = ivy_like.get_backend(b).asarray(np.array(KEY, np.int32))
        got = R.split(key, 3)
        assert len(got) == 3 and all(isinstance(k, ivy_like.Array) for k in got)
        np.testing.assert_array_equal(np.stack([k.to_numpy() for k in got]), children)
        made = R.key(seed, backend=b)
        assert made.backend.name == b and made.dtype == ivy_like.int32
        np.testing.assert_array_equal(made.to_numpy(), [7, 2**8])
    # a scalar key k is the key [k, 0]; uint32 and int64 keys count their low 32 bits
    a = R.uniform((5,), seed=np.array(9, np.int64), backend="numpy").to_numpy()
    np.testing.assert_array_equal(a, R.uniform((5,), seed=R.key(9, backend="numpy")).to_numpy())
    c = R.uniform((5,), seed=np.array([2**32 - 1, 0], np.uint32), backend="numpy").to_numpy()
    d = R.uniform((5,), seed=np.array([-1, 0], np.int32), backend="numpy").to_numpy()
    np.testing.assert_array_equal(c, d)


@pytest.mark.parametrize("name", COMPILERS)
def test_key_arrays_draw_the_same_bits_compiled(name):
    """Integer ops only: no compiler may change a bit (torch's Inductor emits C++, where
    int32 overflow is the wrap-around these products rely on)."""
    b = ivy_like.get_backend(name)

    def draw(key):
        k1, k2 = R.split(key)
        return (
            R.uniform((257,), seed=k1),
            R.randint(0, 1000, (257,), seed=k2),
            R.bernoulli(0.5, (257,), seed=key),
            R.permutation(33, seed=key),
        )

    key = b.asarray(np.array(KEY, np.int32))
    assert_close(ivy_like.compile(draw)(key), draw(key), rtol=0, atol=0)


def test_int_seeds_keep_their_numbers():
    # pinned before key arrays existed (docs/nn.md, tests/test_random.py)
    pcg = np.random.Generator(np.random.PCG64(0)).uniform(0.0, 1.0, (3,)).astype(np.float32)
    for b in ivy_like.available_backends():
        with ivy_like.use_backend(b):
            mask = nn.dropout(ivy_like.ones(6), 0.5, key=0).to_numpy()
        np.testing.assert_array_equal(mask, [0.0, 2.0, 2.0, 2.0, 0.0, 0.0], err_msg=b)
        np.testing.assert_array_equal(R.uniform((3,), seed=0, backend=b).to_numpy(), pcg)
    assert R.split(0, 3) == [8668861027912758289, 4881901421217228719, 7229315352737646089]


@pytest.mark.parametrize(
    "call, exc, message",
    [
        (lambda: R.uniform((2,), seed=np.ones(2, np.float32)), TypeError, "integer dtype"),
        (lambda: R.uniform((2,), seed=np.zeros(3, np.int32)), ValueError, r"shape \(2,\) or \(\)"),
        (
            lambda: R.uniform((2,), seed=R.key(0, backend="numpy"), source="native"),
            ValueError,
            "source='native' takes an int seed",
        ),
        (
            lambda: R.randint(0, 2**32, (2,), seed=R.key(0, backend="numpy"), dtype="int64"),
            ValueError,
            r"high - low must be at most 2\*\*31",
        ),
        (lambda: R.split(R.key(0, backend="numpy"), 0), ValueError, "n must be a positive int"),
        (lambda: nn.dropout(ivy_like.ones(2), 0.5, key="k"), TypeError, "key must be an int seed"),
    ],
)
def test_key_array_errors(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


@pytest.mark.skipif(not {"jax", "torch"} <= set(COMPILERS), reason="needs jax and torch installed")
def test_key_on_another_backend_than_x_is_refused():
    x = ivy_like.get_backend("torch").asarray(np.ones(3, np.float32))
    with pytest.raises(ValueError, match="the key is a jax array, but the numbers are wanted on"):
        nn.dropout(x, 0.5, key=R.key(0, backend="jax").data)
    # a NumPy key is data like any other NumPy input: it goes to the backend of x
    out = nn.dropout(x, 0.5, key=np.array([1, 2], np.int32))
    assert_close(out, nn.dropout(x, 0.5, key=R.key(2**33 + 1, backend="torch")))


# -- Adam's step count ----------------------------------------------------------------------------
def _grads(params, t):
    # MLX hands back plain dicts for Containers (see the MLX test below)
    return ivy_like.Container(params).cont_map(lambda p, kc: p * (0.1 * (t + 1)) - 0.05)


@pytest.mark.parametrize("name", COMPILERS + ["numpy"])
def test_adam_count_is_an_int32_array_beside_the_parameters(name):
    b = ivy_like.get_backend(name)
    params = nn.MLP([3, 4, 2], seed=0, backend=b).params
    state = optimizers.adamw(0.1).init(params)
    count = state["count"]
    assert type(count) is type(params["0"]["weight"])  # native or Array, as the parameters
    assert count.dtype == (
        ivy_like.int32 if isinstance(count, ivy_like.Array) else b.native_dtype(ivy_like.int32)
    )
    assert b.shape(ivy_like.to_native(count)) == ()


def _counting(fun, traces):
    def counted(*args):
        traces[0] += 1
        return fun(*args)

    return counted


def _native_compile(name, fun):
    if name == "tensorflow":
        import tensorflow as tf

        return tf.function(fun)
    import mlx.core as mx

    return mx.compile(fun)


def test_adam_under_tf_function_and_mx_compile_natively():
    """The failures these steps once had: tf.function broke at step 2 (``Expected int32, but got 0.9``)
    and mx.compile traced again at every step, both because the count was a Python int."""
    for name in ("tensorflow", "mlx"):
        if name not in COMPILERS:
            continue
        b = ivy_like.get_backend(name)
        opt, traces = optimizers.adam(0.05, b1=0.8), [0]
        compiled = _native_compile(name, _counting(opt.update, traces))
        params = nn.MLP([3, 4, 2], seed=0, backend=b).params
        state = opt.init(params)
        eager_params, eager_state = params, state
        for t in range(4):
            g = _grads(params, t)
            params, state = compiled(params, g, state)
            eager_params, eager_state = opt.update(eager_params, g, eager_state)
        assert traces[0] == 1, name
        assert_close(params, eager_params, **STEP_TOL, label=f"{name}: ")
        assert int(ivy_like.to_numpy(state["count"])) == 4


def test_adam_bias_corrections_by_hand():
    # b1 = 0: 1 - 0**t = 1 (log 0 is -inf: expm1(-inf) = -1); float64 keeps float64
    p = ivy_like.Container(w=np.array([1.0, -2.0]))
    g = ivy_like.Container(w=np.array([0.5, 4.0]))
    opt = optimizers.adam(0.1, b1=0.0, b2=0.5, eps=0.0)
    state = opt.init(p)
    for t in (1, 2):
        v = 0.5 * (state["nu"]["w"]) + 0.5 * g["w"] ** 2
        want = p["w"] - 0.1 * g["w"] / np.sqrt(v / (1 - 0.5**t))
        p, state = opt.update(p, g, state)
        np.testing.assert_allclose(p["w"], want, rtol=1e-14)
        assert p["w"].dtype == np.float64


# -- MLX and Containers ---------------------------------------------------------------------------
@pytest.mark.skipif("mlx" not in COMPILERS, reason="mlx is not installed")
def test_mlx_gives_containers_back_through_ivy_like_transforms():
    import mlx.core as mx
    import mlx.utils

    c = ivy_like.Container(a=mx.array([1.0, 2.0]), b={"c": mx.array([3.0, 4.0])})
    # MLX rebuilds every dict as a plain dict (python/src/trees.cpp, mlx.utils.tree_map) and
    # has no registry of tree types: what MLX's own transforms return cannot be a Container.
    assert type(mx.compile(lambda t: t)(c)) is dict
    assert type(mlx.utils.tree_map(lambda x: x, c)) is dict
    # ivy_like's transforms flatten Containers themselves and rebuild them.
    out = ivy_like.compile(lambda t: t * 2)(c)
    assert type(out) is ivy_like.Container and type(out["b"]) is ivy_like.Container
    assert_close(
        out, {"a": np.array([2.0, 4.0]), "b": {"c": np.array([6.0, 8.0])}}, check_dtype=False
    )
    mapped = ivy_like.vmap(lambda t: t + t["a"] * t["b"]["c"])(c)
    assert type(mapped) is ivy_like.Container and type(mapped["b"]) is ivy_like.Container
    assert_close(mapped["b"]["c"], np.array([6.0, 12.0], np.float32))
    # and a Container rebuilt from MLX's plain dicts is one again
    assert type(ivy_like.Container(mlx.utils.tree_map(lambda x: x, c))["b"]) is ivy_like.Container


# -- torch.compile(fullgraph=True) ----------------------------------------------------------------
# backend="eager": a graph break is Dynamo's to find, so no Inductor code is generated here.
def _torch_setup():
    torch = pytest.importorskip("torch")
    b = ivy_like.get_backend("torch")
    x, y = _data(b)
    return torch, b, x, y


@pytest.mark.skipif("torch" not in COMPILERS, reason="torch is not installed")
def test_torch_fullgraph_container_params_keys_and_adam():
    """Container parameters (``"0" in params`` in Sequential.apply was the graph break),
    keyed random draws and Adam's update trace into one graph, and the update does not
    recompile as the step count grows."""
    torch, b, x, y = _torch_setup()
    # torch's own kernels only (linear, relu, mean): no composite op, see the xfail below.
    model = nn.Sequential([nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)], seed=0, backend=b)
    target = b.asarray(np.ones((16, 2), np.float32))

    def loss(params, x, key):
        k1, k2 = R.split(key)
        h = model.apply(params, x)
        keep = R.bernoulli(0.5, (16, 2), seed=k1).data
        noise = R.uniform((16, 2), seed=k2).data
        return ivy_like.mean((ivy_like.where(keep, h, noise) - target) ** 2)

    key = R.key(0, backend=b).data
    compiled = torch.compile(loss, fullgraph=True, backend="eager")
    assert_close(compiled(model.params, x, key), loss(model.params, x, key), rtol=1e-6)

    opt = optimizers.adam(1e-2)
    params, state = model.params, opt.init(model.params)
    grads = params.cont_map(lambda p, kc: p * 0.1)
    opt.update(params, grads, state)  # fills ivy_like's per-op call caches (see the report)
    update = torch.compile(opt.update, fullgraph=True, backend="eager")
    eager = (params, state)
    with torch._dynamo.config.patch(error_on_recompile=True):
        for _ in range(3):
            params, state = update(params, grads, state)
            eager = opt.update(*eager[:1], grads, eager[1])
    assert isinstance(params, ivy_like.Container)
    assert_close(params, eager[0], **STEP_TOL)
    assert int(state["count"]) == 3


@pytest.mark.skipif("torch" not in COMPILERS, reason="torch is not installed")
@pytest.mark.parametrize("what", ["loss", "grad", "step"])
def test_torch_fullgraph_docs_training_step(what):
    """The docs' step traces into one graph: composite ops (cross_entropy, dropout) and grad
    push a backend, and creation functions read it, which Dynamo could not follow while the
    active backend was only a ContextVar. The compiled results are the eager ones, and three
    calls (fresh keys, updated parameters) compile once."""
    torch, b, x, y = _torch_setup()
    model, opt, _, _ = _training(b)

    def loss(params, x, y, key):
        return nn.cross_entropy(model.apply(params, x, key=key), y)

    def counter_free_step(params, state, key, x, y):  # Dynamo guards on a traced counter
        loss_value, grads = ivy_like.value_and_grad(loss)(params, x, y, key)
        params, state = opt.update(params, grads, state)
        return params, state, key, loss_value

    fun = {"loss": loss, "grad": ivy_like.grad(loss), "step": counter_free_step}[what]
    # Dynamo caches per code object, and every ivy_like.grad shares grad_fun's: an earlier
    # test's compiled grad would count as a first compilation here.
    torch._dynamo.reset()
    compiled = torch.compile(fun, fullgraph=True, backend="eager")
    state = opt.init(model.params)
    keys = R.split(R.key(0, backend=b).data, 3)

    def run(f):
        params, st, results = model.params, state, []
        for key in keys:
            if what == "step":
                params, st, _, value = out = f(params, st, key, x, y)
                results.append(out)
            else:
                results.append(f(params, x, y, key))
        return results

    with torch._dynamo.config.patch(error_on_recompile=True):
        got = run(compiled)  # traced on the first call only
    assert_close(got, run(fun), **STEP_TOL)


@pytest.mark.skipif("torch" not in COMPILERS, reason="torch is not installed")
def test_torch_graph_break_between_traced_push_and_pop():
    """A graph break between a push traced by Dynamo (what grad and composite ops do) and its
    pop resumes in eager Python: the creation function there still sees the pushed backend,
    and nothing of the traced push is left behind. (The break is placed in the caller's code:
    inside torch.func's grad body torch 2.13's Dynamo itself fails on resuming.)"""
    from ivy_like.core import backend as core_backend

    torch, b, _, _ = _torch_setup()

    seen = []

    def f(x):
        # No try/finally here: Dynamo runs a frame with a break inside a try block all eagerly,
        # and this test is about the traced push.
        tokens = core_backend.activate(b)
        torch._dynamo.graph_break()
        seen.append(list(core_backend._traced.backends))
        y = x * ivy_like.full((), 3.0).data  # full: no array argument
        core_backend.deactivate(tokens)
        return y

    x = torch.tensor([1.0, 2.0])
    with ivy_like.use_backend("numpy"):
        got = torch.compile(f, backend="eager")(x)
        assert ivy_like.current_backend().name == "numpy"
        assert ivy_like.zeros(1).backend.name == "numpy"
    assert seen == [[b]]  # pushed in the trace, seen after the break
    assert isinstance(got, torch.Tensor)
    assert_close(got, np.array([3.0, 6.0], np.float32))
    assert core_backend.TRACED_PUSHES[0] == 0 and core_backend._traced.backends == []


def test_traced_push_is_seen_only_by_its_own_thread(monkeypatch):
    """A push made while a compiler traces lives in a per-thread list: another thread's
    creation functions keep their own active backend meanwhile."""
    import threading

    from ivy_like.core import backend as core_backend
    from ivy_like.core import tracing

    others = [n for n in ivy_like.available_backends() if n != "numpy"]
    if not others:
        pytest.skip("needs a backend beside numpy")
    other = others[0]
    pushed, release = threading.Event(), threading.Event()
    seen = {}

    def tracer():
        tokens = core_backend.activate(ivy_like.get_backend(other))
        seen["tracer"] = ivy_like.backend_of(ivy_like.zeros(2).data).name
        pushed.set()
        release.wait(10)
        core_backend.deactivate(tokens)

    monkeypatch.setattr(tracing, "is_tracing", lambda: True)
    thread = threading.Thread(target=tracer)
    with ivy_like.use_backend("numpy"):
        thread.start()
        assert pushed.wait(10)
        monkeypatch.setattr(tracing, "is_tracing", lambda: False)
        assert core_backend.TRACED_PUSHES[0] == 1
        seen["main"] = ivy_like.zeros(2).backend.name
        seen["current"] = ivy_like.current_backend().name
        release.set()
        thread.join(10)
    assert seen == {"tracer": other, "main": "numpy", "current": "numpy"}
    assert core_backend.TRACED_PUSHES[0] == 0


# -- retraces: each call's outputs come from the trace of its own signature ---------------------
@pytest.fixture
def compiling(backend):
    return ivy_like.get_backend(backend)


def _int(value):
    return int(ivy_like.to_numpy(value)) if not isinstance(value, int) else value


def test_a_static_output_follows_the_calls_shape(compiling):
    f = ivy_like.compile(lambda x: (x * 2, x.shape[0]))
    sizes = (3, 5, 3, 5, 2, 3)
    got = [_int(f(compiling.asarray(np.ones(n, np.float32)))[1]) for n in sizes]
    assert got == list(sizes)


def test_an_output_structure_that_depends_on_the_shape(compiling):
    # One output leaf per row: a new shape gives another structure, not only another value.
    f = ivy_like.compile(lambda x: [x[i] * 1.0 for i in range(x.shape[0])])
    for n in (2, 4, 2):
        out = f(compiling.asarray(np.arange(n, dtype=np.float32)))
        assert len(out) == n
        np.testing.assert_allclose([float(ivy_like.to_numpy(v)) for v in out], range(n))


def test_equal_statics_of_another_type_keep_their_type(compiling):
    # 2 == 2.0: the specs of the two traces compare equal, yet the outputs differ in type.
    f = ivy_like.compile(lambda x: (x + 1, 2 if x.shape[0] == 1 else 2.0))
    first = f(compiling.asarray(np.ones(1, np.float32)))[1]
    second = f(compiling.asarray(np.ones(3, np.float32)))[1]
    again = f(compiling.asarray(np.ones(1, np.float32)))[1]
    if compiling.name == "jax":
        # jax.jit returns every output as an array, whose dtype keeps the difference
        assert [str(v.dtype) for v in (first, second, again)] == ["int32", "float32", "int32"]
    else:
        assert type(first) is int and type(second) is float and type(again) is int


def test_the_backend_comes_from_the_arrays_not_from_numpy_data_in_a_container():
    # first_backend looks at top-level arrays first, then inside Containers: NumPy data in
    # the Container is converted to the array's framework either way.
    jax = pytest.importorskip("jax")
    ivy_like.get_backend("jax")
    f = ivy_like.compile(lambda p, x: p["w"] * x)
    out = f(ivy_like.Container(w=np.full(2, 3.0, np.float32)), jax.numpy.ones(2))
    assert isinstance(out, jax.Array)
    np.testing.assert_allclose(np.asarray(out), [3.0, 3.0])


def test_arrays_of_two_frameworks_are_refused_with_a_type_error():
    jax = pytest.importorskip("jax")
    torch = pytest.importorskip("torch")
    ivy_like.get_backend("jax")
    f = ivy_like.compile(lambda p, x: p["w"] * x)
    with pytest.raises(TypeError):
        f(ivy_like.Container(w=torch.ones(2)), jax.numpy.ones(2))
    # Also once a call of the same argument types has been compiled (the types then pick
    # the compiled function without a search of the arguments).
    f(ivy_like.Container(w=jax.numpy.ones(2)), jax.numpy.ones(2))
    with pytest.raises(TypeError):
        f(ivy_like.Container(w=torch.ones(2)), jax.numpy.ones(2))


def test_one_compiled_function_follows_each_calls_framework():
    # Containers alone name no backend by their type: each call searches them, so one
    # compiled function called with jax, then torch, then jax data computes on each.
    names = [n for n in ("jax", "torch", "mlx") if n in ivy_like.available_backends()]
    if len(names) < 2:
        pytest.skip("needs two frameworks")
    f = ivy_like.compile(lambda p: p["w"] * 2.0)
    for name in names + names[:1]:
        b = ivy_like.get_backend(name)
        out = f(ivy_like.Container(w=b.asarray(np.ones(2, np.float32))))
        assert ivy_like.backend_of(out) is b
        np.testing.assert_allclose(np.asarray(ivy_like.to_numpy(out)), [2.0, 2.0])

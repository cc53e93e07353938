"""grad, value_and_grad, jac, execute_with_gradients on every backend.

Gradient tests run on every selected backend with autodiff (``ad`` fixture); on the others
(numpy) the dedicated tests check the clear error. Numbers are compared with JAX's, float32
within 1e-6 relative.
"""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

import ivy_like
from ivy_like import NoAutodiffError
from ivy_like.container import Container
from ivy_like.core.backend import kind_of
from ivy_like.testing.pytest_plugin import selected_backends

RTOL = 1e-6


def pytest_generate_tests(metafunc):
    """``ad``: the autodiff backends; ``no_ad``: the others. Both from the plugin's selection."""
    for fixture, want in (("ad_name", True), ("no_ad_name", False)):
        if fixture in metafunc.fixturenames:
            names = [
                n
                for n in selected_backends(metafunc.config)
                if ivy_like.get_backend(n).has_autodiff == want
            ]
            metafunc.parametrize(fixture, names)


@pytest.fixture
def ad(ad_name):
    with ivy_like.use_backend(ad_name) as b:
        yield b


@pytest.fixture
def no_ad(no_ad_name):
    with ivy_like.use_backend(no_ad_name) as b:
        yield b


def native(backend, values):
    return backend.asarray(np.asarray(values, np.float32))


def npy(x):
    return ivy_like.to_numpy(x)


def close(actual, expected, rtol=RTOL):
    np.testing.assert_allclose(npy(actual), np.asarray(expected), rtol=rtol, atol=0)


def agrees(actual, reference, rtol=RTOL):
    """Within ``rtol`` relative to the reference's scale (max |reference|): float32 sums with
    cancellation differ between frameworks' kernels by a few ulps of the largest term, which
    element-wise relative error would magnify without bound in near-zero elements."""
    a, r = np.asarray(npy(actual), np.float64), np.asarray(npy(reference), np.float64)
    assert a.shape == r.shape
    err, scale = float(np.max(np.abs(a - r))), float(np.max(np.abs(r)))
    assert err <= rtol * scale, f"max |difference| {err:.3g} > {rtol:g} x scale {scale:.3g}"


def require(request, name):
    """Tests of one framework's compiler run when that backend is among the selected ones."""
    if name not in selected_backends(request.config):
        pytest.skip(f"the {name} backend is not selected for this run")


def on_jax(fn):
    """Run ``fn()`` with jax active: the reference numbers; None where jax is not installed
    (the MXNet environment), and the comparisons with it are left out."""
    if "jax" not in ivy_like.available_backends():
        return None
    with ivy_like.use_backend("jax"):
        return fn()


NO_NESTED_MXNET = (
    "MXNet's imperative autograd records one tape per thread and cannot nest: gradients of "
    "gradients raise NotImplementedError on the mxnet backend"
)


def xfail_nested_on_mxnet(request, backend):
    """Strict xfail on mxnet, only for its NotImplementedError (other failures still fail)."""
    if backend.name == "mxnet":
        mark = pytest.mark.xfail(reason=NO_NESTED_MXNET, raises=NotImplementedError, strict=True)
        request.applymarker(mark)


# -- the MXNet page's example ----------------------------------------------------------------
def test_mxnet_page_example(ad):
    a = native(ad, [1, 2])
    b = native(ad, [0, 1])

    def loss(a, b):
        out = ivy_like.add(ivy_like.stop_gradient(ivy_like.multiply(b, 3.0)), a)
        return ivy_like.sum(out), out

    (total, out), (ga, gb) = ivy_like.value_and_grad(loss, argnums=(0, 1))(a, b)
    close(out, [1, 5])
    close(total, 6.0)
    close(ga, [1, 1])
    close(gb, [0, 0])
    assert kind_of(type(ga)) is ad and kind_of(type(gb)) is ad  # native in, native out


def test_mxnet_page_example_on_arrays(ad):
    a, b = ivy_like.array([1.0, 2.0]), ivy_like.array([0.0, 1.0])
    ga, gb = ivy_like.grad(lambda a, b: ((b * 3.0).stop_gradient() + a).sum(), argnums=[0, 1])(a, b)
    assert isinstance(ga, ivy_like.Array) and ga.backend is ad
    close(ga, [1, 1])
    close(gb, [0, 0])


# -- argnums / argnames: MLX's rules ----------------------------------------------------------
def f3(x, y, *, z=None, w=None):
    return ivy_like.sum(x * y) + ivy_like.sum(z * z) + 3.0 * ivy_like.sum(w)


def args3(backend):
    x, y, z = native(backend, [1, 2]), native(backend, [3, 4]), native(backend, [5, 6])
    return (x, y), {"z": z, "w": z}


def test_argnums_argnames_return_shapes(ad):
    args, kwargs = args3(ad)
    close(ivy_like.grad(f3)(*args, **kwargs), [3, 4])  # default: argnums 0, one gradient
    close(ivy_like.grad(f3, argnums=1)(*args, **kwargs), [1, 2])
    close(ivy_like.grad(f3, argnums=[1])(*args, **kwargs), [1, 2])  # MLX: one index -> bare
    gx, gy = ivy_like.grad(f3, argnums=[1, 0])(*args, **kwargs)  # MLX sorts the indices
    close(gx, [3, 4])
    close(gy, [1, 2])
    pos, kw = ivy_like.grad(f3, argnames="z")(*args, **kwargs)
    assert pos is None and list(kw) == ["z"]
    close(kw["z"], [10, 12])
    pos, kw = ivy_like.grad(f3, argnums=0, argnames=["w", "z"])(*args, **kwargs)
    close(pos, [3, 4])
    assert list(kw) == ["z", "w"]  # the call's keyword order, as MLX
    close(kw["w"], [3, 3])
    pos, kw = ivy_like.grad(f3, argnums=[0, 1], argnames=["z", "z"])(*args, **kwargs)
    assert isinstance(pos, tuple) and len(pos) == 2 and list(kw) == ["z"]


@pytest.mark.parametrize(
    ("argnums", "argnames", "message"),
    [
        (-1, (), "negative index -1"),
        ([0, 0], (), "index 0 is repeated"),
        ([], (), "no argument requested"),
    ],
)
def test_argnums_errors_when_built(argnums, argnames, message):
    with pytest.raises(ValueError, match=message):
        ivy_like.grad(f3, argnums=argnums, argnames=argnames)
    with pytest.raises(ValueError, match=message):
        ivy_like.value_and_grad(f3, argnums=argnums, argnames=argnames)


@pytest.mark.parametrize(
    ("argnums", "argnames"), [("0", ()), (1.0, ()), (True, ()), (0, 3), (0, ["z", 1])]
)
def test_argnums_argnames_types(argnums, argnames):
    with pytest.raises(TypeError, match="argnums|argnames"):
        ivy_like.grad(f3, argnums=argnums, argnames=argnames)


def test_call_errors_name_the_argument(ad):
    args, kwargs = args3(ad)
    with pytest.raises(ValueError, match="argnums: .*argument 2 .*only 2 positional"):
        ivy_like.grad(f3, argnums=2)(*args, **kwargs)
    with pytest.raises(ValueError, match="argnames: .*'q'"):
        ivy_like.grad(f3, argnames="q")(*args, **kwargs)
    with pytest.raises(ValueError, match=r"scalar \(shape \(\)\), got shape \(2,\)"):
        ivy_like.grad(lambda x: x * x)(args[0])
    with pytest.raises(TypeError, match="positional argument 1 .*dtype int"):
        ivy_like.grad(f3, argnums=[0, 1])(args[0], ad.asarray(np.array([1, 2], np.int32)), **kwargs)
    with pytest.raises(TypeError, match="argument 'z' .*dtype int"):
        ivy_like.grad(f3, argnames="z")(*args, z=ad.asarray(np.array([1, 2], np.int32)), w=args[0])
    with pytest.raises(TypeError, match="contains a str"):
        ivy_like.grad(lambda p: ivy_like.sum(p["a"]))({"a": args[0], "b": "text"})
    with pytest.raises(TypeError, match="floating-point scalar"):
        ivy_like.grad(lambda x: ivy_like.astype(ivy_like.sum(x), "int32"))(args[0])
    with pytest.raises(ValueError, match="use ivy_like.value_and_grad"):
        ivy_like.grad(lambda x: (ivy_like.sum(x), x))(args[0])
    with pytest.raises(TypeError, match="callable"):
        ivy_like.grad(3)


def test_numpy_backend_raises_clear_error(no_ad):
    x = ivy_like.array([1.0, 2.0])
    square = lambda x: ivy_like.sum(x * x)  # noqa: E731
    calls = [
        lambda: ivy_like.grad(square)(x),
        lambda: ivy_like.value_and_grad(square)(x),
        lambda: ivy_like.jac(lambda x: x * x)(x),
        lambda: ivy_like.execute_with_gradients(square, {"x": x}),
        lambda: ivy_like.grad(square)(np.ones(2, np.float32)),  # neutral follows the active
    ]
    for call in calls:
        with pytest.raises(NoAutodiffError, match=f"{no_ad.name} backend has no automatic") as e:
            call()
        assert "jax, torch, tensorflow, mlx" in str(e.value)
        assert isinstance(e.value, NotImplementedError)


def test_mixed_frameworks_raise(ad, request):
    other = "jax" if ad.name != "jax" else "torch"
    require(request, other)
    theirs = ivy_like.get_backend(other).asarray(np.ones(2, np.float32))
    with pytest.raises(TypeError, match="two different frameworks"):
        ivy_like.grad(lambda a, b: ivy_like.sum(a), argnums=[0, 1])(native(ad, [1, 2]), theirs)


# -- structures and types -------------------------------------------------------------------------
def test_structures_and_types_round_trip(ad):
    x = native(ad, [1, 2])
    params = {"a": ivy_like.array([1.0, 2.0]), "b": [x, (x, ivy_like.array(3.0))]}

    def f(p):  # the function API takes native arrays and Arrays together on every backend
        a, (b0, (b1, c)) = p["a"], p["b"]
        return ivy_like.sum(ivy_like.multiply(a, b0)) + ivy_like.sum(ivy_like.multiply(b1, c**2))

    g = ivy_like.grad(f)(params)
    assert isinstance(g, dict) and isinstance(g["b"], list) and isinstance(g["b"][1], tuple)
    assert isinstance(g["a"], ivy_like.Array) and isinstance(g["b"][1][1], ivy_like.Array)
    assert kind_of(type(g["b"][0])) is ad
    close(g["a"], [1, 2])
    close(g["b"][0], [1, 2])
    close(g["b"][1][0], [9, 9])
    close(g["b"][1][1], 6 * 3.0)


def test_numpy_and_python_inputs_follow_the_backend(ad):
    g = ivy_like.grad(lambda x: ivy_like.sum(x * x))(np.array([1.0, 2.0], np.float32))
    assert kind_of(type(g)) is ad
    close(g, [2, 4])
    close(ivy_like.grad(lambda x: x * x)(3.0), 6.0)
    # a NumPy argument beside a native one takes the native one's backend
    g = ivy_like.grad(lambda x, y: ivy_like.sum(x * y))(np.ones(2, np.float32), native(ad, [5, 6]))
    assert kind_of(type(g)) is ad
    close(g, [5, 6])


def test_value_and_grad_aux_outputs(ad):
    x = ivy_like.array([1.0, 2.0])
    for wrap in (tuple, list):
        (value, grads) = ivy_like.value_and_grad(
            lambda x, wrap=wrap: wrap([ivy_like.sum(x * x), {"double": x * 2.0, "label": "aux"}])
        )(x)
        assert type(value) is wrap
        close(value[0], 5.0)
        assert value[1]["label"] == "aux" and isinstance(value[1]["double"], ivy_like.Array)
        close(value[1]["double"], [2, 4])
        close(grads, [2, 4])


def test_unconnected_gradients_are_zeros(ad):
    x, y = native(ad, [1, 2]), native(ad, [[1, 2], [3, 4]])
    gx, gy = ivy_like.grad(lambda x, y: ivy_like.sum(x * x), argnums=[0, 1])(x, y)
    close(gx, [2, 4])
    close(gy, np.zeros((2, 2)))
    assert tuple(ad.shape(gy)) == (2, 2)
    close(ivy_like.grad(lambda x: ivy_like.sum(x * 0.0) + 1.0)(x), [0, 0])


def test_repeated_argument_gets_its_own_gradient(ad):
    x = native(ad, [1, 2, 3])
    g0, g1 = ivy_like.grad(lambda a, b: ivy_like.sum((a * b) ** 2), argnums=[0, 1])(x, x)
    close(g0, [2, 16, 54])
    close(g1, [2, 16, 54])


# -- stop_gradient and variables --------------------------------------------------------------------
def test_stop_gradient_inside_fun(ad):
    x = native(ad, [1, 2, 3])
    close(ivy_like.grad(lambda x: ivy_like.sum(ivy_like.stop_gradient(x) * x))(x), [1, 2, 3])
    close(ivy_like.grad(lambda x: ivy_like.sum(x * x))(x), [2, 4, 6])


def test_preserve_type_output_is_a_differentiable_variable(ad):
    v = ivy_like.variable(native(ad, [1, 2]))
    cut = ivy_like.stop_gradient(v, preserve_type=True)
    if ad.name in ("torch", "tensorflow"):
        assert ivy_like.is_variable(cut)
    g = ivy_like.grad(lambda w: ivy_like.sum(w * w))(cut)
    close(g, [2, 4])
    if ad.name == "torch":
        assert cut.grad is None and cut.requires_grad and cut.is_leaf
    gv = ivy_like.grad(lambda w: ivy_like.sum(w * w * w))(v)
    close(gv, [3, 12])


def test_pure_no_hidden_state_and_inputs_untouched(ad):
    x = native(ad, [1, 2])
    before = npy(x).copy()
    g_square = ivy_like.grad(lambda x: ivy_like.sum(x * x))
    g_cube = ivy_like.grad(lambda x: ivy_like.sum(x * x * x))
    for _ in range(2):  # any order, any number of times
        close(g_cube(x), [3, 12])
        close(g_square(x), [2, 4])
    np.testing.assert_array_equal(npy(x), before)
    if ad.name == "torch":
        assert x.grad is None and not x.requires_grad


# -- higher order, Jacobians, execute_with_gradients --------------------------------------------------
def test_grad_of_grad(ad, request):
    xfail_nested_on_mxnet(request, ad)
    x = native(ad, 2.0)
    cube = lambda x: x * x * x  # noqa: E731
    close(ivy_like.grad(ivy_like.grad(cube))(x), 12.0)
    close(ivy_like.grad(ivy_like.grad(ivy_like.grad(cube)))(x), 6.0)

    def mixed(x, y):  # d2/dx dy of x^2 y^3 = 6 x y^2
        return x * x * y * y * y

    dxy = ivy_like.grad(lambda x, y: ivy_like.grad(mixed)(x, y), argnums=1)
    close(dxy(native(ad, 2.0), native(ad, 3.0)), 6 * 2.0 * 9.0)


def test_jac(ad):
    x_np = np.array([1.0, 2.0, 3.0], np.float32)
    m_np = np.arange(6, dtype=np.float32).reshape(2, 3)

    def f(x, m):
        return ivy_like.matmul(m, x * x)

    expected = on_jax(lambda: npy(ivy_like.jac(f)(ivy_like.asarray(x_np), ivy_like.asarray(m_np))))
    if expected is not None:
        np.testing.assert_allclose(expected, m_np * 2 * x_np, rtol=RTOL)
    j = ivy_like.jac(f)(ivy_like.asarray(x_np), ivy_like.asarray(m_np))
    assert isinstance(j, ivy_like.Array) and j.shape == (2, 3)
    agrees(j, m_np * 2 * x_np if expected is None else expected)
    jn = ivy_like.jac(lambda x: x * x)(native(ad, [[1, 2], [3, 4]]))
    assert kind_of(type(jn)) is ad and tuple(ad.shape(jn)) == (2, 2, 2, 2)
    close(jn, np.diag([2.0, 4, 6, 8]).reshape(2, 2, 2, 2))
    # A tree argument: the Jacobian has its structure, jax.jacrev's layout.
    jt = ivy_like.jac(lambda p: p["a"] * 3.0)({"a": native(ad, [1.0, 2.0])})
    assert set(jt) == {"a"}
    close(jt["a"], np.diag([3.0, 3.0]))
    with pytest.raises(TypeError, match="x must be an array or a tree of arrays"):
        ivy_like.jac(lambda p: p)("not an array")


def test_execute_with_gradients(ad, request):
    xfail_nested_on_mxnet(request, ad)  # the part with retain_grads below is nested
    xs = {"w": ivy_like.array([1.0, 2.0]), "b": native(ad, 0.5)}

    def func(p):
        return ivy_like.sum(p["w"] * p["w"]) + p["b"], p["w"] * 2.0

    (value, aux), grads = ivy_like.execute_with_gradients(func, xs)
    close(value, 5.5)
    close(aux, [2, 4])
    close(grads["w"], [2, 4])
    close(grads["b"], 1.0)
    assert isinstance(grads["w"], ivy_like.Array) and kind_of(type(grads["b"])) is ad

    # retain_grads=False cuts the returned value from an enclosing differentiation
    def outer(x, retain):
        value, _ = ivy_like.execute_with_gradients(lambda x: ivy_like.sum(x * x), x, retain)
        return value

    x = native(ad, [1, 2])
    close(ivy_like.grad(outer)(x, False), [0, 0])
    close(ivy_like.grad(outer)(x, True), [2, 4])


# -- a two-layer MLP: Containers / nested dicts, the same numbers on every backend -----------------
def mlp_problem():
    rng = np.random.default_rng(0)
    params = {
        "layer1": {
            "w": rng.standard_normal((3, 5)).astype(np.float32),
            "b": np.zeros(5, np.float32),
        },
        "layer2": {
            "w": rng.standard_normal((5, 2)).astype(np.float32),
            "b": np.full(2, 0.1, np.float32),
        },
    }
    x = rng.standard_normal((8, 3)).astype(np.float32)
    y = rng.standard_normal((8, 2)).astype(np.float32)
    return params, x, y


def mlp_loss(params, x, y):
    h = ivy_like.tanh(ivy_like.matmul(x, params["layer1"]["w"]) + params["layer1"]["b"])
    out = ivy_like.matmul(h, params["layer2"]["w"]) + params["layer2"]["b"]
    return ivy_like.mean((out - y) ** 2)


def to_backend(tree, make):
    if isinstance(tree, dict):
        return {k: to_backend(v, make) for k, v in tree.items()}
    return make(tree)


def mlp_reference():
    """The loss and gradients in float64 NumPy, by hand (the exact numbers, to ~1e-15)."""
    p, x, y = mlp_problem()
    w1, b1 = p["layer1"]["w"].astype(np.float64), p["layer1"]["b"].astype(np.float64)
    w2, b2 = p["layer2"]["w"].astype(np.float64), p["layer2"]["b"].astype(np.float64)
    h = np.tanh(x @ w1 + b1)
    out = h @ w2 + b2
    d_out = 2.0 * (out - y) / out.size
    d_pre = (d_out @ w2.T) * (1.0 - h * h)
    grads = {
        "layer1": {"w": x.T @ d_pre, "b": d_pre.sum(0)},
        "layer2": {"w": h.T @ d_out, "b": d_out.sum(0)},
    }
    return np.mean((out - y) ** 2), grads


def mlp_grads(container: bool):
    params_np, x_np, y_np = mlp_problem()
    params = to_backend(params_np, ivy_like.asarray)
    if container:
        params = ivy_like.Container(params)
    value, grads = ivy_like.value_and_grad(mlp_loss)(
        params, ivy_like.asarray(x_np), ivy_like.asarray(y_np)
    )
    return value, grads


@pytest.mark.parametrize("container", [False, True], ids=["nested_dict", "container"])
def test_mlp_gradients_agree_across_backends(ad, container):
    """Every backend within 1e-6 (of each quantity's scale) of the exact float64 numbers, and
    so within 2e-6 of JAX's float32 result: two float32 results that are each 1e-6 from the
    truth can be 2e-6 apart (measured: mlx's layer-2 bias gradient is 1.07e-6 from JAX's
    while both are within 2e-7 of the truth)."""
    exact_value, exact = mlp_reference()
    ref_value, ref = on_jax(lambda: mlp_grads(False)) or (None, None)
    value, grads = mlp_grads(container)
    if container:
        assert isinstance(grads, ivy_like.Container)
        assert kind_of(type(grads)) == "container", "Container not registered as a special kind"
    else:
        assert type(grads) is dict
    agrees(value, exact_value)
    if ref is not None:
        agrees(value, ref_value, 2 * RTOL)
    for layer in ("layer1", "layer2"):
        for name in ("w", "b"):
            leaf = grads[layer][name]
            assert isinstance(leaf, ivy_like.Array) and leaf.backend is ad
            agrees(leaf, exact[layer][name])
            if ref is not None:
                agrees(leaf, ref[layer][name], 2 * RTOL)


# -- tracing compilers ------------------------------------------------------------------------------
def square_sum(x):
    return ivy_like.sum(x * x)


def test_jax_jit_of_grad(request):
    require(request, "jax")
    import jax
    import jax.numpy as jnp

    x = jnp.arange(4.0)
    compiled = jax.jit(ivy_like.grad(square_sum))
    close(compiled(x), [0, 2, 4, 6])
    close(compiled(x + 1), [2, 4, 6, 8])
    vg = jax.jit(ivy_like.value_and_grad(square_sum))
    value, g = vg(x)
    close(value, 14.0)
    close(jax.jit(ivy_like.grad(ivy_like.grad(lambda x: x * x * x)))(jnp.float32(2.0)), 12.0)


def test_tf_function_of_grad(request):
    require(request, "tensorflow")
    import tensorflow as tf

    compiled = tf.function(ivy_like.grad(square_sum))
    x = tf.constant([0.0, 1.0, 2.0, 3.0])
    close(compiled(x), [0, 2, 4, 6])
    close(compiled(x + 1), [2, 4, 6, 8])
    nested = tf.function(ivy_like.grad(ivy_like.grad(lambda x: x * x * x)))
    close(nested(tf.constant(2.0)), 12.0)


@pytest.mark.skipif(
    shutil.which(os.environ.get("CXX", "g++")) is None and shutil.which("c++") is None,
    reason="torch.compile's inductor needs a C++ compiler",
)
def test_torch_compile_of_grad(request):
    require(request, "torch")
    import torch

    compiled = torch.compile(ivy_like.grad(square_sum))
    x = torch.arange(4.0)
    close(compiled(x), [0, 2, 4, 6])
    close(compiled(x + 1), [2, 4, 6, 8])
    assert x.grad is None and not x.requires_grad


@pytest.mark.parametrize("index", [[0, 4, 5], [-1, 2]])
def test_gradient_of_take_from_a_concatenation(ad, index):
    # TensorFlow's concat gradient takes the axis modulo an int32 rank when the incoming
    # gradient is sparse (take's): an int64 axis there failed with a FloorMod dtype error.
    x = np.arange(6, dtype=np.float32).reshape(3, 2)

    def loss(x):
        joined = ivy_like.concat([x, x * 2], axis=0)
        return ivy_like.sum(
            ivy_like.take(joined, ad.asarray(np.asarray(index, np.int32)), axis=0) ** 2
        )

    rows = np.concatenate([x, 2 * x])[index]
    scale = np.asarray([1.0 if i % 6 < 3 else 2.0 for i in index], np.float32)[:, None]
    expected = np.zeros_like(x)
    np.add.at(expected, [i % 6 % 3 for i in index], 2 * rows * scale)
    close(ivy_like.grad(loss)(native(ad, x)), expected)


# -- the fast path of the arguments -------------------------------------------------------------
# transforms.grad._prepare_arrays flattens arguments made only of floating arrays of one backend
# without owner paths; anything else must still reach the walk, which converts it or raises the
# error naming the leaf.
@pytest.mark.requires("autodiff")
def test_integer_leaves_are_still_refused_once_floats_are_cached(backend):
    b = backend
    f = ivy_like.grad(lambda p: ivy_like.sum(p["w"] * 2.0))
    params = Container(w=b.asarray(np.ones(3, np.float32)))
    f(params)  # fills the float-dtype table the fast path reads
    bad = Container(w=b.asarray(np.ones(3, np.float32)), n=b.asarray(np.ones(2, np.int32)))
    with pytest.raises(TypeError, match=r"\['n'\] has dtype int32"):
        ivy_like.grad(lambda p: ivy_like.sum(p["w"]))(bad)


@pytest.mark.requires("autodiff")
def test_numpy_leaves_beside_native_ones_are_still_converted(backend):
    b = backend
    f = ivy_like.grad(lambda p: ivy_like.sum(p["w"] * p["v"]))
    params = Container(w=b.asarray(np.ones(3, np.float32)), v=np.full(3, 2.0, np.float32))
    g = f(params)
    np.testing.assert_allclose(np.asarray(ivy_like.to_numpy(g["w"])), [2.0, 2.0, 2.0])


@pytest.mark.requires("autodiff")
def test_arrays_of_two_frameworks_are_still_an_error(backend):
    b = backend
    other = next(
        (n for n in ("jax", "torch") if n != b.name and n in ivy_like.available_backends()), None
    )
    if other is None:
        pytest.skip("needs a second framework")
    mixed = Container(a=b.asarray(np.ones(2, np.float32)))
    mixed["b"] = ivy_like.get_backend(other).asarray(np.ones(2, np.float32))
    with pytest.raises(TypeError, match="two different frameworks"):
        ivy_like.grad(lambda p: ivy_like.sum(p["a"]))(mixed)

"""The function transforms on every autodiff backend, against float64 references.

Each result is compared with a closed-form float64 NumPy reference (the same numbers
``jax`` gives in x64 mode) within float32 tolerance, for Arrays and for native arrays, alone and
composed: per-example gradients ``vmap(grad(f))``, ``grad(vmap(f))``,
``compile(value_and_grad(f))``, ``checkpoint`` inside ``grad``, Hessian-vector products
``jvp(grad(f))``, and ``custom_function`` under all of them.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import ivy_like

AUTODIFF = [n for n in ("jax", "torch", "tensorflow", "mlx") if importlib.util.find_spec(n)]
RNG = np.random.default_rng(7)
A = RNG.normal(size=3)
B = RNG.normal(size=3)
M = RNG.normal(size=(4, 3))
TOL = {"rtol": 2e-5, "atol": 2e-6}


def _arr(name, value):
    return ivy_like.asarray(ivy_like.get_backend(name).asarray(np.asarray(value, np.float32)))


def _np(x):
    return np.asarray(x.to_numpy() if isinstance(x, ivy_like.Array) else ivy_like.to_numpy(x))


def _close(got, want):
    np.testing.assert_allclose(_np(got), want, **TOL)


def _f(a, b):
    return [ivy_like.sin(a) * b, ivy_like.sum(a * b)]


@pytest.mark.parametrize("name", AUTODIFF)
def test_vjp(name):
    a, b = _arr(name, A), _arr(name, B)
    c1, c0 = RNG.normal(size=3), 0.7
    outs, vjps = ivy_like.vjp(_f, [a, b], [_arr(name, c1), _arr(name, c0)])
    assert type(outs) is list and type(vjps) is list and len(vjps) == 2
    _close(outs[0], np.sin(A) * B)
    _close(outs[1], np.sum(A * B))
    _close(vjps[0], c1 * np.cos(A) * B + c0 * B)
    _close(vjps[1], c1 * np.sin(A) + c0 * A)
    assert all(type(v) is ivy_like.Array for v in outs + vjps)


@pytest.mark.parametrize("name", AUTODIFF)
def test_jvp(name):
    a, b = _arr(name, A), _arr(name, B)
    ta, tb = RNG.normal(size=3), RNG.normal(size=3)
    outs, jvps = ivy_like.jvp(_f, [a, b], [_arr(name, ta), _arr(name, tb)])
    _close(outs[0], np.sin(A) * B)
    _close(jvps[0], np.cos(A) * ta * B + np.sin(A) * tb)
    _close(jvps[1], np.sum(ta * B + A * tb))


@pytest.mark.parametrize("name", AUTODIFF)
def test_native_arrays_in_native_arrays_out(name):
    b = ivy_like.get_backend(name)
    a = b.asarray(A.astype(np.float32))
    outs, vjps = ivy_like.vjp(lambda x: x * x, [a], [b.asarray(np.ones(3, np.float32))])
    assert ivy_like.backend_of(vjps[0]) == name and not isinstance(vjps[0], ivy_like.Array)
    _close(vjps[0], 2 * A)


@pytest.mark.parametrize("name", AUTODIFF + ["numpy"])
def test_vmap_axes(name):
    m, s = _arr(name, M), _arr(name, 2.5)
    got = ivy_like.vmap(lambda r, k: r * k + ivy_like.sum(r), in_axes=(0, None))(m, s)
    _close(got, M * 2.5 + M.sum(axis=1, keepdims=True))
    got = ivy_like.vmap(lambda r: r * 2, in_axes=1, out_axes=1)(m)
    _close(got, M * 2)
    got = ivy_like.vmap(lambda r: ivy_like.sum(r), in_axes=1)(m)
    _close(got, M.sum(axis=0))
    # A tree: in_axes as a prefix, a Container out.
    c = ivy_like.Container(a=m, b=m)
    out = ivy_like.vmap(lambda t: ivy_like.Container(p=t["a"] * t["b"]))(c)
    assert type(out) is ivy_like.Container
    _close(out["p"], M * M)
    pair = ivy_like.vmap(lambda t, k: t[0] + t[1] * k, in_axes=([0, 1], None))(
        [m, _arr(name, M.T)], s
    )
    _close(pair, M + M * 2.5)


@pytest.mark.parametrize("name", AUTODIFF)
def test_per_example_gradients_and_grad_of_vmap(name):
    w, xs = _arr(name, A), _arr(name, M)

    def loss(w, x):
        return ivy_like.sum((w * x) ** 2)

    per_example = ivy_like.vmap(ivy_like.grad(loss), in_axes=(None, 0))(w, xs)
    _close(per_example, 2 * A * M**2)
    total = ivy_like.grad(lambda w: ivy_like.sum(ivy_like.vmap(loss, in_axes=(None, 0))(w, xs)))(w)
    _close(total, (2 * A * M**2).sum(axis=0))


@pytest.mark.parametrize("name", AUTODIFF)
def test_compile_value_and_grad(name):
    w, xs = _arr(name, A), _arr(name, M)
    traces = []

    def loss(w, x, scale):
        traces.append(1)
        return ivy_like.mean(ivy_like.sin(x * w)) * scale

    step = ivy_like.compile(ivy_like.value_and_grad(loss))
    for _ in range(3):
        value, g = step(w, xs, 2.0)
    _close(value, np.mean(np.sin(M * A)) * 2.0)
    _close(g, 2.0 * (np.cos(M * A) * M).sum(axis=0) / M.size)
    assert type(value) is ivy_like.Array and type(g) is ivy_like.Array
    assert len(traces) == 1, f"traced {len(traces)} times for three calls of one shape"


@pytest.mark.parametrize("name", AUTODIFF)
def test_checkpoint_inside_grad(name):
    a = _arr(name, A)

    def block(x):
        return ivy_like.sin(x) * ivy_like.exp(x)

    g = ivy_like.grad(lambda x: ivy_like.sum(ivy_like.checkpoint(block)(x)))(a)
    _close(g, np.cos(A) * np.exp(A) + np.sin(A) * np.exp(A))


@pytest.mark.parametrize("name", AUTODIFF)
def test_hessian_vector_products_and_hessian(name):
    a, v = _arr(name, A), _arr(name, B)
    _, hvp = ivy_like.jvp(ivy_like.grad(lambda x: ivy_like.sum(x**3)), [a], [v])
    _close(hvp[0], 6 * A * B)
    h = ivy_like.hessian(lambda x: ivy_like.sum(x**3))(a)
    _close(h, np.diag(6 * A))
    (haa, hab), (hba, hbb) = ivy_like.hessian(lambda x, y: ivy_like.sum(x**2 * y), argnums=(0, 1))(
        a, _arr(name, B)
    )
    _close(haa, np.diag(2 * B))
    _close(hab, np.diag(2 * A))
    _close(hba, np.diag(2 * A))
    _close(hbb, np.zeros((3, 3)))


@pytest.mark.parametrize("name", AUTODIFF)
def test_jac_of_trees(name):
    c = ivy_like.Container(a=_arr(name, A), b=_arr(name, B))
    j = ivy_like.jac(lambda p: p["a"] * p["b"])(c)
    assert type(j) is ivy_like.Container
    _close(j["a"], np.diag(B))
    _close(j["b"], np.diag(A))


def _doubling(name_rules):
    @ivy_like.custom_function
    def double(x):
        return x * 2

    if "vjp" in name_rules:

        @double.vjp
        def _(primals, cotangent, output):
            return cotangent * 0.1

    if "jvp" in name_rules:

        @double.jvp
        def _(primals, tangents):
            return tangents[0] * 0.1

    if "vmap" in name_rules:

        @double.vmap
        def _(inputs, axes):
            return inputs[0] * 3, axes[0]

    return double


@pytest.mark.parametrize("name", AUTODIFF)
def test_custom_function_rules(name):
    a, m = _arr(name, A), _arr(name, M)
    double = _doubling({"vjp"})
    _close(double(a), 2 * A)
    _close(ivy_like.grad(lambda x: ivy_like.sum(double(x)))(a), np.full(3, 0.1))
    _close(ivy_like.vjp(double, [a], [_arr(name, np.ones(3))])[1][0], np.full(3, 0.1))
    _close(ivy_like.compile(ivy_like.grad(lambda x: ivy_like.sum(double(x))))(a), np.full(3, 0.1))
    per_example = ivy_like.vmap(ivy_like.grad(lambda r: ivy_like.sum(double(r))))(m)
    _close(per_example, np.full((4, 3), 0.1))
    forward = _doubling({"jvp"})
    _close(ivy_like.jvp(forward, [a], [_arr(name, np.ones(3))])[1][0], np.full(3, 0.1))
    batched = _doubling({"vmap"})
    _close(ivy_like.vmap(batched)(m), 3 * M)


@pytest.mark.parametrize("name", AUTODIFF + ["numpy"])
def test_bad_input_is_a_value_error_before_any_work(name):
    m = _arr(name, M)
    calls = []

    def f(*args):
        calls.append(1)
        return args[0]

    with pytest.raises(ValueError, match="in_axes has 1 entries"):
        ivy_like.vmap(f, in_axes=(0,))(m, m)
    with pytest.raises(ValueError, match="in_axes 2 is out of range for argument 0"):
        ivy_like.vmap(f, in_axes=2)(m)
    with pytest.raises(ValueError, match="different sizes: argument 0 has 4, argument 1 has 3"):
        ivy_like.vmap(f, in_axes=(0, 1))(m, _arr(name, np.ones((4, 3))))
    with pytest.raises(ValueError, match=r"in_axes\[0\] is a dict but the value there is a leaf"):
        ivy_like.vmap(f, in_axes=({"a": 0},))(m)
    assert calls == []
    if name == "numpy":
        with pytest.raises(ivy_like.NoAutodiffError):
            ivy_like.vjp(f, [m], [m])
        with pytest.raises(ivy_like.NoAutodiffError):
            ivy_like.jvp(f, [m], [m])
        with pytest.raises(ivy_like.NoAutodiffError):
            ivy_like.hessian(lambda x: ivy_like.sum(x))(m)
        return
    with pytest.raises(ValueError, match="tangents has 2 entries but there are 1 primals"):
        ivy_like.jvp(f, [m], [m, m])
    with pytest.raises(ValueError, match=r"tangents\[0\] has shape \(3,\)"):
        ivy_like.jvp(f, [m], [_arr(name, A)])
    assert calls == []
    with pytest.raises(ValueError, match=r"cotangents\[0\] has shape \(3,\), the output has"):
        ivy_like.vjp(f, [m], [_arr(name, A)])
    with pytest.raises(ValueError, match="cotangents has 2 entries but fun has 1 output"):
        ivy_like.vjp(f, [m], [m, m])


@pytest.mark.parametrize("name", AUTODIFF)
def test_compiled_per_example_gradients_example(name):
    """examples/per_example_gradients.py, the example of docs/transforms.md."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
    try:
        import per_example_gradients as example
    finally:
        sys.path.pop(0)
    out = example.run(name)
    np.testing.assert_allclose(out["per_example"], example.closed_form(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(out["mean"], out["per_example"].mean(axis=0), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", AUTODIFF)
def test_vmap_unmapped_outputs(name):
    m, s = _arr(name, M), _arr(name, A)
    mapped, unmapped = ivy_like.vmap(
        lambda r, k: (r * k, ivy_like.sin(k)), in_axes=(0, None), out_axes=(0, None)
    )(m, s)
    _close(mapped, M * A)
    _close(unmapped, np.sin(A))  # unbatched: shape (3,), not (4, 3)
    with pytest.raises(ValueError):  # the message is the framework's
        ivy_like.vmap(lambda r: (r * 2, ivy_like.sum(r)), out_axes=(0, None))(m)


@pytest.mark.parametrize("name", AUTODIFF)
def test_checkpoint_under_vmap(name):
    # mx.checkpoint alone fails the first (MLX cannot vmap its Depends node).
    m = _arr(name, M)

    def block(x):
        return ivy_like.sin(x) * x

    want = np.cos(M) * M + np.sin(M)
    per_example = ivy_like.vmap(
        ivy_like.grad(lambda r: ivy_like.sum(ivy_like.checkpoint(block)(r)))
    )
    _close(per_example(m), want)
    _close(
        ivy_like.grad(lambda x: ivy_like.sum(ivy_like.vmap(ivy_like.checkpoint(block))(x)))(m), want
    )


def _pair(rule):
    # One rule per function: with both vjp and jvp JAX transposes the jvp rule for reverse
    # mode while MLX uses the vjp rule, so only one rule per test gives one answer everywhere.
    @ivy_like.custom_function
    def f(x, y):
        return [x * y, x + y]

    if rule == "vjp":

        @f.vjp
        def _(primals, cotangents, outputs):
            x, y = primals
            return cotangents[0] * y * 10 + cotangents[1], cotangents[0] * x + cotangents[1] * 100

    elif rule == "jvp":

        @f.jvp
        def _(primals, tangents):
            x, y = primals
            tx, ty = tangents
            return [tx * y + x * ty, (tx + ty) * 7]

    else:

        @f.vmap
        def _(inputs, axes):
            x, y = inputs
            return [x * y, ivy_like.sum(y) + ivy_like.zeros(())], [0, None]

    return f


@pytest.mark.parametrize("name", AUTODIFF)
def test_custom_function_two_arguments_two_outputs(name):
    a, b = _arr(name, A), _arr(name, B)
    f = _pair("vjp")

    def loss(x, y):
        p, q = f(x, y)
        return ivy_like.sum(p + q)

    _close(ivy_like.grad(loss)(a, b), 10 * B + 1)
    _close(ivy_like.grad(loss, argnums=1)(a, b), A + 100)
    # y closed over: the rule sees a zero tangent for it.
    g = _pair("jvp")
    _, tangents = ivy_like.jvp(lambda x: g(x, b), [a], [_arr(name, np.ones(3))])
    _close(tangents[0], B)
    _close(tangents[1], np.full(3, 7.0))
    # The rule's unmapped output is broadcast over the batch.
    prod, total = ivy_like.vmap(_pair("vmap"), in_axes=(0, None))(_arr(name, M), b)
    _close(prod, M * B)
    _close(total, np.full(4, B.sum()))


def test_complex_vjp_is_mlx_own():
    mx = pytest.importorskip("mlx.core")
    z = mx.array([1 + 2j, 3 - 1j], dtype=mx.complex64)
    c = mx.array([0.5 - 1j, 2 + 1j], dtype=mx.complex64)
    fun = lambda a: a * a * mx.conj(a)  # noqa: E731
    want_out, want_vjp = mx.vjp(fun, [z], [c])
    outs, vjps = ivy_like.vjp(fun, [z], [c])
    np.testing.assert_allclose(np.array(outs[0]), np.array(want_out[0]), rtol=1e-6)
    np.testing.assert_allclose(np.array(vjps[0]), np.array(want_vjp[0]), rtol=1e-6)


# -- plain native inputs, every transform, against a loop ----------------------------------------
# A user passes NumPy arrays (numpy backend), jax/torch/tf/mlx arrays, never an ivy_like.Array:
# each transform must give what a Python loop over the examples gives, native in and native out.
# (NumPy arrays are neutral, served by the active backend: a mapped function's NumPy result was
# once taken for a constant, and vmap returned the last example's result.)
NATIVE = ["numpy", *AUTODIFF, *(["mxnet"] if importlib.util.find_spec("mxnet") else [])]
BATCH = RNG.normal(size=(3, 4))


def _native(name, value):
    return ivy_like.get_backend(name).asarray(np.asarray(value, np.float32))


def _per_example(x):
    return ivy_like.sum(ivy_like.sin(x) * x)  # a scalar per example


def _elementwise(x):
    return ivy_like.sin(x) * 2.0  # an array per example


def _check_native(name, got, want):
    assert not isinstance(got, ivy_like.Array), f"{name}: an Array came back for native input"
    assert ivy_like.backend_of(got).name == name
    np.testing.assert_allclose(np.asarray(ivy_like.to_numpy(got)), np.asarray(want), **TOL)


def _loop(name, f, batch):
    return np.stack([np.asarray(ivy_like.to_numpy(f(_native(name, row)))) for row in batch])


LOOPED = {
    "vmap": lambda f: ivy_like.vmap(f),
    "vmap(compile)": lambda f: ivy_like.vmap(ivy_like.compile(f)),
    "compile(vmap)": lambda f: ivy_like.compile(ivy_like.vmap(f)),
    "vmap(checkpoint)": lambda f: ivy_like.vmap(ivy_like.checkpoint(f)),
    "vmap(custom_function)": lambda f: ivy_like.vmap(ivy_like.custom_function(f)),
}


@pytest.mark.parametrize("transform", list(LOOPED))
@pytest.mark.parametrize("f", [_per_example, _elementwise], ids=["scalar", "array"])
@pytest.mark.parametrize("name", NATIVE)
def test_vmap_of_native_inputs_equals_a_loop(name, f, transform):
    mapped = LOOPED[transform](f)
    _check_native(name, mapped(_native(name, BATCH)), _loop(name, f, BATCH))


@pytest.mark.parametrize("name", NATIVE)
def test_nested_vmap_of_native_inputs_equals_a_double_loop(name):
    cube = RNG.normal(size=(2, 3, 4))
    want = np.stack([_loop(name, _per_example, plane) for plane in cube])
    _check_native(name, ivy_like.vmap(ivy_like.vmap(_per_example))(_native(name, cube)), want)


@pytest.mark.parametrize("name", NATIVE)
def test_compile_checkpoint_custom_function_of_native_inputs(name):
    compiled = ivy_like.compile(_elementwise)
    for fun in (
        compiled,
        ivy_like.checkpoint(_elementwise),
        ivy_like.custom_function(_elementwise),
    ):
        for row in BATCH:  # new values each call: nothing of an earlier call comes back
            _check_native(name, fun(_native(name, row)), 2 * np.sin(row))


@pytest.mark.parametrize("name", [n for n in NATIVE if ivy_like.get_backend(n).has_autodiff])
def test_reverse_derivatives_of_native_inputs_equal_a_loop(name):
    x = _native(name, BATCH)
    grads = _loop(name, ivy_like.grad(_per_example), BATCH)
    np.testing.assert_allclose(grads, np.sin(BATCH) + BATCH * np.cos(BATCH), **TOL)
    _check_native(name, ivy_like.vmap(ivy_like.grad(_per_example))(x), grads)
    summed = ivy_like.grad(lambda b: ivy_like.sum(ivy_like.vmap(_per_example)(b)))(x)
    _check_native(name, summed, grads)
    _, vjps = ivy_like.vjp(ivy_like.vmap(_per_example), [x], [_native(name, np.ones(3))])
    _check_native(name, vjps[0], grads)
    row = BATCH[0]
    _check_native(name, ivy_like.jac(_elementwise)(_native(name, row)), np.diag(2 * np.cos(row)))


# MXNet's autograd is reverse mode only, with second derivatives for too few operators: its
# backend refuses jvp (and so hessian, a jvp of a gradient here) with NotImplementedError.
FORWARD_MODE = [n for n in NATIVE if n in AUTODIFF]


@pytest.mark.parametrize("name", FORWARD_MODE)
def test_forward_and_second_derivatives_of_native_inputs_equal_a_loop(name):
    x = _native(name, BATCH)
    _, jvps = ivy_like.jvp(ivy_like.vmap(_per_example), [x], [_native(name, np.ones((3, 4)))])
    _check_native(name, jvps[0], (np.sin(BATCH) + BATCH * np.cos(BATCH)).sum(axis=1))
    row = BATCH[0]
    hess = ivy_like.hessian(_per_example)(_native(name, row))
    _check_native(name, hess, np.diag(2 * np.cos(row) - row * np.sin(row)))
    per_example_hessians = ivy_like.vmap(ivy_like.hessian(_per_example))(x)
    _check_native(name, per_example_hessians, _loop(name, ivy_like.hessian(_per_example), BATCH))


@pytest.mark.skipif(importlib.util.find_spec("mxnet") is None, reason="MXNet's environment")
def test_forward_mode_of_native_inputs_is_refused_on_mxnet():
    x = _native("mxnet", BATCH)
    with pytest.raises(NotImplementedError, match="mxnet backend"):
        ivy_like.jvp(ivy_like.vmap(_per_example), [x], [_native("mxnet", np.ones((3, 4)))])


# -- custom functions: every set of rules, first and second derivatives ---------------------------
# f(x) = x sin x with rules that are f's true derivatives, so every derivative equals the closed
# form whatever the rules: f' = sin x + x cos x, f'' = 2 cos x - x sin x. A missing rule falls
# back to differentiating the function (MLX's behaviour).
RULE_SETS = ["", "vmap", "jvp", "vjp", "vmap+jvp", "vmap+vjp", "jvp+vjp", "vmap+jvp+vjp"]
X = np.array([0.5, 1.0, -2.0])


def _x_sin_x(rules):
    @ivy_like.custom_function
    def f(x):
        return ivy_like.sin(x) * x

    def slope(x):
        return ivy_like.cos(x) * x + ivy_like.sin(x)

    if "vjp" in rules:
        f.vjp(lambda primals, cotangent, output: [slope(primals[0]) * cotangent])
    if "jvp" in rules:
        f.jvp(lambda primals, tangents: [slope(primals[0]) * tangents[0]])
    if "vmap" in rules:
        f.vmap(lambda inputs, axes: (ivy_like.sin(inputs[0]) * inputs[0], axes[0]))
    return f


def _derivative(kind, f, x, ones):
    def total(y):
        return ivy_like.sum(f(y))

    if kind == "jvp":
        return ivy_like.jvp(f, [x], [ones])[1][0]
    if kind == "grad":
        return ivy_like.grad(total)(x)
    if kind == "grad of grad":
        return ivy_like.grad(lambda y: ivy_like.sum(ivy_like.grad(total)(y)))(x)
    if kind == "jvp of grad":
        return ivy_like.jvp(ivy_like.grad(total), [x], [ones])[1][0]
    if kind == "jvp of jvp":
        return ivy_like.jvp(lambda y: ivy_like.jvp(f, [y], [ones])[1][0], [x], [ones])[1][0]
    return ivy_like.vmap(ivy_like.grad(total))(ivy_like.reshape(x, (3, 1)))[:, 0]


DERIVATIVES = {
    "jvp": np.sin(X) + X * np.cos(X),
    "grad": np.sin(X) + X * np.cos(X),
    "grad of grad": 2 * np.cos(X) - X * np.sin(X),
    "jvp of grad": 2 * np.cos(X) - X * np.sin(X),
    "jvp of jvp": 2 * np.cos(X) - X * np.sin(X),
    "vmap of grad": np.sin(X) + X * np.cos(X),
}


def _forward_mode_of_a_vjp_rule(name, rules, kind):
    # JAX allows one custom derivative per function: with only a vjp rule it is a custom_vjp,
    # and JAX refuses forward mode through it with a TypeError (docs/transforms.md).
    forward = kind in ("jvp", "jvp of jvp")
    return name == "jax" and "vjp" in rules and "jvp" not in rules and forward


def _forward_over_forward_on_torch(name, rules, kind):
    # torch runs an autograd.Function's jvp outside an outer forward level: a TypeError, not
    # the zero torch would give (ivy_like/backends/torch/transforms.py). Without rules there
    # is no autograd.Function: f's own derivatives.
    return name == "torch" and bool(rules) and kind == "jvp of jvp"


@pytest.mark.parametrize("kind", list(DERIVATIVES))
@pytest.mark.parametrize("rules", RULE_SETS, ids=[r or "no-rules" for r in RULE_SETS])
@pytest.mark.parametrize("name", AUTODIFF)
def test_custom_function_derivatives_of_every_order(name, rules, kind):
    f, x, ones = _x_sin_x(rules), _arr(name, X), _arr(name, np.ones(3))
    if _forward_mode_of_a_vjp_rule(name, rules, kind) and kind == "jvp of jvp":
        # JAX's own error from its nested forward pass (custom_lin has no rule), not a zero.
        with pytest.raises(NotImplementedError, match="custom_lin"):
            _derivative(kind, f, x, ones)
        return
    if _forward_mode_of_a_vjp_rule(name, rules, kind) or _forward_over_forward_on_torch(
        name, rules, kind
    ):
        with pytest.raises(TypeError, match="forward-mode"):
            _derivative(kind, f, x, ones)
        return
    _close(_derivative(kind, f, x, ones), DERIVATIVES[kind])
    _close(ivy_like.vmap(f)(x), np.sin(X) * X)


@pytest.mark.parametrize("name", AUTODIFF)
def test_jvp_of_jvp_through_checkpoint(name):
    # torch ran the checkpoint's jvp outside the outer forward level: the second derivative
    # was silently 0. Under forward mode a checkpoint now calls its function (nothing to save).
    f = ivy_like.checkpoint(lambda y: ivy_like.sin(y) * y)
    x, ones = _arr(name, X), _arr(name, np.ones(3))
    second = ivy_like.jvp(lambda y: ivy_like.jvp(f, [y], [ones])[1][0], [x], [ones])[1][0]
    _close(second, 2 * np.cos(X) - X * np.sin(X))

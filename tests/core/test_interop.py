"""An Array is its framework's array: the frameworks' own protocols.

See ``ivy_like/core/interop.py`` and ``docs/interop.md``. The gradient matrix over every route
is in ``tests/transforms/test_gradient_routes.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

import ivy_like

BACKENDS = ivy_like.available_backends()


def _array(name, values=(1.0, 2.0, 3.0)):
    return ivy_like.asarray(ivy_like.get_backend(name).asarray(np.asarray(values, np.float32)))


# -- asarray keeps a framework's array on its framework ----------------------------------------
@pytest.mark.parametrize("name", [b for b in BACKENDS if b != "numpy"])
def test_asarray_of_a_native_array_keeps_its_framework(name):
    native = ivy_like.get_backend(name).asarray(np.ones(2, np.float32))
    with ivy_like.use_backend("numpy"):
        assert ivy_like.asarray(native).backend == name  # was: a NumPy Array
        assert ivy_like.asarray(ivy_like.asarray(native), dtype="int32").backend == name
        assert ivy_like.asarray(np.ones(2)).backend == "numpy"  # neutral data: the active one
    with ivy_like.use_backend(name):
        assert ivy_like.asarray([1.0, 2.0]).backend == name


# -- NumPy functions on Arrays ---------------------------------------------------------------------
@pytest.mark.parametrize("name", BACKENDS)
def test_numpy_functions_take_arrays(name):
    x = _array(name, [[1.0, 2.0], [3.0, 5.0]])
    ref = np.array([[1.0, 2.0], [3.0, 5.0]], np.float32)
    # np.mean called Array.mean(axis=, dtype=, out=): "unexpected keyword argument 'dtype'"
    np.testing.assert_allclose(np.mean(x, axis=0, dtype=np.float64), np.mean(ref, axis=0))
    np.testing.assert_allclose(np.std(x), np.std(ref), rtol=1e-6)
    np.testing.assert_allclose(np.var(x, ddof=1), np.var(ref, ddof=1), rtol=1e-6)
    assert np.squeeze(_array(name, [[4.0]])).shape == ()
    assert type(np.asarray(_array(name, 2.0))) is np.ndarray  # 0-d: an ndarray, not a scalar


# -- torch -------------------------------------------------------------------------------------------
def test_torch_functions_take_and_give_arrays():
    torch = pytest.importorskip("torch")
    x = _array("torch")
    for out in (
        torch.sin(x),
        torch.nn.functional.relu(x),
        torch.stack([x, x])[0],
        torch.ones(3) + x,  # a tensor on the left: Tensor.__add__ dispatches to the Array
        torch.where(x > 1, x, torch.zeros(3)),
    ):
        assert type(out) is ivy_like.Array and out.backend == "torch"
    np.testing.assert_allclose(torch.sin(x).to_numpy(), np.sin([1.0, 2.0, 3.0]), rtol=1e-6)
    values, indices = torch.max(_array("torch", [[1.0, 4.0], [3.0, 2.0]]), dim=1)  # a structseq
    assert type(values) is ivy_like.Array and indices.to_numpy().tolist() == [1, 0]
    # The conversions (DLPack) give the values; a tensor taking part in a gradient is refused
    # rather than handed over cut from it.
    assert type(torch.as_tensor(x)) is torch.Tensor and torch.as_tensor(x).tolist() == [1, 2, 3]
    with pytest.raises(TypeError, match="would cut that gradient"):
        ivy_like.grad(lambda a: ivy_like.sum(torch.as_tensor(a) * a))(x)
    t = torch.ones(2, requires_grad=True)
    with pytest.raises(TypeError, match="would cut that gradient"):
        torch.as_tensor(ivy_like.asarray(t * 2))
    assert torch.as_tensor(ivy_like.asarray(t)).requires_grad is False  # a parameter's values


def test_torch_values_read_inside_torch_func_grad():
    """float(), bool() and to_numpy() of an Array inside torch.func.grad read the values, as
    float() of a tensor does (was: "Cannot access data pointer of Tensor that doesn't have
    storage")."""
    torch = pytest.importorskip("torch")
    seen = []

    def f(t):
        a = ivy_like.asarray(t)
        seen.append((float(a.sum()), bool(a.sum() > 0), a.to_numpy().tolist(), repr(a)))
        return (a * a).sum().data

    g = torch.func.grad(f)(torch.tensor([1.0, 2.0]))
    assert seen == [(3.0, True, [1.0, 2.0], "ivy_like.array([1., 2.])")]
    assert g.tolist() == [2.0, 4.0]
    with pytest.raises(RuntimeError, match="inside a vmap transform"):
        torch.func.vmap(lambda t: ivy_like.asarray(t).to_numpy())(torch.ones(2, 3))


# -- jax ---------------------------------------------------------------------------------------------
def test_jax_transforms_take_and_give_arrays():
    jax = pytest.importorskip("jax")
    x = _array("jax")
    for out in (
        jax.jit(lambda a: a * 2)(x),
        jax.vmap(lambda a: a * 2)(x),
        jax.grad(lambda a: ivy_like.sum(a * a).data)(x),
        jax.checkpoint(lambda a: a * 2)(x),
    ):
        assert type(out) is ivy_like.Array and out.backend == "jax"
    np.testing.assert_allclose(
        jax.grad(lambda a: ivy_like.sum(a * a).data)(x).to_numpy(), [2, 4, 6]
    )
    c = jax.jit(lambda c: c * 2)(ivy_like.Container(a=x, b={"c": x}))
    assert type(c) is ivy_like.Container and type(c["b"]["c"]) is ivy_like.Array
    assert [jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_leaves_with_path(x)] == [".data"]

    @jax.custom_vjp
    def double(a):
        return a * 2

    double.defvjp(lambda a: (a * 2, None), lambda _, g: (g * 0.1,))
    g = jax.grad(lambda a: ivy_like.sum(double(a)).data)(x)
    np.testing.assert_allclose(g.to_numpy(), [0.1, 0.1, 0.1], rtol=1e-6)


def test_jax_numpy_refuses_an_array_with_its_own_type_error():
    """JAX 0.10 takes no foreign objects in jax.numpy (no __jax_array__): its TypeError, and the
    ivy_like function does the same thing."""
    jnp = pytest.importorskip("jax.numpy")
    x = _array("jax")
    with pytest.raises(TypeError):
        jnp.where(x > 1, x, 0)
    assert ivy_like.where(x > 1, x, 0.0).to_numpy().tolist() == [0.0, 2.0, 3.0]


# -- tensorflow -------------------------------------------------------------------------------------
def test_tensorflow_conversion_is_the_held_tensor():
    tf = pytest.importorskip("tensorflow")
    x = _array("tensorflow")
    assert tf.convert_to_tensor(x) is x.data  # no round trip through NumPy
    with tf.GradientTape() as tape:
        tape.watch(x.data)
        y = tf.reduce_sum(tf.ones(3) * x * x)  # the tape follows the tensor through the Array
    np.testing.assert_allclose(tape.gradient(y, x.data).numpy(), [2.0, 4.0, 6.0])
    assert type(np.asarray(_array("tensorflow", 2.0))) is np.ndarray
    rank = ivy_like.asarray(ivy_like.get_backend("tensorflow").asarray(np.int64(2)))
    assert [5, 6, 7][:rank] == [5, 6] and np.arange(4)[:rank].tolist() == [0, 1]
    assert x[:rank].to_numpy().tolist() == [1.0, 2.0]  # TF asks for an int32 bound
    assert (tf.ones((2, 3))[:, :rank]).shape == (2, 2)
    with pytest.raises((TypeError, ValueError)):  # a float tensor is not cast (no silent cut)
        tf.convert_to_tensor(x, dtype=tf.float64)
    # scikit-learn names the CPU explicitly; TensorFlow refuses any dl_device unless dropped.
    np.testing.assert_array_equal(np.from_dlpack(x), [1.0, 2.0, 3.0])
    assert x.__dlpack__(dl_device=(1, 0)) is not None


def test_tensorflow_function_and_nest_keep_arrays():
    tf = pytest.importorskip("tensorflow")
    x = _array("tensorflow")
    double = tf.function(lambda a: a * 2)
    out = double(x)
    assert type(out) is ivy_like.Array and out.to_numpy().tolist() == [2.0, 4.0, 6.0]
    assert double(_array("tensorflow", [3.0, 4.0, 5.0])).to_numpy().tolist() == [6.0, 8.0, 10.0]
    assert double.experimental_get_tracing_count() == 1  # same shape and dtype: one trace
    c = tf.function(lambda c: c * 2)(ivy_like.Container(a=x))
    assert type(c) is ivy_like.Container and type(c["a"]) is ivy_like.Array
    assert tf.nest.flatten([x])[0] is x.data
    mapped = tf.nest.map_structure(lambda t: t + 1, {"a": x})
    assert type(mapped["a"]) is ivy_like.Array


# -- mlx -----------------------------------------------------------------------------------------------
def test_mlx_sees_the_held_array():
    mx = pytest.importorskip("mlx.core")
    x = _array("mlx")
    assert mx.array(x).tolist() == [1.0, 2.0, 3.0]
    assert (mx.ones(3) * x).tolist() == [1.0, 2.0, 3.0]
    assert mx.sin(x).tolist() == pytest.approx(np.sin([1.0, 2.0, 3.0]).tolist(), rel=1e-6)
    # MLX's transforms take only lists, tuples and dicts of mx.arrays: MLX's own clear error.
    with pytest.raises(ValueError, match="tree_flatten"):
        mx.grad(lambda a: (a * a).sum())(x)
    # Inside ivy_like.grad a native array on the left keeps the gradient (was: zero).
    g = ivy_like.grad(lambda a: ivy_like.sum(mx.full((3,), 3.0) * a * a))(x)
    np.testing.assert_allclose(g.to_numpy(), [6.0, 12.0, 18.0])
    # A consumer exporting traced values inside ivy_like.grad is refused, not given constants.
    with pytest.raises(TypeError, match="cut the gradient"):
        ivy_like.grad(lambda a: ivy_like.sum(a * float(np.from_dlpack(a).sum())))(x)


# -- a library that takes any array API namespace: scikit-learn --------------------------------------
@pytest.mark.parametrize(
    "name", [b for b in ("numpy", "torch", "tensorflow", "mlx") if b in BACKENDS]
)
def test_scikit_learn_takes_arrays(name, monkeypatch):
    """LDA (an integer 0-d Array as a slice bound on TF), f1_score and confusion_matrix (which
    export through DLPack naming the CPU) on Arrays give the NumPy results."""
    sklearn = pytest.importorskip("sklearn")
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.metrics import confusion_matrix, f1_score

    monkeypatch.setenv("SCIPY_ARRAY_API", "1")  # what scikit-learn's array API mode requires
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3)).astype(np.float32)
    y = (X[:, 0] + 0.3 * X[:, 1] > 0).astype(np.int32)
    ref = LinearDiscriminantAnalysis().fit(X, y).predict(X)
    b = ivy_like.get_backend(name)
    Xa, ya = ivy_like.asarray(b.asarray(X)), ivy_like.asarray(b.asarray(y))
    with sklearn.config_context(array_api_dispatch=True), ivy_like.use_backend(name):
        pred = LinearDiscriminantAnalysis().fit(Xa, ya).predict(Xa)
        f1 = f1_score(ya, pred)
        cm = confusion_matrix(ya, pred)
    assert type(pred) is ivy_like.Array and pred.backend == name
    np.testing.assert_array_equal(pred.to_numpy(), ref)
    assert float(f1) == pytest.approx(f1_score(y, ref))
    np.testing.assert_array_equal(np.asarray(cm), confusion_matrix(y, ref))

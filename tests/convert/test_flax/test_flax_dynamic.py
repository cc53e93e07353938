"""from_flax with dynamic dimensions: one trace runs at every size of its symbolic dimensions.

An MLP and a small CNN (its flatten a reshape of the symbolic batch) are traced with the
default dimension, axis 0 as ``"batch"``; a transformer block over token ids with both its
batch and its tokens named (``dynamic_shapes=["b, t"]``). Each runs at other sizes on every
backend, eagerly and under ``ivy_like.compile``, against Flax; gradients at a new size match
``jax.grad``; ``ivy_like.export`` writes artifacts that serve other sizes in a process that
cannot import ivy_like. The calls check the sizes, and a module that cannot take a dimension
is refused naming it (or, by default, traced static, saying why at another shape).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("flax")

import flax.linen as fnn  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import ivy_like  # noqa: E402
from ivy_like.convert import from_flax  # noqa: E402

TOL = {"rtol": 1e-5, "atol": 1e-5}
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/convert: the loader
from _load_artifacts import serve as serve_artifacts  # noqa: E402

VOCAB = 40


class MLP(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(4)(fnn.relu(fnn.Dense(16)(x)))


class CNN(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        x = fnn.relu(fnn.Conv(4, (3, 3))(x))
        x = fnn.max_pool(x, (2, 2), strides=(2, 2))
        x = x.reshape((x.shape[0], -1))  # (batch, 64): a reshape of the symbolic batch
        return fnn.Dense(5)(x)


class Block(fnn.Module):
    """Token ids -> embedding -> causal self-attention -> MLP -> logits, with residuals."""

    @fnn.compact
    def __call__(self, ids):
        x = fnn.Embed(VOCAB, 16)(ids)
        mask = fnn.make_causal_mask(ids)  # an iota over the symbolic tokens
        x = fnn.LayerNorm()(x + fnn.MultiHeadDotProductAttention(num_heads=2)(x, x, mask=mask))
        x = fnn.LayerNorm()(x + fnn.Dense(16)(fnn.gelu(fnn.Dense(32)(x))))
        return fnn.Dense(VOCAB)(x)


def _floats(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _ids(shape, seed):
    return np.random.default_rng(seed).integers(0, VOCAB, shape).astype(np.int32)


# name -> (module, example, dynamic_shapes, make(size, seed), sizes other than the example's)
CASES = {
    "mlp": (MLP(), _floats((3, 6), 0), None, lambda s, k: _floats((s[0], 6), k), [(1,), (7,)]),
    "cnn": (
        CNN(),
        _floats((2, 8, 8, 3), 0),
        None,
        lambda s, k: _floats((s[0], 8, 8, 3), k),
        [(1,), (5,)],
    ),
    "block": (Block(), _ids((2, 5), 0), ["b, t"], _ids, [(1, 3), (3, 9), (4, 1)]),
}


@pytest.fixture(scope="module")
def traced():
    out = {}
    for name, (module, example, dynamic, make, sizes) in CASES.items():
        variables = module.init(jax.random.key(1), example)
        model = from_flax(module, variables, example, dynamic_shapes=dynamic, backend="numpy")
        out[name] = (module, variables, model, make, sizes)
    return out


def test_the_dimensions_are_symbolic_in_the_code(traced):
    assert traced["mlp"][2].dynamic_dims == [{0: "batch"}]
    assert traced["block"][2].dynamic_dims == [{0: "b", 1: "t"}]
    cnn = traced["cnn"][2]
    assert "d_batch = " in cnn.code and "shape=(d_batch, 64, )" in cnn.code
    block = traced["block"][2].code
    assert "d_b = " in block and "d_t = " in block and "jax_iota" in block


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
@pytest.mark.parametrize("name", list(CASES))
def test_one_trace_runs_at_other_sizes(backend, traced, name, compiled):
    if compiled and backend.name == "numpy":
        pytest.skip("ivy_like.compile on numpy is the function itself: the eager run is that run")
    module, variables, model, make, sizes = traced[name]
    run = ivy_like.compile(model.apply) if compiled else model.apply
    params = model.params_on(backend)
    for seed, size in enumerate(sizes + sizes[:1]):  # a size again: a compiled function reused
        x = make(size, seed)
        got = run(params, backend.asarray(x))
        want = np.asarray(module.apply(variables, x))
        assert got.shape == want.shape
        np.testing.assert_allclose(ivy_like.to_numpy(got), want, **TOL, err_msg=str(size))


@pytest.mark.requires("autodiff")
@pytest.mark.parametrize("name", list(CASES))
def test_gradients_at_a_new_size_match_jax_grad(backend, traced, name):
    module, variables, model, make, sizes = traced[name]
    x = make(sizes[-1], 9)
    w = _floats(np.shape(module.apply(variables, x)), 3)
    grads = jax.grad(lambda v: jnp.sum(module.apply(v, x) * w))(variables)
    want = {
        "/".join(str(e.key) for e in path): np.asarray(g)
        for path, g in jax.tree_util.tree_flatten_with_path(grads)[0]
    }
    native, weight = backend.asarray(x), backend.asarray(w)
    grad = ivy_like.grad(lambda p: ivy_like.sum(model.apply(p, native) * weight))
    got = grad(model.params_on(backend)).cont_flatten_key_chains()
    assert set(got) == set(want)
    for kc, g in got.items():
        scale = max(1.0, float(np.abs(want[kc]).max()))
        np.testing.assert_allclose(ivy_like.to_numpy(g), want[kc], rtol=1e-4, atol=1e-5 * scale)


class Sizes(fnn.Module):
    """Arithmetic on the symbolic sizes: b // 2, 2 * b, b * t, and a size used as a number."""

    @fnn.compact
    def __call__(self, x):
        b, t = x.shape
        half = jax.lax.slice(x, (0, 0), (b // 2, t)) * 2.0  # (x[:b // 2] is a gather)
        doubled = jnp.concatenate([x, -x]).reshape((2 * b * t,))
        return half, doubled, x.sum(0) / b + t


def test_arithmetic_on_sizes_follows_each_call(backend):
    x = _floats((4, 3), 0)
    model = from_flax(Sizes(), {}, x, dynamic_shapes=["b, t"], backend="numpy")
    assert "(d_b // 2)" in model.code and "jax_dim_as_value" in model.code
    for shape in [(7, 2), (2, 5)]:
        y = _floats(shape, 1)
        got = model(backend.asarray(y))
        for g, w in zip(got, Sizes().apply({}, y)):
            np.testing.assert_allclose(ivy_like.to_numpy(g), np.asarray(w), **TOL)


# -- the checks -----------------------------------------------------------------------------------
class Pair(fnn.Module):
    @fnn.compact
    def __call__(self, x, y):
        return fnn.Dense(2)(x) * y


def test_calls_are_checked_against_the_dimensions(traced):
    model = traced["mlp"][2]
    with pytest.raises(
        ValueError,
        match=r"argument 0 has shape \(3, 7\) \(size 7 on axis 1 where it was 6\).*"
        r"shape \(batch, 6\)",
    ):
        model(_floats((3, 7), 0))
    with pytest.raises(
        ValueError, match=r"argument 0 has shape \(3, 6, 1\) \(rank 3 where it was 2"
    ):
        model(_floats((3, 6, 1), 0))
    with pytest.raises(ValueError, match=r"size 0 on axis 0, dynamic dimension 'batch'"):
        model(np.zeros((0, 6), np.float32))
    block = traced["block"][2]
    with pytest.raises(ValueError, match=r"argument 0 has shape \(2,\).*shape \(b, t\)"):
        block(_ids((2,), 0))
    x, y = _floats((3, 4), 0), _floats((3, 2), 1)
    variables = Pair().init(jax.random.key(0), x, y)
    pair = from_flax(Pair(), variables, x, y, backend="numpy")
    assert pair.dynamic_dims == [{0: "batch"}, {0: "batch"}]
    x5, y5 = _floats((5, 4), 2), _floats((5, 2), 3)
    np.testing.assert_allclose(pair(x5, y5), Pair().apply(variables, x5, y5), **TOL)
    with pytest.raises(
        ValueError,
        match=r"dimension 'batch' is 5 on axis 0 of argument 0 but 4 on axis 0 of argument 1",
    ):
        pair(x5, _floats((4, 2), 4))


class Pinned(fnn.Module):
    """Reshapes to the example's batch: it cannot take another."""

    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(3)(x.reshape((2, -1)))


def test_a_dimension_the_module_cannot_take_is_refused_naming_it_and_the_line():
    x = _floats((2, 4, 3), 0)
    variables = Pinned().init(jax.random.key(0), x)
    with pytest.raises(ValueError, match=r"cannot take dynamic dimension 'b'") as info:
        from_flax(Pinned(), variables, x, dynamic_shapes=[{0: "b"}])
    assert "test_flax_dynamic.py:" in str(info.value) and "x.reshape((2, -1))" in str(info.value)


class Regrouped(fnn.Module):
    """Traces with a symbolic batch, but computes only at the example's (12 elements)."""

    @fnn.compact
    def __call__(self, x):
        return jnp.reshape(x, (3, 2, 2)) @ jnp.ones((2, 2), np.float32)


def test_a_trace_that_is_wrong_at_another_size_is_refused():
    """jax traces the reshape to the example's sizes with the batch symbolic (its check is
    left for run time): the model, run once at a larger batch against jax, is refused."""
    x = _floats((3, 4), 0)
    with pytest.raises(ValueError, match=r"cannot take dynamic dimension 'b': .* at b=4"):
        from_flax(Regrouped(), {}, x, dynamic_shapes=[{0: "b"}])
    model = from_flax(Regrouped(), {}, x, backend="numpy")  # by default: static
    assert model.dynamic_dims is None
    np.testing.assert_allclose(model(x), Regrouped().apply({}, x), **TOL)


def test_by_default_a_module_that_cannot_take_the_batch_is_static_and_says_why():
    x = _floats((2, 4, 3), 0)
    variables = Pinned().init(jax.random.key(0), x)
    model = from_flax(Pinned(), variables, x, backend="numpy")
    assert model.dynamic_dims is None
    np.testing.assert_allclose(model(x), Pinned().apply(variables, x), **TOL)
    with pytest.raises(ValueError) as info:
        model(_floats((3, 4, 3), 1))
    message = str(info.value)
    assert "axis 0 could not be the dynamic dimension 'batch'" in message
    assert "x.reshape((2, -1))" in message and "dynamic_shapes=" in message


def test_false_keeps_every_size_static_and_differing_batches_are_static():
    x, y = _floats((3, 4), 0), _floats((3, 2), 1)
    variables = Pair().init(jax.random.key(0), x, y)
    static = from_flax(Pair(), variables, x, y, dynamic_shapes=False, backend="numpy")
    assert static.dynamic_dims is None and "d_batch" not in static.code
    with pytest.raises(ValueError, match=r"traced for shape \(3, 4\).*dynamic_shapes="):
        static(_floats((5, 4), 0), _floats((5, 2), 0))
    y1 = _floats((1, 2), 1)  # broadcast over x's rows: the axis-0 sizes differ
    model = from_flax(Pair(), variables, x, y1, backend="numpy")
    assert model.dynamic_dims is None
    with pytest.raises(ValueError, match=r"axis-0 sizes differ"):
        model(_floats((5, 4), 0), y1)


@pytest.mark.parametrize(
    ("spec", "error", "match"),
    [
        ("b", TypeError, r"one entry per example argument"),
        ([None, None], ValueError, r"2 entries for 1 example argument"),
        (["b"], ValueError, r"dynamic_shapes\[0\] is 'b', 1 axes, but argument 0 has shape"),
        (["b, 7"], ValueError, r"gives axis 1 size 7"),
        (["b, *"], ValueError, r"axis 1 is '\*'; each axis is a name"),
        ([{2: "b"}], ValueError, r"names axis 2"),
        ([{0: "1b"}], ValueError, r"must be a name"),
        ([3], TypeError, r"must be None, a string"),
    ],
)
def test_bad_dynamic_shapes_are_typed_errors_naming_the_entry(spec, error, match):
    x = _floats((3, 6), 0)
    variables = MLP().init(jax.random.key(0), x)
    with pytest.raises(error, match=match):
        from_flax(MLP(), variables, x, dynamic_shapes=spec)


def test_a_shared_name_must_be_one_size_in_the_examples():
    x, y = _floats((3, 4), 0), _floats((3, 2), 1)
    variables = Pair().init(jax.random.key(0), x, y)
    with pytest.raises(ValueError, match=r"'n' is axis 0 of argument 0 \(size 3\) and axis 1"):
        from_flax(Pair(), variables, x, y, dynamic_shapes=["n, _", "_, n"])


# -- exported artifacts ---------------------------------------------------------------------------
EXPORTS = {  # format -> (artifact name, the cases exported to it)
    "jax": ("m.jaxexport", ["mlp", "cnn", "block"]),
    "savedmodel": ("m_savedmodel", ["mlp", "cnn", "block"]),
    "tflite": ("m.tflite", ["mlp", "cnn", "block"]),
    "torch": ("m.pt2", ["mlp", "cnn", "block"]),
}


@pytest.mark.parametrize("fmt", list(EXPORTS))
def test_an_export_serves_other_sizes_without_ivy_like(traced, fmt, tmp_path):
    pytest.importorskip("tensorflow" if fmt in ("savedmodel", "tflite") else fmt)
    filename, names = EXPORTS[fmt]
    jobs, wanted = [], {}
    for name in names:
        module, variables, model, make, sizes = traced[name]
        example = CASES[name][1]
        dims = model.dynamic_dims
        path = tmp_path / f"{name}_{filename}"
        ivy_like.export(model, example, format=fmt, path=path, dynamic=dims)
        for k, size in enumerate(sizes[:2]):
            x = make(size, 20 + k)
            inputs, outputs = tmp_path / f"{name}{k}_in.npz", tmp_path / f"{name}{k}_out.npz"
            np.savez(inputs, arg0=x)
            jobs.append({"format": fmt, "path": str(path), "names": ["input_0"],
                         "inputs": str(inputs), "outputs": str(outputs)})  # fmt: skip
            wanted[outputs] = np.asarray(module.apply(variables, x))
    serve_artifacts(jobs, tmp_path)
    for outputs, want in wanted.items():
        with np.load(outputs) as data:
            assert data.files == ["output_0"]
            np.testing.assert_allclose(data["output_0"], want, **TOL, err_msg=str(outputs))

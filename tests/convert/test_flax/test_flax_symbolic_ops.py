"""from_flax with the default dynamic batch through gathers, dynamic slices, sorts and scatters.

Each module is captured once at the example's batch (axis 0 of every input the dynamic
dimension ``"batch"``), then run at other batch sizes on every backend against jax; the sizes
its primitives need (a clamped start, a stride, the operand's element count) are expressions
over the inputs' sizes in the generated code. A use that cannot follow the batch is captured
static and says why; an exported artifact serves other batch sizes without ivy_like.
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
from ivy_like.convert import UnsupportedOpError, from_flax  # noqa: E402

TOL = {"rtol": 1e-5, "atol": 1e-5}
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/convert: the loader
from _load_artifacts import serve as serve_artifacts  # noqa: E402

VOCAB, WIDTH = 11, 6


def _floats(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _ints(shape, seed, high):
    return np.random.default_rng(seed).integers(0, high, shape).astype(np.int32)


WINDOW = jax.lax.GatherDimensionNumbers(
    offset_dims=(0, 1), collapsed_slice_dims=(), start_index_map=(0, 1)
)


class Gathers(fnn.Module):
    """An embedding lookup, a take_along_axis, rows of the batch picked by the data, a take
    along a static axis; one window from row 3, which fits from a batch of 4 on: filled
    (NaN) or clamped below that."""

    @fnn.compact
    def __call__(self, x, ids):
        emb = fnn.Embed(VOCAB, 3)(ids)  # (batch, 4, 3)
        along = jnp.take_along_axis(x, ids % WIDTH, axis=1)  # (batch, 4)
        rows = x[ids[:, 0] % x.shape[0]]  # a gather along the dynamic dimension
        cols = jnp.take(x, jnp.array([5, 0, 2]), axis=1)
        start = jnp.array([3, 1])
        filled = jax.lax.gather(x, start, WINDOW, (1, 3), mode="fill")
        clamped = jax.lax.gather(x, start, WINDOW, (1, 3), mode="clip")
        return emb.sum(-1) + along, rows * 2.0, cols, filled, clamped


class Slices(fnn.Module):
    """dynamic_slice with constant starts along and across the batch, a start counted from
    the batch's end, the whole batch; dynamic_update_slice at starts from the batch's size."""

    @fnn.compact
    def __call__(self, x):
        x = fnn.Dense(WIDTH)(x)
        b = x.shape[0]
        first = jax.lax.dynamic_slice(x, (1, 0), (1, 4))  # start 1 clamped to b - 1
        last = x[-1]  # a start computed from the batch size
        cols = jax.lax.dynamic_slice_in_dim(x, 2, 3, axis=1)
        whole = jax.lax.dynamic_slice(x, (0, 1), (b, 3))
        patched = jax.lax.dynamic_update_slice(x, jnp.full((1, 2), 7.0), (b - 1, 3))
        clamped = jax.lax.dynamic_update_slice(x, -x[:1, :2], (b + 4, 9))  # clamped to fit
        return first * last[:4], cols + whole, patched, clamped


class Sorts(fnn.Module):
    """sort and argsort along the batch and across it, and a sort carrying a second operand."""

    @fnn.compact
    def __call__(self, x):
        carried = jax.lax.sort((x[:, 0], x[:, 1]), num_keys=1)[1]  # x[:, 1] in x[:, 0]'s order
        return (
            jnp.sort(x, axis=-1),
            jnp.sort(x, axis=0),
            jnp.argsort(x, axis=-1),
            jnp.argsort(x, axis=0),
            carried,
        )


class Scatters(fnn.Module):
    """set, add, max and min at rows the data picks (repeats included), add at columns across
    the whole batch, set at (row, column) pairs along the batch."""

    @fnn.compact
    def __call__(self, x, idx):
        b = x.shape[0]
        rows = idx % b  # valid at every batch size
        return (
            x.at[rows].set(x[::-1] * 10.0),
            x.at[rows].add(x * 2.0),
            x.at[rows].max(x[::-1] + 0.5),
            x.at[rows].min(x - 0.5),
            x.at[:, jnp.array([0, 2, 2])].add(1.0),
            x.at[jnp.arange(b), idx % WIDTH].set(0.0),
        )


def _gathers_args(b, seed):
    return _floats((b, WIDTH), seed), _ints((b, 4), seed + 1, VOCAB)


def _scatters_args(b, seed):
    return _floats((b, WIDTH), seed), _ints((b,), seed + 1, 50)


# name -> (module, make(batch, seed), the primitives it must map, batch sizes other than 3)
CASES = {
    "gathers": (Gathers(), _gathers_args, {"gather"}, [1, 5, 8]),
    "slices": (Slices(), lambda b, k: (_floats((b, 5), k),), {"dynamic_slice"}, [1, 4, 9]),
    "sorts": (Sorts(), lambda b, k: (_floats((b, WIDTH), k),), {"sort"}, [1, 4, 7]),
    "scatters": (Scatters(), _scatters_args, {"scatter", "scatter-add"}, [1, 5, 8]),
}


@pytest.fixture(scope="module")
def traced():
    out = {}
    for name, (module, make, _, _) in CASES.items():
        example = make(3, 0)
        variables = module.init(jax.random.key(1), *map(jnp.asarray, example))
        out[name] = (variables, from_flax(module, variables, *example, backend="numpy"))
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_the_batch_is_dynamic(traced, name):
    module, make, primitives, _ = CASES[name]
    model = traced[name][1]
    assert model.dynamic_dims == [{0: "batch"}] * len(make(3, 0)), model._why_static
    assert primitives <= set(model.primitives)
    assert "d_batch = " in model.code


def test_sizes_are_expressions_over_the_inputs_sizes(traced):
    slices = traced["slices"][1].code
    assert "dynamic_update_slice" in traced["slices"][1].primitives
    assert "(d_batch + -1)" in slices  # the last start that fits a window of 1
    scatters = traced["scatters"][1].code
    assert f"size=(d_batch * {WIDTH})" in scatters and f"operand=(d_batch, {WIDTH}, )" in scatters
    assert "(3 * " not in scatters and f"size={3 * WIDTH}" not in scatters  # not the example's


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
@pytest.mark.parametrize("name", list(CASES))
def test_one_capture_runs_at_other_batch_sizes(backend, traced, name, compiled):
    if compiled and backend.name == "numpy":
        pytest.skip("ivy_like.compile on numpy is the function itself: the eager run is that run")
    module, make, _, sizes = CASES[name]
    variables, model = traced[name]
    run = ivy_like.compile(model.apply) if compiled else model.apply
    params = model.params_on(backend)
    for seed, b in enumerate(sizes + sizes[:1], 10):  # a size again: a compiled function reused
        args = make(b, seed)
        want = jax.tree_util.tree_leaves(module.apply(variables, *map(jnp.asarray, args)))
        got = jax.tree_util.tree_leaves(run(params, *map(backend.asarray, args)))
        assert len(got) == len(want)
        for k, (g, w) in enumerate(zip(got, want)):
            g, w = np.asarray(ivy_like.to_numpy(g)), np.asarray(w)
            assert g.shape == w.shape, (b, k)
            if w.dtype.kind in "iub":
                np.testing.assert_array_equal(g, w, err_msg=f"batch {b}, output {k}")
            else:
                np.testing.assert_allclose(g, w, **TOL, err_msg=f"batch {b}, output {k}")


@pytest.mark.requires("autodiff")
def test_gradients_through_the_slices_at_a_new_batch_match_jax(backend, traced):
    module = CASES["slices"][0]
    variables, model = traced["slices"]
    (x,) = CASES["slices"][1](6, 3)
    weights = [_floats(np.shape(o), 4 + i) for i, o in enumerate(module.apply(variables, x))]

    def loss(v):
        return sum(jnp.sum(o * w) for o, w in zip(module.apply(v, x), weights))

    want = jax.grad(loss)(variables)["params"]["Dense_0"]
    native = backend.asarray(x)
    ws = [backend.asarray(w) for w in weights]

    def ours(p):
        outs = model.apply(p, native)
        return sum(ivy_like.sum(o * w) for o, w in zip(outs, ws))

    got = ivy_like.grad(ours)(model.params_on(backend))
    for key in ("kernel", "bias"):
        np.testing.assert_allclose(
            ivy_like.to_numpy(got["params"]["Dense_0"][key]), want[key], rtol=1e-4, atol=1e-4
        )


class Multiplied(fnn.Module):
    """A scatter-multiply at repeated rows, as many as the batch: its pairwise product needs
    the count squared, which a dynamic batch leaves unknown."""

    @fnn.compact
    def __call__(self, x, idx):
        return x.at[idx % x.shape[0]].multiply(x + 2.0)


def test_a_use_that_cannot_follow_the_batch_is_static_and_says_why():
    x, idx = _scatters_args(3, 0)
    model = from_flax(Multiplied(), {}, x, idx, backend="numpy")
    assert model.dynamic_dims is None
    want = Multiplied().apply({}, jnp.asarray(x), jnp.asarray(idx))
    np.testing.assert_allclose(model(x, idx), want, **TOL)
    with pytest.raises(ValueError) as info:
        model(*_scatters_args(4, 1))
    message = str(info.value)
    assert "axis 0 could not be the dynamic dimension 'batch'" in message
    assert "scatter-mul" in message and "as many as a dynamic dimension" in message


class DataStart(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return jax.lax.dynamic_slice(x, (jnp.argmax(x[0]), 0), (1, 4))


def test_a_start_computed_from_the_data_is_still_refused():
    with pytest.raises(UnsupportedOpError, match=r"dynamic_slice .*data-dependent"):
        from_flax(DataStart(), {}, _floats((5, 6), 0), backend="numpy")


class Served(fnn.Module):
    """A lookup, sorts, takes along the symbolic batch and across it, a slice at a start from
    the batch size, an update along the batch and scatter-adds: the uses jax.export takes
    with the batch symbolic (the jax backend widens narrow indices into an axis whose size
    it cannot compare with the index dtype's maximum)."""

    @fnn.compact
    def __call__(self, x, ids):
        b = x.shape[0]
        emb = fnn.Embed(VOCAB, 3)(ids).sum(-1)  # a gather along the vocabulary
        part = jax.lax.dynamic_slice_in_dim(x, b % 3, 2, axis=1)
        patched = jax.lax.dynamic_update_slice(x, jnp.full((1, 2), 7.0), (b - 1, 3))
        return (
            emb,
            jnp.sort(x, axis=0),
            jnp.argsort(x, axis=-1),
            part,
            patched,
            x.at[ids[:, 0] % b].add(x * 2.0),
            x.at[:, jnp.array([0, 2, 2])].add(1.0),
            jnp.take_along_axis(x, ids % x.shape[1], axis=1),
            x[-1] + x[ids[:, 0] % b],
        )


def test_an_export_serves_other_batch_sizes_without_ivy_like(tmp_path):
    module = Served()
    example = _gathers_args(3, 0)
    variables = module.init(jax.random.key(2), *map(jnp.asarray, example))
    model = from_flax(module, variables, *example, backend="numpy")
    assert model.dynamic_dims == [{0: "batch"}, {0: "batch"}], model._why_static
    assert {"gather", "sort", "dynamic_slice", "dynamic_update_slice", "scatter-add"} <= set(
        model.primitives
    )
    path = tmp_path / "served.jaxexport"
    ivy_like.export(model, *example, format="jax", path=path, dynamic=model.dynamic_dims)
    jobs, wanted = [], {}
    for k, b in enumerate([1, 5, 8]):
        args = _gathers_args(b, 30 + k)
        inputs, outputs = tmp_path / f"in{k}.npz", tmp_path / f"out{k}.npz"
        np.savez(inputs, **{f"arg{i}": a for i, a in enumerate(args)})
        jobs.append({"format": "jax", "path": str(path), "names": ["input_0", "input_1"],
                     "inputs": str(inputs), "outputs": str(outputs)})  # fmt: skip
        wanted[outputs] = jax.tree_util.tree_leaves(
            module.apply(variables, *map(jnp.asarray, args))
        )
    serve_artifacts(jobs, tmp_path)
    for outputs, want in wanted.items():
        with np.load(outputs) as data:
            assert sorted(data.files) == sorted(f"output_{k}" for k in range(len(want)))
            for k, w in enumerate(want):
                np.testing.assert_allclose(data[f"output_{k}"], np.asarray(w), **TOL)

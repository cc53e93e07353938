"""Ops beyond the standard: einsum, pad, one_hot, logsumexp, top_k, scatter_add,
segment_sum and segment_max on every backend.

Values are compared with NumPy references written here (plain loops where NumPy has no such
function) and, where JAX is installed, with JAX's own functions; the function, the ``Array``
method and the ``Container`` method are each called; bad arguments give one error type naming
the argument on every backend; gradients through logsumexp, einsum, pad, scatter_add and
segment_sum match JAX's (and the NumPy closed forms, which also run where JAX is not installed).
"""

from __future__ import annotations

import importlib.util
import inspect

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ivy_like
from ivy_like import Container
from ivy_like.core.axes import axis_error_type
from ivy_like.testing import assert_close
from ivy_like.testing.pytest_plugin import selected_backends

HAS_JAX = importlib.util.find_spec("jax") is not None
F32 = np.float32
INF = float("inf")
NAN = float("nan")
NEG_NAN = float(np.copysign(np.nan, -1))  # what inf - inf gives on most machines
RNG = np.random.default_rng(24)


def pytest_generate_tests(metafunc):
    """``ad``: the selected backends with autodiff."""
    if "ad_name" in metafunc.fixturenames:
        names = [
            n for n in selected_backends(metafunc.config) if ivy_like.get_backend(n).has_autodiff
        ]
        metafunc.parametrize("ad_name", names)


@pytest.fixture
def ad(ad_name):
    with ivy_like.use_backend(ad_name) as b:
        yield b


def arr(values, dtype=F32):
    return ivy_like.asarray(np.asarray(values, dtype=dtype))


def npy(x):
    return np.asarray(ivy_like.to_numpy(x))


def close(actual, expected, dtype=F32, **tolerances):
    """``assert_close`` with ``expected`` written as a (nested) list of ``dtype``."""
    assert_close(actual, np.asarray(expected, dtype), **tolerances)


def default_int():
    """The dtype of index results (``argsort``'s) on the active backend."""
    return npy(ivy_like.argsort(arr([1.0, 0.0]))).dtype


def jnp():
    import jax.numpy

    return jax.numpy


def jax_nn():
    import jax.nn

    return jax.nn


# -- NumPy references ------------------------------------------------------------------------------
def ref_scatter_add(x, indices, updates):
    """One row at a time: negative indices from the end, the rest out of range dropped."""
    out = x.copy()
    n = x.shape[0]
    rows = np.broadcast_to(updates, indices.shape + x.shape[1:]).reshape(-1, *x.shape[1:])
    for i, row in zip(indices.ravel().tolist(), rows):
        j = i + n if i < 0 else i
        if 0 <= j < n:
            out[j] = out[j] + row.astype(x.dtype)
    return out


def ref_segment(data, ids, num_segments, reduce):
    if reduce == "sum":
        out = np.zeros((num_segments, *data.shape[1:]), data.dtype)
        step = np.add
    else:
        low = -np.inf if data.dtype.kind == "f" else np.iinfo(data.dtype).min
        out = np.full((num_segments, *data.shape[1:]), low, data.dtype)
        step = np.maximum  # propagates NaN
    for i, row in zip(ids.tolist(), data):
        if 0 <= i < num_segments:
            out[i] = step(out[i], row)
    return out


def ref_top_k(x, k):
    """Largest first; NaN the largest; ties in index order (lexsort is stable)."""
    order = np.lexsort((-x, ~np.isnan(x)), axis=-1)[..., :k]
    return np.take_along_axis(x, order, axis=-1), order


def ref_logsumexp(x, axis=None, keepdims=False):
    out = np.logaddexp.reduce(x.astype(np.float64), axis=axis, keepdims=keepdims)
    return np.asarray(out, dtype=x.dtype)


def ref_one_hot(indices, n, dtype=F32):
    return (indices[..., None] == np.arange(n)).astype(dtype)


# -- einsum ------------------------------------------------------------------------------------------
EINSUM_CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("i,i->", [(5,), (5,)]),
    ("i,j->ij", [(2,), (3,)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("ij->ji", [(2, 3)]),
    ("ba", [(2, 3)]),  # implicit output: alphabetical, so a transpose
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]),
    ("...ij,jk", [(2, 3, 4), (4, 5)]),  # implicit output with '...' (TensorFlow needs it written)
    ("i...->...", [(2, 3, 4)]),
    ("ij,j->i", [(2, 3), (1,)]),  # a label of size 1 broadcasts, as in NumPy
    ("i j , j k -> i k", [(2, 3), (3, 2)]),  # spaces are ignored
    (",->", [(), ()]),
    ("ijk,ikl,ilm->ijm", [(2, 2, 3), (2, 3, 2), (2, 2, 2)]),
]


@pytest.mark.parametrize("subscripts,shapes", EINSUM_CASES, ids=[c[0] for c in EINSUM_CASES])
def test_einsum_matches_numpy(backend, subscripts, shapes):
    operands = [RNG.standard_normal(s).astype(F32) for s in shapes]
    got = ivy_like.einsum(subscripts, *[arr(o) for o in operands])
    want = np.einsum(subscripts, *operands)
    assert_close(got, np.asarray(want, F32), rtol=1e-5, atol=1e-5)
    native = ivy_like.einsum(subscripts, *[backend.asarray(o) for o in operands])
    assert not isinstance(native, ivy_like.Array)  # native in, native out
    assert_close(native, np.asarray(want, F32), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", ["int32", "int8"])
def test_einsum_integers_are_exact(backend, dtype):
    scale = 1000003 if dtype == "int32" else 3  # beyond float32's integers, in int32
    a = np.arange(6, dtype=dtype).reshape(2, 3) * scale
    b = np.arange(12, dtype=dtype).reshape(3, 4) - 5
    got = ivy_like.einsum("ij,jk->ik", arr(a, dtype), arr(b, dtype))
    want = np.einsum("ij,jk->ik", a, b)
    assert npy(got).dtype.kind == "i"
    np.testing.assert_array_equal(npy(got), want)
    trace = ivy_like.einsum("ii->", arr(np.arange(9).reshape(3, 3), dtype))
    assert int(npy(trace)) == 12


@pytest.mark.parametrize("dtypes", [("float16", "float32"), ("int8", "int32")])
def test_einsum_promotes_mixed_dtypes(backend, dtypes):
    a = np.arange(4).reshape(2, 2).astype(dtypes[0])
    b = np.arange(4).reshape(2, 2).astype(dtypes[1]) - 1
    got = ivy_like.einsum("ij,jk->ik", arr(a, dtypes[0]), arr(b, dtypes[1]))
    assert_close(got, np.einsum("ij,jk->ik", a, b))  # the wider dtype


def test_einsum_container_static(backend):
    c = Container(a=arr(np.eye(2)), b=arr([[1.0, 2.0], [3.0, 4.0]]))
    out = Container.static_einsum("ij->ji", c)
    close(out.b, [[1.0, 3.0], [2.0, 4.0]])
    both = ivy_like.einsum("ij,jk->ik", c, c)  # the function maps over Containers too
    close(both.b, [[7.0, 10.0], [15.0, 22.0]])


# -- pad -----------------------------------------------------------------------------------------------
@st.composite
def pad_cases(draw):
    shape = draw(st.lists(st.integers(0, 3), min_size=0, max_size=3).map(tuple))
    mode = draw(st.sampled_from(["constant", "reflect", "edge"]))
    ndim = len(shape)

    def width(size):  # an empty axis can be extended in constant mode only
        return draw(st.integers(0, 0 if size == 0 and mode != "constant" else 5))

    form = draw(st.sampled_from(["pairs", "pair", "int"] if ndim else ["int"]))
    if form == "int" and (mode == "constant" or 0 not in shape):
        pad_width = width(1)
    elif form == "pair" and (mode == "constant" or 0 not in shape):
        pad_width = (width(1), width(1))
    else:
        pad_width = tuple((width(n), width(n)) for n in shape)
    return shape, pad_width, mode


@given(case=pad_cases(), value=st.sampled_from([0, 2.5, -7]))
def test_pad_matches_numpy(backend, case, value):
    shape, pad_width, mode = case
    x = RNG.standard_normal(shape).astype(F32) if shape else np.asarray(1.5, F32)
    got = ivy_like.pad(arr(x), pad_width, mode=mode, constant_values=value)
    kwargs = {"constant_values": value} if mode == "constant" else {}
    assert_close(got, np.pad(x, pad_width, mode=mode, **kwargs))


def test_pad_forms_dtypes_and_variants(backend):
    x = np.arange(6, dtype="int32").reshape(2, 3)
    for pad_width in (1, (1,), (1, 2), ((1, 2),), ((1, 0), (2, 3)), ((1,), (2,))):
        assert_close(ivy_like.pad(arr(x, "int32"), pad_width), np.pad(x, pad_width))
    # the value is cast to x's dtype, as np.pad does
    assert_close(
        ivy_like.pad(arr(x, "int32"), 1, constant_values=2.7), np.pad(x, 1, constant_values=2.7)
    )
    flags = np.array([True, False])
    close(ivy_like.pad(arr(flags, bool), (1, 0), constant_values=1), [True, True, False], bool)
    # reflect beyond the axis size mirrors again, as in NumPy
    v = np.array([1.0, 2.0, 3.0], F32)
    assert_close(arr(v).pad((7, 5), mode="reflect"), np.pad(v, (7, 5), mode="reflect"))
    c = Container(a=arr(v), b=arr([[1.0, 2.0]]))
    out = c.pad(1, mode="edge")
    assert_close(out.a, np.pad(v, 1, mode="edge"))
    assert_close(out.b, np.pad(np.array([[1.0, 2.0]], F32), 1, mode="edge"))


def test_pad_returns_a_new_array(backend):
    x = arr([1.0, 2.0])
    for mode in ("constant", "reflect", "edge"):
        out = ivy_like.pad(x, 0, mode=mode)
        close(out, [1.0, 2.0])
        if backend.mutable_arrays:
            out[0] = 9.0
            close(x, [1.0, 2.0])


# -- one_hot -----------------------------------------------------------------------------------------
def test_one_hot_matches_numpy_and_jax(backend):
    idx = np.array([[0, 3, -1], [4, 2, 100]], dtype="int32")
    got = ivy_like.one_hot(arr(idx, "int32"), 4)
    assert_close(got, ref_one_hot(idx, 4))  # float32, out-of-range rows all zeros
    if HAS_JAX:
        import jax

        assert_close(got, np.asarray(jax.nn.one_hot(idx, 4)))
    assert_close(arr(idx, "int32").one_hot(4, dtype="int32"), ref_one_hot(idx, 4, "int32"))
    close(ivy_like.one_hot(arr([1, 0], "uint8"), 2, bool), [[False, True], [True, False]], bool)
    assert_close(ivy_like.one_hot(arr([], "int32"), 3), np.zeros((0, 3), F32))
    assert_close(ivy_like.one_hot(arr([1], "int8"), 0), np.zeros((1, 0), F32))
    c = Container(a=arr([0, 1], "int32"), b={"c": arr([2], "int32")})
    out = c.one_hot(3)
    close(out.b.c, [[0.0, 0.0, 1.0]])


# -- logsumexp ---------------------------------------------------------------------------------------
@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple),
    data=st.data(),
    keepdims=st.booleans(),
)
def test_logsumexp_matches_numpy(backend, shape, data, keepdims):
    values = st.sampled_from([-INF, -30.0, -1.5, 0.0, 2.0, 80.0, 100.0])
    x = np.asarray(
        data.draw(st.lists(values, min_size=int(np.prod(shape)), max_size=int(np.prod(shape)))), F32
    ).reshape(shape)
    axes = data.draw(st.sampled_from([None, 0, -1, tuple(range(len(shape)))]))
    got = ivy_like.logsumexp(arr(x), axis=axes, keepdims=keepdims)
    assert_close(got, ref_logsumexp(x, axes, keepdims), rtol=1e-5, atol=1e-5)


def test_logsumexp_special_values_and_variants(backend):
    x = np.array([[-INF, -INF], [1e4, 1e4], [INF, 1.0], [NAN, 1.0]], F32)
    got = ivy_like.logsumexp(arr(x), axis=1)
    close(got, [-INF, 1e4 + np.log(2), INF, NAN], rtol=1e-6)
    empty = ivy_like.logsumexp(arr(np.zeros((0, 3), F32)), axis=0)
    close(empty, [-INF, -INF, -INF])
    close(arr(x[1:2]).logsumexp(keepdims=True), [[1e4 + np.log(2)]], rtol=1e-6)
    c = Container(a=arr([0.0, 0.0]), b=arr([[1.0], [1.0]]))
    out = c.logsumexp(axis=0)
    assert_close(out.a, np.float32(np.log(2)))
    close(out.b, [1 + np.log(2)], rtol=1e-6)
    if HAS_JAX:
        import jax

        assert_close(got, np.asarray(jax.nn.logsumexp(x, axis=1)), rtol=1e-6)


# -- top_k -------------------------------------------------------------------------------------------
@given(
    rows=st.integers(1, 3),
    n=st.integers(1, 6),
    data=st.data(),
)
def test_top_k_matches_reference(backend, rows, n, data):
    cell = st.sampled_from([0.0, -0.0, 1.0, 2.0, -INF, INF, NAN, NEG_NAN])
    x = np.asarray(data.draw(st.lists(cell, min_size=rows * n, max_size=rows * n)), F32)
    x = x.reshape(rows, n)
    k = data.draw(st.integers(0, n))
    values, indices = ivy_like.top_k(arr(x), k)
    want_values, want_indices = ref_top_k(x, k)
    assert_close(values, want_values)
    assert_close(indices, want_indices, check_dtype=False)
    assert npy(indices).dtype == default_int()
    if HAS_JAX:
        import jax

        # jax.lax.top_k orders -0.0 below 0.0 and a NaN with its sign bit set below -inf; with
        # those made equal and positive, its order is the decided one.
        key = np.where(np.isnan(x), NAN, np.where(x == 0, 0.0, x)).astype(F32)
        np.testing.assert_array_equal(npy(indices), np.asarray(jax.lax.top_k(key, k)[1]))


def test_top_k_variants_and_integers(backend):
    x = np.array([[3, 1, 3, 2], [0, 5, 5, 5]], "int32")
    values, indices = arr(x, "int32").top_k(2)
    close(values, [[3, 3], [5, 5]], "int32")
    np.testing.assert_array_equal(npy(indices), [[0, 2], [1, 2]])
    c = Container(a=arr([1.0, 4.0, 2.0]), b=arr([[5.0, 6.0]]))
    top, where = c.top_k(1)
    close(top.a, [4.0])
    close(top.b, [[6.0]])
    np.testing.assert_array_equal(npy(where.a), [1])


# -- scatter_add ------------------------------------------------------------------------------------
@given(
    n=st.integers(1, 5),
    m=st.integers(0, 6),
    data=st.data(),
)
def test_scatter_add_matches_reference(backend, n, m, data):
    x = RNG.standard_normal((n, 2)).astype(F32)
    indices = np.asarray(
        data.draw(st.lists(st.integers(-n - 2, n + 1), min_size=m, max_size=m)), "int32"
    )
    updates = RNG.standard_normal((m, 2)).astype(F32)
    got = ivy_like.scatter_add(arr(x), arr(indices, "int32"), arr(updates))
    assert_close(got, ref_scatter_add(x, indices, updates), rtol=1e-6, atol=1e-6)
    if HAS_JAX:
        assert_close(got, np.asarray(jnp().asarray(x).at[indices].add(updates)), atol=1e-6)


def test_scatter_add_shapes_dtypes_and_copy(backend):
    x = np.arange(8, dtype="int32").reshape(4, 2)
    xa = arr(x, "int32")
    indices = np.array([[0, 3], [3, -1]], "int32")  # 2-D indices select a (2, 2) block of rows
    got = ivy_like.scatter_add(xa, arr(indices, "int32"), arr(np.full((2, 2, 2), 1.7, F32)))
    assert npy(got).dtype == np.int32  # updates are cast to x's dtype
    assert_close(got, ref_scatter_add(x, indices, np.full((2, 2, 2), 1.7, F32)))
    assert_close(xa, x)  # x is never changed, nor shares memory with the result
    if backend.mutable_arrays:
        got[0] = 100
        assert_close(xa, x)
    broadcast = xa.scatter_add(arr([1], "int32"), 10)  # a scalar update broadcasts
    assert_close(broadcast, ref_scatter_add(x, np.array([1]), np.array(10)))
    scalar_index = ivy_like.scatter_add(xa, 2, arr([1, 1], "int32"))
    assert_close(scalar_index, ref_scatter_add(x, np.array(2), np.array([1, 1])))
    c = Container(a=arr([0.0, 0.0]), b=arr([1.0, 1.0, 1.0]))
    out = c.scatter_add(arr([0, 0], "int32"), arr([1.0, 2.0]))
    close(out.a, [3.0, 0.0])
    close(out.b, [4.0, 1.0, 1.0])


# -- segment_sum / segment_max ------------------------------------------------------------------------
@given(
    m=st.integers(0, 6),
    segments=st.integers(0, 4),
    data=st.data(),
)
def test_segments_match_reference(backend, m, segments, data):
    ids = np.asarray(
        data.draw(st.lists(st.integers(-2, segments + 1), min_size=m, max_size=m)), "int32"
    )
    values = np.asarray(
        data.draw(
            st.lists(
                st.sampled_from([-2.0, 0.0, 1.5, 3.0, NAN, NEG_NAN]), min_size=2 * m, max_size=2 * m
            )
        ),
        F32,
    ).reshape(m, 2)
    for name in ("sum", "max"):
        op = getattr(ivy_like, f"segment_{name}")
        got = op(arr(values), arr(ids, "int32"), segments)
        assert_close(got, ref_segment(values, ids, segments, name), rtol=1e-6, atol=1e-6)
        if HAS_JAX:
            import jax

            want = getattr(jax.ops, f"segment_{name}")(values, ids, segments)
            assert_close(got, np.asarray(want), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("dtype", ["int32", "int8", "uint8"])
def test_segments_of_integers(backend, dtype):
    data = np.array([[1, 2], [7, 0], [3, 9]], dtype)
    ids = np.array([2, 0, 2], "uint8")
    total = ivy_like.segment_sum(arr(data, dtype), arr(ids, "uint8"), 4)
    top = arr(data, dtype).segment_max(arr(ids, "uint8"), 4)
    assert_close(total, ref_segment(data, ids, 4, "sum"))  # the dtype is kept
    assert_close(top, ref_segment(data, ids, 4, "max"))  # an empty segment: the dtype's minimum


def test_segments_container(backend):
    c = Container(a=arr([1.0, 2.0, 3.0]), b=arr([[1.0], [5.0], [2.0]]))
    ids = arr([1, 1, 0], "int32")
    close(c.segment_sum(ids, 3).a, [3.0, 3.0, 0.0])
    close(c.segment_max(ids, 2).b, [[2.0], [5.0]])


# -- bad arguments: one error type, naming the argument, on every backend ---------------------------
def _f(*shape):
    return arr(np.ones(shape, F32))


def _i(values, dtype="int32"):
    return arr(np.asarray(values), dtype)


ERRORS = {
    "einsum letters": (lambda: ivy_like.einsum("i1", _f(2, 2)), ValueError, "subscripts"),
    "einsum dot": (lambda: ivy_like.einsum("i.j", _f(2, 2)), ValueError, "subscripts"),
    "einsum count": (lambda: ivy_like.einsum("i,i", _f(2)), ValueError, "operands"),
    "einsum rank": (lambda: ivy_like.einsum("ij,j", _f(2), _f(2)), ValueError, r"operands\[0\]"),
    "einsum sizes": (lambda: ivy_like.einsum("i,i", _f(3), _f(2)), ValueError, "label 'i'"),
    "einsum diagonal": (lambda: ivy_like.einsum("ii", _f(2, 3)), ValueError, "label 'i'"),
    "einsum output": (lambda: ivy_like.einsum("i->j", _f(3)), ValueError, "output label 'j'"),
    "einsum repeat out": (lambda: ivy_like.einsum("ij->ii", _f(2, 2)), ValueError, "repeats"),
    "einsum ellipsis": (lambda: ivy_like.einsum("...i->i", _f(2, 3)), ValueError, r"'\.\.\.'"),
    "einsum type": (lambda: ivy_like.einsum(3, _f(2)), TypeError, "subscripts"),
    "pad mode": (lambda: ivy_like.pad(_f(3), 1, mode="wrap"), ValueError, "mode"),
    "pad negative": (lambda: ivy_like.pad(_f(3), -1), ValueError, "pad_width"),
    "pad float": (lambda: ivy_like.pad(_f(3), 1.5), TypeError, "pad_width"),
    "pad form": (lambda: ivy_like.pad(_f(2, 2), ((1, 1),) * 3), ValueError, "pad_width"),
    "pad empty axis": (lambda: ivy_like.pad(_f(0, 2), 1, mode="reflect"), ValueError, "empty axis"),
    "one_hot float": (lambda: ivy_like.one_hot(_f(2), 3), TypeError, "indices"),
    "one_hot bool": (lambda: ivy_like.one_hot(_i([1, 0], bool), 3), TypeError, "indices"),
    "one_hot negative": (lambda: ivy_like.one_hot(_i([1]), -1), ValueError, "num_classes"),
    "one_hot float n": (lambda: ivy_like.one_hot(_i([1]), 2.5), TypeError, "num_classes"),
    "top_k large": (lambda: ivy_like.top_k(_f(2, 3), 4), ValueError, "k must be at most 3"),
    "top_k negative": (lambda: ivy_like.top_k(_f(3), -1), ValueError, "k"),
    "top_k float": (lambda: ivy_like.top_k(_f(3), 1.0), TypeError, "k"),
    "top_k 0-d": (lambda: ivy_like.top_k(arr(1.0), 1), ValueError, "x must have"),
    "scatter float": (lambda: ivy_like.scatter_add(_f(3), _f(2), _f(2)), TypeError, "indices"),
    "scatter bool": (
        lambda: ivy_like.scatter_add(_f(3), _i([1, 0, 1], bool), _f(3)),
        TypeError,
        "indices",
    ),
    "scatter shapes": (
        lambda: ivy_like.scatter_add(_f(4, 2), _i([0, 1]), _f(3, 2)),
        ValueError,
        "updates",
    ),
    "scatter 0-d": (lambda: ivy_like.scatter_add(arr(1.0), _i([0]), _f(1)), ValueError, "x must"),
    "segment float ids": (
        lambda: ivy_like.segment_sum(_f(2), _f(2), 2),
        TypeError,
        "segment_ids",
    ),
    "segment length": (
        lambda: ivy_like.segment_sum(_f(3), _i([0, 1]), 2),
        ValueError,
        "segment_ids",
    ),
    "segment one row": (
        lambda: ivy_like.segment_max(_f(1, 2), _i([0, 1, 0]), 2),
        ValueError,
        "segment_ids",
    ),
    "segment 2-D ids": (
        lambda: ivy_like.segment_sum(_f(3, 2), _i(np.zeros((3, 2), int)), 2),
        ValueError,
        "segment_ids",
    ),
    "segment negative n": (
        lambda: ivy_like.segment_sum(_f(2), _i([0, 1]), -1),
        ValueError,
        "num_segments",
    ),
    "segment float n": (
        lambda: ivy_like.segment_max(_f(2), _i([0, 1]), 2.0),
        TypeError,
        "num_segments",
    ),
    "logsumexp axis": (lambda: ivy_like.logsumexp(_f(2, 2), axis=2), axis_error_type(), "axis"),
}


@pytest.mark.parametrize(
    "case",
    list(ERRORS),
)
def test_bad_arguments_are_decided(backend, case):
    call, kind, names = ERRORS[case]
    with pytest.raises(kind, match=names) as info:
        call()
    assert type(info.value) is kind  # never a framework's own subclass


# -- gradients ------------------------------------------------------------------------------------------
W = RNG.standard_normal((4, 5)).astype(F32)


def _grad_check(ad, f_ivy, f_jax, inputs, closed_form, argnums=0):
    """``ivy_like.grad`` of ``f_ivy`` at ``inputs`` against the NumPy closed form, and against
    ``jax.grad`` of ``f_jax`` where JAX is installed."""
    got = ivy_like.grad(f_ivy, argnums=argnums)(
        *[arr(v) if v.dtype.kind == "f" else arr(v, v.dtype) for v in inputs]
    )
    assert_close(got, closed_form, rtol=1e-5, atol=1e-5)
    if HAS_JAX:
        import jax

        want = jax.grad(f_jax, argnums=argnums)(*inputs)
        assert_close(
            got,
            np.asarray(want) if not isinstance(want, tuple) else tuple(np.asarray(w) for w in want),
            rtol=1e-5,
            atol=1e-5,
        )


def test_grad_logsumexp(ad):
    x = RNG.standard_normal((3, 4)).astype(F32) * 4
    x[0, 0] = -INF  # a -inf among finite values gets gradient 0
    w = W[:3, 0]
    softmax = np.exp(x - np.logaddexp.reduce(x, axis=1, keepdims=True))
    _grad_check(
        ad,
        lambda x: ivy_like.sum(ivy_like.logsumexp(x, axis=1) * arr(w)),
        lambda x: (jax_nn().logsumexp(x, axis=1) * w).sum(),
        [x],
        softmax * w[:, None],
    )


def test_grad_einsum(ad):
    a = RNG.standard_normal((3, 4)).astype(F32)
    b = RNG.standard_normal((4, 5)).astype(F32)
    w = W[:3]
    _grad_check(
        ad,
        lambda a, b: ivy_like.sum(ivy_like.einsum("ij,jk->ik", a, b) * arr(w)),
        lambda a, b: (jnp().einsum("ij,jk->ik", a, b) * w).sum(),
        [a, b],
        (w @ b.T, a.T @ w),
        argnums=(0, 1),
    )
    x = RNG.standard_normal((3, 3)).astype(F32)
    _grad_check(
        ad,
        lambda x: ivy_like.einsum("ii->", x),
        lambda x: jnp().einsum("ii->", x),
        [x],
        np.eye(3, dtype=F32),
    )


@pytest.mark.parametrize("mode", ["constant", "reflect", "edge"])
def test_grad_pad(ad, mode):
    x = RNG.standard_normal((2, 3)).astype(F32)
    pad_width = ((1, 2), (4, 1))
    w = RNG.standard_normal(np.pad(x, pad_width).shape).astype(F32)
    # The closed form: pad is linear, so the gradient of sum(w * pad(x)) is the transpose of
    # pad applied to w: column k of its Jacobian is pad(e_k).
    closed = np.array(
        [
            (w * np.pad(e.reshape(x.shape), pad_width, mode=mode)).sum()
            for e in np.eye(x.size, dtype=F32)
        ],
        F32,
    ).reshape(x.shape)
    _grad_check(
        ad,
        lambda x: ivy_like.sum(ivy_like.pad(x, pad_width, mode=mode) * arr(w)),
        lambda x: (jnp().pad(x, pad_width, mode=mode) * w).sum(),
        [x],
        closed,
    )


def test_grad_scatter_add(ad):
    x = RNG.standard_normal((4, 2)).astype(F32)
    indices = np.array([0, 3, 0, -1, 7], "int32")  # repeated, negative and dropped rows
    updates = RNG.standard_normal((5, 2)).astype(F32)
    w = W[:, :2]
    rows = np.array([0, 3, 0, 3])
    closed_updates = np.concatenate([w[rows], np.zeros((1, 2), F32)])
    ia = arr(indices, "int32")
    got = ivy_like.grad(
        lambda x, u: ivy_like.sum(ivy_like.scatter_add(x, ia, u) * arr(w)), argnums=(0, 1)
    )(arr(x), arr(updates))
    assert_close(got, (w, closed_updates))
    if HAS_JAX:
        import jax

        want = jax.grad(lambda x, u: (x.at[indices].add(u) * w).sum(), argnums=(0, 1))(x, updates)
        assert_close(got, tuple(np.asarray(g) for g in want))


def test_grad_segment_sum(ad):
    data = RNG.standard_normal((5, 2)).astype(F32)
    ids = np.array([2, 0, 2, -1, 3], "int32")
    w = W[:3, :2]
    closed = np.stack([w[i] if 0 <= i < 3 else np.zeros(2, F32) for i in ids])
    ia = arr(ids, "int32")
    got = ivy_like.grad(lambda d: ivy_like.sum(ivy_like.segment_sum(d, ia, 3) * arr(w)))(arr(data))
    assert_close(got, closed)
    if HAS_JAX:
        import jax

        want = jax.grad(lambda d: (jax.ops.segment_sum(d, ids, 3) * w).sum())(data)
        assert_close(got, np.asarray(want))


def test_grad_segment_max_and_top_k_flow(ad):
    data = np.array([[1.0, 5.0], [3.0, 2.0], [0.5, 9.0]], F32)  # no ties
    ia = arr([0, 0, 1], "int32")
    got = ivy_like.grad(lambda d: ivy_like.sum(ivy_like.segment_max(d, ia, 2)))(arr(data))
    close(got, [[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])  # each segment's largest row
    x = np.array([[1.0, 4.0, 2.0]], F32)
    got = ivy_like.grad(lambda x: ivy_like.sum(ivy_like.top_k(x, 2)[0] * arr([[1.0, 10.0]])))(
        arr(x)
    )
    close(got, [[0.0, 1.0, 10.0]])


# -- compiled (JAX) ------------------------------------------------------------------------------------
def test_scatter_and_segments_under_jax_jit(request):
    if "jax" not in selected_backends(request.config):
        pytest.skip("the jax backend is not selected for this run")
    import jax
    import jax.numpy as jxn

    @jax.jit
    def f(x, i, u):
        return ivy_like.scatter_add(x, i, u), ivy_like.segment_sum(u, i, 3), ivy_like.top_k(x, 2)

    x = jxn.arange(4.0)
    i = jxn.array([0, 5, -1, 0])
    u = jxn.array([1.0, 2.0, 3.0, 4.0])
    added, summed, (values, _) = f(x, i, u)
    np.testing.assert_allclose(np.asarray(added), [5.0, 1.0, 2.0, 6.0])
    np.testing.assert_allclose(np.asarray(summed), [5.0, 0.0, 0.0])
    np.testing.assert_allclose(np.asarray(values), [3.0, 2.0])


@pytest.mark.parametrize(
    "name",
    [
        "einsum",
        "pad",
        "one_hot",
        "logsumexp",
        "top_k",
        "scatter_add",
        "segment_sum",
        "segment_max",
    ],
)
def test_signatures_are_the_asked_ones(name):
    empty = inspect.Parameter.empty
    asked = {
        "einsum": [("subscripts", empty), ("*operands", empty)],
        "pad": [("x", empty), ("pad_width", empty), ("mode", "constant"), ("constant_values", 0)],
        "one_hot": [("indices", empty), ("num_classes", empty), ("dtype", None)],
        "logsumexp": [("x", empty), ("axis", None), ("keepdims", False)],
        "top_k": [("x", empty), ("k", empty)],
        "scatter_add": [("x", empty), ("indices", empty), ("updates", empty)],
        "segment_sum": [("data", empty), ("segment_ids", empty), ("num_segments", empty)],
        "segment_max": [("data", empty), ("segment_ids", empty), ("num_segments", empty)],
    }
    shown = [
        ("*" * (p.kind is p.VAR_POSITIONAL) + p.name, p.default)
        for p in inspect.signature(getattr(ivy_like, name)).parameters.values()
    ]
    assert shown == asked[name]
    assert hasattr(Container, f"static_{name}")
    # The Array method wherever an array comes first.
    assert hasattr(ivy_like.Array, name) == (name != "einsum")

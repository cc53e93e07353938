"""Statistical, searching, sorting, set and utility functions on every backend, against NumPy.

Inputs are drawn with hypothesis as NumPy arrays (ties, NaN, ±inf and integer extremes
included) and converted to the backend under test. The rules decided in ``ivy_like.ops``
(stable sorts also when descending, NaN as the largest value, NaN-distinct sorted ``unique``,
NaN variance when ``N - correction <= 0``, index results in the default integer dtype) are the
oracle where NumPy itself differs.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ivy_like
from ivy_like.ops.set_functions import UniqueAllResult, UniqueCountsResult, UniqueInverseResult
from ivy_like.testing import assert_close

NAN = float("nan")
shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)
# Few distinct values, so ties and repeated NaNs are common.
tie_floats = st.sampled_from([NAN, -np.inf, -2.0, -0.0, 0.0, 1.0, 1.5, np.inf])


def floats(shape=shapes, elements=tie_floats):
    return hnp.arrays(np.float32, shape, elements=elements)


def ints(dtype, shape=shapes, lo=-3, hi=3):
    return hnp.arrays(dtype, shape, elements=st.integers(lo, hi))


def index_dtype(backend) -> np.dtype:
    """The default integer dtype of the backend (the dtype of every index result)."""
    return np.dtype(backend.unified_dtype(backend.module.DEFAULT_INT).name)


def accumulator(backend, dtype) -> np.dtype:
    """NumPy's rule for sum/prod/cumsum with the backend's default integer width."""
    dt, default = np.dtype(dtype), index_dtype(backend)
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < default.itemsize):
        return default
    if dt.kind == "u" and dt.itemsize < default.itemsize:
        # torch and mxnet have no usable uint64: unsigned integers accumulate in int64
        # (documented).
        no_uint64 = backend.name in ("torch", "mxnet")
        return default if no_uint64 else np.dtype(f"uint{default.itemsize * 8}")
    return dt


def ref_cumulative_sum(x, axis=None, dtype=None, include_initial=False):
    """np.cumulative_sum (NumPy >= 2.1); from np.cumsum and the standard's definition before."""
    if hasattr(np, "cumulative_sum"):
        return np.cumulative_sum(x, axis=axis, dtype=dtype, include_initial=include_initial)
    axis = 0 if axis is None else axis % x.ndim  # the callers pass None only for 1-D x
    out = np.cumsum(x, axis=axis, dtype=dtype)
    if include_initial:  # a leading zero along axis: the sum of no elements
        zero = np.zeros(out.shape[:axis] + (1,) + out.shape[axis + 1 :], out.dtype)
        out = np.concatenate([zero, out], axis=axis)
    return out


def draw_axis(data, ndim, allow_none=True, allow_tuple=True):
    choices = [st.integers(-ndim, ndim - 1)]
    if allow_none:
        choices.append(st.none())
    if allow_tuple:
        choices.append(st.lists(st.integers(0, ndim - 1), unique=True).map(tuple))
    return data.draw(st.one_of(*choices), label="axis")


# -- statistical ----------------------------------------------------------------------------------
@given(data=st.data())
def test_cumulative_sum(backend, data):
    dtype = data.draw(st.sampled_from(["float32", "int8", "uint8", "int32", "bool"]))
    if dtype == "float32":
        x = data.draw(floats(elements=st.sampled_from([-2.0, 0.5, 1.0, 3.0])))
    elif dtype == "bool":
        x = data.draw(hnp.arrays(np.bool_, shapes))
    else:
        x = data.draw(ints(dtype, lo=0 if dtype == "uint8" else -3))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1)) if x.ndim > 1 else None
    initial = data.draw(st.booleans())
    acc = accumulator(backend, x.dtype)
    expected = ref_cumulative_sum(x, axis=axis, dtype=acc, include_initial=initial)
    got = ivy_like.cumulative_sum(backend.asarray(x), axis=axis, include_initial=initial)
    assert_close(got, expected)
    explicit = ivy_like.cumulative_sum(backend.asarray(x), axis=axis, dtype=ivy_like.float32)
    assert_close(explicit, ref_cumulative_sum(x.astype(np.float32), axis=axis))


def test_cumulative_sum_axis_rules(backend):
    with pytest.raises(ValueError, match="axis is required"):
        ivy_like.cumulative_sum(ivy_like.ones((2, 2)))
    with pytest.raises(ValueError, match="at least one dimension"):
        ivy_like.cumulative_sum(ivy_like.asarray(1.0))
    empty = ivy_like.cumulative_sum(ivy_like.zeros((0,)), include_initial=True)
    assert_close(empty, np.zeros(1, np.float32))


@given(data=st.data())
def test_prod(backend, data):
    dtype = data.draw(st.sampled_from(["float32", "int8", "uint8", "int32", "bool"]))
    if dtype == "float32":
        x = data.draw(floats(elements=st.sampled_from([-2.0, 0.5, 1.0, 1.5, NAN])))
    elif dtype == "bool":
        x = data.draw(hnp.arrays(np.bool_, shapes))
    else:
        x = data.draw(ints(dtype, lo=0 if dtype == "uint8" else -2, hi=2))
    axis = draw_axis(data, x.ndim)
    keepdims = data.draw(st.booleans())
    expected = np.prod(x, axis=axis, keepdims=keepdims, dtype=accumulator(backend, x.dtype))
    got = ivy_like.prod(backend.asarray(x), axis=axis, keepdims=keepdims)
    assert_close(got, expected)


def test_empty_reductions(backend):
    """prod of nothing is 1, all True, any False, var/std NaN, argmax a ValueError."""
    e = ivy_like.zeros((0, 3))
    assert_close(ivy_like.prod(e, axis=0), np.ones(3, np.float32))
    assert_close(ivy_like.all(e), np.bool_(True))
    assert_close(ivy_like.any(e), np.bool_(False))
    assert_close(ivy_like.var(e, axis=0), np.full(3, NAN, np.float32))
    assert_close(ivy_like.std(e), np.float32(NAN))
    for fn in (ivy_like.argmax, ivy_like.argmin):
        with pytest.raises(ValueError):
            fn(e)
        with pytest.raises(ValueError):
            fn(e, axis=0)
    # The zero-size axis last, and reductions whose result is itself empty (MXNet rejected
    # both until its reductions learned the identities).
    f = ivy_like.zeros((2, 1, 0))
    assert_close(ivy_like.sum(f, axis=-1), np.zeros((2, 1), np.float32))
    assert_close(ivy_like.prod(f, axis=-1), np.ones((2, 1), np.float32))
    with np.errstate(invalid="ignore"):
        assert_close(ivy_like.mean(f, axis=(1, 2)), np.full(2, NAN, np.float32))
    assert_close(ivy_like.sum(f, axis=0), np.zeros((1, 0), np.float32))
    assert_close(ivy_like.max(f, axis=1), np.zeros((2, 0), np.float32))


@pytest.mark.parametrize("name", ["var", "std"])
@given(data=st.data())
def test_var_std(backend, name, data):
    x = data.draw(floats(elements=st.floats(-10, 10, width=32, allow_subnormal=False)))
    axis = draw_axis(data, x.ndim)
    keepdims = data.draw(st.booleans())
    correction = data.draw(st.sampled_from([0, 1, 0.5, 2.0, 5]))
    n = x.size if axis is None else int(np.prod([x.shape[a] for a in np.atleast_1d(axis)]))
    if n - correction <= 0:
        expected = np.full(np.sum(x, axis=axis, keepdims=keepdims).shape, NAN, np.float32)
    else:
        ref = getattr(np, name)(x.astype(np.float64), axis=axis, ddof=correction, keepdims=keepdims)
        expected = np.asarray(ref, dtype=np.float32)
    got = getattr(ivy_like, name)(
        backend.asarray(x), axis=axis, correction=correction, keepdims=keepdims
    )
    # float32 against a float64 reference: a few ulp of the data's scale (values up to 10).
    assert_close(got, expected, rtol=1e-5, atol=1e-5)


def test_var_rejects_integers(backend):
    for fn in (ivy_like.var, ivy_like.std):
        with pytest.raises(TypeError, match="floating-point"):
            fn(ivy_like.asarray([1, 2, 3]))
    with pytest.raises(TypeError, match="correction"):
        ivy_like.var(ivy_like.ones(3), correction="1")


# -- searching ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["argmax", "argmin"])
@given(data=st.data())
def test_argmax_argmin(backend, name, data):
    kind = data.draw(st.sampled_from(["float32", "int8", "bool"]))
    if kind == "float32":
        x = data.draw(floats())
    elif kind == "bool":
        x = data.draw(hnp.arrays(np.bool_, shapes))
    else:
        x = data.draw(ints("int8", lo=-128, hi=127))
    axis = draw_axis(data, x.ndim, allow_tuple=False)
    keepdims = data.draw(st.booleans())
    # NumPy's rule, ours: ties -> first occurrence, NaN wins (the first NaN).
    expected = getattr(np, name)(x, axis=axis, keepdims=keepdims).astype(index_dtype(backend))
    got = getattr(ivy_like, name)(backend.asarray(x), axis=axis, keepdims=keepdims)
    assert_close(got, expected)


@given(x=hnp.arrays(np.int8, shapes, elements=st.sampled_from([0, 0, 1, -3])))
def test_nonzero(backend, x):
    expected = tuple(i.astype(index_dtype(backend)) for i in np.nonzero(x))
    got = ivy_like.nonzero(backend.asarray(x))
    assert isinstance(got, tuple) and len(got) == x.ndim
    assert_close(got, expected)
    floats_x = np.where(x == 1, NAN, x).astype(np.float32)  # NaN is non-zero
    assert_close(ivy_like.nonzero(backend.asarray(floats_x)), expected)
    assert_close(ivy_like.nonzero(backend.asarray(x != 0)), expected)


def test_nonzero_rejects_0d(backend):
    with pytest.raises(ValueError, match="at least one dimension"):
        ivy_like.nonzero(ivy_like.asarray(1.0))


@given(data=st.data())
def test_searchsorted(backend, data):
    x1 = np.sort(data.draw(floats(shape=st.integers(1, 8))))  # NaN last, as NumPy sorts
    x2 = data.draw(floats(shape=hnp.array_shapes(min_dims=0, max_dims=2, max_side=3)))
    side = data.draw(st.sampled_from(["left", "right"]))
    expected = np.searchsorted(x1, x2, side=side).astype(index_dtype(backend))
    got = ivy_like.searchsorted(backend.asarray(x1), backend.asarray(x2), side=side)
    assert_close(got, expected)
    # The same through sorter on a shuffled x1.
    perm = data.draw(st.permutations(range(x1.size)))
    shuffled = x1[np.asarray(perm)]
    sorter = np.argsort(shuffled, kind="stable").astype(index_dtype(backend))
    got = ivy_like.searchsorted(
        backend.asarray(shuffled), backend.asarray(x2), side=side, sorter=backend.asarray(sorter)
    )
    assert_close(got, expected)


def test_searchsorted_integers_and_errors(backend):
    x1 = ivy_like.asarray([1, 3, 3, 7])
    assert_close(
        ivy_like.searchsorted(x1, ivy_like.asarray([3, 8, 0]), side="right"),
        np.array([3, 4, 0], index_dtype(backend)),
    )
    with pytest.raises(ValueError, match="one-dimensional"):
        ivy_like.searchsorted(ivy_like.ones((2, 2)), ivy_like.ones(2))
    with pytest.raises(ValueError, match="side"):
        ivy_like.searchsorted(ivy_like.ones(2), ivy_like.ones(2), side="middle")


# -- sorting --------------------------------------------------------------------------------------
def _oracle_argsort(row: np.ndarray, descending: bool) -> np.ndarray:
    """Python's stable sorted(): NaN largest; descending keeps equal elements in order."""
    isnan = np.isnan(row) if row.dtype.kind == "f" else np.zeros(row.shape, bool)
    if descending:
        key = lambda i: (not isnan[i], 0 if isnan[i] else -float(row[i]))  # noqa: E731
    else:
        key = lambda i: (bool(isnan[i]), 0 if isnan[i] else float(row[i]))  # noqa: E731
    return np.array(sorted(range(row.size), key=key), dtype=np.int64)


@given(data=st.data())
def test_argsort_sort(backend, data):
    kind = data.draw(st.sampled_from(["float32", "int8", "bool"]))
    if kind == "float32":
        x = data.draw(floats())
    elif kind == "bool":
        x = data.draw(hnp.arrays(np.bool_, shapes))
    else:
        x = data.draw(ints("int8", lo=-128, hi=127) | ints("int8", lo=-1, hi=1))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    descending = data.draw(st.booleans())
    idx = np.apply_along_axis(_oracle_argsort, axis, x, descending).astype(index_dtype(backend))
    got = ivy_like.argsort(backend.asarray(x), axis=axis, descending=descending)
    assert_close(got, idx)
    got = ivy_like.sort(backend.asarray(x), axis=axis, descending=descending)
    assert_close(got, np.take_along_axis(x, idx.astype(np.int64), axis))


def test_sort_stability_example(backend):
    """Equal keys keep their order, ascending and descending; NaN last/first."""
    x = ivy_like.asarray([2.0, NAN, 1.0, 2.0, 1.0, NAN, 2.0])
    dt = index_dtype(backend)
    assert_close(ivy_like.argsort(x), np.array([2, 4, 0, 3, 6, 1, 5], dt))
    assert_close(ivy_like.argsort(x, descending=True), np.array([1, 5, 0, 3, 6, 2, 4], dt))
    assert_close(ivy_like.argsort(x, stable=False), np.array([2, 4, 0, 3, 6, 1, 5], dt))


# -- set functions --------------------------------------------------------------------------------
def _oracle_unique(x: np.ndarray):
    values, indices, inverse, counts = np.unique(
        x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False
    )
    return values, indices, inverse.reshape(x.shape), counts


@given(
    x=hnp.arrays(
        np.float32,
        hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
        elements=tie_floats,
    )
    | ints("int8", shape=hnp.array_shapes(min_dims=1, max_dims=2, min_side=0, max_side=5))
)
def test_unique(backend, x):
    values, indices, inverse, counts = _oracle_unique(x)
    dt = index_dtype(backend)
    native = backend.asarray(x)
    r = ivy_like.unique_all(native)
    assert type(r) is UniqueAllResult
    # x[indices] must be the values; which of 0.0 / -0.0 comes first is the first occurrence.
    assert_close(r, (values, indices.astype(dt), inverse.astype(dt), counts.astype(dt)))
    r = ivy_like.unique_counts(native)
    assert type(r) is UniqueCountsResult
    assert_close(r, (values, counts.astype(dt)))
    r = ivy_like.unique_inverse(native)
    assert type(r) is UniqueInverseResult
    assert_close(r, (values, inverse.astype(dt)))
    assert_close(ivy_like.unique_values(native), values)


def test_unique_named_tuple_on_array_input(backend):
    r = ivy_like.unique_all(ivy_like.asarray([2, 1, 2]))
    assert type(r) is UniqueAllResult
    assert_close(r.counts, np.array([1, 2], index_dtype(backend)))


ISIN_DTYPES = ["float32", "int8", "uint8", "int32", "bool"]
any_shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)


def isin_values(dtype):
    """Few distinct values, so that elements are often found: ties, NaN, ±0, ±inf for floats."""
    if dtype == "float32":
        return floats(shape=any_shapes)
    if dtype == "bool":
        return hnp.arrays(np.bool_, any_shapes)
    return ints(dtype, shape=any_shapes, lo=0 if dtype == "uint8" else -3)


@given(data=st.data())
def test_isin(backend, data):
    """Membership as NumPy's isin, in one dtype and across two (values small enough that
    NumPy's promotion is exact, as ivy_like's comparison is): NaN is in nothing, -0.0 is 0.0,
    True is 1; 0-d and empty arrays; the result a bool array of x1's shape."""
    d1, d2 = data.draw(st.sampled_from(ISIN_DTYPES)), data.draw(st.sampled_from(ISIN_DTYPES))
    x1, x2 = data.draw(isin_values(d1)), data.draw(isin_values(d2))
    invert = data.draw(st.booleans())
    got = ivy_like.isin(backend.asarray(x1), backend.asarray(x2), invert=invert)
    assert_close(got, np.asarray(np.isin(x1, x2, invert=invert)))


# -- utility --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["all", "any"])
@given(data=st.data())
def test_all_any(backend, name, data):
    kind = data.draw(st.sampled_from(["float32", "int8", "bool"]))
    if kind == "float32":
        x = data.draw(floats(elements=st.sampled_from([0.0, -0.0, 1.0, NAN])))
    elif kind == "bool":
        x = data.draw(hnp.arrays(np.bool_, shapes))
    else:
        x = data.draw(ints("int8", lo=0, hi=1))
    axis = draw_axis(data, x.ndim)
    keepdims = data.draw(st.booleans())
    expected = getattr(np, name)(x, axis=axis, keepdims=keepdims)
    got = getattr(ivy_like, name)(backend.asarray(x), axis=axis, keepdims=keepdims)
    assert_close(got, np.asarray(expected))


# -- the three ways in: Array method, native array, NumPy array under another backend ----------
CALLS = {
    "cumulative_sum": ({}, lambda a: ref_cumulative_sum(a, axis=0)),
    "prod": ({"axis": 1}, lambda a: np.prod(a, axis=1)),
    "std": ({"correction": 1}, lambda a: np.std(a, ddof=1)),
    "var": ({"axis": 0}, lambda a: np.var(a, axis=0)),
    "argmax": ({"axis": 0}, lambda a: np.argmax(a, axis=0)),
    "argmin": ({}, lambda a: np.argmin(a)),
    "argsort": ({"descending": True}, lambda a: np.flip(np.argsort(a, kind="stable"), -1)),
    "sort": ({"axis": 0}, lambda a: np.sort(a, axis=0)),
    "unique_values": ({}, np.unique),
    "all": ({"axis": 1}, lambda a: np.all(a, axis=1)),
    "any": ({}, np.any),
}
DATA = np.array([[3.0, 1.0, 0.0], [2.0, 5.0, 4.0]], np.float32)  # distinct: no tie order issues


@pytest.mark.parametrize("name", sorted(CALLS))
def test_entry_points(backend, name):
    kwargs, ref = CALLS[name]
    expected = np.asarray(ref(DATA if name != "cumulative_sum" else DATA[0]))
    data = DATA if name != "cumulative_sum" else DATA[0]
    check = expected.dtype.kind not in "iu"  # index dtypes are the backend's own, see above
    fn = getattr(ivy_like, name)
    arr = ivy_like.asarray(data)
    for got in (
        getattr(arr, name)(**kwargs),  # the Array method
        fn(arr, **kwargs),  # ivy_like.Array
        fn(arr.data, **kwargs),  # native array of the active backend
        fn(data, **kwargs),  # a NumPy array, converted to the active backend
    ):
        assert_close(got, expected, check_dtype=check, label=f"{name}: ")
    assert type(getattr(arr, name)(**kwargs)) is ivy_like.Array
    native = fn(arr.data, **kwargs)
    assert isinstance(native, backend.array_types), type(native)


def test_multi_output_entry_points(backend):
    arr = ivy_like.asarray([[0.0, 2.0], [3.0, 0.0]])
    dt = index_dtype(backend)
    for got in (arr.nonzero(), ivy_like.nonzero(arr), ivy_like.nonzero(arr.data)):
        assert_close(got, (np.array([0, 1], dt), np.array([1, 0], dt)))
    values, counts = arr.unique_counts()
    assert type(values) is ivy_like.Array
    assert_close((values, counts), (np.array([0.0, 2.0, 3.0], np.float32), np.array([2, 1, 1], dt)))
    pos = ivy_like.searchsorted(np.array([1.0, 2.0], np.float32), arr)  # NumPy x1, Array x2
    assert_close(pos, np.array([[0, 1], [2, 0]], dt))


def test_container_variants(backend):
    c = ivy_like.Container(
        a=ivy_like.asarray([[3.0, 1.0], [0.0, 2.0]]), b=ivy_like.asarray([[1, 0]])
    )
    assert_close(c.argmax(axis=1), {"a": np.array([0, 1]), "b": np.array([0])}, check_dtype=False)
    assert_close(c.all(), {"a": np.bool_(False), "b": np.bool_(False)})
    # nonzero's number of outputs depends on each leaf's ndim, so each leaf holds its own tuple
    # (see test_container_nonzero_gives_a_container_of_tuples), not one Container per axis.
    nz = c.nonzero()
    assert_close(nz["a"], (np.array([0, 0, 1]), np.array([0, 1, 1])), check_dtype=False)
    assert_close(nz["b"], (np.array([0]), np.array([0])), check_dtype=False)
    values, counts = c.unique_counts()
    assert_close(counts, {"a": np.array([1, 1, 1, 1]), "b": np.array([1, 1])}, check_dtype=False)


def test_container_nonzero_gives_a_container_of_tuples(backend):
    # nonzero's number of outputs depends on each leaf's ndim (n_outputs=-1), so the Container
    # variant keeps one tuple per leaf instead of splitting into a fixed number of Containers.
    c = ivy_like.Container(a=ivy_like.asarray([0.0, 2.0, 3.0]), b=ivy_like.asarray([[0.0, 1.0]]))
    result = c.nonzero()
    assert isinstance(result, ivy_like.Container)
    assert len(result["a"]) == 1 and len(result["b"]) == 2
    assert_close(result["a"][0], np.array([1, 2]), check_dtype=False)
    assert_close(result["b"][1], np.array([1]), check_dtype=False)


# -- half precision: accumulated in float32 on every backend ---------------------------------------
# Values whose total leaves float16's range (65504; each row's sum, 53000, does not) and whose
# running sums lose integers past 2048 in float16: the two ways float16 accumulation fails.
HALF_VALUES = np.concatenate([np.full((4, 200), 250.0), np.full((4, 3000), 1.0)], axis=1)
# Fractions k/64 (exact in every half dtype) whose float32 sums are exact: summing them in
# half precision rounds (partial sums past 2048 step by 2), in any order.
HALF_FRACTIONS = np.random.default_rng(3).integers(64, 128, size=(4, 3000)) / 64
# Three factors with 7 significant bits each: their float32 product is exact, the half
# precision product of the first two already rounds.
HALF_FACTORS = np.array([[65.0, 71.0, 77.0], [67.0, 73.0, 79.0]]) / 64
HALF_STATS = {
    "sum": (lambda x: ivy_like.sum(x), HALF_FRACTIONS),
    "sum_axis": (lambda x: ivy_like.sum(x, axis=1), HALF_FRACTIONS),
    "sum_axis_0": (lambda x: ivy_like.sum(x, axis=0), HALF_FRACTIONS.T),
    "prod": (lambda x: ivy_like.prod(x), HALF_FACTORS[0]),
    "prod_axis": (lambda x: ivy_like.prod(x, axis=1), HALF_FACTORS),
    "mean": (lambda x: ivy_like.mean(x), HALF_VALUES),
    "mean_axis": (lambda x: ivy_like.mean(x, axis=1, keepdims=True), HALF_VALUES),
    "mean_fractions": (lambda x: ivy_like.mean(x, axis=1), HALF_FRACTIONS),
    "var_fractions": (lambda x: ivy_like.var(x, axis=1), HALF_FRACTIONS),
    "var": (lambda x: ivy_like.var(x), HALF_VALUES),
    "std": (lambda x: ivy_like.std(x, axis=0, correction=1), HALF_VALUES),
    "cumulative_sum": (lambda x: ivy_like.cumulative_sum(x, axis=1), HALF_VALUES),
    "cumulative_sum_fractions": (lambda x: ivy_like.cumulative_sum(x, axis=1), HALF_FRACTIONS),
    "cumulative_sum_initial": (
        lambda x: ivy_like.cumulative_sum(x, include_initial=True),
        HALF_VALUES[0],
    ),
}


def _half(backend, name):
    dtype = getattr(ivy_like, name)
    if dtype not in backend.module.DTYPES:
        pytest.skip(f"{backend.name} has no {name}")
    return dtype


@pytest.mark.parametrize("half", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", sorted(HALF_STATS))
def test_half_precision_statistics_accumulate_in_float32(backend, name, half):
    """sum, prod, mean, var, std and cumulative_sum of half input equal the float32
    computation cast back, bit for bit (NumPy's var, TensorFlow's and MLX's mean, NumPy's,
    TensorFlow's and MLX's cumulative_sum, TensorFlow's sum along an axis and JAX's, torch's
    and TensorFlow's prod accumulated in float16: inf, running sums stuck at 2048, products
    rounded at each step)."""
    dtype = _half(backend, half)
    call, values = HALF_STATS[name]
    got = call(ivy_like.asarray(values, dtype=dtype))
    wide = call(ivy_like.asarray(values, dtype=ivy_like.float32))
    assert got.dtype == dtype
    want = wide.astype(dtype).astype(ivy_like.float32).to_numpy()
    np.testing.assert_array_equal(got.astype(ivy_like.float32).to_numpy(), want)
    assert np.isfinite(want).all()


def test_half_precision_known_answers(backend):
    f16 = _half(backend, "float16")
    big = ivy_like.asarray(np.full(1000, 100.0), dtype=f16)
    assert float(ivy_like.mean(big)) == 100.0
    assert float(ivy_like.var(big)) == 0.0
    ones = ivy_like.asarray(np.ones(4096), dtype=f16)
    assert float(ivy_like.cumulative_sum(ones)[-1]) == 4096.0


@pytest.mark.parametrize("name", ["cumulative_sum", "sum"])
def test_half_precision_dtype_argument(backend, name):
    """dtype=float16 is accumulated in float32 too; a wider dtype is the backend's own call."""
    f16 = _half(backend, "float16")
    ones = ivy_like.asarray(np.ones(4096), dtype=f16)
    if name == "sum":
        assert float(ivy_like.sum(ivy_like.reshape(ones, (1, -1)), axis=1, dtype=f16)[0]) == 4096
        ints = ivy_like.asarray(np.ones((1, 4096), np.int32))
        assert float(ivy_like.sum(ints, axis=1, dtype=f16)[0]) == 4096
        return
    out = ivy_like.cumulative_sum(ones, dtype=f16)
    assert out.dtype == f16 and float(out[-1]) == 4096.0
    ints = ivy_like.asarray(np.ones(4096, np.int32))
    out = ivy_like.cumulative_sum(ints, dtype=f16)
    assert out.dtype == f16 and float(out[-1]) == 4096.0
    out = ivy_like.cumulative_sum(ones, dtype=ivy_like.float32)
    assert out.dtype == ivy_like.float32 and float(out[-1]) == 4096.0


# -- accuracy of long float32 sums ----------------------------------------------------------------
LONG_SUMS = {
    "sum": lambda x, axis: ivy_like.sum(x, axis=axis),
    "mean": lambda x, axis: ivy_like.mean(x, axis=axis),
    "var": lambda x, axis: ivy_like.var(x, axis=axis),
    "std": lambda x, axis: ivy_like.std(x, axis=axis),
    "vector_norm": lambda x, axis: ivy_like.linalg.vector_norm(x, axis=axis),
    "vector_norm_1": lambda x, axis: ivy_like.linalg.vector_norm(x, axis=axis, ord=1),
    "vecdot": lambda x, axis: ivy_like.vecdot(x, x, axis=-1 if axis is None else axis - x.ndim),
}
LONG_REFS = {
    "sum": lambda x, axis: np.sum(x, axis=axis),
    "mean": lambda x, axis: np.mean(x, axis=axis),
    "var": lambda x, axis: np.var(x, axis=axis),
    "std": lambda x, axis: np.std(x, axis=axis),
    "vector_norm": lambda x, axis: np.sqrt(np.sum(x * x, axis=axis)),
    "vector_norm_1": lambda x, axis: np.sum(np.abs(x), axis=axis),
    "vecdot": lambda x, axis: np.sum(x * x, axis=-1 if axis is None else axis),
}


LONG_LAYOUTS = {
    "whole": ((10**6,), None),
    "last_axis": ((250, 4000), 1),
    "first_axis": ((4000, 250), 0),
}


# vecdot reduces one axis: no whole-array case.
LONG_CASES = [
    (n, lay) for n in LONG_SUMS for lay in LONG_LAYOUTS if (n, lay) != ("vecdot", "whole")
]


@pytest.mark.parametrize(("name", "layout"), LONG_CASES)
def test_long_float32_sums_are_accurate(backend, name, layout):
    """A million float32 values summed within 1e-5 relative on every backend (NumPy's
    pairwise sum, torch's cascade and JAX: 1e-7). One running total drifts: MLX 0.32's float32
    sum and torch's vector_norm were 1e-2 and 4e-3 off for a million 0.1s, NumPy's and
    TensorFlow's reductions of a leading axis 4e-5 for 4000 rows."""
    shape, axis = LONG_LAYOUTS[layout]
    rng = np.random.default_rng(7)
    for data in (np.full(10**6, 0.1), 1 + rng.random(10**6)):
        xs = data.astype(np.float32).reshape(shape)
        want = LONG_REFS[name](xs.astype(np.float64), axis)
        got = ivy_like.to_numpy(LONG_SUMS[name](backend.asarray(xs), axis))
        if name in ("var", "std"):  # ~0 for constants: relative to the data's scale
            tol = {
                "rtol": 0.0,
                "atol": 1e-5 * float(np.abs(xs).max()) ** (2 if name == "var" else 1),
            }
        else:
            tol = {"rtol": 1e-5, "atol": 0.0}
        assert_close(got, want.astype(np.float32), **tol)


def test_variance_of_a_long_constant_array_is_near_zero(backend):
    x = backend.asarray(np.full(4001, 1234.567, np.float32))
    # NumPy, torch: exactly 0; a drifting mean (MLX's running total) gave 3e-5 for 1001.
    assert float(ivy_like.to_numpy(ivy_like.var(x))) <= 1e-7 * 1234.567**2 * 1e-3

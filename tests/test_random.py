"""``ivy_like.random``: explicit seeds; the portable source gives the same numbers on every
backend, the native source is deterministic per backend."""

from __future__ import annotations

import numpy as np
import pytest

import ivy_like
from ivy_like import random as R

BACKENDS = ivy_like.available_backends()

DRAWS = {
    "uniform": lambda **kw: R.uniform((3, 4), low=-2.0, high=3.0, **kw),
    "normal": lambda **kw: R.normal((3, 4), mean=1.0, std=2.0, **kw),
    "randint": lambda **kw: R.randint(-5, 7, (3, 4), **kw),
    "bernoulli": lambda **kw: R.bernoulli(0.3, (3, 4), **kw),
    "permutation": lambda **kw: R.permutation(12, **kw),
}


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_portable_same_numbers_on_every_backend(name):
    ref = DRAWS[name](seed=42, backend="numpy").to_numpy()
    for b in BACKENDS:
        got = DRAWS[name](seed=42, backend=b)
        assert isinstance(got, ivy_like.Array) and got.backend.name == b
        got = got.to_numpy()
        if name in ("randint", "permutation"):
            got, want = got.astype(np.int64), ref.astype(np.int64)  # default int width differs
        else:
            want = ref
        np.testing.assert_array_equal(got, want, err_msg=f"{name} on {b}")


def test_portable_numbers_are_numpys_pcg64():
    # The documented source, reproduced independently: Generator(PCG64(seed)), cast last.
    gen = np.random.Generator(np.random.PCG64(9))
    np.testing.assert_array_equal(
        R.uniform((5,), seed=9, backend="numpy").to_numpy(),
        gen.uniform(0.0, 1.0, (5,)).astype(np.float32),
    )
    gen = np.random.Generator(np.random.PCG64(9))
    np.testing.assert_array_equal(
        R.normal((2, 2), seed=9, dtype="float64", backend="numpy").to_numpy(),
        gen.normal(0.0, 1.0, (2, 2)),
    )


@pytest.mark.parametrize("source", ["portable", "native"])
@pytest.mark.parametrize("name", sorted(DRAWS))
def test_same_seed_same_numbers_other_seed_other_numbers(backend, name, source):
    a = DRAWS[name](seed=1, source=source).to_numpy()
    b = DRAWS[name](seed=1, source=source).to_numpy()
    c = DRAWS[name](seed=2, source=source).to_numpy()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    assert a.shape == ((12,) if name == "permutation" else (3, 4))


@pytest.mark.parametrize("source", ["portable", "native"])
def test_ranges_and_distributions(backend, source):
    n = 20000
    u = R.uniform((n,), seed=3, low=-2.0, high=3.0, source=source).to_numpy()
    assert u.min() >= -2.0 and u.max() < 3.0 and abs(u.mean() - 0.5) < 0.05
    z = R.normal((n,), seed=3, mean=1.0, std=2.0, source=source).to_numpy()
    assert abs(z.mean() - 1.0) < 0.06 and abs(z.std() - 2.0) < 0.06
    k = R.randint(-5, 7, (n,), seed=3, source=source).to_numpy()
    assert k.min() == -5 and k.max() == 6
    m = R.bernoulli(0.3, (n,), seed=3, source=source).to_numpy()
    assert m.dtype == np.bool_ and abs(m.mean() - 0.3) < 0.02
    p = R.permutation(50, seed=3, source=source).to_numpy()
    np.testing.assert_array_equal(np.sort(p), np.arange(50))
    assert not np.array_equal(p, np.arange(50))


def test_native_sources_differ_between_backends():
    # Each framework's own generator: deterministic, but not the same numbers everywhere.
    native = [b for b in BACKENDS if b in R._NATIVE._makers]
    draws = {b: R.uniform((8,), seed=0, backend=b, source="native").to_numpy() for b in native}
    if len(draws) > 1:
        values = list(draws.values())
        assert any(not np.array_equal(values[0], v) for v in values[1:])


def test_default_dtypes_and_shapes(backend):
    assert R.uniform((2, 3), seed=0).dtype == ivy_like.float32
    assert R.normal(seed=0).shape == ()
    assert R.uniform(4, seed=0).shape == (4,)
    assert R.normal((0, 3), seed=0).shape == (0, 3)
    assert R.randint(0, 3, (2,), seed=0).dtype == ivy_like.as_dtype(backend.DEFAULT_INT)
    assert R.permutation(4, seed=0).dtype == ivy_like.as_dtype(backend.DEFAULT_INT)
    assert R.bernoulli(0.5, (2,), seed=0).dtype == ivy_like.bool
    assert R.uniform((2,), seed=0, backend=backend).backend is backend


@pytest.mark.parametrize("source", ["portable", "native"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_float_dtypes(backend, dtype, source):
    if dtype == "float64" and backend.name == "jax":
        with pytest.raises(TypeError, match="float64"):
            R.uniform((3,), seed=0, dtype=dtype, source=source)
        return
    if dtype == "float64" and backend.name == "mlx" and source == "native":
        with pytest.raises(TypeError, match="MLX's own generator cannot draw float64"):
            R.uniform((3,), seed=0, dtype=dtype, source=source)
        return
    for fn in (R.uniform, R.normal):
        x = fn((3,), seed=0, dtype=dtype, source=source)
        assert x.dtype == ivy_like.as_dtype(dtype)


@pytest.mark.parametrize("source", ["portable", "native"])
@pytest.mark.parametrize("dtype", ["int8", "int32", "uint8"])
def test_int_dtypes(backend, dtype, source):
    x = R.randint(0, 100, (50,), seed=0, dtype=dtype, source=source)
    assert x.dtype == ivy_like.as_dtype(dtype)
    v = x.to_numpy()
    assert v.min() >= 0 and v.max() < 100


def test_portable_float16_is_the_same_everywhere():
    ref = R.normal((6,), seed=5, dtype="float16", backend="numpy").to_numpy()
    for b in BACKENDS:
        np.testing.assert_array_equal(
            R.normal((6,), seed=5, dtype="float16", backend=b).to_numpy(), ref
        )


def test_split():
    seeds = R.split(7, 4)
    assert len(seeds) == 4 and len(set(seeds)) == 4
    assert seeds == R.split(7, 4)
    assert R.split(7) != R.split(8)
    assert all(isinstance(s, int) and 0 <= s < 2**63 for s in seeds)
    # derived seeds are valid seeds, and give independent streams
    a, b = (R.uniform((5,), seed=s, backend="numpy").to_numpy() for s in R.split(0))
    assert not np.array_equal(a, b)


@pytest.mark.parametrize(
    "call, exc, message",
    [
        (lambda: R.uniform((2,), seed=-1), ValueError, r"uniform: seed must be in \[0, 2\*\*63\)"),
        (lambda: R.uniform((2,), seed=2**63), ValueError, r"uniform: seed must be in"),
        (lambda: R.normal((2,), seed=1.0), TypeError, r"normal: seed must be an int, got float"),
        (lambda: R.normal((2,), seed=True), TypeError, r"normal: seed must be an int, got bool"),
        (lambda: R.uniform((2, -1), seed=0), TypeError, r"uniform: shape must be a sequence of"),
        (lambda: R.uniform("3", seed=0), TypeError, r"uniform: shape must be a sequence of"),
        (lambda: R.uniform((2,), seed=0, dtype="int32"), TypeError, r"must be a floating dtype"),
        (lambda: R.uniform((2,), seed=0, low=1.0, high=1.0), ValueError, r"high \(1.0\) must be"),
        (lambda: R.normal((2,), seed=0, std=-1.0), ValueError, r"normal: std must be non-neg"),
        (lambda: R.randint(3, 3, seed=0), ValueError, r"randint: high \(3\) must be greater"),
        (lambda: R.randint(0.0, 3, seed=0), TypeError, r"randint: low must be an int"),
        (lambda: R.randint(0, 3, seed=0, dtype="float32"), TypeError, r"integer dtype"),
        (lambda: R.randint(0, 300, seed=0, dtype="int8"), ValueError, r"does not fit in int8"),
        (lambda: R.bernoulli(1.5, seed=0), ValueError, r"bernoulli: p must be a probability"),
        (lambda: R.permutation(-1, seed=0), ValueError, r"permutation: n must be a non-neg"),
        (lambda: R.uniform(seed=0, source="torch"), ValueError, r"source must be 'portable' or"),
        (lambda: R.split(0, 0), ValueError, r"split: n must be a positive int"),
        (lambda: R.uniform((2,), seed=0, backend="nope"), ValueError, r"nope"),
        (lambda: R.uniform((2,)), TypeError, r"seed"),  # no default seed: it is explicit
    ],
)
def test_errors(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


def test_native_source_on_a_backend_without_one_names_the_reason():
    if "mxnet" not in BACKENDS:
        pytest.skip("mxnet is not installed here")
    with pytest.raises(NotImplementedError, match="mx.random.seed.*source='portable'"):
        R.uniform((2,), seed=0, backend="mxnet", source="native")

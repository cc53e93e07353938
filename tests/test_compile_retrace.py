"""``ivy_like.compile`` after a retrace: each call's outputs come from the trace of its own
signature. tf.function, mx.compile and make_fx trace again for a new shape while the compiled
function keeps one entry per argument structure; the Python values and the structure of the
output may differ between those traces."""

from __future__ import annotations

import numpy as np
import pytest

import ivy_like


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

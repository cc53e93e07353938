"""Backends, dispatch, the registry and import isolation."""

from __future__ import annotations

import asyncio
import inspect
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest

import ivy_like
from ivy_like.core import backend as _backend
from ivy_like.core.registry import OPS


def test_import_pulls_in_no_framework():
    code = (
        "import sys, ivy_like; x = ivy_like.add(ivy_like.array([1.]), 1.);"
        "bad = [m for m in ('jax', 'torch', 'tensorflow', 'mlx', 'mxnet') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    env = {k: v for k, v in __import__("os").environ.items() if k != "IVY_LIKE_BACKEND"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_builtin_backends_are_registered_through_entry_points():
    from importlib.metadata import entry_points

    names = {ep.name for ep in entry_points(group="ivy_like.backends")}
    assert {"numpy", "jax", "torch", "tensorflow", "mlx"} <= names


def test_available_backends_lists_numpy_and_current_backend_default():
    assert "numpy" in ivy_like.available_backends()
    assert ivy_like.current_backend().name in ivy_like.available_backends()


def test_default_backend_comes_from_environment():
    code = "import ivy_like; print(ivy_like.current_backend().name)"
    env = dict(__import__("os").environ, IVY_LIKE_BACKEND="numpy")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.strip() == "numpy"


def test_unknown_backend_is_a_clear_error_and_changes_nothing():
    before = ivy_like.current_backend()
    with pytest.raises(ivy_like.BackendError, match="unknown backend 'nope'.*numpy"):
        ivy_like.set_backend("nope")
    assert ivy_like.current_backend() is before
    with pytest.raises(TypeError, match="backend name"):
        ivy_like.set_backend(3)


def test_broken_backend_warns_when_listed_and_errors_when_selected(monkeypatch):
    registry = dict(_backend._discover())
    registry["brokenfw"] = "ivy_like_no_such_module.backend"
    monkeypatch.setattr(_backend, "_registry", registry)
    monkeypatch.setattr(_backend, "_failed", {})
    monkeypatch.setitem(_backend._INSTALL_HINTS, "brokenfw", "pip install brokenfw")
    with pytest.warns(RuntimeWarning, match="brokenfw.*cannot be imported"):
        names = ivy_like.available_backends()
    assert "brokenfw" not in names
    with pytest.raises(ivy_like.BackendError, match="pip install brokenfw"):
        ivy_like.set_backend("brokenfw")


def test_set_unset_and_use_backend_nest(backend):
    with ivy_like.use_backend("numpy"):
        assert ivy_like.current_backend().name == "numpy"
        ivy_like.set_backend(backend.name)
        assert ivy_like.current_backend() is backend
        ivy_like.unset_backend()
        assert ivy_like.current_backend().name == "numpy"
    assert ivy_like.current_backend() is backend


def test_threads_have_independent_backends(backend):
    seen: dict[str, str] = {}
    barrier = threading.Barrier(2)

    def work(name: str) -> None:
        with ivy_like.use_backend(name):
            barrier.wait()
            x = ivy_like.array([1.0, 2.0])
            barrier.wait()
            seen[name] = x.backend.name

    threads = [threading.Thread(target=work, args=(n,)) for n in ("numpy", backend.name)]
    if backend.name == "numpy":
        threads = [threading.Thread(target=work, args=("numpy",))]
        barrier = threading.Barrier(1)
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"numpy": "numpy", backend.name: backend.name}


def test_asyncio_tasks_have_independent_backends(backend):
    async def task(name: str) -> str:
        ivy_like.set_backend(name)
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        return ivy_like.array([1.0]).backend.name

    async def main() -> list[str]:
        return await asyncio.gather(task("numpy"), task(backend.name), task("numpy"))

    assert asyncio.run(main()) == ["numpy", backend.name, "numpy"]


def test_native_in_native_out_array_in_array_out(backend):
    x = ivy_like.array([1.0, 2.0])
    native = x.data
    assert type(ivy_like.exp(native)) is type(native)
    assert isinstance(ivy_like.exp(x), ivy_like.Array)
    assert isinstance(ivy_like.add(x, native), ivy_like.Array)
    assert isinstance(ivy_like.zeros(2), ivy_like.Array)


def test_numpy_arrays_follow_the_active_backend(backend):
    out = ivy_like.add(np.ones(2, np.float32), np.ones(2, np.float32))
    assert ivy_like.backend_of(out) is backend
    np.testing.assert_array_equal(ivy_like.to_numpy(out), [2.0, 2.0])


def _call_cache(op: str) -> tuple[object, object, object]:
    return OPS[op].function.__globals__["_C"]


def test_call_cache_remembers_the_last_native_type(backend):
    native = ivy_like.array([1.0, 2.0]).data
    # The first sight of a concrete type (jax's ArrayImpl, tf's EagerTensor) may take the
    # general path, which learns it; the second call fills the cache.
    ivy_like.multiply(native, native)
    ivy_like.multiply(native, native)
    tp, table, fn = _call_cache("multiply")
    assert tp is type(native) and fn is backend.multiply
    # Frameworks' own types hold whatever is active; NumPy's follow the active table.
    assert (table is None) == (backend.name != "numpy")
    np.testing.assert_array_equal(ivy_like.to_numpy(ivy_like.multiply(native, native)), [1, 4])
    # A Python scalar beside the array leaves the cache as it is and still works.
    np.testing.assert_array_equal(ivy_like.to_numpy(ivy_like.multiply(native, 3.0)), [3, 6])
    assert _call_cache("multiply")[0] is type(native)


def test_numpy_arrays_cached_under_numpy_follow_a_new_backend(backend):
    a = np.ones(2, np.float32)
    with ivy_like.use_backend("numpy"):
        assert type(ivy_like.subtract(a, a)) is np.ndarray
        assert _call_cache("subtract")[0] is np.ndarray
    # Now the test's backend is active again: NumPy arrays convert to it, cache or not.
    out = ivy_like.subtract(a, a)
    assert ivy_like.backend_of(out) is backend
    if backend.name != "numpy":
        assert type(out) is not np.ndarray


def test_sequence_ops_cache_one_type_and_still_check_every_item(backend):
    native = ivy_like.array([1.0, 2.0]).data
    for _ in range(2):
        out = ivy_like.concat([native, native])
    assert _call_cache("concat")[0] is type(native)
    np.testing.assert_array_equal(ivy_like.to_numpy(out), [1, 2, 1, 2])
    # A cached first item does not let a second item of another kind through unconverted.
    mixed = ivy_like.concat([native, ivy_like.array([3.0]).data, [4.0]])
    assert ivy_like.backend_of(mixed) is backend
    np.testing.assert_array_equal(ivy_like.to_numpy(mixed), [1, 2, 3, 4])
    wrapped = ivy_like.concat([ivy_like.Array(native), ivy_like.Array(native)])
    assert isinstance(wrapped, ivy_like.Array)


def test_replacing_a_backend_function_reaches_the_next_call(backend, monkeypatch):
    native = ivy_like.array([1.0, 2.0]).data
    ivy_like.maximum(native, native)
    ivy_like.maximum(native, native)
    assert _call_cache("maximum")[2] is backend.maximum
    calls = []
    original = backend.maximum

    def counting(x1, x2, /):
        calls.append(1)
        return original(x1, x2)

    monkeypatch.setattr(backend, "maximum", counting)
    ivy_like.maximum(native, native)
    ivy_like.maximum(native, native)
    assert calls == [1, 1]
    monkeypatch.undo()
    ivy_like.maximum(native, native)
    assert calls == [1, 1]


def test_call_cache_is_right_for_threads_on_two_frameworks():
    # Two threads call one op on two array types at once, each refilling the op's cache:
    # every result must have its own thread's type (the cache is read as one tuple).
    others = [n for n in ivy_like.available_backends() if n not in ("numpy", "mlx")]
    if not others:
        pytest.skip("only numpy (and mlx) installed: a second framework is needed")
    errors: list[str] = []
    barrier = threading.Barrier(2)

    def work(name: str) -> None:
        b = ivy_like.get_backend(name)
        with ivy_like.use_backend(b):
            x = ivy_like.array([1.0, 2.0]).data
        barrier.wait()
        for _ in range(3000):
            out = ivy_like.negative(x)
            if type(out) is not type(x):
                errors.append(f"{name}: {type(out).__name__}")

    threads = [threading.Thread(target=work, args=(n,)) for n in ("numpy", others[0])]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter allows
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []


def test_creation_cache_follows_every_change_of_backend(backend):
    # zeros remembers (backend stack, backend): entering, nesting, leaving and the default
    # must each give their own backend, in this order, with the cache filled in between.
    seen = [ivy_like.zeros(2).backend, ivy_like.zeros(2).backend]
    with ivy_like.use_backend("numpy"):
        seen += [ivy_like.zeros(2).backend, ivy_like.zeros(2).backend]
        with ivy_like.use_backend(backend):
            seen += [ivy_like.zeros(2).backend, ivy_like.zeros(2).backend]
        seen += [ivy_like.zeros(2).backend]
    seen += [ivy_like.zeros(2).backend]
    numpy = ivy_like.get_backend("numpy")
    assert seen == [backend, backend, numpy, numpy, backend, backend, numpy, backend]
    assert OPS["zeros"].function.__globals__["_C"][1] is backend
    # A new thread starts with the empty stack: the default backend, cached under ().
    in_thread: list[object] = []

    def work() -> None:
        in_thread.extend([ivy_like.zeros(2).backend, ivy_like.zeros(2).backend])

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    default = _backend._default_backend()  # $IVY_LIKE_BACKEND, else numpy
    assert in_thread == [default, default]
    assert OPS["zeros"].function.__globals__["_C"][:2] == ((), default)
    assert ivy_like.zeros(2).backend is backend


def test_without_arrays_the_active_backend_is_used(backend):
    assert ivy_like.ones(3).backend is backend
    assert ivy_like.backend_of(ivy_like.add(1.0, 2.0)) is backend


def test_mixed_frameworks_raise_type_error_naming_both():
    names = [n for n in ivy_like.available_backends() if n != "numpy"]
    if len(names) < 2:
        pytest.skip("needs two non-numpy backends; the main CI run installs four")
    a = ivy_like.get_backend(names[0]).asarray(np.ones(2, np.float32))
    b = ivy_like.get_backend(names[1]).asarray(np.ones(2, np.float32))
    with pytest.raises(TypeError, match=f"{names[0]} and {names[1]}"):
        ivy_like.add(a, b)
    with pytest.raises(TypeError, match=f"{names[0]} and {names[1]}"):
        ivy_like.Array(a) + ivy_like.Array(b)


def test_backend_of(backend):
    x = ivy_like.array([1.0])
    assert ivy_like.backend_of(x) is backend
    assert ivy_like.backend_of(x.data) is (backend if backend.name != "numpy" else backend)
    with pytest.raises(TypeError, match="expected an array"):
        ivy_like.backend_of("text")


def test_type_cache_never_imports_a_framework():
    code = (
        "import sys, ivy_like\n"
        "class Foreign: pass\n"
        "ivy_like.core.backend.kind_of(Foreign)\n"
        "try:\n    ivy_like.add(Foreign(), 1.)\nexcept TypeError as e:\n    print(e)\n"
        "print([m for m in ('jax','torch','tensorflow','mlx') if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    lines = out.stdout.strip().splitlines()
    assert "argument 'x1' must be an array" in lines[0]
    assert lines[-1] == "[]"


def test_every_op_has_function_method_and_docstring_example():
    import importlib

    for spec in OPS.values():
        name = spec.name
        for ns in spec.namespaces:
            module = importlib.import_module(f"ivy_like.{ns}") if ns else ivy_like
            assert getattr(module, name) is spec.function, (ns, name)
        fn = spec.function
        assert "Examples" in (fn.__doc__ or ""), name
        assert inspect.signature(fn) == inspect.signature(spec.declaration), name
        if spec.arrays and spec.params[0].name == spec.arrays[0]:
            assert getattr(ivy_like.Array, name) is spec.array_method, name


def test_wrong_argument_types_are_typed_errors():
    with pytest.raises(TypeError, match="add: argument 'x1' must be an array"):
        ivy_like.add("a", 1)
    with pytest.raises(TypeError, match="concat: argument 'arrays' must be a sequence"):
        ivy_like.concat(ivy_like.array([1.0]))
    with pytest.raises(TypeError, match="dtype: expected an ivy_like dtype"):
        ivy_like.zeros(2, dtype="float33")


def test_dtypes_compare_across_spellings(backend):
    x = ivy_like.ones(2)
    assert x.dtype is ivy_like.float32
    assert x.dtype == "float32"
    assert x.dtype == backend.native_dtype("float32")
    assert ivy_like.as_dtype(backend.native_dtype(ivy_like.int32)) is ivy_like.int32
    assert ivy_like.astype(x, backend.native_dtype("int32")).dtype == ivy_like.int32


def test_unsupported_dtype_is_a_clear_error():
    class Fake:
        pass

    with pytest.raises(TypeError, match="dtype"):
        ivy_like.as_dtype(Fake())


def test_pytest_plugin_option_selects_backends(pytester_or_skip=None):
    code = (
        "def test_x(backend):\n"
        "    import ivy_like\n"
        "    assert ivy_like.current_backend() is backend\n"
    )
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "test_user.py")
        with open(path, "w") as f:
            f.write(code)
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                path,
                "--ivy-like-backends=numpy",
            ],
            capture_output=True,
            text=True,
            cwd=d,
        )
    assert "1 passed" in proc.stdout, proc.stdout + proc.stderr
    warnings.simplefilter("default")


def test_a_backend_missing_an_op_raises_not_implemented_on_every_path():
    # A third-party backend module that leaves an op out: the generated fast path (which
    # calls backend.zeros directly) must give the general path's NotImplementedError, not an
    # AttributeError.
    import types

    from ivy_like.backends import numpy as np_backend
    from ivy_like.core.backend import Backend

    module = types.ModuleType("partial_backend")
    # numpy's facts and hooks (its __init__) and its kernels (its family files) in one plain
    # module (no __path__: a one-module plugin, whose ops are read from the module itself)
    facts = {k: v for k, v in vars(np_backend).items() if not k.startswith("__")}
    names = {**facts, **ivy_like.get_backend("numpy").kernels}
    module.__dict__.update({k: v for k, v in names.items() if k not in ("zeros", "add")})
    partial = Backend("partial", module)
    with ivy_like.use_backend(partial):
        with pytest.raises(NotImplementedError, match="zeros is not supported on the partial"):
            ivy_like.zeros((2,))  # the creation fast path
        x = ivy_like.ones((2,))
        assert x.backend is partial
        with pytest.raises(NotImplementedError, match="add is not supported on the partial"):
            ivy_like.add(x, x)  # an Array of this backend: the fast path again
    with pytest.raises(AttributeError):
        partial.no_such_name  # noqa: B018  (not an op: a plain AttributeError)


def test_a_backend_without_a_composite_op_runs_its_declaration():
    # nn.relu is a composite (numpy's module leaves it out): a backend module without it runs the declaration (written
    # against ivy_like) with that backend active, on the fast path and the general path alike;
    # a declared reason makes it NotImplementedError instead.
    import types

    from ivy_like.backends import numpy as np_backend
    from ivy_like.core.backend import Backend

    module = types.ModuleType("no_relu_backend")
    # numpy's facts and hooks (its __init__) and its kernels (its family files) in one plain
    # module (no __path__: a one-module plugin, whose ops are read from the module itself)
    kernels = ivy_like.get_backend("numpy").kernels
    facts = {k: v for k, v in vars(np_backend).items() if not k.startswith("__")}
    names = {**facts, **kernels}
    module.__dict__.update({k: v for k, v in names.items() if k != "nn_relu"})
    lacking = Backend("no_relu", module)
    assert "nn_relu" not in kernels and "nn_relu" not in vars(np_backend.nn)
    relu = next(s for s in OPS.values() if s.backend_name == "nn_relu")
    assert lacking.nn_relu.__wrapped__ is relu.declaration
    with ivy_like.use_backend(lacking):
        x = ivy_like.asarray([-1.0, 2.0])
        assert x.backend is lacking
        out = ivy_like.nn.relu(x)  # an Array of this backend: the fast path
        assert out.backend is lacking
        np.testing.assert_array_equal(ivy_like.to_numpy(out), [0.0, 2.0])
        np.testing.assert_array_equal(ivy_like.to_numpy(ivy_like.nn.relu([-3.0, 1.0])), [0, 1])
    module.UNSUPPORTED = {"nn_relu": "no kernel for it"}
    refusing = Backend("refusing", module)
    with ivy_like.use_backend(refusing):
        with pytest.raises(NotImplementedError, match="relu is not supported on the refusing "
                           "backend: no kernel for it"):  # fmt: skip
            ivy_like.nn.relu(ivy_like.asarray([1.0]))


def test_asarray_of_an_array_follows_copy(backend):
    """``asarray(x, copy=True)`` of an Array is a copy: writing into it leaves ``x`` alone
    (torch shared memory through ``__dlpack__``, so array-api-extra's ``at(x).add(v, copy=True)``
    changed the caller's array); ``copy=False`` with ``x``'s own dtype needs no copy and shares
    ``x``'s data (NumPy and torch raised "a copy is needed")."""
    x = ivy_like.asarray([1.0, 2.0])
    y = ivy_like.asarray(x, copy=True)
    y[0] = 5.0
    np.testing.assert_array_equal(ivy_like.to_numpy(x), [1.0, 2.0])
    np.testing.assert_array_equal(ivy_like.to_numpy(y), [5.0, 2.0])
    shared = ivy_like.asarray(x, dtype=x.dtype, copy=False)
    assert shared.data is x.data and shared.backend is backend


def test_assert_backends_agree_takes_numpy_as_the_reference():
    """NumPy is the oracle whatever order the backends come in (the sorted list of installed
    backends starts with jax): the backend named in a mismatch is the other one."""
    from ivy_like.testing import BackendMismatch, assert_backends_agree

    others = [n for n in ivy_like.available_backends() if n != "numpy"]
    if not others:
        pytest.skip("needs a second installed backend beside numpy")
    other = others[0]

    def differs(a):  # 1 on numpy, 2 elsewhere
        return a * 0 + (1.0 if ivy_like.current_backend().name == "numpy" else 2.0)

    with pytest.raises(BackendMismatch, match=f"backend {other!r} vs 'numpy'"):
        assert_backends_agree(differs, np.ones(2, np.float32), backends=[other, "numpy"])

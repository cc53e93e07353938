"""Control flow: ``cond``, ``while_loop``, ``fori_loop`` and ``scan`` with
``jax.lax``'s signatures and semantics, on every backend, eagerly and under
``ivy_like.compile``, with Arrays, native arrays and Containers, through ``ivy_like.grad``, and
every error that JAX raises (as a typed error naming the argument or the function).

Gradients are compared with closed forms; ``test_closed_forms_are_jax_lax_gradients`` checks
those closed forms against ``jax.grad`` of the same programs written with ``jax.lax`` itself.
"""

from __future__ import annotations

import importlib.util
import warnings

import numpy as np
import pytest

import ivy_like
from ivy_like.testing import assert_close
from ivy_like.transforms.control_flow import StructureMismatch

XS = np.array([1.0, 2.0, 3.0], np.float32)
TOL = {"rtol": 2e-5, "atol": 2e-6}


def _arr(values, dtype="float32"):
    """An Array of the active backend."""
    return ivy_like.asarray(np.asarray(values, dtype))


def _native(values, dtype="float32"):
    return ivy_like.to_native(_arr(values, dtype))


def _np(x):
    return np.asarray(ivy_like.to_numpy(x))


# -- cond ------------------------------------------------------------------------------------
def test_cond_picks_the_branch_for_every_kind_of_predicate(backend):
    x = _arr([1.0, 2.0])
    for pred, want in [
        (True, [10.0, 20.0]),
        (False, [0.0, 1.0]),
        (np.bool_(True), [10.0, 20.0]),
        (0, [0.0, 1.0]),  # a number: compared with zero, as JAX
        (2.5, [10.0, 20.0]),
        (ivy_like.sum(x) > 2, [10.0, 20.0]),
        (ivy_like.sum(x) > 5, [0.0, 1.0]),
        (_arr(0, "int32"), [0.0, 1.0]),
        (_arr(-3.0), [10.0, 20.0]),
        (ivy_like.to_native(ivy_like.sum(x) > 2), [10.0, 20.0]),
    ]:
        got = ivy_like.cond(pred, lambda v: v * 10, lambda v: v - 1, x)
        assert type(got) is ivy_like.Array
        assert_close(got, np.array(want, np.float32), label=f"pred={pred!r}: ")


def test_cond_runs_both_branches_and_keeps_types(backend):
    # JAX traces both branches: both run here too (the one not taken only for the check).
    calls = []

    def on_true(a, c):
        calls.append("true")
        return {"sum": a + c.w, "none": None}

    def on_false(a, c):
        calls.append("false")
        return {"none": None, "sum": a - c.w}  # another key order: matched by name

    a = _native([1.0, 2.0])
    c = ivy_like.Container(w=_native([0.5, 0.5]))
    got = ivy_like.cond(False, on_true, on_false, a, c)
    assert sorted(calls) == ["false", "true"]
    assert set(got) == {"sum", "none"} and got["none"] is None
    assert ivy_like.backend_of(got["sum"]) == backend.name
    assert not isinstance(got["sum"], ivy_like.Array)  # native in, native out
    assert_close(got["sum"], np.array([0.5, 1.5], np.float32))
    # No operands; an Array returned by one branch makes the result an Array.
    got = ivy_like.cond(True, lambda: _native(1.0), lambda: _arr(2.0))
    assert type(got) is ivy_like.Array and float(got) == 1.0


def test_cond_branch_not_taken_is_quiet(backend):
    x = _arr([1.0, 0.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = ivy_like.cond(True, lambda v: v, lambda v: ivy_like.log(v - 1), x)
    assert_close(got, np.array([1.0, 0.0], np.float32))


@pytest.mark.parametrize(
    "other, message",
    [
        (
            lambda v: ivy_like.concat([v, v]),
            "at output, false_fun returned float32[4] where true_fun returned float32[2]",
        ),
        (
            lambda v: ivy_like.astype(v, "int32"),
            "false_fun returned int32[2] where true_fun returned float32[2]",
        ),
        (
            lambda v: [v, v],
            "at output, false_fun returned a list of 2 where true_fun returned an array",
        ),
        (lambda v: None, "at output, false_fun returned None where true_fun returned an array"),
    ],
)
def test_cond_branches_must_agree(backend, other, message):
    x = _arr([1.0, 2.0])
    for pred in (True, False, ivy_like.sum(x) > 0):
        with pytest.raises(
            TypeError, match="cond: true_fun and false_fun must return the same"
        ) as err:
            ivy_like.cond(pred, lambda v: v * 2, other, x)
        assert message in str(err.value)


def test_cond_structures_must_agree(backend):
    x = _arr([1.0, 2.0])
    cases = [
        (
            lambda v: {"a": v},
            lambda v: {"b": v},
            "output, false_fun returned a dict with keys ['b']",
        ),
        (lambda v: {"a": v}, lambda v: ivy_like.Container(a=v), "a Container with keys ['a']"),
        (
            lambda v: (v, v),
            lambda v: [v, v],
            "false_fun returned a list of 2 where true_fun returned a tuple of 2",
        ),
        (
            lambda v: {"a": [v]},
            lambda v: {"a": [v, v]},
            "at output['a'], false_fun returned a list of 2",
        ),
    ]
    for on_true, on_false, message in cases:
        with pytest.raises(TypeError, match="cond: true_fun and false_fun") as err:
            ivy_like.cond(True, on_true, on_false, x)
        assert message in str(err.value)


def test_cond_argument_errors(backend):
    x = _arr([1.0, 2.0])
    ok = lambda v: v  # noqa: E731
    with pytest.raises(
        TypeError, match=r"cond: pred must be a scalar \(shape \(\)\), got shape \(2,\)"
    ):
        ivy_like.cond(x > 0, ok, ok, x)
    with pytest.raises(
        TypeError, match=r"cond: pred must be a scalar \(shape \(\)\), got shape \(2,\)"
    ):
        ivy_like.cond(np.array([True, False]), ok, ok, x)
    for bad in (None, "yes", [True]):
        with pytest.raises(TypeError, match="cond: pred must be a boolean or a number"):
            ivy_like.cond(bad, ok, ok, x)
    with pytest.raises(TypeError, match="cond: pred must be a boolean or a number, got complex"):
        ivy_like.cond(1j, ok, ok, x)
    with pytest.raises(TypeError, match="cond: true_fun must be callable, got int"):
        ivy_like.cond(True, 3, ok, x)
    with pytest.raises(TypeError, match="cond: false_fun must be callable, got NoneType"):
        ivy_like.cond(True, ok, None, x)


def test_arrays_of_two_frameworks_are_an_error(backend):
    other = "numpy" if backend.name != "numpy" else None
    if other is None:
        pytest.skip("needs a second backend")
    x = _arr([1.0])
    with ivy_like.use_backend(other):
        y = _arr([2.0])
    with pytest.raises(TypeError, match="cond: arrays of two different frameworks"):
        ivy_like.cond(True, lambda a, b: a, lambda a, b: a, x, y)
    with pytest.raises(TypeError, match="scan: arrays of two different frameworks"):
        ivy_like.scan(lambda c, v: (c, v), x, y)


def test_functions_run_with_the_loop_backend_active(backend):
    # Creation ops inside the functions make arrays of the loop's framework, as in grad.
    x = _arr([1.0, 2.0])
    other = "numpy" if backend.name != "numpy" else backend.name
    with ivy_like.use_backend(other):
        got = ivy_like.fori_loop(0, 2, lambda i, v: v + ivy_like.ones(2), x)
        out = ivy_like.cond(True, lambda v: v * ivy_like.ones(2), lambda v: v, x)
    assert got.backend == backend.name and out.backend == backend.name
    assert_close(got, np.array([3.0, 4.0], np.float32))


def test_a_backend_without_the_primitives(monkeypatch):
    # A plugin backend with no control_flow.py: an error naming the backend and what it lacks.
    numpy_backend = ivy_like.get_backend("numpy")
    monkeypatch.delitem(numpy_backend.__dict__, "scan_leaves")
    with ivy_like.use_backend("numpy"):
        with pytest.raises(
            NotImplementedError, match="scan: the numpy backend defines no scan_leaves"
        ):
            ivy_like.scan(lambda c, x: (c, x), 0.0, np.ones(2, np.float32))


# -- while_loop ----------------------------------------------------------------------------
def test_while_loop_with_a_container_carry(backend):
    init = ivy_like.Container(n=ivy_like.asarray(0), acc=_arr([1.0, 1.0]), tag="fixed")
    got = ivy_like.while_loop(
        lambda c: c.n < 5,
        # A dict of the same keys in another order is the same structure; so is a Container.
        lambda c: ivy_like.Container(acc=c.acc * 2, tag=c.tag, n=c.n + 1),
        init,
    )
    assert type(got) is ivy_like.Container and got.tag == "fixed"
    assert int(got.n) == 5 and got.n.dtype == init.n.dtype
    assert_close(got.acc, np.array([32.0, 32.0], np.float32))
    # Native arrays and a Python number in the carry; zero iterations return init_val.
    # (ivy_like.less rather than <: MXNet's own comparisons return numbers, not booleans.)
    a, k = ivy_like.while_loop(
        lambda c: ivy_like.less(c[1], 0), lambda c: (c[0], c[1] + 1), (_native([1.0]), 3)
    )
    assert not isinstance(a, ivy_like.Array) and ivy_like.backend_of(a) == backend.name
    assert int(_np(k)) == 3 and ivy_like.backend_of(k) == backend.name


def test_while_loop_errors(backend):
    one = ivy_like.asarray(1)
    x = _arr([1.0, 2.0])
    rule = (
        "while_loop: body_fun must return a value with the structure, shapes and dtypes of init_val"
    )
    # its own TypeError: ONNX's Loop tells it from others to run a growing carry in Python
    with pytest.raises(StructureMismatch, match=rule) as err:
        ivy_like.while_loop(lambda v: ivy_like.sum(v) < 10, lambda v: ivy_like.concat([v, v]), x)
    assert isinstance(err.value, TypeError)
    assert "at init_val, body_fun returned float32[4] where init_val has float32[2]" in str(
        err.value
    )
    with pytest.raises(TypeError, match=rule) as err:
        ivy_like.while_loop(lambda v: v < 10, lambda v: ivy_like.astype(v, "float32"), one)
    assert "body_fun returned float32[]" in str(err.value)
    with pytest.raises(TypeError, match=rule) as err:
        ivy_like.while_loop(lambda c: c["n"] < 3, lambda c: {"n": c["n"] + 1}, {"n": one, "x": x})
    assert (
        "at init_val, body_fun returned a dict with keys ['n'] where init_val has a dict with keys ['n', 'x']"
        in str(err.value)
    )
    with pytest.raises(TypeError, match=rule) as err:
        ivy_like.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, "other"), (one, "tag"))
    assert "at init_val[1], body_fun returned 'other' where init_val has 'tag'" in str(err.value)
    msg = "while_loop: cond_fun must return a boolean scalar, got "
    with pytest.raises(TypeError, match=msg + r"int\d\d\[\]"):
        ivy_like.while_loop(lambda v: v, lambda v: v - 1, one)  # an integer, as in JAX
    with pytest.raises(TypeError, match=msg + r"bool\[2\]"):
        ivy_like.while_loop(lambda v: v > 0, lambda v: v, x)
    with pytest.raises(TypeError, match=msg + "1"):
        ivy_like.while_loop(lambda v: 1, lambda v: v, x)
    with pytest.raises(TypeError, match="while_loop: cond_fun must be callable"):
        ivy_like.while_loop(None, lambda v: v, x)
    with pytest.raises(TypeError, match="while_loop: body_fun must be callable"):
        ivy_like.while_loop(lambda v: True, 1, x)


# -- fori_loop -----------------------------------------------------------------------------
def test_fori_loop_index_and_bounds(backend):
    seen = []

    def body(i, v):
        seen.append(i)
        return v + ivy_like.astype(i, "float32")

    got = ivy_like.fori_loop(2, 5, body, _arr(0.0))
    assert_close(got, np.float32(2 + 3 + 4))
    default_int = ivy_like.asarray(0).dtype
    assert all(type(i) is ivy_like.Array and i.shape == () and i.dtype == default_int for i in seen)
    # Array bounds give i their dtype; a Python bound beside one takes it too.
    for lower, upper in [
        (_arr(1, "int32"), _arr(4, "int32")),
        (1, _arr(4, "int32")),
        (_arr(1, "int32"), 4),
    ]:
        seen.clear()
        got = ivy_like.fori_loop(lower, upper, body, _arr(0.0))
        assert_close(got, np.float32(1 + 2 + 3))
        assert {str(i.dtype) for i in seen} == {"int32"}
    # Native arrays in, native out (and a native index); an empty range returns init_val.
    got = ivy_like.fori_loop(0, 3, lambda i, v: v * 2, _native([1.0, 2.0]))
    assert not isinstance(got, ivy_like.Array)
    assert_close(got, np.array([8.0, 16.0], np.float32))
    assert_close(ivy_like.fori_loop(5, 2, body, _arr(7.0)), np.float32(7))


def test_fori_loop_with_a_container(backend):
    init = ivy_like.Container(count=ivy_like.asarray(0), w=ivy_like.Container(a=_arr([1.0, 2.0])))
    got = ivy_like.fori_loop(0, 3, lambda i, c: c.cont_map(lambda x, kc: x + 1), init)
    assert type(got) is ivy_like.Container and type(got.w) is ivy_like.Container
    assert int(got.count) == 3
    assert_close(got.w.a, np.array([4.0, 5.0], np.float32))


def test_fori_loop_errors(backend):
    x = _arr(0.0)
    ok = lambda i, v: v  # noqa: E731
    with pytest.raises(TypeError, match="fori_loop: lower must be an integer, got float"):
        ivy_like.fori_loop(0.5, 3, ok, x)
    with pytest.raises(TypeError, match="fori_loop: upper must be an integer, got float32"):
        ivy_like.fori_loop(0, _arr(3.0), ok, x)
    with pytest.raises(TypeError, match=r"fori_loop: upper must be a scalar \(shape \(\)\)"):
        ivy_like.fori_loop(0, _arr([3], "int32"), ok, x)
    with pytest.raises(
        TypeError, match="fori_loop: lower and upper must have the same dtype, got int8 and int32"
    ):
        ivy_like.fori_loop(_arr(0, "int8"), _arr(3, "int32"), ok, x)
    with pytest.raises(
        TypeError, match="fori_loop: body_fun must return a value with the structure"
    ):
        ivy_like.fori_loop(0, 3, lambda i, v: ivy_like.stack([v, v]), x)
    with pytest.raises(TypeError, match="fori_loop: body_fun must be callable"):
        ivy_like.fori_loop(0, 3, "body", x)


# -- scan ----------------------------------------------------------------------------------
def test_scan_stacks_ys_and_keeps_types(backend):
    def step(c, x):
        c = ivy_like.Container(total=c.total + x["v"], count=c.count + 1)
        return c, {"mean": c.total / c.count, "x": x["v"] * 2}

    init = ivy_like.Container(total=_arr(0.0), count=_arr(0.0))
    carry, ys = ivy_like.scan(step, init, {"v": _arr(XS)})
    assert type(carry) is ivy_like.Container and type(ys) is dict
    assert_close(carry.total, np.float32(6))
    assert_close(ys["mean"], np.array([1.0, 1.5, 2.0], np.float32))
    assert_close(ys["x"], XS * 2)
    # Rows of a matrix; native in, native out.
    m = _native(np.arange(6).reshape(3, 2))
    carry, ys = ivy_like.scan(lambda c, row: (c + row, c), _native([0.0, 0.0]), m)
    assert not isinstance(carry, ivy_like.Array) and not isinstance(ys, ivy_like.Array)
    assert_close(carry, np.array([6.0, 9.0], np.float32))
    assert_close(ys, np.array([[0, 0], [0, 1], [2, 4]], np.float32))


def test_scan_length_reverse_and_empty(backend):
    # xs None: length steps, x is None; y None gives ys None.
    seen = []
    carry, ys = ivy_like.scan(
        lambda c, x: (seen.append(x) or c + 1, None), ivy_like.asarray(0), None, length=4
    )
    assert int(carry) == 4 and ys is None and seen and all(x is None for x in seen)
    # reverse: from the end, ys in the order of xs (jax.lax.scan's semantics).
    carry, ys = ivy_like.scan(
        lambda c, x: (c + x, c), _arr(0.0), _arr([0.0, 1.0, 2.0, 3.0]), reverse=True
    )
    assert_close(carry, np.float32(6))
    assert_close(ys, np.array([6.0, 5.0, 3.0, 0.0], np.float32))
    # Zero steps: the carry is init and ys are empty, shaped as f would return them.
    carry, ys = ivy_like.scan(
        lambda c, x: (c, {"a": x * c, "b": ivy_like.sum(x)}), _arr(2.0), np.ones((0, 3), np.float32)
    )
    assert_close(carry, np.float32(2))
    assert ys["a"].shape == (0, 3) and ys["b"].shape == (0,)
    assert str(ys["a"].dtype) == "float32"
    carry, ys = ivy_like.scan(lambda c, x: (c, c), _arr([1.0]), length=0)
    assert ys.shape == (0, 1)


def test_scan_errors(backend):
    c0 = _arr(0.0)
    ok = lambda c, x: (c, x)  # noqa: E731
    with pytest.raises(
        ValueError,
        match=r"scan: the arrays of xs must have one leading size; xs\['a'\] has 3 and xs\['b'\] has 4",
    ):
        ivy_like.scan(ok, c0, {"a": _arr(np.ones(3)), "b": _arr(np.ones(4))})
    with pytest.raises(
        ValueError, match=r"scan: length=5 disagrees with the leading size 3 of xs\[1\]"
    ):
        ivy_like.scan(ok, c0, [None, _arr(np.ones(3))], length=5)
    with pytest.raises(
        ValueError, match="scan: xs holds no array to scan over and length is not given"
    ):
        ivy_like.scan(ok, c0, None)
    with pytest.raises(ValueError, match=r"scan: xs\['s'\] has no leading axis to scan over"):
        ivy_like.scan(ok, c0, {"s": _arr(1.0)})
    with pytest.raises(ValueError, match="scan: length must be non-negative, got -1"):
        ivy_like.scan(ok, c0, None, length=-1)
    with pytest.raises(TypeError, match="scan: length must be an int or None, got float"):
        ivy_like.scan(ok, c0, None, length=2.0)
    with pytest.raises(TypeError, match=r"scan: f must return a pair \(carry, y\), got an array"):
        ivy_like.scan(lambda c, x: c + x, c0, _arr(XS))
    with pytest.raises(
        TypeError, match=r"scan: f must return a pair \(carry, y\), got a tuple of 3"
    ):
        ivy_like.scan(lambda c, x: (c, x, x), c0, _arr(XS))
    with pytest.raises(
        StructureMismatch,
        match="scan: f must return a carry with the structure, shapes and dtypes of init",
    ) as err:
        ivy_like.scan(lambda c, x: (c + ivy_like.zeros(2), x), c0, _arr(XS))
    assert "at init, f returned float32[2] where init has float32[]" in str(err.value)
    with pytest.raises(TypeError, match="scan: f must be callable"):
        ivy_like.scan(None, c0, _arr(XS))


# -- under ivy_like.compile ----------------------------------------------------------------
def test_compiled_cond_on_a_traced_predicate(backend):
    f = ivy_like.compile(
        lambda x, t: ivy_like.cond(
            ivy_like.max(x) > t, lambda v: v / ivy_like.max(v) * t, lambda v: v, x
        )
    )
    x = _arr(XS)
    assert_close(f(x, _arr(1.5)), np.array([0.5, 1.0, 1.5], np.float32), **TOL)
    assert_close(f(x, _arr(5.0)), XS)
    with pytest.raises(TypeError, match="cond: true_fun and false_fun must return the same"):
        ivy_like.compile(
            lambda v: ivy_like.cond(ivy_like.sum(v) > 0, lambda u: u, lambda u: u[:1], v)
        )(x)


def test_compiled_scan_and_fori_loop(backend):
    scan = ivy_like.compile(lambda c, xs: ivy_like.scan(lambda a, x: (a * x, {"a": a}), c, xs))
    carry, ys = scan(_arr(1.0), _arr([2.0, 3.0, 4.0]))
    assert_close(carry, np.float32(24))
    assert_close(ys["a"], np.array([1.0, 2.0, 6.0], np.float32))
    fori = ivy_like.compile(
        lambda v: ivy_like.fori_loop(0, 3, lambda i, u: u * 2 + ivy_like.astype(i, "float32"), v)
    )
    assert_close(fori(_arr([1.0, 2.0])), np.array([12.0, 20.0], np.float32))


_PYTHON_LOOPS = pytest.mark.ivy_like_xfail(
    "torch",
    "mlx",
    reason="a Python loop cannot run on a traced condition or bound: torch.compile's make_fx "
    "and mx.compile trace without values (torch._higher_order_ops.while_loop traces under "
    "make_fx in torch 2.13, but torch._inductor.compile then fails on it); a TypeError says so",
)


@_PYTHON_LOOPS
def test_compiled_while_loop_on_a_traced_condition(backend):
    grow = ivy_like.compile(
        lambda x: ivy_like.while_loop(lambda v: ivy_like.sum(v) < 100, lambda v: v * 2, x)
    )
    assert_close(grow(_arr([1.0, 2.0])), np.array([64.0, 128.0], np.float32))


@_PYTHON_LOOPS
def test_compiled_fori_loop_with_traced_bounds(backend):
    fori = ivy_like.compile(lambda v, n: ivy_like.fori_loop(0, n, lambda i, u: u * 2, v))
    assert_close(fori(_arr([1.0, 2.0]), ivy_like.asarray(3)), np.array([8.0, 16.0], np.float32))


@pytest.mark.parametrize("which", ["while_loop", "fori_loop"])
@pytest.mark.parametrize("name", ["torch", "mlx"])
def test_traced_loop_on_python_loops_is_a_type_error(name, which):
    # What the xfails above expect: the error, saying why.
    if importlib.util.find_spec(name) is None:
        pytest.skip(f"{name} is not installed")
    with ivy_like.use_backend(name):
        if which == "while_loop":
            f = ivy_like.compile(
                lambda x: ivy_like.while_loop(lambda v: ivy_like.sum(v) < 9, lambda v: v * 2, x)
            )
            args = (_arr([1.0]),)
        else:
            f = ivy_like.compile(lambda v, n: ivy_like.fori_loop(0, n, lambda i, u: u * 2, v))
            args = (_arr([1.0]), ivy_like.asarray(3))
        with pytest.raises(
            TypeError,
            match=f"{which}: .* depends on the values of arrays that are being traced",
        ):
            f(*args)


def test_compiled_while_loop_on_a_python_counter(backend):
    # A carry whose condition is a Python number turned array inside the compiled function:
    # a constant, readable on every backend.
    f = ivy_like.compile(
        lambda x: ivy_like.while_loop(lambda c: c[1] < 3, lambda c: (c[0] * 2, c[1] + 1), (x, 0))
    )
    x, n = f(_arr([1.0, 2.0]))
    assert_close(x, np.array([8.0, 16.0], np.float32))
    assert int(n) == 3


# -- gradients -----------------------------------------------------------------------------
def _cond_loss(x):
    return ivy_like.sum(ivy_like.cond(ivy_like.sum(x) > 0, ivy_like.sin, lambda v: v * v, x))


def _fori_loss(w):
    return ivy_like.sum(
        ivy_like.fori_loop(
            0, 3, lambda i, v: v * w + ivy_like.astype(i, "float32"), ivy_like.ones_like(w)
        )
    )


def _scan_loss(w, xs):
    carry, ys = ivy_like.scan(lambda c, x: (c * w + x, c), ivy_like.zeros_like(w), xs)
    return carry + ivy_like.sum(ys)


W = np.array([0.5, -1.5], np.float32)


def _closed_forms():
    pos, neg = np.array([0.3, 0.4]), np.array([-0.3, 0.1])
    return {
        "cond_pos": (pos, np.cos(pos)),
        "cond_neg": (neg, 2 * neg),
        "fori": (W, 3 * W.astype(np.float64) ** 2 + 1),  # v3 = w^3 + w + 2 per element
        "scan": (np.float32(2.0), 2 * 2.0 + 3),  # w^2 + 2w + 3 + (0 + 1 + (w + 2))
    }


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
@pytest.mark.requires("autodiff")
def test_grad_through_cond_fori_loop_and_scan(backend, compiled):
    wrap = ivy_like.compile if compiled else (lambda f: f)
    forms = _closed_forms()
    g = wrap(ivy_like.grad(_cond_loss))
    for key in ("cond_pos", "cond_neg"):
        x, want = forms[key]
        assert_close(g(_arr(x)), want.astype(np.float32), label=f"{key}: ", **TOL)
    w, want = forms["fori"]
    assert_close(wrap(ivy_like.grad(_fori_loss))(_arr(w)), want.astype(np.float32), **TOL)
    w, want = forms["scan"]
    got = wrap(ivy_like.grad(_scan_loss))(_arr(w), _arr(XS))
    assert_close(got, np.float32(want), **TOL)


@pytest.mark.requires("autodiff")
def test_grad_of_a_container_through_scan(backend):
    params = ivy_like.Container(w=_arr(0.5), b=_arr(2.0))

    def loss(p):
        return ivy_like.scan(lambda c, x: (c * p.w + p.b * x, None), _arr(0.0), _arr(XS))[0]

    value, grads = ivy_like.value_and_grad(loss)(params)
    # c3 = b (x1 w^2 + x2 w + x3)
    assert_close(value, np.float32(2.0 * (0.25 + 1.0 + 3.0)), **TOL)
    assert type(grads) is ivy_like.Container
    assert_close(grads.w, np.float32(2.0 * (2 * 1.0 * 0.5 + 2.0)), **TOL)
    assert_close(grads.b, np.float32(0.25 + 1.0 + 3.0), **TOL)


@pytest.mark.requires("autodiff")
def test_grad_ignores_the_branch_not_taken(backend):
    # sqrt's gradient at -1 is NaN; the branch is not taken, so the gradient is 0.
    f = lambda x: ivy_like.cond(x > 0, ivy_like.sqrt, lambda v: v * 0, x)  # noqa: E731
    assert_close(ivy_like.grad(f)(_arr(-1.0)), np.float32(0))


@pytest.mark.ivy_like_xfail(
    "torch",
    "mlx",
    reason="under compile a traced predicate selects between both branches with where (torch.cond "
    "has no torch.func.grad rule; MLX has no cond), and where's gradient is NaN where the branch "
    "not taken has a NaN gradient, as jax.lax.cond under vmap",
)
@pytest.mark.requires("autodiff")
def test_compiled_grad_ignores_the_branch_not_taken(backend):
    f = lambda x: ivy_like.cond(x > 0, ivy_like.sqrt, lambda v: v * 0, x)  # noqa: E731
    assert_close(ivy_like.compile(ivy_like.grad(f))(_arr(-1.0)), np.float32(0))


@pytest.mark.requires("autodiff")
def test_grad_through_while_loop(backend):
    # As in JAX, lax.while_loop has no reverse-mode derivative; the Python loops do.

    def cube(x):
        v, _ = ivy_like.while_loop(
            lambda c: c[1] < 3, lambda c: (c[0] * x, c[1] + 1), (ivy_like.ones_like(x), 0)
        )
        return ivy_like.sum(v)

    if backend.name == "jax":
        with pytest.raises(
            ValueError, match="Reverse-mode differentiation does not work for lax.while_loop"
        ):
            ivy_like.grad(cube)(_arr(W))
    else:
        assert_close(ivy_like.grad(cube)(_arr(W)), 3 * W**2, **TOL)


def test_closed_forms_are_jax_lax_gradients():
    jax = pytest.importorskip("jax")
    from jax import lax

    forms = _closed_forms()

    def cond_loss(x):
        return lax.cond(x.sum() > 0, lambda v: jax.numpy.sin(v), lambda v: v * v, x).sum()

    for key in ("cond_pos", "cond_neg"):
        x, want = forms[key]
        np.testing.assert_allclose(jax.grad(cond_loss)(x.astype(np.float32)), want, **TOL)

    def fori_loss(w):
        return lax.fori_loop(0, 3, lambda i, v: v * w + i, jax.numpy.ones_like(w)).sum()

    w, want = forms["fori"]
    np.testing.assert_allclose(jax.grad(fori_loss)(w), want, **TOL)

    def scan_loss(w):
        carry, ys = lax.scan(lambda c, x: (c * w + x, c), jax.numpy.zeros_like(w), XS)
        return carry + ys.sum()

    w, want = forms["scan"]
    np.testing.assert_allclose(jax.grad(scan_loss)(w), want, **TOL)


# -- other transforms and compilers ----------------------------------------------------------
def test_vmap_of_cond_selects_per_example(backend):
    f = ivy_like.vmap(
        lambda r: ivy_like.cond(ivy_like.sum(r) > 0, lambda q: q * 10, lambda q: q - 1, r)
    )
    got = f(_arr([[1.0, 2.0], [-3.0, 1.0]]))
    assert_close(got, np.array([[10.0, 20.0], [-4.0, 0.0]], np.float32))


def test_inside_torch_compile():
    torch = pytest.importorskip("torch")
    with ivy_like.use_backend("torch"):
        # The predicate is read with a graph break; loops of fixed length unroll.
        f = torch.compile(
            lambda x: ivy_like.cond(x.sum() > 2, lambda v: v * 10, lambda v: v - 1, x)
        )
        x = torch.tensor([1.0, 2.0])
        assert_close(f(x), np.array([10.0, 20.0], np.float32))
        assert_close(f(-x), np.array([-2.0, -3.0], np.float32))
        s = torch.compile(
            lambda xs: ivy_like.scan(lambda c, v: (c * v, c), torch.tensor(1.0), xs), fullgraph=True
        )
        carry, ys = s(torch.tensor([2.0, 3.0, 4.0]))
        assert_close(carry, np.float32(24))
        assert_close(ys, np.array([1.0, 2.0, 6.0], np.float32))

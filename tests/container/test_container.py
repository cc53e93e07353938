"""Container: construction, access, repr, key-chain semantics, op methods, operators, utilities."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import ivy_like
from ivy_like import Container
from ivy_like.core.registry import OPS, OpSpec


def arr(*values, dtype="float32"):
    return ivy_like.array(list(values), dtype=dtype)


def np_of(c):
    return {kc: np.asarray(ivy_like.to_numpy(v)) for kc, v in c.cont_flatten_key_chains().items()}


# -- construction and access ------------------------------------------------------------------------
def test_construction_forms_and_nesting():
    a = Container({"x": {"y": 1}}, z=2)
    b = Container([("x", {"y": 1}), ("z", 2)])
    for c in (a, b):
        assert isinstance(c.x, Container) and c.x.y == 1 and c.z == 2
    assert Container().cont_num_leaves == 0
    with pytest.raises(TypeError, match="keys must be strings"):
        Container({1: 2})
    with pytest.raises(TypeError, match="pairs"):
        Container([1, 2])
    with pytest.raises(TypeError, match="mapping or an iterable"):
        Container(3)


def test_access_by_attribute_chain_tuple_and_contains():
    c = Container(a={"b": {"c": 1}}, d=2)
    assert c.a.b.c == c["a/b/c"] == c["a", "b", "c"] == c[("a", "b/c")] == 1
    assert "a/b/c" in c and ("a", "b") in c and "a" in c
    assert "a/b/x" not in c and "a/bb" not in c and "d/e" not in c and 5 not in c
    with pytest.raises(KeyError, match="'a/x'"):
        c["a/x"]
    with pytest.raises(KeyError):
        c["nope"]
    with pytest.raises(AttributeError, match="nope"):
        _ = c.nope
    assert c.get("a/b/c") == 1 and c.get("a/zz", 7) == 7


def test_assignment_and_deletion():
    c = Container()
    c["a/b"] = 1
    c["a", "c"] = 2
    c.d = {"e": 3}
    assert c.cont_all_key_chains() == ["a/b", "a/c", "d/e"]
    assert isinstance(c.d, Container)
    with pytest.raises(KeyError, match="is a leaf"):
        c["a/b/x"] = 5
    del c["a/b"]
    del c.d
    assert c.cont_all_key_chains() == ["a/c"]
    with pytest.raises(KeyError):
        del c["a/zz"]
    c.update({"q/r": 1}, s=2)
    assert c.cont_all_key_chains() == ["a/c", "q/r", "s"]


def test_copy_is_structural():
    c = Container(a={"b": arr(1.0)})
    d = c.copy()
    d["a/c"] = 2
    assert "a/c" not in c and d.a.b is c.a.b


# -- repr -------------------------------------------------------------------------------------------
def test_repr_matches_ivy_layout():
    x = Container(a=arr(0.0, 1.0, 2.0), b=arr(3.0, 4.0, 5.0))
    assert repr(x) == (
        "{\n    a: ivy_like.array([0., 1., 2.]),\n    b: ivy_like.array([3., 4., 5.])\n}"
    )
    nested = Container(a={"b": ivy_like.zeros((2, 2))}, c=1)
    assert str(nested) == (
        "{\n"
        "    a: {\n"
        "        b: ivy_like.array([[0., 0.],\n"
        "                           [0., 0.]])\n"
        "    },\n"
        "    c: 1\n"
        "}"
    )
    assert repr(Container()) == "{}"


def test_repr_elides_long_trees():
    c = Container({f"k{i:03d}": i for i in range(200)})
    text = repr(c)
    assert "... (185 more keys)," in text and "k000: 0" in text and "k199: 199" in text
    assert len(text.splitlines()) < 25
    big = Container(a=ivy_like.zeros((30, 2, 2)))
    assert "..." in repr(big) and len(repr(big).splitlines()) <= 14


def test_seed_examples_print_as_on_the_page(backend, capsys):
    x = Container(a=ivy_like.array([0.0, 1.0, 2.0]), b=ivy_like.array([3.0, 4.0, 5.0]))
    y = ivy_like.stop_gradient(x, preserve_type=False)
    print(y)
    y = x.stop_gradient(preserve_type=False)
    print(y)
    assert x.stop_gradient(preserve_type=True, out=x) is x
    print(x)
    assert ivy_like.stop_gradient(x, preserve_type=True, out=x) is x
    print(x)
    expected = "{\n    a: ivy_like.array([0., 1., 2.]),\n    b: ivy_like.array([3., 4., 5.])\n}\n"
    assert capsys.readouterr().out == expected * 4
    assert isinstance(x.a, ivy_like.Array) and x.a.backend is backend


# -- key chains -------------------------------------------------------------------------------------
@pytest.fixture
def tree():
    return Container(
        x={"a": arr(1.0), "ab": arr(2.0), "a2": {"q": arr(3.0)}},
        y={"a": arr(4.0)},
        z=arr(5.0),
    )


def applied(before, after):
    """Key chains whose leaf changed (the op applied), sorted."""
    b, a = np_of(before), np_of(after)
    return sorted(k for k in a if k in b and not np.array_equal(a[k], b[k]))


def test_key_chain_matching_is_by_whole_components(tree):
    assert applied(tree, tree.negative(key_chains="x/a")) == ["x/a"]  # never x/ab or x/a2
    assert applied(tree, tree.negative(key_chains="x")) == ["x/a", "x/a2/q", "x/ab"]
    assert applied(tree, tree.negative(key_chains=["x/a2", "z"])) == ["x/a2/q", "z"]
    assert applied(tree, tree.negative(key_chains=("y/a",))) == ["y/a"]
    # a chain and one of its descendants: the ancestor wins, nothing is applied twice
    assert applied(tree, tree.negative(key_chains=["x", "x/a"])) == ["x/a", "x/a2/q", "x/ab"]
    assert applied(tree, tree.negative(key_chains=["x/a", "x"])) == ["x/a", "x/a2/q", "x/ab"]


def test_nested_dict_and_container_key_chains_at_every_depth(tree):
    assert applied(tree, tree.negative(key_chains={"x": {"a2": {"q": True}}})) == ["x/a2/q"]
    assert applied(tree, tree.negative(key_chains={"x": {"a": 1}, "z": 1})) == ["x/a", "z"]
    assert applied(tree, tree.negative(key_chains={"x/ab": None})) == ["x/ab"]
    selector = Container(y={"a": 0}, x={"a2": {"q": 0}})
    assert applied(tree, tree.negative(key_chains=selector)) == ["x/a2/q", "y/a"]


def test_unknown_key_chain_raises_naming_it(tree):
    with pytest.raises(KeyError, match="'x/abc'"):
        tree.negative(key_chains="x/abc")
    with pytest.raises(KeyError, match="'x/a/deeper'"):
        tree.negative(key_chains=["z", "x/a/deeper"])
    with pytest.raises(KeyError, match="'y/b'"):
        tree.negative(key_chains={"y": {"b": 1}})
    with pytest.raises(KeyError, match="'w'"):
        tree.cont_map(lambda v, kc: v, key_chains="w")
    with pytest.raises(TypeError, match="key_chains"):
        tree.negative(key_chains=3)


def test_to_apply_false_applies_to_everything_else(tree):
    out = tree.negative(key_chains=["x/a", "y"], to_apply=False)
    assert applied(tree, out) == ["x/a2/q", "x/ab", "z"]
    assert out.x.a is tree.x.a  # unapplied leaves are kept, the same objects
    assert out.cont_all_key_chains() == tree.cont_all_key_chains()
    assert out.x is not tree.x  # ... in a new structure
    # key_chains=None: everything, whatever to_apply says
    assert len(applied(tree, tree.negative(to_apply=False))) == 5


def test_prune_unapplied(tree):
    out = tree.negative(key_chains="x/a2", prune_unapplied=True)
    assert out.cont_all_key_chains() == ["x/a2/q"]
    out = tree.negative(key_chains=["x", "z"], to_apply=False, prune_unapplied=True)
    assert out.cont_all_key_chains() == ["y/a"]  # x left empty is dropped
    np.testing.assert_array_equal(out.y.a.to_numpy(), [-4.0])


def test_map_sequences():
    c = Container(a=[arr(1.0), arr(2.0)], b=(arr(3.0), [arr(4.0)]), d=arr(5.0))
    out = c.negative(map_sequences=True)
    assert type(out.a) is list and type(out.b) is tuple and type(out.b[1]) is list
    assert [float(v.to_numpy()[0]) for v in out.a] == [-1.0, -2.0]
    assert float(out.b[1][0].to_numpy()[0]) == -4.0
    # without map_sequences a sequence leaf is given to the op whole (as the function would)
    whole = c.negative(key_chains="a")
    assert isinstance(whole.a, ivy_like.Array) and whole.a.shape == (2, 1)
    # key_chains still applies to sequence leaves
    part = c.negative(key_chains="b", map_sequences=True)
    assert part.a is c.a and float(part.b[0].to_numpy()[0]) == -3.0
    # two Containers with sequence leaves are zipped; lengths must agree
    s = Container.static_add(c, c, key_chains="a", map_sequences=True)
    assert [float(v.to_numpy()[0]) for v in s.a] == [2.0, 4.0]
    other = Container(a=[arr(1.0)], b=c.b, d=c.d)
    with pytest.raises(ValueError, match="'a'.*sequence of 2.*of 1"):
        c.add(other, map_sequences=True)


def test_cont_map_gets_leaf_and_key_chain(tree):
    seen = tree.cont_map(lambda v, kc: kc)
    assert seen.x.a2.q == "x/a2/q" and seen.z == "z"
    seqs = Container(a=[1, 2]).cont_map(lambda v, kc: (v, kc), map_sequences=True)
    assert seqs.a == [(1, "a"), (2, "a")]


# -- structure matching between Containers ---------------------------------------------------------
def test_structure_mismatch_names_first_differing_chain():
    a = Container(x={"p": arr(1.0), "q": arr(2.0)}, y=arr(3.0))
    missing = Container(x={"p": arr(1.0)}, y=arr(3.0))
    with pytest.raises(ValueError, match="'x/q': missing in x2"):
        a + missing
    with pytest.raises(ValueError, match="'x/r': missing in x1"):
        missing + Container(x={"p": arr(1.0), "r": arr(0.0)}, y=arr(3.0))
    with pytest.raises(ValueError, match="'y': a leaf in x1, a Container in x2"):
        ivy_like.add(a, Container(x=a.x, y={"z": arr(1.0)}))
    with pytest.raises(ValueError, match="'x': a Container in x1, a leaf in x2"):
        a.add(Container(x=arr(1.0), y=arr(1.0)))
    # only the selected leaves must match
    out = a.add(missing, key_chains=["x/p", "y"])
    np.testing.assert_array_equal(out.x.p.to_numpy(), [2.0])
    assert out.x.q is a.x.q
    with pytest.raises(ValueError, match="containers\\[1\\]"):
        Container.cont_multi_map(lambda vs, kc: vs[0], [a, missing])


def test_binary_ops_with_containers_arrays_and_scalars(backend):
    a = Container(x=arr(1.0, 2.0), y={"z": arr(3.0, 4.0)})
    b = Container(y={"z": arr(10.0, 10.0)}, x=arr(10.0, 20.0))  # other insertion order
    v = arr(2.0, 2.0)
    checks = {
        "a+b": (a + b, {"x": [11, 22], "y/z": [13, 14]}),
        "a-v": (a - v, {"x": [-1, 0], "y/z": [1, 2]}),
        "2*a": (2 * a, {"x": [2, 4], "y/z": [6, 8]}),
        "a/2": (a / 2, {"x": [0.5, 1], "y/z": [1.5, 2]}),
        "a**2": (a**2, {"x": [1, 4], "y/z": [9, 16]}),
        "2**a": (2**a, {"x": [2, 4], "y/z": [8, 16]}),
        "10-a": (10 - a, {"x": [9, 8], "y/z": [7, 6]}),
        "v*a": (v * a, {"x": [2, 4], "y/z": [6, 8]}),
        "-a": (-a, {"x": [-1, -2], "y/z": [-3, -4]}),
        "a<b": (a < b, {"x": [True, True], "y/z": [True, True]}),
        "a>=2": (a >= 2, {"x": [False, True], "y/z": [True, True]}),
        "a==a": (a == a, {"x": [True, True], "y/z": [True, True]}),
        "a!=v": (a != v, {"x": [True, False], "y/z": [True, True]}),
        "add": (ivy_like.add(a, b), {"x": [11, 22], "y/z": [13, 14]}),
    }
    for name, (got, want) in checks.items():
        assert isinstance(got, Container), name
        vals = np_of(got)
        assert sorted(vals) == sorted(want), name
        for kc, expected in want.items():
            np.testing.assert_array_equal(vals[kc], expected, err_msg=name)
        assert got.x.backend is backend
    m = Container(w=ivy_like.ones((2, 3)))
    assert (m @ ivy_like.ones((3, 4))).w.shape == (2, 4)
    assert (ivy_like.ones((4, 2)) @ m).w.shape == (4, 3)
    c = Container(x=arr(1.0))
    x_leaf = c.x
    c += 1
    np.testing.assert_array_equal(c.x.to_numpy(), [2.0])
    np.testing.assert_array_equal(x_leaf.to_numpy(), [1.0])


def test_native_leaves_stay_native(backend):
    native = backend.asarray(np.array([1.0, 2.0], np.float32))
    c = Container(a=native)
    out = c.multiply(3.0)
    assert type(out.a) is type(native)
    np.testing.assert_array_equal(ivy_like.to_numpy(out.a), [3.0, 6.0])


# -- out= -------------------------------------------------------------------------------------------
def test_out_container_is_written_and_returned(backend):
    x = Container(a=arr(1.0, 2.0), b={"c": arr(3.0)})
    out = Container(a=arr(0.0, 0.0), b={"c": arr(0.0)})
    a_leaf = out.a
    res = x.add(1.0, out=out)
    assert res is out and out.a is a_leaf  # Array leaves written (in place or rebound)
    np.testing.assert_array_equal(out.a.to_numpy(), [2.0, 3.0])
    np.testing.assert_array_equal(out.b.c.to_numpy(), [4.0])
    res = ivy_like.multiply(x, x, out=out)
    assert res is out
    np.testing.assert_array_equal(out.b.c.to_numpy(), [9.0])
    # selected leaves only
    x.negative(key_chains="b", out=out)
    np.testing.assert_array_equal(out.a.to_numpy(), [1.0, 4.0])
    np.testing.assert_array_equal(out.b.c.to_numpy(), [-3.0])


def test_out_native_leaves(backend):
    na = backend.asarray(np.array([1.0, 2.0], np.float32))
    x = Container(a=na)
    target = backend.asarray(np.zeros(2, np.float32))
    out = Container(a=target)
    assert x.multiply(2.0, out=out) is out
    np.testing.assert_array_equal(ivy_like.to_numpy(out.a), [2.0, 4.0])
    if backend.mutable_arrays:
        assert out.a is target  # written in place
        np.testing.assert_array_equal(ivy_like.to_numpy(target), [2.0, 4.0])
    else:
        assert type(out.a) is type(target)  # immutable: the entry is rebound


def test_out_checks_everything_before_writing():
    x = Container(a=arr(1.0, 2.0), b=arr(3.0))
    out = Container(a=arr(0.0, 0.0), b=arr(0.0, 0.0))  # b has the wrong shape
    with pytest.raises(ValueError, match="'b' has shape"):
        x.add(1.0, out=out)
    np.testing.assert_array_equal(out.a.to_numpy(), [0.0, 0.0])  # nothing half-written
    bad_dtype = Container(a=arr(0, 0, dtype="int32"), b=arr(0.0))
    with pytest.raises(TypeError, match="'a' has dtype int32"):
        x.add(1.0, out=bad_dtype)
    with pytest.raises(ValueError, match="'b': missing in out"):
        x.add(1.0, out=Container(a=arr(0.0, 0.0)))
    with pytest.raises(TypeError, match="out= must be a Container"):
        ivy_like.add(x, 1.0, out=arr(0.0))


def test_out_errors_are_the_functions_naming_the_key_chain(backend):
    # One out= check for both paths: the same words, the Container's naming the key chain,
    # dtypes by their ivy_like names on every backend.
    x = arr(1.0, 2.0)
    with pytest.raises(
        ValueError, match=r"^add: out= has shape \(3,\) but the result has shape \(2,\)$"
    ):
        ivy_like.add(x, 1.0, out=arr(0.0, 0.0, 0.0))
    with pytest.raises(
        ValueError,
        match=r"^add: out= at key chain 'b/c' has shape \(3,\) but the result has shape \(2,\)$",
    ):
        Container(b={"c": x}).add(1.0, out=Container(b={"c": arr(0.0, 0.0, 0.0)}))
    with pytest.raises(
        TypeError, match=r"^add: out= has dtype int32 but the result has dtype float32$"
    ):
        ivy_like.add(x, 1.0, out=arr(0, 0, dtype="int32"))
    with pytest.raises(
        TypeError,
        match=r"^add: out= at key chain 'a' has dtype int32 but the result has dtype float32$",
    ):
        Container(a=x).add(1.0, out=Container(a=arr(0, 0, dtype="int32")))
    for target in (1.5, "x"):
        with pytest.raises(TypeError, match=r"^add: out= must be an array of the \w+ backend"):
            ivy_like.add(x, 1.0, out=target)
        with pytest.raises(TypeError, match=r"^add: out= at key chain 'a' must be an array"):
            Container(a=x).add(1.0, out=Container(a=target))


def test_out_sequences_are_checked_whole_before_writing():
    c = Container(s=[arr(1.0), arr(2.0)])
    out = Container(s=[arr(0.0), arr(0.0, 0.0)])  # the second has the wrong shape
    with pytest.raises(ValueError, match=r"out= at key chain 's\[1\]' has shape \(2,\)"):
        c.add(1.0, map_sequences=True, out=out)
    assert [v.to_numpy().tolist() for v in out.s] == [[0.0], [0.0, 0.0]]  # nothing written
    with pytest.raises(
        ValueError, match="out= at key chain 's' is a sequence of 1, the result one of 2"
    ):
        c.add(1.0, map_sequences=True, out=Container(s=[arr(0.0)]))
    good = Container(s=[arr(0.0), arr(0.0)])
    assert c.add(1.0, map_sequences=True, out=good) is good
    assert [v.to_numpy().tolist() for v in good.s] == [[2.0], [3.0]]


# -- the call path ---------------------------------------------------------------------------------
def test_a_mapped_op_registers_frameworks_once_and_rebuilds_nothing_per_call():
    from ivy_like.container import _container, _pytree

    c = Container(w=arr(1.0, 2.0), b={"x": arr(3.0)})
    o = Container(w=arr(0.0, 0.0), b={"x": arr(0.0)})
    sync = _pytree.sync.__code__
    param_names = OpSpec.param_names.fget.__code__
    calls = [
        lambda: c.add(1.0, key_chains="w"),
        lambda: c.add(1.0, out=o),
        lambda: c.add(c),
        lambda: Container.static_add(c, 1.0, key_chains=["b"]),
        lambda: ivy_like.add(c, c),
    ]
    for call in calls:
        call()  # the op's code is generated on first use
    entered: list = []

    def profile(frame, event, arg):
        if event == "call":
            entered.append(frame.f_code)

    # A framework imported but not yet registered keeps the check live on every call.
    _pytree.pending["ivy_like_test_framework"] = lambda: None
    try:
        for call in calls:
            entered.clear()
            sys.setprofile(profile)
            try:
                call()
            finally:
                sys.setprofile(None)
            assert entered.count(sync) == 1
            assert param_names not in entered
            # The walk stays in _mapping beside its leaf functions: of the class module only
            # the constructors of the results run.
            in_class_module = {f.co_name for f in entered if f.co_filename == _container.__file__}
            assert in_class_module <= {"make", "copy_structure"}, in_class_module
    finally:
        del _pytree.pending["ivy_like_test_framework"]


# -- several outputs ---------------------------------------------------------------------------------
def _two_output_spec():
    def split_halves(x, /, *, out=None):
        """Two outputs (test op, not registered)."""

    spec = OpSpec(name="split_halves", declaration=split_halves, arrays=("x",), n_outputs=2)

    def function(x, /, *, out=None):
        n = ivy_like.to_numpy(x)
        h = len(n) // 2
        return ivy_like.array(n[:h]), ivy_like.array(n[h:])

    spec.function = function
    from ivy_like.container._mapping import _install

    spec.method = False  # keep the Container class free of the test op: only the invoker
    saved = {k: getattr(Container, k, None) for k in ("split_halves", "static_split_halves")}
    _install(spec)
    for k, v in saved.items():
        if v is None:
            delattr(Container, k)
    return spec


def test_multi_output_ops_give_a_tuple_of_containers():
    spec = _two_output_spec()
    c = Container(a=arr(1.0, 2.0, 3.0, 4.0), b={"c": arr(5.0, 6.0)})
    first, second = ivy_like.container.container_map(spec, (c, None))
    assert first.cont_all_key_chains() == second.cont_all_key_chains() == ["a", "b/c"]
    np.testing.assert_array_equal(first.a.to_numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(second.b.c.to_numpy(), [6.0])
    from ivy_like.container._mapping import map_op

    c["s"] = [arr(1.0, 2.0), arr(3.0, 4.0)]
    # sequences: each output gets a sequence of the per-element outputs (never a split list)
    lo, hi = map_op(spec, (c, None), key_chains="s", map_sequences=True, prune_unapplied=True)
    assert type(lo.s) is list and len(lo.s) == 2 and len(hi.s) == 2
    np.testing.assert_array_equal(lo.s[1].to_numpy(), [3.0])
    np.testing.assert_array_equal(hi.s[0].to_numpy(), [2.0])
    assert lo.cont_all_key_chains() == ["s"]
    with pytest.raises(TypeError, match="several outputs"):
        map_op(spec, (c, c))


# -- generated methods ------------------------------------------------------------------------------
def test_every_array_op_has_method_and_static_variant():
    import inspect

    for name, spec in OPS.items():
        if spec.creation or not (spec.arrays or spec.sequences):
            continue
        # Registry keys are qualified ("fft.fft", "linalg.inv"); Container methods, like Array
        # methods, use the op's own name (``c.inv()``, ``Container.static_fft(c)``).
        static = getattr(Container, f"static_{spec.name}")
        params = inspect.signature(static).parameters
        for kw in ("key_chains", "to_apply", "prune_unapplied", "map_sequences"):
            assert params[kw].kind is inspect.Parameter.KEYWORD_ONLY, name
        assert ("out" in params) == (spec.out_index >= 0), name
        if spec.params[0].name in spec.arrays:
            meth = getattr(Container, spec.name)
            mparams = list(inspect.signature(meth).parameters)
            assert mparams[0] == "self"
            assert mparams[1:] == [p for p in params if p != spec.params[0].name], name


def test_static_and_function_variants_map_over_leaves():
    c = Container(a=arr(1.0, 4.0), b={"c": arr(9.0)})
    for got in (Container.static_sqrt(c), ivy_like.sqrt(c), c.sqrt()):
        np.testing.assert_array_equal(got.a.to_numpy(), [1.0, 2.0])
        np.testing.assert_array_equal(got.b.c.to_numpy(), [3.0])
    s = ivy_like.sum(c, axis=0, keepdims=True)
    np.testing.assert_array_equal(s.a.to_numpy(), [5.0])
    stacked = Container.static_stack([c, c], axis=0)
    assert stacked.a.shape == (2, 2)
    assert ivy_like.concat([c, c]).b.c.shape == (2,)
    where = ivy_like.where(c > 2, c, 0.0)
    np.testing.assert_array_equal(where.a.to_numpy(), [0.0, 4.0])
    assert c.astype("float64").a.dtype == ivy_like.float64


def test_option_types_are_checked():
    c = Container(a=arr(1.0))
    with pytest.raises(TypeError, match="to_apply"):
        c.negative(key_chains="a", to_apply="yes")
    with pytest.raises(TypeError, match="map_sequences"):
        c.cont_map(lambda v, kc: v, map_sequences=None)


# -- utilities ----------------------------------------------------------------------------------------
def test_key_chain_utilities(tree):
    assert tree.cont_all_key_chains() == ["x/a", "x/ab", "x/a2/q", "y/a", "z"]
    assert tree.cont_at_key_chain("x/a2") is tree.x.a2
    with pytest.raises(KeyError, match="'x/b'"):
        tree.cont_at_key_chain("x/b")
    sub = tree.cont_at_key_chains(["x/a", {"y": {"a": 1}}])
    assert sub.cont_all_key_chains() == ["x/a", "y/a"] and sub.x.a is tree.x.a
    pruned = tree.cont_prune_key_chains(["x/a2", "z"])
    assert pruned.cont_all_key_chains() == ["x/a", "x/ab", "y/a"]
    with pytest.raises(KeyError, match="'q'"):
        tree.cont_prune_key_chains("q")
    new = tree.cont_set_at_key_chain("x/new/deep", 1)
    assert new.x.new.deep == 1 and "x/new" not in tree
    assert tree.cont_set_at_key_chain("z", 2, inplace=True) is tree and tree.z == 2


def test_flatten_and_unflatten(tree):
    flat = tree.cont_flatten_key_chains()
    assert list(flat) == tree.cont_all_key_chains()
    assert flat["x/a2/q"] is tree.x.a2.q
    back = Container.cont_unflatten(flat)
    assert back.cont_identical(tree, same_arrays=True)
    with pytest.raises(ValueError, match="'a/b'"):
        Container.cont_unflatten({"a": 1, "a/b": 2})


def test_conversions(tree):
    d = tree.cont_to_dict()
    assert type(d) is dict and type(d["x"]["a2"]) is dict and d["z"] is tree.z
    native = tree.cont_to_native()
    assert type(native.x.a) is type(tree.x.a.data)
    numpy_c = Container(a=arr(1.0), s=[arr(2.0)], n=3).cont_to_numpy()
    assert type(numpy_c.a) is np.ndarray and type(numpy_c.s[0]) is np.ndarray and numpy_c.n == 3
    assert ivy_like.to_numpy(tree).cont_all_key_chains() == tree.cont_all_key_chains()


def test_shapes_dtypes_num_leaves():
    c = Container(a=ivy_like.zeros((2, 3)), b={"c": arr(1, 2, dtype="int32")}, s=1.5)
    assert c.cont_shapes.cont_to_dict() == {"a": (2, 3), "b": {"c": (2,)}, "s": None}
    assert c.cont_dtypes.cont_to_dict() == {
        "a": ivy_like.float32,
        "b": {"c": ivy_like.int32},
        "s": None,
    }
    assert c.cont_num_leaves == 3


def test_identical_and_allclose():
    a = Container(x=arr(1.0, float("nan")), y={"z": arr(-0.0)})
    b = Container(y={"z": arr(-0.0)}, x=arr(1.0, float("nan")))
    assert a.cont_identical(b) and a.cont_identical([b, a])
    assert not a.cont_identical(b, same_arrays=True)
    assert not a.cont_identical(Container(x=a.x, y={"z": arr(0.0)}))  # -0.0 vs 0.0 bits
    assert not a.cont_identical(Container(x=a.x))
    assert not a.cont_identical(Container(x=a.x, y={"z": arr(-0.0, dtype="float64")}))
    assert not a.cont_identical(Container(x=a.x, y={"z": a.y.z.data}))  # Array vs native
    assert a.cont_allclose(b, equal_nan=True) and not a.cont_allclose(b)
    assert a.cont_allclose(a * (1 + 1e-6), equal_nan=True)
    assert not a.cont_allclose(a + 1, equal_nan=True)
    assert not a.cont_allclose(Container(x=a.x, y={"z": arr(0.0, 0.0)}), equal_nan=True)


def test_to_backend_keeps_types_and_values(backend):
    src = Container(
        a=ivy_like.array([1.0, 2.0]),
        b={"n": np.arange(3, dtype=np.int32)},
        s=[ivy_like.array([3], dtype="int32")],
        k=2.0,
    )
    moved = src.cont_to_backend(backend.name)
    assert isinstance(moved.a, ivy_like.Array) and moved.a.backend is backend
    assert ivy_like.backend_of(moved.b.n) is backend
    assert not isinstance(moved.b.n, ivy_like.Array)
    assert moved.s[0].backend is backend and moved.k == 2.0
    assert moved.cont_dtypes.cont_to_dict()["b"]["n"] == ivy_like.int32
    np.testing.assert_array_equal(ivy_like.to_numpy(moved.b.n), [0, 1, 2])
    back = moved.cont_to_backend("numpy")
    assert back.cont_identical(src.cont_to_backend("numpy"))


def test_to_backend_between_every_pair(backend):
    names = ivy_like.available_backends()
    src = Container(w=backend.asarray(np.array([1.5, -2.0], np.float32)))
    src_arr = Container(w=ivy_like.Array(src.w))
    for name in names:
        moved = src.cont_to_backend(name)
        assert ivy_like.backend_of(moved.w).name == name
        np.testing.assert_array_equal(ivy_like.to_numpy(moved.w), [1.5, -2.0])
        assert moved.cont_dtypes.w == ivy_like.float32
        assert src_arr.cont_to_backend(name).w.backend.name == name
    if "bfloat16" in [d.name for d in backend.DTYPES]:
        bf = Container(
            w=backend.asarray(
                np.array([1.5, -2.0], np.float32), dtype=backend.native_dtype("bfloat16")
            )
        )
        for name in names:
            target = ivy_like.get_backend(name)
            if ivy_like.bfloat16 not in target.DTYPES:
                with pytest.raises(TypeError, match="'w' has dtype bfloat16"):
                    bf.cont_to_backend(name)
                continue
            moved = bf.cont_to_backend(name)
            assert moved.cont_dtypes.w == ivy_like.bfloat16
            assert moved.cont_to_backend(backend.name).cont_identical(bf)


@pytest.mark.parametrize(
    ("values", "scalar"), [([1, 2, 3], 6), ([True, False, True], True), ([True, False], False)]
)
def test_bitwise_operators_follow_array_on_every_side(backend, values, scalar):
    """``&``, ``|`` and ``^`` are bitwise on integers and logical on booleans, as for Array,
    whichever side the Container is on, and in place (dict's own ``|`` merge is not used)."""
    import operator

    with ivy_like.use_backend(backend):
        x = ivy_like.asarray(values)
    for op, iop in ((operator.and_, operator.iand), (operator.or_, operator.ior),
                    (operator.xor, operator.ixor)):  # fmt: skip
        want = op(np.asarray(values), scalar)  # NumPy: bitwise on ints, logical on bools
        assert op(x, scalar).to_numpy().tolist() == want.tolist()
        assert op(scalar, x).to_numpy().tolist() == want.tolist()
        c = ivy_like.Container(a=x)
        assert op(c, scalar)["a"].to_numpy().tolist() == want.tolist()
        assert op(scalar, c)["a"].to_numpy().tolist() == want.tolist()
        c2 = iop(c, scalar)
        assert c2 is c and c["a"].to_numpy().tolist() == want.tolist()
        assert c["a"].dtype == x.dtype

"""The tree flattening of the transforms: ``transforms.tree.rebuild`` generates one function per
structure seen twice, and must rebuild exactly what the walk rebuilds, static values and keys
included (``1 == 1.0 == True`` makes specs that differ only there compare equal, so a generated
function must not bake them in).

The fast path of a gradient call's arguments is tested in ``tests/transforms/test_grad.py``,
torch's own in ``tests/backends/test_torch_gradients.py``.
"""

from __future__ import annotations

import enum
from collections import namedtuple

import numpy as np
import pytest

import ivy_like
from ivy_like.container import Container
from ivy_like.transforms import tree as _tree

Pair = namedtuple("Pair", "first second")


class Colour(str, enum.Enum):
    RED = "red"


def _rebuilt_twice(obj):
    """``obj`` flattened and rebuilt three times (the second rebuild generates the function,
    the third runs it), with the results."""
    backend = ivy_like.get_backend("numpy")
    out = []
    for _ in range(3):
        flat = _tree.Flat("test")
        spec = _tree.flatten(obj, flat, "obj", True)
        out.append(_tree.rebuild(spec, iter(flat.leaves), backend))
    return spec, out


def _same(a, b):
    """Equal structure, types of containers, keys and statics, and the very same leaves."""
    assert type(a) is type(b), (a, b)
    if isinstance(a, dict):
        assert list(a) == list(b)
        assert [type(k) for k in a] == [type(k) for k in b]
        for k in a:
            _same(a[k], b[k])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    elif isinstance(a, np.ndarray):
        assert a is b
    else:
        assert a == b


def test_generated_rebuild_gives_the_walks_result():
    leaf = np.ones(2)
    obj = {
        "c": Container(w=leaf, inner=Container(b=np.zeros(1))),
        "l": [leaf, (np.ones(3),), Pair(np.ones(1), "static")],
        3: None,
        "t": (leaf,),
        "s": "text",
    }
    spec, outs = _rebuilt_twice(obj)
    assert spec in _tree._REBUILDERS  # the last rebuild ran generated code
    for out in outs:
        _same(out, obj)


@pytest.mark.parametrize(
    ("first", "second"),
    [(1, 1.0), (1.0, True), (True, 1)],
)
def test_equal_statics_of_other_types_are_rebuilt_as_given(first, second):
    # ("s", 1) == ("s", 1.0): both specs find one generated function, which must read the
    # static from the spec it is given.
    leaf = np.ones(1)
    for value in (first, second, first, second):
        obj = {"x": leaf, "k": value}
        _, outs = _rebuilt_twice(obj)
        for out in outs:
            assert type(out["k"]) is type(value) and out["k"] == value


def test_equal_dict_keys_of_other_types_are_rebuilt_as_given():
    leaf = np.ones(1)
    for keys in (("red", 1), (Colour.RED, True), ("red", 1.0)):
        obj = dict(zip(keys, (leaf, leaf)))
        _, outs = _rebuilt_twice(obj)
        for out in outs:
            assert [type(k) for k in out] == [type(k) for k in keys]


def test_unhashable_statics_and_deep_nests_keep_the_walk():
    leaf = np.ones(1)
    _, outs = _rebuilt_twice({"x": leaf, "s": slice(1, 2)})  # a slice is unhashable
    assert outs[-1]["s"] == slice(1, 2) and outs[-1]["x"] is leaf
    deep = leaf
    for _ in range(_tree._MAX_DEPTH + 5):
        deep = [deep]
    spec, outs = _rebuilt_twice(deep)
    for out in outs:
        _same(out, deep)


def test_a_one_off_structure_is_not_compiled():
    backend = ivy_like.get_backend("numpy")
    obj = {"once-only-key": np.ones(1)}
    flat = _tree.Flat("test")
    spec = _tree.flatten(obj, flat, "obj", True)
    _tree.rebuild(spec, iter(flat.leaves), backend)
    assert spec not in _tree._REBUILDERS

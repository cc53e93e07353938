"""Names and signatures of ivy_like's array API namespaces against array-api-strict.

Every name of the standard's main namespace, ``linalg`` and ``fft`` (2025.12 revision) must be
present, and every function must have the standard's parameter names and kinds (positional-only
and keyword-only markers included). ivy_like may add keyword-only parameters (``out=``), which
the standard allows. array-api-strict is the reference; it follows a later revision of the
standard, so names it gates behind a later version (read from its ``requires_api_version``
decorator) are left out.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest

import ivy_like

xp = pytest.importorskip("array_api_strict")

VERSION = "2025.12"

# array-api-strict's own helpers, not names of the standard.
NOT_STANDARD = {
    "Device",
    "ArrayAPIStrictFlags",
    "set_array_api_strict_flags",
    "get_array_api_strict_flags",
    "reset_array_api_strict_flags",
}

# Keyword-only parameters ivy_like adds to standard functions.
EXTRA_KEYWORDS = {"out"}


def _required_version(obj: Any) -> str:
    """The API version array-api-strict requires for ``obj`` (its decorators' closures)."""
    version = "2021.12"
    seen = set()
    while obj is not None and id(obj) not in seen:
        seen.add(id(obj))
        code = getattr(obj, "__code__", None)
        if code is not None and "version" in code.co_freevars:
            cell = obj.__closure__[code.co_freevars.index("version")]
            version = max(version, cell.cell_contents)
        obj = getattr(obj, "__wrapped__", None)
    return version


def _standard_names(namespace: Any) -> list[str]:
    return [
        n
        for n in namespace.__all__
        if n not in NOT_STANDARD and _required_version(getattr(namespace, n)) <= VERSION
    ]


NAMESPACES = [
    ("", xp, ivy_like),
    ("linalg.", xp.linalg, ivy_like.linalg),
    ("fft.", xp.fft, ivy_like.fft),
]
NAMES = [
    (prefix + n, ref, ours, n) for prefix, ref, ours in NAMESPACES for n in _standard_names(ref)
]


def _function(obj: Any) -> bool:
    return callable(obj) and not isinstance(obj, type) and inspect.isroutine(obj)


def _params(fn: Any) -> list[tuple[str, Any]]:
    return [(p.name, p.kind) for p in inspect.signature(fn).parameters.values()]


def test_the_reference_lists_the_2025_12_names():
    # A sanity check of the version filter: names up to 2025.12 are in.
    names = {full for full, *_ in NAMES}
    assert {"clip", "searchsorted", "cumulative_sum", "linalg.vecdot", "fft.fftfreq"} <= names
    assert {"count_nonzero", "take_along_axis", "diff", "cumulative_prod"} <= names
    assert {"broadcast_shapes", "isin"} <= names


@pytest.mark.parametrize("full", [full for full, *_ in NAMES])
def test_every_standard_name_is_present(full):
    _, ref, ours, name = next(item for item in NAMES if item[0] == full)
    assert hasattr(ours, name), f"ivy_like.{full} is missing"
    if not _function(getattr(ref, name)):
        return
    assert callable(getattr(ours, name)), f"ivy_like.{full} is not callable"


def test_array_api_version():
    assert ivy_like.__array_api_version__ == VERSION
    x = ivy_like.asarray([1.0])
    assert x.__array_namespace__() is ivy_like
    assert x.__array_namespace__(api_version=VERSION) is ivy_like
    with pytest.raises(ValueError, match="api_version"):
        x.__array_namespace__(api_version="1999.01")


P, K = inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.KEYWORD_ONLY
FUNCTIONS = [item for item in NAMES if _function(getattr(item[1], item[3]))]


@pytest.mark.parametrize("full", [full for full, *_ in FUNCTIONS])
def test_signature_matches_the_standard(full):
    _, ref, ours, name = next(item for item in FUNCTIONS if item[0] == full)
    want = _params(getattr(ref, name))
    got = _params(getattr(ours, name))
    extra = [(n, k) for n, k in got if n in EXTRA_KEYWORDS and (n, k) not in want]
    for n, kind in extra:
        assert kind is K, f"ivy_like.{full}: {n} must be keyword-only"
    got = [item for item in got if item not in extra]
    assert got == want, f"ivy_like.{full}{inspect.signature(getattr(ours, name))}"


# -- the array object ------------------------------------------------------------------------------
ARRAY_ATTRIBUTES = ["dtype", "device", "mT", "ndim", "shape", "size", "T"]
ARRAY_METHODS = [
    "__abs__", "__add__", "__and__", "__array_namespace__", "__bool__", "__complex__",
    "__dlpack__", "__dlpack_device__", "__eq__", "__float__", "__floordiv__", "__ge__",
    "__getitem__", "__gt__", "__index__", "__int__", "__invert__", "__le__", "__lshift__",
    "__lt__", "__matmul__", "__mod__", "__mul__", "__ne__", "__neg__", "__or__", "__pos__",
    "__pow__", "__rshift__", "__setitem__", "__sub__", "__truediv__", "__xor__", "to_device",
]  # fmt: skip
IN_PLACE = ["add", "sub", "mul", "truediv", "floordiv", "pow", "mod", "matmul", "and", "or",
            "xor", "lshift", "rshift"]  # fmt: skip


def test_array_object_has_the_standard_attributes_and_methods():
    missing = [n for n in ARRAY_ATTRIBUTES + ARRAY_METHODS if not hasattr(ivy_like.Array, n)]
    missing += [
        f"__{p}{n}__"
        for n in IN_PLACE
        for p in ("i", "r")
        if not hasattr(ivy_like.Array, f"__{p}{n}__")
    ]
    assert not missing
    x = ivy_like.ones((2, 2, 3))
    assert x.mT.shape == (2, 3, 2)
    moved = x.to_device(x.device)
    assert isinstance(moved, ivy_like.Array) and moved.shape == x.shape
    ref = type(xp.asarray(1.0))
    namespace = _params(ivy_like.Array.__array_namespace__)
    assert namespace == _params(ref.__array_namespace__)
    # The standard's to_device(self, device, /, *, stream=None) (array-api-strict's stream is
    # positional-or-keyword).
    params = [("self", P), ("device", P), ("stream", K)]
    assert _params(ivy_like.Array.to_device) == params

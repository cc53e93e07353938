"""Every op's docstring example runs (on the default numpy backend, whose output it shows).

``@op`` returns an OpSpec, so ``--doctest-modules`` does not see the declarations in
``ivy_like/ops/``; this runs each public function's docstring. The backend test files compare
the same ops on every backend against NumPy.
"""

from __future__ import annotations

import doctest

import pytest

import ivy_like
from ivy_like.core.registry import OPS

SPECS = sorted(OPS.values(), key=lambda s: (s.namespaces[0], s.name))


@pytest.mark.parametrize(
    "spec", SPECS, ids=lambda s: ".".join(filter(None, (s.namespaces[0], s.name)))
)
def test_docstring_example(spec):
    doc = spec.function.__doc__ or ""
    assert ">>>" in doc, f"{spec.name} has no example"
    parser = doctest.DocTestParser()
    test = parser.get_doctest(doc, {}, spec.name, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    with ivy_like.use_backend("numpy"):
        runner.run(test)
    assert runner.failures == 0, f"{spec.name}: {runner.failures} failing example(s)"

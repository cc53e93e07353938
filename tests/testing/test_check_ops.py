"""``check_function`` over the whole op registry: correct code raises no false failure, and
the tool runs on every op on every selected backend.

Every registered op has one example in a ``_op_cases_<family>.py`` module (float32 inside
its domain, so that the finite differences have a derivative to compare with), and runs
with every check. Where the op alone is not a function with one right answer (eigenvectors
have a sign of the kernel's choosing, a random op draws from each framework's generator) the
case checks a function of it that has one, and says why. The known gaps of a backend (a
framework without a derivative rule) are listed with the reason; a listed cell that passes
fails the test, so that the list stays true (except the cells in ``MAY_PASS``, whose
outcome depends on what the process ran before).
"""

from __future__ import annotations

import _op_cases_arrays
import _op_cases_elementwise
import _op_cases_linalg_fft
import _op_cases_nn
import pytest

from ivy_like.core.registry import OPS
from ivy_like.testing import CHECKS, check_function
from ivy_like.testing.pytest_plugin import selected_backends

MODULES = (_op_cases_elementwise, _op_cases_arrays, _op_cases_linalg_fft, _op_cases_nn)
CASES = {k: c for m in MODULES for k, c in m.CASES.items()}
KNOWN = {k: why for m in MODULES for k, why in m.KNOWN.items()}
MAY_PASS = {k for m in MODULES for k in getattr(m, "MAY_PASS", ())}


def test_every_op_has_one_case():
    keys = [k for m in MODULES for k in m.CASES]
    assert len(keys) == len(set(keys)), "an op has cases in two modules"
    assert sorted(set(OPS) - set(CASES)) == [], "ops without a case"
    assert sorted(set(CASES) - set(OPS)) == [], "cases of ops that are not registered"


def test_a_narrowed_case_says_why():
    for key, c in CASES.items():
        if c.f is not None or c.checks is not None:
            assert c.why, f"{key}: the case wraps the op or leaves checks out without a reason"
        assert c.checks is None or set(c.checks) <= set(CHECKS), key
    for (backend, key, check), why in KNOWN.items():
        assert key in CASES and check in CHECKS and why, (backend, key, check)
    assert MAY_PASS <= set(KNOWN), "a cell that may pass is a known failure first"


@pytest.mark.parametrize("key", sorted(OPS))
def test_an_op_passes_every_check(request, key):
    names = selected_backends(request.config)
    c = CASES[key]
    report = check_function(c.function(key), *c.args, backends=names, checks=c.checks)
    unexpected = [(b, ch, o.detail) for b, ch, o in report.failures if (b, key, ch) not in KNOWN]
    assert not unexpected, str(report)
    fixed = [
        (b, ch)
        for (b, k, ch) in KNOWN
        if k == key
        and (b, k, ch) not in MAY_PASS
        and (b, ch) in report.outcomes
        and report.outcomes[b, ch].status == "pass"
    ]
    assert not fixed, f"listed as failing in KNOWN, but they pass now: {fixed}"

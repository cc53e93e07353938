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

from collections.abc import Callable
from typing import Any

import _op_cases_arrays
import _op_cases_elementwise
import _op_cases_linalg_fft
import _op_cases_nn
import pytest

from ivy_like.core.registry import OPS
from ivy_like.testing import CHECKS, check_function, compile_together
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


# torch's compile check of several ops at once: Inductor builds a graph's kernels with a g++
# run of ~0.7 s, most of it fixed (the precompiled header, the link against libtorch), which
# the ops of a group share (the file's torch compile checks in one process: 207 s alone, 80 s
# in groups of 8; 16 saves little more). A group is the next ops of the session not checked
# yet in this process: under xdist, those the other worker runs are compiled in vain, at
# their own small share of the cost.
GROUP = 8
# Output shapes that depend on values: torch compiles these through Dynamo, and so would a
# group holding one, which compile_together then refuses (each op of it compiles alone).
# Left out of groups up front, they cost no failed group; a stale entry only costs time.
ALONE = {"nonzero", "unique_all", "unique_counts", "unique_inverse", "unique_values"}
_compiled: dict[str, Callable[..., Any]] = {}  # op -> its part of its group's compile
_grouped: set[str] = set()  # the ops whose group is made (whether it compiled or not)


def _groups(key: str) -> bool:
    checks = CASES[key].checks
    return key not in ALONE and (checks is None or "compile" in checks)


def _compiled_with_others(request, key: str, names: list[str]) -> dict[str, Callable[..., Any]]:
    """``compiled=`` for ``check_function`` of op ``key``: torch's compile of it with the
    next ops (see GROUP); none when torch does not check it, it compiles alone, or its group
    did not compile."""
    if "torch" not in names or not _groups(key):
        return {}
    if key not in _grouped:
        keys = [
            item.callspec.params["key"]
            for item in request.session.items
            if getattr(item, "function", None) is test_an_op_passes_every_check
        ]
        upcoming = [k for k in keys[keys.index(key) :] if k not in _grouped and _groups(k)]
        group = upcoming[:GROUP]
        _grouped.update(group)
        calls = [(CASES[k].function(k), CASES[k].args) for k in group]
        for k, compiled in zip(group, compile_together(calls, "torch")):
            if compiled is not None:
                _compiled[k] = compiled
    compiled = _compiled.pop(key, None)
    return {} if compiled is None else {"torch": compiled}


@pytest.mark.parametrize("key", sorted(OPS))
def test_an_op_passes_every_check(request, key):
    names = selected_backends(request.config)
    c = CASES[key]
    compiled = _compiled_with_others(request, key, names)
    report = check_function(
        c.function(key), *c.args, backends=names, checks=c.checks, compiled=compiled
    )
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

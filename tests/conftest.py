"""Test configuration. The ``backend`` fixture comes from ivy_like's own pytest plugin."""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

from hypothesis import HealthCheck, settings  # noqa: E402

# The backend fixture only selects the active backend, so reusing it across examples is
# safe.
_SUPPRESS = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
# CI keeps example counts small (2 cores, every backend in one run) and draws the same examples
# on every run (derandomize), so a red CI means a change broke something, never a new draw;
# `nox -s deep` explores with random seeds and raises the counts. (Random draws found two
# backend bugs on 2026-11-23: jax from_dlpack(copy=True) sharing memory, MXNet's 4-D tile.)
settings.register_profile(
    "ci", max_examples=15, deadline=None, derandomize=True, suppress_health_check=_SUPPRESS
)
settings.register_profile("deep", max_examples=300, deadline=None, suppress_health_check=_SUPPRESS)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# An op a backend declares unsupported (its UNSUPPORTED_* dicts, with a reason) raises
# NotImplementedError naming the backend and the reason; a test failing only because of that is
# reported as an expected failure carrying the backend's reason, never as a pass or a skip.
# Ops without a declared reason ("missing") still fail: test_support_table pins that none exist.
import re  # noqa: E402

import pytest  # noqa: E402

_UNSUPPORTED = re.compile(r"is not supported on the (\w+) backend: .+")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if call.when != "call" or call.excinfo is None or not report.failed:
        return
    err = call.excinfo.value
    while type(err).__name__.endswith("ExceptionGroup") and len(err.exceptions) == 1:
        err = err.exceptions[0]
    if isinstance(err, NotImplementedError):
        match = _UNSUPPORTED.search(str(err))
        if match and f"[{match.group(1)}" in item.nodeid:
            report.outcome = "skipped"
            report.wasxfail = f"unsupported on {match.group(1)}: {match.group(0)}"

"""Test configuration. The ``backend`` fixture comes from ivy_like's own pytest plugin; here
are the hypothesis profiles, the ``requires`` capability marker and the expected failures of
``tests/expected_failures.py``."""

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

import pytest  # noqa: E402
from expected_failures import expected_failure  # noqa: E402

import ivy_like  # noqa: E402

# A test that needs a capability some backends lack is marked with it instead of skipping
# itself: ``@pytest.mark.requires("autodiff")`` runs only where ``Backend.has_autodiff`` is
# true, ``"mutable_arrays"`` only where ``Backend.mutable_arrays`` is.
CAPABILITIES = {"autodiff": "has_autodiff", "mutable_arrays": "mutable_arrays"}


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "requires(capability): run only on the backends that have it ("
        + ", ".join(CAPABILITIES)
        + "); skipped on the others",
    )


def _backend_of(item):
    """The backend name a test runs on (the ``backend`` fixture's parameter), or None."""
    callspec = getattr(item, "callspec", None)
    name = callspec.params.get("backend_name") if callspec is not None else None
    return name if isinstance(name, str) else None


def pytest_collection_modifyitems(config, items):
    # Where a backend is chosen for a test: the capability marks, and the expected failures
    # (strict: a listed test that passes fails the run) with the backend's stated reason.
    for item in items:
        name = _backend_of(item)
        if name is None:
            continue
        backend = ivy_like.get_backend(name)
        for mark in item.iter_markers("requires"):
            (capability,) = mark.args
            if not getattr(backend, CAPABILITIES[capability]):
                item.add_marker(pytest.mark.skip(reason=f"{name} has no {capability}"))
        reason = expected_failure(item.nodeid, name, backend.unsupported)
        if reason is not None:
            item.add_marker(
                pytest.mark.xfail(raises=NotImplementedError, strict=True, reason=reason)
            )

"""pytest plugin: run each test that takes ``backend`` once per installed backend.

Registered through the ``pytest11`` entry point, so installing ivy_like is the whole setup:

.. code-block:: python

    def test_mine(backend):          # backend is the active ivy_like Backend for the test
        x = ivy_like.array([1., 2.])
        assert x.backend == backend

Options: ``--ivy-like-backends=numpy,torch`` picks the backends (default: every installed one;
a named backend that cannot be imported is an error, never a silent skip). Known gaps are
marked with ``@pytest.mark.ivy_like_xfail("tensorflow", reason="...")`` (strict: an unexpected
pass fails, so fixed gaps are noticed). Nothing here imports a framework until tests are
collected.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from ..core import backend as _backend


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("ivy_like")
    group.addoption(
        "--ivy-like-backends",
        action="store",
        default=None,
        help="comma-separated ivy_like backends to run `backend` tests on "
        "(default: $IVY_LIKE_TEST_BACKENDS, else every installed backend)",
    )


def pytest_configure(config: Any) -> None:
    config.addinivalue_line(
        "markers",
        "ivy_like_xfail(*backends, reason): expected failure on these backends (strict)",
    )


def selected_backends(config: Any) -> list[str]:
    raw = config.getoption("--ivy-like-backends") or os.environ.get("IVY_LIKE_TEST_BACKENDS")
    if not raw:
        return _backend.available_backends()
    names = [n.strip() for n in raw.split(",") if n.strip()]
    for name in names:
        _backend.get_backend(name)  # raises BackendError with an install hint
    return names


_cache: dict[int, list[str]] = {}


def pytest_generate_tests(metafunc: Any) -> None:
    if "backend" not in metafunc.fixturenames:
        return
    key = id(metafunc.config)
    if key not in _cache:
        _cache[key] = selected_backends(metafunc.config)
    names = _cache[key]
    params = []
    for name in names:
        marks = []
        for mark in metafunc.definition.iter_markers("ivy_like_xfail"):
            if name in mark.args:
                marks.append(pytest.mark.xfail(reason=mark.kwargs["reason"], strict=True))
        params.append(pytest.param(name, marks=marks, id=name))
    metafunc.parametrize("backend_name", params, indirect=False)


@pytest.fixture
def backend(backend_name: str) -> Any:
    """The ivy_like Backend under test, active for the duration of the test."""
    with _backend.use_backend(backend_name) as b:
        yield b

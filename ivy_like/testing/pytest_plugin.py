"""pytest plugin: run each test that takes ``backend`` once per installed backend, and each
test that takes ``ivy_like_check`` once per backend and check of ``check_function``.

Registered through the ``pytest11`` entry point, so installing ivy_like is the whole setup:

.. code-block:: python

    def test_mine(backend):          # backend is the active ivy_like Backend for the test
        x = ivy_like.array([1., 2.])
        assert x.backend == backend

    def test_softmax(ivy_like_check):  # test_softmax[torch-vmap], test_softmax[numpy-agree]...
        ivy_like_check(softmax, x)

Options: ``--ivy-like-backends=numpy,torch`` picks the backends (default: every installed one;
a named backend that cannot be imported is an error, never a silent skip);
``--ivy-like-checks=vmap,vjp`` picks the checks of ``ivy_like_check`` (default: all), and
``@pytest.mark.ivy_like_checks("agree", "vmap")`` narrows them for one test. Known gaps are
marked with ``@pytest.mark.ivy_like_xfail("tensorflow", reason="...")`` (strict: an
unexpected pass fails, so fixed gaps are noticed). Nothing here imports a framework until
tests are collected.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from ..core import backend as _backend
from ._check import check_function
from ._engine import CHECKS, ExampleRun
from ._inputs import Example
from ._report import FAIL, NA, CheckFailed, CheckReport, Outcome
from ._search import is_strategy


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("ivy_like")
    group.addoption(
        "--ivy-like-backends",
        action="store",
        default=None,
        help="comma-separated ivy_like backends to run `backend` tests on "
        "(default: $IVY_LIKE_TEST_BACKENDS, else every installed backend)",
    )
    group.addoption(
        "--ivy-like-checks",
        action="store",
        default=None,
        help="comma-separated checks of `ivy_like_check` tests "
        f"(default: $IVY_LIKE_TEST_CHECKS, else all: {','.join(CHECKS)})",
    )


def pytest_configure(config: Any) -> None:
    config.addinivalue_line(
        "markers",
        "ivy_like_xfail(*backends, reason): expected failure on these backends (strict)",
    )
    config.addinivalue_line(
        "markers",
        "ivy_like_checks(*checks): the checks of this test's ivy_like_check (default: all)",
    )


def selected_backends(config: Any) -> list[str]:
    raw = config.getoption("--ivy-like-backends") or os.environ.get("IVY_LIKE_TEST_BACKENDS")
    if not raw:
        return _backend.available_backends()
    names = [n.strip() for n in raw.split(",") if n.strip()]
    for name in names:
        _backend.get_backend(name)  # raises BackendError with an install hint
    return names


def selected_checks(config: Any) -> list[str]:
    raw = config.getoption("--ivy-like-checks") or os.environ.get("IVY_LIKE_TEST_CHECKS")
    if not raw:
        return list(CHECKS)
    names = [n.strip() for n in raw.split(",") if n.strip()]
    unknown = [n for n in names if n not in CHECKS]
    if unknown:
        raise pytest.UsageError(
            f"--ivy-like-checks: unknown check(s) {', '.join(unknown)}; "
            f"the checks are {', '.join(CHECKS)}"
        )
    return [c for c in CHECKS if c in names]


_cache: dict[int, list[str]] = {}


def _backends(config: Any) -> list[str]:
    key = id(config)
    if key not in _cache:
        _cache[key] = selected_backends(config)
    return _cache[key]


def _checks_of(config: Any, node: Any) -> list[str]:
    """The checks of a test: the option's, narrowed by the test's ``ivy_like_checks`` marks."""
    checks = selected_checks(config)
    for mark in node.iter_markers("ivy_like_checks"):
        checks = [c for c in checks if c in mark.args]
    return checks


def pytest_generate_tests(metafunc: Any) -> None:
    if "ivy_like_check" in metafunc.fixturenames:
        checks = _checks_of(metafunc.config, metafunc.definition)
        cells = [
            pytest.param((b, c), id=f"{b}-{c}") for b in _backends(metafunc.config) for c in checks
        ]
        metafunc.parametrize("ivy_like_cell", cells)
    if "backend" not in metafunc.fixturenames:
        return
    names = _backends(metafunc.config)
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


# (config, test, its other parameters, call number) -> the run of check_function that every
# cell of the test reads: computed by the first cell that needs a result, once.
_runs: dict[tuple[Any, ...], ExampleRun | CheckReport] = {}


class CheckCell:
    """What ``ivy_like_check`` gives a test: ``ivy_like_check(f, *example_args)`` runs
    ``check_function``'s check of this test's id on its backend (arguments as for
    ``check_function``, strategies and ``strategy=``/``settings=`` included), fails the test
    with the cell's report when the check fails, skips it when the check does not apply, and
    returns the :class:`~ivy_like.testing.Outcome`. The cells of one test share one run."""

    def __init__(self, request: Any, backend: str, check: str) -> None:
        self.request, self.backend, self.check = request, backend, check
        self.calls = 0

    def _key(self) -> tuple[Any, ...]:
        node = self.request.node
        callspec = getattr(node, "callspec", None)
        others = tuple(
            sorted((k, i) for k, i in callspec.indices.items() if k != "ivy_like_cell")
            if callspec is not None
            else ()
        )
        self.calls += 1
        return (id(node.config), node.nodeid.split("[")[0], others, self.calls)

    def __call__(
        self, f: Any, *example_args: Any, strategy: Any = None, settings: Any = None
    ) -> Outcome:
        __tracebackhide__ = True  # a failure shows the test's line and the report, not this
        key = self._key()
        names = _backends(self.request.config)
        checks = _checks_of(self.request.config, self.request.node)
        run = _runs.get(key)
        if run is None:
            if strategy is not None or any(is_strategy(a) for a in example_args):
                run = check_function(
                    f, *example_args, backends=names, checks=checks, strategy=strategy,
                    settings=settings,
                )  # fmt: skip
            else:
                run = ExampleRun(f, Example.of(example_args), names, checks)
                error = run.raises_everywhere()
                if error is not None:
                    raise error
            _runs[key] = run
        cell = (self.backend, self.check)
        if isinstance(run, CheckReport):
            outcome = run.outcomes[cell]
            report = run.only([self.backend], [self.check])
        else:
            outcome = run.cell(*cell)
            name = getattr(f, "__qualname__", None) or repr(f)
            report = CheckReport(name, [self.backend], [self.check], {cell: outcome})
        if outcome.status == NA:
            pytest.skip(f"not applicable: {outcome.detail}")
        if outcome.status == FAIL:
            raise CheckFailed(report)
        return outcome


@pytest.fixture
def ivy_like_check(request: Any, ivy_like_cell: tuple[str, str]) -> CheckCell:
    """``ivy_like_check(f, *example_args)``: one check of ``check_function`` on one backend,
    the test's id saying which (``test_softmax[torch-vmap]``)."""
    return CheckCell(request, *ivy_like_cell)

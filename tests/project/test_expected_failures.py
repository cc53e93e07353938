"""The list of expected failures (``tests/expected_failures.py``): which node ids it matches,
the backend's own reason it gives, and entries that name tests which exist."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from expected_failures import EXPECTED_FAILURES, expected_failure

ROOT = Path(__file__).resolve().parents[2]


def test_a_listed_test_gets_the_backends_reason(monkeypatch):
    monkeypatch.setitem(EXPECTED_FAILURES, "fake", {"tests/a.py::test_x[fft]": "fft_fft"})
    unsupported = {"fft_fft": "no FFT here"}
    reason = expected_failure("tests/a.py::test_x[fake-fft]", "fake", unsupported)
    assert reason == "fft_fft is not supported on the fake backend: no FFT here"
    assert expected_failure("tests/a.py::test_x[fft-fake]", "fake", unsupported) == reason


def test_other_tests_params_and_backends_are_not_listed(monkeypatch):
    monkeypatch.setitem(EXPECTED_FAILURES, "fake", {"tests/a.py::test_x[fft]": "fft_fft"})
    unsupported = {"fft_fft": "no FFT here"}
    assert expected_failure("tests/a.py::test_x[fake-ifft]", "fake", unsupported) is None
    assert expected_failure("tests/a.py::test_xy[fake-fft]", "fake", unsupported) is None
    assert expected_failure("tests/a.py::test_x[numpy-fft]", "numpy", unsupported) is None


def test_a_star_stands_for_the_other_parameters(monkeypatch):
    monkeypatch.setitem(EXPECTED_FAILURES, "fake", {"tests/a.py::test_x[*]": "fft_fft"})
    unsupported = {"fft_fft": "no FFT here"}
    assert expected_failure("tests/a.py::test_x[fake-1-2]", "fake", unsupported) is not None
    assert expected_failure("tests/a.py::test_y[fake-1-2]", "fake", unsupported) is None


def test_an_op_the_backend_supports_again_is_a_stale_entry(monkeypatch):
    monkeypatch.setitem(EXPECTED_FAILURES, "fake", {"tests/a.py::test_x": "fft_fft"})
    with pytest.raises(ValueError, match="does not declare unsupported: remove the entry"):
        expected_failure("tests/a.py::test_x[fake]", "fake", {})


def _test_functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


@pytest.mark.parametrize("name", sorted(EXPECTED_FAILURES))
def test_every_entry_names_a_test_that_exists(name):
    for pattern in EXPECTED_FAILURES[name]:
        path, test = pattern.split("::")
        assert (ROOT / path).is_file(), pattern
        name = test.split("[")[0]
        assert name in _test_functions(ROOT / path), pattern

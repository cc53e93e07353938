"""The conformance tool's records and table (running the suite needs its checkout: not here)."""

from __future__ import annotations

import pytest

from ivy_like.devtools import conformance


def _run(namespace, backend, version, failed):
    return {
        "namespace": namespace,
        "backend": backend,
        "version": version,
        "failed": failed,
        "passed": 100,
        "skipped": 1,
        "suite": "0123456789abcdef",
    }


@pytest.fixture
def results(tmp_path, monkeypatch):
    path = tmp_path / "conformance.json"
    monkeypatch.setattr(conformance, "RESULTS", path)
    return path


def test_a_new_run_replaces_the_same_namespace_backend_and_revision(results):
    conformance.record(_run("ivy_like", "numpy", "2025.12", 5))
    conformance.record(_run("array_api_strict", "numpy", "2025.12", 24))
    conformance.record(_run("ivy_like", "numpy", "2025.12", 1))
    runs = conformance.recorded()
    assert [(r["namespace"], r["failed"]) for r in runs] == [
        ("ivy_like", 1),
        ("array_api_strict", 24),
    ]


def test_the_table_puts_the_peers_beside_each_row(results):
    assert conformance.table() == ""  # nothing recorded: no section
    conformance.record(_run("ivy_like", "numpy", "2025.12", 1))
    conformance.record(_run("array_api_strict", "numpy", "2025.12", 24))
    conformance.record(_run("ivy_like", "numpy", "2024.12", 2))
    conformance.record(_run("ivy_like", "mlx", "2025.12", 200))
    rows = [line for line in conformance.table().splitlines() if line.startswith("| ")][1:]
    assert rows == [
        "| mlx | 2025.12 | 200 | 100 | 1 | none exists | `0123456789` |",
        "| numpy | 2025.12 | 1 | 100 | 1 | `array_api_strict` 24 | `0123456789` |",
        "| numpy | 2024.12 | 2 | 100 | 1 | not run at this revision | `0123456789` |",
    ]


def test_unknown_peers_are_refused():
    with pytest.raises(SystemExit):
        conformance.main(["/nowhere", "--peers", "numpy.array_api"])

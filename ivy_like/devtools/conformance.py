"""The public array API test suite (data-apis/array-api-tests) run against ``ivy_like`` on
each backend; its failure counts go into ``docs/support.md``.

The suite is not on the package index: ``nox -s conformance -- PATH`` (or
``python -m ivy_like.devtools.conformance PATH``) takes a checkout of it with its ``array-api``
submodule. Every run uses the same settings (20 examples per test, derandomized), each backend
selected through ``IVY_LIKE_BACKEND``; the counts are kept in ``conformance.json`` beside this
module, with the suite's commit, and ``python -m ivy_like support-table`` writes them out.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).with_name("conformance.json")
SETTINGS = ("--max-examples=20", "--derandomize")


def run(suite: Path, backend: str, version: str) -> dict[str, Any]:
    """One run of the suite at ``suite`` on ``backend`` at the standard's ``version``: the
    counts of its pytest JSON report (the ``pytest-json-report`` plugin)."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        env = {
            **os.environ,
            "IVY_LIKE_BACKEND": backend,
            "ARRAY_API_TESTS_MODULE": "ivy_like",
            "ARRAY_API_TESTS_VERSION": version,
            "TF_CPP_MIN_LOG_LEVEL": "2",
            "TF_ENABLE_ONEDNN_OPTS": "0",
        }
        command = [
            sys.executable,
            "-m",
            "pytest",
            "array_api_tests",
            "-q",
            "-p",
            "no:cacheprovider",
        ]
        command += [*SETTINGS, "--json-report", f"--json-report-file={report}"]
        done = subprocess.run(command, cwd=suite, env=env, capture_output=True, text=True)
        if not report.exists():  # pytest stopped before writing its report
            raise RuntimeError(
                f"the suite on {backend} wrote no report (exit status {done.returncode}):\n"
                f"{(done.stdout + done.stderr)[-3000:]}"
            )
        summary = json.loads(report.read_text())["summary"]
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=suite, capture_output=True, text=True, check=False
    ).stdout.strip()
    return {
        "backend": backend,
        "version": version,
        "failed": summary.get("failed", 0),
        "passed": summary.get("passed", 0),
        "skipped": summary.get("skipped", 0),
        "suite": commit,
    }


def recorded() -> list[dict[str, Any]]:
    """The runs kept in ``conformance.json`` (none when it is absent)."""
    return json.loads(RESULTS.read_text()) if RESULTS.exists() else []


def record(result: dict[str, Any]) -> None:
    """Keep ``result``, in place of an earlier run of the same backend and version."""
    runs = [
        r
        for r in recorded()
        if (r["backend"], r["version"]) != (result["backend"], result["version"])
    ]
    runs.append(result)
    runs.sort(key=lambda r: (r["version"], r["backend"]))
    RESULTS.write_text(json.dumps(runs, indent=1) + "\n")


def table() -> str:
    """The Markdown section of ``docs/support.md`` (empty without recorded runs)."""
    runs = recorded()
    if not runs:
        return ""
    lines = [
        "",
        "## The array API test suite",
        "",
        "[data-apis/array-api-tests](https://github.com/data-apis/array-api-tests) run against "
        "`ivy_like` with each backend selected, 20 examples per test, derandomized "
        "(`nox -s conformance -- PATH`). MLX and MXNet have no other array API namespace: "
        "ivy_like is the only one.",
        "",
        "| backend | standard | failed | passed | skipped | suite commit |",
        "|---|---|---:|---:|---:|---|",
    ]
    for r in runs:
        lines.append(
            f"| {r['backend']} | {r['version']} | {r['failed']} | {r['passed']} | "
            f"{r['skipped']} | `{r['suite'][:10]}` |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ivy_like.devtools.conformance")
    parser.add_argument("suite", type=Path, help="a checkout of data-apis/array-api-tests")
    parser.add_argument("--backends", default="numpy,jax,torch,tensorflow,mlx")
    parser.add_argument("--versions", default="2025.12")
    args = parser.parse_args(argv)
    for version in args.versions.split(","):
        for backend in args.backends.split(","):
            result = run(args.suite, backend, version)
            record(result)
            print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())

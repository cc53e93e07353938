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
# No Hypothesis deadline: the counts measure answers, not how busy the machine was (JAX's
# compilations ran past the suite's 800 ms on a loaded 2-core machine).
SETTINGS = ("--max-examples=20", "--derandomize", "--disable-deadline")
VERSIONS = ("2025.12", "2024.12", "2023.12")

# What each backend's runs share, ivy_like's and its peers' alike: JAX with 64-bit types (as
# jax.numpy's own array API runs use), torch without uint16/32/64 (torch has them only as
# storage types without arithmetic; array-api-compat's CI skips them the same way).
BACKEND_ENV = {
    "jax": {"JAX_ENABLE_X64": "1"},
    "torch": {"ARRAY_API_TESTS_SKIP_DTYPES": "uint16,uint32,uint64"},
}
# The other namespaces the standard's suite is run against, on the framework each wraps.
PEERS = {
    "array_api_strict": "numpy",
    "array_api_compat.numpy": "numpy",
    "array_api_compat.torch": "torch",
    "jax.numpy": "jax",
}


def run(suite: Path, backend: str, version: str, namespace: str = "ivy_like") -> dict[str, Any]:
    """One run of the suite at ``suite`` on ``backend`` at the standard's ``version``: the
    counts of its pytest JSON report (the ``pytest-json-report`` plugin). ``namespace`` is
    ``ivy_like`` (with ``backend`` selected) or one of the :data:`PEERS`."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        env = {
            **os.environ,
            **BACKEND_ENV.get(backend, {}),
            "IVY_LIKE_BACKEND": backend,
            "ARRAY_API_TESTS_MODULE": namespace,
            "ARRAY_API_TESTS_VERSION": version,
            # ivy_like and array-api-strict follow the revision under test (earlier ones return
            # lists where 2025.12 returns tuples), each chosen by its own variable
            "IVY_LIKE_ARRAY_API_VERSION": version,
            "ARRAY_API_STRICT_API_VERSION": version,
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
        "namespace": namespace,
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
    runs = [r for r in recorded() if _key(r) != _key(result)]
    runs.append(result)
    runs.sort(key=lambda r: (r["version"], r["backend"], r.get("namespace") != "ivy_like", _key(r)))
    RESULTS.write_text(json.dumps(runs, indent=1) + "\n")


def _key(run: dict[str, Any]) -> tuple[str, str, str]:
    return run.get("namespace", "ivy_like"), run["backend"], run["version"]


def table() -> str:
    """The Markdown section of ``docs/support.md`` (empty without recorded runs): ivy_like's
    counts per backend and revision, the peers' failures measured the same way beside them."""
    runs = recorded()
    ours = [r for r in runs if r.get("namespace", "ivy_like") == "ivy_like"]
    if not ours:
        return ""
    lines = [
        "",
        "## The array API test suite",
        "",
        "[data-apis/array-api-tests](https://github.com/data-apis/array-api-tests) run against "
        "`ivy_like` with each backend selected, 20 examples per test, derandomized, no deadline "
        "(`nox -s conformance -- PATH`); the other namespaces of the same framework run the "
        "same way at the same suite commit. JAX runs with 64-bit types; torch's runs skip "
        "uint16/32/64, as array-api-compat's CI does. MLX and MXNet have no other array API "
        "namespace: ivy_like is the only one. MXNet has no figure: the suite cannot start on "
        "a namespace without a complex dtype (its `dtype_helpers` takes the widest complex "
        "dtype when imported), and MXNet has none.",
        "",
        "| backend | standard | failed | passed | skipped | other namespaces: failed | suite commit |",
        "|---|---|---:|---:|---:|---|---|",
    ]
    for r in sorted(ours, key=lambda r: (-float(r["version"]), r["backend"])):
        peers = [
            p
            for p in runs
            if p.get("namespace", "ivy_like") != "ivy_like"
            and (p["backend"], p["version"]) == (r["backend"], r["version"])
        ]
        others = ", ".join(f"`{p['namespace']}` {p['failed']}" for p in peers)
        if not others:
            covered = r["backend"] in set(PEERS.values())
            others = "not run at this revision" if covered else "none exists"
        lines.append(
            f"| {r['backend']} | {r['version']} | {r['failed']} | {r['passed']} | "
            f"{r['skipped']} | {others} | `{r['suite'][:10]}` |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ivy_like.devtools.conformance")
    parser.add_argument("suite", type=Path, help="a checkout of data-apis/array-api-tests")
    parser.add_argument("--backends", default="numpy,jax,torch,tensorflow,mlx")
    parser.add_argument("--versions", default=",".join(VERSIONS))
    parser.add_argument(
        "--peers",
        default="",
        help="comma-separated peer namespaces to run as well on their framework's backend "
        f"('all': {', '.join(PEERS)}); they must be installed",
    )
    args = parser.parse_args(argv)
    peers = list(PEERS) if args.peers == "all" else [p for p in args.peers.split(",") if p]
    unknown = sorted(set(peers) - set(PEERS))
    if unknown:
        parser.error(f"--peers: unknown namespaces {unknown}; known: {sorted(PEERS)}")
    for version in args.versions.split(","):
        for backend in args.backends.split(","):
            for namespace in ["ivy_like", *(p for p in peers if PEERS[p] == backend)]:
                result = run(args.suite, backend, version, namespace)
                record(result)
                print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

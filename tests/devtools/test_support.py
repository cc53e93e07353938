"""docs/support.md is generated from the code and must not go stale."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import ivy_like
from ivy_like.core.registry import OPS
from ivy_like.devtools.support import status


def test_no_op_is_missing_on_any_backend():
    missing = [
        (spec.name, name)
        for spec in OPS.values()
        for name in ivy_like.available_backends()
        if status(spec, ivy_like.get_backend(name)) == "missing"
    ]
    assert not missing, f"ops with neither a backend function, a composite nor a reason: {missing}"


def test_docs_support_table_is_current():
    docs = Path(__file__).parents[2] / "docs"
    # The main environment's five backends, and the MXNet environment (numpy + mxnet).
    pages = {
        frozenset({"numpy", "jax", "torch", "tensorflow", "mlx"}): docs / "support.md",
        frozenset({"numpy", "mxnet"}): docs / "support-mxnet.md",
    }
    out = subprocess.run(
        [sys.executable, "-m", "ivy_like", "support-table"], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    doc = pages.get(frozenset(ivy_like.available_backends()))
    if doc is None:
        pytest.skip("the docs' support tables describe the main and the MXNet environments")
    # The header names the versions the table was made with: a newer release installed on a
    # fresh machine makes the table no less current, so versions are left out of the match.
    assert _without_versions(doc.read_text()) == _without_versions(out.stdout), (
        f"docs/{doc.name} is stale: regenerate it with "
        f"`python -m ivy_like support-table > docs/{doc.name}` in that environment"
    )


def _without_versions(table: str) -> str:
    lines = table.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("| op | family |"))
    lines[header] = re.sub(r"\| (\w+) [^|]+", r"| \1 ", lines[header])
    return "\n".join(lines)


def test_status_reads_what_the_backend_provides():
    """Composite ops show as composite where the backend has no kernel (the attribute the
    loader fills in for them is not a kernel), and an op declared with no implementation at
    all shows as missing, not native."""
    from ivy_like.core.registry import OpSpec

    numpy = ivy_like.get_backend("numpy")

    def nowhere(x, /):
        """Declared, implemented by no backend."""

    spec = OpSpec(name="nowhere", declaration=nowhere, arrays=("x",))
    numpy.complete([spec])  # what the loader does for every op: a stub raising
    try:
        assert status(spec, numpy) == "missing"
    finally:
        numpy.__dict__.pop("nowhere", None)
    composite = [s for s in OPS.values() if s.composite and s.backend_name not in numpy.kernels]
    assert composite, "numpy runs some ops from their declarations"
    for spec in composite:
        assert status(spec, numpy) == "composite"
        assert spec.backend_name in numpy.__dict__  # filled in, yet not reported as native

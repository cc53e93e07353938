"""``python -m ivy_like demo convert``: a transformers ResNet converted from PyTorch,
run on every installed backend, fine-tuned one step on JAX and sent back to PyTorch; the table
of differences has a row per backend and one for the round trip, each within 1e-4."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

import ivy_like
from ivy_like.demos.convert import INSTALL_HINT, TOLERANCE

ENV = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", "TF_ENABLE_ONEDNN_OPTS": "0"}
HAVE_DEPS = all(importlib.util.find_spec(m) is not None for m in ("torch", "transformers"))


def _run(*args: str, code: str | None = None) -> subprocess.CompletedProcess[str]:
    command = ["-c", code] if code else ["-m", "ivy_like", *args]
    return subprocess.run(
        [sys.executable, *command], capture_output=True, text=True, timeout=300, env=ENV
    )


def _rows(stdout: str) -> dict[str, list[str]]:
    """The table's rows, by comparison and backend, as their cells."""
    rows = {}
    for line in stdout.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and cells[0] != "comparison":
            rows[f"{cells[0]} / {cells[1].split()[0]}"] = cells
    return rows


@pytest.mark.skipif(not HAVE_DEPS, reason="needs torch and transformers")
def test_demo_convert_agrees_on_every_backend_and_back_in_torch():
    result = _run("demo", "convert", "--no-progress")
    assert result.returncode == 0, result.stdout + result.stderr
    rows = _rows(result.stdout)
    tune_on = "jax" if "jax" in ivy_like.available_backends() else None
    expected = {f"original torch vs converted / {n}" for n in ivy_like.available_backends()}
    if tune_on:
        expected.add(f"tuned on {tune_on} vs to_torch(model, tuned) / torch")
    assert set(rows) == expected, result.stdout
    for key, cells in rows.items():
        assert float(cells[2]) <= TOLERANCE and cells[3] == "yes", key
    # the step was taken: the loss moved and the logits with it
    assert "one Adam step" in result.stdout
    assert "every converted model agrees" in result.stdout
    assert "\r" not in result.stdout + result.stderr  # --no-progress: no bar


@pytest.mark.skipif(not HAVE_DEPS, reason="needs torch and transformers")
def test_demo_convert_refuses_the_mlp_demos_options():
    result = _run("demo", "convert", "--steps", "3")
    assert result.returncode == 2
    assert "argument --steps: not used by 'demo convert'" in result.stderr


def test_demo_convert_without_transformers_says_what_to_install():
    code = (
        "import sys\n"
        "sys.modules['transformers'] = None  # as if it were not installed\n"
        "from ivy_like.__main__ import main\n"
        "sys.exit(main(['demo', 'convert', '--no-progress']))\n"
    )
    result = _run(code=code)
    assert result.returncode == 1
    # The MXNet environment has no torch either: both are named there.
    torch = "PyTorch (torch) and " if importlib.util.find_spec("torch") is None else ""
    assert result.stderr.strip() == INSTALL_HINT.format(missing=f"{torch}transformers")
    assert "pip install 'ivy_like[torch,convert]'" in result.stderr
    assert result.stdout == ""


@pytest.mark.skipif(not HAVE_DEPS, reason="needs torch and transformers")
def test_a_difference_above_the_tolerance_fails_the_demo_and_the_bar_shows_stages(
    monkeypatch, capsys
):
    pytest.importorskip("jax")
    import ivy_like.demos.convert as demo

    monkeypatch.setattr(demo, "TOLERANCE", 0.0)  # float32 never matches exactly
    assert demo.run_convert_demo(["numpy", "jax"], progress=True) == 1
    out, err = capsys.readouterr()
    # the bar (on stderr only) names each stage as it starts (set_description redraws it;
    # the counts are throttled, so they are not checked)
    for stage in ("run on numpy", "fine-tune on jax", "back to PyTorch"):
        assert stage in err and stage not in out
    rows = _rows(out)
    assert set(rows) == {
        "original torch vs converted / numpy",
        "original torch vs converted / jax",
        "tuned on jax vs to_torch(model, tuned) / torch",
    }
    assert all(cells[3] == "NO" for cells in rows.values())
    assert "!! 3 comparison(s) above 0 or failed" in out

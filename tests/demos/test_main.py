"""The main demo (``python -m ivy_like demo``): a fast smoke run on two backends, its parts,
and the command line."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import ivy_like
from ivy_like.demos import main as demo

AUTODIFF = [n for n in ivy_like.available_backends() if ivy_like.get_backend(n).has_autodiff]
TWO = [n for n in ("jax", "torch") if n in AUTODIFF] or AUTODIFF[:2]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_run_main_demo_smoke(tmp_path, capsys):
    plot = tmp_path / "out" / "curves.png"
    code = demo.run_main_demo(TWO, steps=20, plot=str(plot), progress=False)
    out = capsys.readouterr().out
    assert code == 0, out
    assert plot.read_bytes()[:8] == PNG_MAGIC
    assert f"loss curves written to {plot}" in out
    # the table: a header and one row per backend, with the logits difference column
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("| backend"))
    assert "test acc" in header and "time (s)" in header and f"logits vs {TWO[0]}" in header
    rows = [line for line in lines if line.startswith("| ") and line != header]
    assert [r.split("|")[1].strip() for r in rows] == TWO
    assert "conversion of the trained model to native frameworks:" in out
    assert "!!" not in out


def test_the_same_training_on_two_backends():
    data = demo.load_digits_split()
    a, b = (demo.train_mlp(name, data, steps=15) for name in TWO)
    assert len(a.losses) == 15 and a.losses[-1] < a.losses[0]
    np.testing.assert_allclose(a.losses, b.losses, rtol=1e-4)
    np.testing.assert_allclose(a.test_logits, b.test_logits, rtol=1e-3, atol=1e-4)
    assert 0.0 <= a.accuracy <= 1.0 and a.test_logits.shape == (len(data.y_test), 10)


def test_torch_threads_are_restored():
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    demo.train_mlp("torch", demo.load_digits_split(), steps=2)
    assert torch.get_num_threads() == before


def test_digits_split_is_deterministic():
    a, b = demo.load_digits_split(seed=0), demo.load_digits_split(seed=0)
    np.testing.assert_array_equal(a.y_test, b.y_test)
    c = demo.load_digits_split(seed=1)
    assert not np.array_equal(a.y_test, c.y_test)
    assert a.x_train.dtype == np.float32 and 0.0 <= a.x_train.min() and a.x_train.max() <= 1.0
    assert len(a.y_train) + len(a.y_test) == 1797


@pytest.mark.parametrize(
    "args, message",
    [((4, 3, 5), r"batch_size must be in \[1, n=4\]"), ((4, -1, 2), r"steps must be")],
)
def test_batch_indices_errors(args, message):
    with pytest.raises(ValueError, match=message):
        demo.batch_indices(*args, seed=0)


def test_no_autodiff_backend_only(tmp_path, capsys):
    plot = tmp_path / "unused.png"
    code = demo.run_main_demo(["numpy"], steps=2, plot=str(plot), progress=False)
    assert code == 1
    assert "no backend with autodiff" in capsys.readouterr().out
    assert not plot.exists()


def test_command_line_rejects_bad_steps():
    result = subprocess.run(
        [sys.executable, "-m", "ivy_like", "demo", "--steps", "0"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert "--steps must be at least 1" in result.stderr

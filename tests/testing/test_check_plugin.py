"""The pytest plugin's ``ivy_like_check`` fixture: one test per backend and check
(``test_softmax[numpy-vmap]``), ``--ivy-like-checks`` and ``@pytest.mark.ivy_like_checks``
narrowing them, a failure showing its cell's report, a check that does not apply skipped
with the reason. Run in a child pytest on a user's test file."""

import os
import subprocess
import sys

import pytest

USER_TESTS = """
import numpy as np
import pytest
import ivy_like

X = np.array([[0.5, -1.0, 2.0], [0.1, 0.2, 0.3]], dtype=np.float32)


def softmax(x):
    e = ivy_like.exp(x - ivy_like.max(x, axis=-1, keepdims=True))
    return e / ivy_like.sum(e, axis=-1, keepdims=True)


def scale_in_place(x):
    ivy_like.multiply(x, 2.0, out=x)
    return x


def test_softmax(ivy_like_check):
    ivy_like_check(softmax, X)


def test_scale_in_place(ivy_like_check):
    ivy_like_check(scale_in_place, ivy_like.asarray(X))


@pytest.mark.ivy_like_checks("agree", "vmap")
def test_narrowed(ivy_like_check):
    ivy_like_check(softmax, X)


@pytest.mark.ivy_like_checks("vmap", "mutation")
def test_drawn(ivy_like_check):
    from ivy_like.testing import strategies

    ivy_like_check(softmax, strategies.arrays("float32", (2, 3), backend="numpy", wrap=False))
"""


def _pytest(tmp_path, *options):
    (tmp_path / "test_user.py").write_text(USER_TESTS)
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", "TF_ENABLE_ONEDNN_OPTS": "0"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", *options],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )


def test_one_test_per_backend_and_check(tmp_path):
    out = _pytest(tmp_path, "-v", "test_user.py", "--ivy-like-backends=numpy").stdout
    for check in ("vmap", "mutation"):
        assert f"test_user.py::test_softmax[numpy-{check}] PASSED" in out, out
    assert "test_user.py::test_softmax[numpy-agree] SKIPPED" in out  # one backend
    # NumPy has no autodiff: skipped, with the reason, never passed or failed
    assert "test_user.py::test_softmax[numpy-vjp] SKIPPED" in out, out
    assert "not applicable: numpy has no automatic differentiation" in out
    # only the check that exists for the bug fails, with its report
    assert "test_user.py::test_scale_in_place[numpy-mutation] FAILED" in out, out
    assert "test_user.py::test_scale_in_place[numpy-vmap] PASSED" in out, out
    assert "numpy mutation: f writes into an argument" in out, out
    assert "raise CheckFailed" not in out  # the plugin's own frames are hidden
    # the marker keeps two checks
    assert "test_narrowed[numpy-agree]" in out and "test_narrowed[numpy-vmap]" in out
    assert "test_narrowed[numpy-vjp]" not in out
    # drawn examples: one run of check_function, read by each cell
    assert "test_drawn[numpy-vmap] PASSED" in out and "test_drawn[numpy-mutation] PASSED" in out


def test_the_option_narrows_the_checks_and_names_the_backend_first(tmp_path):
    out = _pytest(
        tmp_path,
        "-v",
        "test_user.py",
        "--ivy-like-backends=numpy",
        "--ivy-like-checks=vmap,mutation",
    ).stdout
    assert "test_softmax[numpy-vmap] PASSED" in out, out
    assert "test_softmax[numpy-mutation] PASSED" in out
    assert "numpy-agree" not in out and "numpy-vjp" not in out
    assert "test_narrowed[numpy-vmap]" in out and "test_narrowed[numpy-agree]" not in out


def test_an_unknown_check_is_a_usage_error(tmp_path):
    result = _pytest(
        tmp_path, "test_user.py", "--ivy-like-backends=numpy", "--ivy-like-checks=grad"
    )
    assert result.returncode != 0
    assert "unknown check(s) grad" in result.stdout + result.stderr


def test_ids_name_each_backend(tmp_path, request):
    from ivy_like.testing.pytest_plugin import selected_backends

    if "torch" not in selected_backends(request.config):
        pytest.skip("needs torch")
    out = _pytest(
        tmp_path, "test_user.py", "--collect-only", "-q", "--ivy-like-backends=numpy,torch"
    ).stdout
    assert "test_user.py::test_softmax[torch-vmap]" in out, out
    assert "test_user.py::test_softmax[numpy-agree]" in out
    assert out.count("test_user.py::test_softmax[") == 20

"""``python -m ivy_like check module:function``: the function's ``example_args`` or a
strategy's examples, a progress bar on stderr, the table on stdout, exit status 1 when a
check fails and 2 for a usage error."""

import subprocess
import sys
import textwrap

import pytest

from ivy_like.__main__ import main

MODULE = textwrap.dedent(
    """
    import numpy as np
    import ivy_like
    from ivy_like.testing import strategies

    def double(x):
        return x * 2.0

    double.example_args = (np.array([0.5, -1.0, 2.0], dtype=np.float32),)

    def scale_in_place(x):
        ivy_like.multiply(x, 2.0, out=x)
        return x

    scale_in_place.example_args = double.example_args

    def no_examples(x):
        return x

    vectors = strategies.array_args(1, min_dims=1, max_dims=1, backends=["numpy"])
    """
)


@pytest.fixture
def module(tmp_path, monkeypatch):
    (tmp_path / "user_functions.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    return "user_functions"


def test_a_passing_function_exits_0_with_the_table(module, capsys):
    assert main(["check", f"{module}:double", "--backends", "numpy"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("check_function(double) on 1 example: 2 passed, 0 failed")
    assert "numpy    n/a    n/a      pass  n/a" in out
    assert "10/10 numpy lazy" in err  # the progress bar, plain text without a terminal


def test_a_failing_function_exits_1(module, capsys):
    assert main(["check", f"{module}:scale_in_place", "--backends", "numpy"]) == 1
    assert "numpy mutation: f writes into an argument" in capsys.readouterr().out


def test_a_strategy_draws_the_examples(module, capsys):
    argv = ["check", f"{module}:double", "--strategy", f"{module}:vectors"]
    argv += ["--backends", "numpy", "--checks", "vmap,mutation", "--max-examples", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("check_function(double) on 3 examples: 2 passed")  # cells, merged


@pytest.mark.parametrize(
    "argv, message",
    [
        (["check", "user_functions:no_examples"], "has no example_args tuple"),
        (["check", "user_functions:missing"], "'user_functions' has no 'missing'"),
        (["check", "no_such_module:f"], "cannot import 'no_such_module'"),
        (["check", "user_functions"], "must be module:name"),
        (["check", "user_functions:double", "--checks", "grad"], "unknown grad"),
    ],
)
def test_usage_errors_exit_2(module, capsys, argv, message):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert message in capsys.readouterr().err


def test_the_command_runs_as_a_module(module, tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "ivy_like", "check", f"{module}:double", "--backends", "numpy"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "check_function(double)" in done.stdout

"""``CheckReport``: its table as text and as HTML, compared with stored expectations
(``expected/``; the rendering has no timings and rounds differences to three digits, so it
is stable), and ``CheckFailed`` carrying the whole report."""

import os
from pathlib import Path

import numpy as np
import pytest
from _broken import X, writes_into_its_input

import ivy_like
from ivy_like.testing import CheckFailed, CheckReport, Outcome, check_function

EXPECTED = Path(__file__).parent / "expected"
# IVY_LIKE_WRITE_EXPECTED=1 writes the expectations from the code (then read the diff).
WRITE = os.environ.get("IVY_LIKE_WRITE_EXPECTED") == "1"


def _compare(name: str, text: str) -> None:
    path = EXPECTED / name
    if WRITE:
        path.write_text(text + "\n")
    assert text + "\n" == path.read_text(), f"{name} differs from the stored expectation"


def _report() -> CheckReport:
    """One of each kind of cell: pass, a failure of values, one of an error, not applicable
    (two backends sharing a reason), and the code of a shrunk example."""
    ok = Outcome("pass")
    outcomes = {
        ("numpy", "agree"): ok,
        ("numpy", "vmap"): Outcome(
            "fail",
            "vmap(f) over a batch of 3 differs from f on each item (batch index first): output "
            "at (2, 0): -0.0185817 where 0.173768 was expected; 12 of 12 value(s) out of "
            "tolerance (rtol 1e-05, atol 1e-06), largest difference 0.192",
            0.19235,
            "(2, 0)",
        ),
        ("numpy", "vjp"): Outcome("n/a", "numpy has no automatic differentiation"),
        ("numpy", "lazy"): Outcome("n/a", "evaluates eagerly (only MLX evaluates lazily)"),
        ("torch", "agree"): Outcome(
            "fail",
            "differs from numpy: output [1]['p'] at (0,): 0 where 1 was expected",
            1.0,
            "[1]['p'] (0,)",
        ),
        ("torch", "vmap"): Outcome(
            "fail",
            "vmap(f) raised RuntimeError: data-dependent <control> flow",
            error="RuntimeError",
        ),
        ("torch", "vjp"): ok,
        ("torch", "lazy"): Outcome("n/a", "evaluates eagerly (only MLX evaluates lazily)"),
    }
    reproduce = (
        "import numpy as np\nfrom ivy_like.testing import check_function\n\n"
        "args = (\n    np.array(-0.0, dtype=np.float32),\n)\n"
    )
    return CheckReport(
        "softmax", ["numpy", "torch"], ["agree", "vmap", "vjp", "lazy"], outcomes, 7, reproduce
    )


def test_the_text_table():
    _compare("report.txt", str(_report()))


def test_the_html_table():
    html = _report()._repr_html_()
    assert "&lt;control&gt;" in html and "<control>" not in html  # details are escaped
    _compare("report.html", html)


def test_a_real_run_renders_the_same_way_every_time():
    counts = ivy_like.asarray(np.zeros(3, np.int32))
    report = check_function(writes_into_its_input, ivy_like.asarray(X), counts, backends=["numpy"])
    _compare("writer_numpy.txt", str(report))


def test_the_cells_say_what_failed_and_where():
    report = _report()
    cells = {key: o.cell for key, o in report.outcomes.items()}
    assert cells["numpy", "vmap"] == "FAIL 0.192 at (2, 0)"
    assert cells["torch", "vmap"] == "FAIL RuntimeError"
    assert cells["numpy", "vjp"] == "n/a" and cells["torch", "vjp"] == "pass"
    assert not report.ok and len(report.failures) == 3


def test_check_failed_carries_the_report_and_shows_every_failure():
    report = _report()
    with pytest.raises(CheckFailed) as info:
        report.raise_for_failures()
    assert info.value.report is report
    assert str(info.value) == str(report)
    assert str(info.value).count("\n  numpy vmap:") == 1 and "\n  torch agree:" in str(info.value)
    assert isinstance(info.value, AssertionError)  # pytest shows it as a failed assertion


def test_only_keeps_the_cells_asked_for():
    part = _report().only(["torch"], ["vmap"])
    assert part.backends == ["torch"] and part.checks == ["vmap"]
    assert list(part.outcomes) == [("torch", "vmap")]

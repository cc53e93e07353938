"""The crash sweep (ivy_like.testing.crash_sweep): it names each case that kills its child and
goes on after it; the quick subset of every op runs on every backend without a crash (the full
sweep is ``nox -s crash_sweep``)."""

import os
from pathlib import Path

from ivy_like.testing.crash_sweep import NOT_SWEPT, Crash, crash_sweep


def test_each_way_of_dying_is_named_and_the_sweep_goes_on(monkeypatch):
    here = str(Path(__file__).parent)
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))
    )
    report = crash_sweep(["numpy"], timeout=3.0, source="_crashing:cases")
    assert report.crashes == [
        Crash("numpy", "fpe", "a SIGFPE", "signal SIGFPE"),
        Crash("numpy", "abort", "an abort", "signal SIGABRT"),
        Crash("numpy", "exit", "a hard exit", "exit status 3"),
        Crash("numpy", "hang", "a hang", "no answer in 3 s"),
        Crash("numpy", "segv", "a SIGSEGV", "signal SIGSEGV"),
    ]
    # every case ran once: the two that answered, the one that raised, the five that died
    assert report.tried == {"numpy": 8}
    assert report.outcomes["numpy"] == {"ok": 2, "ValueError": 1}
    assert not report.ok
    text = str(report)
    assert "| numpy | 8 | 8 | 2 | 1 | 5 |" in text
    assert "crash: numpy: hang on a hang: no answer in 3 s" in text


def test_the_reasons_an_op_is_not_swept_are_in_the_report():
    report = crash_sweep(["numpy"], ops=["sum"], quick=True)
    assert report.not_swept == NOT_SWEPT and "einsum" in str(report)
    assert report.tried == {"numpy": 10} and report.ok  # int32 and float32, five shapes


def test_the_quick_subset_crashes_nothing(backend):
    report = crash_sweep([backend.name], quick=True)
    assert report.ok, str(report)
    assert report.ops[backend.name] >= 190

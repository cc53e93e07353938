"""Cases for tests/testing/test_crash_sweep.py: one of each way a child can end (imported
in the sweep's child process through ``source="_crashing:cases"``)."""

import os
import signal
import time

import ivy_like


def _signal(number):
    def call():
        os.kill(os.getpid(), number)

    return call


def cases(backend_name, ops, quick):
    yield "add", "ones", lambda: ivy_like.add(ivy_like.ones(3), 1.0)
    yield "fpe", "a SIGFPE", _signal(signal.SIGFPE)
    yield "raise", "a ValueError", lambda: ivy_like.reshape(ivy_like.ones(3), (2,))
    yield "abort", "an abort", os.abort
    yield "exit", "a hard exit", lambda: os._exit(3)
    yield "hang", "a hang", lambda: time.sleep(60)
    yield "segv", "a SIGSEGV", _signal(signal.SIGSEGV)
    yield "sum", "zeros", lambda: ivy_like.sum(ivy_like.zeros((0, 2)))

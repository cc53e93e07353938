"""Tools for checking that code agrees across backends (public: users get what we use).

* :func:`check_function`: run a function on every installed backend and check, each on its
  own, that the backends agree, that ``compile`` and ``vmap`` keep its meaning, that its
  derivatives match finite differences, that it leaves its inputs alone; the outcome is a
  :class:`CheckReport` (a table), :class:`CheckFailed` when raised; :func:`compile_together`
  compiles many functions as one for their ``compile`` checks.
* :func:`assert_backends_agree`: run a function on every installed backend and compare.
* :func:`assert_close`: compare two results leaf by leaf with dtype-aware tolerances.
* ``ivy_like.testing.strategies``: hypothesis strategies (import it explicitly).
* ``ivy_like.testing.crash_sweep``: every op over the edge inputs, each backend in a child
  process, naming any input that kills the process (import it explicitly).
* ``ivy_like.testing.pytest_plugin``: the ``backend`` fixture, ``--ivy-like-backends``, the
  ``ivy_like_check`` fixture and ``--ivy-like-checks`` (registered through the ``pytest11``
  entry point; active as soon as ivy_like is installed).
"""

from __future__ import annotations

from ._check import check_function
from ._compare import BackendMismatch, assert_backends_agree, assert_close, default_tolerance
from ._engine import CHECKS
from ._report import CheckFailed, CheckReport, Outcome
from ._together import compile_together

__all__ = [
    "CHECKS",
    "BackendMismatch",
    "CheckFailed",
    "CheckReport",
    "Outcome",
    "assert_backends_agree",
    "assert_close",
    "check_function",
    "compile_together",
    "default_tolerance",
]

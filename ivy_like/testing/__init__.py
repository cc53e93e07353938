"""Tools for checking that code agrees across backends (public: users get what we use).

* :func:`assert_backends_agree`: run a function on every installed backend and compare.
* :func:`assert_close`: compare two results leaf by leaf with dtype-aware tolerances.
* ``ivy_like.testing.strategies``: hypothesis strategies (import it explicitly).
* ``ivy_like.testing.crash_sweep``: every op over the edge inputs, each backend in a child
  process, naming any input that kills the process (import it explicitly).
* ``ivy_like.testing.pytest_plugin``: the ``backend`` fixture and ``--ivy-like-backends``
  (registered through the ``pytest11`` entry point; active as soon as ivy_like is installed).
"""

from __future__ import annotations

from ._compare import BackendMismatch, assert_backends_agree, assert_close, default_tolerance

__all__ = ["BackendMismatch", "assert_backends_agree", "assert_close", "default_tolerance"]

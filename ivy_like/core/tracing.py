"""Is a compiler tracing Python right now? (torch.compile's Dynamo, once torch is loaded.)

Dynamo follows plain Python, but it guards every module-level cache that traced code reads,
and it cannot trace ``ContextVar.get``/``set``. So while it traces, the core neither fills its
lazy caches (a cache written in a trace fails its guard at the next call: one recompile per
cache) nor keeps the active backend in its ``ContextVar`` (see ``core/backend.py``).

A backend declares its compiler's test as ``IS_TRACING`` (torch: ``torch.compiler.is_compiling``);
until one does, :func:`is_tracing` is a constant ``False`` and costs one call on cache misses.
"""

from __future__ import annotations

from collections.abc import Callable


def _never() -> bool:
    return False


is_tracing: Callable[[], bool] = _never


def learn(test: Callable[[], bool]) -> None:
    """Add a backend's ``IS_TRACING`` test."""
    global is_tracing
    previous = is_tracing
    if previous is _never:
        is_tracing = test
    elif previous is not test:

        def either() -> bool:  # two such compilers loaded: rare, and only on cache misses
            return previous() or test()

        is_tracing = either

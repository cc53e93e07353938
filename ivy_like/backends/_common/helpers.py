"""Private helpers of several backends' family files, written once.

``named`` gives a kernel built by a factory (a closure) the op's name, and a docstring, so that
tracebacks, ``repr`` and ``help`` show ``add`` rather than ``op``.
"""

from __future__ import annotations

from typing import Callable, TypeVar

F = TypeVar("F", bound=Callable[..., object])


def named(fn: F, name: str, doc: str | None = None) -> F:
    """``fn`` named ``name`` (``__name__`` and ``__qualname__``), with ``doc`` when given."""
    fn.__name__ = fn.__qualname__ = name
    if doc is not None:
        fn.__doc__ = doc
    return fn

"""One registered op's example for ``check_function`` over the whole registry
(``test_check_ops.py``): the arguments, and where the op alone is not the function to check,
the function that calls it and why.

Each ``_op_cases_<family>.py`` module holds ``CASES`` (op key -> :class:`Case`) and ``KNOWN``
((backend, op key, check) -> why that cell fails: a real gap of the backend, found by these
checks and kept visible; a known cell that passes fails the test, so the list stays true).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import ivy_like


def op_function(key: str) -> Callable[..., Any]:
    """The public function of op ``key`` (``"linalg.det"`` is ``ivy_like.linalg.det``)."""
    target: Any = ivy_like
    for part in key.split("."):
        target = getattr(target, part)
    return target


@dataclass(frozen=True)
class Case:
    """``f(*args, **kwargs)`` checked on every backend; ``f`` is the op unless given."""

    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)
    f: Callable[..., Any] | None = None
    checks: tuple[str, ...] | None = None  # None: every check
    why: str = ""  # why f wraps the op, or why checks leaves some out

    def function(self, key: str) -> Callable[..., Any]:
        f = self.f if self.f is not None else op_function(key)
        if self.kwargs:
            f = functools.partial(f, **self.kwargs)
        return f


def case(
    *args: Any,
    f: Callable[..., Any] | None = None,
    checks: tuple[str, ...] | None = None,
    why: str = "",
    **kwargs: Any,
) -> Case:
    return Case(args, kwargs, f, checks, why)

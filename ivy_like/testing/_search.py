"""``check_function`` on Hypothesis strategies: draw examples, run every check on each, and
when one fails let Hypothesis shrink the example while that same check (on that backend)
keeps failing, then print the shrunk example as code that reproduces it.

Hypothesis is a test extra, not a dependency of ivy_like: it is read from ``sys.modules``,
where it is whenever a strategy was made (a strategy among the arguments is how this module
is reached).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

from ._engine import ExampleRun
from ._inputs import Example
from ._report import FAIL, Outcome


def hypothesis_module() -> Any:
    return sys.modules.get("hypothesis")


def is_strategy(value: Any) -> bool:
    hyp = hypothesis_module()
    return hyp is not None and isinstance(value, hyp.strategies.SearchStrategy)


def default_settings() -> Any:
    """The active profile's settings, with no deadline (a check compiles: a first call may
    take seconds), no example database (the shrunk example is printed as code instead), at
    most 10 examples (each runs every check on every backend)."""
    hyp = hypothesis_module()
    base = hyp.settings()
    return hyp.settings(
        base,
        max_examples=min(base.max_examples, 10),
        deadline=None,
        database=None,
        suppress_health_check=[*base.suppress_health_check, hyp.HealthCheck.too_slow],
    )


class _Failing(Exception):
    """Raised inside the Hypothesis test to mark an example as failing."""


def _merge(outcomes: list[tuple[int, Outcome]], several: bool) -> Outcome:
    """One cell over the examples: the first failure, else a pass, else the first reason."""
    for i, o in outcomes:
        if o.status == FAIL:
            prefix = f"example {i + 1}: " if several else ""
            return Outcome(o.status, prefix + o.detail, o.difference, o.where, o.error)
    for _, o in outcomes:
        if o.status == "pass":
            return o
    return outcomes[0][1]


def search(
    f: Callable[..., Any],
    strategy: Any,
    names: Sequence[str],
    checks: Sequence[str],
    settings: Any,
    progress: Callable[[int, int, str, str], None] | None,
) -> tuple[dict[tuple[str, str], Outcome], int, Example | None]:
    """Run the checks over examples drawn from ``strategy`` (a strategy of argument tuples).

    Returns the outcome of each cell (merged over the examples), how many examples were
    checked, and the shrunk failing example (None when nothing failed)."""
    hyp = hypothesis_module()
    cells = [(b, c) for b in names for c in checks]
    seen: dict[tuple[str, str], list[tuple[int, Outcome]]] = {cell: [] for cell in cells}
    state: dict[str, Any] = {"target": None, "failing": None, "examples": 0}
    limit = getattr(settings, "max_examples", 10)

    def body(args: Any) -> None:
        example = Example.of(args if isinstance(args, tuple) else (args,))
        run = ExampleRun(f, example, names, checks)
        if run.raises_everywhere() is not None:
            hyp.assume(False)  # f rejects these arguments on every backend: not an example
        target = state["target"]
        if target is None:
            n = state["examples"]
            for j, (b, c) in enumerate(cells):
                seen[b, c].append((n, run.cell(b, c)))
                if progress is not None:
                    progress(n * len(cells) + j + 1, limit * len(cells), b, c)
            state["examples"] = n + 1
            failing = [cell for cell in cells if seen[cell][-1][1].status == FAIL]
            if failing:
                state["target"] = target = failing[0]
        if target is not None and run.cell(*target).status == FAIL:
            # Hypothesis replays the shrunk example last: the last one kept is the minimal.
            # One place raises, so Hypothesis sees one failure, whichever example it is.
            state["failing"] = example
            raise _Failing

    test = settings(hyp.given(strategy)(body))
    try:
        with hyp.reporting.with_reporter(lambda _message: None):
            test()
    except _Failing:
        pass
    if state["failing"] is None:
        outcomes = {cell: _merge(seen[cell], state["examples"] > 1) for cell in cells}
        return outcomes, state["examples"], None
    # The shrunk example, every check on it: the table shows all it breaks.
    minimal: Example = state["failing"]
    run = ExampleRun(f, minimal, names, checks)
    outcomes = {}
    for cell in cells:
        o = run.cell(*cell)
        if o.status == FAIL:
            outcomes[cell] = Outcome(
                o.status, "shrunk example: " + o.detail, o.difference, o.where, o.error
            )
        else:
            outcomes[cell] = _merge(seen[cell] + [(state["examples"], o)], True)
    return outcomes, state["examples"] + 1, minimal

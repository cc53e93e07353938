"""What :func:`~ivy_like.testing.check_function` found: one :class:`Outcome` per backend and
check, gathered in a :class:`CheckReport` that prints as a table in a terminal, renders as
HTML in a notebook, and raises :class:`CheckFailed` with the whole table.

The rendering is stable (no timings, differences to three significant digits) so that a
report can be compared with a stored one.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field

PASS, FAIL, NA = "pass", "fail", "n/a"


@dataclass(frozen=True)
class Outcome:
    """One check on one backend.

    ``status`` is ``"pass"``, ``"fail"`` or ``"n/a"``; ``detail`` says why it is not
    applicable or what differs; ``difference`` and ``where`` are the largest difference and
    its place (``"(1, 2)"`` for the one output, ``"[0] (1, 2)"`` for a leaf of a tuple of
    outputs) when the failure is one of values; ``error`` the exception's type when the
    failure is one.

    Examples
    --------
    >>> from ivy_like.testing import Outcome
    >>> Outcome("fail", "vmap(f) differs from f ...", 0.5, "(1, 2)").cell
    'FAIL 0.5 at (1, 2)'
    >>> Outcome("n/a", "numpy has no automatic differentiation").cell
    'n/a'
    """

    __module__ = "ivy_like.testing"

    status: str
    detail: str = ""
    difference: float | None = None
    where: str | None = None
    error: str | None = None  # the exception's type, when the failure is one

    @property
    def cell(self) -> str:
        """The short text of the table's cell."""
        if self.status != FAIL:
            return self.status
        if self.error is not None:
            return f"FAIL {self.error}"
        if self.difference is None:
            return "FAIL"
        return f"FAIL {self.difference:.3g}" + (f" at {self.where}" if self.where else "")


def passed() -> Outcome:
    return Outcome(PASS)


def not_applicable(why: str) -> Outcome:
    return Outcome(NA, why)


def failed(
    detail: str,
    difference: float | None = None,
    where: str | None = None,
    error: BaseException | None = None,
) -> Outcome:
    return Outcome(FAIL, detail, difference, where, type(error).__name__ if error else None)


class CheckFailed(AssertionError):
    """Raised by :meth:`CheckReport.raise_for_failures`; ``report`` is the whole report and the
    message is its table, every failure in it.

    Examples
    --------
    >>> from ivy_like.testing import CheckFailed, CheckReport, Outcome
    >>> report = CheckReport("f", ["numpy"], ["mutation"])
    >>> report.outcomes["numpy", "mutation"] = Outcome("fail", "f wrote into argument 0")
    >>> try:
    ...     report.raise_for_failures()
    ... except CheckFailed as failure:
    ...     print(failure.report is report, isinstance(failure, AssertionError))
    True True
    """

    __module__ = "ivy_like.testing"

    def __init__(self, report: CheckReport) -> None:
        super().__init__(str(report))
        self.report = report


@dataclass
class CheckReport:
    """The table of :func:`~ivy_like.testing.check_function`: backend x check.

    ``outcomes[backend, check]`` is an :class:`Outcome`. ``examples`` is how many examples
    were checked; ``reproduce`` is code that reproduces the failing example that Hypothesis
    found and shrank (empty for explicit examples). ``str(report)`` is the table for a
    terminal, ``report._repr_html_()`` the same for a notebook.

    Examples
    --------
    >>> import numpy as np
    >>> import ivy_like
    >>> from ivy_like.testing import check_function
    >>> x = np.array([1.0, -2.0], dtype=np.float32)
    >>> report = check_function(ivy_like.abs, x, backends=["numpy"], checks=["vmap", "vjp"])
    >>> print(report)
    check_function(abs) on 1 example: 1 passed, 0 failed, 1 not applicable
    <BLANKLINE>
    backend  vmap  vjp
    numpy    pass  n/a
    <BLANKLINE>
    not applicable:
      numpy: vjp: numpy has no automatic differentiation
    >>> report.ok, report.outcomes["numpy", "vmap"].status
    (True, 'pass')
    """

    __module__ = "ivy_like.testing"

    function: str
    backends: list[str]
    checks: list[str]
    outcomes: dict[tuple[str, str], Outcome] = field(default_factory=dict)
    examples: int = 1
    reproduce: str = ""

    @property
    def ok(self) -> bool:
        """No check failed on any backend."""
        return not self.failures

    @property
    def failures(self) -> list[tuple[str, str, Outcome]]:
        return [(b, c, o) for (b, c), o in self._cells() if o.status == FAIL]

    def raise_for_failures(self) -> CheckReport:
        """Raise :class:`CheckFailed` (the whole table in its message) if anything failed;
        return the report otherwise, so that ``check_function(...).raise_for_failures()``
        reads as one assertion."""
        if not self.ok:
            raise CheckFailed(self)
        return self

    def _cells(self) -> list[tuple[tuple[str, str], Outcome]]:
        return [
            ((b, c), self.outcomes[b, c])
            for b in self.backends
            for c in self.checks
            if (b, c) in self.outcomes
        ]

    def _counts(self) -> str:
        cells = [o.status for _, o in self._cells()]
        return (
            f"{cells.count(PASS)} passed, {cells.count(FAIL)} failed, "
            f"{cells.count(NA)} not applicable"
        )

    def _title(self) -> str:
        n = self.examples
        return (
            f"check_function({self.function}) on {n} example{'s' if n != 1 else ''}: "
            f"{self._counts()}"
        )

    def _not_applicable(self) -> list[str]:
        """One line per reason; backends with the same checks for it share the line (numpy's
        five derivative checks are one line, not five)."""
        by_reason: dict[str, dict[str, list[str]]] = {}
        for (b, c), o in self._cells():
            if o.status == NA:
                by_reason.setdefault(o.detail, {}).setdefault(b, []).append(c)
        lines = []
        for reason, per_backend in by_reason.items():
            groups: dict[tuple[str, ...], list[str]] = {}
            for b, cs in per_backend.items():
                groups.setdefault(tuple(cs), []).append(b)
            for checks, bs in groups.items():
                lines.append(f"{', '.join(bs)}: {', '.join(checks)}: {reason}")
        return lines

    def __str__(self) -> str:
        header = ["backend", *self.checks]
        rows = [
            [b, *(self.outcomes[b, c].cell if (b, c) in self.outcomes else "" for c in self.checks)]
            for b in self.backends
        ]
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        lines = [self._title(), ""]
        for r in [header, *rows]:
            lines.append("  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip())
        failures = self.failures
        if failures:
            lines += ["", "failures:"]
            lines += [f"  {b} {c}: {o.detail}" for b, c, o in failures]
        na = self._not_applicable()
        if na:
            lines += ["", "not applicable:"]
            lines += [f"  {line}" for line in na]
        if self.reproduce:
            lines += ["", "to reproduce the failing example:", "", self.reproduce.rstrip()]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        colours = {PASS: "#d4edda", FAIL: "#f8d7da", NA: "#eeeeee"}
        esc = html.escape
        out = [
            '<div class="ivy-like-check-report">',
            f"<p><b>{esc(self._title())}</b></p>",
            '<table style="border-collapse: collapse">',
            "<tr>"
            + "".join(
                f'<th style="padding: 2px 8px; text-align: left">{esc(h)}</th>'
                for h in ["backend", *self.checks]
            )
            + "</tr>",
        ]
        for b in self.backends:
            cells = [f'<th style="padding: 2px 8px; text-align: left">{esc(b)}</th>']
            for c in self.checks:
                o = self.outcomes.get((b, c))
                if o is None:
                    cells.append("<td></td>")
                    continue
                title = f' title="{esc(o.detail)}"' if o.detail else ""
                cells.append(
                    f'<td style="padding: 2px 8px; background: {colours[o.status]}"{title}>'
                    f"{esc(o.cell)}</td>"
                )
            out.append("<tr>" + "".join(cells) + "</tr>")
        out.append("</table>")
        for heading, items in (
            ("failures", [f"{b} {c}: {o.detail}" for b, c, o in self.failures]),
            ("not applicable", self._not_applicable()),
        ):
            if items:
                out.append(f"<p>{heading}:</p><ul>")
                out += [f"<li>{esc(item)}</li>" for item in items]
                out.append("</ul>")
        if self.reproduce:
            out.append("<p>to reproduce the failing example:</p>")
            out.append(f"<pre>{esc(self.reproduce.rstrip())}</pre>")
        out.append("</div>")
        return "\n".join(out)

    def only(self, backends: Sequence[str], checks: Sequence[str]) -> CheckReport:
        """The report restricted to these backends and checks (the pytest plugin's one cell)."""
        return CheckReport(
            self.function,
            [b for b in self.backends if b in backends],
            [c for c in self.checks if c in checks],
            {k: o for k, o in self.outcomes.items() if k[0] in backends and k[1] in checks},
            self.examples,
            self.reproduce,
        )

"""``python -m ivy_like check module:function``: ``check_function`` from the command line.

The function's example arguments are the tuple in its ``example_args`` attribute, or the
examples a Hypothesis strategy draws (``--strategy module:name``, a strategy of argument
tuples). A progress bar goes to stderr, the table to stdout; the exit status is 1 when a
check failed (2 for a usage error, as argparse).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any, TextIO

from ._check import check_function
from ._engine import CHECKS, DESCRIPTIONS


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """The ``check`` subcommand, added to the command line's subparsers."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "check",
        help="run check_function on a function's example inputs on every installed backend",
        description="Checks: "
        + "; ".join(f"{name}: {text}" for name, text in DESCRIPTIONS.items())
        + ".",
    )
    parser.add_argument("function", help="module:function (its example_args: the arguments)")
    parser.add_argument(
        "--strategy", help="module:name of a Hypothesis strategy of argument tuples instead"
    )
    parser.add_argument("--backends", help="comma-separated (default: every installed one)")
    parser.add_argument("--checks", help=f"comma-separated, of {','.join(CHECKS)} (default: all)")
    parser.add_argument(
        "--max-examples", type=int, default=None, help="examples drawn from --strategy (10)"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def _load(parser: argparse.ArgumentParser, spec: str, what: str) -> Any:
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        parser.error(f"{what} must be module:name, got {spec!r}")
    try:
        value: Any = importlib.import_module(module_name)
    except ImportError as err:
        parser.error(f"{what}: cannot import {module_name!r}: {err}")
    for part in attribute.split("."):
        if not hasattr(value, part):
            parser.error(f"{what}: {module_name!r} has no {attribute!r}")
        value = getattr(value, part)
    return value


class _Bar:
    """A progress bar on stderr: redrawn in place on a terminal, a line per tenth else (a
    log keeps every line)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.tenth = stream, -1
        self.tty = stream.isatty()

    def __call__(self, done: int, total: int, backend: str, check: str) -> None:
        share = min(done, total) / max(total, 1)
        bar = "#" * int(30 * share) + "-" * (30 - int(30 * share))
        line = f"[{bar}] {done}/{total} {backend} {check}"
        if self.tty:
            self.stream.write(f"\r{line}\x1b[K" + ("\n" if done >= total else ""))
        elif int(10 * share) != self.tenth:
            self.tenth = int(10 * share)
            self.stream.write(line + "\n")
        self.stream.flush()


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run the ``check`` subcommand; the exit status."""
    f = _load(parser, args.function, "function")
    if not callable(f):
        parser.error(f"function: {args.function} is not callable")
    backends = args.backends.split(",") if args.backends else None
    checks = args.checks.split(",") if args.checks else None
    unknown = [c for c in checks or () if c not in CHECKS]
    if unknown:
        parser.error(f"--checks: unknown {', '.join(unknown)}; the checks are {', '.join(CHECKS)}")
    progress = None if args.no_progress else _Bar(sys.stderr)
    if args.strategy:
        strategy = _load(parser, args.strategy, "--strategy")
        settings = None
        if args.max_examples is not None:
            hypothesis = sys.modules["hypothesis"]  # imported by the strategy's module
            settings = hypothesis.settings(
                max_examples=args.max_examples, deadline=None, database=None
            )
        report = check_function(
            f, strategy=strategy, backends=backends, checks=checks, settings=settings,
            progress=progress,
        )  # fmt: skip
    else:
        example = getattr(f, "example_args", None)
        if not isinstance(example, tuple):
            parser.error(
                f"function: {args.function} has no example_args tuple (set "
                f"{getattr(f, '__name__', 'f')}.example_args = (x, ...)) and no --strategy "
                f"was given"
            )
        report = check_function(f, *example, backends=backends, checks=checks, progress=progress)
    print(report)
    return 0 if report.ok else 1

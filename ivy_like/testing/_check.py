"""``check_function``: one call that runs a function on every backend and checks, each on its
own, what the code base promises of it: the backends agree, ``compile`` and ``vmap`` keep its
meaning, its derivatives are right in both modes and both orders, it leaves its arguments
alone, and a lazy backend's evaluation order does not matter. The table of outcomes is a
:class:`~ivy_like.testing.CheckReport`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core import backend as _backend
from . import _search
from ._engine import CHECKS, ExampleRun
from ._inputs import Example
from ._report import CheckReport

Progress = Callable[[int, int, str, str], None]


def _names(
    backends: Sequence[str] | None, checks: Sequence[str] | None
) -> tuple[list[str], list[str]]:
    names = list(backends) if backends is not None else _backend.available_backends()
    if not names:
        raise ValueError("check_function: no backends to run on")
    for name in names:
        _backend.get_backend(name)  # an unknown or missing backend: BackendError, with a hint
    wanted = list(CHECKS) if checks is None else list(checks)
    unknown = [c for c in wanted if c not in CHECKS]
    if unknown:
        raise ValueError(
            f"check_function: unknown check(s) {', '.join(map(repr, unknown))}; "
            f"the checks are {', '.join(CHECKS)}"
        )
    return names, [c for c in CHECKS if c in wanted]  # the table's order


def _function_name(f: Callable[..., Any]) -> str:
    return getattr(f, "__qualname__", None) or getattr(f, "__name__", None) or repr(f)


def check_function(
    f: Callable[..., Any],
    *example_args: Any,
    backends: Sequence[str] | None = None,
    checks: Sequence[str] | None = None,
    strategy: Any = None,
    settings: Any = None,
    progress: Progress | None = None,
    compiled: Mapping[str, Callable[..., Any]] | None = None,
) -> CheckReport:
    """Run ``f(*example_args)`` on every installed backend (or ``backends``) and check it.

    The checks (``checks=`` picks some, in any order; the table keeps this one):

    * ``agree``: the outputs agree across backends, with :func:`assert_backends_agree`'s
      rules; the reference is the backend most others agree with, so a backend that agrees
      is never blamed for another's difference;
    * ``compile``: ``compile(f)``, traced once, gives ``f``'s result on a batch of three
      distinct examples (the example, reversed, with random signs and scales);
    * ``vmap``: ``vmap(f)`` over that batch equals ``f`` on each item, stacked;
    * ``vjp``, ``jvp``, ``vjp2``, ``jvp2``: reverse and forward mode, first and second order,
      equal central finite differences computed in float64 (as ``jax.test_util.check_grads``),
      for the floating-point arguments;
    * ``transpose``: ``<vjp(u), v> == <u, jvp(v)>``;
    * ``mutation``: the arguments are unchanged (NumPy's are passed read-only, the others
      compared before and after);
    * ``lazy``: on MLX, the result is the same with every op evaluated at once.

    Arguments are arrays of any backend, ``ivy_like.Array``, Containers and tuples, lists and
    dicts of them, or Hypothesis strategies of those; ``strategy=`` is a strategy of the whole
    argument tuple instead (for arguments that depend on each other). With strategies,
    examples are drawn (``settings=``, default: the active profile, at most 10 examples) and a
    failing one is shrunk by Hypothesis and printed as code in the report. ``progress(done,
    total, backend, check)`` is called after each check. ``compiled=`` maps a backend to
    ``compile(f)`` made already, with other functions (:func:`compile_together`: one
    compilation for many checks); the ``compile`` check takes a pass of it as ``f``'s and
    checks anything else again with ``f``'s own ``compile``.

    Returns a :class:`CheckReport`; ``check_function(...).raise_for_failures()`` raises
    :class:`CheckFailed` with the whole table when anything failed.

    Examples
    --------
    >>> import numpy as np
    >>> import ivy_like
    >>> from ivy_like.testing import check_function
    >>> x = np.array([0.5, -1.0, 2.0], dtype=np.float32)
    >>> report = check_function(lambda a: ivy_like.tanh(a) * 2, x, backends=["numpy"])
    >>> report.ok, report.outcomes["numpy", "vmap"].status
    (True, 'pass')
    >>> report.outcomes["numpy", "vjp"].detail
    'numpy has no automatic differentiation'
    """
    names, wanted = _names(backends, checks)
    name = _function_name(f)
    if strategy is not None or any(_search.is_strategy(a) for a in example_args):
        if strategy is not None and example_args:
            raise TypeError("check_function: give example arguments or strategy=, not both")
        if compiled:
            raise TypeError("check_function: compiled= is for example arguments, not strategies")
        if strategy is None:
            hyp = _search.hypothesis_module()
            parts = [a if _search.is_strategy(a) else hyp.strategies.just(a) for a in example_args]
            strategy = hyp.strategies.tuples(*parts)
        outcomes, count, minimal = _search.search(
            f, strategy, names, wanted, settings or _search.default_settings(), progress
        )
        report = CheckReport(name, names, wanted, outcomes, count)
        if minimal is not None:
            failing = {c for _, c, _ in report.failures}
            report.reproduce = reproduce(f, minimal, names, [c for c in wanted if c in failing])
        return report
    run = ExampleRun(f, Example.of(example_args), names, wanted, compiled)
    error = run.raises_everywhere()
    if error is not None:
        raise ValueError(
            f"check_function: {name} raises {type(error).__name__} on every backend for the "
            f"example arguments, so there is nothing to check: {error}"
        ) from error
    report = CheckReport(name, names, wanted)
    total = len(names) * len(wanted)
    for b in names:
        for c in wanted:
            report.outcomes[b, c] = run.cell(b, c)
            if progress is not None:
                progress(len(report.outcomes), total, b, c)
    return report


def reproduce(
    f: Callable[..., Any], example: Example, names: Sequence[str], checks: Sequence[str]
) -> str:
    """Code that checks ``f`` on ``example`` again: ``f`` imported where it can be."""
    module = getattr(f, "__module__", None)
    qualname = getattr(f, "__qualname__", "")
    lines = ["import numpy as np", "import ivy_like", "from ivy_like.testing import check_function"]
    if qualname and "<" not in qualname:  # a name the code can use (not a lambda's)
        target = qualname
        if module and module != "__main__":
            lines.append(f"from {module} import {qualname.split('.')[0]}")
        else:
            lines.append(f"# {qualname}: defined in the script that ran the check")
    else:
        lines.append("# f: the function under test")
        target = "f"
    lines += [
        "",
        f"args = {example.code()}",
        f"check_function({target}, *args, backends={list(names)!r}, "
        f"checks={list(checks)!r}).raise_for_failures()",
    ]
    return "\n".join(lines) + "\n"

"""The table of jax primitives :func:`from_flax` maps a jaxpr with, and how to register one.

:data:`PRIMITIVES` maps a primitive's name (``"dot_general"``) to an ivy_like function, and
:data:`STATIC` to the rule that turns the equation's parameters into that function's keyword
arguments (or refuses the use), both registered by the :func:`primitive` decorator. Calls
whose body is inlined (:data:`INLINE`) and primitives that pass their operands through
(:data:`IDENTITY`) have no handler, nor has control flow (:data:`CONTROL`), whose
sub-jaxprs are written as nested functions. The handlers are in :mod:`.primitives` and, for the
gathers and dynamic slices, :mod:`.gathers`, for the scatters, :mod:`.scatters`; no framework is imported: the table and the list of supported
primitives in ``docs/convert.md`` come without jax.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

Handler = Callable[..., Any]

PRIMITIVES: dict[str, Handler] = {}
STATIC: dict[str, Callable[[Eqn], dict[str, Any]]] = {}
# How many leading operands go to the handler (the rest are static): a number, or a rule that
# decides it for the equation.
ARITY: dict[str, int | Callable[[Eqn], int]] = {}
SCALARS: set[str] = set()  # elementwise: a scalar constant operand is written as a Python number
# Calls whose body is inlined; primitives that pass their operands through.
INLINE = frozenset(
    {
        "pjit",
        "jit",
        "closed_call",
        "core_call",
        "custom_jvp_call",
        "custom_vjp_call",
        "custom_vjp_call_jaxpr",
        "remat",
        "remat2",
        "checkpoint",
    }
)
IDENTITY = frozenset({"copy", "copy_p", "sharding_constraint", "optimization_barrier"})
# Control flow: each sub-jaxpr becomes a nested function of the generated code, run by
# ivy_like.cond / while_loop / scan (``control.py``).
CONTROL = frozenset({"cond", "while", "scan"})
# Why some well-known primitives have no entry: said in the error.
REASONS = {
    "random_bits": "random numbers (dropout in training mode? trace with deterministic=True)",
    "random_wrap": "random numbers (dropout in training mode? trace with deterministic=True)",
    "threefry2x32": "random numbers (dropout in training mode? trace with deterministic=True)",
}


def is_symbolic(d: Any) -> bool:
    """Whether a size is one of jax's symbolic expressions (a dynamic dimension's)."""
    return type(d).__name__ == "_DimExpr"


def same(a: Any, b: Any) -> bool:
    """Equal shapes for every size of the dynamic dimensions (the same expressions)."""
    return len(a) == len(b) and all(str(x) == str(y) for x, y in zip(a, b))


def size(d: Any) -> Any:
    """A size of an aval or a parameter: an int, or jax's symbolic expression kept as it is
    (the generated code computes it at run time: ``symbolic.source``)."""
    return d if is_symbolic(d) else int(d)


class Refused(Exception):
    """Raised by a :data:`STATIC` rule: this use of the primitive is not supported (why)."""


@dataclass(frozen=True)
class Eqn:
    """What a :data:`STATIC` rule sees of an equation: its parameters, the shapes and dtypes of
    its operands and results, the value of each operand known at conversion (else None),
    whether each is computed at run time from the inputs' sizes only (never their values: a
    size, an index counted from the end of a dynamic dimension), and the axis along which an
    operand counts positions (an ``iota`` computed at run time; else None)."""

    params: dict[str, Any]
    ins: list[Any]  # avals: .shape, .dtype
    outs: list[Any]
    known: list[np.ndarray | None]
    sized: tuple[bool, ...] = ()
    iotas: tuple[int | None, ...] = ()


def primitive(
    *names: str,
    static: Callable[[Eqn], dict[str, Any]] | None = None,
    arity: int | Callable[[Eqn], int] | None = None,
    scalars: bool = False,
) -> Callable[[Handler], Handler]:
    """Register the decorated function for the jax primitives ``names``.

    ``static`` turns the equation's parameters into the handler's keyword arguments (or
    raises :class:`Refused`); ``arity``: only that many leading operands are passed (or a
    rule that says how many for the equation);
    ``scalars``: the op is elementwise and takes Python numbers for scalar constants.
    """

    def register(fn: Handler) -> Handler:
        for name in names:
            PRIMITIVES[name] = fn
            if static is not None:
                STATIC[name] = static
            if arity is not None:
                ARITY[name] = arity
            if scalars:
                SCALARS.add(name)
        return fn

    return register


def supported_primitives() -> list[str]:
    """The jax primitives :func:`ivy_like.convert.from_flax` maps or inlines, sorted.

    Examples
    --------
    >>> from ivy_like.convert.flax.primitives import supported_primitives
    >>> "conv_general_dilated" in supported_primitives()
    True
    """
    return sorted(set(PRIMITIVES) | INLINE | IDENTITY | CONTROL)


def supported_primitives_markdown() -> str:
    """The list of supported jax primitives in ``docs/convert.md`` (generated here, checked by
    the tests)."""
    return ", ".join(f"`{name}`" for name in supported_primitives()) + "\n"

"""Learning-rate schedules with optax's names, arguments and numbers: ``constant_schedule``,
``linear_schedule``, ``exponential_decay``, ``cosine_decay_schedule``,
``warmup_cosine_decay_schedule``, ``join_schedules``.

A schedule is a callable of the step count (the number of updates made before this one, as
optax counts) returning the learning rate; pass one as any optimizer's ``lr``. With a schedule,
every optimizer's state holds the step count as an int32 scalar array (``state["count"]``) and
the schedule is evaluated on it with array ops in float32, so a compiled step compiles once. A
schedule called with a Python int returns a float.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import ivy_like as il

from ._common import Schedule

__all__ = [
    "constant_schedule",
    "cosine_decay_schedule",
    "exponential_decay",
    "join_schedules",
    "linear_schedule",
    "warmup_cosine_decay_schedule",
]


def _schedule(formula: Callable[[Any], Any]) -> Schedule:
    """A schedule from ``formula(t)`` of the float32 step count, written with ivy_like ops:
    an int32 count array stays on its backend (and in the graph of a compiled step); a
    Python number is evaluated on the numpy backend (the same float whatever backend is
    active) and gives a float."""

    def schedule(count: Any) -> Any:
        if isinstance(count, numbers.Real):
            with il.use_backend("numpy"):  # NumPy arrays follow the active backend
                return float(formula(np.asarray(count, np.float32)))
        return formula(il.astype(count, il.float32))

    return schedule


def constant_schedule(value: float) -> Schedule:
    """``value`` at every step (``optax.constant_schedule``).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.optimizers.constant_schedule(0.1)(100)
    0.1
    """
    return lambda count: value


def linear_schedule(
    init_value: float, end_value: float, transition_steps: int, transition_begin: int = 0
) -> Schedule:
    """``init_value`` until ``transition_begin``, then linearly to ``end_value`` over
    ``transition_steps`` steps, then ``end_value`` (``optax.linear_schedule``; as there,
    ``transition_steps <= 0`` holds ``init_value`` and a negative ``transition_begin`` is 0).

    Examples
    --------
    >>> import ivy_like
    >>> warmup = ivy_like.optimizers.linear_schedule(0.0, 0.1, transition_steps=4)
    >>> [round(warmup(t), 3) for t in range(6)]
    [0.0, 0.025, 0.05, 0.075, 0.1, 0.1]
    """
    if transition_steps <= 0:
        return constant_schedule(init_value)
    begin, steps = float(max(transition_begin, 0)), float(transition_steps)

    def formula(t: Any) -> Any:
        done = il.divide(il.clip(il.subtract(t, begin), min=0.0, max=steps), steps)
        return il.add(il.multiply(init_value - end_value, il.subtract(1.0, done)), end_value)

    return _schedule(formula)


def exponential_decay(
    init_value: float,
    transition_steps: int,
    decay_rate: float,
    transition_begin: int = 0,
    staircase: bool = False,
    end_value: float | None = None,
) -> Schedule:
    """``init_value * decay_rate ** ((t - transition_begin) / transition_steps)`` from
    ``transition_begin`` on (``init_value`` before), the exponent floored with ``staircase``,
    bounded by ``end_value`` (below when ``decay_rate < 1``, above otherwise); optax's
    ``exponential_decay``, whose degenerate cases (``transition_steps <= 0`` or
    ``decay_rate == 0``: constant) it keeps.

    Examples
    --------
    >>> import ivy_like
    >>> decay = ivy_like.optimizers.exponential_decay(0.1, transition_steps=2, decay_rate=0.5)
    >>> [round(decay(t), 4) for t in range(5)]
    [0.1, 0.0707, 0.05, 0.0354, 0.025]
    """
    if transition_steps <= 0 or decay_rate == 0:
        return constant_schedule(init_value)
    begin, steps = float(max(transition_begin, 0)), float(transition_steps)
    bound = None if end_value is None else (il.maximum if decay_rate < 1.0 else il.minimum)

    def formula(t: Any) -> Any:
        elapsed = il.subtract(t, begin)
        exponent = il.divide(elapsed, steps)
        if staircase:
            exponent = il.floor(exponent)
        decayed = il.multiply(init_value, il.pow(decay_rate, exponent))
        value = il.where(il.less_equal(elapsed, 0.0), init_value, decayed)
        return value if bound is None else bound(value, end_value)

    return _schedule(formula)


def cosine_decay_schedule(
    init_value: float, decay_steps: int, alpha: float = 0.0, exponent: float = 1.0
) -> Schedule:
    """``init_value * ((1 - alpha) * c ** exponent + alpha)`` with
    ``c = (1 + cos(pi * min(t, decay_steps) / decay_steps)) / 2`` (``optax.cosine_decay_schedule``):
    from ``init_value`` down to ``alpha * init_value`` at ``decay_steps``, then constant.

    Examples
    --------
    >>> import ivy_like
    >>> cosine = ivy_like.optimizers.cosine_decay_schedule(0.1, decay_steps=4)
    >>> [round(cosine(t), 4) for t in range(6)]
    [0.1, 0.0854, 0.05, 0.0146, 0.0, 0.0]
    """
    if not decay_steps > 0:
        raise ValueError(
            f"cosine_decay_schedule: decay_steps must be a positive int, got {decay_steps!r}"
        )
    steps = float(decay_steps)

    def formula(t: Any) -> Any:
        angle = il.divide(il.multiply(math.pi, il.minimum(t, steps)), steps)
        cosine = il.multiply(0.5, il.add(1.0, il.cos(angle)))
        if exponent != 1.0:
            cosine = il.pow(cosine, exponent)
        return il.multiply(init_value, il.add(il.multiply(1.0 - alpha, cosine), alpha))

    return _schedule(formula)


def join_schedules(schedules: Sequence[Schedule], boundaries: Sequence[int]) -> Schedule:
    """``schedules[i]`` from step ``boundaries[i - 1]`` on, given the steps since that
    boundary (``optax.join_schedules``).

    Examples
    --------
    >>> import ivy_like
    >>> from ivy_like import optimizers as O
    >>> s = O.join_schedules([O.constant_schedule(0.1), O.linear_schedule(0.1, 0.0, 2)], [3])
    >>> [round(s(t), 3) for t in range(6)]
    [0.1, 0.1, 0.1, 0.1, 0.05, 0.0]
    """
    if len(schedules) != len(boundaries) + 1:
        raise ValueError(
            f"join_schedules: expected one boundary fewer than schedules, got "
            f"{len(schedules)} schedules and {len(boundaries)} boundaries"
        )

    def schedule(count: Any) -> Any:
        value = schedules[0](count)
        for boundary, then in zip(boundaries, schedules[1:]):
            if isinstance(count, numbers.Real):
                value = value if count < boundary else then(count - boundary)
            else:
                later = then(il.subtract(count, boundary))
                value = il.where(il.less(count, boundary), value, later)
        return value

    return schedule


def warmup_cosine_decay_schedule(
    init_value: float,
    peak_value: float,
    warmup_steps: int,
    decay_steps: int,
    end_value: float = 0.0,
    exponent: float = 1.0,
) -> Schedule:
    """A linear warm-up from ``init_value`` to ``peak_value`` over ``warmup_steps``, then a
    cosine decay to ``end_value`` at ``decay_steps`` (which counts the warm-up):
    ``optax.warmup_cosine_decay_schedule``.

    Examples
    --------
    >>> import ivy_like
    >>> s = ivy_like.optimizers.warmup_cosine_decay_schedule(0.0, 0.1, 2, 6, end_value=0.01)
    >>> [round(s(t), 4) for t in range(8)]
    [0.0, 0.05, 0.1, 0.0868, 0.055, 0.0232, 0.01, 0.01]
    """
    alpha = 0.0 if peak_value == 0.0 else end_value / peak_value
    warmup = linear_schedule(init_value, peak_value, warmup_steps)
    decay = cosine_decay_schedule(peak_value, decay_steps - warmup_steps, alpha, exponent)
    return join_schedules([warmup, decay], [warmup_steps])

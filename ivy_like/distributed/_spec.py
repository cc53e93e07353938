"""Placement specs and layouts: ``P`` (JAX's ``PartitionSpec``), a layout (Keras's
``LayoutMap``: glob patterns over ivy_like key chains -> specs) and their checks.

Everything a spec can get wrong is found here, before any work starts: an axis the mesh lacks,
an axis used twice, more entries than the array has dimensions, a dimension that does not
divide over its axes.
"""

from __future__ import annotations

import fnmatch
import math
from collections.abc import Mapping
from typing import Any, Callable, Union

Entry = Union[None, tuple[str, ...]]
Normal = tuple[Entry, ...]


class P(tuple):  # type: ignore[type-arg]
    """How an array is split over a mesh: one entry per leading dimension, each ``None`` (not
    split), a mesh axis name, or a tuple of axis names (split over their product, the first
    outermost). Dimensions past the last entry are not split; ``P()`` is replicated.

    Examples
    --------
    >>> from ivy_like.distributed import P
    >>> P("data", None)
    P('data', None)
    >>> P(("data", "model"))
    P(('data', 'model'),)
    """

    def __new__(cls, *entries: Any) -> P:
        for entry in entries:
            if entry is None or isinstance(entry, str):
                continue
            if isinstance(entry, tuple) and entry and all(isinstance(a, str) for a in entry):
                continue
            raise TypeError(
                f"P: each entry is None, a mesh axis name or a tuple of names, got {entry!r}"
            )
        return super().__new__(cls, entries)

    def __repr__(self) -> str:
        inner = ", ".join(repr(e) for e in self)
        return f"P({inner},)" if len(self) == 1 and isinstance(self[0], tuple) else f"P({inner})"

    def normal(self) -> Normal:
        return tuple(None if e is None else (e,) if isinstance(e, str) else e for e in self)


def from_normal(spec: Normal) -> P:
    """The ``P`` a backend's normalized spec stands for (trailing ``None`` dropped)."""
    entries = [None if e is None else e[0] if len(e) == 1 else e for e in spec]
    while entries and entries[-1] is None:
        entries.pop()
    return P(*entries)


# A rule: a P, a layout (pattern -> P), or a function of (key chain, shape) -> P.
Rule = Union[P, Mapping[str, P], Callable[[str, tuple[int, ...]], P]]


def check_rule(rule: Any, who: str, what: str) -> None:
    """``rule`` is a ``P``, a layout of patterns to ``P`` or a function (checked up front)."""
    if isinstance(rule, P) or callable(rule):
        return
    if isinstance(rule, Mapping):
        for pattern, spec in rule.items():
            if not isinstance(pattern, str):
                raise TypeError(f"{who}: {what}: layout keys are glob patterns, got {pattern!r}")
            if not isinstance(spec, P):
                raise TypeError(
                    f"{who}: {what}: layout[{pattern!r}] must be a P, got {type(spec).__name__}"
                )
        return
    raise TypeError(
        f"{who}: {what} must be a P, a layout (dict of key-chain patterns to P) or a function "
        f"of (key chain, shape), got {type(rule).__name__}"
    )


def spec_for(rule: Any, chain: str, shape: tuple[int, ...], who: str) -> P:
    """The spec ``rule`` gives the leaf at key chain ``chain`` (replicated where a layout has
    no pattern for it; two matching patterns are an error, as in Keras's ``LayoutMap``)."""
    if isinstance(rule, P):
        return rule
    if isinstance(rule, Mapping):
        hits = [p for p in rule if fnmatch.fnmatchcase(chain, p)]
        if len(hits) > 1:
            raise ValueError(
                f"{who}: {chain!r} matches the layout patterns {hits[0]!r} and {hits[1]!r}; "
                f"make them match one each"
            )
        return rule[hits[0]] if hits else P()
    spec = rule(chain, shape)
    if not isinstance(spec, P):
        raise TypeError(f"{who}: the layout function gave {spec!r} for {chain!r}, not a P")
    return spec


def normalize(
    spec: P, shape: tuple[int, ...], sizes: Mapping[str, int], who: str, what: str, whole: bool
) -> Normal:
    """``spec`` checked against the mesh axes ``sizes`` and an array of ``shape``, with one
    entry per dimension. ``whole``: ``shape`` is the global shape, so each split dimension
    must divide over its axes (a local block's shape always does)."""
    if len(spec) > len(shape):
        raise ValueError(
            f"{who}: {what} has {len(shape)} dimension(s) but its spec {spec!r} has {len(spec)} "
            f"entries"
        )
    normal = spec.normal()
    seen: set[str] = set()
    for dim, axes in enumerate(normal):
        if axes is None:
            continue
        for axis in axes:
            if axis not in sizes:
                raise ValueError(
                    f"{who}: {what}: spec {spec!r} names the axis {axis!r}; the mesh has "
                    f"{tuple(sizes)}"
                )
            if axis in seen:
                raise ValueError(f"{who}: {what}: spec {spec!r} uses the axis {axis!r} twice")
            seen.add(axis)
        parts = math.prod(sizes[a] for a in axes)
        if whole and shape[dim] % parts:
            over = axes[0] if len(axes) == 1 else axes
            raise ValueError(
                f"{who}: {what} has size {shape[dim]} in dimension {dim}, which does not "
                f"divide over the mesh axis {over!r} of size {parts}"
            )
    return normal + (None,) * (len(shape) - len(normal))


def axes_of(axis: Any, sizes: Mapping[str, int], who: str) -> tuple[str, ...]:
    """A collective's ``axis`` (a name or a tuple of names) checked against the mesh."""
    axes = (axis,) if isinstance(axis, str) else axis
    if not isinstance(axes, tuple) or not axes or not all(isinstance(a, str) for a in axes):
        raise TypeError(f"{who}: axis must be a mesh axis name or a tuple of names, got {axis!r}")
    for a in axes:
        if a not in sizes:
            raise ValueError(f"{who}: axis {a!r} is not an axis of the mesh {tuple(sizes)}")
    if len(set(axes)) != len(axes):
        raise ValueError(f"{who}: axis {axis!r} names an axis twice")
    return axes

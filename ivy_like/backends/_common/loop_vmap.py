"""``vmap`` as a loop over the batch, for backends with no vectorising map (numpy, mxnet).

The mapped function runs once per example on that example's slices and the results are
stacked: correct, and as slow as a Python loop. A ``custom_function`` with a ``vmap`` rule that
is called inside the loop gets its rule applied once to the whole batch, as on the backends
that vectorise. For that the loop runs in passes: a pass runs every example up to the first
such call whose batched result is not known yet, keeps that call's arguments and stops the
example there (``_Stop``); between passes the rule is called on the arguments of all examples
stacked; the next pass hands each example its slice of the rule's result and goes on. A
function with no such call (the common case) runs in one pass. The examples must make the
same custom calls in the same order, which a vectorised map needs anyway; that is checked.

Caveats of a loop: the code before the k-th custom call runs k + 1 times (side effects repeat,
unseeded random numbers differ between passes), and an output with ``out_axes`` ``None`` is
checked by value (equal for every example) since a loop cannot tell whether it depends on the
mapped axis. An empty batch cannot be mapped: there is no example to run.

Nothing here imports a framework: each backend passes its slicing, stacking and equality.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from typing import Any

# Backends whose vmap vectorises (and maps empty batches); named in the errors.
_VECTORISING = "jax, torch, tensorflow, mlx"


class _Stop(BaseException):
    """Stops one example at a custom call whose batched result is not known yet.

    A ``BaseException`` so that an ``except Exception`` in the user's function lets it through.
    """

    def __init__(self, frame: _Frame) -> None:
        super().__init__()
        self.frame = frame


class _Frame:
    """The state of one running loop ``vmap``."""

    __slots__ = ("size", "recording", "index", "calls", "done", "pending")

    def __init__(self, size: int, recording: bool) -> None:
        self.size = size
        self.recording = recording  # was the framework recording a tape when vmap began?
        self.index = 0  # the example that runs
        self.calls = 0  # the custom calls it made so far in this pass
        # per custom call, in order: (function, batched outputs, their batch axes)
        self.done: list[tuple[Any, list[Any], list[Any]]] = []
        # the call being collected: (function, vmap rule, its arguments per example)
        self.pending: tuple[Any, Any, list[list[Any]]] | None = None


def _mismatch(what: str) -> ValueError:
    return ValueError(
        f"vmap: {what}; this backend maps by running the function once per example, and "
        f"every example must call the same custom_functions in the same order"
    )


class LoopVmap:
    """``vmap_leaves`` and the batched custom calls of one backend.

    ``take(x, axis, i)`` is the slice ``i`` of ``x`` along ``axis`` (the axis removed),
    ``stack(list)`` stacks along a new axis 0, ``same(a, b)`` says whether two results are
    equal (shape, dtype and values), ``recording()`` whether the framework records a tape now.
    """

    def __init__(
        self,
        name: str,
        take: Callable[[Any, int, int], Any],
        stack: Callable[[list[Any]], Any],
        same: Callable[[Any, Any], bool],
        recording: Callable[[], bool] = lambda: False,
    ) -> None:
        self.name = name
        self._take = take
        self._stack = stack
        self._same = same
        self._recording = recording
        # The running loops, innermost last; None while a vmap rule runs (its own calls are
        # not batched again). A ContextVar, as all backend state (thread- and asyncio-safe).
        self._frames: contextvars.ContextVar[tuple[_Frame | None, ...]] = contextvars.ContextVar(
            f"ivy_like_{name}_vmap_frames", default=()
        )

    def active(self) -> _Frame | None:
        """The innermost running loop, or None (no loop, or inside a vmap rule)."""
        frames = self._frames.get()
        return frames[-1] if frames else None

    def forget(self) -> None:
        """No running loop in the current context from now on: for code that runs in a copy
        of a loop's context but outside it (a backward pass on another thread)."""
        self._frames.set(())

    def vmap_leaves(
        self,
        f: Callable[[list[Any]], tuple[list[Any], list[Any]]],
        leaves: list[Any],
        in_axes: list[Any],
        axis_size: int,
    ) -> tuple[list[Any], list[Any]]:
        """The contract of ``ivy_like/backends/__init__.py``, by a loop over the batch."""
        if axis_size == 0:
            raise NotImplementedError(
                f"vmap: the {self.name} backend maps by running the function once per "
                f"example and cannot map an empty batch (size 0); {_VECTORISING} can"
            )
        frame = _Frame(axis_size, self._recording())
        token = self._frames.set(self._frames.get() + (frame,))
        try:
            while True:
                outs = self._pass(f, leaves, in_axes, frame)
                if outs is not None:
                    break
                self._apply_rule(frame)
        finally:
            self._frames.reset(token)
        return self._assemble(outs)

    def _pass(
        self,
        f: Callable[[list[Any]], tuple[list[Any], list[Any]]],
        leaves: list[Any],
        in_axes: list[Any],
        frame: _Frame,
    ) -> list[tuple[list[Any], list[Any]]] | None:
        """Every example's outputs, or None when the examples stopped at a new custom call."""
        frame.pending = None
        outs = []
        stopped = 0
        take = self._take
        for i in range(frame.size):
            frame.index, frame.calls = i, 0
            example = [x if a is None else take(x, a, i) for x, a in zip(leaves, in_axes)]
            try:
                out = f(example)
            except _Stop as stop:
                if stop.frame is not frame:
                    raise
                stopped += 1
                continue
            if frame.calls != len(frame.done):
                raise _mismatch(
                    f"example {i} made {frame.calls} custom calls with a vmap rule, the "
                    f"others {len(frame.done)}"
                )
            outs.append(out)
        if not stopped:
            return outs
        if stopped != frame.size:
            raise _mismatch("some examples called a custom_function with a vmap rule, others not")
        return None

    def call(self, frame: _Frame, fun: Any, rule: Any, args: list[Any]) -> list[Any]:
        """The outputs of the custom call ``fun(*args)`` of the running example: its slice of
        the rule's batched result, or ``_Stop`` while the batch's arguments are collected."""
        k = frame.calls
        frame.calls = k + 1
        if k < len(frame.done):
            done_fun, outs, axes = frame.done[k]
            if done_fun is not fun:
                raise _mismatch(f"example {frame.index} made a different custom call at call {k}")
            i, take = frame.index, self._take
            return [o if a is None else take(o, a, i) for o, a in zip(outs, axes)]
        if frame.index == 0:
            frame.pending = (fun, rule, [])
        elif frame.pending is None or frame.pending[0] is not fun:
            raise _mismatch(f"example {frame.index} made a custom call that example 0 did not")
        frame.pending[2].append(list(args))
        raise _Stop(frame)

    def _apply_rule(self, frame: _Frame) -> None:
        """Call the pending rule on the collected arguments: an argument that is the same
        object in every example (captured from outside the map) is unbatched (axis None),
        the others are stacked on axis 0."""
        assert frame.pending is not None
        fun, rule, per_example = frame.pending
        frame.pending = None
        batched: list[Any] = []
        axes: list[int | None] = []
        for p in range(len(per_example[0])):
            column = [args[p] for args in per_example]
            first = column[0]
            if all(c is first for c in column):
                batched.append(first)
                axes.append(None)
            else:
                _check_alike(column, f"argument {p} of a custom_function")
                batched.append(self._stack(column))
                axes.append(0)
        token = self._frames.set(self._frames.get() + (None,))
        try:
            outs, out_axes = rule(batched, axes)
        finally:
            self._frames.reset(token)
        outs, out_axes = list(outs), list(out_axes)
        if len(out_axes) != len(outs):
            raise ValueError(
                f"vmap: a custom_function's vmap rule returned {len(outs)} outputs and "
                f"{len(out_axes)} out_axes"
            )
        normal = []
        for j, (o, a) in enumerate(zip(outs, out_axes)):
            if a is not None:
                shape = tuple(o.shape)
                if not -len(shape) <= a < len(shape) or shape[a] != frame.size:
                    raise ValueError(
                        f"vmap: a custom_function's vmap rule gave output {j} the batch axis "
                        f"{a}, but its shape is {shape} and the batch has {frame.size}"
                    )
                a %= len(shape)
            normal.append(a)
        frame.done.append((fun, outs, normal))

    def _assemble(self, outs: list[tuple[list[Any], list[Any]]]) -> tuple[list[Any], list[Any]]:
        """The mapped outputs stacked on axis 0; the unmapped ones checked equal."""
        first_mapped, first_unmapped = outs[0]
        for i, (m, u) in enumerate(outs[1:], 1):
            if len(m) != len(first_mapped) or len(u) != len(first_unmapped):
                raise ValueError(
                    f"vmap: example {i} returned {len(m) + len(u)} arrays, example 0 returned "
                    f"{len(first_mapped) + len(first_unmapped)}"
                )
        mapped = []
        for j in range(len(first_mapped)):
            column = [m[j] for m, _ in outs]
            _check_alike(column, f"mapped output {j}")
            mapped.append(self._stack(column))
        for j, ref in enumerate(first_unmapped):
            for i, (_, u) in enumerate(outs[1:], 1):
                if not self._same(ref, u[j]):
                    raise ValueError(
                        f"vmap: unmapped output {j} (out_axes None) differs between example 0 "
                        f"and example {i}: it depends on the mapped axis; give it an out_axes"
                    )
        return mapped, list(first_unmapped)


def _check_alike(column: list[Any], what: str) -> None:
    """The per-example values of ``what`` must stack: one shape and one dtype."""
    shape, dtype = tuple(column[0].shape), column[0].dtype
    for i, c in enumerate(column[1:], 1):
        if tuple(c.shape) != shape or c.dtype != dtype:
            raise ValueError(
                f"vmap: {what} has shape {shape} and dtype {_name(dtype)} for example 0 but "
                f"{tuple(c.shape)} and {_name(c.dtype)} for example {i}; they cannot be stacked"
            )


def _name(dtype: Any) -> str:
    # A NumPy dtype has a name; MXNet gives NumPy scalar types (np.float32), which have __name__.
    return str(getattr(dtype, "name", None) or getattr(dtype, "__name__", dtype))

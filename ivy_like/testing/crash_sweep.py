"""The crash sweep: every registered op, on every backend, over the edge inputs the array API
standard allows, each backend in a child process.

A framework bug can kill the Python process (MLX's inverse of a 0x0 matrix raised SIGFPE), and
no test running in that process can report it. Here a child process runs the cases one after
another and tells the parent, through a pipe, the case it is about to run; a child that dies by
a signal, aborts or stops answering leaves that case as the culprit, and a new child goes on
with the next one. Python exceptions are answers, not crashes: the sweep counts them by type.

The inputs (:func:`cases`): zero-size arrays of every rank up to 4 (0x0 and batches of empty
matrices among them), 0-d arrays, size-1 dimensions, a vector and a 2x2 matrix of the special
values (NaN, infinities, -0.0, 0.0, the integer extremes), every dtype the op admits on the
backend, and, for ops with an ``axis``, an axis out of range (a decided error). Parameters
that are not arrays take their defaults, or for the ops that need one the value of
:data:`ARGUMENTS`; creation ops take empty sizes.

Use it as a function, :func:`crash_sweep`, or from the shell::

    python -m ivy_like.testing.crash_sweep [--backends mlx,torch] [--ops linalg.inv,sum] [--quick]

``nox -s crash_sweep`` runs it in full; the test suite runs a quick subset. Linux and macOS
(the child reports through an inherited pipe).
"""

from __future__ import annotations

import argparse
import collections
import importlib
import inspect
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import ivy_like

from ..core.backend import get_backend
from ..core.registry import OPS

__all__ = ["ARGUMENTS", "Crash", "SweepReport", "cases", "crash_sweep"]

# Shapes: 0-d, size 1, and zero-size arrays of every rank up to 4.
SHAPES: tuple[tuple[int, ...], ...] = (
    (),
    (1,),
    (0,),
    (1, 1),
    (0, 0),
    (2, 0),
    (0, 2),
    (1, 1, 1),
    (0, 0, 0),
    (2, 0, 0),
    (0, 2, 2),
    (1, 1, 1, 1),
    (0, 0, 0, 0),
    (2, 1, 0, 3),
)
QUICK_SHAPES: tuple[tuple[int, ...], ...] = ((), (0,), (0, 0), (2, 0, 0), (1, 1))
QUICK_DTYPES = ("bool", "int32", "float32")

# Arguments for the ops that cannot run on their defaults: a function of the input array
# (a NumPy array with the case's shape and dtype) giving the keyword arguments to add.
ARGUMENTS: dict[str, Callable[[np.ndarray], dict[str, Any]]] = {
    "astype": lambda x: {"dtype": "float32"},
    "broadcast_to": lambda x: {"shape": (2, *x.shape)},
    "full_like": lambda x: {"fill_value": 1},
    "linalg.matrix_power": lambda x: {"n": -1},
    "moveaxis": lambda x: {"source": 0, "destination": -1},
    "nn.adaptive_avg_pool2d": lambda x: {"output_size": 1},
    "nn.adaptive_max_pool2d": lambda x: {"output_size": 1},
    "nn.avg_pool2d": lambda x: {"kernel_size": 1},
    "nn.max_pool2d": lambda x: {"kernel_size": 1},
    "nn.group_norm": lambda x: {"num_groups": 1},
    "nn.layer_norm": lambda x: {"normalized_shape": x.shape[-1:]},
    "one_hot": lambda x: {"num_classes": 3},
    "pad": lambda x: {"pad_width": 1},
    "permute_dims": lambda x: {"axes": tuple(reversed(range(x.ndim)))},
    "reshape": lambda x: {"shape": (-1,)},
    "roll": lambda x: {"shift": 1},
    "segment_max": lambda x: {"num_segments": 2},
    "segment_sum": lambda x: {"num_segments": 2},
    "squeeze": lambda x: {"axis": 0},
    "tile": lambda x: {"repetitions": (2,)},
    "top_k": lambda x: {"k": 1},
}

# Creation ops: their own argument lists (empty and degenerate sizes).
CREATION: dict[str, tuple[tuple[tuple[Any, ...], dict[str, Any]], ...]] = {
    "arange": (
        ((0,), {}),
        ((0, 0), {}),
        ((1, 0), {}),
        ((0, 1, 2), {}),
        ((-3,), {}),
        ((3,), {"step": 2}),
    ),
    "empty": (((0,), {}), (((0, 0),), {}), (((),), {})),
    "eye": (((0,), {}), ((0, 3), {}), ((2,), {"k": 5})),
    "fft.fftfreq": (((1,), {}), ((0,), {})),
    "fft.rfftfreq": (((1,), {}), ((0,), {})),
    "full": ((((0,), 1.0), {}), (((0, 0), 1), {}), (((), 1), {})),
    "linspace": (((0.0, 1.0, 0), {}), ((0.0, 1.0, 1), {}), ((0.0, 0.0, 2), {})),
    "ones": (((0,), {}), (((0, 0),), {}), (((),), {})),
    "zeros": (((0,), {}), (((0, 0),), {}), (((),), {})),
}
# Ops not swept, with the reason (their inputs are not arrays of a shape and dtype).
NOT_SWEPT = {
    "asarray": "takes any object; swept as the way every case's inputs are made",
    "from_dlpack": "takes another library's array; every case's inputs pass through asarray",
    "einsum": "its subscripts set the operands' ranks; its checks are tested in tests/ops/",
}

_SPECIALS: dict[str, list[Any]] = {
    "f": [np.nan, np.inf, -np.inf, -0.0, 0.0],
    "c": [complex(np.nan, 0), complex(np.inf, -np.inf), complex(-0.0, 0.0), 0j, 1j],
    "b": [True, False, True, False, True],
}


@dataclass(frozen=True)
class Crash:
    """One case that killed the child process."""

    backend: str
    op: str
    input: str
    how: str  # "signal SIGFPE", "exit status 134", "no answer in 60 s"

    def __str__(self) -> str:
        return f"{self.backend}: {self.op} on {self.input}: {self.how}"


@dataclass
class SweepReport:
    """What the sweep tried on each backend and what it found."""

    tried: dict[str, int] = field(default_factory=dict)
    ops: dict[str, int] = field(default_factory=dict)
    outcomes: dict[str, collections.Counter[str]] = field(default_factory=dict)
    crashes: list[Crash] = field(default_factory=list)
    not_swept: dict[str, str] = field(default_factory=dict)
    # (op, input) -> the shapes of the answer, or "raises": what disagreements() compares
    answers: dict[str, dict[tuple[str, str], str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.crashes

    def disagreements(self, reference: str = "numpy") -> list[tuple[str, str, str, str, str]]:
        """``(backend, op, input, answer, reference's answer)`` for each case both ran where
        one answered and the other raised, or the shapes differ: places to look for a wrong
        answer (a backend may rightly refuse what another accepts; dtypes are not compared,
        as the default integer differs)."""
        want = self.answers.get(reference, {})
        found = []
        for name, answers in self.answers.items():
            if name == reference:
                continue
            for case, answer in answers.items():
                if case in want and answer != want[case]:
                    found.append((name, *case, answer, want[case]))
        return found

    def __str__(self) -> str:
        lines = [
            "| backend | ops | cases | answered | raised | crashed | not as numpy |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        differ = collections.Counter(d[0] for d in self.disagreements())
        for name, n in self.tried.items():
            out = self.outcomes.get(name, collections.Counter())
            raised = sum(v for k, v in out.items() if k != "ok")
            crashed = sum(1 for c in self.crashes if c.backend == name)
            compared = differ[name] if "numpy" in self.answers and name != "numpy" else ""
            lines.append(
                f"| {name} | {self.ops[name]} | {n} | {out['ok']} | {raised} | {crashed} | "
                f"{compared} |"
            )
        lines += [f"crash: {c}" for c in self.crashes]
        lines += [f"not swept: {op} ({why})" for op, why in sorted(self.not_swept.items())]
        return "\n".join(lines)


# -- the cases (built in the child, where the backend is loaded) ---------------------------------
def _filled(shape: tuple[int, ...], np_dtype: np.dtype[Any], kind: str) -> Iterator[np.ndarray]:
    """Arrays of ``shape`` and a NumPy dtype: ones (zeros for a zero-size one), and for a
    vector of 5 or a 2x2 matrix the special values of the kind."""
    yield np.ones(shape, np_dtype)
    if shape in ((5,), (2, 2)):
        if kind in "iu":
            info = np.iinfo(np_dtype)
            values: list[Any] = [info.min, info.max, 0, 1, info.max - 1]
        else:
            values = _SPECIALS[kind]
        yield np.resize(np.array(values, np_dtype), shape)


def _inputs(backend: Any, kinds: str, quick: bool) -> Iterator[tuple[str, np.ndarray, Any]]:
    """(description, NumPy array, ivy_like dtype) for each input of the admitted kinds."""
    shapes = QUICK_SHAPES if quick else (*SHAPES, (5,), (2, 2))
    for dtype in backend.module.DTYPES:
        if dtype.kind not in kinds or (quick and dtype.name not in QUICK_DTYPES):
            continue
        np_dtype = np.dtype("float32") if dtype.name == "bfloat16" else np.dtype(dtype.name)
        for shape in shapes:
            for i, value in enumerate(_filled(shape, np_dtype, dtype.kind)):
                yield f"{dtype.name} {shape}{' specials' if i else ''}", value, dtype


def _public(key: str) -> Callable[..., Any]:
    fn: Any = ivy_like
    for part in key.split("."):
        fn = getattr(fn, part)
    return fn  # type: ignore[no-any-return]


def cases(
    backend_name: str, ops: Sequence[str] | None = None, quick: bool = False
) -> Iterator[tuple[str, str, Callable[[], Any]]]:
    """``(op, input description, call)`` for every case of the sweep on one backend, in a
    fixed order. ``call()`` runs the op with ``backend_name`` active (the caller activates it)."""
    backend = get_backend(backend_name)
    for key in sorted(OPS):
        if (ops is not None and key not in ops) or key in NOT_SWEPT:
            continue
        spec = OPS[key]
        fn = _public(key)
        if key in CREATION:
            for args, kwargs in CREATION[key]:
                yield key, f"args {args} {kwargs}", _bound(fn, args, kwargs)
            continue
        kinds = spec.dtype_category or "biufc"
        arrays = [p for p in spec.params if p.name in spec.arrays or p.name in spec.sequences]
        required = [p for p in arrays if p.default is inspect.Parameter.empty]
        for what, value, dtype in _inputs(backend, kinds, quick):
            extra = ARGUMENTS[key](value) if key in ARGUMENTS else {}
            yield key, what, _call(fn, spec, required, value, dtype, extra)
            if "axis" in spec.param_names and not quick:
                bad = {**extra, "axis": value.ndim}
                yield (
                    key,
                    f"{what}, axis={value.ndim}",
                    _call(fn, spec, required, value, dtype, bad),
                )


def _call(
    fn: Callable[..., Any],
    spec: Any,
    required: list[inspect.Parameter],
    value: np.ndarray,
    dtype: Any,
    kwargs: dict[str, Any],
) -> Callable[[], Any]:
    """The case as a call: the input made on the active backend (so that a crash there counts
    too), passed for every array parameter without a default."""

    def call() -> Any:
        x = ivy_like.asarray(value)
        if x.dtype != dtype:
            x = ivy_like.astype(x, dtype)
        args: list[Any] = []
        named = dict(kwargs)
        for p in required:
            item = [x, x] if p.name in spec.sequences else x
            if p.kind is p.VAR_POSITIONAL:
                args.extend(item)
            elif p.kind is p.KEYWORD_ONLY:
                named[p.name] = item
            else:
                args.append(item)
        return fn(*args, **named)

    return call


def _bound(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    return lambda: fn(*args, **kwargs)


def _evaluate(result: Any) -> str:
    """Read every array of ``result`` (a lazy framework, MLX, computes it here, so a crash in
    the computation happens within the case) and say its shapes: ``"(2, 0)"``, or
    ``"(0,); ()"`` for a tuple."""
    if isinstance(result, (tuple, list)):
        return "; ".join(_evaluate(item) for item in result)
    if isinstance(result, ivy_like.Array):
        return str(ivy_like.to_numpy(result).shape)
    return type(result).__name__


# -- the child ----------------------------------------------------------------------------------
def _cases_of(source: str | None) -> Callable[..., Iterator[tuple[str, str, Callable[[], Any]]]]:
    """:func:`cases`, or the function ``source`` names (``"module:function"``)."""
    if source is None:
        return cases
    module, _, name = source.partition(":")
    return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]


def _child(
    backend_name: str,
    start: int,
    ops: Sequence[str] | None,
    quick: bool,
    fd: int,
    source: str | None,
) -> None:
    report = os.fdopen(fd, "w", buffering=1)
    with ivy_like.use_backend(backend_name):
        for i, (key, what, call) in enumerate(_cases_of(source)(backend_name, ops, quick)):
            if i < start:
                continue
            report.write(f"start\t{i}\t{key}\t{what}\n")
            try:
                answer = _evaluate(call())
                outcome = "ok"
            except Exception as error:  # noqa: BLE001 - an answer, counted by its type
                outcome = type(error).__name__
                answer = "raises"
            report.write(f"done\t{i}\t{outcome}\t{answer}\n")
    report.write("end\n")


# -- the parent ---------------------------------------------------------------------------------
def _how(status: int | None, timed_out: bool, timeout: float) -> str:
    if timed_out:
        return f"no answer in {timeout:g} s"
    if status is not None and status < 0:
        try:
            return f"signal {signal.Signals(-status).name}"
        except ValueError:
            return f"signal {-status}"
    return f"exit status {status}"


def _lines(fd: int, timeout: float) -> Iterator[str | None]:
    """The lines the child writes to ``fd``; None when none came for ``timeout`` seconds."""
    pending = b""
    while True:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            yield None
            return
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return
        *complete, pending = (pending + chunk).split(b"\n")
        for line in complete:
            yield line.decode()


def _sweep_backend(
    name: str,
    ops: Sequence[str] | None,
    quick: bool,
    timeout: float,
    source: str | None,
    report: SweepReport,
) -> None:
    start, tried, seen = 0, 0, set()
    outcomes = report.outcomes.setdefault(name, collections.Counter())
    answers = report.answers.setdefault(name, {})
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", "TF_ENABLE_ONEDNN_OPTS": "0"}
    while True:
        read, write = os.pipe()
        command = [sys.executable, "-m", "ivy_like.testing.crash_sweep", "--child", name]
        command += ["--start", str(start), "--fd", str(write)]
        command += ["--quick"] if quick else []
        command += ["--ops", ",".join(ops)] if ops is not None else []
        command += ["--source", source] if source is not None else []
        child = subprocess.Popen(
            command, pass_fds=(write,), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        os.close(write)
        current: tuple[int, str, str] | None = None
        finished = timed_out = False
        try:
            for line in _lines(read, timeout):
                if line is None:
                    timed_out = True
                    child.kill()
                    break
                kind, *rest = line.split("\t")
                if kind == "start":
                    current = (int(rest[0]), rest[1], rest[2])
                    seen.add(rest[1])
                elif kind == "done" and current is not None:
                    tried += 1
                    outcomes[rest[1]] += 1
                    answers[current[1], current[2]] = rest[2]
                    current = None
                elif kind == "end":
                    finished = True
        finally:
            os.close(read)
        _, stderr = child.communicate()
        status = child.returncode
        if finished and status == 0:
            break
        if current is None:  # died outside a case: the sweep itself failed
            raise RuntimeError(
                f"crash_sweep: the {name} child failed ({status}):\n"
                f"{stderr.decode(errors='replace')[-2000:]}"
            )
        index, key, what = current
        tried += 1
        report.crashes.append(Crash(name, key, what, _how(status, timed_out, timeout)))
        start = index + 1
    report.tried[name] = tried
    report.ops[name] = len(seen)


def crash_sweep(
    backends: Sequence[str] | None = None,
    ops: Sequence[str] | None = None,
    quick: bool = False,
    timeout: float = 60.0,
    source: str | None = None,
) -> SweepReport:
    """Run every op (or those of ``ops``, public names such as ``"linalg.inv"``) over the edge
    inputs on each installed backend (or those of ``backends``), one child process at a time.

    ``quick``: five shapes, three dtypes and no bad axes (the subset the test suite runs).
    ``timeout``: seconds one case may take before it counts as a hang. ``source``: your own
    cases instead, ``"module:function"`` with the signature of :func:`cases` (importable in
    a child process: on ``sys.path`` or ``PYTHONPATH``). Returns the :class:`SweepReport`;
    its ``crashes`` name the op, the backend and the input.

    Examples
    --------
    >>> from ivy_like.testing.crash_sweep import crash_sweep
    >>> report = crash_sweep(["numpy"], ops=["linalg.inv"], quick=True)
    >>> report.ok, report.tried["numpy"]
    (True, 15)
    """
    names = list(backends) if backends is not None else ivy_like.available_backends()
    report = SweepReport(not_swept=dict(NOT_SWEPT))
    for name in names:
        _sweep_backend(name, ops, quick, timeout, source, report)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ivy_like.testing.crash_sweep")
    parser.add_argument("--backends", help="comma-separated (default: every installed one)")
    parser.add_argument("--ops", help="comma-separated public names (default: every op)")
    parser.add_argument("--quick", action="store_true", help="the quick subset")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per case")
    parser.add_argument("--source", help="module:function giving your own cases")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--fd", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    ops = args.ops.split(",") if args.ops else None
    if args.child:
        _child(args.child, args.start, ops, args.quick, args.fd, args.source)
        return 0
    began = time.perf_counter()
    backends = args.backends.split(",") if args.backends else None
    report = crash_sweep(backends, ops, args.quick, args.timeout, args.source)
    print(report)
    print(f"\n{time.perf_counter() - began:.0f} s")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())

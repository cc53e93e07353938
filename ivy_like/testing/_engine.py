"""The checks of ``check_function`` on one example: each backend's outcome of each check,
computed when first asked for and kept (the pytest plugin asks for one cell per test).

What is computed once and shared: each backend's eager result on the example (every check
compares with it), the backend the others agree with (it is the reference of ``agree`` and
the finite differences of a backend without float64), and each backend's results on the
batch of distinct examples that ``compile`` and ``vmap`` run over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import transforms as _transforms
from ..core import backend as _backend
from ..core.registry import OPS
from ._compare import _as_numpy
from ._derivatives import CHECKS as DERIVATIVE_CHECKS
from ._derivatives import Derivatives, _error_text, has_float64
from ._diff import first_difference, numpy_leaves
from ._inputs import Example, describe_leaf, variants
from ._report import PASS, Outcome, failed, not_applicable, passed

# The order of the table's columns.
CHECKS = ("agree", "compile", "vmap", *DERIVATIVE_CHECKS, "mutation", "lazy")
DESCRIPTIONS = {
    "agree": "the outputs agree across backends (assert_backends_agree's rules)",
    "compile": "compile(f) gives what f gives, on a batch of distinct examples in turn",
    "vmap": "vmap(f) over a batch of distinct examples equals f on each, stacked",
    "vjp": "reverse mode equals central finite differences in float64",
    "jvp": "forward mode equals central finite differences in float64",
    "vjp2": "reverse over reverse equals second differences in float64",
    "jvp2": "forward over forward equals second differences in float64",
    "transpose": "vjp and jvp are each other's transpose: <vjp(u), v> == <u, jvp(v)>",
    "mutation": "the arguments are unchanged by the call (NumPy's passed read-only)",
    "lazy": "a lazy backend's results are the same with every op evaluated at once (MLX)",
}
# What each item of the batch is, for the messages.
_ITEMS = ("the example", "the example reversed", "the example with random signs and scales")


@dataclass(frozen=True)
class _Item:
    """One example of the batch, and ``f``'s result on it (eager, on the backend)."""

    index: int
    leaves: list[np.ndarray]
    outputs: dict[str, Any]


def _raised(err: BaseException) -> str:
    return f"f raised {_error_text(err)}"


class ExampleRun:
    """Every check of ``f`` on one example, on the backends ``names``."""

    def __init__(
        self,
        f: Callable[..., Any],
        example: Example,
        names: Sequence[str],
        checks: Sequence[str] = CHECKS,
        compiled: Mapping[str, Callable[..., Any]] | None = None,
    ) -> None:
        self.f, self.example, self.names = f, example, list(names)
        self.checks = tuple(checks)  # those that will be asked for: what to compute at once
        # backend -> compile(f) made with other functions (compile_together), for compile
        self.compiled = dict(compiled or {})
        self.backends = {n: _backend.get_backend(n) for n in self.names}
        self._outputs: dict[str, dict[str, Any] | BaseException] = {}
        self._reference: str | None = None
        self._items: dict[str, list[_Item]] = {}
        self._derivatives: dict[str, Derivatives] = {}
        self._cells: dict[tuple[str, str], Outcome] = {}

    # -- shared results -----------------------------------------------------------------------
    def _call(self, b: _backend.Backend, leaves: Sequence[np.ndarray] | None = None) -> Any:
        with _backend.use_backend(b), np.errstate(all="ignore"):
            return numpy_leaves(self.f(*self.example.args(b, leaves)))

    def outputs(self, name: str) -> dict[str, Any] | BaseException:
        """``f``'s result on the example on backend ``name`` (NumPy leaves), or its error."""
        if name not in self._outputs:
            try:
                self._outputs[name] = self._call(self.backends[name])
            except Exception as err:  # noqa: BLE001 - an answer, compared like a result
                self._outputs[name] = err
        return self._outputs[name]

    def raises_everywhere(self) -> BaseException | None:
        """The error of ``f`` when it raises on every backend (the example is not one)."""
        results = [self.outputs(n) for n in self.names]
        if all(isinstance(r, BaseException) for r in results):
            return results[0]  # type: ignore[return-value]
        return None

    def _agree(self, a: str, b: str) -> bool:
        x, y = self.outputs(a), self.outputs(b)
        if isinstance(x, BaseException) or isinstance(y, BaseException):
            return type(x) is type(y)  # the same decided error is the same answer
        return first_difference(x, y) is None

    def reference(self) -> str:
        """The backend that most others agree with (numpy first, then the order given, on a
        tie): a backend that agrees with the majority is never blamed for another's
        difference, whichever backend the oracle would have been."""
        if self._reference is None:
            # A backend that declares it cannot run f (NotImplementedError, with its reason)
            # is no reference, unless none can.
            able = [
                n for n in self.names if not isinstance(self.outputs(n), NotImplementedError)
            ] or self.names
            order = sorted(able, key=lambda n: (n != "numpy", self.names.index(n)))
            support = {n: sum(self._agree(n, m) for m in self.names if m != n) for n in order}
            self._reference = max(order, key=lambda n: (support[n], -order.index(n)))
        return self._reference

    def items(self, name: str) -> list[_Item]:
        """The batch on backend ``name``: the example and its variants, those ``f`` runs on
        (a variant outside the function's domain, on which it raises, is left out)."""
        if name not in self._items:
            out = self.outputs(name)
            assert not isinstance(out, BaseException)
            items = [_Item(0, self.example.leaves, out)]
            for k, leaves in enumerate(variants(self.example.leaves), 1):
                try:
                    items.append(_Item(k, leaves, self._call(self.backends[name], leaves)))
                except Exception:  # noqa: BLE001, S112 - not in f's domain: not in the batch
                    continue
            self._items[name] = items
        return self._items[name]

    def _fd_backend(self, name: str) -> _backend.Backend:
        """Where the finite differences of backend ``name`` are computed: on ``name`` itself
        when it has float64, else on the reference, else on another backend of the run that
        has float64 and runs ``f`` (a function that calls ``grad`` runs nowhere without
        autodiff), else on NumPy."""
        b = self.backends[name]
        if has_float64(b):
            return b
        ref = self.reference()
        for other in [ref] + [n for n in self.names if n != ref]:
            candidate = self.backends[other]
            if has_float64(candidate) and not isinstance(self.outputs(other), BaseException):
                return candidate
        return _backend.get_backend("numpy")

    # -- the cells ------------------------------------------------------------------------------
    def cell(self, name: str, check: str) -> Outcome:
        key = (name, check)
        if key not in self._cells:
            # The special values overflow and divide by zero on purpose: NumPy's warnings
            # about them would bury the report.
            with np.errstate(all="ignore"):
                self._cells[key] = self._compute(name, check)
        return self._cells[key]

    def _compute(self, name: str, check: str) -> Outcome:
        if check == "agree":
            return self._check_agree(name)
        out = self.outputs(name)
        if isinstance(out, BaseException):
            return not_applicable(f"{_raised(out)} on the example (see agree)")
        b = self.backends[name]
        if check in DERIVATIVE_CHECKS:
            if name not in self._derivatives:
                self._derivatives[name] = Derivatives(
                    self.f, self.example, b, out, self._fd_backend(name), self.checks
                )
            return self._derivatives[name].check(check)
        method: Callable[[_backend.Backend], Outcome] = getattr(self, f"_check_{check}")
        with _backend.use_backend(b):
            return method(b)

    def _check_agree(self, name: str) -> Outcome:
        if len(self.names) == 1:
            return not_applicable("one backend: nothing to compare with")
        ref = self.reference()
        with_ref = [n for n in self.names if n not in (name, ref) and self._agree(n, ref)]
        if name == ref or self._agree(name, ref):
            return passed()
        unsupported = self.outputs(name)
        if isinstance(unsupported, NotImplementedError):
            return not_applicable(f"{name} does not support f: {_error_text(unsupported)}")
        also = (
            f" ({', '.join(with_ref)} {'agrees' if len(with_ref) == 1 else 'agree'} with it)"
            if with_ref
            else ""
        )
        got, want = self.outputs(name), self.outputs(ref)
        if isinstance(got, BaseException):
            answer = (
                f"raises {_error_text(want)}"
                if isinstance(want, BaseException)
                else ("returns a result")
            )
            return failed(f"{_raised(got)} where {ref} {answer}{also}", error=got)
        if isinstance(want, BaseException):
            return failed(f"f returned a result where {ref} raises {_error_text(want)}{also}")
        d = first_difference(got, want)
        assert d is not None
        return failed(f"differs from {ref}{also}: {d.message}", d.size, d.where)

    def _check_compile(self, b: _backend.Backend) -> Outcome:
        def probe() -> list[Any]:
            return []

        if b.compile_leaves(probe) is probe:
            return not_applicable(f"{b.name} has no compiler (compile returns the function)")
        shared = self.compiled.get(b.name)
        if shared is not None:
            # compile(f) compiled with other functions: its pass is f's; anything else is
            # checked again with f's own compile, so that a finding is f's alone.
            outcome = self._compiled_gives_f(b, shared)
            if outcome.status == PASS:
                return outcome
        return self._compiled_gives_f(b, _transforms.compile(self.f))

    def _compiled_gives_f(self, b: _backend.Backend, compiled: Callable[..., Any]) -> Outcome:
        # One compiled function for the whole batch: traced on the first item, it must give
        # each item's own result (a branch taken at tracing time is not).
        for item in self.items(b.name):
            try:
                got = numpy_leaves(compiled(*self.example.args(b, item.leaves)))
            except NotImplementedError as err:  # a capability the backend says it lacks
                return not_applicable(_error_text(err))
            except Exception as err:  # noqa: BLE001 - the check's finding
                return failed(
                    f"compile(f) raised {_error_text(err)} on {_ITEMS[item.index]}", error=err
                )
            d = first_difference(got, item.outputs)
            if d is not None:
                return failed(
                    f"compile(f) differs from f on {_ITEMS[item.index]}: {d.message}",
                    d.size,
                    d.where,
                )
        return passed()

    def _check_vmap(self, b: _backend.Backend) -> Outcome:
        if not self.example.leaves:
            return not_applicable("no array argument to map over")
        items = self.items(b.name)
        paths = list(items[0].outputs)
        want: dict[str, Any] = {}
        for p in paths:
            values = [item.outputs[p] for item in items]
            if not all(isinstance(v, np.ndarray) for v in values):
                if all(v == values[0] for v in values):  # a constant: vmap passes it through
                    want[p] = values[0]
                    continue
                return failed(
                    f"f returns Python values that differ between examples ({values!r}), "
                    f"which vmap cannot batch"
                )
            if len({v.shape for v in values}) > 1:
                return not_applicable(
                    "f's outputs on the batch's examples have different shapes (they depend "
                    "on the values), so they cannot be stacked"
                )
            want[p] = np.stack(values)
        batch = [np.stack([item.leaves[j] for item in items]) for j in range(len(items[0].leaves))]
        mapped = _transforms.vmap(self.f, in_axes=self.example.in_axes())
        try:
            got = numpy_leaves(mapped(*self.example.args(b, batch)))
        except NotImplementedError as err:  # a capability the backend says it lacks
            return not_applicable(_error_text(err))
        except Exception as err:  # noqa: BLE001 - the check's finding
            return failed(f"vmap(f) raised {_error_text(err)}", error=err)
        d = first_difference(got, want)
        if d is None:
            return passed()
        n = len(items)
        return failed(
            f"vmap(f) over a batch of {n} differs from f on each item (batch index first): "
            f"{d.message}",
            d.size,
            d.where,
        )

    def _check_mutation(self, b: _backend.Backend) -> Outcome:
        # Where the backend's arrays are NumPy's, a write into a read-only copy raises at the
        # write itself; elsewhere (torch, MXNet, an Array rebound by out=) the arguments are
        # compared after the call with what they were.
        read_only = isinstance(b.asarray(np.zeros(1, np.float32)), np.ndarray)
        args = self.example.args(b, read_only=read_only)
        try:
            self.f(*args)
        except Exception as err:  # noqa: BLE001 - the check's finding
            if read_only:
                return failed(
                    f"f writes into an argument: with read-only NumPy arguments it raised "
                    f"{_error_text(err)}",
                    error=err,
                )
            return failed(f"{_raised(err)} when called again with the same arguments", error=err)
        changed = self.example.same_structure(args)
        if changed:
            return failed(f"f changed its arguments: {changed}")
        for i, (leaf, before) in enumerate(zip(self.example.leaves_of(args), self.example.leaves)):
            after = np.asarray(_as_numpy(leaf))
            if after.shape != before.shape or after.dtype != before.dtype:
                return failed(
                    f"f changed {describe_leaf(self.example, i)}: {before.dtype}{before.shape} "
                    f"became {after.dtype}{after.shape}"
                )
            same = (after == before) | ((after != after) & (before != before))
            if before.dtype.kind in "fc":
                same &= np.signbit(np.real(after)) == np.signbit(np.real(before))
            if not same.all():
                idx = tuple(int(n) for n in np.argwhere(~same)[0])
                where = describe_leaf(self.example, i)
                diff = None
                if before.dtype.kind in "iufc":
                    diff = float(np.abs(after[idx].astype(np.complex128) - before[idx]))
                return failed(
                    f"f wrote into {where}: at {idx} {before[idx].item()!r} became "
                    f"{after[idx].item()!r} ({int((~same).sum())} element(s) changed)",
                    diff,
                    f"{where} {idx}",
                )
        return passed()

    def _check_lazy(self, b: _backend.Backend) -> Outcome:
        if b.name not in _LAZY:
            return not_applicable("evaluates eagerly (only MLX evaluates lazily)")
        with _evaluating_each_op(b):
            try:
                got = self._call(b)
            except Exception as err:  # noqa: BLE001 - the check's finding
                return failed(f"{_raised(err)} with every op evaluated at once", error=err)
        want = self.outputs(b.name)
        assert not isinstance(want, BaseException)
        d = first_difference(got, want)
        if d is None:
            return passed()
        return failed(
            f"with every op evaluated at once f gives another result than evaluated lazily: "
            f"{d.message}",
            d.size,
            d.where,
        )


def _mlx_evaluate(result: Any) -> None:
    import mlx.core as mx

    leaves = result if isinstance(result, (list, tuple)) else [result]
    arrays = [x for x in leaves if isinstance(x, mx.array)]
    if not arrays:
        return
    try:
        mx.eval(*arrays)
    except ValueError as err:
        # Arrays traced by mx.compile (or batched by mx.vmap) have no values to force, and
        # there the order of evaluation is MLX's alone: nothing to check.
        if "during function transformations" not in str(err):
            raise


# The lazy backends, and how each evaluates a kernel's result.
_LAZY: dict[str, Callable[[Any], None]] = {"mlx": _mlx_evaluate}


@contextmanager
def _evaluating_each_op(b: _backend.Backend) -> Iterator[None]:
    """Every kernel of ``b`` evaluates its result before returning, for the time of the
    block. The generated op functions call ``backend.<kernel>``, and a Backend forgets what
    they remembered whenever one of its attributes is set, so replacing the attributes (and
    putting them back) reaches every op; other threads using ``b`` meanwhile see it too."""
    evaluate = _LAZY[b.name]
    names = sorted({spec.backend_name for spec in OPS.values()} & set(vars(b)))
    saved = {n: vars(b)[n] for n in names}

    def evaluating(kernel: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            result = kernel(*args, **kwargs)
            evaluate(result)
            return result

        return run

    try:
        for n in names:
            setattr(b, n, evaluating(saved[n]))
        yield
    finally:
        for n in names:
            setattr(b, n, saved[n])

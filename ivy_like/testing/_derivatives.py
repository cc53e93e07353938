"""The derivative checks of ``check_function``: each backend's reverse and forward mode, first
and second order, against central finite differences computed in float64, and vjp against jvp.

As ``jax.test_util.check_grads``: random cotangents ``u`` and tangents ``v``, ``w`` (the
same on every backend), the derivative of the function by automatic differentiation in the
arguments' own dtype, and the same quantity from finite differences of the function run with
float64 arguments:

* ``vjp``: ``vjp(f)(u)``, element by element (up to 32 of them), against the central
  difference of ``<u, f(x)>`` along each element;
* ``jvp``: ``jvp(f)(v)`` against ``(f(x + h v) - f(x - h v)) / 2h``;
* ``vjp2``: ``vjp`` of ``x -> vjp(f)(u)`` along ``w`` (reverse over reverse), element by
  element (up to 16), against the mixed second difference of ``<u, f(x)>``;
* ``jvp2``: ``jvp`` of ``x -> jvp(f)(v)`` along ``w`` (forward over forward) against the
  mixed second difference of ``f``;
* ``transpose``: ``<vjp(f)(u), v> == <u, jvp(f)(v)>``, both by automatic differentiation.

Finite differences run on the backend itself where it computes float64 to double precision,
else on the backend the others agree with (JAX without ``jax_enable_x64``, MLX), so a backend
is compared with its own function. Steps are proportional to each element's size, second
differences are taken at two steps and combined (Richardson). An element where the one-sided
differences (or the two steps) disagree (a kink: ``abs`` at 0, a step) or a difference is not
finite is left out: there is no derivative there to compare. Tolerances are
``jax.test_util``'s for gradients, scaled by the largest derivative, plus the estimated
rounding of the finite differences. A transform the backend declares it lacks
(``NotImplementedError``: NumPy's autodiff, MXNet's forward mode) makes the check not
applicable; any other error fails it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import transforms as _transforms
from ..core import backend as _backend
from ..core import dtypes as _dtypes
from ._compare import _leaves
from ._diff import label, numpy_leaves
from ._inputs import Example, describe_leaf
from ._report import Outcome, failed, not_applicable, passed

CHECKS = ("vjp", "jvp", "vjp2", "jvp2", "transpose")
_AD = ("vjp", "jvp", "vjp2", "jvp2")  # the derivatives computed by automatic differentiation
# jax.test_util's default_gradient_tolerance, by floating width (rtol = atol)
GRAD_TOLERANCE = {16: 1e-2, 32: 2e-3, 64: 1e-5}
# Steps in float64, relative to each element's size: the error of a central difference is
# ~h**2 f''' + eps |f| / h, of a second difference ~h**2 f'''' + eps |f| / h**2. The rounding
# part is estimated from the values and added to the tolerance: where the outputs are large
# next to the step (x + 4e8), finite differences resolve little, and nothing is blamed on
# what they cannot resolve.
H1, H2 = 1e-5, 1e-4
_EPS = 16 * float(np.finfo(np.float64).eps)  # a few roundings inside f
MAX_ELEMENTS, MAX_ELEMENTS_2 = 32, 16  # elements checked by finite differences per example
_SEED = 20240607
# The derivatives each backend computes compiled (falling back to eager when ``f`` does not
# compile): JAX's eager mode compiles every op of every new shape on its own, so all four;
# TensorFlow's nested forward accumulators are slow eagerly (jvp of jvp: 0.3 s for one op),
# but tracing costs more than the other three take eagerly (measured over 14 ops of the
# registry: 5.8 s all compiled, 2.9 s with jvp2 alone). Compiling costs torch seconds
# (Inductor) and gains MLX nothing.
COMPILED_DERIVATIVES: dict[str, tuple[str, ...]] = {
    "jax": ("vjp", "jvp", "vjp2", "jvp2"),
    "tensorflow": ("jvp2",),
}


_FLOAT64: dict[str, str] = {}


def float64_problem(backend: _backend.Backend) -> str:
    """Why ``backend`` cannot take finite differences in float64 ("" when it can): no
    float64 (JAX without ``jax_enable_x64``), or a float64 not computed to double precision
    (MLX's transcendental functions are float32's: ``exp`` is off by ~1e-7, which would make
    finite differences noise; a few functions are compared with NumPy's once)."""
    name = backend.name
    if name not in _FLOAT64:
        problem = ""
        if _dtypes.float64 not in backend._dtype_to_native:
            problem = f"{name} has no float64"
        else:
            x = np.array([0.3, 1.7, -2.2])
            try:
                with _backend.use_backend(backend):
                    native = backend.asarray(x)
                    got = [backend.to_numpy(getattr(backend, op)(native)) for op in _PROBES]
                exact = all(
                    np.allclose(g, getattr(np, op)(x), rtol=1e-13, atol=0)
                    for g, op in zip(got, _PROBES)
                )
            except Exception:  # noqa: BLE001 - a backend that cannot: not exact
                exact = False
            if not exact:
                problem = f"{name}'s float64 is not computed to double precision"
        _FLOAT64[name] = problem
    return _FLOAT64[name]


def has_float64(backend: _backend.Backend) -> bool:
    """Can ``backend`` take finite differences in float64 (see :func:`float64_problem`)?"""
    return not float64_problem(backend)


_PROBES = ("exp", "sin", "tanh", "expm1")


def _error_text(err: BaseException) -> str:
    """The exception's type and the first line of its message that says something (MXNet's
    start with a C++ traceback)."""
    lines = [
        line.strip()
        for line in str(err).splitlines()
        if line.strip() and not line.strip().startswith(("Traceback", "File ", "["))
    ]
    name = type(err).__name__
    text = lines[0].removeprefix(f"{name}: ") if lines else ""
    return f"{name}: {text[:240]}" if text else name


def _smooth(a: Any, b: Any, tol: Any) -> Any:
    """Do two estimates of one derivative (one-sided differences, or two step sizes) agree
    well enough for it to exist? Not where they are not finite."""
    a, b = np.asarray(a), np.asarray(b)
    with np.errstate(invalid="ignore", over="ignore"):
        close = np.abs(a - b) <= 0.1 * np.maximum(np.abs(a), np.abs(b)) + tol
    return np.isfinite(a) & np.isfinite(b) & close


def _richardson(coarse: Any, fine: Any) -> Any:
    """Two second differences (steps h and h/2) combined to cancel their h**2 error (a
    function that turns fast, sin(1000 x), is off by a percent at h alone)."""
    with np.errstate(all="ignore"):
        return (4 * np.asarray(fine) - np.asarray(coarse)) / 3


class Derivatives:
    """The derivative checks of one backend on one example; the automatic derivatives that
    two checks share (``transpose`` reuses ``vjp``'s and ``jvp``'s) are computed once."""

    def __init__(
        self,
        f: Callable[..., Any],
        example: Example,
        backend: _backend.Backend,
        outputs: dict[str, Any],
        fd_backend: _backend.Backend,
        checks: Sequence[str] = CHECKS,
    ) -> None:
        self.f, self.example, self.backend, self.fd_backend = f, example, backend, fd_backend
        # The automatic derivatives the checks asked for need (transpose: vjp's and jvp's).
        wanted = set(checks) | ({"vjp", "jvp"} if "transpose" in checks else set())
        self.wanted = tuple(name for name in _AD if name in wanted)
        self.diff = [i for i, x in enumerate(example.leaves) if x.dtype.kind == "f"]
        self.paths = [
            p for p, v in outputs.items() if isinstance(v, np.ndarray) and v.dtype.kind == "f"
        ]
        self.outputs = [outputs[p] for p in self.paths]
        self.why_not = self._why_not()
        if self.why_not:
            return
        widths = [example.leaves[i].dtype.itemsize * 8 for i in self.diff]
        self.tol = GRAD_TOLERANCE.get(min(widths), GRAD_TOLERANCE[32])
        self.x = [example.leaves[i] for i in self.diff]
        # Each element moves in proportion to its size (a step of 1e-5 is below float64's
        # resolution at 4e11): tangents are scaled by max(1, |x|), for automatic and finite
        # differences alike, and so is each element's own step in vjp; capped, so that a
        # tangent stays finite in the argument's dtype.
        self.scale = [
            np.minimum(np.maximum(1.0, np.abs(x.astype(np.float64))), np.finfo(x.dtype).max / 8)
            for x in self.x
        ]
        rng = np.random.default_rng(_SEED)

        def normal(shape: tuple[int, ...]) -> np.ndarray:
            return np.clip(rng.standard_normal(shape), -4.0, 4.0)

        self.u = [normal(o.shape).astype(o.dtype) for o in self.outputs]
        self.v = [(normal(x.shape) * s).astype(x.dtype) for x, s in zip(self.x, self.scale)]
        self.w = [(normal(x.shape) * s).astype(x.dtype) for x, s in zip(self.x, self.scale)]
        self.coordinates = [(i, k) for i, x in enumerate(self.x) for k in range(x.size)]
        self._ad: dict[str, Any] = {}
        self._base: list[np.ndarray] | None = None

    def _why_not(self) -> str:
        b = self.backend
        if not b.has_autodiff:
            return f"{b.name} has no automatic differentiation"
        if not self.diff:
            return "no floating-point argument to differentiate"
        if not self.paths:
            return "no floating-point output to differentiate"
        if any(not np.isfinite(self.example.leaves[i]).all() for i in self.diff):
            return "an argument is not finite (inf or NaN): no derivative to compare there"
        if any(not np.isfinite(o).all() for o in self.outputs):
            return "an output is not finite (inf or NaN): no derivative to compare there"
        return ""

    # -- the function as the transforms see it ------------------------------------------------
    def _g(self, backend: _backend.Backend) -> Callable[..., list[Any]]:
        """``f`` as a function of the differentiated leaves, returning its floating outputs."""
        f, example, diff, paths = self.f, self.example, self.diff, self.paths

        def g(*xs: Any) -> list[Any]:
            leaves = dict(_leaves(f(*example.args(backend, given=dict(zip(diff, xs))))))
            return [leaves[p] for p in paths]

        return g

    def _native(self, values: Sequence[np.ndarray]) -> list[Any]:
        return [self.backend.asarray(np.array(v, copy=True)) for v in values]

    def _derivative(self, which: str) -> Callable[..., list[Any]]:
        """``vjp``/``jvp``/``vjp2``/``jvp2`` of ``f`` as a function of the arrays ``x``, ``u``,
        ``v``, ``w`` (one list each)."""
        g = self._g(self.backend)

        def derivative(x: list[Any], u: list[Any], v: list[Any], w: list[Any]) -> list[Any]:
            if which == "vjp":
                return _transforms.vjp(g, x, u)[1]
            if which == "jvp":
                return _transforms.jvp(g, x, v)[1]
            if which == "vjp2":
                return _transforms.vjp(lambda *xs: _transforms.vjp(g, list(xs), u)[1], x, w)[1]
            return _transforms.jvp(lambda *xs: _transforms.jvp(g, list(xs), v)[1], x, w)[1]

        return derivative

    def _ad_result(self, which: str) -> list[np.ndarray] | BaseException:
        """``vjp``/``jvp``/``vjp2``/``jvp2`` by automatic differentiation, as float64 arrays
        (or the error it raised)."""
        b = self.backend
        compiled = COMPILED_DERIVATIVES.get(b.name, ())
        alone = which in compiled  # compile it on its own before falling back to eager
        if which in compiled and not any(name in self._ad for name in compiled):
            # One compiled function for those asked for: one trace and one compilation.
            names = [name for name in self.wanted if name in compiled] or [which]
            # A group of one is that compilation already (TensorFlow's jvp2): where it
            # raises, compiling it again raises again (IndexError in TensorFlow's nested
            # forward accumulators, for 28 ops of the registry), so eager comes next.
            alone = names != [which]
            parts = {name: self._derivative(name) for name in names}

            def together(*arrays: list[Any]) -> dict[str, list[Any]]:
                return {name: part(*arrays) for name, part in parts.items()}

            found = self._attempt(_transforms.compile(together))
            if isinstance(found, dict):
                self._ad.update({name: self._as_numpy(found[name]) for name in parts})
        if which not in self._ad:
            found = None
            derivative = self._derivative(which)
            if alone:
                found = self._attempt(_transforms.compile(derivative))
            if found is None or isinstance(found, BaseException):
                found = self._attempt(derivative)  # f may not compile: that is compile's check
            self._ad[which] = found if isinstance(found, BaseException) else self._as_numpy(found)
        return self._ad[which]  # type: ignore[no-any-return]

    def _attempt(self, derivative: Callable[..., Any]) -> Any:
        """``derivative(x, u, v, w)`` on the backend, or the error it raised."""
        with _backend.use_backend(self.backend):
            arrays = [self._native(t) for t in (self.x, self.u, self.v, self.w)]
            try:
                return derivative(*arrays)
            except Exception as err:  # noqa: BLE001 - a transform that raises fails its check
                return err

    @staticmethod
    def _as_numpy(values: list[Any]) -> list[np.ndarray]:
        return [np.asarray(numpy_leaves(t)["<result>"], dtype=np.float64) for t in values]

    def _fd(self, xs: Sequence[np.ndarray]) -> list[np.ndarray]:
        """The floating outputs of ``f`` at ``xs`` (float64) on the finite-difference backend."""
        b = self.fd_backend
        with _backend.use_backend(b), np.errstate(all="ignore"):
            out = self._g(b)(*(b.asarray(np.array(x, dtype=np.float64)) for x in xs))
        return [np.asarray(numpy_leaves(o)["<result>"]) for o in out]

    def _fd_base(self) -> list[np.ndarray] | str:
        """``f`` at the example in float64, or why finite differences cannot be taken."""
        if self._base is None:
            try:
                base = self._fd(self.x)
            except Exception as err:  # noqa: BLE001 - reported as the reason
                return (
                    f"f raised on float64 arguments on {self.fd_backend.name}: {_error_text(err)}"
                )
            if any(o.dtype != np.float64 for o in base):
                return (
                    f"f does not compute in float64 on {self.fd_backend.name} (float64 "
                    f"arguments give {', '.join(sorted({str(o.dtype) for o in base}))} results)"
                )
            self._base = base
        return self._base

    def _phi(self, outs: Sequence[np.ndarray]) -> tuple[float, float]:
        """``<u, outs>``, and the sum of its terms' magnitudes (the scale of its rounding)."""
        with np.errstate(all="ignore"):
            terms = [o * u.astype(np.float64) for o, u in zip(outs, self.u)]
            total = float(sum(np.sum(t) for t in terms))
            return total, float(sum(np.sum(np.abs(t)) for t in terms))

    def _moved(self, steps: Sequence[tuple[float, Sequence[np.ndarray]]]) -> list[np.ndarray]:
        """``x + sum(h * d for h, d in steps)`` in float64, elements that do not move left as
        they are (``-0.0 + 0.0`` is ``0.0``: a function of the sign of a zero would jump)."""
        out = [x.astype(np.float64) for x in self.x]
        for h, d in steps:
            out = [
                np.where(t == 0, o, o + h * np.asarray(t, dtype=np.float64)) for o, t in zip(out, d)
            ]
        return out

    def _unit(self, i: int, k: int) -> tuple[list[np.ndarray], float]:
        """Element ``k`` of leaf ``i`` as a direction of its own scale, and that scale."""
        e = [np.zeros(x.shape) for x in self.x]
        size = float(self.scale[i].reshape(-1)[k])
        e[i].reshape(-1)[k] = size
        return e, size

    def _chosen(self, limit: int) -> list[tuple[int, int]]:
        if len(self.coordinates) <= limit:
            return self.coordinates
        rng = np.random.default_rng(_SEED + limit)
        picked = sorted(rng.choice(len(self.coordinates), size=limit, replace=False))
        return [self.coordinates[int(j)] for j in picked]

    # -- the checks ---------------------------------------------------------------------------
    def check(self, name: str) -> Outcome:
        if self.why_not:
            return not_applicable(self.why_not)
        if name == "transpose":
            return self._transpose()
        got = self._ad_result(name)
        if isinstance(got, NotImplementedError):  # a capability the backend says it lacks
            return not_applicable(_error_text(got))
        if isinstance(got, BaseException):
            return failed(f"{name} raised {_error_text(got)}", error=got)
        base = self._fd_base()
        if isinstance(base, str):
            return not_applicable(base)
        if name == "vjp":
            return self._vjp(got, base)
        if name == "jvp":
            return self._jvp(got, base)
        if name == "vjp2":
            return self._vjp2(got)
        return self._jvp2(got)

    def _vjp(self, got: list[np.ndarray], base: list[np.ndarray]) -> Outcome:
        phi0, abs0 = self._phi(base)
        expected: dict[tuple[int, int], tuple[float, float]] = {}
        for i, k in self._chosen(MAX_ELEMENTS):
            e, size = self._unit(i, k)
            plus, abs_plus = self._phi(self._fd(self._moved([(H1, e)])))
            minus, abs_minus = self._phi(self._fd(self._moved([(-H1, e)])))
            step = H1 * size
            rounding = _EPS * (abs_plus + abs_minus + 2 * abs0) / step
            if _smooth((plus - phi0) / step, (phi0 - minus) / step, self.tol + rounding):
                expected[i, k] = ((plus - minus) / (2 * step), rounding)
        return self._compare_elements("vjp(u)", got, expected)

    def _vjp2(self, got: list[np.ndarray]) -> Outcome:
        expected: dict[tuple[int, int], tuple[float, float]] = {}

        def second(e: list[np.ndarray], h: float, size: float) -> tuple[float, float]:
            corners = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
            values = [
                self._phi(self._fd(self._moved([(a * h, e), (c * h, self.w)]))) for a, c in corners
            ]
            (p, pa), (q, qa), (r, ra), (t, ta) = values
            denominator = 4 * h * h * size
            return (p - q - r + t) / denominator, _EPS * (pa + qa + ra + ta) / denominator

        for i, k in self._chosen(MAX_ELEMENTS_2):
            e, size = self._unit(i, k)
            (coarse, _), (fine, rounding) = second(e, H2, size), second(e, H2 / 2, size)
            if _smooth(coarse, fine, self.tol + rounding):
                expected[i, k] = (_richardson(coarse, fine), rounding)
        return self._compare_elements("the vjp of vjp(u) along w", got, expected)

    def _compare_elements(
        self,
        what: str,
        got: list[np.ndarray],
        expected: dict[tuple[int, int], tuple[float, float]],
    ) -> Outcome:
        """``got`` (automatic, one per argument leaf) against finite differences (with their
        rounding) at the elements where the derivative exists."""
        if not expected:
            return not_applicable(_NOT_DIFFERENTIABLE)
        keys = list(expected)
        want = np.array([expected[key][0] for key in keys])
        rounding = np.array([expected[key][1] for key in keys])
        have = np.array([got[i].reshape(-1)[k] for i, k in keys])
        atol = self.tol * max(1.0, float(np.max(np.abs(want))))
        with np.errstate(invalid="ignore"):
            bad = ~(np.abs(have - want) <= atol + rounding + self.tol * np.abs(want))
        if not bad.any():
            return passed()
        err = np.where(bad, np.nan_to_num(np.abs(have - want), nan=np.inf), -1.0)
        j = int(np.argmax(err))
        i, k = keys[j]
        idx = tuple(int(n) for n in np.unravel_index(k, self.x[i].shape))
        leaf = describe_leaf(self.example, self.diff[i])
        where = str(idx) if len(self.diff) == 1 else f"{leaf} {idx}"
        return failed(
            f"{what} at {leaf} {idx}: {have[j]:.6g} where finite differences give "
            f"{want[j]:.6g}; {int(bad.sum())} of {len(keys)} element(s) out of tolerance "
            f"(rtol {self.tol:g}, atol {atol:.3g}){self._fd_note()}",
            float(err[j]),
            where,
        )

    def _fd_note(self) -> str:
        if self.fd_backend is self.backend:
            return ""
        return f"; finite differences on {self.fd_backend.name}, as {float64_problem(self.backend)}"

    def _jvp(self, got: list[np.ndarray], base: list[np.ndarray]) -> Outcome:
        plus = self._fd(self._moved([(H1, self.v)]))
        minus = self._fd(self._moved([(-H1, self.v)]))
        with np.errstate(all="ignore"):
            want = [(p - m) / (2 * H1) for p, m in zip(plus, minus)]
            rounding = [
                _EPS * (np.abs(p) + np.abs(m) + 2 * np.abs(b0)) / H1
                for p, m, b0 in zip(plus, minus, base)
            ]
            ok = [
                _smooth((p - b0) / H1, (b0 - m) / H1, self.tol + r)
                for p, m, b0, r in zip(plus, minus, base, rounding)
            ]
        return self._compare_outputs("jvp(v)", got, want, rounding, ok)

    def _jvp2(self, got: list[np.ndarray]) -> Outcome:
        def second(h: float) -> tuple[list[np.ndarray], list[np.ndarray]]:
            corners = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
            values = [self._fd(self._moved([(a * h, self.v), (c * h, self.w)])) for a, c in corners]
            with np.errstate(all="ignore"):
                estimate = [(p - q - r + s) / (4 * h * h) for p, q, r, s in zip(*values)]
                rounding = [
                    _EPS * (abs(p) + abs(q) + abs(r) + abs(s)) / (4 * h * h)
                    for p, q, r, s in zip(*values)
                ]
            return estimate, rounding

        (coarse, _), (fine, rounding) = second(H2), second(H2 / 2)
        ok = [_smooth(c, f, self.tol + r) for c, f, r in zip(coarse, fine, rounding)]
        best = [_richardson(c, f) for c, f in zip(coarse, fine)]
        return self._compare_outputs("the jvp of jvp(v) along w", got, best, rounding, ok)

    def _compare_outputs(
        self,
        what: str,
        got: list[np.ndarray],
        want: list[np.ndarray],
        rounding: list[np.ndarray],
        ok: list[np.ndarray],
    ) -> Outcome:
        """``got`` (automatic, one per output) against ``want`` where ``ok`` (smooth)."""
        if not any(m.any() for m in ok):
            return not_applicable(_NOT_DIFFERENTIABLE)
        for j, (g, w) in enumerate(zip(got, want)):
            if g.shape != w.shape:  # a derivative rule of the wrong shape: the check's finding
                path = label(self.paths[j])
                return failed(
                    f"{what} at output {path or j}: shaped {g.shape} where the output is "
                    f"shaped {w.shape}{self._fd_note()}"
                )
        scale = max(float(np.max(np.abs(w[m]), initial=0.0)) for w, m in zip(want, ok))
        atol = self.tol * max(1.0, scale)
        worst: tuple[float, int, tuple[int, ...]] | None = None
        count = total = 0
        for j, (g, w, r, m) in enumerate(zip(got, want, rounding, ok)):
            with np.errstate(invalid="ignore"):
                bad = m & ~(np.abs(g - w) <= atol + r + self.tol * np.abs(w))
            count += int(bad.sum())
            total += int(m.sum())
            if bad.any():
                err = np.where(bad, np.nan_to_num(np.abs(g - w), nan=np.inf), -1.0)
                idx = tuple(int(n) for n in np.unravel_index(int(np.argmax(err)), err.shape))
                if worst is None or err[idx] > worst[0]:
                    worst = (float(err[idx]), j, idx)
        if worst is None:
            return passed()
        size, j, idx = worst
        path = label(self.paths[j])
        where = f"{path} {idx}" if path else str(idx)
        return failed(
            f"{what} at output {where}: {got[j][idx]:.6g} where finite differences give "
            f"{want[j][idx]:.6g}; {count} of {total} element(s) out of tolerance "
            f"(rtol {self.tol:g}, atol {atol:.3g}){self._fd_note()}",
            size,
            where,
        )

    def _transpose(self) -> Outcome:
        back, forward = self._ad_result("vjp"), self._ad_result("jvp")
        for name, got in (("vjp", back), ("jvp", forward)):
            if isinstance(got, NotImplementedError):
                return not_applicable(_error_text(got))
            if isinstance(got, BaseException):
                return failed(f"{name} raised {_error_text(got)}", error=got)
        assert not isinstance(back, BaseException) and not isinstance(forward, BaseException)
        with np.errstate(all="ignore"):
            terms_b = [g * v.astype(np.float64) for g, v in zip(back, self.v)]
            terms_f = [u.astype(np.float64) * t for u, t in zip(self.u, forward)]
            left = float(sum(np.sum(t) for t in terms_b))
            right = float(sum(np.sum(t) for t in terms_f))
            scale = float(sum(np.sum(np.abs(t)) for t in terms_b + terms_f))
        if not np.isfinite([left, right, scale]).all():
            return not_applicable("the derivatives are not finite here (NaN or overflow)")
        if abs(left - right) <= self.tol * scale + 1e-12:
            return passed()
        return failed(
            f"<vjp(u), v> = {left:.6g} but <u, jvp(v)> = {right:.6g} (tolerance "
            f"{self.tol:g} of {scale:.3g}, the sum of the products' magnitudes): vjp and jvp "
            f"are not each other's transpose",
            abs(left - right),
        )


_NOT_DIFFERENTIABLE = "not differentiable at the example (one-sided differences differ)"

"""Tracing a Flax module to a jaxpr and writing it as one generated ivy_like function.

:func:`trace` records what a Flax module computes with ``jax.make_jaxpr`` (linen:
``module.apply(variables, *args)``; nnx: ``nnx.merge(graphdef, state)(*args)`` on a copy in
eval mode), inlines the calls (``jit``, ``custom_jvp_call``, ``custom_vjp_call``, ``remat``,
``closed_call``), folds what depends only on constants (``iota``, arithmetic on literals) with
jax itself, and writes one Python function for the rest: a line per equation, calling the
primitive's ivy_like function from the table in ``primitives.py``, with the primitive and the
user code it came from in a comment. Control flow (``cond``, ``while``, ``scan``) keeps its
sub-jaxprs as nested functions run by ``ivy_like.cond``/``while_loop``/``scan``
(``control.py``). With dynamic dimensions (``symbolic.py``) the module is traced with jax's
symbolic shapes and every size that depends on them is computed from the inputs' sizes at run
time; the model is then run once at larger sizes against jax before it is returned. The source is compiled through ``core.codegen``, so
tracebacks show the equation. The result is a ``JaxprModel`` (``jaxpr_model.py``). Only
:func:`trace` imports jax and Flax (when called).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

import ivy_like as il

from ...container import Container
from ...core.backend import current_backend, get_backend
from .._captured import Generated, compile_generated
from .._errors import UnsupportedOpError
from .._weights import move
from . import primitives, symbolic  # noqa: F401 - primitives: imported for its registrations
from ._table import (
    ARITY,
    CONTROL,
    IDENTITY,
    INLINE,
    PRIMITIVES,
    REASONS,
    SCALARS,
    STATIC,
    Eqn,
    Refused,
    is_symbolic,
    size,
    supported_primitives,
)
from .control import run_cond, run_scan, run_while
from .jaxpr_model import JaxprModel

_FOLD_LIMIT = 1 << 16  # elements: larger constant results are computed at run time


# -- tracing and code generation -------------------------------------------------------------------
class _Param:
    """A variable of the module: loaded from ``__P`` when an equation first reads it."""

    def __init__(self, key: str) -> None:
        self.key = key


class _Writer:
    """The generated function's lines, its globals, and where each jaxpr variable lives: a
    local name (str), a variable of the module (:class:`_Param`) or a value known at
    conversion (a NumPy array)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lines: list[str] = []
        self.reads: list[set[str]] = []  # the local names each line reads
        self.targets: list[tuple[str, ...]] = []  # and those it assigns
        self.globals: dict[str, Any] = {"__builtins__": __builtins__}
        self.refs: dict[Any, str] = {}
        self.params: list[str] = []  # key chains in the order of first use
        self.param_names: dict[str, str] = {}
        self.constants: list[tuple[Any, Any]] = []
        self.const_ids: dict[int, str] = {}
        self.keep: list[Any] = []  # the arrays whose ids key const_ids stay alive
        self.used: set[str] = set()
        self.count = 0
        # locals computed from the inputs' sizes only (never their values), and the axis of
        # the locals that are positions along it (an iota): what some handlers may rely on
        self.sized: set[str] = set()
        self.iotas: dict[str, int] = {}

    def fresh(self) -> str:
        self.count += 1
        return f"v{self.count}"

    def ref(self, obj: Any, hint: str) -> str:
        key = hint if isinstance(obj, float) else (hint, id(obj))  # a float's id is reused
        hit = self.refs.get(key)
        if hit is None:
            hit = hint
            while hit in self.globals:
                hit += "_"
            self.globals[hit] = obj
            self.refs[key] = hit
        return hit

    def literal(self, v: Any) -> str:
        if v is None or isinstance(v, (bool, int, str)):
            return repr(v)
        if isinstance(v, float):
            if math.isfinite(v):
                return repr(v)
            return self.ref(v, "__nan" if v != v else "__inf" if v > 0 else "__minus_inf")
        if isinstance(v, slice):
            return f"slice({self.literal(v.start)}, {self.literal(v.stop)}, {self.literal(v.step)})"
        if isinstance(v, list):
            return "[" + ", ".join(self.literal(x) for x in v) + "]"
        if isinstance(v, tuple):
            return "(" + "".join(self.literal(x) + ", " for x in v) + ")"
        if isinstance(v, il.Dtype):
            return self.ref(v, v.name)
        if is_symbolic(v):  # a size of a dynamic dimension: computed from the inputs' sizes
            return symbolic.source(v)
        return self.ref(v, f"__k{len(self.globals)}")

    def value(self, v: Any, scalar: bool, reads: set[str]) -> str:
        """The expression for an operand: a local, a parameter, a constant or a number."""
        if isinstance(v, str):
            reads.add(v)
            return v
        if isinstance(v, _Param):
            name = self.param_names.get(v.key)
            if name is None:
                name = f"p{len(self.params)}"
                self.params.append(v.key)
                self.param_names[v.key] = name
            reads.add(name)
            return name
        arr = np.asarray(v)
        if scalar and arr.ndim == 0 and arr.dtype.kind in "biuf":
            return self.literal(arr.item())
        hit = self.const_ids.get(id(v))
        if hit is None:
            hit = f"__C[{len(self.constants)}]"
            self.constants.append((arr, il.as_dtype(arr.dtype.name)))
            self.const_ids[id(v)] = hit
            self.keep.append(v)
        return hit

    def emit(self, line: str, reads: set[str], targets: Sequence[str] = ()) -> None:
        self.lines.append(line)
        self.reads.append(reads)
        self.targets.append(tuple(targets))

    def prune(self) -> None:
        """Drop the lines whose results nothing reads (jaxprs keep dead equations)."""
        live: set[str] = set()
        keep = []
        for i in reversed(range(len(self.lines))):
            targets = self.targets[i]
            if not targets or live.intersection(targets):
                keep.append(i)
                live |= self.reads[i]
        keep.reverse()
        self.lines = [self.lines[i] for i in keep]
        self.reads = [self.reads[i] for i in keep]
        self.targets = [self.targets[i] for i in keep]


def _source(eqn: Any) -> str:
    """Where the equation comes from in the user's code (file:line (function)), if jax says."""
    try:
        from jax._src import source_info_util

        where = str(source_info_util.summarize(eqn.source_info))
    except Exception:  # noqa: BLE001 - jax's private helper may move: the location is optional
        return ""
    return where.rpartition("site-packages/")[2]


def _sub_jaxpr(eqn: Any) -> tuple[Any, list[Any]]:
    for key in ("jaxpr", "call_jaxpr", "fun_jaxpr"):
        sub = eqn.params.get(key)
        if sub is not None:
            if hasattr(sub, "consts"):  # a ClosedJaxpr
                return sub.jaxpr, list(sub.consts)
            return sub, []
    raise UnsupportedOpError(f"from_flax: {eqn.primitive.name} has no jaxpr to inline")


def _unsupported(name: str, where: str, eqn: Any, why: str = "") -> UnsupportedOpError:
    reason = why or REASONS.get(name, "")
    first = str(eqn).splitlines()[0] if str(eqn) else name
    source = _source(eqn)
    return UnsupportedOpError(
        f"from_flax: jax primitive {name} ({where}: `{first.strip()}`"
        f"{f', at {source}' if source else ''}) is "
        f"not supported{f' ({reason})' if reason else ''}; supported: "
        f"{', '.join(supported_primitives())}"
    )


def _fold(eqn: Any, known: list[np.ndarray]) -> list[np.ndarray] | None:
    """The equation's results computed by jax now, when they are small (None otherwise)."""
    import jax.numpy as jnp

    if eqn.effects or any(is_symbolic(d) for v in eqn.outvars for d in v.aval.shape):
        return None
    sizes = [math.prod(getattr(v.aval, "shape", ())) for v in eqn.outvars]
    if sum(sizes) > _FOLD_LIMIT and eqn.primitive.name in PRIMITIVES:
        return None
    try:
        out = eqn.primitive.bind(*[jnp.asarray(k) for k in known], **eqn.params)
    except Exception:  # noqa: BLE001 - a primitive jax cannot evaluate eagerly is run later
        return None
    outs = out if eqn.primitive.multiple_results else [out]
    return [np.asarray(o) for o in outs]


def _walk(jaxpr: Any, env: dict[Any, Any], w: _Writer, where: str, used: set[str]) -> None:
    """Write the lines of ``jaxpr``'s equations; ``env`` maps its variables to values."""
    from jax.extend.core import Literal

    def get(v: Any) -> Any:
        if isinstance(v, Literal):
            return np.asarray(v.val, dtype=v.aval.dtype)
        return env[v]

    for k, eqn in enumerate(jaxpr.eqns):
        name = eqn.primitive.name
        here = f"{where}equation {k}"
        ins = [get(v) for v in eqn.invars]
        if name in INLINE:
            sub, consts = _sub_jaxpr(eqn)
            inner = dict(zip(sub.constvars, [np.asarray(c) for c in consts]))
            inner.update(zip(sub.invars, ins))
            _walk(sub, inner, w, f"{here} ({name} {eqn.params.get('name', '')}) > ", used)
            for outer, v in zip(eqn.outvars, sub.outvars):
                env[outer] = inner[v] if not isinstance(v, Literal) else get(v)
            continue
        if name in IDENTITY:
            env.update(zip(eqn.outvars, ins))
            continue
        if all(isinstance(x, np.ndarray) for x in ins):
            folded = _fold(eqn, ins)
            if folded is not None:
                env.update(zip(eqn.outvars, folded))
                continue
        if name in CONTROL:
            _control(eqn, ins, env, w, here, used)
            continue
        fn = PRIMITIVES.get(name)
        if fn is None:
            raise _unsupported(name, here, eqn)
        known = [x if isinstance(x, np.ndarray) else None for x in ins]
        sized = tuple(isinstance(x, np.ndarray) or x in w.sized for x in ins)
        iotas = tuple(w.iotas.get(x) if isinstance(x, str) else None for x in ins)
        avals = [v.aval for v in eqn.invars], [v.aval for v in eqn.outvars]
        info = Eqn(dict(eqn.params), *avals, known, sized, iotas)
        try:
            kwargs = STATIC[name](info) if name in STATIC else {}
        except Refused as why:
            raise _unsupported(name, here, eqn, str(why)) from None
        except Exception as err:
            if type(err).__name__ != "InconclusiveDimensionOperation":
                raise
            reason = f"a size that depends on a dynamic dimension: {str(err).splitlines()[0]}"
            raise _unsupported(name, here, eqn, reason) from None
        used.add(name)
        reads: set[str] = set()
        scalar = name in SCALARS and any(not isinstance(x, np.ndarray) for x in ins)
        arity = ARITY.get(name, len(ins))
        arity = arity if isinstance(arity, int) else arity(info)
        args = [w.value(x, scalar, reads) for x in ins[:arity]]
        args += [f"{key}={w.literal(v)}" for key, v in kwargs.items()]
        outs = []
        for v in eqn.outvars:
            local = w.fresh()
            env[v] = local
            outs.append(local)
        if all(sized) and not eqn.effects:  # sizes and constants only (dim_as_value, iota)
            w.sized.update(outs)
        if name == "iota":
            w.iotas[outs[0]] = int(eqn.params["dimension"])
        target = outs[0] if not eqn.primitive.multiple_results else ", ".join(outs) + ","
        handler = w.ref(fn, "jax_" + name.replace("-", "_"))  # scatter-add: an identifier
        source = _source(eqn)
        comment = f"# {name}, {source}" if source else f"# {name}"
        w.emit(f"    {target} = {handler}({', '.join(args)})  {comment}", reads, outs)


# -- control flow: sub-jaxprs as nested functions (control.py runs them) ------------------------
def _get(v: Any, env: dict[Any, Any]) -> Any:
    from jax.extend.core import Literal

    return np.asarray(v.val, dtype=v.aval.dtype) if isinstance(v, Literal) else env[v]


def _indent(line: str) -> str:
    return "\n".join("    " + part for part in line.split("\n"))


def _nested(
    closed: Any, bound: list[Any], w: _Writer, where: str, used: set[str]
) -> tuple[str, list[str], set[str]]:
    """Write the closed jaxpr ``closed`` as a nested function: its first invars are the
    enclosing values ``bound`` (closures), the others its arguments; it returns the list of
    its outputs. The function's name, its lines, and the enclosing names it reads."""
    jaxpr = closed.jaxpr
    saved = w.lines, w.reads, w.targets
    w.lines, w.reads, w.targets = [], [], []
    try:
        env: dict[Any, Any] = dict(zip(jaxpr.constvars, [np.asarray(c) for c in closed.consts]))
        env.update(zip(jaxpr.invars, bound))
        formals = [w.fresh() for _ in jaxpr.invars[len(bound) :]]
        env.update(zip(jaxpr.invars[len(bound) :], formals))
        _walk(jaxpr, env, w, where, used)
        reads: set[str] = set()
        results = [w.value(_get(v, env), False, reads) for v in jaxpr.outvars]
        w.emit(f"    return [{', '.join(results)}]", reads)
        w.prune()
        own = set(formals).union(*w.targets)
        body = _deaths(w, own)
        outer = set().union(*w.reads) - own
    finally:
        w.lines, w.reads, w.targets = saved
    name = f"f{w.fresh()}"
    lines = [f"    def {name}({', '.join(formals)}):"] + [_indent(line) for line in body]
    return name, lines, outer


def _control(
    eqn: Any, ins: list[Any], env: dict[Any, Any], w: _Writer, here: str, used: set[str]
) -> None:
    """The lines of a ``cond``, ``while`` or ``scan`` equation: its sub-jaxprs as nested
    functions, then one call of the helper of ``control.py`` that runs them."""
    name, p = eqn.primitive.name, eqn.params
    inner = f"{here} ({name}) > "
    if name == "cond" and isinstance(ins[0], np.ndarray):
        # the branch is known at conversion: only it is written, inline
        branches = p["branches"]
        chosen = branches[min(max(int(ins[0]), 0), len(branches) - 1)]
        sub = dict(zip(chosen.jaxpr.constvars, [np.asarray(c) for c in chosen.consts]))
        sub.update(zip(chosen.jaxpr.invars, ins[1:]))
        _walk(chosen.jaxpr, sub, w, inner, used)
        env.update(zip(eqn.outvars, [_get(v, sub) for v in chosen.jaxpr.outvars]))
        return
    defs: list[str] = []
    reads: set[str] = set()

    def nested(closed: Any, bound: list[Any], what: str) -> str:
        fn, lines, outer = _nested(closed, bound, w, f"{inner}{what} > ", used)
        defs.extend(lines)
        reads.update(outer)
        return fn

    if name == "cond":
        fns = [nested(b, [], f"branch {i}") for i, b in enumerate(p["branches"])]
        index = w.value(ins[0], False, reads)
        head = f"{w.ref(run_cond, '__cond')}({index}, [{', '.join(fns)}]"
        operands = ins[1:]
    elif name == "while":
        nc, nb = p["cond_nconsts"], p["body_nconsts"]
        cond_fn = nested(p["cond_jaxpr"], ins[:nc], "cond_fun")
        body_fn = nested(p["body_jaxpr"], ins[nc : nc + nb], "body_fun")
        head = f"{w.ref(run_while, '__while')}({cond_fn}, {body_fn}"
        operands = ins[nc + nb :]
    else:  # scan
        n = p["num_consts"]
        fn = nested(p["jaxpr"], ins[:n], "f")
        rest = f"{p['num_carry']}, {w.literal(size(p['length']))}, {bool(p['reverse'])}"
        head = f"{w.ref(run_scan, '__scan')}({fn}, {rest}"
        operands = ins[n:]
    args = "".join(", " + w.value(x, False, reads) for x in operands)
    outs = [w.fresh() for _ in eqn.outvars]
    env.update(zip(eqn.outvars, outs))
    source = _source(eqn)
    comment = f"# {name}, {source}" if source else f"# {name}"
    lhs = "".join(o + ", " for o in outs) or "_"
    call = f"    {lhs} = {head}{args})  {comment}"
    used.add(name)
    w.emit("\n".join([*defs, call]), reads, outs)


def _deaths(w: _Writer, local: set[str] | None = None) -> list[str]:
    """The lines with ``del`` after each local's last read (but the ``return``), so
    activations are freed as early as possible; in a nested function, only its own
    ``local`` names (deleting a name it reads from the enclosing function would make it a
    local of its own, unbound)."""
    last: dict[str, int] = {}
    for i, reads in enumerate(w.reads[:-1]):
        for r in reads:
            if local is None or r in local:
                last[r] = i
    for r in w.reads[-1]:
        last.pop(r, None)
    dead: dict[int, list[str]] = {}
    for r, i in last.items():
        dead.setdefault(i, []).append(r)
    out = []
    for i, line in enumerate(w.lines):
        out.append(line)
        if i in dead:
            out.append(f"    del {', '.join(sorted(dead[i]))}")
    return out


def _key(path: Any) -> str:
    """A pytree path (``DictKey``, ``GetAttrKey``, ``SequenceKey`` entries) as a key chain;
    nnx's trailing ``.value`` of a variable is left out."""
    parts = []
    for entry in path:
        for attr in ("key", "idx", "name"):
            if hasattr(entry, attr):
                parts.append(str(getattr(entry, attr)))
                break
    if len(parts) > 1 and parts[-1] == "value" and type(path[-1]).__name__ == "GetAttrKey":
        parts.pop()
    return "/".join(parts)


def _is_array(x: Any) -> bool:
    return hasattr(x, "shape") and hasattr(x, "dtype") and not isinstance(x, (bool, int, float))


def trace(
    module: Any, variables: Any, args: tuple[Any, ...], backend: Any, dynamic_shapes: Any = None
) -> JaxprModel:
    """Trace a linen module applied to ``variables`` (or an nnx module, ``variables=None``)
    on the example ``args`` and build its :class:`JaxprModel`.

    ``dynamic_shapes``: None makes axis 0 of every array input one dimension ``"batch"`` when
    the examples agree on it and the module traces with it (static otherwise, and the model
    says why); False traces every size static; otherwise one entry per argument
    (:func:`symbolic.resolve`), and a module that cannot take them is a ``ValueError``."""
    import jax
    from flax import nnx

    name = type(module).__name__
    if isinstance(module, nnx.Module):
        graphdef, state = nnx.split(module)
        tree = state

        def call(tree: Any, *full: Any) -> Any:
            m = nnx.merge(graphdef, tree)
            m.eval()  # a copy in inference mode: dropout off, BatchNorm's running averages
            return m(*full)
    else:
        tree = variables

        def call(tree: Any, *full: Any) -> Any:
            return module.apply(tree, *full)

    flat, treedef = jax.tree_util.tree_flatten_with_path(tree)
    keys = [_key(path) for path, _ in flat]
    if isinstance(module, nnx.Module):  # nnx.Param variables are trained, the others not
        params_only = jax.tree_util.tree_flatten_with_path(nnx.state(module, nnx.Param))[0]
        trainable = {_key(path) for path, _ in params_only}
    else:  # linen: the "params" collection is trained, batch_stats and the others not
        trainable = {kc for kc in keys if kc.split("/", 1)[0] == "params"}
    leaves = [leaf for _, leaf in flat]
    traced = [i for i, a in enumerate(args) if _is_array(a)]

    def fn(leaves: list[Any], *arrays: Any) -> Any:
        full = list(args)
        for i, a in zip(traced, arrays):
            full[i] = a
        return call(jax.tree_util.tree_unflatten(treedef, leaves), *full)

    shapes = [tuple(int(d) for d in a.shape) if _is_array(a) else None for a in args]
    capture = _Capture(name, fn, leaves, keys, args, traced, backend, trainable)
    capture.linen_module = None if variables is None else module
    if dynamic_shapes is False:
        return capture.build(None, "")
    if dynamic_shapes is not None:
        return capture.checked(symbolic.resolve(dynamic_shapes, shapes))
    dims = symbolic.default_dims([shapes[i] for i in traced])
    if dims is None:
        ranked = any(shapes[i] for i in traced)
        why = "the inputs' axis-0 sizes differ" if ranked else "no input has an axis 0"
    else:
        by_arg: list[symbolic.Dims] = [{} for _ in args]
        for i, d in zip(traced, dims):
            by_arg[i] = d
        try:
            return capture.checked(by_arg)
        except Exception as err:  # noqa: BLE001 - any failure with "batch": traced static instead
            if isinstance(err, symbolic.DimensionError):
                why = err.reason
            else:
                why = str(err).splitlines()[0] if str(err) else type(err).__name__
    return capture.build(None, why)


class _Capture:
    """What a trace needs to build the model, static or with dynamic dimensions."""

    def __init__(
        self,
        name: str,
        fn: Any,
        leaves: list[Any],
        keys: list[str],
        args: tuple[Any, ...],
        traced: list[int],
        backend: Any,
        trainable: set[str],
    ) -> None:
        self.name, self.fn, self.leaves, self.keys = name, fn, leaves, keys
        self.args, self.traced, self.backend, self.trainable = args, traced, backend, trainable
        self.linen_module: Any = None

    def _jaxpr(self, dims: list[symbolic.Dims] | None) -> tuple[Any, Any]:
        import jax

        arrays = [self.args[i] for i in self.traced]
        if not dims:
            return jax.make_jaxpr(self.fn, return_shape=True)(self.leaves, *arrays)
        specs = symbolic.shape_structs(arrays, [dims[i] for i in self.traced])
        try:
            return jax.make_jaxpr(self.fn, return_shape=True)(self.leaves, *specs)
        except Exception as err:
            text = str(err)
            named = [n for n in symbolic.names(dims) if re.search(rf"\b{n}\b", text)]
            which = ", ".join(repr(n) for n in (named or symbolic.names(dims)))
            reason = text.splitlines()[0] if text else type(err).__name__
            said = f"jax says {reason!r}{symbolic.user_line(err)}"
            raise symbolic.DimensionError(
                f"from_flax: {self.name} cannot take dynamic dimension {which}: {said} (trace "
                "it with that axis static: dynamic_shapes= without it, or False)",
                said,
            ) from err

    def checked(self, dims: list[symbolic.Dims]) -> JaxprModel:
        """The model with dynamic dimensions, run once with each of them one larger than in the
        example (on NumPy) against jax running the module at that size: a size the code
        would compute wrongly is a ``ValueError`` here, never a wrong answer later."""
        import jax

        model = self.build(dims, "")
        if model.dynamic_dims is None:
            return model
        args, sizes = symbolic.resized(self.args, dims)
        try:
            # jax arrays, as the trace saw: a module may use their methods (x.at[i].set)
            inputs = [jax.numpy.asarray(args[i]) for i in self.traced]
            want = jax.tree_util.tree_leaves(self.fn(self.leaves, *inputs))
            with il.use_backend("numpy"):
                got = model.apply(model.params_on("numpy"), *args)
            model._moved = None  # the NumPy copy of the weights was for this check only
            got = [np.asarray(il.to_numpy(g)) for g in jax.tree_util.tree_leaves(got)]
            problem = symbolic.close(got, [np.asarray(w) for w in want])
        except Exception as err:  # noqa: BLE001 - said below with the sizes it was run at
            problem = f"it fails: {str(err).splitlines()[0] if str(err) else type(err).__name__}"
        if problem:
            at = ", ".join(f"{k}={v}" for k, v in sizes.items())
            which = ", ".join(repr(n) for n in sizes)
            raise symbolic.DimensionError(
                f"from_flax: {self.name} cannot take dynamic dimension {which}: traced with "
                f"it, it does not compute what the module does at {at}: {problem} (trace it "
                "with that axis static: dynamic_shapes= without it, or False)",
                f"traced with it, it does not compute what the module does at {at}: {problem}",
            )
        return model

    def build(self, dims: list[symbolic.Dims] | None, why_static: str) -> JaxprModel:
        """The model; ``dims`` (one ``{axis: name}`` per argument) for dynamic dimensions,
        ``why_static`` says why the default "batch" could not be dynamic."""
        import jax
        from jax.extend.core import Literal

        dims = dims if dims and any(dims) else None
        closed, shapes = self._jaxpr(dims)
        jaxpr = closed.jaxpr
        w = _Writer(self.name)
        env: dict[Any, Any] = dict(zip(jaxpr.constvars, [np.asarray(c) for c in closed.consts]))
        n_leaves = len(self.leaves)
        env.update((v, _Param(self.keys[i])) for i, v in enumerate(jaxpr.invars[:n_leaves]))
        for j, v in enumerate(jaxpr.invars[n_leaves:]):
            env[v] = f"x{j}"
        used: set[str] = set()
        _walk(jaxpr, env, w, "", used)

        reads: set[str] = set()
        results = []
        for v in jaxpr.outvars:
            value = np.asarray(v.val, dtype=v.aval.dtype) if isinstance(v, Literal) else env[v]
            results.append(w.value(value, False, reads))
        w.emit(f"    return [{', '.join(results)}]", reads)
        w.prune()
        loads = [f"    x{j} = __U[{j}]" for j in range(len(self.traced))]
        read = set().union(*w.reads)
        param_keys = [kc for kc in w.params if w.param_names[kc] in read]  # dead code's are not
        loads += [f"    {w.param_names[kc]} = __P[{i}]" for i, kc in enumerate(param_keys)]
        if dims:  # each dynamic size read from the first input that has it
            reader, seen = w.ref(symbolic.size, "__size"), set()
            for j, i in enumerate(self.traced):
                for axis, dim in sorted(dims[i].items()):
                    if dim not in seen:
                        seen.add(dim)
                        loads.append(f"    {symbolic.local(dim)} = {reader}(x{j}, {axis})")
        body = loads + _deaths(w)
        code = "def jaxpr(__P, __C, __U):\n" + "\n".join(body) + "\n"
        where = f"from_flax {self.name} at {id(w):x}"
        function = compile_generated(code, "jaxpr", w.globals, where)

        inputs: list[tuple[str, Any]] = []
        for i, a in enumerate(self.args):
            if i not in self.traced:
                inputs.append(("static", a))
                continue
            named = dims[i] if dims else {}
            shape = tuple(None if ax in named else int(d) for ax, d in enumerate(a.shape))
            inputs.append(("array", shape))
        target = current_backend() if self.backend is None else get_backend(self.backend)
        by_key = dict(zip(self.keys, self.leaves))
        weights = {kc: move(np.asarray(by_key[kc]), target, kc) for kc in sorted(param_keys)}
        params = Container.cont_unflatten(weights) if weights else Container()
        out_tree = jax.tree_util.tree_structure(shapes)
        return JaxprModel(
            Generated(function, code, param_keys, w.constants, where),
            params,
            inputs,
            out_tree,
            sorted(used),
            self.name,
            self.linen_module,
            frozenset(kc for kc in param_keys if kc not in self.trainable),
            dims=dims,
            why_static=why_static,
        )

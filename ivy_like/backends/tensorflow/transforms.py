"""TensorFlow transform primitives on flat lists of native leaves, built on the tapes of
``gradients.py`` so that they nest with each other and with ``ivy_like.grad`` both ways:

* ``vjp_leaves``: ``tf.GradientTape`` with ``output_gradients``; each leaf gets its own
  identity first (as in ``gradients.py``), an unconnected gradient is zeros.
* ``jvp_leaves``: ``tf.autodiff.ForwardAccumulator`` (the same fresh identities).
* ``vmap_leaves``: ``tf.vectorized_map`` over ``tf.range(axis_size)``: the function gathers
  its example from each mapped leaf (moved to axis 0) and reads the unmapped leaves by
  closure, as ``vectorized_map`` has no ``in_axes``. It stacks every output: an unmapped
  output that cannot depend on the example (seen in the traced graph) is taken from the first
  example; one that may is checked to be the same for every example (a ``ValueError``
  eagerly, an ``Assert`` failing when a compiled graph runs). With no example, the unmapped
  outputs are computed on a placeholder example, in a graph that must not depend on it.
* ``compile_leaves``: ``tf.function(autograph=False)``: one trace per input signature, so the
  same shapes reuse it, as ``jax.jit`` (no ``reduce_retracing``: it would hide the static
  shapes ivy_like's ops read). No autograph: Python control flow on a traced value fails as
  under ``jax.jit``/``mx.compile`` instead of being rewritten. Called with graph tensors in a
  replica of a ``tf.distribute`` strategy (``ivy_like.distributed.spmd``'s step), it runs the
  function inline: that graph is already compiled, and TensorFlow refuses a collective in a
  ``tf.function`` called from ``strategy.run``.
* ``checkpoint_leaves`` and ``custom_function_leaves``: ``tf.custom_gradient`` whose gradient
  function is itself a ``tf.custom_gradient`` (the backward pass) with an explicit transpose,
  see ``_Custom``. ``tf.recompute_grad`` is not used: its transpose raises
  ``NotImplementedError``, so it fails under ``jvp`` (and Hessian-vector products) and under
  second derivatives in ``tf.function``.

Custom rules, with MLX's fallbacks (a missing rule is the function's own transform):

* reverse mode: the vjp rule, else the function's vjp, recomputed in the backward pass;
  reverse over reverse differentiates that vjp (the rule's own derivative, as torch does);
* forward mode: ``ForwardAccumulator`` takes no jvp rule; it gives an output the tangent of
  the ops that computed it (eagerly and while tracing), or through a ``tf.function`` call the
  transpose of the call's gradient, which TensorFlow computes by differentiating our backward
  pass. So the backward pass's transpose is the jvp rule (else the function's own jvp), and
  under an ``ivy_like.jvp`` a function with a jvp rule (or a checkpoint, always) computes its
  value from ``tf.stop_gradient`` of its inputs (in a graph, inside a ``tf.function``), so
  that its tangent comes from that transpose. A native ``ForwardAccumulator`` around ivy_like
  code gets the function's own jvp outside a ``tf.function``. The transpose runs while the
  accumulator processes an op, when TensorFlow pauses tapes; it resumes them with
  ``forwardprop_util.push_forwardprop_state``, as TensorFlow's own jvps do (private module:
  no public equivalent);
* vmap: ``tf.vectorized_map`` rewrites the traced ops and loses the gradients registered by
  ``tf.custom_gradient``, so a vmapped function that called a custom function or a checkpoint
  gets its own: the per-example vjps and jvps, vectorized (one more forward pass, per example,
  in the backward pass). The vmap rule is applied where each argument is an argument of the
  vmapped function (possibly through identities) or does not vary over the mapped axis; on
  a value computed inside the vmapped function, or inside a ``compile`` under ``vmap``, it
  cannot be (``vectorized_map`` has no batched value to give it): ``NotImplementedError``.

Closed-over Variables are constants of a custom function (no gradient), as in MLX.
"""

from __future__ import annotations

import contextvars
from typing import Any, Callable

import tensorflow as tf
from tensorflow.python.eager import forwardprop_util  # no public equivalent (see _backward)

from .._common.helpers import JvpRule, LeavesFn, VjpRule, VmapFn, VmapRule
from ._eager import EagerTensor
from .gradients import _ZERO, _dense, _identity, _sources

# -- vjp, jvp --------------------------------------------------------------------------------


def _differentiable(x: Any) -> bool:
    return bool(x.dtype.is_floating or x.dtype.is_complex)


def _like(values: list[Any], refs: list[Any]) -> list[Any]:
    # A NumPy float64 cotangent/tangent for a float32 value: TensorFlow refuses mixed dtypes.
    return [v if v.dtype == r.dtype else tf.cast(v, r.dtype) for v, r in zip(values, refs)]


def vjp_leaves(
    f: Callable[[list[Any]], list[Any]],
    primals: list[Any],
    cotangents_for: Callable[[list[Any]], list[Any]],
) -> tuple[list[Any], list[Any]]:
    leaves = _sources(primals)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        for leaf in leaves:
            tape.watch(leaf)
        outputs = f(leaves)
    # Outside the inner block but inside any enclosing tape, which then records it (nesting).
    cts = _like([tf.convert_to_tensor(c) for c in cotangents_for(outputs)], outputs)
    targets = [(o, c) for o, c in zip(outputs, cts) if _differentiable(o)]
    grads = tape.gradient(
        [o for o, _ in targets],
        leaves,
        output_gradients=[c for _, c in targets],
        unconnected_gradients=_ZERO,
    )
    return outputs, [_dense(g) for g in grads]


def jvp_leaves(
    f: Callable[[list[Any]], list[Any]], primals: list[Any], tangents: list[Any]
) -> tuple[list[Any], list[Any]]:
    leaves = _sources(primals)  # positions, not tensor identities (see gradients._sources)
    token = _FORWARD.set(_FORWARD.get() + 1)
    try:
        with tf.autodiff.ForwardAccumulator(leaves, _like(list(tangents), leaves)) as acc:
            outputs = f(leaves)
    finally:
        _FORWARD.reset(token)
    jvps = acc.jvp(outputs, unconnected_gradients=_ZERO)
    # A gather's tangent can be IndexedSlices (segment_sum's): dense, as the vjp's are.
    return outputs, [tf.zeros_like(o) if j is None else _dense(j) for o, j in zip(outputs, jvps)]


# -- what vmap is mapping (read by custom functions while vectorized_map traces) -------------


class _Frame:
    """One ``vmap`` being traced: its example index, each example's slice of a mapped leaf
    (by tensor) -> the batched leaf, and whether a custom gradient was used inside."""

    __slots__ = ("index", "inputs", "custom")

    def __init__(self) -> None:
        self.index: Any = None  # a tensor of the graph the vmapped function is traced in
        self.inputs: dict[Any, Any] = {}
        self.custom = False


_FRAMES: contextvars.ContextVar[tuple[_Frame, ...]] = contextvars.ContextVar(
    "ivy_like_tf_vmap_frames", default=()
)
# How many ivy_like.jvp are running: custom gradients then make sure of their tangents.
_FORWARD: contextvars.ContextVar[int] = contextvars.ContextVar("ivy_like_tf_forward", default=0)
# One cell per tf.function being traced by compile_leaves: set when a custom gradient is traced.
_TRACES: contextvars.ContextVar[tuple[list[bool], ...]] = contextvars.ContextVar(
    "ivy_like_tf_traces", default=()
)


def _mark_custom() -> None:
    for frame in _FRAMES.get():
        frame.custom = True
    for cell in _TRACES.get():
        cell[0] = True


# Ops whose value depends only on the shape of their input (per example: not on the example).
_SHAPE_ONLY = frozenset({"Shape", "ShapeN", "Size", "Rank", "ZerosLike", "OnesLike"})
_PASS_THROUGH = frozenset({"Identity", "IdentityN", "StopGradient"})


def _external(t: Any) -> Any:
    """The outer tensor a captured placeholder of a function graph stands for, else None."""
    for outer, inner in getattr(t.graph, "captures", ()):
        if inner is t:
            return outer
    return None


def _encloses(outer: Any, graph: Any) -> bool:
    while graph is not None:
        if graph is outer:
            return True
        graph = getattr(graph, "outer_graph", None)
    return False


def _reach(tensor: Any, targets: dict[Any, Any], home: Any) -> tuple[set[Any], bool]:
    """Which ``targets`` (tensor ref -> key) the value of ``tensor`` is computed from, following
    captures out of nested graphs; ``opaque`` when it reaches an argument of a function traced
    inside the graph ``home`` (a ``tf.function`` called in the vmapped function), whose origin
    cannot be seen from here. An argument of a function enclosing ``home`` is a constant."""
    found: set[Any] = set()
    opaque = False
    seen: set[Any] = set()
    stack = [tensor]
    while stack:
        t = stack.pop()
        ref = t.ref()
        if ref in seen:
            continue
        seen.add(ref)
        if ref in targets:
            found.add(targets[ref])
            continue
        try:
            op = t.op
        except AttributeError:  # an eager tensor: a constant here
            continue
        if op.type in _SHAPE_ONLY:
            continue
        if op.type == "Placeholder":
            outer = _external(t)
            if outer is None:
                opaque = opaque or not _encloses(t.graph, home)
            else:
                stack.append(outer)
            continue
        stack.extend(op.inputs)
    return found, opaque


def _batched_source(t: Any, frame: _Frame) -> Any:
    """The batched leaf whose example ``t`` is (through identities and captures), else None."""
    while True:
        hit = frame.inputs.get(t.ref())
        if hit is not None:
            return hit
        try:
            op = t.op
        except AttributeError:
            return None
        if op.type in _PASS_THROUGH:
            t = op.inputs[t.value_index]
        elif op.type == "Placeholder" and _external(t) is not None:
            t = _external(t)
        else:
            return None


def _vmap_site(
    leaves: list[Any],
    frames: tuple[_Frame, ...],
    rule: Callable[[list[Any], list[Any]], tuple[list[Any], list[Any]]],
) -> list[Any] | None:
    """A custom function's outputs for this example from its vmap rule, or None when no
    argument varies over any vmap being traced (the function itself is then used)."""
    frames = tuple(frame for frame in frames if frame.index is not None)  # being traced
    if not frames:
        return None
    targets = {frame.index.ref(): k for k, frame in enumerate(frames)}
    for k, frame in enumerate(frames):
        targets.update(dict.fromkeys(frame.inputs, k))
    reached = []
    for leaf in leaves:
        found, opaque = _reach(tf.convert_to_tensor(leaf), targets, frames[0].index.graph)
        if opaque:
            raise NotImplementedError(
                "custom_function: on tensorflow a vmap rule cannot be applied inside a "
                "compiled function that is itself under vmap (its arguments cannot be traced "
                "back to the mapped ones); jax, torch and mlx can; or compile outside vmap"
            )
        reached.append(found)
    varying = set().union(*reached)
    if not varying:
        return None
    frame = frames[max(varying)]  # the innermost vmap the arguments vary over
    values: list[Any] = []
    axes: list[int | None] = []
    for leaf, found in zip(leaves, reached):
        if max(varying) not in found:
            values.append(leaf)
            axes.append(None)
            continue
        batched = _batched_source(leaf, frame)
        if batched is None:
            raise NotImplementedError(
                "custom_function: on tensorflow the vmap rule is applied only to arguments "
                "of the vmapped function (tf.vectorized_map has no batched value for one "
                "computed inside it); jax, torch and mlx apply it to any value; or call the "
                "custom function on the vmapped function's arguments"
            )
        values.append(batched)
        axes.append(0)
    outs, out_axes = rule(values, axes)
    return [
        o if a is None else tf.gather(_to_front(o, a % len(o.shape)), frame.index)
        for o, a in zip(outs, out_axes)
    ]


# -- vmap ------------------------------------------------------------------------------------


def _to_front(x: Any, axis: int) -> Any:
    x = tf.convert_to_tensor(x)  # a Variable is read here
    if axis == 0:
        return x
    perm = [axis] + [d for d in range(len(x.shape)) if d != axis]
    return tf.transpose(x, perm)


def _example(
    leaves: list[Any], in_axes: list[Any], batched: list[Any], index: Any, frame: _Frame | None
) -> list[Any]:
    """The leaves of one example: each mapped leaf's slice, the unmapped ones as they are."""
    it = iter(batched)
    out = []
    for leaf, axis in zip(leaves, in_axes):
        if axis is None:
            out.append(leaf)
            continue
        b = next(it)
        piece = tf.gather(b, index)
        if frame is not None:
            frame.inputs[piece.ref()] = b
        out.append(piece)
    return out


def _same_across(stacked: Any, k: int) -> Any:
    """``stacked[0]`` after checking every example gave it (NaN equal to NaN)."""
    first = stacked[0]
    nan = tf.math.logical_and(tf.math.not_equal(stacked, stacked), tf.math.not_equal(first, first))
    same = tf.reduce_all(tf.math.logical_or(tf.math.equal(stacked, first), nan))
    message = (
        f"vmap: unmapped output {k} (out_axes None) varies over the mapped axis; give it "
        f"an out_axes, or make it independent of the mapped arguments"
    )
    if tf.executing_eagerly():
        if not bool(same):
            raise ValueError(message)
        return first
    with tf.control_dependencies([tf.debugging.Assert(same, [message])]):
        return tf.identity(first)


def _vectorized_map(one: Callable[[Any], list[Any]], indices: Any) -> list[Any]:
    """``tf.vectorized_map`` of ``one`` (not converted by autograph); an error raised by ``one``
    comes out as it was raised (``tf.function`` would prefix TensorFlow's trace to it)."""
    raised: list[BaseException] = []

    def body(index: Any) -> list[Any]:
        try:
            return one(index)
        except Exception as e:
            raised.append(e)
            raise

    try:
        return list(tf.vectorized_map(tf.autograph.experimental.do_not_convert(body), indices))
    except Exception:
        if raised:
            raise raised[0] from None
        raise


def _vectorize(
    f: Callable[[list[Any]], tuple[list[Any], list[Any]]],
    leaves: list[Any],
    in_axes: list[Any],
    batched: list[Any],
    axis_size: int,
) -> tuple[list[Any], list[Any], bool]:
    """``(mapped, unmapped, custom)``: ``custom`` when a custom gradient was traced inside."""
    frame = _Frame()
    counts: list[int] = []
    depends: list[bool] = []  # per unmapped output: may its value vary over the examples?

    def one(index: Any) -> list[Any]:
        frame.index = index
        mapped, unmapped = f(_example(leaves, in_axes, batched, index, frame))
        counts[:] = [len(mapped)]
        targets = {index.ref(): 0}
        depends[:] = [any(_reach(u, targets, index.graph)) for u in unmapped]
        return [tf.convert_to_tensor(v) for v in list(mapped) + list(unmapped)]

    token = _FRAMES.set(_FRAMES.get() + (frame,))
    try:
        # The examples are indices: each leaf is gathered inside, so the custom vmap rules
        # (see _vmap_site) know the index and the batched leaf of every example.
        outs = _vectorized_map(one, tf.range(axis_size))
    finally:
        _FRAMES.reset(token)
    n = counts[0]
    if axis_size == 0 and len(outs) > n:
        unmapped = _unmapped_without_examples(f, leaves, in_axes, batched)
    else:
        unmapped = [
            _same_across(u, k) if dep else u[0] for k, (u, dep) in enumerate(zip(outs[n:], depends))
        ]
    return list(outs[:n]), unmapped, frame.custom


def vmap_leaves(
    f: VmapFn, leaves: list[Any], in_axes: list[Any], axis_size: int
) -> tuple[list[Any], list[Any]]:
    batched = [_to_front(x, a) for x, a in zip(leaves, in_axes) if a is not None]
    mapped, unmapped, custom = _vectorize(f, leaves, in_axes, batched, axis_size)
    if not custom:
        return mapped, unmapped
    # vectorized_map rewrote the ops of the custom gradients traced inside and lost their
    # gradients: the vmapped function gets its own, the per-example vjps and jvps, vectorized.
    fixed = [tf.convert_to_tensor(x) for x, a in zip(leaves, in_axes) if a is None]
    n_batched, n_mapped = len(batched), len(mapped)

    def split(args: list[Any]) -> tuple[list[Any], list[Any]]:
        """The batched leaves, and all the leaves with the unmapped ones from ``args``."""
        it = iter(args[n_batched:])
        return list(args[:n_batched]), [
            next(it) if a is None else x for x, a in zip(leaves, in_axes)
        ]

    def batched_f(*args: Any) -> list[Any]:
        b, full = split(list(args))
        m, u, _ = _vectorize(f, full, in_axes, b, axis_size)
        return m + u

    def per_example(args: list[Any], body: Callable[..., list[Any]]) -> list[Any]:
        """``body(example leaves, index)`` for every example, stacked (in a new vmap frame)."""
        b, full = split(args)

        def one(index: Any) -> list[Any]:
            frame = _Frame()
            frame.index = index
            token = _FRAMES.set(_FRAMES.get() + (frame,))
            try:
                return body(_example(full, in_axes, b, index, frame), index)
            finally:
                _FRAMES.reset(token)

        return _vectorized_map(one, tf.range(tf.shape(args[0])[0]))

    def vjp(args: list[Any], cts: list[Any], outs: list[Any]) -> list[Any]:
        example_leaves = _placeholders(in_axes, args)
        diff = [j for j, x in enumerate(example_leaves) if _differentiable(x)]

        def body(example: list[Any], index: Any) -> list[Any]:
            # A row of each mapped cotangent; an unmapped output is one value for the whole
            # batch, so its cotangent goes to the first example only.
            first = tf.math.equal(index, 0)
            example_cts = [tf.gather(c, index) for c in cts[:n_mapped]] + [
                tf.where(first, c, tf.zeros_like(c)) for c in cts[n_mapped:]
            ]
            return _tape_vjp(lambda *x: _joined(f(list(x))), example, example_cts)[1]

        stacked = dict(zip(diff, per_example(args, body))) if diff else {}
        # A batched leaf's gradient is batched like it; an unmapped leaf's is the sum over the
        # examples. The args are the batched leaves first, then the unmapped ones.
        return [stacked.get(j) for j, a in enumerate(in_axes) if a is not None] + [
            None if j not in stacked else tf.reduce_sum(stacked[j], axis=0)
            for j, a in enumerate(in_axes)
            if a is None
        ]

    def jvp(args: list[Any], tangents: list[Any]) -> list[Any]:
        tangent_leaves = _placeholders(in_axes, list(tangents))

        def body(example: list[Any], index: Any) -> list[Any]:
            example_tangents = [
                t if a is None else tf.gather(t, index) for t, a in zip(tangent_leaves, in_axes)
            ]
            return _tape_jvp(lambda *x: _joined(f(list(x))), example, example_tangents)[1]

        if axis_size == 0:  # no example: no tangent (unmapped outputs do not vary anyway)
            return [tf.zeros_like(o) for o in mapped + unmapped]
        stacked = per_example(args, body)
        return stacked[:n_mapped] + [t[0] for t in stacked[n_mapped:]]

    vectorized = _Custom(batched_f, vjp, jvp, None, recompute=False)
    outs = vectorized.call(list(batched) + fixed, mapped + unmapped)
    return outs[:n_mapped], outs[n_mapped:]


def _joined(pair: tuple[list[Any], list[Any]]) -> list[Any]:
    return list(pair[0]) + list(pair[1])


def _unmapped_without_examples(
    f: Callable[[list[Any]], tuple[list[Any], list[Any]]],
    leaves: list[Any],
    in_axes: list[Any],
    batched: list[Any],
) -> list[Any]:
    """The unmapped outputs of a vmap over zero examples: computed on a placeholder example
    in a graph, each checked not to depend on it (only the ops they need are run)."""

    def probe(*pieces: Any) -> list[Any]:
        it = iter(pieces)
        _, unmapped = f([leaf if a is None else next(it) for leaf, a in zip(leaves, in_axes)])
        targets = {p.ref(): 0 for p in pieces}
        for k, u in enumerate(unmapped):
            if any(_reach(u, targets, pieces[0].graph)):
                raise ValueError(
                    f"vmap: unmapped output {k} (out_axes None) depends on the mapped "
                    f"arguments, and there are no examples to check that it does not vary"
                )
        return list(unmapped)

    dummies = [tf.zeros(tf.shape(b)[1:], b.dtype) for b in batched]
    return list(tf.function(probe, autograph=False)(*dummies))


def _placeholders(in_axes: list[Any], args: list[Any]) -> list[Any]:
    """The leaves in the order of ``in_axes`` from the args of the vmapped function's custom
    gradient (the batched leaves first, then the unmapped ones)."""
    n_batched = sum(a is not None for a in in_axes)
    b, u = iter(args[:n_batched]), iter(args[n_batched:])
    return [next(u) if a is None else next(b) for a in in_axes]


# -- derivatives on tapes (also inside a backward pass) --------------------------------------


def _tape_vjp(
    f: Callable[..., list[Any]], leaves: list[Any], cts: list[Any]
) -> tuple[list[Any], list[Any]]:
    """``f``'s outputs and one cotangent per differentiable leaf (in order of the leaves)."""
    diff = [j for j, x in enumerate(leaves) if _differentiable(x)]
    sources = {j: _identity(input=leaves[j]) for j in diff}
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(list(sources.values()))
        outs = list(f(*[sources.get(j, x) for j, x in enumerate(leaves)]))
    targets = [(o, c) for o, c in zip(outs, cts) if _differentiable(o)]
    grads = tape.gradient(
        [o for o, _ in targets],
        [sources[j] for j in diff],
        output_gradients=[c for _, c in targets],
        unconnected_gradients=_ZERO,
    )
    return outs, [_dense(g) for g in grads]


def _tape_jvp(
    f: Callable[..., list[Any]], leaves: list[Any], tangents: list[Any]
) -> tuple[list[Any], list[Any]]:
    """``f``'s outputs and their tangents, as the transpose of the vjp (two tapes): unlike a
    ForwardAccumulator, this is recorded when it runs inside the transpose of a backward pass,
    and it goes through the custom gradients inside ``f``."""
    diff = [j for j, x in enumerate(leaves) if _differentiable(x)]
    with tf.GradientTape(watch_accessed_variables=False) as outer:
        sources = {j: _identity(input=leaves[j]) for j in diff}
        with tf.GradientTape(watch_accessed_variables=False) as inner:
            inner.watch(list(sources.values()))
            outs = list(f(*[sources.get(j, x) for j, x in enumerate(leaves)]))
        floats = [k for k, o in enumerate(outs) if _differentiable(o)]
        dummies = [tf.zeros_like(outs[k]) for k in floats]
        outer.watch(dummies)
        grads = inner.gradient(
            [outs[k] for k in floats],
            [sources[j] for j in diff],
            output_gradients=dummies,
            unconnected_gradients=_ZERO,
        )
    jvps = outer.gradient(
        [_dense(g) for g in grads],
        dummies,
        output_gradients=[tangents[j] for j in diff],
        unconnected_gradients=_ZERO,
    )
    by_output = dict(zip(floats, jvps))
    return outs, [by_output.get(k, tf.zeros_like(o)) for k, o in enumerate(outs)]


# -- compile ---------------------------------------------------------------------------------


def compile_leaves(f: Callable[..., list[Any]]) -> Callable[..., list[Any]]:
    # Default tracing (no reduce_retracing): one trace per shape, as jax.jit, so ivy_like ops
    # keep the static shapes they read; a second shape traces once more.
    custom = [False]  # whether a trace called a custom function or a checkpoint

    # The leaves travel as one list argument: tf.function's per-call binding and type
    # checks cost per parameter (~50 Python calls each), far less per item of one list.
    def traced(leaves: list[Any]) -> list[Any]:
        token = _TRACES.set(_TRACES.get() + (custom,))
        try:
            return f(*leaves)
        finally:
            _TRACES.reset(token)

    outside = tf.function(traced, autograph=False)
    # Under vmap, a trace made outside it would hide the custom functions inside from the
    # vmap (their rules and gradients): a second function, traced under vmap.
    inside: list[Any] = []
    # (shape, dtype) of each leaf -> the concrete function tf.function traced for them.
    concrete: dict[tuple[Any, ...], Any] = {}

    def compiled(*leaves: Any) -> list[Any]:
        if not _FRAMES.get():
            key = _eager_signature(leaves)
            if key is None or _functions_run_eagerly():  # (tf.config's debugging switch)
                if key is None and _in_replica():
                    # Already in the graph of strategy.run's tf.function, and TensorFlow
                    # refuses a collective in a tf.function called there: inline.
                    return f(*leaves)
                return outside(list(leaves))  # type: ignore[no-any-return]
            # Eager tensors only: the concrete function of their signature, called without
            # tf.function's per-call matching of trace types (~12 µs a leaf: an MLP's
            # training step has 21 leaves, which cost more than the step's kernels).
            # _call_flat still records the call on a watching tape, as a call does.
            function = concrete.get(key)
            if function is None:
                function = concrete[key] = outside.get_concrete_function(list(leaves))
            return function._call_flat(list(leaves), function.captured_inputs)  # type: ignore[no-any-return]
        if not inside:
            inside.append(tf.function(traced, autograph=False))
        out = inside[0](list(leaves))
        if custom[0]:
            _mark_custom()
        return out  # type: ignore[no-any-return]

    return compiled


_EAGER_TENSOR = EagerTensor
_functions_run_eagerly = tf.config.functions_run_eagerly


def refuse_static_output(value: Any) -> None:
    """``compile``'s check of a traced function's Python outputs: ``strategy.run``'s
    per-replica result holds the tensors of the graph being traced, which no later call can
    use (TensorFlow's "out of scope" error on the next call)."""
    if isinstance(value, tf.distribute.DistributedValues):
        raise TypeError(
            "compile: the function returned a tf.distribute per-replica value (what "
            "strategy.run returns), which holds the compiled graph's tensors: return "
            "strategy.reduce(...) or strategy.experimental_local_results(...) of it, or write "
            "the step with ivy_like.distributed.spmd, which does this"
        )


def _in_replica() -> bool:
    """Whether this is a replica of a ``tf.distribute`` strategy's ``run`` (not the default
    strategy, not its cross-replica scope)."""
    return tf.distribute.has_strategy() and not tf.distribute.in_cross_replica_context()


def _eager_signature(leaves: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """The shapes and dtypes of eager tensors (what tf.function retraces on, by default), or
    None when a leaf is anything else (a variable, a symbolic tensor while a graph is built):
    those take tf.function's own call."""
    key = []
    for x in leaves:
        if type(x) is not _EAGER_TENSOR:
            return None
        key.append((x._shape_tuple(), x._datatype_enum()))
    return tuple(key)


# -- checkpoint and custom functions ---------------------------------------------------------


class _Custom:
    """A function of leaves with a custom gradient: the vjp rule (or the function's own vjp,
    recomputed), the jvp rule (or the function's own jvp) as the transpose of the backward
    pass, the vmap rule under ``vmap_leaves``. ``recompute``: a checkpoint (no rule, the
    forward pass not recorded)."""

    def __init__(
        self,
        f: Callable[..., list[Any]],
        vjp: Callable[[list[Any], list[Any], list[Any]], list[Any]] | None,
        jvp: Callable[[list[Any], list[Any]], list[Any]] | None,
        vmap: Callable[[list[Any], list[Any]], tuple[list[Any], list[Any]]] | None,
        recompute: bool,
    ) -> None:
        self.f, self.vjp, self.jvp, self.vmap, self.recompute = f, vjp, jvp, vmap, recompute
        self._cores: dict[tuple[str, int], Any] = {}
        self._graph_calls: dict[tuple[str, int], Any] = {}

    def __call__(self, *leaves: Any) -> list[Any]:
        leaves_l = [tf.convert_to_tensor(x) if isinstance(x, tf.Variable) else x for x in leaves]
        frames = _FRAMES.get()
        given = None
        if frames and self.vmap is not None:
            given = _vmap_site(leaves_l, frames, self.vmap)
        if given is None and self.vjp is None and self.jvp is None and not self.recompute:
            return self.f(*leaves_l)  # a vmap rule alone, not under vmap
        return self.call(leaves_l, given)

    def call(self, leaves: list[Any], given: list[Any] | None) -> list[Any]:
        """The outputs (``given``, or computed) with this gradient. Forward mode takes the
        tangent of the ops that computed an output when there are any (eagerly, and while
        tracing), else the transpose of the backward pass: the tangent must not come from the
        ops when it is not the function's own (a jvp rule, or a value not computed by ``f``)."""
        _mark_custom()
        forward = _FORWARD.get() > 0  # an ivy_like.jvp is running
        if given is not None:
            mode = "stopped" if forward and tf.executing_eagerly() else "given"
        elif self.recompute or (forward and self.jvp is not None):
            mode = "stopped"  # computed from stop_gradient(leaves): no tangent from the ops
        else:
            mode = "natural"  # the function's own ops (and jvp)
        key = (mode, len(leaves))
        call = self._cores.get(key)
        if call is None:
            call = self._cores[key] = self._core(mode, len(leaves))
        if mode != "natural" and forward and tf.inside_function():
            # In a graph the tangent of a custom-gradient output is that of its value (none
            # here, so zero): called through a function, it is the transpose of its gradient.
            if key not in self._graph_calls:
                self._graph_calls[key] = tf.function(call, autograph=False)
            call = self._graph_calls[key]
        if given is not None and mode == "given":
            return _listed(call(*leaves, *given))
        return _listed(call(*leaves))

    def _core(self, mode: str, n: int) -> Any:
        # Flat arguments (the leaves, then any given outputs): nested ones cost tf.nest time.
        @tf.custom_gradient
        def core(*args: Any) -> Any:
            leaves, given = args[:n], args[n:]
            if mode == "given":
                outs = list(given)
            elif mode == "stopped":
                outs = list(self.f(*[tf.stop_gradient(x) for x in leaves]))
            else:
                outs = list(self.f(*leaves))

            def grad_fn(*cts: Any, variables: Any = None) -> Any:
                cts_l = [tf.zeros_like(o) if c is None else c for c, o in zip(cts, outs)]
                grads = self._backward(list(leaves), cts_l, outs) + [None] * len(given)
                if variables:
                    return grads, [None] * len(variables)  # closed-over Variables: constants
                return grads

            return _bare(outs), grad_fn

        return core

    def _vjp(self, leaves: list[Any], cts: list[Any], outs: list[Any] | None) -> list[Any]:
        """One cotangent per differentiable leaf: the rule's, or the function's own."""
        if self.vjp is None:
            return _tape_vjp(self.f, leaves, cts)[1]
        if outs is None:
            outs = list(self.f(*leaves))
        grads = self.vjp(leaves, cts, outs)
        return [
            tf.convert_to_tensor(grads[j], x.dtype)
            for j, x in enumerate(leaves)
            if _differentiable(x)
        ]

    def _jvp(self, leaves: list[Any], tangents: list[Any]) -> list[Any]:
        """One tangent per output: the rule's, or the function's own."""
        if self.jvp is None:
            return _tape_jvp(self.f, leaves, tangents)[1]
        return list(self.jvp(leaves, tangents))

    def _backward(self, leaves: list[Any], cts: list[Any], outs: list[Any]) -> list[Any]:
        diff = [j for j, x in enumerate(leaves) if _differentiable(x)]
        if not diff:
            return [None] * len(leaves)
        rest_at = [j for j in range(len(leaves)) if j not in diff]

        def joined(xs: list[Any], rest: list[Any]) -> list[Any]:
            full: list[Any] = [None] * len(leaves)
            for j, x in zip(diff, xs):
                full[j] = x
            for j, x in zip(rest_at, rest):
                full[j] = x
            return full

        # A custom gradient of its own: its transpose (what forward mode uses) is the jvp, and
        # its gradient with respect to the primals (second derivatives) is explicit, since a
        # custom gradient records no path through its inputs otherwise. Everything it uses is
        # an argument: the transpose may run in another graph than the one that traced it.
        sizes = [len(cts), len(diff), len(rest_at)]

        @tf.custom_gradient
        def backward(*args: Any) -> Any:
            # In a graph the arguments may still be tensors of the graph that called the
            # function; the transpose may only use tensors of this one (it runs in a graph
            # that this one encloses, which the outer one does not).
            copies = [_identity(input=t) for t in args]
            a, b, c = sizes[0], sizes[0] + sizes[1], sum(sizes)
            cts_in, xs, rest, outs_in = copies[:a], copies[a:b], copies[b:c], copies[c:]
            grads = self._vjp(joined(xs, rest), cts_in, outs_in)

            def transpose(*ws: Any, variables: Any = None) -> Any:
                # Forward mode calls this while its accumulator processes the backward op, when
                # the tapes below would record nothing; TensorFlow's own jvps reset that state
                # the same way (forwardprop._jvp_helper).
                with forwardprop_util.push_forwardprop_state():
                    return transposed(list(ws), variables)

            def transposed(ws: list[Any], variables: Any) -> Any:
                ws_l = [tf.zeros_like(x) if w is None else w for w, x in zip(ws, xs)]
                # The derivative of the vjp (the rule's, or the function's own) with respect to
                # the cotangents and the primals; the rule sees the outputs too, so they are
                # recomputed from the primals for second derivatives to include them.
                floats = [k for k, c in enumerate(cts_in) if _differentiable(c)]
                ct_sources = [_identity(input=cts_in[k]) for k in floats]
                sources = [_identity(input=x) for x in xs]
                cts_again = list(cts_in)
                for k, c in zip(floats, ct_sources):
                    cts_again[k] = c
                with tf.GradientTape(watch_accessed_variables=False) as tape:
                    tape.watch(ct_sources + sources)
                    again = self._vjp(joined(sources, rest), cts_again, None)
                d = tape.gradient(
                    again,
                    ct_sources + sources,
                    output_gradients=ws_l,
                    unconnected_gradients=_ZERO,
                )
                d_cts: list[Any] = [None] * len(cts_in)
                for k, g in zip(floats, d[: len(floats)]):
                    d_cts[k] = _dense(g)
                if _FORWARD.get() > 0:
                    # Forward mode transposes this: the tangents are the jvp rule's, or the
                    # function's own (MLX's default), whatever the vjp rule.
                    tangents = joined(ws_l, [tf.zeros_like(x) for x in rest])
                    jvps = self._jvp(joined(xs, rest), tangents)
                    d_cts = [jvps[k] if k in floats else None for k in range(len(cts_in))]
                d_xs = [_dense(g) for g in d[len(floats) :]]
                result = d_cts + d_xs + [None] * (len(rest) + len(outs_in))
                if variables:
                    return result, [None] * len(variables)
                return result

            return _bare(grads), transpose

        grads = _listed(
            backward(*cts, *[leaves[j] for j in diff], *[leaves[j] for j in rest_at], *outs)
        )
        out: list[Any] = [None] * len(leaves)
        for j, g in zip(diff, grads):
            out[j] = g
        return out


def _bare(values: list[Any]) -> Any:
    # One result given bare: tf.custom_gradient repacks a list with tf.nest, whose typing-
    # Protocol checks cost ~30 µs a call in eager mode.
    return values[0] if len(values) == 1 else values


def _listed(result: Any) -> list[Any]:
    return list(result) if isinstance(result, (list, tuple)) else [result]


def checkpoint_leaves(f: Callable[..., list[Any]]) -> Callable[..., list[Any]]:
    return _Custom(f, None, None, None, recompute=True)


def custom_function_leaves(
    f: LeavesFn, vjp: VjpRule | None, jvp: JvpRule | None, vmap: VmapRule | None
) -> LeavesFn:
    return _Custom(f, vjp, jvp, vmap, recompute=False)

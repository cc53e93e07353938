"""PyTorch transform primitives on flat lists of native leaves, all through ``torch.func`` and
``torch.autograd.Function`` so that they nest with each other and with ``ivy_like.grad``
(``torch.func.grad_and_value``, see ``gradients.py``), and never set ``.grad`` on a tensor:

* ``vjp_leaves``: ``torch.func.vjp``; ``jvp_leaves``: ``torch.func.jvp`` (forward mode: an op
  without a forward-mode formula raises torch's own error naming it);
* ``vmap_leaves``: ``torch.func.vmap``'s primitives on the flat leaves (``torch.func.vmap``
  itself while Dynamo traces); an output declared unmapped that depends on the mapped axis is
  a ``ValueError``;
* ``compile_leaves``: ``make_fx`` traces the function once per input signature (shapes,
  strides, dtypes, devices, grad mode) into a graph of ATen ops that Inductor compiles
  (``torch._inductor.compile``; ``torch.compile`` of the graph when shapes depend on values):
  ``mx.compile``'s and ``jax.jit``'s semantics (the Python, ivy_like's layer included, runs
  once per signature) and no Dynamo guards per call. Under a ``torch.func`` transform the
  function runs uncompiled (make_fx cannot see through the transform's wrapped tensors);
  inside the caller's own ``torch.compile`` it is traced inline. DTensors (``dist.spmd``'s
  arguments and results) are traced through their local blocks, and torch.distributed's
  in-place c10d collectives are refused (a ``TypeError`` naming the functional ones);
* ``checkpoint_leaves``: an ``autograd.Function`` whose backward recomputes with
  ``torch.func.vjp``: ``torch.utils.checkpoint`` does not compose with ``torch.func``
  (saved-tensor hooks are refused under ``torch.func.grad``, the reentrant form lacks
  ``setup_context``). Arrays the function captures instead of taking them as arguments are
  constants to the backward pass (as in ``mx.checkpoint``; ``jax.checkpoint`` differentiates
  them);
* ``custom_function_leaves``: one ``autograd.Function`` subclass per custom function, its
  ``backward``/``jvp``/``vmap`` the rules; a missing rule falls back to the function's own
  derivative (``torch.func.vjp``/``jvp``) or to ``generate_vmap_rule``, as MLX's
  ``custom_function`` falls back to the default transformation (with a vmap rule,
  ``grad(vmap(f))`` differentiates the rule, as MLX does).

Dynamo (a caller's own ``torch.compile``) silently drops an ``autograd.Function``'s backward
and jvp under ``torch.func`` (pytorch#193279, #192985): there, custom rules run eagerly behind
a graph break, and a checkpointed function is traced inline (its derivative is its own).

The frontend (``ivy_like/transforms/``) flattens arguments and rebuilds results; the contract
of each function is in ``ivy_like/backends/__init__.py``.
"""

from __future__ import annotations

from typing import Any, Callable

import torch
import torch._inductor as _inductor
import torch.func
from torch._C import _functorch
from torch._functorch.vmap import lazy_load_decompositions as _lazy_decompositions
from torch._subclasses.fake_tensor import DataDependentOutputException as _DataDependentOutput
from torch._subclasses.fake_tensor import DynamicOutputShapeException as _DynamicOutputShape
from torch.fx.experimental.proxy_tensor import make_fx as _make_fx
from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode as _DataDependent

from .._common.helpers import JvpRule, LeavesFn, VjpRule, VmapFn, VmapRule, vjp_leaves_for
from . import _dtensor_type

vjp_leaves = vjp_leaves_for(torch.func.vjp)


def _call_list(f: Callable[[list[Any]], Any]) -> Callable[..., Any]:
    return lambda *leaves: f(list(leaves))


def jvp_leaves(
    f: Callable[[list[Any]], list[Any]], primals: list[Any], tangents: list[Any]
) -> tuple[list[Any], list[Any]]:
    # torch.func.jvp takes the primals as positional arguments (a tuple), not one list.
    outputs, jvps = torch.func.jvp(_call_list(f), tuple(primals), tuple(tangents))
    return outputs, jvps


def vmap_leaves(
    f: VmapFn, leaves: list[Any], in_axes: list[Any], axis_size: int
) -> tuple[list[Any], list[Any]]:
    if torch.compiler.is_compiling():  # Dynamo traces torch.func.vmap, not the primitives
        mapped = torch.func.vmap(_call_list(f), in_dims=tuple(in_axes), out_dims=(0, None))
        return mapped(*leaves)  # type: ignore[no-any-return]
    return _flat_vmap(f, leaves, in_axes, axis_size)


def _flat_vmap(
    f: VmapFn, leaves: list[Any], in_axes: list[Any], axis_size: int
) -> tuple[list[Any], list[Any]]:
    """``torch.func.vmap`` (randomness "error") on a flat list, from the functorch primitives
    it is made of: a new vmap level, a batch dimension added to each mapped leaf, and removed
    from each mapped output (an output that does not depend on the mapped axis is expanded,
    as torch.func does). torch.func's own function walks the arguments, ``in_dims``, the
    results and ``out_dims`` with torch's pytree at every call; the leaves here are flat and
    the axes checked by the frontend. An unmapped output must not depend on the mapped axis
    (a ``ValueError``, as torch.func raises)."""
    _lazy_decompositions()
    level = _functorch._vmap_increment_nesting(axis_size, "error")
    try:
        batched = [
            x if a is None else _functorch._add_batch_dim(x, a, level)
            for x, a in zip(leaves, in_axes)
        ]
        mapped, unmapped = f(batched)
        out = []
        for y in mapped:
            if not isinstance(y, torch.Tensor):
                raise ValueError(
                    f"vmap: the function must return only tensors, got {type(y).__name__}"
                )
            out.append(_functorch._remove_batch_dim(y, level, axis_size, 0))
        for y in unmapped:
            if isinstance(y, torch.Tensor) and _functorch.is_batchedtensor(y):
                raise ValueError(
                    "vmap: an output with out_axes None depends on the mapped axis; map it "
                    "(out_axes 0) or make it independent of the mapped arguments"
                )
    finally:
        _functorch._vmap_decrement_nesting()
    return out, unmapped


_ZERO_TENSOR = torch.ops.aten._efficientzerotensor.default

# Whether make_fx is tracing (what torch.fx.experimental.proxy_tensor.get_proxy_mode reads,
# at a sixth of its cost: this is on every compiled call).
_proxy_mode = torch._C._get_dispatch_mode
_PROXY = torch._C._TorchDispatchModeKey.PROXY


def compile_leaves(f: Callable[..., list[Any]]) -> Callable[..., list[Any]]:
    # One compiled graph per input signature (shapes, dtypes, devices...), as jax.jit and
    # mx.compile: the key is cheaper than Dynamo's guards and the graph is built once.
    graphs: dict[tuple[Any, ...], Callable[..., list[Any]]] = {}

    def compiled(*leaves: Any) -> list[Any]:
        if (
            torch.compiler.is_compiling()
            or _functorch.maybe_current_level() is not None
            or _proxy_mode(_PROXY) is not None
        ):
            # Inside a torch.compile, or a compile's own trace (make_fx: a compiled function
            # called by a compiled function), the caller's trace takes f in; under a
            # torch.func transform make_fx would see the transform's wrapped tensors: run f
            # as it is.
            return f(*leaves)
        dtensor = _dtensor_type()
        if dtensor is not None and _distributed_in_use():
            # DTensors may come in or out (dist.spmd makes them from plain tensors): traced on
            # their blocks. Only with a process group: a library that merely imports
            # torch.distributed.tensor (transformers does) keeps the plain path.
            return _on_blocks(f, leaves, graphs, dtensor)
        # Strides too: make_fx records reshape as a view or as a copy depending on them; and
        # the grad mode, which decides whether Inductor builds a backward for the graph.
        key = (
            torch.is_grad_enabled(),
            *[(x.shape, x.stride(), x.dtype, x.device, x.requires_grad) for x in leaves],
        )
        run = graphs.get(key)
        if run is None:
            run = graphs[key] = _trace_and_compile(f, leaves)
        return run(*leaves)

    return compiled


def _distributed_in_use() -> bool:
    return torch.distributed.is_available() and torch.distributed.is_initialized()


def _dtensor_meta(x: Any, dtensor: Any) -> Any:
    """What rebuilds a DTensor from its local block: mesh, placements, global shape, stride."""
    if not isinstance(x, dtensor):
        return None
    return (x.device_mesh, tuple(x.placements), x.shape, x.stride())


def _on_blocks(
    f: Callable[..., list[Any]], leaves: tuple[Any, ...], graphs: dict[Any, Any], dtensor: Any
) -> list[Any]:
    """``f`` of DTensors (a ``dist.spmd`` function, DTensor math) compiled on their local
    blocks. make_fx given a DTensor itself reads its block as a constant of the graph (the
    compiled function would ignore its arguments), and a DTensor made inside the trace does
    not leave the graph as one; given the blocks, wrapped into DTensors inside the trace
    (``from_local``: no communication), it records what runs on them, the collectives
    included, and the outputs leave the graph as blocks, wrapped again here."""
    metas = tuple(_dtensor_meta(x, dtensor) for x in leaves)
    blocks = [x.to_local() if m is not None else x for x, m in zip(leaves, metas)]
    key = (
        "blocks",
        torch.is_grad_enabled(),
        *[(x.shape, x.stride(), x.dtype, x.device, x.requires_grad) for x in blocks],
        *metas,
    )
    hit = graphs.get(key)
    if hit is None:
        out_metas: list[Any] = []

        def on_blocks(*local: Any) -> list[Any]:
            wrapped = [
                x
                if m is None
                else dtensor.from_local(x, m[0], m[1], run_check=False, shape=m[2], stride=m[3])
                for x, m in zip(local, metas)
            ]
            outs = f(*wrapped)
            out_metas[:] = [_dtensor_meta(y, dtensor) for y in outs]
            return [y.to_local() if m is not None else y for y, m in zip(outs, out_metas)]

        hit = graphs[key] = (_trace_and_compile(on_blocks, tuple(blocks)), out_metas)
    run, out_metas = hit
    return [
        y
        if m is None
        else dtensor.from_local(y, m[0], m[1], run_check=False, shape=m[2], stride=m[3])
        for y, m in zip(run(*blocks), out_metas)
    ]


def _trace_and_compile(f: Callable[..., list[Any]], leaves: tuple[Any, ...]) -> Any:
    """``f`` traced once on fake tensors of the leaves' signature into a graph of ATen ops,
    then compiled by Inductor.

    Tracing with make_fx rather than letting Dynamo read ``f``'s bytecode gives mx.compile's
    and jax.jit's semantics: the Python of ``f`` (the ivy_like layer, the user's side effects)
    runs once per signature and is gone from the compiled function, whose graph holds only
    ATen ops; captured tensors are constants of the graph (read by reference); custom
    autograd.Function rules are traced as they run (Dynamo drops them under torch.func,
    pytorch#193279). Python control flow on tensor values cannot be traced, as in jax.jit and
    mx.compile (``.item()`` and ``.tolist()`` are traced; ``if``, ``bool``, ``float`` are not).
    """
    try:
        graph = _make_fx(f, tracing_mode="fake", _allow_non_fake_inputs=True)(*leaves)
    except _DataDependent as e:
        raise TypeError(
            "compile: the function uses the value of an array in Python control flow (if, "
            "bool(), float()...), which a compiled function cannot (as in jax.jit and "
            "mx.compile); use array ops (ivy_like.where) or call it uncompiled"
        ) from e
    _refuse_inplace_collectives(graph.graph)
    # Forward mode leaves unused checks returning bools (aten.is_same_size...), each a graph
    # break for Dynamo: drop every unused op without side effects.
    graph.graph.eliminate_dead_code()
    # Forward mode records torch's zero tensors (aten._efficientzerotensor, a ZeroTensor with
    # no memory) for tangents known to be zero; Inductor reads them as real buffers and the
    # compiled function crashes the process (jvp of jvp of sum(sin(x)) * 2, torch 2.13): a
    # plain zeros, which it compiles to a constant.
    for node in graph.graph.nodes:
        if node.target is _ZERO_TENSOR:
            node.target = torch.ops.aten.zeros.default
    graph.recompile()
    try:
        # Inductor compiles the graph directly: Dynamo has nothing left to read in it, and its
        # guards cost more per call than the signature key above (which fixes the shapes).
        return _inductor.compile(graph, list(leaves))
    except (_DataDependentOutput, _DynamicOutputShape):
        # Shapes or numbers read from values (nonzero, a boolean mask, unique, .item()) need
        # the shape environment that torch.compile builds around the graph.
        return torch.compile(graph.forward, dynamic=False)


def _refuse_inplace_collectives(graph: Any) -> None:
    """A TypeError for torch.distributed's own collectives (``dist.all_reduce``...) in a
    traced graph: make_fx records them as in-place ``c10d`` ops holding the process group
    object, which Inductor cannot compile (its fake-tensor cache compares the group, which
    has no ``__eq__``), and their in-place, asynchronous form has no place in a functional
    graph. The functional collectives (``torch.distributed._functional_collectives``, which
    ``ivy_like.distributed`` uses) trace and compile."""
    for node in graph.nodes:
        target = node.target
        if getattr(target, "namespace", None) == "c10d":
            raise TypeError(
                f"compile: the function calls torch.distributed's in-place collective "
                f"{target.name()} (torch.distributed.all_reduce, all_gather, broadcast...), "
                "which a compiled function cannot hold; use ivy_like.distributed's all_sum, "
                "all_mean or all_gather inside dist.spmd (or torch.distributed."
                "_functional_collectives), or call the function uncompiled"
            )


def _is_float(x: Any) -> bool:
    return isinstance(x, torch.Tensor) and (x.is_floating_point() or x.is_complex())


def _default_vjp(
    f: Callable[..., list[Any]], primals: tuple[Any, ...], cotangents: tuple[Any, ...]
) -> list[Any]:
    """``f``'s own vjp at ``primals``, recomputing its forward pass; integer inputs get None
    and integer outputs are left out (torch.func differentiates floating-point tensors only)."""
    wrt = [i for i, p in enumerate(primals) if _is_float(p)]
    kept: list[int] = []

    def on_float(*xs: Any) -> tuple[Any, ...]:
        call = list(primals)
        for i, x in zip(wrt, xs):
            call[i] = x
        outs = f(*call)
        kept[:] = [j for j, o in enumerate(outs) if _is_float(o)]
        return tuple(outs[j] for j in kept)

    _, pullback = torch.func.vjp(on_float, *(primals[i] for i in wrt))
    grads = pullback(tuple(cotangents[j] for j in kept))
    out: list[Any] = [None] * len(primals)
    for i, g in zip(wrt, grads):
        out[i] = g
    return out


def _tangents_or_zeros(primals: tuple[Any, ...], tangents: tuple[Any, ...]) -> tuple[Any, ...]:
    # autograd.Function.jvp gets None for an input without a tangent.
    return tuple(
        torch.zeros_like(p) if t is None and _is_float(p) else t for p, t in zip(primals, tangents)
    )


def _default_jvp(
    f: Callable[..., list[Any]], primals: tuple[Any, ...], tangents: tuple[Any, ...]
) -> list[Any]:
    """``f``'s own jvp at ``primals``; integer inputs are held constant."""
    wrt = [i for i, p in enumerate(primals) if _is_float(p)]

    def on_float(*xs: Any) -> list[Any]:
        call = list(primals)
        for i, x in zip(wrt, xs):
            call[i] = x
        return f(*call)

    tangents = _tangents_or_zeros(primals, tangents)
    _, jvps = torch.func.jvp(
        on_float, tuple(primals[i] for i in wrt), tuple(tangents[i] for i in wrt)
    )
    return jvps  # type: ignore[no-any-return]


class ForwardOverForwardError(TypeError, NotImplementedError):
    """A TypeError, as every refused route to a wrong derivative is, and a NotImplementedError,
    as a derivative a backend cannot take is (ivy_like.testing reports it as not applicable)."""


def _refuse_nested_forward() -> None:
    """A TypeError where a jvp rule runs under two forward-mode levels: torch runs an
    autograd.Function's jvp outside the outer level, whose derivative of it would silently be
    zero (torch 2.13: jvp of jvp of x*x gave 0, not 2). Reverse over forward and forward over
    reverse are right and pass."""
    stack = _functorch.get_interpreter_stack() or ()
    if sum(1 for level in stack if level.key() == _JVP) >= 2:
        raise ForwardOverForwardError(
            "custom_function: the torch backend cannot take a forward-mode derivative of a "
            "forward-mode derivative through a custom_function (torch would give a zero); make "
            "one of the two reverse mode (grad or vjp), or use the jax backend"
        )


_JVP = _functorch.TransformType.Jvp


def _under_forward_mode() -> bool:
    return any(level.key() == _JVP for level in _functorch.get_interpreter_stack() or ())


_GRAD = _functorch.TransformType.Grad


def _reverse_levels() -> int:
    return sum(1 for level in _functorch.get_interpreter_stack() or () if level.key() == _GRAD)


def forward_rule_differentiated(*tensors: Any) -> bool:
    """Whether a forward-mode rule that runs now is itself differentiated: a jvp level of
    torch.func inside another jvp or grad level (jvp of jvp, vjp of jvp), or a jvp level over
    ``tensors`` that torch's own autograd records (``ivy_like.grad`` at the top level takes
    that route, with no torch.func level). torch 2.13's forward-mode rules of det, slogdet and
    solve hold the LU factors of the primal constant (pytorch#192540): right once, silently
    wrong when differentiated again. Jvp of vjp is right (the jvp level is the outermost).

    Only for those ops, and only under a torch.func transform: the caller reads
    ``_functorch.maybe_current_level()`` first, so the path without transforms pays one call."""
    outer = forward = False  # a jvp or grad level outside the level looked at; a jvp level
    for level in _functorch.get_interpreter_stack() or ():
        key = level.key()
        if key == _JVP:
            if outer:
                return True
            outer = forward = True
        elif key == _GRAD:
            outer = True
    return forward and torch.is_grad_enabled() and any(map(_recorded, tensors))


def _recorded(x: Any) -> bool:
    """Whether torch's autograd records ``x`` below the torch.func levels wrapped around it
    (a wrapper of a jvp level reports ``requires_grad`` False whatever its base does)."""
    while _functorch.is_functorch_wrapped_tensor(x):
        x = _functorch.get_unwrapped(x)
    return bool(x.requires_grad)


def _mark_integer_outputs(ctx: Any, output: tuple[Any, ...]) -> None:
    ctx.differentiable = tuple(_is_float(o) for o in output)
    ints = [o for o, d in zip(output, ctx.differentiable) if not d]
    if ints:
        ctx.mark_non_differentiable(*ints)


def _output_tangents(ctx: Any, tangents: list[Any]) -> tuple[Any, ...]:
    # autograd.Function.jvp must give None for an output that is not differentiable.
    return tuple(t if d else None for t, d in zip(tangents, ctx.differentiable))


class _Checkpoint(torch.autograd.Function):
    """``f(*leaves)`` whose backward pass recomputes ``f`` instead of keeping its
    intermediate values. ``f`` travels as the first (non-tensor) input, so one class serves
    every checkpointed function. The forward pass runs untracked (autograd.Function's
    forward, also under torch.func), so only the inputs are saved."""

    generate_vmap_rule = True  # forward, backward and jvp are plain torch code

    @staticmethod
    def forward(f: Callable[..., list[Any]], *leaves: Any) -> tuple[Any, ...]:  # type: ignore[override]
        return tuple(f(*leaves))

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: tuple[Any, ...]) -> None:
        ctx.f = inputs[0]
        ctx.save_for_backward(*inputs[1:])
        ctx.save_for_forward(*inputs[1:])
        _mark_integer_outputs(ctx, output)

    @staticmethod
    def backward(ctx: Any, *cotangents: Any) -> tuple[Any, ...]:  # type: ignore[override]
        return (None, *_default_vjp(ctx.f, ctx.saved_tensors, cotangents))

    @staticmethod
    def jvp(ctx: Any, _f: Any, *tangents: Any) -> tuple[Any, ...]:  # type: ignore[override]
        return _output_tangents(ctx, _default_jvp(ctx.f, ctx.saved_tensors, tangents))


def checkpoint_leaves(f: Callable[..., list[Any]]) -> Callable[..., list[Any]]:
    def checkpointed(*leaves: Any) -> list[Any]:
        if torch.compiler.is_compiling():
            # Traced inline: under torch.func Dynamo drops an autograd.Function's backward
            # (pytorch#193279), harmless here (it is f's own derivative), and AOTAutograd's
            # partitioner chooses what to recompute in a compiled graph.
            return f(*leaves)
        if _under_forward_mode():
            # Recomputing saves memory in reverse mode only; and torch runs the Function's jvp
            # outside an outer forward level, so jvp of jvp through it would be zero.
            return f(*leaves)
        if _reverse_levels() >= 2:
            # Reverse over reverse: the recomputing backward runs torch.func.vjp inside the
            # inner level's backward, which torch cannot differentiate for the outer one (an
            # internal assert in torch 2.13): f's own graph is kept instead.
            return f(*leaves)
        return list(_Checkpoint.apply(f, *leaves))

    return checkpointed


def custom_function_leaves(
    f: LeavesFn, vjp: VjpRule | None, jvp: JvpRule | None, vmap: VmapRule | None
) -> LeavesFn:

    def forward(*leaves: Any) -> tuple[Any, ...]:
        return tuple(f(*leaves))

    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: tuple[Any, ...]) -> None:
        ctx.n_inputs = len(inputs)
        # The vjp rule sees the primals and the outputs; the default one recomputes. Both
        # saves get the same tensors: generate_vmap_rule keeps one record of their batch dims.
        saved = (*inputs, *output) if vjp is not None else inputs
        ctx.save_for_backward(*saved)
        ctx.save_for_forward(*saved)
        _mark_integer_outputs(ctx, output)

    def backward(ctx: Any, *cotangents: Any) -> tuple[Any, ...]:
        saved = ctx.saved_tensors
        primals = saved[: ctx.n_inputs]
        if vjp is None:
            return tuple(_default_vjp(f, primals, cotangents))
        return tuple(vjp(list(primals), list(cotangents), list(saved[ctx.n_inputs :])))

    def jvp_rule(ctx: Any, *tangents: Any) -> tuple[Any, ...]:
        _refuse_nested_forward()
        primals = ctx.saved_tensors[: ctx.n_inputs]
        if jvp is None:
            return _output_tangents(ctx, _default_jvp(f, primals, tangents))
        rule = jvp(list(primals), list(_tangents_or_zeros(primals, tangents)))
        return _output_tangents(ctx, rule)

    body: dict[str, Any] = {
        "forward": staticmethod(forward),
        "setup_context": staticmethod(setup_context),
        "backward": staticmethod(backward),
        "jvp": staticmethod(jvp_rule),
    }
    if vmap is None:
        # Forward, backward and jvp are torch code: torch.func can batch them itself.
        body["generate_vmap_rule"] = True
    else:

        def vmap_rule(info: Any, in_dims: tuple[Any, ...], *leaves: Any) -> tuple[Any, Any]:
            outs, out_axes = vmap(list(leaves), list(in_dims))
            return tuple(outs), tuple(out_axes)

        body["vmap"] = staticmethod(vmap_rule)
    fn: Any = type(f"custom_{getattr(f, '__name__', 'function')}", (torch.autograd.Function,), body)

    def custom(*leaves: Any) -> list[Any]:
        if torch.compiler.is_compiling():
            # Dynamo inlines an autograd.Function's forward under torch.func and silently drops
            # its backward and jvp (pytorch#193279, #192985): the rules run eagerly instead
            # (a graph break, so compile(grad(f)) runs the grad eagerly; correct, not fast).
            return _apply_eagerly(fn, leaves)
        return list(fn.apply(*leaves))

    return custom


@torch.compiler.disable
def _apply_eagerly(fn: Any, leaves: tuple[Any, ...]) -> list[Any]:
    return list(fn.apply(*leaves))

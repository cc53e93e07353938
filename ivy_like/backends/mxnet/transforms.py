"""MXNet 1.9 transform primitives, with what ``mxnet.autograd`` can do (reverse mode, one tape
per thread, ``autograd.Function`` for a node with its own backward).

* ``vjp_leaves``: ``autograd.record`` on copies of the primals (``attach_grad``, as
  ``gradients.py``: the caller's arrays are never marked), then one ``backward`` of
  ``sum(output * cotangent)`` over the outputs (its gradient is exactly the cotangents, and an
  output that does not depend on the primals, or is one of them, needs no special case). A vjp
  inside another gradient raises ``NotImplementedError``, as ``grad`` of ``grad`` does.
* ``jvp_leaves``: ``NotImplementedError``. MXNet has no forward mode, and a jvp as the
  derivative of a vjp needs higher-order gradients, which MXNet 1.9 registers for a few
  operators only (``x * x`` fails, ``exp`` gives zeros): jax, torch, tensorflow and mlx can.
* ``vmap_leaves``: a Python loop over the batch and a stack (``backends/_common/loop_vmap.py``,
  as NumPy); slices and the stack are recorded ops, so ``grad(vmap(f))`` and
  ``vmap(grad(f))`` both work. An output with ``out_axes`` ``None`` must be equal for every
  example (compared by value).
* ``compile_leaves``: ``f`` itself. MXNet compiles Gluon blocks (``HybridBlock.hybridize``),
  not Python functions of NDArrays; ``f`` runs imperatively.
* ``checkpoint_leaves``: under a tape, ``f`` runs with the tape paused (none of its
  intermediate values is kept) and is recorded as one ``autograd.Function`` node whose
  backward recomputes it under a tape of its own and backpropagates through it. Outside a tape
  it is ``f``.
* ``custom_function_leaves``: the vjp rule as an ``autograd.Function`` node (used by ``grad``,
  ``vjp`` and ``compile``); the vmap rule as in NumPy's loop, once per batch. The jvp rule is
  never used (no jvp on MXNet). With a vmap rule and no vjp rule, as MLX: a gradient taken
  around the vmap differentiates the rule's ops; one taken inside each example (``vmap(grad)``)
  gets the rule's value and ``f``'s derivative (a node that recomputes ``f`` backward).

``autograd.Function`` nodes need three work-arounds here, all in :func:`_recorded`: MXNet calls
their backward on a worker thread (without the NumPy shape semantics, so arrays crossing the
node are never 0-d or empty; without the caller's context, so the rule runs in a copy of the
forward's), it leaves an input's gradient unwritten when an earlier input needs none (so each
input goes through an op with a fresh variable), and it refuses an output that is already on
the tape (so outputs are copies).
"""

from __future__ import annotations

import contextvars
from typing import Any, Callable

import mxnet as mx
import numpy as np
from mxnet import autograd

from .._common.loop_vmap import LoopVmap as _LoopVmap
from . import NDArray as _NDArray
from . import numpy_shapes as _numpy_shapes
from .gradients import _backward, _detach, _fresh_leaves
from .manipulation import stack as _stack_kernel

_nd = mx.nd
_Leaves = list[Any]
# The exception a rule raised in an autograd.Function's backward. MXNet prints it and fails the
# backward with an MXNetError of its own when a gradient is read; vjp_leaves re-raises it.
_BACKWARD_ERRORS: list[BaseException] = []


def _differentiable(x: Any) -> bool:
    return np.dtype(x.dtype).kind == "f" and x.size > 0


def _pullback(
    f: Callable[[_Leaves], _Leaves],
    primals: _Leaves,
    cotangents: _Leaves | Callable[[_Leaves], _Leaves],
) -> tuple[_Leaves, _Leaves]:
    """``(outputs, vjps)``: ``f`` recorded on fresh copies of ``primals``, then one backward
    seeded with ``cotangents`` (a list, or a function of the outputs giving it)."""
    copies = _fresh_leaves(primals)
    with autograd.record():
        outputs = list(f(copies))
    ct = cotangents if isinstance(cotangents, list) else cotangents(outputs)
    with autograd.record():
        terms = [
            (o * c.astype(o.dtype, copy=False)).sum()
            for o, c in zip(outputs, ct)
            if _differentiable(o)
        ]
        head = terms[0] if len(terms) == 1 else _nd.add_n(*terms) if terms else None
    if head is not None:
        _backward(head)
    return outputs, [c.grad for c in copies]


@_numpy_shapes
def vjp_leaves(
    f: Callable[[_Leaves], _Leaves],
    primals: _Leaves,
    cotangents_for: Callable[[_Leaves], _Leaves],
) -> tuple[_Leaves, _Leaves]:
    _BACKWARD_ERRORS.clear()
    outputs, grads = _pullback(f, primals, cotangents_for)
    try:
        for g in grads:
            g.wait_to_read()  # MXNet runs asynchronously: a failed backward shows here
    except mx.base.MXNetError as err:
        if _BACKWARD_ERRORS:
            raise _BACKWARD_ERRORS.pop() from err
        raise
    return [_detach(o) for o in outputs], grads


def jvp_leaves(
    f: Callable[[_Leaves], _Leaves], primals: _Leaves, tangents: _Leaves
) -> tuple[_Leaves, _Leaves]:
    raise NotImplementedError(
        "jvp: the mxnet backend cannot compute Jacobian-vector products: MXNet's autograd has "
        "reverse mode only, and its higher-order gradients cover too few operators to derive "
        "one from a vjp; jax, torch, tensorflow and mlx can"
    )


def _take(x: Any, axis: int, i: int) -> Any:
    if axis == 0:
        return x[i]  # a recorded op under a tape; 0-d for a 1-d x (NumPy shape semantics)
    shape = x.shape[:axis] + x.shape[axis + 1 :]
    return _nd.slice_axis(x, axis=axis, begin=i, end=i + 1).reshape(shape)


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    kind = np.dtype(a.dtype).kind
    return bool(np.array_equal(a.asnumpy(), b.asnumpy(), equal_nan=kind in "fc"))


_LOOP = _LoopVmap("mxnet", _take, _stack_kernel, _same, autograd.is_recording)
vmap_leaves = _numpy_shapes(_LOOP.vmap_leaves)


def compile_leaves(f: Callable[..., _Leaves]) -> Callable[..., _Leaves]:
    return f


# -- one recorded node with its own backward ----------------------------------------------------
class _Node(autograd.Function):  # type: ignore[misc]
    """``outputs`` (already computed from ``leaves``, off the tape) recorded as one node whose
    backward is ``rule(primals, cotangents, outputs) -> one gradient per primal``."""

    def __init__(
        self,
        leaves: _Leaves,
        outputs: _Leaves,
        rule: Callable[[_Leaves, _Leaves, Any], _Leaves],
        keep_outputs: bool,
        inputs: list[int],
        outs: list[int],
    ) -> None:
        super().__init__()
        self._leaves = leaves
        self._outputs = outputs if keep_outputs else None
        self._meta = [(o.shape, o.dtype, o.context) for o in outputs]
        self._rule = rule
        self._inputs = inputs  # positions of the leaves that cross the node
        self._outs = outs  # positions of the outputs that cross it
        self._fresh = [outputs[j] for j in outs]
        # The rule runs on MXNet's worker thread: in a copy of the caller's context (the
        # active ivy_like backend), taken now.
        self._context = contextvars.copy_context()

    def forward(self, *inputs: Any) -> tuple[Any, ...]:
        # Copies: MXNet refuses an output that is already on the tape (one of the leaves).
        fresh = tuple(o.reshape((1,)).copy() if o.ndim == 0 else o.copy() for o in self._fresh)
        self._fresh = []
        return fresh

    def backward(self, *cotangents: Any) -> tuple[Any, ...]:
        try:
            return self._context.copy().run(self._backward, cotangents)  # type: ignore[no-any-return]
        except BaseException as err:
            _BACKWARD_ERRORS[:] = [err]  # the latest only: nothing piles up if none reads it
            raise

    def _backward(self, cotangents: tuple[Any, ...]) -> tuple[Any, ...]:
        _LOOP.forget()  # the rule is not part of a running vmap loop
        with mx.util.np_shape(True):
            full = [_nd.zeros(s, ctx=c, dtype=d) for s, d, c in self._meta]
            for j, ct in zip(self._outs, cotangents):
                full[j] = ct.reshape(self._meta[j][0])
            grads = list(self._rule(self._leaves, full, self._outputs))
            if len(grads) != len(self._leaves):
                raise ValueError(
                    f"custom_function: the vjp rule returned {len(grads)} gradients for "
                    f"{len(self._leaves)} arrays"
                )
            out = []
            for j in self._inputs:
                g, leaf = grads[j], self._leaves[j]
                if not isinstance(g, _NDArray) or g.shape != leaf.shape:
                    got = g.shape if isinstance(g, _NDArray) else type(g).__name__
                    raise ValueError(
                        f"custom_function: the vjp rule returned {got} for an argument of "
                        f"shape {leaf.shape}; return an array shaped like it"
                    )
                g = g.astype(leaf.dtype, copy=False)
                out.append(g.reshape((1,)) if leaf.ndim == 0 else g)
            return tuple(out)


def _recorded(
    leaves: _Leaves,
    outputs: _Leaves,
    rule: Callable[[_Leaves, _Leaves, Any], _Leaves],
    keep_outputs: bool,
) -> _Leaves:
    """``outputs`` on the tape as one node with ``rule`` for its backward (see _Node).

    Only floating-point, non-empty arrays cross the node (an integer or empty array carries no
    gradient), 0-d ones reshaped to (1,): MXNet's worker thread writes the gradients without
    NumPy shape semantics, where a 0-d or empty shape means "unknown".
    """
    ins = [j for j, x in enumerate(leaves) if _differentiable(x)]
    outs = [j for j, o in enumerate(outputs) if _differentiable(o)]
    if not ins or not outs:
        return outputs
    crossing = []
    for j in ins:
        x = leaves[j]
        # MXNet 1.9 stops writing input gradients at the first input that needs none (a
        # constant): adding a fresh zero variable puts every input on the tape. Its shape (1,)
        # also lifts a 0-d input to (1,) by broadcasting.
        zero = _nd.zeros((1,), ctx=x.context, dtype=x.dtype)
        zero.attach_grad()
        crossing.append(x + zero)
    results = _Node(leaves, outputs, rule, keep_outputs, ins, outs)(*crossing)
    out = list(outputs)
    for j, r in zip(outs, results):
        out[j] = r.reshape(()) if outputs[j].ndim == 0 else r
    return out


def _recompute(f: Callable[..., _Leaves]) -> Callable[[_Leaves, _Leaves, Any], _Leaves]:
    """A backward rule that differentiates ``f`` by recomputing it under a tape of its own."""

    def rule(primals: _Leaves, cotangents: _Leaves, _outputs: Any) -> _Leaves:
        return _pullback(lambda leaves: f(*leaves), primals, cotangents)[1]

    return rule


def checkpoint_leaves(f: Callable[..., _Leaves]) -> Callable[..., _Leaves]:
    recompute = _recompute(f)

    @_numpy_shapes
    def checkpointed(*leaves: Any) -> _Leaves:
        if not autograd.is_recording():
            return f(*leaves)
        with autograd.pause():
            outputs = list(f(*leaves))
        return _recorded(list(leaves), outputs, recompute, False)

    return checkpointed


def custom_function_leaves(
    f: Callable[..., _Leaves],
    vjp: Callable[[_Leaves, _Leaves, _Leaves], _Leaves] | None,
    jvp: Callable[[_Leaves, _Leaves], _Leaves] | None,
    vmap: Callable[[_Leaves, _Leaves], tuple[_Leaves, _Leaves]] | None,
) -> Callable[..., _Leaves]:
    if vjp is None and vmap is None:
        return f  # a jvp rule alone: MXNet has no forward mode to use it
    backward = vjp if vjp is not None else _recompute(f)

    @_numpy_shapes
    def custom(*leaves: Any) -> _Leaves:
        recording = autograd.is_recording()
        frame = _LOOP.active() if vmap is not None else None
        if frame is None:
            if not recording or vjp is None:
                return f(*leaves)
            with autograd.pause():
                outputs = list(f(*leaves))
        elif not recording or (vjp is None and frame.recording):
            # No tape, or the rule ran on the tape of a gradient taken around the vmap: this
            # example's slice of the rule's result, differentiated through the rule (as MLX).
            return _LOOP.call(frame, custom, vmap, list(leaves))
        else:
            # A tape inside this example: the rule's value, the vjp rule's gradient (else f's,
            # as MLX and JAX differentiate a function with a vmap rule under vmap).
            with autograd.pause():
                outputs = _LOOP.call(frame, custom, vmap, list(leaves))
        return _recorded(list(leaves), outputs, backward, vjp is not None)

    return custom

"""PyTorch gradient primitives: autograd's engine (what ``torch.autograd.grad`` runs) on fresh
leaves at the top level, ``torch.func`` everywhere else.

Both are functional: they never set ``.grad`` on the caller's tensors nor flip their
``requires_grad``. ``torch.func`` transforms nest (``grad(grad(f))``, under ``vmap``) and
``torch.compile`` traces them; a top-level gradient, the common case, takes the cheaper
autograd route when that keeps the same promises (see ``_fresh_leaves``).
"""

from __future__ import annotations

from typing import Any, Callable

import torch
import torch._dynamo.compiled_autograd
import torch.func
from torch._C import _functorch
from torch.autograd.graph import _engine_run_backward

from ._fused import fused_adam_update  # noqa: F401  (a hook: the optimizers' multi-tensor Adam)

_is_compiling = torch.compiler.is_compiling
_has_torch_function = torch._C._has_torch_function
_grad_enabled = torch.is_grad_enabled
_ACCUMULATE = torch._C._functions.AccumulateGrad  # the graph node of a leaf tensor
_no_compiled_autograd = torch._dynamo.compiled_autograd._disable


def _apply(leaves: list[Any], f: Callable[[list[Any]], tuple[Any, Any]]) -> tuple[Any, Any]:
    return f(leaves)


def _apply_one(leaf: Any, f: Callable[[list[Any]], tuple[Any, Any]]) -> tuple[Any, Any]:
    return f([leaf])


# Built once: the per-call function travels as a non-differentiated argument. One leaf (the
# common case) goes in bare: torch.func's handling of a list input costs ~30 µs a call.
_GRAD_AND_VALUE = torch.func.grad_and_value(_apply, has_aux=True)
_GRAD_AND_VALUE_ONE = torch.func.grad_and_value(_apply_one, has_aux=True)


def _fresh_leaves(leaves: list[Any]) -> list[Any] | None:
    """Fresh leaves aliasing ``leaves`` (no copy) that require grad, where a top-level
    gradient may take the autograd route; None where it may not.

    That route costs what ``loss.backward()`` costs; ``torch.func.grad_and_value`` adds about
    80 % to a small MLP's step (its wrapping of every tensor and its pytree walks). It is taken
    only where it keeps every promise of the functional one: no transform of torch.func around
    the call (vmap, jvp, an outer grad: they need their wrapped tensors), no leaf that an outer
    autograd graph tracks (a higher-order gradient needs the graph through it), not while
    torch.compile traces (Dynamo breaks the graph at autograd.grad) and no inference tensor.
    """
    if _functorch.maybe_current_level() is not None or _is_compiling():
        return None
    fresh = []
    for x in leaves:
        if x.requires_grad or x.is_inference():
            return None
        fresh.append(x.detach().requires_grad_())
    return fresh


def _tracked_elsewhere(value: Any, fresh: list[Any]) -> bool:
    """Whether ``value`` depends on a tensor an outer autograd graph tracks (one the function
    captured: an outer ``grad``'s argument, a user's parameter with ``requires_grad``). Then
    the gradients must stay differentiable for that outer graph (``create_graph``), as
    torch.func's are. A walk of the function's own graph, stopped at the first such leaf:
    leaves are ``AccumulateGrad`` nodes, told by their type (~0.15 µs a node: an MLP's loss
    has about 15)."""
    own = {id(x) for x in fresh}
    root = value.grad_fn
    if root is None:  # value is a leaf itself
        return id(value) not in own
    stack, seen = [root], {root}
    while stack:
        for node, _ in stack.pop().next_functions:
            if node is None:
                continue
            if type(node) is _ACCUMULATE:
                if id(node.variable) not in own:
                    return True
            elif node not in seen:
                seen.add(node)
                stack.append(node)
    return False


def _fresh_value_and_grad(
    f: Callable[[list[Any]], tuple[Any, Any]], fresh: list[Any]
) -> tuple[Any, Any, list[Any]]:
    # The gradients are returned, never accumulated into .grad: nothing of the caller's
    # tensors changes.
    if _grad_enabled():  # the common case: no context manager to enter (~1 µs)
        value, aux = f(fresh)
    else:
        with torch.enable_grad():
            value, aux = f(fresh)
    if not value.requires_grad:  # no dependence on the leaves: zeros, as torch.func gives
        return value, aux, [torch.zeros_like(x) for x in fresh]
    outer = _tracked_elsewhere(value, fresh)
    inputs = tuple(fresh)
    if outer or _has_torch_function((value, *inputs)):
        # value and aux stay connected to an outer graph, as torch.func's do; a tensor
        # subclass's __torch_function__ gets its say through torch.autograd.grad.
        grads = torch.autograd.grad(
            value, inputs, allow_unused=True, materialize_grads=True, create_graph=outer
        )
        if outer:
            return value, aux, list(grads)
        grads = list(grads)
    else:
        # What torch.autograd.grad runs, without its argument normalisation (~10 µs a call):
        # the engine with the seed 1 and accumulate_grad=False. The seed is made anew each
        # call: a hook on the value may change its gradient in place.
        seed = (torch.ones_like(value),)
        found = _engine_run_backward(
            (value,), seed, False, False, inputs, True, accumulate_grad=False
        )
        grads = [torch.zeros_like(x) if g is None else g for g, x in zip(found, fresh)]
    if aux:
        aux = [a.detach() if isinstance(a, torch.Tensor) else a for a in aux]
    return value.detach(), aux, grads


def value_and_grad_native_leaves(
    f: Callable[[list[Any]], tuple[Any, Any]], leaves: list[Any]
) -> tuple[Any, Any, list[Any]]:
    """``value_and_grad_leaves`` when no ``ivy_like.Array`` is among the arguments.

    Only then may the autograd route run: a ``torch.autograd.Function`` given an Array in
    torch's eager autograd is cut from the graph (``docs/interop.md``), where torch.func's
    route sees through it."""
    fresh = _fresh_leaves(leaves)
    if fresh is not None:
        return _fresh_value_and_grad(f, fresh)
    return value_and_grad_leaves(f, leaves)


def value_and_grad_leaves(
    f: Callable[[list[Any]], tuple[Any, Any]], leaves: list[Any]
) -> tuple[Any, Any, list[Any]]:
    """``f(leaves) -> (scalar, aux)``; return ``(scalar, aux, grads)`` with one grad a leaf."""
    if not _is_compiling():  # Dynamo traces torch.func's own functions, not the primitives
        return _flat_grad_and_value(f, leaves)
    if len(leaves) == 1:
        grad, (value, aux) = _GRAD_AND_VALUE_ONE(leaves[0], f)
        return value, aux, [grad]
    grads, (value, aux) = _GRAD_AND_VALUE(leaves, f)
    return value, aux, grads


def _flat_grad_and_value(
    f: Callable[[list[Any]], tuple[Any, Any]], leaves: list[Any]
) -> tuple[Any, Any, list[Any]]:
    """``torch.func.grad_and_value`` on a flat list, from the functorch primitives it is made
    of: a new grad level, the leaves wrapped at that level and made differentiable, the
    gradients taken with ``create_graph`` (so outer levels see through them) and unwrapped.
    torch.func's own function walks its arguments and results with torch's pytree six times a
    call (~40 % of a small ``vmap(grad(f))``); the leaves here are already flat. The results
    are the same tensors, so it nests with every torch.func transform and with itself."""
    level = _functorch._grad_increment_nesting()
    try:
        with torch.enable_grad():
            wrapped = [_functorch._wrap_for_grad(x, level) for x in leaves]
            allowed = _functorch.get_inplace_requires_grad_allowed()
            _functorch.set_inplace_requires_grad_allowed(True)
            try:
                for x in wrapped:
                    x.requires_grad_()
            finally:
                _functorch.set_inplace_requires_grad_allowed(allowed)
            value, aux = f(wrapped)
            if value.requires_grad:
                with _no_compiled_autograd():
                    grads = torch.autograd.grad(
                        value, wrapped, create_graph=True, allow_unused=True
                    )
                grads = [torch.zeros_like(x) if g is None else g for g, x in zip(grads, wrapped)]
            else:  # no dependence on the leaves: zeros, as torch.func gives
                grads = [torch.zeros_like(x) for x in wrapped]
            unwrap = _functorch._unwrap_for_grad
            out_grads = [unwrap(g, level) for g in grads]
            value = unwrap(value, level)
            if aux:
                aux = [unwrap(a, level) if isinstance(a, torch.Tensor) else a for a in aux]
    finally:
        _functorch._grad_decrement_nesting()
    return value, aux, out_grads


def jacobian(f: Callable[[Any], Any], x: Any) -> Any:
    """The Jacobian of ``f`` at ``x``, shaped ``f(x).shape + x.shape``."""
    return torch.func.jacrev(f)(x)

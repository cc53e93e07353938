"""Optimizers written once, on Containers: ``sgd``, ``momentum``, ``adam``, ``adamw``,
``rmsprop``, ``adagrad``, ``lion``.

Functional, in the style of optax: an optimizer is a pair of pure functions,

.. code-block:: python

    opt = ivy_like.optimizers.adam(1e-3)
    state = opt.init(params)                       # a Container (zeros, a step count)
    params, state = opt.update(params, grads, state)

``params`` and ``grads`` are Containers (or dicts, lists, tuples of arrays, or single arrays)
of the same structure, on any backend; the state mirrors them. Nothing is modified in place,
so ``update`` works under ``jax.jit`` and with gradients from ``ivy_like.value_and_grad`` on
every backend. The update rules are PyTorch's and optax's (they agree):

* sgd: ``p - lr * g``
* momentum: ``v = beta * v + g``; ``p - lr * v`` (Nesterov: ``p - lr * (g + beta * v)``)
* adam: ``m = b1 m + (1-b1) g``, ``v = b2 v + (1-b2) g²``, with bias correction
  ``m̂ = m / (1 - b1^t)``, ``v̂ = v / (1 - b2^t)``: ``p - lr * m̂ / (sqrt(v̂) + eps)``
* adamw: adam plus decoupled weight decay, ``p - lr * (m̂ / (sqrt(v̂) + eps) + wd * p)``,
  on the leaves selected by ``mask`` (a function of the key chain; default: all).

Adam's step count ``t`` is part of the state as an int32 scalar array on the parameters'
backend (not a Python int), so a compiled step (``ivy_like.compile``, ``jax.jit``,
``tf.function``, ``mx.compile``, ``torch.compile``) takes it as an input and compiles once
instead of once per step. The bias corrections are computed from it with array ops, as
``1 - b^t = -expm1(t log b)`` in float32 (float64 for float64 parameters): within an ulp of
the exact value, where float32 ``1 - b2**t`` is off by 1e-5 relative for ``b2 = 0.999``
(0.999 is not a float32). Eagerly that is a few scalar ops per update, once per dtype.

rmsprop, adagrad and lion follow optax (``optax.rmsprop``, ``optax.adagrad``, ``optax.lion``),
defaults included; where torch's differ, their docstrings say how to get torch's numbers.

Learning-rate schedules are in ``schedules.py``, gradient clipping in ``clipping.py``. On a
backend that provides a multi-tensor Adam update (``fused_adam_update``: torch, with its
``_foreach_*`` kernels), ``adam`` and ``adamw`` run it on native leaves; it computes the
composite's ops in the composite's order, so the numbers are the same.
"""

from __future__ import annotations

import math
import numbers
import operator
from collections.abc import Callable
from typing import Any, NamedTuple

import ivy_like as il
from ivy_like.container._container import make
from ivy_like.core import tracing as _tracing
from ivy_like.core.array import Array
from ivy_like.transforms import tree as _tree

from ._common import Clip, LearningRate, dtype_name, map_trees, parts, scale_by

__all__ = ["Optimizer", "adagrad", "adam", "adamw", "lion", "momentum", "rmsprop", "sgd"]


class Optimizer(NamedTuple):
    """``init(params) -> state`` and ``update(params, grads, state) -> (params, state)``.

    Examples
    --------
    >>> import ivy_like
    >>> opt = ivy_like.optimizers.momentum(0.5)
    >>> params = {"w": ivy_like.array([1.0])}
    >>> state = opt.init(params)
    >>> params, state = opt.update(params, {"w": ivy_like.array([1.0])}, state)
    >>> params["w"], state["velocity"]["w"]
    (ivy_like.array([0.5]), ivy_like.array([1.]))
    """

    init: Callable[[Any], Any]
    update: Callable[[Any, Any, Any], tuple[Any, Any]]


def _zeros(params: Any) -> Any:
    return map_trees(lambda p, kc: il.zeros_like(p), (params,))


def _gather(
    p: Any, g: Any, m: Any, v: Any, lists: tuple[list[Any], ...], chains: list[str] | None, kc: str
) -> Any:
    """Append the leaves of params ``p``, grads ``g`` and moments ``m``, ``v`` (trees of the
    same structure) to the four ``lists``, and their key chains to ``chains`` unless it is
    None, in ``_map``'s order. Returns the structure of ``p`` as an ``ivy_like.transforms.tree`` spec
    (the new trees are rebuilt from it), or None at the first difference in structure or
    leaf shape (the caller then runs ``_map``, which raises the error naming it). Plain
    loops: this walk runs at every step, and generator expressions cost about twice as
    much."""
    if isinstance(p, dict):
        keys = p.keys()
        if not (
            isinstance(g, dict)
            and isinstance(m, dict)
            and isinstance(v, dict)
            and g.keys() == keys
            and m.keys() == keys
            and v.keys() == keys
        ):
            return None
        children = []
        for k in keys:
            child = "" if chains is None else f"{kc}/{k}" if kc else str(k)
            spec = _gather(p[k], g[k], m[k], v[k], lists, chains, child)
            if spec is None:
                return None
            children.append(spec)
        return ("d", type(p), tuple(keys), tuple(children))
    if isinstance(p, (list, tuple)):
        n = len(p)
        for t in (g, m, v):
            if not isinstance(t, (list, tuple)) or len(t) != n:
                return None
        children = []
        for i in range(n):
            child = "" if chains is None else f"{kc}[{i}]"
            spec = _gather(p[i], g[i], m[i], v[i], lists, chains, child)
            if spec is None:
                return None
            children.append(spec)
        return ("l", type(p), tuple(children))
    if getattr(m, "shape", None) != getattr(g, "shape", None):
        return None
    lists[0].append(p)
    lists[1].append(g)
    lists[2].append(m)
    lists[3].append(v)
    if chains is not None:
        chains.append(kc)
    return _tree.N


def _first_leaf(tree: Any) -> Any:
    """The first leaf of a tree of dicts/lists/tuples (None when it has none)."""
    if isinstance(tree, dict):
        tree = list(tree.values())
    if isinstance(tree, (list, tuple)):
        for child in tree:
            leaf = _first_leaf(child)
            if leaf is not None:
                return leaf
        return None
    return tree


def _zero_count(params: Any) -> Any:
    """A step count of 0: an int32 scalar array on the backend and device of the parameters,
    an ``Array`` when they are Arrays; so a compiled step takes it as an input."""
    leaf = _first_leaf(params)
    try:
        b = il.backend_of(leaf)
    except TypeError:  # no array among the parameters: the active backend
        return il.zeros((), dtype=il.int32)
    native = leaf.data if isinstance(leaf, Array) else leaf
    device = b.scalar_device(native)
    count = b.zeros((), dtype=b.native_dtype(il.int32), device=device)
    return Array(count, b) if isinstance(leaf, Array) else count


def _increment(count: Any) -> Any:
    """``count + 1`` with the backend's own function, so the dtype stays int32 (and MXNet's
    0-d arrays work)."""
    b, native = parts(count)
    out = b.add(native, 1)
    return Array(out, b) if isinstance(count, Array) else out


def _log(b: float) -> float:
    return math.log(b) if b > 0 else -math.inf  # b = 0: 1 - 0^t = -expm1(-inf) = 1


def _check_lr(lr: Any, who: str) -> LearningRate:
    """A positive number, or a schedule (any callable of the step count)."""
    if callable(lr):
        return lr  # type: ignore[no-any-return]
    if not isinstance(lr, (int, float)) or isinstance(lr, bool) or not lr > 0:
        raise ValueError(
            f"{who}: lr must be a positive number, got {lr!r} (or a schedule: a callable of "
            f"the step count)"
        )
    return float(lr)


def _check_clip(clip: Any, who: str) -> Clip | None:
    if clip is not None and not callable(clip):
        raise TypeError(
            f"{who}: clip must be a function of the gradients (clip_by_global_norm(...), "
            f"clip_by_value(...)) or None, got {type(clip).__name__}"
        )
    return clip  # type: ignore[no-any-return]


def _check_mask(mask: Any, who: str) -> Callable[[str], bool] | None:
    if mask is not None and not callable(mask):
        raise TypeError(
            f"{who}: mask must be a callable of the key chain (or None), got {type(mask).__name__}"
        )
    return mask  # type: ignore[no-any-return]


def _times(rate: Any, factor: float) -> Any:
    """``rate * factor`` for a number or a schedule's scalar array."""
    return rate * factor if isinstance(rate, numbers.Real) else il.multiply(rate, factor)


def _check_unit(value: Any, name: str, who: str) -> float:
    """A decay rate in [0, 1)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0.0 <= value < 1.0:
        raise ValueError(f"{who}: {name} must be in [0, 1), got {value!r}")
    return float(value)


def _check_non_negative(value: Any, name: str, who: str) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not value >= 0:
        raise ValueError(f"{who}: {name} must be a non-negative number, got {value!r}")
    return float(value)


def _shape(x: Any) -> tuple[int, ...] | None:
    shape = getattr(x, "shape", None)
    return None if shape is None else tuple(int(s) for s in shape)


def _same_shape(p: Any, g: Any, kc: str) -> None:
    """A gradient of another shape than its parameter would broadcast silently: refuse it."""
    ps, gs = _shape(p), _shape(g)
    if ps != gs:
        raise ValueError(
            f"optimizer: the gradient at {kc or '<root>'!r} has shape {gs}, its parameter {ps}"
        )


# -- the step count, learning rates and scalar factors -------------------------------------------
def _count_state(lr: LearningRate, params: Any) -> dict[str, Any]:
    """The step count a schedule needs (none for a constant ``lr``)."""
    return {"count": _zero_count(params)} if callable(lr) else {}


def _next_count(state: Any) -> dict[str, Any]:
    return {"count": _increment(state["count"])} if "count" in state else {}


def _rate(lr: LearningRate, state: Any) -> Any:
    """This update's learning rate: ``lr``, or the schedule at the state's step count (the
    updates made before this one, optax's count)."""
    return lr(state["count"]) if callable(lr) else lr


def _clipped(clip: Clip | None, grads: Any) -> Any:
    return grads if clip is None else clip(grads)


# -- the optimizers ------------------------------------------------------------------------------
def sgd(lr: LearningRate = 1e-2, clip: Clip | None = None) -> Optimizer:
    """Plain gradient descent: ``p - lr * g``.

    ``lr``: a number or a schedule; ``clip``: a function applied to the gradients first
    (``clip_by_global_norm(...)``, ``clip_by_value(...)``).

    Examples
    --------
    >>> import ivy_like
    >>> opt = ivy_like.optimizers.sgd(0.1)
    >>> params = ivy_like.Container(w=ivy_like.array([1., 2.]))
    >>> params, state = opt.update(params, ivy_like.Container(w=ivy_like.array([1., -1.])),
    ...                            opt.init(params))
    >>> params.w
    ivy_like.array([0.9, 2.1])
    """
    lr = _check_lr(lr, "sgd")
    clip = _check_clip(clip, "sgd")

    def init(params: Any) -> Any:
        return il.Container(**_count_state(lr, params))

    def update(params: Any, grads: Any, state: Any) -> tuple[Any, Any]:
        grads = _clipped(clip, grads)
        scale = scale_by(_rate(lr, state))

        def step(p: Any, g: Any, kc: str) -> Any:
            _same_shape(p, g, kc)
            return p - scale(g, p)

        new = map_trees(step, (params, grads))
        return new, il.Container(**_next_count(state)) if callable(lr) else state

    return Optimizer(init, update)


def momentum(
    lr: LearningRate = 1e-2, beta: float = 0.9, nesterov: bool = False, clip: Clip | None = None
) -> Optimizer:
    """Heavy-ball momentum (PyTorch's ``SGD(momentum=beta)``, no dampening; ``optax.sgd(lr,
    momentum=beta)``). ``lr`` and ``clip``: as for :func:`sgd`.

    Examples
    --------
    >>> import ivy_like
    >>> opt = ivy_like.optimizers.momentum(0.1, beta=0.5)
    >>> params = ivy_like.Container(w=ivy_like.array([1.]))
    >>> grads = ivy_like.Container(w=ivy_like.array([1.]))
    >>> state = opt.init(params)
    >>> params, state = opt.update(params, grads, state)
    >>> params, state = opt.update(params, grads, state)   # v = 0.5 * 1 + 1
    >>> params.w
    ivy_like.array([0.75])
    """
    lr = _check_lr(lr, "momentum")
    beta = _check_unit(beta, "beta", "momentum")
    clip = _check_clip(clip, "momentum")

    def init(params: Any) -> Any:
        return il.Container(velocity=_zeros(params), **_count_state(lr, params))

    def trace(v: Any, g: Any, kc: str) -> Any:
        _same_shape(v, g, kc)
        return beta * v + g

    def update(params: Any, grads: Any, state: Any) -> tuple[Any, Any]:
        grads = _clipped(clip, grads)
        velocity = map_trees(trace, (state["velocity"], grads))
        if nesterov:
            step = map_trees(lambda g, v, kc: g + beta * v, (grads, velocity))
        else:
            step = velocity
        scale = scale_by(_rate(lr, state))
        new = map_trees(lambda p, s, kc: p - scale(s, p), (params, step))
        return new, il.Container(velocity=velocity, **_next_count(state))

    return Optimizer(init, update)


def _adam(
    who: str,
    lr: LearningRate,
    b1: float,
    b2: float,
    eps: float,
    weight_decay: float,
    mask: Callable[[str], bool] | None,
    clip: Clip | None = None,
) -> Optimizer:
    lr = _check_lr(lr, who)
    b1 = _check_unit(b1, "b1", who)
    b2 = _check_unit(b2, "b2", who)
    eps = _check_non_negative(eps, "eps", who)
    weight_decay = _check_non_negative(weight_decay, "weight_decay", who)
    mask = _check_mask(mask, who)
    clip = _check_clip(clip, who)

    def first_moment(m: Any, g: Any, kc: str) -> Any:
        _same_shape(m, g, kc)
        return b1 * m + (1.0 - b1) * g

    log_b1, log_b2 = _log(b1), _log(b2)

    def corrections(count: Any, p: Any, rate: Any) -> tuple[Any, Any]:
        """``rate / (1 - b1^t)`` and ``1 / (1 - b2^t)`` as scalar arrays of ``p``'s dtype
        (``rate``: the learning rate, a number or a schedule's scalar array)."""
        b, t = parts(count)
        name = dtype_name(p)
        wide = b.native_dtype(il.float64 if name == "float64" else il.float32)
        t = b.astype(t, wide, copy=False)
        e1 = b.expm1(b.multiply(t, log_b1))  # -(1 - b1^t)
        e2 = b.expm1(b.multiply(t, log_b2))
        if isinstance(rate, numbers.Real):
            minus_rate = -float(rate)
        else:
            minus_rate = b.multiply(b.astype(parts(rate)[1], wide), -1.0)
        scalars = [b.divide(minus_rate, e1), b.divide(-1.0, e2)]
        if name not in ("float32", "float64"):  # float16/bfloat16 parameters
            scalars = [b.astype(x, b.native_dtype(name)) for x in scalars]
        if isinstance(count, Array):
            scalars = [Array(x, b) for x in scalars]
        return scalars[0], scalars[1]

    def init(params: Any) -> Any:
        return il.Container(count=_zero_count(params), mu=_zeros(params), nu=_zeros(params))

    def fused(params: Any, grads: Any, state: Any, count: Any, rate: Any) -> Any:
        """``(params, state)`` from the backend's multi-tensor update (torch:
        ``torch._foreach_*``, the same ops as the composite below over all leaves at once),
        or ``None`` where there is none or it declines (see ``backends/torch/_fused.py``). Only
        native leaves: ``Array`` leaves take the composite."""
        if isinstance(count, Array) or _tracing.is_tracing():  # a compiler sees the composite
            return None
        b = parts(count)[0]
        hook = b.__dict__.get("fused_adam_update")  # a backend hook (see the module docstring)
        if hook is None:
            return None
        lists: tuple[list[Any], ...] = ([], [], [], [])
        chains: list[str] | None = None if mask is None else []  # key chains: for the mask
        spec = _gather(params, grads, state["mu"], state["nu"], lists, chains, "")
        if spec is None:
            return None  # the composite raises the error
        if not lists[0]:
            return None
        first = lists[0][0]
        step_size, inv_c2 = corrections(count, first, rate)
        factor = _times(rate, weight_decay) if weight_decay else None
        if factor is not None and not isinstance(factor, numbers.Real):
            factor = b.astype(parts(factor)[1], b.native_dtype(dtype_name(first)))
        decayed = None if chains is None or mask is None else [bool(mask(kc)) for kc in chains]
        out = hook(*lists, b1, b2, eps, step_size, inv_c2, factor, decayed)
        if out is None:
            return None
        new, mu, nu = (_tree.rebuild(spec, iter(column), b) for column in out)
        return new, make({"count": count, "mu": mu, "nu": nu})

    def update(params: Any, grads: Any, state: Any) -> tuple[Any, Any]:
        grads = _clipped(clip, grads)
        rate = _rate(lr, state)  # at the count before this update (optax's)
        count = _increment(state["count"])
        done = fused(params, grads, state, count, rate)
        if done is not None:
            return done  # type: ignore[no-any-return]
        decay = scale_by(_times(rate, weight_decay)) if weight_decay else None
        mu = map_trees(first_moment, (state["mu"], grads))
        nu = map_trees(lambda v, g, kc: b2 * v + (1.0 - b2) * (g * g), (state["nu"], grads))
        by_dtype: dict[Any, tuple[Any, Any]] = {}  # the corrections, once per parameter dtype
        # A leaf times a 0-d array: Arrays' operator, or the backend's function on native
        # arrays (MXNet's own operators have no 0-d arrays).
        times = operator.mul if isinstance(count, Array) else parts(count)[0].multiply

        def step(p: Any, m: Any, v: Any, kc: str) -> Any:
            hit = by_dtype.get(p.dtype)
            if hit is None:
                hit = by_dtype[p.dtype] = corrections(count, p, rate)
            step_size, inv_c2 = hit
            # lr * m̂ / (sqrt(v̂) + eps) with lr / c1 and 1 / c2 computed once
            new = p - times(m, step_size) / (il.sqrt(times(v, inv_c2)) + eps)
            if decay is not None and (mask is None or mask(kc)):
                new = new - decay(p, p)
            return new

        new = map_trees(step, (params, mu, nu))
        return new, il.Container(count=count, mu=mu, nu=nu)

    return Optimizer(init, update)


def adam(
    lr: LearningRate = 1e-3,
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-8,
    clip: Clip | None = None,
) -> Optimizer:
    """Adam (Kingma & Ba), with bias correction; ``eps`` outside the square root.
    ``lr`` and ``clip``: as for :func:`sgd`.

    Examples
    --------
    >>> import ivy_like
    >>> opt = ivy_like.optimizers.adam(0.1)
    >>> params = ivy_like.Container(w=ivy_like.array([1., 1.]))
    >>> grads = ivy_like.Container(w=ivy_like.array([3., -0.5]))
    >>> params, state = opt.update(params, grads, opt.init(params))
    >>> params.w     # the first step moves each weight by lr against its gradient's sign
    ivy_like.array([0.9, 1.1])
    >>> state["count"]   # an int32 array, so that a compiled step compiles once
    ivy_like.array(1)
    """
    return _adam("adam", lr, b1, b2, eps, 0.0, None, clip)


def adamw(
    lr: LearningRate = 1e-3,
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-8,
    weight_decay: float = 1e-2,
    mask: Callable[[str], bool] | None = None,
    clip: Clip | None = None,
) -> Optimizer:
    """Adam with decoupled weight decay (Loshchilov & Hutter; PyTorch's ``AdamW``).

    ``mask(key_chain) -> bool`` picks the leaves that decay (e.g.
    ``lambda kc: not kc.endswith("bias")``); default: all. ``lr`` and ``clip``: as for
    :func:`sgd`; with a schedule the decay is ``lr(t) * weight_decay * p``, as in optax.

    Examples
    --------
    >>> import ivy_like
    >>> opt = ivy_like.optimizers.adamw(0.1, weight_decay=0.5,
    ...                                 mask=lambda kc: not kc.endswith("bias"))
    >>> params = ivy_like.Container(weight=ivy_like.array([2.]), bias=ivy_like.array([2.]))
    >>> grads = ivy_like.Container(weight=ivy_like.array([1.]), bias=ivy_like.array([1.]))
    >>> params, _ = opt.update(params, grads, opt.init(params))
    >>> params.weight, params.bias     # 2 - 0.1 * (1 + 0.5 * 2) and 2 - 0.1 * 1
    (ivy_like.array([1.8]), ivy_like.array([1.9]))
    """
    return _adam("adamw", lr, b1, b2, eps, weight_decay, mask, clip)


def rmsprop(
    lr: LearningRate = 1e-2,
    decay: float = 0.9,
    eps: float = 1e-8,
    initial_scale: float = 0.0,
    eps_in_sqrt: bool = True,
    centered: bool = False,
    momentum: float | None = None,
    nesterov: bool = False,
    clip: Clip | None = None,
) -> Optimizer:
    """RMSProp as ``optax.rmsprop``, with its defaults: ``nu = decay * nu + (1 - decay) * g²``
    (``nu`` starts at ``initial_scale``) and ``p - lr * g / sqrt(nu + eps)``.

    ``eps_in_sqrt=False`` divides by ``sqrt(nu) + eps`` instead; ``centered`` by the variance
    ``nu - mu²`` (``mu`` the moving average of ``g``). ``momentum`` (a decay rate, or None)
    accumulates the steps after the learning rate, as optax: ``v = momentum * v + lr * u``,
    ``p - v`` (Nesterov: ``p - (lr * u + momentum * v)``). ``lr`` and ``clip``: as for
    :func:`sgd`.

    ``torch.optim.RMSprop`` has other defaults: ``alpha=0.99`` (``decay`` here) and ``eps``
    added outside the square root; ``rmsprop(lr, decay=0.99, eps_in_sqrt=False)`` gives its
    numbers (with ``momentum=`` and ``centered=`` too, for a constant ``lr``).

    Examples
    --------
    >>> import ivy_like
    >>> opt = ivy_like.optimizers.rmsprop(0.01, eps=0.0)
    >>> params = {"w": ivy_like.array([1.0, 1.0])}
    >>> params, state = opt.update(params, {"w": ivy_like.array([2.0, -0.5])}, opt.init(params))
    >>> params["w"]     # nu = 0.1 g²: each weight moves by 0.01 / sqrt(0.1) against g
    ivy_like.array([0.96837723, 1.0316228 ])
    """
    who = "rmsprop"
    lr = _check_lr(lr, who)
    decay = _check_unit(decay, "decay", who)
    eps = _check_non_negative(eps, "eps", who)
    initial_scale = _check_non_negative(initial_scale, "initial_scale", who)
    if momentum is not None:
        momentum = _check_unit(momentum, "momentum", who)
    clip = _check_clip(clip, who)

    def init(params: Any) -> Any:
        state = {"nu": map_trees(lambda p, kc: il.full_like(p, initial_scale), (params,))}
        if centered:
            state["mu"] = _zeros(params)
        if momentum is not None:
            state["velocity"] = _zeros(params)
        return il.Container(**state, **_count_state(lr, params))

    def second_moment(v: Any, g: Any, kc: str) -> Any:
        _same_shape(v, g, kc)
        return decay * v + (1.0 - decay) * (g * g)

    def normalized(g: Any, s: Any, kc: str) -> Any:
        return g / il.sqrt(s + eps) if eps_in_sqrt else g / (il.sqrt(s) + eps)

    def update(params: Any, grads: Any, state: Any) -> tuple[Any, Any]:
        grads = _clipped(clip, grads)
        new_state = {"nu": map_trees(second_moment, (state["nu"], grads))}
        second = new_state["nu"]
        if centered:
            mu = new_state["mu"] = map_trees(
                lambda m, g, kc: decay * m + (1.0 - decay) * g, (state["mu"], grads)
            )
            second = map_trees(lambda v, m, kc: v - m * m, (second, mu))
        scale = scale_by(_rate(lr, state))
        step = map_trees(
            lambda g, s, p, kc: scale(normalized(g, s, kc), p), (grads, second, params)
        )
        if momentum is not None:
            velocity = new_state["velocity"] = map_trees(
                lambda v, s, kc: momentum * v + s, (state["velocity"], step)
            )
            if nesterov:
                step = map_trees(lambda s, v, kc: s + momentum * v, (step, velocity))
            else:
                step = velocity
        new = map_trees(lambda p, s, kc: p - s, (params, step))
        return new, il.Container(**new_state, **_next_count(state))

    return Optimizer(init, update)


def adagrad(
    lr: LearningRate = 1e-2,
    initial_accumulator_value: float = 0.1,
    eps: float = 1e-7,
    clip: Clip | None = None,
) -> Optimizer:
    """Adagrad as ``optax.adagrad``, with its defaults: ``s = s + g²`` (``s`` starts at
    ``initial_accumulator_value``) and ``p - lr * g / sqrt(s + eps)``, no step where ``s`` is 0.
    ``lr`` and ``clip``: as for :func:`sgd`.

    ``torch.optim.Adagrad`` starts ``s`` at 0 and adds its ``eps=1e-10`` outside the square
    root: ``adagrad(lr, initial_accumulator_value=0.0, eps=0.0)`` gives its numbers up to that
    ``1e-10`` (and without its ``lr_decay``).

    Examples
    --------
    >>> import ivy_like
    >>> opt = ivy_like.optimizers.adagrad(0.1, initial_accumulator_value=0.0, eps=0.0)
    >>> params = {"w": ivy_like.array([1.0, 1.0])}
    >>> grads = {"w": ivy_like.array([2.0, 0.0])}
    >>> params, state = opt.update(params, grads, opt.init(params))
    >>> params["w"], state["sum_of_squares"]["w"]     # 1 - 0.1 * 2 / sqrt(4); no step for 0
    (ivy_like.array([0.9, 1. ]), ivy_like.array([4., 0.]))
    """
    who = "adagrad"
    lr = _check_lr(lr, who)
    initial = _check_non_negative(initial_accumulator_value, "initial_accumulator_value", who)
    eps = _check_non_negative(eps, "eps", who)
    clip = _check_clip(clip, who)
    # g / sqrt(s + eps) is 0 where s is 0 (g has been 0 so far) unless both start at 0
    guard = initial == 0.0 and eps == 0.0

    def init(params: Any) -> Any:
        squares = map_trees(lambda p, kc: il.full_like(p, initial), (params,))
        return il.Container(sum_of_squares=squares, **_count_state(lr, params))

    def accumulate(s: Any, g: Any, kc: str) -> Any:
        _same_shape(s, g, kc)
        return g * g + s

    def update(params: Any, grads: Any, state: Any) -> tuple[Any, Any]:
        grads = _clipped(clip, grads)
        squares = map_trees(accumulate, (state["sum_of_squares"], grads))
        scale = scale_by(_rate(lr, state))

        def step(p: Any, g: Any, s: Any, kc: str) -> Any:
            if guard:  # (eps is 0 here) no 0 / 0 computed, even where it is not used
                positive = il.greater(s, 0.0)
                u = il.where(positive, g / il.sqrt(il.where(positive, s, 1.0)), 0.0)
            else:
                u = g / il.sqrt(s + eps)
            return p - scale(u, p)

        new = map_trees(step, (params, grads, squares))
        return new, il.Container(sum_of_squares=squares, **_next_count(state))

    return Optimizer(init, update)


def lion(
    lr: LearningRate = 1e-4,
    b1: float = 0.9,
    b2: float = 0.99,
    weight_decay: float = 1e-3,
    mask: Callable[[str], bool] | None = None,
    clip: Clip | None = None,
) -> Optimizer:
    """Lion (Chen et al. 2023) as ``optax.lion``, with its defaults:
    ``p - lr * (sign((1 - b1) g + b1 m) + weight_decay * p)``, then
    ``m = b2 m + (1 - b2) g``. ``mask`` picks the leaves that decay, as for :func:`adamw`;
    ``lr`` and ``clip``: as for :func:`sgd`. optax has no default ``lr``; 1e-4 here (Lion wants
    one 3-10 times smaller than AdamW's). PyTorch has no Lion.

    Examples
    --------
    >>> import ivy_like
    >>> opt = ivy_like.optimizers.lion(0.1, weight_decay=0.0)
    >>> params = {"w": ivy_like.array([1.0, 1.0, 1.0])}
    >>> params, _ = opt.update(params, {"w": ivy_like.array([3.0, -1e-3, 0.0])}, opt.init(params))
    >>> params["w"]     # every weight moves by lr against the sign
    ivy_like.array([0.9, 1.1, 1. ])
    """
    who = "lion"
    lr = _check_lr(lr, who)
    b1 = _check_unit(b1, "b1", who)
    b2 = _check_unit(b2, "b2", who)
    weight_decay = _check_non_negative(weight_decay, "weight_decay", who)
    mask = _check_mask(mask, who)
    clip = _check_clip(clip, who)

    def init(params: Any) -> Any:
        return il.Container(mu=_zeros(params), **_count_state(lr, params))

    def update(params: Any, grads: Any, state: Any) -> tuple[Any, Any]:
        grads = _clipped(clip, grads)
        scale = scale_by(_rate(lr, state))

        def step(p: Any, g: Any, m: Any, kc: str) -> Any:
            _same_shape(m, g, kc)
            u = il.sign((1.0 - b1) * g + b1 * m)
            if weight_decay and (mask is None or mask(kc)):
                u = u + weight_decay * p
            return p - scale(u, p)

        new = map_trees(step, (params, grads, state["mu"]))
        mu = map_trees(lambda m, g, kc: (1.0 - b2) * g + b2 * m, (state["mu"], grads))
        return new, il.Container(mu=mu, **_next_count(state))

    return Optimizer(init, update)

"""Optimizers written once, on Containers: ``sgd``, ``momentum``, ``adam``, ``adamw``.

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
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any, NamedTuple

import ivy_like as il
from ivy_like.core.array import Array
from ivy_like.core.dtypes import Dtype

__all__ = ["Optimizer", "adam", "adamw", "momentum", "sgd"]


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


def _map(fn: Callable[..., Any], trees: tuple[Any, ...], kc: str = "") -> Any:
    """Map ``fn(*leaves, key_chain)`` over trees of the same structure (dicts/Containers,
    lists, tuples); a structural mismatch is a ``ValueError`` naming the key chain."""
    first = trees[0]
    if isinstance(first, dict):
        for t in trees[1:]:
            if not isinstance(t, dict) or set(t) != set(first):
                raise ValueError(
                    f"optimizer: params, grads and state differ in structure at "
                    f"{kc or '<root>'!r}: keys {sorted(first)} vs "
                    f"{sorted(t) if isinstance(t, dict) else type(t).__name__}"
                )
        out = {
            k: _map(fn, tuple(t[k] for t in trees), f"{kc}/{k}" if kc else str(k)) for k in first
        }
        return type(first)(out)
    if isinstance(first, (list, tuple)):
        for t in trees[1:]:
            if not isinstance(t, (list, tuple)) or len(t) != len(first):
                raise ValueError(
                    f"optimizer: params, grads and state differ in structure at {kc or '<root>'!r}"
                )
        return type(first)(
            _map(fn, tuple(t[i] for t in trees), f"{kc}[{i}]") for i in range(len(first))
        )
    return fn(*trees, kc)


def _zeros(params: Any) -> Any:
    return _map(lambda p, kc: il.zeros_like(p), (params,))


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
    device = b.native_device(b.device(native))
    count = b.zeros((), dtype=b.native_dtype(il.int32), device=device)
    return Array(count, b) if isinstance(leaf, Array) else count


def _parts(x: Any) -> tuple[Any, Any]:
    """(backend, native array) of an array or an ``Array``."""
    if isinstance(x, Array):
        return x.backend, x.data
    return il.backend_of(x), x


def _increment(count: Any) -> Any:
    """``count + 1`` with the backend's own function, so the dtype stays int32 (and MXNet's
    0-d arrays work)."""
    b, native = _parts(count)
    out = b.add(native, 1)
    return Array(out, b) if isinstance(count, Array) else out


def _dtype_name(p: Any) -> str:
    """The unified name of a leaf's dtype, read from its backend's own table (the shared
    cache behind ``as_dtype`` holds every framework's dtypes, which torch.compile cannot
    hash)."""
    dtype = p.dtype
    if isinstance(dtype, Dtype):
        return dtype.name
    return il.backend_of(p).unified_dtype(dtype).name  # type: ignore[no-any-return]


def _log(b: float) -> float:
    return math.log(b) if b > 0 else -math.inf  # b = 0: 1 - 0^t = -expm1(-inf) = 1


def _check_lr(lr: Any, who: str) -> float:
    if not isinstance(lr, (int, float)) or isinstance(lr, bool) or not lr > 0:
        raise ValueError(f"{who}: lr must be a positive number, got {lr!r}")
    return float(lr)


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


def sgd(lr: float = 1e-2) -> Optimizer:
    """Plain gradient descent: ``p - lr * g``.

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

    def init(params: Any) -> Any:
        return il.Container()

    def step(p: Any, g: Any, kc: str) -> Any:
        _same_shape(p, g, kc)
        return p - lr * g

    def update(params: Any, grads: Any, state: Any) -> tuple[Any, Any]:
        return _map(step, (params, grads)), state

    return Optimizer(init, update)


def momentum(lr: float = 1e-2, beta: float = 0.9, nesterov: bool = False) -> Optimizer:
    """Heavy-ball momentum (PyTorch's ``SGD(momentum=beta)``, no dampening).

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

    def init(params: Any) -> Any:
        return il.Container(velocity=_zeros(params))

    def trace(v: Any, g: Any, kc: str) -> Any:
        _same_shape(v, g, kc)
        return beta * v + g

    def update(params: Any, grads: Any, state: Any) -> tuple[Any, Any]:
        velocity = _map(trace, (state["velocity"], grads))
        if nesterov:
            step = _map(lambda g, v, kc: g + beta * v, (grads, velocity))
        else:
            step = velocity
        new = _map(lambda p, s, kc: p - lr * s, (params, step))
        return new, il.Container(velocity=velocity)

    return Optimizer(init, update)


def _adam(
    who: str,
    lr: float,
    b1: float,
    b2: float,
    eps: float,
    weight_decay: float,
    mask: Callable[[str], bool] | None,
) -> Optimizer:
    lr = _check_lr(lr, who)
    b1 = _check_unit(b1, "b1", who)
    b2 = _check_unit(b2, "b2", who)
    eps = _check_non_negative(eps, "eps", who)
    weight_decay = _check_non_negative(weight_decay, "weight_decay", who)
    if mask is not None and not callable(mask):
        raise TypeError(
            f"{who}: mask must be a callable of the key chain (or None), got {type(mask).__name__}"
        )

    def first_moment(m: Any, g: Any, kc: str) -> Any:
        _same_shape(m, g, kc)
        return b1 * m + (1.0 - b1) * g

    log_b1, log_b2 = _log(b1), _log(b2)
    decay = lr * weight_decay

    def corrections(count: Any, p: Any) -> tuple[Any, Any]:
        """``lr / (1 - b1^t)`` and ``1 / (1 - b2^t)`` as scalar arrays of ``p``'s dtype."""
        b, t = _parts(count)
        name = _dtype_name(p)
        t = b.astype(t, b.native_dtype(il.float64 if name == "float64" else il.float32), copy=False)
        e1 = b.expm1(b.multiply(t, log_b1))  # -(1 - b1^t)
        e2 = b.expm1(b.multiply(t, log_b2))
        scalars = [b.divide(-lr, e1), b.divide(-1.0, e2)]
        if name not in ("float32", "float64"):  # float16/bfloat16 parameters
            scalars = [b.astype(x, b.native_dtype(name)) for x in scalars]
        if isinstance(count, Array):
            scalars = [Array(x, b) for x in scalars]
        return scalars[0], scalars[1]

    def init(params: Any) -> Any:
        return il.Container(count=_zero_count(params), mu=_zeros(params), nu=_zeros(params))

    def update(params: Any, grads: Any, state: Any) -> tuple[Any, Any]:
        count = _increment(state["count"])
        mu = _map(first_moment, (state["mu"], grads))
        nu = _map(lambda v, g, kc: b2 * v + (1.0 - b2) * (g * g), (state["nu"], grads))
        by_dtype: dict[Any, tuple[Any, Any]] = {}  # the corrections, once per parameter dtype
        # A leaf times a 0-d array: Arrays' operator, or the backend's function on native
        # arrays (MXNet's own operators have no 0-d arrays).
        times = operator.mul if isinstance(count, Array) else _parts(count)[0].multiply

        def step(p: Any, m: Any, v: Any, kc: str) -> Any:
            hit = by_dtype.get(p.dtype)
            if hit is None:
                hit = by_dtype[p.dtype] = corrections(count, p)
            step_size, inv_c2 = hit
            # lr * m̂ / (sqrt(v̂) + eps) with lr / c1 and 1 / c2 computed once
            new = p - times(m, step_size) / (il.sqrt(times(v, inv_c2)) + eps)
            if decay and (mask is None or mask(kc)):
                new = new - decay * p
            return new

        new = _map(step, (params, mu, nu))
        return new, il.Container(count=count, mu=mu, nu=nu)

    return Optimizer(init, update)


def adam(lr: float = 1e-3, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8) -> Optimizer:
    """Adam (Kingma & Ba), with bias correction; ``eps`` outside the square root.

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
    return _adam("adam", lr, b1, b2, eps, 0.0, None)


def adamw(
    lr: float = 1e-3,
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-8,
    weight_decay: float = 1e-2,
    mask: Callable[[str], bool] | None = None,
) -> Optimizer:
    """Adam with decoupled weight decay (Loshchilov & Hutter; PyTorch's ``AdamW``).

    ``mask(key_chain) -> bool`` picks the leaves that decay (e.g.
    ``lambda kc: not kc.endswith("bias")``); default: all.

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
    return _adam("adamw", lr, b1, b2, eps, weight_decay, mask)

"""``vjp``, ``jvp`` and ``hessian``: MLX's signatures, lists in and lists out.

``fun`` takes the primals as positional arguments and returns one array or a list/tuple of
them (each may be a tree: Containers, dicts, lists). The backend's gradient file does the
differentiation on flat lists of native leaves (``vjp_leaves``, ``jvp_leaves``); this file
flattens, checks and rebuilds.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from ..core.array import _wrap
from ..core.backend import Backend, activated, no_autodiff_error
from . import tree as _tree
from .grad import grad as _grad
from .grad import normalise_argnums
from .tree import A, Flat, check_fun

__all__ = ["hessian", "jac", "jvp", "vjp"]


def _as_list(value: Any, name: str, who: str) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        raise TypeError(
            f"{who}: {name} must be a list or tuple (one entry per "
            f"{'output' if name == 'cotangents' else 'argument'}), got {type(value).__name__}"
        )
    return list(value)


def _differentiable_leaves(flat: Flat, backend: Backend, who: str) -> None:
    if not backend.has_autodiff:
        raise no_autodiff_error(backend, who)
    for leaf, path in zip(flat.leaves, flat.paths):
        dtype = backend.unified_dtype(backend.dtype(leaf))
        if dtype.kind not in "fc":
            raise TypeError(
                f"{who}: {_tree.describe(path)} has dtype {dtype.name}; derivatives need floating-point "
                f"inputs (cast with ivy_like.astype(x, 'float32'))"
            )


def _flatten_primals(primals: list[Any], who: str) -> tuple[Flat, list[Any]]:
    flat = Flat(who)
    specs = [_tree.flatten(p, flat, f"primals[{i}]", False) for i, p in enumerate(primals)]
    if flat.has_array and flat.neutral:  # as in grad: NumPy/Python beside Arrays are Arrays
        specs = [_tree.promote(spec) for spec in specs]
    return flat, specs


class _Outputs:
    """What ``fun`` returned: a single result is ``[out]`` (MLX), a list/tuple is itself."""

    __slots__ = ("spec", "single")

    def __init__(self) -> None:
        self.spec: Any = None
        self.single = False


def _traced(
    fun: Callable[..., Any], specs: list[Any], backend: Backend, record: _Outputs, who: str
) -> Callable[[list[Any]], list[Any]]:
    def f(leaves: list[Any]) -> list[Any]:
        it = iter(leaves)
        out = fun(*[_tree.rebuild(spec, it, backend) for spec in specs])
        single = not isinstance(out, (list, tuple))
        outs = [out] if single else list(out)
        native: list[Any] = []
        spec = _tree.flatten_output(outs, native, backend)
        if not native:
            raise TypeError(f"{who}: fun returned no array of the {backend.name} backend")
        record.spec, record.single = spec, single
        return native

    return f


def _check_like(
    given: list[Any], ref: list[Any], backend: Backend, name: str, what: str, who: str
) -> None:
    if len(given) != len(ref):
        raise ValueError(
            f"{who}: {name} has {len(given)} arrays but there are {len(ref)} {what}; give one "
            f"per {what[:-1]}, shaped like it"
        )
    for i, (g, r) in enumerate(zip(given, ref)):
        gs, rs = tuple(backend.shape(g)), tuple(backend.shape(r))
        if gs != rs:
            raise ValueError(f"{who}: {name}[{i}] has shape {gs}, the {what[:-1]} has {rs}")


def vjp(
    fun: Callable[..., Any], primals: Sequence[Any], cotangents: Sequence[Any]
) -> tuple[list[Any], list[Any]]:
    """The vector-Jacobian product of ``fun`` at ``primals`` (MLX's ``vjp``).

    ``cotangents`` has one entry per output of ``fun`` (a single array counts as one), shaped
    like it. Returns ``(outputs, vjps)``: the outputs as a list, and one vjp per primal with
    the primal's structure and types.

    Examples
    --------
    On a backend with automatic differentiation (here JAX; the NumPy backend raises
    ``NoAutodiffError``):

    >>> import jax.numpy as jnp
    >>> import ivy_like
    >>> x = ivy_like.asarray(jnp.array([1., 2.]))
    >>> outputs, vjps = ivy_like.vjp(lambda x: x * x, [x], [ivy_like.ones_like(x)])
    >>> vjps
    [ivy_like.array([2., 4.])]
    """
    who = "vjp"
    check_fun(fun, who)
    primals = _as_list(primals, "primals", who)
    cotangents = _as_list(cotangents, "cotangents", who)
    flat, specs = _flatten_primals(primals, who)
    backend = _tree.resolve_backend(flat, cotangents)
    _differentiable_leaves(flat, backend, who)
    record = _Outputs()
    f = _traced(fun, specs, backend, record, who)

    def cotangents_for(outputs: list[Any]) -> list[Any]:
        ct_flat = Flat(who)
        ct_spec = _tree.flatten(cotangents, ct_flat, "cotangents", False)
        _tree.resolve_backend(ct_flat)
        out_count = len(record.spec[2])
        if len(cotangents) != out_count:
            raise ValueError(
                f"{who}: cotangents has {len(cotangents)} entries but fun has {out_count} "
                f"output(s); give one per output, shaped like it"
            )
        del ct_spec
        _check_like(ct_flat.leaves, outputs, backend, "cotangents", "outputs", who)
        return ct_flat.leaves

    outputs, grads = activated(backend.vjp_leaves, backend)(f, flat.leaves, cotangents_for)
    out = _tree.rebuild(record.spec, iter(outputs), backend)
    it = iter(grads)
    return list(out), [_tree.rebuild(spec, it, backend) for spec in specs]


def jvp(
    fun: Callable[..., Any], primals: Sequence[Any], tangents: Sequence[Any]
) -> tuple[list[Any], list[Any]]:
    """The Jacobian-vector product of ``fun`` at ``primals`` (MLX's ``jvp``).

    ``tangents`` has one entry per primal, with its structure and shapes. Returns
    ``(outputs, jvps)``: the outputs as a list and one jvp per output.

    Examples
    --------
    The derivative of ``x * x`` along the first axis, with JAX's arrays (any backend with
    automatic differentiation gives the same):

    >>> import ivy_like
    >>> import jax.numpy as jnp
    >>> ivy_like.jvp(lambda x: x * x, [ivy_like.asarray(jnp.array([1., 2.]))],
    ...              [ivy_like.asarray(jnp.array([1., 0.]))])
    ([ivy_like.array([1., 4.])], [ivy_like.array([2., 0.])])
    """
    who = "jvp"
    check_fun(fun, who)
    primals = _as_list(primals, "primals", who)
    tangents = _as_list(tangents, "tangents", who)
    if len(tangents) != len(primals):
        raise ValueError(
            f"{who}: tangents has {len(tangents)} entries but there are {len(primals)} "
            f"primals; give one per primal, with its structure and shapes"
        )
    flat, specs = _flatten_primals(primals, who)
    backend = _tree.resolve_backend(flat, tangents)
    _differentiable_leaves(flat, backend, who)
    t_flat = Flat(who)
    t_specs = [_tree.flatten(t, t_flat, f"tangents[{i}]", False) for i, t in enumerate(tangents)]
    _tree.resolve_backend(t_flat)
    for i, (ps, ts) in enumerate(zip(specs, t_specs)):
        if len(_tree.leaf_specs(ps)) != len(_tree.leaf_specs(ts)):
            raise ValueError(f"{who}: tangents[{i}] does not have the structure of primals[{i}]")
    _check_like(t_flat.leaves, flat.leaves, backend, "tangents", "primals", who)
    record = _Outputs()
    f = _traced(fun, specs, backend, record, who)
    outputs, jvps = activated(backend.jvp_leaves, backend)(f, flat.leaves, t_flat.leaves)
    return (
        list(_tree.rebuild(record.spec, iter(outputs), backend)),
        list(_tree.rebuild(record.spec, iter(jvps), backend)),
    )


def _size(backend: Backend, x: Any) -> int:
    n = 1
    for d in backend.shape(x):
        n *= int(d)
    return n


def _jacobian_blocks(
    f: Callable[[list[Any]], list[Any]], leaves: list[Any], backend: Backend
) -> list[list[Any]]:
    """``J[i][j]``: the Jacobian of output leaf ``i`` of ``f`` with respect to input leaf ``j``,
    shaped ``out_i.shape + in_j.shape``. One reverse-mode Jacobian per input leaf (the
    others held), on the outputs flattened and joined."""
    out_shapes: list[tuple[int, ...]] = []
    columns = []
    for j in range(len(leaves)):

        def joined(xj: Any, j: int = j) -> Any:
            outs = f(leaves[:j] + [xj] + leaves[j + 1 :])
            out_shapes[:] = [tuple(backend.shape(o)) for o in outs]
            return backend.concat([backend.reshape(o, (-1,)) for o in outs])

        columns.append(backend.jacobian(joined, leaves[j]))
    blocks: list[list[Any]] = [[] for _ in out_shapes]
    for j, jac in enumerate(columns):
        start = 0
        in_shape = tuple(backend.shape(leaves[j]))
        for i, shape in enumerate(out_shapes):
            size = 1
            for d in shape:
                size *= int(d)
            blocks[i].append(backend.reshape(jac[start : start + size], shape + in_shape))
            start += size
    return blocks


def jac(fun: Callable[..., Any]) -> Callable[..., Any]:
    """A function returning the Jacobian of ``fun`` with respect to its first argument.

    For one array in and one array out: shape ``fun(x).shape + x.shape`` (reverse mode:
    ``jax.jacrev``, ``torch.func.jacrev``, ``GradientTape.jacobian``, MLX ``vjp`` under
    ``vmap``). A tree argument (a Container, dict, list) or a tree result gives the Jacobian
    as a tree of the result's structure whose leaves have the argument's structure, each block
    shaped ``out.shape + in.shape`` (``jax.jacrev``'s layout). Arrays give Arrays.

    Examples
    --------
    On any backend with automatic differentiation (on numpy the call raises
    :class:`NoAutodiffError`):

    >>> import ivy_like
    >>> ivy_like.jac(lambda x: x * x)(ivy_like.array([1., 2.]))
    ivy_like.array([[2., 0.],
                    [0., 4.]])
    """
    who = "jac"
    check_fun(fun, who)

    @functools.wraps(fun)
    def jacobian_fun(x: Any, *args: Any, **kwargs: Any) -> Any:
        flat = Flat(who)
        spec = _tree.flatten(x, flat, "x", False)
        backend = _tree.resolve_backend(flat, args, kwargs)
        _differentiable_leaves(flat, backend, who)
        if not flat.leaves:
            raise TypeError(f"jac: x must be an array or a tree of arrays, got {type(x).__name__}")
        out_spec: list[Any] = []

        def f(leaves: list[Any]) -> list[Any]:
            out = fun(_tree.rebuild(spec, iter(leaves), backend), *args, **kwargs)
            native: list[Any] = []
            out_spec[:] = [_tree.flatten_output(out, native, backend)]
            if not native:
                raise TypeError(
                    f"jac: fun must return an array of the {backend.name} backend, "
                    f"got {type(out).__name__}"
                )
            return native

        blocks = activated(_jacobian_blocks, backend)(f, list(flat.leaves), backend)
        as_array = spec is A or any(s is A for s in _tree.leaf_specs(out_spec[0]))
        rows = [_tree.place(spec, iter(_wrapped(row, backend, as_array))) for row in blocks]
        return _tree.place(out_spec[0], iter(rows))

    return jacobian_fun


def _wrapped(values: list[Any], backend: Backend, as_array: bool) -> list[Any]:
    return [_wrap(v, backend) for v in values] if as_array else values


def hessian(fun: Callable[..., Any], argnums: int | Sequence[int] = 0) -> Callable[..., Any]:
    """A function returning the Hessian of the scalar ``fun`` (``jax.hessian``'s layout).

    For one array argument the Hessian has shape ``x.shape + x.shape``. For a tree argument
    (a Container, dict, list) it is that tree of trees: ``H[i][j]`` is shaped
    ``x_i.shape + x_j.shape``. Several ``argnums`` give a tuple of tuples. Computed as the
    Jacobian of the gradient (reverse over reverse).

    Examples
    --------
    On jax, torch, tensorflow or mlx (numpy has no automatic differentiation and raises
    :class:`NoAutodiffError`; mxnet, whose higher-order gradients cover too few operators,
    raises ``NotImplementedError``):

    >>> import ivy_like
    >>> ivy_like.hessian(lambda x: ivy_like.sum(x ** 3))(ivy_like.array([1., 2.]))
    ivy_like.array([[ 6.,  0.],
                    [ 0., 12.]])
    """
    who = "hessian"
    check_fun(fun, who)
    nums, _ = normalise_argnums(argnums, (), who)
    single = isinstance(argnums, int)

    @functools.wraps(fun)
    def hessian_fun(*args: Any, **kwargs: Any) -> Any:
        if nums[-1] >= len(args):
            raise ValueError(
                f"{who}: argnums: argument {nums[-1]} requested but the function is called "
                f"with {len(args)} positional argument(s)"
            )
        flat = Flat(who)
        specs = [_tree.flatten(args[i], flat, f"argument {i}", False) for i in nums]
        backend = _tree.resolve_backend(flat, args)
        _differentiable_leaves(flat, backend, who)

        def grads(new: list[Any]) -> list[Any]:
            call = list(args)
            it = iter(new)
            for i, spec in zip(nums, specs):
                call[i] = _tree.rebuild(spec, it, backend)
            g = _grad(lambda *a: fun(*a, **kwargs), argnums=nums)(*call)
            out: list[Any] = []
            _tree.flatten_output(g if len(nums) > 1 else (g,), out, backend)
            return out

        blocks = activated(_jacobian_blocks, backend)(grads, list(flat.leaves), backend)
        as_array = any(s is A for spec in specs for s in _tree.leaf_specs(spec))
        rows = iter(blocks)
        outer = []
        for spec in specs:
            row_values = []
            for _ in _tree.leaf_specs(spec):
                it = iter(_wrapped(next(rows), backend, as_array))
                inner = [_tree.place(s, it) for s in specs]
                row_values.append(inner[0] if single else tuple(inner))
            outer.append(_tree.place(spec, iter(row_values)))
        return outer[0] if single else tuple(outer)

    return hessian_fun

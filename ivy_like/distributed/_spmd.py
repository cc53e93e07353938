"""``spmd``: a function written once, run once per shard (JAX's ``shard_map`` model, which is
also how torch.distributed ranks, tf.distribute replicas and MLX processes work), and
``data_parallel``: ``spmd`` over the batch with the gradient mean inserted, as DDP does."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from ..core import backend as _backend
from ..transforms import tree as _tree
from ..transforms.grad import reducing
from ._collectives import sum_many
from ._leaves import Leaves, chain_of, same_backend
from ._mesh import CURRENT, Mesh
from ._place import leaf_specs, shard
from ._spec import Normal, P, check_rule, normalize, spec_for


class ByCount:
    """Specs that depend on how many arguments there are: ``rules(n)`` gives one per argument
    (``data_parallel``: the state's rule for each but the last, the batch's for the last)."""

    __slots__ = ("rules",)

    def __init__(self, rules: Callable[[int], tuple[Any, ...]]) -> None:
        self.rules = rules


def _rules(specs: Any, n: int, who: str, what: str) -> tuple[Any, ...]:
    """One rule per argument (or output): a sequence of rules, or one rule for every one."""
    if isinstance(specs, ByCount):
        return specs.rules(n)
    if isinstance(specs, (P, str)) or not isinstance(specs, Sequence):
        check_rule(specs, who, what)
        return (specs,) * n
    if len(specs) != n:
        raise ValueError(f"{who}: {what} has {len(specs)} entries for {n} value(s)")
    for i, rule in enumerate(specs):
        check_rule(rule, who, f"{what}[{i}]")
    return tuple(specs)


class _Outputs:
    """The outputs' structure and their leaves' specs, filled when the function first runs on
    a shard (``spmd``'s backend needs them only after that)."""

    __slots__ = ("key", "spec", "specs")

    def __init__(self) -> None:
        self.spec: Any = None
        self.specs: list[Normal] = []
        self.key: Any = None


def _out_specs(
    roots: tuple[Any, ...], paths: list[Any], shapes: list[tuple[int, ...]], rules: Any, mesh: Mesh
) -> list[Normal]:
    """The specs of a shard's result leaves (``paths``: their owners, rooted at the output's
    index; ``shapes``: their block shapes)."""
    outer = _rules(rules, len(roots), "spmd", "out_specs")
    specs: list[Normal] = []
    for path, shape in zip(paths, shapes):
        root = path
        while isinstance(root, tuple):
            root = root[0]
        chain = chain_of(path)
        name = f"output {root}" + (f" at {chain!r}" if chain else "")
        spec = spec_for(outer[root], chain, shape, "spmd")
        specs.append(normalize(spec, shape, mesh.shape, "spmd", name, whole=False))
    return specs


def _flatten_out(obj: Any, leaves: list[Any], paths: list[Any], backend: Any, owner: Any) -> Any:
    spec = _tree.flatten_output(obj, leaves, backend)
    _paths(spec, owner, paths)  # flatten_output keeps no paths: the leaves' key chains
    return spec


def _paths(spec: Any, owner: Any, paths: list[Any]) -> None:
    if spec is _tree.N or spec is _tree.A or spec is _tree.P:
        paths.append(owner)
    elif spec[0] == "d":
        for k, c in zip(spec[2], spec[3]):
            _paths(c, (owner, k), paths)
    elif spec[0] == "l":
        for i, c in enumerate(spec[2]):
            _paths(c, (owner, i), paths)


def _mark_compiled(fn: Callable[..., Any], hooks: Any) -> Callable[..., Any]:
    # ivy_like.compile of a function the engine already compiles (jit of shard_map,
    # tf.function of strategy.run) is that function: compiling it again is what breaks it.
    if hooks.SPMD_COMPILES:
        fn._ivy_like_compiled = True  # type: ignore[attr-defined]
    return fn


def spmd(
    fun: Callable[..., Any],
    mesh: Mesh,
    in_specs: Any,
    out_specs: Any,
) -> Callable[..., Any]:
    """``fun`` run once per shard of ``mesh``: each argument is split by its entry of
    ``in_specs`` and each shard gets its block; each output's blocks are put together by its
    entry of ``out_specs`` (``P()``: the output is the same on every shard, and it is that).
    Collectives (:func:`all_sum`, :func:`all_mean`, :func:`all_gather`) inside ``fun`` are the
    only communication.

    ``in_specs`` / ``out_specs``: one entry per argument / output (an output tuple has one per
    element), or one entry for all; each a ``P``, a layout (glob patterns over key chains
    relative to that value -> ``P``; leaves no pattern matches are replicated) or a function of
    ``(key chain, shape)`` returning a ``P``. Arguments may be placed by :func:`shard` or be
    whole arrays (the same on every process). A function in ``out_specs`` is given the shape of
    a shard's block (the whole shape is known only once the spec is). On JAX and TensorFlow the result is compiled
    (``jit`` of ``shard_map``, ``tf.function`` of ``strategy.run``); ``ivy_like.compile``
    composes around it and inside ``fun``.

    Raises
    ------
    ValueError
        An argument that does not divide over the mesh, a spec naming an axis the mesh lacks
        or longer than the value's rank (before any work starts).

    Examples
    --------
    >>> import ivy_like
    >>> from ivy_like import distributed as dist
    >>> with ivy_like.use_backend("numpy"):
    ...     mesh = dist.Mesh({"data": 1})
    ...     total = dist.spmd(lambda x: dist.all_sum(ivy_like.sum(x), "data"), mesh,
    ...                       in_specs=dist.P("data"), out_specs=dist.P())
    ...     total(ivy_like.arange(4.0))
    ivy_like.array(6.)
    """
    _tree.check_fun(fun, "spmd")
    if not isinstance(mesh, Mesh):
        raise TypeError(f"spmd: mesh must be a dist.Mesh, got {type(mesh).__name__}")
    for what, specs in (("in_specs", in_specs), ("out_specs", out_specs)):
        if isinstance(specs, ByCount):
            continue
        if isinstance(specs, Sequence) and not isinstance(specs, (P, str)):
            for i, rule in enumerate(specs):
                check_rule(rule, "spmd", f"{what}[{i}]")
        else:
            check_rule(specs, "spmd", what)
    hooks = mesh.hooks
    cache: dict[Any, tuple[Any, _Outputs]] = {}

    def build(leaves: Leaves, in_leaf_specs: list[Normal]) -> tuple[Any, _Outputs]:
        outputs = _Outputs()
        backend = leaves.backend

        def per_shard(*local: Any) -> list[Any]:
            # may run in another thread (TensorFlow's replicas): set up everything here
            tokens = _backend.activate(backend)
            mesh_token = CURRENT.set(mesh)
            try:
                out = fun(*leaves.rebuild(list(local)))
                many = isinstance(out, tuple)
                roots = out if many else (out,)
                flat: list[Any] = []
                paths: list[Any] = []
                structure = tuple(
                    _flatten_out(r, flat, paths, backend, i) for i, r in enumerate(roots)
                )
                shapes = [tuple(backend.shape(x)) for x in flat]
                key = (structure, tuple(shapes))
                if key != outputs.key:  # the specs, once per structure and shapes
                    outputs.specs = _out_specs(roots, paths, shapes, out_specs, mesh)
                    outputs.key = key
                outputs.spec = (many, structure)
                return flat
            finally:
                CURRENT.reset(mesh_token)
                if tokens is not None:
                    _backend.deactivate(tokens)

        call = hooks.spmd(per_shard, mesh.native, in_leaf_specs, lambda: outputs.specs)
        return call, outputs

    @functools.wraps(fun)
    def run(*args: Any) -> Any:
        with _backend.use_backend(mesh.backend):
            leaves = Leaves(args, "spmd")
        # The specs and their checks depend on the structure and the shapes only: once per
        # pair, before any work.
        shape = mesh.backend.shape
        key = (leaves.specs, tuple([tuple(shape(x)) for x in leaves.leaves]))
        hit = cache.get(key)
        if hit is None:
            same_backend(leaves, mesh, "spmd")
            rules = _rules(in_specs, len(args), "spmd", "in_specs")
            in_leaf_specs = leaf_specs(leaves, rules, mesh, "spmd", "argument")
            hit = cache[key] = build(leaves, in_leaf_specs)
        call, outputs = hit
        flat = call(*leaves.leaves)
        many, structure = outputs.spec
        it = iter(flat)
        results = [_tree.rebuild(s, it, mesh.backend) for s in structure]
        return tuple(results) if many else results[0]

    return _mark_compiled(run, hooks)


def data_parallel(
    step: Callable[..., Any], mesh: Mesh, *, shard_params: bool = False
) -> Callable[..., Any]:
    """``step(*state, batch)`` run data-parallel: the batch (the last argument) split over
    every axis of ``mesh`` along its first dimension, everything else replicated, and every
    gradient that ``ivy_like.grad`` / ``value_and_grad`` return inside ``step`` (with the value
    differentiated) replaced by its mean over the shards, as DDP's backward does. ``step``'s
    outputs are the same on every shard (parameters, optimizer state, the mean loss) and come
    back whole; an output that differs per shard belongs in :func:`spmd` with a split
    ``out_specs``.

    ``shard_params=True`` stores every other argument's leaves split along their first
    dimension over the mesh (where it divides; scalars and the rest replicated), gathers them
    for the step and splits the updated ones again (ZeRO-style storage: the memory of the
    state between steps is divided by the mesh size; the step itself sees whole parameters).

    Examples
    --------
    >>> import ivy_like
    >>> from ivy_like import distributed as dist
    >>> with ivy_like.use_backend("numpy"):
    ...     mesh = dist.Mesh({"data": 1})
    ...     mean = dist.data_parallel(lambda w, x: ivy_like.mean(x * w), mesh)
    ...     mean(ivy_like.asarray(2.0), ivy_like.arange(4.0))
    ivy_like.array(3.)
    """
    _tree.check_fun(step, "data_parallel")
    if not isinstance(mesh, Mesh):
        raise TypeError(f"data_parallel: mesh must be a dist.Mesh, got {type(mesh).__name__}")
    axes = mesh.axis_names
    n = mesh.size
    batch = P(axes if len(axes) > 1 else axes[0])

    def split_first(chain: str, shape: tuple[int, ...]) -> P:
        return batch if shape and shape[0] % n == 0 else P()

    state_rule: Any = split_first if shard_params else P()
    all_gather, native = mesh.hooks.all_gather, mesh.native

    def reduce(value: Any, grads: list[Any]) -> tuple[Any, list[Any]]:
        # the loss and every gradient in one all-reduce (per dtype), then divided
        total = sum_many([value, *grads], axes, mesh)
        return total[0] / n, [g / n for g in total[1:]]

    split: list[bool] = []  # which state leaves come split (shard_params), in leaf order

    def per_shard(*args: Any) -> Any:
        with reducing(reduce):
            if shard_params:
                state = Leaves(args[:-1], "data_parallel")
                whole = [
                    all_gather(x, axes, 0, native) if cut else x
                    for x, cut in zip(state.leaves, split)
                ]
                args = (*state.rebuild(whole), args[-1])
            return step(*args)

    in_specs = ByCount(lambda k: (state_rule,) * (k - 1) + (batch,))
    inner = spmd(functools.wraps(step)(per_shard), mesh, in_specs, P())
    if not shard_params:
        return inner

    @functools.wraps(step)
    def run(*args: Any) -> Any:
        with _backend.use_backend(mesh.backend):
            state = Leaves(args[:-1], "data_parallel")
        split[:] = [split_first("", s) != P() for s in state.shapes()]
        return shard(inner(*args), mesh, split_first)

    return _mark_compiled(run, mesh.hooks)

"""The collectives, called once per shard inside ``spmd`` / ``data_parallel``, on an array or
any tree of arrays: ``all_sum``, ``all_mean``, ``all_gather``.

Their gradients are the same on every engine: ``all_sum`` passes the cotangent through (as JAX
and MLX do; torch's autograd ``all_reduce`` would sum it over the ranks), ``all_mean`` scales
it by ``1/n``, and ``all_gather`` gives each shard the sum over every shard of the cotangent of
its own block (a reduce-scatter), so FSDP-style gathered parameters get the gradient of the
sum of the shards' losses.
"""

from __future__ import annotations

import math
from typing import Any

import ivy_like as il

from ._leaves import Leaves
from ._mesh import Mesh, current
from ._spec import axes_of


def _apply(tree: Any, who: str, kernel: Any) -> Any:
    leaves = Leaves((tree,), who)
    return leaves.rebuild([kernel(x) for x in leaves.leaves])[0]


def sum_many(xs: list[Any], axes: tuple[str, ...], mesh: Mesh) -> list[Any]:
    """``all_sum`` of each array of ``xs``, in one collective per dtype (as DDP's buckets):
    a model's gradients in one message rather than one per parameter, which on torch's gloo
    and MLX's ring costs a round trip each."""
    kernel, native, backend = mesh.hooks.all_sum, mesh.native, mesh.backend
    if len(xs) < 2:
        return [kernel(x, axes, native) for x in xs]
    by_dtype: dict[Any, list[int]] = {}
    for i, x in enumerate(xs):
        by_dtype.setdefault(backend.dtype(x), []).append(i)
    out: list[Any] = [None] * len(xs)
    for positions in by_dtype.values():
        if len(positions) == 1:
            out[positions[0]] = kernel(xs[positions[0]], axes, native)
            continue
        shapes = [tuple(backend.shape(xs[i])) for i in positions]
        flat = il.concat([il.reshape(xs[i], (-1,)) for i in positions])
        total = kernel(flat, axes, native)
        start = 0
        for i, shape in zip(positions, shapes):
            size = math.prod(shape)
            out[i] = il.reshape(total[start : start + size], shape)
            start += size
    return out


def all_sum(tree: Any, axis: Any) -> Any:
    """The sum over the shards along the mesh axis ``axis`` (a name or a tuple of names) of
    every leaf of ``tree``; every shard gets the result.

    Examples
    --------
    Inside a function given to :func:`spmd`:

    >>> import ivy_like
    >>> from ivy_like import distributed as dist
    >>> with ivy_like.use_backend("numpy"):
    ...     mesh = dist.Mesh({"data": 1})
    ...     f = dist.spmd(lambda x: dist.all_sum(x, "data"), mesh, dist.P("data"), dist.P())
    ...     f(ivy_like.ones(2))
    ivy_like.array([1., 1.])
    """
    mesh = current("all_sum")
    axes = axes_of(axis, mesh.shape, "all_sum")
    leaves = Leaves((tree,), "all_sum")
    return leaves.rebuild(sum_many(leaves.leaves, axes, mesh))[0]


def all_mean(tree: Any, axis: Any) -> Any:
    """The mean over the shards along ``axis`` of every leaf of ``tree`` (:func:`all_sum`
    divided by the number of shards).

    Examples
    --------
    >>> import ivy_like
    >>> from ivy_like import distributed as dist
    >>> with ivy_like.use_backend("numpy"):
    ...     mesh = dist.Mesh({"data": 1})
    ...     mean = dist.spmd(lambda g: dist.all_mean(g, "data"), mesh, dist.P(), dist.P())
    ...     mean({"w": ivy_like.asarray([2.0, 4.0])})
    {'w': ivy_like.array([2., 4.])}
    """
    mesh = current("all_mean")
    axes = axes_of(axis, mesh.shape, "all_mean")
    n = mesh.axis_size(axes)
    leaves = Leaves((tree,), "all_mean")
    return leaves.rebuild([x / n for x in sum_many(leaves.leaves, axes, mesh)])[0]


def all_gather(tree: Any, axis: Any, dim: int = 0) -> Any:
    """Every shard's block of each leaf along ``axis``, concatenated along dimension ``dim``
    in the order of the shards; every shard gets the whole.

    Examples
    --------
    >>> import ivy_like
    >>> from ivy_like import distributed as dist
    >>> with ivy_like.use_backend("numpy"):
    ...     mesh = dist.Mesh({"data": 1})
    ...     whole = dist.spmd(lambda w: dist.all_gather(w, "data"), mesh, dist.P("data"),
    ...                       dist.P())
    ...     whole(ivy_like.ones((2, 2)))
    ivy_like.array([[1., 1.],
                    [1., 1.]])
    """
    mesh = current("all_gather")
    axes = axes_of(axis, mesh.shape, "all_gather")
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise TypeError(f"all_gather: dim must be an int, got {dim!r}")
    kernel, native = mesh.hooks.all_gather, mesh.native
    shape = mesh.backend.shape

    def gather(x: Any) -> Any:
        rank = len(shape(x))
        if not -rank <= dim < rank:
            raise ValueError(f"all_gather: dim {dim} is out of range for rank {rank}")
        return kernel(x, axes, dim % rank, native)

    return _apply(tree, "all_gather", gather)

"""The collectives, called once per shard inside ``spmd`` / ``data_parallel``, on an array or
any tree of arrays: ``all_sum``, ``all_mean``, ``all_gather``.

Their gradients are the same on every engine: ``all_sum`` passes the cotangent through (as JAX
and MLX do; torch's autograd ``all_reduce`` would sum it over the ranks), ``all_mean`` scales
it by ``1/n``, and ``all_gather`` gives each shard the sum over every shard of the cotangent of
its own block (a reduce-scatter), so FSDP-style gathered parameters get the gradient of the
sum of the shards' losses.
"""

from __future__ import annotations

from typing import Any

from ._leaves import Leaves
from ._mesh import current
from ._spec import axes_of


def _apply(tree: Any, who: str, kernel: Any) -> Any:
    leaves = Leaves((tree,), who)
    return leaves.rebuild([kernel(x) for x in leaves.leaves])[0]


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
    kernel, native = mesh.hooks.all_sum, mesh.native
    return _apply(tree, "all_sum", lambda x: kernel(x, axes, native))


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
    kernel, native, n = mesh.hooks.all_sum, mesh.native, mesh.axis_size(axes)
    return _apply(tree, "all_mean", lambda x: kernel(x, axes, native) / n)


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

"""``shard``: a tree placed on a mesh by a spec or a layout; ``placement``: where an array is."""

from __future__ import annotations

from typing import Any

from ..core import backend as _backend
from ..core.array import Array
from ._leaves import Leaves, same_backend
from ._mesh import Mesh, hooks_of
from ._spec import Normal, P, check_rule, from_normal, normalize, spec_for


def leaf_specs(
    leaves: Leaves, rules: Any, mesh: Mesh, who: str, what: str, whole: bool = True
) -> list[Normal]:
    """Every leaf's normalized spec: ``rules`` has one rule per root (``leaves.roots``)."""
    out = []
    for root, chain, shape in zip(leaves.roots, leaves.chains, leaves.shapes()):
        if what == "tree":  # one tree: its leaves by key chain
            name = f"the leaf {chain!r}" if chain else "the array"
        else:
            name = f"{what} {root}" + (f" at {chain!r}" if chain else "")
        spec = spec_for(rules[root], chain, shape, who)
        out.append(normalize(spec, shape, mesh.shape, who, name, whole))
    return out


def shard(tree: Any, mesh: Mesh, spec: Any) -> Any:
    """``tree`` (an Array, a native array, a Container, or dicts/lists/tuples of them) placed on
    ``mesh``: every leaf by ``spec`` (a ``P``), or by a layout (a dict of glob patterns over
    key chains to ``P``; leaves no pattern matches are replicated), or by a function of
    ``(key chain, shape)`` returning a ``P``.

    On JAX the leaves become arrays spread over the mesh's devices, on torch DTensors; MLX and
    TensorFlow have no array spread over devices or processes, so there the leaves stay whole
    and the spec says what each shard of ``spmd`` sees (see ``docs/distributed.md``).

    Raises
    ------
    ValueError
        A spec naming an axis the mesh lacks, longer than a leaf's rank, or a dimension that
        does not divide over its axes (before anything is placed).

    Examples
    --------
    >>> import ivy_like
    >>> from ivy_like import distributed as dist
    >>> with ivy_like.use_backend("numpy"):
    ...     mesh = dist.Mesh({"data": 1})
    ...     dist.shard({"w": ivy_like.ones((2, 3))}, mesh, {"w": dist.P("data")})
    {'w': ivy_like.array([[1., 1., 1.],
                          [1., 1., 1.]])}
    """
    if not isinstance(mesh, Mesh):
        raise TypeError(f"shard: mesh must be a dist.Mesh, got {type(mesh).__name__}")
    check_rule(spec, "shard", "spec")
    with _backend.use_backend(mesh.backend):
        leaves = Leaves((tree,), "shard")
    same_backend(leaves, mesh, "shard")
    specs = leaf_specs(leaves, (spec,), mesh, "shard", "tree")
    place = mesh.hooks.place
    placed = [place(x, mesh.native, s) for x, s in zip(leaves.leaves, specs)]
    return leaves.rebuild(placed)[0]


def placement(x: Any) -> P | None:
    """The spec an array was placed by (``None`` for an array that is whole on one device, or
    whole on every process of MLX and TensorFlow).

    Examples
    --------
    >>> import ivy_like
    >>> from ivy_like import distributed as dist
    >>> print(dist.placement(ivy_like.ones(3)))
    None
    """
    native = x._data if isinstance(x, Array) else x
    backend = x._backend if isinstance(x, Array) else _backend.backend_of(x)
    found = hooks_of(backend).placement(native)
    return None if found is None else from_normal(found[1])

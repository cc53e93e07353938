"""JAX's distributed hooks: a ``jax.sharding.Mesh`` over the devices (of every process, after
``jax.distributed.initialize``), placement with ``NamedSharding``, and ``spmd`` as ``jax.jit``
of ``shard_map``.

``shard_map`` runs with ``check_vma=False``: with JAX's varying-value checks on, the gradient of
a replicated parameter used with a split batch is summed over the shards by JAX itself, and a
step that then takes the mean of its gradients (what every other engine needs) would be off by
the number of shards. The collectives carry their gradients explicitly instead (``custom_vjp``),
the same on every engine: ``all_sum`` passes the cotangent through, ``all_gather`` reduce-scatters
it.
"""

from __future__ import annotations

import functools
import math
from typing import Any, Callable

import jax
import numpy as np
from jax.experimental import multihost_utils
from jax.sharding import AxisType, NamedSharding, PartitionSpec

SPMD_COMPILES = True  # spmd is jax.jit of shard_map: eager shard_map is ~40x slower


def device_count() -> int:
    return int(jax.device_count())


def process_count() -> int:
    return int(jax.process_count())


def process_index() -> int:
    return int(jax.process_index())


def make_mesh(shape: tuple[int, ...], names: tuple[str, ...]) -> Any:
    devices = np.array(jax.devices()[: math.prod(shape)]).reshape(shape)
    # Auto axes: ivy_like code inside and outside spmd is written without sharding types
    return jax.sharding.Mesh(devices, names, axis_types=(AxisType.Auto,) * len(names))


def _pspec(spec: tuple[Any, ...]) -> PartitionSpec:
    entries = [None if e is None else e[0] if len(e) == 1 else e for e in spec]
    while entries and entries[-1] is None:  # P(None, None) != P() for jax, though the same
        entries.pop()
    return PartitionSpec(*entries)


def place(x: Any, mesh: Any, spec: tuple[Any, ...]) -> Any:
    return jax.device_put(x, NamedSharding(mesh, _pspec(spec)))


def placement(x: Any) -> Any:
    try:
        sharding = x.sharding
    except AttributeError:  # a tracer
        return None
    if not isinstance(sharding, NamedSharding) or sharding.mesh.size == 1:
        return None
    entries: list[Any] = []
    for e in sharding.spec:
        entries.append(None if e is None else (e,) if isinstance(e, str) else tuple(e))
    return sharding.mesh, tuple(entries) + (None,) * (x.ndim - len(entries))


def spmd(
    fn: Callable[..., list[Any]],
    mesh: Any,
    in_specs: list[tuple[Any, ...]],
    out_specs: Callable[[], list[tuple[Any, ...]]],
) -> Callable[..., list[Any]]:
    in_p = tuple(_pspec(s) for s in in_specs)

    def body(*local: Any) -> tuple[Any, ...]:
        return tuple(fn(*local))

    def build(outs: tuple[PartitionSpec, ...]) -> Any:
        mapped = jax.shard_map(body, mesh=mesh, in_specs=in_p, out_specs=outs, check_vma=False)
        return jax.jit(mapped)

    state: dict[str, Any] = {}
    targets = [NamedSharding(mesh, p) for p in in_p]
    # XLA's CPU client runs every device of a mesh on one thread pool of as many threads as
    # cores: a step launched while the last one still runs can take the threads its devices'
    # all-reduce waits for, and both wait forever (seen with 2 host devices on 2 cores, with
    # plain jax.jit as well). On CPU, the arguments are ready before the next step starts.
    wait = mesh.size > 1 and mesh.devices.flat[0].platform == "cpu"

    def call(*leaves: Any) -> list[Any]:
        # whole arrays (on one device, or placed otherwise) go where their spec puts them
        leaves = tuple(
            x if getattr(x, "sharding", None) == t else jax.device_put(x, t)
            for x, t in zip(leaves, targets)
        )
        if wait:
            jax.block_until_ready(leaves)
        built = state.get("fn")
        if built is None:
            # the outputs' specs are known once fn has been traced: trace it abstractly first
            probe = jax.shard_map(
                body, mesh=mesh, in_specs=in_p, out_specs=PartitionSpec(), check_vma=False
            )
            jax.eval_shape(probe, *leaves)
            state["outs"] = list(out_specs())
            built = state["fn"] = build(tuple(_pspec(s) for s in state["outs"]))
        result = built(*leaves)
        if out_specs() != state["outs"]:  # a retrace for new shapes gave other output specs
            state["outs"] = list(out_specs())
            built = state["fn"] = build(tuple(_pspec(s) for s in state["outs"]))
            result = built(*leaves)
        return list(result)

    return call


@functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
def _all_sum(x: Any, axes: tuple[str, ...]) -> Any:
    return jax.lax.psum(x, axes)


def _all_sum_fwd(x: Any, axes: tuple[str, ...]) -> tuple[Any, None]:
    return jax.lax.psum(x, axes), None


def _all_sum_bwd(axes: tuple[str, ...], _: None, g: Any) -> tuple[Any]:
    return (g,)  # the cotangent passes through (JAX's own psum, with varying values checked)


_all_sum.defvjp(_all_sum_fwd, _all_sum_bwd)


@functools.partial(jax.custom_vjp, nondiff_argnums=(1, 2))
def _all_gather(x: Any, axes: tuple[str, ...], dim: int) -> Any:
    return jax.lax.all_gather(x, axes, axis=dim, tiled=True)


def _all_gather_fwd(x: Any, axes: tuple[str, ...], dim: int) -> tuple[Any, None]:
    return jax.lax.all_gather(x, axes, axis=dim, tiled=True), None


def _all_gather_bwd(axes: tuple[str, ...], dim: int, _: None, g: Any) -> tuple[Any]:
    return (jax.lax.psum_scatter(g, axes, scatter_dimension=dim, tiled=True),)


_all_gather.defvjp(_all_gather_fwd, _all_gather_bwd)


def all_sum(x: Any, axes: tuple[str, ...], mesh: Any) -> Any:
    return _all_sum(x, axes)


def all_gather(x: Any, axes: tuple[str, ...], dim: int, mesh: Any) -> Any:
    return _all_gather(x, axes, dim)


def local_blocks(x: Any) -> list[tuple[tuple[int, ...], np.ndarray]]:
    # replica 0 of each block lives on exactly one device of one process
    return [
        (tuple(s.start or 0 for s in shard.index), np.asarray(shard.data))
        for shard in x.addressable_shards
        if shard.replica_id == 0
    ]


def to_host(x: Any) -> np.ndarray:
    if x.is_fully_addressable:
        return np.asarray(x)
    return np.asarray(multihost_utils.process_allgather(x, tiled=True))


def barrier(mesh: Any) -> None:
    if jax.process_count() > 1:
        multihost_utils.sync_global_devices("ivy_like.distributed")

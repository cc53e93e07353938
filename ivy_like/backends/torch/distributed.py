"""The distributed hooks of the PyTorch backend (the contract is in
``ivy_like/backends/_common/distributed.py``): one process per device, as torchrun launches it.

* The process group is set up by the first mesh, from torchrun's environment (``RANK``,
  ``WORLD_SIZE``, ``MASTER_ADDR``, ``MASTER_PORT``): gloo on the CPU, NCCL for CUDA tensors.
  Without a launcher the group is this one process, over an in-memory store: no port to pick
  or to collide on, and a mesh of 1 takes the same DTensor and collective paths as a launched
  one (what it computes is what a launch computes).
* A placed array is a ``DTensor`` (``Shard(d)`` or ``Replicate()`` per mesh dimension).
* ``spmd`` gives ``fn`` each rank's local block (a DTensor's ``to_local()``, a slice of a plain
  tensor, which holds the global value on every rank) and wraps the results with
  ``DTensor.from_local``: no communication but the collectives ``fn`` calls.
* The collectives are ``torch.distributed._functional_collectives`` (Dynamo and make_fx trace
  them; c10d's in-place ones break a compiled graph) inside ``autograd.Function`` s whose
  backward follows JAX's conventions, not torch autograd's: ``all_sum`` passes the cotangent
  through, ``all_gather`` reduce-scatters it.
"""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np
import torch
import torch.distributed as dist
import torch.distributed._functional_collectives as funcol
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard, distribute_tensor

from . import dtensor_placement, to_numpy

SPMD_COMPILES = False

Spec = tuple[Any, ...]


def _env_int(name: str, default: int) -> int:
    text = os.environ.get(name)
    if text is None or text == "":
        return default
    try:
        return int(text)
    except ValueError:
        raise ValueError(
            f"{name}: expected an integer in the environment (set by the launcher), got {text!r}"
        ) from None


def device_count() -> int:
    if dist.is_initialized():
        return dist.get_world_size()
    return _env_int("WORLD_SIZE", 1)


def process_count() -> int:
    return device_count()  # one device per process, as torchrun runs


def process_index() -> int:
    if dist.is_initialized():
        return dist.get_rank()
    return _env_int("RANK", 0)


def _device_type() -> str:
    return "cuda" if torch.cuda.is_available() else "cpu"


def _init_process_group() -> None:
    if dist.is_initialized():
        return
    world = _env_int("WORLD_SIZE", 1)
    rank = _env_int("RANK", 0)
    if not 0 <= rank < world:
        raise ValueError(f"RANK: expected 0 <= RANK < WORLD_SIZE={world}, got {rank}")
    # gloo serves CPU tensors (and the CPU side of a CUDA run), NCCL the CUDA ones.
    backend = "cpu:gloo,cuda:nccl" if torch.cuda.is_available() else "gloo"
    if torch.cuda.is_available():
        torch.cuda.set_device(_env_int("LOCAL_RANK", 0) % torch.cuda.device_count())
    if world == 1 and "MASTER_ADDR" not in os.environ:
        # No launcher: a group of this process alone, on an in-memory store.
        dist.init_process_group(backend, store=dist.HashStore(), rank=0, world_size=1)
    else:
        dist.init_process_group(backend, rank=rank, world_size=world)


# One DeviceMesh per (shape, names): building one creates a process group per axis, a
# collective call that every process must make, once.
_MESHES: dict[tuple[tuple[int, ...], tuple[str, ...]], DeviceMesh] = {}


def make_mesh(shape: tuple[int, ...], names: tuple[str, ...]) -> Any:
    _init_process_group()
    size = int(np.prod(shape)) if shape else 1
    world = dist.get_world_size()
    if size != world:
        # A rank outside the mesh would have no block of its arrays and skip its collectives.
        raise ValueError(
            f"Mesh: on torch a mesh spans every process of the launch: its axes' sizes "
            f"{dict(zip(names, shape))} multiply to {size}, but there are {world} processes "
            f"(launch {size} with `python -m ivy_like launch -n {size}`, or size the mesh to {world})"
        )
    key = (tuple(shape), tuple(names))
    mesh = _MESHES.get(key)
    if mesh is None:
        mesh = _MESHES[key] = init_device_mesh(_device_type(), tuple(shape), mesh_dim_names=names)
    return mesh


def _names(mesh: DeviceMesh) -> tuple[str, ...]:
    return tuple(mesh.mesh_dim_names or ())


def _placements(mesh: DeviceMesh, spec: Spec) -> tuple[Any, ...]:
    """One ``Shard(dim)`` or ``Replicate()`` per mesh axis. DTensor splits a dimension over
    several mesh axes in the mesh's order (the first the outermost), so ``spec`` must list
    them in that order."""
    names = _names(mesh)
    placements: list[Any] = [Replicate()] * len(names)
    for d, axes in enumerate(spec):
        if axes is None:
            continue
        dims = [names.index(a) for a in axes]
        if dims != sorted(dims):
            raise ValueError(
                f"spec: dimension {d} is split over {axes}, out of the mesh's order {names}; "
                f"torch's DTensor splits a dimension over mesh axes in the mesh's order: "
                f"list them as {tuple(sorted(axes, key=names.index))} or reorder the mesh"
            )
        for k in dims:
            placements[k] = Shard(d)
    return tuple(placements)


def _extent(size: int, mesh: DeviceMesh, placements: tuple[Any, ...], dim: int) -> tuple[int, int]:
    """(start, length) of this rank's block of dimension ``dim`` (``size`` long): DTensor
    splits it as ``torch.chunk`` does, over its mesh axes in order."""
    coordinate = mesh.get_coordinate()
    start, length = 0, size
    for k, p in enumerate(placements):
        if isinstance(p, Shard) and p.dim == dim:
            parts = mesh.size(k)
            chunk = -(-length // parts)
            offset = min(coordinate[k] * chunk, length)  # type: ignore[index]
            start, length = start + offset, max(0, min(chunk, length - offset))
    return start, length


def _local_slice(x: Any, mesh: DeviceMesh, placements: tuple[Any, ...]) -> Any:
    if not any(isinstance(p, Shard) for p in placements):
        return x  # replicated: the block is the whole
    # narrow: a view, differentiable and traced by Dynamo and make_fx.
    for d in range(x.ndim):
        start, length = _extent(x.shape[d], mesh, placements, d)
        if length != x.shape[d]:
            x = x.narrow(d, start, length)
    return x


def place(x: Any, mesh: Any, spec: Spec) -> Any:
    placements = _placements(mesh, spec)
    if isinstance(x, DTensor):
        if x.device_mesh == mesh:
            return x.redistribute(mesh, placements)
        x = _waited(x.full_tensor())
    # Every process holds the global value: each keeps its own block, with no communication.
    return distribute_tensor(x, mesh, placements, src_data_rank=None)


def placement(x: Any) -> Any:
    if not isinstance(x, DTensor):
        return None
    return tuple(dtensor_placement(x))


def _to_local(x: Any, mesh: DeviceMesh, placements: tuple[Any, ...]) -> Any:
    if isinstance(x, DTensor):
        if x.device_mesh != mesh:
            x = _waited(x.full_tensor())  # another mesh's array: its whole value, sliced below
        else:
            if tuple(x.placements) != placements:
                x = x.redistribute(mesh, placements)
            return x.to_local()
    if isinstance(x, torch.Tensor):
        return _local_slice(x, mesh, placements)
    return x


def spmd(
    fn: Callable[..., list[Any]],
    mesh: Any,
    in_specs: list[Spec],
    out_specs: Callable[[], list[Spec]],
) -> Callable[..., list[Any]]:
    in_placements = [_placements(mesh, s) for s in in_specs]
    made: dict[str, Any] = {"specs": None}

    def out_placements() -> list[Any]:
        # None for a replicated output: the whole value, the same in every process, stays a
        # plain tensor (a DTensor around each of a model's parameters costs ~30 us a step).
        specs = out_specs()
        if specs is not made["specs"]:
            made["specs"] = specs
            made["placements"] = [
                None if all(e is None for e in spec) else _placements(mesh, spec) for spec in specs
            ]
        return made["placements"]  # type: ignore[no-any-return]

    def run(*leaves: Any) -> list[Any]:
        if len(leaves) != len(in_placements):
            raise ValueError(f"spmd: expected {len(in_placements)} array leaves, got {len(leaves)}")
        blocks = [_to_local(x, mesh, p) for x, p in zip(leaves, in_placements)]
        outs = fn(*blocks)
        return [
            DTensor.from_local(y, mesh, p, run_check=False)
            if p is not None and isinstance(y, torch.Tensor)
            else y
            for y, p in zip(outs, out_placements())
        ]

    return run


# A group: its name (a string: what the functional collectives take, a constant to a trace)
# and its size.
Group = tuple[str, int]


_GROUPS: dict[tuple[int, tuple[str, ...]], tuple[DeviceMesh, tuple[Group, ...]]] = {}


def _groups(mesh: DeviceMesh, axes: tuple[str, ...]) -> tuple[Group, ...]:
    """The groups of ``axes`` with more than one process (a sum or a gather over one process
    is the identity: no collective is made for it)."""
    hit = _GROUPS.get((id(mesh), axes))
    if hit is None or hit[0] is not mesh:
        names = _names(mesh)
        groups = tuple(
            (mesh.get_group(a).group_name, mesh.size(names.index(a)))
            for a in axes
            if mesh.size(names.index(a)) > 1
        )
        hit = _GROUPS[(id(mesh), axes)] = (mesh, groups)
    return hit[1]


def _waited(y: Any) -> Any:
    return y.wait() if isinstance(y, funcol.AsyncCollectiveTensor) else y


# The functional collectives' ops themselves: funcol's Python wrappers return asynchronous
# tensor subclasses, which a torch.func level (the backward of ivy_like.grad) wraps out of
# reach of their wait(); the ops and an explicit wait_tensor are what a trace records anyway.
_ops = torch.ops._c10d_functional


def _sum(x: Any, groups: tuple[Group, ...]) -> Any:
    for name, _size in groups:  # a sum over several axes is the sum over each in turn
        x = _ops.wait_tensor(_ops.all_reduce(x, "sum", name))
    return x


def _gather(x: Any, dim: int, groups: tuple[Group, ...]) -> Any:
    # The ops gather along dimension 0: along dim, with dim moved first and back.
    x = x.movedim(dim, 0)
    # The last axis is the innermost split: gathering it first rebuilds each outer block.
    for name, size in reversed(groups):
        x = _ops.wait_tensor(_ops.all_gather_into_tensor(x.contiguous(), size, name))
    return x.movedim(0, dim)


def _scatter_sum(x: Any, dim: int, groups: tuple[Group, ...]) -> Any:
    # The transpose of _gather: the outermost axis first.
    x = x.movedim(dim, 0)
    for name, size in groups:
        x = _ops.wait_tensor(_ops.reduce_scatter_tensor(x.contiguous(), "sum", size, name))
    return x.movedim(0, dim)


@torch.compiler.disable
def _eagerly(collective: Callable[..., Any], *args: Any) -> Any:
    return collective(*args)


def _outside_dynamo(collective: Callable[..., Any], *args: Any) -> Any:
    """``collective(*args)``, run eagerly when Dynamo traces it: a backward or jvp rule that
    torch's autograd engine calls under a caller's torch.compile (the forward ran eagerly,
    see ``_apply``) is traced by Dynamo, which cannot trace the functional collectives'
    asynchronous tensors there. make_fx (``ivy_like.compile``) traces them."""
    if torch.compiler.is_compiling():
        return _eagerly(collective, *args)
    return collective(*args)


class _AllSum(torch.autograd.Function):
    """The sum over ranks; its cotangent passes through unchanged (each rank's loss already
    depends on the sum once, as in JAX's shard_map), its tangent is summed."""

    @staticmethod
    def forward(x: Any, groups: tuple[Group, ...]) -> Any:  # type: ignore[override]
        return _sum(x, groups)

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> None:
        ctx.groups = inputs[1]

    @staticmethod
    def backward(ctx: Any, cotangent: Any) -> tuple[Any, None]:  # type: ignore[override]
        return cotangent, None

    @staticmethod
    def jvp(ctx: Any, tangent: Any, _groups: Any) -> Any:  # type: ignore[override]
        return _apply(_AllSum, tangent, ctx.groups)

    @staticmethod
    def vmap(info: Any, in_dims: tuple[Any, ...], x: Any, groups: Any) -> tuple[Any, Any]:  # type: ignore[override]
        return _apply(_AllSum, x, groups), in_dims[0]  # elementwise: the batch axis stays


class _AllGather(torch.autograd.Function):
    """The blocks of every rank concatenated along ``dim``; the cotangent of this rank's block
    sums every rank's cotangent of it (a reduce-scatter). Its rules are the collectives'
    Functions too, so that they are differentiable again (the ops' own autograd refuses
    torch.func)."""

    @staticmethod
    def forward(x: Any, dim: int, groups: tuple[Group, ...]) -> Any:  # type: ignore[override]
        return _gather(x, dim, groups)

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> None:
        ctx.dim, ctx.groups = inputs[1], inputs[2]

    @staticmethod
    def backward(ctx: Any, cotangent: Any) -> tuple[Any, None, None]:  # type: ignore[override]
        return _apply(_ScatterSum, cotangent, ctx.dim, ctx.groups), None, None

    @staticmethod
    def jvp(ctx: Any, tangent: Any, _dim: Any, _groups: Any) -> Any:  # type: ignore[override]
        return _apply(_AllGather, tangent, ctx.dim, ctx.groups)

    @staticmethod
    def vmap(  # type: ignore[override]
        info: Any, in_dims: tuple[Any, ...], x: Any, dim: int, groups: Any
    ) -> tuple[Any, Any]:
        return _batched(_AllGather, in_dims[0], x, dim, groups)


class _ScatterSum(torch.autograd.Function):
    """The sum over ranks of ``x``, of which each rank keeps its block along ``dim``: the
    transpose of ``_AllGather`` (its backward), whose transpose it is in turn."""

    @staticmethod
    def forward(x: Any, dim: int, groups: tuple[Group, ...]) -> Any:  # type: ignore[override]
        return _scatter_sum(x, dim, groups)

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> None:
        ctx.dim, ctx.groups = inputs[1], inputs[2]

    @staticmethod
    def backward(ctx: Any, cotangent: Any) -> tuple[Any, None, None]:  # type: ignore[override]
        return _apply(_AllGather, cotangent, ctx.dim, ctx.groups), None, None

    @staticmethod
    def jvp(ctx: Any, tangent: Any, _dim: Any, _groups: Any) -> Any:  # type: ignore[override]
        return _apply(_ScatterSum, tangent, ctx.dim, ctx.groups)

    @staticmethod
    def vmap(  # type: ignore[override]
        info: Any, in_dims: tuple[Any, ...], x: Any, dim: int, groups: Any
    ) -> tuple[Any, Any]:
        return _batched(_ScatterSum, in_dims[0], x, dim, groups)


def _batched(function: Any, axis: Any, x: Any, dim: int, groups: Any) -> tuple[Any, Any]:
    """A gather or scatter under vmap: with the batch axis first, the collective's axis is
    ``dim + 1``."""
    if axis is None:
        return _apply(function, x, dim, groups), None
    return _apply(function, x.movedim(axis, 0), dim + 1, groups), 0


def _apply(function: Any, *args: Any) -> Any:
    # Under a caller's own torch.compile, Dynamo inlines an autograd.Function's forward under
    # torch.func (ivy_like.grad) and drops its backward (pytorch#193279), and the collectives'
    # own autograd refuses torch.func there: the collective runs eagerly behind a graph break
    # (ivy_like.compile traces it with make_fx instead, whole).
    return _outside_dynamo(function.apply, *args)


def all_sum(x: Any, axes: tuple[str, ...], mesh: Any) -> Any:
    groups = _groups(mesh, axes)
    return _apply(_AllSum, x, groups) if groups else x


def all_gather(x: Any, axes: tuple[str, ...], dim: int, mesh: Any) -> Any:
    groups = _groups(mesh, axes)
    return _apply(_AllGather, x, dim, groups) if groups else x


def _whole(x: Any) -> Any:
    """``x`` with partial sums resolved (a reduction of a sharded DTensor outside ``spmd``)."""
    if any(isinstance(p, Partial) for p in x.placements):
        placements = [Replicate() if isinstance(p, Partial) else p for p in x.placements]
        return x.redistribute(x.device_mesh, placements)
    return x


def local_blocks(x: Any) -> list[tuple[tuple[int, ...], np.ndarray]]:
    if not isinstance(x, DTensor):
        raise TypeError(
            f"local_blocks: expected an array placed on a mesh (a DTensor), got {type(x).__name__}"
        )
    x = _whole(x)
    mesh, placements = x.device_mesh, tuple(x.placements)
    coordinate = mesh.get_coordinate()
    if coordinate is None:
        return []  # this process is not on the mesh
    # A block replicated over mesh axes is given by the process at coordinate 0 along them.
    if any(isinstance(p, Replicate) and coordinate[k] != 0 for k, p in enumerate(placements)):
        return []
    offsets = tuple(_extent(n, mesh, placements, d)[0] for d, n in enumerate(x.shape))
    return [(offsets, to_numpy(x.to_local()))]


def to_host(x: Any) -> np.ndarray:
    # The backend's to_numpy reads a DTensor whole: a collective, every process calls it.
    return np.asarray(to_numpy(x))


def barrier(mesh: Any) -> None:
    if dist.is_initialized():
        dist.barrier()

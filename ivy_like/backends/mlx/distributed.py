"""MLX's distributed hooks (the contract is in ``backends/_common/distributed.py``): one
process per mesh position, joined by MLX's ``ring`` backend (TCP sockets, CPU).

Processes. A mesh spans the processes of the world group, which ``mx.distributed.init(
backend="ring")`` makes from ``mlx.launch``'s environment (or ``python -m ivy_like launch``):

* ``MLX_RANK``: this process's rank, 0 to n - 1;
* ``MLX_HOSTFILE``: the path of a JSON file listing every rank's address, one list per rank,
  ``[["127.0.0.1:p0"], ["127.0.0.1:p1"], ...]`` on one machine (a free port each);
* ``MLX_WORLD_SIZE`` (optional): checked against the hostfile when given.

Without them (or with a hostfile of one rank, which MLX's ring would wait on forever) the world
is this process alone: ``device_count()`` is 1, a mesh of 1 works and collectives return their
input. ``init`` waits for every rank of the hostfile to connect; a rank that never starts
leaves the others waiting (the launcher's timeout ends them).

What this engine cannot do:

* MLX has no sharded array type: a placed array is the whole value on every process
  (``place`` returns it as it is, ``placement`` gives ``None``), and the spec decides only
  which block each process sees inside ``spmd``. Every process holds the whole batch and the
  whole parameters between steps: splitting them saves no memory here (``data_parallel``'s
  ``shard_params`` and ``P("data")`` parameters give the right values, not the savings).
* The ring backend cannot split its process group (``Group.split`` raises), so a mesh has at
  most one axis of size above 1, and spans all the processes or only one (a mesh of 1: each
  process computes the whole on its own, the collectives are the identity).

``spmd`` runs eagerly in each process: each split input is cut to this process's block (a
slice: no communication), ``fn`` runs, a replicated output is returned as it is, and a split
output is gathered back to the whole value with ``all_gather`` (communication).

Collectives are ``mx.distributed.all_sum`` and ``all_gather`` (which joins along axis 0, so
the gathered dimension is moved there and back), wrapped in ``mx.custom_function`` for the
gradient conventions: ``all_sum`` passes the cotangent through; ``all_gather``'s gradient sums
every process's cotangent (``all_sum``; the ring backend has no ``sum_scatter``) and keeps this
process's block (MLX's own rule keeps only this process's slice of its own cotangent, which
drops the other processes' contributions). Both work under ``mx.compile``, ``mx.vmap`` and
forward mode.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from typing import Any, Callable

import mlx.core as mx
import numpy as np

SPMD_COMPILES = False

# The world group, made once per process (None: this process alone).
_WORLD: list[Any] = []


@dataclass(frozen=True)
class RingMesh:
    """The native mesh: axis names and sizes, the world group (``None`` for one process) and
    this process's position along each axis (row-major over the ranks)."""

    names: tuple[str, ...]
    shape: tuple[int, ...]
    group: Any
    coords: tuple[int, ...]

    def size(self, axes: tuple[str, ...]) -> int:
        return math.prod(self.shape[self.names.index(a)] for a in axes)

    def index(self, axes: tuple[str, ...]) -> int:
        """This process's block index over ``axes`` (row-major, the first axis slowest)."""
        flat = 0
        for a in axes:
            i = self.names.index(a)
            flat = flat * self.shape[i] + self.coords[i]
        return flat


def _hostfile_size(path: str) -> int:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ValueError(f"MLX_HOSTFILE: cannot read {path!r}: {e}") from e
    if not text.strip():
        return 1  # mlx.launch writes an empty hostfile for one process
    try:
        hosts = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"MLX_HOSTFILE: {path!r} is not JSON: {e}") from e
    if not isinstance(hosts, list) or not all(isinstance(h, list) and h for h in hosts):
        raise ValueError(
            f"MLX_HOSTFILE: {path!r} must hold one list of 'ip:port' addresses per rank, "
            f'e.g. [["127.0.0.1:5000"], ["127.0.0.1:5001"]]'
        )
    return max(len(hosts), 1)


def _world() -> Any:
    """The world group from the launcher's environment, ``None`` when this process is alone."""
    if _WORLD:
        return _WORLD[0]
    path = os.environ.get("MLX_HOSTFILE")
    size = 1 if path is None else _hostfile_size(path)
    expected = os.environ.get("MLX_WORLD_SIZE")
    if expected is not None and expected.strip() != str(size):
        raise ValueError(
            f"MLX_WORLD_SIZE: {expected!r} but the hostfile MLX_HOSTFILE lists {size} ranks"
        )
    group = None
    if size > 1:
        if "MLX_RANK" not in os.environ:
            raise ValueError("MLX_RANK: not set, but MLX_HOSTFILE lists several ranks")
        # strict: a broken launch must fail here, not continue as a world of one
        group = mx.distributed.init(strict=True, backend="ring")
        if group.size() != size:
            raise RuntimeError(f"mlx ring: a world of {group.size()} for {size} hostfile ranks")
    _WORLD.append(group)
    return group


def device_count() -> int:
    group = _world()
    return 1 if group is None else int(group.size())


def process_count() -> int:
    return device_count()


def process_index() -> int:
    group = _world()
    return 0 if group is None else int(group.rank())


def make_mesh(shape: tuple[int, ...], names: tuple[str, ...]) -> RingMesh:
    group, world = _world(), device_count()
    total = math.prod(shape)
    if sum(1 for s in shape if s > 1) > 1:
        raise ValueError(
            f"shape: MLX's ring backend cannot split its process group, so a mesh has at most "
            f"one axis of size above 1 (got {dict(zip(names, shape))}); use one axis"
        )
    if total not in (1, world):
        raise ValueError(
            f"shape: a mesh of {total} on {world} MLX processes: the ring backend cannot split "
            f"its process group, so a mesh spans all {world} processes or one (launch "
            f"{total} processes instead)"
        )
    if total == 1:
        # Every process runs the whole computation on its own: nothing to communicate.
        return RingMesh(names, shape, None, (0,) * len(shape))
    rank = int(group.rank())
    coords = tuple(int(c) for c in np.unravel_index(rank, shape))
    return RingMesh(names, shape, group, coords)


def place(x: Any, mesh: RingMesh, spec: tuple[Any, ...]) -> Any:
    # No sharded array type: every process keeps the whole value (see the module docstring).
    return x


def placement(x: Any) -> Any:
    return None


def _group(mesh: RingMesh, axes: tuple[str, ...]) -> Any:
    """The group of a collective over ``axes``: ``None`` when they span one process (the
    collective is the identity), else the world (the only other mesh ``make_mesh`` allows)."""
    return None if mesh.size(axes) == 1 else mesh.group


def _all_sum_fn(group: Any) -> Callable[[Any], Any]:
    def total(x: Any) -> Any:
        return mx.distributed.all_sum(x, group=group)

    fun = mx.custom_function(total)

    @fun.vjp
    def _vjp(primal: Any, cotangent: Any, output: Any) -> Any:
        return cotangent  # passed through unchanged (JAX's and MLX's convention)

    @fun.jvp
    def _jvp(primal: Any, tangent: Any) -> Any:
        return total(tangent)  # linear

    @fun.vmap
    def _vmap(x: Any, axis: Any) -> tuple[Any, Any]:
        return total(x), axis  # elementwise over processes: the batch axis stays

    return fun  # type: ignore[no-any-return]


def _all_gather_fn(group: Any, dim: int) -> Callable[[Any], Any]:
    rank = int(group.rank())

    def gather(x: Any, d: int) -> Any:
        joined = mx.distributed.all_gather(mx.moveaxis(x, d, 0), group=group)
        return mx.moveaxis(joined, 0, d)

    fun = mx.custom_function(lambda x: gather(x, dim))

    @fun.vjp
    def _vjp(primal: Any, cotangent: Any, output: Any) -> Any:
        # Every process's output holds this block: its gradient is the sum of their
        # cotangents of it (a reduce-scatter: ring has no sum_scatter, so all_sum and cut).
        block = primal.shape[dim]
        summed = mx.distributed.all_sum(cotangent, group=group)
        cut = [slice(None)] * cotangent.ndim
        cut[dim] = slice(rank * block, (rank + 1) * block)
        return summed[tuple(cut)]

    @fun.jvp
    def _jvp(primal: Any, tangent: Any) -> Any:
        return gather(tangent, dim)  # linear

    @fun.vmap
    def _vmap(x: Any, axis: int) -> tuple[Any, int]:
        # The batch axis first; the gathered dimension is one further.
        return gather(mx.moveaxis(x, axis, 0), dim + 1), 0

    return fun  # type: ignore[no-any-return]


def all_sum(x: Any, axes: tuple[str, ...], mesh: RingMesh) -> Any:
    group = _group(mesh, axes)
    return x if group is None else _all_sum_fn(group)(x)


def all_gather(x: Any, axes: tuple[str, ...], dim: int, mesh: RingMesh) -> Any:
    if not isinstance(x, mx.array) or x.ndim == 0:
        raise ValueError(f"all_gather: x must have a dimension {dim} to join along")
    if not -x.ndim <= dim < x.ndim:
        raise ValueError(f"dim: {dim} is out of range for an array of {x.ndim} dimensions")
    group = _group(mesh, axes)
    return x if group is None else _all_gather_fn(group, dim % x.ndim)(x)


def _block(x: Any, spec: tuple[Any, ...], mesh: RingMesh) -> Any:
    """This process's block of the whole value ``x`` (a slice: no communication)."""
    cut = []
    for size, axes in zip(x.shape, spec):
        if not axes:
            cut.append(slice(None))
            continue
        n, i = mesh.size(axes), mesh.index(axes)
        step = size // n  # divisibility checked by the frontend
        cut.append(slice(i * step, (i + 1) * step))
    return x[tuple(cut)] if any(c != slice(None) for c in cut) else x


def _whole(y: Any, spec: tuple[Any, ...], mesh: RingMesh) -> Any:
    """The whole value of an output split as ``spec``: gathered along each split dimension."""
    for dim, axes in enumerate(spec):
        if axes:
            y = all_gather(y, tuple(axes), dim, mesh)
    return y


def spmd(
    fn: Callable[..., list[Any]],
    mesh: RingMesh,
    in_specs: list[tuple[Any, ...]],
    out_specs: Callable[[], list[tuple[Any, ...]]],
) -> Callable[..., list[Any]]:
    # fn and the returned function take the leaves as positional arguments, return a list
    def run(*leaves: Any) -> list[Any]:
        blocks = [_block(x, spec, mesh) for x, spec in zip(leaves, in_specs)]
        outputs = fn(*blocks)
        return [_whole(y, spec, mesh) for y, spec in zip(outputs, out_specs())]

    return run


def local_blocks(x: Any) -> list[tuple[tuple[int, ...], np.ndarray]]:
    raise TypeError(
        "local_blocks: MLX places nothing: every array is the whole value on every process "
        "(read it with to_numpy)"
    )


def to_host(x: Any) -> np.ndarray:
    raise TypeError(
        "to_host: MLX places nothing: every array is the whole value on every process "
        "(read it with to_numpy)"
    )


def barrier(mesh: RingMesh) -> None:
    group = _world()
    if group is not None:
        # A collective returns only when every process has reached it.
        mx.eval(mx.distributed.all_sum(mx.zeros((1,)), group=group))

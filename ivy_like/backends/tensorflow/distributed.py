"""TensorFlow's distributed hooks (the contract is in ``_common/distributed.py``): one process,
``tf.distribute.MirroredStrategy`` over its logical devices.

* Devices: the logical GPUs when there are any, else the logical CPUs (MirroredStrategy
  does not take TPUs). Several CPU devices come from
  ``tf.config.set_logical_device_configuration`` before TensorFlow starts.
* Mesh: one ``MirroredStrategy`` per set of devices, cached, each with its own range of
  collective group keys: strategies share the process's collective runtime, and two that
  number their groups alike (all do, from 1) abort or corrupt each other's reductions. A
  strategy is one data axis, so at most one mesh axis may have a size above 1.
* ``spmd``: one ``tf.function`` around ``strategy.run``. Each replica slices its own block of
  every split input with its replica id (no communication; the slice has a static shape, which
  ivy_like's ops read), runs the shard function in the replica's thread (the function
  activates the ivy_like backend and the mesh itself: threads do not inherit ContextVars) and
  returns its local blocks. A replicated output is replica 0's; a split output is the
  replicas' blocks concatenated along the split dimension. The function is compiled, so
  ``ivy_like.compile`` around it adds nothing (``SPMD_COMPILES``); ``ivy_like.compile``
  inside it runs inline (see ``transforms.compile_leaves``), as TensorFlow refuses a
  collective in a ``tf.function`` called from ``strategy.run``.
* Collectives: the replica context's ``all_reduce`` and ``all_gather``, under
  ``tf.custom_gradient`` for ivy_like's gradients: ``all_sum`` passes the cotangent through,
  ``all_gather`` sums the cotangent over the replicas and keeps this replica's block.

What this engine cannot do:

* TensorFlow has no global sharded array in one process: a placed array is kept whole (the
  same tensor) and its spec only decides what each replica sees inside ``spmd``, so
  ``placement`` is ``None`` and the frontend reads whole values with ``to_numpy``
  (``local_blocks`` and ``to_host`` are never called).
* One process only: under a launcher (``WORLD_SIZE`` above 1) ``make_mesh`` raises; spread
  over the devices of one process instead. ``MultiWorkerMirroredStrategy`` must be made
  before TensorFlow runs its first op ("Collective ops must be configured at program
  startup"), and this backend runs ops when it is imported, before any mesh exists.
* A mesh of one data axis (the others of size 1).
"""

from __future__ import annotations

import math
import os
from typing import Any, Callable

import tensorflow as tf

# the same as on one process: MirroredStrategy's replicas are devices of this process
from .._common.distributed import barrier as barrier
from .._common.distributed import local_blocks as local_blocks
from .._common.distributed import process_count as process_count
from .._common.distributed import process_index as process_index
from .._common.distributed import to_host as to_host

SPMD_COMPILES = True

# Device names (as MirroredStrategy takes them) -> its strategy: one per set of devices.
_STRATEGIES: dict[tuple[str, ...], Any] = {}
# Apart from the group keys of any strategy the user makes (which start at 1).
_KEY_STRIDE = 100_000


class _Strategy(tf.distribute.MirroredStrategy):  # type: ignore[misc]
    """A MirroredStrategy whose collective group keys start at ``key_base + 1``.

    Every MirroredStrategy numbers its device groups from 1, and TensorFlow's collective
    runtime is one per process: a strategy over 2 devices and one over 4 both use group 1 and
    abort each other's collectives ("joining a group with size 4, but that group has size 2"),
    and two over the same devices mix their instance keys. ``_collective_key_base`` is the
    attribute TensorFlow's own tests set for this (no public option); it is read while the
    strategy is built, so it is set first."""

    def __init__(self, devices: list[str], key_base: int) -> None:
        self._collective_key_base = key_base
        super().__init__(devices)


class _Mesh:
    """The native mesh: the axis sizes by name and the strategy over the mesh's devices."""

    __slots__ = ("sizes", "strategy")

    def __init__(self, sizes: dict[str, int], strategy: Any) -> None:
        self.sizes = sizes
        self.strategy = strategy

    def split(self, axes: tuple[str, ...] | None) -> int:
        """Into how many blocks ``axes`` (a spec entry) split a dimension."""
        return 1 if axes is None else math.prod(self.sizes[a] for a in axes)

    def __repr__(self) -> str:
        return f"MirroredStrategy mesh {self.sizes}"


def _devices() -> list[str]:
    for kind in ("GPU", "CPU"):
        found = tf.config.list_logical_devices(kind)
        if found:
            return [d.name for d in found]
    return []


def device_count() -> int:
    return len(_devices())


def make_mesh(shape: tuple[int, ...], names: tuple[str, ...]) -> Any:
    world = os.environ.get("WORLD_SIZE", "1")
    if world.isdigit() and int(world) > 1:
        raise ValueError(
            f"Mesh: WORLD_SIZE={world}: the TensorFlow backend runs in one process "
            "(MirroredStrategy over its logical devices; TensorFlow's multi-worker strategy "
            "must exist before its first op, which this backend runs when imported). Run the "
            "script without a launcher; for several CPU devices call "
            "tf.config.set_logical_device_configuration before TensorFlow starts"
        )
    big = [f"{n}={s}" for n, s in zip(names, shape) if s > 1]
    if len(big) > 1:
        raise ValueError(
            f"Mesh: axes {', '.join(big)}: on TensorFlow a mesh is one MirroredStrategy, "
            "which has one data axis: give at most one axis a size above 1"
        )
    devices = tuple(_devices()[: math.prod(shape)])
    strategy = _STRATEGIES.get(devices)
    if strategy is None:
        base = _KEY_STRIDE * (len(_STRATEGIES) + 1)
        strategy = _STRATEGIES[devices] = _Strategy(list(devices), base)
    return _Mesh(dict(zip(names, shape)), strategy)


def place(x: Any, mesh: Any, spec: tuple[Any, ...]) -> Any:
    return x  # kept whole: the spec decides each replica's block inside spmd


def placement(x: Any) -> Any:
    return None


def _block(x: Any, mesh: _Mesh, spec: tuple[Any, ...], replica: Any) -> Any:
    """This replica's block of ``x``: a slice of static size along each split dimension."""
    if not any(mesh.split(axes) > 1 for axes in spec):
        return x
    begin: list[Any] = []
    size: list[int] = []
    for d, axes in enumerate(spec):
        n = mesh.split(axes)
        length = x.shape[d]
        if n == 1:
            begin.append(0)
            size.append(-1 if length is None else length)
        else:
            step = (tf.shape(x)[d] if length is None else length) // n
            begin.append(replica * step)
            size.append(-1 if length is None else step)
    return tf.slice(x, tf.stack(begin), size)


def _whole(blocks: tuple[Any, ...], mesh: _Mesh, spec: tuple[Any, ...]) -> Any:
    """The global value of an output from the replicas' blocks."""
    dims = [d for d, axes in enumerate(spec) if mesh.split(axes) > 1]
    if not dims:
        return blocks[0]
    if len(dims) > 1:
        raise ValueError(
            f"spmd: out_specs {spec} split dimensions {dims} over one axis; a TensorFlow mesh "
            "splits one dimension of an output"
        )
    return tf.concat(list(blocks), axis=dims[0])


class _Run:
    """``strategy.run`` of the shard function with each replica's blocks, and the global
    outputs. An object, not a closure: TensorFlow counts the traces of a ``tf.function`` by
    its Python function's code, which every spmd function's closure would share (a warning
    of "excessive retracing" once a program made a few of them)."""

    def __init__(
        self,
        fn: Callable[..., list[Any]],
        mesh: _Mesh,
        in_specs: list[tuple[Any, ...]],
        out_specs: Callable[[], list[tuple[Any, ...]]],
    ) -> None:
        self.fn, self.mesh, self.in_specs, self.out_specs = fn, mesh, in_specs, out_specs

    def replica(self, leaves: list[Any]) -> list[Any]:
        rid = tf.distribute.get_replica_context().replica_id_in_sync_group
        blocks = [_block(x, self.mesh, s, rid) for x, s in zip(leaves, self.in_specs)]
        return list(self.fn(*blocks))

    def __call__(self, leaves: list[Any]) -> list[Any]:
        strategy = self.mesh.strategy
        outs = strategy.run(self.replica, args=(leaves,))
        local = [strategy.experimental_local_results(o) for o in outs]
        return [_whole(b, self.mesh, s) for b, s in zip(local, self.out_specs())]


def spmd(
    fn: Callable[..., list[Any]],
    mesh: Any,
    in_specs: list[tuple[Any, ...]],
    out_specs: Callable[[], list[tuple[Any, ...]]],
) -> Callable[..., list[Any]]:
    # Retraced by TensorFlow per input signature; no autograph, as ivy_like.compile.
    compiled = tf.function(_Run(fn, mesh, in_specs, out_specs), autograph=False)

    def call(*leaves: Any) -> list[Any]:
        return list(compiled(list(leaves)))

    return call


def _context(who: str, mesh: _Mesh) -> Any:
    ctx = tf.distribute.get_replica_context()
    if ctx is None or ctx.strategy is not mesh.strategy:
        raise ValueError(
            f"{who}: not in a replica of this mesh's strategy; collectives run inside the "
            "function given to dist.spmd"
        )
    return ctx


def _backward(who: str, mesh: _Mesh) -> Any:
    """The replica context of a collective's backward pass. The pass runs outside any replica
    when ``ivy_like.grad`` is taken of the spmd function from outside: replica 0's value of a
    replicated output stands for all, and which values are the same on every replica is not
    tracked (JAX's shard_map tracks it), so a cotangent through a collective there would be
    wrong; a gradient whose path has no collective is right."""
    ctx = tf.distribute.get_replica_context()
    if ctx is None or ctx.strategy is not mesh.strategy:
        raise TypeError(
            f"{who}: a gradient through a collective of dist.spmd is taken inside the function "
            "given to spmd (ivy_like.grad or value_and_grad there), not around the spmd "
            "function, on TensorFlow"
        )
    return ctx


def _differentiable(x: Any) -> bool:
    # Integers have no gradient: their collectives need no custom one.
    return bool(x.dtype.is_floating or x.dtype.is_complex)


def all_sum(x: Any, axes: tuple[str, ...], mesh: Any) -> Any:
    if mesh.split(axes) == 1:
        return x
    ctx = _context("all_sum", mesh)

    def summed(v: Any) -> Any:
        def grad(dy: Any) -> Any:
            _backward("all_sum", mesh)
            return dy  # the cotangent passes through (JAX's and MLX's convention)

        return ctx.all_reduce(tf.distribute.ReduceOp.SUM, v), grad

    if _differentiable(x):
        return tf.custom_gradient(summed)(x)
    return ctx.all_reduce(tf.distribute.ReduceOp.SUM, x)


def all_gather(x: Any, axes: tuple[str, ...], dim: int, mesh: Any) -> Any:
    if mesh.split(axes) == 1:
        return x
    ctx = _context("all_gather", mesh)

    def gathered(v: Any) -> Any:
        def grad(dy: Any) -> Any:
            # Every replica's cotangent of this replica's block, summed (a reduce-scatter).
            rid = _backward("all_gather", mesh).replica_id_in_sync_group
            total = ctx.all_reduce(tf.distribute.ReduceOp.SUM, dy)
            n = tf.shape(v)[dim]
            begin = tf.one_hot(dim, tf.rank(v), on_value=rid * n, off_value=0)
            return tf.slice(total, begin, tf.shape(v))

        return _gather(ctx, v, dim, mesh.split(axes)), grad

    if _differentiable(x):
        return tf.custom_gradient(gathered)(x)
    return _gather(ctx, x, dim, mesh.split(axes))


def _gather(ctx: Any, x: Any, dim: int, n: int) -> Any:
    out = ctx.all_gather(x, axis=dim)
    # In a graph the gathered dimension comes out unknown (TensorFlow allows blocks of
    # different sizes); here every block has this one's shape, and ivy_like's ops read it.
    if x.shape[dim] is not None:
        out.set_shape(x.shape[:dim] + [x.shape[dim] * n] + x.shape[dim + 1 :])
    return out

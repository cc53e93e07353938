"""One distributed programming model on every engine: JAX's ``shard_map`` model, in which a
step written with ivy_like runs once per shard and the collectives are explicit. It is carried
out by each framework's own machinery (``jax.sharding`` and ``shard_map``, ``torch.distributed``
with DTensor, ``tf.distribute.MirroredStrategy``, ``mx.distributed``), through one
``distributed.py`` per backend.

.. code-block:: python

    from ivy_like import distributed as dist

    mesh = dist.Mesh({"data": 2})                       # named axes over the devices/processes
    params = dist.shard(params, mesh, dist.P())         # placed: replicated
    batch = dist.shard(batch, mesh, dist.P("data"))     # split along dim 0 over "data"
    step = dist.spmd(step, mesh, in_specs=(dist.P(), dist.P(), dist.P("data")),
                     out_specs=dist.P())                # step calls dist.all_mean(grads, "data")
    step = dist.data_parallel(step_without_collectives, mesh)   # the gradient mean inserted
    dist.save("ckpt", state); state = dist.load("ckpt", mesh, dist.P())

Multi-process engines are started by ``python -m ivy_like launch -n N script.py`` (or
``torchrun`` / ``mlx.launch``); see ``docs/distributed.md``.
"""

from ._checkpoint import load, save
from ._collectives import all_gather, all_mean, all_sum
from ._mesh import Mesh
from ._place import placement, shard
from ._spec import P
from ._spmd import data_parallel, spmd

__all__ = [
    "Mesh",
    "P",
    "all_gather",
    "all_mean",
    "all_sum",
    "data_parallel",
    "load",
    "placement",
    "save",
    "shard",
    "spmd",
]

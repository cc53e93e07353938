"""One training script, data-parallel on every engine: an MLP trained with ``dist.data_parallel``
on a mesh of every device (JAX, TensorFlow) or every process (torch, MLX), checked against the
same steps on one device and the whole batch, then saved and loaded back.

    python examples/distributed_mlp.py jax --devices 4          # 4 host devices
    python examples/distributed_mlp.py tensorflow --devices 2   # 2 logical CPUs
    python -m ivy_like launch -n 2 examples/distributed_mlp.py torch
    python -m ivy_like launch -n 2 examples/distributed_mlp.py mlx

The device count of JAX and TensorFlow is fixed when the framework starts, so ``--devices`` is
applied before either is imported. Every process prints the same line; rank 0 prints it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile

import numpy as np

STEPS = 5
BATCH = 32


def _devices(backend: str, n: int) -> None:
    """Make ``n`` host devices visible (before the framework starts)."""
    if backend == "jax":
        os.environ["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={n}"
    elif backend == "tensorflow":
        import tensorflow as tf

        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration()] * n
        )


def _leaves(c) -> list:
    return list(c.cont_flatten_key_chains().values())


def main(backend: str, devices: int = 1) -> dict[str, float]:
    _devices(backend, devices)
    import ivy_like
    from ivy_like import distributed as dist

    ivy_like.set_backend(backend)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((BATCH, 8)).astype("float32")
    y = rng.integers(0, 4, BATCH).astype("int32")
    model = ivy_like.nn.MLP([8, 16, 4], seed=0)
    opt = ivy_like.optimizers.adam(1e-2)

    def step(params, state, batch):
        def loss_fn(p):
            return ivy_like.nn.cross_entropy(model.apply(p, batch[0]), batch[1])

        loss, grads = ivy_like.value_and_grad(loss_fn)(params)
        params, state = opt.update(params, grads, state)
        return params, state, loss

    mesh = dist.Mesh()  # every device, or every process the launcher started
    train = dist.data_parallel(step, mesh)
    params = dist.shard(model.params, mesh, dist.P())
    state = dist.shard(opt.init(model.params), mesh, dist.P())
    batch = dist.shard((ivy_like.asarray(x), ivy_like.asarray(y)), mesh, dist.P("data"))
    single = (model.params, opt.init(model.params))
    for _ in range(STEPS):
        params, state, loss = train(params, state, batch)
        single = step(*single, (ivy_like.asarray(x), ivy_like.asarray(y)))[:2]

    # the same parameters as the steps on one device and the whole batch
    gap = max(
        float(np.abs(ivy_like.to_numpy(a) - ivy_like.to_numpy(b)).max())
        for a, b in zip(_leaves(params), _leaves(single[0]))
    )
    # every process writes its blocks into one folder: a name they all know
    run = os.environ.get("MASTER_PORT", str(os.getpid()))
    saved = os.path.join(tempfile.gettempdir(), f"ivy_like_example_{run}")
    dist.save(saved, {"params": params, "opt": state})
    back = dist.load(saved, mesh, dist.P())  # returns once every process has read it
    if mesh.process_index == 0:
        shutil.rmtree(saved)
    same = all(
        np.array_equal(ivy_like.to_numpy(a), ivy_like.to_numpy(b))
        for a, b in zip(_leaves(back["params"]), _leaves(params))
    )
    result = {"shards": mesh.size, "loss": float(ivy_like.to_numpy(loss)), "gap": gap}
    if mesh.process_index == 0:
        print(
            f"{backend}: {mesh.size} shard(s), loss {result['loss']:.6f}, "
            f"largest gap to one device {gap:.1e}, checkpoint round trip exact: {same}"
        )
    assert gap < 1e-5 and same, (gap, same)
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("backend")
    parser.add_argument("--devices", type=int, default=1)
    args = parser.parse_args()
    main(args.backend, args.devices)

"""The distributed hooks of a backend with one device and one process (numpy, MXNet, a plugin
without a ``distributed.py``), and the contract every backend's ``distributed.py`` keeps.

``ivy_like.distributed`` (the frontend) validates everything and works on flat lists of native
leaves; a backend's ``distributed.py`` only talks to its framework. The names every backend
defines, with these meanings:

* ``device_count()``: how many devices (or processes, on the multi-process engines) a mesh may
  span here; ``process_count()`` and ``process_index()``: this process among them.
* ``make_mesh(shape, names)``: the native mesh (``shape`` a tuple of sizes, ``names`` the axis
  names, their product at most ``device_count()``, checked by the frontend). The multi-process
  engines set up their process group here, from the launcher's environment.
* ``place(x, mesh, spec)``: the native array ``x`` (the *global* value, the same on every
  process) placed on ``mesh``: ``spec`` has one entry per dimension of ``x``, each ``None``
  (not split) or a tuple of mesh axis names (split over those axes, in order).
* ``placement(x)``: ``(native mesh, spec)`` of a placed array, ``None`` for any other.
* ``spmd(fn, mesh, in_specs, out_specs)``: a function ``call(*global_leaves) -> list`` that
  runs ``fn(*local_blocks) -> list`` once per shard (``in_specs[i]`` says how leaf ``i`` is
  split) and returns the list of global results. ``out_specs()`` gives the results' specs; it is
  valid once ``fn`` has run (been traced) once. ``fn`` activates the backend and the mesh
  itself, so it may run in another thread (TensorFlow's replicas).
* ``all_sum(x, axes, mesh)`` and ``all_gather(x, axes, dim, mesh)``: the collectives inside
  ``spmd`` over the mesh axes ``axes`` (a tuple of names). Their gradients: ``all_sum`` passes
  the cotangent through unchanged (JAX's and MLX's convention, not torch's autograd one, which
  sums cotangents across ranks); ``all_gather``'s sums every shard's cotangent of this shard's
  block (a reduce-scatter).
* ``local_blocks(x)``: this process's distinct blocks of a placed array, as
  ``[(start offsets, numpy block)]``, each block held by exactly one process of all (a block
  replicated over several devices or processes is given by one of them only).
* ``barrier(mesh)``: every process waits for the others.
* ``to_host(x)``: the whole global value of a placed array as a NumPy array (a collective
  where blocks live on other processes: every process must call it).

An array that is not placed (``placement(x) is None``) is the whole value on every process: the
frontend reads it with the backend's ``to_numpy``.
* ``SPMD_COMPILES``: ``spmd`` already compiles ``fn`` (``ivy_like.compile`` around it returns
  it as it is).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

SPMD_COMPILES = False


def device_count() -> int:
    return 1


def process_count() -> int:
    return 1


def process_index() -> int:
    return 0


def make_mesh(shape: tuple[int, ...], names: tuple[str, ...]) -> Any:
    # Every axis has size 1 (the frontend checked the product against device_count()).
    return dict(zip(names, shape))


def place(x: Any, mesh: Any, spec: tuple[Any, ...]) -> Any:
    return x  # one device: every block is the whole array


def placement(x: Any) -> Any:
    return None


def spmd(
    fn: Callable[..., list[Any]],
    mesh: Any,
    in_specs: list[tuple[Any, ...]],
    out_specs: Callable[[], list[tuple[Any, ...]]],
) -> Callable[..., list[Any]]:
    return fn  # one shard: the local block is the global value


def all_sum(x: Any, axes: tuple[str, ...], mesh: Any) -> Any:
    return x


def all_gather(x: Any, axes: tuple[str, ...], dim: int, mesh: Any) -> Any:
    return x


def local_blocks(x: Any) -> list[tuple[tuple[int, ...], np.ndarray]]:
    raise TypeError("local_blocks: nothing is placed on a backend with one device")


def to_host(x: Any) -> np.ndarray:
    raise TypeError("to_host: nothing is placed on a backend with one device")


def barrier(mesh: Any) -> None:
    return None

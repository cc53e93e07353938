"""Checkpoints of distributed state: ``save`` writes each process's own blocks (nothing is
gathered on one host) and an index; ``load`` puts the blocks together and places the result
on any mesh, by any spec, so state saved on 8 devices loads on 2 or on 1.

A checkpoint is a folder: ``index.json`` (the tree's structure, each leaf's global shape and
dtype, how many processes wrote it) and one ``process-<i>-of-<n>.npz`` per process holding its
blocks, each under ``<leaf>@<start offsets>``, with exactly the bits of the arrays (bfloat16 as
its ``uint16`` bits). Every file is written under a temporary name and renamed when complete,
the index last, after every process has written its blocks: a folder with an index is whole.
"""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any

import numpy as np

from ..container import Container
from ..container._leaves import exact_numpy, from_exact_numpy
from ..core import backend as _backend
from ..core import dtypes as _dtypes
from ..transforms import tree as _tree
from ._leaves import Leaves
from ._mesh import Mesh, hooks_of
from ._place import shard
from ._spec import check_rule

_FORMAT = "ivy_like.distributed checkpoint"
_INDEX = "index.json"


def _structure(spec: Any, where: str) -> Any:
    """The JSON form of a tree's structure (only what ``load`` can build back)."""
    if spec is _tree.A:
        return "array"
    if spec is _tree.N or spec is _tree.P:
        return "native"
    tag = spec[0]
    if tag == "d":
        _, tp, keys, children = spec
        if tp not in (dict, Container):
            raise TypeError(
                f"save: {where or 'the tree'} is a {tp.__name__}; save dicts or Containers"
            )
        for k in keys:
            if not isinstance(k, str):
                raise TypeError(f"save: {where or 'the tree'} has the key {k!r}; keys are strings")
        kind = "container" if tp is Container else "dict"
        return {
            kind: {k: _structure(c, f"{where}/{k}".lstrip("/")) for k, c in zip(keys, children)}
        }
    if tag == "l":
        _, tp, children = spec
        if tp not in (list, tuple):
            raise TypeError(f"save: {where or 'the tree'} is a {tp.__name__}; save lists or tuples")
        kind = "list" if tp is list else "tuple"
        return {kind: [_structure(c, f"{where}/{i}".lstrip("/")) for i, c in enumerate(children)]}
    value = spec[1]
    if value is not None and not isinstance(value, (bool, int, float, str)):
        raise TypeError(f"save: {where or 'the tree'} is a {type(value).__name__}, not an array")
    return {"static": value}


def _spec_of(node: Any) -> Any:
    """The flattening spec of a structure written by :func:`_structure`."""
    if node == "array":
        return _tree.A
    if node == "native":
        return _tree.N
    ((kind, body),) = node.items()
    if kind in ("dict", "container"):
        tp = Container if kind == "container" else dict
        return ("d", tp, tuple(body), tuple(_spec_of(c) for c in body.values()))
    if kind in ("list", "tuple"):
        return ("l", list if kind == "list" else tuple, tuple(_spec_of(c) for c in body))
    return ("s", body)


def _bits(block: np.ndarray, dtype: _dtypes.Dtype) -> np.ndarray:
    block = np.require(block, requirements="C")  # (ascontiguousarray makes 0-d arrays 1-d)
    if dtype == _dtypes.bfloat16 and block.dtype != np.uint16:
        block = block.view(np.uint16)
    return block


def _write_atomically(path: str, name: str, write: Any) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", dir=path)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.replace(tmp, os.path.join(path, name))
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def save(path: str | os.PathLike[str], tree: Any) -> None:
    """Write ``tree`` (arrays, placed or not, in Containers, dicts, lists, tuples) to the
    folder ``path``: every process writes the blocks it holds, process 0 the index. Called by
    every process, as a collective.

    Raises
    ------
    TypeError
        A leaf that is not an array, or a structure ``load`` could not build back (before
        anything is written).
    ValueError
        ``path`` is a file.

    Examples
    --------
    >>> import tempfile, ivy_like
    >>> from ivy_like import distributed as dist
    >>> with ivy_like.use_backend("numpy"), tempfile.TemporaryDirectory() as d:
    ...     dist.save(d, {"w": ivy_like.ones(2)})
    ...     dist.load(d, dist.Mesh({"data": 1}), dist.P())
    {'w': ivy_like.array([1., 1.])}
    """
    path = os.fspath(path)
    if os.path.exists(path) and not os.path.isdir(path):
        raise ValueError(f"save: {path!r} is a file; a checkpoint is a folder")
    leaves = Leaves((tree,), "save")
    structure = _structure(leaves.specs[0], "")
    backend = leaves.backend
    hooks = hooks_of(backend)
    rank, count = hooks.process_index(), hooks.process_count()
    entries = []
    blocks: dict[str, Any] = {}  # (Any: savez types its keywords as its own flags)
    for i, (x, chain) in enumerate(zip(leaves.leaves, leaves.chains)):
        if hooks.placement(x) is not None:
            dtype = backend.unified_dtype(backend.dtype(x))
            pieces = [(o, _bits(b, dtype)) for o, b in hooks.local_blocks(x)]
        else:
            host, dtype = exact_numpy(backend, x)
            host = host.reshape(tuple(backend.shape(x)))  # a scalar stays 0-d
            pieces = [((0,) * host.ndim, host)] if rank == 0 else []
        entries.append({"chain": chain, "shape": list(backend.shape(x)), "dtype": dtype.name})
        for offsets, block in pieces:
            blocks[f"{i}@{','.join(map(str, offsets))}"] = block
    os.makedirs(path, exist_ok=True)
    _write_atomically(path, f"process-{rank}-of-{count}.npz", lambda f: np.savez(f, **blocks))
    hooks.barrier(None)  # the index, last, says that every process's blocks are there
    if rank == 0:
        index = {"format": _FORMAT, "version": 1, "processes": count}
        index.update(structure=structure, leaves=entries)
        text = json.dumps(index, indent=1).encode()
        _write_atomically(path, _INDEX, lambda f: f.write(text))
    hooks.barrier(None)


def _read_index(path: str) -> dict[str, Any]:
    name = os.path.join(path, _INDEX)
    if not os.path.isfile(name):
        raise FileNotFoundError(
            f"load: {path!r} holds no {_INDEX}: not a checkpoint written by dist.save "
            f"(or its save did not finish)"
        )
    with open(name, encoding="utf-8") as f:
        index = json.load(f)
    if not isinstance(index, dict) or index.get("format") != _FORMAT:
        raise ValueError(f"load: {name!r} is not the index of a dist.save checkpoint")
    return index


def _assemble(path: str, index: dict[str, Any]) -> list[np.ndarray]:
    """Every leaf whole, from the blocks of every process's file."""
    infos = index["leaves"]
    arrays = [np.empty(info["shape"], _storage(_dtypes.as_dtype(info["dtype"]))) for info in infos]
    filled = [0] * len(infos)
    count = index["processes"]
    for rank in range(count):
        name = os.path.join(path, f"process-{rank}-of-{count}.npz")
        if not os.path.isfile(name):
            raise FileNotFoundError(f"load: {name!r} is missing: the checkpoint is incomplete")
        with np.load(name, allow_pickle=False) as blocks:
            for key in blocks.files:
                leaf, _, start = key.partition("@")
                i = int(leaf)
                block = blocks[key]
                offsets = tuple(int(o) for o in start.split(",") if o)
                where = tuple(slice(o, o + n) for o, n in zip(offsets, block.shape))
                arrays[i][where] = block
                filled[i] += block.size
    for info, array, n in zip(infos, arrays, filled):
        if n != array.size:
            raise ValueError(f"load: the blocks of {info['chain']!r} do not cover it")
    return arrays


def _storage(dtype: _dtypes.Dtype) -> np.dtype:
    return np.dtype(np.uint16) if dtype == _dtypes.bfloat16 else np.dtype(dtype.name)


def load(path: str | os.PathLike[str], mesh: Mesh, spec: Any) -> Any:
    """The tree saved in ``path`` by :func:`save`, placed on ``mesh`` by ``spec`` (a ``P``, a
    layout or a function of ``(key chain, shape)``, as :func:`shard` takes), whatever mesh it
    was saved from. A collective: every process calls it, and none returns before all have
    read the files. Arrays come back in the types they were saved as (``Array`` or native) on
    the mesh's backend, with exactly their bits.

    Raises
    ------
    FileNotFoundError
        No checkpoint in ``path`` (or one whose save did not finish).
    ValueError
        ``spec`` does not fit a leaf on ``mesh`` (before anything is placed).

    Examples
    --------
    >>> import tempfile, ivy_like
    >>> from ivy_like import distributed as dist
    >>> with ivy_like.use_backend("numpy"), tempfile.TemporaryDirectory() as d:
    ...     dist.save(d, ivy_like.Container({"w": ivy_like.arange(3)}))
    ...     dist.load(d, dist.Mesh({"data": 1}), {"w": dist.P("data")})
    {
        w: ivy_like.array([0, 1, 2])
    }
    """
    if not isinstance(mesh, Mesh):
        raise TypeError(f"load: mesh must be a dist.Mesh, got {type(mesh).__name__}")
    check_rule(spec, "load", "spec")
    path = os.fspath(path)
    index = _read_index(path)
    arrays = _assemble(path, index)
    # every process has read the files before any returns: one may then replace or delete
    # them (MLX's collectives are lazy, so a later step is no such guarantee)
    mesh.hooks.barrier(mesh.native)
    backend = mesh.backend
    natives = [
        from_exact_numpy(a, _dtypes.as_dtype(info["dtype"]), backend)
        for a, info in zip(arrays, index["leaves"])
    ]
    with _backend.use_backend(backend):
        tree = _tree.rebuild(_spec_of(index["structure"]), iter(natives), backend)
    return shard(tree, mesh, spec)

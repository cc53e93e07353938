"""The nested ``Container``: parameters, gradients and optimizer state as a tree of arrays.

Importing this package imports no framework. It installs the op methods (generated from the
registry), hands leafwise mapping to the dispatcher, and registers ``Container`` as a tree node
with jax, torch and optree as soon as each is in use.

Container arguments of one call whose structures differ raise
:class:`ContainerStructureError` (a ``ValueError``), naming the key chain.
"""

from __future__ import annotations

from ..core import backend as _backend
from . import _trees
from ._container import Container, ContainerStructureError
from ._mapping import container_map, install

__all__ = ["Container", "ContainerStructureError", "container_map", "install"]

_backend.register_special_kind(Container, "container")
_backend.on_load(_trees.on_backend_loaded)
_trees.sync()

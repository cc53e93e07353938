"""The nested ``Container``: parameters, gradients and optimizer state as a tree of arrays.

Importing this package imports no framework. The class is in ``_container``; ``_mapping``
generates its op methods and operators from the registry and holds the one walker that maps
over leaves; ``_keychains`` selects leaves by key chain; ``_leaves`` does the per-leaf work of
the ``cont_*`` utilities; ``_io`` saves and loads; ``_pytree`` registers ``Container`` as a tree
node with jax, torch and optree as soon as each is in use.

Container arguments of one call whose structures differ raise
:class:`ContainerStructureError` (a ``ValueError``), naming the key chain.
"""

from __future__ import annotations

from ..core import backend as _backend
from . import _pytree
from ._container import Container, ContainerStructureError
from ._mapping import container_map, install

__all__ = ["Container", "ContainerStructureError", "container_map", "install"]

_backend.register_special_kind(Container, "container")
_backend.on_load(_pytree.on_backend_loaded)
_pytree.sync()

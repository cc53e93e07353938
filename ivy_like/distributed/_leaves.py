"""Trees (Arrays, native arrays, Containers, dicts, lists, tuples) as flat lists of native
leaves with their key chains, on the flattening every transform shares."""

from __future__ import annotations

from typing import Any

from ..core.backend import Backend
from ..transforms import tree as _tree
from ._mesh import Mesh


def chain_of(owner: Any) -> str:
    """``"layers/0/weight"`` from a leaf's owner path ``((root, "layers"), 0), "weight")``,
    relative to its root (an argument, an output)."""
    keys: list[str] = []
    while isinstance(owner, tuple):
        owner, key = owner
        keys.append(str(key))
    return "/".join(reversed(keys))


class Leaves:
    """The native leaves of several roots (the arguments of a call), the structure of each
    root, and each leaf's root index and key chain."""

    __slots__ = ("_paths", "backend", "leaves", "specs")

    def __init__(self, roots: tuple[Any, ...], who: str, backend: Backend | None = None) -> None:
        flat = _tree.Flat(who, strict=False)
        if backend is not None:
            flat.backend = backend
        # A root's owner is its index; a leaf's is (owner, key), nested.
        self.specs = tuple(_tree.flatten(r, flat, i, True) for i, r in enumerate(roots))
        self.backend = _tree.resolve_backend(flat)
        self.leaves: list[Any] = flat.leaves
        self._paths = flat.paths

    @property
    def roots(self) -> list[int]:
        """The index of the root each leaf belongs to."""
        roots = []
        for path in self._paths:
            while isinstance(path, tuple):
                path = path[0]
            roots.append(path)
        return roots

    @property
    def chains(self) -> list[str]:
        """Each leaf's key chain in its root (read only where a spec is chosen: a call whose
        structure and shapes were seen before does not need them)."""
        return [chain_of(path) for path in self._paths]

    def rebuild(self, leaves: list[Any]) -> list[Any]:
        it = iter(leaves)
        return [_tree.rebuild(s, it, self.backend) for s in self.specs]

    def shapes(self) -> list[tuple[int, ...]]:
        return [tuple(self.backend.shape(x)) for x in self.leaves]


def same_backend(leaves: Leaves, mesh: Mesh, who: str) -> None:
    if leaves.leaves and leaves.backend is not mesh.backend:
        raise TypeError(
            f"{who}: the arrays are {leaves.backend.name} arrays; the mesh is a "
            f"{mesh.backend.name} mesh (make the mesh with that backend active)"
        )

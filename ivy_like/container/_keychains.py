"""The one key-chain matcher used by every Container method, ``cont_map`` and the utilities.

A key chain names a place in a Container by its keys joined with ``/`` (``"layer1/w"``), or as a
tuple of keys. Matching is by whole components: ``"x/a"`` selects the leaf ``x/a`` and every
leaf under ``x/a``, never ``x/ab``.

``key_chains`` arguments are compiled once per call into a *selection*: ``True`` (apply to
everything below), ``False`` (apply to nothing below) or a :class:`Node` whose ``children`` map
keys to sub-selections and whose ``default`` is the selection of keys it does not list. With
``to_apply=False`` the same tree is built with the booleans swapped, so the walker never needs
to know which way round it is.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Union

__all__ = ["Node", "Selection", "compile_selection", "iter_chains", "split_chain"]


class Node:
    """An inner node of a selection: keys it names, and what every other key gets."""

    __slots__ = ("children", "default")

    def __init__(self, default: bool) -> None:
        self.default = default
        self.children: dict[str, Selection] = {}

    def __repr__(self) -> str:
        return f"Node(default={self.default}, children={self.children!r})"


Selection = Union[bool, Node]


def split_chain(chain: Any) -> tuple[str, ...]:
    """Components of a key chain given as ``"a/b/c"`` or ``("a", "b/c")``.

    Empty components (leading, trailing or doubled ``/``) are ignored; a chain with no
    component at all is a ``ValueError``.

    Examples
    --------
    >>> from ivy_like.container._keychains import split_chain
    >>> split_chain("a/b/c"), split_chain(("a", "b/c"))
    (('a', 'b', 'c'), ('a', 'b', 'c'))
    """
    if isinstance(chain, str):
        parts = tuple(filter(None, chain.split("/")))
    elif isinstance(chain, tuple):
        parts = ()
        for item in chain:
            if not isinstance(item, str):
                raise TypeError(
                    f"key chain {chain!r}: every component must be a str, got {type(item).__name__}"
                )
            parts += tuple(filter(None, item.split("/")))
    else:
        raise TypeError(f"key chain: expected a str or a tuple of str, got {type(chain).__name__}")
    if not parts:
        raise ValueError(f"key chain {chain!r} has no component")
    return parts


def iter_chains(key_chains: Any) -> Iterator[tuple[str, ...]]:
    """Every chain named by a ``key_chains`` argument, as tuples of components.

    Accepts a string, a list or tuple of strings (or mappings), or a (nested) mapping -- a dict or a Container
    -- whose *leaf* key chains are used at every depth (the leaf values are ignored).
    """
    if isinstance(key_chains, str):
        yield split_chain(key_chains)
    elif isinstance(key_chains, Mapping):
        yield from _mapping_chains(key_chains, ())
    elif isinstance(key_chains, (list, tuple)):
        for item in key_chains:
            if isinstance(item, Mapping):
                yield from _mapping_chains(item, ())
            elif isinstance(item, str):
                yield split_chain(item)
            else:
                raise TypeError(
                    f"key_chains: a list or tuple must hold key chain strings (or nested "
                    f"dicts), got {type(item).__name__}"
                )
    else:
        raise TypeError(
            "key_chains: expected a str, a list or tuple of str, a nested dict or a Container, "
            f"got {type(key_chains).__name__}"
        )


def _mapping_chains(
    mapping: Mapping[Any, Any], prefix: tuple[str, ...]
) -> Iterator[tuple[str, ...]]:
    for key, value in mapping.items():
        chain = prefix + split_chain(key)
        if isinstance(value, Mapping) and value:
            yield from _mapping_chains(value, chain)
        else:
            yield chain


def _check_exists(root: Mapping[str, Any], chain: tuple[str, ...]) -> None:
    node: Any = root
    for depth, key in enumerate(chain):
        # (dict first: a Container is one, and the Mapping check is an ABC's, slower)
        if not (isinstance(node, dict) or isinstance(node, Mapping)) or key not in node.keys():
            where = "/".join(chain[:depth]) or "the top level"
            raise KeyError(
                f"key chain {'/'.join(chain)!r} is not in the container (no key {key!r} at {where})"
            )
        node = dict.__getitem__(node, key) if isinstance(node, dict) else node[key]


def compile_selection(key_chains: Any, to_apply: bool, root: Mapping[str, Any]) -> Selection:
    """The selection for ``key_chains`` and ``to_apply`` over the container ``root``.

    ``key_chains=None`` selects every leaf whatever ``to_apply`` says. A chain that names
    nothing in ``root`` raises ``KeyError`` naming it.

    Examples
    --------
    >>> from ivy_like.container._keychains import compile_selection
    >>> tree = {"x": {"a": 1, "ab": 2}, "y": 3}
    >>> sel = compile_selection("x/a", True, tree)
    >>> sel.children["x"].children, sel.children["x"].default, sel.default
    ({'a': True}, False, False)
    >>> compile_selection("x/b", True, tree)
    Traceback (most recent call last):
    ...
    KeyError: "key chain 'x/b' is not in the container (no key 'b' at x)"
    """
    if key_chains is None:
        return True
    if not isinstance(to_apply, bool):
        raise TypeError(f"to_apply: expected a bool, got {type(to_apply).__name__}")
    top = Node(not to_apply)
    # One chain, the common case, without the generator.
    chains = (split_chain(key_chains),) if type(key_chains) is str else iter_chains(key_chains)
    for chain in chains:
        _check_exists(root, chain)
        node = top
        for key in chain[:-1]:
            child = node.children.get(key)
            if child is to_apply:  # an ancestor chain already selects all of this
                break
            if not isinstance(child, Node):
                child = node.children[key] = Node(not to_apply)
            node = child
        else:
            node.children[chain[-1]] = to_apply
    return top

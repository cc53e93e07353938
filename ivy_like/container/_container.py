"""The ``Container`` class: construction, key-chain access, repr and the ``cont_*`` utilities.

Op methods (``c.add``, ``c.stop_gradient`` ...), their static variants and the operators are
not written here: :mod:`ivy_like.container._mapping` generates them from the op registry, and
holds the one walker that maps over leaves (``cont_map`` and ``cont_multi_map`` use it too,
through :data:`map_containers`, which that module sets here when it is imported). Per-leaf work
is in :mod:`~ivy_like.container._leaves`, saving and loading in :mod:`~ivy_like.container._io`.
"""

from __future__ import annotations

import sys as _sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ..core.backend import get_backend
from . import _io, _leaves, _pytree
from ._keychains import split_chain

__all__ = ["Container", "ContainerStructureError"]

_dict_getitem = dict.__getitem__
_dict_setitem = dict.__setitem__
_dict_contains = dict.__contains__
_dict_new = dict.__new__
_dict_update = dict.update
_pending = _pytree.pending  # frameworks not yet told about Container: a dict, emptied in place
_sync = _pytree.sync


def _no_walker(*args: Any) -> Container:
    raise RuntimeError("ivy_like.container._mapping, the walker of cont_map, is not imported")


# The walker behind cont_map and cont_multi_map: ``_mapping.map_containers``, which that module
# (it imports this one, so this one cannot import it) sets here when the package imports it.
map_containers: Callable[..., Container] = _no_walker

# repr: how many entries of one level, and how many lines of one leaf, before eliding.
_REPR_MAX_KEYS = 20
_REPR_HEAD_KEYS = 12
_REPR_TAIL_KEYS = 3
_REPR_MAX_LINES = 12


class Container(dict):
    """A nested mapping of arrays: a model's parameters, gradients or optimizer state.

    Nested dicts become Containers. Values are reached by attribute (``c.a.b``), by key chain
    (``c["a/b"]``) or by tuple key (``c["a", "b"]``); the same forms work with ``in``,
    assignment and ``del``. Leaves are arrays (native or :class:`ivy_like.Array`), scalars or
    sequences of them. Keys are strings; a key that is also a method name (``c["sum"]``) is
    reached by item access only.

    Every op is a method (``c.exp()``), a static method (``Container.static_exp(c)``) and
    maps over leaves when given to the function (``ivy_like.exp(c)``), with the keywords
    ``key_chains``, ``to_apply``, ``prune_unapplied``, ``map_sequences`` and ``out``.
    Operators (``+ - * / ** @``, comparisons, unary minus) work leafwise.

    Examples
    --------
    >>> import ivy_like
    >>> c = ivy_like.Container(a=ivy_like.array([0., 1., 2.]), b={"c": ivy_like.array([3.])})
    >>> print(c)
    {
        a: ivy_like.array([0., 1., 2.]),
        b: {
            c: ivy_like.array([3.])
        }
    }
    >>> c.b.c is c["b/c"] is c["b", "c"]
    True
    >>> "b/c" in c, "b/d" in c
    (True, False)
    >>> c["b/d"] = ivy_like.array([4.])
    >>> c.cont_all_key_chains()
    ['a', 'b/c', 'b/d']
    """

    __slots__ = ()

    def __init__(self, dict_or_pairs: Any = None, /, **kwargs: Any) -> None:
        if _pending:
            _sync()
        data: dict[str, Any] = {}
        if dict_or_pairs is not None:
            if isinstance(dict_or_pairs, Mapping):
                for key in dict_or_pairs:
                    data[_check_key(key)] = _as_value(dict_or_pairs[key])
            elif isinstance(dict_or_pairs, (str, bytes)) or not hasattr(dict_or_pairs, "__iter__"):
                raise TypeError(
                    "Container: dict_or_pairs must be a mapping or an iterable of (key, value) "
                    f"pairs, got {type(dict_or_pairs).__name__}"
                )
            else:
                for item in dict_or_pairs:
                    if not isinstance(item, (tuple, list)) or len(item) != 2:
                        raise TypeError(
                            f"Container: dict_or_pairs must hold (key, value) pairs, got {item!r}"
                        )
                    data[_check_key(item[0])] = _as_value(item[1])
        for key, value in kwargs.items():
            data[key] = _as_value(value)
        # One dict.__init__ call (also what lets torch.compile trace Container creation).
        dict.__init__(self, data)

    # -- access ----------------------------------------------------------------------------------
    def __missing__(self, key: Any) -> Any:
        # Called by dict.__getitem__ only when ``key`` is not a literal key: try it as a chain.
        chain = _chain_or_none(key)
        if chain is None or (len(chain) == 1 and chain[0] == key):
            raise KeyError(key)
        return _at_chain(self, chain)

    def __contains__(self, key: object) -> bool:
        # dict.__contains__ spelled out, not the module alias: torch.compile (Dynamo) traces
        # the attribute of dict but not a builtin bound to another name (a graph break).
        if dict.__contains__(self, key):
            return True
        chain = _chain_or_none(key)
        if chain is None:
            return False
        try:
            _at_chain(self, chain)
        except KeyError:
            return False
        return True

    def __setitem__(self, key: Any, value: Any) -> None:
        value = _as_value(value)
        if type(key) is str and ("/" not in key or _dict_contains(self, key)):
            _dict_setitem(self, key, value)
            return
        chain = split_chain(key)
        node = _parent(
            self,
            chain,
            lambda depth: KeyError(
                f"key chain {'/'.join(chain)!r}: {'/'.join(chain[: depth + 1])!r} is a "
                "leaf, not a Container"
            ),
        )
        _dict_setitem(node, chain[-1], value)

    def __delitem__(self, key: Any) -> None:
        if _dict_contains(self, key):
            dict.__delitem__(self, key)
            return
        chain = split_chain(key)
        parent = _at_chain(self, chain[:-1]) if len(chain) > 1 else self
        if not isinstance(parent, Container) or not _dict_contains(parent, chain[-1]):
            raise KeyError(f"key chain {'/'.join(chain)!r} is not in the container")
        dict.__delitem__(parent, chain[-1])

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return self[name]  # (not dict.__getitem__(self, name): torch.compile traces this)
        except KeyError:
            raise AttributeError(f"Container has no key or attribute {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        self[name] = value

    def __delattr__(self, name: str) -> None:
        try:
            dict.__delitem__(self, name)
        except KeyError:
            raise AttributeError(f"Container has no key {name!r}") from None

    def get(self, key: Any, default: Any = None) -> Any:
        """``self[key]`` (a key or key chain) if it is there, else ``default``.

        Examples
        --------
        >>> import ivy_like
        >>> ivy_like.Container(a={"b": 1}).get("a/b"), ivy_like.Container().get("x", 0)
        (1, 0)
        """
        try:
            return self[key]
        except KeyError:
            return default

    def update(self, other: Any = (), /, **kwargs: Any) -> None:  # type: ignore[override]
        """Set every key (or key chain) of ``other`` and ``kwargs``; nested dicts become
        Containers.

        Examples
        --------
        >>> import ivy_like
        >>> c = ivy_like.Container(a=1)
        >>> c.update({"b/c": 2})
        >>> c.cont_all_key_chains()
        ['a', 'b/c']
        """
        items = other.items() if isinstance(other, Mapping) else other
        for key, value in items:
            self[key] = value
        for key, value in kwargs.items():
            self[key] = value

    def copy(self) -> Container:
        """A copy of the structure (every nested Container is new); leaves are shared.

        Examples
        --------
        >>> import ivy_like
        >>> c = ivy_like.Container(a={"b": 1})
        >>> d = c.copy()
        >>> d["a/b"] = 2
        >>> c.a.b, d.a.b
        (1, 2)
        """
        return copy_structure(self)

    def __copy__(self) -> Container:
        return copy_structure(self)

    def __reduce__(self) -> Any:
        return (_rebuild, (self.cont_to_dict(),))

    # -- repr -----------------------------------------------------------------------------------
    def __repr__(self) -> str:
        return "\n".join(_repr_lines(self, ""))

    __str__ = __repr__

    # -- structure utilities --------------------------------------------------------------------
    def cont_map(
        self,
        fn: Callable[[Any, str], Any],
        key_chains: Any = None,
        to_apply: bool = True,
        prune_unapplied: bool = False,
        map_sequences: bool = False,
    ) -> Container:
        """A new Container with ``fn(leaf, key_chain)`` at every selected leaf.

        ``key_chains``, ``to_apply``, ``prune_unapplied`` and ``map_sequences`` mean what they
        mean for every op method (see the guide): whole-component matching, ``KeyError`` for a
        chain that names nothing; unselected leaves are kept (the same objects) unless pruned.
        With ``map_sequences`` ``fn`` gets each element of list and tuple leaves, with the
        sequence's key chain.

        Examples
        --------
        >>> import ivy_like
        >>> c = ivy_like.Container(x={"a": 1, "ab": 2}, y=3)
        >>> c.cont_map(lambda v, kc: v * 10, key_chains="x/a")
        {
            x: {
                a: 10,
                ab: 2
            },
            y: 3
        }
        >>> c.cont_map(lambda v, kc: kc, key_chains=["x/a"], to_apply=False, prune_unapplied=True)
        {
            x: {
                ab: 'x/ab'
            },
            y: 'y'
        }
        """
        return map_containers(
            lambda leaves, kc: fn(leaves[0], kc),
            (self,),
            key_chains,
            to_apply,
            prune_unapplied,
            map_sequences,
        )

    @staticmethod
    def cont_multi_map(
        fn: Callable[[list[Any], str], Any],
        containers: Sequence[Container],
        key_chains: Any = None,
        to_apply: bool = True,
        prune_unapplied: bool = False,
        map_sequences: bool = False,
    ) -> Container:
        """A new Container with ``fn([leaf of each container], key_chain)`` at each selected leaf.

        The containers must have the same structure on the selected leaves; a mismatch raises
        :class:`ContainerStructureError` (a ``ValueError``) naming the first differing key
        chain. The result has the structure of the first container.

        Examples
        --------
        >>> import ivy_like
        >>> a = ivy_like.Container(x=1, y={"z": 2})
        >>> b = ivy_like.Container(y={"z": 20}, x=10)
        >>> ivy_like.Container.cont_multi_map(lambda vs, kc: sum(vs), [a, b])
        {
            x: 11,
            y: {
                z: 22
            }
        }
        """
        if isinstance(containers, Container) or not isinstance(containers, (list, tuple)):
            raise TypeError("cont_multi_map: containers must be a list or tuple of Containers")
        if not containers:
            raise ValueError("cont_multi_map: containers is empty")
        for i, c in enumerate(containers):
            if not isinstance(c, Container):
                raise TypeError(
                    f"cont_multi_map: containers[{i}] is a {type(c).__name__}, not a Container"
                )
        return map_containers(
            fn, tuple(containers), key_chains, to_apply, prune_unapplied, map_sequences
        )

    def cont_all_key_chains(self) -> list[str]:
        """The key chains of every leaf, depth first, in insertion order.

        Examples
        --------
        >>> import ivy_like
        >>> ivy_like.Container(a={"b": 1, "c": {"d": 2}}, e=3).cont_all_key_chains()
        ['a/b', 'a/c/d', 'e']
        """
        return [kc for kc, _ in _iter_leaves(self, "")]

    def cont_at_key_chain(self, key_chain: Any) -> Any:
        """The leaf or sub-Container at ``key_chain``; ``KeyError`` naming it when absent.

        Examples
        --------
        >>> import ivy_like
        >>> ivy_like.Container(a={"b": 1}).cont_at_key_chain("a/b")
        1
        """
        return _at_chain(self, split_chain(key_chain))

    def cont_at_key_chains(self, key_chains: Any) -> Container:
        """A new Container holding only ``key_chains`` (a str, list, nested dict or Container),
        with their nesting kept; ``KeyError`` for a chain that names nothing.

        Examples
        --------
        >>> import ivy_like
        >>> c = ivy_like.Container(x={"a": 1, "ab": 2}, y=3)
        >>> c.cont_at_key_chains(["x/a", "y"]).cont_all_key_chains()
        ['x/a', 'y']
        """
        return self.cont_map(_identity, key_chains=key_chains, prune_unapplied=True)

    def cont_set_at_key_chain(self, key_chain: Any, value: Any, inplace: bool = False) -> Container:
        """``value`` at ``key_chain`` (missing Containers on the way are created).

        Returns a new Container (the structure is copied, leaves are shared) unless
        ``inplace=True``, which changes and returns ``self`` (like ``self[key_chain] = value``).

        Examples
        --------
        >>> import ivy_like
        >>> c = ivy_like.Container(a={"b": 1})
        >>> d = c.cont_set_at_key_chain("a/c", 2)
        >>> c.cont_all_key_chains(), d.cont_all_key_chains()
        (['a/b'], ['a/b', 'a/c'])
        """
        target = self if inplace else copy_structure(self)
        target[split_chain(key_chain)] = value
        return target

    def cont_prune_key_chains(self, key_chains: Any) -> Container:
        """A new Container without ``key_chains`` (and without Containers left empty);
        ``KeyError`` for a chain that names nothing.

        Examples
        --------
        >>> import ivy_like
        >>> c = ivy_like.Container(x={"a": 1, "ab": 2}, y=3)
        >>> c.cont_prune_key_chains("x/ab").cont_all_key_chains()
        ['x/a', 'y']
        """
        return self.cont_map(_identity, key_chains=key_chains, to_apply=False, prune_unapplied=True)

    def cont_flatten_key_chains(self) -> Container:
        """A flat Container whose keys are the leaf key chains (``"a/b"``).

        Examples
        --------
        >>> import ivy_like
        >>> flat = ivy_like.Container(a={"b": 1}, c=2).cont_flatten_key_chains()
        >>> list(flat.keys()), flat["a/b"]
        (['a/b', 'c'], 1)
        """
        out = _new()
        for kc, leaf in _iter_leaves(self, ""):
            _dict_setitem(out, kc, leaf)
        return out

    @staticmethod
    def cont_unflatten(flat: Mapping[str, Any]) -> Container:
        """The nested Container of a flat mapping from key chains to leaves.

        Raises ``ValueError`` naming the chain when one chain is a prefix of another.

        Examples
        --------
        >>> import ivy_like
        >>> ivy_like.Container.cont_unflatten({"a/b": 1, "c": 2}).cont_all_key_chains()
        ['a/b', 'c']
        """
        if not isinstance(flat, Mapping):
            raise TypeError(f"cont_unflatten: flat must be a mapping, got {type(flat).__name__}")
        out = _new()
        for kc, leaf in flat.items():
            chain = split_chain(kc)
            node = _parent(
                out,
                chain,
                lambda depth, kc=kc, chain=chain: ValueError(
                    f"cont_unflatten: {kc!r} lies under the leaf {'/'.join(chain[: depth + 1])!r}"
                ),
            )
            # dict's methods spelled out, not the module aliases: torch.compile (Dynamo)
            # traces the attributes of dict but not a builtin bound to another name.
            if dict.__contains__(node, chain[-1]):
                raise ValueError(f"cont_unflatten: key chain {kc!r} is given twice or holds keys")
            dict.__setitem__(node, chain[-1], _as_value(leaf))
        return out

    def cont_to_dict(self) -> dict[str, Any]:
        """Plain nested dicts with the same leaves.

        Examples
        --------
        >>> import ivy_like
        >>> ivy_like.Container(a={"b": 1}).cont_to_dict()
        {'a': {'b': 1}}
        """
        return {k: v.cont_to_dict() if isinstance(v, Container) else v for k, v in self.items()}

    def cont_to_native(self) -> Container:
        """``ivy_like.Array`` leaves (also inside lists and tuples) replaced by native arrays.

        Examples
        --------
        >>> import ivy_like
        >>> c = ivy_like.Container(a=ivy_like.array([1., 2.]), b=[ivy_like.array(3.)])
        >>> native = c.cont_to_native()
        >>> isinstance(native.a, ivy_like.Array), native.a is c.a.data, native.b[0] is c.b[0].data
        (False, True, True)
        """
        return self.cont_map(_leaves.leaf_to_native, map_sequences=True)

    def cont_to_numpy(self) -> Container:
        """Every array leaf (Array or native, any backend) as a ``numpy.ndarray``.

        Examples
        --------
        >>> import ivy_like
        >>> ivy_like.Container(a=ivy_like.array([1., 2.])).cont_to_numpy()
        {
            a: array([1., 2.], dtype=float32)
        }
        """
        return self.cont_map(_leaves.leaf_to_numpy, map_sequences=True)

    def cont_to_backend(self, backend: Any) -> Container:
        """Every array leaf moved to ``backend`` (a name or Backend), keeping ``Array`` leaves
        as ``Array`` and native leaves native.

        DLPack is used where both frameworks allow it (no copy on CPU); otherwise the values go
        through NumPy. Dtypes are kept exactly: a dtype the target lacks is a ``TypeError``
        naming the leaf.

        Examples
        --------
        >>> import ivy_like
        >>> c = ivy_like.Container(a=ivy_like.array([1., 2.])).cont_to_backend("numpy")
        >>> c.a.backend.name
        'numpy'
        """
        target = get_backend(backend)
        return self.cont_map(
            lambda leaf, kc: _leaves.leaf_to_backend(leaf, target, kc), map_sequences=True
        )

    @property
    def cont_shapes(self) -> Container:
        """A Container of the leaves' shapes (tuples; ``None`` for non-array leaves).

        Examples
        --------
        >>> import ivy_like
        >>> ivy_like.Container(a=ivy_like.zeros((2, 3)), b=1.0).cont_shapes
        {
            a: (2, 3),
            b: None
        }
        """
        return self.cont_map(_leaves.leaf_shape)

    @property
    def cont_dtypes(self) -> Container:
        """A Container of the leaves' dtypes (``ivy_like`` dtypes; ``None`` for non-arrays).

        Examples
        --------
        >>> import ivy_like
        >>> ivy_like.Container(a=ivy_like.zeros((2, 3))).cont_dtypes
        {
            a: ivy_like.float32
        }
        """
        return self.cont_map(_leaves.leaf_dtype)

    @property
    def cont_num_leaves(self) -> int:
        """The number of leaves.

        Examples
        --------
        >>> import ivy_like
        >>> ivy_like.Container(a={"b": 1, "c": 2}, d=3).cont_num_leaves
        3
        """
        return sum(1 for _ in _iter_leaves(self, ""))

    def cont_identical(self, others: Any, same_arrays: bool = False) -> bool:
        """True when ``others`` (a Container or a sequence of them) have the same key chains
        and nesting (in any order), and identical leaves: the same leaf type (``Array`` or the
        same native type), dtype, shape and bit-identical values (NaNs included). With
        ``same_arrays=True`` every leaf must be the very same object.

        Examples
        --------
        >>> import ivy_like
        >>> a = ivy_like.Container(x=ivy_like.array([1., float("nan")]))
        >>> a.cont_identical(a.copy()), a.cont_identical([a, a + 0])
        (True, True)
        >>> a.cont_identical(ivy_like.Container(x=ivy_like.array([1., 2.])))
        False
        """
        if isinstance(others, Container):
            others = [others]
        for other in others:
            if not isinstance(other, Container):
                raise TypeError(f"cont_identical: expected Containers, got {type(other).__name__}")
            if not _same_tree(self, other, _leaves.leaves_identical if not same_arrays else _is):
                return False
        return True

    def cont_allclose(
        self, other: Container, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False
    ) -> bool:
        """True when ``other`` has the same key chains and nesting and every pair of leaves is
        close (``|a - b| <= atol + rtol * |b|`` elementwise, shapes equal, NumPy semantics).

        Examples
        --------
        >>> import ivy_like
        >>> a = ivy_like.Container(x=ivy_like.array([1., 2.]))
        >>> a.cont_allclose(a + 1e-9), a.cont_allclose(a + 1)
        (True, False)
        """
        if not isinstance(other, Container):
            raise TypeError(f"cont_allclose: other must be a Container, got {type(other).__name__}")
        return _same_tree(
            self, other, lambda x, y: _leaves.leaves_close(x, y, rtol, atol, equal_nan)
        )

    # -- saving and loading ---------------------------------------------------------------------
    def cont_to_disk(self, path: Any, format: str | None = None) -> None:  # noqa: A002
        """Save the array leaves to ``path`` in the safetensors format (or ``.npz``).

        The format is ``format`` (``"safetensors"`` or ``"npz"``) or, when None, ``npz`` for a
        path ending in ``.npz`` and safetensors otherwise. Tensor names are the key chains;
        dtypes (bfloat16 included) and bits are kept exactly. The file is written to a
        temporary file beside ``path`` and renamed, so a failed save leaves no partial file.
        Non-array leaves (scalars, sequences, None) are a ``TypeError`` naming the chain.

        Examples
        --------
        >>> import os, tempfile
        >>> import ivy_like
        >>> c = ivy_like.Container(w={"a": ivy_like.array([1., 2.])}, b=ivy_like.array([3]))
        >>> path = os.path.join(tempfile.mkdtemp(), "params.safetensors")
        >>> c.cont_to_disk(path)
        >>> ivy_like.Container.cont_from_disk(path).cont_identical(c)
        True
        """
        empty: list[str] = []
        leaves = list(_iter_leaves(self, "", empty))
        _io.save(leaves, empty, path, format)

    @staticmethod
    def cont_from_disk(
        path: Any, backend: Any = None, native: bool = False, max_bytes: int | None = 2**32
    ) -> Container:
        """Load a Container saved by :meth:`cont_to_disk` (safetensors or ``.npz``).

        Leaves are ``ivy_like.Array`` on ``backend`` (the active one when None), or native
        arrays when ``native=True``. Loading never runs code (no pickle). A missing file is a
        ``FileNotFoundError``; a truncated or malformed one is one ``ValueError`` naming the
        file and what is wrong, raised after checking every size, offset, dtype and key chain
        the file gives and before its data is read or inflated.

        ``max_bytes`` (default ``2**32``, 4 GiB) bounds what a load reads: a safetensors
        file's size, or the uncompressed size of an ``.npz``'s members as its zip directory
        declares them, so a small ``.npz`` that would inflate to gigabytes is refused without
        inflating it. A larger file is a ``ValueError`` naming the limit; pass a larger
        ``max_bytes``, or ``None`` for no limit, to load a file you trust. (Loading holds the
        file's bytes and the arrays made from them, about twice the payload.)

        Examples
        --------
        >>> import os, tempfile
        >>> import ivy_like
        >>> path = os.path.join(tempfile.mkdtemp(), "c.npz")
        >>> ivy_like.Container(a={"b": ivy_like.array([1, 2])}).cont_to_disk(path)
        >>> ivy_like.Container.cont_from_disk(path)
        {
            a: {
                b: ivy_like.array([1, 2])
            }
        }
        """
        flat, empty = _io.load(path, backend, native, max_bytes)
        out = Container.cont_unflatten(flat)
        for kc in empty:
            out[kc] = Container()
        return out


# -- helpers ------------------------------------------------------------------------------------
def _new() -> Container:
    return _dict_new(Container)


def _parent(
    root: Container, chain: Sequence[str], under_leaf: Callable[[int], Exception]
) -> Container:
    """The Container that holds the last key of ``chain`` below ``root``, made on the way where
    missing; ``under_leaf(depth)`` is raised where a leaf stands in the way."""
    node = root
    for depth, part in enumerate(chain[:-1]):
        # spelled out as in cont_unflatten, for torch.compile
        child = node.get(part) if dict.__contains__(node, part) else None
        if child is None:
            child = _new()
            dict.__setitem__(node, part, child)
        elif not isinstance(child, Container):
            raise under_leaf(depth)
        node = child
    return node


def make(d: dict[str, Any]) -> Container:
    """A Container holding the items of ``d`` as they are (no checks: internal fast path)."""
    c = _dict_new(Container)
    torch = _sys.modules.get("torch")
    try:
        plain = torch is None or not torch.compiler.is_dynamo_compiling()
    except AttributeError:  # torch half-imported by another thread: no trace is running
        plain = True
    if plain:
        _dict_update(c, d)  # one C call: item by item costs ~0.4 µs a leaf in the methods
        return c
    # Under torch.compile, item by item: Dynamo traces dict.__setitem__ on a dict subclass
    # but not the unbound dict.update.
    for key, value in d.items():
        dict.__setitem__(c, key, value)  # spelled out: Dynamo resolves it, not an alias
    return c


_pytree.bind(Container, make)  # the tree registrations rebuild Containers with it


def _rebuild(d: dict[str, Any]) -> Container:
    return Container(d)


def _identity(leaf: Any, kc: str) -> Any:
    return leaf


def _is(x: Any, y: Any) -> bool:
    return x is y


def _check_key(key: Any) -> str:
    if type(key) is not str:
        raise TypeError(f"Container: keys must be strings, got {key!r} ({type(key).__name__})")
    return key


def _as_value(value: Any) -> Any:
    # Plain nested mappings become Containers; Containers are kept as they are (not copied).
    if isinstance(value, Mapping) and not isinstance(value, Container):
        return Container(value)
    return value


def _chain_or_none(key: Any) -> tuple[str, ...] | None:
    if type(key) is str:
        return split_chain(key) if "/" in key else None
    if type(key) is tuple:
        return split_chain(key)
    return None


def _at_chain(c: Container, chain: tuple[str, ...]) -> Any:
    node: Any = c
    for depth, part in enumerate(chain):
        # ``keys()`` and ``node[part]`` rather than dict's unbound methods: torch.compile
        # traces these.
        if not isinstance(node, Container) or part not in node.keys():
            raise KeyError(
                f"key chain {'/'.join(chain)!r} is not in the container "
                f"(no key {part!r} at {'/'.join(chain[:depth]) or 'the top level'})"
            )
        node = node[part]
    return node


def _iter_leaves(
    c: Container, prefix: str, empty: list[str] | None = None
) -> Iterator[tuple[str, Any]]:
    """(key chain, leaf) of every leaf, depth first; the chains of empty Containers are
    appended to ``empty`` on the way when it is given."""
    for k, v in c.items():
        if isinstance(v, Container):
            if not v and empty is not None:
                empty.append(prefix + k)
            yield from _iter_leaves(v, f"{prefix}{k}/", empty)
        else:
            yield f"{prefix}{k}", v


def copy_structure(value: Any) -> Any:
    """A copy of every nested Container of ``value``; leaves are shared."""
    if not isinstance(value, Container):
        return value
    d = {}
    for k, v in value.items():  # a loop, not a comprehension: no frame per level
        d[k] = copy_structure(v) if isinstance(v, Container) else v
    return make(d)


def _same_tree(a: Container, b: Container, same_leaf: Callable[[Any, Any], bool]) -> bool:
    if len(a) != len(b):
        return False
    for k, v in a.items():
        if not _dict_contains(b, k):
            return False
        w = _dict_getitem(b, k)
        if isinstance(v, Container) or isinstance(w, Container):
            if not (isinstance(v, Container) and isinstance(w, Container)):
                return False
            if not _same_tree(v, w, same_leaf):
                return False
        elif isinstance(v, (list, tuple)) or isinstance(w, (list, tuple)):
            if type(v) is not type(w) or len(v) != len(w):
                return False
            if not all(same_leaf(x, y) for x, y in zip(v, w)):
                return False
        elif not same_leaf(v, w):
            return False
    return True


# -- repr -----------------------------------------------------------------------------------------
def _leaf_repr(value: Any, indent: str) -> str:
    lines = repr(value).splitlines() or [""]
    if len(lines) > _REPR_MAX_LINES:
        lines = [*lines[: _REPR_MAX_LINES - 2], "...", lines[-1]]
    # Continuation lines keep their alignment relative to the first line.
    return ("\n" + indent).join(lines)


def _repr_lines(c: Container, indent: str) -> list[str]:
    if not c:
        return ["{}"]
    inner = indent + "    "
    items = list(c.items())
    shown: list[Any] = items
    if len(items) > _REPR_MAX_KEYS:
        hidden = len(items) - _REPR_HEAD_KEYS - _REPR_TAIL_KEYS
        shown = [*items[:_REPR_HEAD_KEYS], (None, hidden), *items[-_REPR_TAIL_KEYS:]]
    lines = ["{"]
    for i, (k, v) in enumerate(shown):
        comma = "," if i < len(shown) - 1 else ""
        if k is None:
            lines.append(f"{inner}... ({v} more keys){comma}")
        elif isinstance(v, Container):
            sub = _repr_lines(v, inner)
            lines.append(f"{inner}{k}: {sub[0]}")
            lines.extend(sub[1:])
            lines[-1] += comma
        else:
            prefix = f"{inner}{k}: "
            lines.append(prefix + _leaf_repr(v, " " * len(prefix)) + comma)
    lines.append(indent + "}")
    return lines


# -- errors ---------------------------------------------------------------------------------------
class ContainerStructureError(ValueError):
    """Container arguments of one call whose structures differ on the selected leaves: a key
    missing from one of them, a leaf where another has a Container, or sequence leaves of
    different lengths. The message names the call, the arguments and the key chain.

    A ``ValueError``, so ``except ValueError`` catches it too.

    Examples
    --------
    >>> import ivy_like
    >>> from ivy_like.container import ContainerStructureError
    >>> a = ivy_like.Container(x=ivy_like.array([1.0]), y=ivy_like.array([2.0]))
    >>> b = ivy_like.Container(x=ivy_like.array([3.0]))
    >>> try:
    ...     ivy_like.add(a, b)
    ... except ContainerStructureError as err:
    ...     print(err)
    add: the Container arguments x1, x2 differ in structure at key chain 'y': missing in x2
    """

    # Tracebacks name it where users import it from, not this private module.
    __module__ = "ivy_like.container"

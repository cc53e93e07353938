"""Registering ``Container`` as a tree node with jax, torch and optree, lazily (and ``Array``,
a node around its data, with jax: ``ivy_like/core/interop.py`` says why not with torch).

A framework is registered as soon as it is in use, and never imported by us: at container
import for frameworks already in ``sys.modules``, when ivy_like loads a backend, and on the
next Container creation or op for a framework the user imported meanwhile (a check of a dict or
two while anything is still pending). Children are flattened in *sorted* key order, so equal
Containers built in different insertion orders have the same tree structure (``jax.jit``
traces once for both). ``tf.nest`` and ``dm-tree`` need no registration: they take any dict
subclass as a mapping, sort its keys and rebuild it as ``Container(pairs)``.
"""

from __future__ import annotations

import operator
import sys
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeGuard

from ..core import interop

__all__ = ["bind", "pending", "sync"]

OPTREE_NAMESPACE = "ivy_like"

# The Container class and its unchecked constructor, handed over by ``_container`` (which
# imports this module, so this one cannot import it) before any registration can run.
_container_type: Any = None
_make: Any = None


def bind(container_type: type, make: Callable[[dict[str, Any]], Any]) -> None:
    """Give the registrations the class to register and the function rebuilding it."""
    global _container_type, _make
    _container_type, _make = container_type, make


def _flatten(c: Any) -> tuple[list[Any], tuple[str, ...]]:
    keys = tuple(sorted(c))
    return [dict.__getitem__(c, k) for k in keys], keys


def _unflatten(keys: tuple[str, ...], children: Any) -> Any:
    return _make(dict(zip(keys, children)))


# jax.jit flattens every Container argument and rebuilds every Container result on each call,
# through one Python callback per Container (a step of Adam on an MLP: ~30): the callbacks
# below do the least Python work they can (~0.3 µs against ~0.45 for _flatten).
_ORDERS_LIMIT = 4096  # distinct key orders remembered; more are forgotten all at once
# A Container's keys in insertion order -> (the keys sorted, a getter of the values in that
# order from a plain dict; None when the insertion order is already sorted, as in every
# Container jax rebuilt).
_orders: dict[tuple[str, ...], tuple[tuple[str, ...], Callable[[dict], Any] | None]] = {}
_values = dict.values


def _learn_order(order: tuple[str, ...]) -> tuple[tuple[str, ...], Callable[[dict], Any] | None]:
    keys = tuple(sorted(order))
    entry = (order, None) if keys == order else (keys, operator.itemgetter(*keys))
    if len(_orders) >= _ORDERS_LIMIT:
        _orders.clear()
    _orders[order] = entry
    return entry


def _flatten_jax(c: Any) -> tuple[Any, tuple[str, ...]]:
    """``_flatten``'s children and keys, in fewer Python steps: the sorted order of a key
    order is looked up, and the values are read by C calls (``dict.values``, or an
    ``itemgetter`` of a plain copy: ``Container.__getitem__`` is Python)."""
    order = tuple(c)  # Container keeps dict's iteration: one C call
    keys, pick = _orders.get(order) or _learn_order(order)
    return ([*_values(c)] if pick is None else pick(dict(c))), keys


def _register_jax() -> None:
    from jax import tree_util

    container = _container_type

    def flatten_with_keys(c: Any) -> tuple[list[tuple[Any, Any]], tuple[str, ...]]:
        children, keys = _flatten_jax(c)
        return [(tree_util.DictKey(k), v) for k, v in zip(keys, children)], keys

    new, update = dict.__new__, dict.update

    def unflatten(keys: tuple[str, ...], children: Any) -> Any:
        # _container.make without its torch.compile check (Dynamo never traces jax's
        # callbacks) and without the intermediate dict.
        c = new(container)
        update(c, zip(keys, children))
        return c

    tree_util.register_pytree_with_keys(
        container, flatten_with_keys, unflatten, flatten_func=_flatten_jax
    )
    interop.register_jax(tree_util)  # and Array, a node around its data


def _register_torch() -> None:
    from torch.utils import _pytree as torch_pytree

    def flatten_with_keys(c: Any) -> tuple[list[tuple[Any, Any]], tuple[str, ...]]:
        children, keys = _flatten(c)
        return [(torch_pytree.MappingKey(k), v) for k, v in zip(keys, children)], keys

    torch_pytree.register_pytree_node(
        _container_type,
        _flatten,
        lambda children, keys: _unflatten(keys, children),
        serialized_type_name="ivy_like.Container",
        flatten_with_keys_fn=flatten_with_keys,
    )


def _register_optree() -> None:
    import optree

    def flatten(c: Any) -> tuple[list[Any], tuple[str, ...], tuple[str, ...]]:
        children, keys = _flatten(c)
        return children, keys, keys

    optree.register_pytree_node(
        _container_type,
        flatten,
        _unflatten,
        path_entry_type=optree.MappingEntry,
        namespace=OPTREE_NAMESPACE,
    )


# framework module name -> registration; an entry is removed once registered.
pending: dict[str, Callable[[], None]] = {
    "jax": _register_jax,
    "torch": _register_torch,
    "optree": _register_optree,
}


# Every name pending starts with; iterated instead of ``pending``, which another thread may
# shrink meanwhile (iterating a dict that changes size raises).
_FRAMEWORKS = tuple(pending)


def _imported(module: ModuleType | None) -> TypeGuard[ModuleType]:
    """Whether ``module`` (from ``sys.modules``) has finished importing. A module is in
    ``sys.modules`` from the start of its import, possibly in another thread; until it ends
    none of its other attributes may be read (torch has no ``compiler`` yet, say)."""
    spec = getattr(module, "__spec__", None)  # set before the module's code runs
    return module is not None and not getattr(spec, "_initializing", False)


def sync() -> None:
    """Register with every pending framework that has finished importing."""
    modules = sys.modules
    for name in _FRAMEWORKS:  # the common case: none of them imported, a few dict lookups
        if name in modules and name in pending:
            break
    else:
        return
    torch = modules.get("torch")
    if _imported(torch) and torch.compiler.is_compiling():
        return  # never register from inside a torch.compile trace; the next eager call will
    for name in _FRAMEWORKS:
        # A framework still in the middle of its own import is left for the next call.
        if name not in pending or not _imported(modules.get(name)):
            continue
        register = pending.pop(name, None)  # atomic: one thread registers, no lock needed
        if register is None:
            continue
        try:
            register()
        except Exception as err:  # noqa: BLE001 - a framework API change must not break us
            warnings.warn(
                f"ivy_like: could not register Container as a {name} tree node "
                f"({type(err).__name__}: {err}); {name} will treat Containers as leaves",
                RuntimeWarning,
                stacklevel=3,
            )


def on_backend_loaded(backend: Any) -> None:
    sync()

"""``vmap``: MLX's and JAX's vectorising map, written once.

``in_axes`` and ``out_axes`` are an int or ``None`` for everything, or a prefix tree of the
arguments (a tuple/list with one entry per positional argument, each an int, ``None`` or a
tree matching that argument) and of the output. Keyword arguments are mapped over axis 0, as
in JAX. Everything is checked before ``fun`` runs: the tree, each axis against its array's
rank, and the batch sizes. The backend's ``vmap_leaves`` maps a function of flat leaves; it
returns the mapped outputs with the batch first, and this file moves it to ``out_axes``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..core.backend import Backend, activated
from . import tree as _tree
from .tree import A, Flat, N, P, check_fun

__all__ = ["vmap"]


def _check_axes_value(axes: Any, name: str) -> None:
    if axes is not None and (not isinstance(axes, int) or isinstance(axes, bool)):
        raise ValueError(f"vmap: {name} entries must be an int or None, got {axes!r}")


def _leaf_axes(spec: Any, axes: Any, name: str, where: str) -> list[Any]:
    """One axis per leaf of ``spec``, from ``axes`` (an int/None or a prefix tree of it)."""
    if axes is None or isinstance(axes, int):
        _check_axes_value(axes, name)
        return [axes] * len(_tree.leaf_specs(spec))
    if spec is N or spec is A or spec is P or spec[0] == "s":
        raise ValueError(
            f"vmap: {name}{where} is a {type(axes).__name__} but the value there is a leaf; "
            f"give an int or None"
        )
    if spec[0] == "d":
        if not isinstance(axes, dict) or set(axes) != set(spec[2]):
            raise ValueError(
                f"vmap: {name}{where} does not match the argument: expected a dict with keys "
                f"{sorted(map(str, spec[2]))}, got {axes!r}"
            )
        return [
            a
            for k, c in zip(spec[2], spec[3])
            for a in _leaf_axes(c, axes[k], name, f"{where}[{k!r}]")
        ]
    children = spec[2]
    if not isinstance(axes, (list, tuple)) or len(axes) != len(children):
        raise ValueError(
            f"vmap: {name}{where} does not match the argument: expected a list/tuple of "
            f"{len(children)} entries, got {axes!r}"
        )
    return [
        a
        for i, (c, ax) in enumerate(zip(children, axes))
        for a in _leaf_axes(c, ax, name, f"{where}[{i}]")
    ]


def vmap(fun: Callable[..., Any], in_axes: Any = 0, out_axes: Any = 0) -> Callable[..., Any]:
    """A version of ``fun`` mapped over an axis of its arguments (MLX's/JAX's ``vmap``).

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([[1., 2.], [3., 4.]])
    >>> ivy_like.vmap(lambda r: ivy_like.sum(r * r))(x)
    ivy_like.array([ 5., 25.])
    >>> ivy_like.vmap(lambda r, s: r * s, in_axes=(1, None))(x, ivy_like.array(10.))
    ivy_like.array([[10., 30.],
                    [20., 40.]])
    """
    check_fun(fun, "vmap")
    if not isinstance(in_axes, (list, tuple)):
        _check_axes_value(in_axes, "in_axes")

    @functools.wraps(fun)
    def vmapped(*args: Any, **kwargs: Any) -> Any:
        flat = Flat("vmap")
        specs = [_tree.flatten(a, flat, f"argument {i}", True) for i, a in enumerate(args)]
        n_pos = len(flat.leaves)
        kw_specs = {k: _tree.flatten(v, flat, f"argument {k!r}", True) for k, v in kwargs.items()}
        if isinstance(in_axes, (list, tuple)):
            if len(in_axes) != len(args):
                raise ValueError(
                    f"vmap: in_axes has {len(in_axes)} entries but the function is called "
                    f"with {len(args)} positional argument(s)"
                )
            axes = [
                a
                for i, (s, ax) in enumerate(zip(specs, in_axes))
                for a in _leaf_axes(s, ax, "in_axes", f"[{i}]")
            ]
        else:
            axes = [a for s in specs for a in _leaf_axes(s, in_axes, "in_axes", "")]
        axes += [0] * (len(flat.leaves) - n_pos)  # keyword arguments: axis 0, as in JAX
        backend = _tree.resolve_backend(flat, args)
        axes, size = _check_axes(flat, backend, axes)
        out_spec: list[Any] = []

        def f(leaves: list[Any]) -> tuple[list[Any], list[Any]]:
            it = iter(leaves)
            call = [_tree.rebuild(s, it, backend) for s in specs]
            call_kw = {k: _tree.rebuild(s, it, backend) for k, s in kw_specs.items()}
            out = fun(*call, **call_kw)
            native: list[Any] = []
            spec = _tree.flatten_output(out, native, backend)
            per_leaf = _leaf_axes(spec, out_axes, "out_axes", "") if native else []
            out_spec[:] = [spec, per_leaf]
            mapped = [v for v, a in zip(native, per_leaf) if a is not None]
            unmapped = [v for v, a in zip(native, per_leaf) if a is None]
            return mapped, unmapped

        mapped, unmapped = activated(backend.vmap_leaves, backend)(f, flat.leaves, axes, size)
        spec, per_leaf = out_spec
        m, u = iter(mapped), iter(unmapped)
        outs = []
        for a in per_leaf:
            if a is None:
                outs.append(next(u))
                continue
            v = next(m)
            ndim = len(backend.shape(v))
            if not -ndim <= a < ndim:
                raise ValueError(
                    f"vmap: out_axes {a} is out of range for an output of {ndim} dimensions "
                    f"(with the mapped axis)"
                )
            a %= ndim
            outs.append(v if a == 0 else backend.moveaxis(v, 0, a))
        return _tree.rebuild(spec, iter(outs), backend)

    return vmapped


def _check_axes(flat: Flat, backend: Backend, axes: list[Any]) -> tuple[list[Any], int]:
    """Axes made non-negative, checked against each leaf's rank; the common batch size."""
    size = None
    first = None
    out: list[Any] = []
    for leaf, path, a in zip(flat.leaves, flat.paths, axes):
        if a is None:
            out.append(None)
            continue
        shape = tuple(backend.shape(leaf))
        if not -len(shape) <= a < len(shape):
            raise ValueError(
                f"vmap: in_axes {a} is out of range for {_tree.describe(path)}, which has "
                f"{len(shape)} dimension(s)"
            )
        a %= len(shape)
        n = int(shape[a])
        if size is None:
            size, first = n, path
        elif n != size:
            raise ValueError(
                f"vmap: the mapped axes have different sizes: {_tree.describe(first)} has "
                f"{size}, {_tree.describe(path)} has {n}"
            )
        out.append(a)
    if size is None:
        raise ValueError("vmap: no argument is mapped (every in_axes entry is None)")
    return out, size

"""A Flax module traced to a jaxpr, as a portable model: :class:`JaxprModel`.

:func:`~ivy_like.convert.flax.jaxpr_trace.trace` writes the function; the model holds it with
the variables it reads in Flax's own layouts (Dense kernels ``(in, out)``, Conv kernels HWIO)
and the structure of the outputs, and gives the variables back to Flax
(:meth:`JaxprModel.flax_variables`).
"""

from __future__ import annotations

from typing import Any

from ...container import Container
from ...core.backend import get_backend
from .._captured import CapturedModel, Generated
from .._weights import move
from .._wrap import flat_params


class JaxprModel(CapturedModel):
    """A Flax module traced to a jaxpr: ``params`` plus the pure function ``apply``.

    ``params`` is a Container of the variables the jaxpr reads, keyed by their Flax paths
    joined with ``/`` and in Flax's own layouts: linen ``"params/Dense_0/kernel"``,
    ``"batch_stats/BatchNorm_0/mean"``; nnx ``"linear1/kernel"`` (the state's paths).
    ``apply(params, *args)`` takes arrays of the traced shapes, any size along the dynamic
    dimensions (``model.dynamic_dims``: ``{axis: name}`` per argument, None when every size is
    static), and the same static arguments, and is pure, so ``ivy_like.grad``,
    ``ivy_like.compile`` and the other transforms work on it; ``model(*args)`` runs it on the backend of its inputs (the
    parameters move there once). Outputs keep the Flax module's structure.

    ``model.code`` is the generated function (one line per equation) and
    ``model.primitives`` the jax primitives it maps. Build one with
    :func:`ivy_like.convert.from_flax` and example inputs.

    Examples
    --------
    >>> import numpy as np
    >>> from flax import nnx
    >>> from ivy_like.convert import from_flax
    >>> layer = nnx.Linear(3, 2, rngs=nnx.Rngs(0))
    >>> x = np.ones((4, 3), np.float32)
    >>> model = from_flax(layer, x, backend="numpy")
    >>> model.params.cont_all_key_chains(), model.primitives
    (['bias', 'kernel'], ['add', 'dot_general', 'reshape'])
    >>> bool(np.allclose(model(x), layer(x), atol=1e-6))
    True
    """

    def __init__(
        self,
        generated: Generated,
        params: Container,
        inputs: list[tuple[str, Any]],
        out_tree: Any,
        primitives: list[str],
        name: str,
        linen_module: Any = None,
        buffers: frozenset[str] = frozenset(),
        dims: list[dict[int, str]] | None = None,
        why_static: str = "",
    ) -> None:
        self._capture(generated, params)
        # key chains of the variables that are not trained (BatchNorm statistics): to_keras
        # and to_flax make them non-trainable weights
        self.buffers = buffers
        self._inputs = inputs  # ("array", shape) or ("static", value), per positional argument
        self._out_tree = out_tree  # jax's PyTreeDef of the outputs
        self._out_template = _template(out_tree)
        self.primitives = primitives
        self.name = name
        self.linen_module = linen_module  # the traced linen module (None for nnx)
        # {axis: name} per argument: the dynamic dimensions (None: every size is static)
        self.dynamic_dims = dims
        self._why_static = why_static  # why the default "batch" dimension is not dynamic

    def _config(self) -> dict[str, Any]:
        return {"name": self.name, "primitives": self.primitives}

    def flax_variables(self, params: Any = None) -> dict[str, Any]:
        """``params`` (default ``model.params``) as Flax variables: nested dicts of jax arrays
        keyed by the Flax paths (for a linen module, ``{"params": ..., "batch_stats": ...}``)."""
        jax_backend = get_backend("jax")
        out: dict[str, Any] = {}
        for kc, leaf in flat_params(self, params, "flax_variables").items():
            *path, last = kc.split("/")
            d = out
            for k in path:
                d = d.setdefault(k, {})
            d[last] = move(leaf, jax_backend, kc)
        return out

    def __repr__(self) -> str:
        n = len(self._param_parts)
        return f"JaxprModel({self.name!r}, {n} parameter arrays, {len(self.primitives)} primitives)"

    def _flat_inputs(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
        if kwargs:
            raise TypeError(
                f"{self.name}: the model was traced with positional arguments only, got the "
                f"keyword arguments {sorted(kwargs)}"
            )
        if len(args) != len(self._inputs):
            raise TypeError(
                f"{self.name}: the model was traced with {len(self._inputs)} arguments, got "
                f"{len(args)}"
            )
        arrays = []
        for i, ((kind, want), got) in enumerate(zip(self._inputs, args)):
            if kind == "static":
                if not (got is want or got == want):
                    raise TypeError(
                        f"{self.name}: argument {i} was {want!r} when the model was traced, got "
                        f"{got!r}; trace it again for another value"
                    )
                continue
            shape = getattr(got, "shape", None)
            if shape is None or tuple(shape) != want:
                self._check_shape(i, None if shape is None else tuple(shape), want)
            arrays.append(got)
        if self.dynamic_dims:
            self._check_dims(args)
        return arrays

    def _traced_shape(self, i: int, want: tuple[Any, ...]) -> str:
        named = self.dynamic_dims[i] if self.dynamic_dims else {}
        dims = [named.get(axis, str(n)) for axis, n in enumerate(want)]
        return f"({', '.join(dims)}{',' if len(dims) == 1 else ''})"

    def _check_shape(self, i: int, shape: tuple[Any, ...] | None, want: tuple[Any, ...]) -> None:
        """A shape other than the traced one: each static size the same, the rank too."""
        if (
            shape is not None
            and len(shape) == len(want)
            and all(w is None or s == w for s, w in zip(shape, want))
        ):
            return
        if self.dynamic_dims:
            how = "from_flax(..., dynamic_shapes=...) naming the axis that changes"
        elif self._why_static:
            how = (
                "an example of the new shape; axis 0 could not be the dynamic dimension 'batch' "
                f"({self._why_static}): name the dimensions with from_flax(..., "
                "dynamic_shapes=...)"
            )
        else:
            how = "an example of the new shape, or from_flax(..., dynamic_shapes=...)"
        if shape is None or len(shape) != len(want):
            what = f"rank {None if shape is None else len(shape)} where it was {len(want)}"
        else:
            axis = next(a for a, (s, w) in enumerate(zip(shape, want)) if w is not None and s != w)
            what = f"size {shape[axis]} on axis {axis} where it was {want[axis]}"
        raise ValueError(
            f"{self.name}: argument {i} has shape {shape} ({what}); the model was traced for "
            f"shape {self._traced_shape(i, want)} (trace it again with {how})"
        )

    def _check_dims(self, args: tuple[Any, ...]) -> None:
        """Each dynamic dimension at least 1 (what jax assumed when it traced) and the same
        size wherever it is named."""
        assert self.dynamic_dims is not None  # only called for a model with dynamic dimensions
        seen: dict[str, tuple[int, int, int]] = {}
        for i, named in enumerate(self.dynamic_dims):
            for axis, name in named.items():
                n = args[i].shape[axis]
                if not isinstance(n, int):
                    continue  # a symbolic size (ivy_like.export traces for every size at once)
                if n < 1:
                    raise ValueError(
                        f"{self.name}: argument {i} has size {n} on axis {axis}, dynamic "
                        f"dimension {name!r}; jax traced it for sizes of at least 1"
                    )
                first = seen.setdefault(name, (i, axis, n))
                if first[2] != n:
                    raise ValueError(
                        f"{self.name}: dynamic dimension {name!r} is {first[2]} on axis "
                        f"{first[1]} of argument {first[0]} but {n} on axis {axis} of argument "
                        f"{i}; they must be the same size"
                    )

    def _outputs(self, flat: Any) -> Any:
        if self._out_template is None:
            return self._out_tree.unflatten(flat)
        return _fill(self._out_template, flat)


# The outputs rebuilt in Python where their structure is plain dicts, lists and tuples:
# torch.compile (Dynamo) cannot trace jax's PyTreeDef.unflatten (a C++ method), so a module
# from to_torch would break its graph there.
_PLAIN = (dict, list, tuple)


def _template(out_tree: Any) -> Any:
    """The outputs' structure with leaf ``i`` as the int ``i``; None unless every node is a
    plain dict, list, tuple or None."""
    template = out_tree.unflatten(list(range(out_tree.num_leaves)))
    return template if _plain(template) else None


def _plain(node: Any) -> bool:
    if type(node) is dict:
        return all(_plain(v) for v in node.values())
    if type(node) in _PLAIN:
        return all(_plain(v) for v in node)
    return node is None or type(node) is int


def _fill(node: Any, flat: Any) -> Any:
    if type(node) is int:
        return flat[node]
    if type(node) is dict:
        return {k: _fill(v, flat) for k, v in node.items()}
    if node is None:
        return None
    return type(node)(_fill(v, flat) for v in node)

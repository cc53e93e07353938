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
    ``apply(params, *args)`` takes arrays of the traced shapes (and the same static
    arguments) and is pure, so ``ivy_like.grad``, ``ivy_like.compile`` and the other
    transforms work on it; ``model(*args)`` runs it on the backend of its inputs (the
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
    ) -> None:
        self._capture(generated, params)
        # key chains of the variables that are not trained (BatchNorm statistics): to_keras
        # and to_flax make them non-trainable weights
        self.buffers = buffers
        self._inputs = inputs  # ("array", shape) or ("static", value), per positional argument
        self._out_tree = out_tree  # jax's PyTreeDef of the outputs
        self.primitives = primitives
        self.name = name
        self.linen_module = linen_module  # the traced linen module (None for nnx)

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
                raise ValueError(
                    f"{self.name}: argument {i} has shape "
                    f"{None if shape is None else tuple(shape)}; the model was traced for shape "
                    f"{want} (trace it again with an example of the new shape)"
                )
            arrays.append(got)
        return arrays

    def _outputs(self, flat: Any) -> Any:
        return self._out_tree.unflatten(flat)

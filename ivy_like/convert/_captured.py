"""What every captured model shares: generated code, weights moved once, constants, the call.

A captured model (a PyTorch graph as ``torch.graph_model.GraphModel``, a Flax jaxpr as
``flax.jaxpr_model.JaxprModel``) is one generated Python function ``f(__P, __C, __U)`` of its
weights (the leaves of ``params``, in ``param_keys`` order), its constants (made once per
backend from exact NumPy copies) and its flat inputs. :class:`CapturedModel` holds that
function and does what both models do around it: check and flatten the inputs (each model
says how), find the backend of the call, move ``params`` there once, activate that backend
while the function runs, and rebuild the outputs' structure. :func:`compile_generated`
compiles the source through :func:`ivy_like.core.codegen.compile_source`, so a traceback
through a converted model prints the generated line, as it does for an op.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..container import Container
from ..container._leaves import from_exact_numpy
from ..core import dtypes, tracing
from ..core.backend import activate, backend_of, current_backend, deactivate, get_backend
from ..core.codegen import compile_source
from ..nn.models import Model


@dataclass(frozen=True)
class Generated:
    """A captured model's generated function ``function(__P, __C, __U)``, its source, the key
    chains of the weights it reads (in ``__P`` order) and its constants ((NumPy array, ivy_like
    dtype) pairs, exact, in ``__C`` order); ``where`` names it in tracebacks."""

    function: Any
    code: str
    param_keys: list[str]
    constants: list[tuple[Any, Any]]
    where: str


def compile_generated(code: str, name: str, namespace: dict[str, Any], where: str) -> Any:
    """The function ``name`` defined by ``code`` (globals ``namespace``), compiled under
    ``<ivy_like generated: where>`` with its source kept for tracebacks and ``getsource``."""
    return compile_source(code, name, dict(namespace), where)


def leaf_reader(parts: list[tuple[str, ...]], where: str) -> Any:
    """A function giving the leaves at ``parts`` (key paths) of a nested Container or dict,
    in order: generated, so each shared prefix (``transformer/h/0``) is looked up once per
    call, not once per leaf. It reads the Container it is given on every call (nothing is
    kept between calls, so a new Container or a replaced leaf is always seen)."""
    names: dict[tuple[str, ...], str] = {(): "params"}
    lines = ["def read_leaves(params):"]
    for path in parts:
        for i in range(1, len(path)):
            if path[:i] not in names:
                names[path[:i]] = f"n{len(names)}"
                lines.append(f"    {names[path[:i]]} = {names[path[: i - 1]]}[{path[i - 1]!r}]")
    leaves = ", ".join(f"{names[path[:-1]]}[{path[-1]!r}]" for path in parts)
    lines.append(f"    return [{leaves}]")
    return compile_generated("\n".join(lines) + "\n", "read_leaves", {}, f"{where} weights")


def constant(arr: Any, dtype: Any, backend: Any) -> Any:
    """A graph constant on ``backend``: exact, except int64 where the backend has none (JAX
    without x64), which becomes int32 as the backend's own integer arrays are."""
    try:
        return from_exact_numpy(arr, dtype, backend)
    except TypeError:
        if dtype.name != "int64":
            raise
        return from_exact_numpy(arr.astype(np.int32), dtypes.int32, backend)


def _concrete(backend: Any, x: Any) -> bool:
    """Whether ``x`` is a value rather than a tracer of a function being compiled (JAX stages
    even a NumPy constant into the trace under ``jit``; such an array cannot outlive it)."""
    try:
        backend.to_numpy(x)
    except Exception:  # noqa: BLE001 - every framework names its tracer errors differently
        return False
    return True


class SizedValues:
    """What a dynamic capture computes from its constants and sizes alone, cached per tuple
    of sizes and backend (at most :attr:`LIMIT` tuples, the oldest dropped first).

    ``function(constants, sizes)`` gives the values; it never reads an input, so the values
    for the same sizes are the same on every call. They are kept only when they are values:
    sizes that a trace holds as symbols (``torch.export``, ``jax.export``, a TensorFlow
    graph), a compiler tracing Python (torch.compile's Dynamo), or arrays made inside a trace
    (``jax.jit``, ``tf.function``, ``mx.compile``) are computed anew and not kept.
    """

    LIMIT = 8

    def __init__(self, function: Any) -> None:
        self._function = function
        self._cache: dict[tuple[Any, ...], list[Any]] = {}

    def __call__(self, constants: list[Any], sizes: tuple[Any, ...]) -> list[Any]:
        if tracing.is_tracing() or any(type(s) is not int for s in sizes):
            return self._function(constants, sizes)
        backend = current_backend()
        key = (backend.name, *sizes)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._function(constants, sizes)
            if all(_concrete(backend, v) for v in hit if hasattr(v, "shape")):
                if len(self._cache) >= self.LIMIT:
                    del self._cache[next(iter(self._cache))]
                self._cache[key] = hit
        return hit


class NativeGraphModel(Model):
    """What every model read from a native model's graph shares: it is equal only to itself
    (the graphs and weights are not compared) and hashed by identity, and a call runs on the
    backend of its inputs (NumPy inputs follow the active backend, as every op), else of its
    ``params``. :class:`CapturedModel` (a generated function) and the Keras graph model (a list
    of layer calls) build on it."""

    __eq__ = object.__eq__

    # Layer sets __hash__ = None (it compares by config); a captured model hashes by identity
    __hash__ = object.__hash__  # type: ignore[assignment]

    def _backend(self, flat: list[Any], params: Any) -> Any:
        for x in flat:
            if isinstance(x, np.ndarray):
                return current_backend()  # NumPy follows the active backend, as every op
            if hasattr(x, "shape") and not isinstance(x, (int, float, bool)):
                return backend_of(x)
        if params is not None:
            for leaf in Container(params).cont_flatten_key_chains().values():
                return backend_of(leaf)
        return current_backend()


class CapturedModel(NativeGraphModel):
    """A generated function of ``params``, constants and inputs, as a portable model.

    Subclasses call :meth:`_capture` with the :class:`Generated` function in ``__init__`` and
    define :meth:`_flat_inputs` (the call's arguments checked against the capture and
    flattened to the list the function takes) and :meth:`_outputs` (the function's flat
    results in the model's output structure).
    ``apply(params, ...)`` runs on the inputs' backend with the given ``params``;
    ``model(...)`` with ``model.params``, moved to that backend once and reused while
    ``params`` is the same Container.
    """

    params: Container

    def _capture(self, generated: Generated, params: Container) -> None:
        self._function = generated.function
        self.code = generated.code
        self.params = params
        self._moved: tuple[Any, Any, Any] | None = None
        self._param_parts = [tuple(kc.split("/")) for kc in generated.param_keys]
        self._read_leaves = leaf_reader(self._param_parts, generated.where)
        self._constants = generated.constants
        self._constants_on: dict[str, list[Any]] = {}

    # Each captured model reads its inputs and rebuilds its outputs its own way (an exported
    # program's pytree specs, a jaxpr's flat lists): a subclass that forgets one says so.
    def _flat_inputs(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
        raise NotImplementedError(f"{type(self).__name__} must define _flat_inputs")

    def _outputs(self, flat: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must define _outputs")

    def params_on(self, backend: Any) -> Any:
        """``params`` on ``backend`` (moved once and cached while ``params`` is unchanged).

        Read from one leaf rather than by flattening the Container on every call.
        """
        b = get_backend(backend)
        params = self.params
        if not self._param_parts:
            return params
        first = params
        for k in self._param_parts[0]:
            first = first[k]
        if backend_of(first) is b:
            return params
        moved = self._moved
        if moved is not None and moved[0] is params and moved[1] is b:
            return moved[2]
        converted = params.cont_to_backend(b)
        self._moved = (params, b, converted)
        return converted

    def constants_on(self, backend: Any) -> list[Any]:
        """The captured constants on ``backend`` (made once per backend)."""
        b = get_backend(backend)
        hit = self._constants_on.get(b.name)
        if hit is None:
            hit = [constant(arr, dtype, b) for arr, dtype in self._constants]
            if hit and _concrete(b, hit[0]):  # made inside a trace (jit), they belong to it
                self._constants_on[b.name] = hit
        return hit

    def apply(self, params: Any, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        """The model's function of ``params`` (a Container or nested dict keyed like
        ``model.params``) and the inputs, on the backend of the inputs."""
        flat = self._flat_inputs(args, kwargs)
        return self._run(params, flat, self._backend(flat, params))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        flat = self._flat_inputs(args, kwargs)
        backend = self._backend(flat, self.params)
        return self._run(self.params_on(backend), flat, backend)

    def _run(self, params: Any, flat: list[Any], backend: Any) -> Any:
        tokens = activate(backend)  # creation ops in the function make arrays of this backend
        try:
            out = self._function(self._read_leaves(params), self.constants_on(backend), flat)
        finally:
            if tokens is not None:
                deactivate(tokens)
        return self._outputs(out)

"""ONNX's backend interface (``onnx.backend.base.Backend``), one per ivy_like backend.

``backend_for("torch")`` is the class ONNX's tools and test runner expect:
``prepare(model)`` converts the model with :func:`~ivy_like.convert.from_onnx` and gives a
``BackendRep`` whose ``run(inputs)`` takes NumPy arrays (a list in the graph's input order, or
a dict by name) and gives NumPy arrays. Through it ONNX's own test suite runs on ivy_like as on
any ONNX runtime (``onnx.backend.test.BackendTest(backend_for("jax"), __name__)``).

Inputs are made arrays of the ivy_like backend exactly; where the backend has no 64-bit type
(JAX without 64-bit mode), an int64 input whose values fit becomes int32 and a float64 input
float32, as that backend's own arrays are, and the outputs come back so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

import ivy_like as il

from ...core.backend import get_backend
from ...transforms import compile as il_compile
from ._host import narrow
from .api import from_onnx

_CLASSES: dict[str, type] = {}


def backend_for(name: str) -> type:
    """The ``onnx.backend.base.Backend`` subclass running models on ivy_like's ``name``
    backend (``"numpy"``, ``"jax"``, ``"torch"``, ``"tensorflow"``, ``"mlx"``...).

    Examples
    --------
    >>> import numpy as np
    >>> from onnx import TensorProto, helper
    >>> from ivy_like.convert.onnx.backend import backend_for
    >>> node = helper.make_node("Relu", ["x"], ["y"])
    >>> graph = helper.make_graph(
    ...     [node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
    ...     [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    >>> rep = backend_for("numpy").prepare(helper.make_model(graph))
    >>> rep.run([np.array([-1.0, 2.0], np.float32)])
    (array([0., 2.], dtype=float32),)
    """
    hit = _CLASSES.get(name)
    if hit is not None:
        return hit
    from onnx.backend.base import Backend, BackendRep

    ivy_backend = get_backend(name)  # a clear error for a backend that is not installed

    class IvyLikeRep(BackendRep):
        """A prepared model: ``run(inputs)`` on the ``{name}`` backend."""

        def __init__(self, model: Any) -> None:
            self.model = model
            # JAX runs a model op by op slowly (each op compiled for its shapes: 35 s and
            # 1.7 GB for DenseNet-121 against 2.6 s and 0.5 GB under jit), and its users jit:
            # the model runs compiled, eagerly only if it needs values while traced (a Loop
            # whose body computes its condition).
            self.compiled = il_compile(model.apply) if ivy_backend.name == "jax" else None

        def run(self, inputs: Any, **kwargs: Any) -> tuple[np.ndarray, ...]:
            names = self.model.input_names
            if isinstance(inputs, Mapping):
                given = dict(inputs)
            elif isinstance(inputs, np.ndarray):
                given = {names[0]: inputs}
            elif isinstance(inputs, Sequence):
                given = dict(zip(names, inputs))
            else:
                raise TypeError(f"run: inputs must be a list or dict of arrays, got {inputs!r}")
            with il.use_backend(ivy_backend):
                arrays = {k: _on_backend(v, ivy_backend, k) for k, v in given.items()}
                out = None
                if self.compiled is not None:
                    ordered = [arrays.get(n) for n in names]
                    try:
                        out = self.compiled(self.model.params_on(ivy_backend), *ordered)
                    except TypeError:  # a value needed while traced: run it eagerly
                        self.compiled = None
                if out is None:
                    out = self.model(**arrays)
            outs = out if isinstance(out, tuple) else (out,)
            return tuple(np.asarray(il.to_numpy(o)) for o in outs)

    class IvyLikeBackend(Backend):
        """ONNX's backend interface on ivy_like's ``{name}`` backend."""

        @classmethod
        def prepare(cls, model: Any, device: str = "CPU", **kwargs: Any) -> Any:
            if not cls.supports_device(device):
                raise ValueError(f"ivy_like's ONNX backend runs on the CPU, not {device!r}")
            return IvyLikeRep(from_onnx(model, backend=ivy_backend))

        @classmethod
        def run_model(cls, model: Any, inputs: Any, device: str = "CPU", **kwargs: Any) -> Any:
            return cls.prepare(model, device, **kwargs).run(inputs)

        @classmethod
        def supports_device(cls, device: str) -> bool:
            return str(device).upper().startswith("CPU")

    for c in (IvyLikeRep, IvyLikeBackend):
        c.__doc__ = (c.__doc__ or "").format(name=name)
        c.__qualname__ = c.__name__ = f"{c.__name__}_{name}"
    _CLASSES[name] = IvyLikeBackend
    return IvyLikeBackend


def _on_backend(x: Any, backend: Any, name: str) -> Any:
    arr = np.asarray(x)
    try:
        return il.asarray(narrow(arr, strict=True))
    except OverflowError as e:
        raise TypeError(f"run: input {name!r}: {e}") from None

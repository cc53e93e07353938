"""``format="onnx"``: an ONNX model, loaded with ``onnxruntime.InferenceSession(path)``.

The function is exported by ``torch.export`` on ivy_like's torch backend (as for
``format="torch"``), then translated to ONNX by PyTorch's own exporter (``torch.onnx.export``
with ``dynamo=True``, built on onnxscript). The model is then made readable: each dynamic
dimension's ``dim_param`` is its name (``"batch"``, not torch's ``"s77"``), and each weight's
initializer is named by its key chain with ``.`` (``"fc1.weight"``), so that ``from_onnx`` gives
back the same key chains. ``onnx.checker`` checks it with full checking before it is written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import _torch
from ._plan import Plan


def model_proto(plan: Plan) -> Any:
    """The checked ONNX ``ModelProto`` of ``plan``."""
    import onnx
    import torch

    program = _torch.program(plan)
    onnx_program = torch.onnx.export(program, dynamo=True, verbose=False, report=False)
    model = onnx_program.model_proto
    _name_dimensions(model, plan)
    _rename(model, {vi.name: name for vi, name in zip(model.graph.input, plan.names)})
    _name_weights(model, plan)
    onnx.checker.check_model(model, full_check=True)
    return model


def _name_dimensions(model: Any, plan: Plan) -> None:
    rename: dict[str, str] = {}
    for vi, dims in zip(model.graph.input, plan.dims):
        shape = vi.type.tensor_type.shape.dim
        for axis, name in dims.items():
            if axis < len(shape) and shape[axis].dim_param:
                rename[shape[axis].dim_param] = name
    if not rename:
        return
    for vi in [*model.graph.input, *model.graph.output, *model.graph.value_info]:
        if vi.type.HasField("tensor_type"):
            for d in vi.type.tensor_type.shape.dim:
                if d.dim_param in rename:
                    d.dim_param = rename[d.dim_param]


def _name_weights(model: Any, plan: Plan) -> None:
    """Initializers named by the weights' key chains (``fc1/weight`` -> ``fc1.weight``)."""
    _rename(model, {k.replace("/", "_"): k.replace("/", ".") for k in plan.weights})


def _rename(model: Any, rename: dict[str, str]) -> None:
    """Rename values of the main graph (inputs, initializers), where the new name is free."""
    g = model.graph
    taken = {t.name for t in g.initializer} | {vi.name for vi in g.input}
    taken |= {n for node in g.node for n in node.output}
    rename = {old: new for old, new in rename.items() if old != new and new not in taken}
    if not rename:
        return
    for t in model.graph.initializer:
        t.name = rename.get(t.name, t.name)
    for vi in [*g.input, *g.output, *g.value_info]:
        vi.name = rename.get(vi.name, vi.name)
    for node in _all_nodes(g):
        for i, name in enumerate(node.input):
            if name in rename:
                node.input[i] = rename[name]


def _all_nodes(graph: Any) -> Any:
    """The nodes of ``graph`` and of its sub-graphs (which may read the renamed values)."""
    for node in graph.node:
        yield node
        for a in node.attribute:
            for sub in [a.g] if a.HasField("g") else list(a.graphs):
                yield from _all_nodes(sub)


def write(plan: Plan, path: str) -> None:
    import onnx

    onnx.save(model_proto(plan), path)


def load(path: str, names: list[str]) -> Callable[..., dict[str, np.ndarray]]:
    import onnxruntime as ort

    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    inputs = [i.name for i in session.get_inputs()]
    outputs = [o.name for o in session.get_outputs()]

    def run(*arrays: np.ndarray) -> dict[str, np.ndarray]:
        got = session.run(None, dict(zip(inputs, arrays)))
        return dict(zip(outputs, got))

    return run

"""``format="onnx"``: an ONNX model, loaded with ``onnxruntime.InferenceSession(path)``.

The function is exported by ``torch.export`` on ivy_like's torch backend (as for
``format="torch"``), then translated to ONNX by PyTorch's own exporter (``torch.onnx.export``
with ``dynamo=True``, built on onnxscript). The model is then made readable: each dynamic
dimension's ``dim_param`` is its name (``"batch"``, not torch's ``"s77"``), and each weight's
initializer is named by its key chain with ``.`` (``"fc1.weight"``), so that ``from_onnx`` gives
back the same key chains. A mean over every spatial axis becomes ``GlobalAveragePool``, the
node PyTorch's and ONNX's own CNNs use: ONNX Runtime optimizes it with its NCHWc convolutions
and sums every channel alike, where its ``ReduceMean`` kernel rounds a channel's mean by the
alignment of its row in memory (one unit in the last place, which a softmax over logits of
1e10, as in ONNX's test SqueezeNet, turns into 0 and 1/750). ``onnx.checker`` checks the model
with full checking before it is written.
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
    _global_average_pools(model)
    onnx.checker.check_model(model, full_check=True)
    return model


_FLOATS = (1, 10, 11, 16)  # TensorProto FLOAT, FLOAT16, DOUBLE, BFLOAT16


def _global_average_pools(model: Any) -> None:
    """``ReduceMean(x, axes=[2, ..., rank-1], keepdims=1)`` of a float ``x`` of rank 3 or
    more, with constant axes, as ``GlobalAveragePool(x)`` (the same values)."""
    import onnx
    from onnx import helper, numpy_helper

    g = model.graph
    inferred = onnx.shape_inference.infer_shapes(model).graph
    types = {}
    for vi in [*inferred.input, *inferred.value_info, *inferred.output]:
        t = vi.type.tensor_type
        if vi.type.HasField("tensor_type") and t.HasField("shape"):
            types[vi.name] = (len(t.shape.dim), t.elem_type)
    constants = {t.name: t for t in g.initializer}
    for node in g.node:
        if node.op_type == "Constant" and [a.name for a in node.attribute] == ["value"]:
            constants[node.output[0]] = node.attribute[0].t
    for i, node in enumerate(g.node):
        if node.op_type != "ReduceMean" or node.domain not in ("", "ai.onnx"):
            continue
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        # (noop_with_empty_axes says nothing when the axes are given)
        if len(node.input) != 2 or attrs.get("keepdims", 1) != 1:
            continue
        rank, elem = types.get(node.input[0], (0, 0))
        axes = constants.get(node.input[1])
        if rank < 3 or elem not in _FLOATS or axes is None:
            continue
        if sorted(int(a) % rank for a in numpy_helper.to_array(axes).ravel()) != list(
            range(2, rank)
        ):
            continue
        pool = helper.make_node("GlobalAveragePool", [node.input[0]], list(node.output))
        pool.name = node.name
        g.node[i].CopyFrom(pool)


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

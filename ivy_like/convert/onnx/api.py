"""The entry point :func:`from_onnx` and the model it gives, :class:`OnnxModel`.

``from_onnx`` reads the model safely (``load.py``), infers the shapes of its values with
ONNX's own shape inference, sorts out its weights, inputs and outputs, and has ``graph.py``
write the generated function. Only this module's functions import onnx (when called).
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

import numpy as np

from ...container import Container
from ...core.backend import activate, deactivate, get_backend
from .._captured import CapturedModel, _concrete, constant
from .._weights import move, target_backend
from ..export import export
from . import graph as g
from ._table import Value
from .load import load


class OnnxModel(CapturedModel):
    """An ONNX model as a portable one: ``params`` plus the pure function ``apply``.

    ``params`` is a Container of the model's floating-point initializers (its weights), keyed
    by their names with ``.`` and ``/`` as levels (``"conv1.weight"`` is ``"conv1/weight"``;
    ``model.initializer_names`` maps each key chain back). ``model(*inputs)`` (or by the
    graph's input names as keywords) runs on the backend of its inputs and gives the graph's
    output, or a tuple of them in the graph's order (``model.output_names``).
    ``apply(params, *inputs)`` is pure, so ``ivy_like.grad``, ``ivy_like.compile`` and the
    other transforms work on it. A dimension the graph names (``dim_param``: ``"batch"``)
    takes any size, the same wherever the name is used; the others must match.

    ``model.code`` is the generated function (one line per node computed at run time) and
    ``model.onnx_ops`` the operators the graph uses. Build one with
    :func:`ivy_like.convert.from_onnx`.

    Examples
    --------
    >>> import numpy as np
    >>> from onnx import TensorProto, helper, numpy_helper
    >>> w = numpy_helper.from_array(np.eye(3, 2, dtype=np.float32), "fc.weight")
    >>> graph = helper.make_graph(
    ...     [helper.make_node("MatMul", ["x", "fc.weight"], ["h"]),
    ...      helper.make_node("Relu", ["h"], ["y"])],
    ...     "net",
    ...     [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3])],
    ...     [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 2])],
    ...     [w],
    ... )
    >>> from ivy_like.convert import from_onnx
    >>> model = from_onnx(helper.make_model(graph), backend="numpy")
    >>> model.params.cont_all_key_chains(), model.onnx_ops
    (['fc/weight'], ['MatMul', 'Relu'])
    >>> import ivy_like
    >>> ivy_like.to_numpy(model(np.array([[1.0, -2.0, 3.0]], np.float32)))
    array([[1., 0.]], dtype=float32)
    """

    def __init__(
        self,
        generated: g.Generated,
        params: Container,
        host_constants: list[bool],
        inputs: list[tuple[str, Value]],
        output_names: list[str],
        onnx_ops: list[str],
        initializer_names: dict[str, str],
        name: str,
        opset: int,
    ) -> None:
        self._capture(generated, params)
        self._host = host_constants
        self._inputs = inputs
        self.input_names = [n for n, _ in inputs]
        self.output_names = output_names
        self.onnx_ops = onnx_ops
        self.initializer_names = initializer_names
        self.name = name
        self.opset = opset

    def _config(self) -> dict[str, Any]:
        return {"name": self.name, "onnx_ops": self.onnx_ops}

    def __repr__(self) -> str:
        return (
            f"OnnxModel({self.name!r}, opset {self.opset}, {len(self._param_parts)} weights, "
            f"{len(self.onnx_ops)} operators)"
        )

    def constants_on(self, backend: Any) -> list[Any]:
        """The constants on ``backend``: integer and small ones as NumPy (in the backend's
        dtypes), the others as arrays of the backend, made once."""
        b = get_backend(backend)
        hit = self._constants_on.get(b.name)
        if hit is None:
            hit = []
            for (arr, dtype), host in zip(self._constants, self._host):
                if host:
                    hit.append(_narrow_for(arr, b))
                else:
                    hit.append(constant(arr, dtype, b))
            device = [c for c, host in zip(hit, self._host) if not host]
            if not device or _concrete(b, device[0]):  # made inside a trace, they belong to it
                self._constants_on[b.name] = hit
        return hit

    def _flat_inputs(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
        names = self.input_names
        if len(args) > len(names):
            raise TypeError(f"{self.name}: the model takes {len(names)} inputs, got {len(args)}")
        given = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names:
                raise TypeError(f"{self.name}: no input named {k!r}; the inputs: {names}")
            if k in given:
                raise TypeError(f"{self.name}: input {k!r} given twice")
            given[k] = v
        missing = [n for n in names if n not in given]
        if missing:
            raise TypeError(
                f"{self.name}: missing input{'s' if len(missing) > 1 else ''} {missing}"
            )
        sizes: dict[str, int] = {}
        flat = []
        for name, value in self._inputs:
            x = given[name]
            shape = getattr(x, "shape", None)
            if shape is None:
                raise TypeError(
                    f"{self.name}: input {name!r} must be an array, got {type(x).__name__}"
                )
            if value.shape is not None:
                if len(shape) != len(value.shape):
                    raise ValueError(
                        f"{self.name}: input {name!r} has shape {tuple(shape)}; the model wants "
                        f"{len(value.shape)} dimensions {_show(value.shape)}"
                    )
                for got, want in zip(shape, value.shape):
                    if isinstance(want, int) and got != want:
                        raise ValueError(
                            f"{self.name}: input {name!r} has shape {tuple(shape)}; the model "
                            f"wants {_show(value.shape)}"
                        )
                    if isinstance(want, str) and isinstance(got, int):
                        if sizes.setdefault(want, got) != got:
                            raise ValueError(
                                f"{self.name}: dimension {want!r} is {sizes[want]} in one input "
                                f"and {got} in {name!r}"
                            )
            flat.append(x)
        return flat

    def _outputs(self, flat: Any) -> Any:
        return flat[0] if len(flat) == 1 else tuple(flat)


def _show(shape: tuple[Any, ...]) -> str:
    return "(" + ", ".join(str(d) if d is not None else "?" for d in shape) + ")"


def _narrow_for(arr: np.ndarray, backend: Any) -> np.ndarray:
    tokens = activate(backend)
    try:
        return g.narrow(arr)
    finally:
        if tokens is not None:
            deactivate(tokens)


def _key_chain(name: str) -> str:
    parts = [p for p in name.replace(".", "/").split("/") if p]
    return "/".join(parts) or "_"


def from_onnx(
    model_or_path: Any, *, backend: Any = None, base_dir: str | os.PathLike[str] | None = None
) -> OnnxModel:
    """An ONNX model (a path, bytes or an ``onnx.ModelProto``) as a portable model.

    The graph (default domain; each operator as defined from the opset its handler names,
    opset 9 or older for most) becomes one generated ivy_like function:
    its floating-point initializers are the model's ``params`` (on ``backend``, default the
    active one), shape arithmetic is done now where the shapes are fixed, and each other node
    is one line calling the operator's ivy_like handler (the supported operators are listed in
    ``docs/convert.md``). Dimensions named by ``dim_param`` stay dynamic. The file is read as
    data: a truncated or corrupt file, an initializer whose size does not match its shape, a
    graph with a cycle, or external data outside the model's folder (``base_dir``: that folder
    when the model is given as bytes or a ``ModelProto``) is a ``ValueError`` naming the file.
    Every node that cannot be converted is listed in one
    :class:`~ivy_like.convert.UnsupportedOpError`.

    Examples
    --------
    >>> import numpy as np
    >>> from onnx import TensorProto, helper
    >>> from ivy_like.convert import from_onnx
    >>> graph = helper.make_graph(
    ...     [helper.make_node("Softmax", ["x"], ["y"], axis=-1)],
    ...     "softmax",
    ...     [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3])],
    ...     [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 3])],
    ... )
    >>> model = from_onnx(helper.make_model(graph), backend="numpy")
    >>> tuple(model(np.zeros((2, 3), np.float32)).shape)  # "batch" is dynamic
    (2, 3)
    """
    import onnx
    from onnx import numpy_helper, shape_inference

    proto, what = load(model_or_path, base_dir)
    opset = next((o.version for o in proto.opset_import if o.domain in ("", "ai.onnx")), 1)
    try:
        inferred_model = shape_inference.infer_shapes(proto, strict_mode=False, data_prop=True)
    except Exception:  # noqa: BLE001 - inference is a help: without it shapes are unknown
        inferred_model = proto
    gr = proto.graph
    inferred = {}
    for vi in [
        *inferred_model.graph.value_info,
        *inferred_model.graph.input,
        *inferred_model.graph.output,
    ]:
        v = g.value_of(vi.type)
        if v is not None:
            inferred[vi.name] = v

    writer = g.Writer(what, opset)
    init_names = {t.name for t in gr.initializer}
    read_as_numbers = set()
    for node in gr.node:
        for i in g._READ_AS_NUMBERS.get(node.op_type, ()):
            if i < len(node.input):
                read_as_numbers.add(node.input[i])
    weights: dict[str, Any] = {}
    initializer_names: dict[str, str] = {}
    for t in gr.initializer:
        dt = g.dtype_of(t.data_type)
        if dt is None:
            writer.problems.items.append(
                f"initializer {t.name!r}: dtype {onnx.TensorProto.DataType.Name(t.data_type).lower()} "
                "is not supported"
            )
            continue
        arr = np.array(numpy_helper.to_array(t))  # a writable copy: torch shares memory
        value = Value(tuple(arr.shape), arr.dtype)
        if arr.dtype.kind in "fc" and t.name not in read_as_numbers:
            kc = _key_chain(t.name)
            if kc in initializer_names:
                kc = f"{kc}_{len(initializer_names)}"
            initializer_names[kc] = t.name
            weights[kc] = arr
            writer.slots[t.name] = g.Slot("weight", kc, value)
        else:
            writer.slots[t.name] = g.Slot("known", arr, value)

    inputs: list[tuple[str, Value]] = []
    for vi in gr.input:
        if vi.name in init_names:
            continue  # IR < 4 lists the initializers among the inputs: they are weights
        read = g.value_of(vi.type)
        if read is None or read.dtype is None:
            writer.problems.items.append(
                f"input {vi.name!r}: only tensors of numeric or bool dtypes are supported"
            )
            read = Value(None, None)
        value = read
        inputs.append((vi.name, value))
        writer.slots[vi.name] = g.Slot("device", f"x{len(inputs) - 1}", value)

    for node in g.ordered(gr, init_names | {n for n, _ in inputs}, what):
        writer.node(node, inferred)
    outputs = [o.name for o in gr.output]
    for o in outputs:
        if o not in writer.slots:
            raise ValueError(f"from_onnx: {what}: the output {o!r} is not computed by the graph")
    if writer.problems.items:
        raise g.unsupported_error(writer)
    name = gr.name or "onnx_model"
    generated = g.generate(writer, [n for n, _ in inputs], outputs, _identifier(name))

    target = target_backend(backend)
    used = set(writer.params)
    params = Container.cont_unflatten(
        {kc: move(arr, target, kc) for kc, arr in weights.items() if kc in used}
    )
    return OnnxModel(
        generated,
        params,
        writer.constant_host,
        inputs,
        outputs,
        sorted(writer.ops_used),
        {kc: initializer_names[kc] for kc in writer.params},
        name,
        opset,
    )


def _identifier(name: str) -> str:
    ident = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return ident if ident and not ident[0].isdigit() else f"graph_{ident}"


def to_onnx(
    model_or_fn: Any,
    *example_args: Any,
    path: str | os.PathLike[str] | None = None,
    dynamic: Any = None,
) -> Any:
    """``model_or_fn`` as an ONNX model (an ``onnx.ModelProto``), written to ``path`` if given.

    ``model_or_fn``: a function written with ivy_like, or a portable model (``ivy_like.nn``,
    or converted: ``from_torch``, ``from_flax``, ``from_keras``, ``from_onnx``), whose weights
    become initializers named by their key chains (``"fc1.weight"``). ``example_args`` give the
    inputs' shapes and dtypes; ``dynamic`` names dynamic dimensions as
    :func:`ivy_like.export` does (default: axis 0 of every input, ``"batch"``; False: none).
    It is ``ivy_like.export(..., format="onnx")``: the function is exported by ``torch.export``
    on the torch backend and translated by PyTorch's ONNX exporter (onnxscript); the model is
    checked by ``onnx.checker`` with full checking and run by ONNX Runtime against the function
    (at the example and at another size of each dynamic dimension) before it is returned.

    Examples
    --------
    >>> import numpy as np
    >>> import onnxruntime as ort
    >>> import ivy_like
    >>> from ivy_like.convert import to_onnx
    >>> def f(x):
    ...     return ivy_like.tanh(x) * 2.0
    >>> model = to_onnx(f, np.ones((2, 3), np.float32))
    >>> session = ort.InferenceSession(model.SerializeToString())
    >>> session.run(None, {"x": np.zeros((5, 3), np.float32)})[0].shape  # any batch size
    (5, 3)
    """
    import onnx

    if path is not None:
        written = export(model_or_fn, *example_args, format="onnx", path=path, dynamic=dynamic)
        return onnx.load(written)
    with tempfile.TemporaryDirectory() as folder:
        written = export(
            model_or_fn,
            *example_args,
            format="onnx",
            path=os.path.join(folder, "model.onnx"),
            dynamic=dynamic,
        )
        return onnx.load(written)

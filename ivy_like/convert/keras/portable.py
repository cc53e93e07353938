"""A portable ivy_like model as a saveable Keras model: :class:`PortableKerasModel`.

``to_keras`` gives one for every model that has no translation into built-in Keras layers (a
``GraphModel`` from ``from_torch``, a ``JaxprModel`` from ``from_flax``, a traced subclassed
Keras model, other ``ivy_like.nn`` models). Its weights are Keras variables, so ``model.save``
stores them in the ``.keras`` file's weights. Its config describes the computation as data:
the TensorFlow graph (a serialized ``GraphDef`` protobuf, base64 in the JSON config) that
``model.apply`` builds when ivy_like runs it on TensorFlow, with the weights as the graph's
inputs. A TensorFlow graph rather than ONNX because it is exactly what the model computes in
memory (the same kernels: a reloaded model gives the outputs the model gives under
``tf.function``, bit for bit), because ONNX's export folds transposes and reshapes into the
weights (its initializers are then no longer the model's variables and cannot be bound from
them), and because it needs neither torch nor onnxscript. The class is registered with Keras (``"ivy_like>PortableKerasModel"``) when
``ivy_like.convert.keras`` is imported; this module imports Keras and TensorFlow.
"""

from __future__ import annotations

import base64
from typing import Any

import keras
import numpy as np
import tensorflow as tf

from ...core.backend import get_backend
from .._weights import move
from .._wrap import buffer_keys, flat_params, native, native_inputs, unflatten

# Ops whose computation is a Python callable, not data: a graph holding one cannot be saved.
_PYTHON_OPS = frozenset({"PyFunc", "PyFuncStateless", "EagerPyFunc"})


def _nodes(graph_def: Any) -> Any:
    yield from graph_def.node
    for fn in graph_def.library.function:
        yield from fn.node_def


def _structure(out: Any, names: list[str]) -> Any:
    """``out``'s nesting as JSON data, each tensor replaced by its index in ``names``."""
    if isinstance(out, dict):
        return {"dict": [[str(k), _structure(v, names)] for k, v in out.items()]}
    if isinstance(out, (list, tuple)):
        return {"list": [_structure(v, names) for v in out], "tuple": isinstance(out, tuple)}
    names.append(out.name)
    return len(names) - 1


def _rebuild(desc: Any, flat: list[Any]) -> Any:
    if isinstance(desc, int):
        return flat[desc]
    if "dict" in desc:
        return {k: _rebuild(v, flat) for k, v in desc["dict"]}
    kids = [_rebuild(v, flat) for v in desc["list"]]
    return tuple(kids) if desc["tuple"] else kids


def _constant(node: Any, value: Any) -> None:
    """Make the placeholder ``node`` a ``Const`` node holding ``value``."""
    name = node.name
    node.Clear()
    node.name = name
    node.op = "Const"
    node.attr["dtype"].type = value.dtype.as_datatype_enum
    node.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(value.numpy()))


def describe(model: Any, key_chains: list[str], weights: list[Any], inputs: list[Any]) -> dict:
    """The graph of ``model.apply`` on TensorFlow as JSON data: ``{"graph_def": base64,
    "weights": [placeholder names], "inputs": [{"name", "shape", "dtype"}], "outputs":
    structure}``. ``inputs`` are (shape, dtype) pairs; a batch axis is kept dynamic when the
    model takes one (a model captured for one shape is described at that shape)."""

    def fn(values: list[Any], *args: Any) -> Any:
        return native(model.apply(unflatten(dict(zip(key_chains, values))), *args))

    weight_specs = [tf.TensorSpec(tuple(w.shape), w.dtype) for w in weights]
    tries = [[(None, *s[1:]) if s else s for s, _ in inputs], [s for s, _ in inputs]]
    if None in [d for s, _ in inputs for d in s] or tries[0] == tries[1]:
        tries = tries[:1]
    error: Exception | None = None
    for shapes in tries:
        specs = [tf.TensorSpec(s, d) for s, (_, d) in zip(shapes, inputs)]
        try:
            concrete = tf.function(fn, autograph=False).get_concrete_function(weight_specs, *specs)
            break
        except Exception as err:  # noqa: BLE001 - any failure to trace: try static shapes
            error = err
    else:
        raise TypeError(
            f"PortableKerasModel: {type(model).__name__} cannot be traced as a TensorFlow "
            f"graph, so it cannot be saved ({type(error).__name__}: {error})"
        ) from error
    graph_def = concrete.graph.as_graph_def()
    for node in _nodes(graph_def):
        if node.op in _PYTHON_OPS:
            raise TypeError(
                f"PortableKerasModel: the graph of {type(model).__name__} has op {node.op} "
                f"(node {node.name!r}), a Python function, which a saved model cannot hold"
            )
    # Tensors the model made eagerly (constants of a captured model) become Const nodes.
    by_name = {n.name: n for n in graph_def.node}
    for value, inner in zip(concrete.captured_inputs, concrete.graph.internal_captures):
        if value.dtype == tf.resource:
            raise TypeError(
                f"PortableKerasModel: the graph of {type(model).__name__} reads a variable it "
                f"does not own ({inner.name}); only the model's own weights can be saved"
            )
        _constant(by_name[inner.op.name], value)
    placeholders = [t.name for t in concrete.inputs[: len(weights) + len(inputs)]]
    names: list[str] = []
    outputs = _structure(concrete.structured_outputs, names)
    return {
        "graph_def": base64.b64encode(graph_def.SerializeToString()).decode("ascii"),
        "weights": placeholders[: len(weights)],
        "inputs": [
            {"name": n, "shape": list(s), "dtype": d}
            for n, s, (_, d) in zip(placeholders[len(weights) :], shapes, inputs)
        ],
        "outputs": outputs,
        "output_names": names,
    }


def load(graph: dict, variables: list[dict]) -> Any:
    """``f(*weights, *inputs)`` running the described graph (a TensorFlow function: tapes
    and ``tf.function`` see through it), and nothing of ivy_like."""
    graph_def = tf.compat.v1.GraphDef.FromString(base64.b64decode(graph["graph_def"]))
    feeds = graph["weights"] + [i["name"] for i in graph["inputs"]]
    specs = [tf.TensorSpec(v["shape"], v["dtype"]) for v in variables]
    specs += [tf.TensorSpec(i["shape"], i["dtype"]) for i in graph["inputs"]]

    def run(*tensors: Any) -> Any:
        return tf.graph_util.import_graph_def(
            graph_def,
            input_map=dict(zip(feeds, tensors)),
            return_elements=graph["output_names"],
            name="",
        )

    return tf.compat.v1.wrap_function(run, specs)


@keras.saving.register_keras_serializable(package="ivy_like")
class PortableKerasModel(keras.Model):
    """A portable ivy_like model as a Keras model that ``model.save`` and
    ``keras.models.load_model`` round-trip.

    Each weight is a Keras variable named after its key chain with ``.`` for ``/`` (Keras
    forbids ``/`` in names), trainable except buffers. Made by :func:`to_keras`, ``call`` runs
    ``model.apply`` with ivy_like on TensorFlow on the variables' values, so a
    ``tf.GradientTape`` sees every op. The config holds the TensorFlow graph of that call as
    data (no code, no pickle: Keras's ``safe_mode`` stays on), traced when the model is first
    saved, for the inputs of its first call (or ``to_keras``'s ``input_shape``), with the batch
    axis dynamic when the model takes any batch; a reloaded model runs that graph on its
    variables. Loading needs the class registered: import ``ivy_like.convert.keras`` before
    ``keras.models.load_model`` (a model of built-in layers, which ``to_keras`` gives for a
    ``Sequential`` or a functional Keras model, needs no ivy_like at all). ``model.export``
    (a SavedModel) serves without ivy_like.
    """

    def __init__(self, variables: list[dict], graph: dict | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._variable_specs = [dict(v) for v in variables]
        self._graph = graph
        self._portable: Any = None  # the ivy_like model, when made by to_keras
        self._inputs_seen: list[tuple[tuple[Any, ...], str]] | None = None
        self._run: Any = None if graph is None else load(graph, self._variable_specs)
        self._leaves = [
            self.add_weight(
                shape=tuple(v["shape"]),
                dtype=v["dtype"],
                initializer="zeros",
                trainable=v["trainable"],
                name=v["key_chain"].replace("/", "."),
            )
            for v in self._variable_specs
        ]
        self.built = True  # nothing to infer: Keras must not trace call symbolically

    def call(self, *args: Any, **kwargs: Any) -> Any:
        values = [tf.convert_to_tensor(v.value) for v in self._leaves]
        if self._portable is None:
            if kwargs:
                raise TypeError(f"{self.name}: a loaded model takes its inputs positionally")
            flat = self._run(*values, *(tf.convert_to_tensor(a) for a in args))
            graph: dict = self._graph or {}  # a loaded model always has its graph
            return _rebuild(graph["outputs"], list(flat))
        if self._inputs_seen is None and not kwargs:
            self._inputs_seen = [
                (tuple(tf.convert_to_tensor(a).shape), tf.convert_to_tensor(a).dtype.name)
                for a in args
            ]
        # The variables' current values, read here so that a GradientTape records them.
        key_chains = [v["key_chain"] for v in self._variable_specs]
        args, kwargs = native_inputs((args, kwargs), "tensorflow")
        return native(
            self._portable.apply(unflatten(dict(zip(key_chains, values))), *args, **kwargs)
        )

    def _described(self) -> dict:
        if self._graph is None:
            if self._inputs_seen is None:
                raise TypeError(
                    f"{self.name}: call the model once (or give to_keras an input_shape) "
                    "before saving it: its graph is traced for the inputs it was called with"
                )
            key_chains = [v["key_chain"] for v in self._variable_specs]
            self._graph = describe(self._portable, key_chains, self._leaves, self._inputs_seen)
        return self._graph

    def get_config(self) -> dict:
        return {"name": self.name, "variables": self._variable_specs, "graph": self._described()}

    def _input_specs(self) -> list[Any]:
        """The inputs the described graph takes (a dynamic batch axis is None)."""
        return [tf.TensorSpec(i["shape"], i["dtype"]) for i in self._described()["inputs"]]

    def export(
        self,
        filepath: Any,
        format: str = "tf_saved_model",  # noqa: A002 - Keras's name
        verbose: Any = None,
        input_signature: Any = None,
        **kwargs: Any,
    ) -> Any:
        # Keras infers a subclassed model's signature from shapes recorded by its build, which
        # this model (built by hand) has not: by default, the inputs the graph takes.
        if input_signature is None:
            input_signature = self._input_specs()
        return super().export(
            filepath, format=format, verbose=verbose, input_signature=input_signature, **kwargs
        )

    @property
    def _default_save_signature(self) -> Any:
        """The ``serving_default`` signature ``tf.saved_model.save`` gives the model."""

        @tf.function(input_signature=self._input_specs())
        def serving_default(*inputs: Any) -> Any:
            return self(*inputs)

        return serving_default

    def save(self, filepath: Any, *args: Any, **kwargs: Any) -> Any:
        # Describe first: Keras opens (and truncates) the file before it asks for the config.
        self._described()
        return super().save(filepath, *args, **kwargs)


def keras_model(model: Any, params: Any, where: str, input_shape: Any = None) -> Any:
    """A :class:`PortableKerasModel` holding ``model``'s weights (``params`` when given)."""
    flat = flat_params(model, params, where)
    buffers = buffer_keys(model, flat)
    np_backend = get_backend("numpy")
    values = {kc: np.asarray(move(leaf, np_backend, kc)) for kc, leaf in flat.items()}
    specs = [
        {
            "key_chain": kc,
            "shape": list(v.shape),
            "dtype": str(v.dtype),
            "trainable": kc not in buffers,
        }
        for kc, v in values.items()
    ]
    out = PortableKerasModel(specs, name=f"portable_{type(model).__name__.lower()}")
    out._portable = model
    for leaf, value in zip(out._leaves, values.values()):
        leaf.assign(value)  # exact, bfloat16 included
    if input_shape is not None:
        out._inputs_seen = [((None, *tuple(input_shape)), "float32")]
    return out

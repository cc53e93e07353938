"""``format="savedmodel"`` and ``format="tflite"``: a SavedModel folder with a
``serving_default`` signature (``tf.saved_model.load``, TF Serving), and a ``.tflite`` file
converted from it (``tf.lite.Interpreter``).

The weights are ``tf.Variable``s of the saved module. The signature takes the inputs by name
(the function's parameter names, else ``input_0``, ``input_1``, ...) and returns a flat dict
(``output_0`` for a single array, the key chain for a dict or Container: ``logits``,
``h/0``); a dynamic dimension is ``None`` in its ``TensorSpec``. TFLite takes the built-in
operators only (an artifact that needs TensorFlow's own kernels would not run on the TFLite
runtime): one it lacks fails the export, naming it.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from typing import Any

import numpy as np

from ._plan import Plan, flat_outputs

SIGNATURE = "serving_default"


def _module(plan: Plan) -> Any:
    import tensorflow as tf

    f = plan.native("tensorflow")
    specs = [
        tf.TensorSpec(
            [None if axis in dims else n for axis, n in enumerate(x.shape)],
            tf.as_dtype(x.dtype),
            name=name,
        )
        for x, dims, name in zip(plan.examples, plan.dims, plan.names)
    ]
    module = tf.Module()
    module.weights_ = [
        tf.Variable(w, trainable=False, name=k.replace("/", "_")) for k, w in plan.weights.items()
    ]

    def serve(*inputs: Any) -> dict[str, Any]:
        return dict(flat_outputs(f([v.read_value() for v in module.weights_], *inputs)))

    module.serve = tf.function(serve, input_signature=specs, autograph=False)
    return module


def write_savedmodel(plan: Plan, path: str) -> None:
    import tensorflow as tf

    module = _module(plan)
    tf.saved_model.save(module, path, signatures={SIGNATURE: module.serve.get_concrete_function()})


def write_tflite(plan: Plan, path: str) -> None:
    import tensorflow as tf

    with tempfile.TemporaryDirectory() as folder:
        write_savedmodel(plan, os.path.join(folder, "savedmodel"))
        converter = tf.lite.TFLiteConverter.from_saved_model(
            os.path.join(folder, "savedmodel"), signature_keys=[SIGNATURE]
        )
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS]
        try:
            data = converter.convert()
        except Exception as err:
            lacking = sorted(set(re.findall(r"'tf\.(\w+)' op is neither", str(err))))
            if not lacking:
                raise
            raise TypeError(
                f"TFLite's built-in operators have no {', '.join(lacking)} (TensorFlow "
                f"ops of the SavedModel), so the model cannot run on the TFLite runtime; "
                f"export it as a SavedModel instead"
            ) from None
    with open(path, "wb") as file:
        file.write(data)


def load_savedmodel(path: str, names: list[str]) -> Callable[..., Any]:
    import tensorflow as tf

    serve = tf.saved_model.load(path).signatures[SIGNATURE]

    def run(*inputs: np.ndarray) -> dict[str, np.ndarray]:
        out = serve(**{k: tf.constant(x) for k, x in zip(names, inputs)})
        return {k: v.numpy() for k, v in out.items()}

    return run


def load_tflite(path: str, names: list[str]) -> Callable[..., Any]:
    import tensorflow as tf

    runner = tf.lite.Interpreter(model_path=path).get_signature_runner(SIGNATURE)

    def run(*inputs: np.ndarray) -> dict[str, np.ndarray]:
        return {k: np.asarray(v) for k, v in runner(**dict(zip(names, inputs))).items()}

    return run

"""A ``KerasGraphModel`` read from a functional Keras model, back to a functional Keras model of
built-in layers: rebuilt from the Keras config it was read from, with the converted model's
weights. Such a model saves and loads with Keras alone (``model.save``,
``keras.models.load_model``), with no ivy_like in the loading process.
"""

from __future__ import annotations

import copy
from typing import Any

import keras

from .._weights import to_numpy_exact
from .._wrap import flat_params
from .layers import weight_keys


def _built_in(entry: dict[str, Any]) -> bool:
    """A layer of a functional config that Keras rebuilds from its config alone."""
    return str(entry.get("module", "")).split(".")[0] == "keras" and not entry.get(
        "registered_name"
    )


def rebuild_functional(model: Any, params: Any, where: str) -> Any:
    """The functional Keras model ``model`` was read from, with ``model``'s weights (``params``
    when given), exactly; None when ``model`` was not read from a functional model's config or
    its weights do not fit the rebuilt layers exactly (another dtype: Keras would cast), or it
    has a layer that is not Keras's own (a subclass, rebuilt only where its class is)."""
    config = getattr(model, "keras_config", None)
    if config is None or not all(_built_in(entry) for entry in config["layers"]):
        return None  # a subclass of a built-in layer: only its own code rebuilds it
    flat = flat_params(model, params, where)
    values = {kc: to_numpy_exact(leaf, kc) for kc, leaf in flat.items()}
    rebuilt = keras.Model.from_config(copy.deepcopy(config))
    pairs, keys = [], set()
    for layer in rebuilt.layers:
        try:
            keyed = weight_keys(layer)  # the keys from_keras gave them ("mha/query/kernel")
        except ValueError:
            return None
        for key, w in keyed:
            kc = f"{layer.name}/{key}"
            value = values.get(kc)
            if value is None or tuple(value.shape) != tuple(w.shape) or value.dtype != w.dtype:
                return None
            pairs.append((w, value))
            keys.add(kc)
    if len({id(w) for w, _ in pairs}) != len(pairs) or keys != set(values):
        return None  # a weight read twice or left unread: no exact rebuild
    for w, value in pairs:
        w.assign(value)
    return rebuilt

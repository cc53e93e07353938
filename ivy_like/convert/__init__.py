"""ivy_like.convert: models, weights and arrays between PyTorch, Keras, Flax and ivy_like.

* Models: :func:`from_torch`, :func:`from_keras`, :func:`from_flax` give an
  ``ivy_like.nn.Sequential`` (layers plus a Container of weights in ivy_like's layouts, which
  are PyTorch's); :func:`to_torch` and :func:`to_keras` give native models with the weights
  loaded. ``from_torch(module, *example_args, **example_kwargs)`` captures any PyTorch model
  with ``torch.export`` as a :class:`GraphModel` (its ATen graph mapped to ivy_like ops; an
  op it cannot map raises :class:`UnsupportedOpError`), and :func:`to_torch` sends it back;
  ``from_flax(module, variables, *example_args)`` traces any Flax linen or nnx module to a
  jaxpr and maps its primitives to ivy_like ops (a ``JaxprModel``, weights in Flax's
  layouts); :func:`to_keras` and :func:`to_flax` wrap any model with ``params`` and a pure
  ``apply`` in a native module that owns its weights.
* Weights: Container <-> torch ``state_dict`` (:func:`from_state_dict`, :func:`to_state_dict`),
  Keras weight lists (:func:`from_keras_weights`, :func:`to_keras_weights`) and Flax params
  (:func:`from_flax_params`, :func:`to_flax_params`).
* Arrays: :func:`to_backend` (DLPack, else NumPy).
* :func:`flax_flatten`: the flatten to put in a Flax ``Sequential`` (Flax has none).

One subpackage per framework holds its converters (``torch/``, ``keras/``, ``flax/``: each
with its entry points in ``api.py`` and its table of handlers); the modules beside them are
shared: ``_specs.py`` (the layer specs and ``Permute`` of the Sequential converters),
``_weights.py`` (moving, checking and loading weights), ``_captured.py`` (what a captured
graph model does around its generated function), ``_wrap.py`` (native modules around a
portable model), ``_errors.py`` and ``_arrays.py``. Layouts, the zero-copy table and the
limitations are in ``docs/convert.md``; adding a handler is in ``docs/contributing.md``.

Importing this package imports no framework: each converter loads its framework when called.
"""

from __future__ import annotations

import importlib
from typing import Any

from ._arrays import to_backend
from ._errors import UnsupportedLayerError, UnsupportedOpError
from ._specs import Permute, flax_flatten
from .export import ExportError

__all__ = [
    "ExportError",
    "GraphModel",
    "OnnxModel",
    "Permute",
    "TorchPermute",
    "UnsupportedLayerError",
    "UnsupportedOpError",
    "flax_flatten",
    "from_flax",
    "from_flax_params",
    "from_keras",
    "from_keras_weights",
    "from_onnx",
    "from_state_dict",
    "from_torch",
    "to_backend",
    "to_flax",
    "to_flax_params",
    "to_keras",
    "to_keras_weights",
    "to_onnx",
    "to_state_dict",
    "to_torch",
]

# name -> (module, attribute): loaded on first use, so `import ivy_like.convert` stays cheap.
_LAZY = {
    "from_torch": ("torch.api", "from_torch"),
    "to_torch": ("torch.api", "to_torch"),
    "from_state_dict": ("torch.api", "from_state_dict"),
    "to_state_dict": ("torch.api", "to_state_dict"),
    "TorchPermute": ("torch.layers", "Permute"),
    "GraphModel": ("torch.graph_model", "GraphModel"),
    "from_keras": ("keras.api", "from_keras"),
    "to_keras": ("keras.api", "to_keras"),
    "from_keras_weights": ("keras.api", "from_keras_weights"),
    "to_keras_weights": ("keras.api", "to_keras_weights"),
    "from_flax": ("flax.api", "from_flax"),
    "from_flax_params": ("flax.api", "from_flax_params"),
    "to_flax": ("flax.api", "to_flax"),
    "to_flax_params": ("flax.api", "to_flax_params"),
    "from_onnx": ("onnx.api", "from_onnx"),
    "to_onnx": ("onnx.api", "to_onnx"),
    "OnnxModel": ("onnx.api", "OnnxModel"),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'ivy_like.convert' has no attribute {name!r}")
    module, attr = _LAZY[name]
    value = getattr(importlib.import_module(f"{__name__}.{module}"), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)

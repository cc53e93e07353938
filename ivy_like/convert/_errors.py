"""The errors of the converters: a layer or an op a converter cannot translate.

Both are ``TypeError`` subclasses published as ``ivy_like.convert.UnsupportedLayerError`` and
``ivy_like.convert.UnsupportedOpError``: the Sequential converters raise the first (naming the
layer's index), the graph converters (captured PyTorch graphs, Keras functional and traced
models, Flax jaxprs) the second (naming the op or layer and where it sits in the model).
"""

from __future__ import annotations

from typing import Any


class UnsupportedLayerError(TypeError):
    """A layer the converter cannot translate; the message names it and lists what is supported.

    A subclass of ``TypeError``. Its message has the converter, the layer's index and class,
    the reason when a setting (rather than the layer) is unsupported, and the supported layers.

    Examples
    --------
    >>> import torch
    >>> from ivy_like.convert import UnsupportedLayerError, from_torch
    >>> try:
    ...     from_torch(torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.PReLU()))
    ... except UnsupportedLayerError as err:
    ...     print(str(err)[:77])
    from_torch: layer 1 (torch.nn.modules.activation.PReLU) is not supported; sup
    """

    __module__ = "ivy_like.convert"  # tracebacks name the public module, not this private one


def unsupported(where: str, index: int, layer: Any, supported: Any, why: str = "") -> Exception:
    """The error for layer ``index`` of a model: names the layer and lists the supported ones."""
    name = f"{type(layer).__module__}.{type(layer).__qualname__}"
    reason = f" ({why})" if why else ""
    return UnsupportedLayerError(
        f"{where}: layer {index} ({name}) is not supported{reason}; supported layers: "
        f"{', '.join(supported)}"
    )


class UnsupportedOpError(TypeError):
    """A node of a captured graph that the converter cannot translate.

    A subclass of ``TypeError``. For a PyTorch graph the message names the ATen op, the graph
    node, the module it came from (its path in the model and its class), the reason when a
    setting rather than the op is unsupported, and the supported ops; for a Flax jaxpr the
    primitive, for a Keras functional or traced model the layer or ``keras.ops`` operation and
    where it sits. Models whose ``forward`` (``call``) branches on tensor values
    (data-dependent control flow) raise it too, saying so.

    Examples
    --------
    >>> import torch
    >>> from ivy_like.convert import UnsupportedOpError, from_torch
    >>> class Net(torch.nn.Module):
    ...     def forward(self, x):
    ...         return torch.special.bessel_j0(x)
    >>> try:
    ...     from_torch(Net(), torch.ones(2), backend="numpy")
    ... except UnsupportedOpError as err:
    ...     print(str(err).split(", in ")[0])
    from_torch: ATen op aten.special_bessel_j0.default (node 'special_bessel_j0'
    """

    __module__ = "ivy_like.convert"  # tracebacks name the public module

"""The table of ONNX operators :func:`from_onnx` maps a graph with, and how to register one.

:data:`OPS` maps an operator's name (``"Conv"``, in the default domain ``ai.onnx``) to one small
function written with ivy_like ops, registered by the :func:`onnx_op` decorator in the family
modules of ``ops/`` (``elementwise.py``, ``reductions.py``, ``shapes.py``, ``nn.py``). A handler
takes the node's inputs in order and the node's attributes as keyword arguments, and returns
the node's value (a tuple when the node has several outputs).

What a handler receives for an input:

* an ivy_like ``Array`` of the model's backend (a value computed at run time);
* a NumPy array: a value known without the model's data (an initializer that is not a weight,
  a ``Constant``, or a value computed from those and from shapes, such as ``Shape`` -> ``Gather``
  -> ``Concat`` -> ``Reshape``'s shape). The converter runs every node whose inputs are all
  such values on NumPy (at conversion when the shapes are fixed, at run time when a dimension
  is dynamic), so shape arithmetic never reaches the device and never becomes a tracer;
* ``None`` for an optional input the node leaves out (``""``), or one past its last input.

:func:`ints` and :func:`floats` read an input that must be known (a shape, axes, pads) as a
tuple of Python numbers, with a clear error when it was computed from the data under a
transform. :data:`ATTRS` turns a node's attributes into the handler's keyword arguments when
they need more than a copy (renaming, a default that depends on the opset, a refusal): a rule
gets the :class:`Node` and returns the keyword arguments or raises :class:`Refused`. No
module of the table imports onnx: the table and the list of supported operators in
``docs/convert.md`` come without it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import ivy_like as il

from ...core.backend import current_backend

Handler = Callable[..., Any]

OPS: dict[str, Handler] = {}
ATTRS: dict[str, Callable[[Node], dict[str, Any]]] = {}
SINCE: dict[str, int] = {}  # the first opset each handler implements (older ones are refused)
# Control flow, written by the converter itself (``control.py``): the first opset it follows.
CONTROL = {"If": 1, "Loop": 1, "Scan": 9}
# Why some well-known operators have no entry: said in the error.
REASONS: dict[str, str] = {
    "NonZero": "its output shape depends on the data",
    "Unique": "its output shape depends on the data",
    "StringNormalizer": "strings are not arrays on every backend",
    "RandomNormal": "random numbers: the converted model is deterministic",
    "RandomUniform": "random numbers: the converted model is deterministic",
    "RandomNormalLike": "random numbers: the converted model is deterministic",
    "RandomUniformLike": "random numbers: the converted model is deterministic",
    "Multinomial": "random numbers: the converted model is deterministic",
    "Bernoulli": "random numbers: the converted model is deterministic",
}

# TensorProto's element types ivy_like has arrays of, by their ONNX number (the others: strings,
# float8, float4, int4, int2 are refused where an attribute names one).
ONNX_DTYPES: dict[int, str] = {
    1: "float32",
    2: "uint8",
    3: "int8",
    4: "uint16",
    5: "int16",
    6: "int32",
    7: "int64",
    9: "bool",
    10: "float16",
    11: "float64",
    12: "uint32",
    13: "uint64",
    14: "complex64",
    15: "complex128",
    16: "bfloat16",
}


class Refused(Exception):
    """Raised by an :data:`ATTRS` rule or a handler at conversion: this use of the operator is
    not supported (the message says why); the converter lists it with the others."""


@dataclass(frozen=True)
class Value:
    """What a rule sees of a value: its shape (a dimension is an int, the name of a dynamic
    dimension, or None when unknown; the whole shape None when the rank is unknown) and its
    NumPy dtype (None when unknown)."""

    shape: tuple[int | str | None, ...] | None
    dtype: np.dtype | None


@dataclass(frozen=True)
class Node:
    """What an :data:`ATTRS` rule sees of a node: its operator, name and opset, its decoded
    attributes (ints, floats, strings as ``str``, tensors as NumPy arrays, sub-graphs as they
    are, lists of these), and per input and output a :class:`Value` (None when left out) and
    the input's value when it is known at conversion (else None)."""

    op_type: str
    name: str
    opset: int
    attrs: dict[str, Any] = field(default_factory=dict)
    ins: list[Value | None] = field(default_factory=list)
    outs: list[Value | None] = field(default_factory=list)
    known: list[np.ndarray | None] = field(default_factory=list)

    def attr(self, name: str, default: Any = None) -> Any:
        return self.attrs.get(name, default)


def onnx_op(
    *names: str, since: int = 1, attrs: Callable[[Node], dict[str, Any]] | None = None
) -> Callable[[Handler], Handler]:
    """Register the decorated function for the ONNX operators ``names`` (default domain).

    ``since``: the first opset whose definition the handler follows (a model of an older opset
    is refused with the reason); ``attrs``: the rule turning the node into the handler's
    keyword arguments (without one, the attributes are passed as they are, by their ONNX
    names).
    """

    def register(fn: Handler) -> Handler:
        for name in names:
            OPS[name] = fn
            SINCE[name] = since
            if attrs is not None:
                ATTRS[name] = attrs
        return fn

    return register


def _known(x: Any, op: str, what: str) -> np.ndarray:
    if x is None:
        raise TypeError(f"{op}: {what} is required")
    if isinstance(x, np.ndarray):
        return x
    try:
        return np.asarray(il.to_numpy(x))
    except Exception as e:  # noqa: BLE001 - every framework names its tracer errors differently
        raise TypeError(
            f"{op}: {what} is computed from the model's data, so it has no value while the "
            f"model is traced (compiled, vmapped or differentiated by a tracing backend); "
            f"ivy_like needs it known: make it a constant or compute it from shapes"
        ) from e


def ints(x: Any, op: str, what: str) -> tuple[int, ...]:
    """An input that must be known (a shape, axes, pads...) as a tuple of Python ints."""
    return tuple(int(v) for v in _known(x, op, what).reshape(-1))


def floats(x: Any, op: str, what: str) -> tuple[float, ...]:
    """An input that must be known (scales...) as a tuple of Python floats."""
    return tuple(float(v) for v in _known(x, op, what).reshape(-1))


def scalar(x: Any, op: str, what: str) -> Any:
    """A known 0-d or one-element input as a Python number."""
    arr = _known(x, op, what)
    if arr.size != 1:
        raise ValueError(f"{op}: {what} must hold one value, got shape {arr.shape}")
    return arr.reshape(()).item()


def supported_ops() -> list[str]:
    """The ONNX operators (default domain) :func:`ivy_like.convert.from_onnx` maps, sorted
    (``If``, ``Loop`` and ``Scan`` included: the converter writes those itself).

    Examples
    --------
    >>> from ivy_like.convert.onnx.ops import supported_ops
    >>> "Conv" in supported_ops() and "Attention" in supported_ops()
    True
    """
    return sorted(set(OPS) | set(CONTROL))


def supported_ops_markdown() -> str:
    """The list of supported ONNX operators in ``docs/convert.md`` (generated here, checked by
    the tests), with the first opset each follows."""
    since = {**SINCE, **CONTROL}
    listed = (f"`{n}`" + (f" ({since[n]}+)" if since[n] > 1 else "") for n in supported_ops())
    return ", ".join(listed) + "\n"


def index_dtype() -> Any:
    """The dtype for ONNX's int64 results (indices, shapes) on the active backend: int64, or
    int32 where the backend has no int64 (JAX without 64-bit mode)."""
    return il.int64 if il.int64 in current_backend().DTYPES else il.int32


def has_dtype(dtype: Any) -> bool:
    """Whether the active backend has ``dtype`` (an ivy_like dtype or its name)."""
    return il.as_dtype(dtype) in current_backend().DTYPES

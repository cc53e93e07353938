"""The table of ATen ops :func:`from_torch` maps a captured graph with, and how to register one.

:data:`ATEN` maps an op's full name (``"aten.add.Tensor"``) to one small function (per op or per
group of overloads with one meaning), registered by the :func:`aten` decorator in the family
modules beside this one (``arithmetic.py``, ``shapes.py``, ``convolution.py``...). Each takes
the node's arguments as ATen gives them (arrays in place of the graph's tensors, Python numbers
and lists as they are, an ``ivy_like`` dtype in place of a ``torch.dtype``) and computes the
node's value with ivy_like ops, so a converted graph runs, differentiates and compiles on every
backend. No module of the table imports a framework: the table, and the list of supported ops
in ``docs/convert.md``, come without torch.

Next to the table:

* :data:`CHECKS`: a test run once, when the graph is converted, on the node's arguments (a
  :class:`TensorMeta` for each tensor): it returns why a use of an op is not supported
  (``ceil_mode=True``, dropout in training mode...), never letting such a node compute
  something else.
* :data:`PROMOTE`: elementwise ops whose tensor arguments must share a dtype first (PyTorch
  promotes ``int64 * float32`` to ``float32``; the array API leaves mixed kinds undefined).
  The converter inserts the casts, from the dtypes recorded in the graph.
* :data:`CREATION`: ops that make an array; the converter passes the dtype the graph recorded.
* :data:`OUTPUTS`: ops returning a tuple of which only some entries are computed (the others
  are ``None``: ``max_pool2d_with_indices`` gives no indices); using another entry is an
  :class:`UnsupportedOpError` at conversion.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

import ivy_like as il

Handler = Callable[..., Any]

ATEN: dict[str, Handler] = {}
CHECKS: dict[str, Callable[..., str | None]] = {}
PROMOTE: dict[str, tuple[int, ...]] = {}
CREATION: set[str] = set()
OUTPUTS: dict[str, tuple[int, ...]] = {}
# Why some well-known ops have no entry: said in the error instead of a bare "not supported".
REASONS = {
    "aten.item.default": "it reads a tensor's value into Python (data-dependent control flow)",
    "aten._local_scalar_dense.default": "it reads a tensor's value into Python (data-dependent)",
    "aten.nonzero.default": "its output shape depends on the data",
    "aten.masked_select.default": "its output shape depends on the data",
    "aten.unique.default": "its output shape depends on the data",
}


@dataclass(frozen=True)
class TensorMeta:
    """What a check sees of a tensor argument: its shape (None for a dimension captured as
    dynamic) and dtype name (``"float32"``)."""

    shape: tuple[int | None, ...]
    dtype: str


def aten(
    *names: str,
    check: Callable[..., str | None] | None = None,
    promote: tuple[int, ...] | None = None,
    creation: bool = False,
    outputs: tuple[int, ...] | None = None,
) -> Callable[[Handler], Handler]:
    """Register the decorated function for the ATen ops ``names`` (``"add.Tensor"``).

    ``promote``: positions of the arguments cast to a common dtype (lists included);
    ``creation``: the op makes an array and gets the graph's ``dtype=``; ``outputs``: the
    entries of a tuple result that are computed; ``check``: see :data:`CHECKS`.
    """

    def register(fn: Handler) -> Handler:
        for name in names:
            key = f"aten.{name}"
            ATEN[key] = fn
            if check is not None:
                CHECKS[key] = check
            if promote is not None:
                PROMOTE[key] = promote
            if creation:
                CREATION.add(key)
            if outputs is not None:
                OUTPUTS[key] = outputs
        return fn

    return register


def supported_ops() -> list[str]:
    """The ATen ops :func:`ivy_like.convert.from_torch` maps, sorted.

    Examples
    --------
    >>> from ivy_like.convert.torch.aten import supported_ops
    >>> "aten.scaled_dot_product_attention.default" in supported_ops()
    True
    """
    return sorted(ATEN)


def supported_ops_markdown() -> str:
    """The markdown table of the supported ATen ops in ``docs/convert.md`` (generated here,
    checked by the tests): one row per op with its overloads."""
    overloads: dict[str, list[str]] = {}
    for key in sorted(ATEN):
        name, _, overload = key.removeprefix("aten.").rpartition(".")
        overloads.setdefault(name, []).append(overload)
    rows = ["| ATen op | overloads |", "|---|---|"]
    for name in sorted(overloads, key=lambda n: n.strip("_")):
        rows.append(f"| `{name}` | {', '.join(f'`{o}`' for o in overloads[name])} |")
    return "\n".join(rows) + "\n"


# -- helpers -------------------------------------------------------------------------------------
# the positions of a binary op's two arguments (both promoted to a common dtype)
_ALL = (0, 1)


def _native(x: Any) -> Any:
    return il.to_native(x)  # creation functions give an Array; the graph carries natives


def torch_natives(*xs: Any) -> list[Any] | None:
    """The natives of ``xs`` (None stays None) when every one is a torch tensor, else None: a
    handler then runs ATen's own op on torch, one node in an exported graph where the portable
    lowering is several (and exact: it is the op that was captured)."""
    natives = [None if x is None else il.to_native(x) for x in xs]
    if all(n is None or isinstance(n, torch.Tensor) for n in natives):
        return natives
    return None


def _ndim(x: Any) -> int:
    return len(x.shape)


def _axis(d: int, ndim: int) -> int:
    return d + ndim if d < 0 else d


def _is_float(x: Any) -> bool:
    return "float" in str(x.dtype)


def _shape_of(size: Any) -> tuple[Any, ...]:
    """ATen's size list as a shape: ints, and each dynamic size as the trace gives it."""
    return tuple(s if is_symbolic(s) else int(s) for s in size)


def is_symbolic(size: Any) -> bool:
    """Whether ``size`` is a dynamic size of a trace: torch's ``SymInt``, a symbolic dimension of
    ``jax.export``, or a TensorFlow scalar tensor (read from ``tf.shape`` in a graph whose input
    has a ``None`` dimension). ``int()`` would fix the first at the example's size and cannot
    read the others, so such a size is passed on as it is."""
    return not isinstance(size, (int, float)) and type(size).__name__ in _SYMBOLIC


_SYMBOLIC = frozenset(("SymInt", "_DimExpr", "Tensor", "SymbolicTensor", "EagerTensor"))


def dim_size(x: Any, axis: int) -> Any:
    """The size of ``x`` along ``axis`` at run time: an int, or a dynamic size of the trace
    (``SymInt`` under torch.export, a symbolic dimension under jax.export, and in a TensorFlow
    graph with a ``None`` dimension the scalar ``tf.shape(x)[axis]``)."""
    n = x.shape[axis]
    if n is None:
        import tensorflow as tf  # only a TensorFlow graph leaves a size unknown

        return tf.shape(il.to_native(x))[axis]
    return n


def size_operand(size: Any, like: Any) -> Any:
    """``size`` as an operand of an op with the array ``like``: an int as it is, a dynamic size
    as a 0-d array of ``like``'s dtype (ivy_like's ops take arrays and Python numbers only)."""
    if not is_symbolic(size):
        return size
    native = il.to_native(like)
    kind = type(size).__name__
    if kind == "SymInt":
        import torch

        return torch.full((), size, dtype=native.dtype)  # recorded with the symbol
    if kind == "_DimExpr":
        import jax.numpy as jnp

        return jnp.asarray(size, dtype=native.dtype)
    import tensorflow as tf

    return tf.cast(size, native.dtype)


def _tensor_sizes(shape: tuple[Any, ...]) -> Any:
    """A shape holding TensorFlow scalars (sizes read in a graph) as one int32 tensor, or None
    when it holds none (ivy_like's shape arguments take ints only)."""
    if not any(type(s).__name__ in _TF_SIZES for s in shape):
        return None
    import tensorflow as tf

    return tf.stack([tf.cast(s, tf.int32) for s in shape])


_TF_SIZES = frozenset(("Tensor", "SymbolicTensor", "EagerTensor"))


def reshape_to(x: Any, shape: tuple[Any, ...], known: Any = None) -> Any:
    """``ivy_like.reshape``, also to a shape of sizes read in a TensorFlow graph, whose output
    then gets the sizes ``known`` at capture (None for a dynamic one; else the ints of
    ``shape``): TensorFlow cannot work out a -1 beside unknown sizes."""
    sizes = _tensor_sizes(shape)
    if sizes is None:
        return il.reshape(x, shape)
    import tensorflow as tf

    y = tf.reshape(il.to_native(x), sizes)
    if known is None:
        known = [s if isinstance(s, int) and s >= 0 else None for s in shape]
    y.set_shape(list(known))
    return y


def broadcast_to(x: Any, shape: tuple[Any, ...]) -> Any:
    """``ivy_like.broadcast_to``, also to a shape of sizes read in a TensorFlow graph."""
    sizes = _tensor_sizes(shape)
    if sizes is None:
        return il.broadcast_to(x, shape)
    import tensorflow as tf

    return tf.broadcast_to(il.to_native(x), sizes)


def take_rows(rows: Any, flat: Any) -> Any:
    """``ivy_like.take(rows, flat, axis=0)``; on a number of rows that is a ``jax.export``
    dimension, JAX's own ``take`` (ivy_like's JAX kernel compares the size with an int, which
    a symbolic size cannot answer). ``flat`` is in range (negative indices already wrapped)."""
    if type(rows.shape[0]).__name__ == "_DimExpr":
        import jax.numpy as jnp

        return jnp.take(il.to_native(rows), il.to_native(flat), axis=0)
    return il.take(rows, flat, axis=0)


def dim_sizes(x: Any) -> tuple[Any, ...]:
    """Every size of ``x`` as :func:`dim_size` reads it."""
    shape = tuple(x.shape)
    if None not in shape:
        return shape
    return tuple(dim_size(x, a) for a in range(len(shape)))


def _dims(dim: Any, ndim: int) -> tuple[int, ...] | None:
    """ATen's ``dim`` argument: None or ``[]`` is every axis (as in ``sum(x, [])``)."""
    if dim is None:
        return None
    if isinstance(dim, int):
        return (dim,)
    return tuple(dim) if len(dim) else None

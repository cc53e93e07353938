"""Dynamic dimensions of a traced Flax module: jax's symbolic shapes, as run-time sizes.

``from_flax(..., dynamic_shapes=...)`` names some axes of the inputs; :func:`resolve` reads
that argument as one ``{axis: name}`` per input and :func:`shape_structs` turns the examples
into ``jax.ShapeDtypeStruct`` s whose named axes are symbolic dimensions of one
``jax.export.SymbolicScope`` (a name shared by inputs is one size). The jaxpr then carries
expressions of those names (``b``, ``16*b``, ``b + 1``, ``b // 2``) wherever a shape depends on
them; :func:`source` writes such an expression as Python over the sizes the generated function
reads from its inputs (``d_b``) with :func:`size`, so every size is computed at run time,
never taken from the example. :func:`reshape` and :func:`broadcast_to` take shapes whose
entries may be symbolic at run time (a SavedModel's ``None`` axis, ``jax.export``'s own
symbolic dimension): the framework's op then does it. jax is imported only by the functions
that trace.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

import ivy_like as il

from ...core.backend import backend_of
from .._casts import cast
from ._table import is_symbolic

Dims = dict[int, str]  # axis -> the dimension's name
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
DEFAULT = "batch"  # the dimension dynamic_shapes=None makes of axis 0
_PACKAGE = str(Path(il.__file__).resolve().parent)


class DimensionError(ValueError):
    """A module that cannot take a dynamic dimension; ``reason`` is what jax said and where."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


# -- reading dynamic_shapes ----------------------------------------------------------------------
def _entry(i: int, spec: Any, shape: tuple[int, ...] | None) -> Dims:
    where = f"from_flax: dynamic_shapes[{i}]"
    if spec is None:
        return {}
    if shape is None:
        raise TypeError(f"{where} must be None: argument {i} is not an array, got {spec!r}")
    rank = len(shape)
    dims: Dims = {}
    if isinstance(spec, str):
        parts = [p.strip() for p in spec.split(",")]
        if parts and parts[-1] == "" and rank == len(parts) - 1:
            parts.pop()  # "b," for a vector
        if len(parts) != rank:
            raise ValueError(
                f"{where} is {spec!r}, {len(parts)} axes, but argument {i} has shape {shape}"
            )
        for axis, part in enumerate(parts):
            if part == "_":
                continue  # the example's size
            if part.isdigit():
                if int(part) != shape[axis]:
                    raise ValueError(
                        f"{where} gives axis {axis} size {part}, but argument {i} has shape {shape}"
                    )
                continue
            if not _NAME.match(part):
                raise ValueError(
                    f"{where}: axis {axis} is {part!r}; each axis is a name (an identifier), a "
                    "size or '_' (the example's size)"
                )
            dims[axis] = part
        return dims
    if isinstance(spec, Mapping):
        for axis, name in spec.items():
            if not isinstance(axis, int) or isinstance(axis, bool) or not -rank <= axis < rank:
                raise ValueError(f"{where} names axis {axis!r}; argument {i} has shape {shape}")
            if not isinstance(name, str) or not _NAME.match(name):
                raise ValueError(f"{where}[{axis}] must be a name (an identifier), got {name!r}")
            dims[axis % rank] = name
        return dims
    raise TypeError(
        f"{where} must be None, a string such as 'b, 16' or a mapping {{axis: name}}, got "
        f"{type(spec).__name__}"
    )


def resolve(dynamic_shapes: Any, shapes: list[tuple[int, ...] | None]) -> list[Dims]:
    """``dynamic_shapes`` (one entry per positional argument) as ``{axis: name}`` per argument;
    ``shapes`` are the examples' shapes (None for an argument that is not an array). A name
    given to axes of different sizes in the example is a ``ValueError``."""
    if isinstance(dynamic_shapes, (str, Mapping)) or not isinstance(dynamic_shapes, Sequence):
        raise TypeError(
            "from_flax: dynamic_shapes must be None (axis 0 'batch'), False (static) or a "
            f"sequence with one entry per example argument, got {dynamic_shapes!r}"
        )
    if len(dynamic_shapes) != len(shapes):
        raise ValueError(
            f"from_flax: dynamic_shapes has {len(dynamic_shapes)} entries for {len(shapes)} "
            "example argument(s)"
        )
    out = [_entry(i, spec, shape) for i, (spec, shape) in enumerate(zip(dynamic_shapes, shapes))]
    check_example(out, shapes)
    return out


def check_example(dims: list[Dims], shapes: list[Any]) -> None:
    seen: dict[str, tuple[int, int, int]] = {}
    for i, d in enumerate(dims):
        for axis, name in d.items():
            n = shapes[i][axis]
            first = seen.setdefault(name, (i, axis, n))
            if first[2] != n:
                raise ValueError(
                    f"from_flax: dynamic dimension {name!r} is axis {first[1]} of argument "
                    f"{first[0]} (size {first[2]}) and axis {axis} of argument {i} (size {n}) "
                    "in the examples; a shared name is one size"
                )


def default_dims(shapes: list[tuple[int, ...] | None]) -> list[Dims] | None:
    """``dynamic_shapes=None``: axis 0 of every array input of rank >= 1 is ``"batch"``, when
    those sizes agree in the examples (None otherwise, or when there is no such input)."""
    firsts = {s[0] for s in shapes if s}
    if len(firsts) != 1:
        return None
    return [({0: DEFAULT} if s else {}) for s in shapes]


def names(dims: list[Dims]) -> list[str]:
    return sorted({name for d in dims for name in d.values()})


def shape_structs(args: Sequence[Any], dims: list[Dims]) -> list[Any]:
    """The example arrays as ``jax.ShapeDtypeStruct`` s, each named axis a symbolic dimension
    (one scope for all: a shared name is one size)."""
    import jax
    from jax import export as jax_export

    scope = jax_export.SymbolicScope()
    out = []
    for x, d in zip(args, dims):
        shape = tuple(x.shape)
        if d:
            text = ", ".join(d.get(axis, str(n)) for axis, n in enumerate(shape))
            shape = jax_export.symbolic_shape(text, scope=scope)
        out.append(jax.ShapeDtypeStruct(shape, x.dtype))
    return out


def resized(args: Sequence[Any], dims: list[Dims]) -> tuple[list[Any], dict[str, int]]:
    """The example arguments with every dynamic dimension one larger (the example's rows
    repeated, so indices stay valid), and those sizes by name."""
    sizes: dict[str, int] = {}
    out = list(args)
    for i, d in enumerate(dims):
        if not d:
            continue
        x = np.asarray(args[i])
        for axis, name in d.items():
            sizes[name] = x.shape[axis] + 1
            x = np.take(x, np.arange(x.shape[axis] + 1) % x.shape[axis], axis=axis)
        out[i] = x
    return out, sizes


def close(got: Any, want: Any) -> str:
    """``""`` when two flat outputs agree (shapes, and values within float32 rounding of a
    model), else what differs."""
    if len(got) != len(want):
        return f"{len(got)} outputs where jax gives {len(want)}"
    for k, (g, w) in enumerate(zip(got, want)):
        g, w = np.asarray(g), np.asarray(w)
        if g.shape != w.shape:
            return f"output {k} is shaped {g.shape} where jax gives {w.shape}"
        if w.dtype.kind in "fc":
            scale = max(1.0, float(np.max(np.abs(w), initial=0.0)))
            if not np.allclose(g, w, rtol=1e-4, atol=1e-5 * scale, equal_nan=True):
                return f"output {k} differs from jax's by {float(np.max(np.abs(g - w))):.3g}"
        elif not np.array_equal(g, w):
            return f"output {k} differs from jax's"
    return ""


def user_line(err: BaseException) -> str:
    """``, at file:line`` of the last frame of the error's traceback in the user's code (not
    in an installed package nor in ivy_like), or ``""``."""
    found = ""
    for frame in traceback.extract_tb(err.__traceback__):
        name = frame.filename
        if "site-packages" in name or name.startswith(_PACKAGE) or name.startswith("<"):
            continue
        found = f", at {name}:{frame.lineno}" + (f" ({frame.line.strip()})" if frame.line else "")
    return found


# -- symbolic sizes as Python ---------------------------------------------------------------------
class _Source:
    """A size expression being written as Python source: jax evaluates its symbolic dimension
    with these as the values of the names, and the operators write the source."""

    def __init__(self, text: str) -> None:
        self.text = text

    @staticmethod
    def _of(v: Any) -> str:
        return v.text if isinstance(v, _Source) else repr(int(v))

    def __add__(self, other: Any) -> _Source:
        return _Source(f"({self.text} + {self._of(other)})")

    def __radd__(self, other: Any) -> _Source:
        return _Source(f"({self._of(other)} + {self.text})")

    def __mul__(self, other: Any) -> _Source:
        return _Source(f"({self.text} * {self._of(other)})")

    def __rmul__(self, other: Any) -> _Source:
        return _Source(f"({self._of(other)} * {self.text})")

    def __divmod__(self, other: Any) -> tuple[_Source, _Source]:
        a, b = self.text, self._of(other)
        return _Source(f"({a} // {b})"), _Source(f"({a} % {b})")

    def __rdivmod__(self, other: Any) -> tuple[_Source, _Source]:
        a, b = self._of(other), self.text
        return _Source(f"({a} // {b})"), _Source(f"({a} % {b})")


class _Names(dict):  # type: ignore[type-arg]
    def __missing__(self, key: str) -> _Source:
        return _Source(local(key))


def local(name: str) -> str:
    """The generated function's local holding dimension ``name``'s size."""
    return f"d_{name}"


def source(d: Any) -> str:
    """A size (an int or a symbolic expression of jax) as Python over the sizes' locals."""
    if not is_symbolic(d):
        return repr(int(d))
    try:
        value = d._evaluate(_Names())  # jax's own evaluation, with names that write source
    except Exception as err:  # noqa: BLE001 - max/min of sizes and other forms: said, not guessed
        raise ValueError(f"the size {d} cannot be computed at run time ({err})") from None
    return value.text if isinstance(value, _Source) else repr(int(value))


# -- at run time ----------------------------------------------------------------------------------
def size(x: Any, axis: int) -> Any:
    """Axis ``axis``'s size: an int, or the framework's symbolic size when the array has none
    (a TensorFlow graph traced for every size, a ``jax.export`` symbolic dimension)."""
    n = x.shape[axis]
    if n is None:  # a TensorFlow graph whose axis has no size: the size as a tensor
        import tensorflow as tf

        return tf.shape(il.to_native(x))[axis]
    return n


def _static(shape: Sequence[Any]) -> bool:
    return all(isinstance(s, int) for s in shape)


def _native(x: Any, shape: Sequence[Any], op: str) -> Any:
    """``op`` ("reshape" or "broadcast_to") done by ``x``'s framework with a symbolic shape."""
    native = il.to_native(x)
    name = backend_of(native).name
    if name == "tensorflow":
        import tensorflow as tf

        dims = tf.stack([tf.cast(s, tf.int32) for s in shape])
        out = tf.reshape(native, dims) if op == "reshape" else tf.broadcast_to(native, dims)
    elif name == "jax":
        import jax.numpy as jnp

        fn = jnp.reshape if op == "reshape" else jnp.broadcast_to
        out = fn(native, tuple(shape))
    elif name == "torch":
        import torch

        fn = torch.reshape if op == "reshape" else torch.broadcast_to
        out = fn(native, tuple(shape))
    else:
        raise TypeError(f"from_flax: a symbolic shape {tuple(shape)} on {name}")
    return il.asarray(out)


def scalar(value: Any) -> Any:
    """A size as a 0-d array. A symbolic one stays symbolic: a ``SymInt`` under
    ``torch.export`` becomes a tensor through ``torch.scalar_tensor`` (``torch.tensor`` would
    fix it at the example's size); jax's symbolic dimensions and TensorFlow's size tensors
    are taken by ``asarray`` as they are."""
    if type(value).__name__ == "SymInt":
        import torch

        return il.asarray(torch.scalar_tensor(value, dtype=torch.int64))
    return il.asarray(value)


def operand(value: Any, dtype: Any) -> Any:
    """A size as an operand of integer arithmetic: an int as it is; a framework's symbolic
    size (exporting, compiling) as a 0-d array of ``dtype``."""
    return value if isinstance(value, int) else cast(scalar(value), dtype)


def reshape(x: Any, shape: Sequence[Any]) -> Any:
    return il.reshape(x, tuple(shape)) if _static(shape) else _native(x, shape, "reshape")


def broadcast_to(x: Any, shape: Sequence[Any]) -> Any:
    return il.broadcast_to(x, tuple(shape)) if _static(shape) else _native(x, shape, "broadcast_to")

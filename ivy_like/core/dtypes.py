"""Unified dtype objects shared by every backend.

``ivy_like.float32`` is one object whatever the backend; each backend keeps a table from these
objects to its own native dtypes. Comparison works against other unified dtypes, strings and
native dtypes of any framework (``ivy_like.float32 == torch.float32`` is True), so user code can
keep whichever spelling it already has.

The default floating dtype (:func:`set_default_dtype`, :func:`use_default_dtype`) lives here
too: the dtype creation functions, ``ivy_like.nn`` initialisers and ``ivy_like.random`` give
floats when no ``dtype=`` is passed.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any

from . import tracing as _tracing

__all__ = [
    "Dtype",
    "as_dtype",
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "all_dtypes",
    "default_dtype",
    "set_default_dtype",
    "use_default_dtype",
]

_builtin_bool = bool


class Dtype:
    """A framework-independent dtype: a name, a kind and a width in bits.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.float32
    ivy_like.float32
    >>> ivy_like.float32 == "float32", ivy_like.float32.bits, ivy_like.float32.kind
    (True, 32, 'f')
    """

    __slots__ = ("name", "kind", "bits")

    def __init__(self, name: str, kind: str, bits: int) -> None:
        self.name = name
        self.kind = kind  # 'b' bool, 'i' signed, 'u' unsigned, 'f' real float, 'c' complex
        self.bits = bits

    def __repr__(self) -> str:
        return f"ivy_like.{self.name}"

    def __str__(self) -> str:
        return self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __eq__(self, other: object) -> _builtin_bool:
        if other is self:
            return True
        if isinstance(other, Dtype):
            return other.name == self.name
        found = _lookup(other)
        return found is self

    def __ne__(self, other: object) -> _builtin_bool:
        return not self.__eq__(other)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (as_dtype, (self.name,))

    @property
    def size(self) -> int:
        """Bytes per element, as NumPy's ``itemsize`` and MLX's ``Dtype.size`` (MLX's own tree
        utilities, e.g. ``mlx.nn.average_gradients``, read it from an Array's dtype)."""
        return self.bits // 8

    @property
    def is_floating(self) -> _builtin_bool:
        return self.kind == "f"

    @property
    def is_complex(self) -> _builtin_bool:
        return self.kind == "c"

    @property
    def is_integer(self) -> _builtin_bool:
        return self.kind in "iu"


bool = Dtype("bool", "b", 8)  # noqa: A001 - the array API name of the dtype
int8 = Dtype("int8", "i", 8)
int16 = Dtype("int16", "i", 16)
int32 = Dtype("int32", "i", 32)
int64 = Dtype("int64", "i", 64)
uint8 = Dtype("uint8", "u", 8)
uint16 = Dtype("uint16", "u", 16)
uint32 = Dtype("uint32", "u", 32)
uint64 = Dtype("uint64", "u", 64)
float16 = Dtype("float16", "f", 16)
bfloat16 = Dtype("bfloat16", "f", 16)
float32 = Dtype("float32", "f", 32)
float64 = Dtype("float64", "f", 64)
complex64 = Dtype("complex64", "c", 64)
complex128 = Dtype("complex128", "c", 128)

all_dtypes: tuple[Dtype, ...] = (
    bool,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    float16,
    bfloat16,
    float32,
    float64,
    complex64,
    complex128,
)

_BY_NAME: dict[str, Dtype] = {d.name: d for d in all_dtypes}
_BY_NAME.update({"bool_": bool, "half": float16, "float": float32, "double": float64})
_PYTHON_TYPES: dict[type, Dtype] = {
    _builtin_bool: bool,
    int: int64,
    float: float64,
    complex: complex128,
}
# Native dtype objects seen before; filled lazily so no framework is imported here.
# type of a native dtype -> {native dtype: Dtype}: one table per framework's dtype class, so
# that torch.compile, which hashes every key of a dict it reads, never meets another
# framework's dtypes (TensorFlow's DType has a C hash Dynamo cannot trace).
_NATIVE_CACHE: dict[type, dict[Any, Dtype]] = {}


def _lookup(obj: Any) -> Dtype | None:
    if isinstance(obj, Dtype):
        return obj
    if isinstance(obj, str):
        return _BY_NAME.get(obj.rsplit(".", 1)[-1])
    if isinstance(obj, type) and obj in _PYTHON_TYPES:
        return _PYTHON_TYPES[obj]
    cache = _NATIVE_CACHE.get(type(obj))
    if cache is not None:
        try:
            hit = cache.get(obj)
        except TypeError:  # unhashable objects are never dtypes
            return None
        if hit is not None:
            return hit
    # numpy dtypes and scalar types, tf.DType and jax dtypes carry ``.name``; torch and mlx
    # dtypes print as "torch.float32" / "mlx.core.float32".
    name = getattr(obj, "name", None)
    if not isinstance(name, str):
        if isinstance(obj, type) and hasattr(obj, "dtype"):  # numpy scalar types, np.float32
            name = getattr(obj, "__name__", None)
        else:
            text = str(obj)
            name = text.rsplit(".", 1)[-1] if text.count(".") else None
    if not isinstance(name, str):
        return None
    found = _BY_NAME.get(name)
    if found is not None and not _tracing.is_tracing():  # see core/tracing.py
        try:
            _NATIVE_CACHE.setdefault(type(obj), {})[obj] = found
        except TypeError:  # unhashable: found by name each time
            pass
    return found


def as_dtype(obj: Any) -> Dtype:
    """Return the unified dtype for a unified dtype, a string, a Python type or a native dtype.

    Raises ``TypeError`` naming the value when it is not a dtype.

    Examples
    --------
    >>> import numpy as np
    >>> import ivy_like
    >>> ivy_like.as_dtype("float32"), ivy_like.as_dtype(np.int64), ivy_like.as_dtype(float)
    (ivy_like.float32, ivy_like.int64, ivy_like.float64)
    """
    found = _lookup(obj)
    if found is None:
        raise TypeError(
            f"dtype: expected an ivy_like dtype, a dtype name such as 'float32' or a native "
            f"dtype, got {obj!r} of type {type(obj).__name__}"
        )
    return found


# -- the default floating dtype -------------------------------------------------------------------
# This thread's or asyncio task's default floating dtype, as the active backend is kept. None
# stands for float32, every backend's own default: the backends then decide, as they always did.
_default_float: ContextVar[Dtype | None] = ContextVar("ivy_like_default_float", default=None)
# [True] from the first time any thread or task chose a default other than float32, for good (a
# context copied from that one, an asyncio task's, may hold it still). Until then nothing reads
# the setting and the generated creation functions take their cached path (codegen's
# _creation_source): programs that never use it pay one check of this flag.
DEFAULT_SET = [False]


class _ThreadChoice(threading.local):
    """The value this thread last gave ``_default_float``, read instead of it while a compiler
    traces (torch.compile's Dynamo cannot trace ``ContextVar.get``; it follows a thread-local
    attribute and guards on it, so a compiled function is traced again when it changes). The
    two differ only for asyncio tasks of one thread holding different defaults."""

    dtype: Dtype | None = None


_thread_choice = _ThreadChoice()


def _chosen() -> Dtype | None:
    if _tracing.is_tracing():
        return _thread_choice.dtype
    return _default_float.get()


def _floating(dtype: Any, who: str) -> Dtype:
    found = as_dtype(dtype)
    if found.kind != "f":
        raise TypeError(
            f"{who}: dtype must be a floating dtype (float16, bfloat16, float32 or float64), "
            f"got {found.name}"
        )
    return found


def _choose(dtype: Dtype) -> Dtype | None:
    """The value kept for ``dtype`` (None for float32); the first other one sets DEFAULT_SET."""
    if dtype is float32:
        return None
    DEFAULT_SET[0] = True
    return dtype


def default_dtype() -> Dtype:
    """The default floating dtype of this thread or asyncio task (float32 unless changed).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.default_dtype()
    ivy_like.float32
    """
    return _chosen() or float32


def set_default_dtype(dtype: Any) -> Dtype:
    """Make ``dtype`` the default floating dtype of this thread or asyncio task, and return the
    previous one (pass it back to undo).

    Creation functions without ``dtype=`` (``zeros``, ``ones``, ``empty``, ``eye``,
    ``linspace``, ``full`` and ``arange`` of floats, ``asarray`` of Python floats), the
    ``ivy_like.nn`` initialisers and ``ivy_like.random`` then give this dtype; complex results
    are complex128 for a float64 default, complex64 otherwise. Arrays keep their dtype. Only
    float16, bfloat16, float32 and float64 are accepted (``TypeError`` naming ``dtype``); a
    backend without the dtype raises its ``TypeError`` when it is asked to make one.

    Examples
    --------
    >>> import ivy_like
    >>> previous = ivy_like.set_default_dtype("float16")
    >>> ivy_like.zeros(2).dtype, previous
    (ivy_like.float16, ivy_like.float32)
    >>> _ = ivy_like.set_default_dtype(previous)
    """
    chosen = _choose(_floating(dtype, "set_default_dtype"))
    previous = _default_float.get()
    _default_float.set(chosen)
    _thread_choice.dtype = chosen
    return previous or float32


@contextlib.contextmanager
def use_default_dtype(dtype: Any) -> Iterator[Dtype]:
    """Within the block, ``dtype`` is the default floating dtype of this thread or asyncio
    task (as :func:`set_default_dtype`); the previous one is back after it.

    Examples
    --------
    >>> import ivy_like
    >>> with ivy_like.use_default_dtype("float16"):
    ...     ivy_like.ones(2).dtype
    ivy_like.float16
    >>> ivy_like.ones(2).dtype
    ivy_like.float32
    """
    dtype = _floating(dtype, "use_default_dtype")
    chosen = _choose(dtype)
    token = _default_float.set(chosen)
    _thread_choice.dtype = chosen
    try:
        yield dtype
    finally:
        _default_float.reset(token)
        _thread_choice.dtype = _default_float.get()


def chosen_default() -> Dtype | None:
    """The default floating dtype this context chose, or None for the backends' own (float32).

    Reads nothing until a default other than float32 was ever chosen."""
    return _chosen() if DEFAULT_SET[0] else None


def creation_default(
    kind_of: Callable[[tuple[Any, ...]], str | None], args: tuple[Any, ...]
) -> Dtype | None:
    """The dtype a creation function called without one takes in this context (generated code
    calls this only once :data:`DEFAULT_SET` is True): None where the context keeps float32 or
    where ``kind_of(args)`` says the result is neither floating (``"f"``) nor complex
    (``"c"``); the backend then decides, as without a default."""
    chosen = _chosen()
    if chosen is None:
        return None
    kind = kind_of(args)
    if kind == "f":
        return chosen
    if kind == "c":
        return complex128 if chosen is float64 else complex64
    return None

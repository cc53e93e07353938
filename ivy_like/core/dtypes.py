"""Unified dtype objects shared by every backend.

``ivy_like.float32`` is one object whatever the backend; each backend keeps a table from these
objects to its own native dtypes. Comparison works against other unified dtypes, strings and
native dtypes of any framework (``ivy_like.float32 == torch.float32`` is True), so user code can
keep whichever spelling it already has.
"""

from __future__ import annotations

from typing import Any

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
_NATIVE_CACHE: dict[Any, Dtype] = {}


def _lookup(obj: Any) -> Dtype | None:
    if isinstance(obj, Dtype):
        return obj
    if isinstance(obj, str):
        return _BY_NAME.get(obj.rsplit(".", 1)[-1])
    if isinstance(obj, type) and obj in _PYTHON_TYPES:
        return _PYTHON_TYPES[obj]
    try:
        hit = _NATIVE_CACHE.get(obj)
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
    if found is not None:
        _NATIVE_CACHE[obj] = found
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

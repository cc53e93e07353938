"""Errors decided once: the same type and message for the same mistake on every backend.

For one mistake the frameworks raise different types in their own words. Two arrays that do
not broadcast are a ValueError on NumPy and MLX, a TypeError on JAX, a RuntimeError on torch
and an InvalidArgumentError on TensorFlow; an axis out of range is an AxisError, ValueError,
IndexError or InvalidArgumentError; a float given to ``bitwise_and`` a TypeError,
NotImplementedError, InvalidArgumentError or RuntimeError. Portable code cannot catch that.

ivy_like decides, naming the argument:

* a dtype outside the op's dtypes in the array API standard (``bitwise_and``: integer or
  boolean; ``floor``: real numeric; ``sqrt``: floating-point...) is a ``TypeError``;
* shapes that do not fit are a ``ValueError``, and an axis out of range NumPy's
  ``AxisError`` (both a ValueError and an IndexError);
* None given for an array argument is dispatch's ``TypeError`` for a non-array;
* bad input at creation: data that holds something other than numbers (a str, bytes, None,
  an object) is a ``TypeError`` naming the element and its type, a Python int beyond int64 (or
  beyond the dtype asked for) an ``OverflowError``, ragged lists a ``ValueError``; a shape
  entry that is not an integer a ``TypeError``, a negative one a ``ValueError``, one beyond
  int64 or a shape whose byte count int64 cannot hold an ``OverflowError``, a shape of more
  bytes than the machine's memory a ``MemoryError``;
* indexing: an index of the wrong type (a float, a str, a float array) is an ``IndexError``
  (a slice bound that is not an integer a ``TypeError``), as in NumPy; a value that does not
  broadcast to the selection of ``x[key] = value`` a ``ValueError``.

This module holds the generic mechanism: :func:`translate` and the rules shared by many ops
(broadcasting, axes, the dtype categories of the standard, the creation data/shape/memory
rules, indexing), and the helpers (:func:`decided`, :func:`shape_of`, :func:`kind_of`,
:func:`int_error`...) that per-op rules are written with. An op's own rules (``einsum``'s
subscripts, ``pad``'s widths, ``top_k``'s ``k``, the linalg and fft input rules...) are declared
beside it in ``ivy_like/ops/<family>.py`` as its ``check`` (``@op(check=...)``), which runs
before any kernel on every path; only ops that declare one pay for it.

The generic rules run only after the backend has failed: every generated function calls the
backend inside ``try`` (free when nothing is raised, Python 3.11) and hands a failure to
:func:`translate`, which applies the op's rules (its ``dtype_category`` and ``shape_rule``) to
the arguments' dtypes and shapes. When a rule finds the fault, its error is raised from the
framework's; otherwise the framework's error goes on unchanged, and so do ivy_like's own
argument errors (argument types, arrays of two frameworks, ``out=``), which come first. The
calls that succeed pay nothing. So a framework that extends an op beyond the standard's dtypes
(NumPy adds booleans, compares complex numbers) still does; where one does not, the call is
this clear TypeError, never the framework's own.

Where a framework does not fail, the creation kernels (``backends/<fw>/creation.py``, through
``backends/_common/creation.py``) call the creation rules themselves: ``asarray`` when NumPy
read Python data as strings or objects (a dtype test on the result), and, before the call, the
kernels that make an array from a size on MLX (it allocates when the array is first read and
crashes the process there), JAX (XLA aborts when a byte count overflows int64) and MXNet (it
wraps sizes beyond int32 around): a product of the shape and a comparison.
"""

from __future__ import annotations

import math
import operator
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from . import dtypes as _dtypes
from .axes import normalize_axes
from .registry import OpSpec

Shape = tuple[Any, ...]
Rule = Callable[[OpSpec, dict[str, Any]], None]


def shape_of(value: Any) -> Shape | None:
    """The shape of an array argument as a tuple (None entries: unknown in a TF graph); ``()``
    for Python scalars; None where it cannot be read (an unknown rank)."""
    shape = getattr(value, "shape", None)
    if type(shape) is tuple:  # NumPy, JAX, MXNet: read as it is (checks call this every time)
        return shape
    if shape is None:
        return () if type(value) in _SCALARS else None
    try:
        return tuple(shape)
    except (TypeError, ValueError):  # a TensorShape of unknown rank
        return None


_SCALARS = (bool, int, float, complex)


def broadcast_shape(name: str, named: list[tuple[str, Shape]]) -> Shape:
    """The shape ``named`` (argument name, shape) broadcast to, for the function ``name``; a
    dimension of unknown size (None) takes the other's, or stays unknown against 1."""
    out: list[Any] = []
    for _, shape in named:
        pad = len(shape) - len(out)
        if pad > 0:
            out = [1] * pad + out
        for i, size in enumerate(shape, len(out) - len(shape)):
            if size == 1:
                continue  # whatever out[i] is, unknown (None) included
            if out[i] == 1 or out[i] is None:
                out[i] = size
            elif size != 1 and size is not None and size != out[i]:
                described = " and ".join(f"{n} of shape {s}" for n, s in named)
                raise ValueError(f"{name}: shapes do not broadcast together: {described}")
    return tuple(out)


def broadcasting(spec: OpSpec, args: dict[str, Any]) -> None:
    named = [(n, shape_of(args[n])) for n in spec.arrays if args.get(n) is not None]
    known = [(n, s) for n, s in named if s is not None]
    broadcast_shape(spec.name, known)


def matmul_shapes(spec: OpSpec, args: dict[str, Any]) -> None:
    s1, s2 = shape_of(args["x1"]), shape_of(args["x2"])
    if s1 is None or s2 is None:
        return
    for name, shape in (("x1", s1), ("x2", s2)):
        if not shape:
            raise ValueError(f"matmul: {name} must be at least 1-D, got a 0-d array")
    k2 = s2[0] if len(s2) == 1 else s2[-2]
    if s1[-1] != k2 and None not in (s1[-1], k2):
        where = "first" if len(s2) == 1 else "second-to-last"
        raise ValueError(
            f"matmul: x1's last dimension ({s1[-1]}) must equal x2's {where} ({k2}); "
            f"x1 has shape {s1}, x2 {s2}"
        )
    broadcast_shape(spec.name, [("x1's batch", s1[:-2]), ("x2's batch", s2[:-2])])


def reshape_size(spec: OpSpec, args: dict[str, Any]) -> None:
    # The entries first, as for every op taking a shape (a float, a size beyond int64...).
    error = shape_error(spec.name, args["shape"], minus_one=True, sizes=False)
    if error is not None:
        raise error
    shape, new = shape_of(args["x"]), _sizes(args["shape"], scalar=False)
    if shape is None or None in shape or new is None:
        return
    size, known = math.prod(shape), math.prod(d for d in new if d != -1)
    if (size != known) if -1 not in new else (known == 0 or size % known):
        raise ValueError(f"reshape: x of shape {shape} ({size} elements) cannot take shape {new}")


def joined_shapes(spec: OpSpec, args: dict[str, Any]) -> None:
    """concat: equal ranks, equal sizes off the axis; stack: equal shapes."""
    arrays = args["arrays"]
    read = [shape_of(a) for a in arrays] if isinstance(arrays, (list, tuple)) else []
    shapes = [s for s in read if s is not None]
    if not shapes or len(shapes) != len(read):
        return  # nothing to join, or a shape that cannot be read
    axis, first = args["axis"], shapes[0]
    if spec.name == "stack":
        normalize_axes(axis, len(first) + 1, "stack")
        for i, s in enumerate(shapes):
            if s != first and None not in s + first:
                raise ValueError(
                    f"stack: every array must have the same shape; arrays[0] has shape "
                    f"{first}, arrays[{i}] {s}"
                )
        return
    if axis is None:
        return
    for i, s in enumerate(shapes):
        if len(s) != len(first):
            raise ValueError(
                f"concat: every array must have the same number of dimensions; arrays[0] has "
                f"shape {first}, arrays[{i}] {s}"
            )
    if not first:
        raise ValueError("concat: cannot join 0-d arrays along an axis (use axis=None)")
    (ax,) = normalize_axes(axis, len(first), "concat")
    for i, s in enumerate(shapes):
        off = [(a, b) for d, (a, b) in enumerate(zip(first, s)) if d != ax]
        if any(a != b and None not in (a, b) for a, b in off):
            raise ValueError(
                f"concat: arrays must have the same shape off axis {axis}; arrays[0] has "
                f"shape {first}, arrays[{i}] {s}"
            )


def permute_axes(spec: OpSpec, args: dict[str, Any]) -> None:
    shape, axes = shape_of(args["x"]), args["axes"]
    if shape is None or not isinstance(axes, (list, tuple)):
        return
    axes = tuple(axes)
    if len(axes) != len(shape):
        raise ValueError(f"permute_dims: axes {axes} must name each of x's {len(shape)} axes once")
    normalize_axes(axes, len(shape), "permute_dims")  # in range and distinct


def tensordot_axes(spec: OpSpec, args: dict[str, Any]) -> None:
    s1, s2, axes = shape_of(args["x1"]), shape_of(args["x2"]), args["axes"]
    if s1 is None or s2 is None:
        return
    if isinstance(axes, int):
        if not 0 <= axes <= min(len(s1), len(s2)):
            raise ValueError(f"tensordot: axes={axes} must be in [0, {min(len(s1), len(s2))}]")
        a1, a2 = list(range(len(s1) - axes, len(s1))), list(range(axes))
    else:
        a1, a2 = ([a] if isinstance(a, int) else list(a) for a in axes)
        if len(a1) != len(a2):
            raise ValueError(f"tensordot: axes {axes} must name as many axes of x1 as of x2")
        a1, a2 = (
            list(normalize_axes(a1, len(s1), "tensordot")),
            list(normalize_axes(a2, len(s2), "tensordot")),
        )
    for i, j in zip(a1, a2):
        if s1[i] != s2[j] and None not in (s1[i], s2[j]):
            raise ValueError(
                f"tensordot: contracted sizes differ: x1 axis {i} has {s1[i]}, x2 axis {j} "
                f"has {s2[j]} (shapes {s1} and {s2})"
            )


def axis_in_range(spec: OpSpec, args: dict[str, Any]) -> None:
    shape = shape_of(args["x"])
    if shape is not None and args.get("axis") is not None:
        normalize_axes(args["axis"], len(shape), spec.name)


# -- bad input at creation and indexing ---------------------------------------------------------
# These rules also serve the backends' creation kernels, which call them after the framework
# refused the input or produced an array that holds no numbers (a NumPy object or string array,
# a tf.string tensor), and before the few framework calls that would crash the process. Their
# errors are marked as decided: ``translate`` raises them as they are, whatever their type.
_INT64_MAX = 2**63 - 1
_NUMBERS = "numbers (bool, int, float, complex) or arrays of them"


def decided(error: Exception) -> Exception:
    error._ivy_like_decided = True  # type: ignore[attr-defined]
    return error


def is_decided(error: BaseException) -> bool:
    """Whether ``error`` is one of these rules' own (raised as it is, never translated)."""
    return getattr(error, "_ivy_like_decided", False)


class _Refused(Exception):
    """Carries a decided error out of the recursive scan of nested data."""

    def __init__(self, error: Exception) -> None:
        self.error = error


# The integers a Python int may be: (lowest, highest, what the messages say), or None.
_Ints = tuple[int, int, str]


def _int_range(dtype: Any, int_bits: int) -> _Ints | None:
    """The range Python ints must fit: a given integer dtype's, none for another dtype (the
    value converts), else that of the signed ``int_bits`` integer Python ints become."""
    if dtype is None:
        top = 2 ** (int_bits - 1)
        why = "the widest integer dtype a Python int becomes here; pass a float dtype= instead"
        return (-top, top - 1, f"int{int_bits} ({why})")
    found = _dtypes._lookup(dtype)
    if found is None or found.kind not in "iu":
        return None
    if found.kind == "u":
        return (0, 2**found.bits - 1, f"{found.name}, the dtype asked for")
    top = 2 ** (found.bits - 1)
    return (-top, top - 1, f"{found.name}, the dtype asked for")


def _scan(value: Any, path: str, where: str, ints: _Ints | None) -> tuple[int, ...] | None:
    """The shape of nested Python data (None where an array-like's cannot be read); raises
    ``_Refused`` at the first element that is no number, the first int outside ``ints``, or
    the first ragged level."""
    kind = type(value)
    if kind is float or kind is bool or kind is complex:
        return ()
    if isinstance(value, (str, bytes, bytearray)) or value is None:
        raise _Refused(_element_error(value, path, where))
    if isinstance(value, int):
        if ints is not None and not ints[0] <= value <= ints[1]:
            raise _Refused(
                OverflowError(
                    f"{where}: {path} is the Python int {value}, outside the range of {ints[2]}"
                )
            )
        return ()
    if isinstance(value, (float, complex)):
        return ()
    if isinstance(value, (list, tuple, range)):
        shapes = [_scan(item, f"{path}[{i}]", where, ints) for i, item in enumerate(value)]
        known = [(i, s) for i, s in enumerate(shapes) if s is not None]
        for i, s in known[1:]:
            if s != known[0][1]:
                first, other = known[0]
                raise _Refused(
                    ValueError(
                        f"{where}: {path} is ragged: {path}[{first}] has shape {other}, "
                        f"{path}[{i}] has shape {s}"
                    )
                )
        if len(known) != len(shapes):
            return None  # an element whose shape cannot be read
        return (len(value), *(known[0][1] if known else ()))
    dtype = getattr(value, "dtype", None)
    if dtype is not None and getattr(value, "shape", None) is not None:  # an array or scalar
        if getattr(dtype, "kind", None) == "O" and hasattr(value, "tolist"):
            return _scan(value.tolist(), path, where, ints)  # a NumPy object array
        if _dtypes._lookup(dtype) is None:
            raise _Refused(TypeError(f"{where}: {path} has dtype {dtype}; arrays hold {_NUMBERS}"))
        try:
            return tuple(int(d) for d in value.shape)
        except (TypeError, ValueError):
            return None
    if hasattr(value, "__array__") or hasattr(value, "__dlpack__"):
        return None  # converts itself: its framework decides
    raise _Refused(_element_error(value, path, where))


def _element_error(value: Any, path: str, where: str) -> TypeError:
    shown = "" if len(repr(value)) > 40 else f" ({value!r})"
    article = "an" if type(value).__name__[0] in "aeiou" else "a"
    what = "None" if value is None else f"{article} {type(value).__name__}{shown}"
    return TypeError(f"{where}: {path} is {what}; arrays hold {_NUMBERS}")


def data_error(
    value: Any,
    *,
    where: str = "asarray",
    name: str = "obj",
    dtype: Any = None,
    int_bits: int = 64,
) -> Exception | None:
    """The decided error for Python data that no backend can hold, or None where it holds
    numbers only (then the framework's own error, if any, stands).

    An element that is not a number (a str, bytes, None, any other object) is a ``TypeError``
    naming the element and its type; a Python int outside the range of ``dtype`` (an integer
    dtype asked for) or, without a dtype, of the signed ``int_bits`` integer Python ints become
    (int64; int32 on JAX without 64-bit mode) an ``OverflowError``; nested sequences of
    different lengths a ``ValueError``. NumPy arrays of strings or objects count as their
    elements.
    """
    try:
        _scan(value, name, where, _int_range(dtype, int_bits))
    except _Refused as refused:
        return decided(refused.error)
    except Exception:  # noqa: BLE001 - an element that cannot be read (too deep, a property
        return None  # that raises): the framework's error stands
    return None


def memory_limit() -> int:
    """The most bytes one array may take on this machine: its physical memory, or the
    process's address-space limit (``RLIMIT_AS``) when that is lower; ``2**48`` (what a 64-bit
    process can address) where neither can be read. Read once."""
    if not _MEMORY:
        limit = 2**48
        try:
            limit = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        except (AttributeError, ValueError, OSError):
            pass
        try:
            import resource  # Unix only, and read once

            soft = resource.getrlimit(resource.RLIMIT_AS)[0]
            if 0 < soft != resource.RLIM_INFINITY:
                limit = min(limit, soft)
        except (ImportError, OSError, ValueError):
            pass
        _MEMORY.append(limit)
    return _MEMORY[0]


_MEMORY: list[int] = []


def _bytes(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.3g} {unit}" if unit != "bytes" else f"{n} bytes"
        n /= 1024  # type: ignore[assignment]
    return f"{n} bytes"  # pragma: no cover


def _sizes(shape: Any, scalar: bool) -> tuple[Any, ...] | None:
    """The entries of a shape argument (ints where they are integers, else as given), or None
    where ``shape`` is neither an integer nor a sequence (``scalar``: not an integer)."""
    if type(shape) is not bool and hasattr(shape, "__index__"):
        try:
            return (operator.index(shape),)
        except TypeError:
            pass  # a 1-D integer array: a sequence of sizes
    if scalar or shape is None or isinstance(shape, (str, bytes)):
        return None
    try:
        entries = tuple(shape)
    except TypeError:
        return None
    return tuple(_index(d) for d in entries)


def _index(d: Any) -> Any:
    """``d`` as a Python int where it is an integer (a NumPy integer, a 0-d integer array)."""
    if type(d) is int or type(d) is bool or not hasattr(d, "__index__"):
        return d
    try:
        return operator.index(d)
    except TypeError:  # a 0-d float array
        return d


def shape_error(
    where: str,
    shape: Any,
    itemsize: int = 1,
    *,
    name: str = "shape",
    scalar: bool = False,
    minus_one: bool = False,
    sizes: bool = True,
    shown: str | None = None,
) -> Exception | None:
    """The decided error for a malformed or impossible shape argument, or None.

    In order: an entry that is not an integer (a float, a bool, a str...) is a ``TypeError``
    naming ``name``; a negative entry a ``ValueError`` (``minus_one``: reshape's one ``-1`` is
    allowed); an entry above ``2**63 - 1`` an ``OverflowError``. With ``sizes``: an array whose
    byte count (``itemsize`` bytes an element, counting the non-zero entries, as the
    frameworks multiply them) does not fit in int64 is an ``OverflowError``, one that needs
    more than :func:`memory_limit` a ``MemoryError``. ``scalar``: the argument is one size
    (``num``, ``n_rows``). ``shown``: how the messages name what is measured.
    """
    entries = _sizes(shape, scalar)
    wanted = "an int" if scalar else "an int or a sequence of ints"
    if entries is None:
        got = "None" if shape is None else f"a {type(shape).__name__}"
        got += "" if shape is None or len(repr(shape)) > 40 else f" ({shape!r})"
        return decided(TypeError(f"{where}: {name} must be {wanted}, got {got}"))
    for d in entries:
        if type(d) is not int:
            return decided(
                TypeError(
                    f"{where}: {name} must be {wanted}, got {shape!r} (an entry of type "
                    f"{type(d).__name__})"
                )
            )
    if minus_one:
        if entries.count(-1) > 1 or any(d < -1 for d in entries):
            return decided(
                ValueError(
                    f"{where}: {name} may hold one -1 and no other negative size, got {shape!r}"
                )
            )
    elif any(d < 0 for d in entries):
        what = "be negative" if scalar else "hold a negative size"
        return decided(ValueError(f"{where}: {name} must not {what}, got {shape!r}"))
    for d in entries:
        if d > _INT64_MAX:
            return decided(
                OverflowError(f"{where}: {name} {shape!r} holds a size beyond int64 ({d})")
            )
    if not sizes:
        return None
    shown = shown or f"{name} {shape!r}"
    if math.prod(d for d in entries if d) * itemsize > _INT64_MAX:
        return decided(
            OverflowError(
                f"{where}: {shown} of {itemsize}-byte elements needs more bytes than int64 "
                f"can count"
            )
        )
    needed = math.prod(entries) * itemsize
    if needed > memory_limit():
        return decided(
            MemoryError(
                f"{where}: {shown} of {itemsize}-byte elements needs {_bytes(needed)}, more "
                f"than this machine's memory ({_bytes(memory_limit())})"
            )
        )
    return None


_NO_VALUE = object()
_PYTHON_ITEMSIZE = {bool: 1, int: 8, float: 4, complex: 8}  # ivy_like's default dtypes


def itemsize_of(dtype: Any, value: Any = _NO_VALUE) -> int:
    """Bytes an element of ``dtype`` (unified, native or a name) takes; without a dtype, those
    of ``value``'s default dtype (a fill value), else of float32."""
    found = _dtypes._lookup(dtype) if dtype is not None else None
    if found is None and value is not _NO_VALUE:
        found = _dtypes._lookup(getattr(value, "dtype", None))
        if found is None:
            return _PYTHON_ITEMSIZE.get(type(value), 1)
    return max(found.bits // 8, 1) if found is not None else 4


def creation_shape(spec: OpSpec, args: dict[str, Any]) -> None:
    """``zeros``, ``ones``, ``empty``, ``full``: the shape (see :func:`shape_error`), then
    ``full``'s fill value (a number, see :func:`data_error`)."""
    fill = args.get("fill_value", _NO_VALUE)
    error = shape_error(spec.name, args["shape"], itemsize_of(args.get("dtype"), fill))
    if error is None and fill is not _NO_VALUE:
        error = data_error(fill, where=spec.name, name="fill_value", dtype=args.get("dtype"))
    if error is not None:
        raise error


def like_shape(spec: OpSpec, args: dict[str, Any]) -> None:
    """``zeros_like`` and friends: ``x``'s shape must fit (``x`` may be a broadcast view that
    holds one element), then ``full_like``'s fill value must be a number."""
    x, dtype = args["x"], args.get("dtype")
    shape = shape_of(x)
    if shape is not None and None not in shape:
        itemsize = itemsize_of(dtype if dtype is not None else getattr(x, "dtype", None))
        error = shape_error(spec.name, shape, itemsize, name="x's shape")
        if error is not None:
            raise error
    if "fill_value" in args:
        error = data_error(args["fill_value"], where=spec.name, name="fill_value", dtype=dtype)
        if error is not None:
            raise error


def linspace_num(spec: OpSpec, args: dict[str, Any]) -> None:
    """``linspace``: ``num`` is a size, and the result must fit."""
    error = shape_error(
        spec.name, args["num"], itemsize_of(args.get("dtype")), name="num", scalar=True
    )
    if error is not None:
        raise error


# -- indexing (Array.__getitem__ / __setitem__; decided after the backend failed) ---------------
_VALID_INDICES = (
    "valid indices are integers, slices (:), ellipsis (...), None and integer or boolean arrays"
)


def index_error(where: str, key: Any) -> Exception | None:
    """The decided error for an index of the wrong type, or None: a slice bound that is not an
    integer or None is a ``TypeError`` (NumPy's); any other index that is not an integer,
    slice, ``...``, None, integer or boolean array (or list of them) an ``IndexError``, floats
    included."""
    for k in key if type(key) is tuple else (key,):
        if type(k) is slice:
            for bound in (k.start, k.stop, k.step):
                if bound is not None and not hasattr(bound, "__index__"):
                    return decided(
                        TypeError(
                            f"{where}: slice bounds must be integers or None, got {k!r} (a "
                            f"{type(bound).__name__})"
                        )
                    )
            continue
        if k is None or k is Ellipsis or type(k) in (int, bool):
            continue
        dtype = getattr(k, "dtype", None)
        if dtype is not None and getattr(k, "shape", None) is not None:  # an array or scalar
            found = _dtypes._lookup(dtype)
            if found is None or found.kind not in "biu":
                return decided(
                    IndexError(
                        f"{where}: index arrays must be integer or boolean, got {dtype}; "
                        f"{_VALID_INDICES}"
                    )
                )
            continue
        if isinstance(k, (list, tuple)):
            bad = _non_integer(k)
            if bad is not None:
                return decided(
                    IndexError(
                        f"{where}: an index list must hold integers or booleans, got a "
                        f"{type(bad).__name__} ({bad!r}); {_VALID_INDICES}"
                    )
                )
            continue
        if hasattr(k, "__index__"):
            continue
        return decided(
            IndexError(f"{where}: index {k!r} is a {type(k).__name__}; {_VALID_INDICES}")
        )
    return None


def _non_integer(items: Any) -> Any:
    for item in items:
        if isinstance(item, (list, tuple)):
            bad = _non_integer(item)
            if bad is not None:
                return bad
        elif type(item) is bool or hasattr(item, "__index__"):
            continue
        else:
            return item
    return None


def setitem_error(backend: Any, data: Any, key: Any, value: Any) -> Exception | None:
    """The decided error for ``x[key] = value`` that the backend refused, or None: the index
    (:func:`index_error`), then a value that is not numbers (:func:`data_error`), then a value
    that does not broadcast to the selection (a ``ValueError`` naming both shapes; as in
    NumPy, the value may have extra leading dimensions of size 1)."""
    error = index_error("__setitem__", key)
    if error is None and type(value) not in _SCALARS and not hasattr(value, "shape"):
        error = data_error(value, where="__setitem__", name="value", dtype=backend.dtype(data))
    if error is not None:
        return error
    try:
        target = tuple(int(d) for d in backend.shape(backend.getitem(data, key)))
        given = shape_of(value) if hasattr(value, "shape") else _scan(value, "value", "", None)
    except Exception:  # noqa: BLE001 - the selection or the value cannot be read: theirs stands
        return None
    if given is None or None in given:
        return None
    trimmed = list(given)
    while len(trimmed) > len(target) and trimmed[0] == 1:
        trimmed.pop(0)
    fits = len(trimmed) <= len(target) and all(
        v == 1 or v == t for v, t in zip(reversed(trimmed), reversed(target))
    )
    if fits:
        return None
    return decided(
        ValueError(
            f"__setitem__: value of shape {tuple(given)} does not broadcast to the selection "
            f"x[{_key_text(key)}] of shape {target}"
        )
    )


def _key_text(key: Any) -> str:
    items = key if type(key) is tuple else (key,)
    parts = []
    for k in items:
        if type(k) is slice:
            step = "" if k.step is None else f":{k.step}"
            start = "" if k.start is None else k.start
            stop = "" if k.stop is None else k.stop
            parts.append(f"{start}:{stop}{step}")
        elif k is Ellipsis:
            parts.append("...")
        elif shape_of(k):
            parts.append(f"<array of shape {shape_of(k)}>")
        else:
            parts.append(repr(k))
    return ", ".join(parts)


# -- dtypes: the categories of the array API standard (2023.12), as dtype kinds ----------------
# A declaration names its category (``@op(dtype_category=FLOAT)``); each is the dtype kinds
# it admits (b boolean, i/u integers, f real floating, c complex floating).
NUMERIC, REAL, FLOAT, REAL_FLOAT = "iufc", "iuf", "fc", "f"
INTEGER, INTEGER_OR_BOOLEAN, BOOLEAN = "iu", "biu", "b"
_CATEGORY_NAMES = {  # with their articles, for the messages
    NUMERIC: "a numeric",
    REAL: "a real numeric",
    FLOAT: "a floating-point",
    REAL_FLOAT: "a real floating-point",
    INTEGER: "an integer",
    INTEGER_OR_BOOLEAN: "an integer or boolean",
    BOOLEAN: "a boolean",
}


_SCALAR_KINDS = {bool: "b", int: "i", float: "f", complex: "c"}


def _dtype_error(spec: OpSpec, args: dict[str, Any]) -> TypeError | None:
    """The TypeError for the first array argument whose dtype is outside the op's category."""
    kinds = spec.dtype_category
    if kinds is None:
        return None
    for name in spec.arrays:
        value = args.get(name)
        kind = _SCALAR_KINDS.get(type(value))
        dtype = None
        if kind is None:
            dtype = _dtypes._lookup(getattr(value, "dtype", None))
            if dtype is None:
                continue  # not an array this rule can read: None, a list, a str
            kind = dtype.kind
        if kind not in kinds:
            got = dtype if dtype is not None else f"a Python {type(value).__name__}"
            return TypeError(
                f"{spec.name}: {name} must have {_CATEGORY_NAMES[kinds]} dtype (the array API "
                f"standard's), got {got}"
            )
    return None


def _none_error(spec: OpSpec, args: dict[str, Any]) -> TypeError | None:
    """None given for an array parameter that has no None default is dispatch's TypeError
    (in its words): dispatch lets None through for optional arrays (``sorter=None``), so the
    framework met it (TensorFlow's ``add(x, None)`` was an AttributeError)."""
    for p in spec.params:
        if p.name in spec.arrays and p.default is not None and args.get(p.name, 0) is None:
            return TypeError(
                f"{spec.name}: argument {p.name!r} must be an array (native, ivy_like.Array or "
                f"NumPy), a Python scalar or a Container, got NoneType"
            )
    return None


def decides(spec: OpSpec) -> bool:
    """Whether ``spec`` has rules (its generated functions then hand failures to translate):
    a dtype category, a shape rule, or an array parameter that None must not be given for."""
    return (
        spec.shape_rule is not None
        or spec.dtype_category is not None
        or any(p.name in spec.arrays and p.default is not None for p in spec.params)
    )


def _raised_by_dispatch(error: BaseException) -> bool:
    """Whether ``error`` is one of ``ivy_like.core.dispatch``'s own (raised in its frames and not
    marked there as the backend's)."""
    if getattr(error, "_ivy_like_backend", False):
        return False
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and tb.tb_frame.f_globals.get("__name__") == "ivy_like.core.dispatch"


def translate(spec: OpSpec, values: tuple[Any, ...], error: Exception) -> None:
    """Raise ivy_like's error from ``error`` when a rule of ``spec`` refuses ``values`` (the
    arguments in the declaration's order, ``self`` first for a method); return otherwise."""
    if _raised_by_dispatch(error) or is_decided(error):
        return  # ivy_like's own argument errors (types, mixed frameworks, out=) stand
    args = dict(zip(spec.param_names, values))
    found = _none_error(spec, args)
    if found is None and spec.dtype_category is not None:
        found = _dtype_error(spec, args)
    if found is not None:
        raise found from error
    check = spec.shape_rule
    if check is None:
        return
    try:
        check(spec, args)
    except ValueError as decided:  # AxisError included
        raise decided from error
    except Exception as decided:  # noqa: BLE001 - the rule could not read an argument: the
        if is_decided(decided):  # framework's error stands; unless it is the rule's own
            raise decided from error
        return


# -- helpers for the argument checks ops declare (``@op(check=...)``, beside each op) ----------
# Each returns the decided error for one argument, or None when it is fine; a check raises the
# first error it finds. Every error names the op and the argument.
# native dtype -> kind letter, filled by kind_of as dtypes are met (a check on a hot path may
# read it first: a miss falls back to kind_of)
KIND_OF_DTYPE: dict[Any, str] = {}


def kind_of(value: Any) -> str:
    """The kind letter (``"b"``, ``"i"``, ``"u"``, ``"f"``, ``"c"``) of an array's dtype, native
    or unified; ``""`` for a value without a dtype ivy_like knows. A dict lookup after the first
    call for a dtype, for checks that run on every call."""
    try:
        return KIND_OF_DTYPE[value.dtype]
    except (AttributeError, KeyError, TypeError):  # a new dtype, no dtype, an unhashable one
        return _new_kind(value)


def _new_kind(value: Any) -> str:
    dtype = getattr(value, "dtype", None)
    found = _dtypes._lookup(dtype)
    kind = found.kind if found is not None else ""
    try:
        KIND_OF_DTYPE[dtype] = kind
    except TypeError:  # unhashable: not a dtype
        pass
    return kind


def int_error(where: str, name: str, value: Any, minimum: int = 0) -> Exception | None:
    """``value`` must be an int (or an integer scalar with ``__index__``; not a bool) of at
    least ``minimum``."""
    if type(value) is bool or not hasattr(value, "__index__"):
        return decided(TypeError(f"{where}: {name} must be an int, got {type(value).__name__}"))
    if operator.index(value) < minimum:
        return decided(ValueError(f"{where}: {name} must be at least {minimum}, got {value}"))
    return None


def optional_count(where: str, name: str, value: Any) -> int | None:
    """``value`` as a count: None, or an int (or an integer scalar; not a bool) that is not
    negative; a TypeError or ValueError naming ``name`` otherwise."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not hasattr(value, "__index__"):
        raise TypeError(f"{where}: {name} must be an int or None, got {type(value).__name__}")
    n = operator.index(value)
    if n < 0:
        raise ValueError(f"{where}: {name} must be non-negative, got {n}")
    return n


def integer_array_error(where: str, name: str, value: Any) -> Exception | None:
    """``value`` must be an integer array (or a Python int); bool and float arrays are not."""
    if type(value) is int:
        return None
    dtype = _dtypes._lookup(getattr(value, "dtype", None))
    if dtype is not None and dtype.kind in "iu":
        return None
    got = dtype.name if dtype is not None else type(value).__name__
    return decided(TypeError(f"{where}: {name} must be an integer array, got {got}"))


def kind_error(where: str, name: str, value: Any, kinds: str) -> Exception | None:
    """``value``'s dtype must be of ``kinds`` (a category of the standard, as for the ops'
    ``dtype_category``); Python scalars and values without a dtype are not checked here."""
    dtype = _dtypes._lookup(getattr(value, "dtype", None))
    if dtype is None or dtype.kind in kinds:
        return None
    return decided(
        TypeError(f"{where}: {name} must have {_CATEGORY_NAMES[kinds]} dtype, got {dtype}")
    )


def leading_axis_error(where: str, name: str, shape: Shape | None, what: str) -> Exception | None:
    if shape == ():
        return decided(
            ValueError(
                f"{where}: {name} must have at least one dimension ({what}), got a 0-d array"
            )
        )
    return None

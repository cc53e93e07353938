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
  ``AxisError`` (both a ValueError and an IndexError).

The rules run only after the backend has failed: every generated function calls the backend
inside ``try`` (free when nothing is raised, Python 3.11) and hands a failure to
:func:`translate`, which applies the op's rules to the arguments' dtypes and shapes. When a
rule finds the fault, its error is raised from the framework's (rules reuse the backends'
shared checks, so a backend's own message for the same fault stays the same); otherwise the
framework's error goes on unchanged, and so do ivy_like's own argument errors (argument
types, arrays of two frameworks, ``out=``), which come first. The calls that succeed pay
nothing. So a framework that
extends an op beyond the standard's dtypes (NumPy adds booleans, compares complex numbers)
still does; where one does not, the call is this clear TypeError, never the framework's own.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from . import dtypes as _dtypes
from .axes import _axes, _check_repeats_array
from .registry import OpSpec

Shape = tuple[Any, ...]
Rule = Callable[[OpSpec, dict[str, Any]], None]


def _shape(value: Any) -> Shape | None:
    """The shape of an array argument as a tuple (None entries: unknown in a TF graph); ``()``
    for Python scalars; None where it cannot be read (an unknown rank)."""
    if type(value) in _SCALARS:
        return ()
    shape = getattr(value, "shape", None)
    try:
        return None if shape is None else tuple(shape)
    except (TypeError, ValueError):  # a TensorShape of unknown rank
        return None


_SCALARS = (bool, int, float, complex)


def _broadcast_shape(spec: OpSpec, named: list[tuple[str, Shape]]) -> Shape:
    out: list[Any] = []
    for _, shape in named:
        pad = len(shape) - len(out)
        if pad > 0:
            out = [1] * pad + out
        for i, size in enumerate(shape, len(out) - len(shape)):
            if out[i] == 1 or out[i] is None:
                out[i] = size
            elif size != 1 and size is not None and size != out[i]:
                described = " and ".join(f"{n} of shape {s}" for n, s in named)
                raise ValueError(f"{spec.name}: shapes do not broadcast together: {described}")
    return tuple(out)


def broadcasting(spec: OpSpec, args: dict[str, Any]) -> None:
    named = [(n, _shape(args[n])) for n in spec.arrays if args.get(n) is not None]
    known = [(n, s) for n, s in named if s is not None]
    _broadcast_shape(spec, known)


def matmul_shapes(spec: OpSpec, args: dict[str, Any]) -> None:
    s1, s2 = _shape(args["x1"]), _shape(args["x2"])
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
    _broadcast_shape(spec, [("x1's batch", s1[:-2]), ("x2's batch", s2[:-2])])


def reshape_size(spec: OpSpec, args: dict[str, Any]) -> None:
    shape, new = _shape(args["x"]), args["shape"]
    new = (new,) if isinstance(new, int) else tuple(new)
    if shape is None or None in shape or not all(isinstance(d, int) for d in new):
        return
    if sum(d == -1 for d in new) > 1 or any(d < -1 for d in new):
        raise ValueError(f"reshape: shape may hold one -1 and no other negative size, got {new}")
    size, known = math.prod(shape), math.prod(d for d in new if d != -1)
    if (size != known) if -1 not in new else (known == 0 or size % known):
        raise ValueError(f"reshape: x of shape {shape} ({size} elements) cannot take shape {new}")


def joined_shapes(spec: OpSpec, args: dict[str, Any]) -> None:
    """concat: equal ranks, equal sizes off the axis; stack: equal shapes."""
    arrays = args["arrays"]
    read = [_shape(a) for a in arrays] if isinstance(arrays, (list, tuple)) else []
    shapes = [s for s in read if s is not None]
    if not shapes or len(shapes) != len(read):
        return  # nothing to join, or a shape that cannot be read
    axis, first = args["axis"], shapes[0]
    if spec.name == "stack":
        _axes(axis, len(first) + 1, "stack")
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
    (ax,) = _axes(axis, len(first), "concat")
    for i, s in enumerate(shapes):
        off = [(a, b) for d, (a, b) in enumerate(zip(first, s)) if d != ax]
        if any(a != b and None not in (a, b) for a, b in off):
            raise ValueError(
                f"concat: arrays must have the same shape off axis {axis}; arrays[0] has "
                f"shape {first}, arrays[{i}] {s}"
            )


def permute_axes(spec: OpSpec, args: dict[str, Any]) -> None:
    shape, axes = _shape(args["x"]), args["axes"]
    if shape is None or not isinstance(axes, (list, tuple)):
        return
    axes = tuple(axes)
    if len(axes) != len(shape):
        raise ValueError(f"permute_dims: axes {axes} must name each of x's {len(shape)} axes once")
    _axes(axes, len(shape), "permute_dims")  # in range and distinct


def tensordot_axes(spec: OpSpec, args: dict[str, Any]) -> None:
    s1, s2, axes = _shape(args["x1"]), _shape(args["x2"]), args["axes"]
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
        a1, a2 = list(_axes(a1, len(s1), "tensordot")), list(_axes(a2, len(s2), "tensordot"))
    for i, j in zip(a1, a2):
        if s1[i] != s2[j] and None not in (s1[i], s2[j]):
            raise ValueError(
                f"tensordot: contracted sizes differ: x1 axis {i} has {s1[i]}, x2 axis {j} "
                f"has {s2[j]} (shapes {s1} and {s2})"
            )


def repeat_counts(spec: OpSpec, args: dict[str, Any]) -> None:
    shape, repeats, axis = _shape(args["x"]), args["repeats"], args["axis"]
    counts = _shape(repeats) if not isinstance(repeats, int) else ()
    if shape is None or counts is None or None in shape:
        return
    if axis is None:
        length = math.prod(shape)
    else:
        (ax,) = _axes(axis, len(shape), "repeat")
        length = shape[ax]
    if None not in counts:  # the backends' own check: its message, not another one
        _check_repeats_array(counts, length, axis, "i")  # dtypes are the backend's to check


def axis_in_range(spec: OpSpec, args: dict[str, Any]) -> None:
    shape = _shape(args["x"])
    if shape is not None and args.get("axis") is not None:
        _axes(args["axis"], len(shape), spec.name)


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


def decides(spec: OpSpec) -> bool:
    """Whether ``spec`` has rules (its generated functions then hand failures to translate)."""
    return spec.shape_rule is not None or spec.dtype_category is not None


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
    if _raised_by_dispatch(error):
        return  # ivy_like's own argument errors (types, mixed frameworks, out=) stand
    args = dict(zip(spec.param_names, values))
    if spec.dtype_category is not None:
        decided = _dtype_error(spec, args)
        if decided is not None:
            raise decided from error
    check = spec.shape_rule
    if check is None:
        return
    try:
        check(spec, args)
    except ValueError as decided:  # AxisError included
        raise decided from error
    except Exception:  # noqa: BLE001 - the rule could not read an argument: the framework's
        return  # error stands

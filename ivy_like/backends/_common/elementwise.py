"""Elementwise kernels shared by several backends: factories that return the kernel itself.

``clip_for`` is ``clip`` on every backend: the rules of :func:`clip_values` over the
backend's own ``maximum``/``minimum``/``astype`` kernels. ``copysign_for`` composes
``copysign`` from the sign bit where the framework has none (mlx, tensorflow).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ...core.dtypes import as_dtype


def clip_for(
    maximum: Callable[[Any, Any], Any],
    minimum: Callable[[Any, Any], Any],
    astype: Callable[..., Any],
) -> Callable[..., Any]:
    """``clip`` from the backend's ``maximum``, ``minimum`` and ``astype`` kernels."""

    def clip(x: Any, /, min: Any = None, max: Any = None) -> Any:  # noqa: A002
        return clip_values(x, min, max, maximum, minimum, astype)

    return clip


def copysign_for(
    xp: Any, pair: Callable[[Any, Any], tuple[Any, Any]], signbit: Callable[[Any], Any]
) -> Callable[[Any, Any], Any]:
    """``copysign`` for a namespace with ``abs`` and ``where`` (mlx.core, tensorflow):
    ``pair(x1, x2)`` gives both operands in their promoted dtype, ``signbit`` is the backend's
    kernel (the sign bit itself, so -0.0 and negative NaNs count as negative)."""

    def copysign(x1: Any, x2: Any, /) -> Any:
        a, b = pair(x1, x2)
        magnitude = xp.abs(a)
        return xp.where(signbit(b), -magnitude, magnitude)

    return copysign


# -- computations the backends share (plain Python, no framework) ----------------------------
def clip_bound(name: str, bound: Any, x_dtype: Any, bound_dtype: Any = None) -> Any:
    """Check one ``clip`` bound against ``x``'s unified dtype; clamp Python ints into range.

    ``bound_dtype`` is the unified dtype of an array bound (None for a Python scalar).
    """
    if x_dtype.kind not in "iuf":
        raise TypeError(f"clip: x must have an integer or real floating-point dtype, got {x_dtype}")
    if bound_dtype is None:
        if isinstance(bound, bool) or not isinstance(bound, (int, float)):
            raise TypeError(
                f"clip: {name} must be an int, a float, an array or None, got "
                f"{type(bound).__name__}"
            )
        kind = "f" if isinstance(bound, float) else "i"
    else:
        kind = bound_dtype.kind
        if kind not in "iuf":
            raise TypeError(f"clip: {name} must have a real numeric dtype, got {bound_dtype}")
    if x_dtype.kind in "iu" and kind == "f":
        raise TypeError(
            f"clip: {name} is floating-point but x is {x_dtype}; convert one of them first"
        )
    if bound_dtype is None and x_dtype.kind in "iu":
        info = np.iinfo(x_dtype.name)
        return int(info.min) if bound < info.min else int(info.max) if bound > info.max else bound
    return bound


def clip_values(x: Any, lo: Any, hi: Any, maximum: Any, minimum: Any, astype: Any) -> Any:
    """``clip`` from a backend's own ``maximum``, ``minimum`` and ``astype`` (native arrays).

    The backends' maximum/minimum propagate NaN and broadcast, so the rules documented on
    :func:`clip` hold wherever those two do.
    """
    x_dtype = as_dtype(x.dtype)
    out = x
    for name, bound, fn in (("min", lo, maximum), ("max", hi, minimum)):
        if bound is None:
            continue
        bound_dtype = as_dtype(bound.dtype) if hasattr(bound, "dtype") else None
        out = fn(out, clip_bound(name, bound, x_dtype, bound_dtype))
    if out is x:
        return astype(x, x.dtype, copy=True)  # both bounds None: a copy, never an alias
    # An array bound of a wider dtype promoted the result: the standard keeps x's dtype.
    return out if out.dtype == x.dtype else astype(out, x.dtype)


# Bits of +inf for each float width; the magnitudes above it are NaN.
def int_pow(x1: Any, x2: Any, power: Any, where: Any, maximum: Any, cast: Any) -> Any:
    """``x1 ** x2`` for integer arrays of one dtype where ``x2`` may be negative: the exact
    value truncated toward zero (``pow``'s rule), from a backend's ``power``, ``where``,
    ``maximum`` and ``cast(array, like)``. No values are read: it works under tracing."""
    base = power(x1, maximum(x2, 0))
    unit = where(x1 == -1, where(x2 % 2 == 0, 1, -1), where(x1 == 1, 1, 0))
    return where(x2 < 0, cast(unit, base), base)


INF_BITS = {16: 0x7C00, 32: 0x7F800000, 64: 0x7FF0000000000000}


def nextafter_bits(ia: Any, ib: Any, width: int, where: Any, bitwise_and: Any) -> Any:
    """``nextafter`` on the signed-integer views ``ia``, ``ib`` of two float arrays.

    Integer operations only (jax, tensorflow and mlx use it): XLA and TensorFlow flush
    subnormal floats to zero in float comparisons and arithmetic on the CPU, so steps to,
    from and between subnormals are taken on the bits. Floats are sign-magnitude: one integer step moves one ulp (+1 away from zero,
    -1 towards it; from the largest float to inf, from inf to the largest float). Equal
    arguments (0.0 and -0.0 too) give ``ib``; NaN bits go through here and are the caller's.
    """
    magnitude = (1 << (width - 1)) - 1
    mag_a, mag_b = bitwise_and(ia, magnitude), bitwise_and(ib, magnitude)
    key_a = where(ia < 0, -mag_a, ia)  # order-preserving: -0.0 and 0.0 are both 0
    key_b = where(ib < 0, -mag_b, ib)
    up = key_b > key_a
    out = where(up != (ia < 0), ia + 1, ia - 1)
    smallest = where(up, ia * 0 + 1, ia * 0 - magnitude)  # +-(smallest subnormal), from zero
    out = where(mag_a == 0, smallest, out)
    return where(key_a == key_b, ib, out)


def has_nan_bits(ia: Any, ib: Any, width: int, bitwise_and: Any) -> Any:
    """Where either integer view holds a NaN (magnitude bits above those of inf)."""
    magnitude = (1 << (width - 1)) - 1
    inf = INF_BITS[width]
    return (bitwise_and(ia, magnitude) > inf) | (bitwise_and(ib, magnitude) > inf)


# The Array API functions that NumPy, JAX, MLX and torch spell as the standard does and compute
# as it says (NaN-propagating, Python's sign rules, weak Python scalars): a backend takes them
# straight from its namespace with ``globals().update(aliases(namespace, SAME_NAME_UNARY))``.
SAME_NAME_UNARY = "logical_not negative positive abs exp log sqrt square sin cos tanh"
# What NumPy-like namespaces (NumPy, jax.numpy, mlx.core) also hold under the standard's
# meaning; ceil keeps integers as they are, round goes half to even (complex parts separately).
NUMPY_LIKE = (
    "acos acosh asin asinh atan atan2 atanh ceil conj cosh floor imag isfinite isinf isnan "
    "log10 log1p log2 logaddexp logical_xor real round sinh tan trunc"
)
# The standard's name -> the NumPy spelling, where they differ.
NUMPY_SPELLING = {
    "acos": "arccos",
    "acosh": "arccosh",
    "asin": "arcsin",
    "asinh": "arcsinh",
    "atan": "arctan",
    "atan2": "arctan2",
    "atanh": "arctanh",
    "bitwise_invert": "invert",
    "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift",
}


# -- complex special cases the frameworks' kernels miss (only complex inputs pay for them) --------
def expm1_parts(xp: Any, a: Any, b: Any) -> tuple[Any, Any]:
    """The real and imaginary parts of ``expm1(a + ib)`` with the standard's special cases.

    ``exp(a + ib) - 1 = (expm1(a) cos b - 2 sin(b/2)**2) + i exp(a) sin b``: no cancellation for
    small ``a`` and ``b``, unlike ``exp(z) - 1``. Then the cases the product rule misses:
    ``b == 0`` keeps the imaginary part 0 (``inf * 0`` would be NaN), ``-0 + 0j`` gives
    ``+0 + 0j``, ``a = -inf`` gives a real part of exactly -1 (and ``-1 + 0j`` beside an
    infinite or NaN ``b``), and ``a = +inf`` beside an infinite or NaN ``b`` ``inf + NaN j``. ``xp``: a NumPy-like namespace.
    """
    half = xp.sin(b / 2)
    re = xp.expm1(a) * xp.cos(b) - 2 * half * half + 0.0  # + 0.0: -0 becomes +0
    im = xp.exp(a) * xp.sin(b)
    unbounded = ~xp.isfinite(b)
    re = xp.where(a == -np.inf, -1.0, xp.where((a == np.inf) & unbounded, np.inf, re))
    im = xp.where(b == 0, b, xp.where((a == -np.inf) & unbounded, 0.0, im))
    return re, im


def aliases(namespace: Any, names: str, spelling: dict[str, str] | None = None) -> dict[str, Any]:
    """``{name: the namespace's function}`` for the space-separated standard ``names``, each read
    under its ``spelling`` (the standard's name where it has none). The functions themselves are
    the kernels: no wrapper, no extra Python frame."""
    spelling = spelling or {}
    return {name: getattr(namespace, spelling.get(name, name)) for name in names.split()}

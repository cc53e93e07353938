"""Elementwise ops (array API names and signatures, plus a keyword-only ``out=``)."""

from __future__ import annotations

import sys
from typing import Any

from ..core.decided_errors import (
    BOOLEAN,
    FLOAT,
    INTEGER,
    INTEGER_OR_BOOLEAN,
    NUMERIC,
    REAL,
    REAL_FLOAT,
    broadcasting,
)
from ..core.registry import op

# Keyword arguments of @op shared by many declarations (Any: they fill keywords of several types).
_unary: dict[str, Any] = {"arrays": ("x",)}
_binary: dict[str, Any] = {"arrays": ("x1", "x2")}


@op(**_binary, dtype_category=NUMERIC, shape_rule=broadcasting)
def add(x1: Any, x2: Any, /, *, out: Any = None):
    """``x1 + x2`` elementwise, with broadcasting.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.add(ivy_like.array([1., 2.]), ivy_like.array([3., 4.]))
    ivy_like.array([4., 6.])
    """


@op(**_binary, dtype_category=NUMERIC, shape_rule=broadcasting)
def subtract(x1: Any, x2: Any, /, *, out: Any = None):
    """``x1 - x2`` elementwise.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.subtract(ivy_like.array([5., 7.]), 2.)
    ivy_like.array([3., 5.])
    """


@op(**_binary, dtype_category=NUMERIC, shape_rule=broadcasting)
def multiply(x1: Any, x2: Any, /, *, out: Any = None):
    """``x1 * x2`` elementwise.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.multiply(ivy_like.array([1., 2.]), 3.)
    ivy_like.array([3., 6.])
    """


@op(**_binary, dtype_category=NUMERIC, shape_rule=broadcasting)
def divide(x1: Any, x2: Any, /, *, out: Any = None):
    """``x1 / x2`` elementwise (true division: integer inputs give floats).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.divide(ivy_like.array([1., 3.]), 2.)
    ivy_like.array([0.5, 1.5])
    """


@op(**_binary, dtype_category=REAL, shape_rule=broadcasting)
def floor_divide(x1: Any, x2: Any, /, *, out: Any = None):
    """``x1 // x2`` elementwise, rounding towards minus infinity.

    For floats it is the floor of the rounded quotient ``x1 / x2``, as the standard words it,
    on every backend: so ``inf // 2`` is ``inf`` and ``1 // -inf`` is ``-0`` (the standard's
    special cases), and ``1 // 0.1`` is ``10.0`` where Python's ``//``, which divides exactly,
    gives ``9.0``. Integers divide exactly; integer division by zero gives 0.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.floor_divide(ivy_like.array([7, -7]), 2)
    ivy_like.array([ 3, -4])
    """


@op(**_binary, dtype_category=REAL, shape_rule=broadcasting)
def remainder(x1: Any, x2: Any, /, *, out: Any = None):
    """``x1 % x2`` elementwise, with the sign of ``x2`` (Python's rule).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.remainder(ivy_like.array([7, -7]), 3)
    ivy_like.array([1, 2])
    """


@op(**_binary, dtype_category=NUMERIC, shape_rule=broadcasting)
def pow(x1: Any, x2: Any, /, *, out: Any = None):  # noqa: A001 - array API name
    """``x1 ** x2`` elementwise.

    Integers to negative integer powers (left unspecified by the standard; NumPy, TensorFlow
    and JAX/torch for a Python exponent raised, MLX gave 0 for every base, MXNet INT_MIN for
    0): the exact value truncated toward zero on every backend, so ``1``, ``-1`` or ``0``, and
    ``0 ** -n`` is 0 as integer division by zero is.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.pow(ivy_like.array([1., 2., 3.]), 2.)
    ivy_like.array([1., 4., 9.])
    >>> ivy_like.pow(ivy_like.array([2, 1, -1, 0]), -3)
    ivy_like.array([ 0,  1, -1,  0])
    """


@op(**_binary, dtype_category=REAL, shape_rule=broadcasting)
def maximum(x1: Any, x2: Any, /, *, out: Any = None):
    """The larger of ``x1`` and ``x2`` elementwise (NaN if either is NaN).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.maximum(ivy_like.array([1., 5.]), ivy_like.array([3., 2.]))
    ivy_like.array([3., 5.])
    """


@op(**_binary, dtype_category=REAL, shape_rule=broadcasting)
def minimum(x1: Any, x2: Any, /, *, out: Any = None):
    """The smaller of ``x1`` and ``x2`` elementwise (NaN if either is NaN).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.minimum(ivy_like.array([1., 5.]), ivy_like.array([3., 2.]))
    ivy_like.array([1., 2.])
    """


@op(**_binary, shape_rule=broadcasting)
def equal(x1: Any, x2: Any, /, *, out: Any = None):
    """``x1 == x2`` elementwise, as a bool array.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.equal(ivy_like.array([1, 2]), 2)
    ivy_like.array([False,  True])
    """


@op(**_binary, shape_rule=broadcasting)
def not_equal(x1: Any, x2: Any, /, *, out: Any = None):
    """``x1 != x2`` elementwise.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.not_equal(ivy_like.array([1, 2]), 2)
    ivy_like.array([ True, False])
    """


@op(**_binary, dtype_category=REAL, shape_rule=broadcasting)
def less(x1: Any, x2: Any, /, *, out: Any = None):
    """``x1 < x2`` elementwise.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.less(ivy_like.array([1, 2]), 2)
    ivy_like.array([ True, False])
    """


@op(**_binary, dtype_category=REAL, shape_rule=broadcasting)
def less_equal(x1: Any, x2: Any, /, *, out: Any = None):
    """``x1 <= x2`` elementwise.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.less_equal(ivy_like.array([1, 3]), 2)
    ivy_like.array([ True, False])
    """


@op(**_binary, dtype_category=REAL, shape_rule=broadcasting)
def greater(x1: Any, x2: Any, /, *, out: Any = None):
    """``x1 > x2`` elementwise.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.greater(ivy_like.array([1, 3]), 2)
    ivy_like.array([False,  True])
    """


@op(**_binary, dtype_category=REAL, shape_rule=broadcasting)
def greater_equal(x1: Any, x2: Any, /, *, out: Any = None):
    """``x1 >= x2`` elementwise.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.greater_equal(ivy_like.array([1, 2]), 2)
    ivy_like.array([False,  True])
    """


@op(**_binary, dtype_category=BOOLEAN, shape_rule=broadcasting)
def logical_and(x1: Any, x2: Any, /, *, out: Any = None):
    """Logical AND of two bool arrays.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.logical_and(ivy_like.array([True, True]), ivy_like.array([True, False]))
    ivy_like.array([ True, False])
    """


@op(**_binary, dtype_category=BOOLEAN, shape_rule=broadcasting)
def logical_or(x1: Any, x2: Any, /, *, out: Any = None):
    """Logical OR of two bool arrays.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.logical_or(ivy_like.array([False, True]), ivy_like.array([False, False]))
    ivy_like.array([False,  True])
    """


@op(**_unary, dtype_category=BOOLEAN)
def logical_not(x: Any, /, *, out: Any = None):
    """Logical NOT of a bool array.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.logical_not(ivy_like.array([True, False]))
    ivy_like.array([False,  True])
    """


@op(**_unary, dtype_category=NUMERIC)
def negative(x: Any, /, *, out: Any = None):
    """``-x`` elementwise.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.negative(ivy_like.array([1., -2.]))
    ivy_like.array([-1.,  2.])
    """


@op(**_unary, dtype_category=NUMERIC)
def positive(x: Any, /, *, out: Any = None):
    """``+x`` elementwise (the values unchanged).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.positive(ivy_like.array([1., -2.]))
    ivy_like.array([ 1., -2.])
    """


@op(**_unary, dtype_category=NUMERIC)
def abs(x: Any, /, *, out: Any = None):  # noqa: A001 - array API name
    """Absolute value elementwise.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.abs(ivy_like.array([-1.5, 2.]))
    ivy_like.array([1.5, 2. ])
    """


@op(**_unary, dtype_category=FLOAT)
def exp(x: Any, /, *, out: Any = None):
    """``e ** x`` elementwise.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.exp(ivy_like.array([0.]))
    ivy_like.array([1.])
    """


@op(**_unary, dtype_category=FLOAT)
def log(x: Any, /, *, out: Any = None):
    """Natural logarithm elementwise (``-inf`` at 0, NaN below 0).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.log(ivy_like.array([1.]))
    ivy_like.array([0.])
    """


@op(**_unary, dtype_category=FLOAT)
def sqrt(x: Any, /, *, out: Any = None):
    """Square root elementwise (NaN below 0).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.sqrt(ivy_like.array([4., 9.]))
    ivy_like.array([2., 3.])
    """


@op(**_unary, dtype_category=NUMERIC)
def square(x: Any, /, *, out: Any = None):
    """``x * x`` elementwise.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.square(ivy_like.array([2., -3.]))
    ivy_like.array([4., 9.])
    """


@op(**_unary, dtype_category=FLOAT)
def sin(x: Any, /, *, out: Any = None):
    """Sine elementwise (radians).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.sin(ivy_like.array([0.]))
    ivy_like.array([0.])
    """


@op(**_unary, dtype_category=FLOAT)
def cos(x: Any, /, *, out: Any = None):
    """Cosine elementwise (radians).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.cos(ivy_like.array([0.]))
    ivy_like.array([1.])
    """


@op(**_unary, dtype_category=FLOAT)
def tanh(x: Any, /, *, out: Any = None):
    """Hyperbolic tangent elementwise.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.tanh(ivy_like.array([0.]))
    ivy_like.array([0.])
    """


@op(arrays=("condition", "x1", "x2"), shape_rule=broadcasting)
def where(condition: Any, x1: Any, x2: Any, /, *, out: Any = None):
    """``x1`` where ``condition`` is true, else ``x2`` (broadcast together).

    Examples
    --------
    >>> import ivy_like
    >>> c = ivy_like.array([True, False])
    >>> ivy_like.where(c, ivy_like.array([1., 2.]), ivy_like.array([9., 9.]))
    ivy_like.array([1., 9.])
    """


# -- the rest of the array API 2023.12 elementwise functions ------------------------------------
# Rules decided once for every backend (each backend's elementwise.py makes them hold):
# * integer ``x // 0`` and ``x % 0`` are 0 (NumPy's result; torch and TensorFlow raise, jax and
#   MLX give other values); ``INT_MIN // -1`` wraps to ``INT_MIN`` (MLX would crash);
# * ``round`` rounds halves to even, complex parts separately;
# * shifts by at least the bit width, or by a negative count, give 0 (``>>`` of a negative
#   number gives -1);
# * integers to negative integer powers truncate toward zero (see ``pow``);
# * type promotion follows the standard's table; a result the jax backend cannot represent
#   without 64-bit mode (``int32`` with ``uint32`` gives ``int64``) is a ``TypeError``.


@op(**_unary, dtype_category=FLOAT)
def acos(x: Any, /, *, out: Any = None):
    """Inverse cosine elementwise (NaN outside ``[-1, 1]`` for real inputs).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.acos(ivy_like.array([1.]))
    ivy_like.array([0.])
    """


@op(**_unary, dtype_category=FLOAT)
def acosh(x: Any, /, *, out: Any = None):
    """Inverse hyperbolic cosine elementwise (NaN below 1 for real inputs).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.acosh(ivy_like.array([1.]))
    ivy_like.array([0.])
    """


@op(**_unary, dtype_category=FLOAT)
def asin(x: Any, /, *, out: Any = None):
    """Inverse sine elementwise (NaN outside ``[-1, 1]`` for real inputs).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.asin(ivy_like.array([0.]))
    ivy_like.array([0.])
    """


@op(**_unary, dtype_category=FLOAT)
def asinh(x: Any, /, *, out: Any = None):
    """Inverse hyperbolic sine elementwise.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.asinh(ivy_like.array([0.]))
    ivy_like.array([0.])
    """


@op(**_unary, dtype_category=FLOAT)
def atan(x: Any, /, *, out: Any = None):
    """Inverse tangent elementwise, in ``[-pi/2, pi/2]`` for real inputs.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.atan(ivy_like.array([0.]))
    ivy_like.array([0.])
    """


@op(**_binary, dtype_category=REAL_FLOAT, shape_rule=broadcasting)
def atan2(x1: Any, x2: Any, /, *, out: Any = None):
    """Angle of the point ``(x2, x1)`` elementwise, in ``[-pi, pi]`` (signed zeros respected).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.atan2(ivy_like.array([0., 1.]), ivy_like.array([1., 0.]))
    ivy_like.array([0.       , 1.5707964])
    """


@op(**_unary, dtype_category=FLOAT)
def atanh(x: Any, /, *, out: Any = None):
    """Inverse hyperbolic tangent elementwise (``±inf`` at ``±1``, NaN beyond).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.atanh(ivy_like.array([0.]))
    ivy_like.array([0.])
    """


@op(**_binary, dtype_category=INTEGER_OR_BOOLEAN, shape_rule=broadcasting)
def bitwise_and(x1: Any, x2: Any, /, *, out: Any = None):
    """Bitwise AND of integer or bool arrays (for bool it is the logical AND); ``x1 & x2``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.bitwise_and(ivy_like.array([12, 10]), 6)
    ivy_like.array([4, 2])
    """


@op(**_binary, dtype_category=INTEGER, shape_rule=broadcasting)
def bitwise_left_shift(x1: Any, x2: Any, /, *, out: Any = None):
    """``x1 << x2`` for integer arrays.

    Shifting by the bit width of the result dtype or more gives 0 on every backend (NumPy's
    rule), and so does a negative count, which the standard leaves undefined (NumPy, JAX and
    torch give 0; TensorFlow and MXNet returned ``x1``, MLX garbage).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.bitwise_left_shift(ivy_like.array([1, 3]), 2)
    ivy_like.array([ 4, 12])
    """


@op(**_unary, dtype_category=INTEGER_OR_BOOLEAN)
def bitwise_invert(x: Any, /, *, out: Any = None):
    """Bitwise NOT of an integer or bool array (for bool it is the logical NOT); ``~x``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.bitwise_invert(ivy_like.array([0, 5]))
    ivy_like.array([-1, -6])
    >>> ivy_like.bitwise_invert(ivy_like.array([True, False]))
    ivy_like.array([False,  True])
    """


@op(**_binary, dtype_category=INTEGER_OR_BOOLEAN, shape_rule=broadcasting)
def bitwise_or(x1: Any, x2: Any, /, *, out: Any = None):
    """Bitwise OR of integer or bool arrays (for bool it is the logical OR); ``x1 | x2``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.bitwise_or(ivy_like.array([12, 10]), 1)
    ivy_like.array([13, 11])
    """


@op(**_binary, dtype_category=INTEGER, shape_rule=broadcasting)
def bitwise_right_shift(x1: Any, x2: Any, /, *, out: Any = None):
    """``x1 >> x2`` for integer arrays (arithmetic: the sign is kept).

    Shifting by the bit width of the result dtype or more, or by a negative count (undefined
    by the standard), gives 0, or -1 for negative ``x1``, on every backend (NumPy's rule).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.bitwise_right_shift(ivy_like.array([16, -16]), 2)
    ivy_like.array([ 4, -4])
    """


@op(**_binary, dtype_category=INTEGER_OR_BOOLEAN, shape_rule=broadcasting)
def bitwise_xor(x1: Any, x2: Any, /, *, out: Any = None):
    """Bitwise XOR of integer or bool arrays (for bool it is the logical XOR); ``x1 ^ x2``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.bitwise_xor(ivy_like.array([12, 10]), 6)
    ivy_like.array([10, 12])
    """


@op(**_unary, dtype_category=REAL)
def ceil(x: Any, /, *, out: Any = None):
    """Smallest integer value not below ``x``, elementwise; integer inputs are returned as is.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.ceil(ivy_like.array([-1.5, 1.2]))
    ivy_like.array([-1.,  2.])
    """


@op(arrays=("x", "min", "max"), dtype_category=REAL, shape_rule=broadcasting)
def clip(
    x: Any,
    /,
    min: Any = None,  # noqa: A002 - array API name
    max: Any = None,  # noqa: A002 - array API name
    *,
    out: Any = None,
):
    """``x`` clamped to ``[min, max]`` elementwise; the result has ``x``'s dtype.

    Decided for every backend: a bound that is ``None`` is not applied (both ``None``: a copy
    of ``x``); the result is ``minimum(maximum(x, min), max)`` broadcast over all three, so a
    NaN in ``x`` or in a bound gives NaN and where ``min > max`` the result is ``max``
    (NumPy's rule). For integer ``x``, Python int bounds outside the dtype's range are clamped
    to it. ``x`` must be integer or real floating-point; a floating-point bound for an integer
    ``x`` (the standard leaves mixed kinds unspecified) raises ``TypeError``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.clip(ivy_like.array([-2., 0.5, 3.]), 0., 1.)
    ivy_like.array([0. , 0.5, 1. ])
    >>> ivy_like.clip(ivy_like.array([1, 5, 9]), max=6)
    ivy_like.array([1, 5, 6])
    """


@op(**_unary)
def conj(x: Any, /, *, out: Any = None):
    """Complex conjugate elementwise; real inputs are returned unchanged.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.conj(ivy_like.array([1 + 2j]))
    ivy_like.array([1.-2.j])
    """


@op(**_binary, dtype_category=REAL_FLOAT, shape_rule=broadcasting)
def copysign(x1: Any, x2: Any, /, *, out: Any = None):
    """``|x1|`` with the sign bit of ``x2`` elementwise (``-0.0`` and NaN signs count).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.copysign(ivy_like.array([1., -2.]), ivy_like.array([-0., 3.]))
    ivy_like.array([-1.,  2.])
    """


@op(**_unary, dtype_category=FLOAT)
def cosh(x: Any, /, *, out: Any = None):
    """Hyperbolic cosine elementwise.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.cosh(ivy_like.array([0.]))
    ivy_like.array([1.])
    """


@op(**_unary, dtype_category=FLOAT)
def expm1(x: Any, /, *, out: Any = None):
    """``exp(x) - 1`` elementwise, accurate for small ``x``.

    Complex ``x`` follows the standard's special cases on every backend with complex dtypes
    (``-inf + 2j`` gives exactly ``-1 + 0j``, ``inf + 0j`` gives ``inf + 0j``, ``-0 + 0j``
    gives ``+0 + 0j``), which the frameworks' kernels miss; only complex inputs pay for it.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.expm1(ivy_like.array([0.]))
    ivy_like.array([0.])
    """


@op(**_unary, dtype_category=REAL)
def floor(x: Any, /, *, out: Any = None):
    """Largest integer value not above ``x``, elementwise; integer inputs are returned as is.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.floor(ivy_like.array([-1.5, 1.2]))
    ivy_like.array([-2.,  1.])
    """


@op(**_binary, dtype_category=REAL_FLOAT, shape_rule=broadcasting)
def hypot(x1: Any, x2: Any, /, *, out: Any = None):
    """``sqrt(x1**2 + x2**2)`` elementwise without undue overflow (``inf`` if either is inf).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.hypot(ivy_like.array([3.]), ivy_like.array([4.]))
    ivy_like.array([5.])
    """


@op(**_unary)
def imag(x: Any, /, *, out: Any = None):
    """Imaginary part elementwise (``float32`` for ``complex64``); zeros for real inputs.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.imag(ivy_like.array([1 + 2j]))
    ivy_like.array([2.])
    """


@op(**_unary, dtype_category=NUMERIC)
def isfinite(x: Any, /, *, out: Any = None):
    """True where ``x`` is neither infinite nor NaN (always for integers and bool).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.isfinite(ivy_like.array([1., ivy_like.inf, ivy_like.nan]))
    ivy_like.array([ True, False, False])
    """


@op(**_unary, dtype_category=NUMERIC)
def isinf(x: Any, /, *, out: Any = None):
    """True where ``x`` (or a complex part) is ``±inf``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.isinf(ivy_like.array([1., -ivy_like.inf, ivy_like.nan]))
    ivy_like.array([False,  True, False])
    """


@op(**_unary, dtype_category=NUMERIC)
def isnan(x: Any, /, *, out: Any = None):
    """True where ``x`` (or a complex part) is NaN.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.isnan(ivy_like.array([1., ivy_like.nan]))
    ivy_like.array([False,  True])
    """


@op(**_unary, dtype_category=FLOAT)
def log1p(x: Any, /, *, out: Any = None):
    """``log(1 + x)`` elementwise, accurate for small ``x``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.log1p(ivy_like.array([0.]))
    ivy_like.array([0.])
    """


@op(**_unary, dtype_category=FLOAT)
def log2(x: Any, /, *, out: Any = None):
    """Base-2 logarithm elementwise.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.log2(ivy_like.array([1., 8.]))
    ivy_like.array([0., 3.])
    """


@op(**_unary, dtype_category=FLOAT)
def log10(x: Any, /, *, out: Any = None):
    """Base-10 logarithm elementwise.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.log10(ivy_like.array([1., 10.]))
    ivy_like.array([0., 1.])
    """


@op(**_unary, dtype_category=FLOAT)
def reciprocal(x: Any, /, *, out: Any = None):
    """``1 / x`` elementwise (array API 2024.12).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.reciprocal(ivy_like.array([2., 4., -0.5]))
    ivy_like.array([ 0.5 ,  0.25, -2.  ])
    """
    # The composite, for backends without a kernel: true division by the array, a weak
    # Python scalar on the left so the result keeps x's floating dtype.
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    return il.divide(1.0, x)


@op(**_binary, dtype_category=REAL_FLOAT, shape_rule=broadcasting)
def logaddexp(x1: Any, x2: Any, /, *, out: Any = None):
    """``log(exp(x1) + exp(x2))`` elementwise without overflow.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.logaddexp(ivy_like.array([0.]), ivy_like.array([0.]))
    ivy_like.array([0.6931472])
    """


@op(**_binary, dtype_category=BOOLEAN, shape_rule=broadcasting)
def logical_xor(x1: Any, x2: Any, /, *, out: Any = None):
    """Logical XOR of two bool arrays.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.logical_xor(ivy_like.array([True, True]), ivy_like.array([True, False]))
    ivy_like.array([False,  True])
    """


@op(**_binary, dtype_category=REAL_FLOAT, shape_rule=broadcasting)
def nextafter(x1: Any, x2: Any, /, *, out: Any = None):
    """The next representable value after ``x1`` towards ``x2``, elementwise (real floats).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nextafter(ivy_like.array([1.]), 2.) > 1.
    ivy_like.array([ True])
    """


@op(**_unary)
def real(x: Any, /, *, out: Any = None):
    """Real part elementwise (``float32`` for ``complex64``); real inputs unchanged.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.real(ivy_like.array([1 + 2j]))
    ivy_like.array([1.])
    """


@op(**_unary, dtype_category=NUMERIC)
def round(x: Any, /, *, out: Any = None):  # noqa: A001 - array API name
    """Round to the nearest integer value elementwise; halves go to the even neighbour.

    Decided for every backend: ``0.5 -> 0``, ``1.5 -> 2``, ``2.5 -> 2``, ``-0.5 -> -0``
    (round half to even, as the standard says); complex numbers round their real and
    imaginary parts separately; integer inputs are returned as is.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.round(ivy_like.array([0.5, 1.5, 2.5, -2.7]))
    ivy_like.array([ 0.,  2.,  2., -3.])
    """


@op(**_unary, dtype_category=NUMERIC)
def sign(x: Any, /, *, out: Any = None):
    """-1, 0 or 1 by the sign of ``x``; NaN for NaN; ``x / |x|`` for complex (0 at 0).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.sign(ivy_like.array([-3., 0., 2.]))
    ivy_like.array([-1.,  0.,  1.])
    >>> ivy_like.sign(ivy_like.array([3 + 4j]))
    ivy_like.array([0.6+0.8j])
    """


@op(**_unary, dtype_category=REAL_FLOAT)
def signbit(x: Any, /, *, out: Any = None):
    """True where the sign bit of ``x`` is set (also for ``-0.0`` and negative NaN).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.signbit(ivy_like.array([-1., -0., 0., 2.]))
    ivy_like.array([ True,  True, False, False])
    """


@op(**_unary, dtype_category=FLOAT)
def sinh(x: Any, /, *, out: Any = None):
    """Hyperbolic sine elementwise.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.sinh(ivy_like.array([0.]))
    ivy_like.array([0.])
    """


@op(**_unary, dtype_category=FLOAT)
def tan(x: Any, /, *, out: Any = None):
    """Tangent elementwise (radians).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.tan(ivy_like.array([0.]))
    ivy_like.array([0.])
    """


@op(**_unary, dtype_category=REAL)
def trunc(x: Any, /, *, out: Any = None):
    """``x`` rounded towards zero elementwise; integer inputs are returned as is.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.trunc(ivy_like.array([-1.7, 1.7]))
    ivy_like.array([-1.,  1.])
    """

"""Array API set functions: isin, unique_all, unique_counts, unique_inverse, unique_values.

Decided once for every backend: the unique values are sorted ascending (as NumPy's
``np.unique``), every NaN is distinct from every other NaN (each gets its own entry, count 1,
at the end), ``indices`` point at the first occurrence in the flattened ``x`` (so of 0.0 and
-0.0 the one that comes first is kept), ``inverse_indices`` has the shape of ``x``, and index
and count arrays have the backend's default integer dtype.

``isin`` compares values as ``equal`` does (NaN is in nothing, -0.0 is 0.0) and exactly across
dtypes, so it gives one answer everywhere whatever each framework's promotion; its composite
below is the reference the backends' kernels (``np.isin``, ``jnp.isin``, ``torch.isin`` for two
arrays of one dtype) must match.

The result types are the standard's named tuples, defined here (no framework import) and
returned by every backend.
"""

from __future__ import annotations

import math
import sys
from typing import Any, NamedTuple

from ..core.decided_errors import decided, shape_of
from ..core.dtypes import Dtype, as_dtype
from ..core.registry import op

__all__ = ["UniqueAllResult", "UniqueCountsResult", "UniqueInverseResult"]


class UniqueAllResult(NamedTuple):
    """``(values, indices, inverse_indices, counts)`` of :func:`ivy_like.unique_all`."""

    values: Any
    indices: Any
    inverse_indices: Any
    counts: Any


class UniqueCountsResult(NamedTuple):
    """``(values, counts)`` of :func:`ivy_like.unique_counts`."""

    values: Any
    counts: Any


class UniqueInverseResult(NamedTuple):
    """``(values, inverse_indices)`` of :func:`ivy_like.unique_inverse`."""

    values: Any
    inverse_indices: Any


@op(arrays=("x",), n_outputs=4)
def unique_all(x: Any, /):
    """Sorted unique values of ``x`` with first indices, inverse indices and counts.

    Returns a :class:`UniqueAllResult` ``(values, indices, inverse_indices, counts)`` with
    ``values == x.flatten()[indices]`` and ``values[inverse_indices] == x``; NaNs are distinct.

    Examples
    --------
    >>> import ivy_like
    >>> values, indices, inverse_indices, counts = ivy_like.unique_all(ivy_like.array([3, 1, 3, 2]))
    >>> values, indices, inverse_indices, counts
    (ivy_like.array([1, 2, 3]), ivy_like.array([1, 3, 0]), ivy_like.array([2, 0, 2, 1]), ivy_like.array([1, 1, 2]))
    """


@op(arrays=("x",), n_outputs=2)
def unique_counts(x: Any, /):
    """Sorted unique values of ``x`` and how often each occurs (each NaN once).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.unique_counts(ivy_like.array([1., float("nan"), 1., float("nan")]))
    UniqueCountsResult(values=ivy_like.array([ 1., nan, nan]), counts=ivy_like.array([2, 1, 1]))
    """


@op(arrays=("x",), n_outputs=2)
def unique_inverse(x: Any, /):
    """Sorted unique values of ``x`` and, in the shape of ``x``, each element's index in them.

    Examples
    --------
    >>> import ivy_like
    >>> values, inverse = ivy_like.unique_inverse(ivy_like.array([[2, 1], [1, 2]]))
    >>> values, inverse
    (ivy_like.array([1, 2]), ivy_like.array([[1, 0],
                    [0, 1]]))
    """


@op(arrays=("x",))
def unique_values(x: Any, /):
    """Sorted unique values of ``x`` (every NaN kept: NaNs are distinct).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.unique_values(ivy_like.array([3, 1, 3, 2]))
    ivy_like.array([1, 2, 3])
    """


# -- isin ------------------------------------------------------------------------------------------
# At most this many pairs (elements of x1 times elements of x2) are compared at once: below it
# isin compares every element of x1 with every element of x2; above, it sorts x2 and
# binary-searches it for each element of x1 (memory of the inputs, not of their product), or,
# for complex values, which do not sort, compares x2 in slices of this many pairs. The kernels
# of backends whose isin compares all pairs (jax's "compare_all") switch method at it too.
ISIN_PAIRWISE_MAX = 1 << 16

_SCALARS = (bool, int, float, complex)
# Significand bits (the leading one included) and the least and greatest exponents of the
# normal numbers of each real floating dtype (complex dtypes: of their parts).
_FORMATS = {
    "float16": (11, -14, 15),
    "bfloat16": (8, -126, 127),
    "float32": (24, -126, 127),
    "float64": (53, -1022, 1023),
}


def _check_isin(x1: Any, x2: Any, invert: Any) -> None:
    """``invert`` is a bool: torch refuses anything else, NumPy would take any truthy value."""
    if invert is not False and invert is not True:
        raise decided(TypeError(f"isin: invert must be a bool, got {type(invert).__name__}"))


@op(arrays=("x1", "x2"), check=_check_isin)
def isin(x1: Any, x2: Any, /, *, invert: bool = False, out: Any = None):
    """For each element of ``x1``, whether it is in ``x2`` (array API 2025.12).

    The result is a bool array of the shape of ``x1`` (0-d when ``x1`` is a Python scalar);
    ``invert=True`` tests whether each element is *not* in ``x2``. Elements match when their
    values are equal, as in ``equal``: NaN is in nothing (``invert=True`` gives True for it),
    -0.0 and 0.0 match.

    Any dtypes may meet, compared by exact value (no rounding of either side, whatever
    ``result_type`` gives): int32 ``16777217`` is not in float32 ``[16777216.]``, int64
    ``2**53 + 1`` not in float64 ``[2.**53]`` (NumPy, comparing in float64, says it is), uint8
    ``255`` not in int8 ``[-1]``, ``True`` is ``1``. A Python scalar beside an array is converted
    to the array's dtype as the standard converts scalars (a float rounded to nearest, so ``0.1``
    is in a float32 array holding ``0.1``); one that no value of the dtype stands for (an int
    beyond an integer dtype's range, ``1.5`` or NaN for an integer dtype, a float beyond a
    floating dtype's finite range, a complex with an imaginary part for a real dtype) matches
    nothing. Two Python scalars become arrays of the backend first, as for every binary op.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.isin(ivy_like.array([0, 1, 2, 5]), ivy_like.array([1, 5, 7]))
    ivy_like.array([False,  True, False,  True])
    >>> x = ivy_like.array([1., float("nan"), -0.])
    >>> ivy_like.isin(x, ivy_like.array([0., float("nan")]), invert=True)
    ivy_like.array([ True,  True, False])
    >>> ivy_like.isin(3, ivy_like.array([[1, 2], [3, 4]])), ivy_like.isin(x, 1)
    (ivy_like.array(True), ivy_like.array([ True, False, False]))
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    if type(x1) in _SCALARS:  # beside an array (dispatch made arrays of two scalars)
        found = il.any(_equals_scalar(il, x2, x1))
    elif type(x2) in _SCALARS:
        found = _equals_scalar(il, x1, x2)
    else:
        found = _isin_arrays(il, x1, x2, as_dtype(x1.dtype), as_dtype(x2.dtype))
    return il.logical_not(found) if invert else found


def _equals_scalar(il: Any, x: Any, value: Any) -> Any:
    """Where ``x`` equals the Python scalar ``value`` converted to ``x``'s dtype."""
    same = _scalar_as(value, as_dtype(x.dtype))
    if same is None:
        return il.zeros_like(x, dtype=il.bool)
    return il.equal(x, same)  # a value of x's dtype, of its kind: converted exactly everywhere


def _scalar_as(value: Any, dtype: Dtype) -> Any:
    """The Python scalar ``value`` converted to ``dtype``, as a Python scalar of its kind that
    the dtype holds exactly; None when no value of ``dtype`` stands for it."""
    if dtype.kind == "c":
        fmt = _FORMATS[f"float{dtype.bits // 2}"]
        parts = (value.real, value.imag) if type(value) is complex else (value, 0.0)
        real, imag = _rounded(parts[0], fmt), _rounded(parts[1], fmt)
        return None if real is None or imag is None else complex(real, imag)
    if type(value) is complex:
        if dtype.kind == "f":  # the standard converts to the complex dtype of x's precision
            if _rounded(value.imag, _FORMATS[dtype.name]) != 0:
                return None
        elif value.imag != 0:
            return None
        value = value.real
    if dtype.kind == "f":
        return _rounded(value, _FORMATS[dtype.name])
    if type(value) is float:
        if not value.is_integer():  # a fraction, inf or NaN: no integer or bool equals it
            return None
        value = int(value)
    low, high = _int_range(dtype) if dtype.kind in "iu" else (0, 1)
    if not low <= value <= high:
        return None
    return bool(value) if dtype.kind == "b" else int(value)


def _rounded(value: Any, fmt: tuple[int, int, int]) -> float | None:
    """The real Python number ``value`` rounded to the nearest number of the floating format
    ``fmt`` (ties to even), as a float; None for NaN and for a finite value that overflows."""
    p, emin, emax = fmt
    largest = ((1 << p) - 1) << (emax - p + 1)  # an int: exact whatever the format
    if type(value) is not float:  # an int or a bool, possibly beyond float64: exactly
        a = abs(int(value))
        shift = max(a.bit_length() - p, 0)
        q, rest = divmod(a, 1 << shift)
        if shift and (rest > 1 << (shift - 1) or (rest == 1 << (shift - 1) and q & 1)):
            q += 1
        if q << shift > largest:
            return None
        return math.copysign(float(q << shift), value)
    if math.isnan(value):
        return None
    if math.isinf(value) or value == 0.0:
        return value
    ulp = max(math.frexp(value)[1] - 1, emin) - (p - 1)  # the exponent of the unit in last place
    rounded = math.ldexp(round(math.ldexp(value, -ulp)), ulp)  # round(): ties to even
    return None if abs(rounded) > largest else rounded


def _int_range(dtype: Dtype) -> tuple[int, int]:
    if dtype.kind == "u":
        return 0, (1 << dtype.bits) - 1
    return -(1 << (dtype.bits - 1)), (1 << (dtype.bits - 1)) - 1


def _real_format(dtype: Dtype) -> tuple[int, int, int]:
    return _FORMATS[dtype.name if dtype.kind == "f" else f"float{dtype.bits // 2}"]


def _holds(big: Dtype, small: Dtype) -> bool:
    """Whether every value of ``small`` is a value of ``big`` (casting to ``big`` is exact)."""
    if big == small or small.kind == "b":
        return True
    if big.kind == "b" or (big.kind in "iu" and small.kind not in "iu"):
        return False
    if big.kind in "iu":
        if big.kind == small.kind:
            return big.bits >= small.bits
        return big.kind == "i" and big.bits > small.bits
    if small.kind == "c" and big.kind != "c":
        return False
    p, emin, emax = _real_format(big)
    if small.kind in "iu":
        return small.bits - (small.kind == "i") <= p  # the magnitude bits of the integers
    ps, emins, emaxs = _real_format(small)
    return ps <= p and emaxs <= emax and emin - p <= emins - ps  # subnormals included


def _isin_arrays(il: Any, x1: Any, x2: Any, d1: Dtype, d2: Dtype) -> Any:
    """isin of two arrays: in one dtype that holds both when one of the two does (bool is held
    by every dtype), else in ``d1``, leaving out the elements of ``x2`` no value of ``d1``
    equals."""
    if _holds(d1, d2):
        return _isin_same(il, x1, il.astype(x2, d1) if d1 != d2 else x2, d1)
    if _holds(d2, d1):
        return _isin_same(il, il.astype(x1, d2), x2, d2)
    if _size(x2) == 0:
        return il.zeros_like(x1, dtype=il.bool)
    values, kept = _exact_values(il, il.reshape(x2, (-1,)), d2, d1)
    if d1.kind in "fc":  # NaN is equal to nothing: it stands in for the left-out elements
        return _isin_same(il, x1, il.where(kept, values, math.nan), d1)
    # An integer dtype has no value equal to nothing: a kept value stands in (the largest),
    # and when none is kept nothing is in x2.
    stand_in = il.max(il.where(kept, values, _int_range(d1)[0]))
    found = _isin_same(il, x1, il.where(kept, values, stand_in), d1)
    return il.logical_and(found, il.any(kept))


def _exact_values(il: Any, v: Any, src: Dtype, dst: Dtype) -> tuple[Any, Any]:
    """``(values, kept)`` for the 1-D ``v`` of dtype ``src`` (not bool), which ``dst`` (an
    integer or floating dtype) does not hold: ``kept`` where an element is a value of ``dst``,
    ``values`` the elements cast to ``dst`` (anything where not kept). Every cast here is of
    values its target holds or rounds to: none overflows, wraps or warns."""
    kept = None
    if src.kind == "c" and dst.kind != "c":  # a real dtype holds no nonzero imaginary part
        kept = il.equal(il.imag(v), 0)
        v, src = il.real(v), as_dtype(f"float{src.bits // 2}")
    if dst.kind in "iu":
        ok = _in_int_range(il, v, src, dst)
        values = il.astype(il.where(ok, v, 0), dst)
    else:  # a floating dst, through the real dtype of its parts
        real = as_dtype(dst.name if dst.kind == "f" else f"float{dst.bits // 2}")
        if src.kind in "iu":
            ok, values = _ints_as_floats(il, v, src, real)
        else:
            ok, values = _floats_as_floats(il, v, src, real)
        if dst.kind == "c":
            values = il.astype(values, dst)
    return values, ok if kept is None else il.logical_and(kept, ok)


def _in_int_range(il: Any, v: Any, src: Dtype, dst: Dtype) -> Any:
    """Where the integers or real floats ``v`` are integers in ``dst``'s range."""
    low, high = _int_range(dst)
    checks = []
    if src.kind in "iu":
        src_low, src_high = _int_range(src)
        if low > src_low:
            checks.append(il.greater_equal(v, low))
        if high < src_high:
            checks.append(il.less_equal(v, high))
    else:  # the bounds are powers of two, exact in src unless beyond all of its numbers
        checks.append(il.isfinite(v))
        checks.append(il.equal(il.floor(v), v))
        emax = _real_format(src)[2]
        if low == 0 or dst.bits - 1 <= emax:
            checks.append(il.greater_equal(v, float(low)))
        if high.bit_length() <= emax:
            checks.append(il.less(v, float(high + 1)))
    ok = checks[0]
    for check in checks[1:]:
        ok = il.logical_and(ok, check)
    return ok


def _ints_as_floats(il: Any, v: Any, src: Dtype, real: Dtype) -> tuple[Any, Any]:
    """``(kept, values)``: the integers ``v`` rounded to the real floating dtype ``real``,
    kept where that is exact (the value converts back to the same integer)."""
    p, _, emax = _real_format(real)
    largest = ((1 << p) - 1) << (emax - p + 1)
    low, high = _int_range(src)
    ok = None
    if largest < high:  # beyond it no value is exact; rounding it would overflow
        ok = il.less_equal(v, largest)
        if -largest > low:
            ok = il.logical_and(ok, il.greater_equal(v, -largest))
        v_in = il.where(ok, v, 0)
    else:
        v_in = v
    f = il.astype(v_in, real)
    top = high.bit_length()  # 2**top: high rounded up, beyond src (no conversion back)
    if top <= emax:
        below = il.less(f, float(1 << top))
        ok = below if ok is None else il.logical_and(ok, below)
    back = il.astype(f if ok is None else il.where(ok, f, 0), src)
    same = il.equal(back, v)
    return (same if ok is None else il.logical_and(ok, same)), f


def _floats_as_floats(il: Any, v: Any, src: Dtype, real: Dtype) -> tuple[Any, Any]:
    """``(kept, values)``: the real floats ``v`` rounded to the real floating dtype ``real``,
    kept where that is exact (the value converts back to itself; NaN never is kept)."""
    (p, _, emax), (ps, _, emax_src) = _real_format(real), _real_format(src)
    if emax < emax_src:  # beyond real's finite numbers: NaN, not an overflow to infinity
        v = _nan_beyond(il, v, math.ldexp((1 << p) - 1, emax - p + 1))
    f = il.astype(v, real)
    back = f
    if emax_src < emax:  # the same on the way back
        back = _nan_beyond(il, f, math.ldexp((1 << ps) - 1, emax_src - ps + 1))
    return il.equal(il.astype(back, src), v), f


def _nan_beyond(il: Any, v: Any, largest: float) -> Any:
    big = il.logical_and(il.isfinite(v), il.greater(il.abs(v), largest))
    return il.where(big, math.nan, v)


def _size(x: Any) -> int | None:
    shape = shape_of(x)
    return None if shape is None or None in shape else math.prod(shape)


def _isin_same(il: Any, x1: Any, x2: Any, dtype: Dtype) -> Any:
    """isin of two arrays of one dtype."""
    n, m = _size(x1), _size(x2)
    if n == 0 or m == 0:  # (MXNet's where cannot broadcast to an empty condition)
        return il.zeros_like(x1, dtype=il.bool)
    flat = il.reshape(x2, (-1,))
    if dtype.kind == "b":
        return il.where(x1, il.any(flat), il.logical_not(il.all(flat)))
    if n is None or m is None or n * m <= ISIN_PAIRWISE_MAX:  # (None: a size a graph learns)
        return il.any(il.equal(il.expand_dims(x1, axis=-1), flat), axis=-1)
    shape = shape_of(x1) or ()  # known here: n is
    query = il.reshape(x1, (-1,))
    if dtype.kind == "c":  # no order to search: x2 compared in slices
        column = il.expand_dims(query, axis=-1)
        step = max(1, ISIN_PAIRWISE_MAX // max(n, 1))
        found = None
        for start in range(0, m, step):
            part = il.any(il.equal(column, flat[start : start + step]), axis=-1)
            found = part if found is None else il.logical_or(found, part)
        return il.reshape(found, shape)
    if dtype.kind == "f":
        # One 0.0 and one NaN: sort and searchsorted then order x2 alike on every backend
        # (a total order puts -0.0 before 0.0; NaN sorts last). NaN still matches nothing.
        query = il.where(il.equal(query, 0), 0.0, query)
        flat = il.where(il.isnan(flat), math.nan, il.where(il.equal(flat, 0), 0.0, flat))
    ordered = il.sort(flat)
    where = il.minimum(il.searchsorted(ordered, query), m - 1)
    return il.reshape(il.equal(il.take(ordered, where), query), shape)

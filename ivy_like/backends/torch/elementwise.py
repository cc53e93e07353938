"""torch backend: array API elementwise functions.

Aliases of torch functions, with wrappers where torch differs from the rules of
``ivy_like.ops.elementwise``: Python scalars where torch wants tensors (they stay weak:
``float32 tensor + 2.0`` is float32, as in torch itself), a negative Python int exponent of an
integer ``pow``, integer ``floor_divide``/``remainder`` by zero (torch raises; here 0, NumPy's
result), ``sign`` of NaN (torch gives 0) and of complex numbers (``torch.sgn``), ``round`` of
complex numbers, ``imag`` of real arrays.
"""

from __future__ import annotations

from typing import Any, Callable

import torch

from .._common import elementwise as _elementwise
from .._common.elementwise import SAME_NAME_UNARY, expm1_parts
from .._common.helpers import named
from . import _SCALARS
from .manipulation import astype


def _scalars_as_tensors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` accepting Python scalars in every position.

    Some torch functions take tensors only. A Python scalar becomes a 0-d tensor, which torch
    promotes exactly like a Python scalar (the dimensioned operand keeps its dtype unless the
    scalar is of a higher kind). The common all-tensor call pays only the ``try``.
    """

    def op(x1: Any, x2: Any, /) -> Any:
        if _mixed_ranks(x1, x2):
            x1, x2 = _promoted(x1, x2)
        try:
            return fn(x1, x2)
        except TypeError:
            if isinstance(x1, _SCALARS):
                x1 = torch.as_tensor(x1, device=getattr(x2, "device", None))
            elif isinstance(x2, _SCALARS):
                x2 = torch.as_tensor(x2, device=x1.device)
            else:
                raise
            return fn(x1, x2)

    return named(op, fn.__name__)


# torch lets a dimensioned tensor's dtype win over a 0-d tensor's of the same kind, where the
# standard promotes both: int16 0-d + int8 1-d is int8 in torch, so 200 + 1 wraps to -55 and
# 200 > 1 is False. Two tensors of different dtypes, one 0-d, are cast to their promoted dtype
# first (torch's own rule, the standard's within a kind); the common case pays one dtype test.
def _mixed_ranks(x1: Any, x2: Any) -> bool:
    return (
        type(x1) is _Tensor  # (a Parameter, a subclass, is left as torch promotes it)
        and type(x2) is _Tensor
        and x1.dtype is not x2.dtype
        and (x1.dim() == 0) is not (x2.dim() == 0)
    )


_Tensor = torch.Tensor


def _promoted(x1: Any, x2: Any) -> tuple[Any, Any]:
    dtype = torch.promote_types(x1.dtype, x2.dtype)
    return x1.to(dtype), x2.to(dtype)


def _promoting(fn: Callable[..., Any]) -> Callable[..., Any]:
    def op(x1: Any, x2: Any, /) -> Any:
        # _mixed_ranks inlined: this runs on every add, multiply... (0.1 µs less than a call)
        if (
            type(x1) is _Tensor
            and type(x2) is _Tensor
            and x1.dtype is not x2.dtype
            and (x1.dim() == 0) is not (x2.dim() == 0)
        ):
            x1, x2 = _promoted(x1, x2)
        return fn(x1, x2)

    return named(op, fn.__name__)


# Accept Python scalars on either side natively.
add = _promoting(torch.add)
subtract = _promoting(torch.subtract)
multiply = _promoting(torch.multiply)
divide = _promoting(torch.divide)  # true division: integers give the default float


def pow(x1: Any, x2: Any, /) -> Any:  # noqa: A001
    try:
        return _torch_pow(x1, x2)
    except RuntimeError as err:
        # A negative Python int exponent of an integer tensor: as a tensor, torch.pow follows
        # ivy_like's rule (ops.elementwise.pow), the exact value truncated toward zero.
        if "negative integer powers" not in str(err) or not isinstance(x2, int):
            raise
        return _torch_pow(x1, torch.tensor(x2, dtype=x1.dtype, device=x1.device))


_torch_pow = _promoting(torch.pow)


def _tensors_only(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn``, which refuses every Python scalar, with a scalar made a 0-d tensor before the
    call (what the ``TypeError`` path of :func:`_scalars_as_tensors` would do): torch.compile
    cannot trace through that ``TypeError`` (a graph break, e.g. at every ReLU as
    ``maximum(x, 0.0)``)."""

    def op(x1: Any, x2: Any, /) -> Any:
        if type(x1) is _Tensor and type(x2) is _Tensor:  # _mixed_ranks inlined: the common case
            if x1.dtype is not x2.dtype and (x1.dim() == 0) is not (x2.dim() == 0):
                x1, x2 = _promoted(x1, x2)
        elif isinstance(x2, _SCALARS):
            x2 = torch.as_tensor(x2, device=x1.device)
        elif isinstance(x1, _SCALARS):
            x1 = torch.as_tensor(x1, device=x2.device)
        return fn(x1, x2)

    return named(op, fn.__name__)


# Tensors only in torch.
maximum = _tensors_only(torch.maximum)  # propagates NaN
minimum = _tensors_only(torch.minimum)
# The other binary functions torch holds under the standard's meaning, scalars made tensors.
_BINARY = (
    "equal not_equal less less_equal greater greater_equal logical_and logical_or atan2 bitwise_and"
    " bitwise_left_shift bitwise_or bitwise_right_shift bitwise_xor copysign hypot logaddexp"
    " logical_xor nextafter"
)
_TORCH_SPELLING = {"equal": "eq", "not_equal": "ne", "less": "lt", "less_equal": "le"}
_TORCH_SPELLING |= {"greater": "gt", "greater_equal": "ge"}
globals().update(
    {
        name: _scalars_as_tensors(fn)
        for name, fn in _elementwise.aliases(torch, _BINARY, _TORCH_SPELLING).items()
    }
)
# Shifts by >= the bit width give 0 (or -1 for negative >>) on CPU, our rule; ceil returns
# integers as they are.
globals().update(
    _elementwise.aliases(
        torch,
        f"{SAME_NAME_UNARY} acos acosh asin asinh atan atanh ceil cosh floor isfinite isinf"
        " isnan log10 log1p log2 real reciprocal signbit sinh tan trunc",
    )
)
where = torch.where  # accepts scalars and promotes


def expm1(x: Any, /) -> Any:
    if not x.is_complex():
        return torch.expm1(x)
    return torch.complex(*expm1_parts(torch, x.real, x.imag))


def _zero_divisor_gives_zero(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` (integer // or %) giving 0 where the divisor is 0 instead of raising.

    torch raises ``RuntimeError: ZeroDivisionError`` for the whole call; only then is the
    division redone with 1 in place of every zero divisor and those results replaced by 0.
    """
    call = _scalars_as_tensors(fn)

    def op(x1: Any, x2: Any, /) -> Any:
        try:
            return call(x1, x2)
        except RuntimeError as err:
            if "ZeroDivisionError" not in str(err):
                raise
        if isinstance(x2, _SCALARS):  # a Python int beside an integer tensor takes its dtype
            x2 = torch.as_tensor(x2, device=x1.device, dtype=x1.dtype)
        zero = torch.eq(x2, 0)
        out = call(x1, torch.where(zero, torch.ones_like(x2), x2))
        return torch.where(zero, torch.zeros_like(out), out)

    return named(op, fn.__name__)


_floor_divide = _zero_divisor_gives_zero(torch.floor_divide)  # rounds towards -inf (torch >= 1.13)


def floor_divide(x1: Any, x2: Any, /) -> Any:
    # Floats: the floor of the rounded quotient, as the standard words it and every backend
    # computes it (the standard's infinite cases: inf // 2 is inf where torch gives NaN,
    # 1 // -inf is -0 where torch gives -1).
    if type(x1) is _Tensor and (x1.is_floating_point() or type(x2) is float):
        if type(x2) is not _Tensor or x1.dtype is x2.dtype:  # the common case: one call less
            return torch.floor(torch.true_divide(x1, x2))
    if _float(x1) or _float(x2):
        return torch.floor(_true_divide(x1, x2))
    return _floor_divide(x1, x2)


def _float(x: Any) -> bool:
    return x.is_floating_point() if isinstance(x, torch.Tensor) else type(x) is float


_true_divide = _scalars_as_tensors(torch.true_divide)
remainder = _zero_divisor_gives_zero(torch.remainder)  # sign of the divisor, like Python

bitwise_invert = torch.bitwise_not
conj = torch.conj_physical  # a real conjugate, not a lazy view with the conj bit set


def imag(x: Any, /) -> Any:
    # torch.imag refuses real tensors; their imaginary part is 0 (NumPy's answer). Of a lazily
    # conjugated tensor (a native torch.conj) it is a negated view, which torch.func.vmap
    # cannot batch (no rule for aten::_neg_view, torch 2.13): the conjugate is made first.
    if not x.is_complex():
        return torch.zeros_like(x)
    return torch.imag(x.resolve_conj() if x.is_conj() else x)


def round(x: Any, /) -> Any:  # noqa: A001
    # torch.round rounds halves to even; it has no complex kernel.
    if x.is_complex():
        return torch.complex(torch.round(x.real), torch.round(x.imag))
    return torch.round(x)


def sign(x: Any, /) -> Any:
    if x.is_complex():
        return torch.sgn(x)  # x / |x|, 0 at 0 (torch.sign refuses complex)
    out = torch.sign(x)
    if x.is_floating_point():
        out = torch.where(torch.isnan(x), x, out)  # torch.sign(nan) is 0
    return out


clip = _elementwise.clip_for(maximum, minimum, astype)

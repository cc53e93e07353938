"""numpy backend: array API elementwise functions beyond the first set (issue 5).

NumPy is the reference: these are aliases, except ``clip`` (the shared rules of
``ivy_like.ops.elementwise``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...ops.elementwise import _clip
from . import astype, maximum, minimum

__all__ = [
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "bitwise_and",
    "bitwise_invert",
    "bitwise_left_shift",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "ceil",
    "clip",
    "conj",
    "copysign",
    "cosh",
    "expm1",
    "floor",
    "hypot",
    "imag",
    "isfinite",
    "isinf",
    "isnan",
    "log10",
    "log1p",
    "log2",
    "logaddexp",
    "logical_xor",
    "nextafter",
    "real",
    "round",
    "sign",
    "signbit",
    "sinh",
    "tan",
    "trunc",
]

acos = np.arccos
acosh = np.arccosh
asin = np.arcsin
asinh = np.arcsinh
atan = np.arctan
atan2 = np.arctan2
atanh = np.arctanh
bitwise_and = np.bitwise_and
bitwise_invert = np.invert
bitwise_left_shift = np.left_shift  # shifts >= the bit width give 0 (or -1): our rule
bitwise_or = np.bitwise_or
bitwise_right_shift = np.right_shift
bitwise_xor = np.bitwise_xor
ceil = np.ceil  # integers keep their dtype (NumPy 2)
conj = np.conj
copysign = np.copysign
cosh = np.cosh
expm1 = np.expm1
floor = np.floor
hypot = np.hypot
imag = np.imag
isfinite = np.isfinite
isinf = np.isinf
isnan = np.isnan
log10 = np.log10
log1p = np.log1p
log2 = np.log2
logaddexp = np.logaddexp
logical_xor = np.logical_xor
real = np.real
round = np.round  # noqa: A001  (half to even; complex parts separately)
sign = np.sign  # x / |x| for complex (NumPy 2)
signbit = np.signbit
sinh = np.sinh
tan = np.tan
trunc = np.trunc


if np.__version__ < "2":  # NumPy 1.x: rounding made floats of integers; sign(z) was z/|z|.real

    def _keep_integers(fn: Any) -> Any:
        def op(x: Any, /) -> Any:
            x = np.asarray(x)
            return x.copy() if x.dtype.kind in "biu" else fn(x)

        op.__name__ = op.__qualname__ = fn.__name__
        return op

    ceil = _keep_integers(np.ceil)
    floor = _keep_integers(np.floor)
    trunc = _keep_integers(np.trunc)

    def sign(x: Any, /) -> Any:
        x = np.asarray(x)
        if x.dtype.kind != "c":
            return np.sign(x)
        mag = np.abs(x)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(mag == 0, 0, x / np.where(mag == 0, 1, mag)).astype(x.dtype)


def clip(x: Any, /, min: Any = None, max: Any = None) -> Any:  # noqa: A002
    return _clip(x, min, max, maximum, minimum, astype)


_HALF = np.dtype("float16")


def nextafter(x1: Any, x2: Any, /) -> Any:
    out = np.nextafter(x1, x2)
    if out.dtype == _HALF:  # NumPy's own float16 loop gives x1 for 0.0 and -0.0, C gives x2
        out = np.where(np.equal(x1, x2), x2, out).astype(_HALF, copy=False)
    return out

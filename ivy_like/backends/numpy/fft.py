"""numpy backend: the array API fft extension (``numpy.fft``, which keeps single precision).

Wrappers add the rules of ``ivy_like.ops.fft``: floating-point input only, explicit axes for
``s`` (NumPy 2 deprecates ``s`` without ``axes``), float32 frequencies by default.

NumPy 1 (the core supports >= 1.23) computes every transform in double precision; there the
result is cast to the dtype NumPy 2 gives (complex64/float32 for single-precision input).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._common import fft as _fft
from . import DEFAULT_FLOAT

_NP2 = np.lib.NumpyVersion(np.__version__) >= "2.0.0"


def _precise(fn: Any) -> Any:
    """``fn`` on NumPy 2; on NumPy 1, ``fn`` with its double-precision result cast to the dtype
    NumPy 2 gives for the input ``x``."""
    if _NP2:
        return fn

    def kept(x: np.ndarray, *args: Any) -> np.ndarray:
        out = fn(x, *args)
        real = np.empty(0, x.dtype).real.dtype
        want = np.result_type(real, np.complex64) if out.dtype.kind == "c" else real
        return out.astype(want, copy=False)

    return kept


_input = _fft.input_for(np)
globals().update(_fft.transforms_for(np.fft, _input, wrap=_precise))


def fft_fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    return np.fft.fftfreq(n, d).astype(dtype or DEFAULT_FLOAT)


def fft_rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    return np.fft.rfftfreq(n, d).astype(dtype or DEFAULT_FLOAT)


fft_fftshift = _fft.shift_for(np.fft.fftshift, "fftshift", np.ndim)
fft_ifftshift = _fft.shift_for(np.fft.ifftshift, "ifftshift", np.ndim)

"""numpy backend: the array API fft extension (``numpy.fft``, which keeps single precision).

Wrappers add the rules of ``ivy_like.ops.fft``: floating-point input only, explicit axes for
``s`` (NumPy 2 deprecates ``s`` without ``axes``), float32 frequencies by default.

NumPy 1 (the core supports >= 1.23) computes every transform in double precision; there the
result is cast to the dtype NumPy 2 gives (complex64/float32 for single-precision input).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ivy_like.ops.fft import _check_kind, _check_norm, _length, _n_d, _one_d, _shift_axes

from . import DEFAULT_FLOAT

_NP2 = np.lib.NumpyVersion(np.__version__) >= "2.0.0"


def _keep_precision(x: np.ndarray, out: np.ndarray) -> np.ndarray:
    """NumPy 1's double-precision ``out`` in NumPy 2's result dtype for input ``x``."""
    if _NP2:
        return out
    real = np.empty(0, x.dtype).real.dtype
    want = np.result_type(real, np.complex64) if out.dtype.kind == "c" else real
    return out.astype(want, copy=False)


def _one(fn: Any, name: str, real_only: bool = False, inverse_real: bool = False) -> Any:
    def transform(
        x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
    ) -> Any:
        x = np.asarray(x)
        _check_kind(name, x.dtype.kind, real_only)
        ax, n = _one_d(name, x.shape, n, axis, inverse_real)
        return _keep_precision(x, fn(x, n=n, axis=ax, norm=_check_norm(name, norm)))

    transform.__name__ = f"fft_{name}"
    return transform


def _many(fn: Any, name: str, real_only: bool = False, inverse_real: bool = False) -> Any:
    def transform(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        x = np.asarray(x)
        _check_kind(name, x.dtype.kind, real_only)
        axes, s = _n_d(name, x.shape, s, axes, inverse_real)
        return _keep_precision(x, fn(x, s=s, axes=axes, norm=_check_norm(name, norm)))

    transform.__name__ = f"fft_{name}"
    return transform


fft_fft = _one(np.fft.fft, "fft")
fft_ifft = _one(np.fft.ifft, "ifft")
fft_rfft = _one(np.fft.rfft, "rfft", real_only=True)
fft_irfft = _one(np.fft.irfft, "irfft", inverse_real=True)
fft_hfft = _one(np.fft.hfft, "hfft", inverse_real=True)
fft_ihfft = _one(np.fft.ihfft, "ihfft", real_only=True)
fft_fftn = _many(np.fft.fftn, "fftn")
fft_ifftn = _many(np.fft.ifftn, "ifftn")
fft_rfftn = _many(np.fft.rfftn, "rfftn", real_only=True)
fft_irfftn = _many(np.fft.irfftn, "irfftn", inverse_real=True)


def fft_fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    return np.fft.fftfreq(_length("fftfreq", n, n), d).astype(dtype or DEFAULT_FLOAT)


def fft_rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    return np.fft.rfftfreq(_length("rfftfreq", n, n), d).astype(dtype or DEFAULT_FLOAT)


def fft_fftshift(x: Any, /, *, axes: Any = None) -> Any:
    return np.fft.fftshift(x, axes=_shift_axes("fftshift", np.ndim(x), axes))


def fft_ifftshift(x: Any, /, *, axes: Any = None) -> Any:
    return np.fft.ifftshift(x, axes=_shift_axes("ifftshift", np.ndim(x), axes))

"""torch backend: the array API fft extension on ``torch.fft``.

Wrappers add the rules of ``ivy_like.ops.fft``: floating-point input only, ``s``/``axes``
resolved once, half precision computed in float32 (torch has no CPU half FFT), float32
frequencies by default.
"""

from __future__ import annotations

from typing import Any

import torch

from ivy_like.ops.fft import _check_kind, _check_norm, _length, _n_d, _one_d, _shift_axes

from . import DEFAULT_FLOAT

_HALF = {
    torch.float16: torch.float32,
    torch.bfloat16: torch.float32,
    torch.complex32: torch.complex64,
}


def _input(name: str, x: Any, real_only: bool) -> Any:
    kind = "c" if x.is_complex() else "f" if x.is_floating_point() else "i"
    _check_kind(name, kind, real_only)
    wider = _HALF.get(x.dtype)
    return x if wider is None else x.to(wider)


def _one(fn: Any, name: str, real_only: bool = False, inverse_real: bool = False) -> Any:
    def transform(
        x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
    ) -> Any:
        x = _input(name, x, real_only)
        ax, n = _one_d(name, tuple(x.shape), n, axis, inverse_real)
        return fn(x, n=n, dim=ax, norm=_check_norm(name, norm))

    transform.__name__ = f"fft_{name}"
    return transform


def _many(fn: Any, name: str, real_only: bool = False, inverse_real: bool = False) -> Any:
    def transform(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        x = _input(name, x, real_only)
        axes, s = _n_d(name, tuple(x.shape), s, axes, inverse_real)
        return fn(x, s=s, dim=axes, norm=_check_norm(name, norm))

    transform.__name__ = f"fft_{name}"
    return transform


fft_fft = _one(torch.fft.fft, "fft")
fft_ifft = _one(torch.fft.ifft, "ifft")
fft_rfft = _one(torch.fft.rfft, "rfft", real_only=True)
fft_irfft = _one(torch.fft.irfft, "irfft", inverse_real=True)
fft_hfft = _one(torch.fft.hfft, "hfft", inverse_real=True)
fft_ihfft = _one(torch.fft.ihfft, "ihfft", real_only=True)
fft_fftn = _many(torch.fft.fftn, "fftn")
fft_ifftn = _many(torch.fft.ifftn, "ifftn")
fft_rfftn = _many(torch.fft.rfftn, "rfftn", real_only=True)
fft_irfftn = _many(torch.fft.irfftn, "irfftn", inverse_real=True)


def fft_fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    n = _length("fftfreq", n, n)
    return torch.fft.fftfreq(n, d, dtype=dtype or DEFAULT_FLOAT, device=device)


def fft_rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    n = _length("rfftfreq", n, n)
    return torch.fft.rfftfreq(n, d, dtype=dtype or DEFAULT_FLOAT, device=device)


def fft_fftshift(x: Any, /, *, axes: Any = None) -> Any:
    return torch.fft.fftshift(x, dim=_shift_axes("fftshift", x.ndim, axes))


def fft_ifftshift(x: Any, /, *, axes: Any = None) -> Any:
    return torch.fft.ifftshift(x, dim=_shift_axes("ifftshift", x.ndim, axes))

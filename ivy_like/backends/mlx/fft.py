"""mlx backend: the array API fft extension on ``mlx.core.fft``.

MLX computes FFTs in complex64 only (it turns float64 input into complex64 silently), so
float64 input is a ``TypeError`` here rather than a silent loss of precision. MLX has no
``hfft``/``ihfft``: they are ``irfft``/``rfft`` of the conjugate with the opposite
normalisation. ``fftfreq``/``rfftfreq`` take a dtype (MLX's give float32 only).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

import mlx.core as mx

from .._common import fft as _fft
from .._common.fft import one_d, swap_norm
from . import DEFAULT_FLOAT
from ._helpers import _stream

_ndim = attrgetter("ndim")


def _input(name: str, x: Any, real_only: bool = False) -> Any:
    if x.dtype == getattr(mx, "float64", None):
        raise TypeError(
            f"fft.{name}: the mlx backend computes FFTs in single precision only; "
            "convert float64 input to float32 explicitly"
        )
    return x


# MLX has no hfft/ihfft: they are written below.
globals().update(_fft.transforms_for(mx.fft, _input, _fft.TRANSFORMS.keys() - {"hfft", "ihfft"}))


def fft_hfft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    x = _input("hfft", x).astype(mx.complex64)
    ax, n = one_d("hfft", tuple(x.shape), n, axis, inverse_real=True)
    return mx.fft.irfft(mx.conj(x), n=n, axis=ax, norm=swap_norm(norm))


def fft_ihfft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    x = _input("ihfft", x, real_only=True)
    ax, n = one_d("ihfft", tuple(x.shape), n, axis)
    norm = swap_norm(norm)
    return mx.conj(mx.fft.rfft(x, n=n, axis=ax, norm=norm))


def _freq(n: int, d: float, dtype: Any, device: Any, values: Any) -> Any:
    stream = _stream(device)
    dtype = dtype or DEFAULT_FLOAT
    # float64 (CPU only) is computed in float64; everything else in float32, then cast.
    work = dtype if dtype == getattr(mx, "float64", None) else mx.float32
    return (values.astype(work) / (n * d)).astype(dtype, stream=stream)


def fft_fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    values = mx.concatenate([mx.arange(0, (n - 1) // 2 + 1), mx.arange(-(n // 2), 0)])
    return _freq(n, d, dtype, device, values)


def fft_rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    return _freq(n, d, dtype, device, mx.arange(0, n // 2 + 1))


fft_fftshift = _fft.shift_for(mx.fft.fftshift, "fftshift", _ndim)
fft_ifftshift = _fft.shift_for(mx.fft.ifftshift, "ifftshift", _ndim)

"""mlx backend: the array API fft extension on ``mlx.core.fft``.

MLX computes FFTs in complex64 only (it turns float64 input into complex64 silently), so
float64 input is a ``TypeError`` here rather than a silent loss of precision. MLX has no
``hfft``/``ihfft``: they are ``irfft``/``rfft`` of the conjugate with the opposite
normalisation. ``fftfreq``/``rfftfreq`` take a dtype (MLX's give float32 only). MLX's JVP of
``irfft``/``irfftn`` with an odd number of output points on the last axis returns one point
fewer (MLX 0.32): those transforms are composed from complex ones (see ``_irfft``).
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


def _irfft(x: Any, n: int, axis: int, norm: str) -> Any:
    """``mx.fft.irfft``; for an odd ``n``, the inverse complex FFT of the whole spectrum.

    MLX's JVP of an inverse real transform forgets the output size and takes the default
    ``2 * (m - 1)``: for an odd ``n`` it gives ``n - 1`` points, or raises (MLX 0.32). An odd
    ``n`` uses ``(n + 1) / 2`` points and no Nyquist term: with their conjugates mirrored
    behind them they are the ``n`` points of a Hermitian spectrum, whose inverse FFT is real
    (the real part drops the imaginary part of the first point, as ``irfft`` does). MLX
    differentiates that composition in every mode.
    """
    if n % 2 == 0:
        return mx.fft.irfft(x, n, axis, norm)
    x = mx.moveaxis(x, axis, -1)
    m, size = (n + 1) // 2, x.shape[-1]
    if size >= m:
        x = x[..., :m]
    else:
        x = mx.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, m - size)])
    spectrum = mx.concatenate([x, mx.conj(x[..., :0:-1])], axis=-1)
    return mx.moveaxis(mx.real(mx.fft.ifft(spectrum, n, -1, norm)), -1, axis)


def _irfftn(x: Any, s: Any, axes: Any, norm: str) -> Any:
    """``mx.fft.irfftn``; for an odd size of the last axis, the inverse complex FFT along the
    other axes, then ``_irfft`` along it (the norms' scales are products over the axes)."""
    if s[-1] % 2 == 0:
        return mx.fft.irfftn(x, s, axes, norm)
    if len(axes) > 1:
        x = mx.fft.ifftn(x, s[:-1], axes[:-1], norm)
    return _irfft(x, s[-1], axes[-1], norm)


_INVERSE_REAL = {mx.fft.irfft: _irfft, mx.fft.irfftn: _irfftn}
# MLX has no hfft/ihfft: they are written below.
globals().update(
    _fft.transforms_for(
        mx.fft,
        _input,
        _fft.TRANSFORMS.keys() - {"hfft", "ihfft"},
        wrap=lambda fn: _INVERSE_REAL.get(fn, fn),
    )
)


def fft_hfft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    x = _input("hfft", x).astype(mx.complex64)
    ax, n = one_d("hfft", tuple(x.shape), n, axis, inverse_real=True)
    return _irfft(mx.conj(x), n, ax, swap_norm(norm))


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

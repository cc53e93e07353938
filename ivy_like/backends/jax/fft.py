"""jax backend: the array API fft extension (``jax.numpy.fft``).

Wrappers add the rules of ``ivy_like.ops.fft``: floating-point input only, ``s``/``axes``
resolved once, float32 frequencies by default.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from .._common import fft as _fft
from . import DEFAULT_FLOAT, _device

_input = _fft.input_for(jnp)
fft_fft = _fft.one_d_for(jnp.fft.fft, "fft", _input)
fft_ifft = _fft.one_d_for(jnp.fft.ifft, "ifft", _input)
fft_rfft = _fft.one_d_for(jnp.fft.rfft, "rfft", _input, real_only=True)
fft_irfft = _fft.one_d_for(jnp.fft.irfft, "irfft", _input, inverse_real=True)
fft_hfft = _fft.one_d_for(jnp.fft.hfft, "hfft", _input, inverse_real=True)
fft_ihfft = _fft.one_d_for(jnp.fft.ihfft, "ihfft", _input, real_only=True)
fft_fftn = _fft.n_d_for(jnp.fft.fftn, "fftn", _input)
fft_ifftn = _fft.n_d_for(jnp.fft.ifftn, "ifftn", _input)
fft_rfftn = _fft.n_d_for(jnp.fft.rfftn, "rfftn", _input, real_only=True)
fft_irfftn = _fft.n_d_for(jnp.fft.irfftn, "irfftn", _input, inverse_real=True)


def fft_fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    return jnp.fft.fftfreq(n, d, dtype=dtype or DEFAULT_FLOAT, device=_device(device))


def fft_rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    return jnp.fft.rfftfreq(n, d, dtype=dtype or DEFAULT_FLOAT, device=_device(device))


fft_fftshift = _fft.shift_for(jnp.fft.fftshift, "fftshift", jnp.ndim)
fft_ifftshift = _fft.shift_for(jnp.fft.ifftshift, "ifftshift", jnp.ndim)

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
globals().update(_fft.transforms_for(jnp.fft, _input))


def fft_fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    return jnp.fft.fftfreq(n, d, dtype=dtype or DEFAULT_FLOAT, device=_device(device))


def fft_rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    return jnp.fft.rfftfreq(n, d, dtype=dtype or DEFAULT_FLOAT, device=_device(device))


fft_fftshift = _fft.shift_for(jnp.fft.fftshift, "fftshift", jnp.ndim)
fft_ifftshift = _fft.shift_for(jnp.fft.ifftshift, "ifftshift", jnp.ndim)

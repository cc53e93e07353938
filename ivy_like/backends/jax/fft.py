"""jax backend: the array API fft extension (``jax.numpy.fft``).

Wrappers add the rules of ``ivy_like.ops.fft``: floating-point input only, ``s``/``axes``
resolved once, float32 frequencies by default.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from ivy_like.ops.fft import _check_kind, _check_norm, _length, _n_d, _one_d, _shift_axes

from . import DEFAULT_FLOAT, _device


def _one(fn: Any, name: str, real_only: bool = False, inverse_real: bool = False) -> Any:
    def transform(
        x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
    ) -> Any:
        x = jnp.asarray(x)
        _check_kind(name, x.dtype.kind, real_only)
        ax, n = _one_d(name, x.shape, n, axis, inverse_real)
        return fn(x, n=n, axis=ax, norm=_check_norm(name, norm))

    transform.__name__ = f"fft_{name}"
    return transform


def _many(fn: Any, name: str, real_only: bool = False, inverse_real: bool = False) -> Any:
    def transform(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        x = jnp.asarray(x)
        _check_kind(name, x.dtype.kind, real_only)
        axes, s = _n_d(name, x.shape, s, axes, inverse_real)
        return fn(x, s=s, axes=axes, norm=_check_norm(name, norm))

    transform.__name__ = f"fft_{name}"
    return transform


fft_fft = _one(jnp.fft.fft, "fft")
fft_ifft = _one(jnp.fft.ifft, "ifft")
fft_rfft = _one(jnp.fft.rfft, "rfft", real_only=True)
fft_irfft = _one(jnp.fft.irfft, "irfft", inverse_real=True)
fft_hfft = _one(jnp.fft.hfft, "hfft", inverse_real=True)
fft_ihfft = _one(jnp.fft.ihfft, "ihfft", real_only=True)
fft_fftn = _many(jnp.fft.fftn, "fftn")
fft_ifftn = _many(jnp.fft.ifftn, "ifftn")
fft_rfftn = _many(jnp.fft.rfftn, "rfftn", real_only=True)
fft_irfftn = _many(jnp.fft.irfftn, "irfftn", inverse_real=True)


def fft_fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    n = _length("fftfreq", n, n)
    return jnp.fft.fftfreq(n, d, dtype=dtype or DEFAULT_FLOAT, device=_device(device))


def fft_rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    n = _length("rfftfreq", n, n)
    return jnp.fft.rfftfreq(n, d, dtype=dtype or DEFAULT_FLOAT, device=_device(device))


def fft_fftshift(x: Any, /, *, axes: Any = None) -> Any:
    return jnp.fft.fftshift(x, axes=_shift_axes("fftshift", jnp.ndim(x), axes))


def fft_ifftshift(x: Any, /, *, axes: Any = None) -> Any:
    return jnp.fft.ifftshift(x, axes=_shift_axes("ifftshift", jnp.ndim(x), axes))

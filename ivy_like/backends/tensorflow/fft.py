"""tensorflow backend: the array API fft extension on ``tf.signal``.

``tf.signal`` transforms only the innermost axis, takes no ``n`` for complex transforms and
no ``norm``, so each transform here moves the axis last, crops or zero-pads it, transforms,
scales for ``norm`` and moves the axis back. The n-D transforms are 1-D transforms applied
axis by axis (the DFT is separable). ``hfft``/``ihfft`` are ``irfft``/``rfft`` of the
conjugate with the opposite normalisation. Half precision is computed in float32.
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from .._common.fft import n_d, one_d, shift_for, swap_norm
from . import DEFAULT_FLOAT
from ._helpers import _on

_WIDE = (tf.float64, tf.complex128)


def _input(name: str, x: Any, real_only: bool = False) -> Any:
    return x


def _as_complex(x: Any) -> Any:
    return tf.cast(x, tf.complex128 if x.dtype in _WIDE else tf.complex64)


def _as_real(x: Any) -> Any:
    return tf.cast(x, tf.float64 if x.dtype in _WIDE else tf.float32)


def _fit(x: Any, n: int, axis: int) -> Any:
    """Crop or zero-pad ``x`` to ``n`` points along ``axis``."""
    size = x.shape[axis]
    if size > n:
        return tf.gather(x, tf.range(n), axis=axis)
    if size < n:
        pad = [[0, 0]] * len(x.shape)
        pad[axis] = [0, n - size]
        return tf.pad(x, pad)
    return x


def _along(fn: Any, x: Any, axis: int) -> Any:
    """Apply an innermost-axis transform ``fn`` along ``axis``."""
    last = len(x.shape) - 1
    if axis == last:
        return fn(x)
    perm = list(range(len(x.shape)))
    perm[axis], perm[last] = last, axis
    return tf.transpose(fn(tf.transpose(x, perm)), perm)  # a swap is its own inverse


def _scaled(x: Any, norm: str, n: int, inverse: bool) -> Any:
    """Scale a result of tf.signal (forward unscaled, inverse already divided by n)."""
    if norm == "backward":
        return x
    if norm == "ortho":
        factor = n**0.5 if inverse else n**-0.5
    else:  # "forward": 1/n on the forward transform, none on the inverse
        factor = float(n) if inverse else 1.0 / n
    return x * tf.cast(factor, x.dtype)


def _c2c(x: Any, n: int, axis: int, norm: str, inverse: bool) -> Any:
    x = _fit(_as_complex(x), n, axis)
    out = _along(tf.signal.ifft if inverse else tf.signal.fft, x, axis)
    return _scaled(out, norm, n, inverse)


def _r2c(x: Any, n: int, axis: int, norm: str) -> Any:
    x = _fit(_as_real(x), n, axis)
    out = _along(lambda v: tf.signal.rfft(v, fft_length=[n]), x, axis)
    return _scaled(out, norm, n, inverse=False)


def _c2r(x: Any, n: int, axis: int, norm: str) -> Any:
    x = _fit(_as_complex(x), n // 2 + 1, axis)
    out = _along(lambda v: tf.signal.irfft(v, fft_length=[n]), x, axis)
    return _scaled(out, norm, n, inverse=True)


def fft_fft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    ax, n = one_d("fft", tuple(x.shape), n, axis)
    return _c2c(_input("fft", x), n, ax, norm, inverse=False)


def fft_ifft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    ax, n = one_d("ifft", tuple(x.shape), n, axis)
    return _c2c(_input("ifft", x), n, ax, norm, inverse=True)


def fft_rfft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    ax, n = one_d("rfft", tuple(x.shape), n, axis)
    return _r2c(_input("rfft", x, real_only=True), n, ax, norm)


def fft_irfft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    ax, n = one_d("irfft", tuple(x.shape), n, axis, inverse_real=True)
    return _c2r(_input("irfft", x), n, ax, norm)


def fft_hfft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    ax, n = one_d("hfft", tuple(x.shape), n, axis, inverse_real=True)
    x = tf.math.conj(_as_complex(_input("hfft", x)))
    return _c2r(x, n, ax, swap_norm(norm))


def fft_ihfft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    ax, n = one_d("ihfft", tuple(x.shape), n, axis)
    x = _input("ihfft", x, real_only=True)
    return tf.math.conj(_r2c(x, n, ax, swap_norm(norm)))


def _nd(name: str, x: Any, s: Any, axes: Any, norm: str, inverse: bool) -> Any:
    axes, sizes = n_d(name, tuple(x.shape), s, axes)
    out = _as_complex(_input(name, x))
    for ax, n in zip(axes, sizes):
        out = _c2c(out, n, ax, norm, inverse)
    return out


def fft_fftn(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
    return _nd("fftn", x, s, axes, norm, inverse=False)


def fft_ifftn(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
    return _nd("ifftn", x, s, axes, norm, inverse=True)


def fft_rfftn(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
    axes, sizes = n_d("rfftn", tuple(x.shape), s, axes)
    out = _r2c(_input("rfftn", x, real_only=True), sizes[-1], axes[-1], norm)
    for ax, n in zip(axes[:-1], sizes[:-1]):
        out = _c2c(out, n, ax, norm, inverse=False)
    return out


def fft_irfftn(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
    axes, sizes = n_d("irfftn", tuple(x.shape), s, axes, inverse_real=True)
    out = _as_complex(_input("irfftn", x))
    for ax, n in zip(axes[:-1], sizes[:-1]):
        out = _c2c(out, n, ax, norm, inverse=True)
    return _c2r(out, sizes[-1], axes[-1], norm)


def _freq(n: int, d: float, dtype: Any, device: Any, values: Any) -> Any:
    with _on(device):
        # Computed in float64 and rounded once, as NumPy does.
        return tf.cast(tf.cast(values, tf.float64) / (n * d), dtype or DEFAULT_FLOAT)


def fft_fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    values = tf.concat([tf.range(0, (n - 1) // 2 + 1), tf.range(-(n // 2), 0)], axis=0)
    return _freq(n, d, dtype, device, values)


def fft_rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    return _freq(n, d, dtype, device, tf.range(0, n // 2 + 1))


def _listed(shift: Any) -> Any:
    """``shift(x, axes)`` with the axes as a list, as tf.signal takes them."""
    return lambda x, axes: shift(x, axes=list(axes))


fft_fftshift = shift_for(_listed(tf.signal.fftshift), "fftshift", lambda x: len(x.shape))
fft_ifftshift = shift_for(_listed(tf.signal.ifftshift), "ifftshift", lambda x: len(x.shape))

"""mxnet backend: the array API fft extension: the real-valued helpers only.

``fftfreq``/``rfftfreq`` (sample frequencies, computed exactly on the host in float64 and cast)
and ``fftshift``/``ifftshift`` (a roll built from ``mx.nd.slice_axis`` and ``concat``) need no
complex numbers and are mapped. The transforms are listed as unsupported: MXNet 1.9's
``mx.nd.contrib.fft``/``ifft`` run on GPUs only (float32, last axis) and it has no complex
dtype to hold the results.
"""

from __future__ import annotations

from typing import Any

import mxnet as mx
import numpy as np

from .._common.fft import shift_axes
from . import DEFAULT_FLOAT, _context, numpy_shapes
from ._helpers import _supported

nd = mx.nd


_REASON = (
    "MXNet 1.9 has no complex dtype and its only FFT operators (mx.nd.contrib.fft/ifft) run "
    "on GPUs only"
)
_TRANSFORMS = ("fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft")
UNSUPPORTED = {f"fft_{name}": _REASON for name in _TRANSFORMS}


def _host(values: np.ndarray, dtype: Any, device: Any, who: str) -> Any:
    dt = _supported(np.dtype(dtype or DEFAULT_FLOAT), who)
    return nd.array(values.astype(dt), ctx=_context(device), dtype=dt)


def fft_fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    k = np.concatenate([np.arange((n - 1) // 2 + 1), np.arange(-(n // 2), 0)])
    return _host(k / (d * n), dtype, device, "fftfreq")


def fft_rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    return _host(np.arange(n // 2 + 1) / (d * n), dtype, device, "rfftfreq")


def _roll(x: Any, axes: tuple[int, ...], half: Any) -> Any:
    for ax in axes:
        size = x.shape[ax]
        cut = (size - half(size)) % size if size else 0
        if cut:
            tail = nd.slice_axis(x, axis=ax, begin=cut, end=size)
            head = nd.slice_axis(x, axis=ax, begin=0, end=cut)
            x = nd.concat(tail, head, dim=ax)
    return x


@numpy_shapes
def fft_fftshift(x: Any, /, *, axes: Any = None) -> Any:
    return _roll(x, shift_axes("fftshift", x.ndim, axes), lambda size: size // 2)


@numpy_shapes
def fft_ifftshift(x: Any, /, *, axes: Any = None) -> Any:
    return _roll(x, shift_axes("ifftshift", x.ndim, axes), lambda size: -(size // 2))

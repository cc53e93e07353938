"""torch backend: the array API fft extension on ``torch.fft``.

Wrappers add the rules of ``ivy_like.ops.fft``: floating-point input only, ``s``/``axes``
resolved once, half precision computed in float32 (torch has no CPU half FFT), float32
frequencies by default, ``ihfft``'s result conjugated in memory (torch returns a lazily
conjugated view, and ``torch.func.vmap`` has no batching rule for the ``_neg_view`` that
``imag`` of such a view makes: ``vmap`` of ``imag(ihfft(x))`` raised, torch 2.13).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

import torch

from .._common import fft as _fft
from . import DEFAULT_FLOAT

_HALF = {
    torch.float16: torch.float32,
    torch.bfloat16: torch.float32,
    torch.complex32: torch.complex64,
}
_ndim = attrgetter("ndim")


def _input(name: str, x: Any, real_only: bool) -> Any:
    wider = _HALF.get(x.dtype)
    return x if wider is None else x.to(wider)


def _in_memory(fn: Any) -> Any:
    """``fn`` (``torch.fft.ihfft``) with its lazily conjugated result resolved."""

    def transform(*args: Any) -> Any:
        return fn(*args).resolve_conj()

    return transform


globals().update(
    _fft.transforms_for(
        torch.fft, _input, wrap=lambda fn: _in_memory(fn) if fn is torch.fft.ihfft else fn
    )
)


def fft_fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    return torch.fft.fftfreq(n, d, dtype=dtype or DEFAULT_FLOAT, device=device)


def fft_rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    return torch.fft.rfftfreq(n, d, dtype=dtype or DEFAULT_FLOAT, device=device)


fft_fftshift = _fft.shift_for(torch.fft.fftshift, "fftshift", _ndim)
fft_ifftshift = _fft.shift_for(torch.fft.ifftshift, "ifftshift", _ndim)

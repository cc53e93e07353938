"""fft kernels written once for several backends (see ``_common/__init__.py``).

The transforms of a backend whose native functions take NumPy's arguments in NumPy's order
(``numpy.fft``, ``jax.numpy.fft``, ``torch.fft``, ``mlx.core.fft``): ``fn(x, n, axis, norm)``
and ``fn(x, s, axes, norm)``, passed positionally (torch names the axis ``dim``). They add the
rules of ``ivy_like.ops.fft``: ``prep(name, x, real_only)`` returns the input, checked to be
floating-point (real only for ``rfft``...) and made ready for ``fn``; ``n``/``axis`` and
``s``/``axes`` are resolved once (explicit axes for ``s``: NumPy 2 deprecates ``s`` without
``axes``); ``norm`` is checked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ivy_like.ops.fft import _check_kind, _check_norm, _n_d, _one_d, _shift_axes

Kernel = Callable[..., Any]


def one_d_for(
    fn: Kernel, name: str, prep: Kernel, real_only: bool = False, inverse_real: bool = False
) -> Kernel:
    """``fft_<name>``, a 1-D transform (``inverse_real``: the default ``n`` is
    ``2 * (m - 1)``, as for ``irfft``/``hfft``)."""

    def transform(
        x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
    ) -> Any:
        x = prep(name, x, real_only)
        ax, n = _one_d(name, tuple(x.shape), n, axis, inverse_real)
        return fn(x, n, ax, _check_norm(name, norm))

    return _named(transform, name)


def n_d_for(
    fn: Kernel, name: str, prep: Kernel, real_only: bool = False, inverse_real: bool = False
) -> Kernel:
    """``fft_<name>``, an n-D transform (``inverse_real``: as ``one_d_for``, on the last axis)."""

    def transform(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        x = prep(name, x, real_only)
        axes, s = _n_d(name, tuple(x.shape), s, axes, inverse_real)
        return fn(x, s, axes, _check_norm(name, norm))

    return _named(transform, name)


def checked_input_for(xp: Any) -> Kernel:
    """``prep`` of a NumPy-like namespace (numpy, jax.numpy): ``xp.asarray(x)``, of a
    floating-point dtype."""

    def prep(name: str, x: Any, real_only: bool) -> Any:
        x = xp.asarray(x)
        _check_kind(name, x.dtype.kind, real_only)
        return x

    return prep


def shift_for(fn: Kernel, name: str, ndim: Kernel) -> Kernel:
    """``fft_fftshift``/``fft_ifftshift`` as ``fn(x, axes)``, the axes checked against
    ``ndim(x)``."""

    def shift(x: Any, /, *, axes: Any = None) -> Any:
        return fn(x, _shift_axes(name, ndim(x), axes))

    return _named(shift, name)


def _named(kernel: Kernel, name: str) -> Kernel:
    kernel.__name__ = f"fft_{name}"
    return kernel

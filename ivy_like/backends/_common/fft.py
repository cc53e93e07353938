"""fft kernels written once for several backends (see ``_common/__init__.py``).

The transforms of a backend whose native functions take NumPy's arguments in NumPy's order
(``numpy.fft``, ``jax.numpy.fft``, ``torch.fft``, ``mlx.core.fft``): ``fn(x, n, axis, norm)``
and ``fn(x, s, axes, norm)``, passed positionally (torch names the axis ``dim``). The checks
``ivy_like.ops.fft`` declares with each transform (a floating-point input, real only for
``rfft``..., a known ``norm``) ran before them; ``prep(name, x, real_only)`` makes the input
ready for ``fn``, and ``n``/``axis`` and ``s``/``axes`` are resolved once here (explicit axes
for ``s``: NumPy 2 deprecates ``s`` without ``axes``) by the public functions at the end, which
the other backends' fft kernels use too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
        ax, n = one_d(name, tuple(x.shape), n, axis, inverse_real)
        return fn(x, n, ax, norm)

    return _named(transform, name)


def n_d_for(
    fn: Kernel, name: str, prep: Kernel, real_only: bool = False, inverse_real: bool = False
) -> Kernel:
    """``fft_<name>``, an n-D transform (``inverse_real``: as ``one_d_for``, on the last axis)."""

    def transform(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        x = prep(name, x, real_only)
        axes, s = n_d(name, tuple(x.shape), s, axes, inverse_real)
        return fn(x, s, axes, norm)

    return _named(transform, name)


# The transforms: name -> (n-D, real_only, inverse_real).
TRANSFORMS = {
    "fft": (False, False, False),
    "ifft": (False, False, False),
    "rfft": (False, True, False),
    "irfft": (False, False, True),
    "hfft": (False, False, True),
    "ihfft": (False, True, False),
    "fftn": (True, False, False),
    "ifftn": (True, False, False),
    "rfftn": (True, True, False),
    "irfftn": (True, False, True),
}


def transforms_for(
    namespace: Any, prep: Kernel, names: Any = TRANSFORMS, wrap: Kernel | None = None
) -> dict[str, Kernel]:
    """``{"fft_<name>": kernel}`` for the transforms ``names`` of ``namespace`` (``numpy.fft``,
    ``torch.fft``...), each native function passed through ``wrap`` first if given."""
    kernels = {}
    for name in names:
        n_dims, real_only, inverse_real = TRANSFORMS[name]
        fn = getattr(namespace, name)
        fn = wrap(fn) if wrap is not None else fn
        factory = n_d_for if n_dims else one_d_for
        kernels[f"fft_{name}"] = factory(fn, name, prep, real_only, inverse_real)
    return kernels


def input_for(xp: Any) -> Kernel:
    """``prep`` of a NumPy-like namespace (numpy, jax.numpy): ``xp.asarray(x)``."""

    def prep(name: str, x: Any, real_only: bool) -> Any:
        return xp.asarray(x)

    return prep


def shift_for(fn: Kernel, name: str, ndim: Kernel) -> Kernel:
    """``fft_fftshift``/``fft_ifftshift`` as ``fn(x, axes)``, the axes checked against
    ``ndim(x)``."""

    def shift(x: Any, /, *, axes: Any = None) -> Any:
        axes = shift_axes(name, ndim(x), axes)
        return fn(x, axes) if axes else x  # no axis (a 0-d x): numpy.roll fails on none

    return _named(shift, name)


def _named(kernel: Kernel, name: str) -> Kernel:
    kernel.__name__ = f"fft_{name}"
    return kernel


# -- computations the backends share (plain Python, no framework) ----------------------------
def fft_axis(name: str, ndim: int, axis: Any) -> int:
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError(f"fft.{name}: axis must be an int, got {axis!r}")
    if not -ndim <= axis < ndim:
        raise ValueError(f"fft.{name}: axis {axis} is out of range for a {ndim}-d array")
    return axis % ndim


def fft_length(name: str, n: Any, default: int) -> int:
    if n is None:
        n = default
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"fft.{name}: n must be an int or None, got {n!r}")
    if n < 1:
        raise ValueError(f"fft.{name}: the number of points must be >= 1, got {n}")
    return n


def one_d(
    name: str, shape: tuple[int, ...], n: Any, axis: Any, inverse_real: bool = False
) -> tuple[int, int]:
    """(axis, n) of a 1-D transform, resolved: ``inverse_real`` for irfft/hfft defaults."""
    ax = fft_axis(name, len(shape), axis)
    default = 2 * (shape[ax] - 1) if inverse_real else shape[ax]
    return ax, fft_length(name, n, default)


def n_d(
    name: str, shape: tuple[int, ...], s: Any, axes: Any, inverse_real: bool = False
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(axes, sizes) of an n-D transform, resolved as the module docstring says."""
    ndim = len(shape)
    if s is not None:
        s = tuple(s)
    if axes is None:
        axes = tuple(range(ndim - len(s), ndim)) if s is not None else tuple(range(ndim))
        if s is not None and len(s) > ndim:
            raise ValueError(f"fft.{name}: s has {len(s)} entries for a {ndim}-d array")
    axes = tuple(fft_axis(name, ndim, a) for a in axes)
    if len(set(axes)) != len(axes):
        raise ValueError(f"fft.{name}: repeated axis in {axes!r}")
    if s is None:
        s = (-1,) * len(axes)
    if len(s) != len(axes):
        raise ValueError(f"fft.{name}: s and axes must have the same length, got {s} and {axes}")
    sizes = []
    for i, (a, size) in enumerate(zip(axes, s)):
        last = i == len(axes) - 1
        default = 2 * (shape[a] - 1) if inverse_real and last else shape[a]
        sizes.append(fft_length(name, None if size == -1 else size, default))
    return axes, tuple(sizes)


def shift_axes(name: str, ndim: int, axes: Any) -> tuple[int, ...]:
    if axes is None:
        return tuple(range(ndim))
    items = tuple(axes) if isinstance(axes, (tuple, list)) else (axes,)
    return tuple(fft_axis(name, ndim, a) for a in items)


def swap_norm(norm: str) -> str:
    """The norm of the opposite direction: hfft is irfft of the conjugate with it swapped."""
    return {"backward": "forward", "forward": "backward"}.get(norm, norm)

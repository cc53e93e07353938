"""The array API ``fft`` extension (``ivy_like.fft``).

Rules decided once for every backend:

* Input must be floating point (real or complex); integer or boolean input is a ``TypeError``
  (NumPy would compute in float64, JAX in float32). Real input to ``fft``/``ifft``/``fftn``/
  ``ifftn``/``hfft`` is taken as complex of the same precision; ``rfft``/``rfftn``/``ihfft``
  take real input only (``TypeError`` for complex). Precision is kept: float32/complex64 in,
  complex64 (or float32 for ``irfft``/``irfftn``/``hfft``) out; float64/complex128 in,
  complex128/float64 out. A backend that cannot compute in 64 bits (MLX computes FFTs in
  complex64 only) raises ``TypeError`` rather than silently losing precision.
* ``n`` (``s`` for the n-D transforms) crops or zero-pads the input along the axis; ``-1`` in
  ``s`` keeps the input's size. For ``irfft``/``hfft`` the default ``n`` is
  ``2 * (m - 1)`` for ``m`` input points. ``n < 1`` is a ``ValueError``.
* ``axes=None`` means every axis, or the last ``len(s)`` axes when ``s`` is given; ``s`` and
  ``axes`` of different lengths are a ``ValueError``. For ``rfftn``/``irfftn`` the last axis
  in ``axes`` is the real (halved) one.
* ``norm`` is ``"backward"`` (no scaling forward, ``1/n`` inverse), ``"ortho"`` (``1/sqrt(n)``
  both ways) or ``"forward"`` (``1/n`` forward); anything else is a ``ValueError``.
* ``fftfreq``/``rfftfreq`` are creation functions: the default dtype is float32.
"""

from __future__ import annotations

from typing import Any

from ..core.decided_errors import kind_of
from ..core.registry import op

_FFT = ("fft",)


# -- argument checks (run before any kernel; see ``OpSpec.check``) -------------------------------
NORMS = ("backward", "ortho", "forward")


def _transform_check(name: str, real_only: bool = False) -> Any:
    """The check of transform ``name``: a floating-point ``x`` (real only for ``rfft``,
    ``rfftn`` and ``ihfft``; the frameworks would convert integers each their own way) and a
    ``norm`` of :data:`NORMS`. ``n``/``axis`` and ``s``/``axes`` are resolved by the kernels
    (``backends/_common/fft.py``), which need the resolved values."""

    def check(x: Any, /, *, norm: Any = "backward", **_: Any) -> None:
        kind = kind_of(x)
        if kind != "f" and (kind != "c" or real_only):
            if kind == "c":
                raise TypeError(
                    f"fft.{name}: expected a real floating-point array, got a complex one"
                )
            raise TypeError(f"fft.{name}: expected a floating-point array (see ivy_like.fft)")
        if norm != "backward" and norm not in NORMS:
            raise ValueError(
                f"fft.{name}: norm must be 'backward', 'ortho' or 'forward', got {norm!r}"
            )

    check.__name__ = check.__qualname__ = f"_check_{name}"
    return check


def _points_check(name: str) -> Any:
    """The check of ``fftfreq``/``rfftfreq`` (``name``): ``n`` is an int of at least 1."""

    def check(n: Any, /, **_: Any) -> None:
        if type(n) is int and n >= 1:
            return
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"fft.{name}: n must be an int or None, got {n!r}")
        raise ValueError(f"fft.{name}: the number of points must be >= 1, got {n}")

    check.__name__ = check.__qualname__ = f"_check_{name}"
    return check


@op(arrays=("x",), namespaces=_FFT, check=_transform_check("fft"))
def fft(
    x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward", out: Any = None
):
    """One-dimensional discrete Fourier transform along ``axis``.

    Examples
    --------
    >>> import ivy_like
    >>> y = ivy_like.fft.fft(ivy_like.array([1., 1., 1., 1.]))
    >>> y.dtype, ivy_like.abs(y)
    (ivy_like.complex64, ivy_like.array([4., 0., 0., 0.]))
    """


@op(arrays=("x",), namespaces=_FFT, check=_transform_check("ifft"))
def ifft(
    x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward", out: Any = None
):
    """One-dimensional inverse discrete Fourier transform along ``axis``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.fft.ifft(ivy_like.array([4.+0.j, 0.+0.j, 0.+0.j, 0.+0.j]))
    ivy_like.array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j])
    """


@op(arrays=("x",), namespaces=_FFT, check=_transform_check("fftn"))
def fftn(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward", out: Any = None):
    """N-dimensional discrete Fourier transform over ``axes``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.fft.fftn(ivy_like.ones((2, 2)))
    ivy_like.array([[4.+0.j, 0.+0.j],
                    [0.+0.j, 0.+0.j]])
    """


@op(arrays=("x",), namespaces=_FFT, check=_transform_check("ifftn"))
def ifftn(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward", out: Any = None):
    """N-dimensional inverse discrete Fourier transform over ``axes``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.fft.ifftn(ivy_like.array([[4.+0.j, 0.+0.j], [0.+0.j, 0.+0.j]]))
    ivy_like.array([[1.+0.j, 1.+0.j],
                    [1.+0.j, 1.+0.j]])
    """


@op(arrays=("x",), namespaces=_FFT, check=_transform_check("rfft", real_only=True))
def rfft(
    x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward", out: Any = None
):
    """Discrete Fourier transform of real input: the ``n // 2 + 1`` non-negative frequencies.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.fft.rfft(ivy_like.array([1., 2., 3., 4.]))
    ivy_like.array([10.+0.j, -2.+2.j, -2.+0.j])
    """


@op(arrays=("x",), namespaces=_FFT, check=_transform_check("irfft"))
def irfft(
    x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward", out: Any = None
):
    """Inverse of :func:`rfft`: ``n`` real points (default ``2 * (m - 1)``).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.fft.irfft(ivy_like.array([10.+0.j, -2.+2.j, -2.+0.j]))
    ivy_like.array([1., 2., 3., 4.])
    """


@op(arrays=("x",), namespaces=_FFT, check=_transform_check("rfftn", real_only=True))
def rfftn(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward", out: Any = None):
    """N-dimensional transform of real input; the last of ``axes`` is halved.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.fft.rfftn(ivy_like.ones((2, 4))).shape
    (2, 3)
    """


@op(arrays=("x",), namespaces=_FFT, check=_transform_check("irfftn"))
def irfftn(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward", out: Any = None):
    """Inverse of :func:`rfftn`; real output, the last of ``axes`` has ``s[-1]`` points.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.fft.irfftn(ivy_like.fft.rfftn(ivy_like.ones((2, 4))), s=(2, 4))
    ivy_like.array([[1., 1., 1., 1.],
                    [1., 1., 1., 1.]])
    """


@op(arrays=("x",), namespaces=_FFT, check=_transform_check("hfft"))
def hfft(
    x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward", out: Any = None
):
    """Transform of a Hermitian-symmetric signal given by its first half: real output.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.fft.hfft(ivy_like.array([1.+0.j, 0.+0.j, 0.+0.j]))
    ivy_like.array([1., 1., 1., 1.])
    """


@op(arrays=("x",), namespaces=_FFT, check=_transform_check("ihfft", real_only=True))
def ihfft(
    x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward", out: Any = None
):
    """Inverse of :func:`hfft` for real input: the ``n // 2 + 1`` non-negative frequencies.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.abs(ivy_like.fft.ihfft(ivy_like.array([1., 1., 1., 1.])))
    ivy_like.array([1., 0., 0.])
    """


@op(dtypes=("dtype",), creation=True, namespaces=_FFT, check=_points_check("fftfreq"))
def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None):
    """Sample frequencies of :func:`fft` for ``n`` points spaced ``d`` apart (default float32).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.fft.fftfreq(4, d=0.5)
    ivy_like.array([ 0. ,  0.5, -1. , -0.5])
    """


@op(dtypes=("dtype",), creation=True, namespaces=_FFT, check=_points_check("rfftfreq"))
def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None):
    """Sample frequencies of :func:`rfft` (the ``n // 2 + 1`` non-negative ones).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.fft.rfftfreq(4)
    ivy_like.array([0.  , 0.25, 0.5 ])
    """


@op(arrays=("x",), namespaces=_FFT)
def fftshift(x: Any, /, *, axes: Any = None, out: Any = None):
    """Move the zero-frequency term to the centre along ``axes`` (default: all).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.fft.fftshift(ivy_like.fft.fftfreq(4))
    ivy_like.array([-0.5 , -0.25,  0.  ,  0.25])
    """


@op(arrays=("x",), namespaces=_FFT)
def ifftshift(x: Any, /, *, axes: Any = None, out: Any = None):
    """Inverse of :func:`fftshift` (they differ for odd lengths).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.fft.ifftshift(ivy_like.array([-1., 0., 1.]))
    ivy_like.array([ 0.,  1., -1.])
    """

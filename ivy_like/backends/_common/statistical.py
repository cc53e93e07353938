"""Statistical kernels shared by several backends: factories that return the kernel itself.

``in_float32`` is always the backend's half-precision decorator (its ``_helpers._in_float32``,
``ivy_like.backends._common.half``), applied here as the backend applied it to its own kernel.

``mean_for`` is the floating-point-only ``mean`` of jax and mlx. ``var_for``/``std_for`` are
``var``/``std`` over a backend's ``_var(name, x, axis, correction, keepdims)``, which holds what
differs (the NaN variance for ``N - correction <= 0``, the accumulation). ``cumulative_sum_for``
and ``prod_for`` apply NumPy's accumulation rule from the backend's table (``accumulator``: bool
and narrow integers -> a 64-bit or default-width integer of the same signedness) before the
framework's own function, which would keep the input's width.
"""

from __future__ import annotations

from typing import Any, Callable

from .helpers import named


def mean_for(
    xp_mean: Callable[..., Any],
    inexact: frozenset[Any],
    in_float32: Callable[..., Any],
    accurate_sum: Callable[[Any, Any, bool], Any] | None = None,
) -> Callable[..., Any]:
    """``mean`` from a NumPy-like ``xp_mean(x, axis=, keepdims=)`` (``jnp.mean``; mlx: its
    guarded ``mx.mean``) of floating-point arrays (``inexact``: the backend's float and complex
    dtypes); other dtypes raise ``TypeError``. ``accurate_sum(x, axis, keepdims)`` sums inputs
    of ``ACCURATE_SUM_FROM`` elements or more where ``xp_mean``'s own sum drifts (mlx:
    ``_float_sum``, in blocks).

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from ivy_like.backends.jax import statistical as B
    >>> B.mean(jnp.array([1., 2.]))
    Array(1.5, dtype=float32)
    >>> import mlx.core as mx
    >>> from ivy_like.backends.mlx import statistical as B
    >>> B.mean(mx.array([1., 2.]))
    array(1.5, dtype=float32)
    """

    def mean(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        """The mean of a floating-point array (see ``_common.statistical.mean_for``)."""
        if x.dtype not in inexact:
            raise TypeError(f"mean: expected a floating-point array, got dtype {x.dtype}")
        if accurate_sum is None or x.size < ACCURATE_SUM_FROM:
            return xp_mean(x, axis=axis, keepdims=keepdims)
        total = accurate_sum(x, axis, keepdims)
        return total / (x.size // total.size)  # (total is not empty: x has 512+ elements)

    return in_float32(mean)


def var_for(var: Callable[..., Any], in_float32: Callable[..., Any]) -> Callable[..., Any]:
    """``var`` from the backend's ``_var`` (numpy, jax, torch, tensorflow, mlx, mxnet)."""

    def var_(x: Any, /, *, axis: Any = None, correction: Any = 0.0, keepdims: bool = False) -> Any:
        return var("var", x, axis, correction, keepdims)

    return in_float32(named(var_, "var"))


def std_for(
    var: Callable[..., Any], sqrt: Callable[[Any], Any], in_float32: Callable[..., Any]
) -> Callable[..., Any]:
    """``std``, the ``sqrt`` of the backend's ``_var`` (numpy, jax, torch, tensorflow, mlx,
    mxnet)."""

    def std(x: Any, /, *, axis: Any = None, correction: Any = 0.0, keepdims: bool = False) -> Any:
        return sqrt(var("std", x, axis, correction, keepdims))

    return in_float32(std)


def cumulative_sum_for(
    xp: Any,
    cast: Callable[[Any, Any], Any],
    accumulator: dict[Any, Any],
    in_float32: Callable[..., Any],
) -> Callable[..., Any]:
    """``cumulative_sum`` for a namespace with ``cumsum(x, axis=)`` and ``pad(x, widths)``
    (jax.numpy, mlx.core, tensorflow); ``cast(x, dtype)`` converts an array.

    Without ``dtype``, ``x`` is first cast to ``accumulator[x.dtype]`` when there is one.
    """
    return _cumulative_for("cumulative_sum", xp.cumsum, 0, xp.pad, cast, accumulator, in_float32)


def cumulative_prod_for(
    cumprod: Callable[..., Any],
    pad: Callable[..., Any],
    cast: Callable[[Any, Any], Any],
    accumulator: dict[Any, Any],
    in_float32: Callable[..., Any],
) -> Callable[..., Any]:
    """``cumulative_prod`` from the framework's ``cumprod(x, axis=)`` and ``pad(x, widths,
    constant_values=)`` (jax.numpy, mlx.core, tensorflow); the dtype as in
    :func:`cumulative_sum_for`, the initial value 1.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from ivy_like.backends.jax import statistical as B
    >>> B.cumulative_prod(jnp.array([2, 3], dtype=jnp.int8), include_initial=True).tolist()
    [1, 2, 6]
    """
    return _cumulative_for("cumulative_prod", cumprod, 1, pad, cast, accumulator, in_float32)


def _cumulative_for(
    name: str,
    scan: Callable[..., Any],
    initial: int,
    pad: Callable[..., Any],
    cast: Callable[[Any, Any], Any],
    accumulator: dict[Any, Any],
    in_float32: Callable[..., Any],
) -> Callable[..., Any]:
    """A cumulative op: ``scan(x, axis=)`` after the accumulation cast; with
    ``include_initial`` the result is padded at the start of ``axis`` with ``initial`` (the
    identity of the scan: 0 for sums, 1 for products)."""

    def cumulative(
        x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
    ) -> Any:
        ndim = len(x.shape)
        axis = cumulative_axis(ndim, axis, name)
        dtype = dtype or accumulator.get(x.dtype)
        if dtype is not None:
            x = cast(x, dtype)
        out = scan(x, axis=axis)
        if include_initial:
            widths = [(0, 0)] * ndim
            widths[axis] = (1, 0)
            out = pad(out, widths) if initial == 0 else pad(out, widths, constant_values=initial)
        return out

    return in_float32(dtype_arg=True)(named(cumulative, name))


def prod_for(
    prod: Callable[..., Any],
    cast: Callable[[Any, Any], Any],
    accumulator: dict[Any, Any],
    reduce_axes: Callable[[Any, Any, str], Any],
    in_float32: Callable[..., Any],
) -> Callable[..., Any]:
    """``prod`` from the framework's ``prod(x, axis=, keepdims=)`` (mlx.core.prod,
    tf.reduce_prod), ``axis`` checked by the backend's ``reduce_axes(x, axis, name)``; the
    accumulation dtype as in :func:`cumulative_sum_for`."""

    def prod_(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        dtype = dtype or accumulator.get(x.dtype)
        if dtype is not None:
            x = cast(x, dtype)
        return prod(x, axis=reduce_axes(x, axis, "prod"), keepdims=keepdims)

    return in_float32(dtype_arg=True)(named(prod_, "prod"))


# -- reduction axes and sizes the backends share (plain Python, no framework) ----------------
def reduction_axes(ndim: int, axis: Any, name: str) -> tuple[int, ...]:
    """``axis`` (None, an int or a sequence of ints) as sorted non-negative axes of ``ndim``."""
    if axis is None:
        return tuple(range(ndim))
    items = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out = []
    for a in items:
        if not isinstance(a, int) or isinstance(a, bool):
            raise TypeError(f"{name}: axis must be an int or a tuple of ints, got {axis!r}")
        if not -ndim <= a < ndim:
            raise ValueError(f"{name}: axis {a} is out of range for a {ndim}-d array")
        out.append(a % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"{name}: repeated axis in {axis!r}")
    return tuple(sorted(out))


def reduction_count(shape: tuple[int, ...], axis: Any, name: str) -> int:
    """Number of elements one reduction over ``axis`` combines."""
    n = 1
    for a in reduction_axes(len(shape), axis, name):
        n *= shape[a]
    return n


# Float32 reductions of this many values or more take each backend's accurate path (blocked
# sums on mlx, float64 accumulation of leading axes on numpy and tensorflow, torch.sum beside
# torch's vector_norm); below it one running total is off by a few ulps at most.
ACCURATE_SUM_FROM = 512


def leading_reduction_size(shape: tuple[int, ...], axis: Any) -> int:
    """Values per output of a reduction over ``axis`` that leaves the last axis out (NumPy and
    TensorFlow add those in one running total per output), else 0; 0 too for an ``axis`` the
    framework must reject itself."""
    try:
        axes = reduction_axes(len(shape), axis, "sum")
    except (TypeError, ValueError):
        return 0
    if not axes or axes[-1] == len(shape) - 1:
        return 0
    n = 1
    for a in axes:
        n *= shape[a]
    return n


def cumulative_axis(ndim: int, axis: int | None, name: str = "cumulative_sum") -> int:
    """The one axis of ``cumulative_sum``/``cumulative_prod`` (``name``): required unless
    ``x`` is 1-D; 0-d is an error."""
    if ndim == 0:
        raise ValueError(f"{name}: x must have at least one dimension, got a 0-d array")
    if axis is None:
        if ndim != 1:
            raise ValueError(f"{name}: axis is required for a {ndim}-d array")
        return 0
    return reduction_axes(ndim, axis, name)[0]

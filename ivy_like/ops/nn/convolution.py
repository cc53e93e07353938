"""Convolution and pooling in the nn family: ``conv1d``, ``conv2d``, ``conv_transpose2d``,
``max_pool2d``, ``avg_pool2d``, ``adaptive_avg_pool2d`` and ``adaptive_max_pool2d``.

Layouts follow PyTorch unless ``data_format`` says otherwise: ``conv2d`` takes NCHW inputs and
OIHW weights (``data_format="NHWC"``: NHWC inputs, HWIO weights, Keras/TF's layout);
``conv1d`` NCW/OIW (``"NWC"``: NWC/WIO). Integer ``padding`` pads both sides of each spatial
axis; ``"valid"`` is no padding; ``"same"`` pads so that the output has ``ceil(size/stride)``
positions, the extra row going to the end (TF's and JAX's rule; PyTorch's for stride 1).
Each op's checks run before any kernel, so the error for a bad argument is the same on every
backend; the geometry the composites here and the kernels then compute (strides, pads) is
``sizes.py``'s.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ...core.registry import op
from ._helpers import NN, check_ints, dims, int_shape, is_int_value, optional_dims
from .sizes import adaptive_output_size, conv_geometry, pair, pool_geometry


def _conv_check(n: int) -> Callable[..., None]:
    """The check of ``conv1d`` (``n=1``) or ``conv2d`` (``n=2``): ranks, channels, ``groups``,
    the bias, then ``stride``/``padding``/``dilation`` and a (padded) input no smaller than
    the dilated kernel.

    Examples
    --------
    >>> import ivy_like
    >>> x, w = ivy_like.zeros((1, 3, 5, 5)), ivy_like.zeros((8, 3, 3, 3))
    >>> ivy_like.nn.conv2d(x, w, ivy_like.zeros(3))
    Traceback (most recent call last):
    ...
    ValueError: conv2d: bias must have shape (8,) (out_channels), got (3,)
    """
    who = f"conv{n}d"
    formats = (("NCW", "NWC"), ("NCHW", "NHWC"))[n - 1]

    def check(
        x: Any,
        weight: Any,
        bias: Any,
        stride: Any,
        padding: Any,
        dilation: Any,
        groups: Any,
        data_format: Any,
    ) -> None:
        if data_format not in formats:
            raise ValueError(f"{who}: data_format must be one of {formats}, got {data_format!r}")
        last = data_format == formats[1]
        x_shape, w_shape, b_shape = dims(x), dims(weight), optional_dims(bias)
        if len(x_shape) != n + 2:
            raise ValueError(
                f"{who}: x must have {n + 2} dimensions ({data_format}), got {len(x_shape)}"
            )
        if len(w_shape) != n + 2:
            raise ValueError(f"{who}: weight must have {n + 2} dimensions, got {len(w_shape)}")
        if not is_int_value(groups) or groups < 1:
            raise ValueError(f"{who}: groups must be a positive int, got {groups!r}")
        c_in = x_shape[-1] if last else x_shape[1]
        w_in, c_out = (w_shape[-2], w_shape[-1]) if last else (w_shape[1], w_shape[0])
        if c_in % groups or c_out % groups:
            raise ValueError(
                f"{who}: in_channels ({c_in}) and out_channels ({c_out}) must be divisible by "
                f"groups ({groups})"
            )
        if w_in * groups != c_in:
            raise ValueError(
                f"{who}: weight expects {w_in * groups} input channels (in/groups={w_in}, "
                f"groups={groups}) but x has {c_in}"
            )
        if b_shape is not None and b_shape != (c_out,):
            raise ValueError(
                f"{who}: bias must have shape ({c_out},) (out_channels), got {b_shape}"
            )
        spatial = x_shape[1:-1] if last else x_shape[2:]
        _check_conv_geometry(
            who, spatial, w_shape[:-2] if last else w_shape[2:], stride, padding, dilation
        )

    check.__name__ = check.__qualname__ = f"_check_conv{n}d"
    return check


def _check_conv_geometry(
    who: str,
    spatial: Sequence[int],
    kernel: Sequence[int],
    stride: Any,
    padding: Any,
    dilation: Any,
) -> None:
    n = len(spatial)
    if 0 in tuple(kernel):
        raise ValueError(f"{who}: the kernel's sizes must be positive, got {tuple(kernel)}")
    strides = check_ints(stride, n, "stride", who)
    dilations = check_ints(dilation, n, "dilation", who)
    if 0 in strides or 0 in dilations:
        raise ValueError(f"{who}: stride and dilation must be positive")
    if isinstance(padding, str):
        if padding.lower() not in ("valid", "same"):
            raise ValueError(
                f"{who}: padding must be 'valid', 'same', ints or pairs, got {padding!r}"
            )
    elif (
        isinstance(padding, Sequence)
        and len(padding) == n
        and all(isinstance(p, Sequence) and not isinstance(p, str) for p in padding)
    ):
        for p in padding:
            check_ints(tuple(p), 2, "padding", who)
    else:
        check_ints(padding, n, "padding", who)
    _, pads, _ = conv_geometry(spatial, kernel, stride, padding, dilation)
    for size, k, (lo, hi), d in zip(spatial, kernel, pads, dilations):
        # a dynamic axis (None, or symbolic while exporting) is checked by the kernel at run time
        if isinstance(size, int) and size + lo + hi < (k - 1) * d + 1:
            raise ValueError(
                f"{who}: the (padded) input of size {size + lo + hi} is smaller than the "
                f"dilated kernel of size {(k - 1) * d + 1}"
            )


@op(arrays=("x", "weight", "bias"), check=_conv_check(1), **NN)
def conv1d(
    x: Any,
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
    data_format: str = "NCW",
):
    """1-D convolution (cross-correlation, as every framework computes it).

    ``x`` is ``(N, C_in, W)`` with ``weight`` ``(C_out, C_in/groups, K)`` (PyTorch), or with
    ``data_format="NWC"`` ``x`` is ``(N, W, C_in)`` and ``weight`` ``(K, C_in/groups, C_out)``.
    ``padding``: an int, a ``(lo, hi)`` pair in a 1-sequence, ``"valid"`` or ``"same"``.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([[[1., 2., 3., 4.]]])
    >>> ivy_like.nn.conv1d(x, ivy_like.array([[[1., 0., -1.]]]), padding=1)
    ivy_like.array([[[-2., -2., -2.,  3.]]])
    """


@op(arrays=("x", "weight", "bias"), check=_conv_check(2), **NN)
def conv2d(
    x: Any,
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
    data_format: str = "NCHW",
):
    """2-D convolution: NCHW inputs with OIHW weights, or NHWC inputs with HWIO weights.

    ``stride`` and ``dilation`` are ints or pairs; ``padding`` an int, a pair, a pair of
    ``(lo, hi)`` pairs, ``"valid"`` or ``"same"``; ``groups`` splits the channels.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.reshape(ivy_like.arange(9.), (1, 1, 3, 3))
    >>> w = ivy_like.ones((1, 1, 2, 2))
    >>> ivy_like.nn.conv2d(x, w)
    ivy_like.array([[[[ 8., 12.],
                      [20., 24.]]]])
    """


def _pair_of(who: str, name: str, v: Any, least: int) -> tuple[int, int]:
    """``v`` (an int or a pair of ints, each at least ``least``) as a pair."""
    values = tuple(v) if isinstance(v, (list, tuple)) else (v, v)
    if len(values) != 2 or not all(is_int_value(i) and i >= least for i in values):
        raise ValueError(f"{who}: {name} must be an int or a pair of ints >= {least}, got {v!r}")
    return values[0], values[1]


def _check_conv_transpose2d(
    x: Any,
    weight: Any,
    bias: Any,
    stride: Any,
    padding: Any,
    output_padding: Any,
    groups: Any,
    dilation: Any,
) -> None:
    who = "conv_transpose2d"
    x, weight, bias = dims(x), dims(weight), optional_dims(bias)
    if len(x) != 4:
        raise ValueError(f"{who}: x must be 4-D (N, C, H, W), got shape {x}")
    if not is_int_value(groups) or groups < 1:
        raise TypeError(f"{who}: groups must be a positive int, got {groups!r}")
    if len(weight) != 4 or weight[0] != x[1] or x[1] % groups:
        raise ValueError(
            f"{who}: weight must be (in, out/groups, kH, kW) with in = x's {x[1]} channels, "
            f"divisible by groups ({groups}); got weight {weight}"
        )
    if bias is not None and bias != (weight[1] * groups,):
        raise ValueError(f"{who}: bias must have shape ({weight[1] * groups},), got {bias}")
    s = _pair_of(who, "stride", stride, 1)
    p = _pair_of(who, "padding", padding, 0)
    op_ = _pair_of(who, "output_padding", output_padding, 0)
    d = _pair_of(who, "dilation", dilation, 1)
    for a in (0, 1):
        if op_[a] >= max(s[a], d[a]):
            raise ValueError(
                f"{who}: output_padding {output_padding!r} must be smaller than stride "
                f"{stride!r} or dilation {dilation!r}"
            )
        size = (x[2 + a] - 1) * s[a] - 2 * p[a] + d[a] * (weight[2 + a] - 1) + op_[a] + 1
        if size < 1:
            raise ValueError(f"{who}: the output would have size {size} on axis {2 + a}")


@op(arrays=("x", "weight", "bias"), check=_check_conv_transpose2d, **NN)
def conv_transpose2d(
    x: Any,
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
):
    """The transposed 2-d convolution (``torch.nn.functional.conv_transpose2d``): the gradient
    of ``conv2d`` with respect to its input. ``x`` is NCHW, ``weight``
    ``(in, out/groups, kH, kW)`` (PyTorch's layout); ``stride``, ``padding``,
    ``output_padding`` (extra rows/columns at the end, smaller than stride or dilation) and
    ``dilation`` are ints or pairs. Output size: ``(H - 1) * stride - 2 * padding +
    dilation * (kH - 1) + output_padding + 1``.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.reshape(ivy_like.array([1., 2.]), (1, 1, 1, 2))
    >>> ivy_like.nn.conv_transpose2d(x, ivy_like.ones((1, 1, 1, 2)), stride=2)
    ivy_like.array([[[[1., 1., 2., 2.]]]])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    shape, kernel = int_shape(x), int_shape(weight)
    s, p, op_, d = pair(stride), pair(padding), pair(output_padding), pair(dilation)
    # The convolution it is the gradient of: x with stride - 1 zeros between its elements,
    # padded by dilation * (k - 1) - padding (plus output_padding at the end; a negative
    # width crops), convolved at stride 1 by the flipped kernel, in/out swapped per group.
    for a in (0, 1):
        axis, n = 2 + a, shape[2 + a]
        if s[a] > 1:  # (.., n, ..) -> (.., n, s, ..) -> (.., n * s, ..), cut after the last
            widths = [(0, 0)] * 5
            widths[axis + 1] = (0, s[a] - 1)
            spread = il.pad(il.expand_dims(x, axis=axis + 1), tuple(widths))
            now = int_shape(x)
            x = il.reshape(spread, (*now[:axis], n * s[a], *now[axis + 1 :]))
            index: list[Any] = [slice(None)] * 4
            index[axis] = slice(0, (n - 1) * s[a] + 1)
            x = x[tuple(index)]
        lo = d[a] * (kernel[2 + a] - 1) - p[a]
        hi = lo + op_[a]
        if lo < 0 or hi < 0:
            index = [slice(None)] * 4
            index[axis] = slice(max(-lo, 0), int_shape(x)[axis] - max(-hi, 0))
            x = x[tuple(index)]
        if lo > 0 or hi > 0:
            widths = [(0, 0)] * 4
            widths[axis] = (max(lo, 0), max(hi, 0))
            x = il.pad(x, tuple(widths))
    c_in, c_out_g = kernel[0], kernel[1]
    w = il.reshape(weight, (groups, c_in // groups, c_out_g, *kernel[2:]))
    w = il.permute_dims(w, (0, 2, 1, 3, 4))
    w = il.flip(il.reshape(w, (groups * c_out_g, c_in // groups, *kernel[2:])), axis=(2, 3))
    return il.nn.conv2d(x, w, bias, stride=1, padding=0, dilation=d, groups=groups)


def _pool_check(who: str) -> Callable[..., None]:
    """The check of a 2-D pooling (``max_pool2d``, ``avg_pool2d``), as PyTorch checks.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.max_pool2d(ivy_like.zeros((1, 1, 4, 4)), 2, padding=2)
    Traceback (most recent call last):
    ...
    ValueError: max_pool2d: padding (2, 2) must be at most half the kernel size (2, 2)
    """

    def check(x: Any, kernel_size: Any, stride: Any, padding: Any, data_format: Any) -> None:
        _check_pool(who, dims(x), kernel_size, stride, padding, data_format)

    check.__name__ = check.__qualname__ = f"_check_{who}"
    return check


def _check_pool(
    who: str, x_shape: Any, kernel_size: Any, stride: Any, padding: Any, data_format: str
) -> None:
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"{who}: data_format must be 'NCHW' or 'NHWC', got {data_format!r}")
    if len(x_shape) != 4:
        raise ValueError(f"{who}: x must have 4 dimensions ({data_format}), got {len(x_shape)}")
    kernel = check_ints(kernel_size, 2, "kernel_size", who)
    strides = kernel if stride is None else check_ints(stride, 2, "stride", who)
    pads = check_ints(padding, 2, "padding", who)
    if 0 in kernel or 0 in strides:
        raise ValueError(f"{who}: kernel_size and stride must be positive")
    if any(2 * p > k for p, k in zip(pads, kernel)):
        raise ValueError(f"{who}: padding {pads} must be at most half the kernel size {kernel}")
    last = data_format == "NHWC"
    spatial = tuple(x_shape[1:3]) if last else tuple(x_shape[2:])
    for size, p, k in zip(spatial, pads, kernel):
        if size + 2 * p < k:
            raise ValueError(
                f"{who}: the (padded) spatial size {size + 2 * p} of x is smaller than the "
                f"kernel size {k}"
            )


def _windows(x: Any, kernel: Any, strides: Any, pads: Any, last: bool, fill: float) -> Any:
    """All pooling windows stacked on a new first axis (NCHW); padding holds ``fill``."""
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    if last:
        x = il.permute_dims(x, (0, 3, 1, 2))
    (ph, pw), (kh, kw), (sh, sw) = pads, kernel, strides
    if ph:
        edge = il.full_like(x[:, :, :1, :], fill)
        x = il.concat([edge] * ph + [x] + [edge] * ph, axis=2)
    if pw:
        edge = il.full_like(x[:, :, :, :1], fill)
        x = il.concat([edge] * pw + [x] + [edge] * pw, axis=3)
    h, w = int_shape(x)[2:]
    oh, ow = (h - kh) // sh + 1, (w - kw) // sw + 1
    if oh < 1 or ow < 1:
        raise ValueError(f"pooling: the input ({h}x{w} padded) is smaller than the kernel")
    return il.stack(
        [
            x[:, :, i : i + sh * (oh - 1) + 1 : sh, j : j + sw * (ow - 1) + 1 : sw]
            for i in range(kh)
            for j in range(kw)
        ]
    )


def _unlast(y: Any, last: bool) -> Any:
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    return il.permute_dims(y, (0, 2, 3, 1)) if last else y


def _pool(
    who: str,
    x: Any,
    kernel_size: Any,
    stride: Any,
    padding: Any,
    data_format: str,
    fill: float,
    reduce: str,
) -> Any:
    """The composite of max_pool2d and avg_pool2d: the windows stacked on a new first axis
    (padding holds ``fill``), reduced over it by ``ivy_like.<reduce>``."""
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    kernel, strides, pads, last = pool_geometry(
        int_shape(x), kernel_size, stride, padding, data_format
    )
    windows = _windows(x, kernel, strides, pads, last, fill)
    return _unlast(getattr(il, reduce)(windows, axis=0), last)


@op(arrays=("x",), check=_pool_check("max_pool2d"), **NN)
def max_pool2d(
    x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, data_format: str = "NCHW"
):
    """Maximum over ``kernel_size`` windows (``stride`` defaults to ``kernel_size``; padding
    counts as minus infinity, as in PyTorch).

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.reshape(ivy_like.arange(16.), (1, 1, 4, 4))
    >>> ivy_like.nn.max_pool2d(x, 2)
    ivy_like.array([[[[ 5.,  7.],
                      [13., 15.]]]])
    """
    return _pool("max_pool2d", x, kernel_size, stride, padding, data_format, _lowest(x), "max")


def _lowest(x: Any) -> Any:
    """What pads a max pool's input, so that it never wins a window: minus infinity, an
    integer dtype's minimum, False (-inf has no integer or boolean value: cast, it is 0 or
    True, which can win)."""
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    if il.isdtype(x.dtype, "bool"):
        return False
    if il.isdtype(x.dtype, "integral"):
        return int(il.iinfo(x.dtype).min)
    return -math.inf


@op(arrays=("x",), check=_pool_check("avg_pool2d"), **NN)
def avg_pool2d(
    x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, data_format: str = "NCHW"
):
    """Mean over ``kernel_size`` windows; zero padding is counted in the mean (PyTorch's
    default ``count_include_pad=True``).

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.reshape(ivy_like.arange(16.), (1, 1, 4, 4))
    >>> ivy_like.nn.avg_pool2d(x, 2)
    ivy_like.array([[[[ 2.5,  4.5],
                      [10.5, 12.5]]]])
    """
    return _pool("avg_pool2d", x, kernel_size, stride, padding, data_format, 0.0, "mean")


def _adaptive_check(who: str) -> Callable[..., None]:
    """The check of an adaptive pooling: ``x`` 3-D or 4-D, ``output_size`` a positive int or
    a pair of positive ints or None."""

    def check(x: Any, output_size: Any) -> None:
        shape = dims(x)
        if len(shape) not in (3, 4):
            raise ValueError(
                f"{who}: x must be 3-D (C, H, W) or 4-D (N, C, H, W), got shape {shape}"
            )
        if is_int_value(output_size):
            sizes: tuple[Any, ...] = (output_size, output_size)
        elif isinstance(output_size, Sequence) and len(output_size) == 2:
            sizes = tuple(output_size)
        else:
            raise TypeError(
                f"{who}: output_size must be an int or a pair of ints (or None), got "
                f"{output_size!r}"
            )
        if not all(given is None or (is_int_value(given) and given > 0) for given in sizes):
            raise ValueError(f"{who}: output_size must hold positive ints, got {output_size!r}")

    check.__name__ = check.__qualname__ = f"_check_{who}"
    return check


def _adaptive(x: Any, output_size: Any, reduce: str) -> Any:
    """``ivy_like.<reduce>`` over PyTorch's adaptive windows of the last two axes: cell ``i``
    of ``out`` along an axis of ``n`` covers ``[floor(i*n/out), ceil((i+1)*n/out))``."""
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    ndim = len(x.shape)
    for axis, out in zip((ndim - 2, ndim - 1), adaptive_output_size(int_shape(x), output_size)):
        shape = int_shape(x)
        n = shape[axis]
        if n % out == 0:  # equal windows: one reshape and one reduction
            split = (*shape[:axis], out, n // out, *shape[axis + 1 :])
            if axis > 0 and all(isinstance(s, int) and s > 0 for s in split[1:]):
                # the leading size inferred, not written: a dynamic batch (None in a TensorFlow
                # graph, an MLX shapeless export) must not be fixed at the example's
                split = (-1, *split[1:])
            x = getattr(il, reduce)(il.reshape(x, split), axis=axis + 1)
            continue
        index: list[Any] = [slice(None)] * len(shape)
        parts = []
        for i in range(out):
            index[axis] = slice((i * n) // out, -((-(i + 1) * n) // out))
            parts.append(getattr(il, reduce)(x[tuple(index)], axis=axis, keepdims=True))
        x = il.concat(parts, axis=axis)
    return x


@op(arrays=("x",), check=_adaptive_check("adaptive_avg_pool2d"), **NN)
def adaptive_avg_pool2d(x: Any, output_size: Any):
    """Average over the windows that split the last two axes into ``output_size`` cells
    (PyTorch's windows: cell ``i`` of ``n`` positions covers ``floor(i*n/out)`` to
    ``ceil((i+1)*n/out)``; they overlap when ``out`` does not divide ``n``).

    ``x`` is ``(N, C, H, W)`` or ``(C, H, W)``; ``output_size`` an int or an ``(h, w)`` pair,
    ``None`` keeping that axis.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.reshape(ivy_like.arange(16.), (1, 1, 4, 4))
    >>> ivy_like.nn.adaptive_avg_pool2d(x, 2)
    ivy_like.array([[[[ 2.5,  4.5],
                      [10.5, 12.5]]]])
    >>> ivy_like.nn.adaptive_avg_pool2d(x, 1)
    ivy_like.array([[[[7.5]]]])
    """
    return _adaptive(x, output_size, "mean")


@op(arrays=("x",), check=_adaptive_check("adaptive_max_pool2d"), **NN)
def adaptive_max_pool2d(x: Any, output_size: Any):
    """Maximum over the windows of :func:`adaptive_avg_pool2d` (PyTorch's windows), values
    only (no indices).

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.reshape(ivy_like.arange(16.), (1, 1, 4, 4))
    >>> ivy_like.nn.adaptive_max_pool2d(x, 2)
    ivy_like.array([[[[ 5.,  7.],
                      [13., 15.]]]])
    """
    return _adaptive(x, output_size, "max")

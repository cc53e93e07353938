"""``ivy_like.nn`` ops: the functional layers, declared once (issue 6).

Each op is published in ``ivy_like.nn`` (backend functions are named ``nn_<op>``). Ops whose
declaration has a body are *composites* written with ivy_like ops: they run on every backend
that does not define ``nn_<op>`` and are differentiable wherever the ops they use are. The
backends define natives where a framework kernel matters for speed (``softmax``, ``linear`` on
torch, the pooling windows) or is needed at all (``conv1d``/``conv2d``, the exact ``gelu``).

Layouts follow PyTorch unless ``data_format`` says otherwise: ``conv2d`` takes NCHW inputs and
OIHW weights (``data_format="NHWC"``: NHWC inputs, HWIO weights, Keras/TF's layout);
``conv1d`` NCW/OIW (``"NWC"``: NWC/WIO). Integer ``padding`` pads both sides of each spatial
axis; ``"valid"`` is no padding; ``"same"`` pads so that the output has ``ceil(size/stride)``
positions, the extra row going to the end (TF's and JAX's rule; PyTorch's for stride 1).

The helpers ``conv_geometry`` and ``pool_geometry`` are shared by every backend, so argument
checks and their error messages are the same everywhere.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from typing import Any

from ..core import backend as _backend
from ..core.registry import op

_NN = ("nn",)
_nn: dict[str, Any] = {"namespaces": _NN}  # Any: spread into @op's keywords of several types


# -- argument helpers shared with the backends ---------------------------------------------------
def _tuple(value: Any, n: int, name: str, who: str) -> tuple[int, ...]:
    """An int or a length-``n`` sequence of ints, as an ``n``-tuple of ints >= 0."""
    if isinstance(value, int) and not isinstance(value, bool):
        out = (value,) * n
    elif (
        isinstance(value, Sequence)
        and len(value) == n
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        out = tuple(value)
    else:
        raise TypeError(f"{who}: {name} must be an int or a sequence of {n} ints, got {value!r}")
    if any(v < 0 for v in out):
        raise ValueError(f"{who}: {name} must be non-negative, got {value!r}")
    return out


def conv_geometry(
    who: str,
    spatial: Sequence[int],
    kernel: Sequence[int],
    stride: Any,
    padding: Any,
    dilation: Any,
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...], tuple[int, ...]]:
    """``(strides, pads, dilations)`` for a convolution; ``pads`` is ``((lo, hi), ...)``.

    Examples
    --------
    >>> from ivy_like.ops.nn import conv_geometry
    >>> conv_geometry("conv2d", (5, 5), (3, 3), 2, "same", 1)
    ((2, 2), ((1, 1), (1, 1)), (1, 1))
    """
    n = len(spatial)
    strides = _tuple(stride, n, "stride", who)
    dilations = _tuple(dilation, n, "dilation", who)
    if 0 in strides or 0 in dilations:
        raise ValueError(f"{who}: stride and dilation must be positive")
    if isinstance(padding, str):
        mode = padding.lower()
        if mode == "valid":
            pads = ((0, 0),) * n
        elif mode == "same":
            pads = tuple(
                _same_pad(size, k, s, d)
                for size, k, s, d in zip(spatial, kernel, strides, dilations)
            )
        else:
            raise ValueError(
                f"{who}: padding must be 'valid', 'same', ints or pairs, got {padding!r}"
            )
    elif (
        isinstance(padding, Sequence)
        and len(padding) == n
        and all(isinstance(p, Sequence) and not isinstance(p, str) for p in padding)
    ):
        pads = tuple(_tuple(tuple(p), 2, "padding", who) for p in padding)  # type: ignore[misc]
    else:
        pads = tuple((p, p) for p in _tuple(padding, n, "padding", who))
    for size, k, (lo, hi), d in zip(spatial, kernel, pads, dilations):
        if size + lo + hi < (k - 1) * d + 1:
            raise ValueError(
                f"{who}: the (padded) input of size {size + lo + hi} is smaller than the "
                f"dilated kernel of size {(k - 1) * d + 1}"
            )
    return strides, pads, dilations


def _same_pad(size: int, k: int, s: int, d: int) -> tuple[int, int]:
    total = max((math.ceil(size / s) - 1) * s + (k - 1) * d + 1 - size, 0)
    return total // 2, total - total // 2


def check_conv(
    who: str,
    x_shape: Any,
    w_shape: Any,
    n: int,
    groups: int,
    data_format: str,
    b_shape: Any = None,
) -> bool:
    """Check ranks, channels, ``groups`` and the bias; return True for channels-last.

    Examples
    --------
    >>> from ivy_like.ops.nn import check_conv
    >>> check_conv("conv2d", (1, 5, 5, 3), (3, 3, 3, 8), 2, 1, "NHWC", (8,))
    True
    >>> check_conv("conv2d", (1, 3, 5, 5), (8, 3, 3, 3), 2, 1, "NCHW", (3,))
    Traceback (most recent call last):
    ...
    ValueError: conv2d: bias must have shape (8,) (out_channels), got (3,)
    """
    formats = {1: ("NCW", "NWC"), 2: ("NCHW", "NHWC")}[n]
    if data_format not in formats:
        raise ValueError(f"{who}: data_format must be one of {formats}, got {data_format!r}")
    last = data_format == formats[1]
    if len(x_shape) != n + 2:
        raise ValueError(
            f"{who}: x must have {n + 2} dimensions ({data_format}), got {len(x_shape)}"
        )
    if len(w_shape) != n + 2:
        raise ValueError(f"{who}: weight must have {n + 2} dimensions, got {len(w_shape)}")
    if not isinstance(groups, int) or isinstance(groups, bool) or groups < 1:
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
    if b_shape is not None and tuple(b_shape) != (c_out,):
        raise ValueError(
            f"{who}: bias must have shape ({c_out},) (out_channels), got {tuple(b_shape)}"
        )
    return last


def pool_geometry(
    who: str, x_shape: Any, kernel_size: Any, stride: Any, padding: Any, data_format: str
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], bool]:
    """``(kernel, strides, pads, channels_last)`` of a 2-D pooling, checked as PyTorch does.

    Examples
    --------
    >>> from ivy_like.ops.nn import pool_geometry
    >>> pool_geometry("max_pool2d", (1, 3, 4, 4), 2, None, 0, "NCHW")
    ((2, 2), (2, 2), (0, 0), False)
    """
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"{who}: data_format must be 'NCHW' or 'NHWC', got {data_format!r}")
    if len(x_shape) != 4:
        raise ValueError(f"{who}: x must have 4 dimensions ({data_format}), got {len(x_shape)}")
    kernel = _tuple(kernel_size, 2, "kernel_size", who)
    strides = kernel if stride is None else _tuple(stride, 2, "stride", who)
    pads = _tuple(padding, 2, "padding", who)
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
    return kernel, strides, pads, last


def check_linear(x_shape: Any, w_shape: Any, b_shape: Any) -> None:
    """Check the shapes of :func:`linear`'s arguments (weight ``(out, in)``)."""
    if len(w_shape) != 2:
        raise ValueError(f"linear: weight must be 2-D (out_features, in_features), got {w_shape}")
    if len(x_shape) < 1 or x_shape[-1] != w_shape[1]:
        raise ValueError(
            f"linear: the last axis of x ({x_shape}) must have in_features={w_shape[1]} "
            f"elements (weight is {w_shape})"
        )
    if b_shape is not None and tuple(b_shape) != (w_shape[0],):
        raise ValueError(f"linear: bias must have shape ({w_shape[0]},), got {tuple(b_shape)}")


def check_axis(who: str, ndim: int, axis: Any) -> None:
    """``axis`` must be an int in ``[-ndim, ndim)``."""
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError(f"{who}: axis must be an int, got {axis!r}")
    if not -ndim <= axis < max(ndim, 1):
        raise ValueError(f"{who}: axis {axis} is out of range for x with {ndim} dimensions")


def _reduction(value: Any, reduction: str, who: str) -> Any:
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    if reduction == "mean":
        return il.mean(value)
    if reduction == "sum":
        return il.sum(value)
    if reduction == "none":
        return value
    raise ValueError(f"{who}: reduction must be 'mean', 'sum' or 'none', got {reduction!r}")


def _shape(x: Any) -> tuple[int, ...]:
    return tuple(int(s) for s in x.shape)


# -- dense layers ----------------------------------------------------------------------------
@op(arrays=("x", "weight", "bias"), **_nn)
def linear(x: Any, weight: Any, bias: Any = None):
    """``x @ weight.T + bias``, with PyTorch's layout: ``weight`` is ``(out, in)``.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([[1., 2.]])
    >>> w = ivy_like.array([[1., 0.], [1., 1.], [0., 2.]])
    >>> ivy_like.nn.linear(x, w, ivy_like.array([0., 0., 1.]))
    ivy_like.array([[1., 3., 5.]])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    check_linear(_shape(x), _shape(weight), None if bias is None else _shape(bias))
    y = il.matmul(x, il.matrix_transpose(weight))
    return y if bias is None else y + bias


@op(arrays=("indices", "weight"), **_nn)
def embedding(indices: Any, weight: Any):
    """Rows of ``weight`` (``(num_embeddings, dim)``) at integer ``indices`` of any shape.

    Examples
    --------
    >>> import ivy_like
    >>> w = ivy_like.array([[0., 0.], [1., 1.], [2., 2.]])
    >>> ivy_like.nn.embedding(ivy_like.array([[2, 0]]), w)
    ivy_like.array([[[2., 2.],
                     [0., 0.]]])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    shape = _shape(indices)
    if len(_shape(weight)) != 2:
        raise ValueError(
            f"embedding: weight must be 2-D (num_embeddings, dim), got shape {_shape(weight)}"
        )
    if not _is_int(indices):
        raise TypeError(f"embedding: indices must be integers, got dtype {indices.dtype}")
    rows = il.take(weight, il.reshape(indices, (-1,)), axis=0)
    return il.reshape(rows, (*shape, _shape(weight)[1]))


# -- convolutions and pooling (native on every backend) ----------------------------------------
@op(arrays=("x", "weight", "bias"), **_nn)
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


@op(arrays=("x", "weight", "bias"), **_nn)
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
    h, w = _shape(x)[2:]
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
        who, _shape(x), kernel_size, stride, padding, data_format
    )
    windows = _windows(x, kernel, strides, pads, last, fill)
    return _unlast(getattr(il, reduce)(windows, axis=0), last)


@op(arrays=("x",), **_nn)
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
    return _pool("max_pool2d", x, kernel_size, stride, padding, data_format, -math.inf, "max")


@op(arrays=("x",), **_nn)
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


# -- normalization and dropout -------------------------------------------------------------------
@op(arrays=("x", "weight", "bias"), **_nn)
def layer_norm(
    x: Any, normalized_shape: Any, weight: Any = None, bias: Any = None, eps: float = 1e-5
):
    """Normalize over the trailing ``normalized_shape`` axes (biased variance, as PyTorch),
    then scale by ``weight`` and shift by ``bias``.

    Examples
    --------
    >>> import ivy_like
    >>> y = ivy_like.nn.layer_norm(ivy_like.array([[1., 3.], [2., 2.]]), 2)
    >>> [[round(float(v), 4) for v in row] for row in y.to_numpy()]
    [[-1.0, 1.0], [0.0, 0.0]]
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    dims = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if _shape(x)[len(_shape(x)) - len(dims) :] != dims:
        raise ValueError(
            f"layer_norm: normalized_shape {dims} does not match the trailing axes of x {_shape(x)}"
        )
    axes = tuple(range(-len(dims), 0))
    mu = il.mean(x, axis=axes, keepdims=True)
    centered = x - mu
    var = il.mean(centered * centered, axis=axes, keepdims=True)
    y = centered / il.sqrt(var + eps)
    if weight is not None:
        y = y * weight
    return y if bias is None else y + bias


@op(arrays=("x", "running_mean", "running_var", "weight", "bias"), **_nn)
def batch_norm(
    x: Any,
    running_mean: Any,
    running_var: Any,
    weight: Any = None,
    bias: Any = None,
    eps: float = 1e-5,
    axis: int = 1,
):
    """Batch normalization at inference: ``(x - running_mean) / sqrt(running_var + eps)``,
    scaled and shifted, with the statistics taken along the channel ``axis`` (1: NC...).

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([[1., 2.], [3., 4.]])
    >>> ivy_like.nn.batch_norm(x, ivy_like.array([1., 2.]), ivy_like.array([4., 1.]), eps=0.)
    ivy_like.array([[0., 0.],
                    [1., 2.]])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    ndim = len(_shape(x))
    if ndim < 2:
        raise ValueError(f"batch_norm: x must have at least 2 dimensions, got {ndim}")
    check_axis("batch_norm", ndim, axis)
    channels = _shape(x)[axis]
    for name, v in (
        ("running_mean", running_mean),
        ("running_var", running_var),
        ("weight", weight),
        ("bias", bias),
    ):
        if v is not None and _shape(v) != (channels,):
            raise ValueError(
                f"batch_norm: {name} must have shape ({channels},) (the channels of x along "
                f"axis {axis}), got {_shape(v)}"
            )
    shape = [1] * ndim
    shape[axis % ndim] = -1

    def channel(v: Any) -> Any:
        return il.reshape(v, tuple(shape))

    y = (x - channel(running_mean)) / il.sqrt(channel(running_var) + eps)
    if weight is not None:
        y = y * channel(weight)
    return y if bias is None else y + channel(bias)


@op(arrays=("x",), **_nn)
def dropout(x: Any, p: float = 0.5, key: Any = None):
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``.

    ``key`` is the seed of the mask (see :mod:`ivy_like.random`): an int, or a key array
    (``ivy_like.random.key``) of the backend of ``x``, which may be an input of a compiled
    function, so that each step draws a new mask without compiling again. The same key gives
    the same mask on every backend. ``key=None`` means inference: ``x`` is returned unchanged.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.dropout(ivy_like.ones(6), 0.5, key=0)
    ivy_like.array([0., 2., 2., 2., 0., 0.])
    >>> ivy_like.nn.dropout(ivy_like.ones(6), 0.5, key=ivy_like.random.key(0))
    ivy_like.array([2., 0., 0., 2., 2., 2.])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    if not isinstance(p, (int, float)) or not 0.0 <= p < 1.0:
        raise ValueError(f"dropout: p must be a probability in [0, 1), got {p!r}")
    if key is None or p == 0:
        return x
    from .. import random

    if isinstance(key, int) and not isinstance(key, bool):
        b = _backend.current_backend()
        keep = random.bernoulli(1.0 - p, _shape(x), seed=key, backend=b).data
    elif random._is_key_array(key):
        # The backend of x, not the active one: no ContextVar read, which torch.compile
        # cannot trace.
        b = _backend.backend_of(x)
        keep = random._keyed_bernoulli(1.0 - p, _shape(x), key, b, "dropout").data
    else:
        raise TypeError(
            f"dropout: key must be an int seed, a key array (ivy_like.random.key) or None, "
            f"got {type(key).__name__}"
        )
    return il.where(keep, x / (1.0 - p), il.zeros_like(x))


# -- activations ---------------------------------------------------------------------------------
@op(arrays=("x",), **_nn)
def relu(x: Any):
    """``max(x, 0)``; the gradient at 0 is 0 on every backend and NaN propagates.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.relu(ivy_like.array([-1., 0., 2.]))
    ivy_like.array([0., 0., 2.])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    return il.where(x <= 0, il.zeros_like(x), x)  # NaN stays NaN


@op(arrays=("x",), **_nn)
def gelu(x: Any, approximate: str = "none"):
    """Gaussian error linear unit, ``x * Phi(x)`` (exact, with erf), or its tanh form with
    ``approximate="tanh"`` (PyTorch's names).

    Examples
    --------
    >>> import ivy_like
    >>> y = ivy_like.nn.gelu(ivy_like.array([-1., 0., 1.]))
    >>> [round(float(v), 4) for v in y.to_numpy()]
    [-0.1587, 0.0, 0.8413]
    """


def tanh_gelu(x: Any) -> Any:
    """The tanh approximation of gelu, written with ivy_like ops (used by the backends).

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.ops.nn import tanh_gelu
    >>> np.round(tanh_gelu(np.array([-1.0, 0.0, 1.0])), 4)
    array([-0.1588,  0. ,  0.8412])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)
    return 0.5 * x * (1.0 + il.tanh(inner))


def check_gelu(approximate: str) -> None:
    """``approximate`` must be ``"none"`` or ``"tanh"`` (PyTorch's names).

    Examples
    --------
    >>> from ivy_like.ops.nn import check_gelu
    >>> check_gelu("fast")
    Traceback (most recent call last):
    ...
    ValueError: gelu: approximate must be 'none' or 'tanh', got 'fast'
    """
    if approximate not in ("none", "tanh"):
        raise ValueError(f"gelu: approximate must be 'none' or 'tanh', got {approximate!r}")


@op(arrays=("x",), **_nn)
def sigmoid(x: Any):
    """The logistic function ``1 / (1 + exp(-x))``, without overflow for large ``|x|``.

    Examples
    --------
    >>> import ivy_like
    >>> y = ivy_like.nn.sigmoid(ivy_like.array([0., 2., 100., -100.]))
    >>> [round(float(v), 4) for v in y.to_numpy()]
    [0.5, 0.8808, 1.0, 0.0]
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    e = il.exp(-il.abs(x))
    return il.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


@op(arrays=("x",), **_nn)
def silu(x: Any):
    """``x * sigmoid(x)`` (also called swish).

    Examples
    --------
    >>> import ivy_like
    >>> [round(float(v), 4) for v in ivy_like.nn.silu(ivy_like.array([0., 1.])).to_numpy()]
    [0.0, 0.7311]
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    return x * il.nn.sigmoid(x)


@op(arrays=("x",), **_nn)
def softmax(x: Any, axis: int = -1):
    """``exp(x) / sum(exp(x))`` along ``axis``, computed stably (shifted by the maximum).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.softmax(ivy_like.array([0., 0., 1000.]))
    ivy_like.array([0., 0., 1.])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    check_axis("softmax", len(_shape(x)), axis)
    e = il.exp(x - il.stop_gradient(il.max(x, axis=axis, keepdims=True)))
    return e / il.sum(e, axis=axis, keepdims=True)


@op(arrays=("x",), **_nn)
def log_softmax(x: Any, axis: int = -1):
    """``x - log(sum(exp(x)))`` along ``axis``, computed stably.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.log_softmax(ivy_like.array([0., 0.]))
    ivy_like.array([-0.6931472, -0.6931472])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    check_axis("log_softmax", len(_shape(x)), axis)
    shifted = x - il.stop_gradient(il.max(x, axis=axis, keepdims=True))
    return shifted - il.log(il.sum(il.exp(shifted), axis=axis, keepdims=True))


# -- attention and losses ------------------------------------------------------------------------
@op(arrays=("query", "key", "value", "attn_mask"), **_nn)
def scaled_dot_product_attention(
    query: Any,
    key: Any,
    value: Any,
    attn_mask: Any = None,
    is_causal: bool = False,
    scale: float | None = None,
):
    """``softmax(query @ key^T * scale + mask) @ value`` over the last two axes.

    ``scale`` defaults to ``1/sqrt(d)``. ``attn_mask`` is boolean (True: may attend, as in
    PyTorch) or additive floats; ``is_causal`` masks positions after the query's own.

    Examples
    --------
    >>> import ivy_like
    >>> q = ivy_like.array([[1., 0.]])
    >>> kv = ivy_like.array([[1., 0.], [0., 1.]])
    >>> ivy_like.nn.scaled_dot_product_attention(q, kv, kv, is_causal=True)
    ivy_like.array([[1., 0.]])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    check_attention(
        _shape(query),
        _shape(key),
        _shape(value),
        None if attn_mask is None else _shape(attn_mask),
    )
    d = _shape(query)[-1]
    scores = il.matmul(query, il.matrix_transpose(key)) * (
        (1.0 / math.sqrt(d)) if scale is None else scale
    )
    neg = il.full_like(scores, -math.inf)
    if is_causal:
        lq, lk = _shape(scores)[-2:]
        allowed = il.to_native(il.tril(il.ones((lq, lk)))) > 0  # creation gives an Array
        scores = il.where(allowed, scores, neg)
    if attn_mask is not None:
        if "bool" in str(attn_mask.dtype):
            scores = il.where(attn_mask, scores, neg)
        else:
            scores = scores + attn_mask
    return il.matmul(il.nn.softmax(scores, axis=-1), value)


def check_attention(q: Any, k: Any, v: Any, mask: Any) -> None:
    """Shape checks of :func:`scaled_dot_product_attention` (shapes as tuples)."""
    who = "scaled_dot_product_attention"
    for name, s in (("query", q), ("key", k), ("value", v)):
        if len(s) < 2:
            raise ValueError(f"{who}: {name} must have at least 2 dimensions, got shape {s}")
    if q[-1] != k[-1]:
        raise ValueError(
            f"{who}: query and key must have the same last axis (embedding size), got {q} and {k}"
        )
    if k[-2] != v[-2]:
        raise ValueError(
            f"{who}: key and value must have the same length (axis -2), got {k} and {v}"
        )
    if mask is not None:
        scores = (q[-2], k[-2])
        tail = mask[-2:] if len(mask) >= 2 else mask
        ok = all(a in (1, b) for a, b in zip(reversed(tail), reversed(scores)))
        if not ok or len(mask) > max(len(q), len(k)):
            raise ValueError(
                f"{who}: attn_mask of shape {mask} does not broadcast to the attention scores "
                f"(..., {q[-2]}, {k[-2]})"
            )


@op(arrays=("logits", "labels"), **_nn)
def cross_entropy(logits: Any, labels: Any, reduction: str = "mean"):
    """Softmax cross-entropy with the classes on the last axis of ``logits``.

    ``labels`` holds integer class indices (the shape of ``logits`` without its last axis),
    or floating class probabilities of the shape of ``logits``. ``reduction``: ``"mean"``,
    ``"sum"`` or ``"none"``. A class index outside ``[0, classes)`` is a ``ValueError`` naming
    its position and value in eager code on every backend; in traced code (``jax.jit``,
    ``tf.function``, ``mx.compile``) the values are unknown, nothing is checked, and such a
    label matches no class: its loss is 0 (``torch.compile``: torch's own RuntimeError from
    the compiled bounds check).

    Examples
    --------
    >>> import ivy_like
    >>> logits = ivy_like.array([[0., 0.], [0., 0.]])
    >>> ivy_like.nn.cross_entropy(logits, ivy_like.array([0, 1]))
    ivy_like.array(0.6931472)
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    logp = il.nn.log_softmax(logits, axis=-1)
    lshape, tshape = _shape(logits), _shape(labels)
    if tshape == lshape and _is_float(labels):
        losses = -il.sum(labels * logp, axis=-1)
    elif tshape == lshape[:-1]:
        if not _is_int(labels):
            raise TypeError(
                f"cross_entropy: labels of shape {tshape} are class indices and must be "
                f"integers, got dtype {labels.dtype}"
            )
        classes = il.to_native(il.arange(lshape[-1]))  # creation gives an Array
        _check_labels(il, labels, classes, lshape[-1])
        hit = il.equal(il.expand_dims(labels, axis=-1), classes)
        losses = -il.sum(il.where(hit, logp, il.zeros_like(logp)), axis=-1)
    else:
        raise ValueError(
            f"cross_entropy: labels of shape {tshape} do not fit logits of shape {lshape} "
            f"(expected {lshape[:-1]} class indices or {lshape} probabilities)"
        )
    return _reduction(losses, reduction, "cross_entropy")


def _check_labels(
    il: Any,
    labels: Any,
    classes: Any,
    n: int,
    who: str = "cross_entropy",
    names: tuple[str, str] = ("labels", "logits"),
) -> None:
    """Class indices outside ``[0, n)`` are a ValueError where their values can be read.

    ``take`` reads them: every backend bounds-checks the index values it can read (eager
    code, on the failure path of the framework's own check or from one min/max on the host)
    and passes traced ones on unchecked, which is the rule wanted here. Negative labels are
    first replaced by ``n``, out of take's range (take counts ``-n..-1`` from the end). Three
    ops for 1-D int32/int64 labels: measured +5 µs on NumPy, +6 on torch, +25-28 on MLX,
    +37-45 on TensorFlow and +34-70 on JAX (eager, two runs on a shared 2-core machine) for
    64 labels and 10 classes.
    """
    flat = labels if len(_shape(labels)) == 1 else il.reshape(labels, (-1,))
    if il.as_dtype(labels.dtype).bits < 32:  # so that n fits (300 in int8 would wrap to 44)
        flat = il.astype(flat, il.int32)
    try:
        il.take(classes, il.where(flat < 0, n, flat))
    except IndexError:
        try:
            values = il.to_numpy(labels)
        except RuntimeError:  # inside torch.func.vmap: each example has its own labels
            values = None
        raise ValueError(label_error(values, n, who, names)) from None


def label_error(
    values: Any,
    n: int,
    who: str = "cross_entropy",
    names: tuple[str, str] = ("labels", "logits"),
    ignore_index: int | None = None,
) -> str:
    """The message for the first label of ``values`` (a NumPy array, or None when they
    cannot be read) outside ``[0, n)``; ``names`` are those of the labels and of the scores
    (``ignore_index``: a label value that is allowed anyway)."""
    labels, scores = names
    classes = f"a class index of {scores} with {n} classes (0 to {n - 1})"
    if values is None:
        return f"{who}: {labels} hold a value that is not {classes}"
    flat = values.reshape(-1).tolist()
    i = next(i for i, v in enumerate(flat) if not 0 <= v < n and v != ignore_index)
    return f"{who}: {_element(labels, values.shape, i)} is {flat[i]}, not {classes}"


def _element(name: str, shape: Sequence[int], i: int) -> str:
    """``name[2, 1]``: the element at flat (C order) position ``i`` of an array of ``shape``."""
    position = []
    for size in reversed(shape):
        i, rest = divmod(i, size)
        position.append(str(rest))
    return f"{name}[{', '.join(reversed(position))}]" if position else name


def _is_float(x: Any) -> bool:
    return "float" in str(x.dtype)


def _is_int(x: Any) -> bool:
    return "int" in str(x.dtype)


@op(arrays=("input", "target"), **_nn)
def mse_loss(input: Any, target: Any, reduction: str = "mean"):  # noqa: A002 - PyTorch's name
    """Mean squared error ``(input - target) ** 2``, reduced by ``reduction``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.mse_loss(ivy_like.array([1., 2.]), ivy_like.array([1., 4.]))
    ivy_like.array(2.)
    """
    if _shape(input) != _shape(target):
        raise ValueError(
            f"mse_loss: input and target must have the same shape, got {_shape(input)} and "
            f"{_shape(target)} (broadcasting in a loss is almost always a bug)"
        )
    diff = input - target
    return _reduction(diff * diff, reduction, "mse_loss")


# -- more losses (issue 24), with torch.nn.functional's names, arguments and numbers --------------
# Arguments that torch takes positionally only after its deprecated ``size_average``/``reduce``
# are keyword-only here, so that every call that is valid here means the same in torch.
# Their checks are helpers shared with the native kernels (backends/torch/nn.py), so a bad
# argument is the same error on every backend. The arithmetic is ivy_like functions rather
# than operators on the native arrays: MXNet's own operators fail on 0-d arrays (the loss of
# a 1-D ``nll_loss`` input, any loss of 0-d inputs).
_REDUCTIONS = ("mean", "sum", "none")


def _one_of(values: Sequence[str]) -> str:
    quoted = [repr(v) for v in values]
    return ", ".join(quoted[:-1]) + " or " + quoted[-1]


def check_reduction(who: str, reduction: Any, allowed: Sequence[str] = _REDUCTIONS) -> None:
    """``reduction`` must be one of ``allowed`` (torch's names)."""
    if reduction not in allowed:
        raise ValueError(f"{who}: reduction must be {_one_of(allowed)}, got {reduction!r}")


def _broadcasts_to(shape: Sequence[int], target: Sequence[int]) -> bool:
    """True when an array of ``shape`` broadcasts to ``target`` without changing it."""
    return len(shape) <= len(target) and all(
        a in (1, b) for a, b in zip(reversed(shape), reversed(target))
    )


def check_loss(
    who: str,
    input_shape: tuple[int, ...],
    target_shape: tuple[int, ...],
    reduction: Any,
    reductions: Sequence[str] = _REDUCTIONS,
    **weights: tuple[int, ...] | None,
) -> None:
    """The checks of an elementwise loss: ``reduction``, one shape for ``input`` and
    ``target``, and weights (their shapes, or None) that broadcast to it.

    Examples
    --------
    >>> from ivy_like.ops.nn import check_loss
    >>> check_loss("huber_loss", (2, 3), (2, 3), "mean", weight=(3, 1))
    Traceback (most recent call last):
    ...
    ValueError: huber_loss: weight of shape (3, 1) does not broadcast to the shape of input (2, 3)
    """
    check_reduction(who, reduction, reductions)
    if input_shape != target_shape:
        raise ValueError(
            f"{who}: input and target must have the same shape, got {input_shape} and "
            f"{target_shape} (broadcasting in a loss is almost always a bug)"
        )
    for name, shape in weights.items():
        if shape is not None and not _broadcasts_to(shape, input_shape):
            raise ValueError(
                f"{who}: {name} of shape {shape} does not broadcast to the shape of input "
                f"{input_shape}"
            )


def check_number(who: str, name: str, value: Any, positive: bool = False) -> float:
    """A real number ``>= 0`` (``> 0`` when ``positive``), as a float."""
    if (
        not isinstance(value, (int, float))
        or isinstance(value, bool)
        or not (value > 0 if positive else value >= 0)
    ):
        kind = "positive" if positive else "non-negative"
        raise ValueError(f"{who}: {name} must be a {kind} number, got {value!r}")
    return float(value)


def _optional_shape(x: Any) -> tuple[int, ...] | None:
    return None if x is None else _shape(x)


def probability_error(who: str, values: dict[str, Any]) -> str:
    """The message for the first value outside ``[0, 1]`` (or NaN) among ``values``
    (name -> NumPy array, in the order they are checked)."""
    for name, array in values.items():
        flat = array.reshape(-1).tolist()
        for i, v in enumerate(flat):
            if not 0.0 <= v <= 1.0:
                return (
                    f"{who}: {_element(name, array.shape, i)} is {v}, not a probability in [0, 1]"
                )
    return f"{who}: input and target must hold probabilities in [0, 1]"


def _check_probabilities(il: Any, input: Any, target: Any, who: str) -> None:  # noqa: A002
    """Values of ``input`` or ``target`` outside ``[0, 1]`` (NaN too) are a ValueError, as
    torch's check, where they can be read. As in :func:`_check_labels`, ``take``'s bounds
    check reads them: a one-element flag, 1 when a value is bad, is taken at itself, which is
    out of range exactly then. Eager code is checked on every backend, traced code
    (``jax.jit``, ``tf.function``, ``mx.compile``) passes unchecked. ``x * (1 - x) >= 0``
    holds exactly on ``[0, 1]`` and is False for NaN.
    """
    inside = il.logical_and(
        il.greater_equal(il.multiply(input, il.subtract(1.0, input)), 0.0),
        il.greater_equal(il.multiply(target, il.subtract(1.0, target)), 0.0),
    )
    flag = il.reshape(il.astype(il.logical_not(il.all(inside)), il.int32), (1,))
    try:
        il.take(flag, flag)
    except IndexError:
        values = {"input": il.to_numpy(input), "target": il.to_numpy(target)}
        raise ValueError(probability_error(who, values)) from None


def _safe_log(il: Any, x: Any, inside: Any, log: Any) -> Any:
    """``max(log(x), -100)`` where ``inside``, else -100 (torch's clamp of a log of 0), with a
    finite gradient everywhere: the log never sees a value outside its domain."""
    safe = log(il.where(inside, x, 0.5))
    return il.where(inside, il.clip(safe, min=-100.0), -100.0)


@op(arrays=("input", "target", "weight"), **_nn)
def binary_cross_entropy(
    input: Any,  # noqa: A002 - PyTorch's name
    target: Any,
    weight: Any = None,
    *,
    reduction: str = "mean",
):
    """Binary cross-entropy of probabilities ``input`` against ``target`` (both in
    ``[0, 1]``): ``-weight * (target * log(input) + (1 - target) * log(1 - input))``, each log
    clamped at -100 as in PyTorch. ``weight`` broadcasts to the shape of ``input``.

    A value outside ``[0, 1]`` (or NaN) is a ``ValueError`` naming its position, in eager code
    on every backend; traced code (``jax.jit``, ``tf.function``, ``mx.compile``) is not
    checked and such a value gives NaN. At an input of exactly 0 or 1 the loss is clamped
    (100 per element at most) and the gradient is finite, but it is not torch's there.

    Examples
    --------
    >>> import ivy_like
    >>> p = ivy_like.array([0.5, 0.9, 0.2])
    >>> y = ivy_like.array([1., 1., 0.])
    >>> loss = ivy_like.nn.binary_cross_entropy(p, y, reduction="none")
    >>> [round(float(v), 4) for v in loss.to_numpy()]
    [0.6931, 0.1054, 0.2231]
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    who = "binary_cross_entropy"
    check_loss(who, _shape(input), _shape(target), reduction, weight=_optional_shape(weight))
    _check_probabilities(il, input, target, who)
    log_p = _safe_log(il, input, il.greater(input, 0.0), il.log)
    log_q = _safe_log(il, il.negative(input), il.less(input, 1.0), il.log1p)  # log(1 - input)
    likelihood = il.add(il.multiply(target, log_p), il.multiply(il.subtract(1.0, target), log_q))
    losses = il.negative(likelihood)
    if weight is not None:
        losses = il.multiply(losses, weight)
    return _reduction(losses, reduction, who)


def _softplus(il: Any, z: Any) -> Any:
    """``log(1 + exp(z))`` without overflow and with the exact gradient ``sigmoid(z)``
    everywhere, 0 included (``max(z, 0) + log1p(exp(-|z|))`` has ties at 0 that backends
    split differently, and TensorFlow's ``logaddexp`` gives 0 for the gradient there)."""
    up = il.greater(z, 0.0)
    return il.add(il.where(up, z, 0.0), il.log1p(il.exp(il.where(up, il.negative(z), z))))


@op(arrays=("input", "target", "weight", "pos_weight"), **_nn)
def binary_cross_entropy_with_logits(
    input: Any,  # noqa: A002 - PyTorch's name
    target: Any,
    weight: Any = None,
    *,
    reduction: str = "mean",
    pos_weight: Any = None,
):
    """Binary cross-entropy of ``sigmoid(input)`` against ``target``, computed from the
    logits without overflow: ``weight * ((1 - target) * input + (1 + (pos_weight - 1) *
    target) * log(1 + exp(-input)))``. ``pos_weight`` weighs the positive term (one per class
    on the last axis, or any shape that broadcasts to ``input``), ``weight`` each element.

    Examples
    --------
    >>> import ivy_like
    >>> z = ivy_like.array([0., 2., -1.])
    >>> y = ivy_like.array([1., 1., 0.])
    >>> loss = ivy_like.nn.binary_cross_entropy_with_logits(z, y, reduction="none")
    >>> [round(float(v), 4) for v in loss.to_numpy()]
    [0.6931, 0.1269, 0.3133]
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    who = "binary_cross_entropy_with_logits"
    check_loss(
        who,
        _shape(input),
        _shape(target),
        reduction,
        weight=_optional_shape(weight),
        pos_weight=_optional_shape(pos_weight),
    )
    minus_log_sigmoid = _softplus(il, il.negative(input))  # -log(sigmoid(input))
    if pos_weight is not None:
        log_weight = il.add(1.0, il.multiply(il.subtract(pos_weight, 1.0), target))
        minus_log_sigmoid = il.multiply(log_weight, minus_log_sigmoid)
    losses = il.add(il.multiply(il.subtract(1.0, target), input), minus_log_sigmoid)
    if weight is not None:
        losses = il.multiply(losses, weight)
    return _reduction(losses, reduction, who)


def check_nll(
    input_shape: tuple[int, ...],
    target_shape: tuple[int, ...],
    target_is_int: bool,
    weight_shape: tuple[int, ...] | None,
    reduction: Any,
) -> int:
    """Check :func:`nll_loss`'s arguments; return the class axis of ``input``.

    Examples
    --------
    >>> from ivy_like.ops.nn import check_nll
    >>> check_nll((4, 3, 5), (4, 5), True, (3,), "sum")
    1
    >>> check_nll((4, 3), (3,), True, None, "mean")
    Traceback (most recent call last):
    ...
    ValueError: nll_loss: target of shape (3,) does not fit input of shape (4, 3) (expected (4,): the shape of input without its class axis 1)
    """
    check_reduction("nll_loss", reduction)
    if not input_shape:
        raise ValueError("nll_loss: input must have at least 1 dimension (the classes), got 0")
    axis = 0 if len(input_shape) == 1 else 1
    expected = input_shape[:axis] + input_shape[axis + 1 :]
    if target_shape != expected:
        raise ValueError(
            f"nll_loss: target of shape {target_shape} does not fit input of shape "
            f"{input_shape} (expected {expected}: the shape of input without its class axis "
            f"{axis})"
        )
    if not target_is_int:
        raise TypeError("nll_loss: target holds class indices and must have an integer dtype")
    if weight_shape is not None and weight_shape != (input_shape[axis],):
        raise ValueError(
            f"nll_loss: weight must have shape ({input_shape[axis]},) (one per class), got "
            f"{weight_shape}"
        )
    return axis


@op(arrays=("input", "target", "weight"), **_nn)
def nll_loss(
    input: Any,  # noqa: A002 - PyTorch's name
    target: Any,
    weight: Any = None,
    *,
    ignore_index: int = -100,
    reduction: str = "mean",
):
    """Negative log-likelihood of class indices ``target`` under log-probabilities ``input``.

    PyTorch's layout: the classes are axis 1 of ``input`` (``(N, C)`` or ``(N, C, d1, ...)``;
    a 1-D ``input`` is one example with a 0-d ``target``), which is where
    ``log_softmax(x, axis=1)`` puts them. ``cross_entropy`` takes them on the last axis
    instead; for 2-D inputs the two agree. ``weight`` (one per class) weighs each term, and
    ``"mean"`` divides by the sum of the weights of the targets counted (``1`` each without
    ``weight``). Targets equal to ``ignore_index`` count nothing (0 under ``"none"``).

    A class index outside ``[0, C)`` is a ``ValueError`` naming its position and value, in
    eager code on every backend; in traced code it is not checked and counts nothing.

    Examples
    --------
    >>> import ivy_like
    >>> logp = ivy_like.log(ivy_like.array([[0.5, 0.25, 0.25], [0.1, 0.1, 0.8]]))
    >>> ivy_like.nn.nll_loss(logp, ivy_like.array([0, 2]), reduction="none")
    ivy_like.array([0.6931472 , 0.22314353])
    >>> ivy_like.nn.nll_loss(logp, ivy_like.array([0, -100]))   # the second is ignored
    ivy_like.array(0.6931472)
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    shape = _shape(input)
    axis = check_nll(shape, _shape(target), _is_int(target), _optional_shape(weight), reduction)
    n = shape[axis]
    classes = il.to_native(il.arange(n))  # creation gives an Array
    valid = il.not_equal(target, ignore_index)
    _check_labels(il, il.where(valid, target, 0), classes, n, "nll_loss", ("target", "input"))
    trailing = (1,) * (len(shape) - axis - 1)  # classes broadcast along axis 1 of input
    hit = il.equal(il.expand_dims(target, axis=axis), il.reshape(classes, (n, *trailing)))
    picked = il.sum(il.where(hit, input, 0.0), axis=axis)
    if weight is None:
        counted = il.astype(valid, input.dtype)
    else:
        w = il.sum(il.where(hit, il.reshape(weight, (n, *trailing)), 0.0), axis=axis)
        counted = il.where(valid, w, 0.0)
    losses = il.negative(il.multiply(picked, counted))
    if reduction == "mean":
        return il.divide(il.sum(losses), il.sum(counted))
    return _reduction(losses, reduction, "nll_loss")


@op(arrays=("input", "target", "weight"), **_nn)
def huber_loss(
    input: Any,  # noqa: A002 - PyTorch's name
    target: Any,
    reduction: str = "mean",
    delta: float = 1.0,
    weight: Any = None,
):
    """Huber loss: ``0.5 * d**2`` where ``|d| < delta``, else ``delta * (|d| - 0.5 * delta)``,
    for ``d = input - target``, times ``weight`` (any shape that broadcasts to ``input``).
    ``delta`` must be positive. The argument order is torch's, all of them positional.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([0.5, 3.0, -2.0])
    >>> ivy_like.nn.huber_loss(x, ivy_like.zeros(3), reduction="none")
    ivy_like.array([0.125, 2.5  , 1.5  ])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    check_loss(
        "huber_loss", _shape(input), _shape(target), reduction, weight=_optional_shape(weight)
    )
    delta = check_number("huber_loss", "delta", delta, positive=True)
    diff = il.subtract(input, target)
    size = il.abs(diff)
    square = il.multiply(0.5, il.multiply(diff, diff))
    losses = il.where(
        il.less(size, delta), square, il.multiply(delta, il.subtract(size, delta / 2))
    )
    if weight is not None:
        losses = il.multiply(losses, weight)
    return _reduction(losses, reduction, "huber_loss")


@op(arrays=("input", "target"), **_nn)
def smooth_l1_loss(
    input: Any,  # noqa: A002 - PyTorch's name
    target: Any,
    *,
    reduction: str = "mean",
    beta: float = 1.0,
):
    """Smooth L1 loss: ``0.5 * d**2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 * beta``,
    for ``d = input - target`` (``huber_loss / beta``; ``beta=0`` is the L1 loss).

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([0.5, 3.0, -2.0])
    >>> ivy_like.nn.smooth_l1_loss(x, ivy_like.zeros(3), reduction="none", beta=2.0)
    ivy_like.array([0.0625, 2.    , 1.    ])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    check_loss("smooth_l1_loss", _shape(input), _shape(target), reduction)
    beta = check_number("smooth_l1_loss", "beta", beta)
    diff = il.subtract(input, target)
    size = il.abs(diff)
    if beta == 0.0:
        losses = size
    else:
        square = il.multiply(0.5 / beta, il.multiply(diff, diff))
        losses = il.where(il.less(size, beta), square, il.subtract(size, beta / 2))
    return _reduction(losses, reduction, "smooth_l1_loss")


KL_REDUCTIONS = ("mean", "sum", "none", "batchmean")


@op(arrays=("input", "target"), **_nn)
def kl_div(
    input: Any,  # noqa: A002 - PyTorch's name
    target: Any,
    *,
    reduction: str = "mean",
    log_target: bool = False,
):
    """Kullback-Leibler divergence ``target * (log(target) - input)`` pointwise, with
    ``input`` log-probabilities and ``target`` probabilities (log-probabilities with
    ``log_target=True``); a target of 0 contributes 0.

    ``reduction="batchmean"`` (sum divided by the size of axis 0) is the divergence of
    distributions over the trailing axes; ``"mean"`` (torch's default, kept) divides by the
    number of elements instead, as torch does (where it also warns).

    Examples
    --------
    >>> import ivy_like
    >>> logq = ivy_like.log(ivy_like.array([[0.5, 0.5], [0.9, 0.1]]))
    >>> p = ivy_like.array([[0.5, 0.5], [0.5, 0.5]])
    >>> round(float(ivy_like.nn.kl_div(logq, p, reduction="batchmean")), 6)
    0.255413
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    check_loss("kl_div", _shape(input), _shape(target), reduction, KL_REDUCTIONS)
    if log_target:
        losses = il.multiply(il.exp(target), il.subtract(target, input))
    else:
        # xlogy(target, target): 0 where target is 0 (with a finite gradient there)
        zero = il.equal(target, 0.0)
        entropy = il.where(zero, 0.0, il.multiply(target, il.log(il.where(zero, 1.0, target))))
        losses = il.subtract(entropy, il.multiply(target, input))
    if reduction == "batchmean":
        total = il.sum(losses)
        shape = _shape(input)
        # a float: NumPy's float32 scalar divided by an int gives float64 through il.divide
        return il.divide(total, float(shape[0])) if shape else total
    return _reduction(losses, reduction, "kl_div")


def check_cosine(
    shape1: tuple[int, ...], shape2: tuple[int, ...], dim: Any, eps: Any
) -> tuple[int, ...]:
    """Check :func:`cosine_similarity`'s arguments; return the broadcast shape.

    Examples
    --------
    >>> from ivy_like.ops.nn import check_cosine
    >>> check_cosine((3,), (2, 3), 1, 1e-8)
    (2, 3)
    >>> check_cosine((2, 3), (2, 3), 2, 1e-8)
    Traceback (most recent call last):
    ...
    ValueError: cosine_similarity: dim 2 is out of range for inputs with 2 dimensions
    """
    who = "cosine_similarity"
    ndim = max(len(shape1), len(shape2))
    padded = [(1,) * (ndim - len(s)) + tuple(s) for s in (shape1, shape2)]
    if any(a != b and 1 not in (a, b) for a, b in zip(*padded)):
        raise ValueError(f"{who}: x1 of shape {shape1} and x2 of shape {shape2} do not broadcast")
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise TypeError(f"{who}: dim must be an int, got {dim!r}")
    if not -max(ndim, 1) <= dim < max(ndim, 1):
        raise ValueError(f"{who}: dim {dim} is out of range for inputs with {ndim} dimensions")
    check_number(who, "eps", eps)
    return tuple(max(a, b) for a, b in zip(*padded))


@op(arrays=("x1", "x2"), **_nn)
def cosine_similarity(x1: Any, x2: Any, dim: int = 1, eps: float = 1e-8):
    """Cosine of the angle between ``x1`` and ``x2`` along ``dim`` (of their broadcast
    shape, which loses that axis): ``sum(x1 / max(|x1|, eps) * x2 / max(|x2|, eps))``, each
    norm clamped at ``eps`` on its own, as in PyTorch (whose gradient also treats the clamp
    as the identity; so does this one).

    Examples
    --------
    >>> import ivy_like
    >>> a = ivy_like.array([[1., 0.], [1., 1.]])
    >>> b = ivy_like.array([[2., 0.], [-1., 0.]])
    >>> ivy_like.nn.cosine_similarity(a, b)
    ivy_like.array([ 1.        , -0.70710677])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    shape = check_cosine(_shape(x1), _shape(x2), dim, eps)
    if _shape(x1) != shape or _shape(x2) != shape:
        x1, x2 = il.broadcast_arrays(x1, x2)

    def unit(x: Any) -> Any:
        norm = il.linalg.vector_norm(x, axis=dim, keepdims=True)
        # the forward value max(norm, eps) with the gradient of norm (torch's clamp_min_
        # under no_grad)
        clamp = il.stop_gradient(il.subtract(il.clip(norm, min=eps), norm))
        return il.divide(x, il.add(norm, clamp))

    return il.sum(il.multiply(unit(x1), unit(x2)), axis=dim)

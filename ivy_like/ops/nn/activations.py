"""The activations of the nn family: ``relu``, ``gelu``, ``sigmoid``, ``silu``, ``softmax``
and ``log_softmax``, and the hard (piecewise-linear) ones, ``hardtanh``, ``relu6``,
``hardsigmoid`` and ``hardswish``, whose gradients are PyTorch's at their corners (0 there,
as ``torch.nn.functional``'s).
"""

from __future__ import annotations

import sys
from typing import Any

from ...core.registry import op
from ._helpers import NN, check_axis


@op(arrays=("x",), **NN)
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


def _check_gelu(x: Any, approximate: str) -> None:
    """``approximate`` must be ``"none"`` or ``"tanh"`` (PyTorch's names).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.gelu(ivy_like.ones(2), approximate="fast")
    Traceback (most recent call last):
    ...
    ValueError: gelu: approximate must be 'none' or 'tanh', got 'fast'
    """
    if approximate != "none" and approximate != "tanh":
        raise ValueError(f"gelu: approximate must be 'none' or 'tanh', got {approximate!r}")


@op(arrays=("x",), check=_check_gelu, **NN)
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


@op(arrays=("x",), **NN)
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


@op(arrays=("x",), **NN)
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


def _check_softmax(x: Any, axis: Any) -> None:
    check_axis("softmax", len(x.shape), axis)


def _check_log_softmax(x: Any, axis: Any) -> None:
    check_axis("log_softmax", len(x.shape), axis)


def _peak(il: Any, x: Any, axis: int) -> Any:
    """The maximum along ``axis`` (kept), without a gradient: the stable shift of softmax."""
    return il.stop_gradient(il.max(x, axis=axis, keepdims=True))


@op(arrays=("x",), check=_check_softmax, **NN)
def softmax(x: Any, axis: int = -1):
    """``exp(x) / sum(exp(x))`` along ``axis``, computed stably (shifted by the maximum).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.softmax(ivy_like.array([0., 0., 1000.]))
    ivy_like.array([0., 0., 1.])
    """
    if 0 in tuple(x.shape):
        # as empty as x: an empty axis has no maximum (NumPy's and torch's max refuse it), and
        # MXNet infers no shape for arithmetic on an empty array
        return x
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    e = il.exp(x - _peak(il, x, axis))
    return e / il.sum(e, axis=axis, keepdims=True)


@op(arrays=("x",), check=_check_log_softmax, **NN)
def log_softmax(x: Any, axis: int = -1):
    """``x - log(sum(exp(x)))`` along ``axis``, computed stably.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.log_softmax(ivy_like.array([0., 0.]))
    ivy_like.array([-0.6931472, -0.6931472])
    """
    if 0 in tuple(x.shape):  # as empty as x (see softmax)
        return x
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    shifted = x - _peak(il, x, axis)
    return shifted - il.log(il.sum(il.exp(shifted), axis=axis, keepdims=True))


def _clamp(x: Any, lo: float, hi: float) -> Any:
    """``x`` clamped to ``[lo, hi]`` with PyTorch's gradient: 1 strictly inside, 0 at and beyond
    the bounds; NaN stays NaN (every comparison with it is false)."""
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    y = il.where(x <= lo, il.full_like(x, lo), x)
    return il.where(x >= hi, il.full_like(x, hi), y)


def _check_hardtanh(x: Any, min_val: Any, max_val: Any) -> None:
    """``min_val`` and ``max_val`` are numbers, ``min_val <= max_val``."""
    lo, hi = float(min_val), float(max_val)
    if lo > hi:
        raise ValueError(f"hardtanh: min_val ({lo}) must not exceed max_val ({hi})")


@op(arrays=("x",), check=_check_hardtanh, **NN)
def hardtanh(x: Any, min_val: float = -1.0, max_val: float = 1.0):
    """``x`` clamped to ``[min_val, max_val]``; the gradient is 0 at the bounds (PyTorch's).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.hardtanh(ivy_like.array([-3., 0.5, 2.]))
    ivy_like.array([-1. ,  0.5,  1. ])
    """
    return _clamp(x, float(min_val), float(max_val))


@op(arrays=("x",), **NN)
def relu6(x: Any):
    """``min(max(x, 0), 6)`` (MobileNet's activation); the gradient is 0 at 0 and 6.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.relu6(ivy_like.array([-1., 3., 7.]))
    ivy_like.array([0., 3., 6.])
    """
    return _clamp(x, 0.0, 6.0)


@op(arrays=("x",), **NN)
def hardsigmoid(x: Any):
    """``relu6(x + 3) / 6``, a piecewise-linear sigmoid.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.hardsigmoid(ivy_like.array([-4., 0., 1.5, 4.]))
    ivy_like.array([0.  , 0.5 , 0.75, 1.  ])
    """
    return _clamp(x + 3.0, 0.0, 6.0) / 6.0


@op(arrays=("x",), **NN)
def hardswish(x: Any):
    """``x * relu6(x + 3) / 6`` (MobileNetV3's activation).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.hardswish(ivy_like.array([-4., 0., 1.5, 4.]))
    ivy_like.array([-0.   ,  0.   ,  1.125,  4.   ])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    # Three pieces rather than x * hardsigmoid(x), so the gradient is PyTorch's at the corners
    # too: 0 at -3, x/3 + 1/2 strictly between, 1 from 3 on.
    # x * 0 on the left, so the sign of zero is that of x, as torch's and jax's kernels give.
    middle = x * (x + 3.0) / 6.0
    return il.where(x <= -3.0, x * 0.0, il.where(x < 3.0, middle, x))

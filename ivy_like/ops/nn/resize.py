"""Resizing in the nn family: ``interpolate`` (``nearest``, ``nearest-exact`` and ``bilinear``,
PyTorch's numbers), and the resize matrices and indices it is computed with, which the
converters of ATen graphs use too.
"""

from __future__ import annotations

import functools
import sys
from typing import Any

import numpy as np

from ...core.registry import op
from ._helpers import NN, dims
from .sizes import interpolate_plan

_INTERPOLATE_MODES = ("nearest", "nearest-exact", "bilinear")


def _check_interpolate(x: Any, size: Any, scale_factor: Any, mode: Any, align_corners: Any) -> None:
    """``x`` is 4-D, ``mode`` one of ``_INTERPOLATE_MODES``, and exactly one of ``size`` (a
    positive int or a pair of them) and ``scale_factor`` (a positive number or a pair) is
    given, which leaves an output of at least one row and column."""
    who = "interpolate"
    shape = dims(x)
    if len(shape) != 4:
        raise ValueError(f"{who}: x must be 4-D (N, C, H, W), got shape {shape}")
    if mode not in _INTERPOLATE_MODES:
        raise ValueError(f"{who}: mode must be one of {_INTERPOLATE_MODES}, got {mode!r}")
    if align_corners is not None and mode != "bilinear":
        raise ValueError(f"{who}: align_corners is for mode='bilinear' only, got mode {mode!r}")
    if (size is None) == (scale_factor is None):
        raise ValueError(f"{who}: give exactly one of size and scale_factor")
    given = size if size is not None else scale_factor
    pair = tuple(given) if isinstance(given, (list, tuple)) else (given, given)
    kind = int if size is not None else (int, float)
    if len(pair) != 2 or not all(
        isinstance(v, kind) and not isinstance(v, bool) and v > 0 for v in pair
    ):
        name = "size" if size is not None else "scale_factor"
        what = "int" if size is not None else "number"
        raise ValueError(
            f"{who}: {name} must be a positive {what} or a pair of them, got {given!r}"
        )
    if any(n_out < 1 for _, n_out, _ in interpolate_plan(shape, size, scale_factor)):
        raise ValueError(f"{who}: scale_factor {scale_factor!r} gives an empty output for {shape}")


def _float32_scale(n_in: int, n_out: int, scale: float | None) -> np.floating:
    """PyTorch's input positions per output position, in float32: ``1/scale`` when a scale
    factor was given (ATen takes only a positive one), ``n_in/n_out`` otherwise."""
    if scale is not None and scale > 0:
        return np.float32(1.0 / scale)
    return np.float32(n_in) / np.float32(n_out)


@functools.lru_cache(maxsize=256)
def linear_resize_matrix(n_in: int, n_out: int, align_corners: bool, scale: Any) -> np.ndarray:
    """The ``(n_out, n_in)`` float32 matrix of 1-D linear interpolation with PyTorch's source
    positions and weights: resizing is one product per axis, differentiable everywhere."""
    dst = np.arange(n_out, dtype=np.float32)
    if align_corners:
        src = dst * np.float32((n_in - 1) / (n_out - 1) if n_out > 1 else 0)
    else:
        src = np.maximum((dst + np.float32(0.5)) * _float32_scale(n_in, n_out, scale) - 0.5, 0)
    i0 = np.minimum(src.astype(np.int64), n_in - 1)
    i1 = np.minimum(i0 + 1, n_in - 1)
    hi = np.clip(src - i0, 0, 1).astype(np.float32)
    w = np.zeros((n_out, n_in), dtype=np.float32)
    rows = np.arange(n_out)
    np.add.at(w, (rows, i0), 1 - hi)
    np.add.at(w, (rows, i1), hi)
    return w


@functools.lru_cache(maxsize=256)
def nearest_resize_indices(n_in: int, n_out: int, scale: Any, exact: bool) -> np.ndarray:
    """The source index of each output position (PyTorch's ``nearest``/``nearest-exact``)."""
    dst = np.arange(n_out, dtype=np.float32)
    s = _float32_scale(n_in, n_out, scale)
    src = np.floor((dst + np.float32(0.5)) * s) if exact else np.floor(dst * s)
    return np.minimum(src.astype(np.int64), n_in - 1).astype(np.int32)


@op(arrays=("x",), check=_check_interpolate, **NN)
def interpolate(
    x: Any,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: Any = None,
):
    """Resize the last two axes of an NCHW ``x`` (``torch.nn.functional.interpolate``'s
    numbers) to ``size`` (an int or an ``(h, w)`` pair) or by ``scale_factor`` (a number or
    a pair; the output size is floored and the scale maps positions back). ``mode`` is
    ``"nearest"``, ``"nearest-exact"`` or ``"bilinear"`` (``align_corners`` True or False).

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.reshape(ivy_like.array([0., 2.]), (1, 1, 1, 2))
    >>> ivy_like.nn.interpolate(x, scale_factor=2)
    ivy_like.array([[[[0., 0., 2., 2.],
                      [0., 0., 2., 2.]]]])
    >>> ivy_like.nn.interpolate(x, size=(1, 3), mode="bilinear", align_corners=True)
    ivy_like.array([[[[0., 1., 2.]]]])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    (h_in, h_out, sh), (w_in, w_out, sw) = interpolate_plan(dims(x), size, scale_factor)
    corners = bool(align_corners)
    # creation gives an Array; the composite works on the native arrays it was given
    if mode == "bilinear":
        wh = il.to_native(il.asarray(linear_resize_matrix(h_in, h_out, corners, sh), dtype=x.dtype))
        ww = linear_resize_matrix(w_in, w_out, corners, sw).T
        return il.matmul(il.matmul(wh, x), il.to_native(il.asarray(ww, dtype=x.dtype)))
    exact = mode == "nearest-exact"
    rows = il.to_native(il.asarray(nearest_resize_indices(h_in, h_out, sh, exact)))
    cols = il.to_native(il.asarray(nearest_resize_indices(w_in, w_out, sw, exact)))
    return il.take(il.take(x, rows, axis=2), cols, axis=3)

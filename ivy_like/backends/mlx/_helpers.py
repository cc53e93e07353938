"""mlx backend: private helpers shared by the hooks of ``__init__`` and the family files.

``_stream``: the ``stream=`` argument of a device (``__init__``, ``creation.py``,
``manipulation.py``, ``fft.py``); ``_out_of_bounds``: the bounds check of integer index arrays
(``getitem``/``setitem``, ``indexing.py``); ``_float_sum``: the accurate float32 sum, in
blocks (``statistical.py``, ``linalg.py``); ``_in_float32``: half precision computed in float32,
the rule of ``ivy_like.backends._common.half`` (``statistical.py``, ``linalg.py``); ``_reduce_axes``: checked
reduction axes (``statistical.py``, ``utility.py``). Nothing here imports the backend's
``__init__``, which imports this module.
"""

from __future__ import annotations

import builtins
import math
from typing import Any

import mlx.core as mx
import numpy as np

from .._common.half import half_in_float32
from .._common.indexing import host_bounds
from .._common.statistical import ACCURATE_SUM_FROM, reduction_axes


def _stream(device: Any) -> Any:
    """The ``stream=`` argument of MLX ops for a device given as None, a string or a Device."""
    if device is None or isinstance(device, mx.Device):
        return device
    if isinstance(device, str) and device.partition(":")[0] in ("cpu", "gpu"):
        kind, _, index = device.partition(":")
        return mx.Device(getattr(mx, kind), int(index or 0))
    raise ValueError(f"device: expected 'cpu', 'gpu' or an mlx.core.Device, got {device!r}")


def _out_of_bounds(index: Any, size: int) -> Any:
    """An out-of-range value of an integer index array, or None (evaluates it).

    The check reads the evaluated index through NumPy (unified memory: no copy), with the
    limits as Python ints: comparing in MLX would convert ``-size`` or ``size`` to the index
    dtype, which overflows for unsigned or narrow indices, and costs a synchronisation more.
    """
    try:
        if index.ndim == 1 and index.size <= 16:
            values = index.tolist()  # a few values: a list is 4x cheaper than a NumPy view
            lo, hi = builtins.min(values), builtins.max(values)
        else:
            lo, hi = host_bounds(np.asarray(index))
    except ValueError:  # inside mx.compile / mx.vmap: values unknown, MLX must take it as is
        return None
    if hi >= size:
        return hi
    return lo if lo < -size else None


# MLX 0.32 sums float32 in one running total: measured relative errors of 1e-5 for a thousand
# 0.1s, 1e-2 for a million and 9e-2 for ten million (NumPy, JAX, torch: about 1e-7). Sums
# reducing at least ACCURATE_SUM_FROM float32/complex64 elements go in blocks of 16: partial sums
# of partial sums, NumPy's accuracy (1.5e-7 on the same data), and faster than mx.sum from
# 16k elements (0.4 ms against 0.9 for a million); the same mx.eval cost below (~50 us).
_BLOCK = 16
_BLOCKED_DTYPES = frozenset({mx.float32, mx.complex64})


def _float_sum(x: Any, axis: Any, keepdims: bool) -> Any:
    """``mx.sum(x, axis, keepdims)``, in blocks when many float32/complex64 values are summed."""
    ndim = x.ndim
    if x.dtype not in _BLOCKED_DTYPES:
        return mx.sum(x, axis=axis, keepdims=keepdims)
    try:
        reduced = list(reduction_axes(ndim, axis, "sum"))
    except (TypeError, ValueError):  # not axes, repeated or out of range: mx.sum's own error
        return mx.sum(x, axis=axis, keepdims=keepdims)
    shape = x.shape
    n = math.prod(shape[a] for a in reduced)
    if n < ACCURATE_SUM_FROM:
        return mx.sum(x, axis=axis, keepdims=keepdims)
    kept = [a for a in range(ndim) if a not in reduced]
    if kept + reduced != list(range(ndim)):
        x = mx.transpose(x, kept + reduced)  # the reduced axes last
    out = _blocked_sum(x.reshape([shape[a] for a in kept] + [n]))
    if keepdims:
        out = out.reshape([1 if a in reduced else shape[a] for a in range(ndim)])
    return out


def _blocked_sum(x: Any) -> Any:
    """Sum of the last axis as sums of blocks of _BLOCK, then of their sums, and so on.

    A last block that is not full is padded with -0.0, which adds nothing to any sum (x + -0.0
    is x for every x, signed zeros and infinities included): one node per level where a
    slice, a separate sum and a concatenate would take three more (MLX's graph, compiled or
    not, pays per node)."""
    n = x.shape[-1]
    while n > _BLOCK:
        short = -n % _BLOCK
        if short:
            widths = [(0, 0)] * (x.ndim - 1) + [(0, short)]
            x = mx.pad(x, widths, constant_values=mx.array(-0.0, x.dtype))
        x = mx.sum(x.reshape([*x.shape[:-1], (n + short) // _BLOCK, _BLOCK]), axis=-1)
        n = x.shape[-1]
    return mx.sum(x, axis=-1)


# Half precision computed in float32 (ivy_like.backends._common.half): mean, var, std, cumulative_sum and
# prod in statistical.py, the decompositions in linalg.py.
_in_float32 = half_in_float32({"float16": mx.float16, "bfloat16": mx.bfloat16}, mx.float32)


def _reduce_axes(x: Any, axis: Any, name: str) -> Any:
    return None if axis is None else list(reduction_axes(x.ndim, axis, name))

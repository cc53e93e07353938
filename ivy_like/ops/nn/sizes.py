"""The sizes the nn ops compute from their arguments once these are checked: the strides,
pads and dilations of a convolution (``"same"`` padding into its pairs), the window of a
pooling, the output size of an adaptive pooling and of ``interpolate``. The composite
declarations here and the backends' kernels both use them, so a kernel and its composite
agree on every size; nothing here checks (each op's ``check=`` ran before), and no op is
declared here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

Pads = tuple[tuple[int, int], ...]

# The channels-last data_format of conv1d / conv2d (the others are channels-first).
CHANNELS_LAST = ("NWC", "NHWC")


def ints(value: Any, n: int) -> tuple[int, ...]:
    """An int or a sequence of ``n`` ints (already checked) as an ``n``-tuple."""
    return (value,) * n if isinstance(value, int) else tuple(value)


def conv_geometry(
    spatial: Sequence[int], kernel: Sequence[int], stride: Any, padding: Any, dilation: Any
) -> tuple[tuple[int, ...], Pads, tuple[int, ...]]:
    """``(strides, pads, dilations)`` of a convolution; ``pads`` is ``((lo, hi), ...)``, with
    ``"same"`` padding the extra row at the end (TF's and JAX's rule).

    Examples
    --------
    >>> from ivy_like.ops.nn.sizes import conv_geometry
    >>> conv_geometry((5, 5), (3, 3), 2, "same", 1)
    ((2, 2), ((1, 1), (1, 1)), (1, 1))
    >>> conv_geometry((5,), (2,), 1, [(0, 1)], 1)
    ((1,), ((0, 1),), (1,))
    """
    n = len(spatial)
    strides, dilations = ints(stride, n), ints(dilation, n)
    if isinstance(padding, str):
        if padding.lower() == "valid":
            return strides, ((0, 0),) * n, dilations
        pads = tuple(
            _same_pad(size, k, s, d) for size, k, s, d in zip(spatial, kernel, strides, dilations)
        )
    elif isinstance(padding, int):
        pads = ((padding, padding),) * n
    elif all(isinstance(p, int) for p in padding):
        pads = tuple((p, p) for p in padding)
    else:
        pads = tuple((p[0], p[1]) for p in padding)
    return strides, pads, dilations


def _same_pad(size: Any, k: int, s: int, d: int) -> tuple[int, int]:
    if not isinstance(size, int):
        # A dynamic axis (None in a TF graph, a symbolic dimension in jax.export, a SymInt in
        # torch.export): with stride 1 the padding does not depend on the size; with a larger
        # stride it does, and a graph with it would be fixed at one size.
        if s != 1:
            raise ValueError(
                f"'same' padding with stride {s} over an axis of dynamic size: the padding "
                "depends on the size, so the axis cannot stay dynamic (make it static, or pad "
                "explicitly)"
            )
        size = 1
    total = max((math.ceil(size / s) - 1) * s + (k - 1) * d + 1 - size, 0)
    return total // 2, total - total // 2


def pool_geometry(
    x_shape: Sequence[int], kernel_size: Any, stride: Any, padding: Any, data_format: str
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], bool]:
    """``(kernel, strides, pads, channels_last)`` of a 2-D pooling (``stride`` None: the
    kernel size, as in PyTorch).

    Examples
    --------
    >>> from ivy_like.ops.nn.sizes import pool_geometry
    >>> pool_geometry((1, 3, 4, 4), 2, None, 0, "NCHW")
    ((2, 2), (2, 2), (0, 0), False)
    """
    kernel = ints(kernel_size, 2)
    strides = kernel if stride is None else ints(stride, 2)
    return kernel, strides, ints(padding, 2), data_format == "NHWC"


def adaptive_output_size(shape: Sequence[int], output_size: Any) -> tuple[int, int]:
    """The ``(out_h, out_w)`` of an adaptive pooling of ``shape`` (its last two axes pooled);
    ``None`` in ``output_size`` keeps that axis's size.

    Examples
    --------
    >>> from ivy_like.ops.nn.sizes import adaptive_output_size
    >>> adaptive_output_size((1, 3, 7, 5), (2, None))
    (2, 5)
    """
    sizes = (output_size, output_size) if isinstance(output_size, int) else tuple(output_size)
    h, w = (int(n) if given is None else given for given, n in zip(sizes, shape[-2:]))
    return h, w


def pair(value: Any) -> tuple[int, int]:
    """An int or a pair of ints (already checked) as a pair."""
    first, second = tuple(value) if isinstance(value, (list, tuple)) else (value, value)
    return first, second


def interpolate_plan(
    shape: Sequence[int], size: Any, scale_factor: Any
) -> list[tuple[int, int, float | None]]:
    """``(input size, output size, scale or None)`` of H and W for ``interpolate``: a given
    scale factor sets the output size, floored, and maps positions back, as PyTorch's kernels
    do.

    Examples
    --------
    >>> from ivy_like.ops.nn.sizes import interpolate_plan
    >>> interpolate_plan((1, 1, 3, 5), None, 1.5)
    [(3, 4, 1.5), (5, 7, 1.5)]
    """
    if size is not None:
        return [(int(n), v, None) for n, v in zip(shape[2:], pair(size))]
    return [
        (int(n), math.floor(n * float(v)), float(v)) for n, v in zip(shape[2:], pair(scale_factor))
    ]

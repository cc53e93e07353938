"""nn kernels written once for several backends (see ``_common/__init__.py``).

The arguments of the nn ops are checked before any kernel runs (``check=`` beside each
declaration in ``ivy_like/ops/nn/``), so nothing here checks: ``conv_for`` is the kernel of
``conv1d``/``conv2d`` over a backend's convolution, ``tanh_gelu`` the tanh form of gelu given
the framework's ``tanh``, and ``composites_of`` gives a backend's kernels the composite to
hand a case back to. The sizes and pads the kernels compute from the checked arguments are
``ivy_like/ops/nn/sizes.py``'s, which the composites use too.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ivy_like.core import backend as _backend
from ivy_like.core import tracing as _tracing
from ivy_like.ops.nn.sizes import CHANNELS_LAST

Kernel = Callable[..., Any]

SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


def composites_of(name: str) -> Callable[[str], Kernel]:
    """``composite(key)``: backend ``name``'s composite of op ``key`` (``"nn.linear"``), for
    a kernel that hands a case back to it; made on first use, and not cached while a
    compiler traces (see core/tracing.py)."""
    made: dict[str, Kernel] = {}

    def composite(key: str) -> Kernel:
        hit = made.get(key)
        if hit is None:
            hit = _backend.get_backend(name).composite(key)
            if not _tracing.is_tracing():
                made[key] = hit
        return hit

    return composite


def tanh_gelu(x: Any, tanh: Kernel) -> Any:
    """The tanh approximation of gelu, with the framework's ``tanh``.

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.backends._common.nn import tanh_gelu
    >>> np.round(tanh_gelu(np.array([-1.0, 0.0, 1.0]), np.tanh), 4)
    array([-0.1588,  0. ,  0.8412])
    """
    return 0.5 * x * (1.0 + tanh(SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)))


def conv_for(conv: Kernel, n: int) -> Kernel:
    """``nn_conv1d`` (``n=1``) or ``nn_conv2d`` (``n=2``) over a backend's
    ``conv(n, x, weight, bias, (stride, padding, dilation), groups, channels_last)`` (the
    three arguments of ``sizes.conv_geometry`` go on as one tuple, ``given``, which keeps the
    backend's signature short). The arguments are checked before it runs (``check=`` of the
    declarations in ``ivy_like/ops/nn/convolution.py``)."""

    # The op's parameters, all of them given: the check before it has the declaration's defaults.
    def nn_conv(x, weight, bias, stride, padding, dilation, groups, data_format) -> Any:
        last = data_format in CHANNELS_LAST
        return conv(n, x, weight, bias, (stride, padding, dilation), groups, last)

    nn_conv.__name__ = nn_conv.__qualname__ = f"nn_conv{n}d"
    return nn_conv

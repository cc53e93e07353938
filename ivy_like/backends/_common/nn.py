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

from .host import numpy_answer

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


def _no_element(backend_name: str, name: str, args: tuple[Any, ...], last: bool) -> Any:
    """A convolution whose input or weight has no element: the shape NumPy's answer has, each
    entry the bias (no input element reaches an output: no channels, or windows over padding
    alone) or zero; from the bias itself, so that its gradient is there, and reading no
    value of the others, so that it works under ``grad`` and compilers."""
    bias = args[2]
    out = numpy_answer(backend_name, name, *args[:2], None, *args[3:], values=False)
    shape = tuple(out.shape)
    if bias is None or 0 in shape or bias.dtype != out.dtype:
        return out
    backend = _backend.get_backend(backend_name)
    ones = (1,) * (len(shape) - 2)
    column = backend.reshape(bias, (*ones, -1) if last else (-1, *ones), copy=None)
    return backend.broadcast_to(column, shape)


def conv_for(conv: Kernel, n: int, backend_name: str) -> Kernel:
    """``nn_conv1d`` (``n=1``) or ``nn_conv2d`` (``n=2``) over a backend's
    ``conv(n, x, weight, bias, (stride, padding, dilation), groups, channels_last)`` (the
    three arguments of ``sizes.conv_geometry`` go on as one tuple, ``given``, which keeps the
    backend's signature short). The arguments are checked before it runs (``check=`` of the
    declarations in ``ivy_like/ops/nn/convolution.py``). An input or weight with no element
    gets NumPy's answer (``host.numpy_answer``): MLX's convolution died of SIGFPE on one,
    torch's dropped the output channels when the input has none, TensorFlow's refused that
    and kept the input's shape for an empty batch."""
    name = f"nn_conv{n}d"
    hand_over = backend_name != "numpy"  # NumPy's kernel is the one handed over to

    # The op's parameters, all of them given: the check before it has the declaration's defaults.
    def nn_conv(x, weight, bias, stride, padding, dilation, groups, data_format) -> Any:
        last = data_format in CHANNELS_LAST
        if hand_over and (0 in tuple(x.shape) or 0 in tuple(weight.shape)):
            given = (stride, padding, dilation, groups, data_format)
            return _no_element(backend_name, name, (x, weight, bias, *given), last)
        return conv(n, x, weight, bias, (stride, padding, dilation), groups, last)

    nn_conv.__name__ = nn_conv.__qualname__ = name
    return nn_conv

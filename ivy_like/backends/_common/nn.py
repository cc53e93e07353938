"""nn kernels written once for several backends (see ``_common/__init__.py``).

``conv_for`` is the public face of ``conv1d``/``conv2d`` on every backend: the checks all of
them make (``check_conv`` on the shapes as given), then the backend's own convolution.
``axis_op_for`` is an activation along one axis (``softmax``, ``log_softmax``) whose native
function takes the axis as its second argument. ``composites_of`` gives a backend's kernels
the composite to hand a case back to.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ivy_like.core import backend as _backend
from ivy_like.core import tracing as _tracing
from ivy_like.ops.nn import check_axis, check_conv

Kernel = Callable[..., Any]

_FORMAT = {1: "NCW", 2: "NCHW"}  # the default data_format of conv1d / conv2d


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


def conv_for(conv: Kernel, n: int) -> Kernel:
    """``nn_conv1d`` (``n=1``) or ``nn_conv2d`` (``n=2``) over a backend's
    ``conv(who, n, x, weight, bias, (stride, padding, dilation), groups, channels_last)``,
    called once ``x``, ``weight``, ``bias``, ``groups`` and ``data_format`` are checked (the
    three arguments of ``conv_geometry`` go on as one tuple, ``given``, which keeps the
    backend's signature short)."""
    who = f"conv{n}d"

    # The signature of the declaration in ivy_like/ops/nn.py, which types it (parameters Any here).
    def nn_conv(
        x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format=_FORMAT[n]
    ) -> Any:
        b_shape = None if bias is None else tuple(bias.shape)
        last = check_conv(who, tuple(x.shape), tuple(weight.shape), n, groups, data_format, b_shape)
        return conv(who, n, x, weight, bias, (stride, padding, dilation), groups, last)

    nn_conv.__name__ = nn_conv.__qualname__ = f"nn_{who}"
    return nn_conv


def axis_op_for(who: str, fn: Kernel) -> Kernel:
    """``who`` (``"softmax"``, ``"log_softmax"``) as ``fn(x, axis)``, the axis checked first
    (jax.nn, tf.nn and torch take the axis as the second positional argument)."""

    def axis_op(x: Any, axis: int = -1) -> Any:
        check_axis(who, len(x.shape), axis)
        return fn(x, axis)

    axis_op.__name__ = axis_op.__qualname__ = f"nn_{who}"
    return axis_op

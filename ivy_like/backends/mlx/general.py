"""mlx backend: the general ops, ``stop_gradient`` and ``variable``.

MLX has no variable type (under ``mx.grad`` every array is differentiable): ``variable``
returns its input and ``stop_gradient``'s ``preserve_type`` has no effect.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx

_mx_stop_gradient = mx.stop_gradient


def stop_gradient(x: Any, /, *, preserve_type: bool = True) -> Any:
    """``mx.stop_gradient``; ``preserve_type`` has no effect (MLX has no variables).

    Examples
    --------
    >>> import mlx.core as mx
    >>> from ivy_like.backends.mlx import general as B
    >>> mx.grad(lambda a: (B.stop_gradient(a) * a).sum())(mx.array([2., 3.]))
    array([2, 3], dtype=float32)
    """
    return _mx_stop_gradient(x)


def variable(x: Any, /) -> Any:
    # Under mx.grad every array is differentiable: there is no variable type.
    return x

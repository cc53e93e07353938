"""mlx backend: the general ops, ``stop_gradient`` and ``variable``.

MLX has no variable type (under ``mx.grad`` every array is differentiable): ``variable``
returns its input and ``stop_gradient``'s ``preserve_type`` has no effect.

Examples
--------
>>> import mlx.core as mx
>>> from ivy_like.backends.mlx import general as B
>>> mx.grad(lambda a: (B.stop_gradient(a) * a).sum())(mx.array([2., 3.]))
array([2, 3], dtype=float32)
"""

from __future__ import annotations

import mlx.core as mx

from .._common import general as _general

stop_gradient = _general.stop_gradient_for(mx.stop_gradient)
variable = _general.variable

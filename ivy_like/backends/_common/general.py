"""General kernels written once for several backends (see ``_common/__init__.py``).

For frameworks without a variable type (NumPy; JAX and MLX, where under ``jax.grad`` /
``mx.grad`` every array is differentiable): ``variable`` returns its input, and
``stop_gradient_for`` makes ``stop_gradient`` of the framework's own function, whose
``preserve_type`` has no effect.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Kernel = Callable[..., Any]


def stop_gradient_for(stop: Callable[[Any], Any]) -> Kernel:
    """stop_gradient as ``stop(x)`` (``jax.lax.stop_gradient``, ``mx.stop_gradient``);
    ``preserve_type`` has no effect (there are no variables to preserve)."""

    def stop_gradient(x: Any, /, *, preserve_type: bool = True) -> Any:
        return stop(x)

    return stop_gradient


def variable(x: Any, /) -> Any:
    """``x`` itself: without a variable type every array is already differentiable (or, in
    NumPy, nothing is)."""
    return x

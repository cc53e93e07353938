"""numpy backend: the general ops ``stop_gradient`` and ``variable``.

NumPy has no autodiff: both give the value itself, no copy.
"""

from __future__ import annotations

from typing import Any

from .._common import general as _general


def stop_gradient(x: Any, /, *, preserve_type: bool = True) -> Any:
    # NumPy has no autodiff: the value itself, no copy.
    return x


variable = _general.variable

"""torch backend: array API sorting functions.

Always torch's stable sort: it keeps equal elements in order and puts NaN where NumPy does.
"""

from __future__ import annotations

from typing import Any

import torch


def argsort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    # torch's stable descending sort keeps equal elements in order and puts NaN first (checked).
    return torch.argsort(x, dim=axis, descending=descending, stable=True)


def sort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    return torch.sort(x, dim=axis, descending=descending, stable=True).values

"""torch backend: private helpers shared by several family files.

``_in_float32`` computes half precision in float32 (the rule of ``ivy_like.backends._common.half``) for
``statistical.py`` and ``linalg.py``; ``_shape`` reads an int as a 1-d shape (``creation.py``,
``manipulation.py``); ``_dtype_name`` names a tensor's dtype in messages (``statistical.py``,
``general.py``).
"""

from __future__ import annotations

from typing import Any

import torch

from ...core import dtypes as D
from .._common.half import half_in_float32


def _dtype_name(x: Any) -> str:
    return D.as_dtype(x.dtype).name


def _shape(shape: Any) -> Any:
    return (shape,) if isinstance(shape, int) else shape


# Half precision computed in float32 (ivy_like.backends._common.half): mean, var/std, cumulative_sum and
# prod in statistical.py, the decompositions in linalg.py.
_in_float32 = half_in_float32(
    {"float16": torch.float16, "bfloat16": torch.bfloat16}, torch.float32, torch.Tensor.to
)

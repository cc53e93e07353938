"""jax backend: the array API searching functions (``where`` is in ``elementwise.py``).

``jax.numpy`` already follows NumPy for NaN in ``argmax``/``argmin``/``searchsorted``;
wrappers add the checks of the standard (``nonzero`` of a 0-d array, a 1-D ``searchsorted``
and its ``side``) and return ``searchsorted``'s indices in the default integer.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from .._common import searching as _searching
from . import DEFAULT_INT

argmax = _searching.argmax_for(jnp)
argmin = _searching.argmin_for(jnp)
count_nonzero = jnp.count_nonzero  # counts in the default integer; the same keywords


def nonzero(x: Any, /) -> tuple[Any, ...]:
    if x.ndim == 0:
        raise ValueError("nonzero: x must have at least one dimension, got a 0-d array")
    return jnp.nonzero(x)


searchsorted = _searching.searchsorted_for(jnp, DEFAULT_INT)

"""``dropout``, the one op of the nn family that draws random numbers: its masks come from
:mod:`ivy_like.random`, which registers them here (it sits above the op declarations).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from ...core import backend as _backend
from ...core.registry import op
from ._helpers import NN, int_shape

# Dropout's masks come from ivy_like.random, which sits above the op declarations and fills
# this table when it is imported (ivy_like imports it): "seeded"(p, shape, seed=, backend=)
# and "keyed"(p, shape, key, backend, who) give an Array of booleans, each True with
# probability p; "is_key"(value) tells a key array (ivy_like.random.key).
RANDOM: dict[str, Callable[..., Any]] = {}


def _check_dropout(x: Any, p: Any, key: Any) -> None:
    if not isinstance(p, (int, float)) or not 0.0 <= p < 1.0:
        raise ValueError(f"dropout: p must be a probability in [0, 1), got {p!r}")


@op(arrays=("x",), check=_check_dropout, **NN)
def dropout(x: Any, p: float = 0.5, key: Any = None):
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``.

    ``key`` is the seed of the mask (see :mod:`ivy_like.random`): an int, or a key array
    (``ivy_like.random.key``) of the backend of ``x``, which may be an input of a compiled
    function, so that each step draws a new mask without compiling again. The same key gives
    the same mask on every backend. ``key=None`` means inference: ``x`` is returned unchanged.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.dropout(ivy_like.ones(6), 0.5, key=0)
    ivy_like.array([0., 2., 2., 2., 0., 0.])
    >>> ivy_like.nn.dropout(ivy_like.ones(6), 0.5, key=ivy_like.random.key(0))
    ivy_like.array([2., 0., 0., 2., 2., 2.])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    if key is None or p == 0:
        return x
    if isinstance(key, int) and not isinstance(key, bool):
        b = _backend.current_backend()
        keep = RANDOM["seeded"](1.0 - p, int_shape(x), seed=key, backend=b).data
    elif RANDOM["is_key"](key):
        # The backend of x, not the active one: no ContextVar read, which torch.compile
        # cannot trace.
        b = _backend.backend_of(x)
        keep = RANDOM["keyed"](1.0 - p, int_shape(x), key, b, "dropout").data
    else:
        raise TypeError(
            f"dropout: key must be an int seed, a key array (ivy_like.random.key) or None, "
            f"got {type(key).__name__}"
        )
    return il.where(keep, x / (1.0 - p), il.zeros_like(x))

"""Moving arrays and Containers between frameworks: DLPack first, NumPy otherwise.

The per-leaf logic is the Container's own (``container._leaves.leaf_to_backend``), so an array
and a Container leaf take the same path: DLPack where both frameworks can hand the buffer over
(no copy on CPU), else an exact copy through NumPy (bfloat16 as its bits). Which pairs share
memory is listed in ``docs/convert.md`` and checked by ``tests/convert/test_arrays.py``.
"""

from __future__ import annotations

from typing import Any

from ..container import Container
from ..container._leaves import leaf_dtype, leaf_info
from ..core.backend import Backend, get_backend
from ._weights import move


def to_backend(x: Any, backend: str | Backend) -> Any:
    """``x`` (an array of any framework, an ``ivy_like.Array`` or a Container) on ``backend``.

    ``ivy_like.Array`` stays an ``Array`` and a native array stays native (of the target
    framework). DLPack is used where both frameworks allow it, so on CPU no copy is made from
    PyTorch, JAX and TensorFlow to each other and to NumPy, from NumPy to PyTorch, and from
    MLX to NumPy and PyTorch. JAX and TensorFlow import a buffer only if it is 64-byte aligned
    (NumPy's small arrays and MLX's usually are not), and MLX always copies on import; those
    copies are exact (bit for bit). A tensor that requires grad is shared through its
    ``detach()``. A zero-copy result shares memory with ``x``: writing into one (NumPy,
    torch) changes the other. A dtype the target lacks (bfloat16 on NumPy, float64 on jax
    without x64) is a ``TypeError``.

    Examples
    --------
    >>> import numpy as np
    >>> import ivy_like
    >>> from ivy_like.convert import to_backend
    >>> x = np.arange(3.0, dtype=np.float32)
    >>> y = to_backend(ivy_like.array(x), "numpy")
    >>> y.backend.name, np.shares_memory(to_backend(x, "numpy"), x)
    ('numpy', True)
    >>> c = to_backend(ivy_like.Container(w=x), "numpy")
    >>> c.w is x
    True
    """
    target = get_backend(backend)
    if isinstance(x, Container):
        return x.cont_map(lambda leaf, kc: move(leaf, target, kc), map_sequences=True)
    if leaf_info(x) is None:
        raise TypeError(f"to_backend: x must be an array or a Container, got {type(x).__name__}")
    dtype = leaf_dtype(x, "x")
    assert dtype is not None  # x is an array (leaf_info above)
    try:
        target.native_dtype(dtype)
    except TypeError:
        raise TypeError(
            f"to_backend: x has dtype {dtype.name}, which the {target.name} backend does not "
            "support"
        ) from None
    return move(x, target, "x")

"""What a Container leaf is, and the per-leaf work of the ``cont_*`` utilities: exact
conversions between backends, shapes, dtypes, and bit-exact or close comparisons.

bfloat16 has no NumPy dtype, so exact conversions carry its bits as ``uint16`` and reinterpret
them on the framework side (``_BF16_TO_BITS`` / ``_BF16_FROM_BITS``). Frameworks are imported
here only inside those functions, after their backend is loaded. (Model conversion is
:mod:`ivy_like.convert`; it uses these helpers too.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.array import _wrap
from ..core.backend import NEUTRAL, Backend, get_backend, kind_of
from ..core.dtypes import Dtype, bfloat16

_SCALARS = (bool, int, float, complex)
# Errors a framework raises when DLPack cannot hand a buffer over (then NumPy is used).
_DLPACK_ERRORS = (
    BufferError,
    TypeError,
    RuntimeError,
    ValueError,
    NotImplementedError,
    AttributeError,
)


def leaf_info(x: Any) -> tuple[Backend, Any, bool] | None:
    """(backend, native array, is an ``ivy_like.Array``) for an array leaf, else None."""
    kind = kind_of(type(x))
    if kind == "array":
        return x._backend, x._data, True
    if isinstance(kind, Backend):
        return kind, x, False
    if kind == NEUTRAL and not isinstance(x, _SCALARS):
        return get_backend("numpy"), x, False
    return None


def _unified(backend: Backend, x: Any) -> Dtype:
    return backend.unified_dtype(backend.dtype(x))


# -- exact NumPy views of any leaf ----------------------------------------------------------------
def _torch_bits(x: Any) -> np.ndarray:
    import torch

    return x.detach().cpu().view(torch.int16).numpy().view(np.uint16)


def _tf_bits(x: Any) -> np.ndarray:
    import tensorflow as tf

    return tf.bitcast(tf.convert_to_tensor(x), tf.uint16).numpy()


def _mlx_bits(x: Any) -> np.ndarray:
    import mlx.core as mx

    return np.array(x.view(mx.uint16))


def _jax_bits(x: Any) -> np.ndarray:
    return np.asarray(x).view(np.uint16)  # jax hands out ml_dtypes.bfloat16 arrays


def _torch_from_bits(bits: np.ndarray) -> Any:
    import torch

    return torch.from_numpy(bits.view(np.int16).copy()).view(torch.bfloat16)


def _tf_from_bits(bits: np.ndarray) -> Any:
    import tensorflow as tf

    return tf.bitcast(tf.constant(bits, dtype=tf.uint16), tf.bfloat16)


def _mlx_from_bits(bits: np.ndarray) -> Any:
    import mlx.core as mx

    return mx.array(bits).view(mx.bfloat16)


def _jax_from_bits(bits: np.ndarray) -> Any:
    import jax
    import jax.numpy as jnp

    return jax.lax.bitcast_convert_type(jnp.asarray(bits), jnp.bfloat16)


_BF16_TO_BITS = {"torch": _torch_bits, "tensorflow": _tf_bits, "mlx": _mlx_bits, "jax": _jax_bits}
_BF16_FROM_BITS = {
    "torch": _torch_from_bits,
    "tensorflow": _tf_from_bits,
    "mlx": _mlx_from_bits,
    "jax": _jax_from_bits,
}


def exact_numpy(backend: Backend, x: Any) -> tuple[np.ndarray, Dtype]:
    """A C-contiguous NumPy array with exactly the bits of ``x``, and ``x``'s dtype.

    bfloat16 comes back as its ``uint16`` bits.
    """
    dtype = _unified(backend, x)
    if dtype == bfloat16:
        to_bits = _BF16_TO_BITS.get(backend.name)
        if to_bits is None:
            arr = np.asarray(backend.to_numpy(x))
            if arr.dtype.itemsize != 2:
                raise TypeError(f"bfloat16 bits of a {backend.name} array are not available")
            return _c_order(arr.view(np.uint16)), dtype
        return _c_order(to_bits(x)), dtype
    return _c_order(backend.to_numpy(x)), dtype


def _c_order(arr: Any) -> Any:
    """``arr`` as a C-contiguous NumPy array of the same shape (``np.ascontiguousarray``
    would make a 0-d array 1-d)."""
    arr = np.asarray(arr)
    return arr if arr.flags.c_contiguous else np.array(arr, order="C")


def from_exact_numpy(arr: np.ndarray, dtype: Dtype, backend: Backend) -> Any:
    """A native array of ``backend`` with the bits of ``arr`` (``uint16`` bits for bfloat16)."""
    native = backend.native_dtype(dtype)  # TypeError when the backend lacks the dtype
    if dtype == bfloat16:
        from_bits = _BF16_FROM_BITS.get(backend.name)
        if from_bits is None:
            raise TypeError(f"bfloat16 arrays cannot be built on the {backend.name} backend")
        return from_bits(_c_order(np.asarray(arr, dtype=np.uint16)))
    return backend.asarray(np.array(arr, copy=True), dtype=native)


# -- leaf functions used by the cont_* utilities ---------------------------------------------------
def leaf_to_native(leaf: Any, kc: str) -> Any:
    return leaf._data if kind_of(type(leaf)) == "array" else leaf


def leaf_to_numpy(leaf: Any, kc: str) -> Any:
    info = leaf_info(leaf)
    if info is None:
        return leaf
    backend, x, _ = info
    return np.asarray(backend.to_numpy(x))


def leaf_shape(leaf: Any, kc: str) -> tuple[int, ...] | None:
    info = leaf_info(leaf)
    return None if info is None else tuple(int(d) for d in info[0].shape(info[1]))


def leaf_dtype(leaf: Any, kc: str) -> Dtype | None:
    info = leaf_info(leaf)
    return None if info is None else _unified(info[0], info[1])


def leaf_to_backend(leaf: Any, target: Backend, kc: str) -> Any:
    """``leaf`` on ``target`` (DLPack first, else NumPy), keeping Array vs native."""
    info = leaf_info(leaf)
    if info is None:
        return leaf
    source, x, is_array = info
    if source is target:
        return leaf
    dtype = _unified(source, x)
    try:
        native_dtype = target.native_dtype(dtype)
    except TypeError:
        raise TypeError(
            f"cont_to_backend: leaf {kc!r} has dtype {dtype.name}, which the {target.name} "
            "backend does not support"
        ) from None
    y = None
    if dtype != bfloat16 or target.name != "numpy":
        try:
            y = target.from_dlpack(_wrap(x, source))
            if target.dtype(y) != native_dtype:
                y = None
        except _DLPACK_ERRORS:
            y = None
    if y is None:
        arr, dtype = exact_numpy(source, x)
        y = from_exact_numpy(arr, dtype, target)
    return _wrap(y, target) if is_array else y


def leaves_identical(x: Any, y: Any) -> bool:
    """Same leaf type (``Array`` on the same backend, or the same native type), dtype, shape
    and bits; non-array leaves by ``==`` (a NaN float equals a NaN float)."""
    ix, iy = leaf_info(x), leaf_info(y)
    if ix is None or iy is None:
        if type(x) is not type(y):
            return False
        if isinstance(x, float) and x != x:
            return y != y
        return bool(x == y)
    if type(x) is not type(y) or (ix[2] and ix[0] is not iy[0]):
        return False
    ax, dx = exact_numpy(ix[0], ix[1])
    ay, dy = exact_numpy(iy[0], iy[1])
    return dx == dy and ax.shape == ay.shape and ax.tobytes() == ay.tobytes()


def _close_numpy(x: Any) -> np.ndarray:
    info = leaf_info(x)
    if info is None:
        return np.asarray(x)
    arr = np.asarray(info[0].to_numpy(info[1]))
    if arr.dtype.kind not in "biufc":  # ml_dtypes (bfloat16): compare as float32
        arr = arr.astype(np.float32)
    return arr


def leaves_close(x: Any, y: Any, rtol: float, atol: float, equal_nan: bool) -> bool:
    ax, ay = _close_numpy(x), _close_numpy(y)
    if ax.shape != ay.shape:
        return False
    return bool(np.allclose(ax, ay, rtol=rtol, atol=atol, equal_nan=equal_nan))

"""jax backend: the array API creation functions.

``jax.numpy``'s, with ivy_like's defaults (float32 for Python floats and by default, the
default integer for Python ints) and ``device=`` resolved to a ``jax.Device``. Without 64-bit
mode, ``asarray`` and ``from_dlpack`` refuse a 64-bit input (JAX would truncate it silently).
A shape whose byte count int64 cannot hold is refused before jax sees it (XLA aborts the
process on it), and ``linspace`` of more bytes than the machine's memory too (JAX would report
that only when the result is read).
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from ...core.decided_errors import memory_limit
from .._common import creation as _creation
from . import DEFAULT_FLOAT, DEFAULT_INT, X64, _check_representable, _device

_DEFAULT_COMPLEX = jnp.dtype("complex64")
# Python data that JAX infers as 64-bit floats (64-bit mode only) gets the 32-bit defaults.
_PY_DEFAULTS = {jnp.dtype("float64"): DEFAULT_FLOAT, jnp.dtype("complex128"): _DEFAULT_COMPLEX}
_is_python_data = _creation.is_python_data
_INT_BITS = 64 if X64 else 32  # the integers Python ints become
# XLA aborts the process (a failed CHECK) when an array's byte count overflows int64: such
# shapes are refused before jax sees them (``_creation.too_big``: a product and a comparison).
_XLA_MAX_BYTES = 2**63 - 1
_HOST_BYTES = memory_limit()
_too_big = _creation.too_big
_arange_dtype = _creation.arange_dtype_for(DEFAULT_FLOAT, DEFAULT_INT)
_scalar_default = _creation.scalar_default_for(
    jnp.dtype("bool"), DEFAULT_INT, DEFAULT_FLOAT, _DEFAULT_COMPLEX
)


def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: Any = None) -> Any:
    """``jnp.asarray`` with ivy_like's defaults, refusing silent 64-bit truncation.

    Python floats become float32 and ints ``DEFAULT_INT``. Without 64-bit mode a NumPy (or
    other) input of a 64-bit dtype raises ``TypeError`` naming the dtype and the fix, where
    ``jnp.asarray`` would truncate it; pass ``dtype=`` to convert explicitly.

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.backends.jax import creation as B
    >>> B.asarray([1., 2.])
    Array([1., 2.], dtype=float32)
    >>> B.asarray(np.ones(2), dtype=B.DEFAULT_FLOAT)
    Array([1., 1.], dtype=float32)
    """
    device = _device(device)
    if device is not None and (
        isinstance(device, jax.sharding.Sharding) or isinstance(obj, jax.Array)
    ):
        # jnp.asarray refuses a sharding over explicit mesh axes (jax.make_mesh's default: it
        # goes through with_sharding_constraint) and an array spread over several devices
        # sent to one; device_put places any array anywhere.
        return jax.device_put(asarray(obj, dtype=dtype, copy=copy), device)
    try:
        if dtype is None:
            if _is_python_data(obj):
                arr = jnp.asarray(obj, copy=copy, device=device)
                default = _PY_DEFAULTS.get(arr.dtype)
                return arr if default is None else arr.astype(default)
            _check_representable(obj, "asarray")
        return jnp.asarray(obj, dtype=dtype, copy=copy, device=device)
    except Exception as err:  # strings, None, ints beyond int64...: the decided error
        _creation.refuse_data(obj, err, dtype=dtype, int_bits=_INT_BITS)
        raise


def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    dtype = dtype or DEFAULT_FLOAT
    _too_big("zeros", shape, dtype.itemsize, _XLA_MAX_BYTES)
    return jnp.zeros(shape, dtype=dtype, device=_device(device))


def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    dtype = dtype or DEFAULT_FLOAT
    _too_big("ones", shape, dtype.itemsize, _XLA_MAX_BYTES)
    return jnp.ones(shape, dtype=dtype, device=_device(device))


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    if dtype is None:
        dtype = _scalar_default(fill_value)
    _too_big("full", shape, 8 if dtype is None else dtype.itemsize, _XLA_MAX_BYTES)
    return jnp.full(shape, fill_value, dtype=dtype, device=_device(device))


def arange(start, /, stop=None, step=1, *, dtype=None, device=None) -> Any:
    if dtype is None:
        dtype = _arange_dtype(start, stop, step)
    return jnp.arange(start, stop, step, dtype=dtype, device=_device(device))


def linspace(start, stop, /, num: int, *, dtype=None, device=None, endpoint: bool = True) -> Any:
    dtype = dtype or DEFAULT_FLOAT
    # jnp.linspace dispatches asynchronously: an allocation that fails would be reported only
    # when the result is read, so here the limit is the machine's memory.
    _too_big("linspace", num, dtype.itemsize, _HOST_BYTES, name="num", scalar=True)
    return jnp.linspace(start, stop, num, endpoint=endpoint, dtype=dtype, device=_device(device))


def eye(
    n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None
) -> Any:
    dtype = dtype or DEFAULT_FLOAT
    return jnp.eye(n_rows, n_cols, k=k, dtype=dtype, device=_device(device))


def zeros_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return jnp.zeros_like(x, dtype=dtype, device=_device(device))


def ones_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return jnp.ones_like(x, dtype=dtype, device=_device(device))


def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    dtype = dtype or DEFAULT_FLOAT
    _too_big("empty", shape, dtype.itemsize, _XLA_MAX_BYTES)
    return jnp.empty(shape, dtype=dtype, device=_device(device))


def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return jnp.empty_like(x, dtype=dtype, device=_device(device))


def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return jnp.full_like(x, fill_value, dtype=dtype, device=_device(device))


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
    """``jnp.from_dlpack``; without 64-bit mode a 64-bit input raises ``TypeError``.

    ``copy=False`` raises ``BufferError`` where JAX cannot share the memory (unaligned data).

    Also the core's import helper (``from_dlpack(obj)``).

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.backends.jax import creation as B
    >>> B.from_dlpack(np.ones(2, dtype=np.float32))
    Array([1., 1.], dtype=float32)
    """
    if isinstance(x, jax.Array):
        # JAX's own array (a tracer under jit, vmap or grad too): no DLPack round trip, which
        # needs a buffer that a tracer does not have.
        return jnp.asarray(x, copy=copy, device=_device(device))
    _check_representable(x, "from_dlpack")
    try:
        result = jnp.from_dlpack(x, device=_device(device), copy=copy)
    except (jax.errors.JaxRuntimeError, ValueError) as err:
        if copy is False:  # e.g. an unaligned buffer JAX cannot view (it says ValueError)
            raise BufferError(f"from_dlpack: copy=False, but JAX must copy ({err})") from None
        raise
    if copy:
        # jax 0.10 still shares a 64-byte aligned CPU buffer when asked to copy.
        result = result.copy()
    return result


meshgrid = _creation.meshgrid_for(jnp)
tril = _creation.tril_for(jnp)
triu = _creation.triu_for(jnp)

"""The JAX backend: aliases of ``jax.numpy`` / ``jax.lax``; autodiff, immutable arrays.

64-bit dtypes (float64, int64, uint64, complex128) exist only when JAX runs in 64-bit mode.
This module never changes JAX's global configuration. To use them, call
``jax.config.update("jax_enable_x64", True)`` before importing ``ivy_like.backends.jax``
(i.e. before the jax backend is first used); without it they are left out of ``DTYPES``, so
asking for one raises ``TypeError`` instead of JAX silently truncating to 32 bits.

Defaults: float32 for Python floats (in both modes), int32 for Python ints (int64 in 64-bit
mode). Tracers inside ``jax.jit`` / ``jax.grad`` / ``jax.vmap`` are native arrays of this
backend, so ivy_like ops can be traced and differentiated.

This module holds what the backend is (its facts and the hooks the core calls); the ops are
in one file per family (``creation.py``, ``elementwise.py``, ...), the gradient primitives in
``gradients.py``.
"""

from __future__ import annotations

import builtins
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ...core import dtypes as D
from .._common import hooks as _hooks
from .._common.indexing import check_bounds, host_bounds
from ._helpers import ShardingTypeError as _ShardingTypeError
from ._helpers import sharded_take as _sharded_take

NAME = "jax"
VERSION = jax.__version__
# Tracers (jit/grad/vmap) pass ``isinstance(t, jax.Array)`` but are not subclasses of it, and
# the dispatcher resolves types with ``issubclass``: list the Tracer base class explicitly.
ARRAY_TYPES = (jax.Array, jax.core.Tracer)
HAS_AUTODIFF = True
MUTABLE_ARRAYS = False
UNSUPPORTED: dict[str, str] = {}
X64: bool = bool(jax.config.jax_enable_x64)  # read once; see the module docstring
DTYPES = _hooks.dtype_table(
    jnp.dtype, "bool int8 int16 int32 uint8 uint16 uint32 float16 bfloat16 float32 complex64"
)
if X64:
    DTYPES.update(_hooks.dtype_table(jnp.dtype, "int64 uint64 float64 complex128"))
DEFAULT_FLOAT = jnp.dtype("float32")
DEFAULT_INT = jnp.dtype("int64") if X64 else jnp.dtype("int32")
_X64_HINT = (
    'call jax.config.update("jax_enable_x64", True) before importing ivy_like.backends.jax, '
    "or pass dtype= to convert"
)


# -- helpers for the core ------------------------------------------------------------------------
shape = _hooks.shape
dtype = _hooks.dtype


def device(x: Any) -> Any:
    """``"cpu"`` for CPU arrays, ``"<platform>:<id>"`` (``"gpu:0"``) on accelerators; for an
    array spread over several devices its ``jax.sharding.Sharding`` (as ``jax.Array.device``
    says), which ``device=`` and ``to_device`` take.

    Tracers have no device; they report the default device.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from ivy_like.backends import jax as B
    >>> B.device(jnp.ones(2))
    'cpu'
    """
    try:
        dev = x.device
    except AttributeError:  # a tracer inside jit/grad
        dev = jax.devices()[0]
    if not isinstance(dev, jax.Device):  # a sharding over several devices
        return dev
    return "cpu" if dev.platform == "cpu" else f"{dev.platform}:{dev.id}"


def scalar_device(x: Any) -> Any:
    """Where a scalar that goes with ``x`` is made (an optimizer's step count): ``x``'s
    device, or for an array spread over a mesh, that mesh, replicated (``x``'s own sharding
    would split axes a scalar does not have)."""
    dev = device(x)
    if isinstance(dev, jax.sharding.NamedSharding):
        return jax.sharding.NamedSharding(dev.mesh, jax.sharding.PartitionSpec())
    if isinstance(dev, jax.sharding.Sharding):
        return next(iter(x.devices()))
    return _device(dev)


def _device(device: Any) -> Any:
    """A ``jax.Device`` from None, a Device, or a string such as ``"cpu"`` / ``"gpu:1"``; a
    ``jax.sharding.Sharding`` as it is (an array made or moved there is spread as it says)."""
    if device is None or isinstance(device, (jax.Device, jax.sharding.Sharding)):
        return device
    if isinstance(device, str):
        platform, _, index = device.partition(":")
        try:
            return jax.devices(platform)[int(index or 0)]
        except (RuntimeError, IndexError, ValueError) as err:
            raise ValueError(f"device: no jax device {device!r} ({err})") from None
    raise TypeError(
        "device: expected a string, a jax.Device or a jax.sharding.Sharding, got "
        f"{type(device).__name__}"
    )


native_device = _device  # the device= check of the core


def to_numpy(x: Any) -> np.ndarray:
    return np.asarray(x)


dlpack = _hooks.dlpack
dlpack_device = _hooks.dlpack_device


def _check_representable(obj: Any, where: str) -> None:
    """Raise when ``obj`` has a dtype this backend lacks (JAX would truncate it silently)."""
    src = getattr(obj, "dtype", None)
    if src is None or X64:
        return
    try:
        unified = D.as_dtype(src)
    except TypeError:
        return  # not a dtype we know; let JAX decide
    if unified not in DTYPES:
        raise TypeError(
            f"{where}: {unified.name} input cannot be represented by the jax backend without "
            f"64-bit mode; {_X64_HINT}"
        )


write_inplace = _hooks.immutable_write_inplace("jax")  # always raises: arrays are immutable


_BOOL = np.dtype("bool")


def _index_dims(item: Any) -> int:
    """How many axes of the indexed array one index item consumes."""
    if item is None or isinstance(item, bool):
        return 0
    ndim = getattr(item, "ndim", None)
    if ndim is not None and getattr(item, "dtype", None) == _BOOL:
        return ndim  # a boolean mask covers as many axes as it has
    return 1


_HOST_CHECK_MAX = 1 << 16  # index arrays up to this size are bounds-checked through NumPy


@jax.jit
def _min_max(k: Any) -> Any:
    return jnp.stack([jnp.min(k), jnp.max(k)])


_INDEX_MAX: dict[Any, int] = {}


def _index_max(dt: Any) -> int:
    """The largest value of the integer dtype ``dt`` (cached: ``np.iinfo`` costs ~1 µs)."""
    top = _INDEX_MAX.get(dt)
    if top is None:
        top = _INDEX_MAX[dt] = int(np.iinfo(dt).max)
    return top


def _past_index_max(size: Any, dt: Any) -> bool:
    """Whether an axis of ``size`` has positions past the integer dtype ``dt``'s maximum (then
    JAX's wrap of negative indices would overflow). A symbolic size (``jax.export``) cannot
    be compared with a number: an index dtype narrower than the default integer is widened
    then (exact either way)."""
    if type(size) is int:
        return size > _index_max(dt)
    return np.dtype(dt).itemsize < np.dtype(DEFAULT_INT).itemsize


def _index_range(k: Any) -> tuple[int, int]:
    """``(min, max)`` of a concrete integer index array.

    Small ones are read through NumPy (a view of a CPU buffer: two dispatched JAX reductions
    would cost a hundred times more); large ones reduce on the device, one transfer. A JAX
    array cannot change, so its bounds are read once and kept on the array itself (see
    ``_BOUNDS_ATTR``); a NumPy index array can change between calls and is read every time.
    """
    known = getattr(k, _BOUNDS_ATTR, None)
    if known is not None:
        return known
    if k.size <= _HOST_CHECK_MAX:
        known = host_bounds(np.asarray(k))
    else:
        lo, hi = np.asarray(_min_max(k)).tolist()
        known = int(lo), int(hi)
    if type(k) is _ArrayImpl:
        setattr(k, _BOUNDS_ATTR, known)
    return known


# The attribute under which a concrete JAX array keeps its ``(min, max)`` once read. JAX
# arrays are immutable and have an instance ``__dict__``: the bounds live and die with the
# array (no id-keyed table, no weak references), and reading them costs an attribute lookup
# (~0.03 µs) where reading the values back costs 0.7 µs and more.
_BOUNDS_ATTR = "_ivy_like_bounds"
_ArrayImpl = type(jnp.zeros(0))  # concrete arrays; tracers are other types


def _key(x: Any, key: Any) -> Any:
    """Normalise an index to NumPy's meaning and bounds-check it.

    JAX refuses lists (NumPy reads them as index arrays) and clamps out-of-range indices
    silently where NumPy raises ``IndexError``; index values known outside a trace are checked.
    """
    items = key if type(key) is tuple else (key,)
    if builtins.any(type(k) is list for k in items):
        items = tuple(np.asarray(k) if type(k) is list else k for k in items)
        key = items if type(key) is tuple else items[0]
    shp = x.shape
    ndim = len(shp)
    used = 0
    for k in items:
        if k is not Ellipsis:
            used += _index_dims(k)
    if used > ndim:
        raise IndexError(f"too many indices: array is {ndim}-dimensional, {used} were indexed")
    axis = 0
    widened = None
    for i, k in enumerate(items):
        if k is Ellipsis:
            axis += ndim - used
            continue
        dt = getattr(k, "dtype", None)
        if (
            dt is not None
            and getattr(k, "ndim", 0) > 0
            and jnp.issubdtype(dt, jnp.integer)
            and _past_index_max(shp[axis], dt)
        ):
            # JAX wraps negative indices with ``size`` in the index dtype, which overflows
            # (e.g. int8 indices into an axis of 300): widen to the default integer.
            widened = list(items) if widened is None else widened
            widened[i] = jnp.asarray(k).astype(DEFAULT_INT)
        if isinstance(k, (int, np.integer)) and not isinstance(k, bool):
            size = shp[axis]
            if not -size <= k < size:
                raise IndexError(f"index {k} is out of bounds for axis {axis} with size {size}")
        elif _index_dims(k) == 1 and hasattr(k, "dtype") and not isinstance(k, jax.core.Tracer):
            if getattr(k, "size", 0) and jnp.issubdtype(k.dtype, jnp.integer):
                size = shp[axis]
                check_bounds(*_index_range(k), size, axis)
        axis += _index_dims(k)
    if widened is not None:
        return tuple(widened) if type(key) is tuple else widened[0]
    return key


def _sharded_lookup(x: Any, key: Any, error: Exception) -> Any:
    """``x[indices]`` with one integer index array split over explicit mesh axes (labels
    looked up in a replicated table): a take whose result is split as the indices. Any other
    key keeps JAX's error."""
    if isinstance(key, jax.Array) and jnp.issubdtype(key.dtype, jnp.integer):
        return _sharded_take(x, key, 0, error)
    raise error


# ``x[key]`` with NumPy's rules (lists are index arrays, out-of-range is an IndexError).
getitem = _hooks.getitem_for(_key, (_ShardingTypeError, _sharded_lookup))


def setitem(x: Any, key: Any, value: Any) -> Any:
    """``x.at[key].set(value)``, ``key`` read with NumPy's rules: a new array, as every JAX
    update makes (``x`` is unchanged).

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from ivy_like.backends import jax as B
    >>> B.setitem(jnp.zeros(3), 1, 5.0)
    Array([0., 5., 0.], dtype=float32)
    """
    return x.at[_key(x, key)].set(value)


is_variable = _hooks.is_variable

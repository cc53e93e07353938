"""The MLX backend: aliases of ``mlx.core``; autodiff, arrays treated as immutable.

MLX is lazy: results stay unevaluated until something needs their values. ``to_numpy`` (and
so ``repr``, ``float()``, ``bool()``) evaluates; ``shape`` and ``dtype`` never need to.

This module holds what the backend is (its dtypes, defaults and flags) and the hooks the core
calls; the kernels are in one file per op family (``creation.py``, ``elementwise.py``...,
the names of ``ivy_like/ops/``), the gradient primitives in ``gradients.py``.

Choices and gaps, measured on MLX 0.32 (CPU):

* ``DEFAULT_INT`` is int32, what ``mx.array([1, 2])`` gives; ``DEFAULT_FLOAT`` float32.
* float64 is in ``DTYPES`` only when a float64 op runs on the default device at import (MLX
  supports it on the CPU, not on Metal GPUs). There is no complex128.
* ``MUTABLE_ARRAYS`` is False although ``a[i] = v`` works on an ``mx.array``: MLX rebinds the
  Python object to a new graph node, which is not a write that other holders can see, so
  ``out=`` rebinds an ``ivy_like.Array`` and raises ``TypeError`` for a native array, and
  ``setitem`` never touches its input.
* Boolean masks are not supported by MLX indexing: ``getitem``/``setitem`` evaluate the mask
  and turn it into integer index arrays with ``np.nonzero`` (NumPy computes only the
  indices). Index values are bounds-checked (MLX reads out of range memory silently); inside
  ``mx.compile``/``mx.vmap`` index arrays cannot be evaluated and are passed on unchecked.
* ``mx.matmul`` rejects integer and bool operands; those are computed exactly from MLX's own
  multiply and sum.
* DLPack export is MLX's own; ``mx.from_dlpack`` turns float64 into float32, so
  ``from_dlpack`` (in ``creation.py``) imports through ``np.from_dlpack`` (CPU objects, one
  copy) keeping the dtype.
* bfloat16 arrays convert to NumPy as float32 (NumPy has no bfloat16).
* ``pow`` of integers to negative integer powers gives 0 where NumPy raises.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mlx.core as mx
import numpy as np

from ...core import dtypes as D
from ...core.interop import GradientCutError
from .._common import hooks as _hooks
from .._common.indexing import check_step
from ._helpers import _out_of_bounds, _stream
from .gradients import TRACING

NAME = "mlx"
VERSION = mx.__version__
ARRAY_TYPES = (mx.array,)
HAS_AUTODIFF = True
MUTABLE_ARRAYS = False
UNSUPPORTED: dict[str, str] = {}

# This backend's asarray kernel, for the hooks below that convert Python values: creation.py
# defines it and registers it here when it loads (it imports this module, so this module
# cannot import it).
ASARRAY: list[Callable[..., Any]] = []


def _float64_works() -> bool:
    try:
        mx.eval(mx.array([1.0], dtype=mx.float64) + 1.0)
    except (RuntimeError, ValueError):
        return False
    return True


DTYPES = _hooks.dtype_table(
    lambda name: getattr(mx, "bool_" if name == "bool" else name),
    "bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 bfloat16 float32 complex64",
)
if _float64_works():
    DTYPES[D.float64] = mx.float64
DEFAULT_FLOAT = mx.float32
DEFAULT_INT = mx.int32
_INEXACT = frozenset(v for k, v in DTYPES.items() if k.kind in "fc")
_INTEGER = frozenset(v for k, v in DTYPES.items() if k.kind in "iu")


# -- helpers for the core ------------------------------------------------------------------------
def shape(x: Any) -> tuple[int, ...]:
    return x.shape  # known without evaluating


dtype = _hooks.dtype


def device(x: Any) -> str:
    """``"cpu"`` or ``"gpu"``: MLX arrays live in unified memory; ops run on the default device.

    Examples
    --------
    >>> import mlx.core as mx
    >>> from ivy_like.backends import mlx as B
    >>> B.device(mx.ones(2)) in ("cpu", "gpu")
    True
    """
    return mx.default_device().type.name


def native_device(device: Any) -> Any:
    """An ``mx.Device`` for ``"cpu"``, ``"gpu"`` (``":N"`` allowed) or a Device; ``ValueError``
    when this machine's MLX does not have it (e.g. the GPU on Linux CPU builds).

    Examples
    --------
    >>> from ivy_like.backends import mlx as B
    >>> B.native_device("cpu")
    Device(cpu, 0)
    """
    dev = _stream(device)
    if not mx.is_available(dev):
        raise ValueError(f"device: this MLX has no device {device!r} (it has: cpu)")
    return dev


def to_numpy(x: Any) -> np.ndarray:
    """A NumPy copy of ``x`` (evaluates it); bfloat16 gives ml_dtypes' bfloat16, as on the
    other backends (float32 where ml_dtypes is not installed).

    Examples
    --------
    >>> import mlx.core as mx
    >>> from ivy_like.backends import mlx as B
    >>> B.to_numpy(mx.array([1, 2]))
    array([1, 2], dtype=int32)
    """
    if x.dtype == mx.bfloat16:
        # NumPy cannot read MLX's bfloat16 buffer: its bits are read as uint16 instead.
        try:
            import ml_dtypes
        except ImportError:
            return np.array(x.astype(mx.float32))
        return np.array(x.view(mx.uint16)).view(ml_dtypes.bfloat16)
    return np.array(x)  # a copy: a view would let NumPy write into MLX's buffer


def dlpack(x: Any, *args: Any, **kwargs: Any) -> Any:
    if TRACING.get():
        # MLX itself asks first (mx.array * Array); refusing makes it use __mlx_array__, which
        # keeps the gradient. Any other consumer gets this error instead of traced constants.
        raise GradientCutError(
            "__dlpack__: inside ivy_like.grad on mlx an Array holds traced values; exporting "
            "them through DLPack would cut the gradient (use ivy_like functions, or x.data "
            "with mlx functions)"
        )
    return x.__dlpack__(*args, **kwargs)


dlpack_device = _hooks.dlpack_device


def check_complex_conversion() -> None:
    """Called by ``complex(Array)``: MLX tries ``complex()`` on a 0-d foreign operand before
    ``__mlx_array__``, and a Python complex is a constant; refused while differentiating."""
    if TRACING.get():
        raise GradientCutError(
            "complex(): inside ivy_like.grad on mlx an Array holds traced values; a Python "
            "complex would cut the gradient (use ivy_like functions on the Array)"
        )


# Always raises: ivy_like treats MLX arrays as immutable (see the module docstring).
write_inplace = _hooks.immutable_write_inplace("mlx")


_BOOL = np.dtype("bool")


def _is_bool_array(item: Any) -> bool:
    dt = getattr(item, "dtype", None)
    return dt is not None and (dt == mx.bool_ if isinstance(item, mx.array) else dt == _BOOL)


def _key(x: Any, key: Any) -> Any:
    """Translate a NumPy-style index to one MLX accepts, with NumPy's bounds checks.

    Lists and NumPy arrays become ``mx.array``; a boolean mask becomes one integer index
    array per axis it covers (NumPy's own definition of mask indexing), computed with
    ``np.nonzero`` on the evaluated mask.
    """
    items = key if type(key) is tuple else (key,)
    shp = x.shape
    ndim = len(shp)
    used = 0
    for k in items:
        if k is None or k is Ellipsis or isinstance(k, bool):
            continue
        if isinstance(k, list):
            k = np.asarray(k)
        used += k.ndim if _is_bool_array(k) else 1
    if used > ndim:
        raise IndexError(f"too many indices: array is {ndim}-dimensional, {used} were indexed")
    out: list[Any] = []
    axis = 0
    for k in items:
        if k is Ellipsis:
            axis += ndim - used
        elif k is None or isinstance(k, bool):
            pass
        elif isinstance(k, (int, np.integer)):
            size = shp[axis]
            if not -size <= k < size:
                raise IndexError(f"index {k} is out of bounds for axis {axis} with size {size}")
            k = int(k)
            axis += 1
        elif isinstance(k, slice):
            check_step(k)  # MLX 0.32 dies of SIGFPE on a zero step
            axis += 1
        else:
            if isinstance(k, list):
                k = np.asarray(k)
            if _is_bool_array(k):
                mask_shape = tuple(k.shape)
                if mask_shape != tuple(shp[axis : axis + len(mask_shape)]):
                    raise IndexError(
                        f"boolean index of shape {mask_shape} does not match the indexed "
                        f"axes {tuple(shp[axis : axis + len(mask_shape)])}"
                    )
                out.extend(mx.array(i) for i in np.nonzero(np.asarray(k)))
                axis += len(mask_shape)
                continue
            if not isinstance(k, mx.array):
                k = mx.array(np.asarray(k))
            if k.dtype not in _INTEGER:
                raise IndexError(f"index arrays must be integer or boolean, got {k.dtype}")
            bad = _out_of_bounds(k, shp[axis]) if k.size else None
            if bad is not None:
                raise IndexError(
                    f"index {bad} is out of bounds for axis {axis} with size {shp[axis]}"
                )
            axis += 1
        out.append(k)
    return tuple(out) if type(key) is tuple or len(out) != 1 else out[0]


# ``x[key]`` with NumPy's rules, including boolean masks and bounds checks.
getitem = _hooks.getitem_for(_key)


def setitem(x: Any, key: Any, value: Any) -> Any:
    """A new array equal to ``x`` with ``x[key] = value`` applied (``x`` is unchanged).

    Examples
    --------
    >>> import mlx.core as mx
    >>> from ivy_like.backends import mlx as B
    >>> x = mx.zeros(3)
    >>> B.setitem(x, 1, 5.0), x
    (array([0, 5, 0], dtype=float32), array([0, 0, 0], dtype=float32))
    """
    key = _key(x, key)
    if not isinstance(value, (mx.array, bool, int, float, complex)):
        value = ASARRAY[0](value)
    out = mx.array(x)  # a new array object: the assignment below rebinds only this one
    out[key] = value
    return out


is_variable = _hooks.is_variable

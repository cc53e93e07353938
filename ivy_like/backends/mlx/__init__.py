"""The MLX backend: aliases of ``mlx.core``; autodiff, arrays treated as immutable.

MLX is lazy: results stay unevaluated until something needs their values. ``to_numpy`` (and
so ``repr``, ``float()``, ``bool()``) evaluates; ``shape`` and ``dtype`` never need to.

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
  ``from_dlpack`` (in ``manipulation.py``) imports through ``np.from_dlpack`` (CPU objects, one
  copy) keeping the dtype.
* bfloat16 arrays convert to NumPy as float32 (NumPy has no bfloat16).
* ``pow`` of integers to negative integer powers gives 0 where NumPy raises.
"""

from __future__ import annotations

import builtins
import math
from typing import Any

import mlx.core as mx
import numpy as np

from ... import _dtypes as D
from ...ops._half import _half_in_float32
from ...ops.indexing import _check_step, _host_bounds, _in_range_basic
from ...ops.statistical import _ACCURATE_SUM_FROM, _axes

NAME = "mlx"
VERSION = mx.__version__
ARRAY_TYPES = (mx.array,)
HAS_AUTODIFF = True
MUTABLE_ARRAYS = False
UNSUPPORTED: dict[str, str] = {}


def _float64_works() -> bool:
    try:
        mx.eval(mx.array([1.0], dtype=mx.float64) + 1.0)
    except (RuntimeError, ValueError):
        return False
    return True


DTYPES = {
    D.bool: mx.bool_,
    D.int8: mx.int8,
    D.int16: mx.int16,
    D.int32: mx.int32,
    D.int64: mx.int64,
    D.uint8: mx.uint8,
    D.uint16: mx.uint16,
    D.uint32: mx.uint32,
    D.uint64: mx.uint64,
    D.float16: mx.float16,
    D.bfloat16: mx.bfloat16,
    D.float32: mx.float32,
    D.complex64: mx.complex64,
}
if _float64_works():
    DTYPES[D.float64] = mx.float64
DEFAULT_FLOAT = mx.float32
DEFAULT_INT = mx.int32
_DEFAULT_COMPLEX = mx.complex64
_INEXACT = frozenset(v for k, v in DTYPES.items() if k.kind in "fc")
_INTEGER = frozenset(v for k, v in DTYPES.items() if k.kind in "iu")


# -- helpers for the core ------------------------------------------------------------------------
def shape(x: Any) -> tuple[int, ...]:
    return x.shape  # known without evaluating


def dtype(x: Any) -> Any:
    return x.dtype


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


def _stream(device: Any) -> Any:
    """The ``stream=`` argument of MLX ops for a device given as None, a string or a Device."""
    if device is None or isinstance(device, mx.Device):
        return device
    if isinstance(device, str) and device.partition(":")[0] in ("cpu", "gpu"):
        kind, _, index = device.partition(":")
        return mx.Device(getattr(mx, kind), int(index or 0))
    raise ValueError(f"device: expected 'cpu', 'gpu' or an mlx.core.Device, got {device!r}")


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
    """A NumPy copy of ``x`` (evaluates it); bfloat16 becomes float32.

    Examples
    --------
    >>> import mlx.core as mx
    >>> from ivy_like.backends import mlx as B
    >>> B.to_numpy(mx.array([1, 2]))
    array([1, 2], dtype=int32)
    """
    if x.dtype == mx.bfloat16:
        x = x.astype(mx.float32)
    return np.array(x)  # a copy: a view would let NumPy write into MLX's buffer


def dlpack(x: Any, *args: Any, **kwargs: Any) -> Any:
    return x.__dlpack__(*args, **kwargs)


def dlpack_device(x: Any) -> tuple[int, int]:
    return x.__dlpack_device__()


def write_inplace(target: Any, value: Any) -> None:
    """Always raises: ivy_like treats MLX arrays as immutable (see the module docstring).

    Examples
    --------
    >>> import mlx.core as mx
    >>> from ivy_like.backends import mlx as B
    >>> B.write_inplace(mx.zeros(2), mx.ones(2))
    Traceback (most recent call last):
    TypeError: out=: mlx arrays are immutable; pass an ivy_like.Array (it is rebound) or use the return value
    """
    raise TypeError(
        "out=: mlx arrays are immutable; pass an ivy_like.Array (it is rebound) or use the "
        "return value"
    )


_BOOL = np.dtype("bool")


def _is_bool_array(item: Any) -> bool:
    dt = getattr(item, "dtype", None)
    return dt is not None and (dt == mx.bool_ if isinstance(item, mx.array) else dt == _BOOL)


def _out_of_bounds(index: Any, size: int) -> Any:
    """An out-of-range value of an integer index array, or None (evaluates it).

    The check reads the evaluated index through NumPy (unified memory: no copy), with the
    limits as Python ints: comparing in MLX would convert ``-size`` or ``size`` to the index
    dtype, which overflows for unsigned or narrow indices, and costs a synchronisation more.
    """
    try:
        if index.ndim == 1 and index.size <= 16:
            values = index.tolist()  # a few values: a list is 4x cheaper than a NumPy view
            lo, hi = builtins.min(values), builtins.max(values)
        else:
            lo, hi = _host_bounds(np.asarray(index))
    except ValueError:  # inside mx.compile / mx.vmap: values unknown, MLX must take it as is
        return None
    if hi >= size:
        return hi
    return lo if lo < -size else None


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
            _check_step(k)  # MLX 0.32 dies of SIGFPE on a zero step
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


def getitem(x: Any, key: Any) -> Any:
    """``x[key]`` with NumPy's rules, including boolean masks and bounds checks.

    Examples
    --------
    >>> import mlx.core as mx
    >>> from ivy_like.backends import mlx as B
    >>> x = mx.array([1., 2., 3.])
    >>> B.getitem(x, x > 1.5)
    array([2, 3], dtype=float32)
    """
    if _in_range_basic(x.shape, key):  # nothing to translate or check
        return x[key]
    return x[_key(x, key)]


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
        value = asarray(value)
    out = mx.array(x)  # a new array object: the assignment below rebinds only this one
    out[key] = value
    return out


def is_variable(x: Any) -> bool:
    return False


def _is_python_data(obj: Any) -> bool:
    return not isinstance(obj, (np.ndarray, np.generic)) and not hasattr(obj, "__array__")


def _native_for(np_dtype: Any, where: str) -> Any:
    unified = D.as_dtype(np_dtype)
    native = DTYPES.get(unified)
    if native is None:
        raise TypeError(
            f"{where}: {unified.name} is not supported by the mlx backend; pass dtype= to convert"
        )
    return native


# -- creation -------------------------------------------------------------------------------------
def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: Any = None) -> Any:
    """An ``mx.array`` from Python data, an ``mx.array``, or anything NumPy can read.

    Python floats become float32, ints int32 (int64 when too large), complex complex64.
    NumPy input keeps its dtype (``mx.array`` alone would turn float64 into float32); a dtype
    MLX lacks raises ``TypeError``. ``copy=False`` raises ``ValueError`` when MLX must copy
    (anything that is not already an ``mx.array`` of the requested dtype).

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.backends import mlx as B
    >>> B.asarray([1., 2.])
    array([1, 2], dtype=float32)
    >>> B.asarray(np.array([1.5])).dtype
    mlx.core.float64
    """
    _stream(device)  # validated; MLX arrays have no placement (unified memory)
    if isinstance(obj, mx.array):
        if dtype is None or obj.dtype == dtype:
            return mx.array(obj) if copy else obj
        if copy is False:
            raise ValueError("asarray: copy=False but a dtype conversion needs a copy")
        return obj.astype(dtype)
    if copy is False:
        raise ValueError(f"asarray: copy=False but MLX must copy a {type(obj).__name__}")
    if _is_python_data(obj):
        try:
            return mx.array(obj) if dtype is None else mx.array(obj, dtype=dtype)
        except (TypeError, ValueError):
            pass  # e.g. a list holding NumPy scalars: read it with NumPy below
        arr = np.asarray(obj)
        if dtype is None:
            dtype = {"f": DEFAULT_FLOAT, "c": _DEFAULT_COMPLEX}.get(arr.dtype.kind)
    else:
        arr = np.asarray(obj)
    if dtype is None:
        dtype = _native_for(arr.dtype, "asarray")
    return mx.array(arr, dtype=dtype)


def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    if device is None:  # positional and no stream=: the cheapest call of nanobind's parser
        return mx.zeros(shape, dtype or DEFAULT_FLOAT)
    return mx.zeros(shape, dtype=dtype or DEFAULT_FLOAT, stream=_stream(device))


def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    if device is None:  # positional and no stream=: the cheapest call of nanobind's parser
        return mx.ones(shape, dtype or DEFAULT_FLOAT)
    return mx.ones(shape, dtype=dtype or DEFAULT_FLOAT, stream=_stream(device))


def _scalar_default(value: Any) -> Any:
    if isinstance(value, bool):
        return mx.bool_
    if isinstance(value, int):
        return DEFAULT_INT
    if isinstance(value, float):
        return DEFAULT_FLOAT
    if isinstance(value, complex):
        return _DEFAULT_COMPLEX
    return None


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    if dtype is None:
        dtype = _scalar_default(fill_value)
    out = mx.full(shape, fill_value, dtype=dtype, stream=_stream(device))
    # mx.full keeps the value's kind when it is higher than dtype's (full((2,), 2.5,
    # dtype=int32) is float32): convert, as NumPy does (an unsafe cast of the value).
    return out if dtype is None or out.dtype == dtype else out.astype(dtype)


def arange(
    start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None, device: Any = None
) -> Any:
    if dtype is None:
        is_float = builtins.any(isinstance(v, float) for v in (start, stop, step))
        dtype = DEFAULT_FLOAT if is_float else DEFAULT_INT
    if stop is None:
        start, stop = 0, start
    return mx.arange(start, stop, step, dtype=dtype, stream=_stream(device))


def linspace(
    start: Any,
    stop: Any,
    /,
    num: int,
    *,
    dtype: Any = None,
    device: Any = None,
    endpoint: bool = True,
) -> Any:
    dtype = dtype or DEFAULT_FLOAT
    stream = _stream(device)
    if endpoint:
        return mx.linspace(start, stop, num, dtype=dtype, stream=stream)
    # MLX has no endpoint=: num+1 points up to stop, minus the last, is NumPy's definition.
    return mx.linspace(start, stop, num + 1, dtype=dtype, stream=stream)[:num]


def eye(
    n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None
) -> Any:
    return mx.eye(n_rows, n_cols, k=k, dtype=dtype or DEFAULT_FLOAT, stream=_stream(device))


def zeros_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return mx.zeros(x.shape, dtype=dtype or x.dtype, stream=_stream(device))


def ones_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return mx.ones(x.shape, dtype=dtype or x.dtype, stream=_stream(device))


# -- elementwise ----------------------------------------------------------------------------------
# mlx.core follows NumPy here (checked): Python's sign rules for // and %, NaN-propagating
# maximum/minimum, weak Python scalars.
add = mx.add
subtract = mx.subtract
multiply = mx.multiply
divide = mx.divide
floor_divide = mx.floor_divide
remainder = mx.remainder


pow = mx.power  # noqa: A001  (elementwise.py: with the integer rule)


maximum = mx.maximum
minimum = mx.minimum
equal = mx.equal
not_equal = mx.not_equal
less = mx.less
less_equal = mx.less_equal
greater = mx.greater
greater_equal = mx.greater_equal
logical_and = mx.logical_and
logical_or = mx.logical_or
logical_not = mx.logical_not
negative = mx.negative
positive = mx.positive
abs = mx.abs  # noqa: A001
exp = mx.exp
log = mx.log
sqrt = mx.sqrt
square = mx.square
sin = mx.sin
cos = mx.cos
tanh = mx.tanh
where = mx.where


# -- reductions -----------------------------------------------------------------------------------
def sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    """``mx.sum``, converting to ``dtype`` first when one is given (MLX has no ``dtype=``).

    Examples
    --------
    >>> import mlx.core as mx
    >>> from ivy_like.backends import mlx as B
    >>> B.sum(mx.array([1, 2]), dtype=mx.float32)
    array(3, dtype=float32)
    """
    if dtype is not None:
        x = x.astype(dtype)
    if x.size < _ACCURATE_SUM_FROM:  # small: MLX's own sum (no rounding to speak of)
        return mx.sum(x, axis=axis, keepdims=keepdims)
    return _float_sum(x, axis, keepdims)


# MLX 0.32 sums float32 in one running total: measured relative errors of 1e-5 for a thousand
# 0.1s, 1e-2 for a million and 9e-2 for ten million (NumPy, JAX, torch: about 1e-7). Sums
# reducing at least _ACCURATE_SUM_FROM float32/complex64 elements go in blocks of 16: partial sums
# of partial sums, NumPy's accuracy (1.5e-7 on the same data), and faster than mx.sum from
# 16k elements (0.4 ms against 0.9 for a million); the same mx.eval cost below (~50 us).
_BLOCK = 16
_BLOCKED_DTYPES = frozenset({mx.float32, mx.complex64})


def _float_sum(x: Any, axis: Any, keepdims: bool) -> Any:
    """``mx.sum(x, axis, keepdims)``, in blocks when many float32/complex64 values are summed."""
    ndim = x.ndim
    if x.dtype not in _BLOCKED_DTYPES:
        return mx.sum(x, axis=axis, keepdims=keepdims)
    try:
        reduced = list(_axes(ndim, axis, "sum"))
    except (TypeError, ValueError):  # not axes, repeated or out of range: mx.sum's own error
        return mx.sum(x, axis=axis, keepdims=keepdims)
    shape = x.shape
    n = math.prod(shape[a] for a in reduced)
    if n < _ACCURATE_SUM_FROM:
        return mx.sum(x, axis=axis, keepdims=keepdims)
    kept = [a for a in range(ndim) if a not in reduced]
    if kept + reduced != list(range(ndim)):
        x = mx.transpose(x, kept + reduced)  # the reduced axes last
    out = _blocked_sum(x.reshape([shape[a] for a in kept] + [n]))
    if keepdims:
        out = out.reshape([1 if a in reduced else shape[a] for a in range(ndim)])
    return out


def _blocked_sum(x: Any) -> Any:
    """Sum of the last axis as sums of blocks of _BLOCK, then of their sums, and so on."""
    n = x.shape[-1]
    while n > _BLOCK:
        whole = n - n % _BLOCK
        lead = x.shape[:-1]
        blocks = (x[..., :whole] if whole < n else x).reshape([*lead, whole // _BLOCK, _BLOCK])
        partial = mx.sum(blocks, axis=-1)
        if whole < n:
            partial = mx.concatenate([partial, mx.sum(x[..., whole:], axis=-1, keepdims=True)], -1)
        x, n = partial, partial.shape[-1]
    return mx.sum(x, axis=-1)


# Half precision computed in float32 (ivy_like.ops._half): mean here, var/std/
# cumulative_sum in statistical.py, the decompositions in linalg.py.
_in_float32 = _half_in_float32({"float16": mx.float16, "bfloat16": mx.bfloat16}, mx.float32)


@_in_float32
def mean(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    """``mx.mean`` for floating-point arrays; other dtypes raise ``TypeError``.

    Examples
    --------
    >>> import mlx.core as mx
    >>> from ivy_like.backends import mlx as B
    >>> B.mean(mx.array([1., 2.]))
    array(1.5, dtype=float32)
    """
    if x.dtype not in _INEXACT:
        raise TypeError(f"mean: expected a floating-point array, got dtype {x.dtype}")
    if x.size < _ACCURATE_SUM_FROM:
        return mx.mean(x, axis=axis, keepdims=keepdims)
    total = _float_sum(x, axis, keepdims)
    return total / (x.size // total.size)  # (total is not empty: x has 512+ elements)


max = mx.max  # noqa: A001  (NaN-propagating, like NumPy)
min = mx.min  # noqa: A001


# -- linalg and manipulation ----------------------------------------------------------------------
def matmul(x1: Any, x2: Any, /) -> Any:
    """``mx.matmul``; integer and bool operands (which it rejects) via exact multiply-and-sum.

    Examples
    --------
    >>> import mlx.core as mx
    >>> from ivy_like.backends import mlx as B
    >>> B.matmul(mx.array([[1, 2], [3, 4]]), mx.array([1, 1]))
    array([3, 7], dtype=int32)
    """
    try:
        # Floating operands (the common call) pass; MLX raises ValueError for integer and
        # bool ones, handled below, and for shapes NumPy refuses too (raised again below).
        return mx.matmul(x1, x2)
    except ValueError:
        pass
    if not (isinstance(x1, mx.array) and isinstance(x2, mx.array)):
        return mx.matmul(x1, x2)  # a scalar operand: MLX raises, as NumPy does
    if x1.dtype in _INEXACT or x2.dtype in _INEXACT:
        return mx.matmul(x1, x2)
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("matmul: operands must have at least one dimension")
    a = x1[None] if x1.ndim == 1 else x1  # NumPy: a 1-D left operand is a row vector...
    b = x2[:, None] if x2.ndim == 1 else x2  # ...and a 1-D right operand a column vector
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"matmul: inner dimensions differ ({a.shape[-1]} and {b.shape[-2]})")
    products = mx.expand_dims(a, -1) * mx.expand_dims(b, -3)  # (..., n, k, m)
    out = mx.sum(products, axis=-2).astype(products.dtype)
    if x2.ndim == 1:
        out = out.squeeze(-1)
    if x1.ndim == 1:
        out = out.squeeze(-2 if x2.ndim > 1 else -1)
    return out


def reshape(x: Any, /, shape: Any, *, copy: Any = None) -> Any:
    # MLX arrays are immutable values here: a copy and a view cannot be told apart.
    return mx.reshape(x, shape)


def permute_dims(x: Any, /, axes: Any) -> Any:
    return mx.transpose(x, axes)


concat = mx.concatenate  # axis=None flattens first, as in NumPy
stack = mx.stack


def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    _stream(device)
    if not copy and x.dtype == dtype:
        return x
    return x.astype(dtype)


# -- gradients ------------------------------------------------------------------------------------
_mx_stop_gradient = mx.stop_gradient


def stop_gradient(x: Any, /, *, preserve_type: bool = True) -> Any:
    """``mx.stop_gradient``; ``preserve_type`` has no effect (MLX has no variables).

    Examples
    --------
    >>> import mlx.core as mx
    >>> from ivy_like.backends import mlx as B
    >>> mx.grad(lambda a: (B.stop_gradient(a) * a).sum())(mx.array([2., 3.]))
    array([2, 3], dtype=float32)
    """
    return _mx_stop_gradient(x)


def variable(x: Any, /) -> Any:
    # Under mx.grad every array is differentiable: there is no variable type.
    return x


# Array API families beyond the first set, one file each (same names in every backend).
from .elementwise import *  # noqa: E402,F403
from .fft import *  # noqa: E402,F403
from .gradients import *  # noqa: E402,F403
from .linalg import *  # noqa: E402,F403
from .manipulation import *  # noqa: E402,F403
from .nn import *  # noqa: E402,F403
from .statistical import *  # noqa: E402,F403

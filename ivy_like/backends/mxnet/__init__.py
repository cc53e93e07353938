"""The Apache MXNet 1.9 backend: ``mxnet.nd`` NDArrays with ``mxnet.autograd``; mutable arrays.

MXNet 1.9.1 imports only beside ``numpy<1.24`` and crashes when TensorFlow was imported first,
so it runs in its own environment (``constraints-mxnet.txt``, nox session ``tests_mxnet``).

Choices and gaps, measured on MXNet 1.9.1 (CPU):

* Scalars are 0-d arrays, as in NumPy. Legacy ``mx.nd`` has no 0-d arrays unless MXNet's
  *NumPy shape semantics* is on, so every op here runs with it switched on for the calling
  thread only (``mx.util.set_np_shape``, thread-local) and restored afterwards. ``mx.npx.set_np``
  is never called: it is process-wide and changes what Gluon returns. Full reductions, which
  legacy operators return with shape ``(1,)``, are reshaped to ``()``. A 0-d NDArray that the
  user passes to ``mx.nd`` operators themselves needs ``with mx.util.np_shape(True):`` there.
* dtypes: bool, int8, int32, int64, uint8, float16, float32, float64. MXNet's Python layer has
  no int16, uint16/32/64, bfloat16 or complex. ``DEFAULT_INT`` is int64, ``DEFAULT_FLOAT``
  float32 (``mx.nd.array`` itself makes float32 even from integers; ``asarray`` keeps NumPy's
  integer dtypes instead).
* MXNet does not promote: mixed dtypes raise inside its operators. Operands are promoted here
  with NumPy's table; a result MXNet lacks (int8 with uint8 gives int16, uint8 with int64 is
  fine) raises ``TypeError`` naming it, as jax does without 64-bit mode. Python scalars are weak:
  they take the array's dtype; a float beside integers gives float32, an int beside bools
  int64.
* Most operators reject bool (``Unknown type enum 7``): comparisons compute in the operands'
  dtype and cast the 0/1 result to bool; bool operands go through uint8 and back.
* ``dot`` handles only float32/float64 on the CPU and crashes the process (SIGFPE) on zero-size
  operands: float16 is multiplied in float32, integers exactly by multiply-and-sum, and
  zero-size products are built directly.
* Integer division truncates in MXNet; ``floor_divide`` floors like Python. ``sum`` of bools
  and integers accumulates in int64 (NumPy gives uint64 for unsigned; MXNet has none).
* ``stop_gradient`` is ``mx.nd.stop_gradient`` (``BlockGrad``, a copy). A *variable* is an
  NDArray with a gradient buffer (``attach_grad``).
"""

from __future__ import annotations

import builtins
import functools
from typing import Any, Callable

import mxnet as mx
import numpy as np
from mxnet.util import set_np_shape as _set_np_shape

from ... import _dtypes as D
from ...ops._half import _half_in_float32

nd = mx.nd
NDArray = nd.NDArray

NAME = "mxnet"
VERSION = mx.__version__
ARRAY_TYPES = (NDArray,)
HAS_AUTODIFF = True
MUTABLE_ARRAYS = True
UNSUPPORTED: dict[str, str] = {}
DTYPES = {
    D.bool: np.dtype("bool"),
    D.int8: np.dtype("int8"),
    D.int32: np.dtype("int32"),
    D.int64: np.dtype("int64"),
    D.uint8: np.dtype("uint8"),
    D.float16: np.dtype("float16"),
    D.float32: np.dtype("float32"),
    D.float64: np.dtype("float64"),
}
DEFAULT_FLOAT = np.dtype("float32")
DEFAULT_INT = np.dtype("int64")
_SUPPORTED = frozenset(DTYPES.values())
_BOOL = np.dtype("bool")
_UINT8 = np.dtype("uint8")


def numpy_shapes(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run ``fn`` with MXNet's NumPy shape semantics on for this thread, then restore it.

    Needed for 0-d and zero-size arrays; thread-local, so other threads never see it.

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends.mxnet import numpy_shapes
    >>> numpy_shapes(lambda: mx.nd.zeros(()).shape)()
    ()
    >>> mx.util.is_np_shape()
    False
    """

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        prev = _set_np_shape(True)
        try:
            return fn(*args, **kwargs)
        finally:
            if not prev:
                _set_np_shape(False)

    return call


# -- helpers for the core ------------------------------------------------------------------------
def shape(x: Any) -> tuple[int, ...]:
    return tuple(x.shape)


def dtype(x: Any) -> Any:
    return np.dtype(x.dtype)  # NDArray.dtype is a NumPy scalar type; the core wants a dtype


def device(x: Any) -> str:
    return x.context.device_type


@numpy_shapes
def to_numpy(x: Any) -> np.ndarray:
    """A NumPy copy of ``x``.

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> B.to_numpy(mx.nd.array([1, 2]))
    array([1., 2.], dtype=float32)
    """
    return x.asnumpy()


@numpy_shapes
def dlpack(x: Any, *args: Any, **kwargs: Any) -> Any:
    # MXNet's DLPack capsule (read-only use); stream arguments do not apply on the CPU.
    return x.to_dlpack_for_read()


def dlpack_device(x: Any) -> tuple[int, int]:
    return (1, x.context.device_id) if x.context.device_type == "cpu" else (2, x.context.device_id)


def from_dlpack(obj: Any) -> Any:
    # mx.nd.from_dlpack takes only capsules; NumPy reads any CPU producer (one copy).
    return asarray(np.from_dlpack(obj))


@numpy_shapes
def write_inplace(target: Any, value: Any) -> None:
    """``target[...] = value`` outside autograd recording (an in-place write is not a graph op).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> t = mx.nd.zeros(2)
    >>> B.write_inplace(t, mx.nd.ones(2)); t.asnumpy()
    array([1., 1.], dtype=float32)
    """
    with mx.autograd.pause():
        target[()] = value


def _key(key: Any) -> Any:
    """Boolean masks (unsupported by ``mx.nd`` indexing) become integer index arrays."""
    items = key if type(key) is tuple else (key,)
    out: list[Any] = []
    for k in items:
        if isinstance(k, list):
            k = np.asarray(k)
        if isinstance(k, NDArray):
            k = k.asnumpy() if k.dtype == np.bool_ else k
        if isinstance(k, np.ndarray):
            if k.dtype == np.bool_:
                out.extend(nd.array(i, dtype="int64") for i in np.nonzero(k))
                continue
            k = nd.array(k, dtype=k.dtype)
        out.append(k)
    return tuple(out) if type(key) is tuple or len(out) != 1 else out[0]


@numpy_shapes
def getitem(x: Any, key: Any) -> Any:
    """``x[key]`` with NumPy's rules (0-d results, boolean masks).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> x = mx.nd.array([1., 2., 3.])
    >>> B.getitem(x, 1).shape, B.to_numpy(B.getitem(x, x.asnumpy() > 1.5))
    ((), array([2., 3.], dtype=float32))
    """
    return x[_key(key)]


@numpy_shapes
def setitem(x: Any, key: Any, value: Any) -> Any:
    if not isinstance(value, (NDArray, bool, int, float)):
        value = asarray(value, dtype=dtype(x))
    x[_key(key)] = value
    return x


def is_variable(x: Any) -> bool:
    return x.grad is not None


# -- dtypes and operands ---------------------------------------------------------------------------
def _supported(dt: np.dtype, where: str) -> np.dtype:
    """``dt`` if MXNet has it, else ``TypeError``."""
    if dt not in _SUPPORTED:
        raise TypeError(f"{where}: {dt} is not supported by the mxnet backend")
    return dt


def _cast(x: Any, dt: np.dtype) -> Any:
    return x if np.dtype(x.dtype) == dt else x.astype(dt)


def _scalar_dtype(arr_dt: np.dtype, value: Any, where: str) -> np.dtype:
    """Weak Python scalars: they take the array's dtype unless their kind is wider."""
    if isinstance(value, bool):
        return arr_dt
    if isinstance(value, int):
        return DEFAULT_INT if arr_dt == _BOOL else arr_dt
    if isinstance(value, float):
        return arr_dt if arr_dt.kind == "f" else DEFAULT_FLOAT
    raise TypeError(f"{where}: {type(value).__name__} operands are not supported by mxnet")


def _operands(where: str, *xs: Any) -> tuple[list[Any], np.dtype]:
    """Arrays of one promoted dtype (Python scalars become 0-d arrays of it)."""
    arrays = [x for x in xs if isinstance(x, NDArray)]
    if not arrays:
        arrays = [asarray(x) for x in xs]
        xs = tuple(arrays)
    dt = np.result_type(*[np.dtype(a.dtype) for a in arrays])
    for x in xs:
        if not isinstance(x, NDArray):  # weak: the arrays' dtype, or the scalar kind's default
            dt = _scalar_dtype(dt, x, where)
    if dt not in _SUPPORTED:
        # e.g. int8 with uint8: an error naming the standard's result, never a wider type.
        names = " with ".join(sorted({str(np.dtype(a.dtype)) for a in arrays}))
        raise TypeError(
            f"{where}: {names} promotes to {dt.name}, which the mxnet backend does not support; "
            "convert one operand first"
        )
    out = [
        _cast(x, dt) if isinstance(x, NDArray) else nd.array(np.asarray(x, dtype=dt), dtype=dt)
        for x in xs
    ]
    return out, dt


def _no_bool(x: Any) -> Any:
    return x.astype(_UINT8) if x.dtype == np.bool_ else x


def _broadcast(arrays: list[Any]) -> list[Any]:
    """Broadcast to one shape (0-d arrays are first reshaped: MXNet cannot broadcast them)."""
    target = np.broadcast_shapes(*[tuple(a.shape) for a in arrays])
    return [_broadcast_to(a, target) for a in arrays]


def _broadcast_to(a: Any, target: tuple[int, ...]) -> Any:
    """``broadcast_to`` with NumPy's rule of leading 1s (MXNet needs equal ranks)."""
    if tuple(a.shape) == target:
        return a
    if a.ndim < len(target):
        a = a.reshape((1,) * (len(target) - a.ndim) + tuple(a.shape))
    return nd.broadcast_to(a, shape=target)


def _binary(mx_op: Callable[..., Any], name: str) -> Callable[..., Any]:
    @numpy_shapes
    def op(x1: Any, x2: Any, /) -> Any:
        (a, b), dt = _operands(name, x1, x2)
        if dt == _BOOL:
            return mx_op(_no_bool(a), _no_bool(b)).astype(_BOOL)
        return mx_op(a, b)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``mx.nd.{mx_op.__name__}`` on promoted operands (NumPy broadcasting)."
    return op


def _comparison(mx_op: Callable[..., Any], name: str) -> Callable[..., Any]:
    @numpy_shapes
    def op(x1: Any, x2: Any, /) -> Any:
        (a, b), _ = _operands(name, x1, x2)
        return mx_op(_no_bool(a), _no_bool(b)).astype(_BOOL)  # MXNet returns 0/1 numbers

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``mx.nd.{mx_op.__name__}`` as a bool array."
    return op


def _float_unary(mx_op: Callable[..., Any], name: str) -> Callable[..., Any]:
    @numpy_shapes
    def op(x: Any, /) -> Any:
        if x.dtype == np.bool_ or np.dtype(x.dtype).kind in "iu":
            x = x.astype(DEFAULT_FLOAT)  # MXNet would keep the integer dtype and truncate
        return mx_op(x)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``mx.nd.{mx_op.__name__}``; integer and bool inputs become float32."
    return op


def _same_unary(mx_op: Callable[..., Any], name: str, bools: bool = True) -> Callable[..., Any]:
    @numpy_shapes
    def op(x: Any, /) -> Any:
        if not bools and x.dtype == _BOOL:
            # MXNet has no boolean kernel: it would fail only when the result is read. The
            # generated function turns this into ivy_like's error (ivy_like._decided_errors).
            raise TypeError(f"{name}: MXNet has no {name} of booleans")
        return mx_op(x)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``mx.nd.{mx_op.__name__}``."
    return op


# -- creation -------------------------------------------------------------------------------------
def _context(device: Any) -> Any:
    if device is None:
        return mx.current_context()
    if isinstance(device, mx.Context):
        return device
    if isinstance(device, str):
        kind, _, index = device.partition(":")
        if kind in ("cpu", "gpu"):
            return mx.Context(kind, int(index or 0))
    raise ValueError(f"device: expected 'cpu', 'gpu:N' or an mx.Context, got {device!r}")


def native_device(device: Any) -> Any:
    """An ``mx.Context`` for ``"cpu"``, ``"gpu:N"`` or a Context; ``ValueError`` for a GPU
    this machine does not have."""
    ctx = _context(device)
    if ctx.device_type == "gpu" and ctx.device_id >= mx.context.num_gpus():
        raise ValueError(f"device: no MXNet device {device!r} here ({mx.context.num_gpus()} GPUs)")
    return ctx


def _is_python_data(obj: Any) -> bool:
    return not isinstance(obj, (np.ndarray, np.generic)) and not hasattr(obj, "__array__")


@numpy_shapes
def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: Any = None) -> Any:
    """An NDArray from Python data, an NDArray, or anything NumPy reads.

    Python floats become float32 and ints int64; NumPy input keeps its dtype (``mx.nd.array``
    alone would make float32). ``copy=False`` raises ``ValueError`` when a copy is needed.

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.backends import mxnet as B
    >>> B.asarray([1, 2]).dtype, B.asarray(2.5).shape
    (<class 'numpy.int64'>, ())
    """
    ctx = _context(device)
    if isinstance(obj, NDArray):
        want = np.dtype(obj.dtype) if dtype is None else _supported(np.dtype(dtype), "asarray")
        same = want == np.dtype(obj.dtype) and obj.context == ctx
        if same and not copy:
            return obj
        if copy is False:
            raise ValueError("asarray: copy=False but a dtype or device change needs a copy")
        return obj.as_in_context(ctx).astype(want, copy=True)
    if copy is False:
        raise ValueError(f"asarray: copy=False but MXNet must copy a {type(obj).__name__}")
    arr = np.asarray(obj)
    if dtype is None and _is_python_data(obj) and arr.dtype == np.float64:
        arr = arr.astype(DEFAULT_FLOAT)
    want = _supported(np.dtype(dtype) if dtype is not None else arr.dtype, "asarray")
    if arr.dtype.kind in "OUSV":
        raise TypeError(f"asarray: cannot make an mxnet array from {type(obj).__name__}")
    return nd.array(arr.astype(want, copy=False), ctx=ctx, dtype=want)


def _shape(shape: Any) -> tuple[int, ...]:
    return (shape,) if isinstance(shape, int) else tuple(shape)


@numpy_shapes
def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return nd.zeros(_shape(shape), ctx=_context(device), dtype=dtype or DEFAULT_FLOAT)


@numpy_shapes
def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return nd.ones(_shape(shape), ctx=_context(device), dtype=dtype or DEFAULT_FLOAT)


@numpy_shapes
def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    if dtype is None:
        dtype = (
            _scalar_dtype(_BOOL, fill_value, "full")
            if isinstance(fill_value, (bool, int, float))
            else np.asarray(fill_value).dtype
        )
        dtype = _BOOL if isinstance(fill_value, bool) else dtype
    return nd.full(_shape(shape), fill_value, ctx=_context(device), dtype=dtype)


@numpy_shapes
def arange(
    start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None, device: Any = None
) -> Any:
    if dtype is None:
        is_float = builtins.any(isinstance(v, float) for v in (start, stop, step))
        dtype = DEFAULT_FLOAT if is_float else DEFAULT_INT
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ValueError("arange: step must not be zero")
    # NumPy's length rule, computed here: MXNet rounds the count of float ranges differently.
    n = builtins.max(0, int(np.ceil((stop - start) / step)))
    if n == 0:
        return nd.zeros((0,), ctx=_context(device), dtype=dtype)
    return nd.array(np.arange(start, stop, step, dtype=dtype), ctx=_context(device), dtype=dtype)


@numpy_shapes
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
    if num == 0:
        return nd.zeros((0,), ctx=_context(device), dtype=dtype)
    return nd.linspace(start, stop, num, endpoint=endpoint, ctx=_context(device), dtype=dtype)


@numpy_shapes
def eye(
    n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None
) -> Any:
    dtype = dtype or DEFAULT_FLOAT
    n_cols = n_rows if n_cols is None else n_cols
    if n_rows == 0 or n_cols == 0:  # MXNet reads M=0 as "square"
        return nd.zeros((n_rows, n_cols), ctx=_context(device), dtype=dtype)
    return nd.eye(n_rows, n_cols, k=k, ctx=_context(device), dtype=dtype)


@numpy_shapes
def zeros_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    ctx = x.context if device is None else _context(device)
    return nd.zeros(x.shape, ctx=ctx, dtype=dtype or x.dtype)


@numpy_shapes
def ones_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    ctx = x.context if device is None else _context(device)
    return nd.ones(x.shape, ctx=ctx, dtype=dtype or x.dtype)


# -- elementwise ----------------------------------------------------------------------------------
add = _binary(nd.broadcast_add, "add")
subtract = _binary(nd.broadcast_sub, "subtract")
multiply = _binary(nd.broadcast_mul, "multiply")
_power = _binary(nd.broadcast_power, "pow")


@numpy_shapes
def pow(x1: Any, x2: Any, /) -> Any:  # noqa: A001
    """``broadcast_power``, with 0 for integer 0 to a negative power (MXNet gives INT_MIN).

    MXNet already truncates the other integer results toward zero, ivy_like's rule
    (``ops.elementwise.pow``).
    """
    out = _power(x1, x2)
    if np.dtype(out.dtype).kind not in "iu":
        return out
    (a, b), _ = _operands("pow", x1, x2)
    zero_base = nd.broadcast_mul(
        nd.broadcast_equal(a, nd.zeros_like(a)), nd.broadcast_lesser(b, nd.zeros_like(b))
    )
    return nd.where(nd.broadcast_to(zero_base, out.shape), nd.zeros_like(out), out)


maximum = _binary(nd.broadcast_maximum, "maximum")  # NaN-propagating, like NumPy
minimum = _binary(nd.broadcast_minimum, "minimum")
equal = _comparison(nd.broadcast_equal, "equal")
not_equal = _comparison(nd.broadcast_not_equal, "not_equal")
less = _comparison(nd.broadcast_lesser, "less")
less_equal = _comparison(nd.broadcast_lesser_equal, "less_equal")
greater = _comparison(nd.broadcast_greater, "greater")
greater_equal = _comparison(nd.broadcast_greater_equal, "greater_equal")
exp = _float_unary(nd.exp, "exp")
log = _float_unary(nd.log, "log")
sqrt = _float_unary(nd.sqrt, "sqrt")
sin = _float_unary(nd.sin, "sin")
cos = _float_unary(nd.cos, "cos")
tanh = _float_unary(nd.tanh, "tanh")
negative = _same_unary(nd.negative, "negative", bools=False)
abs = _same_unary(nd.abs, "abs", bools=False)  # noqa: A001
square = _same_unary(nd.square, "square", bools=False)
positive = _same_unary(nd.identity, "positive")  # a copy, as NumPy makes


@numpy_shapes
def divide(x1: Any, x2: Any, /) -> Any:
    """True division; integer operands divide in float32 (MXNet would truncate).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> B.to_numpy(B.divide(mx.nd.array([3], dtype="int32"), 2))
    array([1.5], dtype=float32)
    """
    (a, b), dt = _operands("divide", x1, x2)
    if dt.kind != "f":
        a, b = a.astype(DEFAULT_FLOAT), b.astype(DEFAULT_FLOAT)
    return nd.broadcast_div(a, b)


@numpy_shapes
def floor_divide(x1: Any, x2: Any, /) -> Any:
    """Floor division with Python's sign rules (MXNet's integer division truncates).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> B.to_numpy(B.floor_divide(mx.nd.array([-3, 3], dtype="int64"), 2))
    array([-2,  1])
    """
    (a, b), dt = _operands("floor_divide", x1, x2)
    if dt.kind == "f":
        return nd.floor(nd.broadcast_div(a, b))
    return _int_divmod(a, b, dt)[0]


@numpy_shapes
def remainder(x1: Any, x2: Any, /) -> Any:
    """``mx.nd.broadcast_mod`` for floats (Python's sign rule, like NumPy); integers are
    computed from the truncating division (MXNet's integer ``mod`` goes through float64 and
    is wrong beyond 2**53); integer ``x % 0`` is 0.

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> B.to_numpy(B.remainder(mx.nd.array([-3, 3], dtype="int64"), mx.nd.array([2, 0], dtype="int64")))
    array([1, 0])
    """
    (a, b), dt = _operands("remainder", x1, x2)
    if dt.kind == "f":  # x % 0.0 is NaN (MXNet gives 0)
        a, b = _broadcast([a, b])
        nan = nd.full(b.shape, np.nan, ctx=b.context, dtype=dt)
        return nd.where(nd.broadcast_equal(b, nd.zeros_like(b)), nan, nd.broadcast_mod(a, b))
    return _int_divmod(a, b, dt)[1]


def _int_divmod(a: Any, b: Any, dt: np.dtype) -> tuple[Any, Any]:
    """Python's ``divmod`` for integer arrays from MXNet's exact truncating division."""
    a, b, zero, minus_one = _safe_divisor(a, b)
    q = nd.broadcast_div(a, b)  # truncates toward zero
    r = nd.broadcast_sub(a, nd.broadcast_mul(q, b))
    if dt.kind == "i" or dt == _BOOL:
        zeros = nd.zeros_like(r)
        # r and b of opposite signs: floor is one below the truncation, r moves by b.
        fix = nd.broadcast_not_equal(nd.broadcast_lesser(r, zeros), nd.broadcast_lesser(b, zeros))
        fix = fix * nd.broadcast_not_equal(r, zeros)
        q = nd.where(fix, q - 1, q)
        r = nd.where(fix, r + b, r)
    q = nd.where(minus_one, nd.negative(a), q)  # x // -1 is -x (INT_MIN wraps, as in NumPy)
    q = nd.where(zero, nd.zeros_like(q), q)
    r = nd.where(zero + minus_one, nd.zeros_like(r), r)
    return q.astype(dt), r.astype(dt)


def _safe_divisor(a: Any, b: Any) -> tuple[Any, Any, Any, Any]:
    """Integer operands broadcast, with divisors 0 and -1 replaced by 1 (MXNet's CPU kernels
    die with SIGFPE on ``x / 0`` and on ``INT_MIN / -1``), and masks of where they were."""
    a, b = _broadcast([_no_bool(a), _no_bool(b)])
    zero = nd.broadcast_equal(b, nd.zeros_like(b))
    minus_one = nd.broadcast_equal(b, -nd.ones_like(b)) if b.dtype != np.uint8 else zero * 0
    return a, nd.where(zero + minus_one, nd.ones_like(b), b), zero, minus_one


def _truth(x: Any) -> Any:
    return x.astype(_BOOL).astype(_UINT8)


@numpy_shapes
def logical_and(x1: Any, x2: Any, /) -> Any:
    (a, b), _ = _operands("logical_and", x1, x2)
    return nd.broadcast_logical_and(_truth(a), _truth(b)).astype(_BOOL)


@numpy_shapes
def logical_or(x1: Any, x2: Any, /) -> Any:
    (a, b), _ = _operands("logical_or", x1, x2)
    return nd.broadcast_logical_or(_truth(a), _truth(b)).astype(_BOOL)


@numpy_shapes
def logical_not(x: Any, /) -> Any:
    return nd.logical_not(_truth(x)).astype(_BOOL)


@numpy_shapes
def where(condition: Any, x1: Any, x2: Any, /) -> Any:
    """``mx.nd.where`` with NumPy broadcasting and promotion (MXNet needs equal shapes).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> x = mx.nd.array([1., -2.])
    >>> B.to_numpy(B.where(B.greater(x, 0), x, 0.0))
    array([1., 0.], dtype=float32)
    """
    (a, b), dt = _operands("where", x1, x2)
    cond = condition if isinstance(condition, NDArray) else asarray(condition)
    cond, a, b = _broadcast([cond, _no_bool(a), _no_bool(b)])
    out = nd.where(_truth(cond).astype(a.dtype), a, b)
    return out.astype(_BOOL) if dt == _BOOL else out


# -- reductions -----------------------------------------------------------------------------------
def _axes(x: Any, axis: Any, who: str) -> tuple[int, ...]:
    ndim = x.ndim
    if axis is None:
        return tuple(range(ndim))
    items = (axis,) if isinstance(axis, int) else tuple(axis)
    out = []
    for a in items:
        if not -ndim <= a < builtins.max(ndim, 1) or (ndim == 0 and a != 0 and a != -1):
            raise (
                np.AxisError(a, ndim, who)
                if hasattr(np, "AxisError")
                else ValueError(
                    f"{who}: axis {a} is out of bounds for an array of dimension {ndim}"
                )
            )
        out.append(a % ndim if ndim else 0)
    if len(set(out)) != len(out):
        raise ValueError(f"{who}: duplicate value in axis {axis!r}")
    return tuple(sorted(out))


_EMPTY_REDUCTION: dict[Any, float] = {nd.sum: 0, nd.prod: 1, nd.mean: float("nan")}


def _reduce(mx_op: Callable[..., Any], x: Any, axis: Any, keepdims: bool, who: str) -> Any:
    axes = _axes(x, axis, who)
    shp = tuple(x.shape)
    want = tuple(1 if i in axes else n for i, n in enumerate(shp) if keepdims or i not in axes)
    if not axes:
        return nd.identity(x)  # axis=() reduces nothing (MXNet would reduce everything)
    if x.size == 0:
        # MXNet's reductions reject zero-size inputs ("Shape size mismatch"): the result is
        # the op's identity (NaN for mean, as in NumPy) in the reduced shape, or itself empty.
        return nd.full(want, _EMPTY_REDUCTION.get(mx_op, 0), dtype=x.dtype)
    if x.ndim == 0:
        return mx_op(x.reshape((1,))).reshape(want)
    out = mx_op(x, axis=axes, keepdims=keepdims)
    return out if tuple(out.shape) == want else out.reshape(want)  # (1,) -> ()


@numpy_shapes
def sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    """``mx.nd.sum``; bools and integers accumulate in int64, as NumPy does for signed ones.

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> s = B.sum(mx.nd.array([1., 2.]))
    >>> s.shape, float(B.to_numpy(s))
    ((), 3.0)
    """
    if dtype is None and (x.dtype == np.bool_ or np.dtype(x.dtype).kind in "iu"):
        dtype = DEFAULT_INT
    if dtype is not None:
        x = _cast(x, _supported(np.dtype(dtype), "sum"))
    return _reduce(nd.sum, x, axis, keepdims, "sum")


# Half precision computed in float32 (ivy_like.ops._half): mean here, var/std/
# cumulative_sum in statistical.py, the decompositions in linalg.py.
_in_float32 = _half_in_float32({"float16": np.float16}, np.dtype("float32"), _cast)


@numpy_shapes  # outermost: the float32 round trip runs with NumPy shapes (0-d results)
@_in_float32
def mean(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    if np.dtype(x.dtype).kind != "f":
        raise TypeError(f"mean: expected a floating-point array, got {np.dtype(x.dtype)}")
    return _reduce(nd.mean, x, axis, keepdims, "mean")


def _extremum(mx_op: Callable[..., Any], name: str) -> Callable[..., Any]:
    @numpy_shapes
    def op(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        axes = _axes(x, axis, name)
        if x.size == 0 and (not axes or builtins.any(x.shape[a] == 0 for a in axes)):
            raise ValueError(f"{name}: zero-size reduction has no identity")
        out = _reduce(mx_op, _no_bool(x), axis, keepdims, name)
        return out.astype(_BOOL) if x.dtype == np.bool_ else out

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``mx.nd.{mx_op.__name__}`` (NaN-propagating, like NumPy)."
    return op


max = _extremum(nd.max, "max")  # noqa: A001
min = _extremum(nd.min, "min")  # noqa: A001


# -- linalg and manipulation ----------------------------------------------------------------------
def _matmul_2d_batched(a: Any, b: Any, dt: np.dtype) -> Any:
    """(..., n, k) @ (..., k, m) with broadcast batch dimensions."""
    batch = np.broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    n, k, m = a.shape[-2], a.shape[-1], b.shape[-1]
    if 0 in (n, k, m) or 0 in batch:  # MXNet's dot dies with SIGFPE on zero-size operands
        return nd.zeros(batch + (n, m), dtype=dt)
    if dt.kind != "f":  # exact integer products: multiply and sum (dot is float-only)
        prod = nd.broadcast_mul(a.expand_dims(-1), b.expand_dims(-3))
        return _cast(nd.sum(prod, axis=-2), dt)
    work = np.dtype("float32") if dt == np.float16 else dt  # CPU dot: float32/float64 only
    a, b = _cast(a, work), _cast(b, work)
    if not batch:
        return _cast(nd.dot(a, b), dt)
    a = _broadcast_to(a, batch + (n, k)).reshape((-1, n, k))
    b = _broadcast_to(b, batch + (k, m)).reshape((-1, k, m))
    return _cast(nd.batch_dot(a, b).reshape(batch + (n, m)), dt)


@numpy_shapes
def matmul(x1: Any, x2: Any, /) -> Any:
    """NumPy's ``matmul`` from ``mx.nd.dot``/``batch_dot``.

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> B.to_numpy(B.matmul(mx.nd.array([[1, 2], [3, 4]], dtype="int64"), mx.nd.array([1, 1], dtype="int64")))
    array([3, 7])
    """
    if not (isinstance(x1, NDArray) and isinstance(x2, NDArray)):
        raise TypeError("matmul: both operands must be arrays (no Python scalars)")
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("matmul: operands must have at least one dimension")
    (a, b), dt = _operands("matmul", x1, x2)
    a, b = _no_bool(a), _no_bool(b)
    a = a.reshape((1,) + tuple(a.shape)) if x1.ndim == 1 else a  # a row vector...
    b = b.reshape(tuple(b.shape) + (1,)) if x2.ndim == 1 else b  # ...and a column vector
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"matmul: inner dimensions differ ({a.shape[-1]} and {b.shape[-2]})")
    out = _matmul_2d_batched(a, b, np.dtype(a.dtype))
    shp = tuple(out.shape)
    if x2.ndim == 1:
        shp = shp[:-1]
    if x1.ndim == 1:
        shp = shp[:-2] + shp[-1:] if x2.ndim > 1 else shp[:-1]
    out = out.reshape(shp) if shp != tuple(out.shape) else out
    return out.astype(_BOOL) if dt == _BOOL else out


@numpy_shapes
def reshape(x: Any, /, shape: Any, *, copy: Any = None) -> Any:
    """NumPy's reshape (MXNet's special codes 0, -2, -3, -4 are not used).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> B.reshape(mx.nd.zeros((2, 3)), (-1,)).shape
    (6,)
    """
    target = list(_shape(shape))
    if target.count(-1) > 1 or builtins.any(n < -1 for n in target):
        raise ValueError(f"reshape: invalid shape {tuple(target)}")
    size = int(np.prod(x.shape))
    known = int(np.prod([n for n in target if n != -1]))
    if -1 in target:
        if known == 0 or size % known:
            raise ValueError(f"reshape: cannot reshape {tuple(x.shape)} into {tuple(target)}")
        target[target.index(-1)] = size // known
    elif known != size:
        raise ValueError(f"reshape: cannot reshape {tuple(x.shape)} into {tuple(target)}")
    target_t = tuple(target)
    if size == 0:  # MXNet's shape inference rejects some zero-size targets; no data to move
        return nd.zeros(target_t, ctx=x.context, dtype=x.dtype)
    out = x.reshape(target_t)  # a view, recorded by autograd
    return nd.identity(out) if copy else out


@numpy_shapes
def permute_dims(x: Any, /, axes: Any) -> Any:
    axes = tuple(axes)
    if sorted(a % builtins.max(x.ndim, 1) for a in axes) != list(range(x.ndim)):
        raise ValueError(f"permute_dims: axes {axes} are not a permutation of {x.ndim} axes")
    if x.ndim == 0:
        return nd.identity(x)
    out = nd.transpose(_no_bool(x), axes=axes)
    return out.astype(_BOOL) if x.dtype == np.bool_ else out


def _sequence(arrays: Any, who: str) -> tuple[list[Any], np.dtype]:
    if not arrays:
        raise ValueError(f"{who}: need at least one array")
    arrays, dt = _operands(who, *arrays)
    return [_no_bool(a) for a in arrays], dt


@numpy_shapes
def concat(arrays: Any, /, *, axis: int | None = 0) -> Any:
    arrays, dt = _sequence(arrays, "concat")
    if axis is None:
        arrays = [a.reshape((-1,)) for a in arrays]
        axis = 0
    if builtins.any(a.ndim == 0 for a in arrays):
        raise ValueError("concat: zero-dimensional arrays cannot be concatenated")
    ndim = arrays[0].ndim
    if not -ndim <= axis < ndim:
        raise ValueError(f"concat: axis {axis} is out of bounds for {ndim} dimensions")
    out = nd.concat(*arrays, dim=axis % ndim)
    return out.astype(_BOOL) if dt == _BOOL else out


@numpy_shapes
def stack(arrays: Any, /, *, axis: int = 0) -> Any:
    arrays, dt = _sequence(arrays, "stack")
    ndim = arrays[0].ndim + 1
    if not -ndim <= axis < ndim:
        raise ValueError(f"stack: axis {axis} is out of bounds for {ndim} dimensions")
    if len({a.shape for a in arrays}) > 1:
        # nd.stack would fail only when the result is read (MXNet runs asynchronously); the
        # generated function turns this into ivy_like's message (ivy_like._decided_errors).
        raise ValueError("stack: the arrays' shapes differ")
    out = nd.stack(*arrays, axis=axis % ndim)
    return out.astype(_BOOL) if dt == _BOOL else out


@numpy_shapes
def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    dt = _supported(np.dtype(dtype), "astype")
    if device is not None and _context(device) != x.context:
        x = x.as_in_context(_context(device))
    if np.dtype(x.dtype) == dt:
        return nd.identity(x) if copy else x
    return x.astype(dt)


# -- gradients ------------------------------------------------------------------------------------
@numpy_shapes
def stop_gradient(x: Any, /, *, preserve_type: bool = True) -> Any:
    """``mx.nd.stop_gradient`` (``BlockGrad``); a variable stays a variable with
    ``preserve_type=True`` (a new gradient buffer; ``x``'s own is untouched).

    Examples
    --------
    >>> import mxnet as mx
    >>> from ivy_like.backends import mxnet as B
    >>> b = B.variable(mx.nd.array([0., 1.]))
    >>> with mx.autograd.record():
    ...     loss = B.stop_gradient(3 * b) + mx.nd.array([1., 2.])
    >>> B.to_numpy(loss)
    array([1., 5.], dtype=float32)
    >>> B.is_variable(B.stop_gradient(b)), B.is_variable(B.stop_gradient(b, preserve_type=False))
    (True, False)
    """
    out = nd.stop_gradient(x)
    if preserve_type and x.grad is not None:
        out.attach_grad()
    return out


@numpy_shapes
def variable(x: Any, /) -> Any:
    """A copy of ``x`` with a gradient buffer (``attach_grad``); ``x`` is not marked."""
    with mx.autograd.pause():  # a plain copy, not a recorded op (nor a view of x)
        out = x.copy()
    out.attach_grad()
    return out


# Array API families beyond the first set, one file each (same names in every backend).
from .elementwise import *  # noqa: E402,F403
from .fft import *  # noqa: E402,F403
from .gradients import *  # noqa: E402,F403
from .linalg import *  # noqa: E402,F403
from .manipulation import *  # noqa: E402,F403
from .nn import *  # noqa: E402,F403
from .statistical import *  # noqa: E402,F403

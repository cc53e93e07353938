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

Layout: this module holds what the backend is (its facts and the hooks the core calls); each
op's kernel is in the file of its family (``creation.py``, ``elementwise.py``, ... as in
``ivy_like/ops/``), the autodiff primitives in ``gradients.py``, and the private helpers that
several family files share in ``_helpers.py``.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

import mxnet as mx
import numpy as np
from mxnet.util import set_np_shape as _set_np_shape

from .._common import hooks as _hooks

nd = mx.nd
NDArray = nd.NDArray


NAME = "mxnet"
VERSION = mx.__version__
ARRAY_TYPES = (NDArray,)
HAS_AUTODIFF = True
MUTABLE_ARRAYS = True
UNSUPPORTED: dict[str, str] = {}

# This backend's asarray kernel, for the hooks below that convert Python values: creation.py
# defines it and registers it here when it loads (it imports this module, so this module
# cannot import it).
ASARRAY: list[Callable[..., Any]] = []
DTYPES = _hooks.dtype_table(np.dtype, "bool int8 int32 int64 uint8 float16 float32 float64")
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


# -- helpers for the core -------------------------------------------------------------------------
shape = _hooks.shape


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
        value = ASARRAY[0](value, dtype=dtype(x))
    x[_key(key)] = value
    return x


def is_variable(x: Any) -> bool:
    return x.grad is not None


# The device hook and the conversion every family file uses (they import it from here).
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

"""The PyTorch backend: aliases of torch functions; autodiff, mutable tensors.

Wrappers exist only where torch differs from the NumPy reference: Python scalars in positions
torch rejects, ``axis=()``, negative slice steps, ``reshape(copy=False)``, ``linspace``
(endpoint and integer rounding), ``eye(k=)``, mixed-dtype ``matmul``, ``mean`` of integers.
Python scalars stay weak (``float32 tensor + 2.0`` is float32), as in torch itself.
"""

from __future__ import annotations

import builtins
from typing import Any, Callable

import numpy as np
import torch

from ... import _dtypes as D
from ...ops._half import _half_in_float32

NAME = "torch"
VERSION = torch.__version__
ARRAY_TYPES = (torch.Tensor,)
HAS_AUTODIFF = True
MUTABLE_ARRAYS = True
UNSUPPORTED: dict[str, str] = {}
# torch.uint16/32/64 are left out: on CPU they lack add, comparisons, max, arange (torch 2.x
# "shell" dtypes), so the core raises a clear TypeError for them instead.
DTYPES = {
    D.bool: torch.bool,
    D.int8: torch.int8,
    D.int16: torch.int16,
    D.int32: torch.int32,
    D.int64: torch.int64,
    D.uint8: torch.uint8,
    D.float16: torch.float16,
    D.bfloat16: torch.bfloat16,
    D.float32: torch.float32,
    D.float64: torch.float64,
    D.complex64: torch.complex64,
    D.complex128: torch.complex128,
}
DEFAULT_FLOAT = torch.float32
DEFAULT_INT = torch.int64

_SCALARS = (bool, int, float, complex)


# -- helpers for the core ------------------------------------------------------------------------
def shape(x: Any) -> tuple[int, ...]:
    return tuple(x.shape)


def dtype(x: Any) -> Any:
    return x.dtype


def device(x: Any) -> str:
    return str(x.device)


def native_device(device: Any) -> Any:
    """A ``torch.device`` for a string (``"gpu"`` is read as ``"cuda"``, as other frameworks
    name it) or a device; ``ValueError`` for one this machine does not have.

    Examples
    --------
    >>> from ivy_like.backends import torch as B
    >>> B.native_device("cpu")
    device(type='cpu')
    """
    if isinstance(device, str):
        kind, sep, index = device.partition(":")
        text = f"cuda{sep}{index}" if kind == "gpu" else device
        try:
            dev = torch.device(text)
        except RuntimeError as err:
            raise ValueError(f"device: {device!r} is not a torch device ({err})") from None
    elif isinstance(device, torch.device):
        dev = device
    else:
        raise TypeError(f"device: expected a string or a torch.device, got {type(device).__name__}")
    if dev.type == "cuda":
        present = torch.cuda.is_available() and (dev.index or 0) < torch.cuda.device_count()
    elif dev.type == "mps":
        present = torch.backends.mps.is_available()
    else:
        present = True  # cpu, meta and others: torch reports its own errors
    if not present:
        raise ValueError(f"device: no torch device {device!r} on this machine")
    return dev


def to_numpy(x: Any) -> Any:
    # force=True detaches, moves to the CPU and resolves conjugate/negative views.
    if x.dtype is torch.bfloat16:
        # NumPy has no bfloat16; ml_dtypes (shipped with jax and tensorflow) provides one.
        try:
            import ml_dtypes
        except ImportError:
            return x.float().numpy(force=True)
        return x.view(torch.int16).numpy(force=True).view(ml_dtypes.bfloat16)
    return x.numpy(force=True)


def dlpack(x: Any, *args: Any, **kwargs: Any) -> Any:
    # torch refuses to export a tensor that requires grad; the values are what is shared.
    return x.detach().__dlpack__(*args, **kwargs)


def dlpack_device(x: Any) -> tuple[int, int]:
    return x.__dlpack_device__()


def write_inplace(target: Any, value: Any) -> None:
    # no_grad: writing into a leaf that requires grad is allowed and is not recorded.
    with torch.no_grad():
        target.copy_(value)


# Integer index tensors torch does not take as NumPy does: uint8 is read as a boolean mask,
# the other small or unsigned integers are refused. They are widened to int64.
_WIDEN_INDEX = frozenset(
    getattr(torch, n, None) for n in ("uint8", "int8", "int16", "uint16", "uint32", "uint64")
) - {None}
_NATIVE_INDEX = (np.dtype("int32"), np.dtype("int64"))


def _index_item(k: Any) -> Any:
    if isinstance(k, torch.Tensor):
        return k.to(torch.int64) if k.dtype in _WIDEN_INDEX else k
    if isinstance(k, np.ndarray) and k.dtype.kind in "iu" and k.dtype not in _NATIVE_INDEX:
        return k.astype(np.int64)  # NumPy index arrays: read as index arrays, never masks
    return k


def _index_key(key: Any) -> Any:
    if type(key) is tuple:
        return _numpy_ints(tuple([_index_item(k) for k in key]))
    return _index_item(key)


def getitem(x: Any, key: Any) -> Any:
    key = _index_key(key)
    try:
        return x[key]
    except ValueError:
        # torch has no negative strides: flip those axes and slice forwards instead.
        flipped, key = _forward_steps(x, key)
        if flipped is x:
            raise
        return flipped[key]


def setitem(x: Any, key: Any, value: Any) -> Any:
    if not isinstance(value, (torch.Tensor, *_SCALARS)):
        value = torch.as_tensor(value, device=x.device)  # NumPy arrays, lists
    key = _index_key(key)
    try:
        x[key] = value
    except ValueError:
        # Negative slice steps: write through the flat positions that the key selects.
        positions = getitem(torch.arange(x.numel(), device=x.device).reshape(x.shape), key)
        values = torch.as_tensor(value, dtype=x.dtype, device=x.device)
        x.put_(positions.reshape(-1), torch.broadcast_to(values, positions.shape).reshape(-1))
    return x


def is_variable(x: Any) -> bool:
    return x.requires_grad and x.is_leaf


def _is_index_array(k: Any) -> bool:
    return isinstance(k, (list, torch.Tensor, np.ndarray)) and np.ndim(k) > 0


def _numpy_ints(key: tuple[Any, ...]) -> tuple[Any, ...]:
    """Integers beside index arrays become 1-element index arrays.

    NumPy counts such integers as index arrays (``x[0, :, [1, 2]]`` puts the broadcast axis
    first because the two are separated by a slice); torch applies them as plain integers
    first. A 1-element array broadcasts away, giving NumPy's shape.
    """
    has_int = has_array = False
    for k in key:
        if isinstance(k, int) and not isinstance(k, bool):
            has_int = True
        elif _is_index_array(k):
            has_array = True
    if not (has_int and has_array):
        return key
    return tuple([k] if isinstance(k, int) and not isinstance(k, bool) else k for k in key)


def _forward_steps(x: Any, key: Any) -> tuple[Any, Any]:
    """``(x flipped on every axis sliced with a negative step, the key with forward slices)``."""
    items = key if isinstance(key, tuple) else (key,)

    def width(k: Any) -> int:  # how many axes of x an index item consumes
        if k is None or k is Ellipsis:
            return 0
        if isinstance(k, torch.Tensor) and k.dtype is torch.bool:
            return k.ndim
        if isinstance(k, np.ndarray) and k.dtype == np.bool_:
            return k.ndim
        return 1

    rest = x.ndim - builtins.sum(width(k) for k in items)
    axis, flips, new = 0, [], []
    for k in items:
        if k is Ellipsis:
            axis += rest
        elif isinstance(k, slice) and k.step is not None and k.step < 0:
            n = x.shape[axis]
            picked = range(*k.indices(n))
            flips.append(axis)
            # Index i of x is index n-1-i of the flipped x.
            k = slice(n - 1 - picked[0], n - picked[-1], -k.step) if picked else slice(0, 0)
        axis += width(k)
        new.append(k)
    if not flips:
        return x, key
    return torch.flip(x, flips), tuple(new)


def _dtype_name(x: Any) -> str:
    return D.as_dtype(x.dtype).name


# -- creation -------------------------------------------------------------------------------------
def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: Any = None) -> Any:
    # torch.asarray follows our rules: float32/int64/complex64 for Python data, the dtype of a
    # NumPy array, copy=True copies, copy=False raises ValueError when it cannot share memory.
    try:
        return torch.asarray(obj, dtype=dtype, device=device, copy=copy)
    except ValueError as err:
        if copy is False:
            raise ValueError(f"asarray: copy=False but a copy is needed ({err})") from None
        raise


def _shape(shape: Any) -> Any:
    return (shape,) if isinstance(shape, int) else shape


def _sizes(shape: Any) -> tuple[Any, ...]:
    """The size arguments of a torch factory (``torch.zeros(*_sizes(shape))``).

    torch 2.13 parses sizes given one by one about 0.7 µs faster than the same sizes as one
    tuple (1.2 µs against 1.9 µs for ``torch.zeros``); the errors for bad sizes are the same.
    """
    if type(shape) is tuple:
        return shape if shape else (shape,)  # () must stay one argument: a 0-d array
    return (shape,)  # an int, a list, a torch.Size: as torch takes them


def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    if device is None:  # each keyword argument costs torch's parser 0.1-0.3 µs
        if dtype is None and torch.get_default_dtype() is DEFAULT_FLOAT:
            return torch.zeros(*_sizes(shape))
        return torch.zeros(*_sizes(shape), dtype=dtype or DEFAULT_FLOAT)
    return torch.zeros(*_sizes(shape), dtype=dtype or DEFAULT_FLOAT, device=device)


def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return torch.ones(*_sizes(shape), dtype=dtype or DEFAULT_FLOAT, device=device)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    # Without a dtype torch infers bool/int64/float32/complex64 from the value, like NumPy's
    # backend with our defaults.
    return torch.full(_shape(shape), fill_value, dtype=dtype, device=device)


def arange(
    start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None, device: Any = None
) -> Any:
    if dtype is None:
        is_float = builtins.any(isinstance(v, float) for v in (start, stop, step))
        dtype = DEFAULT_FLOAT if is_float else DEFAULT_INT
    if stop is None:
        return torch.arange(start, dtype=dtype, device=device)
    return torch.arange(start, stop, step, dtype=dtype, device=device)


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
    # Computed in float64 and then cast, as NumPy does; integer dtypes round down (NumPy 2).
    dtype = dtype or DEFAULT_FLOAT
    out = torch.linspace(start, stop, num + (not endpoint), dtype=torch.float64, device=device)
    if not endpoint:
        out = out[:-1]
    if not (dtype.is_floating_point or dtype.is_complex):
        out = torch.floor(out)
    return out.to(dtype)


def eye(
    n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None
) -> Any:
    dtype = dtype or DEFAULT_FLOAT
    n_cols = n_rows if n_cols is None else n_cols
    if k == 0:
        return torch.eye(n_rows, n_cols, dtype=dtype, device=device)
    # torch.eye has no k: ones where column == row + k.
    rows = torch.arange(n_rows, device=device)[:, None] + k
    return (rows == torch.arange(n_cols, device=device)).to(dtype)


zeros_like = torch.zeros_like
ones_like = torch.ones_like


# -- elementwise ----------------------------------------------------------------------------------
def _scalars_as_tensors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` accepting Python scalars in every position.

    Some torch functions take tensors only. A Python scalar becomes a 0-d tensor, which torch
    promotes exactly like a Python scalar (the dimensioned operand keeps its dtype unless the
    scalar is of a higher kind). The common all-tensor call pays only the ``try``.
    """

    def op(x1: Any, x2: Any, /) -> Any:
        try:
            return fn(x1, x2)
        except TypeError:
            if isinstance(x1, _SCALARS):
                x1 = torch.as_tensor(x1, device=getattr(x2, "device", None))
            elif isinstance(x2, _SCALARS):
                x2 = torch.as_tensor(x2, device=x1.device)
            else:
                raise
            return fn(x1, x2)

    op.__name__ = op.__qualname__ = fn.__name__
    return op


# Accept Python scalars on either side natively.
add = torch.add
subtract = torch.subtract
multiply = torch.multiply
divide = torch.divide  # true division: integers give the default float
floor_divide = torch.floor_divide  # rounds towards -inf (torch >= 1.13)
remainder = torch.remainder  # sign of the divisor, like Python


def pow(x1: Any, x2: Any, /) -> Any:  # noqa: A001
    try:
        return _torch_pow(x1, x2)
    except RuntimeError as err:
        # A negative Python int exponent of an integer tensor: as a tensor, torch.pow follows
        # ivy_like's rule (ops.elementwise.pow), the exact value truncated toward zero.
        if "negative integer powers" not in str(err) or not isinstance(x2, int):
            raise
        return _torch_pow(x1, torch.tensor(x2, dtype=x1.dtype, device=x1.device))


_torch_pow = torch.pow
# Tensors only (or a scalar second only) in torch.
maximum = _scalars_as_tensors(torch.maximum)  # propagates NaN
minimum = _scalars_as_tensors(torch.minimum)
equal = _scalars_as_tensors(torch.eq)
not_equal = _scalars_as_tensors(torch.ne)
less = _scalars_as_tensors(torch.lt)
less_equal = _scalars_as_tensors(torch.le)
greater = _scalars_as_tensors(torch.gt)
greater_equal = _scalars_as_tensors(torch.ge)
logical_and = _scalars_as_tensors(torch.logical_and)
logical_or = _scalars_as_tensors(torch.logical_or)
logical_not = torch.logical_not
negative = torch.negative
positive = torch.positive
abs = torch.abs  # noqa: A001
exp = torch.exp
log = torch.log
sqrt = torch.sqrt
square = torch.square
sin = torch.sin
cos = torch.cos
tanh = torch.tanh
where = torch.where  # accepts scalars and promotes


# -- reductions -----------------------------------------------------------------------------------
# torch reads dim=() as "every axis"; NumPy as "no axis". Reducing over a new axis of length 1
# gives NumPy's result with torch's own result dtype.
def _no_axes(axis: Any) -> bool:
    return axis == () or axis == []


def sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    if axis is None and dtype is None and not keepdims:
        return torch.sum(x)  # keyword arguments cost torch's parser ~0.4 µs
    if _no_axes(axis):
        return torch.sum(x[None], dim=0, dtype=dtype)
    return torch.sum(x, dim=axis, keepdim=keepdims, dtype=dtype)


# Half precision computed in float32 (ivy_like.ops._half): mean here, var/std/
# cumulative_sum in statistical.py, the decompositions in linalg.py.
_in_float32 = _half_in_float32(
    {"float16": torch.float16, "bfloat16": torch.bfloat16}, torch.float32, torch.Tensor.to
)


@_in_float32
def mean(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    if not (x.is_floating_point() or x.is_complex()):
        raise TypeError(f"mean: expected a floating-point array, got {_dtype_name(x)}")
    if _no_axes(axis):
        return torch.mean(x[None], dim=0)
    return torch.mean(x, dim=axis, keepdim=keepdims)


def _empty_reduction(name: str, x: Any, err: Exception) -> Exception:
    # NumPy raises ValueError for a reduction with no identity over nothing; torch raises
    # IndexError or RuntimeError depending on the call.
    if x.numel() == 0:
        return ValueError(f"{name}: zero-size reduction, which has no identity")
    return err


def max(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    if _no_axes(axis):
        return torch.amax(x[None], dim=0)
    try:
        return torch.amax(x, dim=axis, keepdim=keepdims)  # propagates NaN
    except (IndexError, RuntimeError) as err:
        raise _empty_reduction("max", x, err) from None


def min(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    if _no_axes(axis):
        return torch.amin(x[None], dim=0)
    try:
        return torch.amin(x, dim=axis, keepdim=keepdims)
    except (IndexError, RuntimeError) as err:
        raise _empty_reduction("min", x, err) from None


# -- linalg and manipulation ----------------------------------------------------------------------
def matmul(x1: Any, x2: Any, /) -> Any:
    try:
        return torch.matmul(x1, x2)
    except RuntimeError:
        # torch.matmul needs one dtype; NumPy promotes.
        common = torch.result_type(x1, x2)
        if x1.dtype == common and x2.dtype == common:
            raise
        return torch.matmul(x1.to(common), x2.to(common))


def reshape(x: Any, /, shape: Any, *, copy: Any = None) -> Any:
    shape = _shape(shape)
    if copy:
        return torch.reshape(x, shape).clone()
    if copy is False:
        try:
            return x.view(shape)
        except RuntimeError:
            raise ValueError("reshape: copy=False but the reshape needs a copy") from None
    return torch.reshape(x, shape)


permute_dims = torch.permute


def concat(arrays: Any, /, *, axis: int | None = 0) -> Any:
    if axis == 0:
        return torch.cat(arrays)  # torch's default dim: giving it costs the parser ~0.12 µs
    if axis is None:
        return torch.cat([torch.reshape(a, (-1,)) for a in arrays])
    return torch.cat(arrays, axis)  # positional: cheaper for torch's parser than dim=


def stack(arrays: Any, /, *, axis: int = 0) -> Any:
    return torch.stack(arrays, dim=axis)


def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    return x.to(device=device, dtype=dtype, copy=copy)


# -- gradients ------------------------------------------------------------------------------------
def stop_gradient(x: Any, /, *, preserve_type: bool = True) -> Any:
    # detach() shares memory (no copy) and never changes x's flags.
    # Inside torch.func transforms the wrapped inputs report requires_grad and is_leaf; they
    # are not user variables and torch.func forbids requires_grad_() on them.
    if (
        preserve_type
        and x.requires_grad
        and x.is_leaf
        and not torch._C._functorch.is_functorch_wrapped_tensor(x)
    ):
        return x.detach().requires_grad_(True)  # a new trainable leaf
    return x.detach()


def variable(x: Any, /) -> Any:
    if not (x.is_floating_point() or x.is_complex()):
        raise TypeError(
            f"variable: torch can only train floating-point or complex arrays, got {_dtype_name(x)}"
        )
    return x.detach().clone().requires_grad_(True)


# Array API families beyond the first set, one file each (same names in every backend).
from .elementwise import *  # noqa: E402,F403
from .fft import *  # noqa: E402,F403
from .gradients import *  # noqa: E402,F403
from .linalg import *  # noqa: E402,F403
from .manipulation import *  # noqa: E402,F403
from .nn import *  # noqa: E402,F403
from .statistical import *  # noqa: E402,F403

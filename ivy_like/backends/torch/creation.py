"""torch backend: array API creation functions.

Wrappers where torch differs from the NumPy reference: ``linspace`` (computed in float64 as
NumPy does, ``endpoint`` and integer rounding), ``eye(k=)`` (torch.eye has no ``k``),
``meshgrid`` of mixed dtypes; Python data takes ivy_like's default dtypes. The shared rules of
``ivy_like.ops.creation`` (matrix and meshgrid checks) are applied first.
"""

from __future__ import annotations

from typing import Any

import torch

from ...core.array import Array
from .._common import creation as _creation
from . import DEFAULT_FLOAT, DEFAULT_INT, from_bfloat16_numpy, is_bfloat16_numpy
from ._helpers import _shape

_arange_dtype = _creation.arange_dtype_for(DEFAULT_FLOAT, DEFAULT_INT)


def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: Any = None) -> Any:
    # torch.asarray follows our rules: float32/int64/complex64 for Python data, the dtype of a
    # NumPy array, copy=True copies, copy=False raises ValueError when it cannot share memory.
    try:
        return torch.asarray(obj, dtype=dtype, device=device, copy=copy)
    except Exception as err:
        if is_bfloat16_numpy(obj):  # decided here, after torch refused: other calls pay nothing
            return from_bfloat16_numpy(obj, dtype=dtype, device=device, copy=copy)
        if isinstance(obj, (list, tuple)):
            # ivy_like Arrays inside nested lists ([[x[0, 0], x[1, 0]]]): torch reads a sequence
            # of its own tensors, not of objects that merely convert to one.
            natives = _natives(obj)
            if natives is not obj:
                return asarray(natives, dtype=dtype, device=device, copy=copy)
        # Strings, None, ints beyond int64, ragged lists: the decided error, not torch's.
        _creation.refuse_data(obj, err, dtype=dtype)
        if copy is False and isinstance(err, ValueError):
            raise ValueError(f"asarray: copy=False but a copy is needed ({err})") from None
        raise


def _natives(obj: Any) -> Any:
    """``obj`` with every ivy_like ``Array`` in its nested lists and tuples replaced by its
    native tensor (``obj`` itself when it holds none)."""
    if isinstance(obj, Array):
        return obj.data
    if isinstance(obj, (list, tuple)):
        items = [_natives(item) for item in obj]
        if any(new is not old for new, old in zip(items, obj)):
            return items
    return obj


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
    fill_value = _creation.fill("full", fill_value, dtype)  # torch refuses 2**70 as a float
    return torch.full(_shape(shape), fill_value, dtype=dtype, device=device)


def arange(start, /, stop=None, step=1, *, dtype=None, device=None) -> Any:
    if dtype is None:
        dtype = _arange_dtype(start, stop, step)
    if stop is None:  # arange(n, step=k): n is the stop (the step was dropped here before)
        start, stop = 0, start
    try:
        return torch.arange(start, stop, step, dtype=dtype, device=device)
    except RuntimeError:
        # torch refuses a range that runs against its step; NumPy's is empty (arange(-3))
        if step != 0 and (stop - start) * step <= 0:
            return torch.empty(0, dtype=dtype, device=device)
        raise


def linspace(start, stop, /, num: int, *, dtype=None, device=None, endpoint: bool = True) -> Any:
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


def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return torch.empty(*_sizes(shape), dtype=dtype or DEFAULT_FLOAT, device=device)


def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return torch.empty_like(x, dtype=dtype, device=device)


def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    fill_value = _creation.fill("full_like", fill_value, dtype or x.dtype)
    return torch.full_like(x, fill_value, dtype=dtype, device=device)


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
    """``torch.from_dlpack`` with the standard's ``device`` and ``copy`` (also the core's
    import helper).

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.backends.torch.creation import from_dlpack
    >>> from_dlpack(np.arange(2.0), copy=True)
    tensor([0., 1.], dtype=torch.float64)
    """
    if isinstance(x, torch.Tensor):
        return _own_tensor(x, device, copy)
    return torch.from_dlpack(x, device=device, copy=copy)


def _own_tensor(x: Any, device: Any, copy: bool | None) -> Any:
    # torch's own tensor without a DLPack round trip: torch refuses to export a tensor that
    # requires grad, and a fake (torch.compile) or batched (torch.func) tensor has no memory.
    # The result is x (shared, in the graph), x moved, or a copy.
    moved = x if device is None else x.to(device)
    if moved is not x:
        if copy is False:
            raise BufferError(f"from_dlpack: copy=False, but the tensor is on {x.device}")
        return moved
    return x.clone() if copy else x


def meshgrid(*arrays: Any, indexing: str = "xy") -> tuple[Any, ...]:
    if len({a.dtype for a in arrays}) == 1:
        return tuple(torch.meshgrid(*arrays, indexing=indexing))
    # torch.meshgrid needs one dtype; NumPy keeps each input's.
    shape, views = _creation.meshgrid_shapes([a.shape[0] for a in arrays], indexing)
    return tuple(a.reshape(v).expand(shape) for a, v in zip(arrays, views))


tril = _creation.tril_for(torch)  # k is torch's second argument, diagonal
triu = _creation.triu_for(torch)

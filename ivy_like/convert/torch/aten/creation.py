"""ATen ops -> ivy_like: copies, casts, no-ops and creation ops
(``_to_copy``, ``arange``, ``full``...).

Registered in the table of :mod:`.registry` by the ``@aten`` decorator.
"""

from __future__ import annotations

from typing import Any

import ivy_like as il

from ..._casts import backend_dtype, cast
from .registry import _native, _shape_of, aten


# -- copies, casts, no-ops ---------------------------------------------------------------------
@aten(
    "clone.default",
    "contiguous.default",
    "alias.default",
    "lift_fresh_copy.default",
    "lift_fresh.default",
)
def identity(x: Any, *args: Any, **kwargs: Any) -> Any:
    return x


@aten("detach.default")
def detach(x: Any) -> Any:
    return il.stop_gradient(x)


def _to(x: Any, dtype: Any) -> Any:
    return x if dtype is None else cast(x, dtype)


@aten("_to_copy.default", "to.dtype_layout")
def to_copy(x: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return _to(x, dtype)


@aten("to.dtype")
def to_dtype(x: Any, dtype: Any, *ignored: Any, **more: Any) -> Any:
    return _to(x, dtype)


@aten("to.device")
def to_device(x: Any, device: Any, dtype: Any, *ignored: Any, **more: Any) -> Any:
    return _to(x, dtype)


@aten("type_as.default")
def type_as(x: Any, other: Any) -> Any:
    return il.astype(x, other.dtype, copy=False)


@aten("copy.default")
def copy(x: Any, src: Any, non_blocking: bool = False) -> Any:
    """What an in-place ``x.copy_(src)`` leaves in ``x`` once functionalized: ``src``
    broadcast to ``x``'s shape, in ``x``'s dtype."""
    return il.astype(il.broadcast_to(src, tuple(x.shape)), x.dtype, copy=False)


@aten(
    "_assert_tensor_metadata.default",
    "_assert_scalar.default",
    "_assert_async.default",
    "_assert_async.msg",
    "sym_constrain_range_for_size.default",
)
def no_op(*args: Any, **kwargs: Any) -> None:
    """Checks torch makes on shapes and dtypes fixed at capture, and on the ranges of dynamic
    dimensions (the model checks those when it is called): nothing to compute."""
    return None


# -- creation ------------------------------------------------------------------------------------
@aten("arange.default", "arange.start", "arange.start_step", creation=True)
def arange(*args: Any, dtype: Any = None, **ignored: Any) -> Any:
    if dtype is not None and "int" in dtype.name:
        # torch takes whole floats as integer bounds and steps (arange(0, 16, 1.0, int64))
        args = tuple(int(a) if isinstance(a, float) and a.is_integer() else a for a in args)
    return _native(il.arange(*args, dtype=backend_dtype(dtype)))


@aten("zeros.default", "empty.memory_format", creation=True)
def zeros(size: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    # empty's contents are unspecified: zeros are one valid choice, and deterministic
    return _native(il.zeros(_shape_of(size), dtype=backend_dtype(dtype)))


@aten("ones.default", creation=True)
def ones(size: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return _native(il.ones(_shape_of(size), dtype=backend_dtype(dtype)))


@aten("full.default", creation=True)
def full(size: Any, fill_value: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return _native(il.full(_shape_of(size), fill_value, dtype=backend_dtype(dtype)))


@aten("scalar_tensor.default", creation=True)
def scalar_tensor(s: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return _native(il.full((), s, dtype=backend_dtype(dtype)))


@aten("zeros_like.default", "empty_like.default", creation=True)
def zeros_like(x: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return il.zeros_like(x, dtype=backend_dtype(dtype))


@aten("ones_like.default", creation=True)
def ones_like(x: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return il.ones_like(x, dtype=backend_dtype(dtype))


@aten("full_like.default", creation=True)
def full_like(x: Any, fill_value: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return il.full_like(x, fill_value, dtype=backend_dtype(dtype))


@aten("new_zeros.default", "new_empty.default", creation=True)
def new_zeros(x: Any, size: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return _native(il.zeros(_shape_of(size), dtype=backend_dtype(dtype)))


@aten("new_ones.default", creation=True)
def new_ones(x: Any, size: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return _native(il.ones(_shape_of(size), dtype=backend_dtype(dtype)))


@aten("new_full.default", creation=True)
def new_full(x: Any, size: Any, fill_value: Any, *, dtype: Any = None, **ignored: Any) -> Any:
    return _native(il.full(_shape_of(size), fill_value, dtype=backend_dtype(dtype)))


@aten("fill.Scalar", creation=True)
def fill(x: Any, value: Any, *, dtype: Any = None) -> Any:
    return il.full_like(x, value, dtype=backend_dtype(dtype))

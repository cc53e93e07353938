"""The PyTorch backend: aliases of torch functions; autodiff, mutable tensors.

This module holds what the backend is (its facts and the hooks the core calls: shapes, dtypes,
devices, NumPy and DLPack export, indexing with NumPy's rules, including negative slice steps
that torch lacks); the op kernels live in one file per op family (``elementwise.py``,
``linalg.py``...), as in ``ivy_like/ops/``. Python scalars stay weak (``float32 tensor + 2.0`` is
float32), as in torch itself.
"""

from __future__ import annotations

import builtins
import functools
import sys
from typing import Any, NamedTuple

import numpy as np
import torch

from ...core.interop import GradientCutError
from .._common import hooks as _hooks

NAME = "torch"
VERSION = torch.__version__
ARRAY_TYPES = (torch.Tensor,)
HAS_AUTODIFF = True
# True while torch.compile's Dynamo traces Python: the core then keeps its active backend where
# Dynamo can follow it (it cannot trace ContextVars; see core/backend.py).
IS_TRACING = torch.compiler.is_compiling
MUTABLE_ARRAYS = True
UNSUPPORTED: dict[str, str] = {}
# torch.uint16/32/64 are left out: on CPU they lack add, comparisons, max, arange (torch 2.x
# "shell" dtypes), so the core raises a clear TypeError for them instead.
DTYPES = _hooks.dtype_table(
    functools.partial(getattr, torch),
    "bool int8 int16 int32 int64 uint8 float16 bfloat16 float32 float64 complex64 complex128",
)
DEFAULT_FLOAT = torch.float32
DEFAULT_INT = torch.int64

_SCALARS = (bool, int, float, complex)


# -- helpers for the core ------------------------------------------------------------------------
shape = _hooks.shape
dtype = _hooks.dtype


def _dtensor_type() -> Any:
    """torch's DTensor class once ``torch.distributed.tensor`` is loaded (a DTensor exists only
    then), else None: importing it here would add 0.4 s to every start."""
    module = sys.modules.get("torch.distributed.tensor")
    return None if module is None else module.DTensor


def _is_dtensor(x: Any) -> bool:
    cls = _dtensor_type()
    return cls is not None and isinstance(x, cls)


class MeshPlacement(NamedTuple):
    """Where a DTensor lives: its ``DeviceMesh`` and its spec (one entry per dimension, None
    or the mesh axes it is split over, in order), as ``ivy_like.distributed`` writes it."""

    mesh: Any
    spec: tuple[Any, ...]


def dtensor_placement(x: Any) -> MeshPlacement:
    """The mesh and spec of a DTensor; a partial sum (a reduction of a sharded DTensor) counts
    as whole, as reading it sums it."""
    mesh = x.device_mesh
    names = mesh.mesh_dim_names or tuple(f"dim{k}" for k in range(mesh.ndim))
    entries: list[tuple[str, ...]] = [()] * x.ndim
    for k, p in enumerate(x.placements):
        if p.is_shard():
            entries[p.dim] = (*entries[p.dim], names[k])
    return MeshPlacement(mesh, tuple(e or None for e in entries))


def device(x: Any) -> Any:
    """``"cpu"``, ``"cuda:0"``...; for an array placed on a mesh (a DTensor) its
    ``MeshPlacement`` (mesh and spec)."""
    if type(x) is not torch.Tensor and _is_dtensor(x):
        return dtensor_placement(x)
    return str(x.device)


def scalar_device(x: Any) -> Any:
    # The device of this process's blocks (a DTensor's own device), where a scalar that goes
    # with the array is made (an optimizer's step count).
    return x.device


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


_functorch = torch._C._functorch


def _unwrap_grad_levels(x: Any) -> Any:
    """The plain tensor under torch.func.grad/jvp wrappers (they hold the same values; reading
    them is what float(x) does there). Under vmap the values differ per example: refuse, as
    torch's own .item() does."""
    while _functorch.is_functorch_wrapped_tensor(x):
        if _functorch.is_batchedtensor(x):
            raise RuntimeError(
                "to_numpy: cannot read the values of a tensor inside a vmap transform "
                "(each example has its own); return it from the function instead"
            )
        x = _functorch.get_unwrapped(x)
    return x


def to_numpy(x: Any) -> Any:
    if type(x) is not torch.Tensor and _is_dtensor(x):
        # The whole value of an array placed on a mesh: a collective (every process reads it).
        x = x.full_tensor()
        x = x.wait() if hasattr(x, "wait") else x  # an AsyncCollectiveTensor
    if _functorch.is_functorch_wrapped_tensor(x):
        x = _unwrap_grad_levels(x)
        with torch._C._DisableFuncTorch():  # the plain tensor, read outside the transforms
            return to_numpy(x)
    # force=True detaches, moves to the CPU and resolves conjugate/negative views.
    if x.dtype is torch.bfloat16:
        # NumPy has no bfloat16; ml_dtypes (shipped with jax and tensorflow) provides one.
        try:
            import ml_dtypes
        except ImportError:
            return x.float().numpy(force=True)
        return x.view(torch.int16).numpy(force=True).view(ml_dtypes.bfloat16)
    return x.numpy(force=True)


def is_bfloat16_numpy(obj: Any) -> bool:
    """Whether ``obj`` is a NumPy array of ml_dtypes' bfloat16, which torch cannot read."""
    return isinstance(obj, np.ndarray) and obj.dtype.name == "bfloat16"


def from_bfloat16_numpy(
    obj: np.ndarray, *, dtype: Any = None, device: Any = None, copy: Any = None
) -> Any:
    """A tensor of an ml_dtypes bfloat16 NumPy array (what ``to_numpy`` gives), read through
    its bits (``torch.as_tensor`` refuses the dtype): sharing its memory unless ``copy=True``
    or it cannot (read-only or negative strides, refused when ``copy=False``), then converted
    to ``dtype`` and ``device`` as ``torch.asarray`` does.

    Examples
    --------
    >>> import ml_dtypes, numpy as np
    >>> from ivy_like.backends import torch as B
    >>> B.from_bfloat16_numpy(np.array([1.5, -2.0], ml_dtypes.bfloat16))
    tensor([ 1.5000, -2.0000], dtype=torch.bfloat16)
    """
    bits = obj.view(np.int16)
    if not bits.flags.writeable or builtins.any(s < 0 for s in bits.strides):
        if copy is False:
            raise ValueError(
                "asarray: copy=False but a copy is needed (a read-only or reversed array)"
            )
        bits = bits.copy()
    tensor = torch.from_numpy(bits).view(torch.bfloat16)
    return torch.asarray(tensor, dtype=dtype, device=device, copy=copy)


# torch refuses to export a tensor that requires grad; the values are what is shared.
def dlpack(x: Any, *args: Any, **kwargs: Any) -> Any:
    # torch.as_tensor(Array) and every DLPack consumer land here. A tensor inside a torch.func
    # transform (ivy_like.grad) or inside an autograd graph (it has a grad_fn) would arrive as
    # values, cut from its gradient: refused, as torch refuses. A parameter (a leaf that
    # requires grad) exports its values, detached, for converting weights between frameworks.
    if _functorch.is_functorch_wrapped_tensor(x) or x.grad_fn is not None:
        raise GradientCutError(
            "__dlpack__: this tensor takes part in a gradient (inside ivy_like.grad or "
            "torch.func, or computed in an autograd graph); exporting it would cut that "
            "gradient. Pass x.data to torch functions (torch.as_tensor(x.data) is x.data), "
            "or read the values with x.to_numpy()"
        )
    return x.detach().__dlpack__(*args, **kwargs)


dlpack_device = _hooks.dlpack_device


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
        try:
            value = torch.as_tensor(value, device=x.device)  # NumPy arrays, lists
        except TypeError:
            if not is_bfloat16_numpy(value):
                raise
            value = from_bfloat16_numpy(value, device=x.device)
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
    # k.ndim rather than np.ndim(k): torch.compile traces the attribute, not the NumPy call.
    return isinstance(k, list) or (isinstance(k, (torch.Tensor, np.ndarray)) and k.ndim > 0)


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

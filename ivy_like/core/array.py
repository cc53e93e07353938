"""``ivy_like.Array``: one native array and the backend it belongs to.

Methods and operators are installed from the op registry (see ``ivy_like/core/build.py``), so the
class body holds only what is not an op: attributes, conversion protocols and ``repr``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import decided_errors as _decided_errors
from . import interop as _interop
from .backend import ARRAY_KIND, Backend, backend_of, get_backend, register_special_kind
from .dtypes import Dtype

__all__ = ["Array"]


class Array:
    """A native array of any backend, with the unified API as methods and operators.

    ``.data`` is the native array (a ``numpy.ndarray``, ``jax.Array``, ``torch.Tensor``,
    ``tf.Tensor`` ...); ``.backend`` the :class:`~ivy_like.Backend` it belongs to.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([1., 2., 3.])
    >>> x
    ivy_like.array([1., 2., 3.])
    >>> (x * 2 + 1).shape, x.dtype, x.backend is ivy_like.current_backend()
    ((3,), ivy_like.float32, True)
    """

    __slots__ = ("_data", "_backend", "__weakref__")
    __array_priority__ = 1000  # NumPy defers binary operators to us
    _data: Any
    _backend: Backend

    def __init__(self, data: Any, backend: Backend | str | None = None) -> None:
        if isinstance(data, Array):
            backend, data = data._backend, data._data
        elif backend is None:
            backend = backend_of(data)
        else:
            backend = get_backend(backend)
            if not isinstance(data, backend.array_types):
                data = backend.asarray(data)
        self._data = data
        self._backend = backend  # type: ignore[assignment]

    # -- attributes ----------------------------------------------------------------------------
    @property
    def data(self) -> Any:
        """The native array."""
        return self._data

    @property
    def backend(self) -> Backend:
        """The backend (compares equal to its name: ``x.backend == "torch"``)."""
        return self._backend

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._backend.shape(self._data))

    @property
    def dtype(self) -> Dtype:
        b = self._backend
        return b.unified_dtype(b.dtype(self._data))

    @property
    def ndim(self) -> int:
        return len(self._backend.shape(self._data))

    @property
    def size(self) -> int:
        n = 1
        for d in self._backend.shape(self._data):
            n *= int(d)
        return n

    @property
    def device(self) -> Any:
        return self._backend.device(self._data)

    @property
    def T(self) -> Array:  # noqa: N802 - array API name
        if self.ndim != 2:
            raise ValueError(f"Array.T: expected a 2-D array, got {self.ndim} dimensions")
        return self.permute_dims((1, 0))  # type: ignore[attr-defined]

    @property
    def mT(self) -> Array:  # noqa: N802 - array API name
        """The transpose of the last two axes (a stack of matrices); ``ndim >= 2``."""
        return self.matrix_transpose()  # type: ignore[attr-defined,no-any-return]

    def to_device(self, device: Any, /, *, stream: Any = None) -> Array:
        """This array on ``device`` (a copy where it moves); ``stream`` is not supported."""
        if stream is not None:
            raise ValueError("Array.to_device: stream is not supported")
        return _namespace.asarray(self, device=device)  # type: ignore[no-any-return]

    # -- conversion ----------------------------------------------------------------------------
    def to_numpy(self) -> Any:
        """A ``numpy.ndarray`` with the same values (a copy only where the framework needs one)."""
        return self._backend.to_numpy(self._data)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any:
        arr = self.to_numpy()
        if dtype is not None:
            arr = arr.astype(dtype, copy=False)
        if copy:
            arr = np.array(arr, copy=True)
        return arr

    def __dlpack__(
        self,
        /,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: Any = None,
        copy: bool | None = None,
    ) -> Any:
        """A DLPack capsule of the native array: the standard's keyword-only signature.

        Only the keywords given are passed to the framework: one that predates a keyword
        (NumPy 1 has no ``max_version``) then raises ``TypeError`` only when asked for it, and
        a consumer retries without it, as the standard recommends.
        """
        given = {"stream": stream, "max_version": max_version, "dl_device": dl_device}
        kwargs = {k: v for k, v in given.items() if v is not None}
        if copy is not None:
            kwargs["copy"] = copy
        return self._backend.dlpack(self._data, **kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        return self._backend.dlpack_device(self._data)

    def __array_namespace__(self, /, *, api_version: str | None = None) -> Any:
        # A revision other than the one ``ivy_like`` follows: a namespace that follows it
        # (ivy_like/_api_versions.py); an unknown one: ValueError.
        return _namespace if api_version is None else _namespace_for(api_version)

    # -- the frameworks' protocols (ivy_like/core/interop.py): the native array it holds ------
    @classmethod
    def __torch_function__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        return _interop.torch_function(func, args, kwargs)

    def __tf_tensor__(self, dtype: Any = None, name: Any = None) -> Any:
        return _interop.tf_tensor(self, dtype, name)

    def __tf_flatten__(self) -> tuple[Any, tuple[Any]]:
        return self._backend, (self._data,)  # tf.nest sees the tensor; rebuilt as an Array

    @classmethod
    def __tf_unflatten__(cls, backend: Any, components: Any) -> Array:
        return _wrap(components[0], backend)

    def __tf_tracing_type__(self, context: Any) -> Any:
        return _interop.tf_tracing_type(self, context)

    def __mlx_array__(self) -> Any:
        return _interop.mlx_array(self)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        return _interop.array_function(func, args, kwargs)

    def __repr__(self) -> str:
        prefix = "ivy_like.array("
        values = np.asarray(self.to_numpy())
        precision = None
        if values.dtype.name == "bfloat16":
            # NumPy formats ml_dtypes' bfloat16 as generic objects (1.0 prints as "1"): print
            # its values as floats, to the 4 decimals that suit its 8 significant bits (torch's).
            values, precision = values.astype(np.float32), 4
        body = np.array2string(
            values, separator=", ", prefix=prefix, threshold=1000, precision=precision
        )
        return f"{prefix}{body})"

    __str__ = __repr__

    def __len__(self) -> int:
        shape = self._backend.shape(self._data)
        if not shape:
            raise TypeError("len() of a 0-d array")
        return int(shape[0])

    def __iter__(self) -> Any:
        for i in range(len(self)):
            yield self[i]

    def __bool__(self) -> bool:
        return bool(self.to_numpy())

    def __float__(self) -> float:
        return float(self.to_numpy())

    def __int__(self) -> int:
        return int(self.to_numpy())

    def __complex__(self) -> complex:
        # MLX converts an operand it does not know (mx.array * x) through complex() before
        # __mlx_array__; a backend can refuse while it differentiates, so the gradient flows.
        check = self._backend.__dict__.get("check_complex_conversion")
        if check is not None:
            check()
        return complex(self.to_numpy())

    def __index__(self) -> int:
        return self.to_numpy().__index__()

    __hash__ = None  # type: ignore[assignment]  # == is elementwise

    # A key of the wrong type (x[1.0]) or a value that does not fit the selection is one error
    # on every backend, decided only after the backend failed (ivy_like.core.decided_errors).
    def __getitem__(self, key: Any) -> Array:
        b = self._backend
        try:
            return _wrap(b.getitem(self._data, _unwrap_key(key)), b)
        except Exception as error:
            decided = _decided_errors.index_error("__getitem__", key)
            if decided is None:
                raise
            raise decided from error

    def __setitem__(self, key: Any, value: Any) -> None:
        b = self._backend
        if isinstance(value, Array):
            if value._backend is not b:
                raise TypeError(
                    f"__setitem__: value is a {value._backend.name} array, "
                    f"this array is on {b.name}"
                )
            value = value._data
        native_key = _unwrap_key(key)
        try:
            # Immutable backends return a new array; mutable ones write in place and return
            # it. Either way a failure leaves this array as it was (rebound only on success;
            # NumPy and torch check before they write).
            self._data = b.setitem(self._data, native_key, value)
        except Exception as error:
            decided = _decided_errors.setitem_error(b, self._data, native_key, value)
            if decided is None:
                raise
            raise decided from error

    def __getstate__(self) -> Any:
        return (self._backend.name, self.to_numpy())

    def __setstate__(self, state: Any) -> None:
        name, arr = state
        b = get_backend(name)
        self._backend = b
        self._data = b.asarray(arr)


def _unwrap_key(key: Any) -> Any:
    if isinstance(key, Array):
        return key._data
    if isinstance(key, tuple):
        return tuple(k._data if isinstance(k, Array) else k for k in key)
    return key


_new = object.__new__


def _wrap(data: Any, backend: Backend) -> Array:
    """Wrap a native result without going through ``__init__`` (the hot path)."""
    a = _new(Array)
    a._data = data
    a._backend = backend
    return a


register_special_kind(Array, ARRAY_KIND)
_interop.bind_array(Array, _wrap)

# The ``ivy_like`` namespace (``__array_namespace__``, ``to_device``'s ``asarray``), set by the
# package once it is built: the core imports nothing above it.
_namespace: Any = None
_namespace_for: Callable[[str], Any]


def bind_namespace(module: Any, namespace_for: Callable[[str], Any]) -> None:
    """Called once by ``ivy_like/__init__.py``: the namespace an Array belongs to, and the
    function giving the namespace of a revision of the standard."""
    global _namespace, _namespace_for
    _namespace, _namespace_for = module, namespace_for

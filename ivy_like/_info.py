"""``__array_namespace_info__``: the array API (2025.12) inspection API, for the active backend.

Answers come from the backend module (its ``DTYPES``, ``DEFAULT_FLOAT``, ``DEFAULT_INT``) and,
for devices, from the framework of the active backend only (already imported, since the
backend is loaded); no other framework is imported.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ._data_type_functions import isdtype
from .core import backend as _backend
from .core import dtypes as D

__all__ = ["__array_namespace_info__", "Info"]

# dtypes() lists the standard's dtypes only: float16 and bfloat16 are ivy_like's own additions.
_STANDARD = tuple(d for d in D.all_dtypes if d not in (D.bfloat16, D.float16))

# capabilities() per backend. jax reports what jax.numpy itself reports: under jax.jit
# neither boolean masks nor data-dependent output shapes work. The others do both eagerly
# (mlx evaluates masks and repeats; see its backend). Unknown backends answer False.
_CAPABILITIES = {
    "numpy": (True, True),
    "torch": (True, True),
    "tensorflow": (True, True),
    "mlx": (True, True),
    "jax": (False, False),
}

# capabilities()["max dimensions"] (2024.12): the most axes an array may have. Every backend's
# arrays convert to NumPy (printing, to_numpy), which holds 64 axes (32 before NumPy 2); the
# frameworks refuse more themselves (jax and torch at 64, MXNet at 32), except MLX, whose
# 65-axis arrays convert to wrong NumPy arrays: so they count as unsupported. Measured with
# ones((1,) * n), a sum over one axis, a reshape and the conversion. Unknown backends: None
# (the standard's "no limit known").
_NUMPY_MAX_DIMENSIONS = 64 if int(np.__version__.split(".")[0]) >= 2 else 32
_MAX_DIMENSIONS = {
    "numpy": _NUMPY_MAX_DIMENSIONS,
    "jax": _NUMPY_MAX_DIMENSIONS,
    "torch": _NUMPY_MAX_DIMENSIONS,
    "tensorflow": _NUMPY_MAX_DIMENSIONS,
    "mlx": _NUMPY_MAX_DIMENSIONS,
    "mxnet": 32,
}


def _devices(backend: _backend.Backend) -> list[str]:
    """Device names of the backend, in the spelling its ``device()`` helper uses."""
    name = backend.name
    if name == "torch":
        torch = sys.modules["torch"]
        return ["cpu"] + [f"cuda:{i}" for i in range(torch.cuda.device_count())]
    if name == "jax":
        jax = sys.modules["jax"]
        # The jax backend names every CPU device "cpu" (jax always has one) and others
        # "<platform>:<id>".
        return ["cpu"] + [f"{d.platform}:{d.id}" for d in jax.devices() if d.platform != "cpu"]
    if name == "tensorflow":
        tf = sys.modules["tensorflow"]
        out = []
        for d in tf.config.list_logical_devices():
            kind, _, index = d.name.rsplit("device:", 1)[-1].partition(":")
            kind = kind.lower()
            out.append(kind if kind == "cpu" and index in ("", "0") else f"{kind}:{index}")
        return out
    if name == "mlx":
        mx = sys.modules["mlx.core"]
        return ["cpu"] + (["gpu"] if mx.metal.is_available() else [])
    return ["cpu"]


class Info:
    """The namespace inspection object returned by :func:`__array_namespace_info__`.

    It answers for the backend active when it was created.
    """

    def __init__(self, backend: _backend.Backend) -> None:
        self._backend = backend

    def capabilities(self) -> dict[str, Any]:
        """``{"boolean indexing": bool, "data-dependent shapes": bool, "max dimensions": int}``
        for the backend (``"max dimensions"``, added in 2024.12, is None where unknown).

        Examples
        --------
        >>> import ivy_like
        >>> caps = ivy_like.__array_namespace_info__().capabilities()
        >>> caps["data-dependent shapes"], caps["max dimensions"] >= 32
        (True, True)
        """
        name = self._backend.name
        boolean, dynamic = _CAPABILITIES.get(name, (False, False))
        return {
            "boolean indexing": boolean,
            "data-dependent shapes": dynamic,
            "max dimensions": _MAX_DIMENSIONS.get(name),
        }

    def default_device(self) -> str:
        """The device new arrays are created on (``"cpu"`` unless an accelerator is used).

        Examples
        --------
        >>> import ivy_like
        >>> ivy_like.__array_namespace_info__().default_device()
        'cpu'
        """
        b = self._backend
        return b.device(b.zeros(()))

    def devices(self) -> tuple[str, ...]:
        """Every device of the backend, as names its creation functions accept (a tuple, as
        2025.12 says; a list under earlier revisions: see :func:`ivy_like.set_array_api_version`).

        Examples
        --------
        >>> import ivy_like
        >>> ivy_like.__array_namespace_info__().devices()
        ('cpu',)
        """
        return tuple(_devices(self._backend))

    def _check_device(self, device: Any) -> None:
        if device is not None and device not in self.devices():
            raise ValueError(
                f"device {device!r} is not a {self._backend.name} device; "
                f"available: {self.devices()}"
            )

    def default_dtypes(self, *, device: Any = None) -> dict[str, D.Dtype]:
        """Default dtypes: ``"real floating"`` (:func:`ivy_like.default_dtype`, float32 unless
        set), ``"complex floating"``, ``"integral"``, ``"indexing"`` (the dtype of index
        results, the default integer).

        Examples
        --------
        >>> import ivy_like
        >>> ivy_like.__array_namespace_info__().default_dtypes()["integral"]
        ivy_like.int64
        """
        self._check_device(device)
        b = self._backend
        real = D.default_dtype()  # what creation functions use: see set_default_dtype
        integral = b.unified_dtype(b.DEFAULT_INT)
        return {
            "real floating": real,
            "complex floating": D.complex128 if real.bits == 64 else D.complex64,
            "integral": integral,
            "indexing": integral,
        }

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, D.Dtype]:
        """The standard's dtypes the backend supports, by name, optionally of one ``kind``
        (a kind name, a dtype or a tuple of them, as for :func:`ivy_like.isdtype`).

        Examples
        --------
        >>> import ivy_like
        >>> list(ivy_like.__array_namespace_info__().dtypes(kind="unsigned integer"))
        ['uint8', 'uint16', 'uint32', 'uint64']
        """
        self._check_device(device)
        supported = self._backend._dtype_to_native
        return {
            d.name: d for d in _STANDARD if d in supported and (kind is None or isdtype(d, kind))
        }


def __array_namespace_info__() -> Info:
    """The array API inspection namespace for the active backend.

    Examples
    --------
    >>> import ivy_like
    >>> info = ivy_like.__array_namespace_info__()
    >>> info.default_dtypes()["real floating"], info.default_device()
    (ivy_like.float32, 'cpu')
    >>> "float32" in info.dtypes(kind="real floating"), "float16" in info.dtypes()
    (True, False)
    >>> sorted(info.capabilities())
    ['boolean indexing', 'data-dependent shapes', 'max dimensions']
    """
    return Info(_backend.current_backend())

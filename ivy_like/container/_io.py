"""Saving and loading Containers: safetensors (the default) and ``.npz``.

Tensor names are the leaf key chains (``"layer1/w"``). Values go through
:func:`~ivy_like.container._convert.exact_numpy`, so dtypes and bits are kept exactly
(bfloat16 as its ``uint16`` bits, reinterpreted on load). Saving writes a temporary file beside
the target and renames it; loading never unpickles anything.
"""

from __future__ import annotations

import errno
import io
import json
import os
import tempfile
import zipfile
from typing import Any

import numpy as np

from ..core import dtypes as _dtypes
from ..core.array import _wrap
from ..core.backend import current_backend, get_backend
from . import _convert

_META_KEY = "ivy_like"  # safetensors metadata entry and npz member holding our JSON
# safetensors header codes <-> ivy_like dtypes (complex128 has no safetensors code).
_CODES = {
    "BOOL": "bool",
    "U8": "uint8",
    "I8": "int8",
    "U16": "uint16",
    "I16": "int16",
    "U32": "uint32",
    "I32": "int32",
    "U64": "uint64",
    "I64": "int64",
    "F16": "float16",
    "BF16": "bfloat16",
    "F32": "float32",
    "F64": "float64",
    "C64": "complex64",
}
_SAFETENSORS_DTYPES = frozenset(_CODES.values())


def _storage_dtype(dtype: _dtypes.Dtype) -> np.dtype:
    return np.dtype(np.uint16) if dtype == _dtypes.bfloat16 else np.dtype(dtype.name)


def _collect(c: Any) -> tuple[list[tuple[str, np.ndarray, _dtypes.Dtype]], list[str]]:
    """(key chain, exact array, dtype) for every leaf, and the chains of empty Containers."""
    from ._container import Container

    leaves: list[tuple[str, np.ndarray, _dtypes.Dtype]] = []
    empty: list[str] = []

    def visit(node: Any, prefix: str) -> None:
        for k, v in node.items():
            kc = prefix + k
            if isinstance(v, Container):
                if not v:
                    empty.append(kc)
                visit(v, kc + "/")
                continue
            info = _convert.leaf_info(v)
            if info is None:
                raise TypeError(
                    f"cont_to_disk: leaf {kc!r} is a {type(v).__name__}; only array leaves can "
                    "be saved"
                )
            arr, dtype = _convert.exact_numpy(info[0], info[1])
            leaves.append((kc, arr, dtype))

    visit(c, "")
    return leaves, empty


def _safetensors_bytes(leaves: list[tuple[str, np.ndarray, _dtypes.Dtype]], meta: str) -> bytes:
    import safetensors

    specs = {}
    for kc, arr, dtype in leaves:
        if dtype.name not in _SAFETENSORS_DTYPES:
            raise TypeError(
                f"cont_to_disk: leaf {kc!r} has dtype {dtype.name}, which safetensors cannot "
                "store; save to a .npz path instead"
            )
        specs[kc] = safetensors.TensorSpec(
            dtype=dtype.name,
            shape=list(arr.shape),
            data_ptr=arr.ctypes.data,
            data_len=arr.nbytes,
        )
    # ``leaves`` keeps every array alive while the pointers above are read.
    return safetensors.serialize(specs, metadata={_META_KEY: meta})


def _npz_write(f: Any, leaves: list[tuple[str, np.ndarray, _dtypes.Dtype]], meta: str) -> None:
    with zipfile.ZipFile(f, mode="w", compression=zipfile.ZIP_STORED, allowZip64=True) as z:
        for kc, arr, _ in leaves:
            with z.open(kc + ".npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, arr, allow_pickle=False)
        meta_arr = np.frombuffer(meta.encode(), dtype=np.uint8)
        with z.open(_META_KEY + ".npy", "w") as member:
            np.lib.format.write_array(member, meta_arr, allow_pickle=False)


def save(c: Any, path: Any, format: str | None) -> None:  # noqa: A002
    path = os.fspath(path)
    if format is None:
        format = "npz" if path.endswith(".npz") else "safetensors"  # noqa: A001
    if format not in ("safetensors", "npz"):
        raise ValueError(f"cont_to_disk: format must be 'safetensors' or 'npz', got {format!r}")
    leaves, empty = _collect(c)
    if format == "npz" and any(kc == _META_KEY for kc, _, _ in leaves):
        raise ValueError(f"cont_to_disk: the key chain {_META_KEY!r} is reserved in .npz files")
    meta = json.dumps(
        {
            "format": "ivy_like.Container",
            "dtypes": {kc: d.name for kc, _, d in leaves},
            "empty": empty,
        }
    )
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(
        dir=directory, prefix="." + os.path.basename(path) + ".", suffix=".tmp"
    )
    try:
        with os.fdopen(fd, "wb") as f:
            if format == "safetensors":
                f.write(_safetensors_bytes(leaves, meta))
            else:
                _npz_write(f, leaves, meta)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _read_safetensors(
    data: bytes, path: str
) -> tuple[list[tuple[str, np.ndarray, _dtypes.Dtype]], dict[str, Any]]:
    import safetensors

    try:
        items = safetensors.deserialize(data)
        header_len = int.from_bytes(data[:8], "little")
        header = json.loads(data[8 : 8 + header_len])
    except (safetensors.SafetensorError, ValueError) as err:
        raise ValueError(
            f"cont_from_disk: {path!r} is not a valid safetensors file (truncated or malformed: "
            f"{err})"
        ) from err
    meta = _parse_meta((header.get("__metadata__") or {}).get(_META_KEY), path)
    leaves = []
    for name, info in items:
        code = info["dtype"]
        if code not in _CODES:
            raise ValueError(
                f"cont_from_disk: tensor {name!r} in {path!r} has the unsupported dtype {code}"
            )
        dtype = _dtypes.as_dtype(_CODES[code])
        arr = np.frombuffer(info["data"], dtype=_storage_dtype(dtype).newbyteorder("<"))
        leaves.append((name, arr.reshape(info["shape"]), dtype))
    # safetensors hands tensors back in no particular order: restore the order they were
    # written in (our metadata lists the chains in that order), else the file's layout order.
    written = {kc: i for i, kc in enumerate(meta.get("dtypes") or ())}
    if written and all(name in written for name, _, _ in leaves):
        leaves.sort(key=lambda leaf: written[leaf[0]])
    else:
        leaves.sort(key=lambda leaf: header[leaf[0]]["data_offsets"][0])
    return leaves, meta


def _parse_meta(text: Any, path: str) -> dict[str, Any]:
    if text is None:
        return {}
    try:
        meta = json.loads(text)
    except ValueError as err:
        raise ValueError(f"cont_from_disk: {path!r} has malformed ivy_like metadata") from err
    if not isinstance(meta, dict):
        raise ValueError(f"cont_from_disk: {path!r} has malformed ivy_like metadata")
    return meta


def _read_npz(
    data: bytes, path: str
) -> tuple[list[tuple[str, np.ndarray, _dtypes.Dtype]], dict[str, Any]]:
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            arrays = {name: z[name] for name in z.files}
    except (zipfile.BadZipFile, ValueError, EOFError, OSError, KeyError) as err:
        raise ValueError(
            f"cont_from_disk: {path!r} is not a valid .npz file (truncated or malformed: {err})"
        ) from err
    meta_arr = arrays.pop(_META_KEY, None)
    meta = _parse_meta(None if meta_arr is None else meta_arr.tobytes().decode(), path)
    dtypes = meta.get("dtypes", {})
    leaves = []
    for name, arr in arrays.items():
        dtype = _dtypes.as_dtype(dtypes.get(name, arr.dtype.name))
        if arr.dtype != _storage_dtype(dtype):
            raise ValueError(
                f"cont_from_disk: {name!r} in {path!r} does not hold {dtype.name} data"
            )
        leaves.append((name, arr, dtype))
    return leaves, meta


def load(path: Any, backend: Any, native: bool) -> Any:
    from ._container import Container

    path = os.fspath(path)
    target = current_backend() if backend is None else get_backend(backend)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise FileNotFoundError(errno.ENOENT, "cont_from_disk: no such file", path) from None
    if data[:4] == b"PK\x03\x04" or path.endswith(".npz"):
        leaves, meta = _read_npz(data, path)
    else:
        leaves, meta = _read_safetensors(data, path)
    flat = {}
    for kc, arr, dtype in leaves:
        try:
            x = _convert.from_exact_numpy(arr, dtype, target)
        except TypeError as err:
            raise TypeError(f"cont_from_disk: leaf {kc!r}: {err}") from err
        flat[kc] = x if native else _wrap(x, target)
    out = Container.cont_unflatten(flat)
    for kc in meta.get("empty", []):
        if kc not in out:
            out[kc] = Container()
    return out

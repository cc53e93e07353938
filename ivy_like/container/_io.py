"""Saving and loading Containers: safetensors (the default) and ``.npz``.

Tensor names are the leaf key chains (``"layer1/w"``). Values go through
:func:`~ivy_like.container._leaves.exact_numpy`, so dtypes and bits are kept exactly
(bfloat16 as its ``uint16`` bits, reinterpreted on load). Saving writes a temporary file beside
the target and renames it; loading never unpickles anything, checks every size, offset, dtype
and name the file gives before it reads or inflates the data, and refuses more than
``max_bytes`` (a safetensors file's size, the uncompressed size of an ``.npz``'s members).

This module sees no Container: it saves (key chain, leaf) pairs and loads a flat mapping from
key chains to leaves; ``Container.cont_to_disk`` and ``cont_from_disk`` walk and rebuild the
tree.
"""

from __future__ import annotations

import errno
import io
import json
import math
import os
import struct
import tempfile
import zipfile
from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np

from ..core import dtypes as _dtypes
from ..core.array import _wrap
from ..core.backend import current_backend, get_backend
from ..core.decided_errors import optional_count
from . import _leaves

_META_KEY = "ivy_like"  # safetensors metadata entry and npz member holding our JSON
_FORMAT = "ivy_like.Container"  # the "format" that JSON gives
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


def _spans_processes(native: Any) -> bool:
    """A jax array with blocks on other processes, or a DTensor over a mesh of processes."""
    if getattr(native, "is_fully_addressable", True) is False:
        return True
    mesh = getattr(native, "device_mesh", None)
    return mesh is not None and mesh.size() > 1


def _collect(leaves: Iterable[tuple[str, Any]]) -> list[tuple[str, np.ndarray, _dtypes.Dtype]]:
    """(key chain, exact array, dtype) for every (key chain, leaf)."""
    out: list[tuple[str, np.ndarray, _dtypes.Dtype]] = []
    for kc, v in leaves:
        info = _leaves.leaf_info(v)
        if info is None:
            raise TypeError(
                f"cont_to_disk: leaf {kc!r} is a {type(v).__name__}; only array leaves can be saved"
            )
        if _spans_processes(info[1]):
            raise TypeError(
                f"cont_to_disk: leaf {kc!r} is spread over several processes, and one file "
                f"cannot hold it without gathering it on one host: save distributed state with "
                f"ivy_like.distributed.save(folder, tree), each process writing its own blocks"
            )
        arr, dtype = _leaves.exact_numpy(info[0], info[1])
        out.append((kc, arr, dtype))
    return out


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


def save(
    leaves: Iterable[tuple[str, Any]],
    empty: list[str],
    path: Any,
    format: str | None,  # noqa: A002
) -> None:
    """Write ``leaves`` ((key chain, leaf) pairs) and the key chains of ``empty`` Containers
    to ``path``, as :meth:`~ivy_like.Container.cont_to_disk` documents."""
    path = os.fspath(path)
    if format is None:
        format = "npz" if path.endswith(".npz") else "safetensors"  # noqa: A001
    if format not in ("safetensors", "npz"):
        raise ValueError(f"cont_to_disk: format must be 'safetensors' or 'npz', got {format!r}")
    arrays = _collect(leaves)
    if format == "npz" and any(kc == _META_KEY for kc, _, _ in arrays):
        raise ValueError(f"cont_to_disk: the key chain {_META_KEY!r} is reserved in .npz files")
    meta = json.dumps(
        {
            "format": _FORMAT,
            "dtypes": {kc: d.name for kc, _, d in arrays},
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
                f.write(_safetensors_bytes(arrays, meta))
            else:
                _npz_write(f, arrays, meta)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


# -- loading: everything read from the file is checked before it is used ------------------------
DEFAULT_MAX_BYTES = 2**32  # cont_from_disk's default; its signature spells the same number
_ST_MAX_HEADER = 100_000_000  # safetensors' own limit on the JSON header
_NPY_MAX_HEADER = 10_000  # numpy's limit on a .npy header
# .npz members are read when stored or deflated, as numpy writes them; other methods (lzma
# sizes its dictionary from the file) are refused.
_ZIP_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
_DTYPE_NAMES = {d.name: d for d in _dtypes.all_dtypes}
# A .npy dtype's (kind, itemsize) -> the ivy_like dtype stored that way (bfloat16 is stored as
# its uint16 bits and named in the metadata).
_NPY_DTYPES = {
    (np.dtype(d.name).kind, np.dtype(d.name).itemsize): d
    for d in _dtypes.all_dtypes
    if d != _dtypes.bfloat16
}


class _Malformed(Exception):
    """What is wrong with the file being loaded; :func:`load` names the file."""


class _TooLarge(Exception):
    """The file holds more bytes than ``max_bytes`` (args: the byte count)."""


class _Tensor(NamedTuple):
    name: str
    dtype: _dtypes.Dtype
    shape: tuple[int, ...]
    begin: int  # safetensors: data offsets; .npz: where the data starts in the member
    end: int
    member: Any = None  # .npz: the ZipInfo
    npy_dtype: Any = None  # .npz: the dtype the .npy header gives
    fortran: bool = False


# What parsing a hostile file can raise from below (json, zipfile, numpy's header parser, a file
# that shrinks while it is read); each becomes the ValueError naming the file.
_PARSE_ERRORS = (
    ValueError,
    KeyError,
    IndexError,
    TypeError,
    EOFError,
    OSError,
    struct.error,
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    NotImplementedError,
    RecursionError,
    OverflowError,
)


def _show(value: Any) -> str:
    """``repr`` cut short: names and values in a hostile file can be megabytes long."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _is_chain(kc: Any) -> bool:
    """A key chain as cont_to_disk writes it: non-empty parts joined by single slashes."""
    return (
        isinstance(kc, str)
        and kc != ""
        and not kc.startswith("/")
        and not kc.endswith("/")
        and "//" not in kc
    )


def _is_size(n: Any) -> bool:
    return type(n) is int and n >= 0  # JSON true / a .npy True is no size


def _read_exactly(f: Any, n: int, what: str) -> bytes:
    data = f.read(n)
    if len(data) != n:
        raise _Malformed(f"{what} ends after {len(data)} of its {n} bytes")
    return data


def _json_object(text: str, what: str) -> dict[str, Any]:
    def no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:  # json keeps the last silently: two readers could disagree
                raise _Malformed(f"{what} names {_show(key)} twice")
            out[key] = value
        return out

    try:
        obj = json.loads(text, object_pairs_hook=no_repeats)
    except (ValueError, RecursionError) as err:
        raise _Malformed(f"{what} is not JSON ({err})") from err
    if not isinstance(obj, dict):
        raise _Malformed(f"{what} is not a JSON object")
    return obj


def _parse_meta(text: str | None, names: set[str]) -> tuple[dict[str, _dtypes.Dtype], list[str]]:
    """The dtypes and empty-Container chains that ivy_like's metadata gives, checked."""
    if text is None:
        return {}, []
    meta = _json_object(text, "its ivy_like metadata")
    fmt = meta.get("format", _FORMAT)
    if fmt != _FORMAT:
        raise _Malformed(f"its ivy_like metadata has the format {_show(fmt)}, not {_FORMAT!r}")
    raw = meta.get("dtypes", {})
    if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
        raise _Malformed(
            "its ivy_like metadata 'dtypes' is not an object of key chains to dtype names"
        )
    dtypes = {}
    for kc, name in raw.items():
        if kc not in names:
            raise _Malformed(
                f"its ivy_like metadata gives a dtype to {_show(kc)}, which the file does not hold"
            )
        if name not in _DTYPE_NAMES:
            raise _Malformed(
                f"its ivy_like metadata gives {_show(kc)} the unknown dtype {_show(name)}"
            )
        dtypes[kc] = _DTYPE_NAMES[name]
    empty = meta.get("empty", [])
    if not isinstance(empty, list) or not all(_is_chain(kc) for kc in empty):
        raise _Malformed("its ivy_like metadata 'empty' is not a list of key chains")
    return dtypes, empty


def _check_tree(chains: list[str], empty: list[str]) -> None:
    """No tensor holds another chain, and an empty Container holds none and is no tensor.

    Walks a trie of the chains' parts, so the time is linear in their total length."""

    def clash(kind: str, kc: str, other: str) -> _Malformed:
        if kind == "tensor":
            return _Malformed(f"{_show(kc)} is a tensor but also holds {_show(other)}")
        return _Malformed(
            f"its ivy_like metadata lists {_show(kc)} as an empty Container, but it holds "
            f"{_show(other)}"
        )

    root: dict[str, Any] = {}  # part -> node; "" -> (kind, chain) where a chain ends there,
    # "/" -> the first chain through the node (neither can be a part of a checked chain)
    for kind, kc in [*(("tensor", c) for c in chains), *(("empty", c) for c in empty)]:
        node = root
        for part in kc.split("/"):
            if "" in node:
                above_kind, above = node[""]
                raise clash(above_kind, above, kc)
            node = node.setdefault(part, {})
            node.setdefault("/", kc)
        if "" in node:
            first = node[""][0]
            if first == kind == "tensor":
                raise _Malformed(f"the tensor {_show(kc)} is given twice")
            if first == kind:
                raise _Malformed(f"its ivy_like metadata lists {_show(kc)} as empty twice")
            raise _Malformed(
                f"its ivy_like metadata lists {_show(kc)} as an empty Container, but it is a tensor"
            )
        if len(node) > 1:  # parts below it
            raise clash(kind, kc, node["/"])
        node[""] = (kind, kc)


def _in_written_order(tensors: list[_Tensor], dtypes: dict[str, Any]) -> list[_Tensor]:
    # The metadata lists the chains in the order they were saved; a file from elsewhere keeps
    # its own order (the data layout for safetensors, the members for .npz).
    if dtypes and len(dtypes) == len(tensors):
        written = {kc: i for i, kc in enumerate(dtypes)}
        return sorted(tensors, key=lambda t: written[t.name])
    return tensors


# -- safetensors --------------------------------------------------------------------------------
def _st_tensor(name: str, info: Any, data_len: int) -> _Tensor:
    if not _is_chain(name):
        raise _Malformed(
            f"tensor name {_show(name)} is not a key chain (it is empty, or has an empty part "
            "between '/')"
        )
    if not isinstance(info, dict):
        raise _Malformed(f"tensor {_show(name)} is not a JSON object")
    code = info.get("dtype")
    if not isinstance(code, str) or code not in _CODES:
        raise _Malformed(
            f"tensor {_show(name)} has the unsupported dtype {_show(code)} (read: "
            f"{', '.join(_CODES)})"
        )
    shape = info.get("shape")
    if not isinstance(shape, list) or not all(_is_size(n) for n in shape):
        raise _Malformed(
            f"tensor {_show(name)}: shape {_show(shape)} is not a list of non-negative integers"
        )
    offsets = info.get("data_offsets")
    if not (
        isinstance(offsets, list)
        and len(offsets) == 2
        and all(_is_size(n) for n in offsets)
        and offsets[0] <= offsets[1]
    ):
        raise _Malformed(
            f"tensor {_show(name)}: data_offsets {_show(offsets)} is not [begin, end] with "
            "0 <= begin <= end"
        )
    dtype = _DTYPE_NAMES[_CODES[code]]
    begin, end = offsets
    if end > data_len:
        raise _Malformed(
            f"tensor {_show(name)}: data_offsets {offsets} run past the end of the data "
            f"({data_len} bytes after the header)"
        )
    nbytes = math.prod(shape) * _storage_dtype(dtype).itemsize
    if end - begin != nbytes:
        raise _Malformed(
            f"tensor {_show(name)}: data_offsets {offsets} span {end - begin} bytes, but shape "
            f"{_show(shape)} of {code} takes {nbytes}"
        )
    return _Tensor(name, dtype, tuple(shape), begin, end)


def _read_safetensors(f: Any, limit: int | None) -> tuple[list[_Tensor], list[str], bytes]:
    size = os.fstat(f.fileno()).st_size
    if limit is not None and size > limit:
        raise _TooLarge(size)
    if size < 8:
        raise _Malformed(f"the file has {size} bytes, too few for the 8-byte header length")
    header_len = int.from_bytes(f.read(8), "little")
    if header_len > size - 8:
        raise _Malformed(
            f"the header length {header_len} runs past the end of the file ({size} bytes)"
        )
    if header_len > _ST_MAX_HEADER:
        raise _Malformed(f"the header length {header_len} is over {_ST_MAX_HEADER} bytes")
    try:
        text = _read_exactly(f, header_len, "the header").decode("utf-8")
    except UnicodeDecodeError as err:
        raise _Malformed(f"the header is not UTF-8 ({err})") from err
    header = _json_object(text, "the header")
    metadata = header.pop("__metadata__", None)
    if metadata is not None and not (
        isinstance(metadata, dict) and all(isinstance(v, str) for v in metadata.values())
    ):
        raise _Malformed("the header's __metadata__ is not an object of strings")
    data_len = size - 8 - header_len
    tensors = [_st_tensor(name, info, data_len) for name, info in header.items()]
    # Every data byte belongs to exactly one tensor, as the safetensors format requires.
    tensors.sort(key=lambda t: (t.begin, t.end))
    end, before = 0, None
    for t in tensors:
        if t.begin < end and before is not None:
            raise _Malformed(
                f"tensors {_show(before.name)} and {_show(t.name)} overlap (data_offsets "
                f"{[before.begin, before.end]} and {[t.begin, t.end]})"
            )
        if t.begin > end:
            raise _Malformed(f"bytes {end} to {t.begin} of the data belong to no tensor")
        end, before = t.end, t
    if end != data_len:
        raise _Malformed(f"bytes {end} to {data_len} of the data belong to no tensor")
    dtypes, empty = _parse_meta((metadata or {}).get(_META_KEY), set(header))
    for t in tensors:
        given = dtypes.get(t.name, t.dtype)
        if given != t.dtype:
            code = next(c for c, n in _CODES.items() if n == t.dtype.name)
            raise _Malformed(
                f"tensor {_show(t.name)} is {code} in the header but {given.name} in the "
                "ivy_like metadata"
            )
    _check_tree([t.name for t in tensors], empty)
    # Only now, every size checked against the file, is the data read.
    data = _read_exactly(f, data_len, "the data")
    return _in_written_order(tensors, dtypes), empty, data


def _st_array(t: _Tensor, data: bytes) -> np.ndarray:
    storage = _storage_dtype(t.dtype).newbyteorder("<")
    count = (t.end - t.begin) // storage.itemsize
    return np.frombuffer(data, storage, count=count, offset=t.begin).reshape(t.shape)


# -- .npz ---------------------------------------------------------------------------------------
def _npy_header(z: zipfile.ZipFile, info: zipfile.ZipInfo) -> _Tensor:
    """The member's .npy header, checked against the zip's declared size (nothing inflated
    beyond the header)."""
    name = _show(info.filename)
    with z.open(info) as fp:
        prefix = fp.read(8)
        if len(prefix) < 8 or prefix[:6] != b"\x93NUMPY":
            raise _Malformed(f"member {name} is not a .npy array (no .npy magic string)")
        version = (prefix[6], prefix[7])
        if version not in ((1, 0), (2, 0)):
            raise _Malformed(
                f"member {name} has .npy format version {version[0]}.{version[1]} (1.0 and 2.0 "
                "are read)"
            )
        width = 2 if version == (1, 0) else 4
        raw_len = _read_exactly(fp, width, f"member {name}")
        header_len = int.from_bytes(raw_len, "little")
        if header_len > _NPY_MAX_HEADER:
            raise _Malformed(
                f"member {name} has a .npy header of {header_len} bytes (at most {_NPY_MAX_HEADER})"
            )
        head = _read_exactly(fp, header_len, f"member {name}")
    buf = io.BytesIO(prefix + raw_len + head)
    np.lib.format.read_magic(buf)
    read = (
        np.lib.format.read_array_header_1_0
        if version == (1, 0)
        else np.lib.format.read_array_header_2_0
    )
    try:
        shape, fortran, npy_dtype = read(buf)
    except ValueError as err:
        raise _Malformed(f"member {name} has a malformed .npy header ({err})") from err
    if npy_dtype.hasobject:
        raise _Malformed(
            f"member {name} holds Python objects (dtype {npy_dtype}), which loading never unpickles"
        )
    if npy_dtype.fields is not None or npy_dtype.subdtype is not None:
        raise _Malformed(
            f"member {name} has the structured dtype {_show(str(npy_dtype))}; only arrays of "
            "numbers and booleans are read"
        )
    dtype = _NPY_DTYPES.get((npy_dtype.kind, npy_dtype.itemsize))
    if dtype is None:
        raise _Malformed(f"member {name} has the unsupported dtype {npy_dtype}")
    if not all(_is_size(n) for n in shape):
        raise _Malformed(f"member {name}: shape {_show(shape)} is not of non-negative integers")
    begin = 8 + width + header_len
    nbytes = math.prod(shape) * npy_dtype.itemsize
    declared = info.file_size - begin
    if declared != nbytes:
        raise _Malformed(
            f"member {name}: its .npy header says shape {_show(shape)} of {npy_dtype}, "
            f"{nbytes} bytes, but the zip declares {declared} bytes of data"
        )
    kc = info.filename[: -len(".npy")]
    return _Tensor(kc, dtype, shape, begin, begin + nbytes, info, npy_dtype, fortran)


def _npy_array(z: zipfile.ZipFile, t: _Tensor) -> np.ndarray:
    # A member's stream never yields more than the zip declares (zipfile stops there and checks
    # the CRC), and the header made the declared size this array's size.
    with z.open(t.member) as fp:
        _read_exactly(fp, t.begin, f"member {_show(t.member.filename)}")
        data = _read_exactly(fp, t.end - t.begin, f"member {_show(t.member.filename)}")
    arr = np.frombuffer(data, t.npy_dtype)
    arr = arr.reshape(t.shape[::-1]).T if t.fortran else arr.reshape(t.shape)
    return arr if t.npy_dtype.isnative else arr.astype(t.npy_dtype.newbyteorder("="))


def _read_npz(f: Any, limit: int | None) -> tuple[list[tuple[str, np.ndarray, Any]], list[str]]:
    with zipfile.ZipFile(f) as z:
        infos: dict[str, zipfile.ZipInfo] = {}
        for info in z.infolist():
            name = _show(info.filename)
            if not info.filename.endswith(".npy"):
                raise _Malformed(f"member {name} is not a .npy array (its name must end in .npy)")
            kc = info.filename[: -len(".npy")]
            if kc in infos:
                raise _Malformed(f"member {name} appears twice")
            if kc != _META_KEY and not _is_chain(kc):
                raise _Malformed(
                    f"member name {name} is not a key chain (it is empty, or has an empty part "
                    "between '/')"
                )
            if info.flag_bits & 0x1:
                raise _Malformed(f"member {name} is encrypted")
            if info.compress_type not in _ZIP_METHODS:
                raise _Malformed(
                    f"member {name} uses compression method {info.compress_type} (stored and "
                    "deflated members, as numpy writes them, are read)"
                )
            infos[kc] = info
        total = sum(info.file_size for info in infos.values())
        if limit is not None and total > limit:
            raise _TooLarge(total)
        tensors = {kc: _npy_header(z, info) for kc, info in infos.items()}
        meta = tensors.pop(_META_KEY, None)
        text = None
        if meta is not None:
            if meta.npy_dtype != np.uint8 or len(meta.shape) != 1:
                raise _Malformed("its ivy_like metadata member is not a 1-D uint8 array")
            try:
                text = _npy_array(z, meta).tobytes().decode("utf-8")
            except UnicodeDecodeError as err:
                raise _Malformed(f"its ivy_like metadata is not UTF-8 ({err})") from err
        dtypes, empty = _parse_meta(text, set(tensors))
        for kc, t in tensors.items():
            given = dtypes.get(kc, t.dtype)
            if _storage_dtype(given) != t.npy_dtype.newbyteorder("="):
                raise _Malformed(
                    f"member {_show(t.member.filename)} holds {t.npy_dtype} data, not the "
                    f"{given.name} its ivy_like metadata gives"
                )
            tensors[kc] = t._replace(dtype=given)
        _check_tree(list(tensors), empty)
        ordered = _in_written_order(list(tensors.values()), dtypes)
        return [(t.name, _npy_array(z, t), t.dtype) for t in ordered], empty


def load(
    path: Any, backend: Any, native: bool, max_bytes: Any = DEFAULT_MAX_BYTES
) -> tuple[dict[str, Any], list[str]]:
    """The leaves of the file at ``path`` by key chain, and the key chains of its empty
    Containers, as :meth:`~ivy_like.Container.cont_from_disk` documents."""
    path = os.fspath(path)
    limit = optional_count("cont_from_disk", "max_bytes", max_bytes)
    target = current_backend() if backend is None else get_backend(backend)
    try:
        f = open(path, "rb")  # noqa: SIM115 - closed by the with below
    except FileNotFoundError:
        raise FileNotFoundError(errno.ENOENT, "cont_from_disk: no such file", path) from None
    with f:
        npz = f.read(4) == b"PK\x03\x04" or os.fsdecode(path).endswith(".npz")
        f.seek(0)
        kind = ".npz" if npz else "safetensors"
        try:
            if npz:
                leaves, empty = _read_npz(f, limit)
            else:
                tensors, empty, data = _read_safetensors(f, limit)
                leaves = [(t.name, _st_array(t, data), t.dtype) for t in tensors]
        except _TooLarge as err:
            counted = "its members uncompressed" if npz else "the file's size"
            raise ValueError(
                f"cont_from_disk: {path!r} holds {err.args[0]} bytes of data ({counted}), more "
                f"than max_bytes={limit}; pass a larger max_bytes, or max_bytes=None for no "
                "limit, to load a file you trust"
            ) from None
        except _Malformed as err:
            raise ValueError(
                f"cont_from_disk: {path!r} is not a valid {kind} file (truncated or malformed): "
                f"{err}"
            ) from err.__cause__
        except (FileNotFoundError, PermissionError):
            raise
        except _PARSE_ERRORS as err:
            raise ValueError(
                f"cont_from_disk: {path!r} is not a valid {kind} file (truncated or malformed): "
                f"{type(err).__name__}: {err}"
            ) from err
    # The file is fully checked: from here on only a backend can object (a dtype it lacks).
    flat = {}
    for kc, arr, dtype in leaves:
        try:
            x = _leaves.from_exact_numpy(arr, dtype, target)
        except TypeError as err:
            raise TypeError(f"cont_from_disk: leaf {kc!r}: {err}") from err
        flat[kc] = x if native else _wrap(x, target)
    return flat, empty

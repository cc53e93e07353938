"""Reading an ONNX model safely: from a path, bytes or a ``ModelProto``.

A model file is data from elsewhere, so it is read as data: parsed by protobuf (which runs no
code), checked by ``onnx.checker``, every initializer's size compared with its shape and dtype
before it is read, and external data (a tensor stored in another file beside the model) read
only from inside the model's folder, after its offset and length are checked against that
file. Each failure is a ``ValueError`` naming the file; nothing is read outside the folder.
The graph's order (a cycle) is checked where the graph is written (``graph.py``).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np


def _what(source: Any) -> str:
    return repr(os.fspath(source)) if isinstance(source, (str, os.PathLike)) else "the model"


def load(source: Any, base_dir: str | os.PathLike[str] | None = None) -> tuple[Any, str]:
    """The ``ModelProto`` of ``source`` (a path, bytes or a ``ModelProto``) with its external
    data read in, and how to name it in messages. ``base_dir``: the folder external data is
    read from when ``source`` is not a path (default: none may be)."""
    import onnx

    what = _what(source)
    if isinstance(source, onnx.ModelProto):
        model = onnx.ModelProto()
        model.CopyFrom(source)  # external data is read into the copy, never into the caller's
    else:
        if isinstance(source, (str, os.PathLike)):
            path = os.fspath(source)
            if not os.path.isfile(path):
                raise FileNotFoundError(f"from_onnx: no such file: {path!r}")
            with open(path, "rb") as f:
                data = f.read()
            if base_dir is None:
                base_dir = os.path.dirname(os.path.abspath(path))
        elif isinstance(source, (bytes, bytearray, memoryview)):
            data = bytes(source)
        else:
            raise TypeError(
                "from_onnx: model_or_path must be an onnx.ModelProto, a path or bytes, got "
                f"{type(source).__name__}"
            )
        model = onnx.ModelProto()
        try:
            model.ParseFromString(data)
        except Exception as e:  # noqa: BLE001 - protobuf's DecodeError moves between versions
            raise ValueError(
                f"from_onnx: {what} is not a valid ONNX model (truncated or corrupt: {e})"
            ) from None
    if not model.HasField("graph") or not model.opset_import:
        raise ValueError(f"from_onnx: {what} is not a valid ONNX model (it has no graph or opset)")
    _read_external(model, base_dir, what)
    _check_sizes(model.graph, what)
    try:
        onnx.checker.check_model(model)
    except onnx.checker.ValidationError as e:
        raise ValueError(f"from_onnx: {what} is not a valid ONNX model: {e}") from None
    return model, what


def _tensors(graph: Any) -> Any:
    """Every tensor stored in ``graph``: initializers and constants, sub-graphs included."""
    from onnx import AttributeProto

    yield from graph.initializer
    for node in graph.node:
        for a in node.attribute:
            if a.type == AttributeProto.TENSOR:
                yield a.t
            elif a.type == AttributeProto.TENSORS:
                yield from a.tensors
            elif a.type == AttributeProto.GRAPH:
                yield from _tensors(a.g)
            elif a.type == AttributeProto.GRAPHS:
                for g in a.graphs:
                    yield from _tensors(g)


def _read_external(model: Any, base_dir: Any, what: str) -> None:
    """Read each externally stored tensor into it, from inside ``base_dir`` only."""
    from onnx import TensorProto

    for t in _tensors(model.graph):
        if t.data_location != TensorProto.EXTERNAL:
            continue
        info = {e.key: e.value for e in t.external_data}
        location = info.get("location", "")
        if base_dir is None:
            raise ValueError(
                f"from_onnx: {what}: tensor {t.name!r} is stored in the file {location!r}; "
                "pass the model's path (or base_dir=) so its folder is known"
            )
        folder = os.path.realpath(base_dir)
        target = os.path.realpath(os.path.join(folder, location))
        if (
            not location
            or os.path.isabs(location)
            or os.path.commonpath([folder, target]) != folder
        ):
            raise ValueError(
                f"from_onnx: {what}: tensor {t.name!r} names the external file {location!r}, "
                f"which is outside the model's folder {folder!r}; it is not read"
            )
        if not os.path.isfile(target):
            raise ValueError(f"from_onnx: {what}: tensor {t.name!r}: no external file {location!r}")
        try:
            offset = int(info.get("offset", 0))
            length = int(info["length"]) if "length" in info else None
        except ValueError:
            raise ValueError(
                f"from_onnx: {what}: tensor {t.name!r}: bad offset or length"
            ) from None
        size = os.path.getsize(target)
        if length is None:
            length = size - offset
        if offset < 0 or length < 0 or offset + length > size:
            raise ValueError(
                f"from_onnx: {what}: tensor {t.name!r} asks for bytes {offset}..{offset + length} "
                f"of {location!r}, which has {size}"
            )
        with open(target, "rb") as f:
            f.seek(offset)
            t.raw_data = f.read(length)
        del t.external_data[:]
        t.data_location = TensorProto.DEFAULT


def _check_sizes(graph: Any, what: str) -> None:
    """Each stored tensor holds as many values as its shape says (before anything reads it)."""
    from onnx import TensorProto, helper

    for t in _tensors(graph):
        if t.data_type in (TensorProto.STRING, TensorProto.UNDEFINED):
            continue
        if any(d < 0 for d in t.dims):
            raise ValueError(f"from_onnx: {what}: tensor {t.name!r} has a negative dimension")
        count = int(np.prod(t.dims, dtype=np.int64)) if t.dims else 1
        if t.HasField("raw_data"):
            try:
                bits = np.dtype(helper.tensor_dtype_to_np_dtype(t.data_type)).itemsize * 8
            except (KeyError, TypeError, ValueError):
                continue  # a dtype NumPy cannot hold is refused where the graph is read
            name = TensorProto.DataType.Name(t.data_type)
            if name in ("INT4", "UINT4", "FLOAT4E2M1"):
                bits = 4
            want = (count * bits + 7) // 8
            have = len(t.raw_data)
        else:
            field = helper.tensor_dtype_to_field(t.data_type)
            have = len(getattr(t, field))
            want = count * (
                2 if t.data_type in (TensorProto.COMPLEX64, TensorProto.COMPLEX128) else 1
            )
            if t.data_type in (TensorProto.INT4, TensorProto.UINT4):
                want = (count + 1) // 2
        if have != want:
            shape = tuple(t.dims)
            raise ValueError(
                f"from_onnx: {what}: tensor {t.name!r} declares shape {shape} of "
                f"{TensorProto.DataType.Name(t.data_type).lower()} ({count} values) but holds "
                f"{have} {'bytes' if t.HasField('raw_data') else 'values'} (expected {want})"
            )

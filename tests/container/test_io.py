"""cont_to_disk / cont_from_disk: safetensors and .npz, bit-exact on every backend, failures."""

from __future__ import annotations

import inspect
import json
import os
import re
import struct
import time
import zipfile
import zlib

import numpy as np
import pytest

import ivy_like
from ivy_like import Container

FORMATS = ["w.safetensors", "w.npz"]
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, 3.14159], np.float64)


def _sample(backend):
    """Every dtype the backend has (safetensors-storable ones), with special values."""
    leaves = {}
    for dtype in backend.DTYPES:
        if dtype.name == "complex128":
            continue
        if dtype.kind == "f":
            values = SPECIAL.astype(np.float32)
        elif dtype.kind == "c":
            values = np.empty(3, np.complex64)
            values.real, values.imag = SPECIAL[:3], SPECIAL[3:6]
        elif dtype.kind == "b":
            values = np.array([True, False, True])
        else:
            values = np.array([0, 1, 2**dtype.bits // 4 - 1], np.int64)
        leaves[dtype.name] = backend.asarray(values, dtype=backend.native_dtype(dtype))
    return Container(
        group={"inner": {k: v for k, v in leaves.items() if not k.startswith("u")}},
        u={k: ivy_like.Array(v) for k, v in leaves.items() if k.startswith("u")},
        scalar=ivy_like.Array(backend.asarray(np.float32(2.5))),
        empty_sub=Container(),
    )


@pytest.mark.parametrize("name", FORMATS)
def test_round_trip_is_bit_exact(backend, tmp_path, name):
    c = _sample(backend)
    path = tmp_path / name
    c.cont_to_disk(path)
    loaded = Container.cont_from_disk(path, backend=backend.name)
    assert loaded.cont_dtypes.cont_to_dict() == c.cont_dtypes.cont_to_dict()
    assert type(loaded.empty_sub) is Container and not loaded.empty_sub
    # Array leaves by default: compare bits against the original made all-Array.
    as_arrays = c.cont_map(
        lambda v, kc: ivy_like.Array(v) if not isinstance(v, ivy_like.Array) else v
    )
    assert loaded.cont_identical(as_arrays)
    native = Container.cont_from_disk(path, backend=backend.name, native=True)
    assert native.cont_identical(as_arrays.cont_to_native())
    if "bfloat16" in [d.name for d in backend.DTYPES]:
        bf = loaded.group.inner.bfloat16
        assert bf.dtype == ivy_like.bfloat16


@pytest.mark.parametrize("name", FORMATS)
def test_load_onto_another_backend(backend, tmp_path, name):
    c = Container(a={"b": ivy_like.array([1.5, -2.0])}, i=ivy_like.array([1, 2], dtype="int32"))
    path = tmp_path / name
    c.cont_to_disk(path)
    for other in ivy_like.available_backends():
        loaded = Container.cont_from_disk(path, backend=other)
        assert loaded.a.b.backend.name == other
        assert loaded.cont_to_backend("numpy").cont_identical(c.cont_to_backend("numpy"))


def test_format_choice_and_keys(tmp_path):
    c = Container(layer1={"w": ivy_like.ones((2, 2))}, b=ivy_like.zeros(3))
    st = tmp_path / "model.bin"
    c.cont_to_disk(st)  # safetensors unless the name ends in .npz
    with open(st, "rb") as f:
        header_len = int.from_bytes(f.read(8), "little")
        header = f.read(header_len).decode()
    assert '"layer1/w"' in header and '"b"' in header
    npz = tmp_path / "model.data"
    c.cont_to_disk(npz, format="npz")
    with np.load(npz, allow_pickle=False) as z:
        assert sorted(z.files) == ["b", "ivy_like", "layer1/w"]
    assert Container.cont_from_disk(npz).cont_identical(c)  # detected by content
    with pytest.raises(ValueError, match="format"):
        c.cont_to_disk(tmp_path / "x", format="pickle")


def test_unsavable_leaves_leave_no_file(tmp_path):
    path = tmp_path / "bad.safetensors"
    with pytest.raises(TypeError, match="'a/s' is a list"):
        Container(a={"x": ivy_like.ones(2), "s": [1, 2]}).cont_to_disk(path)
    with pytest.raises(TypeError, match="'c' has dtype complex128.*npz"):
        Container(c=ivy_like.ones(2, dtype="complex128")).cont_to_disk(path)
    assert os.listdir(tmp_path) == []  # neither the target nor a temporary file
    Container(c=ivy_like.ones(2, dtype="complex128")).cont_to_disk(tmp_path / "ok.npz")


def test_failed_save_keeps_the_previous_file(tmp_path):
    path = tmp_path / "w.safetensors"
    good = Container(a=ivy_like.ones(2))
    good.cont_to_disk(path)
    before = path.read_bytes()
    with pytest.raises(TypeError):
        Container(a=ivy_like.ones(2), b="text").cont_to_disk(path)
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["w.safetensors"]


@pytest.mark.parametrize("name", FORMATS)
def test_missing_truncated_and_malformed_files(tmp_path, name):
    with pytest.raises(FileNotFoundError, match="no such file"):
        Container.cont_from_disk(tmp_path / name)
    path = tmp_path / name
    Container(a=ivy_like.arange(100)).cont_to_disk(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="truncated or malformed"):
        Container.cont_from_disk(path)
    path.write_bytes(b"\x00" * 3)
    with pytest.raises(ValueError, match="truncated or malformed"):
        Container.cont_from_disk(path)
    path.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(ValueError, match="not a valid .npz"):
        Container.cont_from_disk(path)


def test_npz_with_pickled_objects_is_refused(tmp_path):
    path = tmp_path / "evil.npz"
    np.savez(path, a=np.array([{"x": 1}], dtype=object))
    with pytest.raises(ValueError, match="not a valid .npz"):
        Container.cont_from_disk(path)


def test_bfloat16_onto_numpy_is_a_clear_error(tmp_path):
    import safetensors

    bits = np.array([0x3FC0], np.uint16)  # 1.5 in bfloat16
    spec = safetensors.TensorSpec(
        dtype="bfloat16", shape=[1], data_ptr=bits.ctypes.data, data_len=2
    )
    path = tmp_path / "bf.safetensors"
    path.write_bytes(safetensors.serialize({"w": spec}))
    with pytest.raises(TypeError, match="'w'.*bfloat16"):
        Container.cont_from_disk(path, backend="numpy")
    for name in ivy_like.available_backends():
        b = ivy_like.get_backend(name)
        if ivy_like.bfloat16 in b.DTYPES:
            loaded = Container.cont_from_disk(path, backend=name)
            assert loaded.w.dtype == ivy_like.bfloat16
            assert float(np.asarray(loaded.w.to_numpy(), np.float32)[0]) == 1.5


@pytest.mark.parametrize("name", FORMATS)
def test_key_order_survives_the_file(tmp_path, name):
    # safetensors returns tensors in no particular order; a loaded Container must list its
    # leaves in the order they were saved (not alphabetical, not by size).
    c = Container(
        z=ivy_like.array([1.0, 2.0, 3.0, 4.0]),
        a=Container(y=ivy_like.array([2.0]), b=ivy_like.array([3], dtype="int32")),
        m=ivy_like.array([4.0, 5.0]),
    )
    c.cont_to_disk(tmp_path / name)
    loaded = Container.cont_from_disk(tmp_path / name)
    assert list(loaded.cont_all_key_chains()) == ["z", "a/y", "a/b", "m"]


# -- hostile and malformed files ----------------------------------------------------
# Every malformed file is one ValueError naming the file and what is wrong, decided before any
# large allocation; the files are written by hand so they can claim anything.
F32_DATA = np.array([1.0, 2.0], "<f4").tobytes()
F32_A = {"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}


def _st(path, header, data=b"", header_len=None):
    """A safetensors file: 8-byte header length, the JSON header (or raw bytes), the data."""
    raw = header if isinstance(header, bytes) else json.dumps(header).encode()
    n = len(raw) if header_len is None else header_len
    path.write_bytes(n.to_bytes(8, "little") + raw + data)


def _meta(**fields):
    """A safetensors ``__metadata__`` entry holding ivy_like's JSON with ``fields``."""
    return {"__metadata__": {"ivy_like": json.dumps({"format": "ivy_like.Container", **fields})}}


def _npy(descr, shape, data=b""):
    """A version 1.0 .npy member whose header says ``descr`` and ``shape``, then ``data``."""
    header = repr({"descr": descr, "fortran_order": False, "shape": shape}).encode()
    header += b" " * (63 - (10 + len(header)) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header + data


def _npz(path, members, compression=zipfile.ZIP_STORED):
    """A zip of ``(name, bytes)`` members (a name may repeat)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about a repeated name
        with zipfile.ZipFile(path, "w", compression) as z:
            for name, data in members:
                z.writestr(name, data)


def _npz_meta(**fields):
    text = json.dumps({"format": "ivy_like.Container", **fields}).encode()
    return ("ivy_like.npy", _npy("|u1", (len(text),), text))


A_NPY = ("a.npy", _npy("<f4", (2,), F32_DATA))

HOSTILE = {
    # safetensors
    "st-too-short": (lambda p: p.write_bytes(b"\x01\x02"), r"2 bytes, too few"),
    "st-header-past-end": (
        lambda p: _st(p, F32_A, F32_DATA, header_len=10**6),
        r"header length 1000000 runs past the end of the file",
    ),
    "st-truncated-data": (
        lambda p: _st(p, F32_A, F32_DATA[:6]),
        r"tensor 'a'.*run past the end of the data \(6 bytes",
    ),
    "st-offsets-out-of-range": (
        lambda p: _st(p, {"a": {"dtype": "F32", "shape": [2], "data_offsets": [8, 16]}}, F32_DATA),
        r"tensor 'a'.*\[8, 16\] run past the end of the data",
    ),
    "st-offsets-disagree-with-shape": (
        lambda p: _st(p, {"a": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}}, F32_DATA),
        r"tensor 'a'.*span 8 bytes, but shape \[3\] of F32 takes 12",
    ),
    "st-10**12-elements": (
        lambda p: _st(
            p, {"a": {"dtype": "F32", "shape": [10**12], "data_offsets": [0, 4 * 10**12]}}
        ),
        r"tensor 'a'.*run past the end of the data \(0 bytes",
    ),
    "st-overlap": (
        lambda p: _st(
            p,
            {
                "a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]},
            },
            F32_DATA + F32_DATA[:4],
        ),
        r"tensors 'a' and 'b' overlap",
    ),
    "st-negative-shape": (
        lambda p: _st(p, {"a": {"dtype": "F32", "shape": [-2], "data_offsets": [0, 8]}}, F32_DATA),
        r"tensor 'a'.*shape \[-2\] is not a list of non-negative integers",
    ),
    "st-unknown-dtype": (
        lambda p: _st(p, {"a": {"dtype": "X9", "shape": [2], "data_offsets": [0, 8]}}, F32_DATA),
        r"tensor 'a' has the unsupported dtype 'X9'",
    ),
    "st-header-not-an-object": (lambda p: _st(p, b"[1, 2]"), r"header is not a JSON object"),
    "st-header-not-utf8": (
        lambda p: _st(p, b'{"__metadata__": {"x": "\xff"}}'),
        r"header is not UTF-8",
    ),
    "st-bad-key-chain": (
        lambda p: _st(p, {"a//b": F32_A["a"]}, F32_DATA),
        r"tensor name 'a//b' is not a key chain",
    ),
    "st-tensor-under-a-tensor": (
        lambda p: _st(
            p,
            {**F32_A, "a/b": {"dtype": "F32", "shape": [2], "data_offsets": [8, 16]}},
            F32_DATA * 2,
        ),
        r"'a' is a tensor but also holds 'a/b'",
    ),
    "st-dtypes-not-a-dict": (
        lambda p: _st(p, {**F32_A, **_meta(dtypes=5)}, F32_DATA),
        r"ivy_like metadata 'dtypes' is not an object",
    ),
    "st-empty-under-a-leaf": (
        lambda p: _st(p, {**F32_A, **_meta(dtypes={"a": "float32"}, empty=["a/x"])}, F32_DATA),
        r"'a' is a tensor but also holds 'a/x'",
    ),
    "st-metadata-not-json": (
        lambda p: _st(p, {**F32_A, "__metadata__": {"ivy_like": "{"}}, F32_DATA),
        r"ivy_like metadata is not JSON",
    ),
    "st-metadata-disagrees": (
        lambda p: _st(p, {**F32_A, **_meta(dtypes={"a": "int32"})}, F32_DATA),
        r"tensor 'a' is F32 in the header but int32 in the ivy_like metadata",
    ),
    # .npz
    "npz-dtypes-not-a-dict": (
        lambda p: _npz(p, [A_NPY, _npz_meta(dtypes=5)]),
        r"ivy_like metadata 'dtypes' is not an object",
    ),
    "npz-empty-under-a-leaf": (
        lambda p: _npz(p, [A_NPY, _npz_meta(dtypes={"a": "float32"}, empty=["a/x"])]),
        r"'a' is a tensor but also holds 'a/x'",
    ),
    "npz-unknown-dtype-in-metadata": (
        lambda p: _npz(p, [A_NPY, _npz_meta(dtypes={"a": "float96"})]),
        r"ivy_like metadata gives 'a' the unknown dtype 'float96'",
    ),
    "npz-unknown-dtype": (
        lambda p: _npz(p, [("a.npy", _npy("<M8[s]", (1,), bytes(8)))]),
        r"member 'a.npy' has the unsupported dtype datetime64",
    ),
    "npz-structured-dtype": (
        lambda p: _npz(p, [("a.npy", _npy([("x", "<f4"), ("y", "<i4")], (1,), bytes(8)))]),
        r"member 'a.npy' has the structured dtype",
    ),
    "npz-object-dtype": (
        lambda p: _npz(p, [("a.npy", _npy("|O", (1,), b"\x80\x04N."))]),
        r"member 'a.npy' holds Python objects",
    ),
    "npz-metadata-not-utf8": (
        lambda p: _npz(p, [A_NPY, ("ivy_like.npy", _npy("|u1", (2,), b"\xff\xfe"))]),
        r"ivy_like metadata is not UTF-8",
    ),
    "npz-10**12-elements": (
        lambda p: _npz(p, [("a.npy", _npy("<f4", (10**12,), F32_DATA))]),
        r"member 'a.npy'.*shape \(1000000000000,\).*4000000000000 bytes, but the zip "
        r"declares 8",
    ),
    "npz-more-data-than-its-header-says": (
        lambda p: _npz(p, [("a.npy", _npy("<f4", (2,), F32_DATA + F32_DATA[:4]))]),
        r"member 'a.npy'.*8 bytes, but the zip declares 12",
    ),
    "npz-member-not-npy": (
        lambda p: _npz(p, [A_NPY, ("notes.txt", b"hello")]),
        r"member 'notes.txt' is not a .npy array",
    ),
    "npz-member-twice": (
        lambda p: _npz(p, [A_NPY, ("a.npy", _npy("<f4", (1,), F32_DATA[:4]))]),
        r"member 'a.npy' appears twice",
    ),
    "npz-lzma-member": (
        lambda p: _npz(p, [A_NPY], zipfile.ZIP_LZMA),
        r"member 'a.npy' uses compression method 14",
    ),
    "npz-bad-key-chain": (
        lambda p: _npz(p, [("/a.npy", _npy("<f4", (2,), F32_DATA))]),
        r"member name '/a.npy' is not a key chain",
    ),
}


def _refused(path, reason, **kwargs):
    """Loading ``path`` raises one ValueError naming the file and ``reason``."""
    with pytest.raises(ValueError, match=re.escape(str(path)) + ".*" + reason):
        Container.cont_from_disk(path, **kwargs)


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_malformed_file_is_one_value_error_naming_it(tmp_path, case):
    import tracemalloc

    write, reason = HOSTILE[case]
    path = tmp_path / ("w.npz" if case.startswith("npz") else "w.safetensors")
    write(path)
    before = path.read_bytes()
    tracemalloc.start()
    try:
        _refused(path, reason)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**24  # nothing near what the header claims was allocated
    assert path.read_bytes() == before and os.listdir(tmp_path) == [path.name]


def _payload(path):
    """What max_bytes counts: a safetensors file's size, an .npz's inflated member sizes."""
    if path.suffix == ".npz":
        with zipfile.ZipFile(path) as z:
            return sum(info.file_size for info in z.infolist())
    return path.stat().st_size


@pytest.mark.parametrize("name", FORMATS)
def test_max_bytes_bounds_what_a_load_reads(backend, tmp_path, name):
    c = Container(a={"b": ivy_like.arange(1000)}, w=ivy_like.ones((16, 16)))
    path = tmp_path / name
    c.cont_to_disk(path)
    size = _payload(path)
    expected = c.cont_to_backend("numpy")
    loaded = Container.cont_from_disk(path, backend=backend.name, max_bytes=size)
    assert loaded.cont_to_backend("numpy").cont_identical(expected)
    _refused(path, rf"holds {size} bytes.*more than max_bytes={size - 1}", max_bytes=size - 1)
    loaded = Container.cont_from_disk(path, backend=backend.name, max_bytes=None)
    assert loaded.cont_to_backend("numpy").cont_identical(expected)


def test_max_bytes_is_checked(tmp_path):
    missing = tmp_path / "none.safetensors"
    for bad in (1.5, "10", True):
        with pytest.raises(TypeError, match="max_bytes"):
            Container.cont_from_disk(missing, max_bytes=bad)
    with pytest.raises(ValueError, match="max_bytes must be non-negative, got -1"):
        Container.cont_from_disk(missing, max_bytes=-1)
    with pytest.raises(FileNotFoundError):
        Container.cont_from_disk(missing, max_bytes=np.int64(10))


def test_a_zip_bomb_is_refused_before_it_inflates(tmp_path):
    import tracemalloc

    # 64 MiB of zeros in a .npy member, deflated to about 64 KB.
    path = tmp_path / "bomb.npz"
    _npz(path, [("a.npy", _npy("|u1", (2**26,), bytes(2**26)))], zipfile.ZIP_DEFLATED)
    assert path.stat().st_size < 2**17
    tracemalloc.start()
    try:
        _refused(path, r"holds 6710\d{4} bytes.*more than max_bytes=1000000", max_bytes=10**6)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**22


def _zip64_bomb(path, npy_header, zero_mib):
    """A .npz whose one member inflates to ``npy_header`` and ``zero_mib`` MiB of zeros from
    about 1 KB a MiB: deflate blocks each ended by a full flush, so the same bytes repeat.
    Written by hand (zipfile would have to compress the whole payload); zip64 sizes."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    stream = c.compress(npy_header) + c.flush(zlib.Z_FULL_FLUSH)
    stream += (c.compress(bytes(2**20)) + c.flush(zlib.Z_FULL_FLUSH)) * zero_mib + c.flush()
    size = len(npy_header) + zero_mib * 2**20
    crc = 0  # never checked: the declared size is refused before a byte is inflated
    name = b"a.npy"
    extra = struct.pack("<HHQQ", 1, 16, size, len(stream))
    local = struct.pack(
        "<IHHHHHIIIHH", 0x04034B50, 45, 0, 8, 0, 33, crc, 2**32 - 1, 2**32 - 1, len(name), 20
    )
    central = struct.pack(
        "<IHHHHHHIIIHHHHHII",
        0x02014B50, 45, 45, 0, 8, 0, 33, crc, 2**32 - 1, 2**32 - 1, len(name), 20, 0, 0, 0, 0, 0,
    )  # fmt: skip
    body = local + name + extra + stream
    cd = central + name + extra
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(cd), len(body), 0)
    path.write_bytes(body + cd + end)


def test_the_default_max_bytes_refuses_a_bomb(tmp_path):
    import tracemalloc

    default = inspect.signature(Container.cont_from_disk).parameters["max_bytes"].default
    assert default == 2**32
    path = tmp_path / "bomb.npz"
    header = _npy("|u1", (2**32 + 2**20,))
    _zip64_bomb(path, header, 2**12 + 1)  # 4 GiB + 1 MiB of zeros from about 4 MB
    assert path.stat().st_size < 2**23
    with zipfile.ZipFile(path) as z:  # a well-formed zip, as far as its directory goes
        assert z.infolist()[0].file_size == len(header) + 2**32 + 2**20
    tracemalloc.start()
    start = time.perf_counter()
    try:
        _refused(path, rf"holds {len(header) + 2**32 + 2**20} bytes.*max_bytes={2**32}")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**22 and time.perf_counter() - start < 5


def test_zero_d_leaves_keep_their_shape_on_disk(tmp_path):
    # An optimizer's step count, a model's scalar buffer: NumPy's ascontiguousarray made a
    # 0-d leaf 1-d on the way to safetensors.
    c = ivy_like.Container(count=np.asarray(3, np.int32), w=np.ones((2, 2), np.float32))
    path = tmp_path / "c.safetensors"
    c.cont_to_disk(path)
    back = ivy_like.Container.cont_from_disk(path)
    assert tuple(back["count"].shape) == ()
    assert int(back["count"]) == 3
    assert tuple(back["w"].shape) == (2, 2)

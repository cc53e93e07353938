"""cont_to_disk / cont_from_disk: safetensors and .npz, bit-exact on every backend, failures."""

from __future__ import annotations

import os

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

"""Arrays between frameworks: values always exact, and no copy where DLPack can share the buffer.

The zero-copy table (CPU) that docs/convert.md documents is checked here pair by pair, by
comparing the addresses of the buffers (and, for the mutable frameworks, by writing through one
side and reading the other).
"""

import jax
import jax.numpy as jnp
import mlx.core as mx
import numpy as np
import pytest
import tensorflow as tf
import torch

import ivy_like
from ivy_like.convert import from_torch, to_backend

NAMES = ("numpy", "torch", "jax", "tensorflow", "mlx")
ALIGN = 64  # what JAX and TensorFlow need to import a CPU buffer without copying it


def address(x):
    """The address of the first element of a native CPU array."""
    if isinstance(x, np.ndarray):
        return x.__array_interface__["data"][0]
    if isinstance(x, torch.Tensor):
        return x.data_ptr()
    if isinstance(x, jax.Array):
        return x.unsafe_buffer_pointer()
    if isinstance(x, tf.Tensor):
        return np.from_dlpack(x).__array_interface__["data"][0]  # TensorFlow exports in place
    if isinstance(x, mx.array):
        return np.asarray(memoryview(x)).__array_interface__["data"][0]  # the buffer protocol
    raise TypeError(type(x))


def aligned_numpy(n, offset=0):
    """A float32 NumPy array of n elements whose buffer is 64-byte aligned (plus ``offset``)."""
    raw = np.empty(n * 4 + 2 * ALIGN, dtype=np.uint8)
    start = (-raw.ctypes.data) % ALIGN + offset
    out = raw[start : start + n * 4].view(np.float32)
    out[:] = np.arange(n, dtype=np.float32) * 0.5 - 3.0
    return out


def make(name, n=1024):
    values = np.arange(n, dtype=np.float32) * 0.5 - 3.0
    if name == "numpy":
        return aligned_numpy(n)
    return {
        "torch": torch.tensor(values),  # torch's allocator aligns to 64 bytes
        "jax": jnp.asarray(values),
        "tensorflow": tf.constant(values),
        "mlx": mx.array(values),
    }[name]


def as_numpy(x):
    return np.asarray(ivy_like.to_numpy(x))


# (source, target) pairs that never copy on CPU (for NumPy: a 64-byte aligned array).
ZERO_COPY = [
    ("numpy", "torch"),
    ("numpy", "jax"),
    ("numpy", "tensorflow"),
    ("torch", "numpy"),
    ("torch", "jax"),
    ("torch", "tensorflow"),
    ("jax", "numpy"),
    ("jax", "torch"),
    ("jax", "tensorflow"),
    ("tensorflow", "numpy"),
    ("tensorflow", "torch"),
    ("tensorflow", "jax"),
    ("mlx", "numpy"),
    ("mlx", "torch"),
]
# Pairs that always copy: MLX builds its own array from what it imports.
ALWAYS_COPY = [(s, "mlx") for s in NAMES if s != "mlx"]


@pytest.mark.parametrize("source, target", ZERO_COPY, ids=lambda v: v)
def test_zero_copy_pairs_share_the_buffer(source, target):
    x = make(source)
    y = to_backend(x, target)
    assert ivy_like.backend_of(y).name == target
    np.testing.assert_array_equal(as_numpy(y), as_numpy(x))
    assert address(y) == address(x), f"{source} -> {target} copied"


@pytest.mark.parametrize("source, target", ALWAYS_COPY, ids=lambda v: v)
def test_into_mlx_copies_exactly(source, target):
    x = make(source)
    y = to_backend(x, target)
    assert isinstance(y, mx.array)
    assert as_numpy(y).tobytes() == as_numpy(x).tobytes()
    assert address(y) != address(x)


@pytest.mark.parametrize("target", ["jax", "tensorflow"])
def test_unaligned_numpy_is_copied_into_jax_and_tensorflow(target):
    x = aligned_numpy(256, offset=16)  # NumPy's own small arrays are 16-byte aligned
    assert address(x) % ALIGN == 16
    y = to_backend(x, target)
    np.testing.assert_array_equal(as_numpy(y), x)
    assert address(y) != address(x)
    assert address(y) % ALIGN == 0


@pytest.mark.parametrize("target", ["jax", "tensorflow"])
def test_mlx_into_jax_and_tensorflow_shares_only_aligned_buffers(target):
    x = make("mlx")
    y = to_backend(x, target)
    assert as_numpy(y).tobytes() == as_numpy(x).tobytes()
    if address(x) % ALIGN:
        assert address(y) != address(x)


def test_numpy_and_torch_see_each_others_writes():
    a = np.zeros(4, dtype=np.float32)
    t = to_backend(a, "torch")
    t[1] = 5.0
    assert a[1] == 5.0
    b = to_backend(t, "numpy")
    b[2] = 7.0
    assert t[2].item() == 7.0


def test_a_tensor_requiring_grad_is_shared_through_detach():
    p = torch.nn.Parameter(torch.ones(3, 4))
    for target in ("numpy", "jax", "tensorflow"):
        y = to_backend(p, target)
        assert address(y) == p.data_ptr(), target
    assert p.requires_grad  # the parameter itself is untouched


def test_non_contiguous_arrays_keep_their_values():
    t = torch.arange(12.0).reshape(3, 4).T  # strided: DLPack hands the strides over
    for target in ("numpy", "jax", "tensorflow", "mlx"):
        np.testing.assert_array_equal(as_numpy(to_backend(t, target)), t.numpy(), target)


def test_arrays_and_containers_keep_their_kind():
    x = make("torch")
    wrapped = to_backend(ivy_like.asarray(x), "jax")
    assert isinstance(wrapped, ivy_like.Array) and wrapped.backend.name == "jax"
    assert address(wrapped.data) == address(x)
    c = to_backend(ivy_like.Container(a={"w": x}, b=[x]), "numpy")
    assert isinstance(c.a.w, np.ndarray) and address(c.a.w) == address(x)
    assert address(c.b[0]) == address(x)


def test_missing_dtypes_are_errors_not_downcasts():
    with pytest.raises(TypeError, match="bfloat16.*numpy"):
        to_backend(torch.ones(2, dtype=torch.bfloat16), "numpy")
    if not jax.config.jax_enable_x64:
        with pytest.raises(TypeError, match="float64"):
            to_backend(np.ones(2), "jax")
    with pytest.raises(TypeError, match="array or a Container"):
        to_backend([1.0, 2.0], "torch")


@pytest.mark.parametrize("target", ["numpy", "jax", "tensorflow"])
def test_from_torch_without_copy_shares_the_module_weights(target):
    net = torch.nn.Sequential(torch.nn.Linear(64, 32))
    shared = from_torch(net, backend=target, copy=False)
    owned = from_torch(net, backend=target)
    weight = net[0].weight
    assert address(ivy_like.to_native(shared.params["0"]["weight"])) == weight.data_ptr()
    assert address(ivy_like.to_native(owned.params["0"]["weight"])) != weight.data_ptr()
    np.testing.assert_array_equal(
        as_numpy(shared.params["0"]["weight"]), as_numpy(owned.params["0"]["weight"])
    )

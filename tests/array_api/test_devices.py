"""``device=``: one rule on every backend, checked once by the core.

The device an array reports (``x.device``) and ``"cpu"`` are accepted everywhere; a device the
framework or this machine does not have is a ``ValueError`` naming it (TensorFlow would place
the op elsewhere without a word, NumPy would ignore it); a value that is not a device at all is
a ``ValueError`` or ``TypeError``. The same holds on every call path.
"""

from __future__ import annotations

import numpy as np
import pytest

import ivy_like
from ivy_like.testing import assert_close

MISSING = "gpu:7"  # no machine that runs this suite has eight GPUs


def _creators(x):
    """Every op with a device= parameter, called with ``device=d``."""
    return {
        "asarray": lambda d: ivy_like.asarray([1.0, 2.0], device=d),
        "zeros": lambda d: ivy_like.zeros((2,), device=d),
        "ones": lambda d: ivy_like.ones((2,), device=d),
        "empty": lambda d: ivy_like.empty((2,), device=d),
        "full": lambda d: ivy_like.full((2,), 3.0, device=d),
        "arange": lambda d: ivy_like.arange(3, device=d),
        "linspace": lambda d: ivy_like.linspace(0.0, 1.0, 3, device=d),
        "eye": lambda d: ivy_like.eye(2, device=d),
        "zeros_like": lambda d: ivy_like.zeros_like(x, device=d),
        "ones_like": lambda d: ivy_like.ones_like(x, device=d),
        "empty_like": lambda d: ivy_like.empty_like(x, device=d),
        "full_like": lambda d: ivy_like.full_like(x, 2.0, device=d),
        "astype": lambda d: ivy_like.astype(x, ivy_like.float32, device=d),
        "fft.fftfreq": lambda d: ivy_like.fft.fftfreq(4, device=d),
        "fft.rfftfreq": lambda d: ivy_like.fft.rfftfreq(4, device=d),
        "from_dlpack": lambda d: ivy_like.from_dlpack(np.ones(2, np.float32), device=d),
    }


@pytest.fixture
def on_backend(backend):
    with ivy_like.use_backend(backend):
        yield backend


def test_every_creation_op_accepts_cpu_and_the_arrays_own_device(on_backend):
    x = ivy_like.asarray([1.0, 2.0])
    for name, make in _creators(x).items():
        for device in ("cpu", x.device):
            got = make(device)
            assert "cpu" in str(got.device).lower(), (name, device)


def test_every_creation_op_rejects_a_missing_device(on_backend):
    x = ivy_like.asarray([1.0, 2.0])
    for make in _creators(x).values():
        with pytest.raises(ValueError, match="gpu:7"):
            make(MISSING)
        with pytest.raises((ValueError, TypeError)):
            make("banana")


def test_device_is_checked_on_every_call_path(on_backend):
    native = on_backend.asarray(np.ones(2, np.float32))
    wrapped = ivy_like.Array(native)
    c = ivy_like.Container(a=native, b={"c": wrapped})
    with pytest.raises(ValueError, match="gpu:7"):
        ivy_like.zeros_like(native, device=MISSING)  # fast path, native array
    with pytest.raises(ValueError, match="gpu:7"):
        wrapped.zeros_like(device=MISSING)  # Array method
    with pytest.raises(ValueError, match="gpu:7"):
        ivy_like.zeros_like(np.ones(2, np.float32), device=MISSING)  # general path (NumPy in)
    with pytest.raises(ValueError, match="gpu:7"):
        c.zeros_like(device=MISSING)  # Container method
    zeros = np.zeros(2, np.float32)
    assert_close(c.zeros_like(device="cpu"), {"a": zeros, "b": {"c": zeros}})

"""ivy_like.Array: attributes, operators, indexing, conversions."""

from __future__ import annotations

import operator

import numpy as np
import pytest

import ivy_like
from ivy_like.testing import assert_close


def test_attributes(backend):
    x = ivy_like.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert x.shape == (2, 3) and x.ndim == 2 and x.size == 6
    assert x.dtype is ivy_like.float32
    assert x.backend is backend and x.backend == backend.name
    assert isinstance(x.data, backend.array_types)
    assert "cpu" in str(x.device).lower()
    assert repr(x) == "ivy_like.array([[1., 2., 3.],\n                [4., 5., 6.]])"
    assert x.T.shape == (3, 2)


@pytest.mark.parametrize(
    "op",
    [
        operator.add,
        operator.sub,
        operator.mul,
        operator.truediv,
        operator.pow,
        operator.lt,
        operator.le,
        operator.gt,
        operator.ge,
        operator.eq,
        operator.ne,
    ],
)
def test_binary_operators_match_numpy(backend, op):
    a = np.array([1.0, 2.0, 3.0], np.float32)
    b = np.array([2.0, 2.0, 0.5], np.float32)
    x, y = ivy_like.array(a), ivy_like.array(b)
    assert_close(op(x, y), op(a, b))
    assert_close(op(x, 2.0), op(a, np.float32(2.0)))
    assert_close(op(2.0, x), op(np.float32(2.0), a))
    assert_close(op(x, y.data), op(a, b))


def test_matmul_unary_and_inplace_operators(backend):
    a = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    x = ivy_like.array(a)
    assert_close(x @ x, a @ a)
    assert_close(-x, -a)
    assert_close(+x, a)
    assert_close(abs(-x), a)
    assert_close(ivy_like.array([7, -7]) // 2, np.array([3, -4]), check_dtype=False)
    assert_close(ivy_like.array([7, -7]) % 3, np.array([1, 2]), check_dtype=False)
    y = x
    y += 1.0
    assert y is x
    assert_close(x, a + 1)


def test_indexing(backend):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = ivy_like.array(a)
    for key in [1, -1, slice(1, 3), (1, 2), (slice(None), 2), (Ellipsis, 1), (None, 0)]:
        assert_close(x[key], a[key])
    assert_close(x[ivy_like.array([0, 2])], a[[0, 2]])
    assert_close(x[x > 5.0], a[a > 5.0])


def test_conversions(backend):
    a = np.array([1.0, 2.0], np.float32)
    x = ivy_like.array(a)
    np.testing.assert_array_equal(np.asarray(x), a)
    np.testing.assert_array_equal(x.to_numpy(), a)
    np.testing.assert_array_equal(ivy_like.to_numpy(x.data), a)
    assert ivy_like.to_native(x) is x.data
    assert float(ivy_like.sum(x)) == 3.0
    assert len(x) == 2 and [float(v) for v in x] == [1.0, 2.0]
    assert x.__array_namespace__() is ivy_like


def test_dlpack_round_trip(backend):
    x = ivy_like.array([1.0, 2.0, 3.0])
    try:
        y = np.from_dlpack(x)
    except (BufferError, TypeError, RuntimeError) as err:  # pragma: no cover - reported
        pytest.fail(f"DLPack export failed on {backend.name}: {err}")
    np.testing.assert_array_equal(y, [1.0, 2.0, 3.0])

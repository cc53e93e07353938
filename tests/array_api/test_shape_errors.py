"""Shapes and axes that do not fit: one error type and message on every backend.

Decided in ``ivy_like._shape_errors``: a ValueError naming the arguments, NumPy's AxisError
for an axis out of range, raised from the framework's own error (which differs: ValueError,
TypeError, RuntimeError, InvalidArgumentError, IndexError).
"""

from __future__ import annotations

import numpy as np
import pytest

import ivy_like

F32 = np.float32
AxisError = np.exceptions.AxisError if hasattr(np, "exceptions") else np.AxisError


def ones(*shape):
    return np.ones(shape, F32)


# (call on native arrays of the backend, error type, message pattern)
CASES = {
    "add": (
        lambda b: ivy_like.add(b.asarray(ones(3)), b.asarray(ones(4))),
        ValueError,
        r"add: shapes do not broadcast together: x1 of shape \(3,\) and x2 of shape \(4,\)",
    ),
    "where": (
        lambda b: ivy_like.where(
            b.asarray(np.ones(3, bool)), b.asarray(ones(3)), b.asarray(ones(2, 1, 4))
        ),
        ValueError,
        r"where: shapes do not broadcast together: .* x2 of shape \(2, 1, 4\)",
    ),
    "clip": (
        lambda b: ivy_like.clip(b.asarray(ones(3)), b.asarray(ones(4))),
        ValueError,
        r"clip: .* x of shape \(3,\) and min of shape \(4,\)",
    ),
    "matmul": (
        lambda b: ivy_like.matmul(b.asarray(ones(2, 3)), b.asarray(ones(2, 3))),
        ValueError,
        r"matmul: x1's last dimension \(3\) must equal x2's second-to-last \(2\)",
    ),
    "matmul batch": (
        lambda b: ivy_like.matmul(b.asarray(ones(2, 2, 3)), b.asarray(ones(4, 3, 2))),
        ValueError,
        r"matmul: shapes do not broadcast together: x1's batch of shape \(2,\)",
    ),
    "reshape": (
        lambda b: ivy_like.reshape(b.asarray(ones(6)), (4, 2)),
        ValueError,
        r"reshape: x of shape \(6,\) \(6 elements\) cannot take shape \(4, 2\)",
    ),
    "reshape -1": (
        lambda b: ivy_like.reshape(b.asarray(ones(6)), (4, -1)),
        ValueError,
        r"reshape: x of shape \(6,\)",
    ),
    "concat": (
        lambda b: ivy_like.concat([b.asarray(ones(2, 3)), b.asarray(ones(2, 4))]),
        ValueError,
        r"concat: arrays must have the same shape off axis 0; .* arrays\[1\] \(2, 4\)",
    ),
    "concat ranks": (
        lambda b: ivy_like.concat([b.asarray(ones(2, 3)), b.asarray(ones(3))]),
        ValueError,
        r"concat: every array must have the same number of dimensions",
    ),
    "concat axis": (
        lambda b: ivy_like.concat([b.asarray(ones(2, 3)), b.asarray(ones(2, 3))], axis=2),
        AxisError,
        r"concat: axis 2 is out of bounds",
    ),
    "stack": (
        lambda b: ivy_like.stack([b.asarray(ones(3)), b.asarray(ones(4))]),
        ValueError,
        r"stack: every array must have the same shape; arrays\[0\] has shape \(3,\)",
    ),
    "permute_dims": (
        lambda b: ivy_like.permute_dims(b.asarray(ones(2, 3)), (0, 0)),
        ValueError,
        r"permute_dims: repeated axis",
    ),
    "permute_dims length": (
        lambda b: ivy_like.permute_dims(b.asarray(ones(2, 3)), (0,)),
        ValueError,
        r"permute_dims: axes \(0,\) must name each of x's 2 axes once",
    ),
    "tensordot": (
        lambda b: ivy_like.tensordot(b.asarray(ones(2, 3)), b.asarray(ones(2, 3)), axes=1),
        ValueError,
        r"tensordot: contracted sizes differ: x1 axis 1 has 3, x2 axis 0 has 2",
    ),
    "repeat": (
        lambda b: ivy_like.repeat(b.asarray(ones(3)), b.asarray(np.ones(2, np.int32))),
        ValueError,
        r"repeat: 2 repeats for 3 elements along axis None \(need 1 or 3\)",
    ),
    "sum axis": (
        lambda b: ivy_like.sum(b.asarray(ones(3)), axis=2),
        AxisError,
        r"sum: axis 2 is out of bounds for an array of 1 dims",
    ),
    "argmax axis": (
        lambda b: ivy_like.argmax(b.asarray(ones(3)), axis=1),
        AxisError,
        r"argmax: axis 1 is out of bounds",
    ),
    "sort axis": (
        lambda b: ivy_like.sort(b.asarray(ones(2, 3)), axis=-3),
        AxisError,
        r"sort: axis -3 is out of bounds",
    ),
    "mean axes": (
        lambda b: ivy_like.mean(b.asarray(ones(2, 3)), axis=(0, 0)),
        ValueError,
        r"mean: ",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_same_error_on_every_backend(backend, case):
    call, error, message = CASES[case]
    with pytest.raises(error, match=message):
        call(backend)


def test_methods_and_operators_raise_it_too(backend):
    a, b = ivy_like.Array(backend.asarray(ones(3))), ivy_like.Array(backend.asarray(ones(4)))
    for call in (lambda: a + b, lambda: b - a, lambda: a.multiply(b), lambda: 1.0 * a + b):
        with pytest.raises(ValueError, match="shapes do not broadcast together"):
            call()
    with pytest.raises(AxisError, match="sum: axis 2"):
        a.sum(axis=2)


def test_the_framework_error_is_kept_as_the_cause(backend):
    try:
        ivy_like.matmul(backend.asarray(ones(2, 3)), backend.asarray(ones(2, 3)))
    except ValueError as err:
        # The framework's own error, unless ivy_like's backend raised this one itself.
        assert err.__cause__ is not None or str(err).startswith("matmul:")


def test_other_errors_are_left_alone(backend):
    # Shapes that fit: the error stays what it was (here dispatch's TypeError for a string).
    x = backend.asarray(ones(3))
    with pytest.raises(TypeError, match="x2"):
        ivy_like.add(x, "1")
    with pytest.raises(ValueError, match="non-negative"):  # a fault no shape rule covers
        ivy_like.repeat(x, backend.asarray(np.array([1, -1, 1], np.int32)))


def test_a_failed_call_leaves_out_unwritten(backend):
    out = ivy_like.Array(backend.asarray(np.full(3, 7.0, F32)))
    with pytest.raises(ValueError, match="do not broadcast"):
        ivy_like.add(backend.asarray(ones(3)), backend.asarray(ones(4)), out=out)
    np.testing.assert_array_equal(ivy_like.to_numpy(out), np.full(3, 7.0, F32))

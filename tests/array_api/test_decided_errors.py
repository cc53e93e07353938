"""Dtypes, shapes and axes that do not fit: one error type and message on every backend.

Decided in ``ivy_like.core.decided_errors``: a TypeError for a dtype outside the op's dtypes in the
array API standard, a ValueError naming the arguments for shapes, NumPy's AxisError for an
axis out of range, each raised from the framework's own error (which differs: ValueError,
TypeError, RuntimeError, NotImplementedError, InvalidArgumentError, IndexError).
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


# Dtypes outside the standard's for the op, refused by every framework (in five types).
DTYPE_CASES = {
    "bitwise_and float": (
        lambda b: ivy_like.bitwise_and(b.asarray(ones(3)), b.asarray(ones(3))),
        r"bitwise_and: x1 must have an integer or boolean dtype .*, got float32",
    ),
    "bitwise_invert float": (
        lambda b: ivy_like.bitwise_invert(b.asarray(ones(3))),
        r"bitwise_invert: x must have an integer or boolean dtype",
    ),
    "bitwise_left_shift float": (
        lambda b: ivy_like.bitwise_left_shift(b.asarray(ones(3)), b.asarray(ones(3))),
        r"bitwise_left_shift: x1 must have an integer dtype",
    ),
    "floor complex": (
        lambda b: ivy_like.floor(b.asarray(np.ones(3, np.complex64))),
        r"floor: x must have a real numeric dtype .*, got complex64",
    ),
    "remainder complex": (
        lambda b: ivy_like.remainder(
            b.asarray(np.ones(3, np.complex64)), b.asarray(np.ones(3, np.complex64))
        ),
        r"remainder: x1 must have a real numeric dtype",
    ),
    "negative bool": (
        lambda b: ivy_like.negative(b.asarray(np.ones(3, bool))),
        r"negative: x must have a numeric dtype .*, got bool",
    ),
}


@pytest.mark.parametrize("case", list(DTYPE_CASES))
def test_a_dtype_outside_the_standard_is_one_type_error(backend, case):
    call, message = DTYPE_CASES[case]
    if "complex" in case and ivy_like.complex64 not in backend.module.DTYPES:
        pytest.skip(f"{backend.name} has no complex64 (documented by the backend)")
    with pytest.raises(TypeError, match=message):
        call(backend)


def test_a_backend_that_extends_the_standard_still_does(backend):
    # Booleans are outside add's numeric dtypes: NumPy, JAX, torch and MLX add them (logical
    # or), TensorFlow does not. Either the framework's answer or the decided TypeError.
    x = backend.asarray(np.array([True, False]))
    try:
        out = ivy_like.add(x, x)
    except TypeError as err:
        assert "add: x1 must have a numeric dtype" in str(err) and err.__cause__ is not None
    else:
        np.testing.assert_array_equal(ivy_like.to_numpy(out).astype(bool), [True, False])


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
    # The decided error is raised from the error the backend raised (the framework's own, or
    # a backend check's), which stays readable as __cause__.
    with pytest.raises(ValueError, match="matmul: x1's last dimension") as info:
        ivy_like.matmul(backend.asarray(ones(2, 3)), backend.asarray(ones(2, 3)))
    cause = info.value.__cause__
    assert isinstance(cause, Exception) and cause is not info.value


def test_other_errors_are_left_alone(backend):
    # Shapes that fit: the error stays what it was (here dispatch's TypeError for a string).
    x = backend.asarray(ones(3))
    with pytest.raises(TypeError, match="x2"):
        ivy_like.add(x, "1")
    with pytest.raises(ValueError, match="non-negative"):  # a fault no shape rule covers
        ivy_like.repeat(x, backend.asarray(np.array([1, -1, 1], np.int32)))


def test_dispatch_errors_come_first(backend):
    # Arrays of two frameworks (or an out= of another shape) are ivy_like's own errors, even
    # when the shapes would not broadcast either.
    x = backend.asarray(ones(3))
    others = [b for b in ivy_like.available_backends() if b not in ("numpy", backend.name)]
    if backend.name != "numpy" and others:  # NumPy arrays are converted, not mixed
        y = ivy_like.get_backend(others[0]).asarray(ones(4))
        with pytest.raises(TypeError, match="arrays of two different frameworks"):
            ivy_like.add(x, y)
    out = ivy_like.Array(backend.asarray(ones(2)))
    with pytest.raises(ValueError, match=r"out= has shape \(2,\) but the result has shape"):
        ivy_like.add(x, x, out=out)


def test_a_failed_call_leaves_out_unwritten(backend):
    out = ivy_like.Array(backend.asarray(np.full(3, 7.0, F32)))
    with pytest.raises(ValueError, match="do not broadcast"):
        ivy_like.add(backend.asarray(ones(3)), backend.asarray(ones(4)), out=out)
    np.testing.assert_array_equal(ivy_like.to_numpy(out), np.full(3, 7.0, F32))


# Rules declared with the op (``@op(check=...)``): they run before any kernel, so the backends
# that would have accepted the call answer as the others do.
DECLARED = {
    "scatter_add of booleans": (
        lambda b: ivy_like.scatter_add(
            b.asarray(np.zeros(3, bool)),
            b.asarray(np.array([0], np.int32)),
            b.asarray(np.array([True])),
        ),
        TypeError,
        r"scatter_add: x must have a numeric dtype, got bool",
    ),
    "solve of an integer x2": (
        lambda b: ivy_like.linalg.solve(
            b.asarray(np.eye(2, dtype=F32)), b.asarray(np.ones(2, np.int32))
        ),
        TypeError,
        r"linalg.solve: expected a floating-point array",
    ),
    "eye too large": (
        lambda b: ivy_like.eye(2**20, 2**20),
        MemoryError,
        r"eye: \(n_rows, n_cols\) \(1048576, 1048576\) of 4-byte elements needs .* more than this machine",
    ),
    "fftfreq of no points": (
        lambda b: ivy_like.fft.fftfreq(0),
        ValueError,
        r"fft.fftfreq: the number of points must be >= 1, got 0",
    ),
    "std correction": (
        lambda b: ivy_like.std(b.asarray(ones(3)), correction="1"),
        TypeError,
        r"std: correction must be an int or a float, got '1'",
    ),
}


@pytest.mark.parametrize("case", list(DECLARED))
def test_a_declared_check_is_the_same_on_every_backend(backend, case):
    call, error, pattern = DECLARED[case]
    with pytest.raises(error, match=pattern):
        call(backend)

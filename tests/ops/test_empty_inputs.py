"""Arrays with no element: every linalg function and every reduction gives NumPy's answer (or
the same error as the NumPy backend) on every backend.

Frameworks crash on some such inputs (MLX's ``inv`` and ``solve`` of a 0x0 matrix died of
SIGFPE) and refuse others (MLX's ``pinv``); ivy_like answers as NumPy does. These tests run in
this process: a crash here would end the run, which ``ivy_like.testing.crash_sweep`` (run in
child processes by tests/devtools/test_crash_sweep.py) reports by name instead.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import ivy_like
from ivy_like.core.registry import OPS
from ivy_like.testing.crash_sweep import ARGUMENTS

REDUCTIONS = [
    k for k, s in sorted(OPS.items()) if s.family in ("statistical", "utility", "searching")
]
LINALG = [k for k, s in sorted(OPS.items()) if s.family == "linalg"]
SHAPES = [(0,), (0, 0), (2, 0), (0, 2), (0, 0, 0), (2, 0, 0), (0, 3, 3), (1, 0, 4)]
# More than one array argument: the same empty array for each (solve, matmul...), or these.
SECOND = {"searchsorted": lambda x: np.zeros(0, np.float32)}


def _public(key: str):
    fn = ivy_like
    for part in key.split("."):
        fn = getattr(fn, part)
    return fn


def _run(key: str, value: np.ndarray):
    """The op's result on the active backend as NumPy arrays, or the exception's type."""
    spec = OPS[key]
    x = ivy_like.asarray(value)
    required = [p for p in spec.params if p.name in spec.arrays and p.default is p.empty]
    args = [x] + [ivy_like.asarray(SECOND[key](value)) if key in SECOND else x][: len(required) - 1]
    kwargs = ARGUMENTS[key](value) if key in ARGUMENTS else {}
    try:
        out = _public(key)(*args, **kwargs)
    except NotImplementedError:  # the backend declares the op unsupported (expected_failures.py)
        raise
    except Exception as error:  # noqa: BLE001 - compared with NumPy's
        return type(error)
    parts = out if isinstance(out, tuple) else (out,)
    return [(p.dtype.name, ivy_like.to_numpy(p)) for p in parts]


def _same(backend_name: str, key: str, got, want, what: str) -> None:
    if isinstance(want, type):
        assert got is want, f"{key} on {what}: numpy raises {want.__name__}, {backend_name} {got}"
        return
    assert not isinstance(got, type), f"{key} on {what}: {backend_name} raises {got.__name__}"
    assert len(got) == len(want), f"{key} on {what}: {len(got)} outputs, numpy {len(want)}"
    for (got_dtype, g), (want_dtype, w) in zip(got, want):
        # index results (argmax, count_nonzero) have each backend's default integer dtype
        same = (
            got_dtype == want_dtype or np.dtype(want_dtype).kind == np.dtype(got_dtype).kind == "i"
        )
        assert same, f"{key} on {what}: dtype {got_dtype}, numpy {want_dtype}"
        assert g.shape == w.shape, f"{key} on {what}: shape {g.shape}, numpy {w.shape}"
        if w.size and w.dtype.kind in "fc":
            np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6, err_msg=f"{key} on {what}")
        else:
            np.testing.assert_array_equal(g, w, err_msg=f"{key} on {what}")


@pytest.mark.parametrize("key", REDUCTIONS + LINALG)
def test_empty_input_gets_numpys_answer(key, backend):
    for shape in SHAPES:
        for dtype in ("float32", "int32") if key in REDUCTIONS else ("float32",):
            value = np.zeros(shape, dtype)
            with ivy_like.use_backend("numpy"):
                want = _run(key, value)
            _same(backend.name, key, _run(key, value), want, f"{dtype} {shape}")


def test_the_shapes_cover_zero_by_zero_and_empty_batches():
    assert (0, 0) in SHAPES and any(len(s) == 3 and s[0] and not math.prod(s) for s in SHAPES)


# (x shape, weight shape, padding): no input channels, an empty batch, no output channels, an
# empty input padded; each went wrong somewhere (MLX: SIGFPE; torch: no output channels;
# TensorFlow: refused, or kept the input's shape for an empty batch).
CONVOLUTIONS = [
    ((2, 0, 3), (2, 0, 2), 0),
    ((0, 3, 4), (2, 3, 2), 0),
    ((1, 2, 3), (0, 2, 1), 0),
    ((2, 3, 0), (2, 3, 1), 1),
]


def test_convolutions_with_no_element_answer_as_numpy_with_the_bias_gradient(backend):
    weights = np.arange(1, 9, dtype=np.float32)
    for x_shape, w_shape, padding in CONVOLUTIONS:
        x, w = np.zeros(x_shape, np.float32), np.ones(w_shape, np.float32)
        bias = np.arange(1, w_shape[0] + 1, dtype=np.float32)
        with ivy_like.use_backend("numpy"):
            want = ivy_like.to_numpy(ivy_like.nn.conv1d(x, w, bias, padding=padding))
        args = [ivy_like.asarray(a) for a in (x, w, bias)]
        got = ivy_like.to_numpy(ivy_like.nn.conv1d(*args, padding=padding))
        np.testing.assert_array_equal(got, want, err_msg=f"{x_shape} {w_shape}")
        if not backend.has_autodiff or not want.size:
            continue
        scale = ivy_like.asarray(weights[: want.size].reshape(want.shape))

        def loss(b, x=args[0], w=args[1], padding=padding, scale=scale):
            return ivy_like.sum(ivy_like.nn.conv1d(x, w, b, padding=padding) * scale)

        # every output is the bias of its channel: the gradient sums the weights per channel
        expected = weights[: want.size].reshape(want.shape).sum(axis=(0, 2))
        np.testing.assert_allclose(ivy_like.to_numpy(ivy_like.grad(loss)(args[2])), expected)


def test_a_kernel_of_size_zero_is_refused_on_every_backend(backend):
    x = ivy_like.asarray(np.zeros((2, 0, 0), np.float32))
    with pytest.raises(ValueError, match="conv1d: the kernel's sizes must be positive"):
        ivy_like.nn.conv1d(x, x)


def test_take_of_empty_indices_from_an_empty_axis_keeps_their_shape(backend):
    # jnp.take dropped the indices' shape: (0, 0) indices into an empty vector gave (0,)
    for x_shape, i_shape, axis, want in [
        ((0, 0), (0, 0), None, (0, 0)),
        ((2, 0), (0, 3), 1, (2, 0, 3)),
        ((0, 2), (3, 0), 0, (3, 0, 2)),
    ]:
        x = ivy_like.asarray(np.zeros(x_shape, np.float32))
        got = ivy_like.take(x, ivy_like.asarray(np.zeros(i_shape, np.int32)), axis=axis)
        assert tuple(got.shape) == want, (x_shape, i_shape, axis)


# Found by comparing the crash sweep's answers with NumPy's: NumPy's and torch's max refused
# the empty axis of softmax's shift, MLX's logsumexp an empty array; numpy.roll and
# TensorFlow's roll a 0-d fftshift; NumPy's gelu returned a Python float for a 0-d input.
@pytest.mark.parametrize("shape", [(0,), (0, 0), (2, 0, 0), (3, 0)])
def test_softmax_of_an_empty_array_is_empty(backend, shape):
    x = ivy_like.asarray(np.zeros(shape, np.float32))
    for axis in (0, -1):
        assert tuple(ivy_like.nn.softmax(x, axis=axis).shape) == shape
        assert tuple(ivy_like.nn.log_softmax(x, axis=axis).shape) == shape


def test_zero_dimensional_inputs_of_the_shifts_and_gelu(backend):
    x = ivy_like.asarray(np.array(2.0, np.float32))
    for shift in (ivy_like.fft.fftshift, ivy_like.fft.ifftshift):
        assert float(shift(x)) == 2.0 and tuple(shift(x).shape) == ()
    np.testing.assert_allclose(float(ivy_like.nn.gelu(x)), 1.9544997, rtol=1e-6)


def test_arange_with_only_a_stop_keeps_its_step(backend):
    # NumPy's and torch's kernels dropped the step: arange(1041419748.0, step=2 * 10**15) made
    # 10**9 elements (8 GB, then the process was killed) where the answer has one
    assert ivy_like.to_numpy(ivy_like.arange(10, step=3)).tolist() == [0, 3, 6, 9]
    assert tuple(ivy_like.arange(1041419748.0, step=2050283429737337).shape) == (1,)


def test_a_range_against_its_step_is_empty(backend):
    # torch refused these (RuntimeError); NumPy's answer is an empty range
    for args in [(-3,), (0, -3, 1), (5, 1)]:
        assert tuple(ivy_like.arange(*args).shape) == (0,), args

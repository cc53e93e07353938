"""MLX's own ``nn.max_pool2d``/``nn.avg_pool2d`` kernels (the composite's window
stack built from MLX ops, a reshape for non-overlapping windows) must be the composites bit
for bit: values, gradients (a max's tie shares its gradient), NaN and infinities, dtypes and
errors."""

from __future__ import annotations

import numpy as np
import pytest

import ivy_like
from ivy_like.core.registry import OPS

mx = pytest.importorskip("mlx.core")

OPS_ = ["max_pool2d", "avg_pool2d"]
LAYOUTS = ["NCHW", "NHWC"]
# (NCHW shape, kernel_size, stride, padding): tiling windows, cropped edges, overlapping and
# spaced windows, rectangular kernels and padding on one axis only.
GEOMETRIES = [
    ((2, 3, 8, 8), 2, None, 0),
    ((2, 3, 7, 9), 2, None, 0),
    ((1, 2, 8, 6), 2, 2, 1),
    ((2, 2, 7, 7), 3, 1, 1),
    ((2, 2, 9, 8), 3, 2, 0),
    ((1, 3, 8, 8), 2, 3, 0),
    ((2, 1, 9, 7), (2, 3), (1, 2), (1, 0)),
    ((1, 2, 6, 6), (3, 2), None, (0, 1)),
    ((1, 1, 5, 5), 1, None, 0),
    ((0, 2, 6, 6), 2, None, 0),
]


def _composite(op, *args):
    """The composite as a backend without the kernel runs it: the op's check, then its body."""
    spec = OPS[f"nn.{op}"]
    with ivy_like.use_backend("mlx"):
        spec.check(*args)
        return spec.declaration(*args)


def _kernel(op, *args):
    with ivy_like.use_backend("mlx"):
        return getattr(ivy_like.nn, op)(*args)


def _input(shape, layout, seed=0):
    """Rounded normals: many ties inside windows, all-equal windows among them."""
    values = np.round(np.random.default_rng(seed).standard_normal(shape)).astype(np.float32)
    return mx.array(values.transpose(0, 2, 3, 1) if layout == "NHWC" else values)


def _grad(fn, x, cotangent):
    with ivy_like.use_backend("mlx"):
        return ivy_like.grad(lambda z: ivy_like.sum(fn(z) * cotangent))(x)


def _assert_same(got, expected):
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(np.array(got), np.array(expected))  # NaN equal to NaN


def test_the_mlx_backend_has_its_own_pooling_kernels():
    backend = ivy_like.get_backend("mlx")
    for op in OPS_:
        # The backend's attribute runs the op's declared check, then this kernel.
        assert backend.kernels[f"nn_{op}"].__module__ == "ivy_like.backends.mlx.nn"
        assert getattr(backend, f"nn_{op}").__wrapped__ is backend.kernels[f"nn_{op}"]


@pytest.mark.parametrize("op", OPS_)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("geometry", GEOMETRIES, ids=str)
def test_values_and_gradients_are_the_composites(op, layout, geometry):
    shape, kernel, stride, padding = geometry
    x = _input(shape, layout)
    args = (kernel, stride, padding, layout)
    expected = _composite(op, x, *args)
    _assert_same(_kernel(op, x, *args), expected)
    cotangent = mx.array(np.random.default_rng(1).standard_normal(expected.shape), mx.float32)
    _assert_same(
        _grad(lambda z: _kernel(op, z, *args), x, cotangent),
        _grad(lambda z: _composite(op, z, *args), x, cotangent),
    )


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_max_tie_shares_the_gradient_as_the_composite_does(layout):
    window = np.array([[1.0, 1.0], [1.0, 0.0]], np.float32)  # three tied maxima
    x = np.zeros((1, 1, 4, 4), np.float32)
    x[0, 0, :2, :2] = window
    x[0, 0, 2:, 2:] = window.T
    x = mx.array(x.transpose(0, 2, 3, 1) if layout == "NHWC" else x)
    got = _grad(lambda z: _kernel("max_pool2d", z, 2, None, 0, layout), x, 1.0)
    expected = _grad(lambda z: _composite("max_pool2d", z, 2, None, 0, layout), x, 1.0)
    _assert_same(got, expected)
    shares = np.array(got).reshape(4, 4)  # C is 1: both layouts read the same
    np.testing.assert_allclose(shares[:2, :2], window / 3, rtol=1e-6)
    np.testing.assert_allclose(shares[2:, :2], 0.25)  # an all-zero window: four ways


@pytest.mark.parametrize("op", OPS_)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("geometry", [((2, 2, 6, 6), 2, None, 0), ((1, 2, 7, 7), 3, 2, 1)])
def test_nan_and_infinities_are_the_composites(op, layout, geometry):
    shape, kernel, stride, padding = geometry
    values = np.random.default_rng(2).standard_normal(shape).astype(np.float32)
    flat = values.reshape(-1)
    flat[::7], flat[3::11], flat[5::13] = np.nan, -np.inf, np.inf
    values[0, 0, :3, :3] = -np.inf  # a window of minus infinities only
    x = mx.array(values.transpose(0, 2, 3, 1) if layout == "NHWC" else values)
    args = (kernel, stride, padding, layout)
    expected = _composite(op, x, *args)
    _assert_same(_kernel(op, x, *args), expected)
    cotangent = mx.array(np.random.default_rng(3).standard_normal(expected.shape), mx.float32)
    _assert_same(
        _grad(lambda z: _kernel(op, z, *args), x, cotangent),
        _grad(lambda z: _composite(op, z, *args), x, cotangent),
    )


@pytest.mark.parametrize("op", OPS_)
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("padding", [0, 1])
def test_half_precision_values_are_the_composites(op, dtype, padding):
    x = _input((2, 3, 6, 6), "NCHW").astype(getattr(mx, dtype)) * 0.37
    expected = _composite(op, x, 2, None, padding, "NCHW")
    got = _kernel(op, x, 2, None, padding, "NCHW")
    assert got.dtype == expected.dtype
    assert mx.array_equal(got, expected).item()


@pytest.mark.parametrize("dtype", ["int32", "uint8", "bool_"])
@pytest.mark.parametrize("padding", [0, 1])
def test_integer_and_bool_inputs_are_the_composites(dtype, padding):
    x = mx.arange(2 * 2 * 6 * 6).reshape(2, 2, 6, 6) % 7
    x = x.astype(getattr(mx, dtype))
    expected = _composite("max_pool2d", x, 2, None, padding, "NCHW")
    _assert_same(_kernel("max_pool2d", x, 2, None, padding, "NCHW"), expected)
    with pytest.raises(TypeError) as composite_error:
        _composite("avg_pool2d", x, 2, None, padding, "NCHW")
    with pytest.raises(TypeError) as kernel_error:
        _kernel("avg_pool2d", x, 2, None, padding, "NCHW")
    assert str(kernel_error.value) == str(composite_error.value)


BAD_ARGUMENTS = {
    "rank": ((3, 5, 5), 2, None, 0, "NCHW"),
    "data_format": ((1, 3, 5, 5), 2, None, 0, "NCW"),
    "zero_kernel": ((1, 3, 5, 5), 0, None, 0, "NCHW"),
    "zero_stride": ((1, 3, 5, 5), 2, (1, 0), 0, "NCHW"),
    "kernel_type": ((1, 3, 5, 5), "2", None, 0, "NCHW"),
    "kernel_length": ((1, 3, 5, 5), (2, 2, 2), None, 0, "NCHW"),
    "negative_padding": ((1, 3, 5, 5), 2, None, -1, "NCHW"),
    "padding_over_half": ((1, 3, 5, 5), 2, None, 2, "NCHW"),
    "too_small": ((1, 3, 1, 5), 2, None, 0, "NCHW"),
    "too_small_nhwc": ((1, 5, 1, 3), 2, None, 0, "NHWC"),
}


@pytest.mark.parametrize("op", OPS_)
@pytest.mark.parametrize("case", sorted(BAD_ARGUMENTS))
def test_bad_arguments_raise_the_composites_errors(op, case):
    shape, *args = BAD_ARGUMENTS[case]
    x = mx.ones(shape)
    with pytest.raises((TypeError, ValueError)) as composite_error:
        _composite(op, x, *args)
    with pytest.raises((TypeError, ValueError)) as kernel_error:
        _kernel(op, x, *args)
    assert type(kernel_error.value) is type(composite_error.value)
    assert str(kernel_error.value) == str(composite_error.value)
    assert str(kernel_error.value).startswith(f"{op}: ")


@pytest.mark.parametrize("op", OPS_)
def test_the_layouts_agree(op):
    x = _input((2, 3, 7, 8), "NCHW")
    nchw = _kernel(op, x, 3, 2, 1, "NCHW")
    nhwc = _kernel(op, mx.transpose(x, (0, 2, 3, 1)), 3, 2, 1, "NHWC")
    _assert_same(mx.transpose(nhwc, (0, 3, 1, 2)), nchw)

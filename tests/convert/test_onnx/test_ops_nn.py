"""The tricky semantics of the ONNX convolution, pooling, normalization and resize handlers
(``ops/nn.py``, ``ops/pooling.py``, ``ops/resize.py``) on every backend, each compared with
ONNX's reference evaluator on a one-node model, or with a direct NumPy computation of the
operator's definition where the reference evaluator is known to be wrong (grouped
``ConvTranspose``, ``LRN`` when batch and channels differ, BatchNormalization-9); and
gradients and compilation through a few handlers.

The handlers are called as the converter calls them (rule, then handler), without the graph
machinery, so these tests follow the handler contract of ``_table.py`` only.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

import ivy_like as il  # noqa: E402
from ivy_like.convert.onnx import ops as _ops  # noqa: E402, F401 - registers the handlers
from ivy_like.convert.onnx._table import ATTRS, OPS, Node, Refused, Value  # noqa: E402

RNG = np.random.default_rng(0)


def _rand(*shape: int, dtype: type = np.float32) -> np.ndarray:
    return RNG.standard_normal(shape).astype(dtype)


def _node(op: str, arrays: list, attrs: dict, opset: int, n_out: int) -> Node:
    ins = [None if a is None else Value(tuple(a.shape), a.dtype) for a in arrays]
    return Node(op, "n", opset, attrs, ins, [Value(None, None)] * n_out, [None] * len(arrays))


def handler_run(
    backend: il.Backend,
    op: str,
    arrays: list,
    attrs: dict | None = None,
    opset: int = 22,
    n_out: int = 1,
    known: tuple[int, ...] = (),
) -> list[np.ndarray]:
    """``op``'s rule and handler on the active backend; inputs at ``known`` positions arrive as
    NumPy values (as the converter passes shapes, scales and sizes)."""
    attrs = dict(attrs or {})
    kwargs = ATTRS[op](_node(op, arrays, attrs, opset, n_out)) if op in ATTRS else attrs
    for i, a in enumerate(arrays):
        if a is not None and i not in known and il.as_dtype(a.dtype) not in backend.DTYPES:
            pytest.skip(f"the {backend.name} backend has no {a.dtype}")
    args = [a if a is None or i in known else il.asarray(a) for i, a in enumerate(arrays)]
    out = OPS[op](*args, **kwargs)
    outs = out if isinstance(out, tuple) else (out,)
    return [np.asarray(il.to_numpy(o)) for o in outs]


def reference_run(
    op: str, arrays: list, attrs: dict | None = None, opset: int = 22, n_out: int = 1
) -> list[np.ndarray]:
    """ONNX's reference evaluator on a one-node model (an omitted input is ``None``)."""
    names = ["" if a is None else f"x{i}" for i, a in enumerate(arrays)]
    outs = [f"y{i}" for i in range(n_out)]
    node = helper.make_node(op, names, outs, **(attrs or {}))
    inputs = [
        helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
        for n, a in zip(names, arrays)
        if a is not None
    ]
    outputs = [helper.make_tensor_value_info(n, onnx.TensorProto.UNDEFINED, None) for n in outs]
    graph = helper.make_graph([node], "g", inputs, outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    feeds = {n: a for n, a in zip(names, arrays) if a is not None}
    return [np.asarray(r) for r in ReferenceEvaluator(model).run(None, feeds)]


def same(got: list[np.ndarray], want: list[np.ndarray], rtol: float = 1e-4, atol: float = 1e-5):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if w.dtype == np.int64 and il.int64 not in il.current_backend().DTYPES:
            w = w.astype(np.int32)  # index results are int32 where there is no int64 (JAX)
        assert g.dtype == w.dtype, (g.dtype, w.dtype)
        assert g.shape == w.shape, (g.shape, w.shape)
        if w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol, atol)


def check(backend, op, arrays, attrs=None, opset=22, n_out=1, known=(), rtol=1e-4, atol=1e-5):
    got = handler_run(backend, op, arrays, attrs, opset, n_out, known)
    same(got, reference_run(op, arrays, attrs, opset, n_out), rtol, atol)


# -- convolutions ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x_shape", "w_shape", "attrs"),
    [
        # 1-d, grouped, dilated, asymmetric pads
        ((2, 4, 9), (6, 2, 3), {"group": 2, "dilations": [2], "pads": [2, 0]}),
        # SAME_LOWER with a stride: the odd padding unit goes first
        ((1, 2, 6, 7), (3, 2, 2, 3), {"auto_pad": "SAME_LOWER", "strides": [2, 2]}),
        ((1, 2, 6, 7), (3, 2, 2, 3), {"auto_pad": "SAME_UPPER", "dilations": [2, 1]}),
        ((1, 2, 6, 7), (4, 1, 3, 3), {"group": 2, "auto_pad": "VALID", "strides": [1, 2]}),
        # 3-d (ivy_like's composite) with strides and pads
        ((1, 2, 5, 4, 6), (4, 2, 2, 3, 2), {"strides": [2, 1, 2], "pads": [1, 0, 1, 0, 1, 0]}),
    ],
)
def test_conv(backend, x_shape, w_shape, attrs):
    bias = _rand(w_shape[0])
    check(backend, "Conv", [_rand(*x_shape), _rand(*w_shape), bias], attrs)


def _transposed_conv(x, w, b, strides, dilations, pads, output_padding, group):
    """The transposed convolution by its definition: each input element scatters its kernel
    (in/out channels per group) to ``i * stride + k * dilation``, then the ends are cut by the
    pads (a negative pad adds zeros) and extended by output_padding."""
    sizes, kernel = x.shape[2:], w.shape[2:]
    n = len(sizes)
    c_g, m_g = x.shape[1] // group, w.shape[1]
    full = [s * (i - 1) + d * (k - 1) + 1 for s, i, d, k in zip(strides, sizes, dilations, kernel)]
    y = np.zeros((x.shape[0], group * m_g, *full))
    for g in range(group):
        xg = x[:, g * c_g : (g + 1) * c_g].astype(np.float64)
        for kk in itertools.product(*map(range, kernel)):
            wk = w[(slice(g * c_g, (g + 1) * c_g), slice(None), *kk)].astype(np.float64)
            target = tuple(
                slice(k * d, k * d + s * (i - 1) + 1, s)
                for k, d, s, i in zip(kk, dilations, strides, sizes)
            )
            y[(slice(None), slice(g * m_g, (g + 1) * m_g), *target)] += np.einsum(
                "nc...,cm->nm...", xg, wk
            )
    for a in range(n):
        lo, hi = pads[a]
        size = full[a] + output_padding[a] - lo - hi
        moved = np.moveaxis(y, 2 + a, -1)
        padded = np.pad(moved, [(0, 0)] * (moved.ndim - 1) + [(max(-lo, 0), max(size, 0))])
        start = max(lo, 0)
        y = np.moveaxis(padded[..., start : start + size], -1, 2 + a)
    if b is not None:
        y = y + b.reshape((1, -1) + (1,) * n)
    return y.astype(x.dtype)


@pytest.mark.parametrize(
    ("x_shape", "w_shape", "attrs"),
    [
        # grouped, asymmetric pads, output_padding (ONNX's reference evaluator mishandles group)
        (
            (1, 4, 3, 4),
            (4, 3, 3, 2),
            {"group": 2, "strides": [2, 3], "pads": [1, 0, 0, 2], "output_padding": [1, 2]},
        ),
        # output_shape: the pads follow, the odd unit at the start (NOTSET) or end (SAME_UPPER)
        ((1, 2, 4), (2, 3, 3), {"strides": [2], "output_shape": [6]}),
        ((1, 2, 4), (2, 3, 3), {"strides": [2], "output_shape": [10]}),
        ((1, 2, 4), (2, 3, 3), {"strides": [2], "output_shape": [6], "auto_pad": "SAME_UPPER"}),
        (
            (2, 2, 3, 3),
            (2, 1, 2, 2),
            {"strides": [2, 2], "auto_pad": "SAME_LOWER", "dilations": [2, 1]},
        ),
        # 3-d, grouped, dilated
        (
            (1, 2, 3, 2, 3),
            (2, 2, 2, 1, 2),
            {"group": 2, "strides": [1, 2, 2], "dilations": [2, 1, 1]},
        ),
    ],
)
def test_conv_transpose(backend, x_shape, w_shape, attrs):
    x, w, b = _rand(*x_shape), _rand(*w_shape), _rand(w_shape[1] * attrs.get("group", 1))
    got = handler_run(backend, "ConvTranspose", [x, w, b], attrs)
    n = len(x_shape) - 2
    strides = attrs.get("strides", [1] * n)
    dilations = attrs.get("dilations", [1] * n)
    out_pad = attrs.get("output_padding", [0] * n)
    if "pads" in attrs:
        pads = [(attrs["pads"][a], attrs["pads"][a + n]) for a in range(n)]
    elif "output_shape" not in attrs and "auto_pad" not in attrs:
        pads = [(0, 0)] * n
    else:  # ONNX's rule: total padding from the wanted output shape
        target = attrs.get("output_shape", [i * s for i, s in zip(x_shape[2:], strides)])
        pads = []
        for a in range(n):
            reach = dilations[a] * (w_shape[2 + a] - 1) + 1
            total = strides[a] * (x_shape[2 + a] - 1) + out_pad[a] + reach - target[a]
            small, big = total // 2, total - total // 2
            pads.append((small, big) if attrs.get("auto_pad") == "SAME_UPPER" else (big, small))
    want = _transposed_conv(x, w, b, strides, dilations, pads, out_pad, attrs.get("group", 1))
    same(got, [want])
    if attrs.get("group", 1) == 1 and "output_shape" in attrs and attrs["output_shape"][0] > 8:
        same(got, reference_run("ConvTranspose", [x, w, b], attrs))  # the reference agrees here


def test_col2im(backend):
    x = _rand(2, 2 * 6, 15)  # 2 channels of 3x2 blocks; 5x3 block positions
    image, block = np.array([5, 6]), np.array([3, 2])
    attrs = {"strides": [1, 2], "pads": [1, 0, 1, 1], "dilations": [1, 1]}
    check(backend, "Col2Im", [x, image, block], attrs, opset=18, known=(1, 2))


def test_deform_conv(backend):
    # grouped, two offset groups, offsets reaching past the edges, a mask and a bias
    x, w = _rand(1, 4, 4, 5), _rand(4, 2, 2, 2)
    attrs = {
        "group": 2,
        "offset_group": 2,
        "strides": [1, 2],
        "dilations": [2, 1],
        "pads": [1, 0, 0, 1],
    }
    offset = _rand(1, 2 * 2 * 4, 3, 3) * 2
    mask = RNG.random((1, 2 * 4, 3, 3)).astype(np.float32)
    check(backend, "DeformConv", [x, w, offset, _rand(4), mask], attrs, opset=19, atol=1e-4)


def test_quantized_convolutions(backend):
    x = RNG.integers(-100, 100, (1, 2, 5, 5)).astype(np.int8)
    w = RNG.integers(-100, 100, (3, 2, 3, 3)).astype(np.int8)
    per_channel = [np.array([0.01, 0.02, 0.03], np.float32), np.zeros(3, np.int8)]
    inputs = [
        x,
        np.array(0.05, np.float32),
        np.array(3, np.int8),
        w,
        *per_channel,
        np.array(0.7, np.float32),
        np.array(-5, np.int8),
        RNG.integers(-500, 500, 3).astype(np.int32),
    ]
    check(backend, "QLinearConv", inputs, {"pads": [1, 1, 1, 1], "strides": [2, 1]}, opset=10)
    xu, wu = x.astype(np.uint8), w.astype(np.uint8)
    zero_points = [np.array(7, np.uint8), np.array([1, 2, 3], np.uint8)]
    check(backend, "ConvInteger", [xu, wu, *zero_points], {"pads": [1, 0, 1, 0]}, opset=10)


# -- pooling --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "attrs"),
    [
        ((1, 2, 5, 6), {"kernel_shape": [3, 2], "pads": [1, 0, 1, 1], "strides": [2, 2]}),
        ((1, 2, 5, 6), {"kernel_shape": [2, 2], "strides": [2, 2], "storage_order": 1}),
        (
            (2, 1, 6, 5, 7),
            {
                "kernel_shape": [2, 2, 3],
                "strides": [2, 1, 2],
                "dilations": [1, 2, 1],
                "ceil_mode": 1,
            },
        ),
    ],
)
def test_max_pool_with_indices(backend, shape, attrs):
    x = _rand(*shape)
    check(backend, "MaxPool", [x], attrs, n_out=2)
    check(backend, "MaxPool", [x], attrs)  # values only: another path on 2-d inputs


def test_max_pool_integers_pad_with_their_least_value(backend):
    x = -np.arange(1, 26, dtype=np.int8).reshape(1, 1, 5, 5)  # all negative: a 0 pad would win
    got = handler_run(backend, "MaxPool", [x], {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]})
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-128)
    want = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(2, 3)).max((-2, -1))
    same(got, [want])


@pytest.mark.parametrize("count_include_pad", [0, 1])
@pytest.mark.parametrize(
    "attrs",
    [
        {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1], "strides": [2, 2], "ceil_mode": 1},
        {"kernel_shape": [2, 3], "pads": [0, 1, 1, 0], "dilations": [2, 1]},
        {"kernel_shape": [3], "auto_pad": "SAME_LOWER", "strides": [2]},
    ],
)
def test_average_pool_divisors(backend, attrs, count_include_pad):
    x = _rand(1, 2, 7, 6) if len(attrs["kernel_shape"]) == 2 else _rand(1, 2, 8)
    check(backend, "AveragePool", [x], {**attrs, "count_include_pad": count_include_pad})


def test_lp_pool_pads_count_as_zero(backend):
    attrs = {"kernel_shape": [2, 3], "pads": [1, 1, 0, 1], "p": 3, "strides": [1, 2]}
    check(backend, "LpPool", [_rand(1, 2, 4, 5)], attrs, opset=18)


def test_global_pools(backend):
    x = _rand(2, 3, 4, 5)
    check(backend, "GlobalAveragePool", [x])
    check(backend, "GlobalMaxPool", [x])


def test_max_unpool_puts_the_maxima_back(backend):
    # an odd size: only output_shape tells the unpooling the pooled input had 5 columns
    x = _rand(1, 2, 4, 5)
    attrs = {"kernel_shape": [2, 2], "strides": [2, 2]}
    values, indices = handler_run(backend, "MaxPool", [x], attrs, n_out=2)
    shape = np.array(x.shape)
    got = handler_run(backend, "MaxUnpool", [values, indices, shape], attrs, known=(1, 2))[0]
    want = np.zeros(x.size, np.float32)
    want[indices.reshape(-1)] = values.reshape(-1)
    np.testing.assert_array_equal(got, want.reshape(x.shape))


# -- normalizations -------------------------------------------------------------------------------


def test_layer_normalization_with_mean_and_inv_std_dev(backend):
    x, scale, bias = _rand(2, 3, 4), _rand(3, 4), _rand(3, 4)
    check(backend, "LayerNormalization", [x, scale, bias], {"axis": 1}, opset=17, n_out=3)
    check(backend, "LayerNormalization", [x, _rand(4)], {"epsilon": 0.1}, opset=17)


def test_layer_normalization_of_float16_computes_in_float32(backend):
    x = (_rand(2, 8) * 30).astype(np.float16)
    scale = np.ones(8, np.float16)
    got = handler_run(backend, "LayerNormalization", [x, scale], {}, opset=17)[0]
    x64 = x.astype(np.float64)
    want = (x64 - x64.mean(1, keepdims=True)) / np.sqrt(x64.var(1, keepdims=True) + 1e-5)
    assert got.dtype == np.float16
    np.testing.assert_allclose(got, want, atol=2e-3)


@pytest.mark.parametrize("opset", [18, 21])
def test_group_normalization_scale_per_group_then_per_channel(backend, opset):
    x = _rand(2, 6, 3)
    params = 3 if opset == 18 else 6  # opset 18: one scale per group; 21: per channel
    check(
        backend,
        "GroupNormalization",
        [x, _rand(params), _rand(params)],
        {"num_groups": 3},
        opset=opset,
    )


def test_instance_and_rms_normalization(backend):
    check(backend, "InstanceNormalization", [_rand(2, 3, 5), _rand(3), _rand(3)], {"epsilon": 0.01})
    check(backend, "RMSNormalization", [_rand(2, 3, 4), _rand(3, 4)], {"axis": 1}, opset=23)


@pytest.mark.parametrize("opset", [9, 15])
def test_batch_normalization_at_inference(backend, opset):
    x = _rand(2, 3, 4)
    params = [_rand(3), _rand(3), _rand(3), np.abs(_rand(3)) + 0.1]
    if opset == 15:  # x float16 with float32 statistics: cast to x's type
        x = x.astype(np.float16)
    got = handler_run(backend, "BatchNormalization", [x, *params], {"epsilon": 1e-3}, opset)
    s, b, m, v = (p.reshape(1, 3, 1).astype(np.float64) for p in params)
    want = (x.astype(np.float64) - m) / np.sqrt(v + 1e-3) * s + b
    assert got[0].dtype == x.dtype
    np.testing.assert_allclose(got[0], want, rtol=1e-2 if opset == 15 else 1e-5, atol=1e-2)


def test_batch_normalization_training_is_refused():
    x = _rand(2, 3)
    node = _node("BatchNormalization", [x] + [_rand(3)] * 4, {"training_mode": 1}, 15, 3)
    with pytest.raises(Refused, match="training_mode"):
        ATTRS["BatchNormalization"](node)


@pytest.mark.parametrize("size", [3, 4])
def test_lrn_window_over_channels(backend, size):
    x = _rand(2, 5, 3)
    attrs = {"size": size, "alpha": 0.1, "beta": 0.6, "bias": 1.5}
    got = handler_run(backend, "LRN", [x], attrs, opset=13)[0]
    back, ahead = (size - 1) // 2, size // 2  # floor((size-1)/2) back, ceil((size-1)/2) on
    sq = x.astype(np.float64) ** 2
    sums = np.stack([sq[:, max(0, c - back) : c + ahead + 1].sum(1) for c in range(5)], 1)
    want = x / (1.5 + 0.1 / size * sums) ** 0.6
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


# -- resizing -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attrs", "scales", "sizes"),
    [
        ({"mode": "linear", "antialias": 1}, [1, 1, 0.6, 0.5], None),
        ({"mode": "cubic", "antialias": 1, "cubic_coeff_a": -0.5}, None, [1, 2, 3, 3]),
        (
            {"mode": "cubic", "exclude_outside": 1, "coordinate_transformation_mode": "asymmetric"},
            [1, 1, 1.7, 2.0],
            None,
        ),
        (
            {"mode": "linear", "coordinate_transformation_mode": "align_corners"},
            [1, 1, 0.6, 1.5],
            None,
        ),
        (
            {"mode": "linear", "coordinate_transformation_mode": "pytorch_half_pixel"},
            None,
            [1, 2, 1, 7],
        ),
        (
            {"mode": "linear", "coordinate_transformation_mode": "half_pixel_symmetric"},
            [1, 1, 1.5, 0.75],
            None,
        ),
        ({"mode": "nearest", "nearest_mode": "round_prefer_ceil"}, [1, 1, 2.5, 0.5], None),
        (
            {
                "mode": "nearest",
                "nearest_mode": "ceil",
                "coordinate_transformation_mode": "align_corners",
            },
            None,
            [1, 2, 7, 3],
        ),
        (
            {"mode": "nearest", "axes": [3, 2], "keep_aspect_ratio_policy": "not_smaller"},
            None,
            [7, 2],
        ),
        ({"mode": "cubic", "axes": [3], "keep_aspect_ratio_policy": "not_larger"}, None, [3]),
    ],
)
def test_resize(backend, attrs, scales, sizes):
    x = _rand(1, 2, 4, 5)
    inputs = [x, None, None if scales is None else np.array(scales, np.float32)]
    if sizes is not None:
        inputs.append(np.array(sizes, np.int64))
    check(backend, "Resize", inputs, attrs, opset=19, known=(1, 2, 3), rtol=1e-4, atol=1e-4)


def test_resize_tf_crop_and_resize_extrapolates(backend):
    x = _rand(1, 1, 4, 5)
    roi = np.array([0.1, -0.2, 0.9, 0.7], np.float32)  # axes 2 and 3, the width from outside
    attrs = {
        "mode": "linear",
        "coordinate_transformation_mode": "tf_crop_and_resize",
        "extrapolation_value": 5.0,
        "axes": [2, 3],
    }
    check(
        backend,
        "Resize",
        [x, roi, None, np.array([3, 6], np.int64)],
        attrs,
        opset=19,
        known=(1, 2, 3),
    )


def test_resize_of_integers(backend):
    x = RNG.integers(0, 255, (1, 1, 3, 4)).astype(np.uint8)
    check(
        backend,
        "Resize",
        [x, None, np.array([1, 1, 2, 1.5], np.float32)],
        {"mode": "nearest"},
        opset=13,
        known=(1, 2),
    )
    sizes = np.array([1, 1, 5, 6], np.int64)  # ties are rare: rounded as the reference does
    got = handler_run(
        backend, "Resize", [x, None, None, sizes], {"mode": "linear"}, 13, known=(1, 2, 3)
    )[0]
    want = reference_run("Resize", [x, None, None, sizes], {"mode": "linear"}, 13)[0]
    assert got.dtype == np.uint8
    assert np.abs(got.astype(int) - want.astype(int)).max() <= 1


def test_resize_11_takes_sizes_beside_empty_scales(backend):
    x, empty = _rand(1, 2, 3, 4), np.zeros(0, np.float32)
    check(
        backend,
        "Resize",
        [x, empty, empty, np.array([1, 2, 5, 3], np.int64)],
        {"mode": "linear"},
        opset=11,
        known=(1, 2, 3),
    )


def test_upsample_and_resize_10_use_asymmetric_floor(backend):
    x = _rand(1, 1, 2, 3)
    scales = np.array([1, 1, 2, 1.5], np.float32)
    got = handler_run(backend, "Upsample", [x, scales], {"mode": "nearest"}, 9, known=(1,))[0]
    want = x[:, :, [0, 0, 1, 1]][:, :, :, [0, 0, 1, 2]]  # floor(i / scale)
    np.testing.assert_array_equal(got, want)
    again = handler_run(backend, "Resize", [x, scales], {"mode": "nearest"}, 10, known=(1,))[0]
    np.testing.assert_array_equal(again, want)


def test_resize_refusals():
    x = _rand(1, 1, 2, 2)
    with pytest.raises(Refused, match="mode"):
        ATTRS["Resize"](_node("Resize", [x], {"mode": "area"}, 19, 1))
    with pytest.raises(Refused, match="half_pixel_symmetric"):
        attrs = {"coordinate_transformation_mode": "half_pixel_symmetric"}
        ATTRS["Resize"](_node("Resize", [x], attrs, 18, 1))


# -- gradients and compilation --------------------------------------------------------------------


@pytest.mark.requires("autodiff")
def test_gradients_of_linear_handlers(backend):
    """ConvTranspose and a linear Resize are linear in x: the gradient of ``sum(r * f(x))``
    is the adjoint applied to ``r``, so ``<grad, x> == <r, f(x)>``."""
    x, w = _rand(1, 2, 5, 6), _rand(2, 3, 3, 3)
    fns = [
        lambda v: OPS["ConvTranspose"](v, il.asarray(w), strides=(2, 1), pads=(1, 0, 0, 1)),
        lambda v: OPS["Resize"](
            v, None, np.array([1, 1, 1.5, 0.5], np.float32), mode="linear", antialias=True
        ),
    ]
    for f in fns:
        y = np.asarray(il.to_numpy(f(il.asarray(x))))
        r = _rand(*y.shape)
        g = il.grad(lambda v, f=f, r=r: il.sum(f(v) * il.asarray(r)))(il.asarray(x))
        g = np.asarray(il.to_numpy(g))
        np.testing.assert_allclose((g * x).sum(), (r * y).sum(), rtol=1e-4)


def test_handlers_compile_without_value_branches(backend):
    if backend.name == "torch":
        pytest.skip("torch.compile takes seconds; the other backends trace the same code")
    x, w, offset = _rand(1, 2, 5, 6), _rand(2, 2, 2, 2), _rand(1, 8, 4, 5)

    def f(v):
        values, indices = OPS["MaxPool"](
            v, kernel_shape=(3, 3), pads=(1, 1, 1, 1), strides=(2, 2), outputs=2
        )
        grown = OPS["Resize"](v, None, None, np.array([1, 2, 7, 4]), mode="cubic")
        moved = OPS["DeformConv"](v, il.asarray(w), il.asarray(offset))
        return values, indices, grown, moved

    eager = [np.asarray(il.to_numpy(r)) for r in f(il.asarray(x))]
    compiled = [np.asarray(il.to_numpy(r)) for r in il.compile(f)(il.asarray(x))]
    for a, b in zip(eager, compiled):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)

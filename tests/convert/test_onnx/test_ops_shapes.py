"""The ONNX shape and indexing handlers (``ops/shapes.py``, ``ops/indexing.py``) on their tricky
semantics, each compared with ONNX's reference evaluator on a one-node model on every backend:
opset-dependent inputs, Slice's clamping and negative steps, Pad's modes and negative pads,
scatter reductions with repeated indices, GatherND's batch dimensions, NumPy in -> NumPy out
for shape arithmetic, tracing, and gradients through a scatter and a slice."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

import ivy_like as il  # noqa: E402
from ivy_like.convert.onnx import ops as _ops  # noqa: E402, F401  (registers the handlers)
from ivy_like.convert.onnx._table import ATTRS, OPS, Node, Refused, Value, has_dtype  # noqa: E402

BACKENDS = [
    b for b in ("numpy", "jax", "torch", "tensorflow", "mlx") if b in il.available_backends()
]
AUTODIFF = [b for b in ("torch", "jax") if b in il.available_backends()]
RNG = np.random.default_rng(0)
INT_MAX, INT_MIN = 2**63 - 1, -(2**63)


def f32(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def i64(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int64)


def _narrow(x: np.ndarray) -> np.ndarray:
    """What the converter gives a backend without int64 (JAX without 64-bit mode)."""
    if x.dtype == np.int64 and not has_dtype("int64"):
        return x.astype(np.int32)
    return x


def _decoded(attrs: dict) -> dict:
    return {
        k: numpy_helper.to_array(v) if isinstance(v, onnx.TensorProto) else v
        for k, v in attrs.items()
    }


def handler_call(op: str, inputs: list, attrs: dict, opset: int, outputs: int, host: tuple = ()):
    """Call the registered handler as the converter does: the table's rule (or the attributes
    as they are), inputs as arrays of the active backend (those at ``host`` as NumPy)."""
    node = Node(
        op,
        "n",
        opset,
        _decoded(attrs),
        [None if x is None else Value(x.shape, x.dtype) for x in inputs],
        [Value(None, None)] * outputs,
        [None] * len(inputs),
    )
    kwargs = ATTRS[op](node) if op in ATTRS else node.attrs
    args = [
        None if x is None else (x if k in host else il.asarray(_narrow(x)))
        for k, x in enumerate(inputs)
    ]
    out = OPS[op](*args, **kwargs)
    return out if isinstance(out, tuple) else (out,)


def reference(op: str, inputs: list, attrs: dict, opset: int, outputs: int) -> list:
    names = ["" if x is None else f"i{k}" for k, x in enumerate(inputs)]
    while names and names[-1] == "":
        names.pop()
    outs = [f"o{k}" for k in range(outputs)]
    node = helper.make_node(op, names, outs, **attrs)
    graph = helper.make_graph(
        [node],
        "g",
        [
            helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(x.dtype), x.shape)
            for n, x in zip(names, inputs)
            if n
        ],
        [helper.make_empty_tensor_value_info(o) for o in outs],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    feeds = {n: x for n, x in zip(names, inputs) if n}
    return ReferenceEvaluator(model).run(None, feeds)


def check(
    engine: str,
    op: str,
    inputs: list,
    attrs: dict | None = None,
    opset: int = 18,
    outputs: int = 1,
    host: tuple = (),
) -> None:
    attrs = attrs or {}
    expected = reference(op, inputs, attrs, opset, outputs)
    with il.use_backend(engine):
        got = handler_call(op, inputs, attrs, opset, outputs, host)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            # A known value (Shape's, Constant's) is NumPy with ONNX's dtype on every backend;
            # an array has the backend's (int32 for int64 on JAX without 64-bit mode).
            e = np.asarray(e) if isinstance(g, np.ndarray) else _narrow(np.asarray(e))
            g = np.asarray(il.to_numpy(g))
            assert g.shape == e.shape, (g.shape, e.shape)
            assert g.dtype == e.dtype, (g.dtype, e.dtype)
            np.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-6)


backends = pytest.mark.parametrize("engine", BACKENDS)


# --- shapes ----------------------------------------------------------------------------------


@backends
@pytest.mark.parametrize(
    ("starts", "ends", "axes", "steps"),
    [
        (i64(1, INT_MIN), i64(INT_MAX, 1), i64(0, 2), i64(1, 1)),  # clamped to the ends
        (i64(INT_MAX, -1), i64(INT_MIN, 0), i64(1, -1), i64(-1, -2)),  # backwards to the start
        (i64(-100, 10), i64(100, -100), i64(0, 1), i64(2, -3)),  # out of range both ways
        (i64(2), i64(1), None, None),  # empty: end before start
    ],
)
def test_slice_clamping_and_negative_steps(engine, starts, ends, axes, steps):
    # Integer constants reach a handler as NumPy (INT_MAX does not fit JAX's int32).
    inputs = [f32(4, 5, 6), starts, ends, axes, steps]
    check(engine, "Slice", inputs, opset=13, host=(1, 2, 3, 4))


@backends
def test_slice_attributes_before_opset_10(engine):
    attrs = {"starts": [1, -3], "ends": [INT_MAX, -1], "axes": [0, 2]}
    check(engine, "Slice", [f32(3, 4, 5)], attrs, opset=9)


@backends
def test_reshape_zero_copies_unless_allowzero(engine):
    check(engine, "Reshape", [f32(2, 3, 4), i64(0, -1, 2)], opset=13)
    check(engine, "Reshape", [f32(0, 3), i64(3, 0)], {"allowzero": 1}, opset=14)


@backends
@pytest.mark.parametrize("opset", [11, 13])
def test_squeeze_unsqueeze_axes_attribute_then_input(engine, opset):
    x = f32(1, 3, 1, 2)
    if opset < 13:
        check(engine, "Squeeze", [x], {"axes": [-2, 0]}, opset)
        check(engine, "Unsqueeze", [f32(3, 2)], {"axes": [-1, 0, 3]}, opset)
    else:
        check(engine, "Squeeze", [x, i64(-2, 0)], opset=opset)
        check(engine, "Squeeze", [x, None], opset=opset)
        check(engine, "Unsqueeze", [f32(3, 2), i64(-1, 0, 3)], opset=opset)


@backends
def test_split_across_opsets(engine):
    x = f32(7, 2)
    check(engine, "Split", [x], {"axis": 0, "split": [2, 5]}, opset=11, outputs=2)
    check(engine, "Split", [x, i64(3, 0, 4)], {"axis": 0}, opset=13, outputs=3)
    check(engine, "Split", [x], {"axis": -2, "num_outputs": 3}, opset=18, outputs=3)  # 3, 3, 1


@backends
@pytest.mark.parametrize("mode", ["constant", "reflect", "edge", "wrap"])
def test_pad_modes_and_axes(engine, mode):
    x = f32(3, 4)
    value = np.array(1.5, dtype=np.float32) if mode == "constant" else None
    check(engine, "Pad", [x, i64(2, 1, 1, 3), value], {"mode": mode}, opset=19)
    check(engine, "Pad", [x, i64(1, 2), value, i64(-1)], {"mode": mode}, opset=19)


@backends
def test_pad_attributes_before_opset_11(engine):
    check(engine, "Pad", [f32(2, 3)], {"pads": [0, 1, 2, 0], "value": -2.0}, opset=2)


@backends
@pytest.mark.parametrize("mode", ["constant", "edge", "wrap"])
def test_pad_negative_pads_crop(engine, mode):
    # ONNX's reference (np.pad) refuses negative pads; the definition crops by them.
    x = np.arange(20, dtype=np.float32).reshape(4, 5)
    with il.use_backend(engine):
        (got,) = handler_call("Pad", [x, i64(-1, 2, 1, -2), None], {"mode": mode}, 13, 1)
        got = il.to_numpy(got)
    np.testing.assert_array_equal(got, np.pad(x[1:, :-2], ((0, 1), (2, 0)), mode=mode))


@pytest.mark.parametrize("engine", [b for b in BACKENDS if b != "torch"])  # torch.compile: slow
def test_constant_value_pad_computed_at_run_time(engine):
    x, v = f32(2, 2), np.array(7.0, dtype=np.float32)
    expected = np.pad(x, 1, constant_values=7.0)
    with il.use_backend(engine):
        f = il.compile(lambda a, b: OPS["Pad"](a, np.array([1, 1, 1, 1]), b, mode="constant"))
        np.testing.assert_array_equal(il.to_numpy(f(il.asarray(x), il.asarray(v))), expected)


@backends
def test_shape_arithmetic_stays_numpy(engine):
    x = f32(2, 3, 4, 5)
    check(engine, "Shape", [x], {"start": 1, "end": -1}, opset=15)
    check(engine, "Size", [x])
    with il.use_backend("numpy"):  # the converter's shape arithmetic: NumPy in, NumPy out
        s = OPS["Shape"](x, start=-3)
        n = OPS["Concat"](s, np.array([-1], dtype=np.int64), axis=0)
        g = OPS["Gather"](n, np.array(-1, dtype=np.int64), axis=0)
        r = OPS["Range"](np.array(0, np.int64), g, np.array(1, np.int64))
    for v in (s, n, g):
        assert isinstance(v, np.ndarray) and v.dtype == np.int64
    assert isinstance(r, np.ndarray) and r.dtype == np.int64 and r.shape == (0,)


@backends
def test_expand_tile_and_flatten(engine):
    check(engine, "Expand", [f32(3, 1), i64(2, 1, 4)], opset=13)
    check(engine, "Tile", [f32(2, 3), i64(2, 1)], opset=13)
    check(engine, "Flatten", [f32(2, 3, 4)], {"axis": -1}, opset=13)
    check(engine, "Transpose", [f32(2, 3, 4)], opset=13)


@backends
def test_creation(engine):
    check(engine, "ConstantOfShape", [i64(2, 0, 3)], opset=9)
    check(
        engine,
        "ConstantOfShape",
        [i64(2)],
        {"value": numpy_helper.from_array(np.array([3], np.int32))},
        opset=9,
    )
    check(
        engine,
        "Range",
        [np.array(10, np.int32), np.array(-3, np.int32), np.array(-4, np.int32)],
        opset=11,
    )
    check(
        engine,
        "Range",
        [np.array(0.5, np.float32), np.array(2.0, np.float32), np.array(0.3, np.float32)],
        opset=11,
    )
    check(engine, "EyeLike", [f32(3, 5)], {"k": 2, "dtype": onnx.TensorProto.INT32}, opset=9)
    check(engine, "EyeLike", [f32(4, 2)], {"k": -1}, opset=9)


@backends
def test_constant_attributes(engine):
    check(engine, "Constant", [], {"value_floats": [1.0, 2.5]}, opset=13)
    check(engine, "Constant", [], {"value_int": 3}, opset=13)
    check(engine, "Constant", [], {"value": numpy_helper.from_array(f32(2, 2))}, opset=13)
    node = Node("Constant", "c", 13, {"value_strings": ["a"]})
    with pytest.raises(Refused):
        ATTRS["Constant"](node)


@backends
@pytest.mark.parametrize("mode", ["DCR", "CRD"])
def test_depth_space_round_trip(engine, mode):
    check(engine, "DepthToSpace", [f32(2, 8, 2, 3)], {"blocksize": 2, "mode": mode}, opset=13)
    check(engine, "SpaceToDepth", [f32(2, 2, 4, 6)], {"blocksize": 2, "mode": mode}, opset=28)


@backends
def test_center_crop_pad_odd_differences(engine):
    check(engine, "CenterCropPad", [f32(5, 4, 3), i64(2, 7)], {"axes": [0, -2]}, opset=18)


# --- indexing --------------------------------------------------------------------------------


@backends
def test_gathers(engine):
    x = f32(3, 4, 2)
    check(engine, "Gather", [x, i64(-1, 0, -4, 3)], {"axis": 1}, opset=13)
    index = RNG.integers(-3, 3, size=(2, 4, 2))
    check(engine, "GatherElements", [x, index], {"axis": 0}, opset=13)
    check(engine, "GatherND", [x, i64(1, -1, 0, 0).reshape(2, 1, 2)], {"batch_dims": 0}, opset=13)
    check(engine, "GatherND", [x, i64(1, 0, -1).reshape(3, 1)], {"batch_dims": 1}, opset=13)
    check(
        engine,
        "GatherND",
        [f32(2, 3, 4), i64(2, 1, 0, 3).reshape(2, 1, 2)],
        {"batch_dims": 1},
        opset=13,
    )


@backends
@pytest.mark.parametrize("reduction", ["none", "add", "mul", "max", "min"])
def test_scatter_reductions_with_repeated_indices(engine, reduction):
    data = f32(3, 4)
    if reduction == "none":  # ONNX leaves repeated writes unspecified: keep them unique
        index, nd_index, rows = i64(2, 0, -1, 1, 0, 1, 0, 3), i64(1, -3, 2, 1), i64(2, 0)
    else:
        index, nd_index, rows = i64(2, 2, -1, 1, 0, 2, 0, 3), i64(1, 1, -2, 1), i64(2, -1)
    # Indices on the device, then known at conversion (NumPy: grouped there for "mul").
    for host in ((), (1,)):
        attrs = {"axis": 1, "reduction": reduction}
        check(
            engine, "ScatterElements", [data, index.reshape(2, 4), f32(2, 4)], attrs, 18, host=host
        )
        attrs = {"reduction": reduction}
        check(engine, "ScatterND", [data, nd_index.reshape(2, 2), f32(2)], attrs, 18, host=host)
        check(engine, "ScatterND", [data, rows.reshape(2, 1), f32(2, 4)], attrs, 18, host=host)


@backends
def test_scatter_before_opset_11(engine):
    # Scatter (opsets 9, 10) is ScatterElements without a reduction; the reference has only
    # the latter.
    inputs = [f32(3, 3), i64(1, 0, 2, 0, 2, 1).reshape(2, 3), f32(2, 3)]
    expected = reference("ScatterElements", inputs, {"axis": 0}, 11, 1)[0]
    with il.use_backend(engine):
        (got,) = handler_call("Scatter", inputs, {"axis": 0}, 10, 1)
        np.testing.assert_array_equal(il.to_numpy(got), expected)


@backends
@pytest.mark.parametrize("axis", [-1, 0, -2])
def test_one_hot_negative_and_out_of_range(engine, axis):
    index = np.array([[0, -1, 5], [-6, 2, 4]], dtype=np.int64)
    values = np.array([-1.0, 3.0], dtype=np.float32)
    check(engine, "OneHot", [index, np.array(5, np.int64), values], {"axis": axis}, 11)
    check(
        engine,
        "OneHot",
        [index.astype(np.float32), np.array(3.0, np.float32), values],
        {},
        11,
    )


@backends
def test_reverse_sequence_both_layouts(engine):
    check(
        engine,
        "ReverseSequence",
        [f32(4, 3, 2), i64(4, 1, 3)],
        {"batch_axis": 1, "time_axis": 0},
        10,
    )
    check(
        engine, "ReverseSequence", [f32(3, 4), i64(0, 4, 2)], {"batch_axis": 0, "time_axis": 1}, 10
    )


@backends
@pytest.mark.parametrize("mode", ["linear", "circular"])
def test_tensor_scatter(engine, mode):
    past, update = f32(2, 3, 5, 2), f32(2, 3, 2, 2)
    write = i64(3, 1) if mode == "linear" else i64(4, 1)
    check(engine, "TensorScatter", [past, update, write], {"mode": mode}, 24)
    check(engine, "TensorScatter", [f32(2, 4, 3), f32(2, 1, 3)], {"axis": 1}, 24)


@backends
def test_compress_needs_a_known_condition(engine):
    x = f32(3, 4)
    condition = np.array([True, False, True], dtype=bool)
    check(engine, "Compress", [x, condition], {"axis": 0}, 11)
    check(engine, "Compress", [x, condition[:2]], {}, 11, host=(1,))
    if engine in ("jax", "tensorflow"):  # a traced condition has no value
        with il.use_backend(engine), pytest.raises(TypeError, match="known"):
            f = il.compile(lambda a, c: OPS["Compress"](a, c, axis=1))
            f(il.asarray(x), il.asarray(np.array([True, False])))


# --- transforms ------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", [b for b in ("jax", "tensorflow") if b in BACKENDS])
def test_scatter_and_gather_compile_with_indices_on_device(engine):
    data, index, updates = f32(3, 4), i64(2, 2, 0, 1, 0, 2, 0, 3).reshape(2, 4), f32(2, 4)
    expected = reference(
        "ScatterElements", [data, index, updates], {"axis": 1, "reduction": "mul"}, 18, 1
    )[0]
    with il.use_backend(engine):
        f = il.compile(lambda d, i, u: OPS["ScatterElements"](d, i, u, axis=1, reduction="mul"))
        got = f(il.asarray(data), il.asarray(index.astype(np.int32)), il.asarray(updates))
        np.testing.assert_allclose(il.to_numpy(got), expected, rtol=1e-6)


@pytest.mark.parametrize("engine", AUTODIFF)
def test_gradients_through_scatter_and_slice(engine):
    data, updates, w = f32(3, 4), f32(2, 4), f32(3, 4)
    index = np.array([[2, 0, 1, 3], [0, 1, 2, 3]], dtype=np.int32)
    with il.use_backend(engine):
        wa = il.asarray(w)

        def loss(u):
            out = OPS["ScatterElements"](il.asarray(data), il.asarray(index), u, axis=1)
            return il.sum(il.multiply(out, wa))

        g = il.to_numpy(il.grad(loss)(il.asarray(updates)))
        # each update element's gradient is the weight of the position it wrote
        expected = np.take_along_axis(w[:2], index, axis=1)
        np.testing.assert_allclose(g, expected, rtol=1e-6)

        def sliced(x):
            y = OPS["Slice"](x, i64(-1), i64(INT_MIN), i64(0), i64(-2))
            return il.sum(il.multiply(y, il.asarray(w[[2, 0]])))

        g = il.to_numpy(il.grad(sliced)(il.asarray(data)))
        expected = np.zeros_like(data)
        expected[[2, 0]] = w[[2, 0]]
        np.testing.assert_allclose(g, expected, rtol=1e-6)

"""The tricky semantics of the elementwise ONNX handlers (``ops/elementwise.py`` and
``ops/activations.py``), each compared with ONNX's reference evaluator on a one-node model,
on every backend: integer ``Div`` truncation, ``Mod``'s two sign rules, ``Pow`` of mixed dtypes,
``Cast`` (and its refusals), ``Round`` half to even, variadic ``Max``/``Min``/``Sum``/``Mean``,
``Clip``'s omitted bounds, ``BitShift`` out of range, ``Dropout`` at inference, the
activations; and gradients and compilation through a few handlers.

The handlers are called as the converter calls them (rule, then handler), without the graph
machinery, so these tests follow the handler contract of ``_table.py`` only.
"""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

import ivy_like as il  # noqa: E402
from ivy_like.convert.onnx import ops as _ops  # noqa: E402, F401 - registers the handlers
from ivy_like.convert.onnx._table import ATTRS, OPS, Node, Refused, Value  # noqa: E402

OPSET = 22


def _node(op: str, arrays: list, attrs: dict, opset: int, n_out: int, known: list) -> Node:
    ins = [None if a is None else Value(tuple(a.shape), a.dtype) for a in arrays]
    return Node(op, "n", opset, attrs, ins, [Value(None, None)] * n_out, known)


def handler_run(
    backend: il.Backend,
    op: str,
    arrays: list,
    attrs: dict | None = None,
    opset: int = OPSET,
    n_out: int = 1,
    known: list | None = None,
) -> list[np.ndarray]:
    """Run ``op``'s rule and handler on ``backend`` (the active one), as the converter would."""
    attrs = dict(attrs or {})
    node = _node(op, arrays, attrs, opset, n_out, known or [None] * len(arrays))
    kwargs = ATTRS[op](node) if op in ATTRS else attrs
    for a in arrays:
        if a is not None and il.as_dtype(a.dtype) not in backend.DTYPES:
            pytest.skip(f"the {backend.name} backend has no {a.dtype}")
    out = OPS[op](*[None if a is None else il.asarray(a) for a in arrays], **kwargs)
    outs = out if isinstance(out, tuple) else (out,)
    return [np.asarray(il.to_numpy(o)) for o in outs]


def reference_run(
    op: str, arrays: list, attrs: dict | None = None, opset: int = OPSET, n_out: int = 1
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


def check(
    backend: il.Backend, op: str, arrays: list, attrs=None, opset=OPSET, rtol=1e-6, atol=1e-6
):
    got = handler_run(backend, op, arrays, attrs, opset)
    want = reference_run(op, arrays, attrs, opset)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype, (g.dtype, w.dtype)
        assert g.shape == w.shape
        if w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol, atol)


# -- arithmetic -----------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8])
def test_integer_div_truncates_toward_zero(backend, dtype):
    a = np.array([7, -7, 7, -7, 6, -6, 0, 100])
    b = np.array([2, 2, -2, -2, 3, -4, 5, -3])
    if dtype == np.uint8:
        a, b = np.abs(a), np.abs(b)
    check(backend, "Div", [a.astype(dtype), b.astype(dtype)])


def test_int64_div_is_exact_beyond_float_precision(backend):
    a = np.array([2**62 + 1, -(2**62) - 3], np.int64)
    b = np.array([3, 7], np.int64)
    check(backend, "Div", [a, b])


@pytest.mark.parametrize("fmod", [0, 1])
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.float32, np.float64])
def test_mod_sign_rules(backend, fmod, dtype):
    a = np.array([7, -7, 7, -7, 6, -6, 0, 5], dtype)
    b = np.array([3, 3, -3, -3, 3, -4, 2, 7], dtype)
    if np.issubdtype(dtype, np.floating):  # opset 28 allows fmod=0 for floats too
        a = a + np.array([0.5, -0.25, 0.75, -0.5, 0, 0, 0, 0.125], dtype)
    check(backend, "Mod", [a, b], {"fmod": fmod}, opset=28)


def test_fmod_of_the_smallest_integer(backend):
    a = np.array([-128, -128, 127, -127, 5, -5, 0, 100], np.int8)
    b = np.array([3, -5, -4, 3, 7, 3, -1, -7], np.int8)
    check(backend, "Mod", [a, b], {"fmod": 1})


@pytest.mark.parametrize(
    ("base", "exponent"),
    [
        (np.float32, np.int64),
        (np.float32, np.int32),
        (np.int32, np.float32),
        (np.int64, np.int64),
        (np.float16, np.float32),
        (np.float32, np.float16),
    ],
)
def test_pow_keeps_the_base_dtype(backend, base, exponent):
    x = np.array([1, 2, 3, 4, 5, 6, 7, 8], base)
    y = np.array([3, 2, 1, 2, 0, 1, 2, 3], exponent)
    check(backend, "Pow", [x, y], rtol=1e-3)


@pytest.mark.parametrize("op", ["Max", "Min", "Sum", "Mean"])
def test_variadic_ops_broadcast(backend, op):
    rng = np.random.default_rng(0)
    # the first has the full shape: the reference's Mean adds in place into it
    xs = [rng.standard_normal(s).astype(np.float32) for s in [(3, 4), (3, 1), (4,)]]
    check(backend, op, xs)
    check(backend, op, xs[:1])


def test_variadic_max_of_integers(backend):
    xs = [np.array([[1, -5]], np.int16), np.array([[3], [-7]], np.int16)]
    check(backend, "Max", xs)
    check(backend, "Min", xs)


def test_round_is_half_to_even(backend):
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, -2.6, 3.5000002], np.float32)
    check(backend, "Round", [x])


# -- Clip -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lo", "hi"), [(-1.0, 1.0), (None, 0.5), (-0.5, None), (None, None), (2.0, 1.0)]
)
def test_clip_with_omitted_bounds(backend, lo, hi):
    x = np.linspace(-3.5, 3.5, 8).astype(np.float32)
    args = [x, None if lo is None else np.float32(lo), None if hi is None else np.float32(hi)]
    while args[-1] is None:
        args.pop()
    check(backend, "Clip", [np.asarray(a) if a is not None else None for a in args])


def test_clip_integers_and_attribute_bounds(backend):
    x = np.array([-128, -5, -3, 0, 3, 5, 9, 127], np.int8)
    check(backend, "Clip", [x, np.array(-4, np.int8)])
    check(backend, "Clip", [x, None, np.array(4, np.int8)])
    f = np.linspace(-3.5, 3.5, 8).astype(np.float32)
    check(backend, "Clip", [f], {"min": -1.5, "max": 2.0}, opset=9)
    check(backend, "Clip", [f], {"max": 0.0}, opset=9)


# -- bit shifts -----------------------------------------------------------------------------------


@pytest.mark.parametrize("direction", ["LEFT", "RIGHT"])
@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int32])
def test_bitshift_out_of_range_counts(backend, direction, dtype):
    bits = np.iinfo(dtype).bits
    x = np.array([1, 3, 64, 100, 5, 7, 9, 2])
    y = np.array([0, 1, 1, 3, bits - 1, bits, bits + 3, 2])
    if np.issubdtype(dtype, np.signedinteger):  # negative numbers and counts too
        x = np.array([1, -1, 64, -100, -100, 7, 5, -9])
        y = np.array([0, 2, 1, 3, bits, bits - 1, -1, bits + 3])
    x, y = x.astype(dtype), y.astype(dtype)
    check(backend, "BitShift", [x, y], {"direction": direction}, opset=28)


# -- casts ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("src", "to"),
    [
        (np.float32, onnx.TensorProto.INT32),
        (np.float32, onnx.TensorProto.INT8),
        (np.float32, onnx.TensorProto.UINT8),
        (np.float32, onnx.TensorProto.BOOL),
        (np.bool_, onnx.TensorProto.FLOAT),
        (np.int32, onnx.TensorProto.FLOAT16),
        (np.float16, onnx.TensorProto.FLOAT),
        (np.int32, onnx.TensorProto.INT16),
        (np.uint8, onnx.TensorProto.INT32),
    ],
)
def test_cast_numeric_and_bool(backend, src, to):
    x = np.array([0.0, 1.7, -1.7, 2.5, -0.4, 100.9, 3.0, -3.0], np.float64)
    if to == onnx.TensorProto.UINT8:
        x = np.abs(x)
    check(backend, "Cast", [x.astype(src)], {"to": to})


def test_cast_to_64_bits(backend):
    x = np.array([1.9, -2.9, 3.0, 0.0, -0.5, 7.0, 8.5, -1.0], np.float32)
    got_i = handler_run(backend, "Cast", [x], {"to": onnx.TensorProto.INT64})[0]
    got_f = handler_run(backend, "Cast", [x], {"to": onnx.TensorProto.DOUBLE})[0]
    np.testing.assert_array_equal(got_i, [1, -2, 3, 0, 0, 7, 8, -1])
    # without 64-bit types (JAX without x64) the 32-bit ones, as JAX itself gives
    assert got_i.dtype == (np.int32 if backend.name == "jax" else np.int64)
    assert got_f.dtype == (np.float32 if backend.name == "jax" else np.float64)


def test_castlike_takes_the_target_dtype(backend):
    x = np.array([1.5, -2.5, 0.0, 3.0, -1.0, 2.0, 7.5, 100.0], np.float32)
    check(backend, "CastLike", [x, np.zeros(1, np.int16)])
    check(backend, "CastLike", [x.astype(np.int32), np.zeros(1, np.float16)])


@pytest.mark.parametrize(
    ("to", "why"),
    [
        (onnx.TensorProto.FLOAT8E4M3FN, "float8e4m3fn"),
        (onnx.TensorProto.INT4, "int4"),
        (onnx.TensorProto.STRING, "string"),
    ],
)
def test_cast_refuses_targets_ivy_like_lacks(to, why):
    node = _node("Cast", [np.zeros(2, np.float32)], {"to": to}, OPSET, 1, [None])
    with pytest.raises(Refused, match=why):
        ATTRS["Cast"](node)


def test_string_inputs_are_refused():
    s = np.array(["a"], dtype=object)
    with pytest.raises(Refused, match="string"):
        ATTRS["Equal"](_node("Equal", [s, s], {}, OPSET, 1, [None, None]))


# -- activations ----------------------------------------------------------------------------------

_X = np.array([-40.0, -3.0, -1.0, -0.5, 0.0, 1.0, 3.0, 40.0], np.float32)


@pytest.mark.parametrize(
    ("op", "attrs", "opset"),
    [
        ("Relu", {}, OPSET),
        ("LeakyRelu", {"alpha": 0.2}, OPSET),
        ("ThresholdedRelu", {"alpha": 0.5}, OPSET),
        ("Elu", {"alpha": 0.7}, OPSET),
        ("Selu", {}, OPSET),
        ("Celu", {"alpha": 2.0}, OPSET),
        ("Sigmoid", {}, OPSET),
        ("HardSigmoid", {"alpha": 0.3, "beta": 0.4}, OPSET),
        ("HardSwish", {}, OPSET),
        ("Softplus", {}, OPSET),
        ("Softsign", {}, OPSET),
        ("Mish", {}, OPSET),
        ("Swish", {"alpha": 1.5}, 24),
        ("Shrink", {"bias": 0.5, "lambd": 0.75}, OPSET),
        ("Gelu", {}, 20),
        ("Gelu", {"approximate": "tanh"}, 20),
        ("Erf", {}, OPSET),
        ("Sign", {}, OPSET),
    ],
)
def test_activations(backend, op, attrs, opset):
    check(backend, op, [_X], attrs, opset, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "attrs",
    [
        {},
        {"detect_negative": 0},
        {"detect_positive": 0},
        {"detect_negative": 0, "detect_positive": 0},
    ],
)
def test_isinf_directions(backend, attrs):
    x = np.array([-np.inf, -1.0, 0.0, np.nan, 2.0, np.inf, -3e38, 3e38], np.float32)
    check(backend, "IsInf", [x], attrs)


def test_shrink_of_integers(backend):
    check(
        backend,
        "Shrink",
        [np.array([-5, -2, -1, 0, 1, 2, 3, 5], np.int32)],
        {"bias": 1.5, "lambd": 1.5},
    )


def test_prelu_broadcasts_the_slope(backend):
    x = np.arange(-12, 12, dtype=np.float32).reshape(2, 3, 4)
    check(backend, "PRelu", [x, np.array([0.1, 0.2, 0.3, 0.4], np.float32)])
    check(backend, "PRelu", [x, np.array([[0.5], [0.25], [0.125]], np.float32)])


def test_swiglu(backend):
    if not onnx.defs.has("SwiGLU"):
        pytest.skip("SwiGLU is not in the installed onnx")
    a = np.linspace(-4, 4, 12).astype(np.float32).reshape(3, 4)
    b = np.linspace(1, 2, 12).astype(np.float32).reshape(3, 4)
    check(backend, "SwiGLU", [a, b], {"alpha": 1.702}, opset=28, rtol=1e-5)


def test_where_and_comparisons(backend):
    c = np.array([[True], [False]])
    x = np.array([1, 2, 3], np.int32)
    y = np.array([[7], [8]], np.int32)
    check(backend, "Where", [c, x, y])
    for op in ("Equal", "Greater", "GreaterOrEqual", "Less", "LessOrEqual"):
        check(backend, op, [x, y])


# -- Dropout --------------------------------------------------------------------------------------


def test_dropout_at_inference_is_the_identity_with_a_mask_of_ones(backend):
    x = np.linspace(-1, 1, 6).astype(np.float32).reshape(2, 3)
    y, mask = handler_run(backend, "Dropout", [x, np.array(0.5, np.float32)], n_out=2)
    np.testing.assert_array_equal(y, x)
    assert mask.dtype == np.bool_ and mask.all() and mask.shape == x.shape
    # opset 7-9: the mask has the input's dtype
    y, mask = handler_run(backend, "Dropout", [x], {"ratio": 0.3}, opset=9, n_out=2)
    assert mask.dtype == np.float32 and (mask == 1).all()
    (y,) = handler_run(backend, "Dropout", [x])
    np.testing.assert_array_equal(y, x)


def test_dropout_refuses_training_mode():
    x = np.zeros((2, 2), np.float32)
    ratio, true = np.array(0.5, np.float32), np.array(True)
    known = _node("Dropout", [x, ratio, true], {}, OPSET, 1, [None, ratio, true])
    with pytest.raises(Refused, match="training_mode is true"):
        ATTRS["Dropout"](known)
    unknown = _node("Dropout", [x, ratio, true], {}, OPSET, 1, [None, None, None])
    with pytest.raises(Refused, match="training_mode"):
        ATTRS["Dropout"](unknown)
    zero = np.array(0.0, np.float32)  # a ratio of 0 drops nothing: allowed
    ATTRS["Dropout"](_node("Dropout", [x, zero, true], {}, OPSET, 1, [None, zero, true]))
    false = np.array(False)
    ATTRS["Dropout"](_node("Dropout", [x, ratio, false], {}, OPSET, 1, [None, ratio, false]))


# -- gradients and compilation --------------------------------------------------------------------


@pytest.mark.requires("autodiff")
@pytest.mark.parametrize(
    ("op", "attrs", "slope"),
    [
        # the exponential branch is never evaluated far right, so the gradient stays finite
        ("Elu", {"alpha": 1.0}, lambda x: np.where(x > 0, 1.0, np.exp(x))),
        ("Celu", {"alpha": 2.0}, lambda x: np.where(x > 0, 1.0, np.exp(x / 2.0))),
        ("Softplus", {}, lambda x: 1.0 / (1.0 + np.exp(-x))),
        ("Mod", {"fmod": 1}, lambda x: np.ones_like(x)),
    ],
)
def test_gradients_through_handlers(backend, op, attrs, slope):
    x = np.array([-50.0, -2.0, -1.0, -0.5, 0.5, 2.0, 5.0, 80.0], np.float32)
    fn = OPS[op]
    extra = (il.asarray(np.float32(3.0)),) if op == "Mod" else ()

    def loss(v):
        return il.sum(fn(v, *extra, **attrs))

    g = np.asarray(il.to_numpy(il.grad(loss)(il.asarray(x))))
    assert np.isfinite(g).all()
    np.testing.assert_allclose(g, slope(x.astype(np.float64)), rtol=1e-4, atol=1e-6)


def test_handlers_compile_without_value_branches(backend):
    if backend.name == "torch":
        pytest.skip("torch.compile takes seconds; the other backends trace the same code")
    a = np.array([7, -7, 7, -7], np.int32)
    b = np.array([2, 2, -2, 40], np.int32)

    def f(x, y):
        return (
            OPS["Div"](x, y),
            OPS["Mod"](x, y, fmod=1),
            OPS["BitShift"](x, y, direction="RIGHT"),
        )

    got = [np.asarray(il.to_numpy(r)) for r in il.compile(f)(il.asarray(a), il.asarray(b))]
    np.testing.assert_array_equal(got[0], [3, -3, -3, 0])
    np.testing.assert_array_equal(got[1], [1, -1, 1, -7])
    np.testing.assert_array_equal(got[2], [1, -2, 0, -1])

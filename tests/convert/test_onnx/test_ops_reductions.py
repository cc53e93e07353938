"""The tricky semantics of the reduction, softmax, product and loss ONNX handlers
(``ops/reductions.py`` and ``ops/products.py``), each compared with ONNX's reference evaluator
on a one-node model, on every backend: empty-set reductions, ``noop_with_empty_axes``, axes
as an attribute or an input by opset, integer means, ``select_last_index``, the 2-D coercion
of the softmaxes before opset 13, ``TopK``'s ties, ``CumSum``'s flags, ``Gemm``'s
broadcasting, the losses' ``ignore_index`` and weights, the windows; and gradients through two
handlers.

The handlers are called as the converter calls them (rule, then handler), without the graph
machinery, so these tests follow the handler contract of ``_table.py`` only.
"""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

import ivy_like as il  # noqa: E402
from ivy_like.convert.onnx import ops as _ops  # noqa: E402, F401 - registers the handlers
from ivy_like.convert.onnx._table import ATTRS, OPS, Node, Refused, Value  # noqa: E402

OPSET = 22


def _node(op: str, arrays: list, attrs: dict, opset: int, n_out: int) -> Node:
    ins = [None if a is None else Value(tuple(a.shape), a.dtype) for a in arrays]
    return Node(op, "n", opset, attrs, ins, [Value(None, None)] * n_out, [None] * len(arrays))


def handler_run(
    backend: il.Backend, op: str, arrays: list, attrs=None, opset=OPSET, n_out=1
) -> list[np.ndarray]:
    """Run ``op``'s rule and handler on ``backend`` (the active one), as the converter would."""
    attrs = dict(attrs or {})
    node = _node(op, arrays, attrs, opset, n_out)
    kwargs = ATTRS[op](node) if op in ATTRS else attrs
    given = []
    for a in arrays:
        if a is not None and il.as_dtype(a.dtype) not in backend.DTYPES:
            if a.dtype != np.int64:
                pytest.skip(f"the {backend.name} backend has no {a.dtype}")
            a = a.astype(np.int32)  # as the converter narrows int64 inputs (JAX without x64)
        given.append(None if a is None else il.asarray(a))
    out = OPS[op](*given, **kwargs)
    outs = out if isinstance(out, tuple) else (out,)
    return [np.asarray(il.to_numpy(o)) for o in outs]


def reference_run(op: str, arrays: list, attrs=None, opset=OPSET, n_out=1) -> list[np.ndarray]:
    """ONNX's reference evaluator on a one-node model (an omitted input is ``None``)."""
    names = ["" if a is None else f"x{i}" for i, a in enumerate(arrays)]
    outs = [f"y{i}" for i in range(n_out)]
    node = helper.make_node(op, names, outs, **(attrs or {}))
    inputs = [
        helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
        for n, a in zip(names, arrays)
        if a is not None
    ]
    outputs = [helper.make_tensor_value_info(n, TensorProto.UNDEFINED, None) for n in outs]
    graph = helper.make_graph([node], "g", inputs, outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    feeds = {n: a for n, a in zip(names, arrays) if a is not None}
    return [np.asarray(r) for r in ReferenceEvaluator(model).run(None, feeds)]


def check(backend, op, arrays, attrs=None, opset=OPSET, n_out=1, rtol=1e-5, atol=1e-6):
    got = handler_run(backend, op, arrays, attrs, opset, n_out)
    want = reference_run(op, arrays, attrs, opset, n_out)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        # ONNX's int64 indices are int32 where the backend has no int64 (JAX without x64)
        if w.dtype == np.int64 and il.int64 not in backend.DTYPES:
            w = w.astype(np.int32)
        assert g.dtype == w.dtype, (g.dtype, w.dtype)
        assert g.shape == w.shape, (g.shape, w.shape)
        if w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol, atol)


def _axes(*a: int) -> np.ndarray:
    return np.array(a, np.int64)


_R = np.random.default_rng(0)
_X3 = _R.standard_normal((2, 3, 4)).astype(np.float32)


# -- Reduce* --------------------------------------------------------------------------------------

_REDUCE = [
    "ReduceSum",
    "ReduceMean",
    "ReduceMax",
    "ReduceMin",
    "ReduceProd",
    "ReduceL1",
    "ReduceL2",
    "ReduceLogSum",
    "ReduceLogSumExp",
    "ReduceSumSquare",
]


@pytest.mark.parametrize("op", _REDUCE)
def test_reduce_axes_input_and_keepdims(backend, op):
    x = np.abs(_X3) + 0.5  # positive, for ReduceLogSum
    check(backend, op, [x, _axes(-1, 0)], {"keepdims": 0}, opset=18)
    check(backend, op, [x, _axes(1)], {}, opset=18)
    check(backend, op, [x], {"keepdims": 0}, opset=18)  # no axes: all of them


@pytest.mark.parametrize(("op", "opset"), [("ReduceSum", 11), ("ReduceMax", 13)])
def test_reduce_axes_attribute_before_the_input(backend, op, opset):
    check(backend, op, [_X3], {"axes": [2, 0], "keepdims": 0}, opset=opset)
    check(backend, op, [_X3], {}, opset=opset)


@pytest.mark.parametrize("op", _REDUCE)
def test_reduce_noop_with_empty_axes_keeps_the_elementwise_steps(backend, op):
    # ReduceLogSum gives log(x), ReduceSumSquare x**2, ReduceL2 |x|...
    x = np.abs(_X3) + 0.5
    check(backend, op, [x, _axes()], {"noop_with_empty_axes": 1}, opset=18)
    check(backend, op, [x], {"noop_with_empty_axes": 1}, opset=18)


@pytest.mark.parametrize("op", _REDUCE)
def test_reduce_of_an_empty_set(backend, op):
    # ReduceMax: -inf, ReduceMin: +inf, ReduceProd: 1, ReduceSum: 0, ReduceLogSumExp: -inf,
    # ReduceMean: 0/0, NaN (NaN positions compare equal)
    x = np.zeros((2, 0, 4), np.float32)
    check(backend, op, [x, _axes(1)], {"keepdims": 1}, opset=20)
    check(backend, op, [x, _axes(1)], {"keepdims": 0}, opset=20)


@pytest.mark.parametrize("dtype", [np.int32, np.int8, np.uint8, np.bool_])
def test_reduce_max_min_of_an_empty_set_of_integers_and_booleans(backend, dtype):
    x = np.zeros((2, 0), dtype)
    for op in ("ReduceMax", "ReduceMin"):
        got = handler_run(backend, op, [x, _axes(1)], {"keepdims": 0}, opset=20)[0]
        extreme = (
            (op == "ReduceMin")
            if dtype == np.bool_
            else (np.iinfo(dtype).max if op == "ReduceMin" else np.iinfo(dtype).min)
        )
        assert got.dtype == dtype
        np.testing.assert_array_equal(got, np.full(2, extreme, dtype))


def test_reduce_max_min_of_booleans(backend):
    x = np.array([[True, False], [False, False], [True, True]])
    check(backend, "ReduceMax", [x, _axes(1)], opset=20)
    check(backend, "ReduceMin", [x, _axes(1)], opset=20)


@pytest.mark.parametrize("op", ["ReduceSum", "ReduceProd", "ReduceMean", "ReduceSumSquare"])
@pytest.mark.parametrize("dtype", [np.int32, np.int8])
def test_integer_reductions_keep_the_dtype(backend, op, dtype):
    # the mean truncates toward zero, as NumPy's mean cast back to the integer does
    x = np.array([[-7, 2, 4], [5, -1, -3], [9, 1, 0]], dtype)
    if op == "ReduceMean" and dtype == np.int8:
        pytest.skip("ReduceMean has no int8")
    if op != "ReduceSumSquare":
        check(backend, op, [x, _axes(1)], {"keepdims": 0}, opset=18)
        return
    # the reference evaluator widens this one to int64; ONNX's output type is the input's
    (got,) = handler_run(backend, op, [x, _axes(1)], {"keepdims": 0}, opset=18)
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, np.sum(x * x, axis=1, dtype=dtype))


# -- ArgMax, ArgMin -------------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["ArgMax", "ArgMin"])
@pytest.mark.parametrize("last", [0, 1])
def test_argmax_ties_and_select_last_index(backend, op, last):
    x = np.array([[1, 3, 3, 0], [2, 2, 0, 0], [5, 5, 5, 5]], np.float32)
    check(backend, op, [x], {"axis": 1, "keepdims": 0, "select_last_index": last})
    check(backend, op, [x], {"axis": -2, "select_last_index": last})


# -- softmaxes ------------------------------------------------------------------------------------


def _coerced(op: str, x: np.ndarray, axis: int) -> np.ndarray:
    """Opset 1-12's definition: the op over the columns of ``x`` seen as a matrix of
    ``prod(shape[:axis])`` rows (ONNX's reference evaluator only has the opset-13 one)."""
    m = x.reshape(int(np.prod(x.shape[:axis])), -1).astype(np.float64)
    shifted = m - m.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    if op == "Hardmax":
        y = np.eye(m.shape[1])[m.argmax(axis=1)]
    else:
        y = log_p if op == "LogSoftmax" else np.exp(log_p)
    return y.reshape(x.shape).astype(x.dtype)


@pytest.mark.parametrize("op", ["Softmax", "LogSoftmax", "Hardmax"])
def test_softmaxes_coerce_to_2d_before_opset_13(backend, op):
    for axis in (None, 0, 2, -1):
        attrs = {} if axis is None else {"axis": axis}
        (got,) = handler_run(backend, op, [_X3], attrs, opset=11)
        want = _coerced(op, _X3, 1 if axis is None else axis % 3)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("op", ["Softmax", "LogSoftmax", "Hardmax"])
def test_softmaxes_use_one_axis_from_opset_13(backend, op):
    for attrs in ({}, {"axis": 0}, {"axis": 1}):
        check(backend, op, [_X3], attrs, opset=13)


def test_hardmax_takes_the_first_maximum(backend):
    x = np.array([[1, 4, 4, 2], [0, 0, 0, 0]], np.float32)
    check(backend, "Hardmax", [x])


def test_softmax_of_large_values(backend):
    x = np.array([[1000.0, 1001.0, 1002.0], [-1000.0, 0.0, 1000.0]], np.float32)
    check(backend, "Softmax", [x])
    # log_softmax stays finite where log(softmax) underflows to -inf (the reference's way)
    (got,) = handler_run(backend, "LogSoftmax", [x])
    np.testing.assert_allclose(got, _coerced("LogSoftmax", x, 1), rtol=1e-6, atol=1e-4)


# -- CumSum, CumProd, TopK ------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["CumSum", "CumProd"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_cumulative_flags(backend, op, dtype):
    if op == "CumProd" and not onnx.defs.has("CumProd"):
        pytest.skip("CumProd is not in the installed onnx")
    x = np.array([[1, 2, 3, -1], [2, -2, 1, 3], [1, 1, 2, 2]], dtype)
    opset = 26 if op == "CumProd" else 14
    for exclusive, reverse in ((0, 0), (1, 0), (0, 1), (1, 1)):
        attrs = {"exclusive": exclusive, "reverse": reverse}
        check(backend, op, [x, np.array(-1, np.int64)], attrs, opset=opset)
        check(backend, op, [x, np.array(0, np.int32)], attrs, opset=opset)


def test_topk_ties_keep_the_lower_index(backend):
    x = np.array([[3, 1, 3, 2], [0, 0, 5, 0], [7, 3, 3, 7]], np.int32)
    k = np.array([2], np.int64)
    for largest, axis in ((1, -1), (0, -1), (1, 0), (0, 0)):
        check(backend, "TopK", [x, k], {"axis": axis, "largest": largest}, n_out=2)
    check(backend, "TopK", [x.astype(np.float32), k], {"largest": 0}, n_out=2)


def test_topk_k_attribute_before_opset_10(backend):
    check(backend, "TopK", [_X3], {"k": 2, "axis": 1}, opset=9, n_out=2)


# -- products -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("trans_a", "trans_b"), [(0, 0), (1, 1)])
def test_gemm_broadcasts_c(backend, trans_a, trans_b):
    r = np.random.default_rng(1)
    a = r.standard_normal((4, 3) if trans_a else (3, 4)).astype(np.float32)
    b = r.standard_normal((5, 4) if trans_b else (4, 5)).astype(np.float32)
    attrs = {"alpha": 0.5, "beta": 2.0, "transA": trans_a, "transB": trans_b}
    check(backend, "Gemm", [a, b], attrs, opset=13)
    for c in [(), (5,), (3, 1), (1, 5), (3, 5)]:
        check(backend, "Gemm", [a, b, np.asarray(r.standard_normal(c), np.float32)], attrs)


def test_gemm_of_integers(backend):
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    b = np.arange(12, dtype=np.int32).reshape(3, 4) - 5
    check(backend, "Gemm", [a, b, np.array([1, 2, 3, 4], np.int32)], {"beta": 2.0}, opset=13)


def test_einsum(backend):
    r = np.random.default_rng(2)
    for equation, shapes in [
        ("ij,jk", [(2, 3), (3, 4)]),  # implicit output: the labels seen once, sorted
        ("ba,ca", [(2, 3), (4, 3)]),
        ("bij, bjk -> bik", [(2, 2, 3), (2, 3, 4)]),
        ("...ii ->...i", [(2, 3, 3)]),
        ("i,i", [(3,), (3,)]),
    ]:
        arrays = [r.standard_normal(s).astype(np.float32) for s in shapes]
        check(backend, "Einsum", arrays, {"equation": equation}, opset=12, rtol=1e-4)


@pytest.mark.parametrize("upper", [0, 1])
def test_trilu(backend, upper):
    x = np.arange(1, 25, dtype=np.int32).reshape(2, 3, 4)
    check(backend, "Trilu", [x], {"upper": upper}, opset=14)
    for k in (-1, 2, 9, -9):
        check(backend, "Trilu", [x, np.array(k, np.int64)], {"upper": upper}, opset=14)


def test_matmul_and_det(backend):
    r = np.random.default_rng(3)
    check(backend, "MatMul", [r.standard_normal(4).astype(np.float32), _X3.transpose(0, 2, 1)])
    check(backend, "Det", [r.standard_normal((2, 3, 3)).astype(np.float32)], rtol=1e-4)


# -- normalisations -------------------------------------------------------------------------------


@pytest.mark.parametrize("p", [1, 2])
def test_lp_normalization_of_a_zero_slice_is_zero(backend, p):
    x = np.array([[3.0, 4.0, 0.0], [0.0, 0.0, 0.0]], np.float32)
    check(backend, "LpNormalization", [x], {"p": p, "axis": -1})
    check(backend, "LpNormalization", [x], {"p": p, "axis": 0})
    # the L1 norm sums absolute values (the reference evaluator sums the signed ones)
    (got,) = handler_run(backend, "LpNormalization", [-x], {"p": p, "axis": -1})
    np.testing.assert_allclose(got, -handler_run(backend, "LpNormalization", [x], {"p": p})[0])


def test_lp_normalization_refuses_other_orders():
    with pytest.raises(Refused, match="p must be 1 or 2"):
        ATTRS["LpNormalization"](_node("LpNormalization", [_X3], {"p": 3}, OPSET, 1))


def test_mean_variance_normalization(backend):
    x = _R.standard_normal((2, 3, 2, 2)).astype(np.float32)
    check(backend, "MeanVarianceNormalization", [x], rtol=1e-4, atol=1e-5)
    check(backend, "MeanVarianceNormalization", [x], {"axes": [1, -1]}, rtol=1e-4, atol=1e-5)


# -- losses ---------------------------------------------------------------------------------------

_SCORES = _R.standard_normal((3, 5, 2)).astype(np.float32)
_LABELS = np.array([[0, 4], [2, -3], [-3, 1]], np.int64)  # -3: ignored (out of range)
_WEIGHTS = np.array([0.5, 1.0, 2.0, 0.25, 1.5], np.float32)


@pytest.mark.parametrize("op", ["NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss"])
@pytest.mark.parametrize("weighted", [False, True])
def test_losses_with_ignore_index_and_weights(backend, op, weighted):
    weights = [_WEIGHTS] if weighted else []
    n_out = 2 if op == "SoftmaxCrossEntropyLoss" else 1  # with log_prob
    for reduction in ("none", "sum", "mean"):
        attrs = {"reduction": reduction, "ignore_index": -3}
        check(backend, op, [_SCORES, _LABELS, *weights], attrs, opset=13, n_out=n_out)
        labels = np.abs(_LABELS)  # no ignore_index: every target counts
        check(backend, op, [_SCORES, labels, *weights], {"reduction": reduction}, opset=13)


def test_nll_mean_without_weights_divides_by_the_targets_not_ignored(backend):
    # as ONNX's function body does for any ignore_index (the reference evaluator counts the
    # ignored targets too when ignore_index is -1)
    log_p = np.log(np.array([[0.5, 0.5], [0.25, 0.75], [0.9, 0.1]], np.float32))
    labels = np.array([1, -1, 0], np.int64)
    attrs = {"ignore_index": -1}
    (got,) = handler_run(backend, "NegativeLogLikelihoodLoss", [log_p, labels], attrs)
    np.testing.assert_allclose(got, -(log_p[0, 1] + log_p[2, 0]) / 2, rtol=1e-6)


def test_loss_of_2d_scores_with_a_high_ignore_index(backend):
    scores = _SCORES[:, :, 0]
    labels = np.array([1, 10, 4], np.int64)
    check(backend, "SoftmaxCrossEntropyLoss", [scores, labels], {"ignore_index": 10}, opset=13)


# -- windows --------------------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["BlackmanWindow", "HannWindow", "HammingWindow"])
def test_windows(backend, op):
    for periodic in (0, 1):
        for output_datatype in (TensorProto.FLOAT, TensorProto.DOUBLE):
            if output_datatype == TensorProto.DOUBLE and il.float64 not in backend.DTYPES:
                continue  # no float64 on this backend
            attrs = {"periodic": periodic, "output_datatype": output_datatype}
            check(backend, op, [np.array(7, np.int32)], attrs, opset=17, atol=1e-6)


# -- gradients ------------------------------------------------------------------------------------


@pytest.mark.requires("autodiff")
def test_gradient_of_softmax_cross_entropy(backend):
    scores = _SCORES[:, :, 0]
    labels = il.asarray(np.array([1, 0, 4], np.int32))
    kwargs = ATTRS["SoftmaxCrossEntropyLoss"](
        _node("SoftmaxCrossEntropyLoss", [scores, labels], {}, OPSET, 1)
    )

    def loss(s):
        return OPS["SoftmaxCrossEntropyLoss"](s, labels, **kwargs)

    g = np.asarray(il.to_numpy(il.grad(loss)(il.asarray(scores))))
    e = np.exp(scores - scores.max(1, keepdims=True))
    want = (e / e.sum(1, keepdims=True) - np.eye(5)[[1, 0, 4]]) / 3  # (softmax - onehot) / N
    np.testing.assert_allclose(g, want, rtol=1e-5, atol=1e-6)


@pytest.mark.requires("autodiff")
def test_gradient_of_reduce_log_sum_exp_and_lp_normalization(backend):
    x = np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]], np.float32)

    def lse(v):
        return il.sum(OPS["ReduceLogSumExp"](v, il.asarray(np.array([1], np.int32))))

    g = np.asarray(il.to_numpy(il.grad(lse)(il.asarray(x))))
    e = np.exp(x)
    np.testing.assert_allclose(g, e / e.sum(1, keepdims=True), rtol=1e-5)

    def lp(v):
        return il.sum(OPS["LpNormalization"](v, axis=1, p=2))

    g = np.asarray(il.to_numpy(il.grad(lp)(il.asarray(x))))
    assert np.isfinite(g).all()  # the zero row has no NaN gradient
    n = np.linalg.norm(x[0])
    np.testing.assert_allclose(g[0], 1 / n - x[0] * x[0].sum() / n**3, rtol=1e-5)

"""``If``, ``Loop`` and ``Scan`` in a converted model: the values ONNX's reference evaluator
gives, on every backend; a loop whose trip count depends on the data compiled as
``ivy_like.while_loop``; ``for`` loops and scans differentiated and compiled as
``ivy_like.scan``; a carried value that grows, which only a Python loop can carry."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

import ivy_like  # noqa: E402
from ivy_like.convert import from_onnx  # noqa: E402
from ivy_like.convert.onnx import control  # noqa: E402
from ivy_like.testing import assert_close  # noqa: E402

BACKENDS = [
    b for b in ("numpy", "jax", "torch", "tensorflow", "mlx") if b in ivy_like.available_backends()
]
AUTODIFF = [b for b in BACKENDS if ivy_like.get_backend(b).has_autodiff]
# compilers that stage a loop on a traced condition (torch.compile and mx.compile unroll Python)
STAGING = [b for b in ("jax", "tensorflow") if b in BACKENDS]
FLOAT = TensorProto.FLOAT
W = np.array([0.5, -1.5], np.float32)


def _model(nodes: list, inputs: list, outputs: list, inits: list = (), opset: int = 17):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.checker.check_model(model, full_check=True)
    return model


def doubling() -> onnx.ModelProto:
    """``while sum(x) < limit: x = 2 x`` (no trip count; the body computes the condition)."""
    body = helper.make_graph(
        [
            helper.make_node("Mul", ["x_in", "two"], ["x_out"]),
            helper.make_node("ReduceSum", ["x_out"], ["s"], keepdims=0),
            helper.make_node("Less", ["s", "limit"], ["c_out"]),
        ],
        "body",
        [
            helper.make_tensor_value_info("i", TensorProto.INT64, []),
            helper.make_tensor_value_info("c_in", TensorProto.BOOL, []),
            helper.make_tensor_value_info("x_in", FLOAT, ["n"]),
        ],
        [
            helper.make_tensor_value_info("c_out", TensorProto.BOOL, []),
            helper.make_tensor_value_info("x_out", FLOAT, ["n"]),
        ],
        [numpy_helper.from_array(np.array(2.0, np.float32), "two")],
    )
    return _model(
        [
            helper.make_node("ReduceSum", ["x"], ["s0"], keepdims=0),
            helper.make_node("Less", ["s0", "limit"], ["c0"]),
            helper.make_node("Loop", ["", "c0", "x"], ["y"], body=body, name="grow"),
        ],
        [
            helper.make_tensor_value_info("x", FLOAT, ["n"]),
            helper.make_tensor_value_info("limit", FLOAT, []),
        ],
        [helper.make_tensor_value_info("y", FLOAT, ["n"])],
    )


def recurrence() -> onnx.ModelProto:
    """A ``for`` loop over the rows of x (trip count from its shape): ``h = tanh(h * w + x[i])``
    with a weight ``w``, each ``h`` a scan output."""
    body = helper.make_graph(
        [
            helper.make_node("Gather", ["x", "i"], ["row"], axis=0),
            helper.make_node("Mul", ["h_in", "w"], ["hw"]),
            helper.make_node("Add", ["hw", "row"], ["pre"]),
            helper.make_node("Tanh", ["pre"], ["h_out"]),
            helper.make_node("Identity", ["h_out"], ["h_scan"]),
            helper.make_node("Identity", ["c_in"], ["c_out"]),
        ],
        "body",
        [
            helper.make_tensor_value_info("i", TensorProto.INT64, []),
            helper.make_tensor_value_info("c_in", TensorProto.BOOL, []),
            helper.make_tensor_value_info("h_in", FLOAT, [2]),
        ],
        [
            helper.make_tensor_value_info("c_out", TensorProto.BOOL, []),
            helper.make_tensor_value_info("h_out", FLOAT, [2]),
            helper.make_tensor_value_info("h_scan", FLOAT, [2]),
        ],
    )
    return _model(
        [
            helper.make_node("Shape", ["x"], ["shape"]),
            helper.make_node("Gather", ["shape", "zero"], ["steps"], axis=0),
            helper.make_node("Loop", ["steps", "", "h0"], ["h", "hs"], body=body, name="rnn"),
        ],
        [helper.make_tensor_value_info("x", FLOAT, ["t", 2])],
        [
            helper.make_tensor_value_info("h", FLOAT, [2]),
            helper.make_tensor_value_info("hs", FLOAT, ["t", 2]),
        ],
        [
            numpy_helper.from_array(W, "w"),
            numpy_helper.from_array(np.zeros(2, np.float32), "h0"),
            numpy_helper.from_array(np.array(0, np.int64), "zero"),
        ],
    )


def recurrence_reference(x: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    h = np.zeros(2, w.dtype)
    hs = []
    for row in x:
        h = np.tanh(h * w + row)
        hs.append(h)
    return h, np.stack(hs)


def scan_model() -> onnx.ModelProto:
    """``Scan`` over axis 1 of x backwards, its output stacked on axis 1 backwards:
    ``s = s + x_t * w``, ``y_t = s * s``."""
    body = helper.make_graph(
        [
            helper.make_node("Mul", ["x_t", "w"], ["xw"]),
            helper.make_node("Add", ["s_in", "xw"], ["s_out"]),
            helper.make_node("Mul", ["s_out", "s_out"], ["y_t"]),
        ],
        "body",
        [
            helper.make_tensor_value_info("s_in", FLOAT, [2]),
            helper.make_tensor_value_info("x_t", FLOAT, [2]),
        ],
        [
            helper.make_tensor_value_info("s_out", FLOAT, [2]),
            helper.make_tensor_value_info("y_t", FLOAT, [2]),
        ],
    )
    return _model(
        [
            helper.make_node(
                "Scan",
                ["s0", "x"],
                ["s", "y"],
                body=body,
                num_scan_inputs=1,
                scan_input_axes=[1],
                scan_input_directions=[1],
                scan_output_axes=[1],
                scan_output_directions=[1],
                name="scan",
            )
        ],
        [helper.make_tensor_value_info("x", FLOAT, [2, "t"])],
        [
            helper.make_tensor_value_info("s", FLOAT, [2]),
            helper.make_tensor_value_info("y", FLOAT, [2, "t"]),
        ],
        [numpy_helper.from_array(W, "w"), numpy_helper.from_array(np.zeros(2, np.float32), "s0")],
    )


def scan_reference(x: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """What ``scan_model`` computes (ONNX's reference evaluator has no reversed outputs)."""
    s = np.zeros(2, w.dtype)
    ys = []
    for t in reversed(range(x.shape[1])):  # the input read backwards
        s = s + x[:, t] * w
        ys.append(s * s)
    return s, np.stack(ys[::-1], axis=1)  # the outputs stacked backwards on axis 1


def growing() -> onnx.ModelProto:
    """A ``for`` loop of 3 steps whose carried value doubles in length each step (ONNX allows
    it; ``scan`` and ``while_loop`` do not)."""
    body = helper.make_graph(
        [
            helper.make_node("Concat", ["v_in", "v_in"], ["v_out"], axis=0),
            helper.make_node("Identity", ["c_in"], ["c_out"]),
        ],
        "body",
        [
            helper.make_tensor_value_info("i", TensorProto.INT64, []),
            helper.make_tensor_value_info("c_in", TensorProto.BOOL, []),
            helper.make_tensor_value_info("v_in", FLOAT, ["k"]),
        ],
        [
            helper.make_tensor_value_info("c_out", TensorProto.BOOL, []),
            helper.make_tensor_value_info("v_out", FLOAT, ["k2"]),
        ],
    )
    return _model(
        [helper.make_node("Loop", ["three", "", "x"], ["y"], body=body, name="grow")],
        [helper.make_tensor_value_info("x", FLOAT, [2])],
        [helper.make_tensor_value_info("y", FLOAT, ["m"])],
        [numpy_helper.from_array(np.array(3, np.int64), "three")],
    )


def _run(model, engine: str, *args: np.ndarray, compiled: bool = False):
    with ivy_like.use_backend(engine):
        arrays = [ivy_like.asarray(a) for a in args]
        if compiled:
            fn = ivy_like.compile(lambda p, *xs: model.apply(p, *xs))
            out = fn(model.params, *arrays)
        else:
            out = model(*arrays)
        out = out if isinstance(out, (tuple, list)) else (out,)  # one output: the array
        return [np.asarray(ivy_like.to_numpy(o)) for o in out]


# -- Loop as while_loop: the number of iterations depends on the data ---------------------
@pytest.mark.parametrize("engine", BACKENDS)
def test_a_loop_on_a_computed_condition_runs_eagerly(engine: str) -> None:
    source = doubling()
    model = from_onnx(source, backend=engine)
    for x, limit in (([0.5, 1.0], 7.0), ([0.1, 0.1], 50.0), ([3.0, 4.0], 1.0)):
        args = (np.array(x, np.float32), np.array(limit, np.float32))
        (want,) = ReferenceEvaluator(source).run(None, {"x": args[0], "limit": args[1]})
        (got,) = _run(model, engine, *args)
        assert_close(got, want)


@pytest.mark.parametrize("engine", STAGING)
def test_a_loop_on_a_computed_condition_compiles_as_while_loop(engine: str, monkeypatch) -> None:
    """Under ``compile`` the condition is traced, so only a staged loop can run it: the same
    compiled function gives 3, 9 and 0 iterations."""
    calls = []
    real = ivy_like.while_loop
    monkeypatch.setattr(
        control.il, "while_loop", lambda *a: calls.append(1) or real(*a), raising=True
    )
    source = doubling()
    model = from_onnx(source, backend=engine)
    for x, limit in (([0.5, 1.0], 7.0), ([0.1, 0.1], 50.0), ([3.0, 4.0], 1.0)):
        args = (np.array(x, np.float32), np.array(limit, np.float32))
        (want,) = ReferenceEvaluator(source).run(None, {"x": args[0], "limit": args[1]})
        (got,) = _run(model, engine, *args, compiled=True)
        assert_close(got, want)
    assert calls


# -- Loop as scan: a for loop with scan outputs --------------------------------------------
@pytest.mark.parametrize("engine", BACKENDS)
def test_a_for_loop_gives_its_scan_outputs_at_any_length(engine: str) -> None:
    model = from_onnx(recurrence(), backend=engine)
    for t in (1, 4, 7):
        x = np.random.default_rng(t).standard_normal((t, 2)).astype(np.float32)
        want = recurrence_reference(x, W)
        got = _run(model, engine, x)
        for g, w in zip(got, want):
            assert_close(g, w, rtol=1e-5, atol=1e-6)


def _finite_difference(fn, w: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    w = w.astype(np.float64)
    out = np.zeros_like(w)
    for i in range(w.size):
        up, down = w.copy(), w.copy()
        up[i] += eps
        down[i] -= eps
        out[i] = (fn(up) - fn(down)) / (2 * eps)
    return out


@pytest.mark.parametrize("engine", AUTODIFF)
def test_a_for_loop_differentiates_and_compiles(engine: str) -> None:
    model = from_onnx(recurrence(), backend=engine)
    x = np.random.default_rng(1).standard_normal((5, 2)).astype(np.float32)
    weights = np.arange(10, dtype=np.float64).reshape(5, 2) / 10
    with ivy_like.use_backend(engine):
        xa, wa = ivy_like.asarray(x), ivy_like.asarray(weights.astype(np.float32))

        def loss(p):
            h, hs = model.apply(p, xa)
            return ivy_like.sum(hs * wa) + ivy_like.sum(h)

        g = ivy_like.grad(loss)(model.params)
        compiled = ivy_like.compile(loss)
        assert_close(compiled(model.params), loss(model.params), rtol=1e-5, atol=1e-6)

    def reference(w: np.ndarray) -> float:
        h, hs = recurrence_reference(x.astype(np.float64), w)
        return float((hs * weights).sum() + h.sum())

    assert_close(g["w"], _finite_difference(reference, W).astype(np.float32), rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize("engine", STAGING)
def test_a_for_loop_compiles_as_scan(engine: str, monkeypatch) -> None:
    calls = []
    real = ivy_like.scan
    monkeypatch.setattr(control.il, "scan", lambda *a, **k: calls.append(1) or real(*a, **k))
    model = from_onnx(recurrence(), backend=engine)
    x = np.random.default_rng(2).standard_normal((6, 2)).astype(np.float32)
    want = recurrence_reference(x, W)
    for g, w in zip(_run(model, engine, x, compiled=True), want):
        assert_close(g, w, rtol=1e-5, atol=1e-6)
    assert calls


# -- Scan -----------------------------------------------------------------------------------
@pytest.mark.parametrize("engine", BACKENDS)
def test_scan_with_axes_and_directions(engine: str) -> None:
    model = from_onnx(scan_model(), backend=engine)
    for t in (1, 5):
        x = np.random.default_rng(t).standard_normal((2, t)).astype(np.float32)
        want = scan_reference(x, W)
        for g, w in zip(_run(model, engine, x), want):
            assert_close(g, w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("engine", AUTODIFF)
def test_scan_differentiates_and_compiles(engine: str) -> None:
    model = from_onnx(scan_model(), backend=engine)
    x = np.random.default_rng(3).standard_normal((2, 4)).astype(np.float32)
    with ivy_like.use_backend(engine):
        xa = ivy_like.asarray(x)

        def loss(p):
            s, y = model.apply(p, xa)
            return ivy_like.sum(y) + ivy_like.sum(s)

        g = ivy_like.grad(loss)(model.params)
        compiled = ivy_like.compile(loss)
        assert_close(compiled(model.params), loss(model.params), rtol=1e-5, atol=1e-5)

    def reference(w: np.ndarray) -> float:
        s, y = scan_reference(x.astype(np.float64), w)
        return float(y.sum() + s.sum())

    assert_close(g["w"], _finite_difference(reference, W).astype(np.float32), rtol=1e-3, atol=1e-4)


# -- what only a Python loop can carry -------------------------------------------------------
@pytest.mark.parametrize("engine", BACKENDS)
def test_a_carried_value_that_grows(engine: str) -> None:
    model = from_onnx(growing(), backend=engine)
    x = np.array([1.0, 2.0], np.float32)
    (got,) = _run(model, engine, x)
    assert_close(got, np.tile(x, 8))

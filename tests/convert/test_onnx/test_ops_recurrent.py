"""The tricky semantics of the ONNX recurrent, attention and sampling handlers
(``ops/recurrent.py``, ``ops/attention.py``, ``ops/sampling.py``), through ``from_onnx`` on
every backend.

Each case is a one-node model built with ``onnx.helper`` and compared with
``onnx.reference.ReferenceEvaluator``; where the reference does not implement an attribute
(RNN activations, ``clip``, ``sequence_lens``, ``input_forget``), with onnxruntime. A few
gradients are checked on torch and jax against central differences.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ivy_like as il

onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

from ivy_like.convert import from_onnx  # noqa: E402
from ivy_like.convert.onnx._table import ATTRS, OPS, Node, Refused  # noqa: E402

BACKENDS = [
    b for b in ("numpy", "jax", "torch", "tensorflow", "mlx") if b in il.available_backends()
]
AUTODIFF = [b for b in ("torch", "jax") if b in il.available_backends()]


def matrix(names: str, cases: list[Any], first: int = 1) -> Any:
    """Parametrize ``engine`` and ``names`` with every case on every backend, except jax
    (each model is one XLA compilation there, slow for a unit test): its first ``first``."""
    params = []
    for engine in BACKENDS:
        for k, case in enumerate(cases):
            if engine == "jax" and k >= first:
                continue
            values = case if isinstance(case, tuple) else (case,)
            params.append(pytest.param(engine, *values, id=f"{engine}-{str(case)[:40]}"))
    return pytest.mark.parametrize(("engine", *names.split(",")), params)


RNG = np.random.default_rng(7)
_TYPES = {
    np.dtype(np.float32): TensorProto.FLOAT,
    np.dtype(np.float64): TensorProto.DOUBLE,
    np.dtype(np.int32): TensorProto.INT32,
    np.dtype(np.int64): TensorProto.INT64,
    np.dtype(np.bool_): TensorProto.BOOL,
}


def rand(*shape: int, scale: float = 1.0) -> np.ndarray:
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


def model_of(
    op: str,
    inputs: list[tuple[str, np.ndarray | None]],
    outputs: list[str],
    opset: int,
    initializers: dict[str, np.ndarray] | None = None,
    **attrs: Any,
) -> Any:
    """A one-node model; an input given as None is left out (``""``)."""
    initializers = initializers or {}
    names = [n if v is not None or n in initializers else "" for n, v in inputs]
    while names and not names[-1]:
        names.pop()
    node = helper.make_node(op, names, outputs, **attrs)
    graph_inputs = [
        helper.make_tensor_value_info(n, _TYPES[v.dtype], v.shape)
        for n, v in inputs
        if v is not None and n not in initializers
    ]
    graph_outputs = [
        helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outputs if o
    ]
    inits = [onnx.numpy_helper.from_array(v, n) for n, v in initializers.items()]
    graph = helper.make_graph([node], op.lower(), graph_inputs, graph_outputs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def feeds_of(inputs: list[tuple[str, np.ndarray | None]]) -> dict[str, np.ndarray]:
    return {n: v for n, v in inputs if v is not None}


def reference(model: Any, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    return list(ReferenceEvaluator(model).run(None, feeds))


def typed(model: Any, outputs: list[np.ndarray]) -> Any:
    """``model`` with its outputs' types and shapes set from ``outputs`` (the converter checks
    the model, which wants them)."""
    typed_model = onnx.ModelProto()
    typed_model.CopyFrom(model)
    for vi, out in zip(typed_model.graph.output, outputs):
        vi.CopyFrom(helper.make_tensor_value_info(vi.name, _TYPES[out.dtype], out.shape))
    return typed_model


def run(model: Any, feeds: dict[str, np.ndarray], backend: str) -> list[np.ndarray]:
    """The model's outputs on ``backend`` (int64 inputs as int32 where there is no int64),
    compiled on jax."""
    converted = from_onnx(model, backend=backend)
    with il.use_backend(backend):
        narrow = il.int64 not in il.current_backend().DTYPES
        args = [
            feeds[n].astype(np.int32) if narrow and feeds[n].dtype == np.int64 else feeds[n]
            for n in converted.input_names
        ]
        # jax runs compiled: one trace and one XLA program beat compiling op by op, and it
        # checks that the handlers trace (no Python branching on values)
        call = il.compile(converted) if backend == "jax" else converted
        out = call(*[il.asarray(a) for a in args])
    out = out if isinstance(out, tuple) else (out,)
    return [np.asarray(il.to_numpy(o)) for o in out]


def check(
    model: Any,
    feeds: dict[str, np.ndarray],
    backend: str,
    expected: list[np.ndarray],
    tol: float = 1e-5,
) -> None:
    got = run(typed(model, expected), feeds, backend)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and g.shape == e.shape
        np.testing.assert_allclose(g, e, rtol=tol, atol=tol)


# -- RNN, GRU, LSTM ---------------------------------------------------------------------------


def rnn_inputs(
    op: str,
    dirs: int,
    layout: int,
    steps: int = 4,
    batch: int = 3,
    size: int = 2,
    hidden: int = 3,
    peepholes: bool = False,
    lens: np.ndarray | None = None,
) -> list[tuple[str, np.ndarray | None]]:
    gates = {"RNN": 1, "GRU": 3, "LSTM": 4}[op]
    x_shape = (steps, batch, size) if layout == 0 else (batch, steps, size)
    state = (dirs, batch, hidden) if layout == 0 else (batch, dirs, hidden)
    inputs = [
        ("X", rand(*x_shape)),
        ("W", rand(dirs, gates * hidden, size, scale=0.6)),
        ("R", rand(dirs, gates * hidden, hidden, scale=0.6)),
        ("B", rand(dirs, 2 * gates * hidden, scale=0.3)),
        ("sequence_lens", lens),
        ("initial_h", rand(*state)),
    ]
    if op == "LSTM":
        inputs += [
            ("initial_c", rand(*state)),
            ("P", rand(dirs, 3 * hidden) if peepholes else None),
        ]
    return inputs


RNN_CASES = [
    ("RNN", "bidirectional", 1, {}),
    ("RNN", "reverse", 0, {}),
    ("GRU", "reverse", 0, {"linear_before_reset": 1}),
    ("GRU", "bidirectional", 1, {}),
    ("LSTM", "bidirectional", 1, {}),
    ("LSTM", "forward", 0, {}),
]


@matrix("op,direction,layout,attrs", RNN_CASES, first=2)
def test_rnn_family_matches_reference(
    engine: str, op: str, direction: str, layout: int, attrs: dict[str, Any]
) -> None:
    dirs = 2 if direction == "bidirectional" else 1
    inputs = rnn_inputs(op, dirs, layout, peepholes=op == "LSTM")
    outputs = ["Y", "Y_h", "Y_c"] if op == "LSTM" else ["Y", "Y_h"]
    model = model_of(
        op, inputs, outputs, 14, hidden_size=3, direction=direction, layout=layout, **attrs
    )
    feeds = feeds_of(inputs)
    check(model, feeds, engine, reference(model, feeds))


ORT_CASES = [
    # per-entry lengths: outputs past the end are zeros; reverse starts at each entry's end
    ("RNN", {"direction": "bidirectional"}, True),
    ("GRU", {"direction": "reverse", "clip": 0.4, "linear_before_reset": 1}, True),
    ("LSTM", {"direction": "bidirectional", "input_forget": 1}, True),
    # alpha/beta are consumed in order by the activations that take them
    (
        "RNN",
        {
            "direction": "bidirectional",
            "activations": ["ScaledTanh", "Affine"],
            "activation_alpha": [0.7, 1.3],
            "activation_beta": [1.5, -0.2],
        },
        False,
    ),
    (
        "GRU",
        {
            "activations": ["HardSigmoid", "LeakyRelu"],
            "activation_alpha": [0.3, 0.05],
            "activation_beta": [0.4],
        },
        False,
    ),
    (
        "LSTM",
        {"activations": ["Sigmoid", "Elu", "Softsign"], "activation_alpha": [0.8], "clip": 1.0},
        False,
    ),
    ("RNN", {"activations": ["ThresholdedRelu"], "activation_alpha": [0.2]}, False),
    ("RNN", {"activations": ["Softplus"]}, False),
]


@matrix("op,attrs,with_lens", ORT_CASES)
def test_rnn_options_match_onnxruntime(
    engine: str, op: str, attrs: dict[str, Any], with_lens: bool
) -> None:
    ort = pytest.importorskip("onnxruntime")
    dirs = 2 if attrs.get("direction") == "bidirectional" else 1
    lens = np.array([4, 2, 1], np.int32) if with_lens else None
    inputs = rnn_inputs(op, dirs, 0, lens=lens, peepholes=op == "LSTM")
    outputs = ["Y", "Y_h", "Y_c"] if op == "LSTM" else ["Y", "Y_h"]
    model = model_of(op, inputs, outputs, 14, hidden_size=3, **attrs)
    feeds = feeds_of(inputs)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    check(model, feeds, engine, session.run(None, feeds), tol=1e-4)


def test_rnn_gives_only_the_outputs_the_node_asks_for() -> None:
    inputs = rnn_inputs("LSTM", 1, 0)
    model = model_of("LSTM", inputs, ["", "Y_h"], 14, hidden_size=3)
    feeds = feeds_of(inputs)
    (y_h,) = reference(model, feeds)
    check(model, feeds, "numpy", [y_h])


def test_rnn_refuses_an_unknown_activation() -> None:
    node = Node("RNN", "r", 14, {"activations": ["Swish"]}, outs=[None])
    with pytest.raises(Refused, match="Swish"):
        ATTRS["RNN"](node)


# -- Attention --------------------------------------------------------------------------------


def attention_case(name: str) -> tuple[Any, dict[str, np.ndarray]]:
    b, hq, hkv, q, kv, d = 2, 4, 2, 3, 5, 4
    if name == "3d_gqa_causal_past_float_mask_mode2":
        inputs = [
            ("Q", rand(b, q, hq * d)),
            ("K", rand(b, kv, hkv * d)),
            ("V", rand(b, kv, hkv * 3)),
            ("attn_mask", rand(q, 2 + kv)),
            ("past_key", rand(b, hkv, 2, d)),
            ("past_value", rand(b, hkv, 2, 3)),
        ]
        attrs = {
            "is_causal": 1,
            "q_num_heads": hq,
            "kv_num_heads": hkv,
            "qk_matmul_output_mode": 2,
            "scale": 0.3,
        }
        outputs = ["Y", "present_key", "present_value", "qk"]
        opset = 23
    elif name == "bool_mask_fully_masked_row_mode3":
        mask = np.ones((q, kv), bool)
        mask[1] = False
        inputs = [
            ("Q", rand(b, hq, q, d)),
            ("K", rand(b, hq, kv, d)),
            ("V", rand(b, hq, kv, d)),
            ("attn_mask", mask),
        ]
        attrs = {"qk_matmul_output_mode": 3}
        outputs = ["Y", "", "", "qk"]
        opset = 23
    elif name == "nonpad_causal_window_short_mask":
        inputs = [
            ("Q", rand(b, hq, q, d)),
            ("K", rand(b, hkv, kv + 2, d)),
            ("V", rand(b, hkv, kv + 2, d)),
            ("attn_mask", RNG.random((b, 1, q, kv)) > 0.2),
            ("past_key", None),
            ("past_value", None),
            ("nonpad_kv_seqlen", np.array([5, 2], np.int64)),
        ]
        attrs = {"is_causal": 1, "left_window_size": 1}
        outputs = ["Y"]
        opset = 25
    elif name == "softcap_neg_inf_mask_softmax_precision":
        mask = rand(q, kv)
        mask[:, 0] = -np.inf
        inputs = [
            ("Q", rand(b, hq, q, d, scale=3)),
            ("K", rand(b, hq, kv, d, scale=3)),
            ("V", rand(b, hq, kv, d)),
            ("attn_mask", mask),
        ]
        attrs = {"softcap": 1.5, "softmax_precision": 1, "right_window_size": 1}
        outputs = ["Y"]
        opset = 25
    else:
        raise AssertionError(name)
    return model_of("Attention", inputs, outputs, opset, **attrs), feeds_of(inputs)


ATTENTION_CASES = [
    "3d_gqa_causal_past_float_mask_mode2",
    "bool_mask_fully_masked_row_mode3",
    "nonpad_causal_window_short_mask",
    "softcap_neg_inf_mask_softmax_precision",
]


@matrix("name", ATTENTION_CASES, first=2)
def test_attention_matches_reference(engine: str, name: str) -> None:
    model, feeds = attention_case(name)
    expected = reference(model, feeds)
    check(model, feeds, engine, expected)
    if name == "bool_mask_fully_masked_row_mode3":
        assert not np.any(expected[0][:, :, 1]) and not np.any(expected[1][:, :, 1])


def test_attention_mode0_is_the_raw_product_even_with_softcap() -> None:
    # The spec and onnxruntime give the product before soft-capping (onnx's reference caps it).
    q, k = rand(1, 2, 3, 4, scale=3), rand(1, 2, 5, 4, scale=3)
    inputs = [("Q", q), ("K", k), ("V", k)]
    model = model_of("Attention", inputs, ["Y", "", "", "qk"], 23, softcap=1.0, scale=0.5)
    expected = reference(model, feeds_of(inputs))
    _, qk = run(typed(model, expected), feeds_of(inputs), "numpy")
    np.testing.assert_allclose(qk, q @ k.transpose(0, 1, 3, 2) * 0.5, rtol=1e-5, atol=1e-5)


# -- RotaryEmbedding, LinearAttention, CausalConvWithState ------------------------------------


@matrix("layout", ["3d_position_ids", "4d_caches"])
def test_rotary_embedding_matches_reference(engine: str, layout: str) -> None:
    b, s, heads, d, rot = 2, 3, 2, 8, 6
    if layout == "3d_position_ids":
        inputs = [
            ("X", rand(b, s, heads * d)),
            ("cos", rand(7, rot // 2)),
            ("sin", rand(7, rot // 2)),
            ("pos", np.array([[0, 4, 6], [1, 1, 2]], np.int64)),
        ]
        attrs = {"num_heads": heads, "interleaved": 1, "rotary_embedding_dim": rot}
    else:
        inputs = [
            ("X", rand(b, heads, s, d)),
            ("cos", rand(b, s, d // 2)),
            ("sin", rand(b, s, d // 2)),
        ]
        attrs = {}
    model = model_of("RotaryEmbedding", inputs, ["Y"], 23, **attrs)
    feeds = feeds_of(inputs)
    check(model, feeds, engine, reference(model, feeds))


@matrix("rule", ["gated_delta", "linear"])
def test_linear_attention_matches_reference(engine: str, rule: str) -> None:
    b, t, hq, hkv, dk, dv = 2, 3, 4, 2, 3, 2
    inputs = [
        ("query", rand(b, t, hq * dk)),
        ("key", rand(b, t, hkv * dk, scale=0.5)),
        ("value", rand(b, t, hkv * dv)),
        ("past_state", rand(b, hkv, dk, dv)),
        ("decay", -np.abs(rand(b, t, hkv * dk)) if rule == "gated_delta" else None),
        ("beta", RNG.random((b, t, 1)).astype(np.float32) if rule == "gated_delta" else None),
    ]
    model = model_of(
        "LinearAttention",
        inputs,
        ["out", "state"],
        27,
        update_rule=rule,
        q_num_heads=hq,
        kv_num_heads=hkv,
    )
    feeds = feeds_of(inputs)
    check(model, feeds, engine, reference(model, feeds))


@pytest.mark.parametrize("engine", BACKENDS)
def test_causal_conv_with_state_matches_reference(engine: str) -> None:
    inputs = [
        ("x", rand(2, 3, 2)),
        ("w", rand(3, 1, 4)),
        ("bias", rand(3)),
        ("state", rand(2, 3, 3)),
    ]
    model = model_of("CausalConvWithState", inputs, ["y", "new_state"], 27, activation="silu")
    feeds = feeds_of(inputs)
    check(model, feeds, engine, reference(model, feeds))


# -- AffineGrid, GridSample -------------------------------------------------------------------

GRID_CASES = [
    (2, "cubic", "reflection", 0),
    (2, "cubic", "border", 1),
    (2, "nearest", "border", 0),
    (2, "linear", "zeros", 1),
    (3, "linear", "reflection", 1),
    (1, "nearest", "reflection", 0),
]


@matrix("rank,mode,padding,align", GRID_CASES)
def test_grid_sample_matches_reference(
    engine: str, rank: int, mode: str, padding: str, align: int
) -> None:
    dims = (4, 5, 3)[:rank]
    grid = RNG.uniform(-2.6, 2.6, (2, *(3, 2, 2)[:rank], rank)).astype(np.float32)
    grid.reshape(-1)[:4] = [0.25, -0.75, 1.0, -1.0]  # points halfway between pixels, corners
    inputs = [("X", rand(2, 3, *dims)), ("grid", grid)]
    model = model_of(
        "GridSample", inputs, ["Y"], 22, mode=mode, padding_mode=padding, align_corners=align
    )
    feeds = feeds_of(inputs)
    check(model, feeds, engine, reference(model, feeds), tol=1e-4)


@matrix("align", [0, 1])
def test_affine_grid_matches_reference(engine: str, align: int) -> None:
    theta = rand(2, 3, 4)
    size = np.array([2, 1, 2, 3, 4], np.int64)
    model = model_of(
        "AffineGrid",
        [("theta", theta), ("size", size)],
        ["grid"],
        20,
        initializers={"size": size},
        align_corners=align,
    )
    check(model, {"theta": theta}, engine, reference(model, {"theta": theta, "size": size}))


# -- gradients --------------------------------------------------------------------------------


def _grad_and_fd(
    model32: Any, model64: Any, feeds: dict[str, np.ndarray], wrt: str, backend: str
) -> tuple[np.ndarray, np.ndarray]:
    """d sum(first output * fixed weights) / d feeds[wrt] on ``backend`` and by central
    differences in float64 on numpy."""
    expected = reference(model32, feeds)
    converted = from_onnx(typed(model32, expected), backend=backend)
    names = converted.input_names
    out_shape = expected[0].shape
    weights = np.linspace(-1.0, 1.0, int(np.prod(out_shape))).reshape(out_shape)
    with il.use_backend(backend):
        others = {n: il.asarray(v) for n, v in feeds.items()}
        w = il.asarray(weights.astype(np.float32))

        def loss(x: Any) -> Any:
            args = [x if n == wrt else others[n] for n in names]
            out = converted(*args)
            return il.sum((out[0] if isinstance(out, tuple) else out) * w)

        grad_fn = il.grad(loss)
        grad_fn = il.compile(grad_fn) if backend == "jax" else grad_fn
        grad = np.asarray(il.to_numpy(grad_fn(others[wrt])))
    exact = from_onnx(typed(model64, [e.astype(np.float64) for e in expected]), backend="numpy")
    base = {n: v.astype(np.float64) if v.dtype == np.float32 else v for n, v in feeds.items()}
    fd = np.zeros(base[wrt].shape)
    eps = 1e-6
    for i in range(fd.size):
        vals = []
        for sign in (1, -1):
            moved = dict(base)
            moved[wrt] = base[wrt].copy()
            moved[wrt].reshape(-1)[i] += sign * eps
            with il.use_backend("numpy"):
                out = exact(*[moved[n] for n in exact.input_names])
            vals.append(
                float(
                    np.sum(
                        np.asarray(il.to_numpy(out[0] if isinstance(out, tuple) else out)) * weights
                    )
                )
            )
        fd.reshape(-1)[i] = (vals[0] - vals[1]) / (2 * eps)
    return grad, fd


def _as64(inputs: list[tuple[str, np.ndarray | None]]) -> list[tuple[str, np.ndarray | None]]:
    return [
        (n, v.astype(np.float64) if v is not None and v.dtype == np.float32 else v)
        for n, v in inputs
    ]


@pytest.mark.parametrize("engine", AUTODIFF)
def test_lstm_gradient_with_sequence_lengths(engine: str) -> None:
    inputs = rnn_inputs(
        "LSTM",
        2,
        0,
        steps=3,
        batch=2,
        size=2,
        hidden=2,
        peepholes=True,
        lens=np.array([3, 1], np.int32),
    )
    attrs = {"hidden_size": 2, "direction": "bidirectional", "clip": 2.0}
    m32 = model_of("LSTM", inputs, ["Y", "Y_h", "Y_c"], 14, **attrs)
    m64 = model_of("LSTM", _as64(inputs), ["Y", "Y_h", "Y_c"], 14, **attrs)
    grad, fd = _grad_and_fd(m32, m64, feeds_of(inputs), "R", engine)
    np.testing.assert_allclose(grad, fd, rtol=2e-3, atol=2e-4)


@pytest.mark.parametrize("engine", AUTODIFF)
def test_attention_gradient_is_finite_with_a_fully_masked_row(engine: str) -> None:
    mask = np.ones((3, 4), bool)
    mask[0] = False
    inputs = [
        ("Q", rand(1, 2, 3, 4)),
        ("K", rand(1, 2, 4, 4)),
        ("V", rand(1, 2, 4, 4)),
        ("attn_mask", mask),
    ]
    m32 = model_of("Attention", inputs, ["Y"], 23, softcap=2.0)
    m64 = model_of("Attention", _as64(inputs), ["Y"], 23, softcap=2.0)
    grad, fd = _grad_and_fd(m32, m64, feeds_of(inputs), "Q", engine)
    assert np.all(np.isfinite(grad)) and not np.any(grad[:, :, 0])
    np.testing.assert_allclose(grad, fd, rtol=2e-3, atol=2e-4)


def test_handlers_are_registered() -> None:
    for op in (
        "RNN",
        "GRU",
        "LSTM",
        "Attention",
        "RotaryEmbedding",
        "LinearAttention",
        "CausalConvWithState",
        "AffineGrid",
        "GridSample",
    ):
        assert op in OPS

"""``from_onnx``: the model it gives (weights, inputs, dynamic dimensions, transforms, the
generated code), its errors, and hostile files (each a ``ValueError`` naming the file,
nothing read outside the model's folder)."""

from __future__ import annotations

import os
import traceback

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

import ivy_like  # noqa: E402
from ivy_like.convert import UnsupportedOpError, from_onnx  # noqa: E402
from ivy_like.testing import assert_close  # noqa: E402

BACKENDS = [
    b for b in ("numpy", "jax", "torch", "tensorflow", "mlx") if b in ivy_like.available_backends()
]
AUTODIFF = [b for b in BACKENDS if ivy_like.get_backend(b).has_autodiff]
RNG = np.random.default_rng(0)
W1 = RNG.standard_normal((4, 8)).astype(np.float32)
B1 = RNG.standard_normal(8).astype(np.float32)
W2 = RNG.standard_normal((8, 3)).astype(np.float32)


def mlp(batch: object = "batch", opset: int = 17) -> onnx.ModelProto:
    """x (batch, 4) -> Gemm -> Relu -> MatMul -> Softmax, then flattened with a reshape whose
    shape is computed from Shape (dynamic with a named batch)."""
    nodes = [
        helper.make_node("Gemm", ["x", "fc1.weight", "fc1.bias"], ["h"], name="fc1"),
        helper.make_node("Relu", ["h"], ["r"], name="relu"),
        helper.make_node("MatMul", ["r", "fc2.weight"], ["z"], name="fc2"),
        helper.make_node("Softmax", ["z"], ["p"], axis=-1, name="softmax"),
        helper.make_node("Shape", ["p"], ["s"], name="shape"),
        helper.make_node("ReduceProd", ["s"], ["n"], keepdims=1, name="numel"),
        helper.make_node("Reshape", ["p", "n"], ["y"], name="flatten"),
    ]
    graph = helper.make_graph(
        nodes,
        "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["numel"])],
        [
            numpy_helper.from_array(W1, "fc1.weight"),
            numpy_helper.from_array(B1, "fc1.bias"),
            numpy_helper.from_array(W2, "fc2.weight"),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def reference(x: np.ndarray, w1: np.ndarray = W1, b1: np.ndarray = B1) -> np.ndarray:
    z = np.maximum(x @ w1 + b1, 0) @ W2
    e = np.exp(z - z.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)).reshape(-1)


@pytest.mark.parametrize("engine", BACKENDS)
def test_runs_at_any_batch_on_every_backend(engine: str) -> None:
    model = from_onnx(mlp(), backend=engine)
    assert sorted(model.params.cont_all_key_chains()) == ["fc1/bias", "fc1/weight", "fc2/weight"]
    assert model.initializer_names["fc1/weight"] == "fc1.weight"
    for n in (1, 3, 7):
        x = RNG.standard_normal((n, 4)).astype(np.float32)
        with ivy_like.use_backend(engine):
            y = model(ivy_like.asarray(x))
        assert_close(y, reference(x), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("engine", AUTODIFF)
def test_gradients_and_compile(engine: str) -> None:
    model = from_onnx(mlp(), backend=engine)
    x = RNG.standard_normal((5, 4)).astype(np.float32)
    with ivy_like.use_backend(engine):
        xa = ivy_like.asarray(x)

        def loss(p: object) -> object:
            return ivy_like.sum(model.apply(p, xa) * ivy_like.arange(15, dtype=ivy_like.float32))

        g = ivy_like.grad(loss)(model.params)
        compiled = ivy_like.compile(lambda p, x: model.apply(p, x))
        assert_close(compiled(model.params, xa), reference(x), rtol=1e-5, atol=1e-6)
    # central differences in float64 on the bias
    eps = 1e-4
    weights = np.arange(15)
    fd = np.zeros_like(B1, dtype=np.float64)
    for i in range(B1.size):
        up, down = B1.astype(np.float64), B1.astype(np.float64)
        up[i] += eps
        down[i] -= eps
        x64 = x.astype(np.float64)
        fd[i] = (reference(x64, W1, up) @ weights - reference(x64, W1, down) @ weights) / (2 * eps)
    assert_close(g["fc1"]["bias"], fd.astype(np.float32), rtol=2e-3, atol=2e-3)


def test_fixed_shapes_fold_the_shape_arithmetic() -> None:
    model = from_onnx(mlp(batch=2), backend="numpy")
    assert "Shape" not in model.code and "ReduceProd" not in model.code
    dynamic = from_onnx(mlp(), backend="numpy")
    assert "__shape(" in dynamic.code and "__host(onnx_ReduceProd" in dynamic.code


def test_inputs_are_checked() -> None:
    model = from_onnx(mlp(batch=2), backend="numpy")
    with pytest.raises(ValueError, match=r"input 'x' has shape \(3, 4\); the model wants \(2, 4\)"):
        model(np.ones((3, 4), np.float32))
    with pytest.raises(TypeError, match="no input named 'z'"):
        model(z=np.ones((2, 4), np.float32))
    with pytest.raises(TypeError, match="missing input"):
        model()
    y = model(x=np.ones((2, 4), np.float32))
    assert y.shape == (6,)


def test_tracebacks_show_the_generated_line() -> None:
    model = from_onnx(mlp(), backend="numpy")
    # 4 features come in, the weight expects 5
    params = ivy_like.Container(
        fc1={"weight": np.ones((5, 8), np.float32), "bias": B1}, fc2={"weight": W2}
    )
    with pytest.raises(Exception) as info:  # noqa: PT011 - the backend's own error
        model.apply(params, np.ones((2, 4), np.float32))
    text = "".join(traceback.format_exception(info.value))
    assert "<ivy_like generated: from_onnx mlp>" in text
    assert "onnx_Gemm(x0, p0, p1" in text


def test_unsupported_nodes_are_listed_together() -> None:
    nodes = [
        helper.make_node("NonZero", ["x"], ["a"], name="nz"),
        helper.make_node("Relu", ["x"], ["b"], name="ok"),
        helper.make_node("Foo", ["b"], ["c"], name="custom", domain="com.example"),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
        [
            helper.make_tensor_value_info("a", TensorProto.INT64, [1, "n"]),
            helper.make_tensor_value_info("c", TensorProto.FLOAT, [3]),
        ],
    )
    m = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.example", 1)]
    )
    with pytest.raises(UnsupportedOpError) as info:
        from_onnx(m, backend="numpy")
    msg = str(info.value)
    assert "2 nodes cannot be converted" in msg
    assert "NonZero (node 'nz', opset 17): its output shape depends on the data" in msg
    assert "com.example.Foo (node 'custom', opset 17)" in msg


def test_an_operator_older_than_its_handler_is_refused_naming_the_opset() -> None:
    from ivy_like.convert.onnx._table import SINCE

    op = next(name for name in ("Gemm", "Softmax", "Relu") if SINCE.get(name, 1) > 1)
    m = mlp(opset=SINCE[op] - 1)
    with pytest.raises(UnsupportedOpError, match=f"ivy_like follows {op} from opset {SINCE[op]}"):
        from_onnx(m, backend="numpy")


# -- hostile files ---------------------------------------------------------------------------
def _write(path: object, model: onnx.ModelProto) -> str:
    path = str(path)
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    return path


def test_truncated_file(tmp_path: object) -> None:
    path = _write(tmp_path / "m.onnx", mlp())
    data = open(path, "rb").read()
    bad = tmp_path / "cut.onnx"
    bad.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="cut.onnx"):
        from_onnx(str(bad))


def test_initializer_whose_size_does_not_match(tmp_path: object) -> None:
    m = mlp()
    t = m.graph.initializer[0]
    t.raw_data = t.raw_data[:-8]  # two floats short
    path = _write(tmp_path / "short.onnx", m)
    with pytest.raises(ValueError, match=r"short.onnx.*'fc1.weight' declares shape \(4, 8\)"):
        from_onnx(path)


def test_graph_with_a_cycle(tmp_path: object) -> None:
    nodes = [
        helper.make_node("Add", ["x", "b"], ["a"], name="first"),
        helper.make_node("Relu", ["a"], ["b"], name="second"),
    ]
    graph = helper.make_graph(
        nodes,
        "cycle",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("b", TensorProto.FLOAT, [2])],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    path = _write(tmp_path / "cycle.onnx", m)
    with pytest.raises(ValueError, match="cycle.onnx"):
        from_onnx(path)


@pytest.mark.parametrize("location", ["../secret.bin", "/etc/passwd", "sub/../../secret.bin"])
def test_external_data_outside_the_folder_is_not_read(tmp_path: object, location: str) -> None:
    folder = tmp_path / "model"
    folder.mkdir()
    secret = tmp_path / "secret.bin"
    secret.write_bytes(np.ones(32, np.float32).tobytes())
    m = mlp()
    t = m.graph.initializer[0]
    t.ClearField("raw_data")
    t.data_location = TensorProto.EXTERNAL
    for k, v in (("location", location), ("offset", "0"), ("length", "128")):
        e = t.external_data.add()
        e.key, e.value = k, v
    path = _write(folder / "m.onnx", m)
    opened: list[str] = []
    real_open = open

    def watching_open(file: object, *args: object, **kwargs: object) -> object:
        opened.append(os.path.realpath(str(file)))
        return real_open(file, *args, **kwargs)

    import builtins

    builtins.open = watching_open
    try:
        with pytest.raises(ValueError, match=r"m.onnx.*outside the model's folder"):
            from_onnx(path)
    finally:
        builtins.open = real_open
    assert os.path.realpath(str(secret)) not in opened
    assert "/etc/passwd" not in opened


def test_external_data_inside_the_folder_is_read(tmp_path: object) -> None:
    m = mlp()
    t = m.graph.initializer[0]
    (tmp_path / "weights.bin").write_bytes(b"\0" * 16 + t.raw_data)
    t.ClearField("raw_data")
    t.data_location = TensorProto.EXTERNAL
    for k, v in (("location", "weights.bin"), ("offset", "16"), ("length", str(W1.nbytes))):
        e = t.external_data.add()
        e.key, e.value = k, v
    path = _write(tmp_path / "m.onnx", m)
    model = from_onnx(path, backend="numpy")
    assert_close(model.params["fc1"]["weight"], W1)
    with pytest.raises(ValueError, match="pass the model's path"):
        from_onnx(m.SerializeToString(), backend="numpy")


def test_not_a_model(tmp_path: object) -> None:
    p = tmp_path / "junk.onnx"
    p.write_bytes(b"\x00\xff" * 50)
    with pytest.raises(ValueError, match="junk.onnx"):
        from_onnx(str(p))
    with pytest.raises(TypeError, match="model_or_path"):
        from_onnx(3.5)
    with pytest.raises(FileNotFoundError):
        from_onnx(str(tmp_path / "missing.onnx"))


def test_docs_list_every_supported_operator() -> None:
    import re
    from pathlib import Path

    from ivy_like.convert.onnx.ops import supported_ops_markdown

    docs = (Path(__file__).parents[3] / "docs" / "convert.md").read_text()
    block = re.search(r"<!-- onnx-ops -->\n(.*?)<!-- /onnx-ops -->", docs, re.S)
    assert block is not None, "docs/convert.md lost its generated list of ONNX operators"
    assert block.group(1) == supported_ops_markdown(), (
        "docs/convert.md is stale: regenerate the list with python -c 'from "
        "ivy_like.convert.onnx.ops import supported_ops_markdown as m; print(m())'"
    )

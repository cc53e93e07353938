"""HuggingFace ``transformers`` models built from small configs, exported by PyTorch's own ONNX
exporter (``torch.onnx.export(..., dynamo=True)``, onnxscript) with a dynamic batch and
sequence, read by ``from_onnx``: they match the PyTorch model on every backend, at the export's
sizes and at others, eagerly and compiled."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxscript")
torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

import ivy_like  # noqa: E402
from ivy_like.convert import from_onnx  # noqa: E402

BACKENDS = [
    b for b in ("numpy", "jax", "torch", "tensorflow", "mlx") if b in ivy_like.available_backends()
]


def _build(name: str) -> object:
    torch.manual_seed(0)
    if name == "gpt2":
        cfg = transformers.GPT2Config(
            n_layer=2, n_embd=32, n_head=4, vocab_size=100, n_positions=64, use_cache=False,
            bos_token_id=0, eos_token_id=0,
        )  # fmt: skip
        return transformers.GPT2LMHeadModel(cfg).eval()
    cfg = transformers.BertConfig(
        num_hidden_layers=2, hidden_size=32, num_attention_heads=4, intermediate_size=64,
        vocab_size=100, max_position_embeddings=64,
    )  # fmt: skip
    return transformers.BertModel(cfg).eval()


_CACHE: dict[str, tuple[object, object]] = {}


def exported(name: str) -> tuple[object, object]:
    """(the PyTorch model, its ONNX export with dynamic batch and sequence), made once."""
    if name not in _CACHE:
        net = _build(name)
        ids = torch.randint(0, 100, (2, 7))
        program = torch.onnx.export(
            net, (ids,), dynamo=True, verbose=False, dynamic_shapes=({0: "batch", 1: "seq"},)
        )
        _CACHE[name] = (net, program.model_proto)
    return _CACHE[name]


@pytest.mark.parametrize("engine", BACKENDS)
@pytest.mark.parametrize("name", ["gpt2", "bert"])
def test_matches_pytorch_at_any_batch_and_length(name: str, engine: str) -> None:
    net, proto = exported(name)
    model = from_onnx(proto, backend=engine)
    dims = [d.dim_param for d in proto.graph.input[0].type.tensor_type.shape.dim]
    assert dims == ["batch", "seq"]
    rng = np.random.default_rng(3)
    for shape in ((2, 7), (1, 3), (3, 12)):
        ids = rng.integers(0, 100, shape)
        with torch.no_grad():
            want = net(torch.from_numpy(ids))[0].numpy()
        with ivy_like.use_backend(engine):
            got = model(ivy_like.asarray(ids.astype(np.int32) if engine == "jax" else ids))
        got = got[0] if isinstance(got, tuple) else got
        np.testing.assert_allclose(ivy_like.to_numpy(got), want, rtol=1e-4, atol=1e-5)


def test_compiled_on_jax() -> None:
    if "jax" not in BACKENDS:
        pytest.skip("jax is not installed")
    net, proto = exported("gpt2")
    model = from_onnx(proto, backend="jax")
    ids = np.random.default_rng(4).integers(0, 100, (2, 9))
    with torch.no_grad():
        want = net(torch.from_numpy(ids))[0].numpy()
    with ivy_like.use_backend("jax"):
        f = ivy_like.compile(lambda p, x: model.apply(p, x))
        got = f(model.params, ivy_like.asarray(ids.astype(np.int32)))
    np.testing.assert_allclose(ivy_like.to_numpy(got), want, rtol=1e-4, atol=1e-5)

"""from_torch on the real models a converter must handle, on every backend (numpy, jax, torch,
tensorflow, mlx): transformers' ResNet, MobileNetV2 and GPT-2 built from small configs with
random weights (no download), ``torch.nn.TransformerEncoder`` and a two-layer LSTM classifier.

Each model is built and captured once per module (on numpy), then run on every backend with
inputs that differ from the example it was captured with (same shapes), against PyTorch's own
float32 outputs: a converted graph must not have kept any value of the example. The round trip
(``to_torch(from_torch(m))``) and the gradient of a loss with respect to ``model.params``
(portable training: fine-tune on JAX or MLX, send back to PyTorch) are checked the same way.
On jax the model runs under ``ivy_like.compile``: eager jax compiles each op of the graph on
first use, which takes tens of seconds per model on a 2-core machine.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from _nets import gen as _gen  # noqa: E402
from _nets import randomize_norms  # noqa: E402

import ivy_like  # noqa: E402
from ivy_like.convert import GraphModel, from_torch, to_torch  # noqa: E402
from ivy_like.testing import assert_close  # noqa: E402

TOL = {"rtol": 1e-4, "atol": 1e-4}  # the bar: within 1e-4 of PyTorch in float32


# -- the models: (module, inputs(seed) -> (args, kwargs)) ------------------------------------------
def _images(seed: int) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (torch.randn(2, 3, 64, 64, generator=_gen(seed)),), {}


def resnet() -> tuple[torch.nn.Module, Callable[[int], Any]]:
    torch.manual_seed(0)
    config = transformers.ResNetConfig(
        depths=[1, 1, 1, 1], hidden_sizes=[16, 32, 64, 128], embedding_size=16, layer_type="basic"
    )
    net = transformers.ResNetForImageClassification(config)
    randomize_norms(net, 1)
    return net, _images


def mobilenet_v2() -> tuple[torch.nn.Module, Callable[[int], Any]]:
    torch.manual_seed(0)
    net = transformers.MobileNetV2ForImageClassification(
        transformers.MobileNetV2Config(depth_multiplier=0.35)
    )
    randomize_norms(net, 2)
    return net, _images


def _gpt2_net() -> torch.nn.Module:
    torch.manual_seed(0)
    config = transformers.GPT2Config(
        n_layer=2,
        n_head=4,
        n_embd=64,
        vocab_size=100,
        n_positions=32,
        use_cache=False,
        bos_token_id=0,  # inside the small vocabulary
        eos_token_id=0,
    )
    return transformers.GPT2LMHeadModel(config)


def _ids(seed: int) -> Any:
    return torch.randint(0, 100, (2, 7), generator=_gen(seed))


def gpt2() -> tuple[torch.nn.Module, Callable[[int], Any]]:
    return _gpt2_net(), lambda seed: ((_ids(seed),), {})


def gpt2_masked() -> tuple[torch.nn.Module, Callable[[int], Any]]:
    def inputs(seed: int) -> Any:
        # zeros where padding sits, in a different place for each seed: left padding on one
        # row (its first queries see no key at all), holes and right padding on the other
        g = _gen(seed)
        mask = torch.ones(2, 7, dtype=torch.long)
        mask[0, : int(torch.randint(1, 4, (), generator=g))] = 0
        mask[1, int(torch.randint(1, 6, (), generator=g))] = 0
        mask[1, -1] = 0
        return (_ids(seed),), {"attention_mask": mask}

    return _gpt2_net(), inputs


def transformer_encoder() -> tuple[torch.nn.Module, Callable[[int], Any]]:
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(
        d_model=32, nhead=4, dim_feedforward=64, batch_first=True
    )
    net = torch.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
    return net, lambda seed: ((torch.randn(2, 5, 32, generator=_gen(seed)),), {})


class LSTMClassifier(torch.nn.Module):
    """A two-layer LSTM and a linear head on the last step."""

    def __init__(self) -> None:
        super().__init__()
        self.lstm = torch.nn.LSTM(8, 16, num_layers=2, batch_first=True)
        self.head = torch.nn.Linear(16, 3)

    def forward(self, x: Any) -> Any:
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


def lstm_classifier() -> tuple[torch.nn.Module, Callable[[int], Any]]:
    torch.manual_seed(0)
    return LSTMClassifier(), lambda seed: ((torch.randn(2, 6, 8, generator=_gen(seed)),), {})


BUILDERS = {
    "resnet": resnet,
    "mobilenet_v2": mobilenet_v2,
    "gpt2": gpt2,
    "gpt2_masked": gpt2_masked,
    "transformer_encoder": transformer_encoder,
    "lstm": lstm_classifier,
}
CAPTURE_SEED, CALL_SEED = 10, 11  # the example captured, and the other inputs called with


@dataclass
class Case:
    net: torch.nn.Module
    model: GraphModel
    args: tuple[Any, ...]  # torch tensors, not the example's values
    kwargs: dict[str, Any]
    expected: np.ndarray  # the original module's output for them


def _main(out: Any) -> Any:
    return out["logits"] if isinstance(out, dict) else out


@pytest.fixture(scope="module")
def cases() -> Callable[[str], Case]:
    """Each model built and captured once for the module, on first use."""
    built: dict[str, Case] = {}

    def get(name: str) -> Case:
        if name not in built:
            net, inputs = BUILDERS[name]()
            net.eval()
            example_args, example_kwargs = inputs(CAPTURE_SEED)
            model = from_torch(net, *example_args, backend="numpy", **example_kwargs)
            args, kwargs = inputs(CALL_SEED)
            with torch.no_grad():
                expected = _main(net(*args, **kwargs)).numpy()
            built[name] = Case(net, model, args, kwargs, expected)
        return built[name]

    return get


def _on(backend: Any, t: Any) -> Any:
    """A torch input as an array of ``backend`` (int64 ids as int32 on jax, which has no
    int64 without x64)."""
    a = t.numpy()
    if a.dtype == np.int64 and backend.name == "jax":
        a = a.astype(np.int32)
    return backend.asarray(a)


def _inputs(backend: Any, case: Case) -> tuple[list[Any], dict[str, Any]]:
    return [_on(backend, a) for a in case.args], {
        k: _on(backend, v) for k, v in case.kwargs.items()
    }


# -- outputs on every backend ------------------------------------------------------------------
@pytest.mark.parametrize("name", list(BUILDERS))
def test_outputs_match_torch(backend, cases, name):
    case = cases(name)
    args, kwargs = _inputs(backend, case)
    if backend.name == "jax":
        out = ivy_like.compile(case.model.apply)(case.model.params_on(backend), *args, **kwargs)
    else:
        out = case.model(*args, **kwargs)
    out = _main(out)
    assert isinstance(out, tuple(backend.array_types))
    assert_close(out, case.expected, **TOL)


def test_gpt2_with_and_without_a_mask_agree_where_nothing_is_masked(cases):
    plain, masked = cases("gpt2"), cases("gpt2_masked")
    ids = plain.args[0].numpy()
    ones = np.ones(ids.shape, dtype=np.int64)
    assert_close(_main(masked.model(ids, attention_mask=ones)), _main(plain.model(ids)), **TOL)
    # and the mask is read at run time, not kept from the example
    mask = masked.kwargs["attention_mask"].numpy()
    assert not np.array_equal(
        _main(masked.model(ids, attention_mask=mask)), _main(plain.model(ids))
    )


# -- the family: other transformers models built the same way, no model-specific code --------------
def _family_ids(seed: int) -> Any:
    mask = torch.ones(2, 7, dtype=torch.long)
    mask[1, : 1 + seed % 3] = 0
    return (_ids(seed),), {"attention_mask": mask}


_SMALL = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64)
FAMILY = {
    # name: (build, inputs, the output compared)
    "bert": (
        lambda: transformers.BertModel(
            transformers.BertConfig(**_SMALL, vocab_size=100, max_position_embeddings=32)
        ),
        _family_ids,
        "last_hidden_state",
    ),
    "llama": (
        lambda: transformers.LlamaForCausalLM(
            transformers.LlamaConfig(
                **_SMALL,
                num_key_value_heads=2,
                vocab_size=100,
                max_position_embeddings=32,
                use_cache=False,
            )
        ),
        _family_ids,
        "logits",
    ),
    "bart": (  # decoder inputs made from the ids in forward: in-place copies, slice assignment
        lambda: transformers.BartModel(
            transformers.BartConfig(
                d_model=32,
                encoder_layers=1,
                decoder_layers=1,
                encoder_attention_heads=4,
                decoder_attention_heads=4,
                encoder_ffn_dim=64,
                decoder_ffn_dim=64,
                vocab_size=100,
                max_position_embeddings=32,
                use_cache=False,
            )
        ),
        _family_ids,
        "last_hidden_state",
    ),
    "segformer": (  # bilinear resizing, overlapping patch embeddings
        lambda: transformers.SegformerForSemanticSegmentation(
            transformers.SegformerConfig(
                num_encoder_blocks=2,
                depths=[1, 1],
                sr_ratios=[2, 1],
                hidden_sizes=[8, 16],
                num_attention_heads=[1, 2],
                decoder_hidden_size=16,
                patch_sizes=[7, 3],
                strides=[4, 2],
                mlp_ratios=[2, 2],
            )
        ),
        lambda seed: ((torch.randn(2, 3, 32, 32, generator=_gen(seed)),), {}),
        "logits",
    ),
}


@pytest.fixture(scope="module")
def family() -> Callable[[str], Case]:
    built: dict[str, Case] = {}

    def get(name: str) -> Case:
        if name not in built:
            build, inputs, key = FAMILY[name]
            torch.manual_seed(0)
            net = build().eval()
            example_args, example_kwargs = inputs(CAPTURE_SEED)
            model = from_torch(net, *example_args, backend="numpy", **example_kwargs)
            args, kwargs = inputs(CALL_SEED)
            with torch.no_grad():
                expected = net(*args, **kwargs)[key].numpy()
            built[name] = Case(net, model, args, kwargs, expected)
        return built[name]

    return get


@pytest.mark.parametrize("name", list(FAMILY))
def test_more_transformers_models_match_torch(backend, family, name):
    case = family(name)
    args, kwargs = _inputs(backend, case)
    if backend.name == "jax":
        out = ivy_like.compile(case.model.apply)(case.model.params_on(backend), *args, **kwargs)
    else:
        out = case.model(*args, **kwargs)
    # relative to the output's size where it is small (Segformer's logits are about 1e-3)
    atol = 1e-4 * min(1.0, float(np.abs(case.expected).max()))
    assert_close(out[FAMILY[name][2]], case.expected, rtol=1e-4, atol=atol)


# -- back to PyTorch ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(BUILDERS))
def test_round_trip_to_torch(cases, name):
    case = cases(name)
    back = to_torch(case.model)
    assert isinstance(back, torch.nn.Module)
    assert set(back.state_dict()) == set(case.net.state_dict())
    with torch.no_grad():
        assert_close(_main(back(*case.args, **case.kwargs)).numpy(), case.expected, **TOL)


def test_round_trip_from_params_on_another_backend(cases):
    """Weights changed on jax go back into the torch module (the fine-tuning path)."""
    pytest.importorskip("jax")
    case = cases("resnet")
    jax_params = case.model.params_on("jax").cont_map(lambda x, kc: x * 0.9)
    back = to_torch(case.model, jax_params)
    np_args = [a.numpy() for a in case.args]
    with ivy_like.use_backend("numpy"):
        expected = _main(case.model.apply(jax_params.cont_to_backend("numpy"), *np_args))
    with torch.no_grad():
        assert_close(_main(back(*case.args)).numpy(), expected, **TOL)


# -- portable training: gradients equal PyTorch's -------------------------------------------------
GRAD_MODELS = ["resnet", "lstm", "gpt2_masked", "mobilenet_v2"]


def _torch_grads(case: Case) -> dict[str, np.ndarray]:
    """PyTorch's gradient of sum(output ** 2) for every parameter, on a copy of the module."""
    net = copy.deepcopy(case.net)
    (_main(net(*case.args, **case.kwargs)) ** 2).sum().backward()
    return {n.replace(".", "/"): p.grad.numpy() for n, p in net.named_parameters()}


@pytest.mark.requires("autodiff")
@pytest.mark.parametrize("name", GRAD_MODELS)
def test_gradients_match_torch(backend, cases, name):
    case = cases(name)
    expected = _torch_grads(case)
    args, kwargs = _inputs(backend, case)

    def loss(params: Any) -> Any:
        return ivy_like.sum(_main(case.model.apply(params, *args, **kwargs)) ** 2)

    grad = ivy_like.grad(loss)
    if backend.name == "jax":
        grad = ivy_like.compile(grad)
    got = grad(case.model.params_on(backend)).cont_flatten_key_chains()
    # every parameter has its gradient (buffers too: BatchNorm statistics are inputs here)
    assert set(expected) <= set(got)
    for kc, want in expected.items():
        scale = max(1.0, float(np.abs(want).max()))  # relative where the gradient is large
        assert_close(got[kc], want, rtol=1e-4, atol=1e-4 * scale, label=f"{kc}: ")

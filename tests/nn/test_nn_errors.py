"""Bad inputs to ``ivy_like.nn`` ops: the same typed error on every backend, naming the op
and the offending argument (never a framework's internal message)."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

import ivy_like
from ivy_like.core.registry import OPS

nn = ivy_like.nn


def ones(*shape):
    return np.ones(shape, np.float32)


def idx(*values):
    return np.array(values, np.int32)


# (call, exception type, regex the message must match); inputs are NumPy arrays converted to
# the backend under test by `run`.
CASES = {
    "conv2d_x_rank": (
        lambda: nn.conv2d(ones(1, 3, 5), ones(2, 3, 3, 3)),
        ValueError,
        r"conv2d: x must have 4 dimensions \(NCHW\), got 3",
    ),
    "conv2d_weight_rank": (
        lambda: nn.conv2d(ones(1, 3, 5, 5), ones(2, 3, 3)),
        ValueError,
        r"conv2d: weight must have 4 dimensions",
    ),
    "conv2d_channels": (
        lambda: nn.conv2d(ones(1, 3, 5, 5), ones(2, 2, 3, 3)),
        ValueError,
        r"conv2d: weight expects 2 input channels .* but x has 3",
    ),
    "conv2d_channels_nhwc": (
        lambda: nn.conv2d(ones(1, 5, 5, 3), ones(3, 3, 4, 2), data_format="NHWC"),
        ValueError,
        r"conv2d: weight expects 4 input channels .* but x has 3",
    ),
    "conv2d_padding_string": (
        lambda: nn.conv2d(ones(1, 3, 5, 5), ones(2, 3, 3, 3), padding="full"),
        ValueError,
        r"conv2d: padding must be 'valid', 'same'.*'full'",
    ),
    "conv2d_padding_type": (
        lambda: nn.conv2d(ones(1, 3, 5, 5), ones(2, 3, 3, 3), padding=1.5),
        TypeError,
        r"conv2d: padding must be an int or a sequence of 2 ints",
    ),
    "conv2d_padding_negative": (
        lambda: nn.conv2d(ones(1, 3, 5, 5), ones(2, 3, 3, 3), padding=-1),
        ValueError,
        r"conv2d: padding must be non-negative",
    ),
    "conv2d_groups": (
        lambda: nn.conv2d(ones(1, 4, 5, 5), ones(3, 2, 3, 3), groups=2),
        ValueError,
        r"conv2d: in_channels \(4\) and out_channels \(3\) must be divisible by groups \(2\)",
    ),
    "conv2d_groups_zero": (
        lambda: nn.conv2d(ones(1, 4, 5, 5), ones(4, 4, 3, 3), groups=0),
        ValueError,
        r"conv2d: groups must be a positive int",
    ),
    "conv2d_bias": (
        lambda: nn.conv2d(ones(1, 3, 5, 5), ones(2, 3, 3, 3), ones(3)),
        ValueError,
        r"conv2d: bias must have shape \(2,\)",
    ),
    "conv2d_too_small": (
        lambda: nn.conv2d(ones(1, 3, 2, 2), ones(2, 3, 3, 3)),
        ValueError,
        r"conv2d: the \(padded\) input of size 2 is smaller than the dilated kernel of size 3",
    ),
    "conv2d_data_format": (
        lambda: nn.conv2d(ones(1, 3, 5, 5), ones(2, 3, 3, 3), data_format="NWHC"),
        ValueError,
        r"conv2d: data_format must be one of \('NCHW', 'NHWC'\), got 'NWHC'",
    ),
    "conv2d_stride_zero": (
        lambda: nn.conv2d(ones(1, 3, 5, 5), ones(2, 3, 3, 3), stride=0),
        ValueError,
        r"conv2d: stride and dilation must be positive",
    ),
    "conv2d_stride_length": (
        lambda: nn.conv2d(ones(1, 3, 5, 5), ones(2, 3, 3, 3), stride=(1, 1, 1)),
        TypeError,
        r"conv2d: stride must be an int or a sequence of 2 ints",
    ),
    "conv1d_x_rank": (
        lambda: nn.conv1d(ones(1, 3, 5, 5), ones(2, 3, 3)),
        ValueError,
        r"conv1d: x must have 3 dimensions \(NCW\), got 4",
    ),
    "conv1d_data_format": (
        lambda: nn.conv1d(ones(1, 3, 5), ones(2, 3, 3), data_format="NCHW"),
        ValueError,
        r"conv1d: data_format must be one of \('NCW', 'NWC'\)",
    ),
    "max_pool2d_rank": (
        lambda: nn.max_pool2d(ones(3, 5, 5), 2),
        ValueError,
        r"max_pool2d: x must have 4 dimensions \(NCHW\), got 3",
    ),
    "max_pool2d_too_small": (
        lambda: nn.max_pool2d(ones(1, 3, 1, 5), 2),
        ValueError,
        r"max_pool2d: the \(padded\) spatial size 1 of x is smaller than the kernel size 2",
    ),
    "avg_pool2d_padding": (
        lambda: nn.avg_pool2d(ones(1, 3, 5, 5), 2, padding=2),
        ValueError,
        r"avg_pool2d: padding \(2, 2\) must be at most half the kernel size",
    ),
    "avg_pool2d_data_format": (
        lambda: nn.avg_pool2d(ones(1, 3, 5, 5), 2, data_format="NCW"),
        ValueError,
        r"avg_pool2d: data_format must be 'NCHW' or 'NHWC'",
    ),
    "avg_pool2d_kernel": (
        lambda: nn.avg_pool2d(ones(1, 3, 5, 5), 0),
        ValueError,
        r"avg_pool2d: kernel_size and stride must be positive",
    ),
    "max_pool2d_kernel_type": (
        lambda: nn.max_pool2d(ones(1, 3, 5, 5), "2"),
        TypeError,
        r"max_pool2d: kernel_size must be an int or a sequence of 2 ints",
    ),
    "linear_in_features": (
        lambda: nn.linear(ones(2, 3), ones(4, 5)),
        ValueError,
        r"linear: the last axis of x \(\(2, 3\)\) must have in_features=5",
    ),
    "linear_weight_rank": (
        lambda: nn.linear(ones(2, 3), ones(3)),
        ValueError,
        r"linear: weight must be 2-D",
    ),
    "linear_bias": (
        lambda: nn.linear(ones(2, 3), ones(4, 3), ones(5)),
        ValueError,
        r"linear: bias must have shape \(4,\), got \(5,\)",
    ),
    "embedding_float_indices": (
        lambda: nn.embedding(ones(2), ones(4, 3)),
        TypeError,
        r"embedding: indices must be integers",
    ),
    "embedding_weight_rank": (
        lambda: nn.embedding(idx(1), ones(4)),
        ValueError,
        r"embedding: weight must be 2-D",
    ),
    "layer_norm_shape": (
        lambda: nn.layer_norm(ones(2, 3), 4),
        ValueError,
        r"layer_norm: normalized_shape \(4,\) does not match the trailing axes of x \(2, 3\)",
    ),
    "batch_norm_running_mean": (
        lambda: nn.batch_norm(ones(2, 3, 4), ones(4), ones(3)),
        ValueError,
        r"batch_norm: running_mean must have shape \(3,\)",
    ),
    "batch_norm_weight": (
        lambda: nn.batch_norm(ones(2, 3, 4), ones(3), ones(3), ones(2)),
        ValueError,
        r"batch_norm: weight must have shape \(3,\)",
    ),
    "batch_norm_axis": (
        lambda: nn.batch_norm(ones(2, 3), ones(3), ones(3), axis=2),
        ValueError,
        r"batch_norm: axis 2 is out of range",
    ),
    "gelu_approximate": (
        lambda: nn.gelu(ones(2), approximate="fast"),
        ValueError,
        r"gelu: approximate must be 'none' or 'tanh', got 'fast'",
    ),
    "softmax_axis": (
        lambda: nn.softmax(ones(2, 3), axis=2),
        ValueError,
        r"softmax: axis 2 is out of range for x with 2 dimensions",
    ),
    "log_softmax_axis": (
        lambda: nn.log_softmax(ones(2, 3), axis=-3),
        ValueError,
        r"log_softmax: axis -3 is out of range",
    ),
    "dropout_p": (
        lambda: nn.dropout(ones(2), 1.0, key=0),
        ValueError,
        r"dropout: p must be a probability in \[0, 1\), got 1.0",
    ),
    "dropout_key": (
        lambda: nn.dropout(ones(2), 0.5, key=1.5),
        TypeError,
        r"dropout: key must be an int seed",
    ),
    "attention_embed": (
        lambda: nn.scaled_dot_product_attention(ones(2, 3, 4), ones(2, 3, 5), ones(2, 3, 5)),
        ValueError,
        r"scaled_dot_product_attention: query and key must have the same last axis",
    ),
    "attention_length": (
        lambda: nn.scaled_dot_product_attention(ones(2, 3, 4), ones(2, 3, 4), ones(2, 5, 4)),
        ValueError,
        r"scaled_dot_product_attention: key and value must have the same length",
    ),
    "attention_rank": (
        lambda: nn.scaled_dot_product_attention(ones(4), ones(3, 4), ones(3, 4)),
        ValueError,
        r"scaled_dot_product_attention: query must have at least 2 dimensions",
    ),
    "attention_mask": (
        lambda: nn.scaled_dot_product_attention(
            ones(2, 3, 4), ones(2, 3, 4), ones(2, 3, 4), ones(4, 4) > 0
        ),
        ValueError,
        r"scaled_dot_product_attention: attn_mask of shape \(4, 4\) does not broadcast",
    ),
    "cross_entropy_shape": (
        lambda: nn.cross_entropy(ones(2, 3), idx(1, 2, 0)),
        ValueError,
        r"cross_entropy: labels of shape \(3,\) do not fit logits of shape \(2, 3\)",
    ),
    "cross_entropy_float_indices": (
        lambda: nn.cross_entropy(ones(2, 3), ones(2)),
        TypeError,
        r"cross_entropy: labels of shape \(2,\) are class indices and must be integers",
    ),
    "cross_entropy_reduction": (
        lambda: nn.cross_entropy(ones(2, 3), idx(1, 2), reduction="avg"),
        ValueError,
        r"cross_entropy: reduction must be 'mean', 'sum' or 'none', got 'avg'",
    ),
    # A label outside the classes is an error, not a row that matches no class (loss 0).
    "cross_entropy_label_too_large": (
        lambda: nn.cross_entropy(ones(4, 3), idx(0, 1, 3, 7)),
        ValueError,
        r"^cross_entropy: labels\[2\] is 3, not a class index of logits with 3 classes "
        r"\(0 to 2\)$",
    ),
    "cross_entropy_label_negative": (
        lambda: nn.cross_entropy(ones(2, 3), idx(1, -1)),
        ValueError,
        r"^cross_entropy: labels\[1\] is -1, not a class index",
    ),
    "cross_entropy_label_narrow_int": (  # more classes than int8 holds: no wrap-around
        lambda: nn.cross_entropy(ones(2, 300), np.array([0, -1], np.int8)),
        ValueError,
        r"^cross_entropy: labels\[1\] is -1, not a class index of logits with 300 classes",
    ),
    "cross_entropy_label_uint8": (
        lambda: nn.cross_entropy(ones(2, 200), np.array([199, 250], np.uint8)),
        ValueError,
        r"^cross_entropy: labels\[1\] is 250, not a class index",
    ),
    "cross_entropy_label_position_2d": (
        lambda: nn.cross_entropy(ones(2, 2, 3), np.array([[0, 1], [2, 9]], np.int32)),
        ValueError,
        r"^cross_entropy: labels\[1, 1\] is 9, not a class index",
    ),
    "mse_loss_shape": (
        lambda: nn.mse_loss(ones(2, 3), ones(2, 1)),
        ValueError,
        r"mse_loss: input and target must have the same shape, got \(2, 3\) and \(2, 1\)",
    ),
    "mse_loss_reduction": (
        lambda: nn.mse_loss(ones(2, 3), ones(2, 3), reduction="max"),
        ValueError,
        r"mse_loss: reduction must be 'mean', 'sum' or 'none', got 'max'",
    ),
    # Checks declared with the op run before the kernel on every backend, so a framework
    # that would accept the argument (torch takes a bool target, clamps to inverted bounds)
    # never sees it.
    "nll_loss_bool_target": (
        lambda: nn.nll_loss(ones(2, 3), np.array([True, False])),
        TypeError,
        r"nll_loss: target holds class indices and must have an integer dtype",
    ),
    "nll_loss_weight": (
        lambda: nn.nll_loss(ones(2, 3), idx(0, 1), ones(2)),
        ValueError,
        r"nll_loss: weight must have shape \(3,\) \(one per class\), got \(2,\)",
    ),
    "huber_loss_delta": (
        lambda: nn.huber_loss(ones(2), ones(2), delta=0.0),
        ValueError,
        r"huber_loss: delta must be a positive number, got 0.0",
    ),
    "kl_div_reduction": (
        lambda: nn.kl_div(ones(2), ones(2), reduction="max"),
        ValueError,
        r"kl_div: reduction must be 'mean', 'sum', 'none' or 'batchmean', got 'max'",
    ),
    "cosine_similarity_dim": (
        lambda: nn.cosine_similarity(ones(2, 3), ones(2, 3), dim=2),
        ValueError,
        r"cosine_similarity: dim 2 is out of range for inputs with 2 dimensions",
    ),
    "hardtanh_bounds": (
        lambda: nn.hardtanh(ones(2), 1.0, -1.0),
        ValueError,
        r"hardtanh: min_val \(1.0\) must not exceed max_val \(-1.0\)",
    ),
    "lstm_h0_shape": (
        lambda: nn.lstm(ones(3, 2, 4), [ones(8, 4), ones(8, 2)], ones(1, 5, 2), bias=False),
        ValueError,
        r"lstm: h0 must have shape \(1, 2, 2\), got \(1, 5, 2\)",
    ),
    "gru_cell_hidden": (
        lambda: nn.gru_cell(ones(2, 4), ones(2, 3), ones(6, 4), ones(6, 2)),
        ValueError,
        r"gru_cell: h must have shape \(2, 2\)",
    ),
    "conv_transpose2d_output_padding": (
        lambda: nn.conv_transpose2d(ones(1, 1, 3, 3), ones(1, 1, 2, 2), output_padding=1),
        ValueError,
        r"conv_transpose2d: output_padding 1 must be smaller than stride 1 or dilation 1",
    ),
    "adaptive_avg_pool2d_size": (
        lambda: nn.adaptive_avg_pool2d(ones(1, 2, 3), (2, 0)),
        ValueError,
        r"adaptive_avg_pool2d: output_size must hold positive ints, got \(2, 0\)",
    ),
    "interpolate_empty": (
        lambda: nn.interpolate(ones(1, 1, 2, 2), scale_factor=0.25),
        ValueError,
        r"interpolate: scale_factor 0.25 gives an empty output",
    ),
}


def test_nn_kernels_import_no_check_from_the_declarations():
    """The checks run before the kernels (``check=`` of each declaration): a backend's nn
    kernels call none, and read nothing private from ``ivy_like/ops/``."""
    package = Path(ivy_like.__file__).parent
    files = [*package.glob("backends/*/nn.py"), package / "backends/_common/nn.py"]
    imported = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ivy_like.ops"):
                imported += [(path.parent.name, node.module, a.name) for a in node.names]
    assert imported, "the kernels share the declarations' sizes (ops/nn/sizes.py)"
    for backend_name, module, name in imported:
        assert not any(part.startswith("_") for part in (*module.split("."), name)), (
            backend_name,
            module,
            name,
        )
        assert "check" not in name and module != "ivy_like.ops.nn._helpers", (backend_name, name)
    checked = [spec.name for spec in OPS.values() if spec.family == "nn" and spec.check]
    assert {"conv2d", "gelu", "linear", "max_pool2d", "nll_loss", "lstm"} <= set(checked)


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_raises_a_clear_error(backend, case):
    # NumPy inputs follow the active backend (the fixture's): the checks run on its kernels.
    call, exc, message = CASES[case]
    with pytest.raises(exc, match=message):
        call()


NATIVE_CASES = {
    "conv2d": (
        lambda c: nn.conv2d(c(ones(1, 3, 5, 5)), c(ones(2, 2, 3, 3))),
        ValueError,
        r"conv2d: weight expects 2 input channels",
    ),
    "linear": (
        lambda c: nn.linear(c(ones(2, 3)), c(ones(4, 5))),
        ValueError,
        r"linear: the last axis of x",
    ),
    "softmax": (
        lambda c: nn.softmax(c(ones(2, 3)), axis=5),
        ValueError,
        r"softmax: axis 5 is out of range",
    ),
    "max_pool2d": (
        lambda c: nn.max_pool2d(c(ones(3, 5, 5)), 2),
        ValueError,
        r"max_pool2d: x must have 4 dimensions",
    ),
    "mse_loss": (
        lambda c: nn.mse_loss(c(ones(2, 3)), c(ones(3))),
        ValueError,
        r"mse_loss: input and target must have the same shape",
    ),
    "cross_entropy_label": (
        lambda c: nn.cross_entropy(c(ones(2, 3)), c(idx(0, 5))),
        ValueError,
        r"cross_entropy: labels\[1\] is 5, not a class index",
    ),
}


@pytest.mark.parametrize("case", sorted(NATIVE_CASES))
@pytest.mark.parametrize("wrap", ["native", "Array"])
def test_native_and_array_inputs_raise_the_same_errors(backend, case, wrap):
    # Native arrays and Arrays take the fast path straight to the backend function: the
    # checks must live there too, not only on the general path.
    call, exc, message = NATIVE_CASES[case]
    convert = backend.asarray if wrap == "native" else ivy_like.array
    with pytest.raises(exc, match=message):
        call(convert)


def test_out_of_range_labels_in_traced_code_are_not_checked():
    # Documented: inside jax.jit the labels have no values; the label matches no class.
    jax = pytest.importorskip("jax")
    with ivy_like.use_backend("jax"):
        loss = jax.jit(lambda logits, y: nn.cross_entropy(logits, y, reduction="none"))(
            jax.numpy.zeros((2, 3)), jax.numpy.array([0, 7])
        )
    np.testing.assert_allclose(np.asarray(loss), [np.log(3.0), 0.0], rtol=1e-6)


# Models given params= of another architecture: a ValueError naming the parameter when the
# model is built (the first forward pass failed deep inside, or not at all).
MODEL_CASES = {
    "mlp_width": (
        lambda p: nn.MLP([4, 8, 3], params=p),
        lambda: nn.MLP([4, 9, 3]),
        r"^MLP: params '0/weight' has shape \(9, 4\), expected \(8, 4\)$",
    ),
    "mlp_missing_layer": (
        lambda p: nn.MLP([4, 9, 9, 3], params=p),
        lambda: nn.MLP([4, 9, 3]),
        r"^MLP: params '2/weight' has shape \(3, 9\), expected \(9, 9\)$",
    ),
    "mlp_extra_key": (
        lambda p: nn.MLP([4, 3], params=p),
        lambda: ivy_like.Container(
            {"0": {"weight": ones(3, 4), "bias": ones(3)}, "1": {"weight": ones(1)}}
        ),
        r"^MLP: params has '1/weight', which the model does not have",
    ),
    "mlp_no_bias": (
        lambda p: nn.MLP([4, 3], params=p),
        lambda: ivy_like.Container({"0": {"weight": ones(3, 4)}}),
        r"^MLP: params has no '0/bias' \(expected shape \(3,\)\)$",
    ),
    "sequential": (
        lambda p: nn.Sequential([nn.Linear(4, 8), nn.ReLU(), nn.Embedding(3, 2)], params=p),
        lambda: nn.Sequential([nn.Linear(4, 8), nn.ReLU(), nn.Embedding(3, 5)]),
        r"^Sequential: params '2/weight' has shape \(3, 5\), expected \(3, 2\)$",
    ),
    "small_cnn": (
        lambda p: nn.SmallCNN(params=p),
        lambda: nn.SmallCNN(channels=(8, 8)),
        r"^SmallCNN: params '3/weight' has shape \(8, 8, 3, 3\), expected \(16, 8, 3, 3\)$",
    ),
    "transformer_block": (
        lambda p: nn.TransformerBlock(8, 2, params=p),
        lambda: nn.TransformerBlock(8, 2, d_ff=16),
        r"^TransformerBlock: params 'ff1/weight' has shape \(16, 8\), expected \(32, 8\)$",
    ),
}


@pytest.mark.parametrize("case", sorted(MODEL_CASES))
def test_models_check_given_params_when_built(backend, case):
    build, source, message = MODEL_CASES[case]
    made = source()
    params = made.params if isinstance(made, nn.Model) else made
    with pytest.raises(ValueError, match=message):
        build(params)


def test_models_take_their_own_params(backend):
    for make in (
        lambda p=None: nn.MLP([4, 9, 3], params=p),
        lambda p=None: nn.SmallCNN(params=p),
        lambda p=None: nn.TransformerBlock(8, 2, params=p),
        lambda p=None: nn.Sequential([nn.LayerNorm(4), nn.BatchNorm2d(3)], params=p),
    ):
        params = make().params
        assert make(params).params is params

"""torch's fused kernels behind ``nn.cross_entropy`` (class indices), ``nn.layer_norm`` and
``nn.batch_norm`` (one or two autograd nodes where the composites have seven or eight): the
public calls record them, and the cases handed back to the composites (errors, broadcasting,
statistics that need a gradient, transforms) give the composites' results. Their values and
gradients on the kernels' own cases are in ``tests/ops/test_kernels_match_composites.py``."""

from __future__ import annotations

import math

import numpy as np
import pytest

import ivy_like
from ivy_like.core.registry import OPS

torch = pytest.importorskip("torch")

COMPOSITE = OPS["nn.cross_entropy"].declaration


def _case(shape, label_dtype, seed=0):
    rng = np.random.default_rng(seed)
    logits = torch.tensor(rng.standard_normal(shape).astype(np.float32))
    labels = torch.tensor(rng.integers(0, shape[-1], shape[:-1]).astype(label_dtype))
    return logits, labels


def test_fused_kernel_is_one_node_and_its_gradient_is_the_composites():
    logits, labels = _case((6, 5), "int64")
    leaf = logits.clone().requires_grad_()
    assert type(ivy_like.nn.cross_entropy(leaf, labels).grad_fn).__name__ == "NllLossBackward0"
    got = ivy_like.grad(lambda z: ivy_like.nn.cross_entropy(z, labels))(logits)
    with ivy_like.use_backend("torch"):
        expected = torch.func.grad(lambda z: COMPOSITE(z, labels))(logits)
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("bad", [4, -1, -100, int(np.iinfo(np.int64).min)])
def test_labels_torch_would_skip_or_refuse_raise_the_composites_error(bad):
    # -100 is torch's default ignore_index and int64's minimum the one the kernel passes:
    # torch would give those a loss of 0 silently; every backend raises instead.
    with pytest.raises(ValueError, match=rf"cross_entropy: labels\[1\] is {bad}, not a class"):
        ivy_like.nn.cross_entropy(torch.zeros(2, 4), torch.tensor([0, bad]))


def test_probabilities_and_transforms_take_the_composite():
    logits, labels = _case((3, 4), "int64")
    probs = torch.softmax(torch.randn(3, 4), -1)
    with ivy_like.use_backend("torch"):
        expected = COMPOSITE(logits, probs)
    np.testing.assert_allclose(ivy_like.nn.cross_entropy(logits, probs), expected, rtol=1e-6)
    per_example = ivy_like.vmap(lambda z, t: ivy_like.nn.cross_entropy(z, t))(logits, labels)
    np.testing.assert_allclose(
        per_example.numpy(), ivy_like.nn.cross_entropy(logits, labels, "none").numpy(), rtol=1e-6
    )


def _norm_composite(key, *args):
    with ivy_like.use_backend("torch"):
        return OPS[key].declaration(*args)


def _t(rng, shape):
    return torch.tensor(rng.standard_normal(shape).astype(np.float32))


def test_layer_norm_broadcast_weight_and_a_bad_shape_take_the_composite():
    rng = np.random.default_rng(2)
    x, w = _t(rng, (3, 4)), _t(rng, (1,))  # a weight the composite broadcasts, F refuses
    np.testing.assert_allclose(
        ivy_like.nn.layer_norm(x, 4, w).numpy(),
        _norm_composite("nn.layer_norm", x, 4, w).numpy(),
        rtol=1e-6,
    )
    with pytest.raises(ValueError, match="does not match the trailing axes"):
        ivy_like.nn.layer_norm(x, 3)


def test_batch_norm_statistics_keep_their_gradient():
    # torch's kernel has no gradient for the running statistics: differentiating with
    # respect to them must take the composite, not give zeros.
    rng = np.random.default_rng(4)
    x = _t(rng, (5, 3))
    mean, var = _t(rng, (3,)), torch.tensor(rng.uniform(0.5, 2.0, 3).astype(np.float32))

    def loss(mean, var):
        return ivy_like.sum(ivy_like.nn.batch_norm(x, mean, var) ** 2)

    got = ivy_like.grad(loss, argnums=(0, 1))(mean, var)
    want = torch.func.grad(
        lambda m, v: (_norm_composite("nn.batch_norm", x, m, v) ** 2).sum(), argnums=(0, 1)
    )(mean, var)
    for g, r in zip(got, want):
        assert float(g.abs().sum()) > 0
        np.testing.assert_allclose(g.numpy(), r.numpy(), rtol=1e-4, atol=1e-5)


def test_batch_norm_channels_last_takes_the_composite():
    rng = np.random.default_rng(5)
    x, mean, var = _t(rng, (2, 4, 3)), _t(rng, (3,)), torch.ones(3)
    np.testing.assert_allclose(
        ivy_like.nn.batch_norm(x, mean, var, axis=-1).numpy(),
        _norm_composite("nn.batch_norm", x, mean, var, None, None, 1e-5, -1).numpy(),
        rtol=1e-6,
    )


# -- attention and mean squared error --------------------------------------------------------
# -- the public calls record the fused kernels' single node --------------------------------------
# (Their values and gradients against the composites: tests/ops/test_kernels_match_composites.py.)
MASKS = {
    "none": lambda rng: None,
    "bool": lambda rng: torch.tensor(rng.random((5, 6)) > 0.4) | torch.eye(5, 6, dtype=bool),
    "bool broadcast rows": lambda rng: torch.tensor([[True, False, True, True, False, True]]),
    "additive": lambda rng: torch.tensor(rng.standard_normal((2, 1, 5, 6)).astype(np.float32)),
}


@pytest.mark.parametrize("shape, dims", [((4, 6), (6,)), ((2, 3, 4, 5), (4, 5)), ((3, 8), 8)])
@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm_is_the_fused_node(shape, dims, affine):
    rng = np.random.default_rng(1)
    x = _t(rng, shape).requires_grad_()
    full = (dims,) if isinstance(dims, int) else dims
    w, b = (_t(rng, full), _t(rng, full)) if affine else (None, None)
    assert "LayerNorm" in type(ivy_like.nn.layer_norm(x, dims, w, b).grad_fn).__name__


@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5), (2, 3, 4, 4)])
def test_batch_norm_is_the_fused_node(shape):
    rng = np.random.default_rng(3)
    x, w, b = _t(rng, shape).requires_grad_(), _t(rng, (3,)), _t(rng, (3,))
    mean, var = _t(rng, (3,)), torch.tensor(rng.uniform(0.5, 2.0, 3).astype(np.float32))
    out = ivy_like.nn.batch_norm(x, mean, var, w, b)
    assert "BatchNorm" in type(out.grad_fn).__name__


@pytest.mark.parametrize("mask", list(MASKS))
@pytest.mark.parametrize("is_causal", [False, True])
def test_attention_is_the_fused_node_unless_a_mask_is_causal(mask, is_causal):
    rng = np.random.default_rng(3)
    q, k, v = _t(rng, (2, 3, 5, 4)).requires_grad_(), _t(rng, (2, 3, 6, 4)), _t(rng, (2, 3, 6, 4))
    out = ivy_like.nn.scaled_dot_product_attention(q, k, v, MASKS[mask](rng), is_causal)
    fused = mask == "none" or not is_causal
    assert ("ScaledDotProduct" in type(out.grad_fn).__name__) is fused


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_is_the_fused_node(reduction):
    rng = np.random.default_rng(5)
    a, b = _t(rng, (4, 3)).requires_grad_(), _t(rng, (4, 3))
    assert type(ivy_like.nn.mse_loss(a, b, reduction).grad_fn).__name__ == "MseLossBackward0"


@pytest.mark.parametrize(
    "mask",
    [
        torch.tensor([[True, False], [False, False]]),  # the second row attends to nothing
        torch.tensor([[0.0, -math.inf], [-math.inf, -math.inf]]),
        torch.tensor([[False]]),
    ],
)
def test_attention_rows_with_nothing_to_attend_keep_the_composites_nan(mask):
    # torch's kernel gives such a row 0; the composite (and every other backend) NaN
    q = k = v = torch.ones(1, 2, 2, 3)
    got = ivy_like.nn.scaled_dot_product_attention(q, k, v, mask)
    expected = _norm_composite("nn.scaled_dot_product_attention", q, k, v, mask)
    assert torch.isnan(got).any()
    np.testing.assert_array_equal(torch.isnan(got), torch.isnan(expected))
    np.testing.assert_allclose(got, expected, rtol=1e-6, equal_nan=True)


def test_attention_broadcast_batches_a_tracked_mask_and_vmap_take_the_composite():
    rng = np.random.default_rng(4)
    q, k = _t(rng, (2, 5, 4)), _t(rng, (1, 6, 4))  # batch axes that broadcast
    got = ivy_like.nn.scaled_dot_product_attention(q, k, k)
    expected = _norm_composite("nn.scaled_dot_product_attention", q, k, k)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    mask = _t(rng, (5, 6)).requires_grad_()
    out = ivy_like.nn.scaled_dot_product_attention(q, q.clone(), q.clone(), mask[:, :5])
    (g,) = torch.autograd.grad(out.sum(), mask)
    assert g.abs().sum() > 0  # the mask's gradient (the kernel would have none)
    per_row = ivy_like.vmap(lambda a: ivy_like.nn.scaled_dot_product_attention(a, a, a))(q)
    np.testing.assert_allclose(
        per_row, _norm_composite("nn.scaled_dot_product_attention", q, q, q), rtol=1e-5, atol=1e-6
    )


def test_mse_mixed_dtypes_and_bad_input_take_the_composite():
    a = torch.ones(3)
    got = ivy_like.nn.mse_loss(a, torch.zeros(3, dtype=torch.float64))
    assert got.dtype == torch.float64 and float(got) == 1.0
    with pytest.raises(ValueError, match="mse_loss: input and target must have the same shape"):
        ivy_like.nn.mse_loss(a, torch.ones(1))
    with pytest.raises(ValueError, match="mse_loss: reduction must be"):
        ivy_like.nn.mse_loss(a, a, "avg")

"""torch's ``nn.cross_entropy`` runs ``F.cross_entropy`` for class indices (issue 23: two
autograd nodes instead of the composite's eight) and must agree with the composite everywhere:
values, gradients, errors, and the cases handed back to it."""

from __future__ import annotations

import numpy as np
import pytest

import ivy_like
from ivy_like.core.registry import OPS

torch = pytest.importorskip("torch")

COMPOSITE = OPS["nn.cross_entropy"].declaration
SHAPES = [(5, 4), (4,), (2, 3, 4), (0, 4)]
LABEL_DTYPES = ["int64", "int32", "int16", "int8", "uint8"]


def _case(shape, label_dtype, seed=0):
    rng = np.random.default_rng(seed)
    logits = torch.tensor(rng.standard_normal(shape).astype(np.float32))
    labels = torch.tensor(rng.integers(0, shape[-1], shape[:-1]).astype(label_dtype))
    return logits, labels


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("label_dtype", LABEL_DTYPES)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_fused_kernel_gives_the_composites_values(shape, label_dtype, reduction):
    logits, labels = _case(shape, label_dtype)
    got = ivy_like.nn.cross_entropy(logits, labels, reduction)
    with ivy_like.use_backend("torch"):
        expected = COMPOSITE(logits, labels, reduction)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6, atol=1e-7, equal_nan=True)


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

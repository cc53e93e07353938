"""torch's fused kernels behind ``nn.cross_entropy`` (class indices), ``nn.layer_norm`` and
``nn.batch_norm`` (issue 23: one or two autograd nodes where the composites have seven or
eight) must agree with the composites everywhere: values, gradients, errors, and the cases
handed back to them."""

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


def _norm_composite(key, *args):
    with ivy_like.use_backend("torch"):
        return OPS[key].declaration(*args)


def _t(rng, shape):
    return torch.tensor(rng.standard_normal(shape).astype(np.float32))


@pytest.mark.parametrize("shape, dims", [((4, 6), (6,)), ((2, 3, 4, 5), (4, 5)), ((3, 8), 8)])
@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm_kernel_gives_the_composites_values_and_gradients(shape, dims, affine):
    rng = np.random.default_rng(1)
    x = _t(rng, shape)
    full = (dims,) if isinstance(dims, int) else dims
    w, b = (_t(rng, full), _t(rng, full)) if affine else (None, None)
    leaf = x.clone().requires_grad_()
    assert "LayerNorm" in type(ivy_like.nn.layer_norm(leaf, dims, w, b).grad_fn).__name__
    got = ivy_like.nn.layer_norm(x, dims, w, b)
    np.testing.assert_allclose(
        got.numpy(), _norm_composite("nn.layer_norm", x, dims, w, b).numpy(), rtol=1e-5, atol=1e-5
    )
    if affine:

        def loss(x, w, b):
            return ivy_like.sum(ivy_like.nn.layer_norm(x, dims, w, b) ** 3)

        def ref(x, w, b):
            return (_norm_composite("nn.layer_norm", x, dims, w, b) ** 3).sum()

        got = ivy_like.grad(loss, argnums=(0, 1, 2))(x, w, b)
        want = torch.func.grad(ref, argnums=(0, 1, 2))(x, w, b)
        for g, r in zip(got, want):
            np.testing.assert_allclose(g.numpy(), r.numpy(), rtol=1e-4, atol=1e-4)


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


@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5), (2, 3, 4, 4)])
def test_batch_norm_kernel_gives_the_composites_values_and_gradients(shape):
    rng = np.random.default_rng(3)
    x, w, b = _t(rng, shape), _t(rng, (3,)), _t(rng, (3,))
    mean, var = _t(rng, (3,)), torch.tensor(rng.uniform(0.5, 2.0, 3).astype(np.float32))
    leaf = x.clone().requires_grad_()
    out = ivy_like.nn.batch_norm(leaf, mean, var, w, b)
    assert "BatchNorm" in type(out.grad_fn).__name__
    np.testing.assert_allclose(
        ivy_like.nn.batch_norm(x, mean, var, w, b).numpy(),
        _norm_composite("nn.batch_norm", x, mean, var, w, b).numpy(),
        rtol=1e-5,
        atol=1e-5,
    )

    def loss(x, w, b):
        return ivy_like.sum(ivy_like.nn.batch_norm(x, mean, var, w, b) ** 3)

    def ref(x, w, b):
        return (_norm_composite("nn.batch_norm", x, mean, var, w, b) ** 3).sum()

    got = ivy_like.grad(loss, argnums=(0, 1, 2))(x, w, b)
    want = torch.func.grad(ref, argnums=(0, 1, 2))(x, w, b)
    for g, r in zip(got, want):
        np.testing.assert_allclose(g.numpy(), r.numpy(), rtol=1e-4, atol=1e-4)


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

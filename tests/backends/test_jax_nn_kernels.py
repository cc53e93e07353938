"""jax's kernel behind ``nn.scaled_dot_product_attention`` (``jax.nn.dot_product_attention``,
which XLA compiles as JAX's own transformer block): the shapes it takes reach it, and the cases
handed back to the composite (masks, other dtypes, other ranks, broadcast batches) and the
errors are the composite's. Its values and gradients against the composite are in
``tests/ops/test_kernels_match_composites.py``."""

from __future__ import annotations

import numpy as np
import pytest

import ivy_like
from ivy_like.core.registry import OPS

jax = pytest.importorskip("jax")
jnp = jax.numpy

COMPOSITE = OPS["nn.scaled_dot_product_attention"].declaration
SDPA = ivy_like.nn.scaled_dot_product_attention


def _qkv(q_shape, kv_shape=None, dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    kv_shape = q_shape if kv_shape is None else kv_shape
    return tuple(
        jnp.asarray(rng.standard_normal(s).astype(dtype)) for s in (q_shape, kv_shape, kv_shape)
    )


@pytest.fixture
def kernel_calls(monkeypatch):
    """The number of calls of ``jax.nn.dot_product_attention`` (the kernel) so far."""
    calls = [0]
    real = jax.nn.dot_product_attention

    def spy(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(jax.nn, "dot_product_attention", spy)
    return calls


def _composite(*args, **kwargs):
    with ivy_like.use_backend("jax"):
        return COMPOSITE(*args, **kwargs)


def _close(got, expected, rtol=1e-5, atol=1e-6):
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_allclose(
        np.asarray(got), np.asarray(expected), rtol=rtol, atol=atol, equal_nan=True
    )


CASES = [
    ((2, 4, 5, 8), None),  # (batch, heads, length, dim), self-attention
    ((2, 4, 3, 8), (2, 4, 6, 8)),  # fewer queries than keys
    ((2, 4, 6, 8), (2, 4, 3, 8)),  # more queries than keys
    ((3, 5, 8), None),  # one head: (batch, length, dim)
    ((3, 2, 8), (3, 7, 8)),
]


# Their values and gradients against the composite: tests/ops/test_kernels_match_composites.py.
@pytest.mark.parametrize(("q_shape", "kv_shape"), CASES)
@pytest.mark.parametrize("is_causal", [False, True])
@pytest.mark.parametrize("scale", [None, 0.3])
def test_these_shapes_take_the_kernel(kernel_calls, q_shape, kv_shape, is_causal, scale):
    q, k, v = _qkv(q_shape, kv_shape)
    SDPA(q, k, v, is_causal=is_causal, scale=scale)
    assert kernel_calls[0] == 1


@pytest.mark.parametrize(("q_shape", "kv_shape"), [CASES[0], CASES[2], CASES[4]])
@pytest.mark.parametrize("is_causal", [False, True])
def test_their_gradients_take_the_kernel(kernel_calls, q_shape, kv_shape, is_causal):
    q, k, v = _qkv(q_shape, kv_shape, seed=1)
    jax.grad(lambda *qkv: jnp.sum(SDPA(*qkv, is_causal=is_causal)), argnums=(0, 1, 2))(q, k, v)
    assert kernel_calls[0] == 1


def test_kernel_runs_under_compile_and_in_a_transformer_block(kernel_calls):
    with ivy_like.use_backend("jax"):
        block = ivy_like.nn.TransformerBlock(8, 2, seed=0)
        x = ivy_like.asarray(np.random.default_rng(3).standard_normal((2, 5, 8)), dtype="float32")
        compiled = ivy_like.compile(block.apply)
        got = compiled(block.params, x)
        compiled(block.params, x)
        assert kernel_calls[0] == 1  # traced once
        saved = ivy_like.nn.scaled_dot_product_attention
        try:  # the same block with the composite in its place
            ivy_like.nn.scaled_dot_product_attention = COMPOSITE
            expected = block.apply(block.params, x)
        finally:
            ivy_like.nn.scaled_dot_product_attention = saved
    _close(ivy_like.to_native(got), ivy_like.to_native(expected))


def test_masks_take_the_composite_and_keep_its_nan_rows(kernel_calls):
    q, k, v = _qkv((1, 2, 3, 4))
    # A boolean mask whose second row masks every key: the composite's row is NaN (a softmax
    # of -inf), where jax's kernel would give the mean of the values.
    mask = jnp.asarray([[True, False, True], [False, False, False], [True, True, True]])
    got = SDPA(q, k, v, attn_mask=mask)
    assert bool(jnp.isnan(got[:, :, 1]).all()) and not bool(jnp.isnan(got[:, :, 0]).any())
    _close(got, _composite(q, k, v, attn_mask=mask))
    additive = jnp.where(mask, 0.0, -1.5).astype(jnp.float32)
    _close(SDPA(q, k, v, attn_mask=additive), _composite(q, k, v, attn_mask=additive))
    _close(
        SDPA(q, k, v, attn_mask=mask, is_causal=True),
        _composite(q, k, v, attn_mask=mask, is_causal=True),
    )
    assert kernel_calls[0] == 0


@pytest.mark.parametrize(
    "case",
    [
        "float16",  # JAX computes half-precision scores in float32; the composite does not
        "value_dim",  # a value of another embedding size than query and key
        "broadcast_batch",  # key and value broadcast over the query's batch
        "rank_2",  # (length, dim): JAX would read it as (heads, dim)
        "rank_5",
        "mixed_dtypes",  # float32 query, float16 key and value: the composite promotes
        "no_heads",  # JAX's kernel divides by the number of heads
        "no_keys",
        "no_queries",
    ],
)
def test_other_inputs_take_the_composite(kernel_calls, case):
    q, k, v = _qkv((2, 3, 4, 8))
    if case == "float16":
        q, k, v = (t.astype(jnp.float16) for t in (q, k, v))
    elif case == "value_dim":
        v = jnp.concatenate([v, v[..., :3]], axis=-1)
    elif case == "broadcast_batch":
        k, v = k[:1], v[:1]
    elif case == "rank_2":
        q, k, v = q[0, 0], k[0, 0], v[0, 0]
    elif case == "rank_5":
        q, k, v = q[None], k[None], v[None]
    elif case == "mixed_dtypes":
        k, v = k.astype(jnp.float16), v.astype(jnp.float16)
    elif case == "no_heads":
        q, k, v = q[:, :0], k[:, :0], v[:, :0]
    elif case == "no_keys":
        k, v = k[:, :, :0], v[:, :, :0]
    else:
        q = q[:, :, :0]
    got = SDPA(q, k, v, is_causal=True)
    assert kernel_calls[0] == 0
    expected = _composite(q, k, v, is_causal=True)
    tol = 2e-3 if got.dtype == jnp.float16 else 1e-6
    _close(got, expected, rtol=tol, atol=tol)


@pytest.mark.parametrize(
    ("shapes", "message"),
    [
        (((2, 3, 8), (2, 3, 6), (2, 3, 6)), "query and key must have the same last axis"),
        (((2, 3, 8), (2, 4, 8), (2, 5, 8)), "key and value must have the same length"),
        (((8,), (2, 3, 8), (2, 3, 8)), "query must have at least 2 dimensions"),
    ],
)
def test_bad_shapes_raise_the_composites_errors(shapes, message):
    q, k, v = (jnp.zeros(s, jnp.float32) for s in shapes)
    with pytest.raises(ValueError, match=f"scaled_dot_product_attention: {message}"):
        SDPA(q, k, v)


def test_a_mask_that_does_not_broadcast_raises_the_composites_error():
    q, k, v = _qkv((2, 3, 4))
    with pytest.raises(ValueError, match="attn_mask of shape"):
        SDPA(q, k, v, attn_mask=jnp.ones((5, 4), bool))

"""Two ways XLA's CPU compiler (jaxlib 0.10.2) gets values wrong that ivy_like works around
(``backends/jax/transforms.py``, ``backends/jax/nn.py``), each checked under
``ivy_like.compile`` against the eager result. Each compilation may differ, so each check
compiles a few times."""

from __future__ import annotations

import numpy as np
import pytest

import ivy_like

jax = pytest.importorskip("jax")


def _compiled_runs(f, *args, times: int = 4):
    with ivy_like.use_backend("jax"):
        arrays = [ivy_like.asarray(a) for a in args]
        eager = np.asarray(ivy_like.to_numpy(f(*arrays)))
        runs = [np.asarray(ivy_like.to_numpy(ivy_like.compile(f)(*arrays))) for _ in range(times)]
    return eager, runs


def test_a_convolution_by_a_constant_kernel_then_a_sum():
    """YNNPACK's convolution + reduction fusion gave 0, inf or NaN for a kernel that is one
    repeated constant (how ONNX's ConstantOfShape weights arrive)."""
    w = np.full((128, 64, 1, 1), 0.02, np.float32)

    def f(x):
        y = ivy_like.nn.conv2d(x, ivy_like.asarray(w))
        return ivy_like.sum(y, axis=(2, 3))

    x = np.ones((1, 64, 13, 13), np.float32)
    eager, runs = _compiled_runs(f, x)
    np.testing.assert_allclose(eager, np.full((1, 128), 64 * 0.02 * 169), rtol=1e-5)
    for run in runs:
        np.testing.assert_allclose(run, eager, rtol=1e-5)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_of_huge_means(name):
    """A mean (a multiply by 1/n) feeding both the maximum and the shift of a softmax, fused
    into a multiply-add in one place and not the other: at logits of 1e10 the shift was off
    by hundreds and every exp underflowed (NaN)."""
    rng = np.random.default_rng(0)
    x = (1e10 * (1 + 1e-3 * rng.standard_normal((1, 100, 13, 13)))).astype(np.float32)
    op = getattr(ivy_like.nn, name)

    def f(v):
        return op(ivy_like.mean(v, axis=(2, 3)), axis=1)

    eager, runs = _compiled_runs(f, x)
    assert np.isfinite(eager).all()
    # the means themselves round differently compiled (a few units in the last place, 1024
    # at 1e10), which log_softmax shows as they are: a difference of that size, not a NaN
    atol = 1e-6 if name == "softmax" else 16 * 1024
    for run in runs:
        assert np.isfinite(run).all()
        np.testing.assert_allclose(run, eager, rtol=1e-5, atol=atol)

"""Independent references for the nn and optimizer tests: PyTorch (``torch.nn.functional``)
in float64, and the tests' seeded inputs.

Every reference here is computed by PyTorch from NumPy inputs, never through ivy_like, and
returned as NumPy in the dtype of the ivy_like result under test (float32 by default).
"""

from __future__ import annotations

from typing import Any

import numpy as np

RNG_SEED = 1234


def rand(*shape: int, seed: int = 0, scale: float = 1.0) -> np.ndarray:
    """Standard normal float32 numbers (NumPy's generator; the tests' inputs)."""
    rng = np.random.default_rng(RNG_SEED + seed)
    return (scale * rng.standard_normal(shape)).astype(np.float32)


def t64(a: Any) -> Any:
    """A float64 torch tensor (integers stay integers) from a NumPy array."""
    import torch

    a = np.asarray(a)
    if a.dtype.kind == "f":
        return torch.from_numpy(a.astype(np.float64))
    if a.dtype.kind == "b":
        return torch.from_numpy(a)
    return torch.from_numpy(a.astype(np.int64))


def f32(t: Any) -> np.ndarray:
    return t.detach().numpy().astype(np.float32)


def torch_same_pads(size: int, k: int, s: int, d: int) -> tuple[int, int]:
    """TF/XLA's "SAME" rule, written out independently of ivy_like: ceil(size/s) outputs,
    the odd padding element at the end."""
    out = -(-size // s)
    total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
    return total // 2, total - total // 2


def conv_ref(
    n: int,
    x: np.ndarray,
    w: np.ndarray,
    b: np.ndarray | None,
    stride: Any,
    padding: Any,
    dilation: Any,
    groups: int,
) -> np.ndarray:
    """torch conv on channels-first inputs, padding resolved to explicit (lo, hi) pairs first."""
    import torch.nn.functional as F

    spatial = x.shape[2:]
    kernel = w.shape[2:]
    st = (stride,) * n if isinstance(stride, int) else tuple(stride)
    dl = (dilation,) * n if isinstance(dilation, int) else tuple(dilation)
    if isinstance(padding, str):
        if padding.lower() == "valid":
            pads = [(0, 0)] * n
        else:
            pads = [torch_same_pads(*a) for a in zip(spatial, kernel, st, dl)]
    elif isinstance(padding, int):
        pads = [(padding, padding)] * n
    elif all(isinstance(p, int) for p in padding):
        pads = [(p, p) for p in padding]
    else:
        pads = [tuple(p) for p in padding]
    xt = F.pad(t64(x), [v for pair in reversed(pads) for v in pair])
    fn = F.conv1d if n == 1 else F.conv2d
    y = fn(xt, t64(w), None if b is None else t64(b), st, 0, dl, groups)
    return f32(y)

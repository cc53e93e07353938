"""Shared by the torch converter tests: seeded generators and non-trivial normalization
statistics (fresh ones, mean 0, var 1, weight 1, bias 0, would hide a mix-up of the four)."""

import torch


def gen(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def randomize_norms(net: torch.nn.Module, seed: int, linear: bool = False) -> None:
    """Random BatchNorm statistics and affine weights; with ``linear``, random Linear weights
    (scale 0.2) too."""
    g = gen(seed)
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                n = m.num_features
                m.running_mean.copy_(torch.rand(n, generator=g) - 0.5)
                m.running_var.copy_(torch.rand(n, generator=g) + 0.5)
                m.weight.copy_(torch.rand(n, generator=g) + 0.5)
                m.bias.copy_(torch.rand(n, generator=g) - 0.5)
            elif linear and isinstance(m, torch.nn.Linear):
                m.weight.copy_(torch.randn(m.weight.shape, generator=g) * 0.2)

"""The table of ``torch.nn`` layers a ``torch.nn.Sequential`` converts through, both ways.

:func:`layer_spec` reads one ``torch.nn`` layer as a :class:`~ivy_like.convert._specs.Spec`
(ivy_like's layers take PyTorch's layouts and parameter names, so the weights move as they
are) and :func:`layer_module` builds the ``torch.nn`` layer of a spec; :class:`Permute` is what
ivy_like's ``Permute`` layer becomes in torch. Imported only when a torch conversion is asked
for.
"""

from __future__ import annotations

from typing import Any

import torch

from .._errors import unsupported
from .._specs import PARAMS, Spec

SUPPORTED = tuple(k for k in PARAMS if k != "Permute")


class Permute(torch.nn.Module):
    """``x.permute(*dims)`` as a module: what ivy_like's ``Permute`` layer becomes in torch.

    Examples
    --------
    >>> import torch
    >>> from ivy_like.convert import TorchPermute
    >>> TorchPermute((0, 2, 1))(torch.zeros(1, 2, 3)).shape
    torch.Size([1, 3, 2])
    """

    def __init__(self, dims: Any) -> None:
        super().__init__()
        self.dims = tuple(int(d) for d in dims)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.permute(*self.dims)

    def extra_repr(self) -> str:
        return f"dims={self.dims}"


def _pair(v: Any) -> Any:
    """An int for a square (h, w) pair, the tuple otherwise (the form ivy_like's layers take)."""
    if isinstance(v, (tuple, list)):
        return int(v[0]) if len(set(v)) == 1 else tuple(int(i) for i in v)
    return v if isinstance(v, str) else int(v)


def _weights(module: torch.nn.Module, names: tuple[str, ...], copy: bool) -> dict[str, Any]:
    out = {}
    for name in names:
        t = getattr(module, name, None)
        if t is None:
            continue
        t = t.detach()  # a tensor requiring grad cannot be exported through DLPack
        out[name] = t.clone() if copy else t
    return out


def layer_spec(i: int, m: torch.nn.Module, copy: bool) -> Spec:
    nn = torch.nn
    where = "from_torch"

    def fail(why: str = "") -> Exception:
        return unsupported(where, i, m, SUPPORTED, why)

    if isinstance(m, nn.Linear):
        w = _weights(m, ("weight", "bias"), copy)
        return Spec(
            "Linear",
            {"in_features": m.in_features, "out_features": m.out_features, "bias": "bias" in w},
            w,
        )
    if isinstance(m, (nn.Conv1d, nn.Conv2d)):
        if m.padding_mode != "zeros":
            raise fail(f"padding_mode={m.padding_mode!r}; only 'zeros'")
        if isinstance(m, nn.Conv1d):
            unpack = lambda v: v if isinstance(v, str) else int(v[0])  # noqa: E731
        else:
            unpack = _pair
        w = _weights(m, ("weight", "bias"), copy)
        config = {
            "in_channels": m.in_channels,
            "out_channels": m.out_channels,
            "kernel_size": unpack(m.kernel_size),
            "stride": unpack(m.stride),
            "padding": unpack(m.padding),
            "dilation": unpack(m.dilation),
            "groups": m.groups,
            "bias": "bias" in w,
        }
        return Spec(type(m).__name__, config, w)
    if isinstance(m, (nn.MaxPool2d, nn.AvgPool2d)):
        if m.ceil_mode:
            raise fail("ceil_mode=True")
        if isinstance(m, nn.MaxPool2d) and (_pair(m.dilation) != 1 or m.return_indices):
            raise fail("dilation or return_indices")
        if isinstance(m, nn.AvgPool2d) and (
            m.divisor_override is not None or (not m.count_include_pad and _pair(m.padding) != 0)
        ):
            raise fail("divisor_override, or count_include_pad=False with padding")
        stride = m.kernel_size if m.stride is None else m.stride
        config = {
            "kernel_size": _pair(m.kernel_size),
            "stride": _pair(stride),
            "padding": _pair(m.padding),
        }
        return Spec(type(m).__name__, config)
    if isinstance(m, nn.LayerNorm):
        shape = tuple(m.normalized_shape)
        w = _weights(m, ("weight", "bias"), copy)
        # Without affine parameters LayerNorm is the same as weight 1, bias 0.
        ones = torch.ones(shape, dtype=_float_dtype(m))
        w.setdefault("weight", ones)
        w.setdefault("bias", torch.zeros_like(ones))
        norm = shape[0] if len(shape) == 1 else shape
        return Spec("LayerNorm", {"normalized_shape": norm, "eps": m.eps}, w)
    if isinstance(m, nn.BatchNorm2d):
        if not m.track_running_stats or m.running_mean is None:
            raise fail("track_running_stats=False: no running statistics to use at inference")
        w = _weights(m, PARAMS["BatchNorm2d"], copy)
        w.setdefault("weight", torch.ones_like(w["running_mean"]))
        w.setdefault("bias", torch.zeros_like(w["running_mean"]))
        return Spec("BatchNorm2d", {"num_features": m.num_features, "eps": m.eps}, w)
    if isinstance(m, nn.Embedding):
        if m.max_norm is not None:
            raise fail("max_norm renormalizes the weights at lookup")
        w = _weights(m, ("weight",), copy)
        return Spec(
            "Embedding", {"num_embeddings": m.num_embeddings, "embedding_dim": m.embedding_dim}, w
        )
    if isinstance(m, nn.Dropout):
        return Spec("Dropout", {"p": m.p})
    if isinstance(m, nn.GELU):
        return Spec("GELU", {"approximate": m.approximate})
    if isinstance(m, (nn.Softmax, nn.LogSoftmax)):
        if m.dim is None:
            raise fail("dim=None (implicit dimension); give dim explicitly")
        return Spec(type(m).__name__, {"axis": m.dim})
    if isinstance(m, nn.Flatten):
        if m.end_dim != -1:
            raise fail(f"end_dim={m.end_dim}; only -1")
        return Spec("Flatten", {"start_dim": m.start_dim})
    if isinstance(m, Permute):
        return Spec("Permute", {"dims": m.dims})
    for kind in ("ReLU", "SiLU", "Sigmoid", "Tanh"):
        if type(m) is getattr(nn, kind):
            return Spec(kind)
    raise fail()


def _float_dtype(m: torch.nn.Module) -> torch.dtype:
    for t in list(m.parameters()) + list(m.buffers()):
        if t.is_floating_point():
            return t.dtype
    return torch.get_default_dtype()


def layer_module(spec: Spec, affine: bool = True) -> torch.nn.Module:
    """The ``torch.nn`` layer of ``spec``; ``affine=False``: a norm without its weight and bias."""
    nn, c = torch.nn, spec.config
    kind = spec.kind
    if kind in ("Linear", "Conv1d", "Conv2d", "Embedding", "MaxPool2d", "AvgPool2d"):
        return getattr(nn, kind)(**c)
    if kind == "LayerNorm":
        return nn.LayerNorm(c["normalized_shape"], eps=c["eps"], elementwise_affine=affine)
    if kind == "BatchNorm2d":
        return nn.BatchNorm2d(c["num_features"], eps=c["eps"], affine=affine)
    if kind == "Dropout":
        return nn.Dropout(c["p"])
    if kind == "GELU":
        return nn.GELU(approximate=c["approximate"])
    if kind in ("Softmax", "LogSoftmax"):
        return getattr(nn, kind)(dim=c["axis"])
    if kind == "Flatten":
        return nn.Flatten(start_dim=c["start_dim"])
    if kind == "Permute":
        return Permute(c["dims"])
    return getattr(nn, kind)()

"""The ATen op table of the PyTorch graph converter, one module per op family.

Importing this package fills :data:`~.registry.ATEN` (and its side tables of checks, promoted
arguments, creation ops and partial outputs) from every family module, so a reader finds an
op's function where its family is (``convolution.py`` holds ``aten.convolution.default``), and
the capture in ``convert/torch/capture.py`` reads one table. Adding an op is one decorated
function in its family's module (see "Adding a converter handler" in ``docs/contributing.md``).
"""

from __future__ import annotations

from . import (
    activations,
    arithmetic,
    convolution,
    creation,
    indexing,
    normalization,
    products,
    reductions,
    shapes,
)
from .attention import attention_rows_attend, dropout, rows_attend, scaled_dot_product_attention
from .creation import identity, no_op
from .indexing import index_rows
from .products import addmm_as_linear
from .registry import (
    ATEN,
    CHECKS,
    CREATION,
    OUTPUTS,
    PROMOTE,
    REASONS,
    TensorMeta,
    aten,
    supported_ops,
    supported_ops_markdown,
)

__all__ = [
    "ATEN",
    "CHECKS",
    "CREATION",
    "OUTPUTS",
    "PROMOTE",
    "REASONS",
    "TensorMeta",
    "activations",
    "addmm_as_linear",
    "arithmetic",
    "aten",
    "attention_rows_attend",
    "rows_attend",
    "convolution",
    "creation",
    "dropout",
    "identity",
    "index_rows",
    "indexing",
    "no_op",
    "normalization",
    "products",
    "reductions",
    "scaled_dot_product_attention",
    "shapes",
    "supported_ops",
    "supported_ops_markdown",
]

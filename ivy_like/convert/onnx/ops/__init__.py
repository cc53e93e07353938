"""The handlers of the ONNX operators, one module per family, registered in :mod:`.._table`.

Importing this package registers them all. Each handler computes one operator with ivy_like
ops only (no framework, no onnx), so a converted model runs, differentiates and compiles on
every backend; the rules of the table (what a handler receives, how attributes arrive) are in
``_table.py``.
"""

from __future__ import annotations

from .._table import supported_ops, supported_ops_markdown
from . import (  # noqa: F401 - imported for their registrations
    activations,
    attention,
    elementwise,
    indexing,
    nn,
    pooling,
    products,
    recurrent,
    reductions,
    resize,
    sampling,
    shapes,
)

# The listings are published here: importing this package registers every handler first.
__all__ = ["supported_ops", "supported_ops_markdown"]
